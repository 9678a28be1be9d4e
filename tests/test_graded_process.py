"""take_turn graded where only the exercise's starter classes are given.

The checker runs a notebook's code cells again in a process of their own (``graded_process``)
that holds the starter classes and nothing else of the package, and plays the checks' games
there. Neither the reference engine nor the checker can be reached from it, by any route: a
notebook that tries is told so by name, and one that patches its own kernel changes nothing.
The simulations whose results the notebook reports are re-run there too, with its take_turn,
by a copy of ``simulate``'s loop that the tests below keep equal to it, line for line.
"""

import dis
import signal
import subprocess
import sys
import types
from pathlib import Path

import nbformat
import pytest
from handed_out_notebooks import submission
from test_cli_check import OWN_TAKE_TURN

from monopoly_lesson.checker.graded_session import Run, grade_take_turn, graded_seed
from monopoly_lesson.checker.sandbox import ProcessGuard
from monopoly_lesson.rules import LESSON_RULES, Rules
from monopoly_lesson.simulation import simulate

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
PACKAGE = Path(__file__).resolve().parent.parent / "monopoly_lesson"
ONE_DIE = (
    "def take_turn(player, tracker, *, dice, chance, community):\n"
    "    d1, d2 = dice.roll()\n"
    "    player.move_forward(d1)\n"
    "    tracker.tally(player.pos)\n"
)
TURN = "def take_turn(player, tracker, *, dice, chance, community):\n"
CALL = "(player, tracker, dice=dice, chance=chance, community=community)\n"


def graded(*sources: str, chapter: int | None = None, runs: tuple[Run, ...] = ()):
    with ProcessGuard(120) as guard:
        return grade_take_turn(list(enumerate(sources, 1)), chapter, 2**31, guard, runs=runs)


def test_the_stored_solutions_pass_where_only_the_starter_is_given():
    for name in ("01_moving_around", "04_doubles", "05_jail"):
        book = nbformat.read(NOTEBOOKS / f"{name}.ipynb", as_version=4)
        sources = [(n, c.source) for n, c in enumerate(book.cells, 1) if c.cell_type == "code"]
        chapter = int(name[:2]) if int(name[:2]) < 5 else None
        with ProcessGuard(120) as guard:
            grade = grade_take_turn(sources, chapter, 2**31, guard)
        assert grade.callable and not grade.not_own and not grade.stopped, name
        assert grade.rules is not None and grade.rules.passed, (name, str(grade.rules))
        # the package's other names are there to import, but withheld when used
        assert any("monopoly_lesson.simulate is not available" in c for c in grade.failed_cells)


def test_a_take_turn_of_its_own_is_graded_on_what_it_does():
    assert graded(OWN_TAKE_TURN).rules.passed
    broken = graded(ONE_DIE)
    assert not broken.rules.passed and not broken.not_own
    assert "moving forward and passing Go" in [c.rule for c in broken.rules.failures]


@pytest.mark.parametrize(
    ("source", "named"),
    [
        ("from monopoly_lesson.rules import take_turn as tt\ntake_turn = tt", "take_turn is"),
        (
            "import importlib\n"
            "take_turn = getattr(importlib.import_module('monopoly_' + 'lesson.rules'), "
            "'take_turn')",
            "take_turn is monopoly_lesson.rules.take_turn",
        ),
        (
            "import functools, monopoly_lesson as m\n"
            "take_turn = functools.partial(getattr(m, 'take_' + 'turn'))",
            "take_turn is monopoly_lesson.take_turn",
        ),
        (
            "import importlib\n"
            + TURN
            + "    r = importlib.import_module('monopoly_lesson.rules')\n"
            "    r.play_turn(r.Seat(player, tracker, dice, chance, community))\n",
            "take_turn uses monopoly_lesson.rules.Seat",
        ),
        (
            "import monopoly_lesson, os\n" + TURN + "    ns = {}\n"
            "    folder = os.path.dirname(monopoly_lesson.starter.__file__)\n"
            "    exec(open(os.path.join(folder, 'rules.py')).read(), ns)\n"
            "    ns['take_turn']" + CALL,
            "take_turn reads monopoly_lesson/rules.py",
        ),
        (
            "import monopoly_lesson, pathlib\n"
            "folder = pathlib.Path(monopoly_lesson.starter.__file__).parent\n"
            "ns = {}\nexec((folder / 'rules.py').read_text(), ns)\ntake_turn = ns['take_turn']\n",
            "the notebook's code reads monopoly_lesson/rules.py",
        ),
        (
            f"import json\nbook = json.load(open({str(NOTEBOOKS / '05_jail.ipynb')!r}))\n"
            "exec('\\n'.join(''.join(c['source']) for c in book['cells'] "
            "if c['cell_type'] == 'code'))\n",
            "the notebook's code reads " + str(NOTEBOOKS / "05_jail.ipynb"),
        ),
    ],
    ids=["alias", "getattr", "partial", "in-turn", "exec-in-turn", "exec-at-top", "solution"],
)
def test_reaching_the_reference_engine_by_any_route_is_told_by_name(source, named):
    grade = graded(source)
    assert grade.not_own.startswith(named), grade.not_own
    assert grade.rules is None


