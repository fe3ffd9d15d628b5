"""Semantic MMA equivalence: does an atom compute C += A·B under its declared layouts?

The instruction computes D(m, n) = sum over k of A(m, k) · B(n, k) + C(m, n) on its own fragments.  If
CuTe's declared layouts put, in every slot, the coordinate the instruction uses there *renamed* by one bijection
of m, one of n and one of k — the same renaming of m in A and C, of n in B and C, of k in A and B — then the
atom still computes C += A·B in the declared coordinates (a sum over k does not depend on the order of k).
Anything else (A and B renaming k differently, A and C disagreeing on m, two slots of one coordinate sent to two
coordinates) computes something else.

The search is exhaustive: every (thread, value) slot of A, B and C is evaluated once, on integers; a renaming
is read off the slots (instruction coordinate -> declared coordinate) and must be a function and one-to-one.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..cute.operand import OPERANDS, Operand
from ..hardware.base import MMAModel
from ..spec.model import MMAAtomSpec

AXES = ("m", "n", "k")


@dataclass(frozen=True)
class Slot:
    """One (thread, value) of an operand, with the coordinates the instruction and CuTe give it there."""
    operand: str
    thread: int
    value: int
    instruction: tuple[int, int]   # (row, col) of the operand tile, the PTX ISA's fragment
    declared: tuple[int, int]      # (row, col), CuTe's layout

    def text(self) -> str:
        a, b = Operand.of(self.operand).axes
        return (f"{self.operand} thread {self.thread} value {self.value}: the instruction uses "
                f"{a}={self.instruction[0]} {b}={self.instruction[1]}, CuTe's layout says "
                f"{a}={self.declared[0]} {b}={self.declared[1]}")


@dataclass(frozen=True)
class Conflict:
    """Two slots that no single renaming of `axis` serves."""
    axis: str
    first: Slot
    second: Slot
    why: str


@dataclass(frozen=True)
class Relabelling:
    maps: dict[str, tuple[int, ...]]       # axis -> declared index of each instruction index
    conflict: Conflict | None = None
    exact: frozenset[str] = frozenset()    # operands whose layout is the instruction's fragment exactly

    @property
    def consistent(self) -> bool:
        return self.conflict is None

    def renamed_axes(self) -> list[str]:
        return [a for a in AXES if self.maps.get(a) != tuple(range(len(self.maps.get(a, ()))))]

    @property
    def identity(self) -> bool:
        return self.consistent and not self.renamed_axes()

    def text(self) -> str:
        """The renaming, axis by axis, as the instruction's index -> CuTe's (fixed points left out)."""
        parts = []
        for axis in self.renamed_axes():
            moved = [f"{i}->{j}" for i, j in enumerate(self.maps[axis]) if i != j]
            parts.append(f"{axis}: " + ", ".join(moved))
        return "; ".join(parts) if parts else "none (CuTe's layouts are the instruction's)"


@dataclass(frozen=True)
class _Operand:
    """Every slot of one operand at once: [thread, value] arrays of the instruction's and CuTe's coordinates."""
    operand: Operand
    instruction: tuple[Any, Any]
    declared: tuple[Any, Any]

    def slot(self, flat: int) -> Slot:
        t, v = divmod(flat, self.instruction[0].shape[1])
        return Slot(self.operand.value, t, v, (int(self.instruction[0][t, v]), int(self.instruction[1][t, v])),
                    (int(self.declared[0][t, v]), int(self.declared[1][t, v])))


def _evaluate(atom: MMAAtomSpec, model: MMAModel, operand: Operand) -> _Operand:
    import numpy as np
    layout = {Operand.A: atom.a, Operand.B: atom.b, Operand.C: atom.c}[operand]
    rows, _ = operand.pick(atom.shape_mnk)
    nthr = int(layout.mode(0).size())
    nval = int(layout.mode(1).size()) if layout.rank() > 1 else 1
    declared = np.asarray(layout.values_array(), dtype=np.int64).reshape(nval, nthr).T     # [thread, value]
    lanes = np.asarray(atom.thr_id.values(), dtype=np.int64)
    t_idx, v_idx = np.meshgrid(np.arange(nthr), np.arange(nval), indexing="ij")
    c0, c1 = model.operand(operand.value).coord(lanes[t_idx], v_idx)
    shape = t_idx.shape
    return _Operand(operand, (np.broadcast_to(np.asarray(c0, dtype=np.int64), shape),
                              np.broadcast_to(np.asarray(c1, dtype=np.int64), shape)),
                    (declared % rows, declared // rows))


def identity_relabelling(shape_mnk: tuple[int, int, int]) -> Relabelling:
    """The instruction's own coordinates: every operand exact."""
    return Relabelling({axis: tuple(range(n)) for axis, n in zip(AXES, shape_mnk)}, None,
                       frozenset(o.value for o in OPERANDS))


