"""Pre-drawn random streams for the whole game: the same draws for any engine.

A game's randomness is three kinds of draws: die faces (two per roll, and two for a
utility card's fresh roll), the deck shuffles (a permutation of a whole deck each time,
held cards then left out), and each player's decision draws (a uniform number each time
a strategy draws, ``me.rng.random()``). :class:`GameStreams` holds them as arrays, so the
reference engine and the fast engine can be fed identical draws and must then play
identical games.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from ..starter import RandomDice, community_deck, standard_chance_deck

__all__ = ["GameStreams", "StreamExhausted", "seed_sources"]


def seed_sources(
    seed: int, players: int
) -> tuple[np.random.SeedSequence, np.random.SeedSequence, np.random.SeedSequence, list[int]]:
    """Where the draws of the game seeded ``seed`` come from: the seeds of its dice, of its
    Chance and Community Chest decks, and of each player's generator (Python's)."""
    dice, chance, chest, *own = np.random.SeedSequence(seed).spawn(3 + players)
    return dice, chance, chest, [int(s.generate_state(2, np.uint64)[0]) for s in own]


class StreamExhausted(RuntimeError):
    """A game needed more draws of one kind than its streams hold."""


@dataclass(frozen=True)
class GameStreams:
    """Die faces, deck permutations (1-based card numbers) and per-player uniforms.

    ``shuffles[d]`` holds deck ``d``'s permutations (Chance 0, Community Chest 1), one
    row per shuffle; ``uniforms[p]`` player ``p``'s decision draws (seat ``p + 1``).
    """

    faces: np.ndarray
    shuffles: tuple[np.ndarray, np.ndarray]
    uniforms: np.ndarray

    @classmethod
    def draw(
        cls,
        seed: int,
        players: int,
        *,
        rolls: int = 3000,
        shuffles: int = 80,
        uniforms: int = 3000,
        sides: int = 6,
    ) -> GameStreams:
        """Streams drawn from ``seed``, long enough for a 100-round game (or say how long)."""
        rng = np.random.default_rng(seed)
        faces = rng.integers(1, sides + 1, size=2 * rolls).astype(np.int64)
        decks = tuple(
            np.argsort(rng.random((shuffles, 16)), axis=1).astype(np.int64) + 1 for _ in range(2)
        )
        return cls(faces, decks, rng.random((players, uniforms)))  # type: ignore[arg-type]

    @classmethod
    def of_seed(
        cls, seed: int, players: int, *, rolls: int = 3000, shuffles: int = 24, uniforms: int = 600
    ) -> GameStreams:
        """The draws the game seeded ``seed`` makes (``MonopolyGame(..., seed=seed)``), as
        its dice, decks and players draw them: fed these, any engine plays that very game.
        By default far more than a 100-round game uses (3 shuffles and 30 decision draws a
        player were the most in our games); one that needs more raises StreamExhausted."""
        dice, chance, chest, own = seed_sources(seed, players)
        rng, block = np.random.default_rng(dice), RandomDice._BLOCK
        blocks = [rng.integers(1, 7, size=block) for _ in range(-(-2 * rolls // block))]
        decks = tuple(
            np.array([deck_rng.permutation(len(deck)) + 1 for _ in range(shuffles)], np.int64)
            for deck_rng, deck in (
                (np.random.default_rng(chance), standard_chance_deck),
                (np.random.default_rng(chest), community_deck),
            )
        )
        draws = [[r.random() for _ in range(uniforms)] for r in map(random.Random, own)]
        faces = np.concatenate(blocks)[: 2 * rolls].astype(np.int64)
        return cls(faces, decks, np.array(draws).reshape(players, uniforms))  # type: ignore[arg-type]

    def dice(self) -> StreamDice:
        """Dice that roll this stream's faces, two per roll."""
        return StreamDice(self.faces)

    def deck_source(self, deck: int) -> StreamShuffles:
        """What a :class:`~monopoly_lesson.starter.CardDeck` shuffles with (its ``rng``)."""
        return StreamShuffles(self.shuffles[deck])

    def player_source(self, seat: int) -> StreamUniforms:
        """What player ``seat`` (from 1) draws its decisions from (its ``rng``)."""
        return StreamUniforms(self.uniforms[seat - 1])


class StreamDice:
    """``roll()`` returns the next two faces of the stream."""

    def __init__(self, faces: np.ndarray) -> None:
        self.faces, self.used, self.sides = faces.tolist(), 0, 6

    def roll(self) -> tuple[int, int]:
        """The next roll."""
        if self.used + 2 > len(self.faces):
            raise StreamExhausted("the game rolled more dice than its stream holds")
        d1, d2 = self.faces[self.used], self.faces[self.used + 1]
        self.used += 2
        return d1, d2


class StreamShuffles:
    """``permutation(n)`` returns the next pre-drawn permutation (0-based), as numpy's does."""

    def __init__(self, rows: np.ndarray) -> None:
        self.rows, self.used = rows, 0

    def permutation(self, n: int) -> np.ndarray:
        """The next shuffle of the deck's ``n`` cards."""
        if self.used >= len(self.rows):
            raise StreamExhausted("a deck was shuffled more often than its stream holds")
        row = self.rows[self.used]
        if len(row) != n:
            raise ValueError(f"the stream's shuffles are of {len(row)} cards, not {n}")
        self.used += 1
        return row - 1


class StreamUniforms:
    """``random()`` returns the player's next pre-drawn uniform number in [0, 1)."""

    def __init__(self, values: np.ndarray) -> None:
        self.values, self.used = values.tolist(), 0

    def random(self) -> float:
        """The next decision draw."""
        if self.used >= len(self.values):
            raise StreamExhausted("a player drew more decisions than its stream holds")
        value = self.values[self.used]
        self.used += 1
        return value
