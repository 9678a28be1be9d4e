"""The five scenarios of the rules page (``notebooks/rules.md``): exact tallies and end state,
and ``check_scenario``, which plays a student's take_turn through one of them."""

import functools

import pytest

from monopoly_lesson import SCENARIOS as PACKAGE_SCENARIOS
from monopoly_lesson import NoRollError, Seat, check_scenario, play_preset, take_turn


def play(start, dice, *, turns=None, chance_order=(), chest_order=(), fn=None, **kwargs):
    """Play ``turns`` turns (default: until the preset dice are used up) from ``start``.

    ``fn`` is a student's take_turn (None: the reference engine); ``kwargs`` set up the seat.
    """
    seat = Seat.preset(
        dice=dice, start=start, chance_order=chance_order, chest_order=chest_order, seed=1, **kwargs
    )
    while (turns is None and seat.dice.rolls_left) or (
        turns is not None and seat.turns_played < turns
    ):
        seat.play(fn)
    return seat


SCENARIOS = {
    "1 dice onto Go to Jail": dict(
        start=24, dice=[3, 4], turns=1, tallies={11: 1}, pos=11, in_jail=True, jail_turns=0
    ),
    "2 Chance cards and doubles": dict(
        start=1,
        dice=[3, 4, 3, 4, 1, 1, 3, 4, 5, 3],
        chance_order=[1, 6, 5, 4, 10],
        turns=4,
        tallies={1: 1, 6: 1, 8: 3, 16: 1, 23: 1, 29: 1, 37: 1},
        pos=37,
        in_jail=False,
        jail_turns=0,
    ),
    "3 doubles twice then Community Chest": dict(
        start=1,
        dice=[3, 3, 2, 2, 1, 2, 1, 3],
        chest_order=[3],
        turns=2,
        tallies={7: 1, 11: 1, 14: 1, 18: 1},
        pos=18,
        in_jail=False,
        jail_turns=0,
    ),
    "4 three doubles and the third turn in jail": dict(
        start=1,
        dice=[3, 3, 3, 3, 1, 1, 1, 2, 4, 5, 5, 6],
        turns=4,
        tallies={7: 1, 11: 3, 13: 1, 22: 1},
        pos=22,
        in_jail=False,
        jail_turns=0,
    ),
    "5 doubles into Go to Jail, doubles out": dict(
        start=25,
        dice=[3, 3, 1, 2, 3, 3],
        turns=3,
        tallies={11: 2, 17: 1},
        pos=17,
        in_jail=False,
        jail_turns=0,
    ),
}


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario(name):
    s = SCENARIOS[name]
    played = play(
        s["start"],
        s["dice"],
        turns=s["turns"],
        chance_order=s.get("chance_order", ()),
        chest_order=s.get("chest_order", ()),
    )
    assert played.tallies == s["tallies"]
    assert (played.player.pos, played.player.in_jail, played.player.jail_turns) == (
        s["pos"],
        s["in_jail"],
        s["jail_turns"],
    )
    assert played.dice.rolls_left == 0, "every preset roll is used, and no more"
    assert played.chance.draws == len(s.get("chance_order", ()))
    assert played.community.draws == len(s.get("chest_order", ()))


def test_scenario_4_step_by_step():
    """Scenario 4 turn by turn: jail_turns counts the turns started in jail."""
    dice = [3, 3, 3, 3, 1, 1, 1, 2, 4, 5, 5, 6]
    expected = [(11, True, 0), (11, True, 1), (11, True, 2), (22, False, 0)]
    for turns, state in enumerate(expected, start=1):
        p = play(1, dice, turns=turns).player
        assert (p.pos, p.in_jail, p.jail_turns) == state, f"after turn {turns}"


@pytest.mark.parametrize("number", sorted(PACKAGE_SCENARIOS))
def test_the_packages_scenarios_are_the_rules_scenarios(number):
    s = PACKAGE_SCENARIOS[number]
    played = play_preset(
        dice=s.dice,
        start=s.start,
        turns=s.turns,
        chance_order=s.chance_order,
        chest_order=s.chest_order,
    )
    assert played.tallies == s.tallies
    assert s.name == f"scenario {number} of the rules ({s.description})"


