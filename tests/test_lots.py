"""The whole game's lots and cards as data, checked against the game rules page.

The page (``notebooks/game_rules.md``) is read as its readers see it (``<span>\\$200</span>``
is $200) and parsed strictly: a row of its tables that does not read as expected fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

from monopoly_lesson.game.card_effects import chance_effects, community_effects
from monopoly_lesson.game.lots import (
    GROUPS,
    HOTELS,
    HOUSES,
    RAILROAD_RENTS,
    UTILITY_MULTIPLIERS,
    lots,
)

GAME_RULES = Path(__file__).resolve().parents[1] / "notebooks" / "game_rules.md"
STREET_HEADER = "| # | street | group | price | building | rent | 1 house | 2 houses | 3 houses |"
CARD_HEADER = "| # | card | what it does here |"
RENTS = ["rent", "rent_1", "rent_2", "rent_3", "rent_4", "rent_hotel"]


@pytest.fixture(scope="module")
def rules_text() -> str:
    text = GAME_RULES.read_text().replace("<span>\\$", "$").replace("</span>", "")
    assert "\\$" not in text, "an amount not written <span>\\$200</span>"
    return text


def table_after(text: str, header: str) -> list[list[str]]:
    """The cells of each row of the table that starts with ``header`` (the line after the
    header, |---|, is skipped); the table ends at the first line that is not a row."""
    lines = text[text.index(header) :].split("\n")
    assert re.fullmatch(r"\|(:?-+:?\|)+", lines[1]), lines[1]
    rows = []
    for line in lines[2:]:
        if not line.startswith("|"):
            break
        assert line.endswith(" |"), line
        rows.append([cell.strip() for cell in line[1:-1].split("|")])
    return rows


def street_rows(text: str) -> dict[int, tuple]:
    """``space -> (title, group, price, building cost, six rents)`` from the lots table."""
    found = {}
    for row in table_after(text, STREET_HEADER):
        assert len(row) == 11 and all(re.fullmatch(r"\d+", cell) for cell in row[:1] + row[3:]), row
        space, title, group, *numbers = row
        assert space not in found, f"space {space} twice"
        found[int(space)] = (
            title,
            group,
            int(numbers[0]),
            int(numbers[1]),
            tuple(int(n) for n in numbers[2:]),
        )
    return found


def test_every_street_is_as_the_rules_say(rules_text):
    streets = street_rows(rules_text)
    assert sorted(streets) == lots.index[lots["house_cost"] > 0].tolist()
    for space, (title, group, price, cost, rents) in streets.items():
        lot = lots.loc[space]
        assert (lot.title, lot.group, lot.price, lot.house_cost) == (title, group, price, cost)
        assert tuple(lot[RENTS]) == rents, space


def test_the_street_parse_can_fail(rules_text):
    wrong = rules_text.replace("| 4 | Baltic Avenue | brown | 60 | 50 | 4 |", "| 4 | Baltic")
    with pytest.raises(AssertionError):
        street_rows(wrong)


def test_railroads_utilities_and_the_bank_are_as_the_rules_say(rules_text):
    text = " ".join(rules_text.split())
    railroads = re.search(
        r"\*\*Railroads\*\*: spaces (\d+), (\d+), (\d+) and (\d+), price \$(\d+) each\. "
        r"Rent \$(\d+), \$(\d+), \$(\d+) or \$(\d+) when the owner holds 1, 2, 3 or 4 railroads\.",
        text,
    )
    numbers = [int(n) for n in railroads.groups()]
    assert lots[lots.group == "railroad"].index.tolist() == numbers[:4]
    assert set(lots.loc[numbers[:4], "price"]) == {numbers[4]}
    assert tuple(numbers[5:]) == RAILROAD_RENTS
    utilities = re.search(
        r"\*\*Utilities\*\*: spaces (\d+) and (\d+), price \$(\d+) each\. Rent (\d+) x the "
        r"dice when the owner holds one utility, (\d+) x the dice when it holds both\.",
        text,
    )
    numbers = [int(n) for n in utilities.groups()]
    assert lots[lots.group == "utility"].index.tolist() == numbers[:2]
    assert set(lots.loc[numbers[:2], "price"]) == {numbers[2]}
    assert tuple(numbers[3:]) == UTILITY_MULTIPLIERS
    assert f"**{HOUSES} houses and {HOTELS} hotels**" in text
    assert "Railroads and utilities never form a complete group" in text


def test_the_lot_table_is_complete_and_consistent():
    assert len(lots) == 28 and lots.index.tolist() == lots["space"].tolist()
    assert (lots["mortgage"] * 2 == lots["price"]).all(), "mortgage value is half the price"
    assert set(lots["group"]) == set(GROUPS)
    sizes = lots.groupby("group").size().to_dict()
    assert sizes == {"brown": 2, "dark blue": 2, "utility": 2, "railroad": 4} | {
        g: 3 for g in ("light blue", "purple", "orange", "red", "yellow", "green")
    }
    assert lots.loc[[6, 13], "house_cost"].tolist() == [0, 0], "nothing is built there"
    assert lots.at[40, "title"] == "Boardwalk" and 39 not in lots.index


# What a card does, as the page says it, and as card_effects has it: effect, amount, per
# house, per hotel, rent multiplier, dice multiplier.
EFFECTS = (
    (r"moves(?: \(collect \$200 at Go\))?", lambda: ("move", 0, 0, 0, 1, 0)),
    (r"moves; if owned by another player, pay twice the rent", lambda: ("move", 0, 0, 0, 2, 0)),
    (
        r"moves; if owned by another player, pay (\d+) x a fresh roll of the dice",
        lambda times: ("move", 0, 0, 0, 1, int(times)),
    ),
    (r"goes to jail", lambda: ("jail", 0, 0, 0, 1, 0)),
    (r"kept \(below\)", lambda: ("keep", 0, 0, 0, 1, 0)),
    (r"collect \$(\d+)", lambda amount: ("collect", int(amount), 0, 0, 1, 0)),
    (r"pay \$(\d+)", lambda amount: ("pay", int(amount), 0, 0, 1, 0)),
    (
        r"pay \$(\d+) per house, \$(\d+) per hotel",
        lambda house, hotel: ("repairs", 0, int(house), int(hotel), 1, 0),
    ),
    (r"pay each other player \$(\d+)", lambda amount: ("pay_each", int(amount), 0, 0, 1, 0)),
    (
        r"collect \$(\d+) from every other player",
        lambda amount: ("collect_from_each", int(amount), 0, 0, 1, 0),
    ),
)


def card_effect(text: str) -> tuple:
    """What the page says a card does, as a row of card_effects (ValueError if unreadable)."""
    read = [make(*m.groups()) for pattern, make in EFFECTS if (m := re.fullmatch(pattern, text))]
    if len(read) != 1:
        raise ValueError(f"cannot read the card effect {text!r}")
    return read[0]


def card_rows(text: str, deck: str) -> pd.DataFrame:
    """The card table under ``**deck**``, as card_effects' columns."""
    rows = table_after(text[text.index(f"**{deck}** (") :], CARD_HEADER)
    assert all(len(row) == 3 for row in rows), rows
    return pd.DataFrame(
        [(int(number), card, *card_effect(effect)) for number, card, effect in rows],
        columns=chance_effects.columns,
    )


