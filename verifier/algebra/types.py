"""CuTe's value types and their widths in bits (sizeof_bits)."""
from __future__ import annotations

import re

TYPE_BITS: dict[str, int] = {
    "uint1_t": 1, "uint1b_t": 1, "bin1_t": 1, "int4b_t": 4, "uint4b_t": 4, "int4_t": 4, "uint4_t": 4,
    "int2b_t": 2, "uint2b_t": 2,     # cutlass/integer_subbyte.h: the 2-bit integers of SM90's mixed-input GEMMs
    "float_e2m1_t": 4, "float_e3m2_t": 6, "float_e2m3_t": 6,
    # cutlass::detail::float_*_unpacksmem_t: the 4- and 6-bit types of .kind::(mx)f8f6f4, padded to a byte of shared
    # memory each; sizeof_bits is the payload's (cutlass/float_subbyte.h), the byte is SMEM_CONTAINER_BITS
    "float_e2m1_unpacksmem_t": 4, "float_e3m2_unpacksmem_t": 6, "float_e2m3_unpacksmem_t": 6,
    "int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue8m0_t": 8, "float_ue4m3_t": 8,
    "signed char": 8, "unsigned char": 8, "char": 8,
    "half_t": 16, "bfloat16_t": 16, "int16_t": 16, "uint16_t": 16, "short int": 16, "half": 16,
    "float": 32, "tfloat32_t": 32, "int32_t": 32, "uint32_t": 32, "int": 32, "unsigned int": 32,
    "double": 64, "int64_t": 64, "uint64_t": 64, "complex<float>": 64,
    "uint128_t": 128, "complex<double>": 128,
}


# cute::sparse_elem<S, T> (cute/pointer_sparse.hpp): one stored T standing for S logical elements -- a structured-sparse
# MMA's A (sparse_elem<2, half_t>) and its metadata (sparse_elem<8, uint8_t>: one bit a logical element; <4, ...>: two)
SPARSE_ELEM = re.compile(r"^sparse_elem<\s*([1-9]\d{0,2})\s*,\s*([A-Za-z_][A-Za-z_0-9]*)\s*>$")
# cutlass::Array<T, N> as one value: N elements of T (sizeof_bits: N x bits(T)) -- the lookup-table scales of SM90's
# int4 x 8-bit float mixed-input GEMMs (ElementScale = cutlass::Array<float_e4m3_t, 8>: one 8-entry table a value)
ARRAY = re.compile(r"^Array<\s*([A-Za-z_][A-Za-z_0-9]*)\s*,\s*([1-9]\d{0,2})\s*>$")


