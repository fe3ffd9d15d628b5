"""Theorems 29 and 30: a blockwise-scaled GEMM's scales, from the global scale tensor to the accumulator value each
one multiplies.

- 29 `blockwise.load`: the shared layout gives every element (mn, k) of the tile the slot of its block (mn / gMN,
  k / gK), distinct blocks and stages distinct slots; layout_SF gives every element of a block the block's one scale;
  and the loader writes every slot of every stage exactly once, with the scale of the block the slot holds:
  cp.async -- for every active lane of the scale warp (SM90 `thread_idx < ScaleMsPerTile`, SM100 `lane <
  size(scale_copy)`), copy value and copy_if iteration, the global element CUTLASS's filter_zeros'd partition_S reads
  is layout_SF at the tile coordinate its filter_zeros'd partition_D writes (the two filtered tensors are walked with
  one index, as copy_if walks them); TMA -- the box CuTe derives is encodable, covers the stage at 128-byte aligned
  destinations, and box element e lands (hardware/tma.py) at the slot of the block it reads;
- 30 `blockwise.read`: for every thread, accumulator value, scale K block and stage, the slot the reader hands that
  value is the slot of the block of the accumulator element the thread holds in hardware: SM90, partition_C of the
  broadcast view by the reading tiled MMA (coordinate 0 when the tile has one block along MN, CUTLASS's
  ScaleMsPerTile == 1 branch) against the wgmma D fragment (row, column) of the warpgroup's A and B slices; SM100,
  partition_D of the epilogue-tiled view by make_tmem_copy(CopyOpT2R) at k = kb gK (accum()'s compact registers
  decided to hand every value its own slot) against the accumulator element in the TMEM cell tcgen05.ld reads for
  that register (hardware/tmem_copy.py) under the accumulator's TMEM layout.

Together: accumulator (m, n) of K block kb is multiplied by SFA(m / gM, kb) * SFB(n / gN, kb) (each check proves one
operand's factor).  Whole CTA tiles of the global tensor only: the predicates' elem_less is then true everywhere.
"""
from __future__ import annotations

from ...algebra.inttuple import flatten_to_tuple
from ...algebra.layout import Layout
from ...algebra.ops import coalesce, filter_zero_strides, left_inverse
from ...cute import blockwise as BW
from ...hardware import tma as TMA
from ...hardware.tmem_copy import register_cell
from ...symbolic.expr import Expr, Var, and_, const, eq, le, lt, ne
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Trace, Unsupported
from ...theorems.suspects import Suspects
from .config import SM90
from .setup import WARP, BlockwiseSetup, Sm90Reader, Sm100Reader, colex, leaf_index, leaves

WARPGROUP = 128


def _common(setup: BlockwiseSetup, suspects: Suspects) -> list[Item] | Refusal | Unsupported:
    """The granularity against the tile and the layouts; whole tiles of the global tensor."""
    check = setup.check
    problem = setup.granularity_problem
    items: list[Item] = []
    if setup.granularity_rule is not None:      # the collective does not compile: no load, no read
        blamed = suspects.field("smem", "the shared scale layout's stages (the collective's Stages)") \
            if setup.stages_refused else suspects.field("granularity", f"the granularity {check.granularity}")
        return Refusal(setup.granularity_rule, problem or "", blamed)
    if problem is not None:
        suspect = suspects.field("smem" if "shared layout" in problem else "granularity",
                                 "the shared scale layout's blocks" if "shared layout" in problem
                                 else f"the granularity {check.granularity}")
        items.append(Fact("the granularity divides the tile, as the shared layout's blocks", False, problem,
                          f"{setup.g_mn} x {setup.g_k} blocks of a {setup.tile_mn} x {setup.tile_k} tile", suspect))
        return items
    gmem_g = BW.granularity_of(check.gmem)
    items.append(Fact("layout_SF's blocks are the granularity's (size<0,0>, size<1,0>)", gmem_g == check.granularity,
                      f"{gmem_g[0]} x {gmem_g[1]}", f"{setup.g_mn} x {setup.g_k}",
                      suspects.field("gmem", "the global scale layout (tile_atom_to_shape_SF)")))
    if setup.tile_problem is not None:
        return Unsupported(setup.tile_problem)
    return items


