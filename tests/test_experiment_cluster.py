"""The experiment on a cluster, as careless and hostile users meet it: an address where no
Dask scheduler answers, Ctrl-C while the runs play (on this machine's cluster and on one
started by hand), and a run that fails inside a worker; each ends in one line, and nothing
goes on playing or writing after the command has said so."""

from __future__ import annotations

import contextlib
import errno
import functools
import http.server
import json
import os
import signal
import socket
import socketserver
import subprocess
import sys
import threading
import time

import pytest

from monopoly_lesson import cli
from monopoly_lesson.evolution import experiment as experiment_module
from monopoly_lesson.evolution import run as run_module
from monopoly_lesson.evolution.experiment import RunFailed, experiment, experiment_runs
from monopoly_lesson.evolution.run import evolve

TINY = dict(
    population=8,
    games_per_player=1,
    max_rounds=10,
    benchmark_every=2,
    benchmark_games=2,
    progress=False,
)
PLAYING = [
    "--chromosome",
    "rga",
    "--fitness",
    "finish_order",
    "--seeds",
    "1,2",
    "--generations",
    "200",
    "--population",
    "40",
    "--games-per-player",
    "10",
    "--benchmark-every",
    "0",
    "--no-progress",
]
"""Two runs of many short generations (a tenth of a second each): Ctrl-C finds them playing."""
PLAYED = dict(population=40, games_per_player=10, benchmark_every=0, progress=False)
"""The same runs' options, as evolve takes them."""


def files_of(folder):
    """Every file under ``folder`` (relative path -> bytes)."""
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def stamps(folder):
    """Every file under ``folder`` with its size and time of last change."""
    return {
        str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*") if p.is_file()
    }


def generations_in(folder) -> int:
    """The generations the runs in ``folder`` have saved so far."""
    return sum(
        max(0, len(path.read_bytes().splitlines()) - 1) for path in folder.glob("*/history.csv")
    )


def wait_until(condition, seconds: float, what: str) -> None:
    """Wait (at most ``seconds``) until ``condition()``."""
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, f"waited {seconds} s for {what}"
        time.sleep(0.02)


class Command:
    """``python -m monopoly_lesson ...`` in its own session (as a terminal's foreground
    job: Ctrl-C is SIGINT to its whole process group), its stderr lines timed as they come."""

    def __init__(self, *words: str, env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "monopoly_lesson", *words],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
            env=env,
        )
        self.lines: list[tuple[float, str]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.process.stderr:
            self.lines.append((time.monotonic(), line.rstrip("\n")))

    def ctrl_c(self) -> float:
        """Ctrl-C at the terminal; when it was pressed."""
        os.killpg(self.process.pid, signal.SIGINT)
        return time.monotonic()

    def playing(self, out, generations: int, seconds: float = 120) -> None:
        """Wait until the runs in ``out`` have saved ``generations`` (the command still on)."""
        wait_until(
            lambda: generations_in(out) >= generations or self.process.poll() is not None,
            seconds,
            f"{generations} generations",
        )
        assert self.process.poll() is None, f"the command ended: {self.finish()}"

    def said(self, text: str) -> float | None:
        """When a line holding ``text`` came (None: not yet)."""
        return next((when for when, line in self.lines if text in line), None)

    def finish(self, seconds: float = 60) -> tuple[int, list[str]]:
        """The exit status and the stderr lines that are not empty."""
        try:
            status = self.process.wait(seconds)
        finally:
            if self.process.poll() is None:
                os.killpg(self.process.pid, signal.SIGKILL)
        self.reader.join(10)
        return status, [line for _, line in self.lines if line.strip()]


# ---------------------------------------------------------------------------
# evolve's stop: the boundary a run on a cluster is stopped at
# ---------------------------------------------------------------------------


def test_evolve_asked_to_stop_ends_before_a_generation_and_resumes_to_the_same_files(tmp_path):
    asked = []

    def stop() -> bool:
        asked.append(True)
        return len(asked) > 3  # answers True before the fourth generation

    stopped = evolve(
        "tga", "finish_order", generations=6, seed=5, out=tmp_path / "a", stop=stop, **TINY
    )
    assert len(stopped.history) == 3 and stopped.generations_run == 3 and len(asked) == 4
    resumed = evolve(
        "tga", "finish_order", generations=6, seed=5, out=tmp_path / "a", resume=True, **TINY
    )
    assert resumed.generations_run == 3
    evolve("tga", "finish_order", generations=6, seed=5, out=tmp_path / "b", **TINY)
    ours, alone = files_of(tmp_path / "a"), files_of(tmp_path / "b")
    assert ours.keys() == alone.keys()
    assert {k: v for k, v in ours.items() if k != "parameters.json"} == {
        k: v for k, v in alone.items() if k != "parameters.json"
    }
    with pytest.raises(TypeError, match="stop must be a function that answers True"):
        evolve(stop=True, **TINY)


# ---------------------------------------------------------------------------
# An address where no scheduler answers
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("address", "why"),
    [
        ("nonsense", "it names no port"),
        ("tcp://host:notaport", "its port 'notaport' is not a whole number from 1 to 65535"),
        ("tcp://:0", "it names no host"),
        ("tcp://10.0.0.5:70000", "its port '70000' is not a whole number"),
        ("http://127.0.0.1:8787/status", "it names the protocol 'http://' (a web page's"),
        ("tcp://::1:8786", "an IPv6 host needs brackets, like tcp://[::1]:8786"),
    ],
)
def test_a_malformed_scheduler_address_is_refused_at_once_in_one_line(
    tmp_path, capsys, address, why
):
    began = time.monotonic()
    status = cli.main(
        ["experiment", "--scheduler", address, "--out", str(tmp_path / "x"), "--no-progress"]
    )
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1, err
    assert "scheduler must be a Dask scheduler's address, like tcp://10.0.0.5:8786" in err
    assert f"{address!r} is not: {why}" in err
    assert time.monotonic() - began < 2 and not (tmp_path / "x").exists()


