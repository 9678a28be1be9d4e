"""The variants of the rules page ("Variants"), each played by the reference take_turn.

Every test plays one or a few turns with preset dice and preset decks and checks the
exact tallies (``{space: count}`` of the non-zero spaces) and the token's end state.
Space and card numbers are 1-based, as in the rules page.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np
import pytest

from monopoly_lesson import (
    LESSON_RULES,
    CardDeck,
    Rules,
    Seat,
    chance_deck,
    community_deck,
    play_preset,
    simulate,
    standard_chance_deck,
    take_turn,
)

SHORT = Rules(jail="short")
STANDARD = Rules(chance="standard")
END_OF_MOVE = Rules(counting="end_of_move")
STILL_CHANCE, STILL_CHEST = 10, 16  # a card that does not move, in each lesson deck


def game(
    start: int,
    rolls: Sequence[tuple[int, int]],
    rules: Rules = LESSON_RULES,
    *,
    chance: Sequence[int] = (),
    chest: Sequence[int] = (),
    jail_turns: int | None = None,
) -> Seat:
    """A token on ``start`` (or in jail after ``jail_turns`` turns) with preset dice and cards."""
    faces = [face for roll in rolls for face in roll]
    return Seat.preset(
        dice=faces,
        start=start,
        chance_order=chance,
        chest_order=chest,
        rules=rules,
        seed=1,
        jail_turns=jail_turns,
    )


def where(seat: Seat) -> tuple[int, bool, int]:
    """The token's space, whether it is in jail, and the turns served there."""
    return seat.player.pos, seat.player.in_jail, seat.player.jail_turns


# ---------------------------------------------------------------------------
# n-sided dice
# ---------------------------------------------------------------------------

FOUR = Rules(dice_sides=4)


def test_four_sided_dice_move_by_their_sum():
    g = game(1, [(1, 4)], FOUR).play()
    assert g.tallies == {6: 1} and where(g) == (6, False, 0)


def test_four_sided_doubles_roll_again_and_three_send_to_jail():
    g = game(1, [(4, 4), (1, 1), (2, 2)], FOUR).play()
    assert g.tallies == {9: 1, 11: 2} and where(g) == (11, True, 0)
    assert g.dice.rolls_left == 0


def test_four_sided_long_stay_leaves_on_the_third_turn():
    g = game(11, [(1, 2), (3, 4), (4, 2)], FOUR, jail_turns=0).play(turns=3)
    assert g.tallies == {11: 2, 17: 1} and where(g) == (17, False, 0)


def test_four_sided_dice_have_no_face_5_and_must_match_the_rules():
    with pytest.raises(ValueError, match="die faces must be from 1 to 4, got 5"):
        game(1, [(5, 1)], FOUR)
    g = game(1, [(3, 4)])  # six-sided dice
    with pytest.raises(ValueError, match="the dice have 6 sides but the rules say 4"):
        take_turn(
            g.player, g.tracker, dice=g.dice, chance=g.chance, community=g.community, rules=FOUR
        )


@pytest.mark.parametrize("sides", [2, 3, 8, 12])
def test_any_number_of_sides_doubles_roll_again(sides):
    rules = Rules(dice_sides=sides)
    g = game(1, [(2, 2), (1, 2)], rules, chance=[STILL_CHANCE]).play()
    assert g.tallies == {5: 1, 8: 1} and where(g) == (8, False, 0)


# ---------------------------------------------------------------------------
# Short-stay jail
# ---------------------------------------------------------------------------


def test_short_stay_leaves_on_the_next_turn_without_tallying_jail_for_it():
    """Sent to jail, then a normal free turn from 11: no Jail tally for its start."""
    g = game(24, [(3, 4), (1, 2)], SHORT).play()
    assert g.tallies == {11: 1} and where(g) == (11, True, 0)
    g.play()
    assert g.tallies == {11: 1, 14: 1} and where(g) == (14, False, 0)


def test_short_stay_turn_rolls_again_after_doubles():
    g = game(24, [(3, 4), (2, 2), (3, 4)], SHORT, chest=[STILL_CHEST]).play(turns=2)
    assert g.tallies == {11: 1, 15: 1, 22: 1} and where(g) == (22, False, 0)
    assert g.dice.rolls_left == 0


def test_short_stay_turn_can_end_in_jail_again_by_three_doubles():
    g = game(11, [(1, 1), (2, 2), (3, 3)], SHORT, jail_turns=0, chest=[STILL_CHEST])
    g.play()
    assert g.tallies == {13: 1, 17: 1, 11: 1} and where(g) == (11, True, 0)


def test_short_stay_third_doubles_then_pays_next_turn():
    g = game(1, [(3, 3), (3, 3), (1, 1), (5, 6)], SHORT).play(turns=2)
    assert g.tallies == {7: 1, 13: 1, 11: 1, 22: 1} and where(g) == (22, False, 0)


def test_short_stay_with_end_of_move_counting():
    rules = Rules(jail="short", counting="end_of_move")
    g = game(24, [(3, 4), (2, 2), (3, 4)], rules, chest=[STILL_CHEST]).play(turns=2)
    assert g.tallies == {11: 1, 15: 1, 22: 1} and where(g) == (22, False, 0)


def test_long_stay_is_the_default():
    g = game(11, [(1, 2)], jail_turns=0).play()
    assert g.tallies == {11: 1} and where(g) == (11, True, 1)


# ---------------------------------------------------------------------------
# Standard Chance deck
# ---------------------------------------------------------------------------


