"""The same rules, vectorised over many games with numpy: tens of millions of turns a second.

The idea: every dice roll becomes a table lookup. Each game keeps its decks' *next*
cards face up (a Chance card and a Community Chest card), so where a roll leads is
known from three small numbers: the player's state (free on a space, or in jail after
k turns), the dice, and those two cards. A roll draws at most one card from each deck
(checked when the tables are built), so tables indexed by (situation, next cards) give
the next state, the tallies and which decks were drawn from. The tables are built once
per ``Rules`` from the rules' own data (:func:`card_destination`, the deck tables).

Arrays hold one value per game of a chunk of games. The players of a game take turns in
order and share its decks (shuffled per game, reshuffled when used up, or drawn with
replacement). A game's first roll of a turn is played for every game at once; rolls
after doubles and card draws only for the games concerned. Spaces are 0-based here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from .rules import (
    CHANCE_SPACES,
    COMMUNITY_CHEST_SPACES,
    LESSON_RULES,
    SENDS_TO_JAIL,
    Rules,
    card_destination,
)
from .starter import GO_TO_JAIL, JAIL, NUM_SPACES, _check_int, _check_positive, community_deck

__all__ = ["fast_game_tallies", "fast_tallies"]

CHUNK_GAMES = 1 << 17  # games played side by side; fixed, so a seed always gives one result

# Start-of-roll states: free on a space (0..39), or in jail after k turns (JAIL_STATE + k).
JAIL_STATE = NUM_SPACES
JAIL_SPACE = JAIL - 1

# Situations: what a roll did before any card is read.
STOPS = 0  # + space: landed there, and the turn ends unless a card says otherwise
ROLLS_AGAIN = NUM_SPACES  # + space: landed there by doubles, roll again unless sent to jail
STAYS = 2 * NUM_SPACES  # + k: stayed in jail after k turns (long stay)
THIRD_DOUBLES = STAYS + 2  # sent to jail by the third doubles
SITUATIONS = THIRD_DOUBLES + 1
CARD_SLOTS = 16  # upcoming cards are packed as chance * 16 + chest
CARD_PAIRS = CARD_SLOTS * CARD_SLOTS
AGAIN = 1 << 24  # flags on a next state: the player rolls again from there,
DREW_CHANCE = 1 << 25  # the roll drew a Chance card,
DREW_CHEST = 1 << 26  # the roll drew a Community Chest card
STATE_BITS = AGAIN - 1
FLAG_SHIFT = 24
NO_TALLY = NUM_SPACES  # an unused tally slot (the counts have a 41st, discarded column)
MAX_TALLIES = 3  # tallies one roll can make: e.g. Chance 37, Back 3 to Chest 34, Jail


# ---------------------------------------------------------------------------
# The rules as lookup tables
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Landing:
    """Where a landing ends, once a known Chance card and Chest card are followed."""

    rest: int  # 1-based space the token rests on (Jail when sent)
    sent: bool  # sent to jail
    tallies: tuple[int, ...]  # 1-based spaces tallied, landing by landing
    drew_chance: bool
    drew_chest: bool


def follow_landing(space: int, chance_card: str, chest_card: str) -> Landing:
    """Resolve a landing on ``space`` (1-based) as RULES.md says, with these next cards."""
    tallies: list[int] = []
    drew = {"chance": False, "chest": False}
    while True:
        if space == GO_TO_JAIL:
            return Landing(JAIL, True, (*tallies, JAIL), drew["chance"], drew["chest"])
        tallies.append(space)
        if space in CHANCE_SPACES:
            deck, card = "chance", chance_card
        elif space in COMMUNITY_CHEST_SPACES:
            deck, card = "chest", chest_card
        else:
            break
        if drew[deck]:
            raise RuntimeError("a roll drew twice from one deck; the fast engine cannot play it")
        drew[deck] = True
        if card in SENDS_TO_JAIL:
            return Landing(JAIL, True, (*tallies, JAIL), drew["chance"], drew["chest"])
        destination = card_destination(card, space)
        if destination is None:
            break
        space = destination
    return Landing(space, False, tuple(tallies), drew["chance"], drew["chest"])


@dataclass(frozen=True)
class Tables:
    """Lookup tables for one ``Rules``; an outcome is ``situation * 256 + next cards``."""

    dice_codes: int  # n * n: a roll is coded (d1 - 1) * n + (d2 - 1)
    situation: tuple[np.ndarray, np.ndarray]  # [streak 0 | streak 2][state * n*n + code]
    next_state: np.ndarray  # outcome -> next state * n*n, + flags AGAIN, DREW_...
    tallies: np.ndarray  # outcome -> up to 3 tallied spaces (0-based; NO_TALLY if unused)
    chance_cards: int
    chest_cards: int


def _landings_table(rules: Rules) -> list[list[list[Landing]]]:
    """``[space][chance card][chest card]`` -> Landing, for every 0-based space."""
    chance = list(rules.chance_deck["card"])
    chest = list(community_deck["card"])
    table = []
    for space in range(1, NUM_SPACES + 1):
        if space not in CHANCE_SPACES + COMMUNITY_CHEST_SPACES + (GO_TO_JAIL,):
            plain = follow_landing(space, chance[0], chest[0])
            table.append([[plain] * len(chest)] * len(chance))
        else:
            table.append([[follow_landing(space, a, b) for b in chest] for a in chance])
    return table


def _outcome_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """For every outcome: the next state with its flags, and the tallied spaces."""
    codes = rules.dice_sides**2
    next_state = np.zeros((SITUATIONS, CARD_PAIRS), dtype=np.int64)
    tallies = np.full((SITUATIONS, CARD_PAIRS, MAX_TALLIES), NO_TALLY, dtype=np.int64)
    landings = _landings_table(rules)
    counting_rest = rules.counting == "end_of_move"
    for space in range(NUM_SPACES):
        for a, row in enumerate(landings[space]):
            for b, landing in enumerate(row):
                pair = a * CARD_SLOTS + b
                rest = landing.rest - 1
                stop = JAIL_STATE if landing.sent else rest
                drawn = DREW_CHANCE * landing.drew_chance + DREW_CHEST * landing.drew_chest
                again = AGAIN + rest * codes  # doubles roll again, unless sent to jail
                next_state[STOPS + space, pair] = drawn + stop * codes
                next_state[ROLLS_AGAIN + space, pair] = drawn + (
                    stop * codes if landing.sent else again
                )
                counted = (rest,) if counting_rest else [s - 1 for s in landing.tallies]
                tallies[[STOPS + space, ROLLS_AGAIN + space], pair, : len(counted)] = counted
    for served in range(2):  # a stay in jail: Jail tallied (or counted) once, one more turn
        next_state[STAYS + served] = (JAIL_STATE + served + 1) * codes
        tallies[STAYS + served, :, 0] = JAIL_SPACE
    next_state[THIRD_DOUBLES] = JAIL_STATE * codes
    tallies[THIRD_DOUBLES, :, 0] = JAIL_SPACE
    return next_state.ravel(), tallies.reshape(-1, MAX_TALLIES)


def _situation_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """[state * n*n + code] -> situation * 256, for a turn's first roll and its third."""
    n = rules.dice_sides
    d1, d2 = np.divmod(np.arange(n * n), n)
    totals, doubles = d1 + d2 + 2, d1 == d2
    first = np.zeros((NUM_SPACES + 3, n * n), dtype=np.int64)
    third = np.zeros_like(first)  # its jail rows stay unused: only free players roll again
    for space in range(NUM_SPACES):
        landed = (space + totals) % NUM_SPACES
        first[space] = np.where(doubles, ROLLS_AGAIN, STOPS) + landed
        third[space] = np.where(doubles, THIRD_DOUBLES, STOPS + landed)
    from_jail = (JAIL_SPACE + totals) % NUM_SPACES
    for served in range(3):
        if rules.jail == "short":  # pay, leave, and play a normal free turn from Jail
            first[JAIL_STATE + served] = first[JAIL_SPACE]
        elif served < 2:  # long stay: doubles leave (no roll again), else stay
            first[JAIL_STATE + served] = np.where(doubles, STOPS + from_jail, STAYS + served)
        else:  # the third turn in jail: leave anyway
            first[JAIL_STATE + served] = STOPS + from_jail
    return (first.ravel() * CARD_PAIRS, third.ravel() * CARD_PAIRS)


