"""Theorems 24-26: a block-scaled MMA's scale factors, from the global SF tensor to the byte the tensor core
multiplies each row of A (column of B) by.

- 24 `scale.tma`: the TMA box CuTe derives for a stage (make_tma_atom_*_sm100<uint16_t>) is encodable, covers the
  stage exactly, lands at 128-byte aligned destinations, and brings each factor (mn, k) of each tile from the global
  byte the SF tensor gives it to the shared byte the shared layout gives it: box element i lands at the stage's
  destination + its linear index (hardware/tma.py), and is read from the tile's first byte + sum i_d * stride_d;
- 25 `scale.copy`: each tcgen05.cp CuTe issues reads through its descriptor (hardware/tcgen05_cp.py) the byte of the
  factor CuTe's TMEM layout puts in each cell it writes, in every sub-partition; every factor is written once a
  sub-partition, inside tensor memory and the allocated columns; the descriptors are encodable;
- 26 `scale.read`: for every k-block, row (column) and scale vector, the byte tcgen05.mma reads (hardware/
  umma_scale.py, through the address and ID CuTe hands the MMA) is the one CuTe's TMEM layout gives that factor, in
  each of the four copies; the vector size is the instruction's, the ID one its layout allows.

For B of a CTA N of 64 or 192, CUTLASS's collective (IsCtaN64 / IsCtaN192) rounds the SF tile up to 128 / 256 rows,
cuts the TMA tiles from remapped coordinates (cute/blockscaled.py, cta_n_remap) and hands the odd N tiles' MMA the
scale address two TMEM columns on: 24 also proves that column n of N tile t is the SF tile's row n (+ 64 if t is odd),
loaded from the global factor of column tN + n, and 26 reads the odd tiles through the shifted address.

Together: every element A(mn, k) (B(mn, k)) of the CTA tile is multiplied by the global factor layout_SF(mn, k).
Every claim is about a factor, k = VS j: the VS elements of a vector share it (the layouts' stride-0 mode).
"""
from __future__ import annotations

from ...algebra import functions as F
from ...algebra.inttuple import product
from ...algebra.layout import Layout
from ...algebra.ops import left_inverse
from ...cute import blockscaled as BS
from ...hardware import tcgen05_cp as CP
from ...hardware import tma as TMA
from ...hardware import umma_scale as US
from ...hardware.umma_desc import FIELD_MASK, UmmaDescriptor
from ...symbolic.expr import Expr, Var, and_, const, eq, implies, lt
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Suspect, Trace, Unsupported
from ...theorems.suspects import Suspects
from .setup import UTCCP_SHAPE, ScaleSetup



def _partial_tile(setup: ScaleSetup, suspects: Suspects) -> Refusal | Unsupported | None:
    """The collective's refusal of the MMA's N as its CTA tile's ("Cta N should be one of 64/128/192/256") or of an
    MXF4 atom's VS = 32 types (its TiledMMA_SF's traits); else SFB of an MMA whose N is no multiple of 128 and none
    CUTLASS's collective glues (64, 192)."""
    check = setup.check
    n = setup.atom.shape_mnk[1]
    if n not in BS.CTA_N:
        return Refusal(BS.CTA_N_RULE, f"the block-scaled collective's CTA tile has the MMA's N = {n}",
                       suspects.field("mma", f"the MMA atom {check.mma}, whose N is the CTA tile's"))
    types = {key: t.name for key, t in setup.atom.types.items()}
    met = BS.mxf4_vs32_refusal(setup.atom.name, types.get("a", ""), types.get("b", ""), types.get("sf", ""),
                               check.sf_vec_size)
    if met is not None:
        return Refusal(BS.MXF4_VS32_RULE, f"the collective's TiledMMA_SF (MMA_ScaleFactor, SM100_MMA_MXF4_SS): {met}",
                       suspects.field("mma", f"the MMA atom {check.mma}"))
    if check.scaled == "B" and setup.rows_read % BS.SF_BLOCK_ROWS and not setup.remapped:
        return Unsupported(f"the scale factors of B for N = {setup.rows_read}: CUTLASS's block-scaled collective "
                           f"takes an N of {', '.join(str(n) for n in BS.CTA_N_GLUE)} or a multiple of "
                           f"{BS.SF_BLOCK_ROWS}, and for 64 / 192 a global SF tensor whose N mode is 128-row blocks "
                           "((32,4), blocks); how other tiles meet the SF blocks is not modelled")
    return None


