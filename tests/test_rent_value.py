"""The exact rent per opponent turn, checked two ways that can fail.

- Its landings agree with the exact solver's long-run frequencies, which come from the
  movement roll table: two enumerations of the rules, one answer.
- Simulated whole games collect that rent (``simulated_rent``: one player owns every lot
  and never builds, the other never buys and pays): each lot's rent per opponent turn
  matches the exact value within sampling error.
"""

from __future__ import annotations

import numpy as np
import pytest

from monopoly_lesson.exact import stationary
from monopoly_lesson.rent_value import LEVELS, expected_landings, rent_per_turn, simulated_rent
from monopoly_lesson.rules import Rules


@pytest.mark.parametrize("jail", ["long", "short"])
def test_landings_agree_with_the_exact_solver(jail):
    rules = Rules(chance="standard", jail=jail)
    seen = expected_landings(rules)
    landings = seen["landings"] + seen["doubled"] + seen["fresh_roll"]
    frequencies = stationary(rules).loc[landings.index]
    np.testing.assert_allclose(
        landings / landings.sum(), frequencies / frequencies.sum(), rtol=1e-9
    )


def test_the_table_has_every_stage_and_the_cards_rules():
    table = rent_per_turn()
    assert list(table.columns) == ["title", "group", *LEVELS]
    assert len(table) == 28
    assert table.loc[40, "complete_group"] == pytest.approx(2 * table.loc[40, "unimproved"])
    seen = expected_landings()
    by_dice = 25 * (seen.loc[6, "landings"] + 2 * seen.loc[6, "doubled"])
    assert table.loc[6, "railroads_1"] == pytest.approx(by_dice)  # the card pays double
    assert seen.loc[13, "fresh_roll"] > 0 and np.isnan(table.loc[13, "hotel"])


@pytest.fixture(scope="module")
def collected():
    """Rent each lot collected per turn of the paying player, 400 games (simulated_rent):
    enough for the railroad card's double rent to stand out (about 6 standard errors)."""
    return simulated_rent(games=400, seed=0)


def test_simulated_games_collect_the_exact_rent(collected):
    z = (collected["collected"] - collected["exact"]) / collected["se"]
    assert z.abs().max() < 4.5, z.round(1).to_dict()


def test_the_railroad_card_s_double_rent_shows_in_the_simulation(collected):
    """The check can fail: railroad rent without the card's doubling is told apart."""
    seen, plain = expected_landings(), collected["exact"].copy()
    for space in (6, 16, 26, 36):
        plain[space] = 200 * (seen.loc[space, "landings"] + seen.loc[space, "doubled"])
    assert ((collected["collected"] - plain) / collected["se"]).abs().max() > 4.5


def test_the_cli_prints_the_table(capsys):
    from monopoly_lesson.cli import main

    assert main(["rent", "--jail", "short"]) == 0
    out = capsys.readouterr().out
    assert "jail='short'" in out and "Boardwalk" in out and "railroads_4" in out
    boardwalk = next(line for line in out.splitlines() if "Boardwalk" in line).split()
    short = rent_per_turn(Rules(chance="standard", jail="short"))
    assert float(boardwalk[4]) == round(short.loc[40, "unimproved"], 2)  # 40 Boardwalk dark blue


def test_the_cli_refuses_bad_options_in_one_line(capsys):
    from monopoly_lesson.cli import main

    assert main(["rent", "--jail", "forever"]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "--jail" in err


def test_group_costs_and_payback_follow_the_lots_table():
    from monopoly_lesson.rent_value import group_costs, group_rent, payback_turns

    costs = group_costs()
    assert costs.loc["dark blue", "complete_group"] == 350 + 400
    assert costs.loc["dark blue", "hotel"] == 750 + 5 * 2 * 200
    rent, payback = group_rent(), payback_turns()
    added = rent.loc["orange", "houses_3"] - rent.loc["orange", "complete_group"]
    assert payback.loc["orange", "houses_3"] == pytest.approx(3 * 3 * 100 / added)
    assert (payback > 0).all().all()


def test_orange_is_the_best_group_per_dollar_once_built_up():
    """The classic answer, worked out exactly: orange (6, 8 and 9 spaces past Jail) earns
    the most per dollar from three houses on; undeveloped, dark blue does."""
    from monopoly_lesson.rent_value import rent_per_dollar

    for jail in ("long", "short"):
        best = rent_per_dollar(Rules(chance="standard", jail=jail)).idxmax()
        assert list(best[["houses_3", "houses_4", "hotel"]]) == ["orange"] * 3
        assert best["complete_group"] == "dark blue"
