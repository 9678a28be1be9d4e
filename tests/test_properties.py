"""Property-based tests: invariants of the rules page that hold for any dice and any cards.

Hypothesis plays the reference engine with random preset dice (biased towards doubles,
so triple doubles and jail come up often), random preset card orders, random starting
states and random seeds, and checks after every turn that:

- Go to Jail (31) is never tallied, and every turn tallies at least once;
- the token stays on 1..40; in jail means on 11; ``jail_turns`` is 0 when free and
  at most 2 between turns (the third turn in jail always leaves);
- a turn rolls 1 to 3 times, once in jail; a free turn that ends free ended on a
  non-doubles roll; three doubles end in jail;
- every card drawn matches one tally on a Chance or Community Chest space.
"""

from __future__ import annotations

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

from monopoly_lesson import (
    CardDeck,
    Player,
    PresetDice,
    RandomDice,
    SpaceTracker,
    chance_deck,
    community_deck,
    simulate,
    take_turn,
)

CHANCE_SPACES = (8, 23, 37)
CHEST_SPACES = (3, 18, 34)
SEEDS = st.integers(0, 2**32 - 1)
FACES = st.integers(1, 6)
ROLLS = st.one_of(st.tuples(FACES, FACES), FACES.map(lambda f: (f, f)))  # half doubles


class RecordingDice:
    """Wraps dice and records every roll, so a turn's rolls can be checked."""

    def __init__(self, dice) -> None:
        self.dice = dice
        self.sides = dice.sides
        self.rolls: list[tuple[int, int]] = []

    def roll(self) -> tuple[int, int]:
        d1, d2 = self.dice.roll()
        self.rolls.append((d1, d2))
        return d1, d2


def check_state(player: Player, tracker: SpaceTracker, chance: CardDeck, chest: CardDeck) -> None:
    """The invariants that hold between any two turns."""
    series = tracker.counts
    assert list(series.index) == list(range(1, 41))
    # Plain ints, fast enough to check after every turn.
    counts = dict(zip(range(1, 41), series.tolist(), strict=True))
    assert counts[31] == 0, "Go to Jail is never tallied"
    assert min(counts.values()) >= 0
    assert sum(counts.values()) == tracker.total
    assert 1 <= player.pos <= 40
    assert 0 <= player.jail_turns <= 3
    if player.in_jail:
        assert player.pos == 11
        assert player.jail_turns <= 2, "the third turn in jail always leaves"
    else:
        assert player.jail_turns == 0
    assert chance.draws == sum(counts[s] for s in CHANCE_SPACES), "one Chance card per landing"
    assert chest.draws == sum(counts[s] for s in CHEST_SPACES), "one Chest card per landing"


def play_checked(player, tracker, dice, chance, chest, turns: int) -> None:
    """Play ``turns`` turns, checking every invariant after each one."""
    dice = RecordingDice(dice)
    check_state(player, tracker, chance, chest)
    for _ in range(turns):
        total, rolled = tracker.total, len(dice.rolls)
        was_in_jail, served = player.in_jail, player.jail_turns
        take_turn(player, tracker, dice=dice, chance=chance, community=chest)
        rolls = dice.rolls[rolled:]
        doubles = [d1 == d2 for d1, d2 in rolls]

        assert tracker.total > total, "every turn tallies at least once"
        check_state(player, tracker, chance, chest)
        assert 1 <= len(rolls) <= 3
        if was_in_jail:
            assert len(rolls) == 1, "one roll in jail, never a roll again"
            if player.in_jail and player.jail_turns:
                assert not doubles[0], "doubles leave jail"
                assert player.jail_turns == served + 1
                assert served < 2
        else:
            assert all(doubles[:-1]), "only doubles roll again"
            if not player.in_jail:
                assert not doubles[-1], "a free turn ending free ended on non-doubles"
            if doubles == [True] * 3:
                assert (player.in_jail, player.pos) == (True, 11), "three doubles: jail"


@st.composite
def preset_games(draw, max_turns: int = 15):
    """A random start (maybe in jail), enough preset rolls for the turns, preset cards."""
    turns = draw(st.integers(1, max_turns))
    rolls = draw(st.lists(ROLLS, min_size=3 * turns, max_size=3 * turns))
    seed = draw(SEEDS)
    start = draw(st.integers(1, 40).filter(lambda s: s != 31))
    jail_turns = draw(st.none() | st.integers(0, 2))
    player = Player(start)
    if jail_turns is not None:
        player.go_to_jail()
        player.jail_turns = jail_turns
    chance = CardDeck(chance_deck, seed=seed, order=draw(st.lists(st.integers(1, 15), max_size=12)))
    chest = CardDeck(
        community_deck, seed=seed + 1, order=draw(st.lists(st.integers(1, 16), max_size=12))
    )
    dice = PresetDice([face for roll in rolls for face in roll])
    return player, dice, chance, chest, turns


@given(preset_games())
@settings(max_examples=200, deadline=None)
def test_invariants_with_preset_dice_and_cards(case):
    player, dice, chance, chest, turns = case
    play_checked(player, SpaceTracker(), dice, chance, chest, turns)
    assert dice.rolls_left >= 0


@given(seed=SEEDS)
@settings(max_examples=10, deadline=None)
def test_invariants_on_a_random_walk(seed):
    """Several hundred turns with RandomDice from Go keep every invariant."""
    play_checked(
        Player(),
        SpaceTracker(),
        RandomDice(seed),
        CardDeck(chance_deck, seed=seed),
        CardDeck(community_deck, seed=seed + 1),
        turns=300,
    )


@given(seed=SEEDS)
@settings(max_examples=5, deadline=None)
def test_same_seed_same_counts(seed):
    a = simulate(games=3, turns=30, seed=seed, progress=False)
    b = simulate(games=3, turns=30, seed=seed, progress=False)
    pd.testing.assert_series_equal(a.counts, b.counts)
    assert list(a.counts.index) == list(range(1, 41))
    assert a.counts[31] == 0
    assert a.total >= 3 * 30 * 2, "every turn tallies at least once"


@given(seed=SEEDS)
@settings(max_examples=5, deadline=None)
def test_take_turn_hook_with_the_reference_engine_gives_the_same_counts(seed):
    a = simulate(games=2, turns=30, seed=seed, progress=False)
    b = simulate(games=2, turns=30, seed=seed, progress=False, take_turn=take_turn)
    pd.testing.assert_series_equal(a.counts, b.counts)


def test_different_seeds_differ():
    a = simulate(games=5, turns=50, seed=1, progress=False)
    b = simulate(games=5, turns=50, seed=2, progress=False)
    assert not a.counts.equals(b.counts)