def _block(setup: ScaleSetup, suspects: Suspects) -> list[Item]:
    """CUTLASS's SF layouts exist for the shared tile's shape (its divisibility)."""
    problem = setup.block_problem
    smem = suspects.field("smem", "the shared SF layout")
    return [Fact("the shared SF tile is whole 128-row, 4-factor SF blocks", problem is None,
                 problem or "whole blocks", "MN a multiple of 128, K a multiple of 4 x VS", smem)]


def _shared_tile(setup: ScaleSetup, suspects: Suspects) -> list[Item]:
    """The shared layout holds one factor every VS elements of K (its stride-0 mode), each its own byte, the stages
    apart."""
    smem = suspects.field("smem", "the shared SF layout")
    items: list[Item] = []
    vs, mn = setup.vs, setup.mn
    table = setup.stage_table            # index x + MN k
    spread = next(((i % mn, i // mn) for i, byte in enumerate(table)
                   if byte != table[i - mn * ((i // mn) % vs)]), None)
    items.append(Fact(f"the shared layout gives the {vs} elements of a vector one factor", spread is None,
                      f"({spread[0]}, {spread[1]}) and ({spread[0]}, {spread[1] - spread[1] % vs}) have different "
                      "bytes" if spread else "one byte a vector", f"one byte every {vs} elements of K (sf_vec_size)",
                      suspects.field("sf_vec_size", f"the scale vector size ({vs})") if spread else smem))
    stage0 = [table[x + mn * j * vs] for j in range(setup.factors_k) for x in range(mn)]
    items.append(Fact("every factor of a stage has its own byte", len(set(stage0)) == len(stage0),
                      f"{len(set(stage0))} bytes for {len(stage0)} factors", f"{len(stage0)} bytes", smem))
    items.append(Fact("every factor's shared byte is at or after the buffer's first byte", setup.lowest_byte >= 0,
                      f"byte {setup.lowest_byte}", "0 or more", smem))
    extent = max(stage0) + 1 if stage0 else 0
    items.append(Fact("the stages do not overlap", setup.stages == 1 or setup.stage_bytes >= extent,
                      f"stages {setup.stage_bytes} bytes apart", f"at least a stage's {extent} bytes", smem))
    return items


# --- the expressions the claims share --------------------------------------------------------------------------

def smem_byte(setup: ScaleSetup, mn: Expr, k: Expr, stage: Expr) -> Expr:
    """The shared byte (relative to the buffer) CuTe's layout gives factor (mn, k) of `stage`."""
    coord = (mn, k, stage) if setup.smem_view.rank() > 2 else (mn, k)
    return layout_expr(setup.smem_view, coord)


def tmem_element(setup: ScaleSetup, mn: Expr, replica: Expr, k: Expr) -> Expr:
    """The TMEM element (lane << 18 | byte column, relative to the tile's first column) CuTe's layout gives factor
    (mn, k) in sub-partition `replica`."""
    return layout_expr(setup.tmem_view, (mn, replica, k))


def _fields(e: Expr) -> tuple[Expr, Expr, Expr]:
    """(lane, column, byte) of a TMEM uint8 element offset."""
    return e // BS.TMEM_LANE_UNIT, (e % BS.TMEM_LANE_UNIT) // BS.BYTES_PER_COLUMN, e % BS.BYTES_PER_COLUMN


# --- theorem 24: TMA -------------------------------------------------------------------------------------------

def scale_tma(setup: ScaleSetup, suspects: Suspects) -> Plan:
    partial = _partial_tile(setup, suspects)
    if partial is not None:
        return partial
    check = setup.check
    items = _block(setup, suspects)
    if setup.block_problem is None:
        items += _shared_tile(setup, suspects)
    gmem = suspects.field("gmem", "the global SF tensor's layout (Sm1xxBlkScaledConfig::tile_atom_to_shape_SF)")
    smem = suspects.field("smem", "the shared SF layout (its stages)")
    items.append(Fact("the shared SF tile's bytes map to the global tensor's as one TMA box", setup.tma is not None,
                      setup.tma_problem or "one box", "a contiguous run of uint16 then strided dimensions", gmem))
    tma, tensor_map = setup.tma, setup.tensor_map
    if tma is None or tensor_map is None or setup.block_problem is not None or setup.lowest_byte < 0:
        return items                    # (a byte before the buffer: refuted above; no box lands there)
    refusal = TMA.encode_refusal_nd(tensor_map)
    items.append(Fact("cuTensorMapEncodeTiled accepts the box", refusal is None, refusal or "accepted",
                      "no rule broken", gmem if "Strides" in (refusal or "") else smem,
                      note=f"box {tma.box} of {tma.elem_bytes}-byte elements, global dims {tensor_map.global_dim}, "
                           f"strides {tma.global_strides[1:]} bytes"))
    box_bytes = int(product(tma.box)) * tma.elem_bytes
    stage_distinct = len(set(setup.stage_table))
    items.append(Fact("the box writes the stage's factors and nothing else", box_bytes == stage_distinct,
                      f"a box of {box_bytes} bytes", f"the stage's {stage_distinct} factors", smem))
    stride = setup.stage_bytes
    align_suspect = suspects.field("smem_align", f"the SF buffer's alignment ({check.smem_align} bytes)")
    items.append(Fact(f"every stage's destination is {TMA.SMEM_ALIGN}-byte aligned",
                      check.smem_align % TMA.SMEM_ALIGN == 0 and (setup.stages == 1 or stride % TMA.SMEM_ALIGN == 0),
                      f"a buffer {check.smem_align}-byte aligned, stages {stride} bytes apart",
                      f"multiples of {TMA.SMEM_ALIGN}", align_suspect if check.smem_align % TMA.SMEM_ALIGN else smem))
    mt, kt = Var("tile_mn", setup.tiles[0]), Var("tile_k", setup.tiles[1])
    s, x, j = Var("stage", setup.stages), Var("mn", setup.mn), Var("factor", setup.factors_k)
    k = j * setup.vs
    shared = smem_byte(setup, x, k, s)
    local = shared - s * stride                # the byte's place in the stage, whose first byte is the destination
    element, byte = local // tma.elem_bytes, local % tma.elem_bytes
    index: list[Expr] = []                     # the box element holding it: the box is the stage, in box order
    run = 1
    for d, b in enumerate(tma.box):
        index.append((element // run) % b if d < tma.rank - 1 else element // run)
        run *= b
    lands = TMA.smem_address_nd(tensor_map, s * stride, tuple(index), byte)       # the hardware's placement
    read: Expr = layout_expr(setup.tile_index, (mt, kt)) + byte
    for i, gs in zip(index, tma.global_strides):
        read = read + i * gs
    assert setup.load_layout is not None
    want = layout_expr(setup.load_layout, (mt * setup.mn + x, kt * setup.tile_k + k))
    items.append(Claim(Obligation(
        "TMA brings every factor (mn, k) of every tile and stage from the global byte layout_SF gives it to the "
        "shared byte the shared layout gives it", [mt, kt, s, x, j], and_(eq(lands, shared), eq(read, want)),
        lhs=read, rhs=want, shown={"k": k, "shared byte": shared, "byte TMA writes": lands,
                                   "global byte TMA reads": read},
        note=f"box {tma.box} uint16 at each stage's first byte; every one of the {setup.tiles[0]} x {setup.tiles[1]} "
             "tiles" + (" of the collective's remapped coordinates" if setup.remapped else "")),
        gmem, Trace.SCALE_FACTOR, subject=check.scaled))
    if setup.remapped:
        items.append(_odd_tiles(setup, gmem))
    return items


def _odd_tiles(setup: ScaleSetup, gmem: Suspect) -> Claim:
    """CTA N of 64 / 192: N tile t's column n is row n (+ odd_shift on odd tiles) of the SF tile TMA loads for the
    tile, and that row's factors are those of the global column t N + n (every column inside the SF tensor)."""
    assert setup.load_layout is not None
    check, n_tile = setup.check, setup.rows_read
    t, n, j = Var("n_tile", setup.cta_tiles), Var("n", n_tile), Var("factor", setup.factors_k)
    kt = Var("tile_k", setup.tiles[1])
    k = kt * setup.tile_k + j * setup.vs
    row = t * setup.mn + n + (t % 2) * setup.odd_shift
    loaded = layout_expr(setup.load_layout, (row, k))
    column = t * n_tile + n
    want = layout_expr(check.gmem, (column, k))
    columns = int(product(check.gmem.mode(0).shape))
    return Claim(Obligation(
        f"N tile t's column n (N = {n_tile}) reads the SF tile's row n + {setup.odd_shift} (t odd), which TMA loads "
        "from the global factor of column t N + n", [t, n, kt, j], implies(lt(column, columns), eq(loaded, want)),
        lhs=loaded, rhs=want, shown={"global column": column, "mn": n + (t % 2) * setup.odd_shift,
                                     "remapped coordinate": row, "k": k},
        note=f"CUTLASS's collective for N = {n_tile}: SFB tiles of {setup.mn} rows through its remapped coordinates, "
             f"the odd tiles' scale address {BS.ODD_TILE_COLUMNS} TMEM columns on "
             "(sm100_blockscaled_mma_warpspecialized.hpp, IsCtaN64 / IsCtaN192)"), gmem, Trace.SCALE_FACTOR,
        subject=check.scaled)



# --- theorem 25: tcgen05.cp ------------------------------------------------------------------------------------

def compact_tmem(setup: ScaleSetup) -> Layout:
    """CuTe's TMEM tile at (mn, replica, factor)   // -> TMEM element: one coordinate per factor, k = VS j."""
    sizes = (setup.mn, BS.REPLICAS, setup.factors_k)
    out: Layout = F.composition(setup.tmem_view, Layout(sizes, (1, setup.mn, setup.mn * BS.REPLICAS * setup.vs)))
    return out


def scale_copy(setup: ScaleSetup, suspects: Suspects) -> Plan:
    partial = _partial_tile(setup, suspects)
    if partial is not None:
        return partial
    check = setup.check
    items = _block(setup, suspects)
    if setup.block_problem is not None:
        return items
    tmem = suspects.field("tmem" if check.tmem is not None else "smem",
                          "the TMEM SF layout" + ("" if check.tmem is not None else
                                                  " (tmem_sf_frg of the shared tile's shape)"))
    smem = suspects.field("smem", "the shared SF layout against tcgen05.cp's K-major source")
    refused = _tmem_refusal(setup, suspects, tmem)
    if refused is not None:
        return refused
    items.append(Fact("make_utccp_copy tiles the TMEM SF tile with tcgen05.cp.32x128b.warpx4",
                      setup.copies_problem is None, setup.copies_problem or "one copy a 512-byte block",
                      "the atom's 32 lanes x 16 bytes x 4 sub-partitions inside the tile", tmem))
    if setup.copies_problem is not None:
        return items
    copies = setup.copies
    per_copy = BS.UTCCP_ROWS * BS.UTCCP_ROW_BYTES
    factors = setup.mn * setup.factors_k
    items.append(Fact("the copies move the stage's factors once each", len(copies) * per_copy == factors,
                      f"{len(copies)} copies of {per_copy} bytes", f"{factors} factors", smem))
    bad_desc = [c for c in copies if c.smem_start % 16 or c.sbo % 16 or not 0 < c.sbo >> 4 <= FIELD_MASK]
    items.append(Fact("every copy's descriptor is encodable (start and SBO multiples of 16 within 14 bits of "
                      "16-byte units; stages 16-byte aligned)",
                      not bad_desc and setup.stage_bytes % 16 == 0 and check.smem_align % 16 == 0,
                      f"copy {bad_desc[0].index}: start +{bad_desc[0].smem_start}, SBO {bad_desc[0].sbo}" if bad_desc
                      else f"starts +{copies[0].smem_start}.., SBO {copies[0].sbo}",
                      "multiples of 16", smem))
    columns = check.tmem_columns
    problems = [(c, CP.destination_problem(UTCCP_SHAPE, c.tmem_element // BS.TMEM_LANE_UNIT,
                                           check.tmem_base + (c.tmem_element % BS.TMEM_LANE_UNIT) // 4, columns))
                for c in copies]
    first = next(((c, p) for c, p in problems if p is not None), None)
    items.append(Fact("every copy writes inside tensor memory and the allocated columns", first is None,
                      f"copy {first[0].index}: {first[1]}" if first else f"columns from {check.tmem_base}",
                      f"lanes 0..127, columns below {columns}",
                      suspects.field("tmem_base", f"the SF tile's first TMEM column ({check.tmem_base})")
                      if first else tmem))
    # the routing, copy by copy: stage s, row r, byte b, sub-partition p
    tc = compact_tmem(setup)
    inverse = left_inverse(tc)
    s = Var("stage", setup.stages)
    r, b, p = Var("row", BS.UTCCP_ROWS), Var("byte", BS.UTCCP_ROW_BYTES), Var("subpartition", BS.REPLICAS)
    for cp in copies:
        desc = UmmaDescriptor(0, cp.lbo, cp.sbo)
        source = CP.source_address(desc, s * setup.stage_bytes + cp.smem_start, r, b)
        lane0, column0 = cp.tmem_element // BS.TMEM_LANE_UNIT, (cp.tmem_element % BS.TMEM_LANE_UNIT) // 4
        dst = CP.destination(UTCCP_SHAPE, lane0, column0, r, b, p)
        written = const(dst.lane) * BS.TMEM_LANE_UNIT + const(dst.column) * BS.BYTES_PER_COLUMN + dst.byte
        index = layout_expr(inverse, written)
        x, rep, j = index % setup.mn, (index // setup.mn) % BS.REPLICAS, index // (setup.mn * BS.REPLICAS)
        named = layout_expr(tc, (x, rep, j))
        holds = smem_byte(setup, x, j * setup.vs, s)
        items.append(Claim(Obligation(
            f"copy {cp.index} writes each TMEM byte of a factor CuTe's TMEM layout puts there, read from that "
            "factor's shared byte", [s, r, b, p], and_(eq(named, written), eq(source, holds)), lhs=source, rhs=holds,
            shown={"TMEM element written": written, "mn": x, "factor": j,
                   "sub-partition it names": rep, "shared byte read": source, "factor's shared byte": holds},
            note=f"tcgen05.cp.32x128b.warpx4 from the stage's byte +{cp.smem_start} (SBO {cp.sbo}) to lane {lane0}, "
                 f"column +{column0}"), smem, Trace.SCALE_COPY, subject=check.scaled))
    items.append(_coverage(setup, tc, tmem))
    return items


def _coverage(setup: ScaleSetup, tc: Layout, suspect: Suspect) -> Fact:
    """The copies write every TMEM byte of the tile exactly once: each writes a rectangle of 128 lanes (32 rows, four
    sub-partitions) x 16 bytes; no two rectangles meet, and together they have as many bytes as the tile."""
    lanes = BS.UTCCP_ROWS * BS.REPLICAS
    rects = [(cp.index, cp.tmem_element // BS.TMEM_LANE_UNIT, cp.tmem_element % BS.TMEM_LANE_UNIT)
             for cp in setup.copies]                                  # (copy, first lane, first byte column)
    meet = next(((a, b) for n, a in enumerate(rects) for b in rects[n + 1:]
                 if abs(a[1] - b[1]) < lanes and abs(a[2] - b[2]) < BS.UTCCP_ROW_BYTES), None)
    total = len(rects) * lanes * BS.UTCCP_ROW_BYTES
    cells = int(tc.size())
    holds = meet is None and total == cells
    actual = (f"copies {meet[0][0]} and {meet[1][0]} write the same TMEM bytes (lanes from {meet[0][1]} and "
              f"{meet[1][1]}, byte columns from {meet[0][2]} and {meet[1][2]})" if meet is not None
              else f"{total} bytes written")
    return Fact("the copies write every TMEM byte of the tile exactly once", holds, actual,
                f"{cells} bytes (every factor in each sub-partition), each once", suspect,
                point={"copy": meet[1][0]} if meet is not None else None)


# --- theorem 26: the MMA's read --------------------------------------------------------------------------------

# what a refusal of tmem_sf_frg blames, by the field it reads
TMEM_REFUSED_LABELS = {"tmem_alloc": "the TMEM SF allocation mode",
                       "smem": "the shared SF tile's shape (its MMA's K mode, (VS, NSF))"}


def _tmem_refusal(setup: ScaleSetup, suspects: Suspects, tmem: Suspect | None) -> Refusal | None:
    """CuTe's refusal of the TMEM SF tile (tmem_sf_frg's allocation: no tile exists, for the copy or the MMA's read)
    or, with `tmem` (theorem 25), of its copy (make_utccp_copy; the MMA's read of the tile is still said)."""
    refused = setup.tmem_refused
    if refused is not None:
        return Refusal(refused.rule, refused.detail, suspects.field(refused.field, TMEM_REFUSED_LABELS[refused.field]))
    if setup.copies_rule is not None and tmem is not None:
        return Refusal(setup.copies_rule, f"make_utccp_copy of the TMEM SF tile: {setup.copies_problem}", tmem)
    return None


def scale_read(setup: ScaleSetup, suspects: Suspects) -> Plan:
    partial = _partial_tile(setup, suspects)
    if partial is not None:
        return partial
    check = setup.check
    refused = _tmem_refusal(setup, suspects, None)
    if refused is not None:
        return refused
    items = _block(setup, suspects)
    instruction = suspects.mma_instruction()
    vec = setup.vec
    items.append(Fact("the MMA is a block-scaled tcgen05.mma with a vector size", vec is not None,
                      setup.vec_problem or f".scale_vec::{vec.value if vec else ''}",
                      ".kind::mxf8f6f4 / mxf4 / mxf4nvf4 .block_scale", instruction))
    if vec is None or setup.block_problem is not None:
        return items
    sf_type = setup.atom.types.get("sf")
    if sf_type is not None and check.value_type is not None:
        items.append(Fact("the scale factors' type is the MMA's", sf_type.name == check.value_type.name,
                          check.value_type.name, f"{sf_type.name} (the atom's)",
                          suspects.field("value_type", "the scale factors' type")))
    vs_suspect = suspects.field("sf_vec_size", f"the scale vector size ({setup.vs})")
    items.append(Fact(f"K / VS is the {vec.value} layout's factors a row",
                      setup.k_mma % setup.vs == 0 and setup.k_mma // setup.vs == vec.factors,
                      f"{setup.k_mma} / {setup.vs}", f"{vec.factors} (.scale_vec::{vec.value})", vs_suspect))
    tmem = suspects.field("tmem" if check.tmem is not None else "smem",
                          "the TMEM SF layout (the address and ID each k-block's MMA is handed)")
    ids = [(kb, BS.tmem_fields(setup.tsf_element(kb))) for kb in range(setup.k_blocks)]
    bad = next(((kb, f) for kb, f in ids if US.id_problem(vec, f[2]) is not None), None)
    items.append(Fact("every k-block's scale factor ID is one the layout allows", bad is None,
                      f"k-block {bad[0]}: {US.id_problem(vec, bad[1][2])}" if bad else
                      "IDs " + ", ".join(str(f[2]) for _, f in ids), f"one of {vec.ids}", tmem))
    if setup.k_mma % setup.vs or setup.k_mma // setup.vs != vec.factors:
        return items
    # the MMA's row (column): named n for a remapped SFB, whose SF tile row `mn` is n + 64 on odd N tiles
    kb, x = Var("k_block", setup.k_blocks), Var("n" if setup.remapped else "mn", setup.rows_read)
    j, p = Var("vector", vec.factors), Var("subpartition", US.REPLICAS)
    tsf = tmem_element(setup, const(0), const(0), kb * setup.k_mma)
    lane0, col0, sf_id = _fields(tsf)
    variables = [kb, x, j, p]
    row: Expr = x
    if setup.remapped:      # odd N tiles: CUTLASS hands the MMA the address ODD_TILE_COLUMNS columns on
        odd = Var("odd_tile", 2)
        variables.append(odd)
        col0 = col0 + odd * BS.ODD_TILE_COLUMNS
        row = x + odd * setup.odd_shift
    hw = US.scale_cell(lane0, col0, sf_id, x, j, p)
    want = tmem_element(setup, row, p, kb * setup.k_mma + j * setup.vs)
    w_lane, w_col, w_byte = _fields(want)
    items.append(Claim(Obligation(
        f"for every k-block, {'row' if check.scaled == 'A' else 'column'} and vector, the byte tcgen05.mma reads in "
        "each sub-partition holds that factor" + (f" (row + {setup.odd_shift} on odd N tiles)" if setup.remapped
                                                   else ""), variables,
        and_(eq(hw.lane, w_lane), eq(hw.column, w_col), eq(hw.byte, w_byte)),
        shown={**({"mn": row} if setup.remapped else {}), "factor": kb * vec.factors + j,
               "scale address lane": lane0, "scale address column": col0, "scale factor ID": sf_id,
               "lane read": hw.lane, "column read": hw.column, "byte read": hw.byte,
               "factor's lane": w_lane, "factor's column": w_col, "factor's byte": w_byte},
        note=f"{setup.rows_read} {'rows of A' if check.scaled == 'A' else 'columns of B'} on this CTA, "
             f".scale_vec::{vec.value}, k = {setup.k_mma} k_block + {setup.vs} vector"),
        tmem, Trace.SCALE_READ, subject=check.scaled))
    return items
