"""Tiled theorems: the tiled copy glued to the tiled MMA, over every thread, value and copy instance.

Each theorem is a set of claims between the quantities of the check's chain (chain.py); shared-memory
offsets are expressions of the *unsliced* partition layouts (the thread a variable), register fragments
are per-thread layouts that do not depend on the thread (setup.py).
"""
from __future__ import annotations

from typing import Any

from ...algebra.inttuple import AlgebraError, compact_col_major, flatten_to_tuple
from ...algebra.layout import Layout
from ...algebra.ops import right_inverse
from ...algebra.swizzle import ComposedLayout
from ...specfile.model import ValueType
from ...symbolic.expr import Const, Expr, Var, and_, eq, implies, lt, ne, or_
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...cute.operand import Operand
from .chain import OperandChain, thread_coord_exprs
from ...theorems.claims import Blame, Claim, Fact, Item, Plan, Refusal, Suspect, Trace, Unsupported
from .setup import TiledSetup
from ...theorems.suspects import Suspects
from .config import TiledCheck
from ..conversion import register_conversion_fact



def copy_construction(suspects: Suspects, check: TiledCheck) -> Suspect:
    """How the tiled copy was built from the tiled MMA: make_tiled_copy_X, copy_mma, the pairing."""
    op = (check.operand or "A").upper()
    which = (check.copy_for or op).upper()
    mma = suspects.mma
    if mma is not None and check.value_type is not None:
        want = mma.types.get(op.lower())
        whose = f"the MMA's {op} type"
        if check.smem_type is not None and op != "C":
            want, whose = check.smem_type, "the shared tile's type (smem_type)"   # copied as the tile's type
        if want is not None and want.bits != check.value_type.bits and op != "C":
            return suspects.value_type(f"the copy's value_type {check.value_type.name} ({check.value_type.bits} "
                                       f"bits) is not {whose} {want.name} ({want.bits} bits)")
    if which != op:
        return suspects.field("copy_for", f"make_tiled_copy_{which} builds a copy for operand {which}, but the "
                                          f"check moves operand {op}")
    if check.copy_mma is not None:
        return suspects.field("copy_mma", "the tiled MMA the copy was built from (copy_mma) is not the kernel's")
    return suspects.field("copy", f"the pairing of {check.copy} with {check.mma} (value type, "
                                  f"make_tiled_copy_{which})")


def _sizes(layout: Any) -> list[int]:
    return [int(m.size()) for m in layout.modes()]


def _retile_sizes(ret: Layout) -> list[int]:
    head = ret.mode(0)
    rest_values = int(head.mode(1).size()) if head.rank() > 1 else 1
    return [rest_values] + [int(ret.mode(i).size()) for i in range(1, ret.rank())]


def _no_copy_model(setup: TiledSetup) -> Unsupported:
    return Unsupported(f"no hardware model for '{setup.copy_spec.instruction}' (copy atom {setup.copy_spec.name})")


# --- theorem 4 --------------------------------------------------------------------------------------------

