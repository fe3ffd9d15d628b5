"""Theorems 1-3: an MMA atom alone (well-formed, equal to the instruction) and a copy atom alone (routing)."""
from __future__ import annotations

from ..algebra.inttuple import flatten_to_tuple
from ..algebra.layout import Layout
from ..cute.copy import TypedCopyAtom
from ..hardware.base import CopyModel, MMAModel
from ..symbolic.expr import TRUE, Var, and_, eq, implies, lt, ne, or_
from ..symbolic.layouts import layout_expr
from ..symbolic.solver import Obligation

OPERAND_EXTENT = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}


def _thr_val_sizes(layout: Layout) -> tuple[int, int]:
    return int(layout.mode(0).size()), int(layout.mode(1).size()) if layout.rank() > 1 else 1


def _about(obs: list[Obligation], operand: str) -> list[Obligation]:
    for ob in obs:
        ob.subject = operand
    return obs


def bijective(name: str, layout: Layout, shape_mnk: tuple[int, int, int], operand: str) -> list[Obligation]:
    """Theorem 1: (thr, val) -> coordinate is a bijection onto the operand tile."""
    return _about(_bijective(name, layout, shape_mnk, operand), operand)


def _bijective(name: str, layout: Layout, shape_mnk: tuple[int, int, int], operand: str) -> list[Obligation]:
    i, j = OPERAND_EXTENT[operand]
    extent = shape_mnk[i] * shape_mnk[j]
    nthr, nval = _thr_val_sizes(layout)
    thread_stride_zero = all(int(d) == 0 for d in flatten_to_tuple(layout.mode(0).stride))
    t1, v1 = Var("thread", nthr), Var("value", nval)
    q1 = layout_expr(layout, (t1, v1))
    obs = [Obligation("mma.bijective", f"{name} {operand}: every (thread, value) lands inside the "
                      f"{shape_mnk[i]}x{shape_mnk[j]} tile", [t1, v1], lt(q1, extent), lhs=q1,
                      shown={"coordinate": q1}, note=f"tile size {extent}")]
    if thread_stride_zero and nthr > 1:
        # a shared-memory (descriptor) operand: every thread sees the whole tile
        v2 = Var("value2", nval)
        q2 = layout_expr(layout, (t1, v2))
        obs.append(Obligation("mma.bijective", f"{name} {operand}: each thread's values are distinct",
                              [t1, v1, v2], implies(ne(v1, v2), ne(q1, q2)), premise=TRUE,
                              shown={"coordinate": q1, "coordinate2": q2}))
        if nval != extent:
            obs.append(_size_mismatch(name, operand, nval, extent))
        return obs
    unreached_obs = _unreached_obligation(name, layout, extent, shape_mnk, operand)
    obs += unreached_obs
    t2, v2 = Var("thread2", nthr), Var("value2", nval)
    q2 = layout_expr(layout, (t2, v2))
    obs.append(Obligation("mma.bijective", f"{name} {operand}: no two (thread, value) pairs share a coordinate",
                          [t1, v1, t2, v2], implies(or_(ne(t1, t2), ne(v1, v2)), ne(q1, q2)),
                          shown={"coordinate": q1, "coordinate2": q2}))
    if nthr * nval != extent:
        obs.append(_size_mismatch(name, operand, nthr * nval, extent))
    return obs


def _unreached_obligation(name: str, layout: Layout, extent: int, shape_mnk: tuple[int, int, int],
                          operand: str) -> list[Obligation]:
    """Injective + inside the tile + as many pairs as coordinates implies onto; when that fails, name the
    coordinates nobody holds (computed exactly, stated as an obligation over the tile)."""
    unreached = _unreached(layout, extent)
    if not unreached:
        return []
    q = Var("coordinate", extent)
    return [Obligation("mma.bijective", f"{name} {operand}: every coordinate of the tile is held by some "
                       "(thread, value)", [q], and_(*[ne(q, u) for u in unreached]),
                       note=f"{len(unreached)} of {extent} coordinates are never reached "
                            f"(first: {_coord_text(unreached[0], shape_mnk, operand)})")]


def _unreached(layout: Layout, extent: int) -> list[int]:
    image = set(layout.values())
    return [q for q in range(extent) if q not in image]


def _coord_text(q: int, shape_mnk: tuple[int, int, int], operand: str) -> str:
    i, j = OPERAND_EXTENT[operand]
    rows = shape_mnk[i]
    names = {"A": ("m", "k"), "B": ("n", "k"), "C": ("m", "n")}[operand]
    return f"offset {q} = {operand}({names[0]}={q % rows}, {names[1]}={q // rows})"


def _size_mismatch(name: str, operand: str, have: int, want: int) -> Obligation:
    n = Var("n", 1)
    return Obligation("mma.bijective", f"{name} {operand}: {have} (thread, value) pairs for a tile of {want}",
                      [n], eq(have, want), note="sizes differ")


def matches_instruction(name: str, layout: Layout, thr_id: Layout, model: MMAModel, operand: str,
                        shape_mnk: tuple[int, int, int]) -> list[Obligation]:
    """Theorem 2: CuTe's operand layout equals the PTX ISA fragment, slot by slot."""
    return _about(_matches_instruction(name, layout, thr_id, model, operand, shape_mnk), operand)


