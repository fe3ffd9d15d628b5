"""Theorems 4-8: the tiled copy glued to the tiled MMA, over every thread, value and copy instance.

Shared-memory offsets are expressions of the *unsliced* partition layouts (thread as a variable),
which equal the per-thread partitions by construction; register fragments are per-thread layouts
that do not depend on the thread (see setup.py).  Names: t = tiled thread, v = value inside one
copy atom, r0 = rest value (repeats of the atom's values), r1, r2... = the partition's rest modes.
"""
from __future__ import annotations

from typing import Any

from ..algebra.inttuple import flatten_to_tuple, get
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout
from ..symbolic.expr import TRUE, Const, Expr, Var, and_, eq, implies, lt, ne, or_
from ..symbolic.layouts import layout_expr
from ..symbolic.solver import Obligation
from .setup import TiledSetup

N0 = Var("n", 1)


def _fail(theorem: str, title: str, note: str) -> Obligation:
    return Obligation(theorem, title, [N0], eq(0, 1), note=note)


def _sizes(layout: Any) -> list[int]:
    return [int(m.size()) for m in layout.modes()]


def thread_coord_exprs(mma, t: Expr) -> list[Expr]:
    """thr_mma.get_slice(t).thr_vmnk_: the flat (v, m, n, k) coordinate of thread t, as expressions."""
    vmnk = mma.thr_layout_vmnk
    out = []
    for i in range(4):
        shape, stride = flatten_to_tuple(get(vmnk.shape, i)), flatten_to_tuple(get(vmnk.stride, i))
        idx: Expr = Const(0)
        mult = 1
        for s, d in zip(shape, stride):
            s, d = int(s), int(d)
            if s != 1:
                idx = idx + ((t // d) % s) * mult if d else idx
            mult *= s
        out.append(idx)
    return out


def mma_thread_coord(setup: TiledSetup, mma, t: Expr) -> tuple:
    v, m, n, k = thread_coord_exprs(mma, t)
    return {"A": (v, (m, k)), "B": (v, (n, k)), "C": (v, (m, n))}[setup.operand]


def _split_fragment_index(frag: Layout, s: Expr) -> tuple:
    """A 1-D fragment index -> (value, (rest...)) as the thrfrg layout's mode 1 is indexed."""
    sizes = _sizes(frag)
    parts: list[Expr] = []
    rest = s
    for i, n in enumerate(sizes):
        if i == len(sizes) - 1:
            parts.append(rest)
        else:
            parts.append(rest % n)
            rest = rest // n
    return parts[0], tuple(parts[1:])


class Vars:
    """The quantified variables of a tiled check."""

    def __init__(self, setup: TiledSetup) -> None:
        tc = setup.tiled_copy
        self.nthr = tc.num_threads
        who = "lane" if self.nthr == 32 else "thread"
        self.t = Var(who, self.nthr)
        self.inst_sizes = setup.instance_shape()
        self.inst = [Var(f"r{i}", n) for i, n in enumerate(self.inst_sizes)]

    def inst_vars(self) -> list[Var]:
        return list(self.inst)

    def mem_coord(self, thread: Expr, value: Expr) -> tuple:
        rest = tuple(self.inst[1:])
        return (thread, (value, self.inst[0]), rest if len(rest) > 1 else rest[0])

    def reg_coord(self, value: Expr) -> tuple:
        return ((value, self.inst[0]),) + tuple(self.inst[1:])


def atom_lane(setup: TiledSetup, t: Expr) -> tuple[Expr, Expr]:
    """Tiled thread -> (copy atom instance, lane inside the atom)."""
    n = setup.typed.num_thr
    return t // n, t % n


# --- theorem 4 --------------------------------------------------------------------------------------

def register_side_matches_mma(setup: TiledSetup) -> list[Obligation]:
    tc = setup.tiled_copy
    reg_tv = tc.layout_S_tv() if setup.is_store else tc.layout_D_tv()
    side = "S" if setup.is_store else "D"
    mma_tv = setup.mma.get_layout_tv(setup.operand)
    obs: list[Obligation] = []
    copy_tile = tuple(int(x) for x in flatten_to_tuple(tc.tiler_shape()))
    mi, ki = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[setup.operand]
    mma_tile = (setup.mma.tile_size(mi), setup.mma.tile_size(ki))
    if copy_tile != mma_tile:
        obs.append(_fail("copy.dst_matches_mma", "the copy's tile is not the MMA operand's tile",
                         f"copy tile {copy_tile} (make_tiled_copy_{setup.copy_for}), MMA {setup.operand} tile "
                         f"{mma_tile}"))
    nthr, nval = _sizes(reg_tv)
    mthr, mval = _sizes(mma_tv)
    if (nthr, nval) != (mthr, mval):
        obs.append(_fail("copy.dst_matches_mma", "the copy and the MMA disagree on threads/values",
                         f"copy: {nthr} threads x {nval} values, MMA {setup.operand}: {mthr} threads x {mval} values"))
    if obs:
        return obs
    t, v = Var("thread" if nthr != 32 else "lane", nthr), Var("value", nval)
    lhs = layout_expr(reg_tv, (t, v))
    rhs = layout_expr(mma_tv, (t, v))
    obs.append(Obligation("copy.dst_matches_mma",
                          f"F o right_inverse(R) o {side} equals the MMA's {setup.operand} TV layout", [t, v],
                          eq(lhs, rhs), lhs=lhs, rhs=rhs, shown={f"layout{side}_TV": lhs, "mma TV": rhs}))
    ref = setup.typed.ref
    from ..algebra.ops import right_inverse
    rinv = right_inverse(ref)
    if int(rinv.size()) < int(ref.size()):
        obs.append(_fail("copy.dst_matches_mma", "right_inverse(R) covers all of R",
                         f"right_inverse(R) = {rinv} has {int(rinv.size())} points, R = {ref} has {int(ref.size())}"))
    else:
        i = Var("i", int(ref.size()))
        back = layout_expr(ref, layout_expr(rinv, i))
        obs.append(Obligation("copy.dst_matches_mma", "R(right_inverse(R)(i)) = i", [i], eq(back, i),
                              lhs=back, rhs=i))
    return obs


# --- theorem 5 ----------------------------------------------------------------------------------------

def routes(setup: TiledSetup, V: Vars, dst_value: Expr, t: Expr):
    """For destination (tiled thread t, value v): (source tiled thread, source value, atom lane, premise)."""
    model = setup.copy_hw
    group, lane = atom_lane(setup, t)
    vb = setup.value_bits
    s_lane, s_bit = model.source_of(lane, dst_value * vb)
    src_thread = group * setup.typed.num_thr + s_lane
    # a value split across source elements shows up as a wrong element below (theorem 3 names it)
    return src_thread, s_bit // vb, lane, lt(lane, model.dst_lanes)


def source_matches_destination(setup: TiledSetup) -> list[Obligation]:
    if setup.copy_hw is None:
        return []
    tc = setup.tiled_copy
    ls, ld = tc.layout_S_tv(), tc.layout_D_tv()
    nvs, nvd = setup.typed.num_val_src, setup.typed.num_val_dst
    rest = int(ls.mode(1).size()) // nvs
    t = Var("lane" if tc.num_threads == 32 else "thread", tc.num_threads)
    v = Var("value", nvd)
    r = Var("r0", rest)
    st, sv, lane, premise = routes(setup, Vars(setup), v, t)
    src_q = layout_expr(ls, (st, sv + nvs * r))
    dst_q = layout_expr(ld, (t, v + nvd * r))
    return [Obligation("copy.src_matches_dst",
                       "the coordinate partition_S gives the routed source equals the destination's",
                       [t, v, r], eq(src_q, dst_q), premise=premise, lhs=dst_q, rhs=src_q,
                       shown={"src thread": st, "src value": sv, "layoutS_TV(src)": src_q,
                              "layoutD_TV(dst)": dst_q})]


# --- theorem 6 ----------------------------------------------------------------------------------------

def _swizzle_period_bytes(layout: Any, elem_bytes: float) -> int:
    if isinstance(layout, ComposedLayout) and hasattr(layout.a, "domain"):
        return int(layout.a.domain() * elem_bytes)
    return 1


def addressing(setup: TiledSetup) -> list[Obligation]:
    model = setup.copy_hw
    if model is None or model.memory_side is None:
        return []
    V = Vars(setup)
    nv = setup.typed.num_val_dst if setup.is_store else setup.typed.num_val_src
    vb = setup.value_bits
    if nv * vb != model.row_bytes * 8:
        return [_fail("copy.addressing", "each address names one whole row/vector",
                      f"{nv} values of {vb} bits per thread, the instruction moves {model.row_bytes} bytes per address")]
    frg = setup.memory_frg
    t = V.t
    v = Var("value", nv)
    _, lane = atom_lane(setup, t)
    providing = lt(lane, model.address_lanes)
    off0 = layout_expr(frg, V.mem_coord(t, Const(0)))
    offv = layout_expr(frg, V.mem_coord(t, v))
    inst = V.inst_vars()
    obs = [Obligation("copy.addressing", f"the {nv} values each lane names are contiguous in shared memory",
                      [t, v] + inst, eq(offv, off0 + v), premise=providing, lhs=offv, rhs=off0 + v,
                      shown={"row start offset": off0, "value offset": offv})]
    eb = setup.elem_bytes
    if eb != int(eb):
        return obs + [_fail("copy.addressing", "addresses are whole bytes", f"{vb}-bit elements")]
    eb = int(eb)
    period = max(model.align_bytes, _swizzle_period_bytes(setup.smem.layout, eb))
    base = Var("base", 1 << 12)
    addr = base * period + off0 * eb
    obs.append(Obligation("copy.addressing",
                          f"every row address is {model.align_bytes}-byte aligned for every base aligned to {period}"
                          " bytes", [t, base] + inst, eq(addr % model.align_bytes, 0), premise=providing,
                          shown={"address - base": off0 * eb}, count_over=[t.name] + [x.name for x in inst]))
    return obs


# --- theorem 7 ----------------------------------------------------------------------------------------

def _retile_sizes(ret: Layout) -> list[int]:
    head = ret.mode(0)
    return [int(head.mode(1).size()) if head.rank() > 1 else 1] + [int(ret.mode(i).size()) for i in range(1, ret.rank())]


def fragment_aliasing(setup: TiledSetup) -> list[Obligation]:
    frag, linv, ret = setup.fragment, setup.fragment_inverse, setup.retiled
    obs: list[Obligation] = []
    V = Vars(setup)
    nfrag = int(frag.size())
    # the fragment is compact: its left inverse recovers every slot
    s = Var("slot", nfrag)
    back = layout_expr(linv, layout_expr(frag, s))
    obs.append(Obligation("fragment.aliasing", "partition_fragment's layout is one-to-one (left inverse exists)",
                          [s], eq(back, s), lhs=back, rhs=s))
    # copy instances of retile and of the memory partition line up (CuTe's copy() iterates them together)
    ret_sizes = _retile_sizes(ret)
    if ret_sizes != V.inst_sizes:
        obs.append(_fail("fragment.aliasing", "retile and partition have the same copy instances",
                         f"retiled fragment {ret} repeats {ret_sizes}, the shared-memory partition {V.inst_sizes}"))
        return obs
    n_reg_vals = int(ret.mode(0).mode(0).size()) if ret.mode(0).rank() > 1 else int(ret.mode(0).size())
    v = Var("value", n_reg_vals)
    inst = V.inst_vars()
    u = layout_expr(ret, V.reg_coord(v))
    slot = layout_expr(linv, u)
    obs.append(Obligation("fragment.aliasing", "every register the copy writes is a fragment register",
                          [v] + inst, and_(lt(u, int(frag.cosize())), eq(layout_expr(frag, slot), u)),
                          shown={"register": u, "fragment slot": slot}))
    if int(ret.size()) != nfrag:
        obs.append(_fail("fragment.aliasing", "the copy writes every fragment register once",
                         f"{int(ret.size())} copied values for {nfrag} fragment registers"))
    # register packing of copy_unpack / mma_unpack: recast<uint32_t> must see whole, aligned registers
    per_reg = max(1, 32 // setup.value_bits)
    if per_reg > 1 and n_reg_vals % per_reg == 0:
        j = Var("register", n_reg_vals // per_reg)
        e = Var("part", per_reg)
        first = layout_expr(ret, V.reg_coord(j * per_reg))
        part = layout_expr(ret, V.reg_coord(j * per_reg + e))
        obs.append(Obligation("fragment.aliasing",
                              f"copy_unpack's recast to 32-bit registers: {per_reg} values per register, contiguous "
                              "and aligned", [j, e] + inst, and_(eq(part, first + e), eq(first % per_reg, 0)),
                              shown={"first register slot": first, "slot": part}))
    # coordinates: what the copy's register side holds vs what the MMA expects at that register
    t = V.t
    copy_q = layout_expr(setup.register_frg_coords, V.mem_coord(t, v))
    fv, frest = _split_fragment_index(frag, slot)
    mma_q = layout_expr(setup.mma_frg_coords, (mma_thread_coord(setup, setup.mma, t), (fv, frest)))
    obs.append(Obligation("fragment.aliasing",
                          "the coordinate each copied value carries is the one partition_fragment expects there",
                          [t, v] + inst, eq(copy_q, mma_q), premise=lt(t, setup.mma.num_threads()),
                          lhs=copy_q, rhs=mma_q,
                          shown={"register": u, "fragment slot": slot, "copy coordinate": copy_q,
                                 "MMA coordinate": mma_q}))
    return obs


# --- theorem 8 ----------------------------------------------------------------------------------------

def end_to_end(setup: TiledSetup) -> list[Obligation]:
    model, hw = setup.copy_hw, setup.hw_mma_frg
    if model is None or hw is None:
        return []
    if setup.tiled_copy.num_threads != setup.mma.num_threads():
        return [_fail("end_to_end", "the copy runs on the MMA's threads",
                      f"the copy is built for {setup.tiled_copy.num_threads} threads, the MMA uses "
                      f"{setup.mma.num_threads()}")]
    V = Vars(setup)
    ret, linv, frag = setup.retiled, setup.fragment_inverse, setup.fragment
    if _retile_sizes(ret) != V.inst_sizes:
        return [_fail("end_to_end", "the copy's register and shared-memory sides have the same instances",
                      f"retiled fragment {ret} vs shared-memory partition instances {V.inst_sizes}")]
    t = V.t
    inst = V.inst_vars()
    mem = setup.memory_frg
    v = Var("value", setup.typed.num_val_dst)
    st, sv, lane, premise = routes(setup, V, v, t)
    if setup.is_store:
        # store: shared-memory element (t's row, position v) <- register sv of the routed lane st
        mem_t, mem_v, reg_t, reg_v = t, v, st, sv
        premise = and_(premise, lt(lane, model.address_lanes))
        delivered_name = "written offset"
        title = "every accumulator lands at smem[layout(coordinate the instruction produced there)]"
    else:
        # load: register v of thread t <- position sv of the routed lane st's row/vector
        mem_t, mem_v, reg_t, reg_v = st, sv, t, v
        delivered_name = "delivered offset"
        title = "every fragment register receives smem[layout(coordinate the instruction reads there)]"
    delivered = layout_expr(mem, V.mem_coord(mem_t, Const(0))) + mem_v
    u = layout_expr(ret, V.reg_coord(reg_v))
    fv, frest = _split_fragment_index(frag, layout_expr(linv, u))
    expected = layout_expr(hw, (mma_thread_coord(setup, setup.hw_tiled_mma, reg_t), (fv, frest)))
    shown = {"src thread": st, "src value": sv, "register": u, delivered_name: delivered,
             "expected offset": expected}
    return [Obligation("end_to_end", title, [t, v] + inst, eq(delivered, expected), premise=premise,
                       lhs=delivered, rhs=expected, shown=shown)]


__all__ = ["register_side_matches_mma", "source_matches_destination", "addressing", "fragment_aliasing",
           "end_to_end", "Vars", "TRUE", "implies", "ne", "or_", "Any"]
