"""The transpose kind's theorems: the smem_mma kind's on each tile (9 on both, 12-14 on the written one, 15 on the one
the descriptor reads) and theorem 34, the transposition between them.

Theorem 34 quantifies over the buffer's base address (every multiple of the alignment that fits shared memory), the
stage, the warp tile (along N and K), the lane and its value.  Its claims:
- the schedule: the coordinate tables give every warp tile of a warpgroup tile to exactly one (warpgroup, warp,
  call, slot), and the warp's tiled copy gives every element of a warp tile to exactly one (lane, value) — so every
  (n, k) of a stage is moved exactly once (each call walks every warpgroup tile along N);
- every lane loads its element (n, k) from the byte the writer put it at (TMA's hardware model, or the cp.async copy
  through the position-dependent tile) and stores it at the byte wgmma's descriptor reads B(n, k) from;
- distinct elements are stored to distinct bytes;
- in place without a race (ownership.py): every byte stored is loaded only before the store;
- every element of k-block kb is stored by a call fenced before wgmma kb (`Transposition.fenced`).
With theorems 14 and 15 these say that wgmma k-block kb reads, as B(n, k), the element the writer brought for (n, k).
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from ...cute.transpose import Refused, Transposition
from ...symbolic.expr import Expr, Var, eq, lt, ne
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Suspect, Trace, Unsupported
from ...theorems.suspects import Suspects
from ..smem_mma import theorems as HT
from .ownership import enumerate_ownership, element_vars, owner_table
from .setup import TransposeSetup

TRANSPOSED_SMEM = "gmma_smem"


class TransposedTileSuspects(Suspects):
    """The suspects of the transposed tile: its layout is the check's `gmma_smem`."""

    def smem(self, why: str = "the transposed tile's layout (GmmaSmemLayoutB)") -> Suspect:
        return self.field(TRANSPOSED_SMEM, why)


def transposed_suspects(suspects: Suspects) -> Suspects:
    return TransposedTileSuspects(suspects.spec, suspects.check)


def _retitled(plan: Plan, prefix: str) -> Plan:
    """The items of a plan with `prefix` before each title (which tile they are about)."""
    if not isinstance(plan, list):
        return plan

    def retitled(ob: Obligation) -> Obligation:
        return replace(ob, title=f"{prefix}{ob.title}")

    def exact_retitled(exact: Callable[[], Obligation] | None) -> Callable[[], Obligation] | None:
        return None if exact is None else lambda: retitled(exact())
    out: list[Item] = []
    for item in plan:
        if isinstance(item, Claim):
            out.append(replace(item, obligation=retitled(item.obligation), exact=exact_retitled(item.exact)))
        else:
            out.append(replace(item, title=f"{prefix}{item.title}"))
    return out


WRITTEN = "the written tile (smem, SmemLayoutB): "
TRANSPOSED = "the transposed tile (gmma_smem, GmmaSmemLayoutB): "


# --- theorems 9, 12-15 on the two tiles -----------------------------------------------------------------------

def smem_injective(setup: TransposeSetup, suspects: Suspects) -> Plan:
    written = _retitled(HT.smem_injective(setup.written, suspects), WRITTEN)
    read = _retitled(HT.smem_injective(setup.read, transposed_suspects(suspects)), TRANSPOSED)
    if not isinstance(written, list) or not isinstance(read, list):
        return written if not isinstance(written, list) else read
    return written + read


DESCRIPTOR_TILE = "the shared tile wgmma reads through the descriptor"   # the smem_mma kind's words for its tile


def value_type(setup: TransposeSetup, suspects: Suspects) -> Plan:
    plan = HT.value_type(setup.written, suspects)
    if not isinstance(plan, list):
        return plan
    return [replace(i, title=i.title.replace(DESCRIPTOR_TILE, "the shared tile the transposition loads"))
            if isinstance(i, Fact) else i for i in plan]


def tma_encodable(setup: TransposeSetup, suspects: Suspects) -> Plan:
    return HT.tma_encodable(setup.written, suspects)


def tma_placement(setup: TransposeSetup, suspects: Suspects) -> Plan:
    return HT.tma_placement(setup.written, suspects)


