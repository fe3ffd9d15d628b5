"""Where tcgen05.mma writes its accumulator D in tensor memory: the data path layouts, written from the PTX ISA.

PTX ISA, "Tensor Memory" / tcgen05 "Data Path Layout Organization" (section 9.7.16.10.5 in ISA 8.8 / 9.x): the
instruction writes D (M x N, 32-bit elements, one a cell) from the address d_tmem in one of seven organisations,
chosen by M, .cta_group and .ws.  The figures are images; the organisations below are the section's enumeration
as the TVM project documents it (tvm_tirx.backend.cuda.layout.tmem_datapath_layout, "See PTX ISA §9.7.16.10.5"),
in the PTX ISA's letters.  With .cta_group::2 each CTA of the pair holds M/2 rows of D in its own tensor memory
(row r of a CTA is row r of its half).  Row r, column c of a CTA's D lies at (lane, column) offsets:

- A: M = 256, .cta_group::2: 128 rows a CTA, the whole data path: (r, c);
- B: M = 128, .cta_group::2 (dense A): 64 rows a CTA, the column halves folded across the two 64-lane halves:
  (r + 64 * (c // (N/2)), c % (N/2));
- C: M = 128, .cta_group::2 with sparse A: organised as F (not used here: .sp is not modelled);
- D: M = 128, .cta_group::1, with or without .ws: (r, c);
- E: M = 64, .ws: as B: (r + 64 * (c // (N/2)), c % (N/2));
- F: M = 64, .cta_group::1 without .ws: 16 rows a warp's 32-lane quarter, the lower half of it:
  (32 * (r // 16) + r % 16, c);
- G: M = 32, .ws: the column quarters folded across the four 32-lane quarters: (r + 32 * (c // (N/4)), c % (N/4)).

.ws ("weight stationary") is a .cta_group::1 form only, of .kind::f16, .tf32, .f8f6f4 and .i8, with M = 32, 64 or
128 and N = 64, 128 or 256 (Table 39's .ws rows).  Independent of CuTe: CuTe's tmem_frg / tmem_frg_ws are what the
theorem compares with it.  Not hardware-validated (no Blackwell GPU on the capture machine).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from .base import Index

SECTION = ("PTX ISA, tcgen05 Data Path Layout Organization (9.7.16.10.5), Layouts A-G; Table 39 (shapes, .ws rows); "
           "as enumerated by TVM's tmem_datapath_layout")
WS = "ws"
MMA = "mma"
CTA_GROUP = "cta_group::"
KIND = "kind::"
WS_KINDS = ("f16", "tf32", "f8f6f4", "i8")       # the kinds that have a .ws form
WS_M = (32, 64, 128)
WS_N = (64, 128, 256)
DENSE_M = {1: (64, 128), 2: (128, 256)}         # M of the dense forms (Table 39), by .cta_group
LANES = 128


class Datapath(enum.Enum):
    """The PTX ISA's letters for the data path layouts (the sparse-A Layout C is not modelled)."""
    A = "A"
    B = "B"
    D = "D"
    E = "E"
    F = "F"
    G = "G"


@dataclass(frozen=True)
class AccumulatorForm:
    """A tcgen05.mma form and its M x N, as far as where D lies is concerned."""
    instruction: str
    cta_group: int
    ws: bool
    kind: str
    m: int
    n: int

    @property
    def rows_per_cta(self) -> int:
        return self.m // self.cta_group


def parse_accumulator(instruction: str, m: int, n: int) -> AccumulatorForm | str:
    """The form of `tcgen05.mma[.ws].cta_group::G.kind::K` with M x N, or why it is none this model places."""
    parts = instruction.strip().split(".")
    if parts[:2] != ["tcgen05", MMA]:
        return f"{instruction!r} is not a tcgen05.mma instruction"
    rest = parts[2:]
    ws = bool(rest) and rest[0] == WS
    if ws:
        rest = rest[1:]
    group = next((q[len(CTA_GROUP):] for q in rest if q.startswith(CTA_GROUP)), None)
    kind = next((q[len(KIND):] for q in rest if q.startswith(KIND)), None)
    if group not in ("1", "2") or kind is None:
        return f"{instruction!r}: expected .cta_group::1 or ::2 and a .kind::"
    extra = [q for q in rest if not q.startswith((CTA_GROUP, KIND))]
    if extra:
        return f"{instruction!r}: the forms with .{'.'.join(extra)} are not modelled (dense D only)"
    return AccumulatorForm(instruction, int(group), ws, kind, m, n)


def datapath(form: AccumulatorForm) -> Datapath | str:
    """The layout the form writes D in, or why the PTX ISA has no such instruction."""
    if form.ws:
        if form.cta_group != 1:
            return ".ws is a .cta_group::1 form only"
        if form.kind not in WS_KINDS:
            return f".ws takes .kind::{', .kind::'.join(WS_KINDS)}, not .kind::{form.kind}"
        if form.m not in WS_M or form.n not in WS_N:
            return (f".ws shapes are M = {', '.join(map(str, WS_M))} and N = {', '.join(map(str, WS_N))}, not "
                    f"{form.m} x {form.n}")
        return {32: Datapath.G, 64: Datapath.E, 128: Datapath.D}[form.m]
    if form.m not in DENSE_M[form.cta_group]:
        return (f"a .cta_group::{form.cta_group} tcgen05.mma without .ws has M = "
                f"{' or '.join(map(str, DENSE_M[form.cta_group]))}, not {form.m}")
    if form.cta_group == 1:
        return Datapath.F if form.m == 64 else Datapath.D
    return Datapath.B if form.m == 128 else Datapath.A


def columns(layout: Datapath, n: int) -> int:
    """Columns one MMA's D occupies."""
    return {Datapath.B: n // 2, Datapath.E: n // 2, Datapath.G: n // 4}.get(layout, n)


def cell(layout: Datapath, n: int, row: Index, col: Index) -> tuple[Index, Index]:
    """(lane, column) offsets from d_tmem of D's element (row, col) of this CTA (row < rows_per_cta, col < N); the
    formulas evaluate on Exprs, Python ints and numpy arrays alike."""
    if layout in (Datapath.B, Datapath.E):
        return row + 64 * (col // (n // 2)), col % (n // 2)
    if layout is Datapath.G:
        return row + 32 * (col // (n // 4)), col % (n // 4)
    if layout is Datapath.F:
        return 32 * (row // 16) + row % 16, col
    return row, col


__all__ = ["AccumulatorForm", "Datapath", "parse_accumulator", "datapath", "columns", "cell", "SECTION"]
