"""Documented findings: atoms whose CuTe traits disagree with their instruction (or are no instruction at all).

Written once, as data: the catalog (specs/catalog/atoms_*.yaml) and `import-cutlass` both give these atoms' checks
`expect: fail` with this text as their description, so that every other atom stays gated.
"""
from __future__ import annotations

KNOWN_FINDINGS: dict[str, str] = {
    "SM80_CP_ASYNC_CACHEGLOBAL<uint32_t>": (
        "NOT AN INSTRUCTION: cp.async.cg copies 16 bytes only (PTX ISA, cp.async: .cg requires cp-size 16); CuTe "
        "prints these traits, and the Op's own static_assert(sizeof(TS) == 16) refuses them the moment they are "
        "used to copy 4-byte elements."),
    "SM80_CP_ASYNC_CACHEGLOBAL<uint64_t>": (
        "NOT AN INSTRUCTION: cp.async.cg copies 16 bytes only (PTX ISA, cp.async: .cg requires cp-size 16); CuTe "
        "prints these traits, and the Op's own static_assert(sizeof(TS) == 16) refuses them the moment they are "
        "used to copy 8-byte elements."),
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint32_t>": (
        "NOT AN INSTRUCTION: cp.async.cg copies 16 bytes only (PTX ISA, cp.async: .cg requires cp-size 16); CuTe "
        "prints these traits, and the Op's own static_assert(sizeof(TS) == 16) refuses them the moment they are "
        "used to copy 4-byte elements."),
    "SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint64_t>": (
        "NOT AN INSTRUCTION: cp.async.cg copies 16 bytes only (PTX ISA, cp.async: .cg requires cp-size 16); CuTe "
        "prints these traits, and the Op's own static_assert(sizeof(TS) == 16) refuses them the moment they are "
        "used to copy 8-byte elements."),
    "SM61_DP2A": (
        "NOT AN INSTRUCTION: the Op's asm is dp2a.s32.s32, with no .lo or .hi (which two bytes of b it multiplies); "
        "the PTX ISA requires the mode and ptxas rejects it (\"'.hi/.lo' modifier required for instruction "
        "'dp2a'\", observed with CUDA 13.0). Its traits also call B int16_t, where dp2a's B elements are bytes."),
    "SM75_U32x1_MOVM_T": (
        "FINDING: CuTe's Copy_Traits<SM75_U32x1_MOVM_T> give SrcLayout = DstLayout = (32,32):(32,1), an "
        "identity copy, but movmatrix.sync.aligned.m8n8.trans.b16 transposes the 8x8 matrix across lanes "
        "(lane 4r+c/2's half c%2 goes to lane 4c+r/2, half r%2). A copy built from this atom moves nothing "
        "where the instruction moves 56 of the 64 halves; CUTLASS's only test (test/unit/cute/turing/movm.cu) "
        "applies it twice, which hides the transpose."),
}

def _unpacking_ldsm(name: str, element_bits: int, padding_bits: int) -> tuple[str, str]:
    fmt = f"b{element_bits}x16_p{padding_bits}"
    return name, (
        f"FINDING: CuTe's Copy_Traits<{name}> say byte k of a lane's register comes from byte 4*(lane%4)+k of the "
        f"16-byte row its address lane names, as if the row held 16 bytes; ldmatrix...m8n16...b8x16.{fmt} reads a "
        f"row of 16 packed {element_bits}-bit elements (element e at bits {element_bits}e.. of the row, then "
        f"{padding_bits} bits of padding) and widens each into its byte (PTX ISA, ldmatrix: .b8x16.{fmt}; "
        "Optional Decompression). The rows each lane reads agree: the traits count a padded row as 16 8-bit "
        "slots, CuTe's convention for smem tiles of sub-byte types kept unpacked, not the bits the instruction "
        "reads (not hardware-validated: sm_100a only).")


KNOWN_FINDINGS.update(dict(
    _unpacking_ldsm(f"SM100_{src}_DU8x16_x{num}_LDSM_N", bits, pad)
    for src, bits, pad in (("SU4", 4, 64), ("SU6", 6, 32)) for num in (1, 2, 4)))


def _mxf4_pair_ue4m3_block32(m: int, n: int) -> tuple[str, str]:
    name = f"SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,{m},{n},32>"
    return name, (
        "FINDING: CuTe builds MMA_Traits<SM100_MMA_MXF4_2x1SM_SS<...,float_ue4m3_t,...,VS=32>> (the 1-SM traits' "
        "static_assert requires float_ue8m0_t for VS = 32, the CTA-pair traits have none), and the Op issues "
        "tcgen05.mma.cta_group::2.kind::mxf4.block_scale.block32, whose scale factors are .ue8m0 only (PTX ISA, "
        "Block Scaling for tcgen05.mma: .kind::mxf4 takes .scale_vec::2X with .ue8m0; .ue4m3 is .kind::mxf4nvf4's); "
        "make_instr_desc_block_scaled writes UE4M3 (0) into bit 23, which the .kind::mxf4 instruction descriptor does "
        "not define. CUTLASS's collective builder never picks it (its Mxf4 schedules require ue8m0).")


KNOWN_FINDINGS.update(dict(_mxf4_pair_ue4m3_block32(m, n) for m in (128, 256) for n in range(16, 257, 16)))
