"""CuTe's regular MMA atom families, each member built from its name by its family's MMA_Traits (facts, as data).

The atom library writes a few members of each family, instantiated from CUTLASS's headers (N the smallest legal,
64, 128, 256); a kernel may name any member.  Within a family, CuTe's traits give every member the same layouts but
for the sizes in its name:

- SM90 GMMA (`SM90_64xNxK_<C><A><B>_{SS,RS}`, mma_traits_sm90_gmma.hpp): one warpgroup; an SS operand is the whole
  tile for every thread (GMMA::ABLayout, thread stride 0), an RS A the register fragment GMMA::ALayout_64xK, the
  accumulator GMMA::CLayout_64xN.  16-bit operands name their majors (`<GMMA::Major::K,GMMA::Major::MN>`), others
  are K-major only (`_TN`); an RS A is K-major.
- SM100 UMMA (`SM100_MMA_<family>[_2x1SM]_{SS,TS}<A,B,C[,SF],M,N[,VS]>`, mma_traits_sm100.hpp): one thread per CTA
  of the group, each holding M/cta_group rows of A and C and N/cta_group rows of B; A in shared memory (SS) or tensor
  memory (TS, the same layouts); the block-scaled families (MXF8F6F4, MXF4) name their scale factors' type, MXF4 its
  vector size.

An atom built here is checked as every atom is: theorems 1, 2 and 11 hold its layouts against the PTX ISA's model of
its instruction, which refutes a shape or a type the instruction does not take.  `tests/test_mma_families.py` builds
every member the library writes and compares it with the library's (CuTe's own instantiation)."""
from __future__ import annotations

import re
from dataclasses import dataclass

MMA_K_BITS = 256                 # every dense wgmma and tcgen05.mma reads 256 bits of K (8 tf32, 16 f16, 32 8-bit)


@dataclass(frozen=True)
class MMAAtomFacts:
    """An MMA atom a spec names, with its MMA_Traits as spec fields when the spec must define it."""
    name: str
    fields: tuple[tuple[str, str], ...] = ()      # spec keys -> YAML text; empty: the atom library defines it

    def yaml_lines(self, indent: str = "  ") -> list[str]:
        """The atom as an `mma_atoms:` entry."""
        return [f'{indent}"{self.name}":'] + [f"{indent}  {k}: {v}" for k, v in self.fields]


# --- SM90 GMMA (wgmma.mma_async) ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class GmmaType:
    value_type: str          # CuTe's value type
    ptx: str                 # wgmma's type qualifier
    bits: int


# the operand types by the word CuTe's atom names spell them with
GMMA_OPERANDS: dict[str, GmmaType] = {
    "F16": GmmaType("half_t", "f16", 16), "BF16": GmmaType("bfloat16_t", "bf16", 16),
    "TF32": GmmaType("tfloat32_t", "tf32", 32), "E4M3": GmmaType("float_e4m3_t", "e4m3", 8),
    "E5M2": GmmaType("float_e5m2_t", "e5m2", 8), "S8": GmmaType("int8_t", "s8", 8), "U8": GmmaType("uint8_t", "u8", 8)}
GMMA_ACCUMULATORS: dict[str, GmmaType] = {
    "F16": GmmaType("half_t", "f16", 16), "F32": GmmaType("float", "f32", 32), "S32": GmmaType("int32_t", "s32", 32)}
GMMA_M = 64
GMMA_MAJORS = ("K", "MN")
MAJOR_NAMED_BITS = 16        # only 16-bit operands name their majors; the others are `_TN`
# GMMA::ALayout_64xK, by operand bits: an RS atom's A register fragment   // (thr,val) -> m + 64*k
GMMA_RS_A_LAYOUTS: dict[int, str] = {
    32: "((4,8,4),(2,2)):((64,1,16),(8,256))",          # ALayout_64x8:  m = 16w+g+8(i%2), k = t+4(i/2)
    16: "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))",    # ALayout_64x16: m = 16w+g+8((i/2)%2), k = 2t+i%2+8(i/4)
    8: "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"}    # ALayout_64x32: m = 16w+g+8((i/4)%2), k = 4t+i%4+16(i/8)
GMMA_NAME = re.compile(r"SM90_64x(?P<n>\d+)x(?P<k>\d+)_(?P<c>F16|F32|S32)(?P<ab>[A-Z0-9]+)_(?P<source>SS|RS)"
                       r"(?:_TN|<GMMA::Major::(?P<major_a>K|MN),GMMA::Major::(?P<major_b>K|MN)>)")


