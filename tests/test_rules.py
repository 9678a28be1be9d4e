"""Each movement rule of the rules page in isolation, with preset dice and preset decks.

Every test plays one or a few turns of the reference engine (``take_turn``) and checks
the exact tallies (as ``{space: count}`` of the non-zero spaces, so every other space
must be 0), the token's end state, and how many rolls and cards were used. Space and
card numbers are 1-based, as in the rules page.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from monopoly_lesson import (
    NARRATION,
    CardDeck,
    DiceUsedUpError,
    Seat,
    chance_deck,
    community_deck,
    simulate,
    take_turn,
)

CHANCE_SPACES = (8, 23, 37)
CHEST_SPACES = (3, 18, 34)
NOT_MOVING_CHANCE = range(10, 16)
NOT_MOVING_CHEST = range(3, 17)
SEVEN = (3, 4)  # the non-doubles roll most tests use to step onto a space


def before(space: int, steps: int = 7) -> int:
    """The space ``steps`` spaces behind ``space`` (wrapping from 1 back to 40)."""
    return (space - 1 - steps) % 40 + 1


def game(
    start: int = 1,
    rolls: Sequence[tuple[int, int]] = (SEVEN,),
    *,
    chance: Sequence[int] = (),
    chest: Sequence[int] = (),
    jail_turns: int | None = None,
    verbose: bool = False,
) -> Seat:
    """Set up a token on ``start`` (or in jail with ``jail_turns`` turns already served)."""
    faces = [face for roll in rolls for face in roll]
    return Seat.preset(
        dice=faces,
        start=start,
        chance_order=chance,
        chest_order=chest,
        seed=11,
        verbose=verbose,
        jail_turns=jail_turns,
    )


def assert_state(
    g: Seat,
    *,
    pos: int,
    tallies: dict[int, int],
    in_jail: bool = False,
    jail_turns: int = 0,
    rolls_left: int = 0,
    chance_draws: int = 0,
    chest_draws: int = 0,
) -> None:
    """Check the exact tallies, the token's end state and what was consumed."""
    assert g.tallies == tallies
    assert g.tracker.counts[31] == 0, "Go to Jail is never tallied"
    assert (g.player.pos, g.player.in_jail, g.player.jail_turns) == (pos, in_jail, jail_turns)
    assert g.dice.rolls_left == rolls_left
    assert (g.chance.draws, g.community.draws) == (chance_draws, chest_draws)


# ---------------------------------------------------------------------------
# Moving by dice
# ---------------------------------------------------------------------------


def test_counts_is_a_series_indexed_by_the_40_spaces():
    counts = game().play().tracker.counts
    assert list(counts.index) == list(range(1, 41))
    assert counts.sum() == 1


@pytest.mark.parametrize(
    ("start", "roll", "pos"),
    [(1, (3, 4), 8), (38, (1, 2), 1), (38, (3, 4), 5), (35, (2, 3), 40)],
    ids=["plain", "lands on Go", "passes Go", "lands on Boardwalk"],
)
def test_dice_move_forward_and_wrap_past_go(start, roll, pos):
    """Moving by the sum wraps from 40 to 1; only the landing is tallied, not Go passed."""
    chance = [10] if pos in CHANCE_SPACES else []
    g = game(start, [roll], chance=chance).play()
    assert_state(g, pos=pos, tallies={pos: 1}, chance_draws=len(chance))


@pytest.mark.parametrize("space", [2, 5, 11, 13, 21, 29, 39, 40])
def test_plain_space_is_tallied_and_draws_no_card(space):
    g = game(before(space), [SEVEN]).play()
    assert_state(g, pos=space, tallies={space: 1})


# ---------------------------------------------------------------------------
# Chance cards
# ---------------------------------------------------------------------------

