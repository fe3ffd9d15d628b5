"""tcgen05.mma (Blackwell, sm_100) shared-memory descriptors: which shared byte the tensor core reads for each
A(m,k) / B(n,k) of one instruction.

NOT HARDWARE-VALIDATED: there is no Blackwell GPU here.  The model is written from the PTX ISA alone, section
9.7.16.4.1 "Shared Memory Descriptor" (tcgen05, "TensorCore 5th Generation Family Instructions" -> "Matrix
Descriptors") and 9.7.16.3 "Major-ness supported by Strides", with CUTLASS's cute/arch/mma_sm100_desc.hpp
(make_umma_desc and its canonical-layout comments) as a second opinion.  Where the rules are the ones wgmma
already has (the no-swizzle, 32B, 64B and 128B layouts with 16-byte chunks) it reuses hardware/gmma_desc.py,
whose formulas an H200 confirmed; only the field encoding and the 128-byte swizzle with 32-byte atomicity are
new here, and those stand on the PTX ISA text and CuTe alone.

The 64-bit descriptor, in our words (PTX ISA 9.7.16.4.1, Table "Shared memory descriptor layout"):
- bits 0-13: the start address, (addr & 0x3FFFF) >> 4; bits 14-15 reserved.
- bits 16-29: the leading-dimension stride, the same 16-byte encoding; bits 30-31 reserved.  Bit 52 says how
  to read it: 0, a byte offset relative to the start (what CuTe always sets); 1, the absolute byte address of the
  second chunk of a K that is 48 bytes long (only on sm_103a; not modelled here: `field_problem` says so).
- bits 32-45: the stride-dimension byte offset, the same encoding.
- bits 46-48: a fixed constant, 0b001 (the descriptor's "version"; wgmma's descriptor has no such field).
- bits 49-51: the base offset, as for wgmma: 0 when the swizzle pattern starts on its repeat boundary, otherwise
  (pattern start >> 7) & 7.
- bits 53-60: fixed zero.
- bits 61-63: the layout type: 0 no swizzle, 1 128-byte swizzle with 32-byte atomicity, 2 128-byte, 4 64-byte,
  6 32-byte swizzle; 3, 5 and 7 are invalid.  Start, LBO and SBO must be multiples of 16 bytes.

What each layout reads (E-byte elements; "span" the swizzle's row of bytes):
- none / 32B / 64B / 128B: the wgmma rules (gmma_desc.py): K-major rows of `span` bytes (16 without swizzle),
  LBO between the 16-byte K chunks when unswizzled and unused otherwise, SBO between 8-row groups; MN-major
  `span` bytes along M/N per K row, 8 K rows per atom, LBO and SBO trading places between the unswizzled and
  swizzled forms (PTX ISA 9.7.16.3.1: the MN-major swizzled LBO is the stride between successive span-wide
  blocks along M/N; the unswizzled one between 8-column K blocks).
- 128B_BASE32B (MN-major only): 128 bytes along M/N per K row, 4 K rows per atom (512 bytes), LBO between the
  128-byte M/N blocks and SBO between the 4-row K groups (CuTe's canonical form
  Swizzle<2,5,2> o ((T,8,m),(4,k)):((1,T,LBO),(8T,SBO)) in elements, T = 16 / E; see test_sm100_desc.py for the
  K-row stride CuTe's own comment gets wrong, CUTLASS #3089).  The swizzle XORs the 32-byte chunk index
  (address bits 5-6) with the row phase ((address >> 7) - base offset) mod 4: Swizzle<2,5,2> on the absolute
  address.  Whether the base offset re-anchors this pattern as it does the 16-byte ones is our assumption.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from . import gmma_desc as GD
from .smem_operand import Addr, GmmaSwizzle, Major

SECTION = "PTX ISA 9.7.16.4.1 (tcgen05) Shared Memory Descriptor; 9.7.16.3 Major-ness supported by Strides"
FIELD_MASK = GD.FIELD_MASK          # 14 bits of 16-byte units
ADDRESS_BITS = 18                   # matrix-descriptor-encode keeps (x & 0x3FFFF) >> 4
VERSION = 0b001                     # bits 46-48, fixed
VERSION_SHIFT, BASE_OFFSET_SHIFT, LBO_MODE_SHIFT, LAYOUT_SHIFT = 46, 49, 52, 61
LBO_SHIFT, SBO_SHIFT = 16, 32
RESERVED_MASK = (0x3 << 14) | (0x3 << 30) | (0xFF << 53)   # bits 14-15, 30-31, 53-60: zero
BASE32B_K_ROWS = 4                  # K rows of one 128B_BASE32B atom (4 x 128 bytes)


class UmmaLayoutType(int, Enum):
    """Bits 61-63 of the descriptor (CuTe's UMMA::LayoutType)."""
    NONE = 0
    B128_BASE32B = 1
    B128 = 2
    B64 = 4
    B32 = 6

    @property
    def span(self) -> int:
        """Bytes along the leading dimension of one swizzle row (0: no swizzle, 16-byte core matrices)."""
        return {UmmaLayoutType.NONE: 0, UmmaLayoutType.B128_BASE32B: 128, UmmaLayoutType.B128: 128,
                UmmaLayoutType.B64: 64, UmmaLayoutType.B32: 32}[self]

    @property
    def chunk_bytes(self) -> int:
        """The swizzle's atomicity: the bytes that move together (32 for 128B_BASE32B, 16 otherwise)."""
        return 32 if self is UmmaLayoutType.B128_BASE32B else 16

    @property
    def bits(self) -> int:
        """B of the byte-address swizzle Sw<B, log2 chunk, 7 - log2 chunk>."""
        return {UmmaLayoutType.NONE: 0, UmmaLayoutType.B128_BASE32B: 2, UmmaLayoutType.B128: 3,
                UmmaLayoutType.B64: 2, UmmaLayoutType.B32: 1}[self]

    @property
    def k_rows(self) -> int:
        """Rows of the swizzle atom (K rows MN-major, M/N rows K-major)."""
        return BASE32B_K_ROWS if self is UmmaLayoutType.B128_BASE32B else 8

    @property
    def repeat(self) -> int:
        """Bytes after which the swizzle pattern repeats (0: no pattern)."""
        return (1 << self.bits) * 128 if self.bits else 0

    @property
    def label(self) -> str:
        return {UmmaLayoutType.NONE: "none", UmmaLayoutType.B128_BASE32B: "128B_BASE32B"}.get(self, f"{self.span}B")

    @property
    def gmma(self) -> GmmaSwizzle | None:
        """The wgmma swizzle with the same semantics (None: 128B_BASE32B, which wgmma lacks)."""
        return GMMA_OF.get(self)

    @classmethod
    def of_gmma(cls, swizzle: GmmaSwizzle) -> "UmmaLayoutType":
        return next(u for u, g in GMMA_OF.items() if g is swizzle)


GMMA_OF: dict[UmmaLayoutType, GmmaSwizzle] = {
    UmmaLayoutType.NONE: GmmaSwizzle.NONE, UmmaLayoutType.B128: GmmaSwizzle.B128,
    UmmaLayoutType.B64: GmmaSwizzle.B64, UmmaLayoutType.B32: GmmaSwizzle.B32}
INVALID_LAYOUT_CODES = (3, 5, 7)


class LeadingMode(int, Enum):
    """Bit 52: how the leading-dimension field is read."""
    RELATIVE = 0        # a byte offset from the start
    ABSOLUTE = 1        # the byte address of the second K chunk (K of 48 bytes, sm_103a only)


@dataclass(frozen=True)
class UmmaDescriptor:
    start: int                                  # byte address (a multiple of 16, below 2^18)
    lbo: int                                    # bytes
    sbo: int                                    # bytes
    base_offset: int = 0
    layout: UmmaLayoutType = UmmaLayoutType.NONE
    lbo_mode: LeadingMode = LeadingMode.RELATIVE
    version: int = VERSION

    @property
    def swizzle(self) -> UmmaLayoutType:
        """The layout type, under the name the wgmma descriptor gives its swizzle field."""
        return self.layout

    @classmethod
    def decode(cls, word: int) -> "UmmaDescriptor":
        """The fields of a 64-bit word (raises ValueError on an invalid layout type: see `word_problem`)."""
        return cls(start=(word & FIELD_MASK) << 4, lbo=((word >> LBO_SHIFT) & FIELD_MASK) << 4,
                   sbo=((word >> SBO_SHIFT) & FIELD_MASK) << 4, base_offset=(word >> BASE_OFFSET_SHIFT) & 7,
                   layout=UmmaLayoutType((word >> LAYOUT_SHIFT) & 7),
                   lbo_mode=LeadingMode((word >> LBO_MODE_SHIFT) & 1), version=(word >> VERSION_SHIFT) & 7)

    def encode(self) -> int:
        return ((_encode_address(self.start)) | (((self.lbo >> 4) & FIELD_MASK) << LBO_SHIFT)
                | (((self.sbo >> 4) & FIELD_MASK) << SBO_SHIFT) | ((self.version & 7) << VERSION_SHIFT)
                | ((self.base_offset & 7) << BASE_OFFSET_SHIFT) | (int(self.lbo_mode) << LBO_MODE_SHIFT)
                | (int(self.layout) << LAYOUT_SHIFT))

    def as_gmma(self) -> GD.Descriptor | None:
        """The wgmma descriptor that reads the same bytes (None for 128B_BASE32B, which wgmma lacks)."""
        g = self.layout.gmma
        return None if g is None else GD.Descriptor(self.start, self.lbo, self.sbo, self.base_offset, g)

    def field_problem(self, major: Major | None = None) -> str | None:
        """Why tcgen05.mma cannot take these fields (PTX ISA 9.7.16.4.1), or None: the address, offsets and base
        offset are encoded as in the wgmma descriptor, then the fields only this one has."""
        shared = GD.Descriptor(self.start, self.lbo, self.sbo, self.base_offset).field_problem()
        if shared is not None:
            return shared
        if self.version != VERSION:
            return f"bits 46-48 must hold the fixed value {VERSION:#05b}, not {self.version:#05b}"
        if self.lbo_mode is LeadingMode.ABSOLUTE:
            return ("the absolute leading-dimension address mode (bit 52) exists on sm_103a only, for a 48-byte K; "
                    "this model does not read it")
        if self.layout is UmmaLayoutType.B128_BASE32B and major is Major.K:
            return ("the 128-byte swizzle with 32-byte atomicity is an MN-major layout (CuTe's make_umma_desc "
                    "refuses it K-major)")
        return None


def _encode_address(addr: int) -> int:
    """matrix-descriptor-encode(x) = (x & 0x3FFFF) >> 4."""
    return (addr & ((1 << ADDRESS_BITS) - 1)) >> 4


def word_problem(word: int) -> str | None:
    """Why a 64-bit word is no valid descriptor (reserved bits, the fixed fields, the layout code), or None."""
    code = (word >> LAYOUT_SHIFT) & 7
    if code in INVALID_LAYOUT_CODES:
        return f"layout type {code} is invalid (3, 5 and 7 are)"
    if word & RESERVED_MASK:
        return f"reserved bits are set: {word & RESERVED_MASK:#x}"
    if (word >> VERSION_SHIFT) & 7 != VERSION:
        return f"bits 46-48 hold {(word >> VERSION_SHIFT) & 7:#05b}, not the fixed {VERSION:#05b}"
    return None


# --- which byte an element is read from ------------------------------------------------------------------------

def unswizzled_offset(d: UmmaDescriptor, major: Major, mn: Addr, k: Addr, elem_bytes: int) -> Addr:
    """Byte offset from the start address of element (mn, k) before the swizzle."""
    g = d.as_gmma()
    if g is not None:
        return GD.unswizzled_offset(g, major, mn, k, elem_bytes)
    span, rows = d.layout.span, d.layout.k_rows
    if major is Major.K:
        raise ValueError("the 128B_BASE32B layout is MN-major only")
    mb = mn * elem_bytes   # 128 bytes of M/N per K row; 128-byte M/N blocks at LBO; 4-row K groups at SBO
    return mb % span + (mb // span) * d.lbo + (k % rows) * span + (k // rows) * d.sbo


def swizzle_address(d: UmmaDescriptor, addr: Addr) -> Addr:
    """The layout type's XOR on the absolute address, the phase re-anchored by the base offset."""
    g = d.as_gmma()
    if g is not None:
        return GD.swizzle_address(g, addr)
    bits, chunk_shift = d.layout.bits, d.layout.chunk_bytes.bit_length() - 1
    phase = ((addr >> 7) + (8 - d.base_offset % 8)) & ((1 << bits) - 1)   # ((addr >> 7) - base) mod 4, non-negative
    return addr ^ (phase << chunk_shift)


def read_address(d: UmmaDescriptor, major: Major, mn: Addr, k: Addr, elem_bytes: int,
                 start: Addr | None = None) -> Addr:
    """The absolute shared byte address of the first byte of element (mn, k): A(m,k) or B(n,k).  `start` replaces
    the descriptor's start address (an expression, when the start is quantified over)."""
    begin = d.start if start is None else start
    return swizzle_address(d, begin + unswizzled_offset(d, major, mn, k, elem_bytes))


def operand_reads(d: UmmaDescriptor, major: Major, rows: int, cols: int, elem_bytes: int) -> list[tuple[int, int, int]]:
    """(mn, k, address) for every element of a rows x cols (M or N by K) operand, k outer."""
    return [(mn, k, read_address(d, major, mn, k, elem_bytes)) for k in range(cols) for mn in range(rows)]
