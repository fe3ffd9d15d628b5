"""ldmatrix / stmatrix with 8-bit elements (sm_100a): .m16n16 and .m8n16 loads, .m16n8 stores.

Written from the PTX ISA, "Warp-level matrix load instruction: ldmatrix" and "Warp-level matrix store
instruction: stmatrix" (the .m16n16 / .m8n16 / .m16n8 shapes, the .b8, .b8x16.b4x16_p64 and
.b8x16.b6x16_p32 formats and their fragment figures), with "Optional Decompression" (tcgen05) for the
padded sub-byte row formats.  In our words:

- a matrix row in shared memory is 16 bytes at an address one lane provides; the rows of matrix j come
  from consecutive lanes (8 rows per 8x16 / 16x8 matrix, 16 per 16x16 matrix);
- ldmatrix .m16n16 (.trans mandatory, .x1/.x2 only): the 16x16 matrix M of bytes is stored column-major,
  column c being the row at address lane c.  Lane l holds 4 consecutive columns of 2 rows: in its
  registers 2j and 2j+1 byte p is M[l/4][4*(l%4)+p] and M[l/4 + 8][4*(l%4)+p] of matrix j;
- ldmatrix .m8n16 (no .trans): lane l holds columns 4*(l%4) .. 4*(l%4)+3 of row l/4, one per byte of
  register j for matrix j;
- .b4x16_p64 / .b6x16_p32: a memory row is 16 unsigned 4-bit (6-bit) elements packed from bit 0,
  followed by 64 (32) bits of padding; element e is bits w*e .. w*e+w-1 of the row.  Each element is
  delivered in an 8-bit container: the container's low w bits carry it (the unsigned value,
  zero-extended), the 8-w bits above are padding that carries no memory data;
- stmatrix .m16n8 (.trans mandatory): the 16x8 matrix M of bytes is stored column-major, column c being
  the row at address lane 8j + c for matrix j; lane l provides, in register j, bytes e0..e3 (e0 lowest)
  = M[l/4][2*(l%4)], M[l/4][2*(l%4)+1], M[l/4+8][2*(l%4)], M[l/4+8][2*(l%4)+1].

Not hardware-validated: these forms need sm_100a and no Blackwell GPU was available; the fragment
figures were read as described above (tests/test_hw_sm100_matrix.py holds hand-made tables from them).
"""
from __future__ import annotations

import dataclasses
from functools import lru_cache
from typing import Any

from ..symbolic.expr import Expr
from .base import CopyModel

ROW_BYTES = 16
BYTE_BITS = 8
# the padded sub-byte row formats: bits of one element in memory
UNPACK_ELEMENT_BITS = {"b4x16_p64": 4, "b6x16_p32": 6}
# atoms whose copy() regroups the bytes of ldmatrix.m16n16.trans before handing the registers back
# (CUTLASS include/cute/arch/copy_sm100.hpp, SM100_U8x8_LDSM_T / SM100_U8x16_LDSM_T)
CUTE_REGROUPED_LDSM_T = frozenset({"SM100_U8x8_LDSM_T", "SM100_U8x16_LDSM_T"})

M16N16, M8N16, M16N8 = "m16n16", "m8n16", "m16n8"     # the shape qualifiers of these forms
PLAIN_BYTES = "b8"
UNPACKED_BYTES = "b8x16"   # .b8x16.<src_fmt>: 16 elements of a padded row, each in a byte
CUTE_NAMESPACE = "cute::"

_LDSM_SECTION = "PTX ISA, Warp-level matrix load instruction: ldmatrix"
_STSM_SECTION = "PTX ISA, Warp-level matrix store instruction: stmatrix"


def _format_name(src_fmt: str) -> str:
    return f"{UNPACKED_BYTES}.{src_fmt}" if src_fmt else PLAIN_BYTES


def _memory_bit(element: Expr, bit_in_byte: Expr, element_bits: int) -> Expr:
    """Bit of a memory row holding bit `bit_in_byte` of element `element` (8: plain bytes)."""
    # (element, bit) -> bit in row; for the padded formats bits >= element_bits are container padding
    return element_bits * element + bit_in_byte


