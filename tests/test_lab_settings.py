"""The lesson's JupyterLab settings (``jupyter/settings/overrides.json``, which ``make
lesson`` and the student kit start JupyterLab with), against the JupyterLab installed."""

from __future__ import annotations

import json
from pathlib import Path

from jupyterlab.commands import get_app_dir

ROOT = Path(__file__).resolve().parents[1]
OVERRIDES = ROOT / "jupyter" / "settings" / "overrides.json"
LIST_KEYS = (
    *("ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"),
    *("Shift ArrowUp", "Shift ArrowDown", "Shift Home", "Shift End"),
)
"""The keys that move in a list (a widget's chooser, a list of lots) or a box."""
NOT_IN_A_LIST = ":not(select):not(input)"
"""What a selector adds to leave a focused list or box alone (Lumino takes no commas)."""


def default_shortcuts() -> list[dict]:
    """The keyboard shortcuts that JupyterLab's extensions declare, as installed."""
    found = []
    for schema in sorted((Path(get_app_dir()) / "schemas").glob("**/*.json")):
        found += json.loads(schema.read_text(encoding="utf-8")).get("jupyter.lab.shortcuts", [])
    return found


def test_the_arrow_keys_move_in_a_widgets_list_not_between_cells():
    """In command mode a notebook takes the arrow keys from whatever has the focus, even a
    widget's list in an output: there they move the choice, not the notebook's cell."""
    moving = [
        shortcut
        for shortcut in default_shortcuts()
        if len(shortcut["keys"]) == 1
        and shortcut["keys"][0] in LIST_KEYS
        and shortcut["selector"].endswith(":focus")
    ]
    assert len(moving) == len(LIST_KEYS)  # each such key moves the notebook's cells
    settings = json.loads(OVERRIDES.read_text(encoding="utf-8"))
    shortcuts = settings["@jupyterlab/shortcuts-extension:shortcuts"]["shortcuts"]
    expected = []
    for shortcut in moving:
        same = {key: shortcut[key] for key in ("command", "keys", "selector")}
        expected += [
            {**same, "disabled": True},
            {**same, "selector": same["selector"] + NOT_IN_A_LIST},
        ]
    assert sorted(shortcuts, key=json.dumps) == sorted(expected, key=json.dumps)
    assert not any("," in shortcut["selector"] for shortcut in shortcuts)  # else not loaded