@lru_cache(maxsize=64)
def tables(rules: Rules) -> Tables:
    """The lookup tables of ``rules`` (cached: ``Rules`` is frozen)."""
    chance_cards, chest_cards = len(rules.chance_deck), len(community_deck)
    if max(chance_cards, chest_cards) > CARD_SLOTS:
        raise ValueError(f"the fast engine plays decks of at most {CARD_SLOTS} cards.")
    next_state, tallies = _outcome_tables(rules)
    return Tables(
        rules.dice_sides**2,
        _situation_tables(rules),
        next_state,
        tallies,
        chance_cards,
        chest_cards,
    )


# ---------------------------------------------------------------------------
# A chunk of games
# ---------------------------------------------------------------------------


class Decks:
    """Each game's two shuffled decks, dealt in order; a deck used up is shuffled again.

    ``upcoming`` holds each game's next Chance card * 16 + next Community Chest card: the
    card a draw will deal is turned over as soon as the previous one is drawn. With
    replacement every card turned over is an independent random card instead.
    """

    SCALE = (CARD_SLOTS, 1)  # Chance cards are stored times 16, Chest cards as they are
    KEEP = (CARD_SLOTS - 1, (CARD_SLOTS - 1) * CARD_SLOTS)  # the other deck's bits

    def __init__(self, games: int, t: Tables, replace: bool, rng: np.random.Generator) -> None:
        self.rng, self.replace = rng, replace
        self.cards = (t.chance_cards, t.chest_cards)
        self.order = [np.zeros(games * n, dtype=np.uint8) for n in self.cards]  # games x cards
        self.cursor = [np.arange(1, games + 1) * n for n in self.cards]  # used up: shuffle
        self.upcoming = np.zeros(games, dtype=np.uint8)
        for deck in (0, 1):
            self.turn_over(deck, np.arange(games))

    def shuffle(self, deck: int, games: np.ndarray) -> None:
        """Shuffle ``deck`` afresh in each of ``games``; its next card is the first."""
        cards = self.cards[deck]
        unshuffled = np.tile(np.arange(cards, dtype=np.uint8), (len(games), 1))
        shuffled = self.rng.permuted(unshuffled, axis=1) * np.uint8(self.SCALE[deck])
        order = self.order[deck].reshape(-1, cards)
        order[games] = shuffled
        self.cursor[deck][games] = games * cards

    def deal(self, deck: int, games: np.ndarray) -> np.ndarray:
        """The next card of ``deck`` in each of ``games`` (distinct), scaled as upcoming."""
        cards = self.cards[deck]
        scale = np.uint8(self.SCALE[deck])
        if self.replace:
            return self.rng.integers(0, cards, size=len(games), dtype=np.uint8) * scale
        cursor = self.cursor[deck][games]
        used_up = cursor == (games + 1) * cards
        if used_up.any():
            self.shuffle(deck, games[used_up])
            cursor = self.cursor[deck][games]
        self.cursor[deck][games] = cursor + 1
        return self.order[deck].take(cursor)

    def turn_over(self, deck: int, games: np.ndarray) -> None:
        """In each of ``games``, a card of ``deck`` was drawn (0 Chance, 1 Chest): show the next."""
        if games.size:
            kept = self.upcoming[games] & self.KEEP[deck]
            self.upcoming[games] = kept | self.deal(deck, games)