class Silent(socketserver.BaseRequestHandler):
    """Accepts, and never answers."""

    def handle(self) -> None:
        self.server.closing.wait(60)


class Junk(socketserver.BaseRequestHandler):
    """Answers with another protocol's greeting (an SSH server's), then waits."""

    def handle(self) -> None:
        self.request.sendall(b"SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13\r\n")
        self.server.closing.wait(60)


class Web(http.server.BaseHTTPRequestHandler):
    """A web server: answers every request with a page (and logs nothing)."""

    def do_GET(self) -> None:  # the name http.server calls
        self.send_response(200)
        self.end_headers()
        self.wfile.write(b"<html>a dashboard</html>")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def servers():
    """A silent, a junk-answering and a web server on this machine, and a port where
    nothing listens: name -> address."""
    started = []
    for handler in (Silent, Junk, Web):
        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
        server.daemon_threads, server.closing = True, threading.Event()
        threading.Thread(target=server.serve_forever, daemon=True).start()
        started.append(server)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        refused = probe.getsockname()[1]
    names = ("silent", "junk", "web")
    yield {
        **{
            name: f"tcp://127.0.0.1:{s.server_address[1]}"
            for name, s in zip(names, started, strict=True)
        },
        "refused": f"tcp://127.0.0.1:{refused}",
    }
    for server in started:
        server.closing.set()
        server.shutdown()
        server.server_close()


def test_no_scheduler_at_the_address_is_one_line_within_the_stated_time(tmp_path, servers):
    """A silent server, one that answers junk, a web server and a closed port: each the same
    line, exit status 2, within CONNECT_TIMEOUT (and its start) of the command, no folder made."""
    commands = {
        name: Command(
            "experiment",
            "--scheduler",
            address,
            "--chromosome",
            "rga",
            "--fitness",
            "num_wins",
            "--generations",
            "1",
            "--no-progress",
            "--out",
            str(tmp_path / name),
        )
        for name, address in servers.items()
    }
    began = time.monotonic()
    for name, command in commands.items():
        status, lines = command.finish(seconds=60)
        assert status == 2 and len(lines) == 1, (name, lines)
        what = " (something else did, not in Dask's protocol)" if name == "junk" else " within 10 s"
        assert lines[0] == (
            f"python -m monopoly_lesson experiment: no Dask scheduler answered at "
            f"{servers[name]}{what}; start one (dask scheduler, then dask worker "
            "with its address), or leave out the scheduler to use this machine's "
            "cores."
        )
        assert not (tmp_path / name).exists()
    assert time.monotonic() - began < 30  # the four side by side: 10 s and their start


# ---------------------------------------------------------------------------
# Ctrl-C on this machine's cluster
# ---------------------------------------------------------------------------


def stopped_by_ctrl_c(command: Command, out, wait: float, settle: float) -> float:
    """Press Ctrl-C, wait up to ``wait`` s for the one stopped line and the exit (130), and
    check that nothing in ``out`` changes in the ``settle`` s after it; the seconds from
    Ctrl-C to the line."""
    pressed = command.ctrl_c()
    wait_until(
        lambda: command.said("stopped;") or command.process.poll() is not None,
        wait,
        "the stopped line",
    )
    seconds = (command.said("stopped;") or time.monotonic()) - pressed
    after = stamps(out)
    status, lines = command.finish()
    time.sleep(settle)
    assert stamps(out) == after, "a run went on writing after the command said it stopped"
    assert status == 130 and lines == [
        f"python -m monopoly_lesson experiment: stopped; the completed generations are in {out}: "
        "run the same command to resume them."
    ], lines
    return seconds


