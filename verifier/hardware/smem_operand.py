"""What every tensor-core descriptor says of a shared-memory operand, wgmma's and tcgen05.mma's alike: the
operand's major-ness and the swizzle mode, in the codes of the PTX ISA's matrix descriptor (the wgmma
descriptor's 2-bit layout type; tcgen05's descriptor names the same modes, plus its own 32-byte-atom one in
hardware/umma_desc.py).  Neither architecture's descriptor model is imported here."""
from __future__ import annotations

from enum import Enum
from typing import Any

Addr = Any      # an int, or a symbolic expression (verifier.symbolic.expr.Expr) with the same operators



class GmmaSwizzle(int, Enum):
    NONE = 0
    B128 = 1
    B64 = 2
    B32 = 3

    @property
    def span(self) -> int:
        return {GmmaSwizzle.NONE: 0, GmmaSwizzle.B128: 128, GmmaSwizzle.B64: 64, GmmaSwizzle.B32: 32}[self]

    @property
    def bits(self) -> int:
        return {GmmaSwizzle.NONE: 0, GmmaSwizzle.B128: 3, GmmaSwizzle.B64: 2, GmmaSwizzle.B32: 1}[self]

    @property
    def repeat(self) -> int:
        """Bytes after which the swizzle pattern repeats (0: no pattern)."""
        return 8 * self.span

    @property
    def label(self) -> str:
        return f"{self.span}B" if self.span else "none"

    @classmethod
    def named(cls, text: str) -> "GmmaSwizzle":
        key = text.strip().upper().replace("SW", "B").replace("INTERLEAVE", "NONE")
        aliases = {"NONE": cls.NONE, "B128": cls.B128, "128B": cls.B128, "B64": cls.B64, "64B": cls.B64,
                   "B32": cls.B32, "32B": cls.B32}
        if key not in aliases:
            raise ValueError(f"unknown swizzle mode {text!r} (none, 32B, 64B, 128B)")
        return aliases[key]


class Major(str, Enum):
    K = "K"
    MN = "MN"