# Where each moving Chance card takes the token from Chance 8, 23 and 37.
CHANCE_MOVES = {
    1: (1, 1, 1),  # Advance to Go
    2: (25, 25, 25),  # Advance to Illinois Ave.
    3: (12, 12, 12),  # Advance to St. Charles Place
    4: (13, 29, 13),  # nearest Utility, forward (from 37 across Go)
    5: (16, 26, 6),  # nearest Railroad, forward (from 37 across Go)
    6: (6, 6, 6),  # Reading Railroad (from 8, 23, 37 across Go)
    7: (40, 40, 40),  # Boardwalk
    8: (11, 11, 11),  # Go to Jail
    9: (5, 20, 34),  # Go Back 3 Spaces
}
CHANCE_MOVE_CASES = [
    pytest.param(card, space, dest, id=f"card {card} from {space} to {dest}")
    for card, dests in CHANCE_MOVES.items()
    for space, dest in zip(CHANCE_SPACES, dests, strict=True)
]


@pytest.mark.parametrize(("card", "space", "dest"), CHANCE_MOVE_CASES)
def test_moving_chance_card_lands_on_its_destination(card, space, dest):
    """Cards 1-9 move (or jail) the token; the new landing is tallied as well."""
    chest = [16] if dest in CHEST_SPACES else []  # a Chest card that does not move
    g = game(before(space), [SEVEN], chance=[card], chest=chest).play()
    assert_state(
        g,
        pos=dest,
        tallies={space: 1, dest: 1},
        in_jail=card == 8,
        chance_draws=1,
        chest_draws=len(chest),
    )


@pytest.mark.parametrize("space", CHANCE_SPACES)
@pytest.mark.parametrize("card", ["railroad", "utility"])
def test_nearest_is_the_next_one_forward(space, card):
    """From 37 the nearest railroad is 6 and the nearest utility is 13, passing Go."""
    number, expected = {
        "railroad": (5, {8: 16, 23: 26, 37: 6}),
        "utility": (4, {8: 13, 23: 29, 37: 13}),
    }[card]
    g = game(before(space), [SEVEN], chance=[number]).play()
    dest = expected[space]
    assert_state(g, pos=dest, tallies={space: 1, dest: 1}, chance_draws=1)


@pytest.mark.parametrize(("space", "dest"), [(8, 5), (23, 20)])
def test_go_back_three(space, dest):
    g = game(before(space), [SEVEN], chance=[9]).play()
    assert_state(g, pos=dest, tallies={space: 1, dest: 1}, chance_draws=1)


def test_go_back_three_from_37_lands_on_chest_34_and_draws_a_chest_card():
    """Back 3 from 37 is a new landing on Community Chest 34: tally 34, draw, follow it."""
    g = game(30, [SEVEN], chance=[9], chest=[1]).play()
    assert_state(g, pos=1, tallies={37: 1, 34: 1, 1: 1}, chance_draws=1, chest_draws=1)


def test_go_back_three_from_37_then_chest_go_to_jail():
    g = game(30, [SEVEN], chance=[9], chest=[2]).play()
    assert_state(
        g, pos=11, tallies={37: 1, 34: 1, 11: 1}, in_jail=True, chance_draws=1, chest_draws=1
    )


@pytest.mark.parametrize("space", CHANCE_SPACES)
@pytest.mark.parametrize("card", NOT_MOVING_CHANCE)
def test_chance_card_that_does_not_move_does_nothing_more(space, card):
    g = game(before(space), [SEVEN], chance=[card]).play()
    assert_state(g, pos=space, tallies={space: 1}, chance_draws=1)


# ---------------------------------------------------------------------------
# Community Chest cards
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("space", CHEST_SPACES)
def test_chest_advance_to_go(space):
    g = game(before(space), [SEVEN], chest=[1]).play()
    assert_state(g, pos=1, tallies={space: 1, 1: 1}, chest_draws=1)


@pytest.mark.parametrize("space", CHEST_SPACES)
def test_chest_go_to_jail(space):
    g = game(before(space), [SEVEN], chest=[2]).play()
    assert_state(g, pos=11, tallies={space: 1, 11: 1}, in_jail=True, chest_draws=1)


