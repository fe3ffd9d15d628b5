"""Theorems 33 and 28 of a tcgen05.mma.sp's metadata E (SM100; theorem 27, its TMA, is theorems.py's for both):

- 33 `sparse.metadata_tmem`: each tcgen05.cp.128x128b make_utccp_copy issues for a stage of E reads, through its
  shared-memory descriptor (hardware/tcgen05_cp.py: row r, byte b at start + (r % 8) 16 + (r / 8) SBO + b, into lane
  L0 + r, column C0 + b / 4, byte b % 4), the element of E CuTe's TMEM layout (tmem_e_frg) puts in each TMEM element it
  writes; the copies write every element of the TMEM tile exactly once, inside tensor memory and the allocated
  columns; the descriptors are encodable; and the MMA of k-block kb of the k-tile at position t of E's stage
  (UtccpReuseCnt k-tiles a stage) is handed tCtE(_, _, math_mma_e_stage_idx * UtccpReuseCnt + kb), whose element
  (m, k) is the TMEM element of E(m0 + m, t TileK + k0 + k), (m0, k0) the origin of the A slice partition_A gives the
  same MMA: the metadata handed to each MMA is that of the rows and K it multiplies, in CuTe's TMEM layout;
- 28 `sparse.metadata_read` on SM100: what the PTX ISA's text decides -- the instruction is a tcgen05.mma.sp of a kind
  with structured sparsity, ValTypeE has the bits the kind's granularity gives a logical element, the atom's K is the
  sparse K, each MMA's sparsity selector (bit 0 of the address CuTe hands it, mma_unpack's id2) is one the kind takes;
  then, for every tCtE(_, _, i) an MMA is handed, every row m, chunk c and bit of the chunk: the TMEM bit the
  instruction reads under its [sp-meta-tmem] and selector is the one CuTe's TMEM layout holds E(m, i K + ...) in.
  Which TMEM bit the tensor core reads as a row's chunk is drawn only in the PTX ISA's Figures 262-267; the layout
  used (hardware/umma_sparse.py) is INFERRED from JAX's Mosaic GPU (tested by JAX on Blackwell, not here); where
  JAX does not exercise the MMA (.kind::tf32; M = 64; a selector or [sp-meta-tmem] JAX never issues) the theorem is
  unsupported, saying so.

The order of the pipeline (the MMA of a k-tile waits for the tcgen05.cp of its stage; a k-tile range of stream-K
starts on an even k-tile, CUTLASS's ktile_start_alignment_count = 2, so that k-tile T reads E's tile T / UtccpReuseCnt
at position T % UtccpReuseCnt) is CUTLASS's and assumed.
"""
from __future__ import annotations

from ...algebra.ops import left_inverse
from ...cute import sparse_sm100 as SS
from ...hardware import tcgen05_cp as CP
from ...hardware import umma_sparse as US
from ...hardware.umma_desc import FIELD_MASK, UmmaDescriptor
from ...symbolic.expr import Expr, Var, and_, const, eq
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Suspect, Trace, Unsupported
from ...theorems.suspects import Suspects
from . import theorems as MT
from .sm100_setup import Sm100MetaSetup

BYTE = 8
COPY_SHAPE = CP.CpShape.S128x128b        # SM100_UTCCP_128dp128bit_*: tcgen05.cp.128x128b
TMEM_BYTE_LANE = SS.TMEM_LANE_BITS // BYTE   # one TMEM lane in uint8 element addressing (lane << 18)
DESCRIPTOR_UNIT = 16                     # the shared-memory descriptor's start and SBO: 16-byte units


def _tile_problem(setup: Sm100MetaSetup) -> Unsupported | None:
    return Unsupported(setup.tile_problem) if setup.tile_problem is not None else None


def _instruction(setup: Sm100MetaSetup, suspects: Suspects) -> Fact:
    return Fact("the atom issues tcgen05.mma.sp of a kind with structured sparsity", setup.kind is not None,
                setup.instruction_problem or str(setup.atom.instruction),
                "tcgen05.mma.sp.cta_group::N.kind::{tf32,f16,f8f6f4,i8}", suspects.mma_instruction())