@pytest.mark.parametrize(
    ("attempt", "named"),
    [
        ("__import__('subprocess').run(['true'])", "take_turn calls subprocess.Popen"),
        ("__import__('ctypes').CDLL(None)", "take_turn calls ctypes.dlopen"),
        ("__import__('socket').socket()", "take_turn calls socket.__new__"),
        ("open('notes.txt', 'w')", "take_turn writes notes.txt"),
        ("__import__('os').listdir(" + repr(str(PACKAGE)) + ")", "take_turn lists monopoly_lesson"),
    ],
    ids=["process", "C library", "socket", "write a file", "list the package"],
)
def test_what_the_graded_process_refuses_is_named(attempt, named):
    """Its own processes, C libraries, sockets and files could reach what judges it."""
    grade = graded(TURN + f"    {attempt}\n")
    assert grade.not_own.startswith(named), grade.not_own


def test_a_take_turn_that_searches_memory_or_modules_finds_nothing_to_use():
    """Neither the reference engine nor the checker is loaded there to be found."""
    searching = (
        "import gc, sys\n"
        "found = [o for o in gc.get_objects() if getattr(o, '__name__', '') in "
        "('play_turn', 'resolve_landing', 'grade_game')]\n"
        "modules = [m for m in sys.modules if m.startswith('monopoly_lesson.')]\n"
        "assert not found, found\n"
        "assert modules == ['monopoly_lesson.checks', 'monopoly_lesson.starter'], modules\n"
    )
    grade = graded(searching, ONE_DIE)
    assert grade.failed_cells == [], grade.failed_cells
    assert not grade.rules.passed


def test_a_take_turn_that_never_ends_fails_quickly_naming_the_game():
    grade = graded(TURN + "    while True:\n        pass\n")
    failures = grade.rules.failures
    assert failures and "took more than" in str(failures[0])
    assert not grade.stopped


def test_the_random_games_are_drawn_from_the_code():
    one, other = [(1, ONE_DIE)], [(1, ONE_DIE + "# mine\n")]
    assert graded_seed(one) == graded_seed(list(one))
    assert graded_seed(one) != graded_seed(other)


def check(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "monopoly_lesson", "check", str(path), "--timeout", "180"],
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize(
    "cheat",
    [
        # the kernel's own answers made the reference engine's, through an alias
        "import importlib\n"
        "probe = importlib.import_module('monopoly_lesson.checker.probe')\n"
        "played = probe.play_game\n"
        "probe.play_game = lambda fn, game: played(None, game)\n",
        # the reference engine switched on only when the check's variable is set
        "import os\n"
        "if os.environ.get('MONOPOLY_LESSON_CHECKED'):\n"
        "    take_turn = getattr(__import__('monopoly_lesson'), 'take_' + 'turn')\n",
        # the package patched through a module's namespace
        "import monopoly_lesson.grading as g\n"
        "vars(g)['grade_game'] = lambda game, seen, rules=None: g.CheckResult(game.rule, True)\n",
    ],
    ids=["kernel-patched", "switched-on-when-checked", "vars-patch"],
)
def test_what_the_notebooks_kernel_does_cannot_pass_a_broken_take_turn(tmp_path, cheat):
    done = check(submission(tmp_path, 5, ONE_DIE, cheat))
    assert done.returncode == 1, done.stdout + done.stderr
    assert done.stdout.startswith("Broken rules: "), done.stdout[:300]
    assert "All rules pass" not in done.stdout


