"""Grading a student's take_turn: a correct one passes however it is written, and each
deliberately broken one fails the check of its rule, with a message a student can follow."""

import pytest
from test_chapter_checks import MUTANTS, solution  # each chapter's take_turn, as written

from monopoly_lesson import CHAPTER_CHECKS, simulate, take_turn
from monopoly_lesson.grading import RULE_CHECKS, check_results, check_take_turn
from monopoly_lesson.trends import TRENDS

CHANCE, CHEST = (8, 23, 37), (3, 18, 34)
ADVANCE = {
    "Advance to Go": 1,
    "Advance to Illinois Ave.": 25,
    "Advance to St. Charles Place": 12,
    "Take a ride on the Reading Railroad": 6,
    "Take a walk on the Boardwalk": 40,
}
NEAREST = {
    "Advance token to nearest Utility": (13, 29),
    "Advance token to the nearest Railroad": (6, 16, 26, 36),
}


def student(bug=None):
    """A take_turn written the way the lesson's chapters write it, with one optional bug."""

    def send_to_jail(player, tracker):
        player.go_to_jail()
        tracker.tally(11)

    def land(player, tracker, chance, community):
        if player.pos == 31:
            if bug == "tally Go to Jail":
                tracker.tally(31)
            send_to_jail(player, tracker)
            return True
        tracker.tally(player.pos)
        if player.pos in CHANCE:
            return card(player, tracker, chance, chance, community)
        if player.pos in CHEST and bug != "ignore Community Chest":
            return card(player, tracker, community, chance, community)
        return False

    def card(player, tracker, deck, chance, community):
        text = deck.card(deck.draw())
        if text == "Go to Jail":
            send_to_jail(player, tracker)
            return True
        if text in ADVANCE:
            player.move_forward((ADVANCE[text] - player.pos) % 40)
        elif text in NEAREST:
            if bug == "nearest backwards":
                target = max(s for s in NEAREST[text] if s < player.pos)
            else:
                target = min(NEAREST[text], key=lambda s: (s - player.pos - 1) % 40)
            player.move_forward((target - player.pos) % 40)
        elif text == "Go Back 3 Spaces":
            player.move_to(player.pos - 3)
            if bug == "no landing after going back":
                tracker.tally(player.pos)
                return False
        else:
            return False
        return land(player, tracker, chance, community)

    def free_turn(player, tracker, dice, chance, community):
        for roll in (1, 2, 3):
            d1, d2 = dice.roll()
            if d1 == d2 and roll == 3 and bug != "no three doubles rule":
                send_to_jail(player, tracker)
                return
            player.move_forward(d1 + d2)
            jailed = land(player, tracker, chance, community)
            if bug == "roll again after jail":
                jailed = False
            if d1 != d2 or jailed or bug == "no roll again":
                return

    def jail_turn(player, tracker, dice, chance, community):
        player.start_jail_turn()
        d1, d2 = dice.roll()
        last = 4 if bug == "leave on the fourth turn" else 3
        if d1 == d2 or player.jail_turns >= last:
            player.leave_jail()
            player.move_forward(d1 + d2)
            land(player, tracker, chance, community)
            if d1 == d2 and bug == "roll again after leaving jail":
                free_turn(player, tracker, dice, chance, community)
        elif bug != "no tally while in jail":
            tracker.tally(11)

    def take_turn(player, tracker, *, dice, chance, community):
        turn = jail_turn if player.in_jail else free_turn
        turn(player, tracker, dice, chance, community)

    return take_turn


def test_the_reference_passes():
    report = check_take_turn(take_turn)
    assert report.passed and report.failures == []
    assert len(report.checks) == 5 + len(RULE_CHECKS) + 1
    assert report.checks[0].rule == "scenario 1 of the rules (dice onto Go to Jail)"