def _refusal(setup: Sm100MetaSetup, suspects: Suspects) -> Refusal | None:
    if setup.cute_refusal is None:
        return None
    return Refusal(setup.cute_refusal, "CUTLASS's SM100 sparse collective (sm100_sparse_mma_warpspecialized.hpp: "
                                       "MmaShapeA_MK, UtccpReuseCnt) and Sm1xxGemmSparseConfig",
                   suspects.field("tile_k" if setup.check.tile_k is not None else "smem",
                                  "the CTA tile's K / the metadata tile"))


# --- theorem 33: shared memory -> tcgen05.cp -> tensor memory -> the MMA's part ------------------------------------

def metadata_tmem(setup: Sm100MetaSetup, suspects: Suspects) -> Plan:
    refused = MT.type_refusal(setup, suspects)
    if refused is not None:
        return refused
    problem = _tile_problem(setup)
    if problem is not None:
        return problem
    items: list[Item] = [_instruction(setup, suspects)]
    if setup.kind is None:
        return items
    refusal = _refusal(setup, suspects)
    if refusal is not None:
        return refusal
    check, fmt = setup.check, setup.fmt
    assert fmt is not None
    copy = suspects.field("copy", f"the metadata's shared -> TMEM copy {check.copy}")
    tmem = suspects.field("tmem" if check.tmem is not None else "smem",
                          "E's TMEM tile" + ("" if check.tmem is not None else " (tmem_e_frg of the shared tile's "
                                                                                "shape)"))
    smem = suspects.field("smem", "the shared metadata layout (SmemLayoutE) against tcgen05.cp's K-major rows")
    expected = SS.UTCCP_OPS[setup.ctas]
    items.append(Fact(f"the copy is the collective's tcgen05.cp.128x128b for a {setup.ctas}-CTA MMA",
                      check.copy == expected, check.copy, expected, copy))
    value_bits = check.value_type.bits if check.value_type is not None else 0
    items.append(Fact("the copy moves bytes of E (recast<ElementE>, ElementE = uint8_t)",
                      value_bits == SS.E_ELEMENT_BITS, f"{value_bits}-bit values", f"{SS.E_ELEMENT_BITS}-bit",
                      suspects.field("value_type", "the copy's value type")))
    e_k = SS.tile_k_e(setup.tile_k, fmt.atom_k)
    items.append(Fact(f"E's tile holds lcm(TileK, TensorEAtomK) = {e_k} of K (TileShapeE: "
                      f"UtccpReuseCnt {setup.reuse} k-tiles of {setup.tile_k})", setup.blk_k == e_k,
                      f"{setup.blk_k}", f"{e_k}", suspects.field("smem", "the metadata tile's K (SmemLayoutE)")))
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    if setup.copies_problem is not None:       # CuTe's make_utccp_copy / make_umma_desc refuses the tiles
        return Refusal(setup.copies_problem, "make_utccp_copy(SM100_UTCCP_128dp128bit_*, recast<uint8_t>(tCtE)), its "
                                             f"partition of the shared E and get_utccp_smem_desc_tensor: "
                                             f"{setup.copies_detail}", tmem)
    items += _copy_facts(setup, suspects, smem, tmem)
    if not all(f.holds for f in items if isinstance(f, Fact)):
        return items
    items += _copy_claims(setup, smem)
    items.append(_coverage(setup, tmem))
    items += _mma_claims(setup, suspects.field("tile_k" if check.tile_k is not None else "tmem",
                                               "the k-tiles a stage of E holds / E's TMEM tile"))
    return items


def _stage_bytes(setup: Sm100MetaSetup) -> int:
    return setup.stage_stride * setup.e_bits // BYTE


