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

from ...cute.operand import OPERANDS, Operand
from ...hardware.base import MMAModel
from ...specfile.model import MMAAtomSpec

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
    """Every slot of one operand at once: the instruction's and CuTe's (row, col) of slot (t, v) at t * nval + v."""
    operand: Operand
    nval: int
    instruction: tuple[list[int], list[int]]
    declared: tuple[list[int], list[int]]

    def slot(self, flat: int) -> Slot:
        t, v = divmod(flat, self.nval)
        return Slot(self.operand.value, t, v, (self.instruction[0][flat], self.instruction[1][flat]),
                    (self.declared[0][flat], self.declared[1][flat]))


def _evaluate(atom: MMAAtomSpec, model: MMAModel, operand: Operand) -> _Operand:
    layout = {Operand.A: atom.a, Operand.B: atom.b, Operand.C: atom.c}[operand]
    rows, _ = operand.pick(atom.shape_mnk)
    nthr = int(layout.mode(0).size())
    nval = int(layout.mode(1).size()) if layout.rank() > 1 else 1
    colex = layout.values()                 # (t, v) at t + nthr * v
    coords = model.operand(operand.value).coords(atom.thr_id.values()[:nthr], nval)
    instruction: tuple[list[int], list[int]] = ([], [])
    declared: tuple[list[int], list[int]] = ([], [])
    for t in range(nthr):
        for v in range(nval):
            instruction[0].append(coords[t][v][0])
            instruction[1].append(coords[t][v][1])
            col, row = divmod(colex[t + nthr * v], rows)    # colex: the row is the fast index
            declared[0].append(row)
            declared[1].append(col)
    return _Operand(operand, nval, instruction, declared)


def identity_relabelling(shape_mnk: tuple[int, int, int]) -> Relabelling:
    """The instruction's own coordinates: every operand exact."""
    return Relabelling({axis: tuple(range(n)) for axis, n in zip(AXES, shape_mnk)}, None,
                       frozenset(o.value for o in OPERANDS))


def atom_key(atom: MMAAtomSpec, model: MMAModel) -> tuple[object, ...]:
    """Everything a renaming depends on: the atom's name, shape and layouts, and the instruction's model."""
    return (atom.name, atom.shape_mnk, str(atom.thr_id), str(atom.a), str(atom.b), str(atom.c), model)


def find_relabelling(atom: MMAAtomSpec, model: MMAModel) -> Relabelling:
    """The renaming of m, n, k that turns the instruction's fragments into CuTe's layouts, or the first two slots
    that show there is none.  The atom's shape and value counts must be the instruction's (checked before).
    Computed afresh: atom_theorems.renaming remembers the answer per atom_key."""
    extent = dict(zip(AXES, atom.shape_mnk))
    operands = [_evaluate(atom, model, op) for op in OPERANDS]
    exact = frozenset(e.operand.value for e in operands if e.instruction == e.declared)
    if len(exact) == len(operands):
        return Relabelling({axis: tuple(range(extent[axis])) for axis in AXES}, None, exact)  # the instruction
    maps = {}
    for axis in AXES:
        n = extent[axis]
        # every (operand, side) whose coordinate is this axis: the slots' (instruction, declared) pairs
        sides = [(e, i) for e in operands for i, a in enumerate(e.operand.axes) if a == axis]
        for e, i in sides:
            for which, values in (("instruction", e.instruction[i]), ("declared", e.declared[i])):
                bad = next((at for at, x in enumerate(values) if not 0 <= x < n), None)
                if bad is not None:
                    slot = e.slot(bad)
                    why = f"the {which} {axis} lies outside 0..{n - 1}"
                    return Relabelling({}, exact=exact, conflict=Conflict(axis, slot, slot, why))
        forward = [-1] * n                            # instruction index -> declared index
        backward = [-1] * n                           # declared index -> instruction index
        where: dict[int, tuple[_Operand, int]] = {}   # instruction index -> a slot that fixed its renaming
        for e, i in sides:
            first: dict[int, int] = {}                # (instruction, declared) pair -> its first slot
            for at, (h, d) in enumerate(zip(e.instruction[i], e.declared[i])):
                first.setdefault(h * n + d, at)
            for pair in sorted(first):
                at = first[pair]
                h, d = divmod(pair, n)
                if forward[h] >= 0 and forward[h] != d:
                    e0, at0 = where[h]
                    return Relabelling({}, exact=exact, conflict=Conflict(axis, e0.slot(at0), e.slot(at),
                                                    f"the instruction's {axis}={h} is renamed {axis}={forward[h]} "
                                                    f"in one slot and {axis}={d} in the other"))
                if backward[d] >= 0 and backward[d] != h:
                    e0, at0 = where[backward[d]]
                    return Relabelling({}, exact=exact, conflict=Conflict(axis, e0.slot(at0), e.slot(at),
                                                    f"CuTe's {axis}={d} stands for the instruction's "
                                                    f"{axis}={backward[d]} in one slot and {axis}={h} in the other"))
                if forward[h] < 0:
                    forward[h], backward[d], where[h] = d, h, (e, at)
        unused = [h for h in range(n) if forward[h] < 0]
        if unused:
            e0, at0 = next(iter(where.values()))
            return Relabelling({}, exact=exact, conflict=Conflict(axis, e0.slot(at0), e0.slot(at0),
                                            f"no slot uses the instruction's {axis}={unused[0]}"))
        maps[axis] = tuple(forward)
    return Relabelling(maps, None, exact)
