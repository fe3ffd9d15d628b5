"""The article's chain for one register slot, with every intermediate number.

For a load: destination (lane, value) -> D -> internal index e -> right_inverse(R) -> reference
(thr, val) -> F -> q -> (row, col) -> smem offset -> byte address; on the hardware side the lane that
provides the row, the matrix, row, column, register and half; then retile_D and the MMA operand
register that aliases it.  For a store the same steps run from the accumulator register to the row
that stmatrix (or the vector store) writes.  Everything is computed with CuTe's exact layouts.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..algebra.inttuple import idx2crd
from ..algebra.ops import right_inverse
from ..symbolic.expr import Const
from ..theorems.setup import TiledSetup


@dataclass
class Step:
    label: str
    text: str


@dataclass
class Chain:
    title: str
    steps: list[Step] = field(default_factory=list)
    numbers: dict[str, Any] = field(default_factory=dict)

    def add(self, label: str, text: str, **numbers: Any) -> None:
        self.steps.append(Step(label, text))
        self.numbers.update(numbers)


def tile_coord(setup: TiledSetup, q: int) -> tuple[int, int]:
    """Colex index in the operand tile (tile_M x tile_K, ...) -> (row, col)."""
    mi, ki = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[setup.operand]
    rows = setup.mma.tile_size(mi)
    return q % rows, q // rows


def _instance(setup: TiledSetup, instance: tuple[int, ...]) -> list[int]:
    """The copy instance, padded with zeros to every instance mode."""
    return list(instance) + [0] * (len(setup.instance_shape()) - len(instance))


def _rest(inst: list[int]) -> Any:
    """The instance coordinate past the first mode, as the shared-memory partition takes it."""
    return tuple(inst[1:]) if len(inst) > 2 else (inst[1] if len(inst) > 1 else 0)


def _title(head: str, inst: list[int]) -> str:
    return head + (f", copy instance {tuple(inst)}" if any(inst) else "")


def _mma_step(ch: Chain, setup: TiledSetup, lane: int, tiled_v: int) -> None:
    """The MMA's side: F(lane, value) in the operand tile and its (row, col)."""
    op, F = setup.operand, setup.tiled_copy.layout_tv
    q = int(F(lane, tiled_v))
    r, c = tile_coord(setup, q)
    ch.add("MMA", f"F({lane},{tiled_v}) = {q} -> {op}({r},{c})    [F = TiledLayout_TV = {F}]", q=q, coord=(r, c))


def _hexaddr(off_elems: int, elem_bytes: float, base: int) -> str:
    b = int(off_elems * elem_bytes)
    return f"base+{b:#x} ({base + b:#x} for base {base:#x})"


def _val(x: Any) -> int:
    return int(x.value) if hasattr(x, "value") else int(x)


