"""tcgen05.mma.sp (sm_100a): structured-sparse A and its metadata in tensor memory, written from the PTX ISA (and,
where the ISA draws the layout only in images, from JAX's Mosaic GPU: below).

NOT HARDWARE-VALIDATED: there is no Blackwell GPU here.  PTX ISA 9.1, "TensorCore 5th Generation Family
Instructions" (9.7.16):

- 9.7.16.10.8 "Sparse Matrices": "In a MxNxK sparse tcgen05.mma.sp operation, the matrix A of shape MxK is stored in
  a packed form as Mx(K/2) in memory ... The metadata specifies the mapping of the K/2 non-zero elements to the K
  elements"; the granularity table: .kind::tf32 1:2, .kind::f16 / .kind::f8f6f4 / .kind::mxf8f6f4 / .kind::i8 2:4,
  .kind::mxf4 4:8 in pairs;
- 9.7.16.10.8.1 (.kind::tf32): "each chunk of two adjacent elements in a row of matrix A has one zero and one non-zero
  element ... the 4-bit index in the metadata indicates the position of the non-zero element"; only 0b1110 and 0b0100
  are meaningful (Figure 259);
- 9.7.16.10.8.2 (.kind::f16, .kind::f8f6f4, .kind::mxf8f6f4, .kind::i8): "each chunk of four adjacent elements ... has
  two zero and two non-zero elements ... the two 2-bit indices in the metadata indicates the position of the two
  non-zero elements"; 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110 are the meaningful values (Figure 260);
- 9.7.16.10.8.3 (.kind::mxf4, .kind::mxf4nvf4): "pair-wise structured sparse at a granularity of 4:8 ... each chunk of
  eight adjacent elements in a row of matrix A has four zero and four non-zero elements ... clustered in sub-chunks of
  two elements ... the two 2-bit indices in the metadata indicates the position of the two two-wide sub-chunks with
  non-zero values"; the same seven meaningful values (Figure 261): four metadata bits a chunk of eight;
- the block-scaled .sp forms (.kind::mxf8f6f4, .kind::mxf4, .kind::mxf4nvf4 with .block_scale: the syntax of
  tcgen05.mma.sp, "Floating-point type with block scaling"; K = 64 and 128, Table 39's Sparse rows) have no selector
  field in their instruction descriptors (Tables 43, 44: bits 0-1 reserved), and 9.7.16.10.8.4.5-.6 say the sparsity
  selector "is assumed to be 0 for .kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4";
- 9.7.16.10.8.4 "Sparsity selector": "The value of the sparsity selector selects the sub-columns in the Tensor Memory
  to form the sparsity metadata matrix"; for .kind::i8 and .kind::f8f6f4 it "must be 0" and "all of the columns are
  selected" (9.7.16.10.8.4.5 / .6); Table 42 ("Instruction descriptor format for .kind::tf32, .kind::f16,
  .kind::f8f6f4 and .kind::i8") gives it bits 0-1 ("Sparsity selector, if Sparsity is enabled", values 0-3) and bit 2
  the sparsity flag;
- 9.7.16.10.9.2 "tcgen05.mma.sp": `tcgen05.mma.sp.cta_group.kind [d-tmem], a-desc, b-desc, [sp-meta-tmem], idesc,
  ...`: the metadata is read from tensor memory at the address [sp-meta-tmem], A (Mx(K/2)) through a-desc;
- 9.7.16.10.8.5 "Alignment restriction" / 9.7.16.10.5: the half-data-path layouts (Layout C: M = 128 with
  .cta_group::2 and sparse A; Layout F: M = 64) "must use the same alignment across matrices A, D and the sparsity
  metadata matrix".

So the text fixes how many metadata bits describe a row's chunk (4) and hence a logical element of A (4 / chunk), the
metadata one MMA reads (M rows x K / chunk x 4 bits), the selectors each kind takes, and that the metadata is read
from [sp-meta-tmem].  It does NOT say which tensor-memory lane, column and bit hold the metadata of row m's chunk c
relative to [sp-meta-tmem], nor which sub-columns each sparsity selector value selects: that is drawn only in
Figures 262-267 (9.7.16.10.8.4.1-.6, "Layout of the Sparsity Metadata Matrix for M = 64 / M = 128 / M = 256"),
images the text does not restate.  The section headings (text) do say which MMAs share a figure: one layout for
.kind::f16 at M = 128 and M = 256 (Figure 263, 9.7.16.10.8.4.2), one for .kind::f8f6f4, .kind::i8 (and the
block-scaled kinds) at M = 128 and M = 256 (Figure 267, 9.7.16.10.8.4.6).

The read layout (`metadata_cell`) is INFERRED: PTX Figures 262-267 are images; this is JAX Mosaic GPU's reading,
tested by JAX on Blackwell hardware; not hardware-validated here.  Mosaic GPU (jax-ml/jax, read at cec06d1, 2026-08)
builds a kernel's metadata in four steps, and its tests (tests/mosaic/gpu_test.py: test_mma_sparse, .kind::f16 with
f16 / bf16, .kind::f8f6f4 with e4m3 / e5m2, .kind::i8 with s8, M = 128 on one CTA; test_mma_sparse_collective, f16
and e4m3, M = 256 on a CTA pair, 128 rows a CTA; MosaicGpuDialectTCGen05Test.test_tcgen05_mma_sparse and
..._collective, f16 / bf16 / s8 / e4m3 at M = 128 and M = 256 through the same functions; K = 256) compare the
product with a dense reference on Blackwell:

1. jax/experimental/mosaic/gpu/utils.py, format_tcgen05_sparse_metadata (whose docstring cites 9.7.16.10.8.4.2):
   the (M, K/4, 2) uint2 indices of a row's chunks (index 0 the position of the first kept element; a row's uint2 j
   is chunk j / 2's index j % 2) become blocks of 128 rows x 64 uint2 (128 of K).  For 8-bit A the block is the
   plain (row, j); for 16-bit A, with row m = 16 a + 8 b + r and j = 16 d + 8 e + f within the block, the block
   holds it at row 16 a + 8 e + r, position 16 d + 8 b + f: the row's bit 3 and the position's bit 3 exchanged;
2. a block is a contiguous 2048-byte run of shared memory, its row R at byte 16 R, uint2 J of the row in byte J / 4
   at bits 2 (J % 4) (sub-byte elements are packed from the low bits: JAX's int4 conversions in
   fragmented_array.py read element 0 from bits 3:0, and only this order turns JAX's index pairs i0 < i1 into the
   PTX's meaningful values 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b1110);
3. tcgen05.py, async_copy_sparse_metadata_smem_to_tmem: block t is copied by one tcgen05.cp.128x128b (descriptor LBO
   0, SBO 128 bytes, no swizzle) to [sp-meta base] + 4 t columns -- by tcgen05_cp.py, row R to lane R, byte b of
   the row to column 4 t + b / 4, byte b % 4: uint2 J of row R at lane R, column 4 t + J / 16, bit 2 J % 32;
4. tcgen05.py, mma / _do_mma: the g-th MMA along K (K = 32 for .kind::f16, 64 for 8-bit) is issued with
   [sp-meta-tmem] = [sp-meta base] + 2 (g / 2) and sparsity selector g % 2 for .kind::f16, [sp-meta base] + 2 g and
   selector 0 for .kind::f8f6f4 / .kind::i8 (cta_group::2 passes each CTA's own rows' copy at the same address).

Composed, for row m (0..127 of a CTA's A) and chunk c of one MMA (c < K / 4), with C the column of [sp-meta-tmem] and
s its selector, the chunk's 4 bits are those of lane L, column C + s (+ c / 8), bits B .. B + 3 (`metadata_cell`):

- .kind::f16:            L = 16 (m / 16) + 8 (c / 4) + m % 8,  column C + s,        B = 16 ((m / 8) % 2) + 4 (c % 4);
- .kind::f8f6f4, ::i8:   L = m,                                 column C + c / 8,    B = 4 (c % 8).

What JAX does not exercise stays unmodelled (`read_problem`): .kind::tf32 (Mosaic GPU: "Sparse MMA unsupported for
f32"), M = 64 and M = 128 on a CTA pair (64 rows a CTA: "Sparse MMA not supported for M=64"), [sp-meta-tmem] at an
odd column or a lane other than 0, and the .kind::f16 selectors 2 and 3 (JAX issues 0 and 1 only).
"""
from __future__ import annotations

