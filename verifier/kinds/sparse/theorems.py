"""Theorems 27 and 28: a structured-sparse wgmma's metadata E, from the global tensor to the sp-meta bit the tensor
core reads as the indices of a row's chunk.

- 27 `sparse.metadata_tma`: the TMA box CuTe derives for a stage of E (make_tma_copy_A_sm90<uint64_t>) is encodable,
  covers the stage exactly at 128-byte aligned destinations, the stages do not overlap, no two elements of the buffer
  share a position, and every element (m, k) of every CTA tile and stage comes from the global element
  LayoutE(m0+m, k0+k) to SmemLayoutE(m, k, stage), bit for bit: box word u lands at the stage's destination + 8u
  (hardware/tma.py) and is read from the tile's first word + sum u_d * stride_d;
- 28 `sparse.metadata_read`: for every thread of the consumer warpgroups, every wgmma of the K tile (M repeat r,
  k-block kb) and every sp-meta bit b the instruction reads under its sp-sel (hardware/wgmma_sparse.py), the element
  of E CuTe's path puts in that bit -- partition_S of make_tiled_copy_E reads SmemLayoutE at the tile coordinate
  (m, k) get_layoutE_TV gives value v = b / bits(E), the copy writes it to tErE(v, r, kb), recast<uint32_t> makes
  tErE(_, r, kb) wgmma (r, kb)'s sp-meta, bit b = v bits(E) + s -- is of row m0 + row(b) and at row bit
  k0 bits(E) + 4 chunk(b) + nibble_bit(b), where (m0, k0) is the first element of the A slice partition_A hands the
  same wgmma: the metadata describes the rows and K the wgmma multiplies.  The compressor's contract (E's logical
  element k of a row is row bits k bits(E) .. ; cute/sparse.py) makes the row bit the chunk's.

Together with the compressed A's descriptor checks (13-16 on the stored M x K/2 tile): each wgmma reads, for each
row and chunk of its A, the metadata CUTLASS's compressor wrote for that row and chunk.
"""
from __future__ import annotations

from ...hardware import tma as TMA
from ...hardware import wgmma_sparse as WS
from ...symbolic.expr import Expr, Var, and_, eq, lt, ne
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Trace, Unsupported
from ...theorems.suspects import Suspects
from .setup import TMA_DTYPE, MetaLoad, MetaSetup, thread_warpgroup_m, words

BYTE = 8
WORD_BITS = 64                    # the TMA's uint64


def type_refusal(setup: MetaLoad, suspects: Suspects) -> Refusal | None:
    """The sparse config's refusal of the atom's ValTypeE (no sparse_elem): the collective does not compile."""
    if setup.type_refusal is None:
        return None
    rule, given = setup.type_refusal
    return Refusal(rule, f"the sparse GEMM config (Sm90GemmSparseConfig / Sm1xxGemmSparseConfig): {given}",
                   suspects.field("mma", "the sparse MMA atom (its ValTypeE: the metadata's element type)"))


def _tile_problem(setup: MetaLoad, suspects: Suspects) -> Refusal | Unsupported | None:
    """CUTLASS's refusal of the atom's metadata type, of the tile or its stages (the SM90 collective's, the SM100
    kernel's shared-memory capacity), else a tile the model does not cover."""
    refused = type_refusal(setup, suspects)
    if refused is not None:
        return refused
    if setup.collective_refusal is not None:
        rule, given = setup.collective_refusal
        return Refusal(rule, given,
                       suspects.field("smem", "the shared metadata tile (SmemLayoutE: its K extent and stages)"))
    return Unsupported(setup.tile_problem) if setup.tile_problem is not None else None


# --- theorem 27: E through TMA into shared memory ------------------------------------------------------------------

