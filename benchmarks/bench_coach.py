"""Benchmark the coach: play-outs per second, and the time of 200 per choice.

Run ``python benchmarks/bench_coach.py`` (part of ``make bench``). A person (answering the
rules' defaults) plays ega_trading, always and heuristic with trading, as ``play --you``'s
example does; the coach (:func:`monopoly_lesson.game.coach.coach`) is asked at a buy and
a bid decision early in the game and at one after round 30 (later: a longer replay, a
richer state), 200 play-outs per choice with the league player in the person's seat. For
each it prints the choices, the seconds of one whole call (the best and the median of
``--repeat``, after one call that loads the compiled engine and the league player) and the
play-outs per second, on the compiled engine and, for comparison, on the reference engine
(fewer play-outs). The goal: 200 play-outs per choice within 5 seconds.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import time

from machine import machine_line

from monopoly_lesson.game.coach import coach
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.person import Question, You

GOAL_SECONDS = 5.0
FIELD = ["ega_trading", "always", "heuristic"]


def decisions(seed: int) -> dict[str, tuple]:
    """The game, question and answers at the first buy and bid, and at the first of each
    after round 20, of the game seeded ``seed`` (each a game of its own, stopped there)."""
    wanted = {"early buy": ("buy", 0), "early bid": ("bid", 0)}
    wanted |= {"later buy": ("buy", 20), "later bid": ("bid", 20)}
    found = {name: stopped_at(seed, decision, after) for name, (decision, after) in wanted.items()}
    return {name: at for name, at in found.items() if at is not None}


def stopped_at(seed: int, decision: str, after: int) -> tuple | None:
    """The game seeded ``seed`` stopped at the person's first ``decision`` after round
    ``after`` (the person answering the defaults until then): (game, question, answers)."""
    answers: list[object] = []
    seen: list[tuple] = []

    def answer(question: Question) -> object:
        if question.decision == decision and question.game.round > after:
            seen.append((game, question, list(answers)))
            raise _Stop
        answers.append(question.default)
        return question.default

    game = MonopolyGame([You(answer=answer), *FIELD], seed=seed, trading=True)
    with contextlib.suppress(_Stop):
        game.play()
    return seen[0] if seen else None


class _Stop(BaseException):
    """Stops a game at the question found (the coach reads the game as it stands)."""


def timed(repeat: int, at: tuple, **options: object) -> list[float]:
    """The wall times of ``repeat`` calls of the coach at ``at`` (game, question, answers)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        coach(*at, **options)  # type: ignore[arg-type]
        times.append(time.perf_counter() - start)
    return times


def main() -> None:
    """Time the coach at each decision and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="the game's seed (7)")
    parser.add_argument("--repeat", type=int, default=5, help="timed calls of each (5)")
    parser.add_argument("--playouts", type=int, default=200, help="per choice (200)")
    args = parser.parse_args()
    print(machine_line())
    found = decisions(args.seed)
    first = timed(1, next(iter(found.values())), playouts=args.playouts)[0]
    print(f"first call (loads the compiled engine and the league player): {first:.2f} s")
    for name, at in found.items():
        coaching = coach(*at, playouts=args.playouts)
        choices, total = len(coaching.choices), len(coaching.choices) * args.playouts
        times = timed(args.repeat, at, playouts=args.playouts)
        best, median = min(times), statistics.median(times)
        verdict = "within" if median <= GOAL_SECONDS else "OVER"
        print(
            f"{name} (round {at[1].game.round}, {choices} choices: "
            f"{', '.join(coaching.labels)}):\n"
            f"  compiled: {args.playouts} per choice in {best:.2f} s best, {median:.2f} s "
            f"median ({total / median:,.0f} play-outs/s; {verdict} the {GOAL_SECONDS:.0f} s goal)"
        )
        fewer = max(1, args.playouts // 4)
        reference = timed(1, at, playouts=fewer, engine="reference")[0]
        print(
            f"  reference: {fewer} per choice in {reference:.2f} s "
            f"({choices * fewer / reference:,.0f} play-outs/s)"
        )


if __name__ == "__main__":
    main()