def register_side_matches_mma(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    tc = setup.tiled_copy
    blame = copy_construction(suspects, setup.check)
    copy_tile = tuple(int(x) for x in flatten_to_tuple(tc.tiler_shape()))
    mi, ki = Operand.of(setup.operand).modes
    mma_tile = (setup.mma.tile_size(mi), setup.mma.tile_size(ki))
    reg_tv = chain.layout_S_tv if chain.store else chain.layout_D_tv
    nthr, nval = _sizes(reg_tv)
    mthr, mval = _sizes(chain.mma_layout_tv)
    if copy_tile != mma_tile and setup.copy_mma is not setup.mma:
        # built from another tiled MMA (copy_mma): judged by the partitions it produces over the shared tile
        items: list[Item] = [Fact("the copy runs on the MMA's threads", nthr == mthr, f"copy: {nthr} threads",
                                  f"MMA {setup.operand}: {mthr} threads", blame)]
        if nthr == mthr:
            items += _registers_hold_mma_coordinates(setup, chain, blame, (
                f"built from copy_mma (tile {copy_tile}, the kernel's {mma_tile}): every value the copy moves over "
                f"the whole shared tile sits in the register where the kernel's MMA partition expects it"))
    else:
        facts = [Fact("the copy's tile is the MMA operand's tile", copy_tile == mma_tile,
                      f"copy tile {copy_tile} (make_tiled_copy_{setup.copy_for})",
                      f"MMA {setup.operand} tile {mma_tile}", blame),
                 Fact("the copy and the MMA agree on threads and values", (nthr, nval) == (mthr, mval),
                      f"copy: {nthr} threads x {nval} values", f"MMA {setup.operand}: {mthr} threads x {mval} values",
                      blame)]
        if not all(f.holds for f in facts):
            return list(facts)
        side = "S" if chain.store else "D"
        t, v, r0 = chain.t, Var("value", chain.n_reg), chain.inst[0]
        tiled_value = v + chain.n_reg * r0
        lhs, rhs = chain.register_tv(t, tiled_value), chain.mma_tv(t, tiled_value)
        items = list(facts)
        items.append(Claim(Obligation(f"F o right_inverse(R) o {side} equals the MMA's {setup.operand} TV layout",
                                      [t, v, r0], eq(lhs, rhs), lhs=lhs, rhs=rhs,
                                      shown={f"layout{side}_TV": lhs, "mma TV": rhs}), blame, Trace.REGISTER_SIDE))
    ref = setup.typed.ref
    rinv = right_inverse(ref)
    if int(rinv.size()) < int(ref.size()):
        items.append(Fact("right_inverse(R) covers all of R", False, f"right_inverse(R) = {rinv}: {int(rinv.size())} "
                          "points", f"R = {ref}: {int(ref.size())} points", suspects.copy_ref()))
    else:
        i = Var("i", int(ref.size()))
        back = layout_expr(ref, layout_expr(rinv, i))
        items.append(Claim(Obligation("R(right_inverse(R)(i)) = i", [i], eq(back, i), lhs=back, rhs=i),
                           suspects.copy_ref()))
    return items


# --- theorem 5 --------------------------------------------------------------------------------------------

def source_matches_destination(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    if setup.copy_hw is None:
        return _no_copy_model(setup)
    t, v, r0 = chain.t, chain.v, chain.inst[0]
    st, sv, _, premise = chain.route(t, v)
    if chain.mma_source:
        return _mma_partition_matches_destination(setup, chain, suspects)
    src_q = layout_expr(chain.layout_S_tv, (st, sv + chain.n_src * r0))
    dst_q = layout_expr(chain.layout_D_tv, (t, v + chain.n_dst * r0))
    return [Claim(Obligation("the coordinate partition_S gives the routed source equals the destination's",
                             [t, v, r0], eq(src_q, dst_q), premise=premise, lhs=dst_q, rhs=src_q,
                             shown={"src thread": st, "src value": sv, "layoutS_TV(src)": src_q,
                                    "layoutD_TV(dst)": dst_q}), suspects.copy_variant(), Trace.DESTINATION)]


def _mma_partition_matches_destination(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    """`smem_partition: mma`: the copy walks thr_mma.partition_X(sX) and retile_D's registers in one order, one
    k-block slice at a time: both have the same k-blocks (CuTe's static_assert), and over the whole tile the element
    of the MMA partition each routed source reads has the coordinate its destination holds."""
    blame = suspects.field("smem_partition", f"the copy reads thr_mma.partition_{setup.operand}(s{setup.operand}) "
                                             "in order (smem_partition: mma)")
    copy_k, mma_k = chain.instance_sizes[-1], chain.fragment_sizes[-1]
    same_k = Fact("the MMA's partition and the copy's registers have the same k-blocks",
                  len(chain.instance_sizes) == len(chain.fragment_sizes) and copy_k == mma_k,
                  f"copy instances {chain.instance_sizes}, {copy_k} along K",
                  f"the MMA partition's (value, rest) sizes {chain.fragment_sizes}, {mma_k} along K "
                  "(CuTe: size<2>(tCsA) == size<2>(tCrA_copy_view))", blame)
    items: list[Item] = [same_k]
    if not same_k.holds:
        return items
    t, v, inst = chain.t, chain.v, chain.inst
    st, sv, _, premise = chain.route(t, v)
    src_q = chain.source_coordinate(st, sv)
    dst_q = chain.copy_coordinate(t, v)
    items.append(Claim(Obligation("the coordinate of the MMA partition's element each routed source reads equals the "
                                  "destination's", [t, v] + inst, eq(src_q, dst_q), premise=premise, lhs=dst_q,
                                  rhs=src_q, shown={"src thread": st, "src value": sv, "partition coordinate": src_q,
                                                    "destination coordinate": dst_q}), blame, Trace.DESTINATION))
    return items


# --- theorem 6 --------------------------------------------------------------------------------------------

def _swizzle_period_bytes(layout: Any, elem_bits: int) -> int:
    if isinstance(layout, ComposedLayout) and hasattr(layout.a, "domain"):
        return max(1, int(layout.a.domain() * elem_bits) // 8)
    return 1


def addressing(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    model = setup.copy_hw
    if model is None:
        return _no_copy_model(setup)
    if model.memory_side is None:
        return Unsupported(f"{model.instruction} has no shared-memory side")
    blame = suspects.smem()
    nv, vb = chain.n_mem, setup.value_bits
    if not model.element_wise and nv * vb != model.row_bytes * 8:
        return [Fact("each address names one whole row / vector", False, f"{nv} values of {vb} bits per thread",
                     f"{model.row_bytes} bytes per address", copy_construction(suspects, setup.check))]
    t, v, inst = chain.t, chain.v_mem(), chain.inst
    lane = t % chain.atom_threads
    providing = lt(lane, model.address_lanes)
    off0 = chain.memory_offset(t, Const(0))
    offv = chain.memory_offset(t, v)
    items: list[Item] = [Claim(Obligation(f"the {nv} values each lane names are contiguous in shared memory",
                                          [t, v] + inst, eq(offv, off0 + v), premise=providing, lhs=offv,
                                          rhs=off0 + v, shown={"row start offset": off0, "value offset": offv}),
                               blame, Trace.MEMORY_SIDE)]
    if vb % 8 and model.element_wise:
        return items    # sub-byte values copied one by one: no address of their own to align
    period = base_period(setup)
    # base addresses are multiples of `period`; a multiple of the alignment, it leaves every address's residue
    # to the offset: the claim over offsets holds for every allowed base exactly when this fact holds too
    items.append(Fact(f"the tile's base alignment ({period} bytes) is a multiple of the instruction's "
                      f"{model.align_bytes}", period % model.align_bytes == 0, f"{period} bytes",
                      f"a multiple of {model.align_bytes} bytes", blame))
    align_bits = 8 * model.align_bytes
    items.append(Claim(Obligation(f"every row address is {model.align_bytes}-byte aligned for every base aligned to "
                                  f"{period} bytes", [t] + inst, eq((off0 * vb) % align_bits, 0),
                                  premise=providing, shown={"address - base (bits)": off0 * vb}),
                       blame, Trace.MEMORY_SIDE))
    return items


# --- theorem 7 --------------------------------------------------------------------------------------------

def fragment_aliasing(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    frag, linv = setup.fragment, setup.fragment_inverse
    blame = copy_construction(suspects, setup.check)
    s = Var("slot", int(frag.size()))
    back = layout_expr(linv, layout_expr(frag, s))
    items: list[Item] = [Claim(Obligation("partition_fragment's layout is one-to-one (left inverse exists)", [s],
                                          eq(back, s), lhs=back, rhs=s), suspects.smem("the shared-memory layout"))]
    tiles = setup.check.tiles
    if tiles is not None:
        copied_from, fragment_of = tiles
        items.append(Fact("the copy reads the shared tile the fragment was partitioned from",
                          copied_from == fragment_of, f"the copy reads {copied_from}",
                          f"{fragment_of}, the tile the {setup.operand} fragment was partitioned from",
                          suspects.field("tiles", "the shared tile the copy reads")))
    items += _registers_hold_mma_coordinates(setup, chain, blame)
    return items


def _registers_hold_mma_coordinates(setup: TiledSetup, chain: OperandChain, blame: Suspect,
                                    note: str = "") -> list[Item]:
    """Over the whole shared tile: every register the copy writes (reads, for a store) is a fragment register,
    each once, in 32-bit-aligned groups, holding the coordinate partition_fragment expects there."""
    frag, ret = setup.fragment, setup.retiled
    nfrag = int(frag.size())
    ret_sizes = _retile_sizes(ret)
    if ret_sizes != chain.instance_sizes:
        return [Fact("retile and partition have the same copy instances", False,
                     f"retiled fragment {ret} repeats {ret_sizes}",
                     f"the shared-memory partition repeats {chain.instance_sizes}", blame)]
    n_reg_vals = int(ret.mode(0).mode(0).size()) if ret.mode(0).rank() > 1 else int(ret.mode(0).size())
    v, inst = Var("value", n_reg_vals), chain.inst
    u = chain.register(v)
    slot = chain.fragment_slot(u)
    items: list[Item] = [
        Claim(Obligation("every register the copy writes is a fragment register", [v] + inst,
                         and_(lt(u, int(frag.cosize())), eq(layout_expr(frag, slot), u)),
                         shown={"register": u, "fragment slot": slot}), blame, Trace.REGISTER_SIDE),
        Fact("the copy writes every fragment register once", int(ret.size()) == nfrag,
             f"{int(ret.size())} copied values", f"{nfrag} fragment registers", blame)]
    per_reg = chain.per_register
    if per_reg > 1 and n_reg_vals % per_reg == 0:
        j = Var("register", n_reg_vals // per_reg)
        e = Var("part", per_reg)
        first, part = chain.register(j * per_reg), chain.register(j * per_reg + e)
        items.append(Claim(Obligation(f"copy_unpack's recast to 32-bit registers: {per_reg} values per register, "
                                      "contiguous and aligned", [j, e] + inst,
                                      and_(eq(part, first + e), eq(first % per_reg, 0)),
                                      shown={"first register slot": first, "slot": part}), blame))
    t = chain.t
    copy_q = chain.copy_coordinate(t, v)
    mma_q = chain.mma_coordinate(t, slot)
    items.append(Claim(Obligation("the coordinate each copied value carries is the one partition_fragment expects "
                                  "there", [t, v] + inst, eq(copy_q, mma_q), premise=lt(t, setup.mma.num_threads()),
                                  lhs=copy_q, rhs=mma_q, shown={"register": u, "fragment slot": slot,
                                                                "copy coordinate": copy_q, "MMA coordinate": mma_q},
                                  note=note), blame, Trace.REGISTER_SIDE))
    return items


# --- theorem 8 --------------------------------------------------------------------------------------------

def end_to_end(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    model, hw = setup.copy_hw, setup.hw_tiled_mma
    if model is None:
        return _no_copy_model(setup)
    if not setup.side.has_model:
        return Unsupported(f"no hardware model for '{setup.mma_spec.instruction}' (MMA atom {setup.mma_spec.name})")
    if hw is None:
        return Unsupported(f"the fragments of '{setup.mma_spec.instruction}' are not a layout CuTe can tile")
    blame_build = copy_construction(suspects, setup.check)
    facts = [Fact("the copy runs on the MMA's threads", setup.tiled_copy.num_threads == setup.mma.num_threads(),
                  f"{setup.tiled_copy.num_threads} copy threads", f"{setup.mma.num_threads()} MMA threads",
                  blame_build),
             Fact("the copy's register and shared-memory sides have the same instances",
                  _retile_sizes(setup.retiled) == chain.instance_sizes, f"retiled fragment {setup.retiled}",
                  f"shared-memory partition instances {chain.instance_sizes}", blame_build)]
    if not all(f.holds for f in facts):
        return [f for f in facts if not f.holds]
    q = chain.destination_quantities()
    _, _, lane, premise = chain.route(chain.t, chain.v)
    if chain.store:
        premise = and_(premise, lt(lane, model.address_lanes))
        title = "every accumulator lands at smem[layout(coordinate the instruction produced there)]"
        delivered_name = "written offset"
    else:
        title = "every fragment register receives smem[layout(coordinate the instruction reads there)]"
        delivered_name = "delivered offset"
    delivered, expected = q["delivered"], q["expected"]
    op = setup.operand
    # at the witness: did the copy deliver what CuTe's layout asks for (then the atom's layout disagrees with
    # the instruction), or not (then the copy side is wrong)?
    blame = Blame(((ne(q["cute_offset"], expected),
                    suspects.mma_layout(op, "the copy delivers what that layout asks for, the instruction reads "
                                            "something else")),
                   (ne(delivered, q["cute_offset"]),
                    suspects.smem("the shared-memory layout or the copy variant: the copy does not deliver the "
                                  "element CuTe's layout asks for"))),
                  suspects.copy_traits())
    shown = {"src thread": q["src_thread"], "src value": q["src_value"], "register": q["register"],
             delivered_name: delivered, "CuTe's offset": q["cute_offset"], "expected offset": expected}
    return [Claim(Obligation(title, [chain.t, chain.v] + chain.inst, eq(delivered, expected), premise=premise,
                             lhs=delivered, rhs=expected, shown=shown), blame, Trace.DESTINATION)]


# --- theorem 9 --------------------------------------------------------------------------------------------

def smem_injective(setup: TiledSetup, suspects: Suspects) -> Plan:
    """Two coordinates of the operand tile, one element: the shared layout aliases."""
    layout = setup.smem.layout
    if layout.rank() != 2:
        return [Fact("the shared-memory tile is (rows, cols)", False, f"rank {layout.rank()}", "rank 2",
                     suspects.smem("the shared-memory layout"))]
    rows, cols = int(layout.mode(0).size()), int(layout.mode(1).size())
    op = setup.operand
    a, b = Operand.of(op).axes
    r1, c1, r2, c2 = Var(a, rows), Var(b, cols), Var(f"{a}2", rows), Var(f"{b}2", cols)
    i1, i2 = r1 + rows * c1, r2 + rows * c2
    o1, o2 = layout_expr(layout, i1), layout_expr(layout, i2)
    items: list[Item] = [Claim(Obligation(f"distinct coordinates of the {rows}x{cols} {op} tile have distinct "
                                          "offsets", [r1, c1, r2, c2], ne(o1, o2), premise=lt(i1, i2), lhs=o1, rhs=o2,
                                          shown={"offset": o1, "offset2": o2},
                                          distinct=Distinct(o1, (r1, c1), (r2, c2), layout)),
                               suspects.smem(f"the shared-memory layout maps two coordinates of the {op} tile to one "
                                             "element"))]
    if setup.check.stages is not None:
        items += _every_stage(setup, rows, cols, suspects)
    return items


def _every_stage(setup: TiledSetup, rows: int, cols: int, suspects: Suspects) -> list[Item]:
    """A (rows, cols, PIPE) tile: the theorems decide the first stage for every base its alignment allows; each other
    stage is that stage moved by its offset, a multiple of the same alignment, and no two stages share an element —
    so every stage is proved."""
    full = setup.check.stages
    inner = full.b if isinstance(full, ComposedLayout) else full
    stages = int(inner.mode(2).size())
    tile = rows * cols
    blame = suspects.smem("the shared-memory layout's stage mode")
    x1, x2 = Var("index", tile * stages), Var("index2", tile * stages)
    f1, f2 = layout_expr(full, x1), layout_expr(full, x2)
    items: list[Item] = [Claim(Obligation(f"distinct (coordinate, stage) of the {rows}x{cols}x{stages} tile have "
                                          "distinct offsets", [x1, x2], ne(f1, f2), premise=lt(x1, x2), lhs=f1,
                                          rhs=f2, shown={"offset": f1, "offset2": f2}, note="index = coordinate + "
                                          f"{tile}*stage", distinct=Distinct(f1, (x1,), (x2,), full)), blame)]
    if stages == 1:
        return items
    c, st = Var("coordinate", tile), Var("stage", stages)
    moved = layout_expr(full, c + tile * st)
    start = layout_expr(full, tile * st)
    want = layout_expr(full, c) + start - layout_expr(full, Const(0))
    items.append(Claim(Obligation("every stage is the first stage moved by its own offset", [c, st], eq(moved, want),
                                  lhs=moved, rhs=want, shown={"stage offset": start}), blame))
    period = base_period(setup)
    vb = setup.value_bits
    offsets = [int(full(tile * k)) - int(full(0)) for k in range(stages)]
    bad = next((k for k, d in enumerate(offsets) if (d * vb) % (8 * period)), None)
    items.append(Fact(f"every stage begins at a multiple of the tile's base alignment ({period} bytes)", bad is None,
                      "all do" if bad is None else f"stage {bad} begins {offsets[bad] * vb // 8} bytes after stage 0",
                      f"multiples of {period} bytes", blame, domain_size=stages))
    return items


def base_period(setup: TiledSetup) -> int:
    """The alignment (bytes) of the tile's base the theorems quantify over: the copy instruction's and the swizzle's
    period (theorem 6)."""
    model = setup.copy_hw
    period = _swizzle_period_bytes(setup.smem.layout, setup.value_bits)
    return max(model.align_bytes, model.base_align_bytes, period) if model is not None else period


# --- theorem 10 -------------------------------------------------------------------------------------------

def _wide_coordinates(shape: Any, width: int) -> Layout:
    """(row, col) -> row + width * col over the tile's own (possibly nested) shape: an index beyond a mode's
    extent stays recognisable (width exceeds every row index the partition can reach)."""
    return Layout(tuple(shape), (compact_col_major(shape[0], 1), compact_col_major(shape[1], width)))


def _touched(setup: TiledSetup, chain: OperandChain) -> tuple[Any, int] | Unsupported:
    """_touched_coordinates, or Unsupported when the algebra refuses to partition the widened coordinates (CuTe
    partitions the tile itself; this construction is the prover's, so its failure decides nothing)."""
    try:
        return _touched_coordinates(setup, chain)
    except AlgebraError as e:
        return Unsupported(f"the copy's partition of the tile's (row, col) coordinates cannot be built here "
                           f"({e}); the shared tile's own partition is judged by theorems 6 and 8")


def _touched_coordinates(setup: TiledSetup, chain: OperandChain) -> tuple[Any, int]:
    """The copy's shared-memory partition of the tile's (row, col) coordinates, as `row + width * col` with a
    width beyond every row index it can reach (so that a coordinate outside the tile stays recognisable)."""
    layout = setup.smem.layout
    rows, cols = int(layout.mode(0).size()), int(layout.mode(1).size())
    mi, ki = Operand.of(setup.operand).modes
    tile = (setup.mma.tile_size(mi), setup.mma.tile_size(ki))
    copy_tile = [int(x) for x in flatten_to_tuple(setup.tiled_copy.tiler_shape())]
    width = 1 << (max(rows, cols, *tile, *copy_tile).bit_length() + 1)
    wide = _wide_coordinates(tuple(setup.coord_tensor.shape), width)
    tc = setup.tiled_copy
    if chain.mma_source:
        return setup.mma.thrfrg(wide, setup.operand), width
    return (tc.tidfrg_D(wide) if chain.store else tc.tidfrg_S(wide)), width


def smem_in_bounds(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    """Every coordinate the copy's shared-memory partition touches is inside the tile; its offset inside the
    tile's footprint."""
    layout = setup.smem.layout
    if layout.rank() != 2:
        return [Fact("the shared-memory tile is (rows, cols)", False, f"rank {layout.rank()}", "rank 2",
                     suspects.smem("the shared-memory layout"))]
    op = setup.operand
    rows, cols = int(layout.mode(0).size()), int(layout.mode(1).size())
    mi, ki = Operand.of(op).modes
    tile = (setup.mma.tile_size(mi), setup.mma.tile_size(ki))
    small = suspects.smem(f"the shared-memory {op} tile ({rows}x{cols}) is not a whole number of the tiled MMA's "
                          f"{op} tiles ({tile[0]}x{tile[1]})")
    whole = Fact(f"the {op} tile is a whole number of the tiled MMA's {op} tiles",
                 rows % tile[0] == 0 and cols % tile[1] == 0, f"{rows}x{cols}", f"multiples of {tile[0]}x{tile[1]}",
                 small)
    items: list[Item] = [whole]
    touched = _touched(setup, chain)
    if isinstance(touched, Unsupported):      # the whole-number fact still refutes on its own
        return touched if whole.holds else items
    wide_frg, width = touched
    t, v, inst = chain.t, chain.v_mem(), chain.inst
    w = chain.source_point(wide_frg, wide_frg, t, v)
    row, col = w % width, w // width
    offset = chain.memory_offset(t, v)
    footprint = int(layout.cosize())
    claim = and_(lt(row, rows), lt(col, cols), lt(offset, footprint))
    items.append(Claim(Obligation(f"every element the copy touches is inside the {rows}x{cols} tile and its "
                                  f"{footprint} elements", [t, v] + inst, claim,
                                  shown={"row": row, "col": col, "offset": offset}, note=f"footprint {footprint}"),
                       Blame(((lt(row, rows) & lt(col, cols), suspects.smem(
                           f"the swizzle of the shared-memory layout reaches beyond its {footprint} elements")),),
                           small), Trace.MEMORY_SIDE))
    return items


# --- theorem 18 -------------------------------------------------------------------------------------------

def _store_writers(chain: OperandChain, suffix: str = "") -> tuple[list[Var], Expr]:
    """The store's writes: (thread, value, instance...) variables and the tiled thread they name.  Only the lanes
    that provide addresses write (stmatrix: 8 per 8x8 matrix; the others' destination modes repeat them)."""
    model = chain.model
    assert model is not None
    lanes = min(model.address_lanes or chain.atom_threads, chain.atom_threads)
    groups = chain.nthr // chain.atom_threads
    inst = [Var(v.name + suffix, v.size) for v in chain.inst]
    value = Var("value" + suffix, chain.n_mem)
    if lanes == chain.atom_threads:
        t = Var(chain.t.name + suffix, chain.nthr)
        return [t, value] + inst, t
    lane = Var("lane" + suffix, lanes)
    if groups == 1:
        return [lane, value] + inst, lane
    group = Var("warp" + suffix, groups)
    return [group, lane, value] + inst, group * chain.atom_threads + lane


def c_store_ownership(setup: TiledSetup, chain: OperandChain, suspects: Suspects) -> Plan:
    """Theorem 18: the C store writes each element of the tile once (once per K slice with `reduction: K`)."""
    model = setup.copy_hw
    if model is None:
        return _no_copy_model(setup)
    layout = setup.smem.layout
    if layout.rank() != 2:
        return [Fact("the shared-memory tile is (rows, cols)", False, f"rank {layout.rank()}", "rank 2",
                     suspects.smem("the shared-memory layout"))]
    rows, cols = int(layout.mode(0).size()), int(layout.mode(1).size())
    touched = _touched(setup, chain)
    if isinstance(touched, Unsupported):
        return touched
    wide_frg, width = touched
    k_slices = int(setup.mma.atom_layout_mnk.mode(2).size())
    reduced = setup.check.reduction == "K"
    slices = k_slices if reduced else 1

    def written(suffix: str) -> tuple[list[Var], Expr, Expr]:
        vs, t = _store_writers(chain, suffix)
        value, inst = vs[-1 - len(chain.inst)], vs[len(vs) - len(chain.inst):]
        rest = tuple(inst[1:])
        w = layout_expr(wide_frg, (t, (value, inst[0]), rest if len(rest) > 1 else rest[0]))
        return vs, t, w

    over, t1, w1 = written("")
    second, t2, w2 = written("2")
    row, col = w1 % width, w1 // width
    k1, k2 = thread_coord_exprs(setup.mma, t1)[3], thread_coord_exprs(setup.mma, t2)[3]
    key1, key2 = (w1 + width * width * k1, w2 + width * width * k2) if reduced else (w1, w2)
    writes = 1
    for v in over:
        writes *= v.size
    blame_split = suspects.tiled_mma(f"the tiled MMA splits K over {k_slices} thread groups: each holds partial "
                                     "sums of the same C elements, so a reduction is required before the store "
                                     "(declare it with `reduction: K`)")
    one_writer = (f"each element of the {rows}x{cols} C tile is written by at most one (thread, value) of the store"
                  + (" per K slice" if reduced else ""))
    note = ""
    if k_slices > 1 and not reduced:
        note = (f"the tiled MMA splits K over {k_slices} thread groups; their partial sums of one C element need a "
                "reduction")
    different = or_(*[ne(a, b) for a, b in zip(over, second)])
    blame: Suspect | Blame = copy_construction(suspects, setup.check)
    if k_slices > 1 and not reduced:
        blame = Blame(((ne(k1, k2), blame_split),), copy_construction(suspects, setup.check))
    items: list[Item] = [
        Claim(Obligation(f"every store lands inside the {rows}x{cols} C tile", over, and_(lt(row, rows), lt(col, cols)),
                         shown={"row": row, "col": col}), copy_construction(suspects, setup.check), subject="C"),
        Claim(Obligation(one_writer, over + second, implies(different, ne(key1, key2)),
                         shown={"row": row, "col": col, "thread": t1, "thread2": t2, "K slice": k1, "K slice2": k2},
                         distinct=Distinct(key1, tuple(over), tuple(second)), note=note), blame, subject="C"),
        Fact(f"the store writes as many elements as the C tile has{' per K slice' if reduced else ''}",
             writes == rows * cols * slices, f"{writes} writes", f"{rows * cols * slices} elements "
             f"({rows}x{cols}{f' x {slices} K slices' if reduced else ''})", copy_construction(suspects, setup.check),
             subject="C"),
    ]
    injective = smem_injective(setup, suspects)
    if isinstance(injective, list):
        items += injective
    return items


# --- theorem 12 -------------------------------------------------------------------------------------------

def fragment_element(setup: TiledSetup) -> ValueType:
    """The element type of the register fragment the copy moves: the MMA operand's; for a C store converted
    before it is stored, or an A / B operand converted in registers after the load, the shared tile's
    (`smem_type`)."""
    check, op = setup.check, setup.operand
    if (op == "C" or setup.converted) and check.smem_type is not None:
        return check.smem_type
    return setup.side.operand_type


def copy_value_type(setup: TiledSetup, suspects: Suspects) -> Plan:
    """Theorem 12: the copy moves whole fragment elements, one per value.  The tiled copy partitions the tile in
    elements; a value of another width at an element's place covers parts of its neighbours (wider) or part of
    the element (narrower).  An operand converted in registers (`smem_type`) is copied as the tile's type into a
    buffer laid out like the fragment, then converted element by element: its copy moves whole elements of the
    tile's type, and the conversion is one that keeps each value's register."""
    check, op = setup.check, setup.operand
    vt = check.value_type
    if vt is None:
        return Unsupported("the check names no value_type")
    operand_type = setup.side.operand_type
    converting: list[Item] = []
    if setup.converted:
        assert check.smem_type is not None
        conversion = register_conversion_fact(check.smem_type, operand_type, op, suspects.field(
            "smem_type", f"the shared tile's type {check.smem_type.name} (smem_type), converted in registers to the "
                         f"MMA's {op} type {operand_type.name}"), check.lookup_table)
        if isinstance(conversion, (Unsupported, Refusal)):
            return conversion
        converting.append(conversion)
    elem = fragment_element(setup)
    if op == "C" and check.smem_type is not None:
        what = f"the converted C fragment ({elem.name}, smem_type)"
    elif setup.converted:
        what = f"the {op} load buffer ({elem.name}, smem_type; converted to {operand_type.name} in registers)"
    else:
        what = f"the MMA's {op} fragment ({elem.name})"
    ok = vt.bits == elem.bits
    if ok:
        slice_text = f"value v moves element v: bits [{vt.bits}*v, {vt.bits}*(v+1))"
    elif vt.bits > elem.bits:
        slice_text = (f"value 0 moves bits [0, {vt.bits}) of the fragment: elements 0..{-(-vt.bits // elem.bits) - 1} "
                      f"of {elem.bits} bits, while value 1 starts at element 1 (bit {elem.bits}): the slices overlap"
                      + ("" if vt.bits % elem.bits == 0 else " and end inside an element"))
    else:
        slice_text = (f"value 0 moves bits [0, {vt.bits}) of element 0, which has {elem.bits} bits: "
                      f"{elem.bits - vt.bits} bits of every element are never copied")
    hint = ""
    if op == "C" and vt.bits < elem.bits and check.smem_type is None:
        hint = f"; an epilogue that converts to {vt.name} before storing declares it with `smem_type: {vt.name}`"
    elif vt.bits < elem.bits and check.smem_type is None:
        hint = (f"; a mainloop that loads {vt.name} and converts it in registers declares it with "
                f"`smem_type: {vt.name}`")
    suspect = suspects.value_type(f"the copy's value_type {vt.name} ({vt.bits} bits) against {what} "
                                  f"({elem.bits} bits){hint}")
    return [Fact(f"the copy's value type has the width of {what}", ok, f"{vt.name} ({vt.bits} bits): {slice_text}",
                 f"{elem.bits} bits per value", suspect, subject=op,
                 point=None if ok else {"value": 0}, domain_size=0)] + converting