def test_a_send_to_jail_that_does_not_tally_jail_is_explained_in_the_students_terms():
    def forgets_jail(player, tracker, *, dice, chance, community):
        d1, d2 = dice.roll()
        player.move_forward(d1 + d2)
        if player.pos == 31:
            player.go_to_jail()  # but Jail is not tallied
        else:
            tracker.tally(player.pos)

    failed = check_take_turn(forgets_jail, random_games=1, random_turns=20).failures[0]
    assert failed.rule == "scenario 1 of the rules (dice onto Go to Jail)" and failed.turn == 1
    assert failed.message.startswith(
        "your take_turn tallied nothing this turn; the rules tally Jail (11); the turn started "
        "on Indiana Avenue (24)."
    )
    assert "The rules expect: tallies Jail (11); 1 roll; no card" in failed.message
    assert "Your take_turn:   tallies nothing; 1 roll; no card" in failed.message


def test_a_correct_take_turn_written_differently_passes():
    report = check_take_turn(student())
    assert report.passed, str(report)


BUGS = {
    "tally Go to Jail": ("Go to Jail (31) sends the player to jail", "tallied Go to Jail (31)"),
    "ignore Community Chest": ("a Community Chest card sends the player to jail", "Community"),
    "nearest backwards": (
        "nearest railroad is the next one forward, passing Go",
        "tallied Short Line Railroad (36), Chance (37) this turn; the rules "
        "tally Reading Railroad (6), Chance (37)",
    ),
    "no landing after going back": ("Go Back 3 from Chance 37 lands on Community Chest", "draw"),
    "no roll again": ("doubles roll again", "stopped after 1 roll; the rules roll 2"),
    "roll again after jail": (
        "being sent to jail during doubles ends the turn",
        "after the player was sent to jail, your take_turn rolled again",
    ),
    "no three doubles rule": ("three doubles in a row", ""),
    "no tally while in jail": (
        "in jail without doubles: stay, and tally Jail",
        "the rules tally Jail (11)",
    ),
    "roll again after leaving jail": (
        "in jail: doubles leave, move, and no roll again",
        "after leaving jail with doubles, your take_turn rolled again; the turn should end",
    ),
    "leave on the fourth turn": ("in jail: the third turn leaves anyway", ""),
}


@pytest.mark.parametrize("bug", BUGS)
def test_a_broken_rule_fails_its_check(bug):
    rule, words = BUGS[bug]
    report = check_take_turn(student(bug), random_games=3, random_turns=100)
    assert not report.passed
    failed = {check.rule: check for check in report.failures}
    matching = [name for name in failed if name.startswith(rule)]
    assert matching, f"{bug!r} should fail {rule!r}; failed: {list(failed)}"
    check = failed[matching[0]]
    assert check.turn is not None and words in check.message
    assert "What should happen:" in check.message and "What your take_turn did:" in check.message
    assert "The rules expect: " in check.message and "Your take_turn: " in check.message


def test_an_error_in_take_turn_is_reported():
    def broken(player, tracker, *, dice, chance, community):
        raise ZeroDivisionError("oops")

    report = check_take_turn(broken, random_games=1, random_turns=5)
    assert not report.passed
    assert "raised ZeroDivisionError: oops" in report.failures[0].message


def test_not_a_function():
    with pytest.raises(TypeError, match="expected a take_turn function"):
        check_take_turn("take_turn")


def test_results_report_is_fair():
    correct = check_results(simulate(seed=2026, progress=False).table())
    text = str(correct)
    assert len(correct.rows) == len(TRENDS) and "[correct runs:" in text

    def roll_and_move(player, tracker, *, dice, chance, community):
        d1, d2 = dice.roll()
        player.move_forward(d1 + d2)
        tracker.tally(player.pos)

    wrong = check_results(
        simulate(games=200, seed=1, progress=False, take_turn=roll_and_move).counts
    )
    assert not wrong.passed and "check your code" in str(wrong)


def test_a_take_turn_that_never_rolls_is_told_so_not_to_roll_again_after_doubles():
    def never_rolls(player, tracker, *, dice, chance, community):
        tracker.tally(player.pos)

    report = check_take_turn(never_rolls, random_games=1, random_turns=5)
    failed = {check.rule: check for check in report.failures}
    message = failed["scenario 3 of the rules (two doubles, then Community Chest)"].message
    assert message.startswith("your take_turn did not roll the dice; the rules roll them 3 times")
    assert "after doubles" not in message


