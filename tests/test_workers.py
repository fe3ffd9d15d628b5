"""verifier/engine/workers.py: tasks go to the worker they are sent to, one at a time each, and a worker that raises or
dies is an internal error (WorkerFailed, exit 4 from the command line), never a hang or a verdict."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.outcome import ExitCode
from verifier.engine.workers import DirectedPool, WorkerFailed

ROOT = Path(__file__).parent.parent
FORKS = multiprocessing.get_start_method() == "fork"   # a forked worker sees this module's monkeypatches


def _pid_and(task: str) -> tuple[int, str]:
    if task == "raise":
        raise ValueError("a bug in the work")
    if task == "kill":
        os.kill(os.getpid(), signal.SIGKILL)
    if task == "exit":
        os._exit(3)
    if task == "sleep":
        time.sleep(600)
    return os.getpid(), task.upper()


def test_each_task_is_proved_by_the_worker_it_was_sent_to():
    tasks = {0: "a", 1: "bb", 2: "ccc", 3: "dddd"}
    results: dict[int, tuple[int, str]] = {}
    slots: dict[int, int] = {}
    with DirectedPool(2, _pid_and) as pool:
        pool.send(0, 0, tasks[0])
        pool.send(1, 1, tasks[1])
        for answer in pool.answers():
            results[answer.key], slots[answer.key] = answer.result, answer.slot
            following = answer.key + 2
            if following in tasks:            # the slot whose result came takes the next task
                pool.send(answer.slot, following, tasks[following])
    assert {k: r[1] for k, r in results.items()} == {k: t.upper() for k, t in tasks.items()}
    assert slots == {0: 0, 1: 1, 2: 0, 3: 1}
    pid_of = {slot: {results[k][0] for k in results if slots[k] == slot} for slot in (0, 1)}
    assert all(len(p) == 1 for p in pid_of.values()) and pid_of[0] != pid_of[1]
    assert not multiprocessing.active_children()          # leaving the pool ended its workers


def test_a_worker_holds_one_task_at_a_time():
    """The parent never writes a task while the worker may still be writing a result (both would block on a full
    pipe): a second task for a busy worker is refused."""
    with DirectedPool(1, _pid_and) as pool:
        pool.send(0, 0, "a")
        with pytest.raises(ValueError, match="one task at a time"):
            pool.send(0, 1, "b")
        assert [a.key for a in pool.answers()] == [0]


def test_a_large_result_and_a_large_task_in_turn_never_block():
    big = "x" * (8 << 20)
    with DirectedPool(1, _pid_and) as pool:
        pool.send(0, 0, big)
        for answer in pool.answers():
            if answer.key < 2:
                pool.send(0, answer.key + 1, big)
            assert answer.result[1] == big.upper()


@pytest.mark.parametrize("task, why", [
    ("raise", r"(?s)a worker raised while proving raise:\n.*ValueError: a bug in the work"),
    ("kill", r"a worker process was killed by signal 9 \(SIGKILL\), as the out-of-memory killer does, "
             r"while proving kill"),
    ("exit", r"a worker process ended \(exit code 3\) while proving exit"),
])
def test_a_worker_that_raises_or_dies_is_a_failure_not_a_hang(task, why):
    with pytest.raises(WorkerFailed, match=why):
        with DirectedPool(2, _pid_and) as pool:
            pool.send(0, 0, "fine")
            pool.send(1, 1, task)
            list(pool.answers())
    assert not multiprocessing.active_children()


def test_leaving_by_an_exception_ends_busy_workers_at_once():
    t0 = time.perf_counter()
    with pytest.raises(KeyError):
        with DirectedPool(2, _pid_and) as pool:
            pool.send(0, 0, "sleep")
            raise KeyError("the parent's own failure")
    assert time.perf_counter() - t0 < 30 and not multiprocessing.active_children()


def _killed(job: object) -> object:
    os.kill(os.getpid(), signal.SIGKILL)
    return None


@pytest.mark.skipif(not FORKS, reason="the monkeypatch reaches forked workers only")
def test_prove_jobs_2_with_a_killed_worker_is_an_internal_error(monkeypatch, capsys):
    """The out-of-memory killer's SIGKILL: exit 4 and one line naming the file, not exit 1 (a counterexample)
    with the executor's traceback."""
    from verifier.engine import proving
    monkeypatch.setattr(proving, "load_and_prove", _killed)
    code = main(["prove", str(ROOT / "specs/catalog"), "--jobs", "2", "--no-cache"])
    err = capsys.readouterr().err
    assert code == ExitCode.INTERNAL_ERROR
    assert len(err.splitlines()) == 1 and err.startswith("internal error: a worker process was killed by signal 9")
    assert ".yaml" in err and "Traceback" not in err


@pytest.fixture
def spawned(monkeypatch):
    """Workers started as macOS and Windows start them (and Linux from Python 3.14 on, by forkserver): fresh
    interpreters that find the work by name and inherit nothing."""
    spawn = multiprocessing.get_context("spawn")
    monkeypatch.setattr(multiprocessing, "get_context", lambda method=None: spawn)


def test_spawned_workers_answer_too(spawned):
    tasks = ["a", "bb", "ccc"]
    with DirectedPool(2, str.upper) as pool:
        pool.send(0, 0, tasks[0])
        pool.send(1, 1, tasks[1])
        results = {}
        for answer in pool.answers():
            results[answer.key] = answer.result
            if answer.key == 0:
                pool.send(answer.slot, 2, tasks[2])
    assert results == {0: "A", 1: "BB", 2: "CCC"}


def test_prove_jobs_2_with_spawned_workers_gives_the_report_of_jobs_1(spawned, tmp_path, capsys, monkeypatch):
    pools: list[str] = []

    class Spied(DirectedPool):   # type: ignore[type-arg]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            pools.append(multiprocessing.get_context().get_start_method())
    monkeypatch.setattr("verifier.engine.workers.DirectedPool", Spied)
    d = tmp_path / "specs"
    d.mkdir()
    for name in ("sm80_f16.yaml", "sm75.yaml", "sm70.yaml", "sm61.yaml"):
        (d / name).write_text((ROOT / "specs/atoms" / name).read_text())
    (d / "seed.yaml").write_text((ROOT / "specs/sm80_f16.yaml").read_text().replace("atoms/", ""))
    reports = []
    for jobs in ("1", "2"):
        assert main(["prove", str(d), "--jobs", jobs, "--no-cache", "--format", "json"]) == ExitCode.OK
        doc = json.loads(capsys.readouterr().out)
        reports.append([(c["check"], c["verdict"], [t["status"] for t in c["theorems"]]) for c in doc["checks"]])
    assert reports[0] == reports[1] and len(reports[0]) == 20
    assert pools == ["spawn"]      # --jobs 2 loaded the files in (spawned) workers
