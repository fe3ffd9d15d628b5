"""Which types and values a templated MMA_Traits / Copy_Traits is imported for (data, not logic).

A parameter the atom's layouts and value types do not mention (GMMA's and UMMA's Major and ScaleIn, UMMA's
Saturate, the alignment of AutoVectorizingCopy) is not instantiated at all: the atom is imported once under
the template's name, or, when other parameters are instantiated, named without it.
The others are instantiated with the types and values CuTe's atoms are commonly used with:
"""
from __future__ import annotations

# class parameters of an MMA Op, per template name: one tuple of types per instance
MMA_CLASS_ARGS: dict[str, list[tuple[str, ...]]] = {
    "UniversalFMA": [("float", "float", "float", "float"), ("half_t", "half_t", "half_t", "half_t"),
                     ("double", "double", "double", "double"), ("int32_t", "int8_t", "int8_t", "int32_t")],
}

# int parameters of an MMA Op, per template name and parameter name: the values each instance takes (every
# combination with the class parameters' tuples); instances the Op's own static_asserts refuse are reported
# as not instantiated
MMA_INT_ARGS: dict[str, dict[str, list[int]]] = {}

# SM100 UMMA (tcgen05.mma, include/cute/arch/mma_sm100_umma.hpp): the dense families, A from shared memory
# (_SS) or tensor memory (_TS), one CTA or a CTA pair (_2x1SM_).  (a_type, b_type, c_type) per family:
UMMA_TYPES: dict[str, list[tuple[str, str, str]]] = {
    "TF32": [("tfloat32_t", "tfloat32_t", "float")],
    "F16BF16": [("half_t", "half_t", "float"), ("half_t", "half_t", "half_t"), ("bfloat16_t", "bfloat16_t", "float")],
    "S8": [("int8_t", "int8_t", "int32_t"), ("uint8_t", "uint8_t", "int32_t")],
    "F8F6F4": [("float_e4m3_t", "float_e4m3_t", "float"), ("float_e5m2_t", "float_e5m2_t", "float"),
               ("float_e4m3_t", "float_e5m2_t", "float")],
}
UMMA_M_ONE_CTA = [64, 128]
UMMA_M_CTA_PAIR = [128, 256]
# N: the smallest the Op allows, then 64, 128, 256 (the A-in-TMEM forms and the CTA-pair forms start higher;
# _TS with M = 128 needs N % 16 == 0, so its N = 8 instances are reported as refused by the Op)
UMMA_N: dict[str, list[int]] = {
    "SM100_MMA_TF32_SS": [8, 64, 128, 256],
    "SM100_MMA_TF32_TS": [8, 16, 64, 128, 256],
    "SM100_MMA_TF32_2x1SM_SS": [16, 64, 128, 256],
    "SM100_MMA_TF32_2x1SM_TS": [32, 64, 128, 256],
    "SM100_MMA_F16BF16_SS": [8, 64, 128, 256],
    "SM100_MMA_F16BF16_TS": [8, 16, 64, 128, 256],
    "SM100_MMA_F16BF16_2x1SM_SS": [16, 64, 128, 256],
    "SM100_MMA_F16BF16_2x1SM_TS": [32, 64, 128, 256],
    "SM100_MMA_S8_SS": [8, 64, 128, 256],
    "SM100_MMA_S8_TS": [8, 64, 128, 256],
    "SM100_MMA_S8_2x1SM_SS": [32, 64, 128, 256],
    "SM100_MMA_S8_2x1SM_TS": [32, 64, 128, 256],
    "SM100_MMA_F8F6F4_SS": [8, 64, 128, 256],
    "SM100_MMA_F8F6F4_TS": [8, 16, 64, 128, 256],
    "SM100_MMA_F8F6F4_2x1SM_SS": [16, 64, 128, 256],
    "SM100_MMA_F8F6F4_2x1SM_TS": [32, 64, 128, 256],
    # the _SCALED forms: tcgen05.mma's `scale-input-d` operand (.kind::f16 and .kind::tf32 only), D = A*B + D *
    # 2^-ScaleC (PTX ISA, tcgen05.mma); the fragments are those of the unscaled form, and ScaleC, which no layout
    # names, is not instantiated
    "SM100_MMA_TF32_SS_SCALED": [8, 64, 128, 256],
    "SM100_MMA_TF32_TS_SCALED": [8, 16, 64, 128, 256],
    "SM100_MMA_TF32_2x1SM_SS_SCALED": [16, 64, 128, 256],
    "SM100_MMA_TF32_2x1SM_TS_SCALED": [32, 64, 128, 256],
    "SM100_MMA_F16BF16_SS_SCALED": [8, 64, 128, 256],
    "SM100_MMA_F16BF16_TS_SCALED": [8, 16, 64, 128, 256],
    "SM100_MMA_F16BF16_2x1SM_SS_SCALED": [16, 64, 128, 256],
    "SM100_MMA_F16BF16_2x1SM_TS_SCALED": [32, 64, 128, 256],
}
UMMA_CTA_PAIR_MARK = "_2x1SM_"
# SM100 structured-sparse UMMA (tcgen05.mma.sp: MMA_Traits<SM100_MMA_*_SS_SPARSE<...>, sparse_args...>, imported with
# the pack empty as MMA_Atom<Op> has it): the dense SS families' types, M and N (K is the traits', 512 / bits(A))
UMMA_SPARSE_SUFFIX = "_SPARSE"
for _dense in [t for t in UMMA_N if t.endswith("_SS")]:
    UMMA_N[_dense + UMMA_SPARSE_SUFFIX] = list(UMMA_N[_dense])

