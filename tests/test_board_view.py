"""The board (SVG, in HTML for pages): every square where the geometry puts it, and more."""

import re
from html import unescape
from xml.dom import minidom

import pytest

from monopoly_lesson import SpaceTracker, gameboard
from monopoly_lesson.board_view import TOKEN_COLOURS, SpaceExtras, board_html, board_svg
from monopoly_lesson.plots import SHORT_TITLES, STREET_GROUPS, board_position

GROUPS = {
    "brown": [2, 4],
    "light blue": [7, 9, 10],
    "purple": [12, 14, 15],
    "orange": [17, 19, 20],
    "red": [22, 24, 25],
    "yellow": [27, 28, 30],
    "green": [32, 33, 35],
    "dark blue": [38, 40],
}
LINES = [0, 64, *(64 + 46 * k for k in range(1, 10)), 542]  # the grid's lines, in pixels


def squares(page: str) -> dict[int, str]:
    """The HTML of each square, keyed by its space number."""
    board = page.split('<g class="monopoly-centre"')[0]
    parts = board.split('<g class="monopoly-space" ')[1:]
    found = {int(re.search(r'data-space="(\d+)"', part)[1]): part for part in parts}
    assert len(found) == len(parts)
    return found


def hover(square: str) -> str:
    return unescape(re.search(r"<title>([^<]*)</title>", square)[1])


def outline(square: str) -> tuple[float, float, float, float]:
    """A square's box ``(left, top, right, bottom)``, from its outline (drawn inside it)."""
    found = re.search(
        r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)" '
        r'fill="none" stroke="[^"]+" stroke-width="([\d.]+)"',
        square,
    )
    x, y, w, h, stroke = map(float, found.groups())
    return x - stroke / 2, y - stroke / 2, x + w + stroke / 2, y + h + stroke / 2


def band(square: str) -> tuple[float, float, float, float]:
    found = re.search(
        r'class="monopoly-band" data-group="[^"]+" x="([\d.]+)" y="([\d.]+)" '
        r'width="([\d.]+)" height="([\d.]+)"',
        square,
    )
    x, y, w, h = map(float, found.groups())
    return x, y, x + w, y + h


@pytest.fixture
def counts():
    tracker = SpaceTracker()
    for space in [11, 11, 11, 25, 6]:
        tracker.tally(space)
    return tracker.counts


def test_every_space_is_drawn_where_the_board_geometry_puts_it():
    drawn = squares(board_html())
    assert sorted(drawn) == list(range(1, 41))
    for space, square in drawn.items():
        col, row = board_position(space)
        assert outline(square) == (LINES[col], LINES[10 - row], LINES[col + 1], LINES[11 - row])
        assert hover(square).startswith(f"{gameboard['title'][space - 1]} ({space})")
        for part in SHORT_TITLES[space - 1].split("<br>"):
            assert f">{part.replace('&', '&amp;')}</tspan>" in square


def test_the_board_is_one_standalone_svg_that_the_html_wraps():
    picture = board_svg(tokens={"Ann": 5}, centre=["<Ann> & co"])
    document = minidom.parseString(picture)  # well-formed XML, as a file or for Typst
    assert document.documentElement.getAttribute("xmlns") == "http://www.w3.org/2000/svg"
    assert board_html(tokens={"Ann": 5}, centre=["<Ann> & co"]) == (
        f'<div class="monopoly-board ">{picture}</div>'
    )


def test_the_board_is_one_picture_that_a_screen_reader_names():
    assert 'role="img" aria-label="Monopoly board"' in board_svg()
    named = board_html(tokens={"Ann": 6}, label="The board: Ann on Reading Railroad (6) & co")
    assert 'role="img" aria-label="The board: Ann on Reading Railroad (6) &amp; co"' in named


def test_go_is_bottom_right_and_play_runs_clockwise_from_it():
    drawn = squares(board_html())
    assert outline(drawn[1]) == (478, 478, 542, 542)  # Go
    assert outline(drawn[2])[0] == 478 - 46  # Mediterranean, left of Go
    assert outline(drawn[11]) == (0, 478, 64, 542)  # Jail
    assert outline(drawn[21]) == (0, 0, 64, 64)  # Free Parking
    assert outline(drawn[31]) == (478, 0, 542, 64)  # Go to Jail


def test_streets_have_their_group_band_and_nothing_else_does():
    assert {group: list(spaces) for group, (_, spaces) in STREET_GROUPS.items()} == GROUPS
    drawn = squares(board_html())
    for space, square in drawn.items():
        found = re.search(r'data-group="([^"]+)" [^>]*fill="(#\w+)"', square)
        group = next((g for g, spaces in GROUPS.items() if space in spaces), None)
        if group is None:
            assert found is None, space
        else:
            assert found.groups() == (group, STREET_GROUPS[group][0])
            assert f"{group} street" in hover(square)


