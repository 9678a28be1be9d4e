"""Each chapter's checks exercise every branch the chapter writes: the chapter's own solution
passes them, and each deliberately broken version of it (a mutant) fails them, with a
message that names the check and the turn.

The solutions are read from the chapters themselves (notebooks/0N_*.ipynb): their code
cells' definitions, without the cells that simulate or draw. A mutant replaces one piece
of that code, so a chapter's checks are tested against the very code students write.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import nbformat
import pytest

from monopoly_lesson import CHAPTER_CHECKS, SCENARIOS, Rules, check_chapter, take_turn
from monopoly_lesson.checker.chapter_checks import CHAPTER_RULES, ChapterCheck

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = {
    int(path.name[:2]): path for path in sorted((ROOT / "notebooks").glob("0[1-6]_*.ipynb"))
}


def _definitions(source: str) -> list[str]:
    """The imports, functions and constants of a code cell (no call is made at its top)."""
    code = "\n".join(line for line in source.split("\n") if not line.startswith("#|"))
    kept = []
    for node in ast.parse(code).body:
        calls = any(isinstance(n, ast.Call) for n in ast.walk(node))
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef)) or (
            isinstance(node, ast.Assign) and not calls
        ):
            kept.append(ast.get_source_segment(code, node))
    return kept


def solution_source(chapter: int) -> str:
    """A chapter's definitions, from its notebook, as one piece of code."""
    notebook = nbformat.read(CHAPTERS[chapter], as_version=4)
    cells = [c.source for c in notebook.cells if c.cell_type == "code"]
    return "\n\n".join(part for source in cells for part in _definitions(source))


def solution(chapter: int, mutant: tuple[str, str] | None = None):
    """A chapter's take_turn, as written in the chapter, with one optional mutation."""
    source = solution_source(chapter)
    if mutant:
        old, new = mutant
        assert source.count(old) == 1, f"chapter {chapter}: {old!r} should occur once"
        source = source.replace(old, new)
    namespace: dict = {}
    exec(compile(source, f"chapter {chapter}", "exec"), namespace)
    return namespace["take_turn"]