# SM100 block-scaled UMMA (tcgen05.mma ... .block_scale): (a_type, b_type, c_type, sf_type) per family.  MXF8F6F4
# mixes 8-, 6- and 4-bit A and B (the 6- and 4-bit ones as the collective builder passes them, padded to a byte
# of shared memory each: cutlass::detail::float_*_unpacksmem_t) with ue8m0 scale factors; MXF4 takes packed e2m1
# with ue8m0 or ue4m3 scale factors, its VS (16: kind::mxf4nvf4 .block16, 32: kind::mxf4 .block32) an int
# parameter -- VS = 32 with ue4m3 is refused by the traits' own static_assert, reported as not instantiated
UMMA_BLOCK_SCALED_TYPES: dict[str, list[tuple[str, str, str, str]]] = {
    "MXF8F6F4": [("float_e4m3_t", "float_e4m3_t", "float", "float_ue8m0_t"),
                 ("float_e5m2_t", "float_e5m2_t", "float", "float_ue8m0_t"),
                 ("float_e4m3_t", "float_e5m2_t", "float", "float_ue8m0_t"),
                 ("float_e2m3_unpacksmem_t", "float_e2m3_unpacksmem_t", "float", "float_ue8m0_t"),
                 ("float_e3m2_unpacksmem_t", "float_e3m2_unpacksmem_t", "float", "float_ue8m0_t"),
                 ("float_e2m1_unpacksmem_t", "float_e2m1_unpacksmem_t", "float", "float_ue8m0_t"),
                 ("float_e2m1_unpacksmem_t", "float_e4m3_t", "float", "float_ue8m0_t")],
    "MXF4": [("float_e2m1_t", "float_e2m1_t", "float", "float_ue8m0_t"),
             ("float_e2m1_t", "float_e2m1_t", "float", "float_ue4m3_t")],
}
UMMA_BLOCK_SCALED_VS = [16, 32]
# the block-scaled structured-sparse families (tcgen05.mma.sp ... .block_scale:
# MMA_Traits<SM100_MMA_MXF*_SS_SPARSE<...>, sparse_args...>, imported with the pack empty as MMA_Atom<Op> has it):
# MXF8F6F4's types and MXF4NVF4's (VS = 32 issues .kind::mxf4nvf4 .block16, VS = 64 .kind::mxf4 .block32: K = 128,
# so 32 and 64 logical elements a factor); M: the CTA pair's sparse rows of Table 39 are 256xNxK only (the MXF8F6F4
# pair's Op asserts M == 256, the MXF4NVF4 pair's Op asserts nothing on M)
UMMA_BLOCK_SCALED_TYPES["MXF4NVF4"] = UMMA_BLOCK_SCALED_TYPES["MXF4"]
UMMA_BLOCK_SCALED_SPARSE_VS = [32, 64]
UMMA_SPARSE_M_CTA_PAIR = [256]
# sm_103a's "ULTRA" block-scaled atoms (SM103::SM103_MXF4_ULTRA_SS_VS, _2x1SM_SS_VS: tcgen05.mma .kind::mxf4nvf4 with
# the instruction descriptor's K = 96): MXF4's types and VS, N from 16 (both Ops assert N % 16 == 0)
UMMA_ULTRA_FAMILY = "MXF4"
# N: the smallest the Op allows, then the collective builder's 64, 128, 192, 256; M: as the dense families (the
# Ops refuse M = 64, and M = 128 for MXF8F6F4's CTA pair, which Table 39 allows: reported as not instantiated)
UMMA_BLOCK_SCALED_N: dict[str, list[int]] = {
    "SM100_MMA_MXF8F6F4_SS": [8, 64, 128, 192, 256],
    "SM100_MMA_MXF8F6F4_2x1SM_SS": [16, 64, 128, 192, 256],
    "SM100_MMA_MXF4_SS": [8, 64, 128, 192, 256],
    "SM100_MMA_MXF4_2x1SM_SS": [16, 64, 128, 192, 256],
    "SM100_MMA_MXF8F6F4_SS_SPARSE": [8, 64, 128, 192, 256],
    "SM100_MMA_MXF8F6F4_2x1SM_SS_SPARSE": [16, 64, 128, 192, 256],
    "SM100_MMA_MXF4NVF4_SS_SPARSE": [8, 64, 128, 192, 256],
    "SM100_MMA_MXF4NVF4_2x1SM_SS_SPARSE": [16, 64, 128, 192, 256],
    "SM103_MXF4_ULTRA_SS_VS": [16, 64, 128, 192, 256],
    "SM103_MXF4_ULTRA_2x1SM_SS_VS": [16, 64, 128, 192, 256],
}


