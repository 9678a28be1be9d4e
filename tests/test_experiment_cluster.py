"""The experiment on a cluster, as careless and hostile users meet it: an address where no
Dask scheduler answers, Ctrl-C while the runs play (locally and on a running cluster), and
a run that fails inside a worker; each ends in one line, and nothing is left running."""

from __future__ import annotations

from monopoly_lesson.evolution.run import evolve

TINY = dict(population=8, games_per_player=1, max_rounds=10, benchmark_every=2,
            benchmark_games=2, progress=False)  # fmt: skip


def files_of(folder):
    """Every file under ``folder`` (relative path -> bytes)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}  # fmt: skip


def test_evolve_asked_to_stop_ends_before_a_generation_and_resumes_to_the_same_files(tmp_path):
    asked = []

    def stop() -> bool:
        asked.append(True)
        return len(asked) > 3  # answers True before the fourth generation

    stopped = evolve("tga", "finish_order", generations=6, seed=5, out=tmp_path / "a",
                     stop=stop, **TINY)  # fmt: skip
    assert len(stopped.history) == 3 and stopped.generations_run == 3 and len(asked) == 4
    resumed = evolve("tga", "finish_order", generations=6, seed=5, out=tmp_path / "a",
                     resume=True, **TINY)  # fmt: skip
    assert resumed.generations_run == 3
    evolve("tga", "finish_order", generations=6, seed=5, out=tmp_path / "b", **TINY)
    ours, alone = files_of(tmp_path / "a"), files_of(tmp_path / "b")
    assert ours.keys() == alone.keys()
    assert {k: v for k, v in ours.items() if k != "parameters.json"} == {
        k: v for k, v in alone.items() if k != "parameters.json"
    }
