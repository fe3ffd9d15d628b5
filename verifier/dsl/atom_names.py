"""The CuTe DSL's atom types named as CuTe's C++ atoms (the atom library's names), written once as data.

    !cute_nvgpu.atom.ldsm<val_type = f16, ..., num_matrices = 4, n>     SM75_U32x4_LDSM_N
    !cute_nvgpu.atom.ldsm<..., num_matrices = 4, t>                     SM75_U16x8_LDSM_T
    !cute_nvgpu.atom.stsm<f16, ..., num_matrices = 4, n>                SM90_U32x4_STSM_N
    !cute_nvgpu.atom.simt_async_copy<f16, cache = global, 128 b>        SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>
    !cute_nvgpu.atom.universal_copy<f16, 128 b>                         UniversalCopy<uint128_t>
    !cute_nvgpu.sm80.mma<16x8x16, elem_type = (f16, f16, f32)>          SM80_16x8x16_F32F16F16F32_TN
    !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
                                                                        SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,...>
    !cute_nvgpu.sm90.mma<64x128x32, ab_major = (k, k), elem_type = (f8E4M3FN, f8E4M3FN, f32), frag_kind = ss>
                                                                        SM90_64x128x32_F32E4M3E4M3_SS_TN
    !cute_nvgpu.atom.universal_fma<1x1x1, (f32, f32) -> f32>            UniversalFMA<float,float,float,float>
A name is a string; an atom this table cannot name is `Unnamed` with the reason."""
from __future__ import annotations

import re
from dataclasses import dataclass

from ..cute.mma_families import GMMA_OPERANDS, MAJOR_NAMED_BITS
from ..hardware.scalar_fma import SHAPE as UNIVERSAL_FMA_SHAPE, UNIVERSAL_FMA
from .cute_types import CopyAtomType, MmaAtomType

# element types as CuTe's MMA names spell them
MMA_TYPE_WORDS: dict[str, str] = {
    "f16": "F16", "bf16": "BF16", "f32": "F32", "tf32": "TF32", "f64": "F64", "i8": "S8", "ui8": "U8", "u8": "U8",
    "i32": "S32", "f8E4M3FN": "E4M3", "f8E5M2": "E5M2",
}
LDSM_FAMILY, STSM_FAMILY = "ldsm", "stsm"
CP_ASYNC_FAMILY, UNIVERSAL_FAMILY = "simt_async_copy", "universal_copy"
CP_ASYNC_CACHE = {"global": "CACHEGLOBAL", "always": "CACHEALWAYS"}
UNIVERSAL_BITS = (8, 16, 32, 64, 128)
MAJOR_WORDS = {"k": "K", "mn": "MN", "m": "MN", "n": "MN"}
LDSM_STSM = {LDSM_FAMILY: ("SM75", "LDSM"), STSM_FAMILY: ("SM90", "STSM")}
UNIVERSAL_FMA_FAMILY = "atom.universal_fma"          # cute.nvgpu.MmaUniversalOp's atom: CuTe's UniversalFMA
# its types as the IR writes them: `(a, b) -> acc`
_UNIVERSAL_FMA_TYPES = re.compile(r"\(\s*(\w+)\s*,\s*(\w+)\s*\)\s*->\s*(\w+)")


@dataclass(frozen=True)
class Unnamed:
    why: str


