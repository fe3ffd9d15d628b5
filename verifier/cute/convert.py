"""Conversions in registers between a copy and an MMA: which narrow operand types CUTLASS converts, element by
element, to the type an MMA reads, as data.

CUTLASS's SM90 mixed-input mainloop (`sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp` with
`cutlass/detail/collective/mixed_input_utils.hpp`) loads the narrow operand from shared memory into a register
buffer of its own type laid out like the MMA's fragment (`make_fragment_like<Narrow>(tCrA_mma)`), then
`dequantize_A_kblock` converts it into the fragment: `LayoutAwareConvert` of equally laid-out chunks, whose generic
`LayoutAwareConvertImpl` is `NumericArrayConverter<Wide, Narrow, N>` on the chunk recast to arrays — element j of the
output from element j of the input.  The conversion keeps each value's place: the register that held the element of
(m, k) holds its converted value.  The builder (`sm90_gmma_builder.inl`, `RealElementAMma = RealElementB`) converts
the narrow A to B's type; the generator (`generator.py`, `GenerateSM90_TensorOp_mixed_dtype_WGMMA_gemm`) emits the
pairs below.  `int4b_t` to an 8-bit float goes through a lookup table built from the scales (`lookup_table_convert`,
ScaleOnly mode only): not a conversion of its own, and not listed.
"""
from __future__ import annotations

from ..algebra.types import bare_type_name

MIXED_INPUT_SOURCE = ("cutlass/detail/collective/mixed_input_utils.hpp (dequantize_A_kblock, LayoutAwareConvert: "
                      "NumericArrayConverter element by element)")
# the narrow types the SM90 mixed-input GEMMs convert, and the 16-bit types the RS wgmma then reads
MIXED_INPUT_NARROW = ("int8_t", "uint8_t", "float_e4m3_t", "float_e5m2_t", "int4b_t", "uint4b_t", "int2b_t",
                      "uint2b_t")
MIXED_INPUT_WIDE = ("half_t", "bfloat16_t")
# (the shared tile's type, the MMA operand's type) -> where the conversion is made
REGISTER_CONVERSIONS: dict[tuple[str, str], str] = {
    (narrow, wide): MIXED_INPUT_SOURCE for narrow in MIXED_INPUT_NARROW for wide in MIXED_INPUT_WIDE}


def register_conversion(source: str, target: str) -> str | None:
    """Where CUTLASS converts a `source` element to `target` in registers, keeping its place; None: no such
    conversion is modelled."""
    return REGISTER_CONVERSIONS.get((bare_type_name(source), bare_type_name(target)))
