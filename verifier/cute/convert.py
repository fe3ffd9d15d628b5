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

from dataclasses import dataclass

from ..algebra.layout import Layout
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


# --- LayoutAwareConvertImpl: which source element each destination register of a chunk receives ----------------
# dequantize_A_kblock converts a k-block chunk by chunk; LayoutAwareConvert coalesces the chunk's source (the load
# buffer) and destination (the fragment) and picks LayoutAwareConvertImpl<Src, Dst, SrcLayout, DstLayout>.  The
# generic one converts element j of the source into element j of the destination (NumericArrayConverter on arrays
# of their max_common_vector).  The specializations for the value-shuffled layouts read the 32-bit source register
# with shifts and masks: what follows is which source position (a nibble or byte of that register) each
# destination element (a half of one of the 32-bit registers they write) is made from -- read off the code
# (mixed_input_utils.hpp), not its arithmetic.

LAYOUT_AWARE_SOURCE = "cutlass/detail/collective/mixed_input_utils.hpp (LayoutAwareConvertImpl)"
SHUFFLED_4BIT, SHUFFLED_8BIT = "(2,4):(4,1)", "(2,2):(2,1)"      # the chunk layouts of the _shfl value orders
CONTIGUOUS_8, CONTIGUOUS_4 = "8:1", "4:1"
WIDE_REGISTERS = 4             # the specializations' RegArray: AlignedArray<uint32_t, 4> (8 destination halves)


@dataclass(frozen=True)
class ChunkConverter:
    """What one LayoutAwareConvertImpl writes: for each destination element it writes (relative to the chunk's
    first destination register), the source position (relative to the chunk's first source register) it is made
    from; None where no source element is (bits shifted in from beyond the 32-bit source register)."""
    name: str
    writes: tuple[tuple[int, int | None], ...]     # (destination position, source position)

    def written(self) -> list[int]:
        return [d for d, _ in self.writes]


def _nibble_pairs() -> tuple[tuple[int, int | None], ...]:
    """[02461357] (4-bit): register ii of the destination takes nibble ii (low half) and nibble ii + 4 (high half)
    -- the f16 form does two registers a step from nibbles ii, ii + 4 and ii + 1, ii + 5: the same pairs."""
    return tuple(p for j in range(WIDE_REGISTERS) for p in ((2 * j, j), (2 * j + 1, j + 4)))


def _byte_pairs() -> tuple[tuple[int, int | None], ...]:
    """[3120] (8-bit): register ii of RegArray (four of them) takes byte ii (low half) and byte ii + 2 (high half)
    of the 32-bit source; bytes 4 and 5 are past it (shifted-in zeros)."""
    def byte(b: int) -> int | None:
        return b if b < 4 else None
    return tuple(p for j in range(WIDE_REGISTERS) for p in ((2 * j, byte(j)), (2 * j + 1, byte(j + 2))))


SPECIALIZED: dict[tuple[str, str, str, str], tuple[str, tuple[tuple[int, int | None], ...]]] = {
    **{(n, w, SHUFFLED_4BIT, CONTIGUOUS_8): (f"LayoutAwareConvertImpl<{n}, {w}, {SHUFFLED_4BIT}, {CONTIGUOUS_8}>",
                                             _nibble_pairs())
       for n in ("int4b_t", "uint4b_t") for w in ("half_t", "bfloat16_t")},
    **{("int8_t", w, SHUFFLED_8BIT, CONTIGUOUS_4): (f"LayoutAwareConvertImpl<int8_t, {w}, {SHUFFLED_8BIT}, "
                                                    f"{CONTIGUOUS_4}>", _byte_pairs())
       for w in ("half_t", "bfloat16_t")}}


def layout_aware_converter(source: str, target: str, src_layout: Layout, dst_layout: Layout) -> ChunkConverter:
    """The converter LayoutAwareConvert picks for a chunk of `source` elements laid out `src_layout` (coalesced) into
    `target` elements laid out `dst_layout`, and what it writes."""
    key = (bare_type_name(source), bare_type_name(target), src_layout.plain(), dst_layout.plain())
    if key in SPECIALIZED:
        name, writes = SPECIALIZED[key]
        return ChunkConverter(name, writes)
    n = int(src_layout.size())
    return ChunkConverter(f"LayoutAwareConvertImpl<{key[0]}, {key[1]}, {key[2]}, {key[3]}> (generic: "
                          "NumericArrayConverter, element j to element j)",
                          tuple((int(dst_layout(j)), int(src_layout(j))) for j in range(n)))