def test_the_graded_processs_games_are_the_probes_turn_for_turn():
    """The graded process sets up and observes games with the starter alone (it may not
    import the reference engine): its copy of ``probe``'s game set-up and observation gives
    the same answer on every kind of game, for a take_turn right or wrong or raising, or
    taking ``**keywords`` (and so the rules)."""
    from monopoly_lesson import starter
    from monopoly_lesson.checker import graded_process, probe
    from monopoly_lesson.grading import rule_games
    from monopoly_lesson.rules import LESSON_RULES

    own, broken = {}, {}
    exec(OWN_TAKE_TURN, own)
    exec(ONE_DIE, broken)

    def raising(player, tracker, *, dice, chance, community):
        dice.roll()
        raise ValueError("no")

    def keywords(player, tracker, **given):  # given the rules too, as Seat.play gives them
        print(sorted(given), given["rules"].jail)
        del given["rules"]
        own["take_turn"](player, tracker, **given)

    rules = {name: getattr(LESSON_RULES, name) for name in LESSON_RULES.__dataclass_fields__}
    games = rule_games(random_games=2, random_turns=40) + rule_games(random_games=0, chapter=2)
    for take_turn in (own["take_turn"], broken["take_turn"], raising, keywords):
        for game in games:
            answer = graded_process.play_game(starter, take_turn, game.setup, rules)
            assert answer == probe.play_game(take_turn, game.setup), game


# -- the re-runs of the notebook's simulations ----------------------------------------------


def as_data(rules: Rules) -> dict:
    """``rules`` as the checker sends them: every field of ``Rules``."""
    return {name: getattr(rules, name) for name in LESSON_RULES.__dataclass_fields__}


LESSON = as_data(LESSON_RULES)
RERUN_RULES = [
    LESSON_RULES,
    Rules(dice_sides=4),
    Rules(dice_sides=9, replacement=True),
    Rules(chance="standard"),
    Rules(chance="standard", replacement=True, dice_sides=3),
    Rules(jail="short"),
    Rules(counting="end_of_move"),
    Rules(go_to_jail=False),
    Rules(cards=False),
    Rules(doubles=False),
    Rules(jail="short", doubles=False, dice_sides=5, chance="standard"),
]
"""The rules the re-runs are played under: the lesson's, and each option changed."""


def simulation_only(then: str) -> str:
    """A take_turn right in the checks' games but not in a simulation (whose players have
    names): there it does ``then``."""
    return OWN_TAKE_TURN + (
        "\n\nchecked_turn = take_turn\n\n\n"
        "def take_turn(player, tracker, *, dice, chance, community):\n"
        "    if player.name == 'Player':  # the checks' games: played right\n"
        "        return checked_turn(player, tracker, dice=dice, chance=chance, "
        "community=community)\n"
        f"    {then}\n"
    )


def take_turns() -> dict:
    """take_turns to re-run: right, wrong, with ``rules=`` (the reference engine's), with
    ``**keywords`` and narrating, raising, changing or deleting the rules it is given, and
    one whose signature cannot be read."""
    from monopoly_lesson.rules import take_turn as reference

    own, broken = {}, {}
    exec(OWN_TAKE_TURN, own)
    exec(ONE_DIE, broken)

    def chatty(player, tracker, **given):
        print(sorted(given), len(given["rules"].chance_deck), given["rules"].dice_sides)
        reference(player, tracker, **given)

    def raising(player, tracker, *, dice, chance, community):
        own["take_turn"](player, tracker, dice=dice, chance=chance, community=community)
        if player.in_jail:
            raise ValueError("no jail for me")

    def changing(player, tracker, *, dice, chance, community, rules):
        rules.jail = "short"

    def deleting(player, tracker, *, dice, chance, community, rules):
        del rules.jail

    class Unsigned:
        __signature__ = "unreadable"  # so it is not given the rules

        def __call__(self, player, tracker, **given):
            own["take_turn"](player, tracker, **given)

    return {
        "own": own["take_turn"],
        "broken": broken["take_turn"],
        "reference, rules=": reference,
        "chatty, **given": chatty,
        "raising": raising,
        "changing its rules": changing,
        "deleting its rules": deleting,
        "no signature": Unsigned(),
    }


def simulated(take_turn, run: dict) -> list[int] | Exception:
    """What ``simulate`` gives for ``run`` with ``take_turn``: the tallies, or what it raised."""
    try:
        result = simulate(
            run["games"],
            run["turns"],
            run["players"],
            run["seed"],
            Rules(**run["rules"]),
            progress=False,
            take_turn=take_turn,
        )
    except Exception as error:
        return error
    return [int(n) for n in result.counts]