class Chunk:
    """A chunk of games played side by side: every player's state, the decks, the tallies."""

    def __init__(
        self, games: int, players: int, rules: Rules, rng: np.random.Generator, per_game: bool
    ) -> None:
        self.games, self.rng, self.per_game = games, rng, per_game
        self.lookup = tables(rules)
        self.state = np.zeros((players, games), dtype=np.int64)  # state * n*n, all on Go
        self.decks = Decks(games, self.lookup, rules.replacement, rng)
        self.code_type = np.uint8 if self.lookup.dice_codes <= 256 else np.int64
        self.everyone = np.arange(games)
        if per_game:  # a 41st column takes the unused tally slots
            self.counts = np.zeros((games, NUM_SPACES + 1), dtype=np.int64)
        else:  # how often each outcome happened; tallies are worked out at the end
            self.outcomes = np.zeros(SITUATIONS * CARD_PAIRS, dtype=np.int64)

    def roll(self, games: np.ndarray | None, state: np.ndarray, third: bool) -> np.ndarray:
        """Roll for ``state`` (of ``games``, or every game if None): each roll's outcome."""
        codes = self.rng.integers(0, self.lookup.dice_codes, size=len(state), dtype=self.code_type)
        outcome = self.lookup.situation[third].take(state + codes)
        outcome += self.decks.upcoming if games is None else self.decks.upcoming[games]
        self.tally(games, outcome)
        return outcome

    def tally(self, games: np.ndarray | None, outcome: np.ndarray) -> None:
        """Record the tallies of these outcomes (per game, or summed at the end)."""
        if not self.per_game:
            self.outcomes += np.bincount(outcome, minlength=len(self.outcomes))
            return
        rows = self.everyone if games is None else games
        for slot in self.lookup.tallies[outcome].T:
            self.counts[rows, slot] += 1

    def settle(self, games: np.ndarray, flagged: np.ndarray, state: np.ndarray) -> np.ndarray:
        """Turn over drawn cards, store the plain states; return the games that roll again."""
        flags = flagged >> FLAG_SHIFT
        self.decks.turn_over(0, games[(flags & (DREW_CHANCE >> FLAG_SHIFT)) != 0])
        self.decks.turn_over(1, games[(flags & (DREW_CHEST >> FLAG_SHIFT)) != 0])
        state[games] = flagged & STATE_BITS
        return games[(flags & (AGAIN >> FLAG_SHIFT)) != 0]

    def turn(self, player: int) -> None:
        """Player ``player`` takes one turn in every game of the chunk."""
        state = self.state[player]
        outcome = self.roll(None, state, third=False)
        self.lookup.next_state.take(outcome, out=state)
        busy = np.flatnonzero(state > STATE_BITS)  # drew a card or rolls again
        again = self.settle(busy, state[busy], state)
        for third in (False, True):  # the second and the third roll after doubles
            if not again.size:
                return
            outcome = self.roll(again, state[again], third)
            again = self.settle(again, self.lookup.next_state.take(outcome), state)

    def tallies(self) -> np.ndarray:
        """The chunk's tallies: per game (games x 40), or summed (40)."""
        if self.per_game:
            return self.counts[:, :NUM_SPACES]
        slots = self.lookup.tallies.ravel()
        weights = np.repeat(self.outcomes, MAX_TALLIES)
        return np.bincount(slots, weights=weights, minlength=NUM_SPACES + 1)[:NUM_SPACES]


