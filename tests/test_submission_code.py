"""Reading a submission's code without running it, the checker's answers and output caps."""

from pathlib import Path

import pytest

from monopoly_lesson import SpaceTracker
from monopoly_lesson.checker.answers import MalformedAnswer, read_game, read_results
from monopoly_lesson.checker.probe import play_game
from monopoly_lesson.checker.submission_code import does_nothing, read_code
from monopoly_lesson.grading import rule_games
from monopoly_lesson.starter import tallies


def code(*sources):
    return read_code(list(enumerate(sources, start=1)))


@pytest.mark.parametrize(
    ("sources", "found"),
    [
        (["from monopoly_lesson import take_turn"], "cell 1 makes take_turn the package's"),
        (["import monopoly_lesson.rules as r", "take_turn = r.play_turn"], "cell 2 makes"),
        (
            [
                "from monopoly_lesson.rules import play_roll as step\n"
                "def helper(seat):\n    step(seat)\n"
                "def take_turn(player, tracker, **kw):\n    helper(None)\n"
            ],
            "take_turn calls the package's play_roll through helper",
        ),
        (
            [
                "import monopoly_lesson as ml\n"
                "take_turn = lambda p, t, **kw: ml.rules.take_turn(p, t, **kw)"
            ],
            "take_turn calls the package's take_turn",
        ),
        (
            [
                "from monopoly_lesson import Seat\n"
                "def take_turn(player, tracker, *, dice, chance, community):\n"
                "    Seat(player, tracker, dice, chance, community).play()\n"
            ],
            "take_turn calls the package's Seat",
        ),
    ],
)
def test_a_take_turn_that_is_or_calls_the_reference_is_found(sources, found):
    assert found in (code(*sources).reference_use() or "")


def test_a_students_own_functions_with_the_engines_names_are_their_own():
    own = code(
        "from monopoly_lesson import take_turn as reference, simulate",
        "def send_to_jail(player, tracker):\n    player.go_to_jail()\n    tracker.tally(11)\n",
        "def take_turn(player, tracker, *, dice, chance, community):\n"
        "    d1, d2 = dice.roll()\n    send_to_jail(player, tracker)\n",
        "%matplotlib inline\nresult = simulate(seed=1, take_turn=take_turn)\n"
        "reference_result = simulate(seed=1)",
    )
    assert own.reference_use() is None and own.tampering() == []
    assert own.own_results() == {"result"}
    assert own.names["reference_result"] == "result:package"


@pytest.mark.parametrize(
    ("source", "found"),
    [
        ("get_ipython().input_transformers_cleanup.append(f)", "cell 1 changes how the kernel"),
        ("ip = get_ipython()\nip.events.register('pre_run_cell', f)", "hooks into the kernel"),
        ("import monopoly_lesson.grading as g\ng.check_take_turn = f", "changes the package's"),
        (
            "from monopoly_lesson import SpaceTracker\nsetattr(SpaceTracker, 'tally', f)",
            "changes the package's",
        ),
        ("import sys\nsys.modules['monopoly_lesson.grading'] = f", "changes the package's"),
        ("import builtins\nbuiltins.print = f", "changes the package's or Python's own code"),
    ],
)
def test_changing_the_package_or_the_kernel_is_found(source, found):
    assert found in "; ".join(code(source).tampering())