def test_bands_face_the_centre_of_the_board():
    drawn = squares(board_html())
    assert band(drawn[2])[1] == outline(drawn[2])[1]  # bottom row: band on top
    assert band(drawn[12])[2] == outline(drawn[12])[2]  # left side: band on the right
    assert band(drawn[22])[3] == outline(drawn[22])[3]  # top row: band below
    assert band(drawn[32])[0] == outline(drawn[32])[0]  # right side: band on the left
    assert band(drawn[2])[3] - band(drawn[2])[1] == band(drawn[12])[2] - band(drawn[12])[0] == 12


def test_tokens_are_on_their_squares_and_named_in_the_centre():
    page = board_html(tokens={"Player 1": 11, "Player 2": 25})
    drawn = squares(page)
    assert [s for s, square in drawn.items() if "monopoly-token" in square] == [11, 25]
    assert "<title>Player 1</title>" in drawn[11] and TOKEN_COLOURS[0] in drawn[11]
    assert "<title>Player 2</title>" in drawn[25] and TOKEN_COLOURS[1] in drawn[25]
    centre = page.split('class="monopoly-centre"')[1]
    assert "Player 1 on Jail (11)" in centre and "Player 2 on Illinois Avenue (25)" in centre


def test_two_tokens_on_one_square_both_show():
    drawn = squares(board_html(tokens={"Ann": 5, "Bob": 5}))
    assert drawn[5].count("monopoly-token") == 2


def test_tallies_shade_the_squares_and_show_on_hover(counts):
    drawn = squares(board_html(counts))
    assert hover(drawn[11]).endswith(": tally 3") and hover(drawn[2]).endswith(": tally 0")
    assert 'class="monopoly-tally">3</text>' in drawn[11] and "monopoly-tally" not in drawn[2]
    shade = {
        s: re.search(r'fill-opacity="([\d.]+)" class="monopoly-shade"', drawn[s])
        for s in (2, 6, 11)
    }
    assert shade[2] is None and float(shade[6][1]) < float(shade[11][1])
    assert 'fill="white"' in drawn[11] and 'fill="white"' not in drawn[6]


def test_centre_lines_are_escaped_and_the_css_class_is_added():
    page = board_html(centre=["<b>Ann</b> is in jail."], css_class="turn-stepper-board")
    assert "&lt;b&gt;Ann&lt;/b&gt; is in jail." in page
    assert page.startswith('<div class="monopoly-board turn-stepper-board"')


def test_extras_draw_owners_mortgages_houses_and_hotels():
    extras = {
        2: SpaceExtras(owner="Ann", colour="#123456", mark="1", houses=3),
        4: SpaceExtras(owner="Ann", colour="#123456", hotel=True),
        6: SpaceExtras(owner="Bob", colour="#abcdef", mark="2", mortgaged=True),
    }
    drawn = squares(board_html(extras=extras))
    assert 'stroke="#123456" stroke-width="3"' in drawn[2]
    assert drawn[2].count("monopoly-house") == 3
    assert drawn[4].count("monopoly-hotel") == 1 and "monopoly-house" not in drawn[4]
    assert "monopoly-mortgage" in drawn[6] and "monopoly-mortgage" not in drawn[2]
    assert hover(drawn[2]).endswith("owned by Ann; 3 house(s)")
    assert hover(drawn[6]).endswith("owned by Bob; mortgaged")
    assert 'stroke="#444" stroke-width="1"' in drawn[3]


def test_an_owner_is_told_by_a_dashed_frame_and_its_mark_not_by_colour_alone():
    """An owner's colour may be a group's (orange on an orange street): its frame is dashed,
    which no band or other line is, and its mark is written in the square."""
    orange = STREET_GROUPS["orange"][0]
    drawn = board_html(extras={17: SpaceExtras(owner="P2", colour=orange, mark="2")})
    square = squares(drawn)[17]
    frame = re.search(r'<rect [^>]*class="monopoly-owner"[^>]*>', square)[0]
    assert f'stroke="{orange}"' in frame and "stroke-dasharray" in frame
    assert drawn.count("stroke-dasharray") == 1  # nothing else is dashed
    mark = re.search(r'<g class="monopoly-owner-mark">(.*?)</g>', square)[1]
    assert re.search(r">2</text>$", mark) and f'stroke="{orange}"' in mark
    assert "monopoly-owner-mark" not in squares(board_html())[17]


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(counts=[1, 2, 3]), ValueError, "counts must be a pandas Series indexed by"),
        (dict(tokens={"Ann": 41}), ValueError, "'Ann' is on 41"),
        (dict(extras={0: SpaceExtras()}), ValueError, "keyed by spaces 1 to 40, got 0"),
        (dict(extras={5: "Ann"}), TypeError, r"extras\[5\] must be a SpaceExtras"),
    ],
)
def test_bad_arguments_are_explained(kwargs, error, message):
    with pytest.raises(error, match=message):
        board_html(**kwargs)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (dict(houses=5), "houses must be a whole number from 0 to 4"),
        (dict(houses=2, hotel=True), "a hotel or houses, not both"),
    ],
)
def test_bad_extras_are_explained(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SpaceExtras(**kwargs)
