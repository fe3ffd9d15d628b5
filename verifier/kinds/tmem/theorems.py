"""Theorems 19-21: a tensor-memory tiled copy (make_tmem_copy) as the warpgroup runs it.

A TMEM check names a tcgen05.ld / tcgen05.st copy atom, the value type, and the TMEM tensor the copy reads or
writes — `tmem: (coordinate) -> TMEM address` in 32-bit cells, lane << 16 | column (the accumulator a UMMA wrote,
or a tile the epilogue stores) — and optionally `tmem_columns`, what tcgen05.alloc allocated.  CuTe's tiled copy
(cute/tmem.py) says which tile coordinate each register of each thread holds; the instruction (hardware/
tmem_copy.py) says which TMEM cell it moves, from the address the copy's TMEM partition hands the call:
- 19 tmem.copy: for every thread of the warpgroup, copy call and register, the cell the instruction moves is the
  cell of the coordinate CuTe pairs with that register; every coordinate is moved exactly once;
- 20 tmem.lane_access: every TMEM lane a warp's instruction touches is in the warp's quarter (32 * (warp % 4));
- 21 tmem.allocation: the allocation is a power of two of columns in [32, 512] and every cell of the tile lies
  inside it (lanes below 128).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...algebra.inttuple import AlgebraError
from ...algebra.layout import Layout
from ...algebra.swizzle import ComposedLayout
from ...cute.copy import CopyAtom, TiledCopy, TypedCopyAtom
from ...cute.tmem import DP_CELLS, WARPS, make_tmem_copy
from ...hardware.registry import qualifiers
from ...hardware.tmem_copy import (CELL_BITS, TMEM_COLUMNS, TMEM_LANES, WARP_LANE_QUARTER, TmemForm, parse_form,
                                  register_cell)
from ...specfile.model import CopyAtomSpec
from .config import TmemCheck
from ...symbolic.expr import Expr, Var, and_, eq, implies, lt, ne, or_
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Suspect, Trace, Unsupported
from ..cute_objects import ConfigurationRefused
from ...theorems.suspects import Suspects

MIN_COLUMNS = 32


@dataclass
class TmemSetup:
    check: TmemCheck
    copy_spec: CopyAtomSpec
    form: TmemForm
    coord_to_addr: Layout               # // (coordinate) -> TMEM address, lane << 16 | column
    tiled: TiledCopy
    tmem_frag: Any                      # // (thread, value, call) -> TMEM address (the copy's TMEM side)
    reg_frag: Any                       # // (thread, value, call) -> tile coordinate index (the register side)

    @property
    def threads(self) -> int:
        return WARPS * 32

    @property
    def values(self) -> int:
        return int(self.reg_frag.mode(1).size())

    @property
    def calls(self) -> int:
        return int(self.reg_frag.size()) // (self.threads * self.values)

    @property
    def tile_size(self) -> int:
        return int(self.coord_to_addr.size())


def tmem_form(copy_spec: CopyAtomSpec) -> TmemForm | None:
    return parse_form(*qualifiers(copy_spec.instruction or ""))


def build_tmem(check: TmemCheck, copy_spec: CopyAtomSpec) -> TmemSetup | Unsupported:
    """make_tmem_copy for the check's atom and TMEM tensor, and both partitions of every thread."""
    form = tmem_form(copy_spec)
    if form is None:
        return Unsupported(f"'{copy_spec.instruction}' is not a tcgen05.ld / tcgen05.st form the model knows "
                           f"(copy atom {copy_spec.name})")
    assert check.value_type is not None and isinstance(check.tmem, Layout)
    if form.packed:     # each register holds two 16-bit values of two columns: the routing below is unpacked
        return Unsupported(f"{form.instruction}: the packed forms (.pack::16b / .unpack::16b) are not modelled in "
                           "TMEM tiled copies (a register spans two 32-bit columns)")
    if check.value_type.bits != CELL_BITS:
        return Unsupported(f"TMEM tiled copies of {check.value_type.bits}-bit values are not modelled (32-bit values "
                           "only: the TMEM tensor is addressed in 32-bit cells)")
    atom = CopyAtom(copy_spec.name, copy_spec.thr_id, copy_spec.src, copy_spec.dst, copy_spec.ref,
                    copy_spec.instruction)
    try:
        typed: TypedCopyAtom = atom.with_value_bits(check.value_type.bits)
        tiled = make_tmem_copy(typed, form, check.tmem)
        coords = Layout(check.tmem.shape)                                     # // (coordinate) -> its index
        tmem_side, reg_side = (tiled.tidfrg_S, tiled.tidfrg_D) if form.load else (tiled.tidfrg_D, tiled.tidfrg_S)
        tmem_frag = flat_calls(tmem_side(check.tmem))
        reg_frag = flat_calls(reg_side(coords))
    except AlgebraError as e:
        raise ConfigurationRefused(e.rule, str(e), "make_tmem_copy of the TMEM tensor", "tmem") from None
    return TmemSetup(check, copy_spec, form, check.tmem, tiled, tmem_frag, reg_frag)