def copy_atom_name(atom: CopyAtomType) -> str | Unnamed:
    """The C++ copy atom the DSL's copy atom is."""
    fam = atom.family
    if fam in LDSM_STSM:
        arch, word = LDSM_STSM[fam]
        n = atom.param("num_matrices")
        if n is None or n not in ("1", "2", "4"):
            return Unnamed(f"{fam} with num_matrices = {n}")
        size = atom.param("sz_pattern")
        if size not in (None, "u16"):
            return Unnamed(f"{fam} of {size} matrices (only the 16-bit ldmatrix / stmatrix has a model here)")
        if atom.flag("t"):
            return f"{arch}_U16x{2 * int(n)}_{word}_T"
        return f"{arch}_U32x{n}_{word}_N"
    if fam == CP_ASYNC_FAMILY:
        cache = atom.param("cache")
        bits = atom.bits()
        if cache not in CP_ASYNC_CACHE or bits not in (32, 64, 128):
            return Unnamed(f"cp.async with cache = {cache}, {bits} bits")
        return f"SM80_CP_ASYNC_{CP_ASYNC_CACHE[cache]}<uint{bits}_t>"
    if fam == UNIVERSAL_FAMILY:
        bits = atom.bits()
        if bits is None and atom.params:          # one element per copy: its width
            from .cute_types import ELEMENT_BITS
            bits = ELEMENT_BITS.get(atom.params[0].strip())
        if bits not in UNIVERSAL_BITS:
            return Unnamed(f"universal copy of {bits} bits")
        return f"UniversalCopy<uint{bits}_t>"
    if fam in TMEM_FAMILIES:
        return _tmem_name(atom, TMEM_FAMILIES[fam])
    return Unnamed(f"copy atom {atom.text} has no CuTe C++ name in this table")


TMEM_FAMILIES = {"tmem_load": "LOAD", "tmem_store": "STORE"}


def _tmem_name(atom: CopyAtomType, direction: str) -> str | Unnamed:
    """tmem_load<f32, 32 DP, 32 bit, x32> -> SM100_TMEM_LOAD_32dp32b32x (the element type is the value type's)."""
    dp = bits = times = None
    for p in atom.params[1:]:
        p = p.strip()
        if m := re.fullmatch(r"(\d+)\s*DP", p):
            dp = m.group(1)
        elif m := re.fullmatch(r"(\d+)\s*bit", p):
            bits = m.group(1)
        elif m := re.fullmatch(r"x(\d+)", p):
            times = m.group(1)
        else:
            return Unnamed(f"tcgen05 copy atom {atom.text}: its parameter '{p}' has no name in this table")
    if dp is None or bits is None or times is None:
        return Unnamed(f"tcgen05 copy atom {atom.text} names no DP / bit / xN")
    return f"SM100_TMEM_{direction}_{dp}dp{bits}b{times}x"


def _elem_types(atom: MmaAtomType) -> list[str] | None:
    text = atom.param("elem_type")
    if text is None:
        return None
    return [t.strip() for t in text.strip("()").split(",")]


def mma_atom_name(atom: MmaAtomType) -> str | Unnamed:
    """The C++ MMA atom the DSL's MMA atom is."""
    if atom.family == UNIVERSAL_FMA_FAMILY:
        return _universal_fma_name(atom)
    shape = atom.shape()
    types = _elem_types(atom)
    if shape is None or types is None or len(types) != 3:
        return Unnamed(f"MMA atom {atom.text} names no shape MxNxK or elem_type (a, b, acc)")
    a, b, acc = types
    if atom.family == UMMA_BLOCK_SCALED_FAMILY:
        return _umma_block_scaled_name(atom, shape, (a, b, acc))
    if atom.family == UMMA_FAMILY:
        return _umma_name(atom, shape[0], shape[1], (a, b, acc))
    words = [MMA_TYPE_WORDS.get(t) for t in (a, b, acc)]
    if None in words:
        return Unnamed(f"MMA atom {atom.text}: element type {types} has no name in this table")
    wa, wb, wc = (w or "" for w in words)
    m, n, k = shape
    if atom.family == "sm80.mma":
        return f"SM80_{m}x{n}x{k}_{wc}{wa}{wb}{wc}_TN"
    if atom.family == "sm90.mma":
        majors = atom.param("ab_major")
        kind = (atom.param("frag_kind") or "ss").upper()
        if majors is None:
            return Unnamed(f"wgmma atom {atom.text} names no ab_major")
        ma, mb = (MAJOR_WORDS.get(x.strip()) for x in majors.strip("()").split(","))
        if ma is None or mb is None or kind not in ("SS", "RS"):
            return Unnamed(f"wgmma atom {atom.text}: majors {majors}, fragments {kind}")
        named = GMMA_OPERANDS.get(wa)
        if named is not None and named.bits != MAJOR_NAMED_BITS:     # CuTe's 8-bit and tf32 atoms: K-major, _TN
            if (ma, mb) != ("K", "K"):
                return Unnamed(f"wgmma atom {atom.text}: wgmma reads .{a} operands K-major only, not {majors}")
            return f"SM90_{m}x{n}x{k}_{wc}{wa}{wb}_{kind}_TN"
        return f"SM90_{m}x{n}x{k}_{wc}{wa}{wb}_{kind}<GMMA::Major::{ma},GMMA::Major::{mb}>"
    return Unnamed(f"MMA atom family {atom.family} has no CuTe C++ name in this table")


