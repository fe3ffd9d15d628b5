"""The article's chain, built once as named symbolic steps of a tiled check.

For a load the seed article walks from a register slot (lane 0, value 5) through F (the MMA's TV layout),
D, right_inverse(R), layoutD_TV, the hardware route to a source lane, partition_S's shared-memory offset
and row start, retile_D's register, the fragment slot it aliases and the coordinate the instruction reads
there.  Here every one of those numbers is an expression of the check's variables:

    t  thread of the tiled copy ("lane" when 32),   v  value inside one copy atom,
    r0 repeat of the atom's values,                 r1, r2, ...  the partition's rest modes (tile repeats).

The theorems (tiled_theorems.py) are claims between these quantities; a witness and `explain` evaluate the
same expressions at a point (`OperandChain.lines`), so the numbers a report prints are the numbers proved
about.  The chain is indexed by the copy's destination: a register slot for loads, an element of a
shared-memory row for stores; the hardware model routes each destination to its source (lane, value).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping

from ...algebra.inttuple import Underscore, flatten_to_tuple, fmt_plain, get, idx2crd
from ...algebra.layout import Layout
from ...algebra.ops import right_inverse
from ...cute.copy import TiledCopy
from ...cute.operand import Operand
from ...symbolic.expr import Const, Expr, Pred, Var, compile_py, evaluate, lt
from ...symbolic.layouts import layout_expr
from ...theorems.claims import ChainLine, Trace
from .setup import TiledSetup



def thread_coord_exprs(mma: Any, t: Expr) -> list[Expr]:
    """thr_mma.get_slice(t).thr_vmnk_: the flat (v, m, n, k) coordinate of thread t."""
    vmnk = mma.thr_layout_vmnk
    out = []
    for i in range(4):
        shape, stride = flatten_to_tuple(get(vmnk.shape, i)), flatten_to_tuple(get(vmnk.stride, i))
        idx: Expr = Const(0)
        mult = 1
        for s, d in zip(shape, stride):
            s, d = int(s), int(d)
            if s != 1 and d:
                idx = idx + ((t // d) % s) * mult
            mult *= s
        out.append(idx)
    return out


def _operand_thread_coord(operand: str, mma: Any, t: Expr) -> tuple[Any, ...]:
    v, m, n, k = thread_coord_exprs(mma, t)
    return v, Operand.of(operand).pick((m, n, k))


def _split_fragment_index(sizes: list[int], s: Expr) -> tuple[Expr, tuple[Expr, ...]]:
    """A 1-D fragment index -> (value, (rest...)) as the thrfrg layout's mode 1 is indexed."""
    parts: list[Expr] = []
    rest = s
    for i, n in enumerate(sizes):
        if i == len(sizes) - 1:
            parts.append(rest)
        else:
            parts.append(rest % n)
            rest = rest // n
    return parts[0], tuple(parts[1:])


def in_operand_tile(tc: TiledCopy, tile: tuple[int, int]) -> tuple[Layout, Layout]:
    """The copy's (thread, value) -> coordinate layouts of its source and its destination, as coordinates of the
    operand's tile (colex).  CuTe's get_layoutS_TV / get_layoutD_TV name coordinates of the tiler's domain; a tiler
    whose modes are layouts (make_tiled_copy_C_atom: the tile's rows and columns in another order) lists the tile's
    in another order, so there the copy's own partition of the whole tile is taken (tidfrg_S / tidfrg_D, its first
    repeat); a tiler of sizes, or one that reaches past the tile, as get_layout*_TV gives it."""
    tiler = tc.tiler_mn
    modes = tiler if isinstance(tiler, tuple) and len(tiler) == 2 else ()
    if not any(isinstance(m, Layout) for m in modes) or \
            any(int(m.cosize() if isinstance(m, Layout) else m) > extent for m, extent in zip(modes, tile)):
        return tc.layout_S_tv(), tc.layout_D_tv()
    whole, first = Layout(tile), (Underscore, Underscore, 0)
    return tc.tidfrg_S(whole).slice(first), tc.tidfrg_D(whole).slice(first)