def test_ctrl_c_on_this_machines_cluster_stops_within_2_s_cleanly_and_the_runs_resume(tmp_path):
    """One worker, two runs: Ctrl-C while the first plays. Within 2 s one line says where the
    generations are (no worker's traceback, no leaked semaphore), exit status 130; nothing
    changes after it; the second run never started; the first resumes to the same files as
    a run played at once."""
    out = tmp_path / "grid"
    command = Command("experiment", *PLAYING, "--workers", "1", "--out", str(out))
    command.playing(out, 3)
    seconds = stopped_by_ctrl_c(command, out, wait=30, settle=2)
    assert seconds < 2, f"Ctrl-C took {seconds:.1f} s"
    first, second = experiment_runs("rga", "finish_order", [1, 2])
    assert not (out / second.name).exists()
    held = generations_in(out)
    resumed = evolve(
        "rga",
        "finish_order",
        generations=held + 2,
        seed=1,
        out=out / first.name,
        resume=True,
        **PLAYED,
    )
    assert resumed.generations_run == 2
    evolve("rga", "finish_order", generations=held + 2, seed=1, out=tmp_path / "alone", **PLAYED)
    ours, alone = files_of(out / first.name), files_of(tmp_path / "alone")
    assert {k: v for k, v in ours.items() if k != "parameters.json"} == {
        k: v for k, v in alone.items() if k != "parameters.json"
    }


