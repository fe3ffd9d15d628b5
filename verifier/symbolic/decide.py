"""Deciding obligations: Z3 on bit-vectors, exhaustive enumeration (with numpy, or for small domains in plain
Python: `enumerate_obligation`), and the cross-check of one by the other.

One procedure per obligation, chosen by its shape (`choose`) and named in every report: exhaustive enumeration
for domains of at most 2**18 points (faster than Z3 there: benchmarks/procedures.py), for division or modulo by
a non-power of two up to 2**26 points (Z3 bit-blasts those: minutes where numpy takes milliseconds), and for
injectivity claims (one value per point, not one per pair); Z3 bit-vectors otherwise.  Enumeration that covers
the domain is a proof too.  Z3's counterexample is re-checked on Python integers; one that does not fail is an
internal error (an encoding bug), never a verdict.  When Z3 gives up and the domain is small enough,
enumeration decides instead.  With `cross_check`, every obligation is decided a second time by the other
procedure where it applies; a disagreement is an internal error.  Identical obligations are decided once per process.
"""
from __future__ import annotations

import collections
import contextlib
import dataclasses
import itertools
import sys
import time
from dataclasses import dataclass
from typing import Any, Hashable, Iterator, Sequence

from ..outcome import Status
from . import loops
from .expr import compile_numpy, evaluate, texts_of, variables
from .obligation import Obligation
from .procedure import DEFAULT_SETTINGS, ENUMERATION_LIMIT, CrossCheck, Procedure, Settings

SMALL_DOMAIN = 1 << 18          # points; smaller domains are enumerated rather than handed to a solver (one chunk)
NON_POWER_OF_TWO_LIMIT = 1 << 26   # points; div / mod by a non-power of two are enumerated up to this size
NUMPY_SAFE_WIDTH = 62           # int64 holds every sub-term of an obligation at most this wide
CHUNK = 1 << 18                 # points evaluated per numpy call (bounds memory)
MEMO_SIZE = 4096                # decisions remembered per process
# Until numpy is imported (its import costs about as much as Z3's), domains of at most PYTHON_POINTS points are
# enumerated by a loop nest in plain Python (`loops`), until the process has enumerated PYTHON_BUDGET points that
# way (an obligation counting PYTHON_NEST_POINTS more, for building its nest); then numpy enumerates everything.
# `benchmarks/procedures.py` on the catalog: plain Python takes 0.7-1.6x numpy's time up to 2^9 points, 2-3x at
# 2^10-2^12, 5-9x at 2^13-2^16 (~0.3 us a point); numpy's import is not in those times.  A run of a few specs
# (the seed: 145,444 points in 118 obligations) never imports numpy; a catalog pays at most ~0.2 s more than
# numpy alone would.  The rule counts points, not seconds: which evaluator runs is the same on every machine
# (both give the same Enumeration: tests/test_loops.py).
PYTHON_POINTS = 1 << 14
PYTHON_BUDGET = 1 << 19
PYTHON_NEST_POINTS = 1 << 9


@dataclass
class Decision:
    status: Status                 # PROVED | REFUTED | UNDECIDED | ERROR
    procedure: Procedure
    seconds: float = 0.0
    width: int = 0
    witness: dict[str, int] | None = None   # a failing point, re-checked on integers
    reason: str = ""
    cross_check: CrossCheck | None = None


@dataclass
class Enumeration:
    """The failing points of an obligation over its whole domain."""
    first: dict[str, int] | None   # a failing point: the smallest (lexicographic in the variables' order) if `smallest`
    failing: int                   # failing points, counted over `count_over` (pairs, for an injectivity claim)
    seconds: float
    smallest: bool = True


# --- exhaustive enumeration ---------------------------------------------------------------------------

def enumerable(ob: Obligation, limit: int = ENUMERATION_LIMIT) -> str:
    """'' when enumeration covers the obligation exactly, else why not."""
    size = ob.distinct.size() if ob.distinct is not None else ob.domain_size()
    if size > limit:
        return f"domain of {size} points exceeds the enumeration limit of {limit}"
    if ob.width() > NUMPY_SAFE_WIDTH:
        return f"values need {ob.width()} bits, more than numpy's int64 holds exactly"
    return ""