from dataclasses import dataclass

from .base import Index
from .registry import qualifiers

SECTION = ("PTX ISA 9.1, 9.7.16.10.8 Sparse Matrices (granularity table, 9.7.16.10.8.1-.2, Figures 259-260), "
           "9.7.16.10.8.4 Sparsity selector, Table 42 (instruction descriptor bits 0-2), 9.7.16.10.9.2 tcgen05.mma.sp")
NIBBLE_BITS = 4                  # the metadata of one chunk: one 4-bit index (1:2) or two 2-bit indices (2:4)
SELECTOR_FIELD = 4               # Table 42: the sparsity selector is bits 0-1 of the instruction descriptor, 0..3
# what the text leaves to the figures, said in every report that stops there
READ_LAYOUT_UNREAD = (
    "which tensor-memory lane, column and bit tcgen05.mma.sp reads, from [sp-meta-tmem] and its sparsity selector, as "
    "the metadata of row m's chunk c is drawn only in the PTX ISA's Figures 262-267 (9.7.16.10.8.4, \"Layout of the "
    "Sparsity Metadata Matrix\"), images the text does not restate")
# where the read layout this module uses comes from, said beside every claim that rests on it
READ_SOURCE = ("JAX Mosaic GPU (jax-ml/jax): utils.format_tcgen05_sparse_metadata, tcgen05."
               "async_copy_sparse_metadata_smem_to_tmem (tcgen05.cp.128x128b), tcgen05.mma's [sp-meta-tmem] and "
               "selector per MMA; tests/mosaic/gpu_test.py test_mma_sparse, test_mma_sparse_collective; PTX ISA "
               "9.7.16.10.8.4.2 / .6 (Figures 263, 267)")