def flat_calls(frag: Any) -> Any:
    """(thread, value, rest...) -> (thread, value, call): the copy calls' modes as one (a swizzled partition keeps
    its swizzle and offset around the flattened layout)."""
    if isinstance(frag, ComposedLayout):
        return ComposedLayout(frag.a, frag.offset, flat_calls(frag.b))
    thr, val = frag.mode(0), frag.mode(1)
    rest = [frag.mode(i) for i in range(2, frag.rank())]
    shapes = tuple(m.shape for m in rest) or (1,)
    strides = tuple(m.stride for m in rest) or (0,)
    return Layout((thr.shape, val.shape, shapes), (thr.stride, val.stride, strides))


def _vars(setup: TmemSetup) -> tuple[Var, Var, Var]:
    return Var("thread", setup.threads), Var("register", setup.values), Var("call", setup.calls)


def _hardware_address(setup: TmemSetup, thread: Expr, value: Expr, call: Expr) -> tuple[Expr, Expr, Expr]:
    """(the call's TMEM address, the cell the instruction moves for this register, its TMEM lane)."""
    base = layout_expr(setup.tmem_frag, (thread, 0, call))
    cell = register_cell(setup.form.shape, setup.form.num, thread % 32, value)
    lane = base // DP_CELLS + cell.lane
    return base, base + DP_CELLS * cell.lane + cell.column, lane


def _blame(suspects: Suspects, why: str) -> Suspect:
    return suspects.field("tmem", why)


def tmem_copy(setup: TmemSetup, suspects: Suspects) -> Plan:
    """Theorem 19."""
    t, v, c = _vars(setup)
    coord = layout_expr(setup.reg_frag, (t, v, c))
    cute = layout_expr(setup.coord_to_addr, coord)
    base, hw, _ = _hardware_address(setup, t, v, c)
    blame = _blame(suspects, f"make_tmem_copy({setup.copy_spec.name}, tmem) pairs registers with coordinates "
                             "whose cells the instruction does not move")
    items: list[Item] = [
        Claim(Obligation(f"the cell {setup.form.instruction} moves for each register is the cell of the coordinate "
                         "CuTe's partition pairs with it", [t, v, c], eq(hw, cute), lhs=hw, rhs=cute,
                         shown={"call address": base, "coordinate": coord, "cell (hardware)": hw,
                                "cell of the coordinate": cute}), blame, Trace.REGISTER_SIDE)]
    t2, v2, c2 = Var("thread2", setup.threads), Var("register2", setup.values), Var("call2", setup.calls)
    coord2 = layout_expr(setup.reg_frag, (t2, v2, c2))
    items.append(Claim(Obligation("no two (thread, register, call) hold one coordinate", [t, v, c, t2, v2, c2],
                                  implies(or_(ne(t, t2), ne(v, v2), ne(c, c2)), ne(coord, coord2)),
                                  shown={"coordinate": coord, "coordinate2": coord2},
                                  distinct=Distinct(coord, (t, v, c), (t2, v2, c2))), blame))
    items.append(Claim(Obligation("every register holds a coordinate of the tile", [t, v, c],
                                  lt(coord, setup.tile_size), lhs=coord, shown={"coordinate": coord},
                                  note=f"tile of {setup.tile_size} coordinates"), blame))
    moved = setup.threads * setup.values * setup.calls
    items.append(Fact("as many (thread, register, call) as coordinates of the tile", moved == setup.tile_size,
                      f"{moved} registers moved", f"{setup.tile_size} coordinates", blame))
    return items