def has_non_power_of_two_division(ob: Obligation) -> bool:
    from .expr import Op, postorder
    return any(n.op in (Op.FLOORDIV, Op.MOD) and n.k & (n.k - 1) for n in postorder([ob.claim, ob.premise]))


def choose(ob: Obligation, settings: Settings = DEFAULT_SETTINGS) -> Procedure:
    """The procedure that decides `ob` (see the module docstring); a forced one where it applies."""
    if settings.procedure is Procedure.Z3:
        return Procedure.Z3
    if settings.procedure is Procedure.ENUMERATION:
        return Procedure.ENUMERATION if not enumerable(ob, NON_POWER_OF_TWO_LIMIT) else Procedure.Z3
    if ob.distinct is not None and not enumerable(ob, NON_POWER_OF_TWO_LIMIT):
        return Procedure.ENUMERATION
    if not enumerable(ob, SMALL_DOMAIN):
        return Procedure.ENUMERATION
    if has_non_power_of_two_division(ob) and not enumerable(ob, NON_POWER_OF_TWO_LIMIT):
        return Procedure.ENUMERATION
    return Procedure.Z3


def enumerate_obligation(ob: Obligation) -> Enumeration:
    """Exhaustive enumeration of `ob`: once per point of an injectivity claim's `over` variables, else per point.
    Small domains are evaluated by a loop nest in plain Python (`loops`) while numpy is not imported and the
    process's budget lasts (PYTHON_POINTS, PYTHON_BUDGET), the others with numpy; both visit the domain in the
    same order and give the same Enumeration."""
    global _python_points
    order = ob.distinct.over if ob.distinct is not None else ob.variables
    size = ob.distinct.size() if ob.distinct is not None else ob.domain_size()
    cost = size + PYTHON_NEST_POINTS
    if (size <= PYTHON_POINTS and len(order) <= loops.MAX_DEPTH and _python_points + cost <= PYTHON_BUDGET
            and not numpy_imported()):
        _python_points += cost
        return distinct_in_python(ob) if ob.distinct is not None else failures_in_python(ob)
    return distinct_with_numpy(ob) if ob.distinct is not None else failures_with_numpy(ob)


_python_points = 0   # enumerated in plain Python by this process (with PYTHON_NEST_POINTS per obligation)


def numpy_imported() -> bool:
    """Whether this process has paid for numpy's import already (then numpy enumerates everything)."""
    return "numpy" in sys.modules


def _unravel(index: int, shape: Sequence[int]) -> tuple[int, ...]:
    """The coordinates of a flat C-order index."""
    out = []
    for k in reversed(shape):
        index, r = divmod(index, k)
        out.append(r)
    return tuple(reversed(out))


def failures_in_python(ob: Obligation) -> Enumeration:
    t0 = time.perf_counter()
    order = ob.variables
    failing = loops.failing_points(ob.premise, ob.claim, order)
    if not failing:
        return Enumeration(None, 0, time.perf_counter() - t0)
    counted = [i for i, v in enumerate(order) if v in ob.counted()]
    count = len({tuple(p[i] for i in counted) for p in failing}) if counted else 1
    return Enumeration({v.name: c for v, c in zip(order, failing[0])}, count, time.perf_counter() - t0)


