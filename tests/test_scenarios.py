"""The five scenarios of RULES.md: exact tallies and end state."""

import pytest
from conftest import play

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
        pos=37, in_jail=False, jail_turns=0,
    ),
    "3 doubles twice then Community Chest": dict(
        start=1,
        dice=[3, 3, 2, 2, 1, 2, 1, 3],
        chest_order=[3],
        turns=2,
        tallies={7: 1, 11: 1, 14: 1, 18: 1},
        pos=18, in_jail=False, jail_turns=0,
    ),
    "4 three doubles and the third turn in jail": dict(
        start=1,
        dice=[3, 3, 3, 3, 1, 1, 1, 2, 4, 5, 5, 6],
        turns=4,
        tallies={7: 1, 11: 3, 13: 1, 22: 1},
        pos=22, in_jail=False, jail_turns=0,
    ),
    "5 doubles into Go to Jail, doubles out": dict(
        start=25, dice=[3, 3, 1, 2, 3, 3], turns=3, tallies={11: 2, 17: 1},
        pos=17, in_jail=False, jail_turns=0,
    ),
}  # fmt: skip


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