INFERRED = ("inferred: PTX Figures 262-267 are images; this is JAX Mosaic GPU's reading, tested by JAX on Blackwell "
            "hardware; not hardware-validated here")

@dataclass(frozen=True)
class SparseKind:
    """One row of 9.7.16.10.8's granularity table, with its K (Table 39's Sparse rows) and selectors."""
    kind: str                       # the .kind qualifier
    chunk: int                      # adjacent elements of a row one metadata nibble describes
    kept: int                       # elements of a chunk stored in A
    k: int                          # K of the sparse instruction (logical)
    selectors: tuple[int, ...]      # the sparsity selector values the instruction takes
    selector_rule: str              # the same, as the text says it
    valid_indices: str              # the meaningful metadata values, in words

    @property
    def bits_per_element(self) -> int:
        """Metadata bits a logical element of A accounts for: a chunk's 4 bits over its elements."""
        return NIBBLE_BITS // self.chunk

    @property
    def row_bits(self) -> int:
        """Metadata bits of one row for one instruction: K / chunk nibbles."""
        return self.k // self.chunk * NIBBLE_BITS


_ANY_SELECTOR = tuple(range(SELECTOR_FIELD))
_TWO_OF_FOUR = "two 2-bit indices a chunk of four: 0b0100, 0b1000, 0b1100, 0b1001, 0b1101, 0b0110, 0b1110 (Figure 260)"
_MUST_BE_ZERO = "0: it \"must be 0 for .kind::i8 and .kind::f8f6f4\" (9.7.16.10.8.4.5)"
_ASSUMED_ZERO = ("0: it \"is assumed to be 0 for .kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4\" (9.7.16.10.8.4.5), "
                 "whose instruction descriptors have no selector field (Tables 43, 44)")
_PAIRS_OF_EIGHT = ("two 2-bit indices a chunk of eight, each naming a two-wide sub-chunk: 0b0100, 0b1000, 0b1100, "
                   "0b1001, 0b1101, 0b0110, 0b1110 (9.7.16.10.8.3, Figure 261)")