def distinct_in_python(ob: Obligation) -> Enumeration:
    t0 = time.perf_counter()
    d = ob.distinct
    assert d is not None
    values = loops.values(d.value, d.over)
    if min(values) < d.value.lo or max(values) > d.value.hi:
        raise ValueError(f"obligation '{ob.title}': a value lies outside its computed bounds")
    if len(set(values)) == len(values):
        return Enumeration(None, 0, time.perf_counter() - t0)
    counts = collections.Counter(values)
    pairs = sum(c * (c - 1) // 2 for c in counts.values())
    repeated = min(v for v, c in counts.items() if c > 1)
    i = values.index(repeated)
    shape = [v.size for v in d.over]
    first = _repeat_witness(ob, _unravel(i, shape), _unravel(values.index(repeated, i + 1), shape))
    return Enumeration(first, pairs, time.perf_counter() - t0, smallest=False)


def _repeat_witness(ob: Obligation, a: tuple[int, ...], b: tuple[int, ...]) -> dict[str, int]:
    """The failing point of an injectivity claim whose `over` variables take the values `a` and `b` (two points
    with the same value): the pair in the order the claim's premise accepts."""
    d = ob.distinct
    assert d is not None
    for p, q in ((a, b), (b, a)):
        point = {v.name: c for v, c in zip(d.over, p)} | {v.name: c for v, c in zip(d.second, q)}
        point |= {v.name: 0 for v in ob.variables if v.name not in point}
        if fails_at(ob, point):
            return point
    raise ValueError(f"obligation '{ob.title}': a repeated value was found but no ordering of the pair fails "
                     "the claim (its Distinct form does not match its claim)")


@dataclass(frozen=True)
class _Block:
    """A run of the domain, contiguous in C order: the outer variables fixed, one variable in [lo, hi), the
    inner ones whole.  `coords` are broadcastable open grids, so a sub-term of some variables only is computed
    at the size of those variables, not at the size of the block."""
    outer: tuple[int, ...]
    lo: int
    hi: int
    shape: tuple[int, ...]          # the block's own shape: (hi - lo,) + the inner variables' sizes
    start: int                      # flat C-order index of the block's first point in the whole domain
    coords: tuple[Any, ...]         # one value or open grid per variable, in the domain's order

    @property
    def size(self) -> int:
        n = 1
        for k in self.shape:
            n *= k
        return n

    def points(self, idx: Any) -> list[Any]:
        """The coordinates (one array per variable) of the block's flat indices `idx`."""
        from ..numeric import load_numpy
        load_numpy()
        import numpy as np
        local = np.unravel_index(idx, self.shape)
        return [np.full(len(idx), v, dtype=np.int64) for v in self.outer] + [local[0] + self.lo] + list(local[1:])


def _blocks(shape: tuple[int, ...], chunk: int | None = None) -> Iterator[_Block]:
    """Cover a domain of `shape` in C order by blocks of at most `chunk` (default CHUNK) points, and at least
    half of it but for the last block of a run."""
    from ..numeric import load_numpy
    load_numpy()
    import numpy as np
    chunk = CHUNK if chunk is None else chunk
    n = len(shape)
    split, inner = n, 1
    while split > 0 and inner * shape[split - 1] <= chunk:
        split -= 1
        inner *= shape[split]
    if split == 0:     # the whole domain is one block
        grids = tuple(np.arange(k, dtype=np.int64).reshape((1,) * i + (k,) + (1,) * (n - 1 - i))
                      for i, k in enumerate(shape))
        yield _Block((), 0, shape[0] if shape else 1, shape if shape else (1,), 0, grids)
        return
    ranged = split - 1
    step = max(1, chunk // inner)
    tail = shape[split:]
    inner_grids = tuple(np.arange(k, dtype=np.int64).reshape((1,) * (i + 1) + (k,) + (1,) * (len(tail) - 1 - i))
                        for i, k in enumerate(tail))
    for outer in itertools.product(*(range(k) for k in shape[:ranged])):
        base = 0
        for v, k in zip(outer, shape[:ranged]):
            base = base * k + v
        for lo in range(0, shape[ranged], step):
            hi = min(shape[ranged], lo + step)
            ranged_grid = np.arange(lo, hi, dtype=np.int64).reshape((hi - lo,) + (1,) * len(tail))
            coords = tuple(np.int64(v) for v in outer) + (ranged_grid,) + inner_grids
            yield _Block(outer, lo, hi, (hi - lo,) + tail, (base * shape[ranged] + lo) * inner, coords)


# An injectivity claim over this many points or fewer, whose values span at most INJECTIVE_BITMAP_SPAN times
# as many integers, is decided with a bitmap of the value range (one scattered write per point) rather than
# by sorting every value; a repeat found that way is then located by sorting.
INJECTIVE_BITMAP_SPAN = 8


def distinct_with_numpy(ob: Obligation) -> Enumeration:
    """Evaluate the injective expression once per point; a repeated value is a failing pair."""
    from ..numeric import load_numpy
    load_numpy()
    import numpy as np
    t0 = time.perf_counter()
    d = ob.distinct
    assert d is not None
    shape = tuple(v.size for v in d.over)
    total = d.size()
    fn = compile_numpy([d.value], list(d.over))
    span = d.value.hi - d.value.lo + 1
    if span <= INJECTIVE_BITMAP_SPAN * total:
        mark = np.zeros(span, dtype=bool)
        for b in _blocks(shape):
            values = np.broadcast_to(np.asarray(fn(*b.coords)[0]), b.shape).ravel()
            if values.min() < d.value.lo or values.max() > d.value.hi:   # never index by a wrapped-around offset
                raise ValueError(f"obligation '{ob.title}': a value lies outside its computed bounds")
            mark[values - d.value.lo] = True
        if int(np.count_nonzero(mark)) == total:
            return Enumeration(None, 0, time.perf_counter() - t0)
    values = np.empty(total, dtype=np.int64)
    for b in _blocks(shape):
        values[b.start:b.start + b.size] = np.broadcast_to(np.asarray(fn(*b.coords)[0]), b.shape).ravel()
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    repeats = np.flatnonzero(ordered[1:] == ordered[:-1])
    if not len(repeats):
        return Enumeration(None, 0, time.perf_counter() - t0)
    _, counts = np.unique(values, return_counts=True)
    repeated = counts[counts > 1].astype(np.int64)
    pairs = int(np.sum(repeated * (repeated - 1) // 2))
    i = int(repeats[0])
    a, b2 = (tuple(int(x) for x in np.unravel_index(int(order[j]), shape)) for j in (i, i + 1))
    first = _repeat_witness(ob, a, b2)
    return Enumeration(first, pairs, time.perf_counter() - t0, smallest=False)


def failures_with_numpy(ob: Obligation) -> Enumeration:
    """Evaluate premise and claim on every point of the domain, block by block (`_blocks`), in C order of the
    variables: the first failing point found is the lexicographically smallest."""
    from ..numeric import load_numpy
    load_numpy()
    import numpy as np
    t0 = time.perf_counter()
    order = ob.variables
    shape = tuple(v.size for v in order)
    fn = compile_numpy([ob.premise, ob.claim], order)
    counted = [i for i, v in enumerate(order) if v in ob.counted()]
    counted_shape = tuple(shape[i] for i in counted)
    seen = np.zeros(int(np.prod(counted_shape, dtype=np.int64)) if counted else 1, dtype=bool)
    first: dict[str, int] | None = None
    for b in _blocks(shape):
        pre, ok = fn(*b.coords)
        bad = np.broadcast_to(np.logical_and(pre, np.logical_not(ok)), b.shape)
        idx = np.flatnonzero(bad)
        if not len(idx):
            continue
        coords = b.points(idx)
        if first is None:
            first = {v.name: int(c[0]) for v, c in zip(order, coords)}
        if counted:
            seen[np.ravel_multi_index(tuple(coords[i] for i in counted), counted_shape)] = True
        else:
            seen[0] = True
    return Enumeration(first, int(np.count_nonzero(seen)) if first is not None else 0, time.perf_counter() - t0)


def _status_of(e: Enumeration) -> Status:
    return Status.PROVED if e.first is None else Status.REFUTED


# --- Z3 ----------------------------------------------------------------------------------------------

# Every obligation gets a fresh solver, in a Z3 context of its own shared by this many obligations: deciding the
# catalog's Z3 obligations that way took 0.79x the time of fresh solvers in Z3's main context (push/pop on one
# solver 0.74x, but a solver's parser keeps every name `from_string` declared across pops: each script would need
# names of its own).  `python benchmarks/z3_reuse.py`.
CONTEXT_OBLIGATIONS = 200
_context: Any = None
_context_uses = 0


def _z3_context() -> Any:
    """The Z3 context for the next obligation (a new one every CONTEXT_OBLIGATIONS obligations)."""
    import z3
    global _context, _context_uses
    if _context is None or _context_uses >= CONTEXT_OBLIGATIONS:
        _context, _context_uses = z3.Context(), 0
    _context_uses += 1
    return _context


def _z3(ob: Obligation, timeout_s: float) -> tuple[Status, dict[str, int] | None, str, float]:
    import z3  # deferred: keeps `python -m verifier layout` free of the solver's start-up

    from .backends import SMT2
    t0 = time.perf_counter()
    text = SMT2(ob.width()).script(ob.variables, ob.premise, ob.claim)
    ctx = _z3_context()
    solver = z3.SolverFor("QF_BV", ctx=ctx)
    solver.set("timeout", max(1, int(round(timeout_s * 1000))))
    solver.from_string(text)
    res = solver.check()
    secs = time.perf_counter() - t0
    if res == z3.unsat:
        return Status.PROVED, None, "", secs
    if res == z3.unknown:
        return Status.UNDECIDED, None, f"Z3: {solver.reason_unknown()}", secs
    model = solver.model()       # only the domain's variables are read (not every define-fun of the script)
    width = ob.width()
    point = {v.name: model.eval(z3.BitVec(v.name, width, ctx), model_completion=True).as_long()
             for v in ob.variables}
    return Status.REFUTED, point, "", secs


WITNESS_BUDGET_S = 20.0   # the whole search for a smallest counterexample, however many queries it takes


def smallest_failure(ob: Obligation, point: dict[str, int], timeout_s: float,
                     budget_s: float = WITNESS_BUDGET_S) -> tuple[dict[str, int], bool]:
    """The lexicographically smallest failing point (in the variables' order), found by asking Z3 for one below
    the best so far, variable by variable (binary search).  Returns (point, True) when it is the smallest, or
    the best found and False when a query ran out of time (`timeout_s` each, `budget_s` in all).  `point` must
    fail."""
    import z3

    from .backends import SMT2
    width = ob.width()
    ctx = _z3_context()
    solver = z3.SolverFor("QF_BV", ctx=ctx)
    solver.from_string(SMT2(width).script(ob.variables, ob.premise, ob.claim))
    best = dict(point)
    deadline = time.perf_counter() + budget_s
    for v in ob.variables:
        x = z3.BitVec(v.name, width, ctx)
        lo, hi = 0, best[v.name]
        while lo < hi:
            mid = (lo + hi) // 2
            left = min(timeout_s, deadline - time.perf_counter())
            if left <= 0:
                return best, False
            solver.set("timeout", max(1, int(round(left * 1000))))
            res = solver.check(z3.ULE(x, mid))
            if res == z3.sat:
                model = solver.model()
                found = {u.name: model.eval(z3.BitVec(u.name, width, ctx), model_completion=True).as_long()
                         for u in ob.variables}
                if not fails_at(ob, found):   # never report a point that does not fail exactly
                    return best, False
                best, hi = found, found[v.name]
            elif res == z3.unsat:
                lo = mid + 1
            else:
                return best, False
        solver.add(x == hi)
    return best, True


def fails_at(ob: Obligation, point: dict[str, int]) -> bool:
    """Exactly, on Python integers: is `point` inside the domain, the premise true and the claim false?"""
    if any(not 0 <= point[v.name] < v.size for v in ob.variables):
        return False
    pre, ok = evaluate([ob.premise, ob.claim], {v.name: point[v.name] for v in ob.variables})
    return bool(pre) and not bool(ok)


# --- the decision -------------------------------------------------------------------------------------

# (variables, premise, claim, distinct, settings) -> the decision: an identical obligation is decided once (the
# least recently used first)
_MEMO: collections.OrderedDict[tuple[Hashable, ...], tuple[Decision, Enumeration | None]] = collections.OrderedDict()
_STORE: Any = None     # a persistent cache (verifier.engine.cache.ProofCache) while `obligation_cache` is active


@dataclass
class Stored:
    """What the persistent cache keeps of a decision: everything a report needs."""
    decision: Decision
    enumeration: Enumeration | None


@contextlib.contextmanager
def obligation_cache(store: Any) -> Iterator[None]:
    """Within the block, decisions are looked up in and kept in `store` (see verifier/engine/cache.py)."""
    global _STORE
    previous, _STORE = _STORE, store
    try:
        yield
    finally:
        _STORE = previous


def canonical_text(ob: Obligation) -> str:
    """The obligation as the solver sees it (its variables, premise and claim), and its injectivity form."""
    from .backends import SMT2
    text = SMT2(ob.width()).script(ob.variables, ob.premise, ob.claim)
    if ob.distinct is not None:
        d = ob.distinct
        text += "\n; distinct " + " ".join(f"{v.name}:{v.size}" for v in d.over + d.second) + " "
        text += texts_of([d.value])[0]
    return text


# The persistent cache keeps only decisions that cost more than reading them back: an obligation is looked up
# there when a solver decides it or its enumeration is large, and kept when deciding it took this long.
STORE_MIN_SECONDS = 0.005
STORE_MIN_POINTS = 1 << 16


def _worth_storing(ob: Obligation, settings: Settings) -> bool:
    if choose(ob, settings) is Procedure.Z3 or settings.cross_check:
        return True
    return (ob.distinct.size() if ob.distinct is not None else ob.domain_size()) > STORE_MIN_POINTS


_GENERATION = [0]      # how many times the remembered decisions were dropped (`forget`)


def forget() -> None:
    """Drop the decisions remembered in this process (tests that replace the solver call it)."""
    _MEMO.clear()
    _GENERATION[0] += 1


def generation() -> int:
    """Changes whenever `forget` drops the remembered decisions: what is remembered from decisions made before
    (a group's shared results, engine/runner.py) keys on it."""
    return _GENERATION[0]


def decide(ob: Obligation, settings: Settings = DEFAULT_SETTINGS) -> tuple[Decision, Enumeration | None]:
    """Decide `ob`; also return the enumeration when one was run (a report reuses it for its counts).  An identical
    obligation (same variables, premise and claim) decided before in this process is not decided again."""
    key = (tuple((v.name, v.size) for v in ob.variables), ob.premise, ob.claim, ob.distinct, settings)
    hit = _MEMO.get(key)
    if hit is not None:
        _MEMO.move_to_end(key)
        return dataclasses.replace(hit[0]), hit[1]
    found = _by_strides(ob, settings)          # (before the store: reading the strides costs less than a lookup)
    if found is not None:
        _remember(key, found)
        return found
    store, stored_key = (_STORE if _worth_storing(ob, settings) else None), ""
    if store is not None:
        stored_key = store.key("obligation", repr(settings), canonical_text(ob))
        kept = store.get(stored_key, Stored)
        if kept is not None:
            found = (kept.decision, kept.enumeration)
            _remember(key, found)
            return found
    found = _decide(ob, settings)
    if (store is not None and found[0].status in (Status.PROVED, Status.REFUTED)
            and found[0].seconds >= STORE_MIN_SECONDS):
        store.put(stored_key, Stored(found[0], found[1]))
    _remember(key, found)
    return found


def _remember(key: tuple[Hashable, ...], found: tuple[Decision, Enumeration | None]) -> None:
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.popitem(last=False)
    _MEMO[key] = (dataclasses.replace(found[0]), found[1])


def _by_strides(ob: Obligation, settings: Settings) -> tuple[Decision, Enumeration | None] | None:
    """The injectivity of a layout proved from its strides (symbolic/strides.py), when the obligation is one
    (`Distinct.layout_of`), no procedure is forced and the strides show it; with `cross_check`, enumerated too."""
    if ob.distinct is None or ob.distinct.layout is None or settings.procedure is not None:
        return None
    from .strides import injective_by_strides
    t0 = time.perf_counter()
    layout = ob.distinct.layout_of()
    proof = injective_by_strides(layout) if layout is not None else None
    if proof is None:
        return None
    decision = Decision(Status.PROVED, Procedure.STRIDES, time.perf_counter() - t0, ob.width(), None, proof)
    if not settings.cross_check:
        return decision, None
    why_not = enumerable(ob, settings.enumeration_limit)
    if why_not:
        decision.cross_check = CrossCheck(Procedure.ENUMERATION, None, 0.0, why_not)
        return decision, None
    counted = enumerate_obligation(ob)
    second = _status_of(counted)
    decision.cross_check = CrossCheck(Procedure.ENUMERATION, second, counted.seconds)
    if second is not Status.PROVED:
        decision.status = Status.ERROR
        decision.reason = (f"cross-check disagreement: the strides prove it, exhaustive enumeration says "
                           f"{second.value}")
    return decision, counted if second is not Status.PROVED else None


def _decide(ob: Obligation, settings: Settings) -> tuple[Decision, Enumeration | None]:
    width = ob.width()
    if choose(ob, settings) is Procedure.ENUMERATION:
        counted = enumerate_obligation(ob)
        first = _status_of(counted)
        decision = Decision(first, Procedure.ENUMERATION, counted.seconds, width, counted.first)
        if settings.cross_check:
            second, point, reason, secs = _z3(ob, settings.timeout_s)
            decision.cross_check = CrossCheck(Procedure.Z3, second, secs, reason)
            if second is Status.REFUTED and not fails_at(ob, point or {}):
                decision.status = Status.ERROR
                decision.reason = f"Z3's counterexample {point} does not fail when evaluated exactly (encoding error)"
            elif second in (Status.PROVED, Status.REFUTED) and second is not first:
                decision.status = Status.ERROR
                decision.reason = (f"cross-check disagreement: exhaustive enumeration says {first.value}, Z3 says "
                                   f"{second.value}")
        return decision, counted
    status, point, reason, secs = _z3(ob, settings.timeout_s)
    decision = Decision(status, Procedure.Z3, secs, width, point, reason)
    if status is Status.REFUTED and not fails_at(ob, point or {}):
        decision.status = Status.ERROR
        decision.reason = f"Z3's counterexample {point} does not fail when evaluated exactly (an encoding error)"
        return decision, None
    why_not = enumerable(ob, settings.enumeration_limit)
    enumeration: Enumeration | None = None
    if status is Status.UNDECIDED and not why_not:
        enumeration = enumerate_obligation(ob)
        decision = Decision(_status_of(enumeration), Procedure.ENUMERATION, secs + enumeration.seconds, width,
                            enumeration.first, f"{reason}; decided by exhaustive enumeration of "
                                               f"{ob.domain_size()} points")
        decision.cross_check = CrossCheck(Procedure.Z3, Status.UNDECIDED, secs, reason)
        return decision, enumeration
    if settings.cross_check and status in (Status.PROVED, Status.REFUTED):
        if why_not:
            decision.cross_check = CrossCheck(Procedure.ENUMERATION, None, 0.0, why_not)
        else:
            enumeration = enumerate_obligation(ob)
            second = _status_of(enumeration)
            decision.cross_check = CrossCheck(Procedure.ENUMERATION, second, enumeration.seconds)
            if second is not status:
                decision.status = Status.ERROR
                where = f" (fails at {enumeration.first})" if enumeration.first else ""
                decision.reason = (f"cross-check disagreement: Z3 says {status.value}, exhaustive enumeration says "
                                   f"{second.value}{where}")
    return decision, enumeration


def evaluate_at(ob: Obligation, point: dict[str, int]) -> dict[str, int]:
    """The shown expressions (and lhs / rhs) at a point of the domain, exactly."""
    exprs = list(ob.shown.items())
    if ob.lhs is not None:
        exprs.append(("lhs", ob.lhs))
    if ob.rhs is not None:
        exprs.append(("rhs", ob.rhs))
    if not exprs:
        return {}
    vs = variables(*[e for _, e in exprs])
    if any(v.name not in point for v in vs):
        return {}
    vals = evaluate([e for _, e in exprs], {v.name: point[v.name] for v in vs})
    return {name: int(v) for (name, _), v in zip(exprs, vals)}
