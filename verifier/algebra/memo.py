"""Remembering CuTe's layout functions: they are pure, and one run asks the same ones many times.

Proving the seed spec calls coalesce ~2,350 times on ~130 distinct layouts and logical_divide ~1,660 times on
~210 (every check of a spec rebuilds the partitions of the atoms it shares with the others).  `remembered`
keeps a function's results per process, keyed by its arguments.

The key must tell apart what Python's equality does not: a run-time integer (`Dyn(4)`) equals the static 4 and
hashes like it, but CuTe's algorithms branch on the difference (coalescing, compact orders).  A key therefore
marks every run-time integer, and an argument of any other kind (a swizzle, a composed layout, a bool) is not
keyed at all: the call is simply made.  Failures (CuTe's refusals) are not remembered; they are raised again.
Results are shared between callers; a Layout is never changed after it is built.
"""
from __future__ import annotations

from functools import wraps
from typing import Any, Callable, Hashable, ParamSpec, TypeVar

from .inttuple import Dyn, Underscore
from .layout import Layout

P = ParamSpec("P")
R = TypeVar("R")

MEMO_SIZE = 1 << 14             # results kept per function; the table starts over when it is full


class _Mark:
    """A tag inside a key (never equal to a number or a tuple of numbers)."""

    __slots__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


_DYN, _LAYOUT, _UNDERSCORE, _NONE = _Mark("dyn"), _Mark("layout"), _Mark("_"), _Mark("none")


class _Unkeyable(Exception):
    pass


def _key(x: object) -> Hashable:
    """A hashable key equal for two arguments exactly when CuTe's functions cannot tell them apart.  Dispatched on
    the exact type: an `int` key is neither a Dyn nor a bool."""
    if type(x) is int:
        return x
    if type(x) is tuple:
        return tuple([_key(e) for e in x])
    if type(x) is Layout:
        if x.memo_key is None:    # a Layout never changes: its key is made once
            x.memo_key = (_LAYOUT, _key(x.shape), _key(x.stride))
        return x.memo_key
    if type(x) is Dyn:
        return (_DYN, int(x))
    if x is None:
        return _NONE
    if x is Underscore:
        return _UNDERSCORE
    raise _Unkeyable


def exact_key(x: object) -> Hashable:
    """`x` as a key that tells apart what CuTe's functions can (a run-time integer from a static one, in a Layout or a
    tuple of them); a value of another kind keys as itself (its own equality: a swizzled layout's is its text)."""
    if type(x) is tuple:
        return tuple([exact_key(e) for e in x])
    try:
        return _key(x)
    except _Unkeyable:
        return x


_TABLES: list[dict[Hashable, Any]] = []      # every remembered function's table (each holds its own result type)


def remembered(f: Callable[P, R]) -> Callable[P, R]:
    """`f` with its results kept per process (see the module docstring)."""
    table: dict[Hashable, R] = {}
    _TABLES.append(table)

    @wraps(f)
    def g(*args: P.args, **keywords: P.kwargs) -> R:
        if keywords:               # remembered by position only; a call with keywords is simply made
            return f(*args, **keywords)
        try:
            k = _key(args)
        except _Unkeyable:
            return f(*args, **keywords)      # (keywords is empty here and below)
        hit = table.get(k)
        if hit is not None:
            return hit
        out = f(*args, **keywords)
        if len(table) >= MEMO_SIZE:
            table.clear()
        table[k] = out
        return out
    return g


def forget() -> None:
    """Drop every remembered result (benchmarks that time a fresh process's work call it)."""
    for table in _TABLES:
        table.clear()
