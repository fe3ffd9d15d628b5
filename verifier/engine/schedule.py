"""Which spec file `prove --jobs N` hands to which worker: each worker keeps to the files that share atom libraries.

A worker remembers what it parsed and decided (the includes it loaded, the layouts, expressions and obligations of
the atoms it proved); a file whose includes another worker already loaded costs this one their parsing and their
atom theorems again.  Handing files out largest first, to whichever worker is free, spread the catalog's atom
libraries over both workers: each worker's share, proved alone, came to 22% more than one process proving
everything, and to 6.6% with this schedule (benchmarks/jobs_split.py, the same rounds).

So each worker is a slot with the set of files it has loaded (a file's own path and its includes).  A free slot
takes the remaining file whose includes weigh most (in bytes) in its own set less those in the other slots' sets;
of equals, the largest (large files first, so that the small ones even out the end).  A file's includes are
known exactly once a worker has loaded it (its closure); before, from a reading of its `include:` lines that is
only a hint: a wrong hint changes which worker proves a file, never a result.
"""
from __future__ import annotations

import os
import re
import stat
from itertools import islice
from typing import Callable, Iterable, Iterator, TypeVar

from .workers import Finished

R = TypeVar("R")

HINT_BYTES = 1 << 16          # the `include:` hint reads at most this much of a file (it is near the top)
HINT_PATHS = 64               # ... and names at most this many includes of it
CANDIDATES = 64               # files a choice looks at: the largest left, and as many naming each path of the
                              # slot's last file
_INCLUDE_LINE = re.compile(r"^include[ \t]*:(.*)$")
_PATH = re.compile(r"[^\s\x00-\x1f\x7f\"'\[\],#{}]+\.ya?ml")   # no control character: a NUL is no path


def _canonical(path: str) -> str:
    """The real path of `path`; the path itself when the system cannot take it (a NUL in it)."""
    try:
        return os.path.realpath(path)
    except ValueError:
        return path


def include_hint(path: str) -> list[str]:
    """The real paths of the files `path`'s top-level `include:` seems to name (a hint: read as text, never
    parsed; nothing when the file cannot be read)."""
    try:   # opened without blocking (a FIFO named like a spec), read only when a regular file (the loader refuses
        #      anything else with its own words)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return []
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return []
        text = os.read(fd, HINT_BYTES).decode("utf-8", "replace")
    except OSError:
        return []
    finally:
        os.close(fd)
    lines = text.splitlines()
    found: list[str] = []
    for i, line in enumerate(lines):
        m = _INCLUDE_LINE.match(line)
        if m is None:
            continue
        block = [m.group(1)]
        for more in lines[i + 1:]:    # the value: until the next line that starts another top-level key
            if more and not more[0].isspace() and not more.startswith(("-", "#")):
                break
            block.append(more.split("#", 1)[0])
        folder = os.path.dirname(path)
        named = _PATH.findall("\n".join(block))[:HINT_PATHS]
        found += [_canonical(os.path.join(folder, p)) for p in named]
        break
    return found


class AffinityQueue:
    """The files left to hand out, and which slot (a worker) has loaded which file.  Each choice looks at a bounded
    number of files (the largest left, and the largest left among those naming a path of the slot's last file), so
    that a run of thousands of files that all include one library is not quadratic."""

    def __init__(self, files: list[str]) -> None:
        self._size: dict[str, int] = {}
        self._own = [_canonical(f) for f in files]                               # by index: the file's real path
        self.paths = [{own, *include_hint(f)} for own, f in zip(self._own, files)]   # ... with its includes
        by_size = sorted(range(len(files)), key=lambda i: -self._bytes(self._own[i]))
        self._left = dict.fromkeys(by_size)                   # the files not handed out, largest first
        self._naming: dict[str, dict[int, None]] = {}         # path -> the files left naming it, largest first
        for i in by_size:
            for p in self.paths[i]:
                self._naming.setdefault(p, {})[i] = None
        self._holders: dict[str, set[int]] = {}               # path -> the slots that loaded it
        self._last: dict[int, set[str]] = {}                  # slot -> the paths of the file it took last

    def _bytes(self, path: str) -> int:
        if path not in self._size:
            try:
                self._size[path] = os.path.getsize(path)
            except (OSError, ValueError):    # ValueError: a name the system cannot take (a NUL in it)
                self._size[path] = 0
        return self._size[path]

    def loaded(self, slot: int, paths: Iterable[str]) -> None:
        """A worker of `slot` has loaded `paths` (the closure of the file it proved)."""
        for p in map(_canonical, paths):
            self._holders.setdefault(p, set()).add(slot)
            self._last.setdefault(slot, set()).add(p)

    def take(self, slot: int) -> int | None:
        """The index of the file `slot` proves next, or None when none is left."""
        if not self._left:
            return None
        candidates = dict.fromkeys(islice(self._left, CANDIDATES))
        for p in sorted(self._last.get(slot, ())):
            candidates.update(dict.fromkeys(islice(self._naming.get(p, {}), CANDIDATES)))

        def score(i: int) -> tuple[int, int]:
            shared = elsewhere = 0
            for p in self.paths[i]:
                holders = self._holders.get(p, ())
                if slot in holders:
                    shared += self._bytes(p)
                if any(h != slot for h in holders):
                    elsewhere += self._bytes(p)
            return shared - elsewhere, self._bytes(self._own[i])
        best = max(candidates, key=score)
        del self._left[best]
        for p in self.paths[best]:
            del self._naming[p][best]
            self._holders.setdefault(p, set()).add(slot)
        self._last[slot] = set(self.paths[best])
        return best


class SegmentQueue:
    """Files whose order matters (each shares most with its neighbours: the prescreen's operand paths, numbered by
    kind and atom): each slot proves a run of consecutive files, from the start of its own segment of the list
    (`jobs` equal segments); a slot whose segment is done takes the last file of the segment with the most left,
    so that the runs stay whole where they can and no slot waits while files are left."""

    def __init__(self, count: int, jobs: int) -> None:
        bounds = [count * k // jobs for k in range(jobs + 1)]
        self._segments = [list(range(bounds[k + 1] - 1, bounds[k] - 1, -1)) for k in range(jobs)]  # reversed

    def loaded(self, slot: int, paths: Iterable[str]) -> None:
        """(Nothing to remember: the order decides.)"""

    def take(self, slot: int) -> int | None:
        own = self._segments[slot % len(self._segments)]
        if own:
            return own.pop()
        fullest = max(self._segments, key=len)
        return fullest.pop(0) if fullest else None


def run_with_affinity(files: list[str], jobs: int, send: Callable[[int, int], None],
                      answers: Callable[[], Iterator[Finished[R]]], closure_of: Callable[[R], Iterable[str]],
                      in_order: bool = False) -> Iterator[tuple[int, R]]:
    """Prove `files` in `jobs` slots (verifier/engine/workers.py): `send(slot, i)` gives file i to the slot's worker,
    `answers()` yields the results as they come; a slot whose result came takes its next file (by the closure
    the result names; `in_order`: the next of its segment, SegmentQueue) before the result is passed on.  Yields
    (index, result); a worker's failure is raised from `answers()`."""
    queue: AffinityQueue | SegmentQueue = SegmentQueue(len(files), jobs) if in_order else AffinityQueue(files)
    for slot in range(jobs):
        i = queue.take(slot)
        if i is None:
            break
        send(slot, i)
    for answer in answers():
        queue.loaded(answer.slot, closure_of(answer.result))
        following = queue.take(answer.slot)
        if following is not None:
            send(answer.slot, following)
        yield answer.key, answer.result
