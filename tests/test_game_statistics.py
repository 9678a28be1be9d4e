"""Statistical checks of the whole game that can fail: its landings against the exact solver.

Money must not change where tokens go. Whole games are played with strategies whose jail
choice matches a movement rule (never leave early: the long stay; always leave early:
the short stay), and each space's mean tally per player is compared with the exact
solver's expected tally for the same number of turns (standard Chance deck), by a z-score
over the players' games. With 40 spaces and |z| < 4.5 allowed, a correct engine fails by
chance about once in 10,000 runs; a rule wrong by a few percent on a space fails.

One known small difference is left unmodelled by the exact solver: a held Get Out of Jail
Free card is out of its deck, so the other cards come up slightly more often while it is
held. Its effect on a space is far below the sampling error of these runs.
"""

from __future__ import annotations

import numpy as np
import pytest

from monopoly_lesson.exact import expected_tallies
from monopoly_lesson.game.engine import GAME_MOVEMENT, play_monopoly
from monopoly_lesson.game.plugins import make_strategy
from monopoly_lesson.rules import Rules

Z_LIMIT = 4.5


def never_buy_leave_at_once():
    """Never buys, always leaves jail at once: the short stay of the movement rules."""
    return make_strategy("leaver", buy=lambda *_: False, leave_jail=lambda *_: True)


def landings_per_player(strategies, games, rounds):
    """Every player's tallies (one row per player per game) and turns played."""
    tallies, turns = [], []
    for seed in range(games):
        result = play_monopoly(strategies, seed=seed, max_rounds=rounds)
        tallies += result.tallies
        turns += result.turns
    return np.array(tallies, dtype=float), np.array(turns)


def expected_for(turns, rules):
    """Expected tallies of each player, for the number of turns it played."""
    cache = {t: expected_tallies(int(t), rules).to_numpy() for t in set(turns.tolist())}
    return np.array([cache[t] for t in turns])


def z_scores(tallies, expected):
    """Each space's mean difference from the exact answer, in standard errors."""
    difference = tallies - expected
    se = difference.std(axis=0, ddof=1) / np.sqrt(len(difference))
    return difference.mean(axis=0) / np.where(se > 0, se, 1.0)


@pytest.mark.parametrize(
    ("strategies", "rules"),
    [
        (["never"] * 4, GAME_MOVEMENT),
        ([never_buy_leave_at_once()] * 4, Rules(chance="standard", jail="short")),
    ],
    ids=["long stay", "leave at once"],
)
def test_landings_of_whole_games_match_the_exact_solver(strategies, rules):
    tallies, turns = landings_per_player(strategies, games=300, rounds=100)
    assert (turns == 100).all()  # nobody goes bankrupt without buying
    z = z_scores(tallies, expected_for(turns, rules))
    worst = int(np.abs(z).argmax()) + 1
    assert np.abs(z).max() < Z_LIMIT, f"space {worst} is {z[worst - 1]:.1f} standard errors off"


def test_the_jail_choice_is_visible_in_the_landings():
    """The check can fail: long-stay games do not match the short stay's answer."""
    tallies, turns = landings_per_player(["never"] * 4, games=300, rounds=100)
    z = z_scores(tallies, expected_for(turns, Rules(chance="standard", jail="short")))
    assert np.abs(z).max() > Z_LIMIT


def test_landings_of_always_buy_games_match_the_exact_solver():
    """With rent, debts and bankruptcies: each player's landings for the turns it played."""
    tallies, turns = landings_per_player(["always"] * 4, games=150, rounds=100)
    assert turns.min() < 100  # some players went bankrupt
    z = z_scores(tallies, expected_for(turns, GAME_MOVEMENT))
    worst = int(np.abs(z).argmax()) + 1
    assert np.abs(z).max() < Z_LIMIT, f"space {worst} is {z[worst - 1]:.1f} standard errors off"


def test_how_always_buy_games_end():
    """4 always-buy players, 100 rounds: about a quarter of the games end early.

    ``make bench`` reports the figures over 1,500 games (26% end before the round limit,
    91 rounds on average). Far outside these bounds, rent or debts are broken: with no
    bankruptcies no game ends early; with rent too high most would.
    """
    results = [play_monopoly(["always"] * 4, seed=seed) for seed in range(200)]
    early = np.mean([r.ended_by == "last player" for r in results])
    rounds = np.mean([r.rounds for r in results])
    assert 0.15 < early < 0.40, early
    assert 85 < rounds < 97, rounds
    assert all((r.rounds < 100) <= (r.ended_by == "last player") for r in results)
