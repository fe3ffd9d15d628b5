"""Theorem 28 on SM100: what tcgen05.mma.sp reads as a row's metadata (hardware/umma_sparse.py's read layout,
inferred from JAX's Mosaic GPU) against CuTe's TMEM layout of E (kinds/sparse/sm100_theorems.py).

The read layout is checked against JAX's pipeline rebuilt here step by step from its description (not JAX's code):
format_tcgen05_sparse_metadata's blocks (16-bit A: a row's bit 3 exchanged with the position's bit 3 within a
128 x 64 block of 2-bit indices; 8-bit A: the plain block), packed from the low bits into 16-byte shared rows, copied
by one tcgen05.cp.128x128b a block (LBO 0, SBO 128; hardware/tcgen05_cp.py) to 4 columns a block, and the MMA g
along K handed column base + 2 (g / 2), selector g % 2 (.kind::f16) or base + 2 g, selector 0 (8-bit kinds).  CUTLASS's
configurations are then proved (tests/specs/sparse_umma.yaml), and E's layouts relabelled consistently -- two rows or
two chunks exchanged in the global, shared and TMEM layouts alike, so that theorems 27 and 33 still hold -- are
refuted at theorem 28 with the row or chunk."""
from functools import lru_cache
from pathlib import Path

import pytest

from verifier.algebra import functions as F
from verifier.algebra import parse_layout
from verifier.algebra.layout import Layout, make_layout
from verifier.cute import sparse_sm100 as SS
from verifier.engine.proving import prove_check
from verifier.hardware import tcgen05_cp as CP
from verifier.hardware import umma_sparse as US
from verifier.hardware.umma_desc import UmmaDescriptor
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.specfile.model import Spec
from verifier.symbolic.procedure import Settings
from verifier.theorems.catalog import TheoremId as T

SPEC = Path(__file__).parent / "specs" / "sparse_umma.yaml"
ROWS, BLOCK_K, BLOCK_INDICES, ROW_BYTES, BLOCK_BYTES = 128, 128, 64, 16, 2048
BASE = 256                       # [sp-meta base]: a TMEM column JAX's allocation could give
JAX_DESCRIPTOR = UmmaDescriptor(0, 0, 8 * ROW_BYTES)     # async_copy_sparse_metadata_smem_to_tmem: LBO 0, SBO 128
KINDS = {k: US.sparse_kind(f"tcgen05.mma.sp.cta_group::1.kind::{k}") for k in ("f16", "f8f6f4", "i8", "tf32")}


def kind(name: str) -> US.SparseKind:
    found = KINDS[name]
    assert found is not None
    return found


def jax_block_position(name: str, m: int, j: int) -> tuple[int, int]:
    """Where JAX's formatting puts row m's 2-bit index j (of one 128 x 64 block): (block row, position)."""
    if name != "f16":
        return m, j
    a, b, r = m // 16, (m // 8) % 2, m % 8
    d, e, f = j // 16, (j // 8) % 2, j % 8
    return 16 * a + 8 * e + r, 16 * d + 8 * b + f


def jax_tmem_bit(name: str, m: int, j: int) -> tuple[int, int, int]:
    """(lane, column, bit) where row m's 2-bit index j (along the whole K) lands: JAX's block, its shared bytes,
    then tcgen05.cp.128x128b of that block to columns BASE + 4 block."""
    block, within = divmod(j, BLOCK_INDICES)
    row, position = jax_block_position(name, m, within)
    shared = block * BLOCK_BYTES + row * ROW_BYTES + position // 4       # the byte; the index at bits 2 (J % 4)
    start, byte = block * BLOCK_BYTES, position // 4
    assert CP.source_address(JAX_DESCRIPTOR, start, row, byte) == shared  # the copy reads that byte as (row, byte)
    cell = CP.destination(CP.CpShape.S128x128b, 0, BASE + 4 * block, row, byte, 0)
    return int(cell.lane), int(cell.column), int(cell.byte) * 8 + 2 * (position % 4)


