"""Theorems 31 and 32: an SM90 mixed-input GEMM's scales (zero points), from the global tensor to the converted A
element each one multiplies (is added to).

- 31 `mixed.scale_load`: SmemLayoutScale is CUTLASS's (BLK_M rows and one column a stage: its static_asserts, a stage
  a multiple of 128 bytes); the box CuTe derives for a stage (make_tma_copy<TmaElementScale>(SM90_TMA_LOAD, the MN-major
  tensor, SmemLayoutScale(_,_,0), (BLK_M, 1))) is encodable, covers the stage exactly, with the transaction bytes
  CUTLASS adds for it, at 128-byte aligned destinations; the global tensor has a column for every group of K; distinct
  rows and stages have distinct slots; and TMA brings the scale (m0 + m, column) of every CTA tile, column and stage to
  the slot SmemLayoutScale(m, 0, stage) (hardware/tma.py places the box's elements).
- 32 `mixed.scale_read`: for every thread t of the consumer warpgroups, element x of a k-block's A fragment
  (tCrA_mma(_,_,k_block)), k-block and stage: every copy value y of the k-block 0 copy (make_tiled_copy_A(Copy_Atom<
  register_copy, Scale>) of the reading tiled MMA, source thr_mma.partition_A(sS)(_,_,0,stage), destination
  retile_D(tCrS)(_,_,0), element y to element y) that writes the register dequantize_A_kblock pairs with x
  (tCrS(_,_,k_block) element x) writes the slot of row m, where m is the row the RS wgmma reads from A register x of
  that k-block (hardware/wgmma.py: lane t % 128, value x % V of M block x / V, in the warpgroup's slice); every such
  register is written; and for every group size covered, the column loaded for k-tile kt (kt / reload_factor,
  reload_factor = ceil(group_size / BLK_K)) is the group (kt BLK_K + k) / group_size of every k of the tile.

  Lookup-table scales (`conversion: lookup_table`, CUTLASS's UseScaleLookupTable): the register is the table
  lookup_table_convert converts A element x with -- chunk x / N of NumValPerSrcReg = N values, table
  filter(tCrS_neg(_,_,k_block) chunk)(p / 4) for x's position p in the chunk -- after CUTLASS's static_asserts
  (64-bit tables, a k-block of 4n values, 4 adjacent values sharing a table, N of 4 or 8); the table holds 8 values of
  the MMA's A type; and the positive table read at every k-block is one dequantize_A_kblock derived at k-block 0
  from the negative table of the same register (the register is among tCrS_neg(_,_,0)'s).

Together: A(m0 + m, kt BLK_K + k) is multiplied by scale(m0 + m, (kt BLK_K + k) / group_size) (and the zero of the same
index added; with lookup tables, converted through the table of (m0 + m, (kt BLK_K + k) / group_size)).  Assumed, as
CUTLASS's pipeline orders it: the stage a k-tile's registers are copied from is the one TMA filled for that k-tile, and
the A register x of a k-block holds A(m, k) at the coordinate the wgmma reads there (the tiled check of A's load and
conversion proves it).
"""
from __future__ import annotations

from ...algebra.inttuple import product
from ...algebra.types import array_type, bare_type_name
from ...cute import convert as LUT
from ...cute import mixed_input as MI
from ...cute.tma_basis import UNKNOWN_TMA_FORMAT
from ...hardware import tma as TMA
from ...symbolic.expr import Expr, Var, and_, eq, le, lt, ne
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Suspect, Trace, Unsupported
from ...theorems.suspects import Suspects
from ..tiled.chain import thread_coord_exprs
from .setup import WARPGROUP, MixedScaleSetup

SCALAR_SCALE_BITS = 32          # a scale of one element; CUTLASS's lookup-table scales (Array<e4m3, 8>) are wider


# what a refusal of the mainloop's pipeline blames, by the field it reads
MAINLOOP_FIELD_LABELS = {"smem": "the shared scale tile's stages (the mainloop's Stages)",
                         "mma": "the MMA atom (the mainloop reads A from registers)",
                         "tile": "the CTA tile (its M and N against the GMMA layout atoms, its K over the tiled "
                                 "MMA's: the k-blocks of a k-tile)"}


