"""Worker processes that the parent feeds by name: `prove --jobs N` chooses which worker proves which spec file
(verifier/engine/schedule.py), so the pool must not choose for it (the standard library's executor hands a task to
whichever worker is free: the schedule could only assume it was the one whose file had just finished).

A worker (a slot) holds one task at a time: the parent sends the next only once it has read the last one's result.
So neither side ever writes while the other is writing too (a task sent while the worker still pushed a result
larger than the pipe's buffer would block both for good).  Timed against the executor in the same interleaved
rounds (benchmarks/speed.py --baseline-rev), the catalog at --jobs 2 took about the same time (the README's Speed
section: a few percent either way, the spread of the rounds).

A worker that raises sends its traceback and ends; one that ends without answering (killed by a signal: the
out-of-memory killer) is seen through its sentinel.  Either way the parent raises WorkerFailed: an internal error
of the tool, never a verdict.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from types import TracebackType
from typing import TYPE_CHECKING, Callable, Generic, Iterator, TypeVar

if TYPE_CHECKING:      # multiprocessing, signal, traceback: imported when a pool starts (not by --jobs 1)
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

T = TypeVar("T")     # a task
R = TypeVar("R")     # its result

JOIN_S = 5.0         # how long closing waits for a worker to end before killing it


class Reply(Enum):
    RESULT = "result"
    FAILED = "failed"


@dataclass(frozen=True)
class Finished(Generic[R]):
    """The result of the task `key` (what the parent called it when it sent it); `slot` is free again."""
    slot: int
    key: int
    result: R


class WorkerFailed(RuntimeError):
    """A worker raised, or its process ended before answering: an internal error of the tool."""


def _serve(conn: Connection, work: Callable[[T], R]) -> None:
    """A worker's life: tasks in, a result out for each, until the parent sends None or goes away."""
    import signal
    import traceback
    signal.signal(signal.SIGINT, signal.SIG_IGN)    # Ctrl-C is the parent's to handle: it ends the workers
    while True:
        try:
            task = conn.recv()
        except EOFError:
            return
        if task is None:
            return
        try:
            conn.send((Reply.RESULT, work(task)))
        except Exception:  # noqa: BLE001 - sent to the parent, which raises it as an internal error
            conn.send((Reply.FAILED, traceback.format_exc()))
            return


class DirectedPool(Generic[T, R]):
    """`size` worker processes; `send(slot, key, task)` gives a task to a free one, `answers()` yields the results
    as they arrive, until none is owed.  Use as a context manager: leaving it ends the workers (killed, when leaving
    by an exception)."""

    def __init__(self, size: int, work: Callable[[T], R], label: Callable[[T], str] = str) -> None:
        # the platform's way of starting processes: forked on Linux (a worker inherits what the parent imported),
        # spawned elsewhere (`work` is then found by name: a module-level function)
        import multiprocessing
        context = multiprocessing.get_context()
        self._label = label
        self._conns: list[Connection] = []
        self._procs: list[BaseProcess] = []
        self._owed: list[tuple[int, str] | None] = []    # per slot: (key, label) of the task it holds
        try:
            for _ in range(size):
                ours, theirs = context.Pipe()
                proc = context.Process(target=_serve, args=(theirs, work), daemon=True)
                proc.start()
                theirs.close()
                self._conns.append(ours)
                self._procs.append(proc)
                self._owed.append(None)
        except BaseException:
            self._end(kill=True)
            raise

    @property
    def size(self) -> int:
        return len(self._procs)

    def send(self, slot: int, key: int, task: T) -> None:
        if self._owed[slot] is not None:
            raise ValueError(f"worker {slot} still holds task {self._owed[slot]}: one task at a time")
        self._owed[slot] = (key, self._label(task))
        try:
            self._conns[slot].send(task)
        except (BrokenPipeError, ConnectionResetError):
            raise WorkerFailed(self._ended(slot)) from None

    def answers(self) -> Iterator[Finished[R]]:
        """The results, as they arrive; a task sent meanwhile (to a slot whose result came) is waited for too."""
        from multiprocessing.connection import wait
        while any(o is not None for o in self._owed):
            owing = [s for s in range(self.size) if self._owed[s] is not None]
            by_conn = {id(self._conns[s]): s for s in owing}
            ready = wait([self._conns[s] for s in owing] + [self._procs[s].sentinel for s in owing])
            for s in [by_conn[id(r)] for r in ready if id(r) in by_conn]:
                try:
                    reply, payload = self._conns[s].recv()   # (Reply, Any): what _serve sends
                except (EOFError, ConnectionResetError):
                    raise WorkerFailed(self._ended(s)) from None
                key, label = self._owed[s] or (-1, "")
                if reply is Reply.FAILED:
                    raise WorkerFailed(f"a worker raised while proving {label}:\n{payload}")
                self._owed[s] = None
                yield Finished(s, key, payload)
            for s in owing:    # a worker that ended owing an answer, with nothing left to read from it
                if self._owed[s] is not None and not self._procs[s].is_alive() and not self._conns[s].poll():
                    raise WorkerFailed(self._ended(s))

    def _ended(self, slot: int) -> str:
        import signal
        proc = self._procs[slot]
        proc.join(JOIN_S)
        code = proc.exitcode
        if code is not None and code < 0:
            try:
                how = f"was killed by signal {-code} ({signal.Signals(-code).name})"
            except ValueError:
                how = f"was killed by signal {-code}"
            if -code == getattr(signal, "SIGKILL", None):
                how += ", as the out-of-memory killer does,"
        else:
            how = f"ended (exit code {code})"
        owed = self._owed[slot]
        what = owed[1] if owed is not None else "its last task"
        return f"a worker process {how} while proving {what}"

    def _end(self, kill: bool) -> None:
        for conn, proc in zip(self._conns, self._procs):
            if not kill:
                try:
                    conn.send(None)
                except OSError:
                    pass            # it is gone already: joined below
            else:
                proc.kill()
        for conn, proc in zip(self._conns, self._procs):
            proc.join(JOIN_S)
            if proc.is_alive():
                proc.kill()
                proc.join()
            conn.close()

    def __enter__(self) -> DirectedPool[T, R]:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._end(kill=kind is not None)