@pytest.mark.parametrize("space", CHEST_SPACES)
@pytest.mark.parametrize("card", NOT_MOVING_CHEST)
def test_chest_card_that_does_not_move_does_nothing_more(space, card):
    g = game(before(space), [SEVEN], chest=[card]).play()
    assert_state(g, pos=space, tallies={space: 1}, chest_draws=1)


# ---------------------------------------------------------------------------
# Go to Jail, Jail, just visiting
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("roll", [(3, 4), (2, 5), (1, 6)])
def test_dice_onto_go_to_jail_sends_to_jail(roll):
    """31 is never tallied; Jail 11 is tallied once; the turn ends."""
    g = game(24, [roll, SEVEN]).play()
    assert_state(g, pos=11, tallies={11: 1}, in_jail=True, rolls_left=1)


def test_doubles_onto_go_to_jail_do_not_roll_again():
    g = game(25, [(3, 3), SEVEN]).play()
    assert_state(g, pos=11, tallies={11: 1}, in_jail=True, rolls_left=1)


def test_dice_onto_jail_is_just_visiting():
    g = game(4, [SEVEN]).play()
    assert_state(g, pos=11, tallies={11: 1})


def test_doubles_onto_jail_is_just_visiting_and_play_goes_on():
    g = game(5, [(3, 3), (1, 2)]).play()
    assert_state(g, pos=14, tallies={11: 1, 14: 1})


def test_just_visiting_token_plays_a_free_turn_next():
    g = game(4, [SEVEN, (1, 2)]).play(turns=2)
    assert_state(g, pos=14, tallies={11: 1, 14: 1})


@pytest.mark.parametrize(
    ("start", "roll", "chance", "chest", "space"),
    [(6, (1, 1), [8], [], 8), (1, (1, 1), [], [2], 3), (14, (2, 2), [], [2], 18)],
    ids=["Chance 8", "Chest 3", "Chest 18"],
)
def test_card_to_jail_during_doubles_ends_the_turn(start, roll, chance, chest, space):
    """Sent to jail by a card after doubles: no roll again, the next roll stays unused."""
    g = game(start, [roll, SEVEN], chance=chance, chest=chest).play()
    assert_state(
        g,
        pos=11,
        tallies={space: 1, 11: 1},
        in_jail=True,
        rolls_left=1,
        chance_draws=len(chance),
        chest_draws=len(chest),
    )


# ---------------------------------------------------------------------------
# Doubles
# ---------------------------------------------------------------------------


def test_doubles_roll_again():
    g = game(1, [(2, 2), SEVEN]).play()
    assert_state(g, pos=12, tallies={5: 1, 12: 1})


def test_two_doubles_then_non_doubles_end_the_turn():
    g = game(1, [(3, 3), (2, 2), (1, 2), SEVEN]).play()
    assert_state(g, pos=14, tallies={7: 1, 11: 1, 14: 1}, rolls_left=1)


def test_third_doubles_sends_to_jail_without_moving():
    """The third roll is not moved (15 is not tallied); Jail is tallied once."""
    g = game(1, [(3, 3), (3, 3), (1, 1), SEVEN]).play()
    assert_state(g, pos=11, tallies={7: 1, 13: 1, 11: 1}, in_jail=True, rolls_left=1)


def test_third_doubles_onto_a_card_space_draws_no_card():
    """9 -> 11 (visiting) -> 19; the third doubles (to Chance 23) is not moved: no card."""
    g = game(9, [(1, 1), (4, 4), (2, 2), SEVEN]).play()
    assert_state(g, pos=11, tallies={11: 2, 19: 1}, in_jail=True, rolls_left=1)


def test_doubles_streak_counts_within_one_turn_only():
    """Two doubles in one turn and doubles first in the next do not make three in a row."""
    g = game(1, [(1, 1), (2, 2), (1, 2), (2, 2), (1, 2)], chest=[16]).play(turns=2)
    assert_state(g, pos=17, tallies={3: 1, 7: 1, 10: 1, 14: 1, 17: 1}, chest_draws=1)