# ---------------------------------------------------------------------------
# A cluster started by hand: Ctrl-C, a worker that dies
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hand_started(tmp_path_factory):
    """A cluster started as the README says: ``dask scheduler``, and ``dask worker`` with one
    thread, each in its own session (Ctrl-C for the command does not reach them). A task
    whose worker dies once is given up (allowed-failures 0), so a killed worker is quick to
    show. Yields the scheduler's address."""
    from distributed import Client

    folder = tmp_path_factory.mktemp("cluster")
    file = folder / "scheduler.json"
    env = {**os.environ, "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "0"}
    scheduler = [
        "scheduler",
        "--scheduler-file",
        str(file),
        "--port",
        "0",
        "--dashboard-address",
        ":0",
    ]
    worker = ["worker", "--scheduler-file", str(file), "--nthreads", "1", "--nworkers", "1"]
    started = []
    for words in (scheduler, worker):
        with open(folder / f"{words[0]}.log", "w") as log:
            started.append(
                subprocess.Popen(
                    [sys.executable, "-m", "dask", *words],
                    cwd=folder,
                    stdout=subprocess.DEVNULL,
                    stderr=log,
                    env=env,
                    start_new_session=True,
                )
            )
    try:
        wait_until(file.exists, 60, "the scheduler's file")
        time.sleep(0.2)  # written whole
        address = json.loads(file.read_text())["address"]
        with Client(address, timeout="30s") as client:
            client.wait_for_workers(1, timeout=60)
        yield address
    finally:
        for process in started:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
        for process in started:
            process.wait(30)


def test_ctrl_c_with_a_running_cluster_stops_its_runs_before_it_says_so(tmp_path, hand_started):
    """Ctrl-C while the first of two runs plays on the cluster's one worker: the line comes
    once the run has ended its generation and the second is cancelled; after it, no file
    in the experiment's folder changes, and the scheduler holds no task of it."""
    from distributed import Client

    out = tmp_path / "grid"
    command = Command("experiment", *PLAYING, "--scheduler", hand_started, "--out", str(out))
    command.playing(out, 4)
    seconds = stopped_by_ctrl_c(command, out, wait=90, settle=3)
    assert seconds < 10, f"Ctrl-C took {seconds:.1f} s"
    assert not (out / experiment_runs("rga", "finish_order", [2])[0].name).exists()
    with Client(hand_started, timeout="30s") as client:
        assert not any(client.processing().values())


def test_a_workers_address_given_for_the_schedulers_says_so(tmp_path, capsys, hand_started):
    from distributed import Client

    with Client(hand_started, timeout="30s") as client:
        worker = next(iter(client.scheduler_info()["workers"]))
    status = cli.main(
        ["experiment", "--scheduler", worker, "--no-progress", "--out", str(tmp_path / "x")]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.strip().splitlines() == [
        f"python -m monopoly_lesson experiment: no Dask scheduler answered at {worker} (a Dask "
        "Worker did: give its scheduler's address); start one (dask scheduler, then dask worker "
        "with its address), or leave out the scheduler to use this machine's cores."
    ]
    assert not (tmp_path / "x").exists()


def test_a_run_whose_worker_dies_is_one_line_that_names_it(tmp_path, hand_started):
    """The worker killed while it plays the run: one line naming the run and what happened
    (not Dask's KilledWorker traceback), exit status 2."""
    from distributed import Client

    out = tmp_path / "grid"
    command = Command(
        "experiment",
        *PLAYING[:4],
        "--seeds",
        "1",
        *PLAYING[6:],
        "--scheduler",
        hand_started,
        "--out",
        str(out),
    )
    command.playing(out, 1)
    with Client(hand_started, timeout="30s") as client:
        for pid in client.run(os.getpid).values():
            os.kill(pid, signal.SIGKILL)
    status, lines = command.finish()
    assert status == 2 and len(lines) == 1, lines
    assert lines[0].startswith(
        "python -m monopoly_lesson experiment: run rga-finish_order-seed1 failed: the workers "
        "that played it died (1 time, the last at tcp://"
    )
    assert lines[0].endswith(
        f"the completed generations are in {out}: run the same command to resume them."
    )


# ---------------------------------------------------------------------------
# A run that fails, and what can be checked before the cluster starts
# ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def in_this_process():
    """A cluster in this process (two worker threads): its address."""
    from distributed import LocalCluster

    with LocalCluster(
        n_workers=1, threads_per_worker=2, processes=False, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_a_run_that_fails_on_its_worker_stops_the_others_and_is_one_line(
    tmp_path, capsys, caplog, monkeypatch, in_this_process
):
    """The seed-2 run's disk is full: RunFailed names it and the cause, once the seed-1 run
    has stopped at a generation's start; the worker logs no "Compute Failed"; the command
    says it in one line (exit 2)."""
    played = run_module.evolve

    @functools.wraps(played)
    def full_disk(*args, seed, **kwargs):
        if seed == 2:
            time.sleep(0.5)  # the other run has started
            raise OSError(errno.ENOSPC, "No space left on device", "history.csv")
        return played(*args, seed=seed, **kwargs)

    monkeypatch.setattr(run_module, "evolve", full_disk)
    out = tmp_path / "grid"
    with pytest.raises(RunFailed) as failed:
        experiment(
            "rga",
            "finish_order",
            [1, 2],
            generations=500,
            out=out,
            scheduler=in_this_process,
            population=40,
            games_per_player=10,
            benchmark_every=0,
            progress=False,
        )
    assert str(failed.value) == (
        "run rga-finish_order-seed2 failed: No space left on device: history.csv"
    )
    after = stamps(out)
    assert 1 <= generations_in(out) < 500
    time.sleep(1)
    assert stamps(out) == after
    assert "Compute Failed" not in caplog.text
    again = tmp_path / "again"
    status = cli.main(
        [
            "experiment",
            *PLAYING[:7],
            "500",
            *PLAYING[8:],
            "--scheduler",
            in_this_process,
            "--out",
            str(again),
        ]
    )
    err = capsys.readouterr().err
    assert status == 2 and err.strip().splitlines() == [
        "python -m monopoly_lesson experiment: run rga-finish_order-seed2 failed: No space left "
        f"on device: history.csv; the completed generations are in {again}: run the same "
        "command to resume them."
    ]


def test_fewer_generations_than_a_run_holds_are_refused_before_the_cluster_starts(
    tmp_path, capsys, monkeypatch, in_this_process
):
    """Three generations played, two asked for: refused at the call (by the API, and by the
    command in one line) with the number to ask for, and no cluster started."""
    out = tmp_path / "api"
    experiment("rga", "num_wins", [1], generations=3, out=out, scheduler=in_this_process, **TINY)
    words = [
        "experiment",
        "--chromosome",
        "rga",
        "--fitness",
        "num_wins",
        "--population",
        "8",
        "--games-per-player",
        "1",
        "--max-rounds",
        "10",
        "--benchmark-every",
        "2",
        "--benchmark-games",
        "2",
        "--no-progress",
        "--out",
        str(tmp_path / "cli"),
    ]
    assert cli.main([*words, "--generations", "3", "--scheduler", in_this_process]) == 0
    capsys.readouterr()

    def no_cluster(*args):
        raise AssertionError("the cluster was started")

    monkeypatch.setattr(experiment_module, "_cluster", no_cluster)
    with pytest.raises(
        ValueError,
        match=r"the run rga-num_wins-seed1 in .* already holds 3 "
        r"generations, more than the 2 asked for; ask for 3 or more",
    ):
        experiment("rga", "num_wins", [1], generations=2, out=out, **TINY)
    status = cli.main([*words, "--generations", "2"])
    err = capsys.readouterr().err
    assert status == 2 and err.strip().splitlines() == [
        f"python -m monopoly_lesson experiment: the run rga-num_wins-seed1 in {tmp_path / 'cli'} "
        "already holds 3 generations, more than the 2 asked for; ask for 3 or more (read_summary "
        "and load_evolution read them as they are)."
    ]
