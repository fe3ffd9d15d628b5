"""CuTe's value types and their widths in bits (sizeof_bits)."""
from __future__ import annotations

TYPE_BITS: dict[str, int] = {
    "uint1_t": 1, "uint1b_t": 1, "bin1_t": 1, "int4b_t": 4, "uint4b_t": 4, "int4_t": 4, "uint4_t": 4,
    "float_e2m1_t": 4, "float_e3m2_t": 6, "float_e2m3_t": 6,
    "int8_t": 8, "uint8_t": 8, "float_e4m3_t": 8, "float_e5m2_t": 8, "float_ue8m0_t": 8, "signed char": 8,
    "unsigned char": 8, "char": 8,
    "half_t": 16, "bfloat16_t": 16, "int16_t": 16, "uint16_t": 16, "short int": 16, "half": 16,
    "float": 32, "tfloat32_t": 32, "int32_t": 32, "uint32_t": 32, "int": 32, "unsigned int": 32,
    "double": 64, "int64_t": 64, "uint64_t": 64, "complex<float>": 64,
    "uint128_t": 128, "complex<double>": 128,
}


def type_bits(name: str | int) -> int:
    """Bits of a CuTe value type name (`half_t`, `cutlass::half_t`), or a bit width given as an int."""
    if isinstance(name, int) and not isinstance(name, bool):
        if name <= 0:
            raise ValueError(f"a bit width must be positive, not {name}")
        return name
    key = str(name).strip()
    for prefix in ("cutlass::", "cute::", "std::"):
        if key.startswith(prefix):
            key = key[len(prefix):]
    if key.startswith("cutlass::"):
        key = key[len("cutlass::"):]
    key = key.replace("cutlass::", "")
    if key.isdigit():
        return type_bits(int(key))
    if key not in TYPE_BITS:
        raise KeyError(f"unknown value type '{name}' (known: {', '.join(sorted(TYPE_BITS))}, or a bit width)")
    return TYPE_BITS[key]