SPARSE_KINDS: dict[str, SparseKind] = {
    "tf32": SparseKind("tf32", 2, 1, 16, _ANY_SELECTOR, "0-3 (Table 42)",
                       "one 4-bit index a chunk of two: 0b1110 or 0b0100 (Figure 259)"),
    "f16": SparseKind("f16", 4, 2, 32, _ANY_SELECTOR, "0-3 (Table 42)", _TWO_OF_FOUR),
    "f8f6f4": SparseKind("f8f6f4", 4, 2, 64, (0,), _MUST_BE_ZERO, _TWO_OF_FOUR),
    "i8": SparseKind("i8", 4, 2, 64, (0,), _MUST_BE_ZERO, _TWO_OF_FOUR),
}
# the block-scaled kinds' .sp forms (with .block_scale): 2:4 for .kind::mxf8f6f4 (9.7.16.10.8.2), 4:8 in pairs for the
# mxf4 kinds (9.7.16.10.8.3); K twice the dense K (Table 39's Sparse rows)
BLOCK_SCALED_SPARSE_KINDS: dict[str, SparseKind] = {
    "mxf8f6f4": SparseKind("mxf8f6f4", 4, 2, 64, (0,), _ASSUMED_ZERO, _TWO_OF_FOUR),
    "mxf4": SparseKind("mxf4", 8, 4, 128, (0,), _ASSUMED_ZERO, _PAIRS_OF_EIGHT),
    "mxf4nvf4": SparseKind("mxf4nvf4", 8, 4, 128, (0,), _ASSUMED_ZERO, _PAIRS_OF_EIGHT),
}
SPARSE = "sp"
KIND = "kind::"
BLOCK_SCALE = "block_scale"


def sparse_kind(instruction: str | None) -> SparseKind | None:
    """The sparse kind of `tcgen05.mma.sp.cta_group::N.kind::K` (a kind without .block_scale), or None."""
    opcode, words = qualifiers(instruction or "")
    if opcode != "tcgen05" or words[:2] != ["mma", SPARSE]:
        return None
    kinds = [w.split("::", 1)[1] for w in words if w.startswith(KIND)]
    if len(kinds) != 1 or any(w.startswith(BLOCK_SCALE) for w in words):
        return None
    return SPARSE_KINDS.get(kinds[0])


def block_scaled_sparse_kind(instruction: str | None) -> SparseKind | None:
    """The sparse kind of `tcgen05.mma.sp.cta_group::N.kind::K.block_scale{.V}` (a block-scaled kind), or None."""
    opcode, words = qualifiers(instruction or "")
    if opcode != "tcgen05" or words[:2] != ["mma", SPARSE] or BLOCK_SCALE not in words:
        return None
    kinds = [w.split("::", 1)[1] for w in words if w.startswith(KIND)]
    return BLOCK_SCALED_SPARSE_KINDS.get(kinds[0]) if len(kinds) == 1 else None


def metadata_density_agrees(kind: SparseKind, logical: int, stored_bits: int) -> bool:
    """Whether a metadata type of `stored_bits` bits standing for `logical` logical elements of A (CuTe's
    sparse_elem<logical, T>) gives each element the kind's share of metadata: NIBBLE_BITS a chunk, exactly."""
    return stored_bits * kind.chunk == NIBBLE_BITS * logical


def selector_problem(kind: SparseKind, selector: int) -> str | None:
    """Why the instruction does not take this sparsity selector for the kind, or None."""
    if selector in kind.selectors:
        return None
    if not 0 <= selector < SELECTOR_FIELD:
        return f"the sparsity selector is the 2-bit field of the instruction descriptor (0..3), not {selector}"
    return f"the sparsity selector of .kind::{kind.kind} is {kind.selector_rule}, not {selector}"


# --- the read layout (inferred from JAX's Mosaic GPU; see the module's text) ----------------------------------------

READ_ROWS = 128                  # rows of A one CTA's lanes describe: M = 128 (cta_group::1) or 256 (cta_group::2)
CELL_BITS = 32                   # one TMEM column of a lane
ROW_GROUP = 16                   # .kind::f16: rows 16a..16a+15 share lanes 16a..16a+15
HALF_GROUP = 8                   # ... row bit 3 picks the cell's half, chunk / 4 the lane's half of the group
CHUNKS_PER_HALF = 4              # .kind::f16: four chunks (16 bits) a half cell
CHUNKS_PER_CELL = CELL_BITS // NIBBLE_BITS   # 8-bit kinds: eight chunks a column


@dataclass(frozen=True)
class ReadCover:
    """The MMAs of one kind JAX's Mosaic GPU issues and tests: its CTA counts and sparsity selectors."""
    ctas: tuple[int, ...]            # cta_group::1 (M = 128) and / or cta_group::2 (M = 256, 128 rows a CTA)
    selectors: tuple[int, ...]       # the selectors its MMAs are issued with
    tested: str                      # which JAX tests exercise it