def _copy_facts(setup: Sm100MetaSetup, suspects: Suspects, smem: Suspect, tmem: Suspect) -> list[Item]:
    check, copies = setup.check, setup.copies
    per_copy = SS.UTCCP_ROWS * SS.UTCCP_ROW_BITS
    out: list[Item] = [Fact("the copies move the stage's metadata once each", len(copies) * per_copy ==
                            setup.stage_bits, f"{len(copies)} copies of {per_copy // BYTE} bytes",
                            f"the stage's {setup.stage_bits // BYTE} bytes", smem)]
    stage_bytes = _stage_bytes(setup)
    bad = [c for c in copies if c.smem_start % DESCRIPTOR_UNIT or c.sbo % DESCRIPTOR_UNIT
           or not 0 < c.sbo // DESCRIPTOR_UNIT <= FIELD_MASK]
    out.append(Fact("every copy's descriptor is encodable (start and SBO multiples of 16 within 14 bits of 16-byte "
                    "units; stages 16-byte aligned)",
                    not bad and stage_bytes % DESCRIPTOR_UNIT == 0 and check.smem_align % DESCRIPTOR_UNIT == 0,
                    f"copy {bad[0].index}: start +{bad[0].smem_start}, SBO {bad[0].sbo}" if bad
                    else f"starts +{copies[0].smem_start}.., SBO {copies[0].sbo}, stages {stage_bytes} bytes apart",
                    "multiples of 16", smem))
    problems = [(c, CP.destination_problem(COPY_SHAPE, c.tmem_element // TMEM_BYTE_LANE, check.tmem_base +
                                           (c.tmem_element % TMEM_BYTE_LANE) * BYTE // SS.CELL_BITS,
                                           check.tmem_columns)) for c in copies]
    first = next(((c, p) for c, p in problems if p is not None), None)
    out.append(Fact("every copy writes inside tensor memory and the allocated columns", first is None,
                    f"copy {first[0].index}: {first[1]}" if first else f"columns from {check.tmem_base}",
                    f"lanes 0..127, columns below {check.tmem_columns}",
                    _column(suspects, check.tmem_base) if first else tmem))
    return out


def _column(suspects: Suspects, base: int) -> Suspect:
    return suspects.field("tmem_base", f"E's first TMEM column ({base})")


def _copy_claims(setup: Sm100MetaSetup, smem: Suspect) -> list[Item]:
    """Copy by copy, for every stage s, row r and element u of the row's 128 bits: the TMEM element written is the one
    CuTe's layout gives some (m, k), and the shared element read is SmemLayoutE(m, k, s)."""
    assert setup.tmem_view is not None
    eb, view = setup.e_bits, setup.tmem_view
    inverse = left_inverse(view)                                  # TMEM element -> m + BLK_M k
    s = Var("stage", setup.stages)
    r, u = Var("row", SS.UTCCP_ROWS), Var("element", SS.UTCCP_ROW_BITS // eb)
    byte, sub = (u * eb) // BYTE, (u * eb) % BYTE
    out: list[Item] = []
    for cp in setup.copies:
        desc = UmmaDescriptor(0, cp.lbo, cp.sbo)
        source = CP.source_address(desc, s * _stage_bytes(setup) + cp.smem_start, r, byte)
        lane0, column0 = cp.tmem_element // TMEM_BYTE_LANE, (cp.tmem_element % TMEM_BYTE_LANE) * BYTE // SS.CELL_BITS
        dst = CP.destination(COPY_SHAPE, lane0, column0, r, byte, 0)
        bit: Expr = const(dst.lane) * SS.TMEM_LANE_BITS + const(dst.column) * SS.CELL_BITS + dst.byte * BYTE + sub
        written = bit // eb
        index = layout_expr(inverse, written)
        m, k = index % setup.blk_m, index // setup.blk_m
        named = layout_expr(view, (m, k))
        read = (source * BYTE + sub) // eb
        holds = layout_expr(setup.check.smem, (m, k, s) if setup.check.smem.rank() > 2 else (m, k))
        out.append(Claim(Obligation(
            f"copy {cp.index} writes each TMEM element of the metadata CuTe's TMEM layout puts there, read from that "
            "element's shared position", [s, r, u], and_(eq(named, written), eq(read, holds)), lhs=read, rhs=holds,
            shown={"TMEM element written": written, "TMEM lane": dst.lane, "TMEM column": dst.column,
                   "m": m, "k": k, "TMEM element CuTe names": named, "shared element read": read,
                   "SmemLayoutE(m, k, stage)": holds},
            note=f"tcgen05.cp.128x128b from the stage's byte +{cp.smem_start} (SBO {cp.sbo}) to lane {lane0}, column "
                 f"+{column0}; {eb}-bit elements of E"), smem, Trace.METADATA_COPY, subject="E"))
    return out


def _coverage(setup: Sm100MetaSetup, suspect: Suspect) -> Fact:
    """The copies write every TMEM element of the tile exactly once: each writes 128 lanes x 16 bytes; no two meet,
    and together they hold as many bits as the tile."""
    rects = [(cp.index, cp.tmem_element // TMEM_BYTE_LANE, cp.tmem_element % TMEM_BYTE_LANE) for cp in setup.copies]
    meet = next(((a, b) for n, a in enumerate(rects) for b in rects[n + 1:]
                 if abs(a[1] - b[1]) < SS.UTCCP_ROWS and abs(a[2] - b[2]) < SS.UTCCP_ROW_BYTES), None)
    total = len(rects) * SS.UTCCP_ROWS * SS.UTCCP_ROW_BITS
    tile = setup.blk_m * setup.blk_k * setup.e_bits
    actual = (f"copies {meet[0][0]} and {meet[1][0]} write the same TMEM bytes" if meet is not None
              else f"{total} bits written")
    return Fact("the copies write every TMEM element of the tile exactly once", meet is None and total == tile,
                actual, f"the tile's {tile} bits, each once", suspect,
                point={"copy": meet[1][0]} if meet is not None else None)


def _mma_claims(setup: Sm100MetaSetup, suspect: Suspect) -> list[Item]:
    """For every k-tile position t of a stage, k-block kb, row m and k of the MMA: the TMEM part the MMA is handed
    holds, at (m, k), E of its A slice's (m0 + m, t TileK + k0 + k); (m0, k0) the slice partition_A gives CTA 0 (a
    pair's CTA 1 holds its own rows' E in its own tile, the same way)."""
    assert setup.tmem_view is not None and setup.a_slices is not None
    view, k_mma, rows = setup.tmem_view, setup.k_mma, int(setup.atom.shape_mnk[0])
    t, kb = Var("k_tile", setup.reuse), Var("k_block", setup.k_blocks)
    m, kk = Var("m", setup.blk_m), Var("k", k_mma)
    index = SS.mma_index(t, kb, setup.reuse)                              # math_mma_e_stage_idx * reuse + kb
    handed = layout_expr(view, (m, index * k_mma + kk))                   # tCtE(_, _, index)(m, k)
    origin = layout_expr(setup.a_slices, ((0, (0, 0)), (0, (0, kb))))    # partition_A: m0 + M k0
    m0, k0 = origin % rows, origin // rows
    want = layout_expr(view, (m0 + m, t * setup.tile_k + k0 + kk))        # E of the A slice's (m0 + m, k0 + k)
    return [Claim(Obligation(
        "the MMA of every k-block is handed, for every k-tile of a stage of E, the TMEM metadata of the rows and K of "
        "its A slice", [t, kb, m, kk], eq(handed, want), lhs=handed, rhs=want,
        shown={"tCtE index": index, "A slice m0": m0, "A slice k0": k0, "E's k": t * setup.tile_k + k0 + kk},
        note=f"UtccpReuseCnt {setup.reuse}: a stage of E holds {setup.reuse} k-tile(s) of {setup.tile_k}, "
             f"{setup.k_blocks} MMAs of K {k_mma} each"), suspect, Trace.METADATA_MMA, subject="E")]


# --- theorem 28 on SM100: what the text decides, then the read layout (inferred) --------------------------------------

def metadata_read(setup: Sm100MetaSetup, suspects: Suspects) -> Plan:
    refused = MT.type_refusal(setup, suspects)
    if refused is not None:
        return refused
    problem = _tile_problem(setup)
    if problem is not None:
        return problem
    items: list[Item] = [_instruction(setup, suspects)]
    kind = setup.kind
    if kind is None:
        return items
    atom = setup.atom
    items.append(Fact(f"ValTypeE is {kind.bits_per_element} bit(s) a logical element of A (.kind::{kind.kind}: "
                      f"{US.NIBBLE_BITS} metadata bits a chunk of {kind.chunk})", setup.e_bits == kind.bits_per_element,
                      f"{atom.types['e'].name} ({setup.e_bits} bits)" if "e" in atom.types else "none",
                      f"{kind.bits_per_element} bits", suspects.mma_type("e"), note=US.SECTION))
    items.append(Fact(f"the atom's K is tcgen05.mma.sp's for .kind::{kind.kind} (Table 39's Sparse rows)",
                      setup.k_mma == kind.k, f"K = {setup.k_mma}", f"K = {kind.k}", suspects.mma_shape()))
    refusal = _refusal(setup, suspects)
    if refusal is not None:
        return refusal
    if not all(f.holds for f in items if isinstance(f, Fact)) or setup.tmem_view is None:
        return items
    handed = [SS.mma_metadata(setup.partitioned(setup.tmem_view), setup.check.tmem_base, i, setup.e_bits)
              for i in range(setup.mma_k)]
    bad = next((h for h in handed if US.selector_problem(kind, h.selector) is not None), None)
    items.append(Fact("every MMA's sparsity selector (bit 0 of the metadata address CuTe hands it, mma_unpack's id2) "
                      "is one the kind takes", bad is None,
                      f"k-block {bad.index}: {US.selector_problem(kind, bad.selector)}" if bad else
                      "selectors " + ", ".join(str(h.selector) for h in handed), kind.selector_rule,
                      _column(suspects, setup.check.tmem_base), note=US.SECTION))
    if bad is not None:
        return items
    unread = next((p for p in (US.read_problem(kind, setup.ctas, setup.blk_m, h.sp_meta // SS.TMEM_ADDRESS_LANE,
                                                h.column, h.selector) for h in handed) if p is not None), None)
    if unread is not None:
        return Unsupported(f"{unread} (what the text decides holds: .kind::{kind.kind}, {US.NIBBLE_BITS} metadata "
                           f"bits a chunk of {kind.chunk}, the sparsity selectors CuTe hands the MMAs "
                           f"{sorted({h.selector for h in handed})}, allowed {kind.selector_rule})")
    items += [_read_claim(setup, kind, h, suspects.field("tmem" if setup.check.tmem is not None else "smem",
                                                         "E's TMEM tile (tmem_e_frg) against the bits "
                                                         "tcgen05.mma.sp reads")) for h in handed]
    return items


def _read_claim(setup: Sm100MetaSetup, kind: US.SparseKind, handed: SS.MmaMetadata, suspect: Suspect) -> Claim:
    """For the MMA handed tCtE(_, _, i) ([sp-meta-tmem] column C, selector s): every row m and chunk c of its K and
    bit n of the chunk's 4, the TMEM bit tcgen05.mma.sp reads (hardware/umma_sparse.py's inferred layout) is the one
    CuTe's TMEM layout gives E(m, i K + (4 c + n) / bits(E)), bit (4 c + n) % bits(E) -- the row's metadata bit
    4 c + n of the MMA's K, by the compressor's contract (E's logical element k of a row is its bits k bits(E) ..)."""
    assert setup.tmem_view is not None
    eb, view = setup.e_bits, setup.tmem_view
    m, c = Var("m", setup.blk_m), Var("chunk", setup.k_mma // kind.chunk)
    n = Var("nibble_bit", US.NIBBLE_BITS)
    row_bit = c * US.NIBBLE_BITS + n                                        # the row's metadata bit in the MMA's K
    element = layout_expr(view, (m, handed.index * setup.k_mma + row_bit // eb))   # (m, k) -> TMEM element of E
    base = setup.check.tmem_base * SS.CELL_BITS                              # the tile's first column, in bits
    cute = element * eb + row_bit % eb + base                                # lane << 21 | bit column
    cell = US.metadata_cell(kind, handed.column, handed.selector, m, c)
    read = cell.lane * SS.TMEM_LANE_BITS + cell.column * SS.CELL_BITS + cell.bit + n
    return Claim(Obligation(
        f"the MMA handed tCtE(_, _, {handed.index}) reads, as the metadata of each row and chunk of its A, the TMEM "
        "bits CuTe's layout holds that row's and chunk's metadata in", [m, c, n], eq(cute, read), lhs=cute, rhs=read,
        shown={"E's k": handed.index * setup.k_mma + row_bit // eb, "TMEM element (CuTe)": element,
               "lane (CuTe)": cute // SS.TMEM_LANE_BITS, "column (CuTe)": (cute % SS.TMEM_LANE_BITS) // SS.CELL_BITS,
               "bit (CuTe)": cute % SS.CELL_BITS, "lane (read)": cell.lane, "column (read)": cell.column,
               "bit (read)": cell.bit + n},
        note=f".kind::{kind.kind}, [sp-meta-tmem] column {handed.column}, selector {handed.selector}; the read layout "
             f"is {US.INFERRED} ({US.READ_SOURCE})"), suspect, subject="E")