def gmma_atom(n: int, c: str, a: str, b: str, majors: tuple[str, str], rs: bool = False) -> MMAAtomFacts:
    """SM90_64xNxK_<C><A><B>_SS (or _RS: A from registers) with its MMA_Traits; `c`, `a`, `b` are the words CuTe's
    names spell the types with (F32, F16, E4M3 ...)."""
    ta, tb, tc = GMMA_OPERANDS[a], GMMA_OPERANDS[b], GMMA_ACCUMULATORS[c]
    k = MMA_K_BITS // ta.bits
    name = f"SM90_64x{n}x{k}_{c}{a}{b}_{'RS' if rs else 'SS'}"
    name += f"<GMMA::Major::{majors[0]},GMMA::Major::{majors[1]}>" if ta.bits == MAJOR_NAMED_BITS else "_TN"
    # (thr,val) -> m + 64*k: an SS operand is the whole tile for every thread of the warpgroup
    a_layout = GMMA_RS_A_LAYOUTS[ta.bits] if rs else f"(128,(64,{k})):(0,(1,64))"
    return MMAAtomFacts(name, (
        ("instruction", f"wgmma.mma_async.sync.aligned.m64n{n}k{k}.{tc.ptx}.{ta.ptx}.{tb.ptx}"),
        ("shape_mnk", f"[64, {n}, {k}]"), ("thr_id", '"128:1"'),
        ("types", f"{{a: {ta.value_type}, b: {tb.value_type}, c: {tc.value_type}, d: {tc.value_type}}}"),
        ("a", f'"{a_layout}"'),
        ("b", f'"(128,({n},{k})):(0,(1,{n}))"'),                         # (thr,val) -> n + N*k
        ("c", f'"((4,8,4),(2,2,{n // 8})):((128,1,16),(64,8,512))"')))   # CLayout_64xN: (thr,val) -> m + 64*n


def _operand_pair(words: str) -> tuple[str, str] | None:
    """`F16F16` -> (F16, F16): the one split of two operand words."""
    splits = [(words[:i], words[i:]) for i in range(1, len(words))
              if words[:i] in GMMA_OPERANDS and words[i:] in GMMA_OPERANDS]
    return splits[0] if len(splits) == 1 else None


def _gmma_of_name(name: str) -> MMAAtomFacts | None:
    m = GMMA_NAME.fullmatch(name)
    if m is None:
        return None
    pair = _operand_pair(m["ab"])
    if pair is None:
        return None
    majors = (m["major_a"] or "K", m["major_b"] or "K")
    rs = m["source"] == "RS"
    if rs and majors[0] != "K":          # CuTe: "Register source operand A must have K major layout."
        return None
    built = gmma_atom(int(m["n"]), m["c"], pair[0], pair[1], majors, rs)
    return built if built.name == name else None     # K, the majors' spelling: as CuTe names the member


# --- SM100 UMMA (tcgen05.mma) ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class UmmaFamily:
    kind: str                # .kind::<kind> (a block-scaled family's without its vector size's qualifiers)
    bits: int                # the element width K counts (a 6- or 4-bit type unpacked in shared memory: 8)
    block_scaled: bool


UMMA_FAMILIES: dict[str, UmmaFamily] = {
    "TF32": UmmaFamily("tf32", 32, False), "F16BF16": UmmaFamily("f16", 16, False),
    "S8": UmmaFamily("i8", 8, False), "F8F6F4": UmmaFamily("f8f6f4", 8, False),
    "MXF8F6F4": UmmaFamily("mxf8f6f4", 8, True), "MXF4": UmmaFamily("mxf4", 4, True)}
PACKED_VECTOR_FAMILY = "MXF4"    # names its scale vector size last
# MXF4's scale vector size -> its kind and qualifier (16: .kind::mxf4nvf4 .block16, 32: .kind::mxf4 .block32)
MXF4_VECTORS: dict[int, tuple[str, str]] = {16: ("mxf4nvf4", ".block16"), 32: ("mxf4", ".block32")}
UMMA_OPERAND_TYPES = frozenset({
    "tfloat32_t", "half_t", "bfloat16_t", "int8_t", "uint8_t", "float_e4m3_t", "float_e5m2_t", "float_e2m1_t",
    "float_e2m1_unpacksmem_t", "float_e3m2_unpacksmem_t", "float_e2m3_unpacksmem_t"})
UMMA_ACCUMULATORS = frozenset({"float", "half_t", "int32_t"})
UMMA_SCALE_TYPES = frozenset({"float_ue8m0_t", "float_ue4m3_t"})
CTA_PAIR = "_2x1SM"
UMMA_NAME = re.compile(r"SM100_MMA_(?P<family>[A-Z0-9]+?)(?P<pair>_2x1SM)?_(?P<source>SS|TS)<(?P<args>[^<>]*)>")