_FOUND: dict[tuple, Relabelling] = {}


def find_relabelling(atom: MMAAtomSpec, model: MMAModel) -> Relabelling:
    """The renaming of m, n, k that turns the instruction's fragments into CuTe's layouts, or the first two slots
    that show there is none.  The atom's shape and value counts must be the instruction's (checked before)."""
    key = (atom.name, atom.shape_mnk, str(atom.thr_id), str(atom.a), str(atom.b), str(atom.c), model)
    found = _FOUND.get(key)
    if found is None:
        found = _FOUND[key] = _find(atom, model)
    return found


def _find(atom: MMAAtomSpec, model: MMAModel) -> Relabelling:
    import numpy as np
    extent = dict(zip(AXES, atom.shape_mnk))
    operands = [_evaluate(atom, model, op) for op in OPERANDS]
    exact = frozenset(e.operand.value for e in operands
                      if all(np.array_equal(e.instruction[i], e.declared[i]) for i in (0, 1)))
    if len(exact) == len(operands):
        return Relabelling({axis: tuple(range(extent[axis])) for axis in AXES}, None, exact)  # the instruction
    maps = {}
    for axis in AXES:
        n = extent[axis]
        # every (operand, side) whose coordinate is this axis: the slots' (instruction, declared) pairs
        sides = [(e, i) for e in operands for i, a in enumerate(e.operand.axes) if a == axis]
        for e, i in sides:
            for which, values in (("instruction", e.instruction[i]), ("declared", e.declared[i])):
                bad = np.flatnonzero((values < 0) | (values >= n))
                if len(bad):
                    slot = e.slot(int(bad[0]))
                    why = f"the {which} {axis} lies outside 0..{n - 1}"
                    return Relabelling({}, exact=exact, conflict=Conflict(axis, slot, slot, why))
        forward = np.full(n, -1, dtype=np.int64)      # instruction index -> declared index
        backward = np.full(n, -1, dtype=np.int64)     # declared index -> instruction index
        where: dict[int, tuple[_Operand, int]] = {}   # instruction index -> a slot that fixed its renaming
        for e, i in sides:
            hw, mine = e.instruction[i].ravel(), e.declared[i].ravel()
            pairs, first = np.unique(hw * n + mine, return_index=True)
            for pair, at in zip(pairs.tolist(), first.tolist()):
                h, d = divmod(pair, n)
                if forward[h] >= 0 and forward[h] != d:
                    e0, at0 = where[h]
                    return Relabelling({}, exact=exact, conflict=Conflict(axis, e0.slot(at0), e.slot(at),
                                                    f"the instruction's {axis}={h} is renamed {axis}={forward[h]} "
                                                    f"in one slot and {axis}={d} in the other"))
                if backward[d] >= 0 and backward[d] != h:
                    e0, at0 = where[int(backward[d])]
                    return Relabelling({}, exact=exact, conflict=Conflict(axis, e0.slot(at0), e.slot(at),
                                                    f"CuTe's {axis}={d} stands for the instruction's "
                                                    f"{axis}={backward[d]} in one slot and {axis}={h} in the other"))
                if forward[h] < 0:
                    forward[h], backward[d], where[h] = d, h, (e, at)
        unused = np.flatnonzero(forward < 0)
        if len(unused):
            e0, at0 = next(iter(where.values()))
            return Relabelling({}, exact=exact, conflict=Conflict(axis, e0.slot(at0), e0.slot(at0),
                                            f"no slot uses the instruction's {axis}={int(unused[0])}"))
        maps[axis] = tuple(int(x) for x in forward)
    return Relabelling(maps, None, exact)