def gmma_descriptor(setup: TransposeSetup, suspects: Suspects) -> Plan:
    return _retitled(HT.gmma_descriptor(setup.read, transposed_suspects(suspects)), TRANSPOSED)


# --- theorem 34 -------------------------------------------------------------------------------------------------

def element_coords(t: Transposition, tile_n: Expr, tile_k: Expr, lane: Expr, value: Expr) -> tuple[Expr, Expr]:
    """(n, k) of the stage an element of the transposition moves: its warp tile's origin plus the tiled copy's
    coordinate of (lane, value) in the warp tile."""
    w = t.warp_tile
    inside = layout_expr(t.lane_to_coord, (lane, value))           # (lane, value) -> n + warp_tile k
    return tile_n * w + inside % w, tile_k * w + inside // w


def transpose(setup: TransposeSetup, suspects: Suspects) -> Plan:
    t = setup.transposition
    blame_smem = suspects.smem("the written tile's layout (SmemLayoutB)")
    if setup.mainloop is not None:
        rule, given, field = setup.mainloop
        blamed = suspects.field("mma", "the MMA atom (the mainloop reads A from registers)") if field == "mma" \
            else suspects.smem("the written tile's layout (SmemLayoutB: its K extent and stages)")
        return Refusal(rule, f"the register-sourced mainloop (sm90_mma_*_gmma_rs_warpspecialized.hpp): {given}",
                       blamed)
    if isinstance(t, Refused):
        return Refusal(t.rule, t.detail, blame_smem)
    for built, field, builder, tile in ((setup.written.tma_rule, "smem", "make_tma_copy", "written tile"),
                                        (setup.read.desc_rule, TRANSPOSED_SMEM, "make_gmma_desc", "transposed tile")):
        if built is not None:       # the bytes theorem 34 moves are CuTe's TMA box's and descriptor's
            rule, met = built
            return Refusal(rule, f"{builder} of the {tile}: {met}", suspects.field(field, f"the {tile}'s layout"))
    if isinstance(t, str):
        return Unsupported(t)
    gmma = suspects.field(TRANSPOSED_SMEM, "the transposed tile's layout (GmmaSmemLayoutB) against the written one")
    items: list[Item] = [Fact("the transposed tile has the written tile's extent and stages",
                              setup.read.extent == setup.written.extent and setup.read.stages == setup.written.stages,
                              f"{setup.read.extent[0]}x{setup.read.extent[1]}x{setup.read.stages}",
                              f"{setup.written.extent[0]}x{setup.written.extent[1]}x{setup.written.stages}", gmma)]
    items += _schedule(setup, t, suspects)
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    variables = element_vars(setup, t)
    stage, tile_n, tile_k, lane, value = variables
    n, k = element_coords(t, tile_n, tile_k, lane, value)
    base = setup.base()
    b = setup.base_var
    loaded, written = setup.load_address(base, n, k, stage), setup.written_address(base, n, k, stage)
    stored, read = setup.store_address(base, n, k, stage), setup.descriptor_address(base, n, k, stage)
    align = suspects.field("smem_align", f"the buffer's alignment ({setup.align} bytes) against the swizzles: "
                                         "as_position_independent_swizzle_tensor asks the buffer be aligned to them")
    writer = "TMA writes it (its hardware model)" if setup.check.by_tma else \
        f"{setup.check.copy} writes it (partition_D of the position-dependent sB_)"
    shown = {"n": n, "k": k}
    items.append(Claim(Obligation(f"every lane loads element (n, k) from the byte {writer}", [b] + variables,
                                  eq(loaded, written), lhs=loaded, rhs=written, shown=shown,
                                  note=f"the position-independent sB; base a multiple of {setup.align}"),
                       align, Trace.TRANSPOSE, subject=setup.check.transposed))
    store_form = "position-independent" if setup.store_position_independent else "position-dependent"
    items.append(Claim(Obligation("every lane stores element (n, k) at the byte wgmma's descriptor reads B(n, k) from",
                                  [b] + variables, eq(stored, read), lhs=stored, rhs=read, shown=shown,
                                  note=f"gmma_sB {store_form}; the descriptor of (n's N block, k's k-block)"),
                       align if setup.align % max(1, _repeat(setup)) else gmma, Trace.TRANSPOSE,
                       subject=setup.check.transposed))
    second = [Var(f"{v.name}2", v.size) for v in variables]
    s1 = _store_offset(setup, t, variables)
    s2 = _store_offset(setup, t, second)
    items.append(Claim(Obligation("distinct elements are stored to distinct bytes", variables + second, ne(s1, s2),
                                  premise=lt(_index(variables), _index(second)), lhs=s1, rhs=s2,
                                  shown={"offset": s1, "offset2": s2}, note="the store's element offset in the "
                                  "transposed tile, before the swizzle (a bijection of addresses)",
                                  distinct=Distinct(s1, tuple(variables), tuple(second))),
                       gmma, subject=setup.check.transposed))
    items.append(_in_place(setup, t, suspects, (loaded, stored), variables))
    items.append(_fenced(setup, t, suspects))
    return items