def umma_atom(family: str, cta_group: int, a: str, b: str, c: str, m: int, n: int, sf: str | None = None,
              vs: int | None = None, a_in_tmem: bool = False) -> MMAAtomFacts:
    """SM100_MMA_<family>[_2x1SM]_{SS,TS}<A,B,C[,SF],M,N[,VS]> with its MMA_Traits: one thread per CTA of the group,
    each holding M/cta_group rows of A and C and N/cta_group rows of B.  `sf` (and, for MXF4, `vs`): a
    block-scaled family's scale factors."""
    f = UMMA_FAMILIES[family]
    k = MMA_K_BITS // f.bits
    kind = f.kind
    if f.block_scaled:
        qualifier = ""
        if family == PACKED_VECTOR_FAMILY:
            assert vs is not None
            kind, qualifier = MXF4_VECTORS[vs]
        kind += ".block_scale" + qualifier
    args = [a, b, c] + ([sf] if sf is not None else []) + [str(m), str(n)] + ([str(vs)] if vs is not None else [])
    group = CTA_PAIR if cta_group == 2 else ""
    name = f"SM100_MMA_{family}{group}_{'TS' if a_in_tmem else 'SS'}<{','.join(args)}>"
    m_cta, n_cta = m // cta_group, n // cta_group
    m_stride = m_cta if cta_group > 1 else 0
    n_stride = n_cta if cta_group > 1 else 0
    scale = f", sf: {sf}" if sf is not None else ""
    return MMAAtomFacts(name, (
        ("instruction", f'"tcgen05.mma.cta_group::{cta_group}.kind::{kind}"'),
        ("shape_mnk", f"[{m}, {n}, {k}]"), ("thr_id", f'"{cta_group}:{cta_group - 1}"'),
        ("types", f"{{a: {a}, b: {b}, c: {c}, d: {c}{scale}}}"),
        ("a", f'"({cta_group},({m_cta},{k})):({m_stride},(1,{m}))"'),     # (cta,val) -> m + M*k
        ("b", f'"({cta_group},({n_cta},{k})):({n_stride},(1,{n}))"'),     # (cta,val) -> n + N*k
        ("c", f'"({cta_group},({m_cta},{n})):({m_stride},(1,{m}))"')))    # (cta,val) -> m + M*n


def _umma_of_name(name: str) -> MMAAtomFacts | None:
    m = UMMA_NAME.fullmatch(name)
    if m is None or m["family"] not in UMMA_FAMILIES:
        return None
    family = UMMA_FAMILIES[m["family"]]
    args = m["args"].split(",")
    sizes = 3 if m["family"] == PACKED_VECTOR_FAMILY else 2
    types, numbers = args[:len(args) - sizes], args[len(args) - sizes:]
    if len(types) != (4 if family.block_scaled else 3) or not all(x.isdigit() for x in numbers):
        return None
    a, b, c = types[:3]
    sf = types[3] if family.block_scaled else None
    if a not in UMMA_OPERAND_TYPES or b not in UMMA_OPERAND_TYPES or c not in UMMA_ACCUMULATORS or \
            (sf is not None and sf not in UMMA_SCALE_TYPES):
        return None
    m_size, n_size = int(numbers[0]), int(numbers[1])
    vs = int(numbers[2]) if sizes == 3 else None
    cta_group = 2 if m["pair"] else 1
    a_in_tmem = m["source"] == "TS"
    if (vs is not None and vs not in MXF4_VECTORS) or (a_in_tmem and family.block_scaled) or \
            m_size <= 0 or n_size <= 0 or m_size % cta_group or n_size % cta_group:
        return None
    built = umma_atom(m["family"], cta_group, a, b, c, m_size, n_size, sf, vs, a_in_tmem)
    return built if built.name == name else None


def family_atom(name: str) -> MMAAtomFacts | None:
    """The atom `name` names, built by its family's rule; None when it is no member of a family here."""
    if name.startswith("SM90_"):
        return _gmma_of_name(name)
    if name.startswith("SM100_MMA_"):
        return _umma_of_name(name)
    return None


__all__ = ["MMAAtomFacts", "GMMA_OPERANDS", "GMMA_ACCUMULATORS", "GMMA_RS_A_LAYOUTS", "MMA_K_BITS", "UMMA_FAMILIES",
           "gmma_atom", "umma_atom", "family_atom"]
