"""The whole game's lots and cards as data, checked against the game rules (GAME_RULES.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from monopoly_lesson.card_effects import chance_effects, community_effects
from monopoly_lesson.lots import GROUPS, HOTELS, HOUSES, RAILROAD_RENTS, UTILITY_MULTIPLIERS, lots

GAME_RULES = Path(__file__).resolve().parents[2] / "shared" / "GAME_RULES.md"


@pytest.fixture(scope="module")
def rules_text() -> str:
    if not GAME_RULES.exists():
        pytest.skip("needs the game rules beside the project: ../shared/GAME_RULES.md")
    return GAME_RULES.read_text()


def street_rows(text: str) -> dict[int, tuple]:
    """``space -> (group, house cost, price, six rents)`` read from the rules' lot table."""
    found = {}
    for group, cost, entries in re.findall(r"^\| ([A-Za-z ]+) \(\$(\d+)\) \| (.+) \|$", text, re.M):
        for entry in entries.split(" · "):
            head, rents = entry.split(": ")
            rent, houses, hotel = rents.split("; ")
            six = (int(rent), *map(int, houses.split(", ")), int(hotel))
            for space, price in re.findall(r"(\d+) [A-Z][A-Za-z. ]*? (\d+)(?= and |$)", head):
                found[int(space)] = (group.lower(), int(cost), int(price), six)
    return found


def test_every_street_is_as_the_rules_say(rules_text):
    streets = street_rows(rules_text)
    assert len(streets) == 22
    for space, (group, cost, price, rents) in streets.items():
        lot = lots.loc[space]
        assert (lot.group, lot.house_cost, lot.price) == (group, cost, price), space
        assert tuple(lot[["rent", "rent_1", "rent_2", "rent_3", "rent_4", "rent_hotel"]]) == rents


def test_railroads_utilities_and_the_bank_are_as_the_rules_say(rules_text):
    railroads = re.search(r"\| Railroads \| ([\d, ]+), price (\d+): rent ([\d, ]+) for", rules_text)
    spaces = [int(s) for s in railroads.group(1).split(", ")]
    assert lots[lots.group == "railroad"].index.tolist() == spaces
    assert set(lots.loc[spaces, "price"]) == {int(railroads.group(2))}
    assert tuple(int(r) for r in railroads.group(3).split(", ")) == RAILROAD_RENTS
    utilities = re.search(
        r"\| Utilities \| ([\d, ]+), price (\d+): rent (\d+) x .* (\d+) x", rules_text
    )
    assert lots[lots.group == "utility"].index.tolist() == [13, 29]
    assert set(lots.loc[[13, 29], "price"]) == {int(utilities.group(2))}
    assert (int(utilities.group(3)), int(utilities.group(4))) == UTILITY_MULTIPLIERS
    assert f"**{HOUSES} houses and {HOTELS} hotels**" in rules_text


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


def test_the_cards_money_is_as_the_rules_say(rules_text):
    chest = dict(re.findall(r"(\d+) ([+-]\$\d+)", rules_text))
    for number, money in chest.items():
        card = community_effects.set_index("index").loc[int(number)]
        sign = {"collect": "+", "pay": "-"}[card.effect]
        assert f"{sign}${card.amount}" == money, number
    assert len(chest) == 11
    chance = chance_effects.set_index("index")
    pattern = r"(\d+) [A-Za-z ]+: (collect|pay) \$(\d+)\b(?! per)"
    chance_part = rules_text[rules_text.index("Chance (standard deck") :]
    chance_part = chance_part[: chance_part.index("Community Chest (cards")]
    for number, verb, amount in re.findall(pattern, chance_part):
        assert (chance.at[int(number), "effect"], chance.at[int(number), "amount"]) == (
            verb,
            int(amount),
        )
    assert chance.at[15, "effect"] == "pay_each"
    assert "pay each other player $50" in " ".join(rules_text.split())
    opera = community_effects.set_index("index").loc[7]
    assert (opera.effect, opera.amount) == ("collect_from_each", 50)
    assert "collect $50 from every other player" in " ".join(rules_text.split())
    for table, number, house, hotel in (
        (chance, 13, 25, 100),
        (community_effects.set_index("index"), 14, 40, 115),
    ):
        assert tuple(table.loc[number, ["effect", "per_house", "per_hotel"]]) == (
            "repairs",
            house,
            hotel,
        )
        assert f"pay ${house} per house, ${hotel} per hotel" in " ".join(rules_text.split())


def test_special_cards_of_the_whole_game():
    chance = chance_effects.set_index("index")
    assert chance.loc[[5, 6], "rent_multiplier"].tolist() == [2, 2], "nearest Railroad: twice"
    assert chance.at[4, "dice_multiplier"] == 10, "nearest Utility: 10 x a fresh roll"
    assert (chance.drop([5, 6])["rent_multiplier"] == 1).all()
    keeps = [t.set_index("index").query("effect == 'keep'")["card"].tolist()
             for t in (chance_effects, community_effects)]  # fmt: skip
    assert keeps == [["Get out of Jail Free"], ["Get Out of Jail Free"]]
    assert len(chance_effects) == 16 and len(community_effects) == 16