@pytest.mark.parametrize(
    ("source", "changed"),
    [
        ("import numpy as np\nnp.random.seed = lambda *a: None", "numpy.random.seed"),
        ("import numpy\nnumpy.random.default_rng = f", "numpy.random.default_rng"),
        ("import random\nrandom.seed = f", "random.seed"),
        ("import random as rnd\ndel rnd.shuffle", "random.shuffle"),
        ("import numpy as np\nsetattr(np.random, 'seed', f)", "numpy.random.seed"),
        ("import numpy.random as npr\nnpr.seed = f", "numpy.random.seed"),
        ("import numpy.random\nnumpy.random.seed = f", "numpy.random.seed"),
        ("from numpy import random as r\nr.shuffle = f", "numpy.random.shuffle"),
        (
            "from numpy.random import Generator\nGenerator.integers = f",
            "numpy.random.Generator.integers",
        ),
        (
            "from numpy.random import default_rng\ndefault_rng.__defaults__ = (1,)",
            "numpy.random.default_rng.__defaults__",
        ),
        ("import pandas as pd\npd.DataFrame.sample = f", "pandas.DataFrame.sample"),
        ("import numpy as np\nnp.random.seed, x = f, 1", "numpy.random.seed"),
        ("import numpy as np\nvars(np.random)['seed'] = f", "numpy.random.seed"),
        ("import numpy as np\nnp.random.__dict__['seed'] = f", "numpy.random.seed"),
        ("import sys\nsys.modules['numpy.random'].seed = f", "numpy.random.seed"),
        ("import importlib\nimportlib.import_module('numpy.random').seed = f", "numpy.random.seed"),
        ("__import__('numpy.random').random.seed = f", "numpy.random.seed"),
        ("import numpy as np\ndef quiet():\n    np.random.seed = f\nquiet()", "numpy.random.seed"),
    ],
)
def test_changing_the_libraries_of_the_lessons_randomness_is_found_by_its_real_name(
    source, changed
):
    assert code(source).tampering() == [f"cell 1 changes a library's own code ({changed})"]


def test_a_library_bound_to_another_name_or_in_another_cell_is_still_found():
    found = code("import numpy as np", "rnd = np.random", "rnd.seed = f").tampering()
    assert found == ["cell 3 changes a library's own code (numpy.random.seed)"]


@pytest.mark.parametrize(
    "source",
    [
        "import numpy as np\nnp.random.seed(1)\nrng = np.random.default_rng(2)\nrng.x = 1",
        "import random\nrandom.seed(3)\nrandom.shuffle(cards)",
        "import pandas as pd\npd.options.display.max_rows = 20\npd.set_option('display.width', 99)",
        "import numpy as np\ntable = np.zeros(3)\ntable[0] = 1\ntable.flags.writeable = False",
        "import random\nrandom = RandomDice(seed=1)\nrandom.verbose = True",
        "from numpy.random import default_rng\ndef default_rng(seed):\n    pass\n"
        "default_rng.calls = 0",
        "import numpy as np\nclass Dice:\n    pass\nDice.np = np\nDice.seed = np.random.seed",
    ],
)
def test_using_those_libraries_or_setting_their_display_options_is_not_tampering(source):
    assert code(source).tampering() == []


def test_no_chapter_of_the_lesson_changes_the_package_the_libraries_or_the_kernel():
    import nbformat

    root = Path(__file__).resolve().parents[1] / "notebooks"
    for path in sorted(root.glob("*.ipynb")):
        cells = nbformat.read(path, as_version=4).cells
        sources = [(n, c.source) for n, c in enumerate(cells, 1) if c.cell_type == "code"]
        assert read_code(sources).tampering() == [], path.name


def test_changing_a_students_own_objects_is_not_tampering():
    own = code(
        "from monopoly_lesson import Player, chance_deck\n"
        "p = Player()\np.pos = 5\nchance_deck.attrs['name'] = 'Chance'"
    )
    assert own.tampering() == []


HEAD = "def take_turn(player, tracker, *, dice, chance, community):\n"


@pytest.mark.parametrize(
    "body",
    [
        '    """Roll, move, tally."""\n    # YOUR CODE HERE\n'
        '    raise NotImplementedError("Write this part of take_turn, then run its cell again.")\n',
        '    raise NotImplementedError("I will do this later")\n',
        "    raise ValueError\n",
        "    pass\n",
        "    ...\n",
        '    """Roll, move, tally."""\n',
        "    return\n",
        '    """Roll, move, tally."""\n    # not yet\n    return None\n',
        "    pass\n    raise NotImplementedError\n",
    ],
)
def test_a_take_turn_that_does_nothing_is_a_placeholder(body):
    assert does_nothing(code(HEAD + body).functions["take_turn"])