def _tile_coord(setup: BlockwiseSetup, tm: Expr, tk: Expr, mn: Expr, k: Expr) -> Expr:
    """layout_SF at element (tm TILE_MN + mn, tk TILE_K + k)."""
    return layout_expr(setup.check.gmem, (tm * setup.tile_mn + mn, tk * setup.tile_k + k))


def _slot(setup: BlockwiseSetup, mn: Expr, k: Expr, s: Expr) -> Expr:
    return layout_expr(setup.check.smem, (mn, k, s))


def _block_rep(x: Expr, g: int) -> Expr:
    """The first element of x's block."""
    return (x // g) * g


# --- theorem 29: the load ------------------------------------------------------------------------------------------

def blockwise_load(setup: BlockwiseSetup, suspects: Suspects) -> Plan:
    common = _common(setup, suspects)
    if not isinstance(common, list):
        return common
    items = common
    if setup.granularity_problem is not None:
        return items
    check = setup.check
    if setup.load_tile_rule is not None:
        return Refusal(setup.load_tile_rule, f"the collective's load(): local_tile of the global scales {check.gmem} "
                                             f"by the tile's {setup.blocks_mn} scales: {setup.load_tile_problem}",
                       suspects.field("granularity", f"the granularity {check.granularity} against the "
                                                     f"{setup.tile_mn}-wide tile"))
    if setup.writer_rule is not None:
        return Refusal(setup.writer_rule, f"Copy_Atom<{check.copy}, float> x make_tiled_copy({check.copy_layout}) and "
                                          f"its partitions of the scale tiles: {setup.writer_problem}",
                       suspects.field("copy_layout", "the scale copy's thread and value layouts"))
    smem = suspects.field("smem", "the shared scale layout (SmemLayoutSF: its blocks and stages)")
    gmem = suspects.field("gmem", "the global scale layout (tile_atom_to_shape_SF)")
    g_mn, g_k = setup.g_mn, setup.g_k
    s, mn, k = Var("stage", setup.stages), Var("mn", setup.tile_mn), Var("k", setup.tile_k)
    here, block = _slot(setup, mn, k, s), _slot(setup, _block_rep(mn, g_mn), _block_rep(k, g_k), s)
    items.append(Claim(Obligation(
        "the shared layout gives every element of the tile its block's slot", [s, mn, k], eq(here, block),
        lhs=here, rhs=block, shown={"slot": here, "block's slot": block},
        note=f"blocks of {g_mn} x {g_k} elements (MN x K)"), smem, Trace.BLOCKWISE_SLOT, subject=check.scaled))
    n_blocks = setup.blocks_mn * setup.blocks_k * setup.stages
    b1, b2 = Var("block", n_blocks), Var("block2", n_blocks)

    def block_slot(b: Var) -> Expr:
        bm, bk = b % setup.blocks_mn, (b // setup.blocks_mn) % setup.blocks_k
        return _slot(setup, bm * g_mn, bk * g_k, b // (setup.blocks_mn * setup.blocks_k))
    p1, p2 = block_slot(b1), block_slot(b2)
    items.append(Claim(Obligation(
        f"distinct blocks and stages have distinct slots ({setup.blocks_mn} x {setup.blocks_k} blocks a stage, "
        f"{setup.stages} stages)", [b1, b2], ne(p1, p2), premise=lt(b1, b2), lhs=p1, rhs=p2,
        shown={"slot": p1, "slot2": p2}, note="block = block_mn + blocks_mn (block_k + blocks_k stage)",
        distinct=Distinct(p1, (b1,), (b2,))), smem, subject=check.scaled))
    tm, tk = Var("tile_mn", setup.tiles[0]), Var("tile_k", setup.tiles[1])
    g_here = _tile_coord(setup, tm, tk, mn, k)
    g_block = _tile_coord(setup, tm, tk, _block_rep(mn, g_mn), _block_rep(k, g_k))
    items.append(Claim(Obligation(
        "layout_SF gives every element of a block the block's scale", [tm, tk, mn, k], eq(g_here, g_block),
        lhs=g_here, rhs=g_block, shown={"scale": g_here, "block's scale": g_block},
        note=f"every one of the {setup.tiles[0]} x {setup.tiles[1]} CTA tiles"), gmem, subject=check.scaled))
    if check.tma:
        return items + _tma_load(setup, suspects)
    return items + _cp_async_load(setup, suspects)


def _contiguous(layout: Layout, n: int) -> bool:
    """A copy vector of n values: one run of stride 1 (any layout of one value)."""
    c = coalesce(layout)
    runs = [(int(x), int(d)) for x, d in zip(flatten_to_tuple(c.shape), flatten_to_tuple(c.stride)) if int(x) > 1]
    return n == 1 or runs == [(n, 1)]


def _past_stage(setup: BlockwiseSetup, active: int) -> str:
    """The first write (lane, call) past the stage's slots, said as the slot of the next stage it lands in; empty
    when every write stays in the stage."""
    assert setup.parts is not None
    dst = setup.parts.dst
    values = dst.filtered.mode(0)
    slots = setup.slots
    # each lane's, value's and call's part of the slot, read once (the slot is their sum)
    lanes = [int(dst.thread(lane)) for lane in range(active)]
    vector = [int(values(value)) for value in range(dst.vector)]
    for call in range(dst.calls):
        rest = int(dst.rest(call))
        for value, at in enumerate(vector):
            for lane, base in enumerate(lanes):
                slot = base + at + rest
                if slot >= slots:
                    return (f": lane {lane}'s write {call * dst.vector + value} lands in slot {slot}, past the "
                            f"stage's {slots} slots (the next stage's slot {slot - slots} when the stages "
                            "are adjacent)")
    return ""


def _cp_async_load(setup: BlockwiseSetup, suspects: Suspects) -> list[Item]:
    check = setup.check
    copy_suspect = suspects.field("copy_layout", f"the scale copy's thread and value layouts {check.copy_layout}")
    if setup.writer_problem is not None or setup.parts is None or setup.copy is None:
        return [Fact("CuTe builds the scale copy and its partitions", False, setup.writer_problem or "no copy",
                     "make_tiled_copy and partition_S / partition_D", copy_suspect)]
    parts, copy = setup.parts, setup.copy
    items: list[Item] = []
    active = setup.active_lanes
    items.append(Fact("every writing lane is a thread of the scale copy", active <= copy.num_threads,
                      f"{active} lanes write, the copy has {copy.num_threads} threads",
                      f"at most {copy.num_threads}", copy_suspect,
                      note="SM90: lanes below ScaleMsPerTile write; SM100: lanes below size(scale_copy)"))
    vector = copy.atom.num_val
    src, dst = parts.src, parts.dst
    items.append(Fact("each cp.async moves one vector of the atom's values, on both sides",
                      src.vector == dst.vector == vector,
                      f"source {src.vector}, destination {dst.vector} values a call", f"{vector} (the atom's)",
                      suspects.field("copy", f"the scale copy atom {check.copy}"),
                      note="CuTe: \"CopyAtom: Src/Dst partitioning does not match the instruction requirement.\""))
    items.append(Fact("copy_if walks the filtered source and destination with one index",
                      src.calls == dst.calls, f"{src.calls} source and {dst.calls} destination calls",
                      "as many of each", suspects.field("smem", "the shared scale layout against the global one")))
    contiguous = _contiguous(src.filtered.mode(0), vector) and _contiguous(dst.filtered.mode(0), vector)
    items.append(Fact("a vector's values are contiguous on both sides", contiguous,
                      f"source {src.filtered.mode(0)}, destination {dst.filtered.mode(0)}", f"{vector}:1",
                      copy_suspect))
    writes = active * dst.vector * dst.calls
    items.append(Fact("the warp writes as many scales as the stage has slots", writes == setup.slots,
                      f"{active} lanes x {dst.vector} x {dst.calls} writes" + _past_stage(setup, active),
                      f"{setup.slots} slots", copy_suspect))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    n_writes = writes
    w1, w2 = Var("write", n_writes), Var("write2", n_writes)

    def written(w: Expr) -> Expr:
        lane, rest = w % active, w // active
        v, i = rest % dst.vector, rest // dst.vector
        return layout_expr(dst.thread, lane) + layout_expr(dst.filtered.mode(0), v) + layout_expr(dst.rest, i)
    d1, d2 = written(w1), written(w2)
    items.append(Claim(Obligation(
        "no two writes of a k-tile land in one slot", [w1, w2], ne(d1, d2), premise=lt(w1, w2), lhs=d1, rhs=d2,
        shown={"slot": d1, "slot2": d2}, note="write = lane + lanes (value + vector call); with the count: every "
        "slot of the stage exactly once", distinct=Distinct(d1, (w1,), (w2,))), copy_suspect, subject=check.scaled))
    tm, tk = Var("tile_mn", setup.tiles[0]), Var("tile_k", setup.tiles[1])
    s, lane = Var("stage", setup.stages), Var("lane", active)
    v, i = Var("value", dst.vector), Var("call", dst.calls)
    slot = s * setup.stage_stride + layout_expr(dst.thread, lane) + layout_expr(dst.filtered.mode(0), v) \
        + layout_expr(dst.rest, i)
    assert setup.tile_index is not None
    read = layout_expr(setup.tile_index, (tm, tk)) + layout_expr(src.thread, lane) \
        + layout_expr(src.filtered.mode(0), v) + layout_expr(src.rest, i)
    # the tile coordinate of the destination: the filtered (value, call) as leaves of the unfiltered partition
    coords = leaf_index(v, leaves(dst.filtered.mode(0))) + leaf_index(i, leaves(dst.rest))
    inner = colex(coords, leaves(dst.values))
    whole = lane + copy.num_threads * inner
    c = layout_expr(parts.coords, whole)
    mn, k = c % setup.tile_mn, c // setup.tile_mn
    want = _tile_coord(setup, tm, tk, mn, k)
    at = _slot(setup, mn, k, s)
    items.append(Claim(Obligation(
        "every cp.async reads the global scale of the block whose slot it writes", [tm, tk, s, lane, v, i],
        and_(eq(read, want), eq(slot, at)), lhs=read, rhs=want,
        shown={"slot written": slot, "mn": mn, "k": k, "slot of (mn, k)": at, "global scale read": read,
               "layout_SF(mn0 + mn, k0 + k)": want},
        note=f"Copy_Atom<{check.copy}, float> x make_tiled_copy({check.copy_layout}); filter_zeros of partition_S "
             f"(global) and partition_D (shared); {active} writing lanes; every one of the {setup.tiles[0]} x "
             f"{setup.tiles[1]} tiles"),
        suspects.field("smem", "the shared scale layout against the global one (their filter_zeros'd partitions)"),
        Trace.BLOCKWISE_SLOT, subject=check.scaled))
    return items


def _tma_load(setup: BlockwiseSetup, suspects: Suspects) -> list[Item]:
    check = setup.check
    smem = suspects.field("smem", "the shared scale layout (its stages)")
    gmem = suspects.field("gmem", "the global scale layout")
    items: list[Item] = [Fact("the shared stage's slots map to the global scales as one TMA box",
                              setup.tma is not None, setup.writer_problem or "one box",
                              "a contiguous run of the global tensor's stride-1 mode", gmem)]
    tma, tmap = setup.tma, setup.tensor_map
    if tma is None or tmap is None:
        return items
    refusal = TMA.encode_refusal_nd(tmap)
    items.append(Fact("cuTensorMapEncodeTiled accepts the box", refusal is None, refusal or "accepted",
                      "no rule broken", gmem if "tride" in (refusal or "") else smem,
                      note=f"box {tma.box} float32, global dims {tma.global_dim}, strides {tma.global_strides} bytes"))
    box_elements = 1
    for b in tma.box:
        box_elements *= b
    items.append(Fact("the box writes the stage's scales and nothing else", box_elements == setup.slots,
                      f"a box of {box_elements} scales", f"the stage's {setup.slots}", smem))
    stride_bytes = setup.stage_stride * BW.SCALE_BYTES
    align = suspects.field("smem_align", f"the scale buffer's alignment ({check.smem_align} bytes)")
    items.append(Fact(f"every stage's destination is {TMA.SMEM_ALIGN}-byte aligned",
                      check.smem_align % TMA.SMEM_ALIGN == 0
                      and (setup.stages == 1 or stride_bytes % TMA.SMEM_ALIGN == 0),
                      f"a buffer {check.smem_align}-byte aligned, stages {stride_bytes} bytes apart",
                      f"multiples of {TMA.SMEM_ALIGN}", align if check.smem_align % TMA.SMEM_ALIGN else smem))
    if refusal is not None:
        return items
    tm, tk = Var("tile_mn", setup.tiles[0]), Var("tile_k", setup.tiles[1])
    s, bm, bk = Var("stage", setup.stages), Var("block_mn", setup.blocks_mn), Var("block_k", setup.blocks_k)
    mn, k = bm * setup.g_mn, bk * setup.g_k
    slot = _slot(setup, mn, k, s)
    local = slot - s * setup.stage_stride
    index: list[Expr] = []
    run = 1
    for d, b in enumerate(tma.box):
        index.append((local // run) % b if d < len(tma.box) - 1 else local // run)
        run *= b
    lands = TMA.smem_address_nd(tmap, s * stride_bytes, tuple(index), 0)
    # the TMA tile's origin: block coordinates (tile_mn ScaleMsPerTile, tile_k) of the filtered global tensor
    origin = layout_expr(filter_zero_strides(check.gmem), (tm * setup.blocks_mn, tk * setup.blocks_k))
    read: Expr = origin
    for ix, stride in zip(index, tma.box_strides):
        read = read + ix * stride
    want = _tile_coord(setup, tm, tk, mn, k)
    items.append(Claim(Obligation(
        "TMA brings every block's scale of every tile and stage to the block's slot", [tm, tk, s, bm, bk],
        and_(le(0, local), lt(local, box_elements), eq(lands, slot * BW.SCALE_BYTES), eq(read, want)),
        lhs=read, rhs=want,
        shown={"slot": slot, "byte TMA writes": lands, "global scale TMA reads": read, "layout_SF of the block": want},
        note=f"make_tma_copy(SM90_TMA_LOAD, filter_zeros(layout_SF), filter_zeros(SmemLayoutSF)(_,_,0), "
             f"({setup.blocks_mn}, {setup.blocks_k})): box {tma.box} at each stage's first byte"),
        gmem, Trace.BLOCKWISE_SLOT, subject=check.scaled))
    return items


# --- theorem 30: the read ------------------------------------------------------------------------------------------

# what a refusal of the reader blames, by the field it names (the reader's own fields: "the scale reader")
READER_FIELD_LABELS = {"granularity": "the granularity {granularity}, whose blocks split the accumulators' modes",
                       "reader_atom_layout": "the reading tiled MMA"}


def blockwise_read(setup: BlockwiseSetup, suspects: Suspects) -> Plan:
    common = _common(setup, suspects)
    if not isinstance(common, list):
        return common
    items = common
    if setup.granularity_problem is not None:
        return items
    what = setup.reader_field or ("tmem_load" if setup.check.arch != SM90 else "atom_layout")
    if setup.reader_rule is not None:
        blamed = READER_FIELD_LABELS.get(what, "the scale reader").format(granularity=setup.check.granularity)
        return Refusal(setup.reader_rule, "the reader's partition of the scale view (SM90 partition_C; SM100 "
                                          f"make_tmem_copy of the epilogue tile): {setup.reader_problem}",
                       suspects.field(what, blamed))
    if setup.reader_problem is not None or setup.reader is None:
        items.append(Fact("CuTe builds the reader's partition", False, setup.reader_problem or "no reader",
                          "the reader's partition of the scale view", suspects.field(what, "the scale reader")))
        return items
    if isinstance(setup.reader, Sm90Reader):
        return items + _sm90_read(setup, setup.reader, suspects)
    return items + _sm100_read(setup, setup.reader, suspects)


def _thread_vmnk(layout_vmnk: Layout, t: Expr) -> list[Expr]:
    """The flat (v, m, n, k) coordinate of thread t in ThrLayoutVMNK (CuTe's idx2crd for its compact layout)."""
    out: list[Expr] = []
    for i in range(layout_vmnk.rank()):
        mode = layout_vmnk.mode(i)
        shapes = [int(x) for x in flatten_to_tuple(mode.shape)]
        strides = [int(x) for x in flatten_to_tuple(mode.stride)]
        coord: Expr = const(0)
        run = 1
        for size, stride in zip(shapes, strides):
            if size > 1:
                coord = coord + ((t // stride) % size) * run
            run *= size
        out.append(coord)
    return out


def sm90_slot(setup: BlockwiseSetup, r: Sm90Reader, t: Expr, v: Expr, rm: Expr, rn: Expr, kb: Expr,
              s: Expr) -> Expr:
    """The slot tiled_mma.get_slice(t).partition_C(view) hands accumulator value (v, rm, rn) of K block kb in stage s:
    coordinate 0 when the tile has one block along MN (CUTLASS's ScaleMsPerTile == 1 branch: tCrSF(_0{}))."""
    tv, tm, tn, _ = _thread_vmnk(r.mma.thr_layout_vmnk, t)
    if setup.blocks_mn == 1:
        v, rm, rn = const(0), const(0), const(0)
    return layout_expr(r.full, ((tv, (tm, tn)), (v, (rm, rn, (kb * setup.g_k, s)))))


def sm90_element(setup: BlockwiseSetup, r: Sm90Reader, t: Expr, v: Expr, rm: Expr, rn: Expr) -> tuple[Expr, Expr]:
    """The accumulator element (m, n) thread t's value (v, rm, rn) holds: warpgroup w = t / 128 issues the wgmma of
    slices rm, rn of thread_mma(128 w)'s partition_A / partition_B, whose D register v of lane t % 128 is (row, column)
    of the instruction's tile (hardware/wgmma.py)."""
    assert r.model is not None
    check = setup.check
    w = t // WARPGROUP
    _, wm, wn, _ = _thread_vmnk(r.compute.thr_layout_vmnk, w * WARPGROUP)
    m0 = layout_expr(r.a_slices, ((0, (wm, 0)), (0, (rm, 0)))) % check.tile[0]
    n0 = layout_expr(r.b_slices, ((0, (wn, 0)), (0, (rn, 0)))) % check.tile[1]
    row, col = r.model.c.coord(t % WARPGROUP, v)
    return m0 + row, n0 + col


def _sm90_read(setup: BlockwiseSetup, r: Sm90Reader, suspects: Suspects) -> list[Item]:
    check = setup.check
    tiled = suspects.tiled_mma("the tiled MMA whose partition_C reads the scale view")
    reader_suspect = suspects.field("reader_atom_layout", "the reading tiled MMA") \
        if check.reader_atom_layout is not None else tiled
    items: list[Item] = [Fact("the atom issues a modelled wgmma", r.model is not None and not r.model.invalid,
                              (r.model.invalid if r.model else None) or str(setup.atom.instruction),
                              "wgmma.mma_async.sync.aligned.m64nNk*", suspects.mma_instruction())]
    items.append(Fact("the k-tile is one scale block along K (mma() reads K block 0 of each stage)",
                      setup.blocks_k == 1, f"{setup.blocks_k} blocks of {setup.g_k} in K = {setup.tile_k}",
                      "gK = BLK_K (CUTLASS's ScalePromotionInterval static_asserts)",
                      suspects.field("granularity", f"the granularity {check.granularity}")))
    reader_threads = r.mma.num_threads()
    items.append(Fact("the reading tiled MMA has the accumulators' threads", reader_threads == r.threads,
                      f"{reader_threads}", f"{r.threads} (the tiled MMA's)", reader_suspect))
    frag = r.compute.thrfrg(Layout((check.tile[0], check.tile[1])), "C")
    values, rest = int(frag.mode(1).mode(0).size()), frag.mode(1).mode(1)
    rest_shape = (int(rest.mode(0).size()), int(rest.mode(1).size()))
    if setup.blocks_mn > 1:     # one scale a tile is read as a scalar, tCrSF(_0{}): no shape is compared
        items.append(Fact("the scale fragment has the accumulator fragment's shape (MMA, MMA_M, MMA_N)",
                          (r.values, r.rest) == (values, rest_shape), f"({r.values}, {r.rest})",
                          f"({values}, {rest_shape})",
                          reader_suspect, note="GmmaFP8Accumulation::scale static_asserts the same shape"))
    if not all(f.holds for f in items if isinstance(f, Fact)) or r.model is None:
        return items
    t, v = Var("thread", r.threads), Var("value", r.values)
    rm, rn = Var("m_block", r.rest[0]), Var("n_block", r.rest[1])
    kb, s = Var("k_block", setup.blocks_k), Var("stage", setup.stages)
    cute = sm90_slot(setup, r, t, v, rm, rn, kb, s)
    m, n = sm90_element(setup, r, t, v, rm, rn)
    mn = m if check.scaled == "A" else n
    want = _slot(setup, mn, kb * setup.g_k, s)
    one = setup.blocks_mn == 1
    items.append(Claim(Obligation(
        f"every accumulator value is handed the slot of its {'row' if check.scaled == 'A' else 'column'}'s block",
        [t, v, rm, rn, kb, s], eq(cute, want), lhs=cute, rhs=want,
        shown={"slot read": cute, "m": m, "n": n, "slot of (mn, k)": want},
        note=f"{r.model.instruction}: D register v of lane t % 128 is (row, column) of the warpgroup's A and B slices"
             + ("; one block along MN: every value reads tCrSF(_0{})" if one else "")),
        reader_suspect, Trace.BLOCKWISE_READ, subject=check.scaled))
    return items


def sm100_element(setup: BlockwiseSetup, r: Sm100Reader, t: Expr, v: Expr,
                  calls: tuple[Expr, ...]) -> tuple[Expr, Expr, Expr, Expr]:
    """(the TMEM address tcgen05.ld reads for register v of thread t's call, the accumulator element (m, n) the
    accumulator's TMEM layout puts there, and that element's address back: equal when the cell holds one)."""
    m_acc = int(setup.atom.shape_mnk[0])
    base = layout_expr(r.tmem_part, (t, 0, calls))
    cell = register_cell(r.form.shape, r.form.num, t % WARP, v)
    addr = base + cell.lane * BW.TMEM_LANE + cell.column
    index = layout_expr(left_inverse(r.tmem), addr)
    m, n = index % m_acc, index // m_acc
    return addr, m, n, layout_expr(r.tmem, (m, n))


def _sm100_read(setup: BlockwiseSetup, r: Sm100Reader, suspects: Suspects) -> list[Item]:
    check = setup.check
    load = suspects.field("tmem_load", f"the accumulator load {check.tmem_load} (CopyOpT2R)")
    m_acc, n_acc, k_atom = setup.atom.shape_mnk
    tmem_suspect = suspects.field("tmem" if check.tmem is not None else "mma", "the accumulator's TMEM layout")
    items: list[Item] = [Fact("the accumulator is the CTA tile (one 1-SM MMA)",
                              (m_acc, n_acc) == (check.tile[0], check.tile[1]) and int(r.tmem.size()) == m_acc * n_acc,
                              f"{m_acc} x {n_acc}, TMEM layout of {r.tmem.size()} cells",
                              f"{check.tile[0]} x {check.tile[1]}", tmem_suspect)]
    items.append(Fact("a scale K block is whole MMAs (K_BLOCK_MMAS_PER_SCALE_K)", setup.g_k % k_atom == 0,
                      f"gK = {setup.g_k}, MMA K = {k_atom}", "a multiple", suspects.field("granularity", "gK")))
    items.append(Fact("accum()'s registers hand every scale value its own slot", r.register_problem is None,
                      r.register_problem or "every value", "tTR_rSFA(i) holds the slot of partition_D's i",
                      suspects.field("smem", "the shared scale layout (accum()'s filtered registers)")))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    t, v = Var("thread", r.threads), Var("value", r.values)
    calls = tuple(Var(name, size) for name, size in zip(("t2r_m", "t2r_n", "epi_m", "epi_n"), r.calls))
    kb, s = Var("k_block", setup.blocks_k), Var("stage", setup.stages)
    addr, m, n, back = sm100_element(setup, r, t, v, calls)
    cute = layout_expr(r.view_part, (t, v, calls + (kb * setup.g_k, s)))
    mn = m if check.scaled == "A" else n
    want = _slot(setup, mn, kb * setup.g_k, s)
    items.append(Claim(Obligation(
        f"every register tcgen05.ld fills is handed the slot of its accumulator "
        f"{'row' if check.scaled == 'A' else 'column'}'s block",
        [t, v, *calls, kb, s], and_(eq(back, addr), eq(cute, want)), lhs=cute, rhs=want,
        shown={"TMEM address read": addr, "m": m, "n": n, "slot read": cute, "slot of (mn, k)": want},
        note=f"{r.form.instruction} over the epilogue tile {check.epilogue_tile}: register v of thread t reads cell "
             "base + its (lane, column); the cell is the accumulator element the TMEM layout puts there"),
        load, Trace.BLOCKWISE_READ, subject=check.scaled))
    return items