def _matches_instruction(name: str, layout: Layout, thr_id: Layout, model: MMAModel, operand: str,
                         shape_mnk: tuple[int, int, int]) -> list[Obligation]:
    frag = model.operand(operand)
    nthr, nval = _thr_val_sizes(layout)
    obs: list[Obligation] = []
    if tuple(shape_mnk) != tuple(model.shape_mnk):
        n = Var("n", 1)
        return [Obligation("mma.matches_instruction", f"{name}: shape {shape_mnk} vs the instruction's "
                           f"{model.shape_mnk}", [n], eq(0, 1), note="shape differs from the instruction")]
    if nval != frag.elements:
        n = Var("n", 1)
        return [Obligation("mma.matches_instruction", f"{name} {operand}: {nval} values per thread, the instruction "
                           f"has {frag.elements}", [n], eq(nval, frag.elements), note="value count differs")]
    d0, _ = model.extent(operand)
    t, v = Var("thread", nthr), Var("value", nval)
    lane = layout_expr(thr_id, t)
    c0, c1 = frag.coord(lane, v)
    hw = c0 + d0 * c1
    cute = layout_expr(layout, (t, v))
    obs.append(Obligation("mma.matches_instruction",
                          f"{name} {operand}: CuTe's layout equals the {model.instruction} fragment",
                          [t, v], eq(cute, hw), lhs=cute, rhs=hw, shown={"lane": lane, "cute": cute, "ptx": hw}))
    return obs


def copy_routing(name: str, thr_id: Layout, src: Layout, dst: Layout, model: CopyModel,
                 typed: TypedCopyAtom | None) -> list[Obligation]:
    """Theorem 3: S(src) == D(dst) for the pairs the hardware routes; bits, then value units."""
    n = Var("n", 1)
    if model.invalid:
        return [Obligation("copy.routing", f"{name}: {model.instruction} is an instruction", [n], eq(0, 1),
                           note=f"no such instruction: {model.invalid} ({model.section})")]
    nthr = int(thr_id.size())
    sbits, dbits = _thr_val_sizes(src)[1], _thr_val_sizes(dst)[1]
    problems = []
    if thr_id.values() != list(range(nthr)):
        # the models are written per lane; a copy atom whose thread i is not lane i is outside them
        problems.append(f"thr_id {thr_id} does not map thread i to lane i (not supported for copy atoms)")
    if nthr != model.lanes:
        problems.append(f"{nthr} threads, the instruction uses {model.lanes}")
    if sbits != model.src_bits:
        problems.append(f"{sbits} source bits per thread, the instruction reads {model.src_bits}")
    if dbits != model.dst_bits:
        problems.append(f"{dbits} destination bits per thread, the instruction writes {model.dst_bits}")
    if problems:
        return [Obligation("copy.routing", f"{name}: " + "; ".join(problems), [n], eq(0, 1),
                           note="traits do not have the instruction's shape")]
    lane = Var("lane", model.dst_lanes)
    bit = Var("bit", model.dst_bits)
    s_lane, s_bit = model.source_of(lane, bit)
    # lanes are thread ids; CuTe's thread index t has lane ThrID(t) (identity for the 32:1 warp atoms)
    s_val = layout_expr(src, (s_lane, s_bit))
    d_val = layout_expr(dst, (lane, bit))
    obs = [Obligation("copy.routing", f"{name}: S(src) = D(dst) on every bit the {model.family} routes",
                      [lane, bit], eq(s_val, d_val), lhs=d_val, rhs=s_val,
                      shown={"src lane": s_lane, "src bit": s_bit, "D(dst)": d_val, "S(src)": s_val})]
    if typed is None:
        return obs
    vb = typed.value_bits
    nvd = typed.num_val_dst
    if nvd * vb != model.dst_bits:
        obs.append(Obligation("copy.routing", f"{name}: {nvd} values of {vb} bits for {model.dst_bits} "
                              "destination bits", [n], eq(nvd * vb, model.dst_bits), note="value count differs"))
        return obs
    v = Var("value", nvd)
    b = Var("value_bit", vb)
    l0, b0 = model.source_of(lane, v * vb)
    lb, bb = model.source_of(lane, v * vb + b)
    whole = and_(eq(b0 % vb, 0), eq(lb, l0), eq(bb, b0 + b))
    obs.append(Obligation("copy.routing", f"{name}: each {vb}-bit value moves whole (its bits stay together)",
                          [lane, v, b], whole, shown={"src lane": l0, "src bit": b0}))
    sv = layout_expr(typed.src, (l0, b0 // vb))
    dv = layout_expr(typed.dst, (lane, v))
    obs.append(Obligation("copy.routing", f"{name}: S(src) = D(dst) in {vb}-bit value units",
                          [lane, v], eq(sv, dv), premise=eq(b0 % vb, 0), lhs=dv, rhs=sv,
                          shown={"src lane": l0, "src value": b0 // vb, "D(dst)": dv, "S(src)": sv}))
    return obs
