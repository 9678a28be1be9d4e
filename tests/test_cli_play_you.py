"""``play --you``: a person plays in the terminal, each question asked and every answer
checked by the rules; answers piped in, replayed with --answers, stopped by Ctrl-C or
Ctrl-D with the answers kept in a file and the short command that replays them."""

from __future__ import annotations

import io
import os
import random
import re
import select
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from monopoly_lesson import You, play_monopoly
from monopoly_lesson.cli import main
from monopoly_lesson.game.engine import MonopolyGame
from monopoly_lesson.game.person import Question
from monopoly_lesson.game.strategies import DECISIONS
from monopoly_lesson.game.terminal import (
    answer_text,
    answers_file_text,
    board_lines,
    board_text,
    choices_help,
    decision_facts,
    prompt,
    read_answer,
    space_of,
    split_answers,
)
from monopoly_lesson.game.trade import Trade

FIELD = ("--strategy", "ega_trading,always,heuristic", "--trading", "--every-question")
"""The field of most games here: every question asked, as a strategy is asked."""
PROMPT = re.compile(r"\[Enter: [^\]]*, \?: help\] > ")


def play(capsys, monkeypatch, typed: str, *argv: str) -> tuple[int, str, str]:
    """``main(["play", ...])`` with ``typed`` as the piped-in standard input."""
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    status = main(["play", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(autouse=True)
def in_a_folder_of_its_own(tmp_path, monkeypatch):
    """A stopped game keeps its answers in a file in the current folder: each test's own."""
    monkeypatch.chdir(tmp_path)


def replay_command(err: str) -> list[str]:
    """The command a stopped game prints to replay its answers, as argv after the program
    (its lines joined, as a shell joins them at a backslash)."""
    command = re.split(r"\nTo (?:replay them and play on|play it again):\n", err)[1]
    words = shlex.split(command.replace("\\\n", " "))
    assert words[:3] == ["python", "-m", "monopoly_lesson"]
    return words[3:]


def replayed_answers(argv: list[str]) -> list[str]:
    """The answers a printed command replays: those in the file it names, one a line."""
    kept = argv[argv.index("--answers") + 1]
    assert kept.startswith("@"), kept
    return split_answers(Path(kept[1:]).read_text(encoding="utf-8").splitlines())


def test_a_whole_game_from_piped_empty_lines_is_the_game_of_the_defaults():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "monopoly_lesson",
            "play",
            "--you",
            "2",
            *FIELD,
            "--seed",
            "1",
            "--max-rounds",
            "40",
        ],
        input="\n" * 3000,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == ""
    out = done.stdout
    asked = PROMPT.findall(out)
    assert len(asked) > 10 and "Round 1 | P1 ega_trading $1,500 | P2 you $1,500" in out
    assert "P2 you moves from Go (1)" in out, "the game is narrated"
    assert "\nWinner: " in out and "Game of 40 rounds (round limit), seed 1" in out
    defaults = play_monopoly(
        ["ega_trading", You(answer=lambda question: question.default), "always", "heuristic"],
        seed=1,
        max_rounds=40,
        trading=True,
    )
    assert str(defaults) in out, "an empty line answers the rules' default"


def test_a_mixture_of_answers_is_checked_and_an_illegal_one_asked_again(capsys, monkeypatch):
    typed = "maybe\nn\n?\n-5\n99999\n150\nb\nBuy it\n\n"
    status, out, err = play(capsys, monkeypatch, typed, "--you", "1", *FIELD)
    assert "> maybe\nNot allowed: type y or n, not 'maybe'. Try again" in out
    assert "P1 you declines to buy St. Charles Place (12)." in out
    assert "the default bids 140" in out and "Type one of:" in out  # ? explains a bid
    assert "> -5\nNot allowed: a bid must be from $0 to your cash, $1,500." in out
    assert "> 99999\nNot allowed: a bid must be from $0 to your cash" in out
    assert "(bids: P1 you $150," in out
    board = out.split("> b\n")[1]  # b at the trade question: the auction's winner holds the lot
    assert board.startswith(
        "  P1 you: $1,500, on St. Charles Place (12); no lots\n"
        "  P2 ega_trading: $1,349, on Go (1); St. Charles Place (12)\n"
    )
    assert "Not allowed: a trade starts with give, take, pay, get or to, not 'Buy it'" in out
    # the input ran out (Ctrl-D): exit 1, the seed, the answers kept and the command
    assert status == 1 and "Traceback" not in err
    assert err == (
        "python -m monopoly_lesson play: stopped in round 1: the input ended (Ctrl-D) before "
        "the game did;\nseed 0, 3 answer(s) given, kept one a line in "
        "monopoly-answers-seed0.txt.\nTo replay them and play on:\n"
        "  python -m monopoly_lesson play --you 1 --strategy ega_trading,always,heuristic "
        "--seed 0 \\\n    --trading --every-question --answers @monopoly-answers-seed0.txt\n"
    )
    assert replayed_answers(replay_command(err)) == ["n", "150", "n"]
    assert "Winner" not in out


def test_the_printed_command_replays_the_same_game_and_plays_on(capsys, monkeypatch):
    rng = random.Random(5)
    typed = "".join(
        rng.choice(["\n", "y\n", "n\n", "0\n", "sell 12\n", "1\n", "?\n"]) for _ in range(60)
    )
    status, first, err = play(capsys, monkeypatch, typed, "--you", "3", *FIELD, "--seed", "4")
    assert status == 1 and first.count("Not allowed") > 0
    argv = replay_command(err)
    given = replayed_answers(argv)
    assert len(given) > 10
    status, again, err = play(capsys, monkeypatch, "\n" * 3000, *argv[1:])
    assert status == 0 and err == ""
    assert again.count("(replayed)") == len(given) and "\nWinner: " in again

    def narration(out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith(("Round ", "P", "Rolled"))]

    played = narration(first)
    assert narration(again)[: len(played)] == played  # the same game, to where it stopped


def test_a_long_game_stopped_prints_short_lines_and_the_command_run_replays_it(
    capsys, monkeypatch, tmp_path
):
    """Hundreds of answers are kept in a file, one a line: no line printed is longer than
    100 characters, and the command printed, run by a shell as printed, replays the game."""
    argv = ("--you", "2", *FIELD, "--seed", "2")  # a game of 238 questions
    monkeypatch.setenv("COLUMNS", "100")  # questions wrapped alike here and in the shell
    status, first, err = play(capsys, monkeypatch, "\n" * 200, *argv)
    assert status == 1 and max(map(len, err.splitlines())) <= 100, err
    given = replayed_answers(replay_command(err))
    assert len(given) == 200 and set(given) > {"n"}  # the defaults, written out in words
    command = err.split("To replay them and play on:\n")[1]
    assert command.startswith("  python -m monopoly_lesson play ") and " \\\n    " in command
    done = subprocess.run(
        ["bash", "-c", command.replace("python", shlex.quote(sys.executable), 1)],
        input="\n" * 3000,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert done.returncode == 0 and done.stderr == "", done.stderr
    again = done.stdout
    assert again.count("(replayed)") == 200 and "\nWinner: " in again

    def narration(out: str) -> list[str]:
        return [line for line in out.splitlines() if line.startswith(("Round ", "P", "Rolled"))]

    played = narration(first)
    assert len(played) > 400 and narration(again)[: len(played)] == played  # the same game


def test_a_stopped_game_never_writes_over_another_file(capsys, monkeypatch, tmp_path):
    mine = tmp_path / "monopoly-answers-seed0.txt"
    mine.write_text("y\n")
    status, _, err = play(capsys, monkeypatch, "n\n150\n", "--you", "1", *FIELD)
    assert status == 1 and mine.read_text() == "y\n"
    assert replay_command(err)[-1] == "@monopoly-answers-seed0-2.txt"
    _, _, again = play(capsys, monkeypatch, "n\n150\n", "--you", "1", *FIELD)
    assert again == err, "the same answers of the same game: the same file, kept as it was"
    assert {p.name for p in tmp_path.iterdir()} == {mine.name, "monopoly-answers-seed0-2.txt"}


def test_t_build_and_lift_are_kept_with_the_answers_and_replayed(capsys, monkeypatch):
    seat = ("--you", "1", "--strategy", "ega_trading,always,heuristic", "--trading")
    _, _, err = play(capsys, monkeypatch, "t\nn\n150\n", *seat)
    argv = replay_command(err)
    kept = Path(argv[-1].removeprefix("@")).read_text(encoding="utf-8").splitlines()[2:]
    assert kept[0] == "t    # 1, round 1: be asked for a trade to propose"
    assert replayed_answers(argv) == ["t", "n", "150"]
    _, out, again = play(capsys, monkeypatch, "", *argv[1:])
    assert out.count("(replayed)") == 3 and again == err  # the same game, the same file


def test_answers_that_cannot_be_kept_in_a_file_are_given_in_the_command(capsys, monkeypatch):
    def refused(text, seed):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("monopoly_lesson.cli._keep_answers", refused)
    status, _, err = play(capsys, monkeypatch, "n\n150\n", "--you", "1", *FIELD)
    assert status == 1 and "2 answer(s) given (not kept in a file: Permission denied)." in err
    assert replay_command(err)[-2:] == ["--answers", "n;150"]


def test_a_file_of_answers_names_its_game_and_each_answer_its_question(capsys, monkeypatch):
    _, _, err = play(capsys, monkeypatch, "n\n150\n", "--you", "1", *FIELD)
    kept = Path(replay_command(err)[-1].removeprefix("@")).read_text(encoding="utf-8")
    game = "python -m monopoly_lesson play --you 1 --strategy ega_trading,always,heuristic"
    assert kept == answers_file_text(
        f"{game} --seed 0 --trading --every-question",
        ["n", "150"],
        ["round 1: buy St. Charles Place (12)?", "round 1: your bid for St. Charles Place (12)"],
    )
    assert kept.startswith(f"# The answers given in: {game} --seed 0 --trading --every")


def test_c_shows_the_coach_and_changes_nothing_in_the_game(capsys, monkeypatch):
    """c at a question prints each choice's win chance, the league player's answer, and
    asks again; the game, its narration and the answers to replay are those without it."""
    typed = ["n", "150", "", "y", "", "", ""]
    with_c = "".join(f"c\n{answer}\n" for answer in typed)
    without = "".join(f"{answer}\n" for answer in typed)
    status, coached, err = play(capsys, monkeypatch, with_c, "--you", "1", *FIELD, "--seed", "3")
    again, plain, plain_err = play(
        capsys, monkeypatch, without, "--you", "1", *FIELD, "--seed", "3"
    )
    assert status == again == 1 and err == plain_err and "--answers @" in err
    advice = re.findall(r"> c\nCoach \(200 play-outs of each choice; after it, the league", coached)
    assert len(advice) == len(typed)
    assert re.search(
        r"\nBuy: you win \d+% \(\d+% to \d+%\) of 200 play-outs; Do not buy: ", coached
    )
    assert re.search(r"\nNo bid: you win \d+% .*; Bid \$\d+: \d+%", coached)
    assert "The league player would" in coached
    shown = re.compile(r"^.*> c\n(?:(?!.*\[Enter: ).*\n)*", re.MULTILINE)
    assert shown.sub("", coached) == plain


def test_answers_from_a_file_one_a_line(capsys, monkeypatch, tmp_path):
    path = tmp_path / "answers.txt"
    path.write_text("n\n150\n\n")  # an empty line: the default (no trade)
    status, out, err = play(capsys, monkeypatch, "", "--you", "1", *FIELD, "--answers", f"@{path}")
    assert status == 1 and out.count("(replayed)") == 3
    assert "bid 0 to 1500 [Enter: 140, ?: help] > 150  (replayed)" in out
    argv = replay_command(err)
    assert replayed_answers(argv) == ["n", "150", "n"]  # the default written out, in words
    kept = argv[-1].removeprefix("@")
    assert Path(kept).read_text(encoding="utf-8").splitlines()[2:] == [
        "n    # 1, round 1: buy St. Charles Place (12)?",
        "150  # 2, round 1: your bid for St. Charles Place (12)",
        "n    # 3, round 1: propose a trade?",
    ]


def test_a_replayed_answer_that_does_not_fit_is_one_line(capsys, monkeypatch):
    status, out, err = play(capsys, monkeypatch, "", "--you", "1", *FIELD, "--answers", "y;y")
    assert status == 2 and err.count("\n") == 1 and out.count("(replayed)") == 2
    assert "play: --answers: answer 2, 'y', does not answer its question" in err
    assert "there is no completion swap to propose: write a trade of your own" in err


def test_ctrl_c_at_a_question_stops_with_the_answers_to_replay(capsys, monkeypatch):
    typed = iter(["n", "150"])

    def keyboard(prompt: str) -> str:
        print(prompt, end="")
        try:
            return next(typed)
        except StopIteration:
            raise KeyboardInterrupt from None

    monkeypatch.setattr("monopoly_lesson.game.terminal.input", keyboard, raising=False)
    status = main(["play", "--you", "1", *FIELD, "--seed", "0"])
    out, err = capsys.readouterr()
    assert status == 130 and len(PROMPT.findall(out)) == 3
    assert "play: stopped in round 1 (Ctrl-C); seed 0, 2 answer(s) given" in err
    assert err.rstrip().endswith("--answers @monopoly-answers-seed0.txt")
    assert replayed_answers(replay_command(err)) == ["n", "150"] and "interrupted" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child: POSIX")
def test_ctrl_c_in_the_terminal_is_exit_130_and_one_line():
    child = subprocess.Popen(
        [sys.executable, "-m", "monopoly_lesson", "play", "--you", "1", *FIELD],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    child.stdin.write("n\n")
    child.stdin.flush()
    out, deadline = "", time.monotonic() + 60
    while len(PROMPT.findall(out)) < 2 and time.monotonic() < deadline:  # waiting at the bid
        if select.select([child.stdout], [], [], 1)[0]:
            out += os.read(child.stdout.fileno(), 65536).decode()
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=30)
    assert child.returncode == 130 and "Traceback" not in err, err
    assert "stopped in round 1 (Ctrl-C); seed 0, 1 answer(s) given" in err
    assert replayed_answers(replay_command(err)) == ["n"]


def test_you_named_in_the_strategies_sits_there(capsys, monkeypatch):
    status, out, _ = play(
        capsys,
        monkeypatch,
        "\n" * 2000,
        "--strategy",
        "always,you",
        "--seed",
        "2",
        "--max-rounds",
        "10",
    )
    assert status == 0 and re.search(r"\nRound \d+ \| P1 always \$[\d,]+ \| P2 you \$[\d,]+\n", out)
    assert "P2 you moves from Go (1)" in out and "P2 you" in out.split("Game of 10 rounds")[1]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--you", "0"], "argument --you: the seat must be at least 1, got 0"),
        (["--you", "x"], "argument --you: the seat must be a whole number, got 'x'"),
        (["--you", "5", *FIELD], "--you must be a seat from 1 to 4 (the players), got 5"),
        (["--you", "3", "--players", "2"], "--you must be a seat from 1 to 2 (the players), got 3"),
        (
            ["--you", "1", "--strategy", "you,always"],
            "--you seats you; leave you out of --strategy",
        ),
        (
            ["--you", "1", "--players", "3", "--strategy", "always,never,never"],
            "--strategy names 3 strategies beside yours but --players is 3; give 2 names",
        ),
        (["--you", "1", "--strategy", ",".join(["never"] * 8)], "2 to 8 players, got 9"),
        (["--strategy", "you,always,you"], "one person plays at the terminal, but you is in 2"),
        (["--strategy", "you"], "but you is in 4 seats"),
        (["--answers", "y;n"], "--answers replays a person's answers; add --you SEAT"),
        (["--you", "1", "--answers", "@never-made.txt"], "No such file or directory"),
    ],
)
def test_a_bad_seat_or_answers_is_exit_2_and_one_line(capsys, monkeypatch, argv, message):
    status, out, err = play(capsys, monkeypatch, "", *argv)
    assert status == 2 and out == "" and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