@pytest.mark.parametrize(
    "source",
    [
        HEAD + "    d1, d2 = dice.roll()\n",
        HEAD + "    dice.roll()\n    raise NotImplementedError\n",
        HEAD + "    return dice.roll()\n",
        HEAD + "    return 0\n",
        "@trace\n" + HEAD + "    pass\n",
        "take_turn = lambda player, tracker, **kw: tracker.tally(player.pos)",
    ],
)
def test_a_take_turn_that_does_something_is_not(source):
    assert not does_nothing(code(source).functions["take_turn"])


def test_a_lambda_that_gives_none_does_nothing_and_an_absent_function_is_not_one():
    assert does_nothing(code("take_turn = lambda *args, **kw: None").functions["take_turn"])
    assert does_nothing(code("take_turn = lambda *args, **kw: ...").functions["take_turn"])
    assert not does_nothing(None)


def test_the_answers_of_a_game_are_read_strictly():
    game = rule_games(random_games=0)[0]
    answer = play_game(None, game.setup)
    turns, failed = read_game(answer, game.setup["turns"])
    assert failed is None and len(turns) == 1
    for broken in [
        {**answer, "extra": 1},
        {"turns": [{**answer["turns"][0], "counts": [True] * 40}], "failed": None},
        {"turns": [{**answer["turns"][0], "said": "x" * 10**6}], "failed": None},
        {"turns": answer["turns"] * 2, "failed": None},
        {"turns": [], "failed": None},
    ]:
        with pytest.raises(MalformedAnswer):
            read_game(broken, game.setup["turns"])
    with pytest.raises(MalformedAnswer):
        read_results([{"name": "result", "kind": "simulation", "counts": [1] * 40}])


def test_the_output_kept_per_cell_is_capped():
    import nbformat

    from monopoly_lesson.checker import kernel_session

    client = kernel_session._CappedClient(nbformat.v4.new_notebook())
    client.clear_before_next_output = False
    outs = []
    chunk = "x" * 100_000
    for _ in range(50):  # 5 MB printed by one cell
        message = {
            "msg_type": "stream",
            "parent_header": {},
            "header": {"msg_type": "stream"},
            "content": {"name": "stdout", "text": chunk},
        }
        client.output(outs, message, None, 0)
    kept = sum(len(out.get("text", "")) for out in outs)
    assert kept <= kernel_session.CELL_OUTPUT_LIMIT
    assert "output cut by the checker" in outs[-1]["text"]


@pytest.mark.parametrize(
    "source",
    [
        "import monopoly_lesson.game.rent as _rent\n_rent.rent_due = f",
        "from monopoly_lesson.game import rent as _rent\nsetattr(_rent, 'rent_due', f)",
        "import monopoly_lesson as ml\nml.game.rent.rent_due = f",
        "from monopoly_lesson import rent_due as _rent\ndel _rent.__wrapped__",
    ],
)
def test_a_patched_package_function_is_named_by_the_package_not_the_alias(source):
    found = "; ".join(code(source).tampering())
    assert "changes the package's own code (monopoly_lesson.game.rent.rent_due" in found, found
    assert "_rent" not in found


def test_tallies_read_a_tracker_as_its_counts_do():
    """A SpaceTracker's tallies are read from its list, anything else's from ``counts``:
    the same 40 ints either way."""
    tracker = SpaceTracker()
    for space in (1, 11, 11, 40, 25):
        tracker.tally(space)
    assert tallies(tracker) == tracker.counts.tolist()
    assert tallies(tracker)[10] == 2 and sum(tallies(tracker)) == 5

    class Mine:  # a tracker of the student's own, with a counts Series
        counts = tracker.counts * 2

    assert tallies(Mine()) == [2 * n for n in tracker.counts.tolist()]
    assert all(type(n) is int for n in tallies(Mine()))
