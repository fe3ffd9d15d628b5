"""The eight theorems of a check, with stable ids (used by reports, JUnit, SARIF and `--theorem`)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Theorem:
    number: int
    id: str
    title: str
    statement: str


THEOREMS: tuple[Theorem, ...] = (
    Theorem(1, "mma.bijective", "MMA atom well-formed",
            "the operand TV layout is a bijection from (thread, value) onto the operand tile"),
    Theorem(2, "mma.matches_instruction", "MMA atom vs instruction",
            "the operand TV layout equals the instruction's fragment layout from the PTX ISA"),
    Theorem(3, "copy.routing", "Copy routing",
            "S(src) = D(dst) for every (src, dst) pair the instruction routes, in bits and in value units"),
    Theorem(4, "copy.dst_matches_mma", "Register-side agreement",
            "F o right_inverse(R) o D (the copy's register side) equals the MMA operand TV layout, "
            "and right_inverse(R) is a right inverse of R"),
    Theorem(5, "copy.src_matches_dst", "Source agreement",
            "for every hardware route src -> dst, partition_S's coordinate for src equals the one dst holds"),
    Theorem(6, "copy.addressing", "Addressing contract",
            "the addresses partition_S produces satisfy the instruction (contiguous, aligned rows / vectors) "
            "for every allowed base address, swizzle included"),
    Theorem(7, "fragment.aliasing", "Fragment aliasing",
            "retile_D puts each copied value at the register where partition_fragment expects its coordinate, "
            "and both recasts to 32-bit registers are valid"),
    Theorem(8, "end_to_end", "End to end",
            "for every lane and fragment slot, the element the hardware delivers through the addresses of (6) "
            "is smem[layout(coordinate the MMA instruction reads from that slot)]"),
)

BY_ID = {t.id: t for t in THEOREMS}
ATOM_MMA = ("mma.bijective", "mma.matches_instruction")
ATOM_COPY = ("copy.routing",)
ALL = tuple(t.id for t in THEOREMS)