@lru_cache(maxsize=None)
def ldmatrix_m16n16(num: int, src_fmt: str = "") -> CopyModel:
    """ldmatrix.sync.aligned.m16n16.x{num}.trans.shared.{b8 | b8x16.<src_fmt>}."""
    element_bits = UNPACK_ELEMENT_BITS.get(src_fmt, BYTE_BITS)

    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        register = dst_bit // 32
        matrix, row_half = register // 2, register % 2     # registers 2j, 2j+1 hold matrix j
        byte = (dst_bit % 32) // BYTE_BITS                  # column 4*(lane%4) + byte of M
        row = dst_lane // 4 + 8 * row_half                  # row of M: the byte within the stored row
        # (lane, bit) -> (address lane 16j + column, bit of that 16-byte row)
        address_lane = 16 * matrix + 4 * (dst_lane % 4) + byte
        return address_lane, _memory_bit(row, dst_bit % BYTE_BITS, element_bits)

    def describe(lane: int, bit: int) -> dict[str, Any]:
        register, byte = bit // 32, (bit % 32) // 8
        row, col = lane // 4 + 8 * (register % 2), 4 * (lane % 4) + byte
        return {"matrix": register // 2, "row": row, "column": col, "address lane": 16 * (register // 2) + col,
                "register": register, "byte": byte}

    name = f"ldmatrix.sync.aligned.m16n16.x{num}.trans.shared.{_format_name(src_fmt)}"
    model = CopyModel(name, "ldmatrix", "load", 32, 8 * ROW_BYTES, 64 * num, 32, source_of, describe,
                      row_bytes=ROW_BYTES, align_bytes=16, address_lanes=16 * num,
                      section=f"{_LDSM_SECTION} (.m16n16 fragment figure; Optional Decompression)",
                      data_bits_per_byte=element_bits)
    if num not in (1, 2):
        return dataclasses.replace(model, invalid=f".m16n16 takes .x1 or .x2, not .x{num}")
    return model