MUTANTS = {
    1: {
        "moves by one die": ("player.move_forward(d1 + d2)", "player.move_forward(d1)"),
        "moves one space too far": ("move_forward(d1 + d2)", "move_forward(d1 + d2 + 1)"),
        "tallies before moving": (
            "    player.move_forward(d1 + d2)\n    tracker.tally(player.pos)",
            "    tracker.tally(player.pos)\n    player.move_forward(d1 + d2)",
        ),
        "tallies nothing": ("    tracker.tally(player.pos)", "    pass"),
        "tallies twice": ("    tracker.tally(player.pos)", "    tracker.tally(player.pos)\n" * 2),
        "rolls twice": ("    d1, d2 = dice.roll()", "    dice.roll()\n    d1, d2 = dice.roll()"),
    },
    2: {
        "ordinary landing tallies the next space": (
            "    else:\n        tracker.tally(player.pos)",
            "    else:\n        tracker.tally(player.pos + 1)",
        ),
        "send_to_jail does not tally Jail": (
            "    player.move_to(JAIL)\n    tracker.tally(JAIL)",
            "    player.move_to(JAIL)",
        ),
        "send_to_jail leaves the token on Go to Jail": ("    player.move_to(JAIL)\n", "    pass\n"),
        "Go to Jail is tallied too": (
            "        send_to_jail(player, tracker)\n    else:",
            "        tracker.tally(GO_TO_JAIL)\n        send_to_jail(player, tracker)\n    else:",
        ),
        "the wrong space sends to jail": (
            "player.pos == GO_TO_JAIL",
            "player.pos == GO_TO_JAIL - 1",
        ),
        "Jail is tallied twice": ("    tracker.tally(JAIL)", "    tracker.tally(JAIL)\n" * 2),
    },
    3: {
        "nearest looks backwards": ("(space - pos - 1) % 40", "(pos - space - 1) % 40"),
        "Community Chest draws no card": (
            "    if player.pos in COMMUNITY_CHEST:",
            "    if player.pos in ():",
        ),
        "Chance draws from the Community Chest deck": (
            "follow_card(player, tracker, chance, chance",
            "follow_card(player, tracker, community, chance",
        ),
        "Go Back 3 is not a new landing": (
            "        player.move_to(player.pos - 3)",
            "        player.move_to(player.pos - 3)\n        tracker.tally(player.pos)\n"
            "        return False",
        ),
        "Go Back 3 goes forward": ("move_to(player.pos - 3)", "move_forward(3)"),
        "the Go to Jail card is ignored": ('if card == "Go to Jail":', 'if card == "Go to jail":'),
        "a card that does not move lands again": (
            "return False  # a card that does not move the token",
            "pass",
        ),
        "advancing does not move": (
            "player.move_forward((ADVANCE_TO[card] - player.pos) % 40)",
            "pass",
        ),
        "nearest railroad and utility swapped": (
            '"Advance token to nearest Utility": UTILITIES',
            '"Advance token to nearest Utility": RAILROADS',
        ),
        "card spaces are not tallied": (
            "    tracker.tally(player.pos)\n    if player.pos in CHANCE:",
            "    if player.pos not in CHANCE + COMMUNITY_CHEST:\n"
            "        tracker.tally(player.pos)\n    if player.pos in CHANCE:",
        ),
        "land forgets Go to Jail": (
            "    if player.pos == GO_TO_JAIL:\n        send_to_jail(player, tracker)\n        ret",
            "    if player.pos == 0:\n        send_to_jail(player, tracker)\n        ret",
        ),
    },
    4: {
        "no roll again after doubles": ("        if d1 != d2 or sent_to_jail:", "        if True:"),
        "rolls again after being sent to jail": ("if d1 != d2 or sent_to_jail:", "if d1 != d2:"),
        "rolls again without doubles": ("if d1 != d2 or sent_to_jail:", "if sent_to_jail:"),
        "no three-doubles rule": ("if d1 == d2 and roll == 3:", "if False:"),
        "jail on the second doubles": ("if d1 == d2 and roll == 3:", "if d1 == d2 and roll == 2:"),
        "the third doubles moves before jail": (
            "            send_to_jail(player, tracker)\n            return",
            "            player.move_forward(d1 + d2)\n"
            "            land(player, tracker, chance=chance, community=community)\n"
            "            send_to_jail(player, tracker)\n            return",
        ),
    },
    5: {
        "staying does not tally Jail": (
            "    else:\n        tracker.tally(JAIL)",
            "    else:\n        pass",
        ),
        "rolls again after leaving on doubles": (
            "community=community)  # no roll again",
            "community=community)\n        if d1 == d2:\n"
            "            free_turn(player, tracker, dice=dice, chance=chance, community=community)",
        ),
        "leaves on the fourth turn": ("player.jail_turns == 3", "player.jail_turns == 4"),
        "leaves on the second turn": ("player.jail_turns == 3", "player.jail_turns >= 2"),
        "sent to jail but not held": ("    player.go_to_jail()", "    player.move_to(JAIL)"),
        "turns in jail are not counted": (
            "    player.start_jail_turn()  # jail_turns counts 1, 2, 3",
            "    pass",
        ),
        "take_turn ignores jail": ("    if player.in_jail:", "    if False:"),
        "leaving jail tallies without resolving the landing": (
            "land(player, tracker, chance=chance, community=community)  # no roll again",
            "tracker.tally(player.pos)",
        ),
        "leaving jail does not move": (
            "        player.leave_jail()\n        player.move_forward(d1 + d2)\n",
            "        player.leave_jail()\n",
        ),
    },
}
MUTANTS[6] = {name: change for chapter in (3, 4, 5) for name, change in MUTANTS[chapter].items()}
CASES = [(chapter, name) for chapter, mutants in MUTANTS.items() for name in mutants]


@pytest.mark.parametrize("chapter", sorted(CHAPTER_CHECKS))
def test_the_reference_engine_passes_every_chapter(chapter, capsys):
    check_chapter(take_turn, chapter)
    out = capsys.readouterr().out
    assert out.startswith(f"Chapter {chapter}: all {len(CHAPTER_CHECKS[chapter])} checks pass")
    assert all(f"  pass  {check.name}\n" in out for check in CHAPTER_CHECKS[chapter])


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_each_chapters_own_solution_passes_its_checks_and_the_earlier_ones(chapter, capsys):
    fn = solution(chapter)
    for earlier in range(1, chapter + 1):
        check_chapter(fn, earlier)
    assert "fail" not in capsys.readouterr().out