# ---------------------------------------------------------------------------
# Reading answers as typed: every choice's words read back as that choice
# ---------------------------------------------------------------------------


CODE_WORDS = re.compile(r"\bNone\b|Trade\(|\w_\w|\b(?:P\d \S+|seat \d+)'s\b|\bTrue\b|\bFalse\b")
"""What reads as code, not as a player's words (tests/test_person.py's, and True/False)."""
TYPOS = ("maybe", "Trade(2, give=[x])", "give 99 to 9", "take 12 get lots", "sell 41")


def in_a_players_words(question: Question) -> None:
    """The terminal's own words at ``question``: its help, prompt and facts, and what it
    says to answers it cannot read (the answer typed aside), read as a player's words."""
    said = [choices_help(question), prompt(question), *decision_facts(question)]
    for typo in TYPOS:
        try:
            read_answer(question, typo)
        except ValueError as refused:
            said.append(str(refused).replace(repr(typo), "what was typed"))
    text = "\n".join(said)
    for player in question.game.players:
        text = text.replace(player.name, "the player")
    assert not CODE_WORDS.search(text), text


class Chooser:
    """A person played by code, who checks the terminal's words for every question: each
    choice written by answer_text reads back as itself, the keys ? lists pick it, and the
    help, prompt and refusals are in a player's words."""

    def __init__(self, seed: int) -> None:
        self.rng, self.asked = random.Random(seed), set()

    def __call__(self, question: Question) -> object:
        in_a_players_words(question)
        self.asked.add(question.decision)
        listed = choices_help(question)
        for index, choice in enumerate(list(question.choices)[:40]):
            words = answer_text(question, choice)
            assert question.check(read_answer(question, words)) == choice, (question, words)
            if question.decision == "raise_cash":
                assert f"  {words} " in listed  # a lot by name, never a renumbered choice
                if sum(s == choice[1] for _, s in question.choices) == 1:
                    assert read_answer(question, str(choice[1])) == choice
            elif question.decision == "propose_trade" and choice is not None:
                assert (
                    f"{index} ({words})" in listed and read_answer(question, str(index)) == choice
                )
            elif question.decision != "bid":
                assert f"  {words} " in listed
        assert read_answer(question, "") == question.default
        shown = re.search(r"\[Enter: (.*), \?: help\] > $", prompt(question)).group(1)
        assert read_answer(question, shown) == question.default  # what Enter is said to take
        return self.rng.choice(list(question.choices))