def test_check_scenario_passes_the_reference(capsys):
    assert all(check_scenario(take_turn, n) for n in PACKAGE_SCENARIOS)
    assert capsys.readouterr().out.splitlines()[4] == (
        "Scenario 5 of the rules (doubles onto Go to Jail, doubles out of jail): passes"
    )


def test_check_scenario_raises_with_the_turn_what_is_expected_and_what_happened():
    def never_held(player, tracker, *, dice, chance, community):
        player.leave_jail()  # jail is only a place: the player is never held
        take_turn(player, tracker, dice=dice, chance=chance, community=community)

    check_scenario(never_held, 1)  # one turn: being held does not matter yet
    with pytest.raises(AssertionError) as caught:
        check_scenario(never_held, 4)
    message = str(caught.value)
    assert message.startswith(
        "Scenario 4 of the rules (three doubles, then three turns in jail), turn 2: your "
        "take_turn tallied States Avenue (14) this turn; the rules tally Jail (11); the "
        "turn started in jail (0 turns served so far)."
    )
    assert (
        "The rules expect: tallies Jail (11); 1 roll; no card; the token ends on Jail (11), "
        "in jail (1 turn served)." in message
    )
    assert (
        "Your take_turn:   tallies States Avenue (14); 1 roll; no card; the token ends "
        "on States Avenue (14), free." in message
    )
    assert "What your take_turn did:\n      Player leaves jail.\n      Rolled 1 and 2" in message


@pytest.mark.parametrize(
    ("scenario", "error"), [(6, ValueError), (0, ValueError), ("1", TypeError), (True, TypeError)]
)
def test_check_scenario_refuses_what_is_not_a_scenario(scenario, error):
    with pytest.raises(error, match="scenario"):
        check_scenario(take_turn, scenario)


def forgets_to_roll(player, tracker, *, dice, chance, community):
    """Moves and tallies, but never rolls the dice it is given."""
    player.move_forward(7)
    tracker.tally(player.pos)


def does_nothing(player, tracker, *, dice, chance, community):
    pass


@pytest.mark.parametrize("fn", [forgets_to_roll, does_nothing, lambda *args, **kw: None])
@pytest.mark.parametrize("turns", [None, 3])
def test_a_take_turn_that_never_rolls_stops_play_preset_in_its_first_turn(fn, turns):
    """Played until the preset dice are used up, it would play for ever: one turn is enough."""
    calls = []

    @functools.wraps(fn)  # the same signature: no rules keyword unless fn takes one
    def counted(*args, **kwargs):
        calls.append(1)
        assert len(calls) < 10, "play_preset played on and on, turns that roll no dice"
        return fn(*args, **kwargs)

    with pytest.raises(NoRollError) as caught:
        play_preset(counted, dice=[3, 4, 6, 5], turns=turns)
    assert len(calls) == 1
    name = counted.__name__ if counted.__name__.isidentifier() else "take_turn"
    assert str(caught.value) == (
        "turn 1 rolled no dice: every turn starts with a roll of the dice "
        f"({name} must call dice.roll())."
    )


def test_a_turn_without_a_roll_is_named_and_shown_from_play_preset():
    """The traceback is the caller's line and play_preset's, as for a bad argument: not the
    seat's machinery, and no error chained to it."""
    turns = []

    def rolls_once(player, tracker, *, dice, chance, community):
        assert len(turns) < 10, "play_preset played on and on, turns that roll no dice"
        if not turns:
            d1, d2 = dice.roll()
            player.move_forward(d1 + d2)
            tracker.tally(player.pos)
        turns.append(1)

    with pytest.raises(NoRollError, match=r"^turn 2 rolled no dice: ") as caught:
        play_preset(rolls_once, dice=[3, 4, 6, 5, 1, 2])
    frames = []
    trace = caught.value.__traceback__
    while trace is not None:
        frames.append(trace.tb_frame.f_code.co_name)
        trace = trace.tb_next
    assert frames[-1] == "play_preset" and "play" not in frames
    assert caught.value.__cause__ is None and caught.value.__context__ is None
    assert isinstance(caught.value, RuntimeError) and len(turns) == 2


def test_the_reference_engine_always_rolls_through_every_scenario():
    for s in PACKAGE_SCENARIOS.values():
        seat = play_preset(
            dice=s.dice, start=s.start, chance_order=s.chance_order, chest_order=s.chest_order
        )
        assert seat.dice.rolls_left == 0 and seat.tallies == s.tallies