def load_chain(setup: TiledSetup, lane: int, value: int, instance: tuple[int, ...] = (), base: int = 0x1000) -> Chain:
    tc, typed = setup.tiled_copy, setup.typed
    op = setup.operand
    nthr = typed.num_thr
    inst = _instance(setup, instance)
    group, alane = lane // nthr, lane % nthr
    ch = Chain(_title(f"{op}: lane {lane}, value {value}", inst))
    # the MMA's demand: F(lane, value) in the tile, then the smem element
    tiled_v = value + typed.num_val_dst * inst[0]
    _mma_step(ch, setup, lane, tiled_v)
    # the copy's destination meaning
    D, R, S = typed.dst, typed.ref, typed.src
    e = int(D(alane, value))
    ch.add("copy D", f"D({alane},{value}) = {e}    [D = {D}]", e=e)
    rinv = right_inverse(R)
    ri = int(rinv(e))
    rt, rv = ri % int(R.mode(0).size()), ri // int(R.mode(0).size())
    ch.add("right_inverse(R)", f"right_inverse(R)({e}) = {ri} -> reference ({rt},{rv})    [R = {R}]",
           ref_index=ri, reference=(rt, rv))
    qd = int(tc.layout_D_tv()(lane, tiled_v))
    md, kd = tile_coord(setup, qd)
    ch.add("F o rinv(R) o D", f"layoutD_TV({lane},{tiled_v}) = {qd} -> {op}({md},{kd})", qd=qd)
    # the route the hardware takes
    hw = setup.copy_hw
    vb = setup.value_bits
    if hw is not None:
        sl, sb = hw.source_of(Const(alane), Const(value * vb))
        sl, sb = _val(sl), _val(sb)
        sv = sb // vb
        src_thread = group * nthr + sl
        es = int(S(sl, sv))
        ch.add("source", f"S({sl},{sv}) = {es} -> source ({sl},{sv}): lane {src_thread}, value {sv}",
               source=(src_thread, sv), e_src=es)
        # partition_S: the smem element and address of that source value and of its row start
        mem, rest = setup.memory_frg, _rest(inst)
        off = int(mem(src_thread, (sv, inst[0]), rest))
        off0 = int(mem(src_thread, (0, inst[0]), rest))
        qs = int(tc.layout_S_tv()(src_thread, sv + typed.num_val_src * inst[0]))
        ms_, ks_ = tile_coord(setup, qs)
        q0 = int(tc.layout_S_tv()(src_thread, typed.num_val_src * inst[0]))
        m0, k0 = tile_coord(setup, q0)
        eb = setup.elem_bytes
        ch.add("partition_S", f"layoutS_TV({src_thread},{sv}) = {qs} -> {op}({ms_},{ks_}) -> smem offset {off} -> "
               f"byte {_hexaddr(off, eb, base)}", smem_offset=off, byte=int(off * eb))
        ch.add("row start", f"layoutS_TV({src_thread},0) = {q0} -> {op}({m0},{k0}) -> smem offset {off0} -> "
               f"byte {_hexaddr(off0, eb, base)}", row_offset=off0, row_byte=int(off0 * eb))
        d = hw.describe(alane, value * vb)
        ch.add("hardware", f"{hw.instruction}: {hardware_text(d)}; lane {src_thread} gives the address, the value "
               f"lands in lane {lane}", hardware=d)
    # registers: retile_D and the fragment slot it aliases
    slot, fshape = _register_step(ch, setup, "retile_D", value, inst)
    per_reg = max(1, 32 // vb)
    reg = value // per_reg
    ch.add("copy_unpack", f"values ({per_reg * reg}..{per_reg * reg + per_reg - 1}) are dst{reg}; value {value} is "
           f"{_part(value % per_reg, per_reg)}", dst_register=reg)
    fv = slot % fshape[0]
    mreg = fv // per_reg
    hw_mma = setup.mma_hw
    if hw_mma is not None:
        frag_hw = hw_mma.operand(setup.operand)
        c = frag_hw.coord(Const(lane % 32), Const(fv))
        ch.add("mma_unpack", f"fragment value {fv} is {op.lower()}{mreg} {_part(fv % per_reg, per_reg)}; "
               f"{hw_mma.instruction} reads it as {op}({_val(c[0])},{_val(c[1])}) of its atom", operand_register=mreg)
    return ch


def _register_step(ch: Chain, setup: TiledSetup, label: str, value: int, inst: list[int]) -> tuple[int, list[int]]:
    """retile's register for (value, instance) and the partition_fragment slot that aliases it."""
    op = setup.operand
    ret, frag = setup.retiled, setup.fragment
    rcoord = ((value, inst[0]),) + tuple(inst[1:])
    u = int(ret(rcoord if len(rcoord) > 1 else rcoord[0]))
    slot = int(setup.fragment_inverse(u))
    fshape = [int(x.size()) for x in frag.modes()]
    slot_c = idx2crd(slot, tuple(fshape))
    ch.add(label, f"tXr{op}{_coord_text(rcoord)} = {u} = tCr{op}{_coord_text(slot_c)}"
           f"    [tXr{op} = {ret}, tCr{op} = {frag}]", register_slot=u, fragment_slot=slot_c)
    return slot, fshape


def hardware_text(d: dict) -> str:
    """'matrix 2, row 0, column 1, address lane 16 -> register 2, high half'."""
    where = [f"{k} {v}" for k, v in d.items() if k not in ("register", "half")]
    reg = d.get("register")
    tail = f" -> register {reg}" + (f", {d['half']} half" if "half" in d else "") if reg is not None else ""
    return ", ".join(where) + tail


def _coord_text(c: Any) -> str:
    from ..algebra.inttuple import fmt_plain
    t = fmt_plain(c if isinstance(c, tuple) else (c,))
    return t


def source_chain(setup: TiledSetup, lane: int, instance: tuple[int, ...] = (), base: int = 0x1000) -> Chain:
    """What address a lane gives on the copy's shared-memory side, and where it points."""
    op = setup.operand
    inst = _instance(setup, instance)
    ch = Chain(_title(f"{op}: lane {lane} as the address provider", inst))
    mem, rest = setup.memory_frg, _rest(inst)
    tv = setup.tiled_copy.layout_D_tv() if setup.is_store else setup.tiled_copy.layout_S_tv()
    nv = setup.typed.num_val_dst if setup.is_store else setup.typed.num_val_src
    side = "D" if setup.is_store else "S"
    eb = setup.elem_bytes
    offs = []
    for v in range(nv):
        q = int(tv(lane, v + nv * inst[0]))
        m, k = tile_coord(setup, q)
        off = int(mem(lane, (v, inst[0]), rest))
        offs.append(off)
        if v in (0, 1, nv - 1):
            ch.add(f"value {v}", f"layout{side}_TV({lane},{v}) = {q} -> {op}({m},{k}) -> smem offset {off} -> byte "
                   f"{_hexaddr(off, eb, base)}")
    contiguous = all(o == offs[0] + i for i, o in enumerate(offs))
    ch.add("row", f"smem offsets {offs} are {'contiguous' if contiguous else 'NOT contiguous'}; the row starts at "
           f"byte base+{int(offs[0] * eb):#x}, {'' if int(offs[0] * eb) % 16 == 0 else 'NOT '}16-byte aligned",
           offsets=offs)
    return ch


def _part(i: int, n: int) -> str:
    if n == 1:
        return "the whole register"
    if n == 2:
        return "high half" if i else "low half"
    return f"byte {i}" if n == 4 else f"part {i} of {n}"


def store_chain(setup: TiledSetup, lane: int, value: int, instance: tuple[int, ...] = (), base: int = 0x1000) -> Chain:
    """From an accumulator register (lane, copy source value) to the smem element it is written to."""
    tc, typed = setup.tiled_copy, setup.typed
    op = setup.operand
    nthr = typed.num_thr
    inst = _instance(setup, instance)
    ch = Chain(_title(f"{op}: lane {lane}, value {value}", inst))
    tiled_v = value + typed.num_val_src * inst[0]
    _mma_step(ch, setup, lane, tiled_v)
    S, R = typed.src, typed.ref
    e = int(S(lane % nthr, value))
    ch.add("copy S", f"S({lane % nthr},{value}) = {e}    [S = {S}]", e=e)
    rinv = right_inverse(R)
    ri = int(rinv(e))
    ch.add("right_inverse(R)", f"right_inverse(R)({e}) = {ri}    [R = {R}]", ref_index=ri)
    qs = int(tc.layout_S_tv()(lane, tiled_v))
    ms, ns = tile_coord(setup, qs)
    ch.add("F o rinv(R) o S", f"layoutS_TV({lane},{tiled_v}) = {qs} -> {op}({ms},{ns})", qs=qs)
    # registers: the fragment slot this copy value reads (retile_S) and what the MMA produced there
    vb = setup.value_bits
    per_reg = max(1, 32 // vb)
    slot, fshape = _register_step(ch, setup, "retile_S", value, inst)
    hw_mma = setup.mma_hw
    if hw_mma is not None:
        fv = slot % fshape[0]
        c = hw_mma.operand(setup.operand).coord(lane % hw_mma.lanes, fv)
        ch.add("MMA result", f"fragment value {fv} is {op.lower()}{fv // per_reg} {_part(fv % per_reg, per_reg)}; "
               f"{hw_mma.instruction} produced it as {op}({int(c[0])},{int(c[1])}) of its atom")
    # the hardware route to a shared-memory row, and the address that row's lane gives
    hw = setup.copy_hw
    if hw is not None:
        group = lane // nthr
        route = next(((d, b) for d in range(hw.dst_lanes) for b in range(0, hw.dst_bits, vb)
                      if tuple(_val(x) for x in hw.source_of(Const(d), Const(b))) == (lane % nthr, value * vb)), None)
        if route is not None:
            d, b = route
            dv = b // vb
            dst_thread = group * nthr + d
            mem, rest = setup.memory_frg, _rest(inst)
            off = int(mem(dst_thread, (dv, inst[0]), rest))
            off0 = int(mem(dst_thread, (0, inst[0]), rest))
            qd = int(tc.layout_D_tv()(dst_thread, dv + typed.num_val_dst * inst[0]))
            md, nd = tile_coord(setup, qd)
            eb = setup.elem_bytes
            ch.add("hardware", f"{hw.instruction}: {hardware_text(hw.describe(d, b))}; lane {dst_thread} gives the "
                   f"row address")
            ch.add("partition_D", f"layoutD_TV({dst_thread},{dv}) = {qd} -> {op}({md},{nd}) -> smem offset {off} -> "
                   f"byte {_hexaddr(off, eb, base)} (row starts at smem offset {off0})", smem_offset=off)
    return ch


def chain_for(setup: TiledSetup, lane: int, value: int, instance: tuple[int, ...] = (), base: int = 0x1000) -> Chain:
    if setup.is_store:
        return store_chain(setup, lane, value, instance, base)
    return load_chain(setup, lane, value, instance, base)


__all__ = ["Chain", "Step", "chain_for", "load_chain", "source_chain", "store_chain"]
