"""wgmma.mma_async.sp (sm_90a): structured-sparse A and its metadata register, sp-meta, written from the PTX ISA.

PTX ISA 9.2, section 9.7.15.6 "Asynchronous Warpgroup Level Multiply-and-Accumulate Operation using
wgmma.mma_async.sp instruction":

- 9.7.15.6.1 "Sparse matrix storage": A (M x K) is packed into M x K/2 elements.  .f16 / .bf16 (m64nNk32) and the
  8-bit types .e4m3 / .e5m2 / .s8 / .u8 (m64nNk64) are sparse at 2:4 -- a chunk of four adjacent elements of a row
  keeps two, their positions in the chunk given by two 2-bit indices; .tf32 (m64nNk16) at 1:2 -- a chunk of two
  keeps one, its position given by a 4-bit index of which only 0b0100 and 0b1110 are meaningful.  "In a group of
  four consecutive threads, one or more threads store the metadata for the whole group", chosen by the sparsity
  selector sp-sel: for 16-bit and tf32 "a thread-pair ... must be either 0 (threads T0, T1) or 1 (threads T2,
  T3); any other value results in an undefined behavior"; for the 8-bit types "all threads contribute the sparsity
  metadata and the sparsity selector must be 0".
- 9.7.15.6.2 "Matrix fragments ... with sparse matrix A": "Each warp in the warpgroup provides sparsity information
  for 16 rows of matrix A" (%warpid % 4 = w: rows 16w..16w+15); the metadata operand is one .b32 register; A from
  shared memory "is documented in Shared Memory Matrix Layout" -- the packed M x K/2 tile, read through the
  descriptor like a dense operand (section 9.7.15.6.3: "The matrix A is stored in the packed format Mx(K/2)"); the
  accumulator D is the dense instruction's.
- 9.7.15.6.3 "wgmma.mma_async.sp": the shapes (M 64; N 8..256 in steps of 8, for .s8 / .u8 8, 16, 24 or a multiple
  of 16 from 32; K 32 / 16 / 64), the types, sp-meta a 32-bit register, sp-sel a constant 0..3.

Which bit of sp-meta describes which row and chunk is drawn in Figures 176 (k32 .f16 / .bf16), 178 (k16 .tf32) and
180 / 181 (k64 8-bit, columns 0-31 / 32-63); within a warp they are the same pictures as mma.sp's m16n8k32,
m16n8k16 .tf32 and m16n8k64.  Those figures are images that could not be read here.  What `meta_bit` says is
therefore INFERRED, not read and not hardware-validated: it is the reading of two third-party sources that agree --
a Triton fork implementing tl.dot_sparse on mma.sp / wgmma.sp, which probed the 8-bit case on hardware and checked
every shape bit-exact ("m16n8k32: row = T>>2, col = T%2, E[15:0] = meta[row][col], E[31:16] = meta[row+8][col];
m16n8k64: row = (T>>2) + 8(T&1), col = 2((T>>1)&1), E[31:16] = meta[row][col+1]", col in units of 16 elements),
and OpenXLA's Hopper wgmma.sp lowering for 16-bit (row 16 warp + lane/4, column lane % 2, meta[row+8] << 16 |
meta[row]).  The .tf32 figure has no source but the bit count (eight 4-bit indices a register, text above) and the
16-bit figure it shares its thread-pair structure with.  The text fixes the rest: the warps' rows, which threads
supply under each sp-sel, 4 metadata bits a chunk, 32 bits a thread.  (The k64 text says "16 4-bit vectors" a
register, 64 bits; a .b32 register holds eight, each a chunk of four: the figures' 64 rows x 64 columns are 128
threads x 32 bits.)  A GPU probe (one-hot B, one metadata index set a chunk) would settle the figures.

Also inferred (not needed by any layout claim): the order of the two 2-bit indices in a 2:4 nibble -- bits [1:0] the
position of the first kept element, bits [3:2] the second's -- from mma.sp::ordered_metadata's valid set and
CUTLASS's compressor.

The model is independent of CuTe: CuTe's metadata layouts (GMMA::ELayout_64x{32,16,64}) are what the theorems
compare with it.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..symbolic.expr import TRUE, Pred, eq
from .base import Index

SECTION = ("PTX ISA 9.2, 9.7.15.6 wgmma.mma_async.sp: 9.7.15.6.1 Sparse matrix storage, 9.7.15.6.2 Matrix fragments "
           "with sparse matrix A (Figures 176, 178, 180, 181), 9.7.15.6.3")
SPARSE_QUALIFIER = "sp"          # wgmma.mma_async.sp.sync.aligned...
META_BITS = 32                   # sp-meta: one .b32 register a thread
NIBBLE_BITS = 4                  # the metadata of one chunk (two 2-bit indices, or one 4-bit index)
WARPGROUP = 128
WARP = 32
ROWS = 64                        # M of every wgmma.mma_async.sp
ROWS_PER_WARP = 16               # "Each warp in the warpgroup provides sparsity information for 16 rows"
SP_SEL_RANGE = 4                 # "sp-sel is a 32-bit integer constant with values in the range 0..3"
# what the figures do not say in words, named in every report that rests on it
INFERRED = ("which sp-meta bit describes which row and chunk (PTX ISA Figures 176, 178, 180, 181, unread images): "
            "the reading of a Triton fork (bit-exact on mma.sp hardware) and OpenXLA's lowering, not validated on a "
            "GPU")


@dataclass(frozen=True)
class SparseType:
    """One row of 9.7.15.6.1's granularities and 9.7.15.6.3's summary table."""
    name: str                          # the family, as the text names it
    atypes: tuple[str, ...]            # .atype qualifiers
    k: int                             # K of the instruction (dense, logical)
    chunk: int                         # adjacent elements of a row one metadata nibble describes
    kept: int                          # elements of a chunk stored in A
    sp_sels: tuple[int, ...]           # the sparsity selectors the text allows
    pair: bool                         # a thread pair of each quad supplies (sp-sel picks it); else every thread
    figure: str
    valid_indices: str                 # the meaningful metadata values, in words

    @property
    def stored_k(self) -> int:
        """Columns of packed A one instruction reads: K/2."""
        return self.k * self.kept // self.chunk

    @property
    def chunks(self) -> int:
        """Chunks of one row of one instruction."""
        return self.k // self.chunk

    @property
    def row_bits(self) -> int:
        """Metadata bits of one row of one instruction (4 a chunk)."""
        return self.chunks * NIBBLE_BITS

    @property
    def bits_per_element(self) -> int:
        """Metadata bits a logical element of A accounts for (a chunk's 4 bits over its elements)."""
        return NIBBLE_BITS // self.chunk


SPARSE_TYPES: tuple[SparseType, ...] = (
    SparseType("16-bit", ("f16", "bf16"), 32, 4, 2, (0, 1), True, "Figure 176",
               "two 2-bit indices a chunk; 0b0000, 0b0101, 0b1010, 0b1111 are undefined"),
    SparseType("tf32", ("tf32",), 16, 2, 1, (0, 1), True, "Figure 178",
               "one 4-bit index a chunk: 0b0100 (element 0 kept) or 0b1110 (element 1 kept)"),
    SparseType("8-bit", ("e4m3", "e5m2", "s8", "u8"), 64, 4, 2, (0,), False, "Figures 180 and 181",
               "two 2-bit indices a chunk; 0b0000, 0b0101, 0b1010, 0b1111 are undefined"),
)


def sparse_type(atype: str) -> SparseType | None:
    """The granularity row of A's type, or None (no wgmma.mma_async.sp takes it)."""
    return next((t for t in SPARSE_TYPES if atype in t.atypes), None)


def shape_problem(shape: str, atype: str) -> str | None:
    """Why `.m{M}n{N}k{K}` is no wgmma.mma_async.sp shape for A of `atype` (9.7.15.6.3's .shape lists), or None."""
    try:
        m, n, k = (int(x) for x in shape[1:].replace("n", " ").replace("k", " ").split())
    except ValueError:
        return f"{shape!r} is no .mMnNkK shape"
    t = sparse_type(atype)
    if t is None:
        return f"no wgmma.mma_async.sp multiplies .{atype}"
    if m != ROWS:
        return f"wgmma.mma_async.sp's M is {ROWS}, not {m}"
    if k != t.k:
        return f"wgmma.mma_async.sp's K for .{atype} is {t.k}, not {k}"
    integer = atype in ("s8", "u8")
    valid = n % 8 == 0 and 8 <= n <= 256 and (not integer or n <= 24 or n % 16 == 0)
    if not valid:
        rule = "8, 16, 24 or a multiple of 16 from 32 to 256" if integer else "a multiple of 8 from 8 to 256"
        return f"wgmma.mma_async.sp's N for .{atype} is {rule}, not {n}"
    return None


def sp_sel_problem(t: SparseType, sp_sel: int) -> str | None:
    """Why the instruction does not take this sparsity selector for A's type (undefined behaviour), or None."""
    if sp_sel in t.sp_sels:
        return None
    if not 0 <= sp_sel < SP_SEL_RANGE:
        return f"sp-sel is a constant in 0..{SP_SEL_RANGE - 1}, not {sp_sel}"
    allowed = " or ".join(map(str, t.sp_sels))
    who = "(threads T0, T1) or 1 (threads T2, T3)" if t.pair else "(all threads contribute)"
    return f"sp-sel {sp_sel} is undefined for {t.name} A: it must be {allowed} {who}"


def supplies(t: SparseType, thread: Index, sp_sel: int) -> Pred:
    """Whether thread `thread` of the warpgroup supplies metadata under `sp_sel`: the thread pair T0,T1 (sp-sel 0) or
    T2,T3 (sp-sel 1) of each group of four consecutive threads, or every thread (8-bit types)."""
    if not t.pair:
        return TRUE
    return eq((thread % 4) // 2, sp_sel)


@dataclass(frozen=True)
class MetaBit:
    """What bit b of a supplying thread's sp-meta describes: `nibble_bit` of the metadata of chunk `chunk` (elements
    chunk*t.chunk .. +t.chunk-1 of the instruction's K) of row `row` (0..63) of A."""
    row: Index
    chunk: Index
    nibble_bit: Index

    def row_bit(self) -> Index:
        """The bit's place in its row's metadata: chunk c's four bits are c*4 .. c*4+3."""
        return self.chunk * NIBBLE_BITS + self.nibble_bit


def meta_bit(t: SparseType, thread: Index, bit: Index) -> MetaBit:
    """Bit `bit` (0..31) of the sp-meta of warpgroup thread `thread` (0..127), for a thread that supplies metadata
    (see `supplies`).  Warp w = thread / 32 covers rows 16w..16w+15 (9.7.15.6.2's table); with lane l, g = l / 4:

    - 16-bit and tf32 (Figures 176 and 178, inferred): bits 0..15 describe row g, bits 16..31 row g + 8; the pair's
      lane l % 2 = j takes chunks 4j..4j+3 (K 16j..16j+15 at 2:4; K 8j..8j+7 at 1:2), nibble n = (b % 16) / 4 the
      chunk 4j + n;
    - 8-bit (Figures 180 and 181, inferred): all 32 bits describe row g + 8 (l % 2); h = (l / 2) % 2 picks K
      32h..32h+31, nibble n = b / 4 the chunk 8h + n (Figure 180 is h = 0, Figure 181 h = 1).
    """
    w, lane = thread // WARP, thread % WARP
    g = lane // 4
    q = bit % NIBBLE_BITS
    if t.pair:
        j = lane % 2
        return MetaBit(ROWS_PER_WARP * w + g + 8 * (bit // 16), 4 * j + (bit % 16) // NIBBLE_BITS, q)
    h = (lane // 2) % 2
    return MetaBit(ROWS_PER_WARP * w + g + 8 * (lane % 2), 8 * h + bit // NIBBLE_BITS, q)


__all__ = ["SparseType", "SPARSE_TYPES", "sparse_type", "shape_problem", "sp_sel_problem", "supplies", "MetaBit",
           "meta_bit", "SECTION", "INFERRED", "META_BITS", "NIBBLE_BITS"]
