"""The exact rent per opponent turn, checked two ways that can fail.

- Its landings agree with the exact solver's long-run frequencies, which come from the
  movement roll table: two enumerations of the rules, one answer.
- Simulated whole games collect that rent: one player owns every lot (complete groups,
  four railroads, both utilities) and never builds; the other never buys and pays. The
  rent each lot collects per opponent turn matches the exact value within sampling error.
"""

from __future__ import annotations

import numpy as np
import pytest

from monopoly_lesson.exact import stationary
from monopoly_lesson.game import GAME_MOVEMENT, MonopolyGame
from monopoly_lesson.game_state import BANK, LOT_SPACES
from monopoly_lesson.plugins import make_strategy
from monopoly_lesson.rent_value import LEVELS, expected_landings, rent_per_turn
from monopoly_lesson.rules import Rules


@pytest.mark.parametrize("jail", ["long", "short"])
def test_landings_agree_with_the_exact_solver(jail):
    rules = Rules(chance="standard", jail=jail)
    seen = expected_landings(rules)
    landings = seen["landings"] + seen["doubled"] + seen["fresh_roll"]
    frequencies = stationary(rules).loc[landings.index]
    np.testing.assert_allclose(landings / landings.sum(), frequencies / frequencies.sum(),
                               rtol=1e-9)  # fmt: skip


def test_the_table_has_every_stage_and_the_cards_rules():
    table = rent_per_turn()
    assert list(table.columns) == ["title", "group", *LEVELS]
    assert len(table) == 28
    assert table.loc[40, "complete_group"] == pytest.approx(2 * table.loc[40, "unimproved"])
    seen = expected_landings()
    by_dice = 25 * (seen.loc[6, "landings"] + 2 * seen.loc[6, "doubled"])
    assert table.loc[6, "railroads_1"] == pytest.approx(by_dice)  # the card pays double
    assert seen.loc[13, "fresh_roll"] > 0 and np.isnan(table.loc[13, "hotel"])


def owner_and_payer(seed):
    """Seat 1 owns every lot, never builds, and is rich; seat 2 never buys and is rich."""
    keeper = make_strategy("keeper", buy=lambda *_: False, build=lambda *_: None)
    game = MonopolyGame([keeper, "never"], seed=seed, max_rounds=300)
    owner = game.state.player(1)
    for space in LOT_SPACES:
        game.state.lots[space].owner = 1
        owner.lots.add(space)
    for seat in (1, 2):
        game.state.transfer(BANK, seat, 10**7, "salary")
    return game


GAMES = 200


@pytest.fixture(scope="module")
def collected():
    """Rent each lot collected per turn of the paying player, one row per game."""
    rents, turns = [], []
    for seed in range(GAMES):
        game = owner_and_payer(seed)
        game.play()
        rents.append([game.state.lots[s].rent_collected for s in LOT_SPACES])
        turns.append(game.turns[1])
    return np.array(rents) / np.array(turns)[:, None]


def z_scores(collected, expected):
    se = collected.std(axis=0, ddof=1) / np.sqrt(len(collected))
    return (collected.mean(axis=0) - np.asarray(expected)) / se


def owned_stage():
    """The stage of the simulated owner's lots: complete groups, 4 railroads, 2 utilities."""
    table = rent_per_turn(GAME_MOVEMENT)
    return table["complete_group"].fillna(table["railroads_4"]).fillna(table["utilities_2"])


def test_simulated_games_collect_the_exact_rent(collected):
    z = z_scores(collected, owned_stage())
    assert np.abs(z).max() < 4.5, dict(zip(LOT_SPACES, z.round(1), strict=True))


def test_the_railroad_card_s_double_rent_shows_in_the_simulation(collected):
    """The check can fail: railroad rent without the card's doubling is told apart."""
    seen, plain = expected_landings(), owned_stage()
    for space in (6, 16, 26, 36):
        plain[space] = 200 * (seen.loc[space, "landings"] + seen.loc[space, "doubled"])
    assert np.abs(z_scores(collected, plain)).max() > 4.5


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