def test_every_choice_of_every_decision_reads_back_from_its_words():
    asked = set()
    for seed in range(4):
        chooser = Chooser(seed)
        play_monopoly(
            [You(answer=chooser), "ega_trading", "always", "heuristic"], seed=seed, trading=True
        )
        asked |= chooser.asked
    assert asked == set(DECISIONS)


@pytest.fixture
def trade_question() -> Question:
    """A proposal question of seat 1, who holds 12 and 14; seat 3 holds 22 and Boardwalk."""
    game = MonopolyGame(["always", "always", "always"], seed=0).state
    for space, owner in {12: 1, 14: 1, 22: 3, 40: 3, 38: 2}.items():
        game.lots[space].owner = owner
        game.player(owner).lots.add(space)
    swap = Trade(2, give=(14,), take=(38,))
    return Question("propose_trade", 1, "Propose a trade?", (None, swap), None, game)


@pytest.mark.parametrize(
    ("typed", "trade"),
    [
        ("give 12,14 take 22 pay 50 to 3", Trade(3, give=(12, 14), take=(22,), cash=50)),
        ("to P3 take 22, boardwalk get 20", Trade(3, give=(), take=(22, 40), cash=-20)),
        ("take Kentucky get $1,000", Trade(3, take=(22,), cash=-1000)),
        ("GIVE st. charles TO 2", Trade(2, give=(12,))),
        ("1", Trade(2, give=(14,), take=(38,))),
        ("y", Trade(2, give=(14,), take=(38,))),  # the only swap on offer
        ("Yes", Trade(2, give=(14,), take=(38,))),
        ("Trade(3, give=(12,), take=(22,), cash=5)", Trade(3, give=(12,), take=(22,), cash=5)),
        ("n", None),
        ("", None),
    ],
)
def test_a_trade_is_written_in_a_few_words(trade_question, typed, trade):
    assert read_answer(trade_question, typed) == trade
    if trade is not None:
        assert read_answer(trade_question, answer_text(trade_question, trade)) == trade


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("maybe", "a trade starts with give, take, pay, get or to"),
        ("give 12 give 14 to 2", "say give once"),
        ("give to 2", "say give once, with what follows it"),
        ("give 12", "say who the trade is with: to SEAT"),
        ("take 32 give 12", "Pacific Avenue (32) is owned by nobody yet"),
        ("take 22 pay 5 get 5", "either pays cash or gets it"),
        ("take 22 pay lots", "pay and get take whole dollars"),
        ("give 12 to three", "to names a seat, such as 3 or P3"),
        ("give avenue to 2", "'avenue' is not a space's number or name"),
        ("give st to 2", "'st' names more than one space"),
        ("give 41 to 2", "a space is a number from 1 to 40, not 41"),
        ("2", "a swap's number is from 1 to 1"),
        ("Trade(3, give=[x])", "could not read"),
    ],
)
def test_a_trade_that_cannot_be_read_says_what_is_expected(trade_question, typed, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        read_answer(trade_question, typed)


def test_yes_to_a_proposal_with_several_swaps_or_none_says_what_to_type(trade_question):
    from dataclasses import replace

    several = replace(trade_question, choices=(None, *[trade_question.choices[1]] * 2))
    with pytest.raises(ValueError, match="which trade\\? type a swap's number, 1 to 2"):
        read_answer(several, "y")
    none = replace(trade_question, choices=(None,))
    with pytest.raises(ValueError, match="there is no completion swap to propose"):
        read_answer(none, "yes")


def test_spaces_by_name_and_answers_split_on_semicolons():
    assert space_of("Boardwalk") == 40 and space_of("  illinois ") == 25 and space_of("5") == 5
    assert space_of("B&O") == 26 and space_of("marvin") == 30
    assert split_answers(["y;150; n", "", "give 12,14 to 3"]) == [
        "y",
        "150",
        "n",
        "",
        "give 12,14 to 3",
    ]
    notes = ["# a note alone is no answer", "y    # 1, round 1: buy?", "  # ", "150;n # x", "#"]
    assert split_answers(notes) == ["y", "150", "n"]


def test_u_takes_back_the_last_answer_and_asks_its_question_again(capsys, monkeypatch):
    """The game is played again, quietly, to the question the answer answered; answered
    the same way, it is the game without the u."""
    seat = ("--you", "1", *FIELD, "--seed", "3")
    status, out, err = play(capsys, monkeypatch, "u\nn\n150\nu\n150\n\ny\n\n\n\n", *seat)
    again, plain, plain_err = play(capsys, monkeypatch, "n\n150\n\ny\n\n\n\n", *seat)
    assert status == again == 1 and err == plain_err, (err, plain_err)
    assert "Nothing to take back yet: this is your first question." in out
    assert "Taken back: '150'. The game is played again to that question." in out
    asked = plain.split("\n")[0:3]
    assert out.count("(replayed)") == 0  # the replay after u prints nothing
    assert asked and out.endswith(plain.split("> 150\n", 1)[1])


def test_after_u_another_answer_is_kept_in_the_command_that_replays(capsys, monkeypatch):
    seat = ("--you", "1", *FIELD, "--seed", "3")
    _, _, err = play(capsys, monkeypatch, "n\n150\nu\n0\n", *seat)
    assert replayed_answers(replay_command(err)) == ["n", "0"]


@pytest.mark.parametrize("width", [30, 44, 60, 80])
def test_the_board_is_wrapped_to_the_width_never_inside_a_word(trade_question, width):
    game = trade_question.game
    game.lots[22].mortgaged, game.lots[40].buildings = True, 3
    lines = board_text(game, width).splitlines()
    assert max(map(len, lines)) <= width and len(lines) > 3
    assert " ".join(lines).split() == " ".join(board_lines(game)).split()  # no word cut
    assert all(line.startswith(("  P", "    ")) for line in lines)  # a player's next lines
    if width >= 44:  # a lot's words on one line, where the lot fits on one
        for lot in ("St. Charles Place (12)", "Kentucky Avenue (22) mortgaged"):
            assert any(lot in line for line in lines), lines


def test_b_shows_the_board_wrapped_to_the_terminal(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "44")
    _, out, _ = play(capsys, monkeypatch, "n\n150\nb\n", "--you", "1", *FIELD)
    board = out.split("> b\n")[1].split("\n\n")[0].splitlines()[:5]
    assert board == [
        "  P1 you: $1,500, on St. Charles Place (12);",
        "    no lots",
        "  P2 ega_trading: $1,349, on Go (1);",
        "    St. Charles Place (12)",
        "  P3 always: $1,500, on Go (1); no lots",
    ]


def test_raising_cash_names_lots_never_a_place_in_a_list(trade_question):
    from dataclasses import replace

    raising = replace(
        trade_question,
        decision="raise_cash",
        choices=(("sell", 12), ("mortgage", 14), ("mortgage", 12)),
        default=("sell", 12),
    )
    assert read_answer(raising, "14") == ("mortgage", 14)
    assert read_answer(raising, "states") == ("mortgage", 14)
    assert read_answer(raising, "sell st. charles") == ("sell", 12)
    with pytest.raises(ValueError, match="type sell 12 or mortgage 12"):
        read_answer(raising, "12")
    with pytest.raises(ValueError, match=r"Boardwalk \(40\) has nothing to sell or mortgage"):
        read_answer(raising, "boardwalk")
    assert "1 (" not in choices_help(raising)


def test_the_help_of_a_proposal_says_what_each_other_player_accepts(capsys, monkeypatch):
    seat = ("--you", "1", "--strategy", "league,dealer,heuristic", "--trading", "--seed", "3")
    _, out, _ = play(capsys, monkeypatch, "\n\n?\n", *seat, "--every-question")
    help_text = out.split("What the others accept:\n")[1]
    assert "P2 league accepts EGA's trades" in help_text
    assert "P3 dealer accepts only a trade that completes one of its colour groups" in help_text
    assert "and leaves it $150 in cash" in " ".join(help_text.split())
    assert "P4 heuristic accepts only a trade that completes" in help_text


def test_a_strategy_with_its_own_answer_accepts_by_its_own_rule():
    from monopoly_lesson import make_strategy
    from monopoly_lesson.game.strategies import Strategy, accepts_words

    own = make_strategy("mine", buy=lambda g, m, s: True, accept_trade=lambda g, m, o: True)
    assert accepts_words(own) == "by a rule of its own"
    assert accepts_words(make_strategy("mine", buy=lambda g, m, s: True)) == Strategy.accepts