def _universal_fma_name(atom: MmaAtomType) -> str | Unnamed:
    """universal_fma<1x1x1, (a, b) -> acc> -> UniversalFMA<acc,a,b,acc> (CuTe's <D, A, B, C>: D and C are the
    accumulator's type)."""
    from .cute_types import ELEMENT_TYPES
    signature = next((m for p in atom.params if (m := _UNIVERSAL_FMA_TYPES.fullmatch(p.strip()))), None)
    if atom.shape() != UNIVERSAL_FMA_SHAPE or signature is None:
        return Unnamed(f"MMA atom {atom.text} is not UniversalFMA's 1x1x1 (a, b) -> acc")
    a, b, acc = (ELEMENT_TYPES.get(t) for t in signature.groups())
    if a is None or b is None or acc is None:
        return Unnamed(f"MMA atom {atom.text}: element types {signature.groups()} have no name in this table")
    return f"{UNIVERSAL_FMA}<{acc},{a},{b},{acc}>"


UMMA_FAMILY = "sm100.mma"
# tcgen05.mma's kinds, by the operands' element type: the name CuTe gives the atom family
UMMA_FAMILIES: dict[str, str] = {"f16": "F16BF16", "bf16": "F16BF16", "tf32": "TF32", "i8": "S8", "ui8": "S8",
                                 "u8": "S8", "f8E4M3FN": "F8F6F4", "f8E5M2": "F8F6F4", "f6E2M3FN": "F8F6F4",
                                 "f6E3M2FN": "F8F6F4", "f4E2M1FN": "F8F6F4"}
# .kind::f8f6f4 and .kind::mxf8f6f4 read a 6- or 4-bit operand a byte an element in shared memory: CuTe names it by
# its unpacked type (float_*_unpacksmem_t)
UNPACKED_TYPES: dict[str, str] = {"f4E2M1FN": "float_e2m1_unpacksmem_t", "f6E2M3FN": "float_e2m3_unpacksmem_t",
                                  "f6E3M2FN": "float_e3m2_unpacksmem_t"}


def _f8f6f4_operand(element: str) -> str | None:
    """An operand of the f8f6f4 kinds as CuTe names it: 8-bit types as they are, 6- and 4-bit ones unpacked."""
    from .cute_types import ELEMENT_TYPES
    return UNPACKED_TYPES.get(element) or (ELEMENT_TYPES.get(element) if element in F8_OPERANDS else None)


def _umma_name(atom: MmaAtomType, m: int, n: int, types: tuple[str, str, str]) -> str | Unnamed:
    """SM100_MMA_<kind>[_2x1SM]_<SS|TS><a, b, acc, M, N> (the majors are the operands' own: `ab_major`)."""
    from .cute_types import ELEMENT_TYPES
    family = UMMA_FAMILIES.get(types[0])
    if family != UMMA_FAMILIES.get(types[1]):
        family = None           # one kind reads both operands
    cpp = ([_f8f6f4_operand(t) for t in types[:2]] if family == F8F6F4_FAMILY else
           [ELEMENT_TYPES.get(t) for t in types[:2]]) + [ELEMENT_TYPES.get(types[2])]
    kind = (atom.param("frag_kind") or "ss").upper()
    ctas = atom.param("num_cta") or "1"
    if family is None or None in cpp or kind not in ("SS", "TS") or ctas not in ("1", "2"):
        return Unnamed(f"tcgen05.mma atom {atom.text}: no CuTe C++ name in this table")
    pair = "_2x1SM" if ctas == "2" else ""
    return f"SM100_MMA_{family}{pair}_{kind}<{','.join(c or '' for c in cpp)},{m},{n}>"


