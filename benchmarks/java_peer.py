"""The paper's own Java program (GAMonopoly, by Mukhar and Kalita), timed on this machine.

``bench_fast_game.py`` sets a paper generation of ``evolve`` beside the Java program's:
1,000 RGA players, 100 games of 4 each (100 rounds at most), finish-order fitness, the
games on one thread. It times the Java program only when ``GAMONOPOLY_DIR`` names a
built checkout; without one it uses the figure stored below. To build one (Java 17's
``javac``; the commons-codec jar is needed only by the program's windows, not by its
genetic algorithm, but ``javac`` compiles them too)::

    git clone https://github.com/kmukhar/GAMonopoly
    cd GAMonopoly/Genetic_Algorithm_Monopoly
    curl -LO https://repo1.maven.org/maven2/commons-codec/commons-codec/1.15/commons-codec-1.15.jar
    mkdir bin
    javac -nowarn -encoding UTF-8 -cp commons-codec-1.15.jar -d bin $(find src -name '*.java')
    cp src/edu/uccs/ecgs/ga/locations.properties bin/edu/uccs/ecgs/ga/
    export GAMONOPOLY_DIR=$PWD/..

then ``make bench`` (or ``python benchmarks/bench_fast_game.py``). A run writes its
players and logs into a temporary folder that is removed after it.

What its time is made of: the program hands its games one by one to the threads that play
them, pausing a millisecond after each (``Thread.sleep(1)``, so that each game's generator
gets a seed of its own from the clock), and pauses a second after each generation. A
generation therefore takes at least 25,000 pauses (1.09 ms each on a 2-core AMD EPYC) and
a second: 28 s, however fast the games; the whole generation took 31 s there on a quiet
machine, 23 s of it processor time (its collector and compiler threads too).
"""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from pathlib import Path

STORED_GENERATION_SECONDS = 34.9
STORED_FROM = "stored on 2026-11-26, one generation on one core of a 2-core machine"
"""The Java program's generation when no checkout is at hand, and where the figure is from."""
MAIN_CLASS = "edu.uccs.ecgs.ga.Main"
PAPER_GENERATION = [
    "useGui=false",
    "maxPlayers=1000",
    "numMatches=100",
    "numPlayers=4",
    "maxTurns=100",
    "chromoType=RGA",
    "fitnessEvaluator=FINISH_ORDER",
    "numThreads=1",
    "useRandomSeed=true",
    "dumpPeriod=10",
]
"""The program's settings for the paper's generation (its own spelling: ``maxTurns`` is
rounds, each player's turns; ``numThreads`` the games played at once; players saved every
10th generation, as ``evolve`` saves them)."""


def java_classes() -> Path | None:
    """The folder of the built Java program named by ``GAMONOPOLY_DIR``, or None when the
    variable is unset; raises when it names a folder that holds no built program."""
    checkout = os.environ.get("GAMONOPOLY_DIR")
    if not checkout:
        return None
    for classes in (Path(checkout) / "Genetic_Algorithm_Monopoly" / "bin", Path(checkout) / "bin"):
        if (classes / "edu" / "uccs" / "ecgs" / "ga" / "Main.class").exists():
            if not (classes / "edu" / "uccs" / "ecgs" / "ga" / "locations.properties").exists():
                raise SystemExit(
                    f"GAMONOPOLY_DIR: {classes} lacks edu/uccs/ecgs/ga/locations.properties; "
                    "copy it from src/ as benchmarks/java_peer.py says"
                )
            return classes
    raise SystemExit(
        f"GAMONOPOLY_DIR={checkout} holds no built GAMonopoly "
        "(expected Genetic_Algorithm_Monopoly/bin/edu/uccs/ecgs/ga/Main.class); "
        "build it as benchmarks/java_peer.py says, or unset GAMONOPOLY_DIR"
    )


def java_seconds(classes: Path, generations: int, settings: list[str] = PAPER_GENERATION) -> float:
    """The wall time of a whole Java process that runs ``generations`` generations, in a
    temporary folder; raises if the program reports an error (it carries on after one)."""
    command = ["java", "-cp", str(classes), MAIN_CLASS, *settings]
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        done = subprocess.run(
            [*command, f"numGenerations={generations}"], cwd=folder, capture_output=True, text=True
        )
        seconds = time.perf_counter() - start
    if done.returncode or "Exception" in done.stderr + done.stdout:
        raise RuntimeError(f"the Java program failed:\n{done.stderr[-2000:]}")
    return seconds


def java_generation_seconds(classes: Path, generations: int = 2) -> float:
    """One Java generation: the time of ``generations + 1`` generations minus that of one,
    over ``generations``, so that the start of the process and its first population cancel."""
    return (java_seconds(classes, generations + 1) - java_seconds(classes, 1)) / generations
