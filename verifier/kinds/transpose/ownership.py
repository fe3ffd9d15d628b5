"""Who loads and who stores each byte of B's buffer during the transposition, decided by exhaustive enumeration.

An element of the transposition is (stage, warp tile along N, warp tile along K, lane, value); its owner is the
(stage, math warpgroup, warp, call) that moves it (the schedule of cute/transpose.py).  The transposition is in place:
the byte an element is stored to is, in general, one another element is loaded from.  A store is safe when every load
of its byte happens before it:
- a load by the same owner (its warp's loads of a call precede the __syncwarp, its stores follow it), or by the same
  warp in an earlier call (program order);
- a load in an earlier call of the same stage by another warp, when a barrier separates the calls (the TMA mainloop's
  synchronize(0) of every k-tile; not the cp.async mainloop's first k-tile).
Any other load of a stored byte — another warp's in the same call, a later call, another stage — races with the store
or reads the transposed value, and a store to a byte no element is loaded from overwrites what the transposition does
not own.  Stages never overlap in time with one another's transposition here: a store into another stage's bytes is
a conflict whatever the order.

The relation of loads to stores does not depend on the base address beyond the swizzles' repeat (a swizzle's pattern
shifts with a base that is a multiple of its repeat), so every base below it that the alignment allows is enumerated.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...cute.transpose import STEPS, WARPGROUP_WARPS, Transposition
from ...symbolic.expr import Expr, Var, compile_numpy

if TYPE_CHECKING:
    from .setup import TransposeSetup

CALLS = STEPS                # calls of operator() a k-tile, at most
REPEAT_LIMIT = 1024          # the widest GMMA swizzle's repeat (128B): addresses repeat their pattern beyond it


@dataclass(frozen=True)
class Conflict:
    """One store that is not safe, with the load it conflicts with (None: no element is loaded from its byte)."""
    base: int
    store: dict[str, int]            # the storing element: stage, tile_n, tile_k, lane, value
    store_owner: tuple[int, int, int, int]      # (stage, warpgroup, warp, call)
    byte: int
    load: dict[str, int] | None
    load_owner: tuple[int, int, int, int] | None


@dataclass(frozen=True)
class Ownership:
    """The verdict of the enumeration: the first conflict (in the order of the variables), how many stores are not
    safe, over how many stores (all bases enumerated)."""
    first: Conflict | None
    failing: int
    stores: int
    bases: tuple[int, ...]


def element_vars(setup: TransposeSetup, t: Transposition) -> list[Var]:
    """The variables of one element of the transposition: stage, warp tile (N, K), lane, value."""
    n, k = setup.extent
    return [Var("stage", setup.stages), Var("tile_n", n // t.warp_tile), Var("tile_k", k // t.warp_tile),
            Var("lane", t.lanes), Var("value", t.values)]


def owner_table(t: Transposition) -> dict[tuple[int, int], tuple[int, int, int]]:
    """(warp tile n within its warpgroup tile, k) -> (warpgroup, warp, call) that moves it (its first mover)."""
    out: dict[tuple[int, int], tuple[int, int, int]] = {}
    for wt in t.schedule:
        out.setdefault((wt.n, wt.k), wt.owner)
    return out


def enumerate_ownership(setup: TransposeSetup, t: Transposition,
                        addresses: tuple[Expr, Expr], variables: list[Var]) -> Ownership:
    """`addresses`: (load, store) byte of an element at base `setup.base_var` * align, over `variables`."""
    from ...numeric import load_numpy
    load_numpy()
    import numpy as np
    sizes = [v.size for v in variables]
    grid = np.indices(sizes).reshape(len(sizes), -1).astype(np.int64)      # every element, the last variable fastest
    stage, tile_n, tile_k = grid[0], grid[1], grid[2]
    owners = owner_table(t)
    per = t.warpgroup_tile // t.warp_tile                                 # warp tiles of a warpgroup tile, each way
    code = np.full((per, per), -1, dtype=np.int64)
    for (tn, tk), (g, w, step) in owners.items():
        code[tn, tk] = (g * WARPGROUP_WARPS + w) * CALLS + step
    local_n = tile_n % per
    owner_code = code[local_n, tile_k]                                    # warpgroup, warp, call of each element
    warp_of, call_of = owner_code // CALLS, owner_code % CALLS
    f = compile_numpy(list(addresses), [setup.base_var] + variables)
    repeat = max(REPEAT_LIMIT, setup.align)
    bases = tuple(range(0, repeat, setup.align))
    first: Conflict | None = None
    failing = 0
    for base in bases:
        loads, stores = (np.broadcast_to(np.asarray(x, dtype=np.int64), stage.shape)
                         for x in f(np.int64(base // setup.align), *grid))
        order = np.argsort(loads, kind="stable")
        sorted_loads = loads[order]
        lo = np.searchsorted(sorted_loads, stores, side="left")
        hi = np.searchsorted(sorted_loads, stores, side="right")
        bad = lo == hi                                                    # a byte no element is loaded from
        for j in range(int((hi - lo).max(initial=0))):
            has = lo + j < hi
            q = order[np.minimum(lo + j, len(order) - 1)]
            bad |= has & ~_before(t, (stage[q], warp_of[q], call_of[q]), (stage, warp_of, call_of))
        count = int(bad.sum())
        failing += count
        if count and first is None:
            i = int(np.argmax(bad))
            j_load: int | None = int(order[lo[i]]) if lo[i] < hi[i] else None
            if j_load is not None:          # the conflicting load: the first of the byte's loads that is not safe
                for j in range(int(lo[i]), int(hi[i])):
                    at = int(order[j])
                    if not _before(t, (stage[at], warp_of[at], call_of[at]), (stage[i], warp_of[i], call_of[i])):
                        j_load = at
                        break
            first = Conflict(base, _point(variables, grid, i), _owner(stage, warp_of, call_of, i), int(stores[i]),
                             None if j_load is None else _point(variables, grid, j_load),
                             None if j_load is None else _owner(stage, warp_of, call_of, j_load))
    return Ownership(first, failing, int(stage.size) * len(bases), bases)


def _before(t: Transposition, load: tuple[Any, Any, Any], store: tuple[Any, Any, Any]) -> Any:
    """Whether a load (stage, warp, call) happens before a store of the same byte (elementwise on arrays): the same
    stage and either the same warp in the same or an earlier call, or an earlier call a barrier separates."""
    (stage_l, warp_l, call_l), (stage_s, warp_s, call_s) = load, store
    return (stage_l == stage_s) & (((warp_l == warp_s) & (call_l <= call_s)) | (t.steps_separated & (call_l < call_s)))


def _point(variables: list[Var], grid: Any, i: int) -> dict[str, int]:
    return {v.name: int(grid[d][i]) for d, v in enumerate(variables)}


def _owner(stage: Any, warp_of: Any, call_of: Any, i: int) -> tuple[int, int, int, int]:
    w = int(warp_of[i])
    return int(stage[i]), w // WARPGROUP_WARPS, w % WARPGROUP_WARPS, int(call_of[i])