@dataclass(frozen=True)
class Step:
    """One line of the chain: named numbers (expressions) and how a person reads them."""
    label: str
    numbers: dict[str, Expr]
    render: Callable[[Mapping[str, int]], str]


class OperandChain:
    """The symbolic chain of one tiled check (`setup`), over its variables."""

    def __init__(self, setup: TiledSetup, base: int = 0x1000) -> None:
        self.setup = setup
        self.base = base
        tc, typed = setup.tiled_copy, setup.typed
        self.store = setup.is_store
        self.nthr = tc.num_threads
        self.atom_threads = typed.num_thr
        self.n_dst, self.n_src = typed.num_val_dst, typed.num_val_src
        self.n_reg = self.n_src if self.store else self.n_dst       # values per atom on the register side
        self.n_mem = self.n_dst if self.store else self.n_src       # ... on the shared-memory side
        self.instance_sizes = setup.instance_shape()
        who = "lane" if self.nthr == 32 else "thread"
        self.t = Var(who, self.nthr)
        self.v = Var("value", self.n_dst)
        self.inst = [Var(f"r{i}", n) for i, n in enumerate(self.instance_sizes)]
        self.model = setup.copy_hw
        rows_mode = Operand.of(setup.operand).modes[0]
        self.rows = setup.mma.tile_size(rows_mode)
        self.fragment_sizes = [int(m.size()) for m in setup.fragment.modes()]
        self.per_register = max(1, 32 // setup.value_bits)
        # the fragment the instruction reads: a converted operand's (smem_type) is the MMA operand's type
        self.mma_per_register = max(1, 32 // setup.fragment_bits)
        self.mma_source = setup.check.reads_mma_partition and not self.store
        self.mma_layout_tv = setup.mma.get_layout_tv(setup.operand)   # F: (thread, value) -> tile coordinate
        cols = setup.mma.tile_size(Operand.of(setup.operand).modes[1])
        # F o right_inverse(R) o S / D: (thread, value) -> the operand tile's coordinate (colex, `rows` a column)
        self.layout_S_tv, self.layout_D_tv = in_operand_tile(tc, (self.rows, cols))

    # -- quantities, for any thread / value expressions ------------------------------------------------
    def tile_coord(self, q: Expr) -> tuple[Expr, Expr]:
        """Colex index in the operand tile -> (row, col)."""
        return q % self.rows, q // self.rows

    def route(self, t: Expr, v: Expr) -> tuple[Expr, Expr, Expr, Pred]:
        """Destination (tiled thread t, value v) -> (source tiled thread, source value, atom lane, premise)."""
        assert self.model is not None
        group, lane = t // self.atom_threads, t % self.atom_threads
        vb = self.setup.value_bits
        s_lane, s_bit = self.model.source_of(lane, v * vb)
        return group * self.atom_threads + s_lane, s_bit // vb, lane, lt(lane, self.model.dst_lanes)

    def mma_tv(self, t: Expr, tiled_value: Expr) -> Expr:
        """F = TiledLayout_TV (the MMA operand's TV layout): what the MMA expects in (t, tiled value)."""
        return layout_expr(self.mma_layout_tv, (t, tiled_value))

    def register_tv(self, t: Expr, tiled_value: Expr) -> Expr:
        """F o right_inverse(R) o D (loads) / S (stores): what the copy's register side holds there."""
        return layout_expr(self.layout_S_tv if self.store else self.layout_D_tv, (t, tiled_value))

    def memory_tv(self, t: Expr, tiled_value: Expr) -> Expr:
        return layout_expr(self.layout_D_tv if self.store else self.layout_S_tv, (t, tiled_value))

    def memory_coord(self, t: Expr, value: Expr) -> tuple[Any, ...]:
        rest = tuple(self.inst[1:])
        return (t, (value, self.inst[0]), rest if len(rest) > 1 else rest[0])

    def source_index(self, value: Expr) -> tuple[Expr, tuple[Expr, ...]]:
        """`smem_partition: mma`: CuTe's copy of an element-wise atom walks the MMA's partition and retile_D's
        registers in the same order (copy_if over their flat index, one k-block slice at a time), so the copy
        instance (value, r0, r1, ...) reads the flat index value + n*(r0 + R0*(r1 + ...)) of the MMA's partition:
        split here into its (value, rest...)."""
        return _split_fragment_index(self.fragment_sizes, self.source_flat(value))

    def source_flat(self, value: Expr) -> Expr:
        """The flat index into the thread's MMA partition that the copy instance (value, r0, ...) reads."""
        flat: Expr = value
        mult = self.n_mem
        for var, size in zip(self.inst, self.instance_sizes):
            flat = flat + var * mult
            mult *= size
        return flat

    def source_point(self, copy_frg: Any, mma_frg: Any, t: Expr, value: Expr) -> Expr:
        """What the load's shared side reads at (t, value) of the copy instance: `copy_frg` (a tidfrg_S of the tile)
        at the copy's coordinate, or with `smem_partition: mma` `mma_frg` (a thrfrg of the tile) at the MMA
        partition's flat index."""
        if self.mma_source:
            fv, frest = self.source_index(value)
            return layout_expr(mma_frg, (_operand_thread_coord(self.setup.operand, self.setup.mma, t), (fv, frest)))
        return layout_expr(copy_frg, self.memory_coord(t, value))

    def memory_offset(self, t: Expr, value: Expr) -> Expr:
        """partition_S (loads; thr_mma.partition_X with `smem_partition: mma`) / partition_D (stores): the element
        offset thread t's value touches."""
        if self.mma_source:
            return self.source_point(None, self.setup.mma_memory_frg, t, value)
        return layout_expr(self.setup.memory_frg, self.memory_coord(t, value))

    def source_coordinate(self, t: Expr, value: Expr) -> Expr:
        """The tile coordinate (colex in the smem shape) the load's shared side reads at (t, value)."""
        copy_frg = None if self.mma_source else self.setup.tiled_copy.tidfrg_S(self.setup.coord_tensor)
        return self.source_point(copy_frg, self.setup.mma_frg_coords, t, value)

    def register(self, value: Expr) -> Expr:
        """retile_D / retile_S: the register storage index of the copy's (value, instance)."""
        return layout_expr(self.setup.retiled, ((value, self.inst[0]),) + tuple(self.inst[1:]))

    def fragment_slot(self, register: Expr) -> Expr:
        return layout_expr(self.setup.fragment_inverse, register)

    def copy_coordinate(self, t: Expr, value: Expr) -> Expr:
        """The tile coordinate (colex in the smem shape) the copy's register side holds at (t, value)."""
        return layout_expr(self.setup.register_frg_coords, self.memory_coord(t, value))

    def mma_coordinate(self, t: Expr, slot: Expr) -> Expr:
        """The tile coordinate partition_fragment expects at a fragment slot of thread t."""
        fv, frest = _split_fragment_index(self.fragment_sizes, slot)
        return layout_expr(self.setup.mma_frg_coords,
                           (_operand_thread_coord(self.setup.operand, self.setup.mma, t), (fv, frest)))

    def instruction_offset(self, t: Expr, slot: Expr) -> Expr:
        """The shared-memory offset of the element the instruction itself reads (A/B) or produces (C) there."""
        hw = self.setup.hw_tiled_mma
        assert hw is not None
        fv, frest = _split_fragment_index(self.fragment_sizes, slot)
        return layout_expr(self.setup.hw_mma_frg, (_operand_thread_coord(self.setup.operand, hw, t), (fv, frest)))

    def smem_offset(self, tile_coordinate: Expr) -> Expr:
        """sX(coordinate): the element offset of a tile coordinate (colex index in the smem shape)."""
        return layout_expr(self.setup.smem.layout, tile_coordinate)

    # -- the steps, at the destination variables -------------------------------------------------------
    def destination_quantities(self) -> dict[str, Expr]:
        """Every number of the register chain, as expressions of (t, v, r0, ...) of the destination."""
        t, v, r0 = self.t, self.v, self.inst[0]
        typed = self.setup.typed
        q: dict[str, Expr] = {}
        if self.model is not None:
            st, sv, lane, _ = self.route(t, v)
            rt, rv = (st, sv) if self.store else (t, v)     # register side
            mt, mv = (t, v) if self.store else (st, sv)     # shared-memory side
        else:   # without a model there is no route: the variables name the register side
            st, sv, lane = t, v, t % self.atom_threads
            rt, rv, mt, mv = t, v, t, v
        tv = rv + self.n_reg * r0
        q["thread"], q["value"], q["tiled_value"] = rt, rv, tv
        q["mma_q"] = self.mma_tv(rt, tv)
        reg_layout = typed.src if self.store else typed.dst
        q["atom_index"] = layout_expr(reg_layout, (rt % self.atom_threads, rv))
        q["reference"] = layout_expr(right_inverse(typed.ref), q["atom_index"])
        q["register_q"] = self.register_tv(rt, tv)
        q["src_thread"], q["src_value"], q["atom_lane"] = st, sv, lane
        q["mem_thread"], q["mem_value"] = mt, mv
        mem_layout = typed.dst if self.store else typed.src
        q["mem_atom_index"] = layout_expr(mem_layout, (mt % self.atom_threads, mv))
        q["memory_q"] = self.memory_tv(mt, mv + self.n_mem * r0)
        q["row_q"] = self.memory_tv(mt, self.n_mem * r0)
        q["offset"] = self.memory_offset(mt, mv)
        q["row_offset"] = self.memory_offset(mt, Const(0))
        if self.mma_source:
            q["source_flat"], q["source_q"] = self.source_flat(mv), self.source_coordinate(mt, mv)
        q["delivered"] = q["row_offset"] + mv
        q["register"] = self.register(rv)
        q["slot"] = self.fragment_slot(q["register"])
        q["mma_coordinate"] = self.mma_coordinate(rt, q["slot"])
        q["cute_offset"] = self.smem_offset(q["mma_coordinate"])
        if self.setup.hw_tiled_mma is not None:
            q["expected"] = self.instruction_offset(rt, q["slot"])
            hw_atom_thread = _operand_thread_coord(self.setup.operand, self.setup.hw_tiled_mma, rt)[0]
            q["instruction_lane"] = layout_expr(self.setup.mma.atom.thr_id, hw_atom_thread)
        return q

    def register_steps(self) -> list[Step]:
        q = self.destination_quantities()
        return self._store_steps(q) if self.store else self._load_steps(q)

    def _mma_step(self, q: dict[str, Expr]) -> Step:
        op, F = self.setup.operand, self.mma_layout_tv
        row, col = self.tile_coord(q["mma_q"])
        return Step("MMA", {"t": q["thread"], "tv": q["tiled_value"], "q": q["mma_q"], "row": row, "col": col},
                    lambda n: f"F({n['t']},{n['tv']}) = {n['q']} -> {op}({n['row']},{n['col']})    "
                              f"[F = TiledLayout_TV = {F}]")

    def _atom_steps(self, q: dict[str, Expr], side: str) -> list[Step]:
        typed, op = self.setup.typed, self.setup.operand
        layout = typed.src if side == "S" else typed.dst
        R = typed.ref
        nR = int(R.mode(0).size())
        row, col = self.tile_coord(q["register_q"])
        ref = q["reference"]
        return [
            Step(f"copy {side}", {"l": q["thread"] % self.atom_threads, "v": q["value"], "e": q["atom_index"]},
                 lambda n: f"{side}({n['l']},{n['v']}) = {n['e']}    [{side} = {layout}]"),
            Step("right_inverse(R)", {"e": q["atom_index"], "ri": ref, "rt": ref % nR, "rv": ref // nR},
                 lambda n: f"right_inverse(R)({n['e']}) = {n['ri']} -> reference ({n['rt']},{n['rv']})    "
                           f"[R = {R}]"),
            Step(f"F o rinv(R) o {side}", {"t": q["thread"], "tv": q["tiled_value"], "q": q["register_q"],
                                           "row": row, "col": col},
                 lambda n: f"layout{side}_TV({n['t']},{n['tv']}) = {n['q']} -> {op}({n['row']},{n['col']})"),
        ]

    def _memory_step(self, label: str, side: str, tv_value: Expr, q_key: str, off_key: str,
                     q: dict[str, Expr]) -> Step:
        op, eb, base = self.setup.operand, self.setup.elem_bytes, self.base
        row, col = self.tile_coord(q[q_key])
        return Step(label, {"t": q["mem_thread"], "tv": tv_value, "q": q[q_key], "row": row, "col": col,
                            "off": q[off_key]},
                    lambda n: f"layout{side}_TV({n['t']},{n['tv']}) = {n['q']} -> {op}({n['row']},{n['col']}) -> "
                              f"smem offset {n['off']} -> byte {_hexaddr(n['off'], eb, base)}")

    def _mma_partition_step(self, q: dict[str, Expr]) -> Step:
        """`smem_partition: mma`: the element of thr_mma.partition_X(sX) the copy reads, by its flat index."""
        op, eb, base = self.setup.operand, self.setup.elem_bytes, self.base
        rows = int(self.setup.smem.layout.mode(0).size())
        row, col = q["source_q"] % rows, q["source_q"] // rows
        return Step("partition_" + op, {"t": q["mem_thread"], "i": q["source_flat"], "row": row, "col": col,
                                        "off": q["offset"]},
                    lambda n: f"tCs{op} = thr_mma.partition_{op}(s{op}) of thread {n['t']}, value {n['i']} in order "
                              f"-> {op}({n['row']},{n['col']}) -> smem offset {n['off']} -> byte "
                              f"{_hexaddr(n['off'], eb, base)}")

    def _hardware_step(self, q: dict[str, Expr], tail: Callable[[Mapping[str, int]], str]) -> Step:
        model = self.model
        assert model is not None
        vb = self.setup.value_bits

        def render(n: Mapping[str, int]) -> str:
            d = model.describe(n["lane"], n["v"] * vb)
            return f"{model.instruction}: {hardware_text(d)}; {tail(n)}"
        return Step("hardware", {"lane": q["atom_lane"], "v": self.v, "t": self.t, "st": q["src_thread"]}, render)

    def _register_step(self, q: dict[str, Expr], label: str) -> Step:
        op, ret, frag = self.setup.operand, self.setup.retiled, self.setup.fragment
        fshape = tuple(self.fragment_sizes)
        numbers = {"v": q["value"], "u": q["register"], "slot": q["slot"]}
        numbers.update({f"r{i}": x for i, x in enumerate(self.inst)})

        def render(n: Mapping[str, int]) -> str:
            inst = [n[f"r{i}"] for i in range(len(self.inst))]
            rcoord: tuple[Any, ...] = ((n["v"], inst[0]),) + tuple(inst[1:])
            slot_c = idx2crd(n["slot"], fshape)
            return (f"tXr{op}{_coord_text(rcoord)} = {n['u']} = tCr{op}{_coord_text(slot_c)}"
                    f"    [tXr{op} = {ret}, tCr{op} = {frag}]")
        return Step(label, numbers, render)

    def _instruction_step(self, q: dict[str, Expr], label: str, verb: str) -> Step | None:
        hw = self.setup.mma_hw
        if hw is None or "instruction_lane" not in q:
            return None
        op, per = self.setup.operand, self.mma_per_register
        frag_hw = hw.operand(op)
        fv = q["slot"] % self.fragment_sizes[0]

        def render(n: Mapping[str, int]) -> str:
            row, col = frag_hw.coord(n["lane"], n["fv"])   # the ISA formulas evaluate on integers too
            return (f"fragment value {n['fv']} is {op.lower()}{n['fv'] // per} {_part(n['fv'] % per, per)}; "
                    f"{hw.instruction} {verb} {op}({row},{col}) of its atom")
        return Step(label, {"fv": fv, "lane": q["instruction_lane"]}, render)

    def _end_to_end_step(self, q: dict[str, Expr], verb: str) -> Step | None:
        if "expected" not in q:
            return None
        return Step("end to end", {"got": q["delivered"], "want": q["expected"]},
                    lambda n: f"{verb} smem offset {n['got']}; the instruction's slot is smem offset {n['want']}"
                              + ("" if n["got"] == n["want"] else "  <-- differs"))

    def _load_steps(self, q: dict[str, Expr]) -> list[Step]:
        steps = [self._mma_step(q)] + self._atom_steps(q, "D")
        if self.model is not None:
            S, r0 = self.setup.typed.src, self.inst[0]
            steps.append(Step("source", {"sl": q["src_thread"] % self.atom_threads, "sv": q["src_value"],
                                         "e": q["mem_atom_index"], "st": q["src_thread"]},
                              lambda n: f"S({n['sl']},{n['sv']}) = {n['e']} -> source ({n['sl']},{n['sv']}): "
                                        f"lane {n['st']}, value {n['sv']}    [S = {S}]"))
            if self.mma_source:
                steps.append(self._mma_partition_step(q))
            else:
                steps.append(self._memory_step("partition_S", "S", q["src_value"] + self.n_mem * r0, "memory_q",
                                               "offset", q))
                steps.append(self._memory_step("row start", "S", self.n_mem * r0, "row_q", "row_offset", q))
            steps.append(self._hardware_step(q, lambda n: f"lane {n['st']} gives the address, the value lands in "
                                                          f"lane {n['t']}"))
        steps.append(self._register_step(q, "retile_D"))
        per = self.per_register
        steps.append(Step("copy_unpack", {"v": self.v},
                          lambda n: f"values ({per * (n['v'] // per)}..{per * (n['v'] // per) + per - 1}) are "
                                    f"dst{n['v'] // per}; value {n['v']} is {_part(n['v'] % per, per)}"))
        steps += [s for s in (self._instruction_step(q, "mma_unpack", "reads it as"),
                              self._end_to_end_step(q, "delivered")) if s is not None]
        return steps

    def _store_steps(self, q: dict[str, Expr]) -> list[Step]:
        steps = [self._mma_step(q)] + self._atom_steps(q, "S")
        steps.append(self._register_step(q, "retile_S"))
        result = self._instruction_step(q, "MMA result", "produced it as")
        if result is not None:
            steps.append(result)
        if self.model is not None:
            steps.append(self._hardware_step(q, lambda n: f"lane {n['t']} gives the row address"))
            steps.append(self._memory_step("partition_D", "D", self.v + self.n_mem * self.inst[0], "memory_q",
                                           "offset", q))
            end = self._end_to_end_step(q, "written to")
            if end is not None:
                steps.append(end)
        return steps

    def address_steps(self) -> list[Step]:
        """The shared-memory side, at (t, v, r0, ...) of the memory partition: the row a lane names."""
        t, v, r0 = self.t, self.v_mem(), self.inst[0]
        side = "D" if self.store else "S"
        q = {"mem_thread": t, "memory_q": self.memory_tv(t, v + self.n_mem * r0),
             "row_q": self.memory_tv(t, self.n_mem * r0), "offset": self.memory_offset(t, v),
             "row_offset": self.memory_offset(t, Const(0))}
        eb = self.setup.elem_bytes
        align = self.model.align_bytes if self.model is not None else 1
        if self.mma_source:
            q.update(source_flat=self.source_flat(v), source_q=self.source_coordinate(t, v))
            located = [self._mma_partition_step(q)]
        else:
            located = [self._memory_step("value", side, v + self.n_mem * r0, "memory_q", "offset", q),
                       self._memory_step("row start", side, self.n_mem * r0, "row_q", "row_offset", q)]
        return located + [
            Step("row", {"off": q["offset"], "off0": q["row_offset"], "v": v},
                 lambda n: f"value {n['v']} is {n['off'] - n['off0']} elements after the row start (contiguous "
                           f"would be {n['v']}); the row starts at byte base+{int(n['off0'] * eb):#x}, "
                           f"{'' if int(n['off0'] * eb) % align == 0 else 'NOT '}{align}-byte aligned"),
        ]

    def v_mem(self) -> Var:
        return Var("value", self.n_mem)

    # -- evaluation at a point ----------------------------------------------------------------------------
    def variables(self, trace: Trace) -> list[Var]:
        v = self.v_mem() if trace is Trace.MEMORY_SIDE else (Var("value", self.n_reg) if trace is Trace.REGISTER_SIDE
                                                               else self.v)
        return [self.t, v] + self.inst

    def locate(self, trace: Trace, point: Mapping[str, int]) -> dict[str, int] | None:
        """The destination point whose chain passes through `point` given on the register side (stores)."""
        full = {x.name: int(point.get(x.name, 0)) for x in self.variables(trace)}
        if trace is Trace.DESTINATION or self.model is None or (trace is Trace.REGISTER_SIDE and not self.store):
            return full
        st, sv, _, premise = self.route(self.t, self.v)
        fn = compile_py([st, sv, premise], [self.t, self.v])
        for t in range(self.nthr):
            for v in range(self.n_dst):
                a, b, ok = fn(t, v)
                if ok and (a, b) == (full[self.t.name], full["value"]):
                    return {**full, self.t.name: t, "value": v}
        return None

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        """(title, the chain's lines) at `point`: the register chain, or the address chain for the memory side."""
        op = self.setup.operand
        if trace is Trace.MEMORY_SIDE:
            full = {x.name: int(point.get(x.name, 0)) for x in self.variables(trace)}
            steps = self.address_steps()
            title = f"{op}: {self.t.name} {full[self.t.name]} as the address provider"
        else:
            located = self.locate(trace, point)
            if located is None:
                return "", []
            full = located
            steps = self.register_steps()
            title = f"{op}: {self.t.name} {full[self.t.name]}, value {full['value']}"
        inst = [full[x.name] for x in self.inst]
        if any(inst):
            title += f", copy instance {tuple(inst)}"
        order = self.variables(trace)
        exprs = [e for s in steps for e in s.numbers.values()]
        values = evaluate(exprs, {x.name: full[x.name] for x in order})
        out, i = [], 0
        for s in steps:
            numbers = {k: int(values[i + j]) for j, k in enumerate(s.numbers)}
            i += len(s.numbers)
            out.append(ChainLine(s.label, s.render(numbers)))
        return title, out


def _hexaddr(off_elems: int, elem_bytes: float, base: int) -> str:
    b = int(off_elems * elem_bytes)
    return f"base+{b:#x} ({base + b:#x} for base {base:#x})"


def hardware_text(d: dict[str, Any]) -> str:
    """'matrix 2, row 0, column 1, address lane 16 -> register 2, high half'."""
    where = [f"{k} {v}" for k, v in d.items() if k not in ("register", "half")]
    reg = d.get("register")
    tail = f" -> register {reg}" + (f", {d['half']} half" if "half" in d else "") if reg is not None else ""
    return ", ".join(where) + tail


def _coord_text(c: Any) -> str:
    return fmt_plain(c if isinstance(c, tuple) else (c,))


def _part(i: int, n: int) -> str:
    if n == 1:
        return "the whole register"
    if n == 2:
        return "high half" if i else "low half"
    return f"byte {i}" if n == 4 else f"part {i} of {n}"