def _repeat(setup: TransposeSetup) -> int:
    tiles = [s.tile for s in (setup.written, setup.read) if s.tile is not None]
    return max([tile.repeat for tile in tiles] + [1])


def _index(variables: list[Var]) -> Expr:
    """A mixed-radix index of a point of `variables` (the last fastest), to order pairs."""
    out: Expr = variables[0] * 0
    for v in variables:
        out = out * v.size + v
    return out


def _store_offset(setup: TransposeSetup, t: Transposition, variables: list[Var]) -> Expr:
    stage, tile_n, tile_k, lane, value = variables
    n, k = element_coords(t, tile_n, tile_k, lane, value)
    assert setup.read.tile is not None
    offset: Expr = setup.read.tile.offset(n, k, stage)
    return offset


def _schedule(setup: TransposeSetup, t: Transposition, suspects: Suspects) -> list[Item]:
    """Every warp tile of a warpgroup tile moved exactly once; every element of a warp tile by one (lane, value)."""
    per = t.warpgroup_tile // t.warp_tile
    moved: dict[tuple[int, int], int] = {}
    for wt in t.schedule:
        moved[(wt.n, wt.k)] = moved.get((wt.n, wt.k), 0) + 1
    wrong = [(tn, tk) for tn in range(per) for tk in range(per) if moved.get((tn, tk), 0) != 1]
    stray = [c for c in moved if not (0 <= c[0] < per and 0 <= c[1] < per)]
    schedule = suspects.field("atom_layout", f"the math warpgroups ({t.warpgroups}) whose warps split the "
                                             "warpgroup tiles (CUTLASS's WarpTileNCoordLUT / WarpTileKCoordLUT)")
    first = (wrong + stray)[0] if wrong + stray else None
    items: list[Item] = [Fact(
        f"the coordinate tables give every 8x8 warp tile of a {per * t.warp_tile}x{per * t.warp_tile} warpgroup "
        "tile to exactly one warp and call", first is None,
        f"warp tile (n {first[0]}, k {first[1]}) moved {moved.get(first, 0)} time(s)" if first else
        f"{len(t.schedule)} moves of {per * per} tiles",
        "each warp tile once", schedule, point={"tile_n": first[0], "tile_k": first[1]} if first else None,
        failing=len(wrong) + len(stray), domain_size=per * per)]
    w = t.warp_tile
    coords = t.lane_to_coord
    seen: dict[int, int] = {}
    for lane in range(t.lanes):
        for value in range(t.values):
            c = t.coord_of(lane, value)
            seen[c] = seen.get(c, 0) + 1
    missing = [c for c in range(w * w) if seen.get(c, 0) != 1]
    items.append(Fact("the warp's tiled copy gives every element of a warp tile to exactly one (lane, value)",
                      not missing, f"element (n {missing[0] % w}, k {missing[0] // w}) moved {seen.get(missing[0], 0)} "
                      "time(s)" if missing else f"{len(seen)} elements, {t.values} value(s) a lane",
                      f"{w * w} elements once", suspects.field("value_type", "the transposition's element (its "
                                                                               "tiled copy's thread layout)"),
                      note=f"make_tiled_copy(Copy_Atom<DefaultCopy, {t.element_bits}-bit>, {t.warp_thread} threads, "
                           f"1 value): (lane, value) -> n + {w} k = {coords}"))
    return items