@pytest.mark.parametrize("chapter", [1, 2, 3, 4])
def test_a_chapters_checks_fail_the_previous_chapters_solution(chapter):
    """Each chapter's checks test the rule it adds: last chapter's code does not pass them."""
    with pytest.raises(AssertionError, match=rf"^Chapter {chapter + 1}: \d+ of \d+ checks fail"):
        check_chapter(solution(chapter), chapter + 1)


@pytest.mark.parametrize(("chapter", "mutant"), CASES, ids=[f"{c}-{m}" for c, m in CASES])
def test_every_mutant_of_a_chapter_is_caught_by_its_checks(chapter, mutant):
    fn = solution(chapter, MUTANTS[chapter][mutant])
    with pytest.raises(AssertionError) as caught:
        check_chapter(fn, chapter)
    message = str(caught.value)
    headline = message.splitlines()[0]
    names = [check.name for check in CHAPTER_CHECKS[chapter]]
    assert re.match(rf"Chapter {chapter}: \d+ of {len(names)} checks fail; the first: ", headline)
    assert any(f"the first: {name}, turn " in headline for name in names), headline
    failures = [line for line in message.splitlines() if line.startswith("FAIL  ")]
    assert failures and all(re.search(r", turn \d+: ", line) for line in failures)
    assert "The rules expect: tallies " in message and "Your take_turn:   tallies " in message
    assert "What should happen:" in message and "What your take_turn did:" in message


def test_chapter_2_names_the_scenario_turn_expectation_and_what_happened():
    """The issue's example: a send_to_jail that does not tally Jail."""
    fn = solution(2, MUTANTS[2]["send_to_jail does not tally Jail"])
    with pytest.raises(AssertionError) as caught:
        check_chapter(fn, 2)
    message = str(caught.value)
    assert message.splitlines()[0] == (
        "Chapter 2: 1 of 3 checks fail; the first: Go to Jail by dice: from Indiana Avenue (24), "
        "3 and 4 (scenario 1 of the rules), turn 1."
    )
    assert "your take_turn tallied nothing this turn; the rules tally Jail (11)" in message
    assert "The rules expect: tallies Jail (11); 1 roll; no card; the token ends on Jail" in message
    assert "Your take_turn:   tallies nothing; 1 roll; no card; the token ends on Jail" in message
    assert "pass  an ordinary landing" in message


def test_an_error_in_the_students_code_is_raised_with_the_check_and_turn():
    def broken(player, tracker, *, dice, chance, community):
        raise NotImplementedError("Write this part of take_turn, then run its cell again.")

    with pytest.raises(NotImplementedError, match=r"^Write this part") as caught:
        check_chapter(broken, 1)
    notes = getattr(caught.value, "__notes__", [])
    assert notes == [f"(raised by your take_turn in {CHAPTER_CHECKS[1][0].name}, turn 1)"]


def test_one_roll_too_many_is_explained():
    def rolls_again(player, tracker, *, dice, chance, community):
        for _ in range(2):
            d1, d2 = dice.roll()
            player.move_forward(d1 + d2)
            tracker.tally(player.pos)

    with pytest.raises(AssertionError, match="your take_turn rolled again; the turn should end"):
        check_chapter(rolls_again, 1)


@pytest.mark.parametrize(
    ("args", "error", "words"),
    [
        ((take_turn, 7), ValueError, r"chapters with checks are \[1, 2, 3, 4, 5, 6\], got 7"),
        ((take_turn, "2"), TypeError, "chapter must be a whole number"),
        ((take_turn, True), TypeError, "chapter must be a whole number"),
        (("take_turn", 2), TypeError, "expected a take_turn function, got str"),
    ],
)
def test_bad_input_is_refused_clearly(args, error, words):
    with pytest.raises(error, match=words):
        check_chapter(*args)