UMMA_BLOCK_SCALED_FAMILY = "sm100.mma_bs"
# a block-scaled atom's scale-factor type, as the DSL writes it -> CuTe C++'s (the unsigned e4m3 and e8m0 scales)
UMMA_SCALE_TYPES = {"f8E4M3FN": "float_ue4m3_t", "f8E8M0FNU": "float_ue8m0_t"}
# tcgen05.mma .kind::mxf4 / .kind::mxf4nvf4 reads packed 4-bit A and B, K = 64 a instruction; .kind::mxf8f6f4 reads
# a byte an element, K = 32, and CuTe names its 8-bit atoms without the vector size (always 32)
MXF4_OPERAND, MXF4_K = "f4E2M1FN", 64
F8_OPERANDS, MXF8F6F4_VECTOR, MXF8F6F4_K = ("f8E4M3FN", "f8E5M2"), "32", 32
F8F6F4_FAMILY = "F8F6F4"


def _umma_block_scaled_name(atom: MmaAtomType, shape: tuple[int, int, int],
                            types: tuple[str, str, str]) -> str | Unnamed:
    """SM100_MMA_MXF4[_2x1SM]_SS<a, b, acc, sf, M, N, VS> (packed 4-bit A and B, K 64) or
    SM100_MMA_MXF8F6F4[_2x1SM]_SS<a, b, acc, sf, M, N> (K 32: 8-bit operands, and 6- or 4-bit ones read a byte an
    element, named unpacked): the atom library's block-scaled names (the majors are the operands' own:
    `ab_major`)."""
    from .cute_types import ELEMENT_TYPES
    m, n, k = shape
    acc = ELEMENT_TYPES.get(types[2])
    sf = UMMA_SCALE_TYPES.get(atom.param("sf_type") or "")
    vs, kind, ctas = atom.param("vec_size"), (atom.param("frag_kind") or "ss").upper(), atom.param("num_cta") or "1"
    if acc is None or sf is None or kind != "SS" or ctas not in ("1", "2") or vs is None:
        return Unnamed(f"block-scaled tcgen05.mma atom {atom.text}: no CuTe C++ name in this table")
    pair = "_2x1SM" if ctas == "2" else ""
    if types[0] == types[1] == MXF4_OPERAND and k == MXF4_K:
        packed = ELEMENT_TYPES[MXF4_OPERAND]
        return f"SM100_MMA_MXF4{pair}_SS<{packed},{packed},{acc},{sf},{m},{n},{vs}>"
    a, b = (_f8f6f4_operand(t) for t in types[:2])
    if k == MXF8F6F4_K and vs == MXF8F6F4_VECTOR and a is not None and b is not None:
        return f"SM100_MMA_MXF8F6F4{pair}_SS<{a},{b},{acc},{sf},{m},{n}>"
    return Unnamed(f"block-scaled tcgen05.mma atom {atom.text}: operands {types[:2]} at K = {k} have no CuTe C++ "
                   "name in this table")


def operand_majors(atom: MmaAtomType) -> tuple[str, str] | None:
    """`ab_major = (k, mn)` as the spec's majors (K / MN)."""
    majors = atom.param("ab_major")
    if majors is None:
        return None
    words = [MAJOR_WORDS.get(x.strip()) for x in majors.strip("()").split(",")]
    if len(words) != 2 or None in words:
        return None
    return words[0] or "", words[1] or ""



def cpp_value_type(element: str) -> str | None:
    from .cute_types import ELEMENT_TYPES
    return ELEMENT_TYPES.get(element)


__all__ = ["Unnamed", "copy_atom_name", "mma_atom_name", "cpp_value_type", "operand_majors"]
