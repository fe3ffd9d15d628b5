"""tcgen05.mma.sp (sm_100a): structured-sparse A and its metadata in tensor memory, written from the PTX ISA.

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
images the text does not restate (READ_LAYOUT_UNREAD).  Without a Blackwell GPU to probe it, a claim about what the
tensor core reads as a row's metadata has no model here (kinds/sparse/sm100_theorems.py reports it unsupported).
"""
from __future__ import annotations

from dataclasses import dataclass

from .registry import qualifiers

SECTION = ("PTX ISA 9.1, 9.7.16.10.8 Sparse Matrices (granularity table, 9.7.16.10.8.1-.2, Figures 259-260), "
           "9.7.16.10.8.4 Sparsity selector, Table 42 (instruction descriptor bits 0-2), 9.7.16.10.9.2 tcgen05.mma.sp")
NIBBLE_BITS = 4                  # the metadata of one chunk: one 4-bit index (1:2) or two 2-bit indices (2:4)
SELECTOR_FIELD = 4               # Table 42: the sparsity selector is bits 0-1 of the instruction descriptor, 0..3
# what the text leaves to the figures, said in every report that stops there
READ_LAYOUT_UNREAD = (
    "which tensor-memory lane, column and bit tcgen05.mma.sp reads, from [sp-meta-tmem] and its sparsity selector, as "
    "the metadata of row m's chunk c is drawn only in the PTX ISA's Figures 262-267 (9.7.16.10.8.4, \"Layout of the "
    "Sparsity Metadata Matrix\"), images the text does not restate, and no Blackwell GPU is available to probe it")


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


__all__ = ["SparseKind", "SPARSE_KINDS", "BLOCK_SCALED_SPARSE_KINDS", "sparse_kind", "block_scaled_sparse_kind",
           "metadata_density_agrees", "selector_problem", "SECTION", "READ_LAYOUT_UNREAD", "NIBBLE_BITS"]