def test_the_rules_scenarios_in_the_checks_are_the_rules_scenarios():
    used = [c for checks in CHAPTER_CHECKS.values() for c in checks if "of the rules)" in c.name]
    for check in used:
        number = int(re.search(r"scenario (\d) of the rules", check.name).group(1))
        s = SCENARIOS[number]
        assert (check.start, check.dice, check.turns) == (s.start, s.dice, s.turns)
        assert (check.chance_order, check.chest_order) == (s.chance_order, s.chest_order)
    assert {int(re.search(r"scenario (\d)", c.name).group(1)) for c in used} == set(SCENARIOS)


def test_checks_before_chapter_5_never_play_on_after_being_sent_to_jail():
    """Before chapter 5 jail holds nobody, so a game must end when its player is sent there."""
    from monopoly_lesson import play_preset

    for chapter in (1, 2, 3, 4):
        for check in CHAPTER_CHECKS[chapter]:
            assert isinstance(check, ChapterCheck) and check.jail_turns is None
            for turns in range(1, check.turns):
                seat = play_preset(
                    dice=check.dice,
                    start=check.start,
                    turns=turns,
                    chance_order=check.chance_order,
                    chest_order=check.chest_order,
                )
                assert not seat.player.in_jail, f"chapter {chapter}: {check.name}, turn {turns}"


@pytest.mark.parametrize("chapter", sorted(CHAPTERS))
def test_the_chapter_runs_its_checks_and_no_check_is_a_bare_assert(chapter):
    notebook = nbformat.read(CHAPTERS[chapter], as_version=4)
    code = [c.source for c in notebook.cells if c.cell_type == "code"]
    assert any(f"check_chapter(take_turn, {chapter})" in source for source in code)
    for source in code:
        lines = "\n".join(line for line in source.split("\n") if not line.startswith("#|"))
        bare = [n for n in ast.walk(ast.parse(lines)) if isinstance(n, ast.Assert) and not n.msg]
        assert not bare, f"{CHAPTERS[chapter].name}: an assert without a message: {source!r}"


@pytest.mark.parametrize("chapter", [1, 2, 3, 4])
def test_a_chapters_solution_is_the_reference_engine_under_that_chapters_rules(chapter):
    """CHAPTER_RULES switch off what the chapter has not taught: the reference engine then
    plays exactly as the chapter's own take_turn, turn by turn on random dice and decks."""
    from monopoly_lesson.checker.probe import game_seat

    game = {"start": 1, "dice_seed": chapter, "seed": 7, "turns": 400}
    reference = game_seat(game, verbose=False, rules=CHAPTER_RULES[chapter])
    student = game_seat(game, verbose=False)
    own = solution(chapter)
    for _ in range(game["turns"]):
        reference.play()
        student.play(own)
        assert reference.tallies == student.tallies and reference.player.pos == student.player.pos
    if chapter > 1:  # and the chapter before plays otherwise
        earlier = game_seat(game, verbose=False, rules=CHAPTER_RULES[chapter - 1]).play(turns=400)
        assert earlier.tallies != reference.tallies


@pytest.mark.parametrize("chapter", [1, 2, 3, 4])
def test_the_exact_and_fast_engines_follow_a_chapters_rules(chapter):
    """The switches live in the reference engine, so the engines derived from it follow."""
    import numpy as np

    from monopoly_lesson.exact import expected_tallies
    from monopoly_lesson.fast import fast_game_tallies

    rules = CHAPTER_RULES[chapter]
    per_game = fast_game_tallies(2000, 50, players=1, seed=chapter, rules=rules)
    expected = expected_tallies(50, rules).to_numpy()
    se = per_game.std(axis=0, ddof=1) / np.sqrt(len(per_game))
    z = (per_game.mean(axis=0) - expected) / np.where(se > 0, se, 1)
    assert np.abs(z).max() < 4.5
    assert (per_game[:, 30].sum() > 0) == (chapter == 1), "only chapter 1 tallies Go to Jail"
    jail_share = expected[10] / expected.sum()
    assert jail_share < 0.07, "before chapter 5 nobody is held in jail"


def test_rules_the_chapters_switch_off_are_refused_for_a_take_turn_without_rules():
    from monopoly_lesson import simulate

    with pytest.raises(ValueError, match="cards=False"):
        simulate(games=1, rules=CHAPTER_RULES[2], take_turn=solution(2))
    with pytest.raises(TypeError, match="doubles must be True or False"):
        Rules(doubles="no")
