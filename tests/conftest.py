"""Shared helpers: play preset turns with the reference engine."""

from __future__ import annotations

import shutil
from dataclasses import dataclass

import pandas as pd
import pytest

from monopoly_lesson import (
    CardDeck,
    Player,
    PresetDice,
    SpaceTracker,
    chance_deck,
    community_deck,
    take_turn,
)


@dataclass
class Played:
    """What a preset scenario left behind."""

    player: Player
    tracker: SpaceTracker
    dice: PresetDice
    chance: CardDeck
    community: CardDeck

    @property
    def tallies(self) -> dict[int, int]:
        """Non-zero tallies as {space: count}."""
        counts = self.tracker.counts
        return {int(space): int(n) for space, n in counts[counts > 0].items()}


def play(start, dice, *, turns=None, chance_order=(), chest_order=(), fn=take_turn, **kwargs):
    """Play ``turns`` turns (default: until the preset dice are used up) from ``start``."""
    played = Played(
        Player(start),
        SpaceTracker(),
        PresetDice(dice),
        CardDeck(chance_deck, seed=1, order=list(chance_order)),
        CardDeck(community_deck, seed=2, order=list(chest_order)),
    )
    done = 0
    while (turns is None and played.dice.rolls_left) or (turns is not None and done < turns):
        fn(
            played.player,
            played.tracker,
            dice=played.dice,
            chance=played.chance,
            community=played.community,
            **kwargs,
        )
        done += 1
    return played


@pytest.fixture
def empty_counts() -> pd.Series:
    """A Series of 40 zeros indexed 1..40."""
    return SpaceTracker().counts


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item, call):
    """Keep each phase's report on the test item, so fixtures can see a failure."""
    report = yield
    setattr(item, f"rep_{report.when}", report)
    return report


CHROMIUM = shutil.which("chromium")


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium, headless, driven by Playwright (nothing downloads a browser)."""
    if not CHROMIUM:
        pytest.skip("needs Chromium (apt install chromium)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                  "--disable-component-update", "--no-first-run"],
        )  # fmt: skip
        yield chromium
        chromium.close()
