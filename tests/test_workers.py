"""verifier/workers.py: tasks go to the worker they are sent to, a note comes before each result, and a worker
that raises or dies is an internal error (WorkerFailed, exit 4 from the command line), never a hang or a verdict."""
from __future__ import annotations

import json
import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from verifier.cli import main
from verifier.outcome import ExitCode
from verifier.workers import DirectedPool, Finished, Noted, WorkerFailed

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


def _length(result: tuple[int, str]) -> int:
    return len(result[1])


def test_each_task_is_proved_by_the_worker_it_was_sent_to_note_first():
    tasks = {0: "a", 1: "bb", 2: "ccc", 3: "dddd"}
    answers = []
    with DirectedPool(2, _pid_and, _length) as pool:
        for key, task in tasks.items():
            pool.send(key % 2, key, task)
        answers = list(pool.answers())
    assert len(answers) == 8
    for key, task in tasks.items():
        mine = [a for a in answers if a.key == key]
        assert [type(a) for a in mine] == [Noted, Finished]
        noted, finished = mine
        assert isinstance(noted, Noted) and isinstance(finished, Finished)
        assert noted.note == len(task) and finished.result[1] == task.upper() and noted.slot == key % 2
    pids = {a.slot: set() for a in answers}
    for a in answers:
        if isinstance(a, Finished):
            pids[a.slot].add(a.result[0])
    assert all(len(p) == 1 for p in pids.values()) and pids[0] != pids[1]
    assert not multiprocessing.active_children()          # leaving the pool ended its workers


def test_a_task_sent_while_answers_are_read_is_waited_for():
    with DirectedPool(1, _pid_and, _length) as pool:
        pool.send(0, 0, "x")
        seen = []
        for a in pool.answers():
            seen.append(a.key)
            if isinstance(a, Noted) and a.key < 3:
                pool.send(0, a.key + 1, "y" * (a.key + 2))
    assert seen == [0, 0, 1, 1, 2, 2, 3, 3]


@pytest.mark.parametrize("task, why", [
    ("raise", r"(?s)a worker raised while proving raise:\n.*ValueError: a bug in the work"),
    ("kill", r"a worker process was killed by signal 9 \(SIGKILL\), as the out-of-memory killer does, "
             r"while proving kill"),
    ("exit", r"a worker process ended \(exit code 3\) while proving exit"),
])
def test_a_worker_that_raises_or_dies_is_a_failure_not_a_hang(task, why):
    with pytest.raises(WorkerFailed, match=why):
        with DirectedPool(2, _pid_and, _length) as pool:
            pool.send(0, 0, "fine")
            pool.send(1, 1, task)
            list(pool.answers())
    assert not multiprocessing.active_children()


def test_leaving_by_an_exception_ends_busy_workers_at_once():
    t0 = time.perf_counter()
    with pytest.raises(KeyError):
        with DirectedPool(2, _pid_and, _length) as pool:
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
    from verifier import prove_cmd
    monkeypatch.setattr(prove_cmd, "_load_and_prove", _killed)
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
    with DirectedPool(2, str.upper, len) as pool:
        for key, task in enumerate(["a", "bb", "ccc"]):
            pool.send(key % 2, key, task)
        results = {a.key: a.result for a in pool.answers() if isinstance(a, Finished)}
    assert results == {0: "A", 1: "BB", 2: "CCC"}


def test_prove_jobs_2_with_spawned_workers_gives_the_report_of_jobs_1(spawned, tmp_path, capsys, monkeypatch):
    pools: list[str] = []

    class Spied(DirectedPool):   # type: ignore[type-arg]
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            pools.append(multiprocessing.get_context().get_start_method())
    monkeypatch.setattr("verifier.workers.DirectedPool", Spied)
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
