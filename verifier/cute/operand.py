"""The three operands of an MMA and the modes of (M, N, K) that span each operand's tile: written once."""
from __future__ import annotations

from enum import Enum
from typing import TypeVar

T = TypeVar("T")


class Operand(str, Enum):
    A = "A"    # M x K
    B = "B"    # N x K
    C = "C"    # M x N (the accumulator, D)

    @property
    def modes(self) -> tuple[int, int]:
        """The modes of (M, N, K) that are the operand tile's rows and columns."""
        return _MODES[self]

    @property
    def axes(self) -> tuple[str, str]:
        """Names of the tile's row and column coordinates: ('m', 'k') for A."""
        return _AXES[self]

    def pick(self, mnk: tuple[T, T, T]) -> tuple[T, T]:
        """The operand's two entries of an (M, N, K) triple: (m, k) for A, (n, k) for B, (m, n) for C."""
        i, j = self.modes
        return mnk[i], mnk[j]

    @classmethod
    def of(cls, name: str) -> "Operand":
        """A, B, C (any case); D is C's other name (the accumulator the instruction writes)."""
        key = name.upper()
        return cls.C if key == "D" else cls(key)


_MODES = {Operand.A: (0, 2), Operand.B: (1, 2), Operand.C: (0, 1)}
_AXES = {Operand.A: ("m", "k"), Operand.B: ("n", "k"), Operand.C: ("m", "n")}
OPERANDS = tuple(Operand)