# ---------------------------------------------------------------------------
# Many games
# ---------------------------------------------------------------------------


def _check_arguments(
    games: object, turns: object, players: object, seed: object, rules: object
) -> tuple[int, int, int, int]:
    if not isinstance(rules, Rules):
        raise TypeError(f"rules must be a Rules value, got {type(rules).__name__}.")
    seed = _check_int(seed, "seed")
    if seed < 0:
        raise ValueError(f"seed must be 0 or a positive whole number, got {seed}.")
    return (
        _check_positive(games, "games"),
        _check_positive(turns, "turns"),
        _check_positive(players, "players"),
        seed,
    )


def _play(
    games: int, turns: int, players: int, seed: int, rules: Rules, per_game: bool, progress: bool
) -> list[np.ndarray]:
    """Play every chunk of games; return each chunk's tallies."""
    sizes = [min(CHUNK_GAMES, games - start) for start in range(0, games, CHUNK_GAMES)]
    seeds = np.random.SeedSequence(seed).spawn(len(sizes))
    chunks = zip(sizes, seeds, strict=True)
    if progress:
        from tqdm.auto import tqdm

        chunks = tqdm(chunks, total=len(sizes), desc="chunks of games", unit="chunk")
    results = []
    for size, chunk_seed in chunks:
        chunk = Chunk(size, players, rules, np.random.default_rng(chunk_seed), per_game)
        for _ in range(turns):
            for player in range(players):
                chunk.turn(player)
        results.append(chunk.tallies())
    return results


def fast_tallies(
    games: int = 1000,
    turns: int = 150,
    players: int = 2,
    seed: int = 0,
    rules: Rules = LESSON_RULES,
    progress: bool = False,
) -> pd.Series:
    """The tallies of ``games`` games summed, as a Series indexed by space 1..40.

    The same seed always gives the same counts (not those of the reference engine).
    """
    games, turns, players, seed = _check_arguments(games, turns, players, seed, rules)
    counts = sum(_play(games, turns, players, seed, rules, False, progress))
    index = pd.RangeIndex(1, NUM_SPACES + 1, name="space")
    return pd.Series(np.rint(counts), index=index, name="tally").astype("int64")


def fast_game_tallies(
    games: int = 1000,
    turns: int = 150,
    players: int = 2,
    seed: int = 0,
    rules: Rules = LESSON_RULES,
) -> np.ndarray:
    """Each game's tallies (all its players together): a (games x 40) array.

    The same games as :func:`fast_tallies` with the same arguments: the columns sum to
    its counts.
    """
    games, turns, players, seed = _check_arguments(games, turns, players, seed, rules)
    return np.concatenate(_play(games, turns, players, seed, rules, True, False))