_DIALECT = "MosaicGpuDialectTCGen05Test.test_tcgen05_mma_sparse[_collective]"
READ_COVER: dict[str, ReadCover] = {
    "f16": ReadCover((1, 2), (0, 1), f"test_mma_sparse (f16, bf16; M = 128), test_mma_sparse_collective (f16; "
                                     f"M = 256), {_DIALECT} (f16, bf16; M = 128, 256)"),
    "f8f6f4": ReadCover((1, 2), (0,), f"test_mma_sparse (e4m3, e5m2; M = 128), test_mma_sparse_collective (e4m3; "
                                      f"M = 256), {_DIALECT} (e4m3; M = 128, 256)"),
    "i8": ReadCover((1, 2), (0,), f"test_mma_sparse (s8; M = 128), {_DIALECT} (s8; M = 128, 256)"),
}


@dataclass(frozen=True)
class MetaCell:
    """Where tcgen05.mma.sp reads the 4 metadata bits of one row's chunk: bits bit .. bit + 3 of the 32-bit cell at
    (lane, column); lane relative to [sp-meta-tmem]'s lane, column absolute."""
    lane: Index
    column: Index
    bit: Index


def read_problem(kind: SparseKind, ctas: int, rows: int, lane: int, column: int, selector: int) -> str | None:
    """Why the read layout is not known for this MMA -- a kind, CTA count, rows a CTA, [sp-meta-tmem] lane or column,
    or sparsity selector JAX's Mosaic GPU does not exercise -- or None."""
    cover = READ_COVER.get(kind.kind)
    source = "JAX's Mosaic GPU, the source of the read layout (PTX Figures 262-267 are images),"
    if cover is None:
        why = f"{source} issues no sparse .kind::{kind.kind} MMA (\"Sparse MMA unsupported for f32\")"
    elif rows != READ_ROWS or ctas not in cover.ctas:
        why = (f"{source} issues it with {READ_ROWS} rows a CTA on {' or '.join(map(str, cover.ctas))} CTA(s) "
               f"({cover.tested}), not {rows} rows a CTA on {ctas}")
    elif lane != 0 or column % 2:
        why = f"{source} hands [sp-meta-tmem] at lane 0 and even columns, not lane {lane}, column {column}"
    elif selector not in cover.selectors:
        why = f"{source} issues it with sparsity selector(s) {', '.join(map(str, cover.selectors))}, not {selector}"
    else:
        return None
    return f".kind::{kind.kind}: {why}; {READ_LAYOUT_UNREAD}"


def metadata_cell(kind: SparseKind, column: int, selector: int, row: Index, chunk: Index) -> MetaCell:
    """The TMEM cell and bit tcgen05.mma.sp (`kind`, [sp-meta-tmem] at `column`, `selector`; one `read_problem`
    accepts) reads as the metadata of chunk `chunk` (0 .. K / chunk - 1) of row `row` (0..127) of a CTA's A.  Inferred
    (INFERRED): JAX's formatting, tcgen05.cp and MMA addressing composed, as the module's text derives."""
    if kind.kind == "f16":
        lane = (row // ROW_GROUP) * ROW_GROUP + (chunk // CHUNKS_PER_HALF) * HALF_GROUP + row % HALF_GROUP
        bit = ((row // HALF_GROUP) % 2) * (CELL_BITS // 2) + (chunk % CHUNKS_PER_HALF) * NIBBLE_BITS
        return MetaCell(lane, column + selector, bit)
    if kind.kind in ("f8f6f4", "i8"):
        return MetaCell(row, column + chunk // CHUNKS_PER_CELL, (chunk % CHUNKS_PER_CELL) * NIBBLE_BITS)   # selector 0
    raise ValueError(f"no read layout for .kind::{kind.kind}: {READ_LAYOUT_UNREAD}")


__all__ = ["SparseKind", "SPARSE_KINDS", "BLOCK_SCALED_SPARSE_KINDS", "sparse_kind", "block_scaled_sparse_kind",
           "metadata_density_agrees", "selector_problem", "SECTION", "READ_LAYOUT_UNREAD", "NIBBLE_BITS",
           "READ_SOURCE", "INFERRED", "READ_COVER", "ReadCover", "MetaCell", "read_problem", "metadata_cell",
           "READ_ROWS"]