def _layout_refusal(setup: MixedScaleSetup, suspects: Suspects) -> Refusal | None:
    if setup.layout_rule is not None:
        return Refusal(setup.layout_rule, f"SmemLayoutScale {setup.check.smem}: {setup.layout_problem}",
                       suspects.field("smem", "the shared scale tile (SmemLayoutScale)"))
    if setup.format_problem is not None:
        return Refusal(UNKNOWN_TMA_FORMAT, setup.format_problem,
                       suspects.field("value_type", f"the {setup.tensor}s' element type"))
    if setup.mainloop is not None:
        rule, given, field = setup.mainloop
        return Refusal(rule, f"the mixed-input mainloop (sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp): "
                             f"{given}", suspects.field(field, MAINLOOP_FIELD_LABELS[field]))
    return None


def slot_expr(setup: MixedScaleSetup, m: Expr, s: Expr) -> Expr:
    """SmemLayoutScale(m, 0, s)."""
    return layout_expr(setup.check.smem, (m, 0, s))


# --- theorem 31: the load ------------------------------------------------------------------------------------------

def scale_load(setup: MixedScaleSetup, suspects: Suspects) -> Plan:
    refused = _layout_refusal(setup, suspects)
    if refused is not None:
        return refused
    if setup.global_problem is not None:
        return Unsupported(setup.global_problem)
    smem = suspects.field("smem", "the shared scale tile (SmemLayoutScale: its rows and stages)")
    if setup.tma_refusal is not None:      # make_tma_copy of the stage does not compile
        return Refusal(setup.tma_refusal.rule, setup.tma_refusal.detail, smem)
    check = setup.check
    gmem = suspects.field("gmem", f"the global {setup.tensor} tensor (MN-major (M, scale_k))")
    items: list[Item] = [Fact("the stage's slots map to the global scales as one TMA box", setup.tma is not None,
                              setup.writer_problem or "one box", "a contiguous run of the global tensor's rows", gmem)]
    tma, tmap = setup.tma, setup.tensor_map
    if tma is None or tmap is None:
        return items
    refusal = TMA.encode_refusal_nd(tmap)
    items.append(Fact("cuTensorMapEncodeTiled accepts the box", refusal is None, refusal or "accepted",
                      "no rule broken", gmem if "tride" in (refusal or "") else smem,
                      note=f"box {tma.box} {tmap.dtype}, global dims {tma.global_dim}, strides {tma.global_strides} "
                           "bytes"))
    box_elements = int(product(tma.box))
    items.append(Fact("the box writes the stage's scales and nothing else", box_elements == setup.slots,
                      f"a box of {box_elements} {setup.tensor}s", f"the stage's {setup.slots}", smem))
    box_bytes = box_elements * setup.elem_bytes
    cutlass_bytes = int(check.smem.mode(0).size()) * int(check.smem.mode(1).size()) * setup.elem_bytes
    items.append(Fact("the transaction bytes CUTLASS adds for the stage are the box's", box_bytes == cutlass_bytes,
                      f"the box moves {box_bytes} bytes", f"{cutlass_bytes} (size<0> x size<1> of SmemLayoutScale x "
                      "sizeof: TmaTransactionBytesExtra's part)", smem,
                      note="a count the barrier waits for: fewer bytes arrive early, more never complete"))
    stage_bytes = [setup.stage_offset(i) * setup.elem_bytes for i in range(setup.stages)]
    misaligned = next((i for i, b in enumerate(stage_bytes) if b % TMA.SMEM_ALIGN), None)
    align = suspects.field("smem_align", f"the {setup.tensor} buffer's alignment ({check.smem_align} bytes)")
    items.append(Fact(f"every stage's destination is {TMA.SMEM_ALIGN}-byte aligned",
                      check.smem_align % TMA.SMEM_ALIGN == 0 and misaligned is None,
                      f"a buffer {check.smem_align}-byte aligned" + (
                          f", stage {misaligned} at byte {stage_bytes[misaligned]}" if misaligned is not None else
                          f", stages at bytes {stage_bytes[:3]}{' ...' if len(stage_bytes) > 3 else ''}"),
                      f"multiples of {TMA.SMEM_ALIGN}", align if check.smem_align % TMA.SMEM_ALIGN else smem))
    if setup.groups:
        needed = MI.columns(check.problem_k, min(setup.groups))
        items.append(Fact("the global tensor has a column for every group of K", setup.columns >= needed,
                          f"{setup.columns} columns", f"at least ceil(K / group_size) = {needed}", gmem))
    m, s = Var("m", setup.tile_m), Var("stage", setup.stages)
    m2, s2 = Var("m2", setup.tile_m), Var("stage2", setup.stages)
    row = m + setup.tile_m * s
    row2 = m2 + setup.tile_m * s2
    p1, p2 = slot_expr(setup, m, s), slot_expr(setup, m2, s2)
    items.append(Claim(Obligation(
        f"distinct rows and stages have distinct slots ({setup.tile_m} rows, {setup.stages} stages)",
        [m, s, m2, s2], ne(p1, p2), premise=lt(row, row2), lhs=p1, rhs=p2,
        shown={"slot": p1, "slot2": p2},
        # the layout itself when its K mode is one column (then L(m, 0, s) is L at the index m + tile_m s)
        distinct=Distinct(p1, (m, s), (m2, s2), setup.check.smem)), smem, subject=setup.tensor))
    if refusal is not None:
        return items
    tm, col = Var("tile_m", setup.tiles_m), Var("column", setup.columns)
    slot = slot_expr(setup, m, s)
    local = slot - layout_expr(setup.stage_mode, s)
    index: list[Expr] = []
    run = 1
    for d, b in enumerate(tma.box):
        index.append((local // run) % b if d < len(tma.box) - 1 else local // run)
        run *= b
    lands = TMA.smem_address_nd(tmap, layout_expr(setup.stage_mode, s) * setup.elem_bytes, tuple(index), 0)
    origin = layout_expr(check.gmem, (tm * setup.tile_m, col))       # the TMA tile's first element
    read: Expr = origin
    for ix, stride in zip(index, tma.box_strides):
        read = read + ix * stride
    want = layout_expr(check.gmem, (tm * setup.tile_m + m, col))
    items.append(Claim(Obligation(
        f"TMA brings the {setup.tensor} of every row of every CTA tile, column and stage to the row's slot",
        [tm, col, s, m], and_(le(0, local), lt(local, box_elements), eq(lands, slot * setup.elem_bytes),
                             eq(read, want)), lhs=read, rhs=want,
        shown={"slot": slot, "byte TMA writes": lands, f"global {setup.tensor} TMA reads": read,
               f"the {setup.tensor} of (m0 + m, column)": want},
        note=f"make_tma_copy(SM90_TMA_LOAD, the {setup.tensor} tensor, SmemLayoutScale(_,_,0), ({setup.tile_m}, 1)): "
             f"box {tma.box} at each stage's first byte; every one of the {setup.tiles_m} CTA tiles along M and "
             f"{setup.columns} columns"),
        gmem, Trace.MIXED_SCALE_SLOT, subject=setup.tensor))
    return items


# --- theorem 32: the read ------------------------------------------------------------------------------------------

def a_row(setup: MixedScaleSetup, t: Expr, x: Expr) -> tuple[Expr, Expr]:
    """(the row m of the tile, the column within the k-block) the RS wgmma reads from element x of thread t's k-block
    fragment tCrA_mma(_,_,k_block): value v = x % V of M block x / V, in warpgroup t / 128's slice, lane t % 128
    (hardware/wgmma.py)."""
    assert setup.model is not None and setup.compute is not None and setup.a_slices is not None
    values = setup.a_fragment[0]
    v, rm = x % values, x // values
    w = t // WARPGROUP
    _, wm, _, _ = thread_coord_exprs(setup.compute, w * WARPGROUP)
    m0 = layout_expr(setup.a_slices, ((0, (wm, 0)), (0, (rm, 0)))) % setup.tile_m
    row, col = setup.model.a.coord(t % WARPGROUP, v)
    return m0 + row, col


def source_slot(setup: MixedScaleSetup, t: Expr, y: Expr, s: Expr) -> Expr:
    """Element y of tCsS(_,_,0,s) = thr_mma.partition_A(sS) of thread t: the slot the k-block 0 copy reads."""
    r = setup.registers
    assert r is not None and setup.reading is not None
    tv, tm, _, tk = thread_coord_exprs(setup.reading, t)
    f = r.frg_values
    return layout_expr(r.partition, ((tv, (tm, tk)), (y % f, (y // f, 0)))) + layout_expr(setup.stage_mode, s)


def read_register(setup: MixedScaleSetup, x: Expr, kb: Expr) -> Expr:
    """Element x of tCrS(_,_,k_block): the register dequantize_A_kblock multiplies A element x of the k-block by; in the
    lookup-table mode, the register of the table lookup_table_convert converts A element x with (tCrS_neg's, and
    tCrS_pos's at the same offset): chunk c = x / N, position p = source_chunk(x % N), table filter(scales_neg_vm(_,c))
    (p / 4)."""
    r = setup.registers
    assert r is not None
    lk = setup.lookup
    if lk is not None:
        n = lk.values
        position = layout_expr(lk.source_chunk, x % n)
        table = position // LUT.LOOKUP_TABLE_VALUES_PER_REGISTER      # the chunk's output register: its table
        return layout_expr(lk.scale_bases, x // n) + layout_expr(lk.tables, table) + layout_expr(r.k_mode, kb)
    return layout_expr(r.read_view, x) + layout_expr(r.k_mode, kb)


def table_register(setup: MixedScaleSetup, x: int, kb: int) -> int:
    """read_register on integers."""
    r = setup.registers
    assert r is not None
    if setup.lookup is not None:
        return setup.lookup.table_register(x) + int(r.k_mode(kb))
    return int(r.read_view(x)) + int(r.k_mode(kb))


def table_registers(setup: MixedScaleSetup, x_size: int, k_blocks: int) -> list[tuple[int, int, int]]:
    """(x, kb, table_register(x, kb)) for every k-block and value, the k-block outermost: each layout read once a
    value and once a k-block (table_register is the value's part plus the k-block's)."""
    r = setup.registers
    assert r is not None
    lookup = setup.lookup
    values = [lookup.table_register(x) if lookup is not None else int(r.read_view(x)) for x in range(x_size)]
    blocks = [int(r.k_mode(kb)) for kb in range(k_blocks)]
    return [(x, kb, values[x] + blocks[kb]) for kb in range(k_blocks) for x in range(x_size)]


def written_register(setup: MixedScaleSetup, y: Expr) -> Expr:
    """Element y of tCrS_copy_view(_,_,0) = retile_D(tCrS): the register the k-block 0 copy writes element y to."""
    r = setup.registers
    assert r is not None
    return layout_expr(r.write_view, y)


def group_failures(setup: MixedScaleSetup) -> tuple[int, tuple[int, int, int] | None]:
    """For every group size covered and k-tile: the k of the tile whose group (kt BLK_K + k) / g is not the column
    kt / reload_factor the producer loads -- counted exactly (the k whose group is that column are one interval), with
    the first failing (group size, k-tile, k)."""
    bk = setup.tile_k
    failing, first = 0, None
    for g in setup.groups:
        if g % bk == 0:
            # g = R BLK_K: reload_factor is R, and k-tile kt's k all lie in group kt / R, [R BLK_K (kt / R), R BLK_K
            # (kt / R + 1)), the column it loads -- no k fails, for any number of k-tiles
            continue
        reload = MI.reload_factor(g, bk)
        for kt in range(setup.k_tiles):
            column = kt // reload
            lo, hi = max(0, column * g - kt * bk), min(bk, (column + 1) * g - kt * bk)   # k of that group
            good = max(0, hi - lo)
            if good < bk:
                failing += bk - good
                if first is None:
                    first = (g, kt, 0 if lo > 0 or good == 0 else hi)
    return failing, first


def _group_text(first: tuple[int, int, int], tile_k: int) -> str:
    g, kt, k = first
    reload = MI.reload_factor(g, tile_k)
    return (f"k-tile {kt}, k {k}, group size {g}: the column loaded is k_tile / reload_factor = {kt} / {reload} = "
            f"{kt // reload}, the element's group ({kt} x {tile_k} + {k}) / {g} = {(kt * tile_k + k) // g}")


def scale_read(setup: MixedScaleSetup, suspects: Suspects) -> Plan:
    refused = _layout_refusal(setup, suspects)
    if refused is not None:
        return refused
    check = setup.check
    copy_suspect = suspects.field("register_copy", f"the {setup.tensor} copy into registers "
                                                   f"(Copy_Atom<{check.register_copy}, {check.value_type}>)")
    if setup.register_rule is not None:
        return Refusal(setup.register_rule, f"make_tiled_copy_A(Copy_Atom<{check.register_copy}, {check.value_type}>, "
                                            f"tiled_mma) and retile_D of the {setup.tensor} fragment: "
                                            f"{setup.register_problem}", copy_suspect)
    r0 = setup.registers
    if r0 is not None and (r0.copy.atom.num_thr, r0.copy.atom.num_val) != (1, 1):
        return Unsupported(f"the {setup.tensor} copy {check.register_copy} moves {r0.copy.atom.num_val} values of "
                           f"{r0.copy.atom.num_thr} threads a call: only an element-by-element copy (CUTLASS's "
                           "Copy_Atom<AutoVectorizingCopy, ElementScale>: element i of the source to element i of the "
                           "destination) is modelled")
    vt = check.value_type
    assert vt is not None
    if not check.lookup_table and vt.bits > SCALAR_SCALE_BITS:
        return Unsupported(f"{vt.name} {setup.tensor}s of {vt.bits} bits multiplied into each A value: only scalar "
                           f"{setup.tensor}s of at most {SCALAR_SCALE_BITS} bits (and the lookup tables of "
                           "'conversion: lookup_table') are modelled")
    if check.lookup_table and vt.bits != LUT_SCALE_BITS:
        return Refusal(LUT_SCALE_BITS_RULE, f"the {setup.tensor}s' type {vt.name} has {vt.bits} bits "
                                            "(dequantize_A_kblock's static_assert sizeof_bits_v<ElementScale> == 64)",
                       suspects.value_type(f"the scale type {vt.name}: an 8-entry table of 8-bit values"))
    if setup.group_problem is not None:
        return Unsupported(setup.group_problem)
    reader = suspects.field("reader_atom_layout", "the tiled MMA the scales are partitioned and copied with") \
        if check.reader_atom_layout is not None else suspects.tiled_mma("the tiled MMA (partition_A of the scale tile)")
    model = setup.model
    rs = Fact("the atom issues a modelled RS wgmma (A from registers)",
              model is not None and not model.invalid
              and model.a.elements * model.lanes == model.shape_mnk[0] * model.shape_mnk[2],
              (model.invalid if model else None) or str(setup.atom.instruction),
              "wgmma.mma_async.sync.aligned.m64nNk*, A in registers", suspects.mma_instruction())
    items: list[Item] = [rs]
    if setup.registers is None or model is None or not rs.holds:
        if setup.register_problem is not None:
            items.append(Fact("CuTe builds the scale copy", False, setup.register_problem, "make_tiled_copy_A and "
                              "retile_D", copy_suspect))
        return items
    r = setup.registers
    values, m_blocks, k_blocks = setup.a_fragment
    x_size = values * m_blocks
    read_size = int(r.read_view.size())
    if check.lookup_table:
        refused_lut = _lookup_refusal(setup, x_size, read_size, reader)
        if refused_lut is not None:
            return refused_lut
        items.append(_table_type_fact(setup, suspects))
    elif read_size != x_size:
        return Refusal("CUTE_STATIC_ASSERT_V(size(src) == size(scales))",
                       f"a k-block of A's fragment holds {x_size} values, tCrS(_,_,k_block) {read_size} "
                       "(dequantize_A_kblock)", reader)
    write_size = int(r.write_view.size())
    items.append(Fact("the k-block 0 copy walks source and destination with one index",
                      write_size == r.source_values, f"tCsS(_,_,0,stage) {r.source_values} values, tCrS_copy_view"
                      f"(_,_,0) {write_size}", "as many of each (AutoVectorizingCopy copies element i to element i)",
                      copy_suspect))
    written = set(r.write_view.values())
    missing = [(x, kb) for x, kb, register in table_registers(setup, x_size, k_blocks) if register not in written]
    what_reads = "every table register a k-block's A values are converted with" if check.lookup_table \
        else "every register a k-block's A values are multiplied by"
    items.append(Fact(f"{what_reads} is written by the k-block 0 copy",
                      not missing, f"{len(missing)} (value, k-block) read a register no copy writes" if missing
                      else "every one", "every register tCrS(_,_,k_block) pairs with A is one the copy writes", reader,
                      point={"value": missing[0][0], "k_block": missing[0][1]} if missing else None,
                      failing=len(missing), domain_size=x_size * k_blocks,
                      note="thread-independent: the register layouts are compile-time types"))
    if check.lookup_table:
        items.append(_positive_tables_fact(setup, x_size, k_blocks, reader))
    failing, first = group_failures(setup)
    group_suspect = suspects.field("group_size", f"the group size {check.group_size} (group_size: CUTLASS's "
                                                 f"can_implement takes K or a multiple of BLK_K = {setup.tile_k})") \
        if check.group_size is not None else suspects.field("tile", "the CTA tile's K")
    groups = (f"group size {check.group_size}" if check.group_size is not None
              else f"every group size R x {setup.tile_k} up to K (R = 1 .. {setup.k_tiles}), K among them")
    items.append(Fact("the column loaded for each k-tile is the group of every k of the tile", failing == 0,
                      _group_text(first, setup.tile_k) if first is not None else "every one",
                      "k_tile / reload_factor = (k_tile BLK_K + k) / group_size"
                      + ("" if first is None or MI.accepted_group(first[0], check.problem_k, setup.tile_k) else
                         " (CUTLASS's can_implement rejects this group size: group_size == K or a multiple of "
                         f"BLK_K = {setup.tile_k})"),
                      group_suspect, note=f"{groups}; {setup.k_tiles} k-tiles of K = {check.problem_k}",
                      point={"group_size": first[0], "k_tile": first[1], "k": first[2]} if first else None,
                      failing=failing, domain_size=len(setup.groups) * setup.k_tiles * setup.tile_k))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    t, x = Var("thread", setup.threads), Var("value", x_size)
    kb, y, s = Var("k_block", k_blocks), Var("copy", write_size), Var("stage", setup.stages)
    m, _ = a_row(setup, t, x)
    reg_read, reg_written = read_register(setup, x, kb), written_register(setup, y)
    got, want = source_slot(setup, t, y, s), slot_expr(setup, m, s)
    if check.lookup_table:
        assert setup.lookup is not None
        title = "every table a converted A element is looked up in holds its row's slot"
        how = (f"; lookup_table_convert converts element x with the table at filter(scales_vm(_, x / "
               f"{setup.lookup.values}))(p / 4), p its position in the chunk (tCrS_neg's register, and tCrS_pos's at "
               "the same offset, derived from it at k-block 0)")
    else:
        title = (f"every register a converted A element is multiplied by"
                 f"{' (added to)' if setup.tensor == 'zero' else ''} holds its row's slot")
        how = ""
    items.append(Claim(Obligation(
        title, [t, x, kb, y, s], eq(got, want), premise=eq(reg_written, reg_read), lhs=got, rhs=want,
        shown={"register read": reg_read, "m": m, "slot copied into it": got, "slot of row m": want},
        note=f"{model.instruction}: A register x of k-block kb is value x % {values} of M block x / {values} of lane "
             f"t % 128; the copy make_tiled_copy_A(Copy_Atom<{check.register_copy}, {vt.name}>) writes its element y "
             "(partition_A(sS)(_,_,0,stage)) to retile_D(tCrS)(_,_,0) element y" + how),
        reader, Trace.MIXED_SCALE_READ, subject=setup.tensor))
    return items


# --- theorem 32, the lookup-table mode -------------------------------------------------------------------------------
# dequantize_A_kblock's UseScaleLookupTable branch and lookup_table_convert (mixed_input_utils.hpp): their
# static_asserts, in the order the code states them
LUT_SCALE_BITS = 64
LUT_SCALE_BITS_RULE = "Lookup table only supports 8 8bit scale values now."
LUT_CONTIGUOUS_RULE = LUT.CONTIGUOUS_SRC_RULE      # dequantize_A_kblock's, both modes
LUT_VECTOR_RULE = "Lookup table requires a vector size of 4x when converting."
LUT_SIZE_RULE = "CUTE_STATIC_ASSERT_V(cute::size(src) == cute::size(scales_neg))"
LUT_ADJACENT_RULE = "At least 4 adjacent weights in a thread must share the same scale."
LUT_CHUNK_RULE = "static_assert(N == 4 || N == 8)"
LUT_CONSECUTIVE_RULE = "at least 4 consecutive weights must share the same scale."
LUT_SHARED = LUT.LOOKUP_TABLE_VALUES_PER_REGISTER        # adjacent values one table serves


def _lookup_refusal(setup: MixedScaleSetup, x_size: int, read_size: int, reader: Suspect) -> Refusal | None:
    """What CUTLASS's lookup-table branch refuses, checked in its order."""
    r, lk, a_load = setup.registers, setup.lookup, setup.a_load
    assert r is not None
    if setup.lookup_rule is not None or lk is None or a_load is None:
        return Refusal(setup.lookup_rule or "zipped_divide", f"dequantize_A_kblock's zipped_divide of a k-block: "
                                                              f"{setup.lookup_problem}", reader)
    first = a_load.mode(0)
    if int(first.size()) != int(first.cosize()):
        return Refusal(LUT_CONTIGUOUS_RULE, f"tCrA_load(_,_,k_block)(_,0) is {first}", reader)
    if x_size % LUT_SHARED or x_size < LUT_SHARED:
        return Refusal(LUT_VECTOR_RULE, f"a k-block of A's fragment holds {x_size} values", reader)
    if read_size != x_size:
        return Refusal(LUT_SIZE_RULE, f"a k-block of A's fragment holds {x_size} values, tCrS_neg(_,_,k_block) "
                                      f"{read_size}", reader)
    flat = r.read_view.flatten()       # static_check_scale: shape<0>(flatten(layout)) >= 4, stride<0> == 0
    if not (int(flat.mode(0).size()) >= LUT_SHARED and flat.mode(0).stride == 0):
        return Refusal(LUT_ADJACENT_RULE, f"static_check_scale: flatten(tCrS_neg(_,_,k_block)) = {flat}: its first "
                                          f"mode {flat.mode(0)} (shape >= {LUT_SHARED}, stride 0 wanted)", reader)
    n = int(lk.source_chunk.cosize())
    if n not in (4, 8):
        return Refusal(LUT_CHUNK_RULE, f"lookup_table_convert's N = cosize of a chunk of the load buffer "
                                       f"{lk.source_chunk} = {n}", reader)
    scale_cosize = int(lk.scale_chunk.cosize())
    if scale_cosize > n // LUT_SHARED:
        return Refusal(LUT_CONSECUTIVE_RULE, f"cosize of a chunk of tCrS_neg {lk.scale_chunk} is {scale_cosize}, more "
                                             f"than N / 4 = {n // LUT_SHARED}", reader)
    return None


def _table_type_fact(setup: MixedScaleSetup, suspects: Suspects) -> Fact:
    """The table's entries are the MMA's 8-bit A values (prmt picks bytes of the table for A's bytes)."""
    vt = setup.check.value_type
    assert vt is not None and setup.model is not None
    want = setup.atom.types["a"]
    array = array_type(vt.name)
    holds = (array is not None and array[1] == LUT.LOOKUP_TABLE_ENTRIES
             and bare_type_name(array[0]) == bare_type_name(want.name) and want.bits == 8)
    return Fact("each table holds 8 values of the MMA's A type (lookup_table_convert picks A's bytes from it)", holds,
                f"{vt.name} against the MMA's A {want.name} ({want.bits} bits)",
                f"cutlass::Array<{want.name}, {LUT.LOOKUP_TABLE_ENTRIES}> of an 8-bit type",
                suspects.value_type(f"the scale type {vt.name}"))      # the whole configuration's: no point


def _positive_tables_fact(setup: MixedScaleSetup, x_size: int, k_blocks: int, reader: Suspect) -> Fact:
    """dequantize_A_kblock derives tCrS_pos from tCrS_neg at k-block 0 only, register by register over
    filter(tCrS_neg(_,_,0)) (tCrS_pos has tCrS_neg's layout): the positive table a later k-block reads is one derived
    from its own negative table only if its register is one of k-block 0's."""
    r = setup.registers
    assert r is not None
    derived = {int(v) + int(r.k_mode(0)) for v in r.read_view.values()}
    stale = [(x, kb) for x, kb, register in table_registers(setup, x_size, k_blocks) if register not in derived]
    first = stale[0] if stale else None
    return Fact("every positive table a k-block reads was derived at k-block 0 from the negative one of its register",
                not stale, f"{len(stale)} (value, k-block) read a register k-block 0 derives no positive table in"
                + (f" (value {first[0]} of k-block {first[1]}: register {table_register(setup, *first)}; k-block 0 "
                   f"derives {sorted(derived)})" if first else "") if stale else "every one",
                "tCrS_pos(_,_,k_block)'s tables among filter(tCrS_pos(_,_,0))'s (the k-block mode of tCrS a stride-0 "
                "broadcast: a tile's scales do not vary along K)", reader,
                point={"value": first[0], "k_block": first[1]} if first else None, failing=len(stale),
                domain_size=x_size * k_blocks, note="the lop3 / xor of dequantize_A_kblock's k_block == 0 branch")
