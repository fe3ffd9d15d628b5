"""wgmma shared-memory matrix descriptors: which shared byte the tensor core reads for each A(m,k) / B(n,k).

Written from the PTX ISA ("Matrix Descriptor Format", "Shared Memory Matrix Layout": swizzle atoms of 8 rows
x span bytes, K-major and MN-major, the strides LBO and SBO, the base offset) and checked against tables
captured on an H200 (tools/gpu/capture_gmma_desc.cu, tests/data/hw/gmma_desc.json.gz): f16 K- and MN-major
A and B, tf32, e4m3 and s8 K-major, every swizzle mode, LBO / SBO both ways round, starts off the pattern's
repeat with and without a base offset.

Descriptor (64 bits): 0-13 start address >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 49-51 base offset, 62-63
layout (0 none / "interleave", 1 128B, 2 64B, 3 32B swizzle).  With E-byte elements and span S:
- K-major, no swizzle: core matrices of 8 rows x 16 bytes; row r at 16r; 16-byte chunks along K at LBO,
  8-row groups along M/N at SBO.
- K-major, S-byte swizzle: row r of the 8-row atom at S*r, K contiguous inside it; 8-row groups at SBO (LBO
  unused: an instruction's K fits one atom row).
- MN-major, no swizzle: 16 bytes along M/N contiguous, the 8 K-rows 16 bytes apart; 16-byte M/N blocks at
  SBO, 8-row K blocks at LBO.
- MN-major, S-byte swizzle: S bytes along M/N contiguous, the 8 K-rows S bytes apart; S-byte M/N blocks at
  LBO, 8-row K blocks at SBO (LBO and SBO trade places with the no-swizzle form).
The swizzle then XORs the 16-byte chunk index (address bits 4..) with the row phase, which the hardware takes
from the *absolute* address: phase = ((address >> 7) - base offset) mod 2^B (B = 3, 2, 1).  A base offset of 0
therefore swizzles relative to the 1024 / 512 / 256-byte boundaries; the PTX ISA's base offset
((pattern start >> 7) & 7) re-anchors the pattern at a start off those boundaries (observed).
"""
from __future__ import annotations

from dataclasses import dataclass

from .smem_operand import Addr, GmmaSwizzle, Major

SECTION = "PTX ISA, wgmma: Matrix Descriptor Format; Shared Memory Matrix Layout"
FIELD_MASK = 0x3FFF


@dataclass(frozen=True)
class Descriptor:
    start: int            # byte address (a multiple of 16, below 2^18)
    lbo: int              # bytes
    sbo: int              # bytes
    base_offset: int = 0
    swizzle: GmmaSwizzle = GmmaSwizzle.NONE

    @classmethod
    def decode(cls, word: int) -> "Descriptor":
        return cls(start=(word & FIELD_MASK) << 4, lbo=((word >> 16) & FIELD_MASK) << 4,
                   sbo=((word >> 32) & FIELD_MASK) << 4, base_offset=(word >> 49) & 7,
                   swizzle=GmmaSwizzle((word >> 62) & 3))

    def encode(self) -> int:
        return (((self.start & 0x3FFFF) >> 4) | (((self.lbo >> 4) & FIELD_MASK) << 16)
                | (((self.sbo >> 4) & FIELD_MASK) << 32) | ((self.base_offset & 7) << 49) | (int(self.swizzle) << 62))

    def field_problem(self) -> str | None:
        """Why the fields cannot hold these values (the encoding keeps 14 bits of x >> 4), or None."""
        for name, v in (("start address", self.start), ("leading byte offset", self.lbo),
                        ("stride byte offset", self.sbo)):
            if v % 16:
                return f"the {name} {v} is not a multiple of 16"
            if v >> 4 > FIELD_MASK and name != "start address":
                return f"the {name} {v} does not fit 14 bits of 16-byte units"
        if self.start >= 1 << 18:
            return f"the start address {self.start:#x} is beyond the 256 KiB the field addresses"
        if not 0 <= self.base_offset < 8:
            return f"the base offset must be in 0..7, not {self.base_offset}"
        return None


def unswizzled_offset(d: Descriptor, major: Major, mn: Addr, k: Addr, elem_bytes: int) -> Addr:
    """Byte offset from the start address of element (mn, k) before the swizzle."""
    span = d.swizzle.span
    if major is Major.K:
        kb = k * elem_bytes
        if not span:
            return (mn % 8) * 16 + (mn // 8) * d.sbo + (kb // 16) * d.lbo + kb % 16
        return (mn % 8) * span + (mn // 8) * d.sbo + kb
    mb = mn * elem_bytes
    if not span:
        return mb % 16 + (mb // 16) * d.sbo + (k % 8) * 16 + (k // 8) * d.lbo
    return mb % span + (mb // span) * d.lbo + (k % 8) * span + (k // 8) * d.sbo


def swizzle_address(d: Descriptor, addr: Addr) -> Addr:
    bits = d.swizzle.bits
    if not bits:
        return addr
    # ((addr >> 7) - base) mod 2^B, kept non-negative (B <= 3, base offset < 8) so that it also reads expressions
    phase = ((addr >> 7) + (8 - d.base_offset % 8)) & ((1 << bits) - 1)
    return addr ^ (phase << 4)


def read_address(d: Descriptor, major: Major, mn: Addr, k: Addr, elem_bytes: int, start: Addr | None = None) -> Addr:
    """The absolute shared byte address of the first byte of element (mn, k): A(m,k) or B(n,k).  `start` replaces
    the descriptor's start address (an expression, when the start is quantified over)."""
    begin = d.start if start is None else start
    return swizzle_address(d, begin + unswizzled_offset(d, major, mn, k, elem_bytes))


def operand_reads(d: Descriptor, major: Major, rows: int, cols: int, elem_bytes: int) -> list[tuple[int, int, int]]:
    """(mn, k, address) for every element of a rows x cols (M or N by K) operand, k outer."""
    return [(mn, k, read_address(d, major, mn, k, elem_bytes)) for k in range(cols) for mn in range(rows)]
