"""verifier/engine/schedule.py: --jobs hands each worker the files that share its atom libraries; the `include:` hint
read as text; every file handed out once."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Iterator

import pytest

from verifier.engine.schedule import AffinityQueue, SegmentQueue, include_hint, run_with_affinity
from verifier.engine.workers import DirectedPool, Finished, WorkerFailed

ROOT = Path(__file__).parent.parent


def _real(*paths: Path) -> list[str]:
    return [os.path.realpath(p) for p in paths]


def test_the_hint_reads_block_and_flow_includes(tmp_path):
    (tmp_path / "lib").mkdir()
    block = tmp_path / "block.yaml"
    block.write_text('version: 2\ninclude:\n  - "lib/a.yaml"   # the first\n  - lib/b.yml\n# between\n'
                     "- 'lib/c.yaml'\nname: x\nchecks: []\n  - lib/not_this.yaml\n")
    assert include_hint(str(block)) == _real(tmp_path / "lib/a.yaml", tmp_path / "lib/b.yml", tmp_path / "lib/c.yaml")
    flow = tmp_path / "flow.yaml"
    flow.write_text('name: y\ninclude: ["../x/a.yaml", lib/b.yaml]\nchecks: []\n')
    assert include_hint(str(flow)) == _real(tmp_path.parent / "x/a.yaml", tmp_path / "lib/b.yaml")


def test_the_hint_of_the_catalog_names_its_includes():
    hint = include_hint(str(ROOT / "specs/catalog/sm80_f16.yaml"))
    assert hint == _real(ROOT / "specs/atoms/sm75.yaml", ROOT / "specs/atoms/sm80_f16.yaml")


@pytest.mark.parametrize("content", [b"", b"name: x\n", b"\xff\xfe\x00include:\x00", b"include:" + b"[" * 100_000,
                                     b"  include:\n  - a.yaml\n"])
def test_no_include_or_garbage_gives_no_hint(tmp_path, content):
    f = tmp_path / "f.yaml"
    f.write_bytes(content)
    assert include_hint(str(f)) == []


def test_an_unreadable_path_gives_no_hint(tmp_path):
    assert include_hint(str(tmp_path / "missing.yaml")) == []
    assert include_hint(str(tmp_path)) == []


def _families(tmp_path: Path) -> list[str]:
    """Two atom libraries and the files including each; sizes such that largest-first would mix them."""
    files = {"libA.yaml": 10_000, "libB.yaml": 9_000, "a1.yaml": 600, "b1.yaml": 590, "a2.yaml": 580,
             "b2.yaml": 570, "alone.yaml": 300}
    for name, size in files.items():
        head = f"include:\n  - lib{name[0].upper()}.yaml\n" if name[0] in "ab" else ""
        (tmp_path / name).write_text(head + "#" * (size - len(head)))
    return [str(tmp_path / n) for n in sorted(files)]


def test_a_worker_keeps_to_the_files_of_its_library(tmp_path):
    files = _families(tmp_path)
    q = AffinityQueue(files)
    name = lambda i: Path(files[i]).name   # noqa: E731
    assert name(q.take(0)) == "libA.yaml"          # the largest
    assert name(q.take(1)) == "libB.yaml"          # the largest sharing nothing with slot 0
    # slot 0 finishes twice in a row: largest first would give it b1 second; it keeps to library A
    assert [name(q.take(0)), name(q.take(0))] == ["a1.yaml", "a2.yaml"]
    assert [name(q.take(1)), name(q.take(1))] == ["b1.yaml", "b2.yaml"]
    assert name(q.take(0)) == "alone.yaml"
    assert q.take(0) is None and q.take(1) is None


def test_what_a_worker_loaded_counts_as_its_own(tmp_path):
    files = _families(tmp_path)
    q = AffinityQueue(files)
    q.loaded(1, [str(tmp_path / "libA.yaml")])     # as a worker reports a file's closure
    assert Path(files[q.take(1)]).name == "libA.yaml"
    assert Path(files[q.take(0)]).name == "libB.yaml"


def _lowered(result: str) -> list[str]:
    return [result.lower()]


def test_every_file_is_handed_out_once_and_results_come_back():
    files = [str(p) for p in sorted((ROOT / "specs").rglob("*.yaml"))]
    with DirectedPool(3, str.upper) as pool:
        got = list(run_with_affinity(files, 3, lambda slot, i: pool.send(slot, i, files[i]), pool.answers,
                                     _lowered))
    assert sorted(i for i, _ in got) == list(range(len(files)))
    assert all(r == files[i].upper() for i, r in got)


class _Scripted:
    """Workers in this process, each holding one file at a time; records what happened in which order."""

    def __init__(self, fail_on: int | None = None) -> None:
        self.events: list[tuple[str, int, int]] = []
        self.held: dict[int, int] = {}
        self.fail_on = fail_on

    def send(self, slot: int, i: int) -> None:
        assert slot not in self.held, "a worker holds one file at a time"
        self.events.append(("sent", slot, i))
        self.held[slot] = i

    def answers(self) -> Iterator[Finished[str]]:
        while self.held:
            slot = min(self.held)
            i = self.held.pop(slot)
            if i == self.fail_on:
                raise WorkerFailed(f"a worker raised while proving file {i}")
            self.events.append(("result", slot, i))
            yield Finished(slot, i, f"r{i}")


def test_a_slot_takes_its_next_file_when_its_result_comes():
    pool = _Scripted()
    got = list(run_with_affinity(["a.yaml", "b.yaml", "c.yaml"], 2, pool.send, pool.answers, lambda r: []))
    assert sorted(got) == [(0, "r0"), (1, "r1"), (2, "r2")]
    first, second, third = [(slot, i) for what, slot, i in pool.events if what == "sent"]
    assert {first[0], second[0]} == {0, 1}
    # the third file goes to the slot whose result came first, once it came
    done_first = next((slot, i) for what, slot, i in pool.events if what == "result")
    assert third[0] == done_first[0]
    assert pool.events.index(("result", *done_first)) < pool.events.index(("sent", *third))


def test_in_order_each_slot_proves_a_run_of_consecutive_files_then_helps_the_fullest():
    """The prescreen's files, numbered by kind and atom: slot k starts at the k-th of `jobs` equal segments and keeps
    to it; a slot done with its own takes the last file of the segment with most left."""
    q = SegmentQueue(10, 2)          # segments 0..4 and 5..9
    assert [q.take(0), q.take(0), q.take(1)] == [0, 1, 5]
    assert [q.take(0), q.take(0), q.take(0)] == [2, 3, 4]
    assert q.take(0) == 9            # its own done: the end of slot 1's run
    assert [q.take(1), q.take(1), q.take(1)] == [6, 7, 8]
    assert q.take(1) is None and q.take(0) is None
    uneven = SegmentQueue(3, 4)      # more slots than files: every file once, no slot given one twice
    taken = [uneven.take(slot) for slot in (0, 1, 2, 3, 0, 1)]
    assert sorted(i for i in taken if i is not None) == [0, 1, 2]


def test_in_order_every_file_is_handed_out_once():
    pool = _Scripted()
    files = [f"f{i}.yaml" for i in range(7)]
    got = list(run_with_affinity(files, 3, pool.send, pool.answers, lambda r: [], in_order=True))
    assert sorted(got) == [(i, f"r{i}") for i in range(7)]
    sent = [(slot, i) for what, slot, i in pool.events if what == "sent"]
    assert sent[:3] == [(0, 0), (1, 2), (2, 4)]       # the segments' starts (7 files: 0-1, 2-3, 4-6)


def test_a_failing_worker_is_raised():
    pool = _Scripted(fail_on=1)
    with pytest.raises(WorkerFailed, match="while proving file 1"):
        list(run_with_affinity(["a.yaml", "b.yaml", "c.yaml"], 2, pool.send, pool.answers, lambda r: []))


def test_a_fifo_or_a_directory_gives_no_hint_and_never_blocks(tmp_path):
    """Read in a child process: a hint that blocked on the FIFO would hang the test, not fail it."""
    os.mkfifo(tmp_path / "pipe.yaml")
    (tmp_path / "dir.yaml").mkdir()
    probe = ("import sys\nfrom verifier.engine.schedule import include_hint\n"
             "print(include_hint(sys.argv[1]), include_hint(sys.argv[2]))")
    p = subprocess.run([sys.executable, "-c", probe, str(tmp_path / "pipe.yaml"), str(tmp_path / "dir.yaml")],
                       capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert p.stdout.strip() == "[] []", p.stderr


def test_jobs_2_over_a_folder_with_a_fifo_is_bad_input_not_a_hang(tmp_path):
    d = tmp_path / "specs"
    d.mkdir()
    for i in range(4):
        (d / f"s{i}.yaml").write_text((ROOT / "specs/atoms/sm75.yaml").read_text())
    os.mkfifo(d / "pipe.yaml")
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", str(d), "--jobs", "2", "--no-cache"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "pipe.yaml' is not a regular file" in p.stderr, p.stderr


def test_thousands_of_files_naming_one_library_are_handed_out_once(tmp_path):
    """Each choice looks at a bounded number of files: 3,000 files that all include one library (every file
    sharing a path with every other) are handed out without scoring each against all the others."""
    (tmp_path / "lib.yaml").write_text("#" * 5000)
    files = []
    for i in range(3000):
        f = tmp_path / f"f{i}.yaml"
        f.write_text(f"include: [lib.yaml]\n# {i}\n")
        files.append(str(f))
    q = AffinityQueue(files)
    taken = [q.take(i % 2) for i in range(3000)]
    assert sorted(taken) == list(range(3000)) and q.take(0) is None


def test_control_characters_are_no_path_and_never_crash_the_queue(tmp_path):
    f = tmp_path / "nul.yaml"
    f.write_text('include: [a\x00b.yaml, "c\x01d.yaml", ok.yaml]\n')
    hint = include_hint(str(f))
    assert _real(tmp_path / "ok.yaml")[0] in hint and not any(ch in p for p in hint for ch in "\x00\x01")
    q = AffinityQueue([str(f)])
    assert q.take(0) == 0
    q.loaded(1, [str(tmp_path / "x\x00y.yaml")])      # a worker never reports such a path; the queue survives it
    assert q.take(1) is None


def test_the_hint_names_a_bounded_number_of_includes(tmp_path):
    f = tmp_path / "many.yaml"
    f.write_text("include: [" + ", ".join(f"x{i}.yaml" for i in range(5000)) + "]\n")
    assert len(include_hint(str(f))) == 64


def test_jobs_2_over_a_spec_including_a_nul_path_is_bad_input(tmp_path):
    d = tmp_path / "specs"
    d.mkdir()
    for i in range(4):
        (d / f"s{i}.yaml").write_text((ROOT / "specs/atoms/sm75.yaml").read_text())
    (d / "nul.yaml").write_bytes(b"version: 2\nname: n\ninclude: [a\x00b.yaml]\n")     # a NUL byte in the text
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", str(d), "--jobs", "2", "--no-cache"],
                       capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert p.returncode == 2 and "Traceback" not in p.stderr and len(p.stderr.splitlines()) == 1, p.stderr