# ---------------------------------------------------------------------------
# In jail (long stay)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("served", [0, 1])
def test_no_doubles_on_first_or_second_jail_turn_stays(served):
    """Turns 1 and 2 in jail without doubles: stay on 11, tally Jail, one roll only."""
    g = game(jail_turns=served, rolls=[(1, 2), SEVEN]).play()
    assert_state(g, pos=11, tallies={11: 1}, in_jail=True, jail_turns=served + 1, rolls_left=1)


def test_stay_twice_then_leave_on_the_third_jail_turn():
    g = game(jail_turns=0, rolls=[(1, 2), (5, 6), (4, 5), SEVEN])
    g.play()
    assert (g.tallies, g.player.in_jail, g.player.jail_turns) == ({11: 1}, True, 1)
    g.play()
    assert (g.tallies, g.player.in_jail, g.player.jail_turns) == ({11: 2}, True, 2)
    g.play()
    assert_state(g, pos=20, tallies={11: 2, 20: 1}, rolls_left=1)


def test_leaving_on_the_third_jail_turn_then_chest_go_to_jail():
    g = game(jail_turns=2, rolls=[(2, 5), SEVEN], chest=[2]).play()
    assert_state(g, pos=11, tallies={18: 1, 11: 1}, in_jail=True, rolls_left=1, chest_draws=1)


@pytest.mark.parametrize("served", [0, 1, 2])
def test_doubles_in_jail_leave_and_do_not_roll_again(served):
    g = game(jail_turns=served, rolls=[(3, 3), SEVEN]).play()
    assert_state(g, pos=17, tallies={17: 1}, rolls_left=1)


@pytest.mark.parametrize(
    ("card", "pos", "tallies", "in_jail"),
    [
        (10, 23, {23: 1}, False),
        (5, 26, {23: 1, 26: 1}, False),
        (9, 20, {23: 1, 20: 1}, False),
        (1, 1, {23: 1, 1: 1}, False),
        (8, 11, {23: 1, 11: 1}, True),
    ],
    ids=["no move", "nearest railroad", "back 3", "to Go", "to jail"],
)
def test_doubles_out_of_jail_onto_chance_draws_a_card(card, pos, tallies, in_jail):
    """(6, 6) from Jail lands on Chance 23: draw and follow the card, no roll again."""
    g = game(jail_turns=0, rolls=[(6, 6), SEVEN], chance=[card]).play()
    assert_state(g, pos=pos, tallies=tallies, in_jail=in_jail, rolls_left=1, chance_draws=1)


@pytest.mark.parametrize(("roll", "chest"), [((3, 4), 3), ((2, 5), 16), ((6, 1), 1)])
def test_third_jail_turn_onto_community_chest_draws_a_card(roll, chest):
    """No doubles can reach a Chest from 11 (7 and 23 are odd); the 3rd-turn exit can."""
    g = game(jail_turns=2, rolls=[roll, SEVEN], chest=[chest]).play()
    dest = 1 if chest == 1 else 18
    assert_state(g, pos=dest, tallies={18: 1} | {dest: 1}, rolls_left=1, chest_draws=1)


def test_jail_turns_reset_after_being_sent_again():
    g = game(jail_turns=1, rolls=[(6, 6)], chance=[8]).play()
    assert (g.player.in_jail, g.player.jail_turns) == (True, 0)


def test_dice_are_not_rolled_beyond_one_turn():
    """A turn that should end does not roll: an empty preset would raise if it did."""
    g = game(1, [SEVEN], chance=[10]).play()
    with pytest.raises(DiceUsedUpError):
        g.play()


# ---------------------------------------------------------------------------
# Decks
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("table", [chance_deck, community_deck], ids=["Chance", "Chest"])
@pytest.mark.parametrize("seed", [0, 1, 2024])
def test_deck_deals_every_card_once_per_pass_and_reshuffles(table, seed):
    deck = CardDeck(table, seed=seed)
    n = len(deck)
    passes = [[deck.draw() for _ in range(n)] for _ in range(4)]
    for dealt in passes:
        assert sorted(dealt) == list(range(1, n + 1))
    assert deck.draws == 4 * n
    assert len({tuple(dealt) for dealt in passes}) > 1, "each pass is a new shuffle"