@pytest.mark.parametrize(
    ("deck", "effects"), [("Chance", chance_effects), ("Community Chest", community_effects)]
)
def test_every_card_does_what_the_rules_say(rules_text, deck, effects):
    pd.testing.assert_frame_equal(card_rows(rules_text, deck), effects, check_dtype=False)


def test_the_card_parse_can_fail(rules_text):
    with pytest.raises(ValueError, match="cannot read"):
        card_rows(rules_text.replace("| pay $15 |", "| pay fifteen |"), "Chance")
    changed = card_rows(rules_text.replace("| pay $15 |", "| pay $16 |"), "Chance")
    assert not changed.equals(chance_effects)


def test_special_cards_of_the_whole_game():
    chance = chance_effects.set_index("index")
    assert chance.loc[[5, 6], "rent_multiplier"].tolist() == [2, 2], "nearest Railroad: twice"
    assert chance.at[4, "dice_multiplier"] == 10, "nearest Utility: 10 x a fresh roll"
    assert (chance.drop([5, 6])["rent_multiplier"] == 1).all()
    keeps = [
        t.set_index("index").query("effect == 'keep'")["card"].tolist()
        for t in (chance_effects, community_effects)
    ]
    assert keeps == [["Get out of Jail Free"], ["Get Out of Jail Free"]]
    assert len(chance_effects) == 16 and len(community_effects) == 16