def lane_access(setup: TmemSetup, suspects: Suspects) -> Plan:
    """Theorem 20."""
    t, v, c = _vars(setup)
    _, _, lane = _hardware_address(setup, t, v, c)
    warp = t // 32
    blame = _blame(suspects, "the TMEM tensor puts a warp's rows outside the 32 lanes that warp may access")
    base = layout_expr(setup.tmem_frag, (t, 0, c))
    first = layout_expr(setup.tmem_frag, (32 * warp, 0, c))
    return [Claim(Obligation("every lane of a warp gives the instruction the same TMEM address (taddr is "
                             "warp-uniform)", [t, c], eq(base, first), lhs=base, rhs=first,
                             shown={"warp": warp}), _blame(suspects, "make_tmem_copy gives one warp's lanes "
                                                                      "different TMEM addresses")),
            Claim(Obligation("every TMEM lane a warp's instruction touches is in the warp's quarter (32*(warp%4) "
                             "... +31)", [t, v, c], eq(lane // WARP_LANE_QUARTER, warp % WARPS),
                             lhs=lane // WARP_LANE_QUARTER, rhs=warp % WARPS,
                             shown={"warp": warp, "TMEM lane": lane}), blame, Trace.REGISTER_SIDE)]


def _stages_apart(parts: list[tuple[Layout, int, str]], stages: tuple[int, ...], blame: Suspect) -> Fact:
    """The stages the copies take lie on cells of their own: a pipeline of S stages over a view whose stage mode puts
    two of them on the same cells (a one-stage view sliced at a counter modulo 2) has the MMAs of one tile write the
    cells the epilogue of the last still reads."""
    cells = set(parts[0][0].values())
    seen: dict[int, int] = {}
    clash: tuple[int, int] | None = None
    for stage, (_, first, _) in zip(stages, parts):
        for cell in cells:
            other = seen.setdefault(first + cell, stage)
            if other != stage:
                clash = (other, stage)
                break
        if clash is not None:
            break
    actual = (f"stages {clash[0]} and {clash[1]} of the view share cells" if clash is not None else
              f"stages {', '.join(map(str, stages))} on cells of their own")
    return Fact("the stages the copies take lie on cells of their own", clash is None, actual,
                "no cell in two stages", blame, point={"stage": clash[1]} if clash is not None else None,
                failing=0 if clash is None else 1, domain_size=len(stages))


def allocation(setup: TmemSetup, suspects: Suspects) -> Plan:
    """Theorem 21."""
    columns = setup.check.tmem_columns
    items: list[Item] = []
    blame_alloc = suspects.field("tmem_columns", "tcgen05.alloc allocates a power of two of columns, 32 to 512")
    limit = TMEM_COLUMNS
    if columns is not None:
        ok = MIN_COLUMNS <= columns <= TMEM_COLUMNS and columns & (columns - 1) == 0
        items.append(Fact("the allocation is a power of two of columns in [32, 512]", ok, f"{columns} columns",
                          "32, 64, 128, 256 or 512 columns", blame_alloc))
        limit = columns
    i = Var("coordinate", setup.tile_size)
    addr = layout_expr(setup.coord_to_addr, i)
    lane, column = addr // DP_CELLS, addr % DP_CELLS
    blame = _blame(suspects, "the TMEM tensor reaches cells outside the allocation")
    items.append(Claim(Obligation(f"every cell of the tile lies in lanes [0,{TMEM_LANES}) and the {limit} allocated "
                                  "columns", [i], and_(lt(lane, TMEM_LANES), lt(column, limit)), lhs=addr,
                                  shown={"address": addr, "lane": lane, "column": column}), blame))
    view = setup.check.tmem_view
    if view is not None:          # the tensor the tile is cut from (the stages its copies take), at its first column
        layout = view.layout
        parts = [(layout, view.column, "")]
        if view.stages is not None:       # each stage taken: the modes but the last, at the stage's offset
            rest = Layout(layout.shape[:-1], layout.stride[:-1]) if layout.rank() > 1 else Layout(1, 0)
            last = layout.mode(layout.rank() - 1)
            parts = [(rest, view.column + (s * last.stride if isinstance(last.shape, int) else int(last(s))),
                      f" stage {s}") for s in view.stages]
        blame_view = suspects.field("tmem_view", "the tensor the tile is cut from reaches cells outside the allocation")
        if view.stages is not None and len(view.stages) > 1:
            items.append(_stages_apart(parts, view.stages, suspects.field(
                "tmem_view", "the view's stage mode puts two of the stages the copies take on the same cells")))
        for part, first, which in parts:
            j = Var("coordinate", int(part.size()))
            at = first + layout_expr(part, j)
            lane, column = at // DP_CELLS, at % DP_CELLS
            items.append(Claim(Obligation(
                f"every cell of the tensor the tile is cut from ({layout} at column {view.column}{which}) lies in "
                f"lanes [0,{TMEM_LANES}) and the {limit} allocated columns", [j],
                and_(lt(lane, TMEM_LANES), lt(column, limit)), lhs=at, shown={"address": at, "lane": lane,
                                                                               "column": column}), blame_view))
    return items