def test_order_cards_are_dealt_first_then_full_shuffled_passes():
    deck = CardDeck(chance_deck, seed=5, order=[9, 9, 1])
    assert [deck.draw() for _ in range(3)] == [9, 9, 1]
    for _ in range(2):
        assert sorted(deck.draw() for _ in range(15)) == list(range(1, 16))
    assert deck.draws == 33


def test_same_seed_deals_the_same_cards():
    a, b = CardDeck(community_deck, seed=7), CardDeck(community_deck, seed=7)
    assert [a.draw() for _ in range(40)] == [b.draw() for _ in range(40)]


def test_players_of_a_game_share_decks_and_each_game_starts_fresh():
    """simulate: players alternate, share one pair of decks per game, start on Go."""
    calls = []

    def record(player, tracker, *, dice, chance, community):
        calls.append((player, player.pos, player.in_jail, chance, community, chance.draws))
        take_turn(player, tracker, dice=dice, chance=chance, community=community)

    simulate(games=3, turns=4, players=2, seed=3, progress=False, take_turn=record)
    assert len(calls) == 3 * 4 * 2
    for g in range(3):
        turns = calls[g * 8 : (g + 1) * 8]
        players = [c[0] for c in turns]
        assert players[0] is not players[1]
        assert players == [players[0], players[1]] * 4, "the players alternate"
        assert {id(c[3]) for c in turns} == {id(turns[0][3])}, "one Chance deck per game"
        assert {id(c[4]) for c in turns} == {id(turns[0][4])}, "one Chest deck per game"
        first, second = turns[0], turns[1]
        assert (first[1], first[2], first[5]) == (1, False, 0), "fresh token and deck"
        assert (second[1], second[2]) == (1, False)
    assert len({id(c[3]) for c in calls}) == 3, "every game has its own decks"


# ---------------------------------------------------------------------------
# Narration
# ---------------------------------------------------------------------------


def test_narration_templates():
    assert NARRATION["roll"] == "Rolled {d1} and {d2} (total {total}){doubles}."
    assert NARRATION["sent_to_jail"] == "{who} is sent to jail."


def test_verbose_narrates_the_roll_and_being_sent_to_jail(capsys):
    game(24, [SEVEN], verbose=True).play()
    lines = capsys.readouterr().out.splitlines()
    assert "Rolled 3 and 4 (total 7)." in lines
    assert "Player is sent to jail." in lines
    assert "Tally: Jail (11), now 1." in lines
    assert lines.index("Rolled 3 and 4 (total 7).") < lines.index("Player is sent to jail.")
    assert not any("Go to Jail (31), now" in line for line in lines)


def test_verbose_tells_a_visit_to_jail_from_being_sent_there(capsys):
    """A token that walks onto Jail is just visiting, and the narration says so; a token
    sent to jail is moved there after "is sent to jail", with no "just visiting"."""
    game(4, [SEVEN], verbose=True).play()
    visit = capsys.readouterr().out.splitlines()
    assert "Player moves from Baltic Avenue (4) to Jail (11), just visiting." in visit
    for sent in (game(24, [SEVEN], verbose=True), game(30, [SEVEN], chance=[8], verbose=True)):
        sent.play()
        lines = capsys.readouterr().out.splitlines()
        moved = [line for line in lines if line.endswith("to Jail (11).")]
        assert len(moved) == 1 and "Player is sent to jail." in lines
        assert lines.index("Player is sent to jail.") < lines.index(moved[0])
        assert not any("just visiting" in line for line in lines)


def test_verbose_marks_doubles(capsys):
    game(1, [(2, 2), SEVEN], verbose=True).play()
    lines = capsys.readouterr().out.splitlines()
    rolls = [line for line in lines if line.startswith("Rolled")]
    assert rolls == ["Rolled 2 and 2 (total 4), doubles.", "Rolled 3 and 4 (total 7)."]


def test_quiet_by_default(capsys):
    game(24, [SEVEN]).play()
    assert capsys.readouterr().out == ""
