"""What trading changes, measured with the reference engine: ``python tools/trading_figures.py``.

For four always-buy players (100-round limit), with and without trading: the share of
games that end before the round limit, the mean rounds, the complete groups held at the
end, the share of games with a house built, the trades per game and the rent each group
collects per game; and the win rates (95% Wilson intervals) of always, heuristic,
random:0.5 and never in one field, seats rotated. 5,000 games each way take about 5
minutes on one core here.
"""

from __future__ import annotations

import argparse
import time

import pandas as pd

from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.state import GROUP
from monopoly_lesson.game.tournament import play_games, win_rates

FIELD = ("always", "heuristic", "random:0.5", "never")


def always_buy_games(games: int, trading: bool) -> tuple[dict[str, float], pd.Series]:
    """Games of four always-buy players, seeds 0 to ``games - 1``: the figures of the whole
    run, and the rent each group collected per game."""
    ended = rounds = groups = housed = trades = 0
    rent = pd.Series(0.0, index=sorted(set(GROUP.values())))
    for seed in range(games):
        game = MonopolyGame(["always"] * 4, seed=seed, trading=trading)
        result = game.play()
        ended += result.ended_by == "last player"
        rounds += result.rounds
        groups += sum(len(game.state.monopolies(p.seat)) for p in game.state.players)
        housed += any(payment.reason == "building" for payment in game.state.ledger)
        trades += sum(proposal.accepted for proposal in game.state.proposals)
        for space, amount in result.rent.items():
            rent[GROUP[space]] += amount
    figures = {
        "ended before the limit": ended,
        "mean rounds": rounds,
        "complete groups at the end": groups,
        "games with a house built": housed,
        "trades per game": trades,
    }
    return {name: value / games for name, value in figures.items()}, rent / games


def main() -> None:
    """Print both runs' figures side by side, then the field's win rates."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5000, help="games each way (5,000)")
    games = parser.parse_args().games
    started = time.perf_counter()
    figures, rents, rates = {}, {}, {}
    for trading in (False, True):
        key = "with trading" if trading else "without"
        figures[key], rents[key] = always_buy_games(games, trading)
        table = play_games(list(FIELD), games=games, seed=1, trading=trading)
        rates[key] = win_rates(table)[["win_rate", "ci_low", "ci_high"]]
    print(f"Four always-buy players, {games:,} games each way:")
    print(pd.DataFrame(figures).round(3).to_string(), "\n")
    print("Rent collected per game, by group ($):")
    print(pd.DataFrame(rents).round(0).astype(int).to_string(), "\n")
    print(f"One field ({', '.join(FIELD)}), seats rotated, {games:,} games each way:")
    print(pd.concat(rates, axis=1).round(3).to_string())
    print(f"\n{time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