def _umma_family(template: str) -> str:
    """SM100_MMA_F16BF16_2x1SM_SS -> F16BF16; SM103_MXF4_ULTRA_SS_VS -> MXF4."""
    if template.startswith("SM103_MXF4_ULTRA"):
        return UMMA_ULTRA_FAMILY
    return template[len("SM100_MMA_"):].split("_")[0]


for _template, _n_values in UMMA_N.items():
    MMA_CLASS_ARGS[_template] = list(UMMA_TYPES[_umma_family(_template)])
    MMA_INT_ARGS[_template] = {"M": UMMA_M_CTA_PAIR if UMMA_CTA_PAIR_MARK in _template else UMMA_M_ONE_CTA,
                               "N": _n_values}
for _template, _n_values in UMMA_BLOCK_SCALED_N.items():
    _sparse = _template.endswith(UMMA_SPARSE_SUFFIX)
    _pair = UMMA_CTA_PAIR_MARK in _template
    MMA_CLASS_ARGS[_template] = list(UMMA_BLOCK_SCALED_TYPES[_umma_family(_template)])
    MMA_INT_ARGS[_template] = {"M": (UMMA_SPARSE_M_CTA_PAIR if _sparse else UMMA_M_CTA_PAIR) if _pair
                               else UMMA_M_ONE_CTA, "N": _n_values}
    if _umma_family(_template) in ("MXF4", "MXF4NVF4"):
        MMA_INT_ARGS[_template]["VS"] = UMMA_BLOCK_SCALED_SPARSE_VS if _sparse else UMMA_BLOCK_SCALED_VS

# sm_120a's SM120_16x8x32_TN<a_type, b_type, c_type> (mma.sync.aligned.kind::f8f6f4.m16n8k32): its explicit
# specialisations, each with its own asm -- A and B each of the five .kind::f8f6f4 types, C float or half_t (the
# traits name c_type only; ValTypeA / ValTypeB are uint8_t whatever the types)
SM120_F8F6F4_TYPES = ["float_e2m1_t", "float_e3m2_t", "float_e2m3_t", "float_e4m3_t", "float_e5m2_t"]
SM120_F8F6F4_C_TYPES = ["float", "half_t"]
MMA_CLASS_ARGS["SM120_16x8x32_TN"] = [(a, b, c) for c in SM120_F8F6F4_C_TYPES for a in SM120_F8F6F4_TYPES
                                      for b in SM120_F8F6F4_TYPES]

# class parameters of a copy Op (the register / vector type it moves): each is tried, and those the Op's
# own static_asserts refuse (cp.async.cg moves 16 bytes only) are reported as not instantiated
COPY_CLASS_ARGS: list[str] = ["uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint128_t"]

# members that define an atom; a template parameter none of them mentions does not change the atom
MMA_MEMBERS = ("ValTypeD", "ValTypeA", "ValTypeB", "ValTypeC", "Shape_MNK", "ThrID", "ALayout", "BLayout",
               "CLayout", "ValTypeSFA", "ValTypeSFB", "SFVecSize")   # block scaling: its scale factors and VS
COPY_MEMBERS = ("ThrID", "SrcLayout", "DstLayout", "RefLayout")