def jax_handed(name: str, g: int) -> tuple[int, int]:
    """([sp-meta-tmem] column, selector) JAX's tcgen05.mma gives the g-th MMA along K."""
    return (BASE + 2 * (g // 2), g % 2) if name == "f16" else (BASE + 2 * g, 0)


@pytest.mark.parametrize("name", ["f16", "f8f6f4", "i8"])
def test_the_read_layout_is_jax_s_formatting_copy_and_addressing_composed(name):
    """Every row, MMA and chunk of a K = 256 metadata (JAX's tests' K): the model's cell is where JAX's pipeline
    puts the chunk's first index (bits 1:0) and its second (bits 3:2)."""
    sk = kind(name)
    chunks = sk.k // sk.chunk
    for g in range(256 // sk.k):
        column, selector = jax_handed(name, g)
        assert US.read_problem(sk, 1, ROWS, 0, column, selector) is None
        for m in range(ROWS):
            for c in range(chunks):
                cell = US.metadata_cell(sk, column, selector, m, c)
                first = (g * sk.k + c * sk.chunk) // 2          # the chunk's first 2-bit index along the row
                assert jax_tmem_bit(name, m, first) == (cell.lane, cell.column, cell.bit), (g, m, c)
                assert jax_tmem_bit(name, m, first + 1) == (cell.lane, cell.column, cell.bit + 2), (g, m, c)


def test_hand_derived_points():
    """.kind::f16, row 9 (a 0, b 1, r 1), chunk 5 of the second MMA (g 1: column 256, selector 1): its first index is
    the row's j = 16 + 10 = 26, block position d 1, e 1, f 2 -> block row 8 + 1 = 9, position 16 + 8 + 2 = 26: lane 9,
    byte 6 of the row -> column 256 + 1, bits 16 + 4.  .kind::i8, row 77, chunk 11 of the fourth MMA (g 3: column
    262): j = 96 + 22 = 118, block 1, position 54 -> lane 77, byte 13 -> column 256 + 4 + 3, bits 8 + 4."""
    f16, i8 = kind("f16"), kind("i8")
    assert US.metadata_cell(f16, 256, 1, 9, 5) == US.MetaCell(9, 257, 20)
    assert jax_tmem_bit("f16", 9, 26) == (9, 257, 20)
    assert US.metadata_cell(f16, 256, 0, 23, 6) == US.MetaCell(16 + 8 + 7, 256, 0 + 8)
    assert US.metadata_cell(i8, 262, 0, 77, 11) == US.MetaCell(77, 263, 12)
    assert jax_tmem_bit("i8", 77, 118) == (77, 263, 12)


def test_what_jax_does_not_exercise_is_unsupported():
    f16, i8, tf32 = kind("f16"), kind("i8"), kind("tf32")
    assert "Sparse MMA unsupported for f32" in (US.read_problem(tf32, 1, ROWS, 0, 256, 0) or "")
    assert "not 64 rows a CTA" in (US.read_problem(f16, 2, 64, 0, 256, 0) or "")
    assert "not 2" in (US.read_problem(f16, 1, ROWS, 0, 256, 2) or "")
    assert "lane 32" in (US.read_problem(i8, 1, ROWS, 32, 256, 0) or "")
    assert "column 257" in (US.read_problem(f16, 1, ROWS, 0, 257, 0) or "")
    assert US.read_problem(i8, 2, ROWS, 0, 448, 0) is None and US.read_problem(f16, 2, ROWS, 0, 448, 1) is None
    assert "Figures 262-267" in US.READ_LAYOUT_UNREAD and "not hardware-validated here" in US.INFERRED


# --- the theorem ---------------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)
def spec() -> Spec:
    return load_spec(str(SPEC))


def prove(s: Spec, name: str):
    return prove_check(s, s.checks[name], Settings(cross_check=True))


@pytest.mark.parametrize("name", ["e_f16_1sm", "e_s8_256x256x128_2sm", "e_e5m2_256x128x128_2sm"])
def test_cutlass_s_metadata_is_read_as_its_rows_and_chunks(name):
    r = prove(spec(), name)
    assert r.verdict is Verdict.VERIFIED and r.ok, [(t.id, t.status, t.reason) for t in r.theorems]
    read = next(t for t in r.theorems if t.id is T.SPARSE_METADATA_READ)
    assert read.status is Status.PROVED


def test_tf32_stays_unsupported_with_the_reason():
    r = prove(spec(), "e_tf32_2sm")
    read = next(t for t in r.theorems if t.id is T.SPARSE_METADATA_READ)
    assert r.verdict is Verdict.UNSUPPORTED and read.status is Status.UNSUPPORTED
    assert "Figures 262-267" in read.reason and "Sparse MMA unsupported for f32" in read.reason


# E of CUTLASS's f16 128x128x64 1-SM mainloop (tests/specs/sparse_umma.yaml's e_f16_1sm), in (m, k[, stage]) form
SMEM = "(((_8,_2,_8),(_16,_2)),_1,_4,(_1,_8)):(((_128,_16,_2048),(_1,_1024)),_0,_32,(_0,_16384))"
GMEM = "(((_8,_2,_8),2),((_16,_2,_4),2)):(((_128,_16,_2048),_16384),((_1,_1024,_32),32768))"
STAGES, TILES = 8, 2
SAME_ROWS, SAME_K = Layout(ROWS, 1), Layout(BLOCK_K, 1)
ROWS_8_16 = Layout((8, 2, 2, 4), (1, 16, 8, 32))      # new m -> old m: rows 8..15 and 16..23 of every 32 exchanged
CHUNKS_1_2 = Layout((4, 2, 2, 8), (1, 8, 4, 16))      # new k -> old k: chunks 1 and 2 of every 4 exchanged


def _scaled(p: Layout, scale: int) -> Layout:
    """The relabelling `p` as offsets of `scale`."""
    return Layout(p.shape, tuple(s * scale for s in p.stride) if isinstance(p.stride, tuple) else p.stride * scale)


def _tiled(p: Layout, extent: int, scale: int) -> Layout:
    """The relabelling `p` in each of TILES tiles of `extent`, as offsets of `scale`."""
    return make_layout(_scaled(p, scale), Layout(TILES, extent * scale))


def relabelled_check(rows: Layout, ks: Layout) -> str:
    """E's global, shared and TMEM layouts all read at (rows(m), ks(k)): CUTLASS's data path unchanged, the
    compressor's (m, k) -> element relation relabelled."""
    smem = SS.mk_view(parse_layout(SMEM), pipe=True)                    # (m, k, stage) -> shared element
    gmem = parse_layout(GMEM)                                           # (m, k) -> global element
    tmem = SS.mk_view(SS.tmem_e(SS.FORMATS[16], 4), pipe=False)         # (m, k) -> TMEM element
    s = F.composition(smem, make_layout(rows, _scaled(ks, ROWS), Layout(STAGES, ROWS * BLOCK_K)))
    g = F.composition(gmem, make_layout(_tiled(rows, ROWS, 1), _tiled(ks, BLOCK_K, ROWS * TILES)))
    t = F.composition(tmem, make_layout(rows, _scaled(ks, ROWS)))
    return (f"  e:\n    metadata: A\n    mma: \"SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,128>\"\n"
            f"    copy: SM100_UTCCP_128dp128bit_1cta\n    value_type: uint8_t\n    smem: \"{s}\"\n    gmem: \"{g}\"\n"
            f"    tmem: \"{t}\"\n    tile_k: 64\n    tmem_base: 256\n")


def _load(tmp_path: Path, text: str) -> Spec:
    path = tmp_path / "s.yaml"
    path.write_text("version: 2\nname: s\ninclude: [\"cute-verifier:atoms/sm100_umma_sparse.yaml\"]\nchecks:\n" + text)
    return load_spec(str(path), allow_outside=True)


@pytest.mark.parametrize("rows, ks, point", [(SAME_ROWS, SAME_K, None), (ROWS_8_16, SAME_K, {"m": 8}),
                                             (SAME_ROWS, CHUNKS_1_2, {"chunk": 1})], ids=["same", "rows", "chunks"])
def test_relabelled_metadata_is_refuted_at_theorem_28_only(tmp_path, rows, ks, point):
    r = prove(_load(tmp_path, relabelled_check(rows, ks)), "e")
    statuses = {t.id: t.status for t in r.theorems}
    assert statuses[T.SPARSE_METADATA_TMA] is Status.PROVED and statuses[T.SPARSE_METADATA_TMEM] is Status.PROVED
    read = next(t for t in r.theorems if t.id is T.SPARSE_METADATA_READ)
    if point is None:
        assert r.verdict is Verdict.VERIFIED and read.status is Status.PROVED
        return
    assert r.verdict is Verdict.REFUTED and read.status is Status.REFUTED
    item = read.first_failure()
    assert item is not None and item.witness is not None and item.witness.point is not None
    found = item.witness.point
    assert all(found[k] == v for k, v in point.items()), found
    assert "reads, as the metadata of each row and chunk" in item.title