def test_an_answer_that_cannot_be_read_fails_the_check_never_passes():
    from monopoly_lesson.grading import grade_game, rule_games

    game = rule_games(random_games=1)[0]
    for answer in [
        None,
        "pass",
        {"turns": [], "failed": None},
        {"unanswered": "no reply"},
        {"turns": [{"counts": [0] * 40}], "failed": None},
    ]:
        result = grade_game(game, answer)
        assert not result.passed and "could not be read" in result.message


@pytest.mark.parametrize("chapter", [1, 2, 3, 4])
def test_a_chapters_own_take_turn_passes_its_chapter_and_the_one_before_fails_it(chapter):
    """Chapter N is graded for the rules chapters 1 to N teach: its solution passes, and
    the solution of chapter N - 1 (the chapter's rule missing) fails, naming its check."""
    report = check_take_turn(solution(chapter), chapter=chapter, random_games=3)
    assert report.passed and report.graded_as is None, str(report)
    assert f"graded for the rules of chapter{'s 1 to ' if chapter > 1 else ' '}{chapter}" in str(
        report
    )
    assert "random games" in report.checks[-1].rule
    if chapter > 1:
        missing = check_take_turn(solution(chapter - 1), chapter=chapter, random_games=3)
        assert not missing.passed and missing.graded_as is None
        names = {check.rule for check in missing.failures}
        taught = {check.name for check in CHAPTER_CHECKS[chapter]} - {
            check.name for check in CHAPTER_CHECKS[chapter - 1]
        }
        assert names & taught, names


def test_later_rules_written_early_pass_only_when_they_are_right():
    """A chapter-3 take_turn (cards) submitted as chapter 2 passes, graded under chapter 3's
    rules and saying so; one whose cards are wrong fails chapter 2's own checks."""
    early = check_take_turn(solution(3), chapter=2, random_games=3)
    assert early.passed and early.graded_as == 3
    assert "it also follows the rules of chapters 1 to 3" in str(early)
    wrong_cards = solution(3, MUTANTS[3]["nearest looks backwards"])
    failed = check_take_turn(wrong_cards, chapter=2, random_games=3)
    assert not failed.passed and failed.graded_as is None
    assert [check.rule for check in failed.failures] == ["3 random games of 200 turns"]
    assert "Chance" in failed.failures[0].message or "Community" in failed.failures[0].message


def test_chapters_5_6_and_no_chapter_are_graded_against_every_rule():
    for chapter in (5, 6, None):
        report = check_take_turn(solution(4), chapter=chapter, random_games=1, random_turns=50)
        assert not report.passed and len(report.checks) == 5 + len(RULE_CHECKS) + 1
    with pytest.raises(ValueError, match="chapter must be 1 to 6"):
        check_take_turn(take_turn, chapter=9)


def test_results_are_held_to_the_trends_of_the_chapters_rules():
    """Jail is the most landed on only once players are held there (chapter 5): a correct
    chapter-2 simulation passes chapter 2's trends and misses the lesson's."""
    from monopoly_lesson.checker.chapter_checks import CHAPTER_RULES

    counts = simulate(seed=2, rules=CHAPTER_RULES[2], engine="fast", progress=False).counts
    own = check_results(counts, chapter=2)
    assert own.passed and "held to the trends of the rules of chapters 1 to 2" in str(own)
    rows = own.rows.set_index("trend")
    assert rows.loc[TRENDS[6].name, "pass_rate"] == 1.0  # Go to Jail is never tallied
    assert rows.loc[TRENDS[0].name, "pass_rate"] == 0.0  # Jail first: not yet a trend
    assert not check_results(counts).passed
    chapter_1 = simulate(seed=2, rules=CHAPTER_RULES[1], engine="fast", progress=False).counts
    assert not check_results(chapter_1, chapter=2).passed  # Go to Jail tallied in chapter 2