def type_bits(name: str | int) -> int:
    """Bits of a CuTe value type name (`half_t`, `cutlass::half_t`), or a bit width given as an int."""
    if isinstance(name, int) and not isinstance(name, bool):
        if name <= 0:
            raise ValueError(f"a bit width must be positive, not {name}")
        return name
    key = _bare(str(name))
    if key.isdigit():
        return type_bits(int(key))
    array = array_type(key)
    if array is not None:      # sizeof_bits<Array<T, N>>: N elements of T
        return array[1] * type_bits(array[0])
    sparse = SPARSE_ELEM.match(key)
    if sparse is not None:     # sizeof_bits<sparse_elem<S,T>>: T's bits over the S logical elements it stands for
        return -(-type_bits(sparse.group(2)) // int(sparse.group(1)))
    if key not in TYPE_BITS:
        raise KeyError(f"unknown value type '{name}' (known: {', '.join(sorted(TYPE_BITS))}, or a bit width)")
    return TYPE_BITS[key]


# CuTe value type -> the PTX type qualifier an instruction names for it (mma / wgmma operand types)
PTX_TYPE: dict[str, str] = {
    "half_t": "f16", "half": "f16", "bfloat16_t": "bf16", "tfloat32_t": "tf32", "float": "f32", "double": "f64",
    "int8_t": "s8", "signed char": "s8", "uint8_t": "u8", "unsigned char": "u8", "int32_t": "s32", "int": "s32",
    "uint32_t": "u32", "unsigned int": "u32", "int4b_t": "s4", "int4_t": "s4", "uint4b_t": "u4", "uint4_t": "u4",
    "uint1b_t": "b1", "uint1_t": "b1", "bin1_t": "b1", "float_e4m3_t": "e4m3", "float_e5m2_t": "e5m2",
    "int16_t": "s16", "uint16_t": "u16", "float_e2m3_t": "e2m3", "float_e3m2_t": "e3m2", "float_e2m1_t": "e2m1",
    "float_e2m1_unpacksmem_t": "e2m1", "float_e3m2_unpacksmem_t": "e3m2", "float_e2m3_unpacksmem_t": "e2m3",
    "float_ue8m0_t": "ue8m0", "float_ue4m3_t": "ue4m3",      # block scaling's scale factors
}
# The bits one element takes in shared memory where that is more than its own bits: the unpacksmem types pad each
# 4- or 6-bit element to a byte (the .kind::f8f6f4 / .kind::mxf8f6f4 operands, "packed along with padding": 16
# elements in the first 8 or 12 bytes of a 16-byte slot).
SMEM_CONTAINER_BITS: dict[str, int] = {
    "float_e2m1_unpacksmem_t": 8, "float_e3m2_unpacksmem_t": 8, "float_e2m3_unpacksmem_t": 8,
}
# Same-width types an instruction reads as its own: a float operand of a .tf32 MMA is read as tf32 (the
# tensor core ignores the low mantissa bits), which CUTLASS relies on for float A/B tiles.
PTX_READS_AS: dict[tuple[str, str], str] = {
    ("f32", "tf32"): "a float operand is read as tf32 (the low 13 mantissa bits are ignored)",
}
PTX_TYPE_BITS: dict[str, int] = {
    "f16": 16, "bf16": 16, "tf32": 32, "f32": 32, "f64": 64, "s8": 8, "u8": 8, "s16": 16, "u16": 16, "s32": 32,
    "u32": 32, "s4": 4, "u4": 4, "b1": 1, "e4m3": 8, "e5m2": 8, "e2m3": 6, "e3m2": 6, "e2m1": 4, "ue8m0": 8,
    "ue4m3": 8,
    "b8": 8, "b16": 16, "b32": 32, "b64": 64, "b128": 128,     # untyped bits (a complex value: its width)
}
# an instruction whose types are chosen by a descriptor (tcgen05.mma) takes any one of several: "f16|bf16"
PTX_TYPE_CHOICES = "|"


# namespaces a type name is written without (`cutlass::detail::float_e2m1_unpacksmem_t` is float_e2m1_unpacksmem_t)
NAMESPACES = ("cutlass::", "cute::", "std::", "detail::")


def _bare(name: str) -> str:
    key = str(name).strip()
    for prefix in NAMESPACES:
        key = key.replace(prefix, "")
    return key


def array_type(name: str) -> tuple[str, int] | None:
    """(T, N) of a `cutlass::Array<T, N>` value type, or None for any other name."""
    found = ARRAY.match(_bare(name))
    return (found.group(1), int(found.group(2))) if found is not None else None


def bare_type_name(name: str) -> str:
    """A type name without the namespaces it may be written with (`cutlass::half_t` is half_t)."""
    return _bare(name)


def smem_container_bits(name: str, bits: int) -> int:
    """The bits one element of a value type (CuTe name, `bits` wide) takes in shared memory."""
    return SMEM_CONTAINER_BITS.get(_bare(name), bits)


def ptx_type_of(name: str) -> str | None:
    """The PTX type qualifier of a CuTe value type name, or None (a bit width, an unknown name)."""
    return PTX_TYPE.get(_bare(name))


def instruction_type_agrees(name: str, bits: int, ptx: str) -> tuple[bool, str]:
    """Does a value type (CuTe name or bit width) agree with an instruction's PTX type, or with one of the
    types `f16|bf16` offers?  (verdict, note)"""
    if PTX_TYPE_CHOICES in ptx:
        verdicts = [instruction_type_agrees(name, bits, choice) for choice in ptx.split(PTX_TYPE_CHOICES)]
        return next((v for v in verdicts if v[0]), (False, ""))
    have = ptx_type_of(name)
    if have is None:   # a bare bit width: only the width can be compared
        want = PTX_TYPE_BITS.get(ptx)
        return (want == bits, "compared by width only")
    if have == ptx:
        return True, ""
    note = PTX_READS_AS.get((have, ptx))
    return (note is not None), (note or "")