def test_standard_deck_has_16_cards_two_of_them_nearest_railroad():
    cards = list(standard_chance_deck["card"])
    assert len(cards) == 16 and list(standard_chance_deck["index"]) == list(range(1, 17))
    assert cards.count("Advance token to the nearest Railroad") == 2
    assert set(cards) == set(chance_deck["card"])


@pytest.mark.parametrize(("space", "railroad"), [(8, 16), (23, 26), (37, 6)])
@pytest.mark.parametrize("card", [5, 6])
def test_both_standard_railroad_cards_go_to_the_nearest_railroad(space, railroad, card):
    g = game((space - 8) % 40 + 1, [(3, 4)], STANDARD, chance=[card]).play()
    assert g.tallies == {space: 1, railroad: 1} and where(g) == (railroad, False, 0)


def test_standard_deck_destinations_from_chance_8():
    """Go, Jail, St. Charles, Illinois, Boardwalk, Reading, Railroad x2, Utility, Back 3, 6 stay."""
    ends = []
    for card in range(1, 17):
        g = game(1, [(3, 4)], STANDARD, chance=[card]).play()
        ends.append(g.player.pos)
    assert sorted(ends) == sorted([1, 11, 12, 25, 40, 6, 16, 16, 13, 5] + [8] * 6)


def test_standard_deck_is_used_by_the_simulation_and_presets():
    run = play_preset(dice=[3, 4], chance_order=[16], rules=STANDARD)
    assert len(run.chance) == 16 and run.tallies == {8: 1}


# ---------------------------------------------------------------------------
# End-of-move counting
# ---------------------------------------------------------------------------


def test_end_of_move_counts_where_a_roll_rests_after_a_card():
    g = game(1, [(3, 4)], END_OF_MOVE, chance=[1]).play()  # Chance 8, advance to Go
    assert g.tallies == {1: 1} and where(g) == (1, False, 0)


def test_end_of_move_follows_a_chain_of_cards():
    """Chance 37, Back 3 to Chest 34, Advance to Go: one count, on Go."""
    g = game(30, [(3, 4)], END_OF_MOVE, chance=[9], chest=[1]).play()
    assert g.tallies == {1: 1}


def test_end_of_move_counts_once_per_roll():
    g = game(1, [(2, 2), (1, 2)], END_OF_MOVE, chance=[STILL_CHANCE]).play()
    assert g.tallies == {5: 1, 8: 1}
    g = game(1, [(1, 1), (1, 2)], END_OF_MOVE, chest=[STILL_CHEST]).play()
    assert g.tallies == {3: 1, 6: 1}


def test_end_of_move_go_to_jail_counts_jail():
    g = game(24, [(3, 4)], END_OF_MOVE).play()
    assert g.tallies == {11: 1} and where(g) == (11, True, 0)


def test_end_of_move_third_doubles_counts_jail():
    g = game(1, [(3, 3), (3, 3), (1, 1)], END_OF_MOVE).play()
    assert g.tallies == {7: 1, 13: 1, 11: 1} and where(g) == (11, True, 0)


def test_end_of_move_a_roll_in_jail_that_does_not_free_counts_jail():
    g = game(11, [(1, 2), (2, 4)], END_OF_MOVE, jail_turns=0).play(turns=2)
    assert g.tallies == {11: 2} and where(g) == (11, True, 2)


def test_end_of_move_a_roll_that_frees_counts_where_it_rests():
    g = game(11, [(2, 2)], END_OF_MOVE, jail_turns=1).play()  # doubles: leave, no roll again
    assert g.tallies == {15: 1} and where(g) == (15, False, 0)
    g = game(11, [(1, 2)], END_OF_MOVE, jail_turns=2).play()  # third turn: leave anyway
    assert g.tallies == {14: 1}


def test_landings_counting_tallies_every_landing_for_comparison():
    g = game(30, [(3, 4)], chance=[9], chest=[1]).play()
    assert g.tallies == {37: 1, 34: 1, 1: 1}


# ---------------------------------------------------------------------------
# Draws with replacement
# ---------------------------------------------------------------------------


def test_replacement_deck_draws_independent_cards():
    """With replacement a card can repeat at once; a shuffled deck deals each card once."""
    deck = CardDeck(chance_deck, seed=5, replace=True)
    drawn = [deck.draw() for _ in range(15 * 400)]
    repeats = np.mean([a == b for a, b in pairwise(drawn)])
    assert abs(repeats - 1 / 15) < 0.015
    assert any(sorted(drawn[i : i + 15]) != list(range(1, 16)) for i in range(0, 150, 15))
    deck = CardDeck(chance_deck, seed=5)
    for _ in range(3):
        assert sorted(deck.draw() for _ in range(15)) == list(range(1, 16))


def test_replacement_deck_never_shuffles(capsys):
    deck = CardDeck(community_deck, seed=1, replace=True, verbose=True)
    for _ in range(40):
        deck.draw()
    assert "shuffled" not in capsys.readouterr().out


def test_replacement_rule_reaches_the_decks_of_presets_and_simulations():
    run = play_preset(dice=[3, 4], rules=Rules(replacement=True))
    assert run.chance.replace and run.community.replace
    with_replacement = simulate(games=20, seed=9, rules=Rules(replacement=True), progress=False)
    again = simulate(games=20, seed=9, rules=Rules(replacement=True), progress=False)
    without = simulate(games=20, seed=9, progress=False)
    assert with_replacement.counts.equals(again.counts)
    assert not with_replacement.counts.equals(without.counts)


def test_preset_cards_come_first_with_replacement_too():
    g = game(1, [(3, 4), (2, 5)], Rules(replacement=True), chance=[1, 9]).play(turns=2)
    assert g.tallies == {8: 2, 1: 1, 5: 1}  # Chance 8: to Go; Chance 8 again: back 3 to 5