@lru_cache(maxsize=None)
def ldmatrix_m8n16(num: int, src_fmt: str) -> CopyModel:
    """ldmatrix.sync.aligned.m8n16.x{num}.shared.b8x16.<src_fmt>: 16 sub-byte elements per row, unpacked."""
    element_bits = UNPACK_ELEMENT_BITS[src_fmt]

    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        matrix = dst_bit // 32                                  # register j holds matrix j
        column = 4 * (dst_lane % 4) + (dst_bit % 32) // BYTE_BITS
        # (lane, bit) -> (address lane 8j + lane/4, bit of element `column` in that row)
        return 8 * matrix + dst_lane // 4, _memory_bit(column, dst_bit % BYTE_BITS, element_bits)

    def describe(lane: int, bit: int) -> dict[str, Any]:
        register, byte = bit // 32, (bit % 32) // 8
        return {"matrix": register, "row": lane // 4, "column": 4 * (lane % 4) + byte,
                "address lane": 8 * register + lane // 4, "register": register, "byte": byte}

    name = f"ldmatrix.sync.aligned.m8n16.x{num}.shared.{_format_name(src_fmt)}"
    return CopyModel(name, "ldmatrix", "load", 32, 8 * ROW_BYTES, 32 * num, 32, source_of, describe,
                     row_bytes=ROW_BYTES, align_bytes=16, address_lanes=8 * num,
                     section=f"{_LDSM_SECTION} (.m8n16 fragment figure; Optional Decompression)",
                     data_bits_per_byte=element_bits)


@lru_cache(maxsize=None)
def stmatrix_m16n8(num: int) -> CopyModel:
    """stmatrix.sync.aligned.m16n8.x{num}.trans.shared.b8."""
    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        matrix, column = dst_lane // 8, dst_lane % 8    # the stored row at lane 8j + c is column c of M
        row = dst_bit // BYTE_BITS                       # row of M: the byte within the stored row
        # (address lane, bit in row) -> (lane holding M[row][column], bit of its register j)
        lane = 4 * (row % 8) + column // 2
        element = 2 * (row // 8) + column % 2            # e0..e3 of the register
        return lane, 32 * matrix + BYTE_BITS * element + dst_bit % BYTE_BITS

    def describe(lane: int, bit: int) -> dict[str, Any]:
        matrix, column, row = lane // 8, lane % 8, bit // 8
        return {"matrix": matrix, "row": row, "column": column, "address lane": lane,
                "source lane": 4 * (row % 8) + column // 2, "register": matrix,
                "element": f"e{2 * (row // 8) + column % 2}"}

    name = f"stmatrix.sync.aligned.m16n8.x{num}.trans.shared.b8"
    return CopyModel(name, "stmatrix", "store", 32, 32 * num, 8 * ROW_BYTES, 8 * num, source_of, describe,
                     row_bytes=ROW_BYTES, align_bytes=16, address_lanes=8 * num,
                     section=f"{_STSM_SECTION} (.m16n8 fragment figure)")


@lru_cache(maxsize=None)
def cute_regrouped_ldmatrix_m16n16(num: int) -> CopyModel:
    """ldmatrix.m16n16.trans.b8 followed by the byte regrouping CuTe's SM100_U8x{8,16}_LDSM_T::copy applies.

    copy() hands back, for matrix j, out[2j + h] = {raw[2j].byte(2h), raw[2j].byte(2h+1),
    raw[2j+1].byte(2h), raw[2j+1].byte(2h+1)} (low byte first), so that its registers line up with
    stmatrix.m16n8's.  That step is part of the atom (its Op's code), not of the instruction.
    """
    raw = ldmatrix_m16n16(num, "")

    def source_of(dst_lane: Expr, dst_bit: Expr) -> tuple[Expr, Expr]:
        register, byte = dst_bit // 32, (dst_bit % 32) // BYTE_BITS
        matrix, half = register // 2, register % 2
        # (lane, out register 2j+h, byte k) -> (lane, raw register 2j + k/2, byte 2h + k%2)
        raw_bit = 32 * (2 * matrix + byte // 2) + BYTE_BITS * (2 * half + byte % 2) + dst_bit % BYTE_BITS
        return raw.source_of(dst_lane, raw_bit)

    def describe(lane: int, bit: int) -> dict[str, Any]:
        register, byte = bit // 32, (bit % 32) // 8
        raw_register, raw_byte = 2 * (register // 2) + byte // 2, 2 * (register % 2) + byte % 2
        return {**raw.describe(lane, 32 * raw_register + 8 * raw_byte + bit % 8),
                "atom register": register, "atom byte": byte}

    return dataclasses.replace(raw, instruction=f"{raw.instruction} (+ CuTe's byte regrouping)",
                               source_of=source_of, describe=describe,
                               section=f"{raw.section}; CUTLASS cute/arch/copy_sm100.hpp (the atom's copy())")


def parse_8bit_form(load: bool, shape_and_format: frozenset[str]) -> tuple[str, str] | None:
    """(shape, src_fmt) of an ldmatrix (`load`) / stmatrix whose shape and element format qualifiers are
    `shape_and_format` (matrix_copy.parse_matrix_copy has taken .sync.aligned, .trans, .shared and .num off):
    stmatrix .m16n8.b8, ldmatrix .m16n16.{b8 | b8x16.<src_fmt>}, ldmatrix .m8n16.b8x16.<src_fmt>; else None.
    `src_fmt` is "" for plain bytes.  A missing or extra .trans is the model's business (it says why)."""
    if not load and shape_and_format == {M16N8, PLAIN_BYTES}:
        return M16N8, ""
    unpack = sorted(shape_and_format & set(UNPACK_ELEMENT_BITS))
    if not load or len(unpack) > 1:
        return None
    src_fmt = unpack[0] if unpack else ""
    element_format = {UNPACKED_BYTES, src_fmt} if src_fmt else {PLAIN_BYTES}
    if shape_and_format == {M16N16} | element_format:
        return M16N16, src_fmt
    if shape_and_format == {M8N16} | element_format and src_fmt:
        return M8N16, src_fmt
    return None


def model_of_8bit_form(shape: str, num: int, trans: bool, src_fmt: str, atom_name: str) -> CopyModel:
    """The model of a form parse_8bit_form gave; `atom_name` says whether CuTe's atom regroups the bytes."""
    if shape == M16N8:
        model = stmatrix_m16n8(num)
        return model if trans else dataclasses.replace(model, invalid=".m16n8 requires .trans")
    if shape == M16N16:
        atom = atom_name.strip().removeprefix(CUTE_NAMESPACE)
        if not src_fmt and atom in CUTE_REGROUPED_LDSM_T:
            model = cute_regrouped_ldmatrix_m16n16(num)
        else:
            model = ldmatrix_m16n16(num, src_fmt)
        return model if trans else dataclasses.replace(model, invalid=".m16n16 requires .trans")
    if shape == M8N16:
        model = ldmatrix_m8n16(num, src_fmt)
        return dataclasses.replace(model, invalid=".m8n16 has no .trans") if trans else model
    raise ValueError(f"{shape} is not an sm_100a ldmatrix / stmatrix shape")