def _in_place(setup: TransposeSetup, t: Transposition, suspects: Suspects, addresses: tuple[Expr, Expr],
              variables: list[Var]) -> Fact:
    result = enumerate_ownership(setup, t, addresses, variables)
    c = result.first
    order = ("a barrier separates the calls of a k-tile (the TMA mainloop)" if t.steps_separated
             else "the calls of the first k-tile run back to back (the cp.async mainloop)")
    title = ("in place without a race: every byte a lane stores is loaded only before the store (by its own warp "
             "before its __syncwarp or in an earlier call, or by any warp in a call a barrier separates)")
    if c is None:
        return Fact(title, True, f"{result.stores} stores ({len(result.bases)} base(s) below the swizzle repeat): "
                                 "each lands on a byte only loaded before it", "no conflict",
                    suspects.field(TRANSPOSED_SMEM, "the transposed tile's layout"), note=order,
                    failing=0, domain_size=result.stores)
    who = f"stage {c.store_owner[0]}, warpgroup {c.store_owner[1]}, warp {c.store_owner[2]}, call {c.store_owner[3]}"
    if c.load is None or c.load_owner is None:
        actual = (f"{_element(c.store)} ({who}) stores to byte base+{c.byte - c.base:#x}, which no element of the "
                  "transposition is loaded from: it overwrites bytes the transposition does not own")
    else:
        other = (f"stage {c.load_owner[0]}, warpgroup {c.load_owner[1]}, warp {c.load_owner[2]}, call "
                 f"{c.load_owner[3]}")
        actual = (f"{_element(c.store)} ({who}) stores to byte base+{c.byte - c.base:#x}, which {_element(c.load)} "
                  f"({other}) loads: not ordered before the store (a race, or the transposed value is read)")
    point = {**{"base": c.base // setup.align}, **c.store}
    return Fact(title, False, actual, "every stored byte loaded only before the store",
                suspects.field(TRANSPOSED_SMEM, "the transposed tile's layout (GmmaSmemLayoutB) against the written "
                                                "one: a warp tile's stores must land in the bytes its warp loaded"),
                note=order, point=point, failing=result.failing, domain_size=result.stores)


def _element(point: dict[str, int]) -> str:
    return (f"stage {point['stage']} warp tile (n {point['tile_n']}, k {point['tile_k']}) lane {point['lane']} value "
            f"{point['value']}")


def _fenced(setup: TransposeSetup, t: Transposition, suspects: Suspects) -> Fact:
    """Every element of k-block kb is stored by a call fenced before wgmma kb."""
    k_instr = setup.read.k_instr
    blocks = setup.extent[1] // max(1, k_instr)
    bad: list[tuple[int, int, int, int]] = []
    total = 0
    for (tn, tk), (_, _, step) in sorted(owner_table(t).items()):
        first_k, last_k = tk * t.warp_tile, (tk + 1) * t.warp_tile - 1
        for kb in range(first_k // k_instr, min(blocks - 1, last_k // k_instr) + 1):
            total += 1
            if not t.fenced(step, kb):
                bad.append((tn, tk, step, kb))
    first = bad[0] if bad else None
    return Fact("every element of a k-block is stored by a call fenced (fence.proxy.async, named barrier) before "
                "that k-block's wgmma", not bad,
                f"warp tile (n {first[0]}, k {first[1]}) of every warpgroup tile is stored in call {first[2]}, after "
                f"wgmma k-block {first[3]} is issued" if first else f"{total} (warp tile, k-block) pairs fenced",
                "call <= k-block (synchronize(k_block) follows the calls up to current_step k_block)",
                suspects.field("atom_layout", f"the math warpgroups ({t.warpgroups}): their calls and barriers"),
                point={"tile_n": first[0], "tile_k": first[1], "k_block": first[3]} if first else None,
                failing=len(bad), domain_size=total)