def metadata_tma(setup: MetaLoad, suspects: Suspects) -> Plan:
    problem = _tile_problem(setup, suspects)
    if problem is not None:
        return problem
    if setup.tma_refusal is not None:      # make_tma_copy of the stage does not compile
        return Refusal(setup.tma_refusal.rule, setup.tma_refusal.detail,
                       suspects.field("smem", "the shared metadata layout against the global one (make_tma_copy's "
                                               "box)"))
    check = setup.check
    smem = suspects.field("smem", "the shared metadata layout (SmemLayoutE, its stages)")
    gmem = suspects.field("gmem", "the global metadata layout (Sm90GemmSparseConfig / Sm1xxGemmSparseConfig::"
                                  "fill_layoutE)")
    items: list[Item] = []
    sizes = (setup.blk_m, setup.blk_k, setup.stages)
    n = setup.blk_m * setup.blk_k * setup.stages
    x1, x2 = Var("element", n), Var("element2", n)

    def position(x: Var) -> Expr:
        coord = (x % setup.blk_m, (x // setup.blk_m) % setup.blk_k, x // (setup.blk_m * setup.blk_k))
        return layout_expr(check.smem, coord if check.smem.rank() > 2 else coord[:2])
    p1, p2 = position(x1), position(x2)
    items.append(Claim(Obligation(f"distinct (m, k, stage) of the {'x'.join(map(str, sizes))} metadata buffer have "
                                  "distinct shared positions", [x1, x2], ne(p1, p2), premise=lt(x1, x2), lhs=p1,
                                  rhs=p2, shown={"position": p1, "position2": p2},
                                  note="element = m + BLK_M (k + BLK_K stage)",
                                  distinct=Distinct(p1, (x1,), (x2,), check.smem)),
                       smem, subject="E"))
    align = suspects.field("smem_align", f"the metadata buffer's alignment ({check.smem_align} bytes)")
    footprint = -(-setup.footprint_bits // BYTE)
    items.append(Fact("the metadata buffer fits shared memory", footprint <= setup.shared_capacity,
                      f"{footprint} bytes", f"at most {setup.shared_capacity} bytes", smem))
    items.append(Fact("the shared tile's elements map to the global tensor's as one TMA box", setup.tma is not None,
                      setup.tma_problem or "one box", "whole uint64 words of the global tensor's runs", gmem))
    tma, tensor_map = setup.tma, setup.tensor_map
    if tma is None or tensor_map is None:
        return items
    refusal = TMA.encode_refusal_nd(tensor_map)
    items.append(Fact("cuTensorMapEncodeTiled accepts the box", refusal is None, refusal or "accepted",
                      "no rule broken", gmem if "Stride" in (refusal or "") else smem,
                      note=f"box {tma.box} {TMA_DTYPE}, global dims {tma.global_dim}, strides {tma.global_strides[1:]} "
                           "bytes"))
    stage_bits = setup.blk_m * setup.blk_k * setup.e_bits
    box_bits = tma.box_words * WORD_BITS
    items.append(Fact("the box writes the stage's metadata and nothing else", box_bits == stage_bits,
                      f"a box of {box_bits // BYTE} bytes", f"the stage's {stage_bits // BYTE} bytes", smem))
    stride_bits = setup.stage_stride * setup.e_bits
    items.append(Fact(f"every stage's destination is {TMA.SMEM_ALIGN}-byte aligned",
                      check.smem_align % TMA.SMEM_ALIGN == 0
                      and (setup.stages == 1 or stride_bits % (TMA.SMEM_ALIGN * BYTE) == 0),
                      f"a buffer {check.smem_align}-byte aligned, stages {stride_bits // BYTE} bytes apart",
                      f"multiples of {TMA.SMEM_ALIGN}", align if check.smem_align % TMA.SMEM_ALIGN else smem))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    words_per = tma.elements_per_word
    mt, kt = Var("tile_m", setup.tiles[0]), Var("tile_k", setup.tiles[1])
    s, m, k = Var("stage", setup.stages), Var("m", setup.blk_m), Var("k", setup.blk_k)
    coord = (m, k, s) if check.smem.rank() > 2 else (m, k)
    shared = layout_expr(check.smem, coord)                  # E element of the buffer
    local = shared - s * setup.stage_stride                  # its place in the stage (the box's destination: start)
    word, within = local // words_per, local % words_per
    index: list[Expr] = []
    run = 1
    for d, b in enumerate(tma.box):
        index.append((word // run) % b if d < tma.rank - 1 else word // run)
        run *= b
    stage_bytes = s * (setup.stage_stride * setup.e_bits // BYTE)
    lands = TMA.smem_address_nd(tensor_map, stage_bytes, tuple(index), 0)       # the hardware's placement
    want_byte = stage_bytes + word * (WORD_BITS // BYTE)
    strides = [g * BYTE // WORD_BITS for g in tma.global_strides]               # words
    first = layout_expr(setup.tile_index, (mt, kt))
    read: Expr = first // words_per
    for i, gs in zip(index, strides):
        read = read + i * gs
    want = layout_expr(check.gmem, (mt * setup.blk_m + m, kt * setup.blk_k + k))
    items.append(Claim(Obligation(
        "TMA brings every metadata element (m, k) of every tile and stage from the global element LayoutE gives it "
        "to the shared position SmemLayoutE gives it, bit for bit", [mt, kt, s, m, k],
        and_(eq(lands, want_byte), eq(read, want // words_per), eq(within, want % words_per),
             eq(first % words_per, 0)),
        lhs=read, rhs=want // words_per,
        shown={"shared element": shared, "box word": word, "byte TMA writes": lands, "global word TMA reads": read,
               "global element": want},
        note=f"box {tma.box} uint64 ({words_per} elements a word) at each stage's first byte; every one of the "
             f"{setup.tiles[0]} x {setup.tiles[1]} tiles"), gmem, Trace.METADATA_ELEMENT, subject="E"))
    return items


# --- theorem 28: shared memory -> sp-meta -> what wgmma.mma_async.sp reads ------------------------------------------

def metadata_read(setup: MetaSetup, suspects: Suspects) -> Plan:
    problem = _tile_problem(setup, suspects)
    if problem is not None:
        return problem
    check, side = setup.check, setup.side
    instruction = suspects.mma_instruction()
    items: list[Item] = [Fact("the atom issues wgmma.mma_async.sp", setup.stype is not None,
                              setup.instruction_problem or side.instruction, "wgmma.mma_async.sp.sync.aligned."
                              "m64nNk{32,16,64}", instruction)]
    stype = setup.stype
    if stype is None:
        return items
    items.append(Fact(f"ValTypeE is {stype.bits_per_element} bit(s) a logical element of {stype.name} A (4 metadata "
                      f"bits a chunk of {stype.chunk})", setup.e_bits == stype.bits_per_element,
                      f"{side.e_type.name} ({setup.e_bits} bits)" if side.e_type is not None else "none",
                      f"{stype.bits_per_element} bits", suspects.mma_type("e")))
    sel = WS.sp_sel_problem(stype, side.sp_sel)
    items.append(Fact(f"the sparsity selector is one {stype.name} A allows", sel is None,
                      sel or f"sp-sel {side.sp_sel}", " or ".join(map(str, stype.sp_sels)),
                      suspects.field("mma", f"the sp_sel of {setup.atom.name} (its GMMA::SparseSel)")))
    e_layout = suspects.mma_layout("E", "MMA_Traits::ELayout, (thr, val) -> m + 64 k")
    assert side.e is not None
    values = int(side.e.mode(1).size())
    items.append(Fact("the ELayout gives each thread 32 bits of metadata a wgmma (one sp-meta register)",
                      values * setup.e_bits == WS.META_BITS, f"{values} values of {setup.e_bits} bits",
                      f"{WS.META_BITS} bits", e_layout))
    copy = suspects.field("copy", f"the metadata's shared -> register copy {check.copy}")
    if setup.copy_model is None:
        return Unsupported(f"the copy {check.copy} has no instruction model: which register each thread's metadata "
                           "lands in is not known")
    items.append(Fact("the metadata copy is a per-thread copy (each thread's values into its own registers)",
                      setup.copy_model.lanes == 1, f"{setup.copy_model.instruction} ({setup.copy_model.lanes} lanes)",
                      "one thread (CUTLASS's Copy_Atom<AutoVectorizingCopy, uint32_t>)", copy))
    if setup.cute_refusal is not None:
        return Refusal(setup.cute_refusal, "make_tiled_copy_E(Copy_Atom<AutoVectorizingCopy, uint32_t>, tiled_mma) "
                                           "and its partitions of the metadata", e_layout)
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    layout_problem = thread_warpgroup_m(setup)
    if layout_problem is not None:
        return Unsupported(layout_problem)
    word_of, word_problem = words(setup)
    items.append(Fact("each wgmma's metadata is one 32-bit register (recast<uint32_t> of tErE(_, m, k_block))",
                      word_problem is None, word_problem or f"registers {sorted(set(word_of.values()))}",
                      "one aligned run of 32 bits a wgmma", e_layout))
    a_rest = _a_rest(setup)
    items.append(Fact("the metadata fragment has a register for each wgmma of the tile (tErE's (M, K) repeats are "
                      "partition_A's)", a_rest == setup.rest, f"{setup.rest}", f"{a_rest} (partition_A)",
                      suspects.tiled_mma("the tiled MMA against the metadata tile")))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    assert setup.source is not None and setup.reads is not None and setup.a_slices is not None
    eb = setup.e_bits
    t, r = Var("thread", setup.threads), Var("m_block", setup.rest[0])
    kb, b = Var("k_block", setup.rest[1]), Var("bit", WS.META_BITS)
    s = Var("stage", setup.stages)
    v, sub = b // eb, b % eb
    coord = layout_expr(setup.source, (t, v, (r, kb)))                     # m + BLK_M k of the tile
    m_c, k_c = coord % setup.blk_m, coord // setup.blk_m
    read = layout_expr(setup.reads, (t, v, (r, kb, s)) if check.smem.rank() > 2 else (t, v, (r, kb)))
    at = layout_expr(check.smem, (m_c, k_c, s) if check.smem.rank() > 2 else (m_c, k_c))
    lane, group = t % setup.warpgroup, t // setup.warpgroup
    origin = layout_expr(setup.a_slices, ((0, (group, 0)), (0, (r, kb))))    # partition_A's slice (r, kb)
    m0, k0 = origin % setup.blk_m, origin // setup.blk_m
    hw = WS.meta_bit(stype, lane, b)
    hw_row, hw_bit = m0 + hw.row, k0 * eb + hw.row_bit()
    cute_bit = k_c * eb + sub
    supplies = WS.supplies(stype, lane, side.sp_sel)
    row_bits = setup.blk_k * eb                  # the tile's metadata bits a row: bit m * row_bits + row bit
    tile = setup.blk_m * setup.blk_k
    val = Var("value", setup.values)
    inside = layout_expr(setup.source, (t, val, (r, kb)))
    items.append(Claim(Obligation(
        f"every thread's copy reads metadata inside the {setup.blk_m}x{setup.blk_k} tile", [t, r, kb, val],
        lt(inside, tile), lhs=inside, shown={"tile element": inside}, note="partition_S of make_tiled_copy_E over the "
        "tile's coordinates (every thread loads, whether or not its sp-sel reads it)"), e_layout, subject="E"))
    items.append(Claim(Obligation(
        f"every sp-meta bit wgmma.mma_async.sp reads under sp-sel {side.sp_sel} holds the metadata of the row and "
        "chunk (at the chunk's bit) it reads the bit as, in the A slice of the same wgmma", [t, r, kb, b, s],
        and_(eq(m_c, hw_row), eq(cute_bit, hw_bit), eq(read, at)), premise=supplies,
        lhs=m_c * row_bits + cute_bit, rhs=hw_row * row_bits + hw_bit,
        shown={"value": v, "tile m": m_c, "tile k": k_c, "row bit (CuTe)": cute_bit, "shared element read": read,
               "SmemLayoutE(m, k, stage)": at, "A slice m0": m0, "A slice k0": k0, "row (wgmma)": hw_row,
               "chunk (wgmma)": hw.chunk, "nibble bit (wgmma)": hw.nibble_bit, "row bit (wgmma)": hw_bit},
        note=f"{stype.name} A, {stype.figure} (inferred: {WS.INFERRED}); sp-meta of wgmma (m, k_block) = "
             f"recast<uint32_t>(tErE(_, m, k_block)); {setup.threads} threads; the sides are the tile's metadata "
             f"bit m * {row_bits} + row bit"),
        e_layout, Trace.METADATA_BIT, subject="E"))
    return items


def _a_rest(setup: MetaSetup) -> tuple[int, int]:
    """partition_A's (MMA_M, MMA_K) of the tile: the wgmmas a warpgroup issues along M and K per k-tile."""
    assert setup.a_slices is not None
    rest = setup.a_slices.mode(1).mode(1)
    return int(rest.mode(0).size()), int(rest.mode(1).size())