@pytest.fixture
def alarm():
    """The graded process's alarm, as its ``main`` sets it, for a re-run played here."""
    from monopoly_lesson.checker import graded_process

    previous = signal.signal(signal.SIGALRM, graded_process._too_slow)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def rerun_everything(monkeypatch) -> list[str]:
    """Re-run with the graded process's copy every take_turn of :func:`take_turns` under
    each of :data:`RERUN_RULES`, and what it refuses; each difference from ``simulate``."""
    from monopoly_lesson import starter
    from monopoly_lesson.checker import graded_process

    differences = []
    for (name, take_turn), (number, rules) in (
        (item, rules) for item in take_turns().items() for rules in enumerate(RERUN_RULES)
    ):
        run = {
            "games": 1 + number % 3,
            "turns": 30,
            "players": 1 + number % 4,
            "seed": 7 * number,
            "rules": as_data(rules),
        }
        want = simulated(take_turn, run)
        got = graded_process.rerun(starter, take_turn, run, LESSON)
        if isinstance(want, list):
            same = got == {"counts": want}
        elif str(want).startswith("your take_turn decides the jail strategy"):
            same = set(got) == {"error"} and got["error"].startswith("simulate refuses")
        else:
            raised = tuple(kind.__name__ for kind in type(want).__mro__)
            same = set(got) == {"error"} and got["error"].split(":")[0] in raised
        if not same:
            differences.append(f"{name} under {rules.describe()}: {want!r} but {got!r}")
    own = take_turns()["own"]
    run = {"games": 2, "turns": 10, "players": 2, "seed": 1, "rules": LESSON}
    refused = {
        "slow": graded_process.rerun(starter, own, run, LESSON, slow="a game ran too long"),
        "no games": graded_process.rerun(starter, own, {**run, "games": 0}, LESSON),
        "seed below 0": graded_process.rerun(starter, own, {**run, "seed": -1}, LESSON),
        "too long": graded_process.rerun(
            starter, own, {**run, "games": graded_process.RERUN_LIMIT // 20 + 1}, LESSON
        ),
        "unknown rules": graded_process.rerun(
            starter, own, {**run, "rules": {**LESSON, "houses": 3}}, LESSON
        ),
    }
    monkeypatch.setattr(graded_process, "GAME_SECONDS", 0.2)
    never_ends = graded_process.rerun(starter, lambda *a, **k: time_passes(), run, LESSON)
    refused["never ends"] = never_ends
    for why, answer in refused.items():
        if set(answer) != {"error"}:
            differences.append(f"{why}: not refused ({answer})")
    if not never_ends["error"].startswith("TooSlow: this game took more than 0.2 s"):
        differences.append(f"never ends: {never_ends}")
    return differences


def time_passes() -> None:
    while True:
        pass


def test_a_rerun_there_is_simulate_with_the_same_take_turn(alarm, monkeypatch):
    """The graded process cannot use ``simulate`` (it is withheld there): its copy of the
    loop, made of the starter's classes, gives simulate's tallies exactly, for take_turns
    right and wrong, taking ``rules=`` or not, under every option of ``Rules``, and fails
    where simulate raises (refusing, as simulate does, options a take_turn without
    ``rules=`` cannot follow)."""
    changed = {
        name
        for rules in RERUN_RULES
        for name, value in as_data(rules).items()
        if value != LESSON[name]
    }
    assert changed == set(LESSON), "a Rules option no re-run changes"
    assert rerun_everything(monkeypatch) == []


def test_every_line_of_the_rerun_copy_runs(alarm, monkeypatch):
    """Where a copy of the rules cannot be derived, every line of it is proven exercised:
    each line of the re-run's copy runs in the games of the test above."""
    from monopoly_lesson.checker import graded_process as copy

    functions = [
        copy.rerun,
        copy._not_rerun,
        copy._takes_rules,
        copy.GivenRules.chance_deck.fget,
        copy.GivenRules.__setattr__,
        copy.GivenRules.__delattr__,
        copy.Discarded.write,
    ]
    codes = set()
    waiting = [function.__code__ for function in functions]
    while waiting:  # each function's own code, and that of its generators and comprehensions
        code = waiting.pop()
        codes.add(code)
        waiting += [c for c in code.co_consts if isinstance(c, types.CodeType)]
    ran = set()

    def line(frame, event, arg):
        if event == "line":
            ran.add((frame.f_code, frame.f_lineno))
        return line

    previous = sys.gettrace()
    sys.settrace(lambda frame, event, arg: line if frame.f_code in codes else None)
    try:
        differences = rerun_everything(monkeypatch)
    finally:
        sys.settrace(previous)
    assert differences == []
    lines = {
        (code, number)
        for code in codes
        for _, number in dis.findlinestarts(code)
        if number is not None and number != code.co_firstlineno
    }
    missed = sorted(number for _, number in lines - ran)
    assert not missed, f"lines of graded_process.py never run: {missed}"


def test_the_notebooks_simulations_are_rerun_there_until_one_is_its_own():
    own = {}
    exec(OWN_TAKE_TURN, own)
    run = {"games": 20, "turns": 150, "players": 2, "seed": 1, "rules": LESSON}
    counts = simulated(own["take_turn"], run)
    other = {**run, "seed": 2}
    too_long = {**run, "games": 10_001}
    runs = (
        Run("before", other, counts),
        Run("one die", {**run, "rules": {**LESSON, "dice_sides": 1}}, counts),
        Run("long", too_long, counts),
        Run("result", run, counts),
        Run("after", run, counts),
    )
    grade = graded(OWN_TAKE_TURN, runs=runs)
    assert grade.rules.passed
    assert grade.reruns["before"] == simulated(own["take_turn"], other) != counts
    assert grade.reruns["one die"].startswith("simulate refuses its rules: dice_sides must be")
    assert grade.reruns["long"] == "longer than 3,000,000 player-turns: not re-run"
    assert grade.reruns["result"] == counts
    assert "after" not in grade.reruns  # the first that is its own is the one used
    assert graded(ONE_DIE, runs=runs[3:]).reruns["result"] != counts


@pytest.mark.parametrize(
    ("then", "told"),
    [
        ("while True:\n        pass", "TooSlow: this game took more than 10 s"),
        ("raise ValueError('not in a simulation')", "ValueError: not in a simulation"),
    ],
    ids=["loops", "raises"],
)
def test_a_take_turn_that_fails_only_in_a_simulation_is_told_not_hung(then, told):
    run = {"games": 2, "turns": 150, "players": 2, "seed": 1, "rules": LESSON}
    runs = (Run("result", run, [0] * 40), Run("again", {**run, "seed": 2}, [0] * 40))
    grade = graded(simulation_only(then), runs=runs)
    assert grade.rules.passed and not grade.stopped
    assert grade.reruns["result"].startswith(told), grade.reruns
    if told.startswith("TooSlow"):  # one loop is enough: the next is not played
        assert grade.reruns["again"].startswith("not re-run: an earlier re-run ran too long")


@pytest.mark.parametrize(
    "cheat",
    [
        # the notebook's simulate drops its take_turn, and so does the kernel's re-run
        "import importlib\n"
        "sim = importlib.import_module('monopoly_' + 'lesson.simulation')\n"
        "played = sim.simulate\n\n\n"
        "def simulate(*args, take_turn=None, **kwargs):\n"
        "    return played(*args, **kwargs)\n\n\n"
        "setattr(sim, 'simulate', simulate)\n",
        # the notebook's simulate drops its take_turn; the kernel re-runs nothing
        "import importlib\n"
        "probe = importlib.import_module('monopoly_' + 'lesson.checker.probe')\n"
        "played = importlib.import_module('monopoly_' + 'lesson.simulation').simulate\n\n\n"
        "def simulate(*args, take_turn=None, **kwargs):\n"
        "    return played(*args, **kwargs)\n\n\n"
        "probe.rerun = lambda take_turn, run: [int(n) for n in "
        "simulate(**{k: v for k, v in run.items() if k != 'rules'}).counts]\n",
    ],
    ids=["simulate-patched", "rerun-patched"],
)
def test_results_the_kernel_made_up_are_not_the_students_own(tmp_path, cheat):
    """A take_turn right in the checks but not in a simulation, whose notebook's results come
    from the reference engine, and whose kernel says re-running them with its take_turn gives
    them: the graded process re-runs them with the take_turn and finds other tallies."""
    source = simulation_only("dice.roll()\n    tracker.tally(player.pos)")
    done = check(submission(tmp_path, 6, source + "\n" + cheat))
    assert "take_turn: all rules pass" in done.stdout, done.stdout + done.stderr
    assert "consistent with a correct simulation" not in done.stdout, done.stdout
    assert "results: no results of your own take_turn found in the notebook" in done.stdout
    assert (
        "not used: result: re-running its simulation with your final take_turn gives other tallies"
    ) in done.stdout, done.stdout


def test_a_take_turn_that_catches_every_interruption_is_stopped_all_the_same():
    """The alarm rings again each second; past a few caught ones the process ends."""
    stubborn = (
        TURN + "    while True:\n        try:\n            while True:\n                pass\n"
        "        except BaseException:\n            pass\n"
    )
    grade = graded(stubborn)
    assert grade.stopped == "the graded process stopped", grade
