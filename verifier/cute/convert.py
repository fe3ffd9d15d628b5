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
ScaleOnly mode only): not a conversion of its own, and not listed there (LOOKUP_TABLE_CONVERSIONS, below).
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


# --- lookup_table_convert: int4b_t to an 8-bit float through a table of the scales --------------------------------
# Not a conversion of its own: CUTLASS's ScaleOnly kernels whose scale is `cutlass::Array<Wide, 8>`
# (UseScaleLookupTable, sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp) convert a k-block of int4b_t A chunk by
# chunk with lookup_table_convert (mixed_input_utils.hpp): the chunk's source is one 32-bit register of 8 nibbles
# (recast<uint32_t>), its destination N / 4 32-bit registers of 4 bytes each (recast of the chunk to an array of
# uint32_t); byte j of destination register i is made from nibble 4i + j of the source (prmt with the nibbles as byte
# selectors, `lut_idx >>= 16` a register), taken from entry (nibble & 7) of the negative or positive table by the
# nibble's sign bit.  (PTX ISA, prmt, generic form: the 8 bytes {b, a}, b's the upper 4; for each destination byte a
# 4-bit selector whose 3 low bits pick one of them, its high bit asking for the byte's sign replicated instead -- clear
# here: the nibble is masked with 7 for the table's entry, and the sign picks between the two tables through a selector
# 4 s + j.)  So the value at position p of the chunk's source lands at position p of its destination:
# element e from element e when the load buffer and the fragment share their layout (tCrA_load =
# make_fragment_like<Narrow>(tCrA_mma)); the table is the one of destination register p / 4.  Only the lookup-table
# mode converts this way; register_conversion does not list these pairs.

LOOKUP_TABLE_SOURCE = ("cutlass/detail/collective/mixed_input_utils.hpp (lookup_table_convert: byte j of output "
                       "register i from nibble 4i + j of the source register, through the table of register i; "
                       "ScaleOnly with Array<Wide, 8> scales only)")
LOOKUP_TABLE_NARROW = "int4b_t"      # "Lookup table only supports int4 being the quant type now."
LOOKUP_TABLE_WIDE = ("float_e4m3_t", "float_e5m2_t")    # bytes picked from the table: 8-bit MMA types
LOOKUP_TABLE_ENTRIES = 8             # "Lookup table only supports 8 8bit scale values now." (Array<Wide, 8>)
LOOKUP_TABLE_SOURCE_BITS = 32        # one source register a chunk (recast<uint32_t>(src)(0)): NumValPerSrcReg's 32
LOOKUP_TABLE_VALUES_PER_REGISTER = 4   # destination bytes (values) of one output register: one table each
LOOKUP_TABLE_CONVERSIONS: dict[tuple[str, str], str] = {
    (LOOKUP_TABLE_NARROW, wide): LOOKUP_TABLE_SOURCE for wide in LOOKUP_TABLE_WIDE}


def lookup_table_conversion(source: str, target: str) -> str | None:
    """Where CUTLASS's lookup-table mode converts a `source` element to `target` keeping its place; None: the mode
    does not convert that pair."""
    return LOOKUP_TABLE_CONVERSIONS.get((bare_type_name(source), bare_type_name(target)))


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
    from; None where no source element is (bits shifted in from beyond the 32-bit source register).  `refusal`:
    the generic converter's static_assert the chunk's layouts fail (it does not compile), else None."""
    name: str
    writes: tuple[tuple[int, int | None], ...]     # (destination position, source position)
    refusal: str | None = None

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


# the generic LayoutAwareConvertImpl's static_asserts (mixed_input_utils.hpp; they carry no message: the condition)
GENERIC_COSIZE_RULE = "static_assert(cosize_v<LayoutIn> == cosize_v<LayoutOut>) (LayoutAwareConvertImpl)"
GENERIC_COMPACT_RULE = "static_assert(size_v<LayoutIn> == cosize_v<LayoutIn>) (LayoutAwareConvertImpl)"
# dequantize_A_kblock's, on the register buffer the copy fills
CONTIGUOUS_SRC_RULE = "The first mode of tensor src must be contiguous in memory"


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
    name = (f"LayoutAwareConvertImpl<{key[0]}, {key[1]}, {key[2]}, {key[3]}> (generic: NumericArrayConverter, "
            "element j to element j)")
    src_cosize, dst_cosize = int(src_layout.cosize()), int(dst_layout.cosize())
    refusal = None
    if src_cosize != dst_cosize:
        refusal = GENERIC_COSIZE_RULE
    elif n != src_cosize or int(dst_layout.size()) != dst_cosize:
        refusal = GENERIC_COMPACT_RULE
    return ChunkConverter(name, tuple((int(dst_layout(j)), int(src_layout(j))) for j in range(n)), refusal)
