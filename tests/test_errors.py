"""Bad input is refused with a message that says what was wrong and what is allowed."""

import numpy as np
import pandas as pd
import pytest

from monopoly_lesson import (
    CardDeck,
    Player,
    PresetDice,
    RandomDice,
    Rules,
    SpaceTracker,
    chance_deck,
    community_deck,
    play_monopoly,
    take_turn,
)
from monopoly_lesson.starter import DiceUsedUpError

CASES = [
    # (callable, error, message fragment)
    (lambda: PresetDice([3, 7]), ValueError, "die faces must be from 1 to 6, got 7"),
    (lambda: PresetDice([0, 1]), ValueError, "die faces must be from 1 to 6, got 0"),
    (lambda: PresetDice([3, 4, 5]), ValueError, "even number of faces (two dice per roll), got 3"),
    (lambda: PresetDice([3, 2.5]), TypeError, "each die face must be a whole number, got 2.5"),
    (lambda: PresetDice(["3", 4]), TypeError, "each die face must be a whole number, got '3'"),
    (lambda: PresetDice([True, 1]), TypeError, "each die face must be a whole number, got True"),
    (lambda: PresetDice("3,4"), TypeError, "rolls must be a list of die faces"),
    (lambda: PresetDice([4, 4], sides=3), ValueError, "die faces must be from 1 to 3, got 4"),
    (lambda: RandomDice(sides=1), ValueError, "sides must be at least 2, got 1"),
    (lambda: RandomDice(sides=6.0), TypeError, "sides must be a whole number, got 6.0"),
    (lambda: RandomDice(seed=-1), ValueError, "seed must be 0 or more"),
    (lambda: Player(0), ValueError, "pos must be a space number from 1 to 40, got 0"),
    (lambda: Player(41), ValueError, "pos must be a space number from 1 to 40, got 41"),
    (lambda: Player("Go"), TypeError, "pos must be a whole number, got 'Go'"),
    (lambda: Player().move_to(44), ValueError, "space must be a space number from 1 to 40"),
    (lambda: Player().move_forward(-2), ValueError, "steps must be 0 or more"),
    (lambda: Player().start_jail_turn(), ValueError, "is not in jail"),
    (lambda: SpaceTracker().tally(0), ValueError, "space must be a space number from 1 to 40"),
    (lambda: SpaceTracker().tally(3.0), TypeError, "space must be a whole number, got 3.0"),
    (lambda: CardDeck(chance_deck, order=[16]), ValueError, "order lists card 16, but the "
     "Chance deck has cards 1 to 15"),
    (lambda: CardDeck(community_deck, order=[0]), ValueError, "Community Chest deck has cards 1"),
    (lambda: CardDeck(chance_deck, order=3), TypeError, "order must be a list of card numbers"),
    (lambda: CardDeck(["Go"]), TypeError, "deck must be a pandas DataFrame"),
    (lambda: CardDeck(chance_deck.rename(columns={"card": "text"})), ValueError,
     "deck must have the columns 'index' and 'card'; missing ['card']"),
    (lambda: CardDeck(pd.DataFrame({"index": [2, 1], "card": ["a", "b"]})), ValueError,
     "deck 'index' must number the cards 1, 2, 3"),
    (lambda: CardDeck(chance_deck).card(0), ValueError, "card number must be from 1 to 15"),
    (lambda: Rules(dice_sides=1), ValueError, "dice_sides must be a whole number of at least 2"),
    (lambda: Rules(jail="forever"), ValueError, "jail must be 'long' or 'short', got 'forever'"),
    (lambda: Rules(chance="big"), ValueError, "chance must be 'lesson' or 'standard'"),
    (lambda: Rules(counting="rolls"), ValueError, "counting must be 'landings' or 'end_of_move'"),
    (lambda: Rules(replacement="yes"), TypeError, "replacement must be True or False"),
    (lambda: play_monopoly(["always", "never"], verbose="no"), TypeError,
     "verbose must be True or False, got 'no'"),
    (lambda: play_monopoly(["always", "never"], verbose=1), TypeError,
     "verbose must be True or False, got 1"),
    (lambda: play_monopoly(["always", "never"], max_rounds=10**9), ValueError,
     "max_rounds must be from 1 to 10,000 (a game is stopped after at most 10,000 rounds), "
     "got 1000000000"),
    (lambda: play_monopoly(["always", "never"], max_rounds=0), ValueError,
     "max_rounds must be from 1 to 10,000"),
    (lambda: play_monopoly(["always", "never"], max_rounds=50.0), TypeError,
     "max_rounds must be a whole number, got 50.0"),
    (lambda: play_monopoly(["always", "never"], seed=-1), ValueError,
     "seed must be 0 or more, got -1"),
    (lambda: play_monopoly(["always", "never"], seed=1.5), TypeError,
     "seed must be a whole number 0 or more, got 1.5"),
]  # fmt: skip


@pytest.mark.parametrize(("make", "error", "message"), CASES)
def test_bad_input_is_refused_with_a_clear_message(make, error, message):
    with pytest.raises(error) as raised:
        make()
    assert message in str(raised.value)


def test_used_up_preset_dice_say_how_many_were_preset():
    dice = PresetDice([1, 2, 3, 4])
    dice.roll(), dice.roll()
    with pytest.raises(DiceUsedUpError, match="used up: 2 rolls were preset"):
        dice.roll()
    with pytest.raises(RuntimeError, match="1 roll was preset"):
        one = PresetDice([1, 2])
        one.roll(), one.roll()


def test_dice_must_match_the_rules():
    with pytest.raises(ValueError, match="the dice have 4 sides but the rules say 6"):
        take_turn(
            Player(),
            SpaceTracker(),
            dice=PresetDice([1, 2], sides=4),
            chance=CardDeck(chance_deck),
            community=CardDeck(community_deck),
        )


def test_rules_are_immutable():
    with pytest.raises(AttributeError):
        Rules().jail = "short"


def test_numpy_booleans_and_integers_are_options_too(capsys):
    result = play_monopoly(["always", "never"], seed=1, max_rounds=np.int64(2), verbose=np.True_)
    assert result.rounds == 2
    assert "Round 2, P1 always" in capsys.readouterr().out
