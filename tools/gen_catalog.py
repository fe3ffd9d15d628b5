#!/usr/bin/env python3
"""Generate the CUTLASS atom catalog: specs/catalog/*.yaml and specs/mistakes.yaml.

    python tools/gen_catalog.py            # (re)write the files; output is deterministic
    python tools/gen_catalog.py --check    # exit 1 when a committed file differs from what would be written

What is generated:
- `specs/catalog/atoms_*.yaml`: one atom-only check per SM75-SM90 MMA and copy atom of specs/atoms/
  (and CuTe's generic copies): `mma: NAME` proves theorems 1-2 for A, B and C, `copy: NAME` +
  `value_type:` proves theorem 3 with a value type CuTe accepts for that atom.
- `specs/catalog/<family>.yaml`: the operand configurations that CUTLASS's own SM80/SM90 mainloops and
  epilogues use (facts mirrored from test/unit/gemm/device/default_gemm_configuration.hpp,
  examples/cute/tutorial/sgemm_sm80.cu, include/cutlass/gemm/collective/builders/sm90_common.inl and
  include/cutlass/epilogue/collective/builders/sm90_{builder,common}.inl), and sweeps around them
  (1/2/4/8 warps, x1/x2/x4 copies, N/T variants, swizzle atoms tiled to 64x64, 128x64, 128x128).
  Each check's `description:` names the configuration it mirrors.
- `specs/mistakes.yaml`: documented mistakes (`expect: fail`), each reproducing a real bug.

Shared-memory layouts are written as CuTe prints tile_to_shape(composition(Swizzle<B,M,S>{}, atom),
Shape<X,Y>{}); the print is computed with the verifier's own algebra (checked against CuTe by the
oracle suite), so `python -m verifier layout 'tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64))'`
reproduces every string.  The smem of a check is the operand tile the MMA partitions: A is M x K,
B is N x K, C is M x N.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from verifier.algebra.syntax import parse_expression  # noqa: E402
from verifier.findings import KNOWN_FINDINGS  # noqa: E402
from verifier.spec.loader import load_spec  # noqa: E402

SPECS = ROOT / "specs"
CATALOG = SPECS / "catalog"
ATOMS = SPECS / "atoms"
CUTLASS_CFG = "test/unit/gemm/device/default_gemm_configuration.hpp"
TUTORIAL = "examples/cute/tutorial/sgemm_sm80.cu"
SM90_COMMON = "include/cutlass/gemm/collective/builders/sm90_common.inl"
EPI_BUILDER = "include/cutlass/epilogue/collective/builders/sm90_builder.inl"
EPI_COMMON = "include/cutlass/epilogue/collective/builders/sm90_common.inl"


# --- layouts -----------------------------------------------------------------------------------------

def cute(expr: str) -> str:
    """CuTe's print of an expression of the algebra (the layout calculator's output)."""
    return str(parse_expression(expr))


def smem(swizzle: str | None, atom: str, shape: tuple[int, int]) -> str:
    """tile_to_shape(composition(Swizzle, atom), Shape<X,Y>) as CuTe prints it."""
    inner = f"{swizzle} o {atom}" if swizzle else atom
    return cute(f"tile_to_shape({inner}, ({shape[0]},{shape[1]}))")


@dataclass(frozen=True)
class SmemAtom:
    """A shared-memory layout atom: `swizzle o layout`, (rows, cols) of the operand tile."""
    swizzle: str | None
    layout: str
    what: str             # how CUTLASS names it, for descriptions

    def tile(self, shape: tuple[int, int]) -> str:
        return smem(self.swizzle, self.layout, shape)

    def text(self) -> str:
        if self.swizzle:
            return f"{self.swizzle} o {self.layout}"
        return cute(self.layout) if "smem_ptr" in self.layout else self.layout


def gmma_atom(swizzle_bits: int, major: str, bits: int, type_name: str) -> SmemAtom:
    """GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T> = upcast<sizeof_bits<T>>(..._Atom_Bits), as CuTe
    defines them in include/cute/atom/mma_traits_sm90_gmma.hpp (a swizzle on byte addresses)."""
    wide = {0: 128, 1: 256, 2: 512, 3: 1024}[swizzle_bits]
    name = {0: "INTER", 1: "SW32", 2: "SW64", 3: "SW128"}[swizzle_bits]
    inner = f"(8,{wide}):({wide},1)" if major == "K" else f"({wide},8):(1,{wide})"
    return SmemAtom(None, f"upcast<{bits}>(Sw<{swizzle_bits},4,3> o smem_ptr[1b](unset) o {inner})",
                    f"GMMA::Layout_{major}_{name}_Atom<{type_name}>")


# 16-bit elements (half_t, bfloat16_t)
H_K_SW32 = SmemAtom("Sw<1,3,3>", "(8,16):(16,1)", "K-major 32-byte swizzle atom (GMMA Layout_K_SW32_Atom<half_t>)")
H_K_SW64 = SmemAtom("Sw<2,3,3>", "(8,32):(32,1)", "K-major 64-byte swizzle atom")
H_K_SW128 = SmemAtom("Sw<3,3,3>", "(8,64):(64,1)", "K-major 128-byte swizzle atom")
H_MN_SW32 = SmemAtom("Sw<1,3,3>", "(16,8):(1,16)", "MN-major 32-byte swizzle atom")
H_MN_SW64 = SmemAtom("Sw<2,3,3>", "(32,8):(1,32)", "MN-major 64-byte swizzle atom")
H_MN_SW128 = SmemAtom("Sw<3,3,3>", "(64,8):(1,64)", "MN-major 128-byte swizzle atom")
H_TUTORIAL = SmemAtom("Sw<3,3,3>", "(8,(8,8)):(8,(1,64))", "sgemm_sm80.cu's K-major swizzle_atom")
H_K_INTER = SmemAtom(None, "(8,8):(8,1)", "K-major interleaved atom (Layout_K_INTER_Atom<half_t>, no swizzle)")
# 32-bit elements (tfloat32_t)
T_K_SW128 = SmemAtom("Sw<3,2,3>", "(8,32):(32,1)", "K-major Swizzle<3,2,3> atom (kBlock 32)")
T_K_SW64 = SmemAtom("Sw<2,2,3>", "(8,16):(16,1)", "K-major Swizzle<2,2,3> atom (kBlock 16)")
T_MN_SW128 = SmemAtom("Sw<3,2,3>", "(32,8):(1,32)", "MN-major Swizzle<3,2,3> atom")
# 8-bit elements (int8_t, uint8_t, float_e4m3_t, float_e5m2_t)
B_K_CUTLASS = SmemAtom("Sw<2,4,3>", "(16,64):(64,1)", "K-major Swizzle<2,4,3> 16x64 atom")
B_K_SW32 = SmemAtom("Sw<1,4,3>", "(8,32):(32,1)", "K-major 32-byte swizzle atom (Layout_K_SW32_Atom for 8-bit)")
B_K_SW64 = SmemAtom("Sw<2,4,3>", "(8,64):(64,1)", "K-major 64-byte swizzle atom (Layout_K_SW64_Atom for 8-bit)")
B_K_SW128 = SmemAtom("Sw<3,4,3>", "(8,128):(128,1)", "K-major 128-byte swizzle atom (Layout_K_SW128_Atom for 8-bit)")
# 64-bit elements (double)
D_K = SmemAtom("Sw<2,0,4>", "(4,16):(1,4)", "Swizzle<2,0,4> 4x16 atom")
D_MN = SmemAtom("Sw<2,2,2>", "(16,4):(1,16)", "MN-major Swizzle<2,2,2> 16x4 atom")

CONFLICT_FREE, REPORT = "conflict_free", "report"     # the `banks:` modes
WARPS: dict[int, tuple[int, int, int]] = {1: (1, 1, 1), 2: (2, 1, 1), 4: (2, 2, 1), 8: (4, 2, 1)}


def shape_text(shape: tuple[int, int]) -> str:
    return f"{shape[0]}x{shape[1]}"


# --- spec files --------------------------------------------------------------------------------------

FIELD_ORDER = ("description", "mma", "atom_layout", "permutation", "operand", "copy", "copy_for", "copy_mma",
               "value_type", "smem_type", "smem", "gmem", "major", "smem_align", "descriptor", "tma_box", "banks",
               "reduction", "expect")
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _scalar(x: Any) -> str:
    if isinstance(x, bool):
        raise TypeError("no booleans in specs")
    if isinstance(x, int):
        return str(x)
    if isinstance(x, str) and _PLAIN.match(x) and x not in ("true", "false", "null", "yes", "no", "on", "off"):
        return x
    return json.dumps(x)


def _flow(x: Any) -> str:
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(_flow(v) for v in x) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in x.items()) + "}"
    return _scalar(x)


def _description(text: str, indent: str) -> list[str]:
    one = f"{indent}description: {json.dumps(text)}"
    if len(one) <= 110:
        return [one]
    body = textwrap.wrap(text, width=104 - len(indent), break_long_words=False, break_on_hyphens=False)
    return [f"{indent}description: >-"] + [f"{indent}  {line}" for line in body]


def _comment(text: str, indent: str) -> list[str]:
    """`# ` lines, each source line wrapped at 110 columns (continuations keep the source line's indent)."""
    out = []
    for line in text.strip("\n").splitlines():
        lead = line[:len(line) - len(line.lstrip())]
        wrapped = textwrap.wrap(line.strip(), width=108 - len(indent) - len(lead), break_long_words=False,
                                break_on_hyphens=False) or [""]
        out += [f"{indent}# {lead}{w}".rstrip() for w in wrapped[:1]]
        out += [f"{indent}# {lead}  {w}".rstrip() for w in wrapped[1:]]
    return out


@dataclass
class SpecFile:
    path: Path
    name: str
    description: str
    include: list[str]
    comment: str = ""
    mma_atoms: dict[str, dict] = field(default_factory=dict)
    copy_atoms: dict[str, dict] = field(default_factory=dict)
    atom_comments: dict[str, str] = field(default_factory=dict)
    checks: dict[str, dict] = field(default_factory=dict)
    sections: dict[str, str] = field(default_factory=dict)   # first check name -> section comment
    version: int = 1                                          # 2: the file uses the Hopper keys
    _section: str | None = None

    def section(self, text: str) -> None:
        self._section = text

    def add(self, name: str, **fields: Any) -> None:
        if name in self.checks:
            raise ValueError(f"{self.path.name}: duplicate check {name}")
        fields = {k: v for k, v in fields.items() if v is not None}
        unknown = set(fields) - set(FIELD_ORDER)
        if unknown:
            raise ValueError(f"unknown fields {unknown}")
        if self._section is not None:
            self.sections[name] = self._section
            self._section = None
        self.checks[name] = fields

    def render(self) -> str:
        out = ["# Generated by tools/gen_catalog.py: edit the generator, not this file."]
        if self.comment:
            out += _comment(self.comment, "")
        out += [f"version: {self.version}", f"name: {self.name}"]
        out += _description(self.description, "")
        flow = f"include: {_flow(self.include)}"
        if self.include:
            out += [flow] if len(flow) <= 110 else ["include:"] + [f"  - {_scalar(i)}" for i in self.include]
        for section, atoms in (("mma_atoms", self.mma_atoms), ("copy_atoms", self.copy_atoms)):
            if not atoms:
                continue
            out += ["", f"{section}:"]
            for name, body in atoms.items():
                if name in self.atom_comments:
                    out += _comment(self.atom_comments[name], "  ")
                out.append(f"  {_scalar(name)}:")
                for k, v in body.items():
                    out.append(f"    {k}: {_flow(v)}")
        if not self.checks:
            return "\n".join(out) + "\n"
        out += ["", "checks:"]
        for name, fields in self.checks.items():
            if name in self.sections:
                out += ["", *_comment("--- " + self.sections[name], "  ")]
            out.append(f"  {_scalar(name)}:")
            for k in FIELD_ORDER:
                if k not in fields:
                    continue
                if k == "description":
                    out += _description(fields[k], "    ")
                else:
                    out.append(f"    {k}: {_flow(fields[k])}")
        return "\n".join(out) + "\n"


# --- atom-only checks --------------------------------------------------------------------------------

ATOM_FILES = {   # catalog file -> atom libraries (SM75-SM90 and CuTe's generic copies)
    "atoms_sm75": ["sm75"],
    "atoms_sm80": ["sm80_f16", "sm80_tf32", "sm80_int8", "sm80_int4", "sm80_b1", "sm80_f64", "sm80_copy"],
    "atoms_sm89": ["sm89"],
    "atoms_sm90": ["sm90"],
    "atoms_sm90_gmma": ["sm90_gmma"],
    "atoms_generic": ["generic"],
}
_BITS = {"uint8_t": 8, "uint16_t": 16, "uint32_t": 32, "uint64_t": 64, "uint128_t": 128}

# Copy atoms with no hardware model in the tool: their checks are documented as unsupported.
NO_MODEL: dict[str, str] = {}
# The element-wise copies: one value per thread and application, vectorised by CuTe only where aligned
ELEMENT_WISE = {
    "DefaultCopy": "CuTe's DefaultCopy (AutoVectorizingCopyWithAssumedAlignment<8>): element-wise, one value per "
                   "thread and application",
    "AutoVectorizingCopy": "AutoVectorizingCopy (AutoVectorizingCopyWithAssumedAlignment<128>): element-wise, "
                           "vectorised only where 128 bits of alignment allow",
    "AutoVectorizingCopyWithAssumedAlignment<32>": "element-wise, vectorised only where 32 bits of alignment allow",
}
# Atom checks whose refutation is a finding (CuTe's traits disagree with the instruction), kept as
# documented failures so that the catalog gates every other atom: verifier/findings.py, shared with import-cutlass.
ATOM_FINDINGS = KNOWN_FINDINGS


def _copy_value_type(name: str, instruction: str) -> str:
    m = re.search(r"<\s*(uint\d+_t)\s*>", name)
    if m and m.group(1) in _BITS:                 # cp.async<uintN> / UniversalCopy<uintN>
        return "half_t" if _BITS[m.group(1)] >= 16 else "uint8_t"
    return "half_t"                               # b16 ldmatrix / stmatrix / movmatrix, generic copies


def _check_name(kind: str, atom: str, value_type: str | None = None) -> str:
    base = re.sub(r"[^A-Za-z0-9]+", "_", atom).strip("_")
    return f"{kind}_{base}" + (f"__{value_type}" if value_type else "")


def _atom_library(lib: str) -> Any:
    """specs/atoms/<lib>.yaml as loaded; a library this script generates is read from what it would write."""
    if lib != "sm90_gmma":
        return load_spec(ATOMS / f"{lib}.yaml")
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / f"{lib}.yaml"
        path.write_text(gmma_atom_file().render(), encoding="utf-8")
        return load_spec(path)


def atom_files() -> list[SpecFile]:
    files = []
    for fname, libs in ATOM_FILES.items():
        arch = fname.split("_", 1)[1]
        f = SpecFile(CATALOG / f"{fname}.yaml", f"catalog_{fname}",
                     f"Atom-only checks for every {'generic CuTe copy' if arch == 'generic' else arch.upper()} "
                     "atom of " + ", ".join(f"specs/atoms/{lib}.yaml" for lib in libs)
                     + ": `mma: NAME` proves theorems 1-2 (A, B and C well-formed and equal to the PTX fragment), "
                     "`copy: NAME` + `value_type` proves theorem 3 (copy routing) for a value type CuTe accepts.",
                     [f"../atoms/{lib}.yaml" for lib in libs])
        undecided, findings = [], []
        for lib in libs:
            spec = _atom_library(lib)
            if spec.mma_atoms:
                f.section(f"MMA atoms of specs/atoms/{lib}.yaml")
            for name, atom in spec.mma_atoms.items():
                f.add(_check_name("mma", name), mma=name,
                      description=f"{name} ({atom.instruction}): MMA_Traits A/B/C layouts are bijections onto "
                                  f"the {'x'.join(map(str, atom.shape_mnk))} (MxNxK) tiles and equal the PTX "
                                  "fragment layouts.")
            if spec.copy_atoms:
                f.section(f"copy atoms of specs/atoms/{lib}.yaml")
            for name, atom in spec.copy_atoms.items():
                vt = _copy_value_type(name, atom.instruction or "")
                check = _check_name("copy", name, vt)
                desc = f"Copy_Atom<{name}, {vt}> ({atom.instruction}): S(src) = D(dst) on every route."
                expect = None
                if name in NO_MODEL:
                    desc = f"Copy_Atom<{name}, {vt}>: {NO_MODEL[name]}; documented as not modelled yet."
                    expect = "unsupported"
                    undecided.append(check)
                elif name in ELEMENT_WISE:
                    desc = f"Copy_Atom<{name}, {vt}>: {ELEMENT_WISE[name]}; S(src) = D(dst) for the value."
                elif name in ATOM_FINDINGS:
                    desc, expect = ATOM_FINDINGS[name], "fail"
                    findings.append(check)
                f.add(check, copy=name, value_type=vt, description=desc, expect=expect)
        notes = []
        if undecided:
            notes.append("Checks documented as `expect: unsupported` (the tool has no hardware model for the "
                         "instruction yet):\n" + "\n".join(f"  - {c}" for c in undecided))
        if findings:
            notes.append("Checks documented as `expect: fail` because CuTe's traits disagree with the instruction "
                         "(findings, see their descriptions):\n" + "\n".join(f"  - {c}" for c in findings))
        f.comment = "\n".join(notes)
        files.append(f)
    return files


# --- operand configurations --------------------------------------------------------------------------

def _perm(warps: int, per_warp: tuple[int, int, int]) -> list[int]:
    wm, wn, _ = WARPS[warps]
    return [per_warp[0] * wm, per_warp[1] * wn, per_warp[2]]


def _warps_text(warps: int | str) -> str:
    if isinstance(warps, str):
        return f"{warps} warps"
    wm, wn, wk = WARPS[warps]
    return f"{warps} warp{'s' if warps > 1 else ''} ({wm}x{wn}x{wk})"


def operand_check(f: SpecFile, name: str, description: str, mma: str, warps: Any, perm: Any,
                  operand: str, copy: str, value_type: str, atom: SmemAtom | None, shape: tuple[int, int],
                  raw_smem: str | None = None, **extra: Any) -> None:
    """One tiled check; `warps` is a key of WARPS, an [M, N, K] list or a strided thread layout string."""
    atom_layout: Any = None
    if isinstance(warps, int):
        atom_layout = list(WARPS[warps])
    elif isinstance(warps, (str, list, tuple)):
        atom_layout = warps if isinstance(warps, str) else list(warps)
    layout = raw_smem if raw_smem is not None else atom.tile(shape)   # type: ignore[union-attr]
    f.add(name, description=description, mma=mma, atom_layout=atom_layout, permutation=perm, operand=operand,
          copy=copy, value_type=value_type, smem=layout, **extra)


F32F16 = "SM80_16x8x16_F32F16F16F32_TN"
F16F16 = "SM80_16x8x16_F16F16F16F16_TN"
BF16 = "SM80_16x8x16_F32BF16BF16F32_TN"
LDSM_N = {1: "SM75_U32x1_LDSM_N", 2: "SM75_U32x2_LDSM_N", 4: "SM75_U32x4_LDSM_N"}
LDSM_T = {1: "SM75_U16x2_LDSM_T", 2: "SM75_U16x4_LDSM_T", 4: "SM75_U16x8_LDSM_T"}
STSM_N = {1: "SM90_U32x1_STSM_N", 2: "SM90_U32x2_STSM_N", 4: "SM90_U32x4_STSM_N"}
STSM_T = {1: "SM90_U16x2_STSM_T", 2: "SM90_U16x4_STSM_T", 4: "SM90_U16x8_STSM_T"}
MAJOR = {"A": ("K-major (row-major A)", "M-major (column-major A)"),
         "B": ("K-major (column-major B)", "N-major (row-major B)")}


def _universal(name: str, bits: int) -> dict:
    return {"instruction": name, "thr_id": "1:0", "src": f"(1,{bits}):(0,1)", "dst": f"(1,{bits}):(0,1)",
            "ref": "dst"}


def family_sm80_f16() -> SpecFile:
    f = SpecFile(CATALOG / "sm80_f16.yaml", "catalog_sm80_f16",
                 "SM80 half/bfloat16 mainloops: mma.sync m16n8k16 (and m16n8k8) fed by ldmatrix x1/x2/x4, N on "
                 "K-major and T on MN-major swizzled shared memory, on 1, 2, 4 and 8 warps; CUTLASS's default "
                 "SM80 F32F16 configuration and the sgemm_sm80.cu tutorial exactly, then sweeps around them.",
                 ["../atoms/sm75.yaml", "../atoms/sm80_f16.yaml"], version=2)
    f.copy_atoms["UniversalCopy<half_t>"] = _universal("UniversalCopy<half_t>", 16)
    f.atom_comments["UniversalCopy<half_t>"] = ("CuTe's UniversalCopy<half_t> (Copy_Traits<UniversalCopy<S,D>>: one "
                                                "sizeof_bits<S> move per thread), used by sgemm_sm80.cu's "
                                                "alternatives.")
    tile32 = (128, 32)
    f.section(f"CUTLASS {CUTLASS_CFG}: Sm80 half_t x half_t -> float\n"
              "TileShape 128x128x32, TiledMMA<SM80_16x8x16_F32F16F16F32_TN, Layout<Shape<_2,_2,_1>>, "
              "Tile<_32,_32,_16>>")
    cfg = "DefaultGemmConfigurationToCutlass3Types<OpClassTensorOp, Sm80, half_t, ..., float>"
    for op in ("A", "B"):
        operand_check(f, f"cutlass_sm80_f32f16_{op.lower()}_kmajor_sw233_128x32",
                      f"{cfg}: operand {op} {MAJOR[op][0]}, kBlock 32: SmemLayoutAtom Swizzle<2,3,3> o "
                      "(8,32):(32,1) tiled to 128x32, SmemCopyAtom Copy_Atom<SM75_U32x4_LDSM_N, half_t>; "
                      "bank-conflict free.",
                      F32F16, 4, [32, 32, 16], op, LDSM_N[4], "half_t", H_K_SW64, tile32, banks=CONFLICT_FREE)
        operand_check(f, f"cutlass_sm80_f32f16_{op.lower()}_mnmajor_sw333_128x32",
                      f"{cfg}: operand {op} {MAJOR[op][1]}: SmemLayoutAtom Swizzle<3,3,3> o (64,8):(1,64) tiled "
                      "to 128x32, SmemCopyAtom Copy_Atom<SM75_U16x8_LDSM_T, half_t>; bank-conflict free.",
                      F32F16, 4, [32, 32, 16], op, LDSM_T[4], "half_t", H_MN_SW128, tile32, banks=CONFLICT_FREE)
        operand_check(f, f"cutlass_sm80_f32f16_{op.lower()}_kmajor_sw333_128x64",
                      f"{cfg}: the kBlock-64 specialization of operand {op} {MAJOR[op][0]}: Swizzle<3,3,3> o "
                      "(8,64):(64,1) tiled to 128x64, Copy_Atom<SM75_U32x4_LDSM_N, half_t>; bank-conflict free.",
                      F32F16, 4, [32, 32, 16], op, LDSM_N[4], "half_t", H_K_SW128, (128, 64), banks=CONFLICT_FREE)

    f.section(f"CUTLASS {TUTORIAL}: gemm_tn<half_t>, bM = bN = 128, bK = 64\n"
              "TiledMMA make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2,_2>>{}, "
              "Tile<_32,_32,_16>{}); swizzle_atom = Swizzle<3,3,3> o (8,(8,8)):(8,(1,64))")
    for op in ("A", "B"):
        for n, used in ((4, "the s2r atom it uses"), (2, "a commented alternative"), (1, "a commented alternative")):
            operand_check(f, f"tutorial_sgemm_sm80_{op.lower()}_ldsm_x{n}",
                          f"{TUTORIAL} gemm_tn: s2r_atom_{op} = Copy_Atom<{LDSM_N[n]}, half_t> ({used}) on "
                          f"s{op} = tile_to_shape(swizzle_atom, 128x64).",
                          F16F16, 4, [32, 32, 16], op, LDSM_N[n], "half_t", H_TUTORIAL, (128, 64))
        operand_check(f, f"tutorial_sgemm_sm80_{op.lower()}_universal_half",
                      f"{TUTORIAL} gemm_tn: s2r_atom_{op} = Copy_Atom<UniversalCopy<half_t>, half_t> (a commented "
                      "alternative: one 16-bit load per value).",
                      F16F16, 4, [32, 32, 16], op, "UniversalCopy<half_t>", "half_t", H_TUTORIAL, (128, 64))

    f.section("warp sweep: 1, 2, 4 and 8 warps, Tile<16*WM, 16*WN, 16>, operand tiles 128x64, ldmatrix x4\n"
              "(the F32F16 configuration's copy atoms on CUTLASS's 128-byte swizzle atoms)")
    for warps in (1, 2, 4, 8):
        for op in ("A", "B"):
            operand_check(f, f"warps{warps}_{op.lower()}_kmajor_ldsm_n_x4",
                          f"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, {_warps_text(warps)}, Tile<"
                          f"{','.join(map(str, _perm(warps, (16, 16, 16))))}>); operand {op} {MAJOR[op][0]} "
                          "Swizzle<3,3,3> o (8,64):(64,1) tiled to 128x64; Copy_Atom<SM75_U32x4_LDSM_N, half_t>.",
                          F32F16, warps, _perm(warps, (16, 16, 16)), op, LDSM_N[4], "half_t", H_K_SW128, (128, 64))
            operand_check(f, f"warps{warps}_{op.lower()}_mnmajor_ldsm_t_x4",
                          f"make_tiled_mma(SM80_16x8x16_F32F16F16F32_TN, {_warps_text(warps)}, Tile<"
                          f"{','.join(map(str, _perm(warps, (16, 16, 16))))}>); operand {op} {MAJOR[op][1]} "
                          "Swizzle<3,3,3> o (64,8):(1,64) tiled to 128x64; Copy_Atom<SM75_U16x8_LDSM_T, half_t>.",
                          F32F16, warps, _perm(warps, (16, 16, 16)), op, LDSM_T[4], "half_t", H_MN_SW128, (128, 64))

    f.section("copy width sweep: ldmatrix x1 / x2 / x4, N and T, on 4 warps (Tile<32,32,16>), 64x64 tiles")
    for n in (1, 2, 4):
        for op in ("A", "B"):
            operand_check(f, f"ldsm_n_x{n}_{op.lower()}_kmajor_64x64",
                          f"Copy_Atom<{LDSM_N[n]}, half_t> for operand {op} {MAJOR[op][0]}, Swizzle<3,3,3> o "
                          "(8,64):(64,1) tiled to 64x64, 2x2 warps, Tile<32,32,16>.",
                          F32F16, 4, [32, 32, 16], op, LDSM_N[n], "half_t", H_K_SW128, (64, 64))
            operand_check(f, f"ldsm_t_x{n}_{op.lower()}_mnmajor_64x64",
                          f"Copy_Atom<{LDSM_T[n]}, half_t> for operand {op} {MAJOR[op][1]}, Swizzle<3,3,3> o "
                          "(64,8):(1,64) tiled to 64x64, 2x2 warps, Tile<32,32,16>.",
                          F32F16, 4, [32, 32, 16], op, LDSM_T[n], "half_t", H_MN_SW128, (64, 64))

    f.section("swizzle atom x tile sweep: Sw<1,3,3>, Sw<2,3,3>, Sw<3,3,3>, K-major (LDSM_N x4) and MN-major\n"
              "(LDSM_T x4), tiled to 64x64, 128x64 and 128x128 (A) and 128x128 (B), 2x2 warps")
    sweeps = ((H_K_SW32, "k_sw133", LDSM_N[4], 0), (H_K_SW64, "k_sw233", LDSM_N[4], 0),
              (H_K_SW128, "k_sw333", LDSM_N[4], 0), (H_MN_SW32, "mn_sw133", LDSM_T[4], 1),
              (H_MN_SW64, "mn_sw233", LDSM_T[4], 1), (H_MN_SW128, "mn_sw333", LDSM_T[4], 1))
    for atom, tag, copy, major in sweeps:
        for op, shapes in (("A", ((64, 64), (128, 64), (128, 128))), ("B", ((128, 128),))):
            for shape in shapes:
                operand_check(f, f"swizzle_{op.lower()}_{tag}_{shape_text(shape)}",
                              f"Operand {op} {MAJOR[op][major]}: {atom.text()} ({atom.what}) tiled to "
                              f"{shape_text(shape)}, Copy_Atom<{copy}, half_t>, SM80_16x8x16_F32F16F16F32_TN on 2x2 "
                              "warps, Tile<32,32,16>.",
                              F32F16, 4, [32, 32, 16], op, copy, "half_t", atom, shape)

    f.section("a swizzle whose period exceeds the atom's rows is still correct for ldmatrix (bank conflicts only)")
    operand_check(f, "swizzle_period_exceeds_rows_sw333_on_64B_rows",
                  "NOT a correctness bug (documented): the 128-byte-row Swizzle<3,3,3> composed with a 64-byte-row "
                  "K-major atom (8,32):(32,1) and tiled to 128x32. Its period (1024 bytes) exceeds the atom, so it "
                  "xors chunks across neighbouring rows, but every 16-byte ldmatrix row stays whole and aligned and "
                  "the map stays one-to-one: the load is correct (it only keeps some bank conflicts).",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "half_t", SmemAtom("Sw<3,3,3>", "(8,32):(32,1)", ""),
                  (128, 32))
    operand_check(f, "swizzle_period_exceeds_tile_sw333_16x16",
                  "NOT a correctness bug (documented): Swizzle<3,3,3> (period 512 halves) on a single 16x16 K-major "
                  "tile of 256 halves: the swizzle stays inside the tile and keeps 16-byte rows whole.",
                  F16F16, 1, [16, 16, 16], "A", LDSM_N[4], "half_t", None, (16, 16),
                  raw_smem=cute("Sw<3,3,3> o (16,16):(16,1)"))

    f.section("bfloat16_t: SM80_16x8x16_F32BF16BF16F32_TN with the same copies (2x2 warps, Tile<32,32,16>)")
    for op in ("A", "B"):
        operand_check(f, f"bf16_{op.lower()}_kmajor_ldsm_n_x4_128x64",
                      f"bfloat16_t operand {op} {MAJOR[op][0]}: Swizzle<3,3,3> o (8,64):(64,1) tiled to 128x64, "
                      "Copy_Atom<SM75_U32x4_LDSM_N, bfloat16_t>.",
                      BF16, 4, [32, 32, 16], op, LDSM_N[4], "bfloat16_t", H_K_SW128, (128, 64))
        operand_check(f, f"bf16_{op.lower()}_mnmajor_ldsm_t_x4_128x64",
                      f"bfloat16_t operand {op} {MAJOR[op][1]}: Swizzle<3,3,3> o (64,8):(1,64) tiled to 128x64, "
                      "Copy_Atom<SM75_U16x8_LDSM_T, bfloat16_t>.",
                      BF16, 4, [32, 32, 16], op, LDSM_T[4], "bfloat16_t", H_MN_SW128, (128, 64))

    f.section("k = 8 atoms: SM80_16x8x8_F32F16F16F32_TN and Turing's SM75_16x8x8_F32F16F16F32_TN")
    for mma in ("SM80_16x8x8_F32F16F16F32_TN", "SM75_16x8x8_F32F16F16F32_TN"):
        tag = mma.split("_")[0].lower()
        for op in ("A", "B"):
            operand_check(f, f"{tag}_k8_{op.lower()}_kmajor_ldsm_n_x4",
                          f"{mma} on 2x2 warps, Tile<32,32,16> (two atoms along K per ldmatrix.x4); operand {op} "
                          "K-major Swizzle<3,3,3> o (8,64):(64,1) tiled to 64x64, "
                          "Copy_Atom<SM75_U32x4_LDSM_N, half_t>.",
                          mma, 4, [32, 32, 16], op, LDSM_N[4], "half_t", H_K_SW128, (64, 64))
        operand_check(f, f"{tag}_k8_a_kmajor_ldsm_n_x2_1warp",
                      f"{mma} on one warp: its 16x8 A tile is exactly one ldmatrix.x2 "
                      "(Copy_Atom<SM75_U32x2_LDSM_N, half_t>), K-major 16x8.",
                      mma, 1, None, "A", LDSM_N[2], "half_t", None, (16, 8), raw_smem="(16,8):(8,1)")
        operand_check(f, f"{tag}_k8_b_kmajor_ldsm_n_x1_1warp",
                      f"{mma} on one warp: its 8x8 B tile is exactly one ldmatrix.x1 "
                      "(Copy_Atom<SM75_U32x1_LDSM_N, half_t>), K-major 8x8.",
                      mma, 1, None, "B", LDSM_N[1], "half_t", None, (8, 8), raw_smem="(8,8):(8,1)")
    return f


TF32 = "SM80_16x8x8_F32TF32TF32F32_TN"
TF32_WARPS = "(2,2,1):(2,1,1)"


def family_sm80_tf32() -> SpecFile:
    f = SpecFile(CATALOG / "sm80_tf32.yaml", "catalog_sm80_tf32",
                 "SM80 tfloat32 mainloops: mma.sync m16n8k8 (and m16n8k4) tf32 on CUTLASS's strided 2x2 warp "
                 "layout (2,2,1):(2,1,1); K-major operands through ldmatrix (Copy_Atom<SM75_U32x4_LDSM_N, "
                 "tfloat32_t>) on Swizzle<3,2,3> / Swizzle<2,2,3> atoms, MN-major operands through "
                 "UniversalCopy<tfloat32_t> on Swizzle<3,2,3>.",
                 ["../atoms/sm75.yaml", "../atoms/sm80_tf32.yaml"], version=2)
    f.copy_atoms["UniversalCopy<tfloat32_t>"] = _universal("UniversalCopy<tfloat32_t>", 32)
    f.atom_comments["UniversalCopy<tfloat32_t>"] = (
        "CuTe's UniversalCopy<tfloat32_t>: one 32-bit load per thread (CUTLASS's SmemCopyAtom for MN-major tf32).")
    cfg = "DefaultGemmConfigurationToCutlass3Types<OpClassTensorOp, Sm80, tfloat32_t, ..., float>"
    f.section(f"CUTLASS {CUTLASS_CFG}: Sm80 tfloat32_t x tfloat32_t -> float\n"
              "TileShape 128x128x32, TiledMMA<SM80_16x8x8_F32TF32TF32F32_TN, Layout<Shape<_2,_2,_1>, "
              "Stride<_2,_1,_1>>, Tile<_32,_32,_8>>")
    for op in ("A", "B"):
        operand_check(f, f"cutlass_sm80_tf32_{op.lower()}_kmajor_sw323_128x32",
                      f"{cfg}: operand {op} {MAJOR[op][0]}, kBlock 32: Swizzle<3,2,3> o (8,32):(32,1) tiled to "
                      "128x32, Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>; bank-conflict free.",
                      TF32, TF32_WARPS, [32, 32, 8], op, LDSM_N[4], "tfloat32_t", T_K_SW128, (128, 32),
                      banks=CONFLICT_FREE)
        operand_check(f, f"cutlass_sm80_tf32_{op.lower()}_kmajor_sw223_128x16",
                      f"{cfg}: operand {op} {MAJOR[op][0]}, kBlock 16: Swizzle<2,2,3> o (8,16):(16,1) tiled to "
                      "128x16, Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>; bank-conflict free.",
                      TF32, TF32_WARPS, [32, 32, 8], op, LDSM_N[4], "tfloat32_t", T_K_SW64, (128, 16),
                      banks=CONFLICT_FREE)
        operand_check(f, f"cutlass_sm80_tf32_{op.lower()}_mnmajor_sw323_128x32",
                      f"{cfg}: operand {op} {MAJOR[op][1]}: Swizzle<3,2,3> o (32,8):(1,32) tiled to 128x32, "
                      "Copy_Atom<UniversalCopy<tfloat32_t>, tfloat32_t>; its wavefronts reported (banks: report).",
                      TF32, TF32_WARPS, [32, 32, 8], op, "UniversalCopy<tfloat32_t>", "tfloat32_t", T_MN_SW128,
                      (128, 32), banks=REPORT)
        operand_check(f, f"cutlass_sm80_tf32_{op.lower()}_mnmajor_sw323_128x32_banks",
                      f"Finding: {cfg}'s operand {op} {MAJOR[op][1]} (Swizzle<3,2,3> o (32,8):(1,32) tiled to "
                      "128x32, UniversalCopy<tfloat32_t>) is correct but not bank-conflict free: every warp's "
                      "32-bit LDS takes 2 wavefronts (lanes 0 and 17 read words 0 and 32 of bank 0).",
                      TF32, TF32_WARPS, [32, 32, 8], op, "UniversalCopy<tfloat32_t>", "tfloat32_t", T_MN_SW128,
                      (128, 32), banks=CONFLICT_FREE, expect="fail")
    f.section("warp sweep: 1, 2, 4 (plain 2x2x1) and 8 warps, Tile<16*WM, 16*WN, 8>, 64x32 / 128x32 tiles")
    for warps in (1, 2, 4, 8):
        for op in ("A", "B"):
            perm = _perm(warps, (16, 16, 8))
            shape = (128, 32) if warps == 8 else (64, 32)
            operand_check(f, f"warps{warps}_{op.lower()}_kmajor_ldsm_n_x4",
                          f"make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN, {_warps_text(warps)}, Tile<"
                          f"{','.join(map(str, perm))}>); operand {op} {MAJOR[op][0]} Swizzle<3,2,3> o "
                          f"(8,32):(32,1) tiled to {shape_text(shape)}; Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>.",
                          TF32, warps, perm, op, LDSM_N[4], "tfloat32_t", T_K_SW128, shape)
            operand_check(f, f"warps{warps}_{op.lower()}_mnmajor_universal",
                          f"make_tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN, {_warps_text(warps)}, Tile<"
                          f"{','.join(map(str, perm))}>); operand {op} {MAJOR[op][1]} Swizzle<3,2,3> o "
                          f"(32,8):(1,32) tiled to {shape_text(shape)}; Copy_Atom<UniversalCopy<tfloat32_t>, "
                          "tfloat32_t>.",
                          TF32, warps, perm, op, "UniversalCopy<tfloat32_t>", "tfloat32_t", T_MN_SW128, shape)
    f.section("ldmatrix x1 / x2 with 32-bit elements on the strided 2x2 warps, 64x32 tiles")
    for n in (1, 2):
        for op in ("A", "B"):
            operand_check(f, f"ldsm_n_x{n}_{op.lower()}_kmajor_64x32",
                          f"Copy_Atom<{LDSM_N[n]}, tfloat32_t> for operand {op} {MAJOR[op][0]}, Swizzle<3,2,3> o "
                          "(8,32):(32,1) tiled to 64x32, TiledMMA (2,2,1):(2,1,1), Tile<32,32,8>.",
                          TF32, TF32_WARPS, [32, 32, 8], op, LDSM_N[n], "tfloat32_t", T_K_SW128, (64, 32))
    f.section("m16n8k4: SM80_16x8x4_F32TF32TF32F32_TN on one warp")
    operand_check(f, "k4_a_kmajor_ldsm_n_x2",
                  "SM80_16x8x4_F32TF32TF32F32_TN on one warp: its 16x4 tf32 A tile (16 rows of 16 bytes) is one "
                  "ldmatrix.x2, Copy_Atom<SM75_U32x2_LDSM_N, tfloat32_t>, K-major 16x4.",
                  "SM80_16x8x4_F32TF32TF32F32_TN", 1, None, "A", LDSM_N[2], "tfloat32_t", None, (16, 4),
                  raw_smem="(16,4):(4,1)")
    operand_check(f, "k4_b_kmajor_ldsm_n_x1",
                  "SM80_16x8x4_F32TF32TF32F32_TN on one warp: its 8x4 tf32 B tile is one ldmatrix.x1, "
                  "Copy_Atom<SM75_U32x1_LDSM_N, tfloat32_t>, K-major 8x4.",
                  "SM80_16x8x4_F32TF32TF32F32_TN", 1, None, "B", LDSM_N[1], "tfloat32_t", None, (8, 4),
                  raw_smem="(8,4):(4,1)")
    return f


S8 = "SM80_16x8x32_S32S8S8S32_TN"


def family_sm80_int8() -> SpecFile:
    f = SpecFile(CATALOG / "sm80_int8.yaml", "catalog_sm80_int8",
                 "SM80 8-bit integer mainloops: mma.sync m16n8k32 (and m16n8k16, Turing m8n8k16) s8/u8 fed by "
                 "ldmatrix with 8-bit value types (CUTLASS's Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>) from K-major "
                 "Swizzle<2,4,3> / GMMA-style 32/64/128-byte swizzled shared memory. (ldmatrix.trans moves 16-bit "
                 "elements, so 8-bit MN-major operands have no ldmatrix path: see specs/mistakes.yaml.)",
                 ["../atoms/sm75.yaml", "../atoms/sm80_int8.yaml"], version=2)
    cfg = "DefaultGemmConfigurationToCutlass3Types<OpClassTensorOp, Sm80, int8_t RowMajor, int8_t ColumnMajor, int32_t>"
    f.section(f"CUTLASS {CUTLASS_CFG}: Sm80 int8_t TN -> int32_t\n"
              "TileShape 128x128x64, TiledMMA<SM80_16x8x32_S32S8S8S32_TN, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_32>>")
    for op in ("A", "B"):
        operand_check(f, f"cutlass_sm80_s8_{op.lower()}_kmajor_sw243_128x64",
                      f"{cfg}: operand {op} K-major: Swizzle<2,4,3> o (16,64):(64,1) tiled to 128x64, "
                      "SmemCopyAtom Copy_Atom<SM75_U32x4_LDSM_N, uint8_t> (\"LDSM works\"); bank-conflict free.",
                      S8, 4, [32, 32, 32], op, LDSM_N[4], "uint8_t", B_K_CUTLASS, (128, 64), banks=CONFLICT_FREE)
        operand_check(f, f"cutlass_sm80_s8_{op.lower()}_kmajor_sw243_128x64_int8",
                      f"{cfg} with the copy atom typed as the MMA's own int8_t (Copy_Atom<SM75_U32x4_LDSM_N, "
                      "int8_t>).",
                      S8, 4, [32, 32, 32], op, LDSM_N[4], "int8_t", B_K_CUTLASS, (128, 64))
    f.section("warp sweep: 1, 2, 4 and 8 warps, Tile<16*WM, 16*WN, 32>, Swizzle<2,4,3> o (16,64):(64,1), 128x64")
    for warps in (1, 2, 8):
        for op in ("A", "B"):
            perm = _perm(warps, (16, 16, 32))
            operand_check(f, f"warps{warps}_{op.lower()}_kmajor_ldsm_n_x4",
                          f"make_tiled_mma(SM80_16x8x32_S32S8S8S32_TN, {_warps_text(warps)}, Tile<"
                          f"{','.join(map(str, perm))}>); operand {op} K-major Swizzle<2,4,3> o (16,64):(64,1) "
                          "tiled to 128x64; Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>.",
                          S8, warps, perm, op, LDSM_N[4], "uint8_t", B_K_CUTLASS, (128, 64))
    f.section("8-bit swizzle atoms (GMMA Layout_K_SW32/SW64/SW128_Atom for 8-bit types as element swizzles\n"
              "Sw<1,4,3>, Sw<2,4,3>, Sw<3,4,3>) tiled to 64x64, 128x64, 128x128; 2x2 warps")
    for atom, tag in ((B_K_SW32, "sw143"), (B_K_SW64, "sw243"), (B_K_SW128, "sw343")):
        shapes = ((64, 64), (128, 64), (128, 128)) if atom is not B_K_SW128 else ((64, 128), (128, 128))
        for shape in shapes:
            operand_check(f, f"swizzle_a_{tag}_{shape_text(shape)}",
                          f"Operand A K-major: {atom.text()} ({atom.what}) tiled to {shape_text(shape)}, "
                          "Copy_Atom<SM75_U32x4_LDSM_N, int8_t>, 2x2 warps, Tile<32,32,32>.",
                          S8, 4, [32, 32, 32], "A", LDSM_N[4], "int8_t", atom, shape)
        operand_check(f, f"swizzle_b_{tag}_128x128",
                      f"Operand B K-major: {atom.text()} ({atom.what}) tiled to 128x128, "
                      "Copy_Atom<SM75_U32x4_LDSM_N, int8_t>, 2x2 warps, Tile<32,32,32>.",
                      S8, 4, [32, 32, 32], "B", LDSM_N[4], "int8_t", atom, (128, 128))
    f.section("copy width: ldmatrix x1 / x2 with 8-bit elements, 2x2 warps, 64x64 tiles")
    for n in (1, 2):
        for op in ("A", "B"):
            operand_check(f, f"ldsm_n_x{n}_{op.lower()}_kmajor_64x64",
                          f"Copy_Atom<{LDSM_N[n]}, uint8_t> for operand {op} K-major, Swizzle<2,4,3> o "
                          "(16,64):(64,1) tiled to 64x64, 2x2 warps, Tile<32,32,32>.",
                          S8, 4, [32, 32, 32], op, LDSM_N[n], "uint8_t", B_K_CUTLASS, (64, 64))
    f.section("other 8-bit atoms: m16n8k16 s8, m16n8k32 u8, Turing's m8n8k16")
    for op in ("A", "B"):
        operand_check(f, f"k16_{op.lower()}_kmajor_ldsm_n_x4",
                      f"SM80_16x8x16_S32S8S8S32_TN on 2x2 warps, Tile<32,32,32> (two atoms along K per "
                      f"ldmatrix.x4); operand {op} K-major Swizzle<2,4,3> o (16,64):(64,1) tiled to 64x64; "
                      "Copy_Atom<SM75_U32x4_LDSM_N, int8_t>.",
                      "SM80_16x8x16_S32S8S8S32_TN", 4, [32, 32, 32], op, LDSM_N[4], "int8_t", B_K_CUTLASS, (64, 64))
        operand_check(f, f"u8_{op.lower()}_kmajor_ldsm_n_x4",
                      f"SM80_16x8x32_S32U8U8S32_TN on 2x2 warps, Tile<32,32,32>; operand {op} K-major "
                      "Swizzle<2,4,3> o (16,64):(64,1) tiled to 128x64; Copy_Atom<SM75_U32x4_LDSM_N, uint8_t>.",
                      "SM80_16x8x32_S32U8U8S32_TN", 4, [32, 32, 32], op, LDSM_N[4], "uint8_t", B_K_CUTLASS,
                      (128, 64))
        operand_check(f, f"sm75_m8n8k16_{op.lower()}_kmajor_ldsm_n_x1",
                      f"SM75_8x8x16_S32S8S8S32_TN on one warp: its 8x16 int8 {op} tile is one ldmatrix.x1 "
                      "(Copy_Atom<SM75_U32x1_LDSM_N, int8_t>), K-major 8x16.",
                      "SM75_8x8x16_S32S8S8S32_TN", 1, None, op, LDSM_N[1], "int8_t", None, (8, 16),
                      raw_smem="(8,16):(16,1)")
    return f


FP8 = "SM89_16x8x32_F32E4M3E4M3F32_TN"


def family_sm89_fp8() -> SpecFile:
    f = SpecFile(CATALOG / "sm89_fp8.yaml", "catalog_sm89_fp8",
                 "SM89 (Ada) fp8 mainloops: mma.sync m16n8k32 e4m3/e5m2 fed by ldmatrix with 8-bit float value "
                 "types from K-major swizzled shared memory (the int8 configuration of CUTLASS's SM80 defaults "
                 "with the SM89 fp8 atoms).",
                 ["../atoms/sm75.yaml", "../atoms/sm89.yaml"])
    f.section("float_e4m3_t: CUTLASS's SM80 8-bit configuration (2x2 warps, Tile<32,32,32>, Swizzle<2,4,3> o\n"
              "(16,64):(64,1)) with SM89_16x8x32_F32E4M3E4M3F32_TN, and the warp sweep")
    for warps in (1, 2, 4, 8):
        perm = _perm(warps, (16, 16, 32))
        for op in ("A", "B"):
            operand_check(f, f"e4m3_warps{warps}_{op.lower()}_kmajor_ldsm_n_x4",
                          f"make_tiled_mma(SM89_16x8x32_F32E4M3E4M3F32_TN, {_warps_text(warps)}, Tile<"
                          f"{','.join(map(str, perm))}>); operand {op} K-major Swizzle<2,4,3> o (16,64):(64,1) "
                          "tiled to 128x64; Copy_Atom<SM75_U32x4_LDSM_N, float_e4m3_t>.",
                          FP8, warps, perm, op, LDSM_N[4], "float_e4m3_t", B_K_CUTLASS, (128, 64))
    f.section("128-byte swizzle (Sw<3,4,3> o (8,128):(128,1)) tiled to 128x128, and ldmatrix x1 / x2")
    for op in ("A", "B"):
        operand_check(f, f"e4m3_{op.lower()}_kmajor_sw343_128x128",
                      f"SM89_16x8x32_F32E4M3E4M3F32_TN on 2x2 warps; operand {op} K-major Sw<3,4,3> o (8,128):(128,1) "
                      "(Layout_K_SW128_Atom<float_e4m3_t>) tiled to 128x128; Copy_Atom<SM75_U32x4_LDSM_N, "
                      "float_e4m3_t>.",
                      FP8, 4, [32, 32, 32], op, LDSM_N[4], "float_e4m3_t", B_K_SW128, (128, 128))
        for n in (1, 2):
            operand_check(f, f"e4m3_{op.lower()}_kmajor_ldsm_n_x{n}",
                          f"SM89_16x8x32_F32E4M3E4M3F32_TN on 2x2 warps; operand {op} K-major Swizzle<2,4,3> o "
                          f"(16,64):(64,1) tiled to 64x64; Copy_Atom<{LDSM_N[n]}, float_e4m3_t>.",
                          FP8, 4, [32, 32, 32], op, LDSM_N[n], "float_e4m3_t", B_K_CUTLASS, (64, 64))
    f.section("the other fp8 atoms: e5m2 operands, f16 accumulators")
    for mma, types in (("SM89_16x8x32_F32E5M2E5M2F32_TN", ("float_e5m2_t", "float_e5m2_t")),
                       ("SM89_16x8x32_F32E4M3E5M2F32_TN", ("float_e4m3_t", "float_e5m2_t")),
                       ("SM89_16x8x32_F16E4M3E4M3F16_TN", ("float_e4m3_t", "float_e4m3_t"))):
        for op, vt in zip(("A", "B"), types):
            operand_check(f, f"{mma.split('_')[2].lower()}_{op.lower()}_kmajor_ldsm_n_x4",
                          f"{mma} on 2x2 warps, Tile<32,32,32>; operand {op} K-major Swizzle<2,4,3> o "
                          f"(16,64):(64,1) tiled to 128x64; Copy_Atom<SM75_U32x4_LDSM_N, {vt}>.",
                          mma, 4, [32, 32, 32], op, LDSM_N[4], vt, B_K_CUTLASS, (128, 64))
    return f


F64 = "SM80_8x8x4_F64F64F64F64_TN"
F64_PERM = ["(16,2):(2,1)", "(16,2):(2,1)"]


def family_sm80_f64() -> SpecFile:
    f = SpecFile(CATALOG / "sm80_f64.yaml", "catalog_sm80_f64",
                 "SM80 double mainloops: mma.sync m8n8k4 f64 on 2x2 warps with CUTLASS's vectorizing permutation "
                 "Tile<(16,2):(2,1), (16,2):(2,1), _>, Swizzle<2,0,4> / Swizzle<2,2,2> shared memory, one double "
                 "per copy (CUTLASS's DefaultCopy, written here as UniversalCopy<double>) or two "
                 "(UniversalCopy<uint128_t>) where the permutation makes them adjacent, and the DefaultCopy "
                 "originals (element-wise copies of one double).",
                 ["../atoms/generic.yaml", "../atoms/sm80_f64.yaml"])
    f.copy_atoms["UniversalCopy<double>"] = _universal("UniversalCopy<double>", 64)
    f.atom_comments["UniversalCopy<double>"] = (
        "CuTe's UniversalCopy<double>: one 64-bit move per thread and value, the data movement of\n"
        "Copy_Atom<DefaultCopy, double>, CUTLASS's f64 SmemCopyAtom, spelled with an explicit width.")
    configs = (("TN", "RowMajor", "ColumnMajor", D_K, D_K), ("NN", "ColumnMajor", "ColumnMajor", D_MN, D_K),
               ("NT", "ColumnMajor", "RowMajor", D_MN, D_MN), ("TT", "RowMajor", "RowMajor", D_K, D_MN))
    for tag, la, lb, atom_a, atom_b in configs:
        f.section(f"CUTLASS {CUTLASS_CFG}: Sm80 double {tag} (A {la}, B {lb}), TileShape 128x64x16,\n"
                  "TiledMMA<SM80_8x8x4_F64F64F64F64_TN, Layout<Shape<_2,_2,_1>>, Tile<Layout<Shape<_16,_2>,"
                  "Stride<_2,_1>>, Layout<Shape<_16,_2>,Stride<_2,_1>>, Underscore>>")
        for op, atom, shape in (("A", atom_a, (128, 16)), ("B", atom_b, (64, 16))):
            cfgtxt = (f"DefaultGemmConfigurationToCutlass3Types<Sm80, double {la}, double {lb}>: operand {op} "
                      f"SmemLayoutAtom {atom.text()} tiled to {shape_text(shape)}")
            operand_check(f, f"cutlass_sm80_f64_{tag.lower()}_{op.lower()}_universal",
                          f"{cfgtxt}, SmemCopyAtom Copy_Atom<DefaultCopy, double> written as "
                          "Copy_Atom<UniversalCopy<double>, double>.",
                          F64, 4, F64_PERM, op, "UniversalCopy<double>", "double", atom, shape)
            operand_check(f, f"cutlass_sm80_f64_{tag.lower()}_{op.lower()}_defaultcopy",
                          f"{cfgtxt}, SmemCopyAtom Copy_Atom<DefaultCopy, double> as CUTLASS writes it: "
                          "an element-wise copy of one double per thread and value.",
                          F64, 4, F64_PERM, op, "DefaultCopy", "double", atom, shape)
            if atom is D_MN:
                operand_check(f, f"cutlass_sm80_f64_{tag.lower()}_{op.lower()}_vector128",
                              f"{cfgtxt}: the permutation (16,2):(2,1) makes each thread's two "
                              f"{'M' if op == 'A' else 'N'} values adjacent (\"perm for load vectorization\"), so "
                              "Copy_Atom<UniversalCopy<uint128_t>, double> loads them with one 128-bit LDS.",
                              F64, 4, F64_PERM, op, "UniversalCopy<uint128_t>", "double", atom, shape)
    f.section("the smem epilogue sketched (commented out) beside the NN configuration: accumulators to a\n"
              "(64,32):(1,64) tile with Copy_Atom<UniversalCopy<double>, double> built from the tiled MMA")
    operand_check(f, "cutlass_sm80_f64_epilogue_c_universal",
                  f"{CUTLASS_CFG}, Sm80 double NN, the commented epilogue::collective::Epilogue: SMEM layout "
                  "Layout<Shape<_64,_32>, Stride<_1,_64>>, R2S Copy_Atom<UniversalCopy<double>, double> "
                  "\"with tiled_mma layout\".",
                  F64, 4, F64_PERM, "C", "UniversalCopy<double>", "double", None, (64, 32),
                  raw_smem="(64,32):(1,64)")
    return f


def family_sm90_f64() -> SpecFile:
    f = SpecFile(CATALOG / "sm90_f64.yaml", "catalog_sm90_f64",
                 "SM90 (Hopper) double mainloop on mma.sync: CUTLASS's Hopper fp64 TN default configuration "
                 "(SM90_16x8x16_F64F64F64F64_TN on 2x2 warps, K-major make_ordered_layout smem, DefaultCopy), "
                 "and the m16n8k4 / m16n8k8 atoms with the same copies.",
                 ["../atoms/generic.yaml", "../atoms/sm90.yaml"])
    f.copy_atoms["UniversalCopy<double>"] = _universal("UniversalCopy<double>", 64)
    f.atom_comments["UniversalCopy<double>"] = (
        "CuTe's UniversalCopy<double>: one 64-bit move per thread and value, the data movement of\n"
        "Copy_Atom<DefaultCopy, double>, CUTLASS's f64 SmemCopyAtom, spelled with an explicit width.")
    f.section(f"CUTLASS {CUTLASS_CFG}: Sm90 double TN, TileShape 128x64x16,\n"
              "TiledMMA<SM90_16x8x16_F64F64F64F64_TN, Layout<Shape<_2,_2,_1>>>, "
              "make_ordered_layout(Shape<_128,_16>, Step<_2,_1>)")
    for op, shape in (("A", (128, 16)), ("B", (64, 16))):
        layout = cute(f"({shape[0]},{shape[1]}):({shape[1]},1)")
        cfgtxt = (f"DefaultGemmConfigurationToCutlass3Types<Sm90, double RowMajor, double ColumnMajor>: operand {op} "
                  f"SmemLayoutAtom make_ordered_layout(Shape<_{shape[0]},_16>, Step<_2,_1>) = {layout}")
        operand_check(f, f"cutlass_sm90_f64_tn_{op.lower()}_universal",
                      f"{cfgtxt}, SmemCopyAtom Copy_Atom<DefaultCopy, double> written as "
                      "Copy_Atom<UniversalCopy<double>, double>.",
                      "SM90_16x8x16_F64F64F64F64_TN", 4, None, op, "UniversalCopy<double>", "double", None, shape,
                      raw_smem=layout)
        operand_check(f, f"cutlass_sm90_f64_tn_{op.lower()}_defaultcopy",
                      f"{cfgtxt}, SmemCopyAtom Copy_Atom<DefaultCopy, double> as CUTLASS writes it: an "
                      "element-wise copy of one double per thread and value.",
                      "SM90_16x8x16_F64F64F64F64_TN", 4, None, op, "DefaultCopy", "double", None, shape,
                      raw_smem=layout)
    f.section("the other Hopper f64 mma.sync atoms on 2x2 warps, K-major 64x16 tiles, UniversalCopy<double>")
    for mma in ("SM90_16x8x4_F64F64F64F64_TN", "SM90_16x8x8_F64F64F64F64_TN"):
        for op in ("A", "B"):
            operand_check(f, f"{mma.split('_')[1].lower()}_{op.lower()}_kmajor_universal",
                          f"{mma} on 2x2 warps; operand {op} K-major (64,16):(16,1); "
                          "Copy_Atom<UniversalCopy<double>, double>.",
                          mma, 4, None, op, "UniversalCopy<double>", "double", None, (64, 16),
                          raw_smem=cute("(64,16):(16,1)"))
    return f


def family_sm90_epilogue() -> SpecFile:
    f = SpecFile(CATALOG / "sm90_epilogue_stsm.yaml", "catalog_sm90_epilogue_stsm",
                 "SM90 epilogue register-to-shared stores: the accumulator (C) tile stored with stmatrix, "
                 "SM90_U32x4_STSM_N / SM90_U32x2_STSM_N on row-major (N-major) D and SM90_U16x8_STSM_T / "
                 "SM90_U16x4_STSM_T on column-major (M-major) D, on the GMMA swizzle atoms CUTLASS's epilogue "
                 "builder selects. The accumulator layout of a warpgroup (4 warps stacked along M, 16 rows each) "
                 "is written with the mma.sync m16n8k16 atom on [4,1,1] warps (the same TV layout per warp).",
                 ["../atoms/sm75.yaml", "../atoms/sm80_f16.yaml", "../atoms/sm90.yaml"], version=2)
    sel = (f"{EPI_COMMON} sm90_get_smem_store_op_for_accumulator and {EPI_BUILDER} "
           "sm90_get_epilogue_smem_swizzle_layout_atom (ss_smem_selector)")
    f.section(f"{sel}:\nrow-major D -> STSM_N on ss_smem_selector<K, half_t, EPI_M, EPI_N>, column-major D -> "
              "STSM_T on\nss_smem_selector<MN, half_t, EPI_M, EPI_N>; x4 when EPI_N % 16 == 0, else x2")
    k_atom = {8: gmma_atom(0, "K", 16, "half_t"), 16: gmma_atom(1, "K", 16, "half_t"),
              32: gmma_atom(2, "K", 16, "half_t"), 64: gmma_atom(3, "K", 16, "half_t")}
    mn_atom = gmma_atom(3, "MN", 16, "half_t")
    cases = ((F32F16, "half_t", [4, 1, 1], (64, 32)), (F32F16, "half_t", [4, 1, 1], (64, 64)),
             (F32F16, "half_t", [4, 1, 1], (64, 16)), (F32F16, "half_t", [4, 1, 1], (64, 8)),
             (F32F16, "half_t", [8, 1, 1], (128, 32)), (F32F16, "bfloat16_t", [4, 1, 1], (64, 32)),
             (F16F16, "half_t", [4, 1, 1], (64, 32)))
    for mma, vt, warps, (em, en) in cases:
        n = 4 if en % 16 == 0 else 2
        perm = [16 * warps[0], 16 if n == 4 else 8, 16]
        wg = "1 warpgroup" if warps[0] == 4 else "2 warpgroups (cooperative, 128 rows)"
        acc = "F32 accumulators converted to " + vt if mma == F32F16 else "F16 accumulators"
        tag = f"{'f32acc' if mma == F32F16 else 'f16acc'}_{vt.split('_')[0]}_{em}x{en}"
        katom = k_atom[en]
        converted = {"smem_type": vt} if mma == F32F16 else {}   # the epilogue converts before the store
        operand_check(f, f"stsm_n_x{n}_rowmajor_{tag}",
                      f"Row-major D, EpilogueTile {em}x{en} ({wg}, {acc}): SmemLayoutAtom "
                      f"ss_smem_selector<K, {vt}, {em}, {en}> = {katom.what} = {katom.text()} tiled to "
                      f"{em}x{en}, CopyOpR2S "
                      f"{STSM_N[n]} (Copy_Atom<{STSM_N[n]}, {vt}>).",
                      mma, warps, perm, "C", STSM_N[n], vt, katom, (em, en), **converted)
        operand_check(f, f"stsm_t_x{n}_colmajor_{tag}",
                      f"Column-major D, EpilogueTile {em}x{en} ({wg}, {acc}): SmemLayoutAtom "
                      f"ss_smem_selector<MN, {vt}, {em}, {en}> = {mn_atom.what} = {mn_atom.text()} tiled to "
                      f"{em}x{en}, CopyOpR2S {STSM_T[n]} (Copy_Atom<{STSM_T[n]}, {vt}>).",
                      mma, warps, perm, "C", STSM_T[n], vt, mn_atom, (em, en), **converted)
    f.section(f"{EPI_COMMON} sm90_get_smem_load_op_for_source: the epilogue reloads the source C tile with\n"
              "ldmatrix in the accumulator layout (the partners of the stmatrix stores above)")
    operand_check(f, "epilogue_ldsm_n_x4_source_c",
                  "SM90 epilogue, row-major C, EpilogueTile 64x32: Copy_Atom<SM75_U32x4_LDSM_N, half_t> (the "
                  "partner of SM90_U32x4_STSM_N) loading C from Swizzle<2,3,3> o (8,32):(32,1) tiled to 64x32.",
                  F32F16, [4, 1, 1], [64, 16, 16], "C", LDSM_N[4], "half_t", H_K_SW64, (64, 32), smem_type="half_t")
    operand_check(f, "epilogue_ldsm_t_x4_source_c",
                  "SM90 epilogue, column-major C, EpilogueTile 64x32: Copy_Atom<SM75_U16x8_LDSM_T, half_t> (the "
                  "partner of SM90_U16x8_STSM_T) loading C from Swizzle<3,3,3> o (64,8):(1,64) tiled to 64x32.",
                  F32F16, [4, 1, 1], [64, 16, 16], "C", LDSM_T[4], "half_t", H_MN_SW128, (64, 32), smem_type="half_t")
    return f


# --- mistakes ----------------------------------------------------------------------------------------

def mistakes() -> SpecFile:
    f = SpecFile(SPECS / "mistakes.yaml", "mistakes",
                 "Documented mistakes: each check reproduces a real bug of CuTe/CUTLASS kernels or of CUTLASS's "
                 "own atom definitions and must come back refuted with its counterexample.",
                 ["atoms/sm75.yaml", "atoms/sm80_f16.yaml", "atoms/sm80_tf32.yaml", "atoms/sm80_int8.yaml",
                  "atoms/sm90.yaml", "atoms/sm90_gmma.yaml"], version=2)
    f.comment = ("Every check here is `expect: fail`: `python -m verifier prove specs/mistakes.yaml` exits 0 when "
                 "each\n"
                 "one is refuted, and prints the counterexample chain of each.")
    f.mma_atoms["SM80_16x8x16_F32F16F16F32_TN_MUTATED_A"] = {
        "instruction": "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "shape_mnk": [16, 8, 16],
        "thr_id": "32:1", "types": {"a": "half_t", "b": "half_t", "c": "float", "d": "float"},
        "a": "((4,8),(2,2,2)):((32,1),(16,128,8))", "b": "((4,8),(2,2)):((16,1),(8,64))",
        "c": "((4,8),(2,2)):((32,1),(16,8))"}
    f.atom_comments["SM80_16x8x16_F32F16F16F32_TN_MUTATED_A"] = (
        "SM80_16x8x16_F32F16F16F32_TN with two ALayout value strides swapped: (16,8,128) -> (16,128,8).\n"
        "Still a bijection onto 16x16, no longer the instruction's fragment.")
    f.mma_atoms["SM80_16x8x16_F32F16F16F32_TN_MUTATED_B"] = {
        "instruction": "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", "shape_mnk": [16, 8, 16],
        "thr_id": "32:1", "types": {"a": "half_t", "b": "half_t", "c": "float", "d": "float"},
        "a": "((4,8),(2,2,2)):((32,1),(16,8,128))", "b": "((4,8),(2,2)):((16,1),(64,8))",
        "c": "((4,8),(2,2)):((32,1),(16,8))"}
    f.atom_comments["SM80_16x8x16_F32F16F16F32_TN_MUTATED_B"] = (
        "SM80_16x8x16_F32F16F16F32_TN with the BLayout value strides swapped: (8,64) -> (64,8).")
    f.mma_atoms["SM80_16x8x32_S32S4S4S32_TN_BEFORE_PR3140"] = {
        "instruction": "mma.sync.aligned.m16n8k32.row.col.s32.s4.s4.s32", "shape_mnk": [16, 8, 32],
        "thr_id": "32:1", "types": {"a": "int4b_t", "b": "int4b_t", "c": "int32_t", "d": "int32_t"},
        "a": "((4,8),(8,2)):((128,1),(16,8))", "b": "((4,8),8):((32,1),8)",
        "c": "((4,8),(2,2)):((32,1),(16,8))"}
    f.atom_comments["SM80_16x8x32_S32S4S4S32_TN_BEFORE_PR3140"] = (
        "CUTLASS's MMA_Traits<SM80_16x8x32_S32S4S4S32_TN> before PR #3140: BLayout ((4,8),8):((32,1),8),\n"
        "thread stride 32 where 64 is right (N = 8, so k = 8*(t%4) needs n + 8*k = 64*(t%4)).")
    cfg = "CUTLASS's Sm80 F32F16 configuration (2x2 warps, Tile<32,32,16>)"
    tile = (128, 32)

    f.section("ldmatrix variant vs shared-memory majorness")
    operand_check(f, "n_atom_on_mn_major_smem",
                  f"{cfg} with column-major (M-major) A, Swizzle<3,3,3> o (64,8):(1,64) tiled to 128x32, but the "
                  "row-major specialization's SmemCopyAtom Copy_Atom<SM75_U32x4_LDSM_N, half_t>: an ldmatrix row "
                  "is 8 contiguous halves of K, here they are 64 elements apart.",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "half_t", H_MN_SW128, tile, expect="fail")
    operand_check(f, "t_atom_on_k_major_smem",
                  f"{cfg} with row-major (K-major) A, Swizzle<2,3,3> o (8,32):(32,1) tiled to 128x32, but the "
                  "column-major specialization's Copy_Atom<SM75_U16x8_LDSM_T, half_t>: every 8x8 block arrives "
                  "transposed.",
                  F32F16, 4, [32, 32, 16], "A", LDSM_T[4], "half_t", H_K_SW64, tile, expect="fail")
    operand_check(f, "n_atom_on_n_major_b",
                  f"{cfg}, operand B row-major (N-major), Swizzle<3,3,3> o (64,8):(1,64) tiled to 128x32, loaded "
                  "with Copy_Atom<SM75_U32x4_LDSM_N, half_t> (the A/B symmetry applied the wrong way round).",
                  F32F16, 4, [32, 32, 16], "B", LDSM_N[4], "half_t", H_MN_SW128, tile, expect="fail")
    operand_check(f, "ldsm_t_on_8bit_mn_major",
                  "An int8 NT kernel loading MN-major int8 A with Copy_Atom<SM75_U16x8_LDSM_T, int8_t>: "
                  "ldmatrix.trans transposes 16-bit elements, so pairs of int8 along M stay glued together "
                  "(SM80_16x8x32_S32S8S8S32_TN, 2x2 warps, Tile<32,32,32>, A (32,32):(1,32)).",
                  S8, 4, [32, 32, 32], "A", LDSM_T[4], "int8_t", None, (32, 32), raw_smem="(32,32):(1,32)",
                  expect="fail")

    f.section("swizzles")
    operand_check(f, "swizzle_splits_16B_rows",
                  f"{cfg}, A K-major with the tf32 configuration's Swizzle<3,2,3> o (8,32):(32,1) reused for half_t "
                  "(tiled to 128x32): Swizzle<3,2,3> permutes 4-element (8-byte) chunks of halves, splitting "
                  "ldmatrix's 16-byte rows.",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "half_t", T_K_SW128, tile, expect="fail")
    operand_check(f, "swizzle_splits_16B_rows_tf32",
                  "CUTLASS's Sm80 tf32 configuration, A K-major, with Swizzle<2,1,3> o (8,32):(32,1) (a swizzle of "
                  "2-element, 8-byte chunks) tiled to 64x32 under Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t>: each "
                  "16-byte ldmatrix row of 4 tf32 is split in two.",
                  TF32, TF32_WARPS, [32, 32, 8], "A", LDSM_N[4], "tfloat32_t",
                  SmemAtom("Sw<2,1,3>", "(8,32):(32,1)", "an 8-byte swizzle"), (64, 32), expect="fail")

    f.section("how the tiled copy was built")
    operand_check(f, "copy_b_used_for_a",
                  f"{cfg}: the A fragment loaded through make_tiled_copy_B(Copy_Atom<SM75_U32x4_LDSM_N, half_t>, "
                  "tiled_mma) (a copy-paste of the B path), A K-major Swizzle<2,3,3> tiled to 128x32.",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "half_t", H_K_SW64, tile, copy_for="B", expect="fail")
    operand_check(f, "copy_from_unstrided_tiled_mma",
                  "CUTLASS's Sm80 tf32 configuration runs TiledMMA with Layout<Shape<_2,_2,_1>, Stride<_2,_1,_1>>; "
                  "the smem copy was built with make_tiled_copy_A from a TiledMMA with the default (column-major) "
                  "2x2x1 warp layout: same tile and thread count, different warp for each 16x16 block.",
                  TF32, TF32_WARPS, [32, 32, 8], "A", LDSM_N[4], "tfloat32_t", T_K_SW128, (128, 32),
                  copy_mma={"atom_layout": [2, 2, 1]}, expect="fail")
    operand_check(f, "copy_from_smaller_tiled_mma",
                  "The A copy was built from a 1-warp TiledMMA (make_tiled_copy_A(atom, mma_1warp)) while the "
                  f"kernel runs {cfg}: 32 copy threads for 128 MMA threads.",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "half_t", H_K_SW64, tile,
                  copy_mma={"atom_layout": [1, 1, 1], "permutation": [16, 16, 16]}, expect="fail")

    f.section("alignment")
    operand_check(f, "row_pitch_breaks_16B_alignment",
                  f"{cfg}, A K-major 128x32 padded to a row pitch of 36 halves (72 bytes) to dodge bank conflicts: "
                  "odd rows start 8 bytes off a 16-byte boundary, which ldmatrix requires.",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "half_t", None, tile, raw_smem="(128,32):(36,1)",
                  expect="fail")

    f.section("wrong atom layouts (MMA_Traits)")
    operand_check(f, "mutated_alayout_stride",
                  f"{cfg} on an MMA atom whose ALayout has two value strides swapped; the copy built from it "
                  "agrees with it, the instruction does not.",
                  "SM80_16x8x16_F32F16F16F32_TN_MUTATED_A", 4, [32, 32, 16], "A", LDSM_N[4], "half_t", H_K_SW64,
                  tile, expect="fail")
    operand_check(f, "mutated_blayout_stride",
                  f"{cfg} on an MMA atom whose BLayout has its value strides swapped (8,64) -> (64,8).",
                  "SM80_16x8x16_F32F16F16F32_TN_MUTATED_B", 4, [32, 32, 16], "B", LDSM_N[4], "half_t", H_K_SW64,
                  tile, expect="fail")
    f.add("mutated_blayout_stride_atom", mma="SM80_16x8x16_F32F16F16F32_TN_MUTATED_B", expect="fail",
          description="The mutated BLayout alone: theorem 2 compares it with the mma.sync m16n8k16 B fragment.")
    f.add("int4_blayout_before_pr3140", mma="SM80_16x8x32_S32S4S4S32_TN_BEFORE_PR3140", expect="fail",
          description="CUTLASS's SM80_16x8x32_S32S4S4S32_TN BLayout before PR #3140, ((4,8),8):((32,1),8): stride "
                      "32 where 64 is right, so two threads share B elements and half of the 8x32 B tile is never "
                      "loaded.")

    f.section("stmatrix on the accumulator tile")
    operand_check(f, "stsm_n_on_col_major_c",
                  "SM90 epilogue, column-major D (EpilogueTile 64x32, 1 warpgroup): smem Swizzle<3,3,3> o "
                  "(64,8):(1,64) tiled to 64x32 as ss_smem_selector<MN, ...> picks, but stored with the row-major "
                  "CopyOpR2S Copy_Atom<SM90_U32x4_STSM_N, half_t> instead of SM90_U16x8_STSM_T.",
                  F32F16, [4, 1, 1], [64, 16, 16], "C", STSM_N[4], "half_t", H_MN_SW128, (64, 32), smem_type="half_t",
                  expect="fail")
    operand_check(f, "stsm_t_on_row_major_c",
                  "SM90 epilogue, row-major D (EpilogueTile 64x32): smem Swizzle<2,3,3> o (8,32):(32,1) tiled to "
                  "64x32, stored with Copy_Atom<SM90_U16x8_STSM_T, half_t>: every 8x8 block lands transposed.",
                  F32F16, [4, 1, 1], [64, 16, 16], "C", STSM_T[4], "half_t", H_K_SW64, (64, 32), smem_type="half_t",
                  expect="fail")

    f.section("value types")
    operand_check(f, "ldsm_t_on_32bit_tf32",
                  "CUTLASS's Sm80 tf32 configuration, MN-major A, with Copy_Atom<SM75_U16x8_LDSM_T, tfloat32_t> "
                  "instead of UniversalCopy<tfloat32_t>: ldmatrix.trans moves 16-bit elements and CuTe refuses "
                  "the atom (\"CopyOperation is not valid for Dst of ValType\").",
                  TF32, TF32_WARPS, [32, 32, 8], "A", LDSM_T[4], "tfloat32_t", T_MN_SW128, (128, 32), expect="fail")
    f.add("ldsm_t_atom_with_tfloat32", copy=LDSM_T[4], value_type="tfloat32_t", expect="fail",
          description="The atom alone: Copy_Atom<SM75_U16x8_LDSM_T, tfloat32_t> is not a valid CuTe copy atom "
                      "(a 32-bit value would be split across the transposed 16-bit elements).")
    operand_check(f, "value_type_tf32_on_half_mma",
                  f"{cfg}, A K-major Swizzle<2,3,3> tiled to 128x32, with the tf32 configuration's "
                  "Copy_Atom<SM75_U32x4_LDSM_N, tfloat32_t> pasted in: 32-bit values on a half_t operand.",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "tfloat32_t", H_K_SW64, tile, expect="fail")
    operand_check(f, "value_type_half_on_tf32_mma",
                  "CUTLASS's Sm80 tf32 configuration, A K-major Swizzle<3,2,3> tiled to 128x32, with the f16 "
                  "configuration's Copy_Atom<SM75_U32x4_LDSM_N, half_t> pasted in: 16-bit values on a tfloat32_t "
                  "operand.",
                  TF32, TF32_WARPS, [32, 32, 8], "A", LDSM_N[4], "half_t", T_K_SW128, (128, 32), expect="fail")
    operand_check(f, "ldsm_unswizzled_kmajor_64x64_bank_conflicts",
                  "An unswizzled K-major 64x64 half tile (64,64):(64,1) read by ldmatrix.x4 on 2x2 warps: the data "
                  "arrives right (theorems 1-12 prove), but the 8 rows of every 8x8 matrix are 128 bytes apart, all "
                  "in the same 4 banks: each ldmatrix takes 32 wavefronts instead of 4 (the swizzled configurations "
                  "above are conflict-free).",
                  F32F16, 4, [32, 32, 16], "A", LDSM_N[4], "half_t", None, (64, 64),
                  raw_smem=cute("(64,64):(64,1)"), banks=CONFLICT_FREE, expect="fail")
    hopper_mistakes(f)
    return f


# --- Hopper: wgmma atoms, the TMA -> shared memory -> descriptor mainloop ------------------------------------

SM90_SS = "include/cutlass/gemm/collective/sm90_mma_tma_gmma_ss_warpspecialized.hpp"
SM90_RS = "include/cutlass/gemm/collective/sm90_mma_tma_gmma_rs_warpspecialized.hpp"
SM90_BUILDER = "include/cutlass/gemm/collective/builders/sm90_gmma_builder.inl"
GMMA_TRAITS = "include/cute/atom/mma_traits_sm90_gmma.hpp"
SM90_SMEM_BYTES = 232448          # cutlass::gemm::collective::detail::sm90_smem_capacity_bytes (227 KiB)
# wgmma operand types: PTX type -> (CUTLASS's name in atom names, the CuTe value type, bits)
GMMA_AB = {"f16": ("F16", "half_t", 16), "bf16": ("BF16", "bfloat16_t", 16), "tf32": ("TF32", "tfloat32_t", 32),
           "e4m3": ("E4M3", "float_e4m3_t", 8), "e5m2": ("E5M2", "float_e5m2_t", 8), "s8": ("S8", "int8_t", 8)}
GMMA_ACC = {"f32": ("F32", "float"), "f16": ("F16", "half_t"), "s32": ("S32", "int32_t")}
# GMMA::ALayout_64x{K} of an RS atom, per operand width: (thread, value) -> m + 64 k  (CuTe's facts)
GMMA_RS_A = {16: "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))", 32: "((4,8,4),(2,2)):((64,1,16),(8,256))",
             8: "((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"}


@dataclass(frozen=True)
class Gmma:
    """One SM90 GMMA atom: 64 x n x (256 / bits) with accumulator `acc` and operand type `ab`."""
    n: int
    acc: str
    ab: str
    form: str = "SS"                      # SS: A and B from shared memory; RS: A from registers
    majors: tuple[str, str] = ("K", "K")

    @property
    def bits(self) -> int:
        return GMMA_AB[self.ab][2]

    @property
    def k(self) -> int:
        return 256 // self.bits

    @property
    def name(self) -> str:
        d, a = GMMA_ACC[self.acc][0], GMMA_AB[self.ab][0]
        head = f"SM90_64x{self.n}x{self.k}_{d}{a}{a}_{self.form}"
        if self.bits != 16:
            return head + "_TN"
        return head + f"<GMMA::Major::{self.majors[0]},GMMA::Major::{self.majors[1]}>"

    def fields(self) -> dict:
        t, c = GMMA_AB[self.ab][1], GMMA_ACC[self.acc][1]
        a = GMMA_RS_A[self.bits] if self.form == "RS" else f"(128,(64,{self.k})):(0,(1,64))"
        return {"instruction": f"wgmma.mma_async.sync.aligned.m64n{self.n}k{self.k}.{self.acc}.{self.ab}.{self.ab}",
                "shape_mnk": [64, self.n, self.k], "thr_id": "128:1",
                "types": {"a": t, "b": t, "c": c, "d": c}, "a": a,
                "b": f"(128,({self.n},{self.k})):(0,(1,{self.n}))",
                "c": f"((4,8,4),(2,2,{self.n // 8})):((128,1,16),(64,8,512))"}


def _gmma_atoms() -> list[Gmma]:
    out: list[Gmma] = []
    every_major = [("K", "K"), ("K", "MN"), ("MN", "K"), ("MN", "MN")]
    for n in (8, 16, 24, 64, 128, 256):
        out += [Gmma(n, "f32", "f16", "SS", m) for m in every_major]
    for n in (8, 64, 128, 256):
        out += [Gmma(n, "f16", "f16", "SS", m) for m in every_major[:1] + every_major[3:]]
    out += [Gmma(64, "f16", "f16", "SS", ("K", "MN")), Gmma(64, "f16", "f16", "RS", ("K", "K")),
            Gmma(128, "f32", "f16", "RS", ("K", "K")), Gmma(128, "f32", "f16", "RS", ("K", "MN"))]
    for n in (16, 64, 128, 256):
        out += [Gmma(n, "f32", "bf16", "SS", m) for m in every_major]
    for n in (64, 128, 256):
        out += [Gmma(n, "f32", "tf32"), Gmma(n, "f32", "e4m3"), Gmma(n, "s32", "s8")]
    out += [Gmma(64, "f32", "tf32", "RS"), Gmma(64, "s32", "s8", "RS"), Gmma(128, "f32", "e5m2")]
    return out


def gmma_atom_file() -> SpecFile:
    f = SpecFile(ATOMS / "sm90_gmma.yaml", "atoms_sm90_gmma",
                 f"CuTe's SM90 GMMA (wgmma.mma_async) atoms, as MMA_Traits in {GMMA_TRAITS} define them: "
                 "ThrID is the warpgroup (128 threads); an SS operand is the whole 64xK / NxK tile for every thread "
                 "(GMMA::ABLayout, thread stride 0: the operand is read through a shared-memory descriptor); an RS "
                 "A and the accumulator are register fragments (GMMA::ALayout_64xK, GMMA::CLayout_64xN).", [])
    for atom in _gmma_atoms():
        f.mma_atoms[atom.name] = atom.fields()
    return f


@dataclass(frozen=True)
class HopperConfig:
    schedule: str                 # the KernelSchedule of the CollectiveBuilder
    tile: tuple[int, int, int]    # TileShape (BLK_M, BLK_N, BLK_K)
    ab: str                       # operand type (PTX name)
    layout: str                   # "TN", "NT", "NN", "TT": A row-/column-major, B column-/row-major
    form: str = "SS"

    @property
    def majors(self) -> tuple[str, str]:
        return ("K" if self.layout[0] == "T" else "MN", "K" if self.layout[1] == "N" else "MN")

    @property
    def atom(self) -> Gmma:
        acc = "s32" if self.ab == "s8" else "f32"
        return Gmma(self.tile[1], acc, self.ab, self.form, self.majors)

    @property
    def warpgroups(self) -> list[int]:
        return [2, 1, 1] if self.schedule.endswith("Cooperative") else [1, 1, 1]

    def stages(self) -> int:
        bits = GMMA_AB[self.ab][2]
        m, n, k = self.tile
        per_stage = (m + n) * k * bits // 8
        return min(4, SM90_SMEM_BYTES // per_stage)


def ss_smem_atom(major: str, bits: int, mn: int, k: int) -> str:
    """The GMMA layout atom CUTLASS's ss_smem_selector picks: the widest swizzle whose atom divides the tile's
    contiguous extent (K for K-major, MN for MN-major)."""
    extent = k if major == "K" else mn
    for name, span_bits in (("SW128", 1024), ("SW64", 512), ("SW32", 256)):
        if extent % (span_bits // bits) == 0:
            return name
    return "INTER"


def hopper_smem(major: str, swizzle: str, type_name: str, shape: tuple[int, int, int]) -> str:
    order = ", (2,1,3)" if major == "MN" else ""
    return f"tile_to_shape(GMMA::Layout_{major}_{swizzle}_Atom<{type_name}>, ({shape[0]},{shape[1]},{shape[2]}){order})"


def hopper_gmem(major: str) -> str:
    """The global (MN, K) tensor of a 4096 x 4096 problem: K-major is (MN, K):(4096, 1)."""
    return "(4096,4096):(4096,1)" if major == "K" else "(4096,4096):(1,4096)"


HOPPER_CONFIGS = (
    [HopperConfig("KernelTmaWarpSpecialized", (64, 128, 64), "f16", lay) for lay in ("TN", "NT")]
    + [HopperConfig("KernelTmaWarpSpecializedPingpong", t, "f16", lay) for t in ((64, 128, 64), (128, 128, 64))
       for lay in ("TN", "NT")]
    + [HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 128, 64), "f16", lay)
       for lay in ("TN", "NT", "NN", "TT")]
    + [HopperConfig("KernelTmaWarpSpecializedCooperative", t, "f16", lay) for t in ((128, 256, 64), (256, 128, 64))
       for lay in ("TN", "NT")]
    + [HopperConfig("KernelTmaWarpSpecialized", (64, 128, 64), "bf16", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 256, 64), "bf16", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 256, 64), "bf16", "NT"),
       HopperConfig("KernelTmaWarpSpecialized", (64, 128, 64), "tf32", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 128, 64), "tf32", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 128, 64), "e4m3", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 256, 64), "e4m3", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 128, 64), "s8", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (256, 128, 64), "s8", "TN"),
       HopperConfig("KernelTmaWarpSpecializedCooperative", (128, 128, 64), "f16", "TN", "RS")])


SCHEDULE_TAG = {"KernelTmaWarpSpecialized": "ws", "KernelTmaWarpSpecializedPingpong": "pingpong",
                "KernelTmaWarpSpecializedCooperative": "cooperative"}


def hopper_check(f: SpecFile, name: str, description: str, atom: Gmma, warpgroups: list[int], operand: str,
                 type_name: str, smem: str, gmem: str, **extra: Any) -> None:
    f.add(name, description=description, mma=atom.name, atom_layout=warpgroups, operand=operand,
          copy="SM90_TMA_LOAD", value_type=type_name, smem=smem, gmem=gmem, **extra)


def family_sm90_gmma() -> SpecFile:
    f = SpecFile(CATALOG / "sm90_gmma.yaml", "catalog_sm90_gmma",
                 "SM90 (Hopper) TMA + wgmma mainloops as CUTLASS 3.x's CollectiveBuilder builds them: per operand, "
                 "the shared-memory layout tile_to_shape(<the GMMA atom ss_smem_selector picks>, (BLK_MN, BLK_K, "
                 "PIPE), Step<_2,_1,_3> for MN-major), filled by SM90_TMA_LOAD from the global tensor and read by "
                 "the wgmma descriptor make_gmma_desc builds; theorems tma.*, gmma.*, smem.injective and the GMMA "
                 "atom's own theorems.", ["../atoms/sm90_gmma.yaml"], version=2)
    for cfg in HOPPER_CONFIGS:
        m, n, k = cfg.tile
        atom = cfg.atom
        label, type_name, bits = GMMA_AB[cfg.ab]
        stages = cfg.stages()
        mainloop = SM90_RS if cfg.form == "RS" else SM90_SS
        f.section(f"CUTLASS {SM90_BUILDER} + {mainloop}: {cfg.schedule}, TileShape {m}x{n}x{k}, "
                  f"{label} {cfg.layout}, TiledMMA {atom.name} on {'2' if cfg.warpgroups[0] == 2 else '1'} "
                  f"warpgroup(s), {stages} stages")
        for op, mn, major in (("A", m, cfg.majors[0]), ("B", n, cfg.majors[1])):
            if cfg.form == "RS" and op == "A":
                continue   # A reaches the tensor core from registers: no descriptor reads it
            swz = ss_smem_atom(major, bits, mn, k)
            smem = hopper_smem(major, swz, type_name, (mn, k, stages))
            name = (f"{SCHEDULE_TAG[cfg.schedule]}_{m}x{n}x{k}_"
                    f"{cfg.ab}_{cfg.layout.lower()}{'_rs' if cfg.form == 'RS' else ''}_{op.lower()}")
            hopper_check(f, name, f"{cfg.schedule} {m}x{n}x{k} {label} {cfg.layout}: operand {op} "
                                  f"{major}-major, SmemLayoutAtom{op} GMMA::Layout_{major}_{swz}_Atom<{type_name}> "
                                  f"(ss_smem_selector), {stages} stages, SM90_TMA_LOAD from a {major}-major "
                                  f"4096x4096 tensor, read by {atom.name}.",
                         atom, cfg.warpgroups, op, type_name, smem, hopper_gmem(major))
    return f


def hopper_mistakes(f: SpecFile) -> None:
    """The Hopper data path's documented mistakes: each refuted with its counterexample."""
    kk, kmn = Gmma(128, "f32", "f16", "SS", ("K", "K")), Gmma(128, "f32", "f16", "SS", ("K", "MN"))
    one = [1, 1, 1]
    f.section("Hopper: TMA -> swizzled shared memory -> wgmma descriptor (theorems tma.*, gmma.*)")
    n24 = Gmma(24, "f32", "f16", "SS", ("K", "MN"))
    hopper_check(f, "tilelang_2593_hardwired_descriptor_stride",
                 "TileLang #2593's pattern: a wgmma B descriptor stride hard-wired for N a multiple of 16. B is "
                 "MN-major without swizzle (GMMA::Layout_MN_INTER_Atom<half_t> tiled to 24x64), N = 24: the stride "
                 "between 8-row K blocks (the LBO of this form) is N x 16 = 384 bytes; hard-wired to 256 it reads "
                 "k >= 8 from the wrong rows.",
                 n24, one, "B", "half_t", hopper_smem("MN", "INTER", "half_t", (24, 64, 2)).replace(", (2,1,3)", ""),
                 hopper_gmem("MN"), descriptor={"lbo": 256}, expect="fail")
    n8 = Gmma(8, "f32", "f16", "SS", ("K", "K"))
    hopper_check(f, "triton_7830_n8_no_swizzle_descriptor",
                 "Triton #7830's case: an fp16 dot with N = 8 through the no-swizzle descriptor path. B is 8x64 "
                 "K-major without swizzle (GMMA::Layout_K_INTER_Atom<half_t>); the descriptor exchanges the two "
                 "core-matrix strides (LBO, the step between 16-byte K chunks, 128 bytes; SBO, the step between "
                 "8-row groups, unused for 8 rows), so wgmma reads k >= 8 from the wrong place.",
                 n8, one, "B", "half_t", hopper_smem("K", "INTER", "half_t", (8, 64, 2)), hopper_gmem("K"),
                 descriptor={"lbo": 16, "sbo": 128}, expect="fail")
    hopper_check(f, "emmy_200_buffer_relative_swizzle",
                 "cloudrift-ai/emmy PR #200's bug: the 128-byte swizzle computed on offsets inside the buffer "
                 "(composition(Swizzle<3,4,3>, ...) without GMMA's smem_ptr) while TMA and the tensor core swizzle "
                 "absolute shared addresses; the buffer is only 128-byte aligned (alignas(128)), not to the "
                 "1024-byte repeat.",
                 kk, one, "B", "half_t", "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64,4))", hopper_gmem("K"),
                 smem_align=128, expect="fail")
    hopper_check(f, "kmajor_atom_under_mn_descriptor",
                 "A K-major shared layout (GMMA::Layout_K_SW128_Atom<half_t>, what TMA fills from a K-major tensor) "
                 "read through the MN-major descriptor of SM90_64x128x16_F32F16F16_SS<K, MN> (CUTLASS #1396 / "
                 "#1688: atoms that cannot be mapped to the instruction's pictures).",
                 kmn, one, "B", "half_t", hopper_smem("K", "SW128", "half_t", (128, 64, 4)), hopper_gmem("K"),
                 expect="fail")
    hopper_check(f, "wrong_descriptor_base_offset",
                 "A descriptor base offset of 2 on a buffer make_gmma_desc gives base offset 0: the tensor core's "
                 "swizzle phase, ((address >> 7) - base offset) mod 8, is no longer the one TMA wrote with.",
                 kk, one, "B", "half_t", hopper_smem("K", "SW128", "half_t", (128, 64, 4)), hopper_gmem("K"),
                 descriptor={"base_offset": 2}, expect="fail")
    hopper_check(f, "tma_box_wider_than_swizzle_span",
                 "A TMA box of 64 half_t (128 bytes) along K over a 64-byte swizzled tile "
                 "(GMMA::Layout_K_SW64_Atom<half_t>): cuTensorMapEncodeTiled refuses an inner box wider than the "
                 "swizzle span, and the rows it would write do not follow the layout.",
                 kk, one, "B", "half_t", hopper_smem("K", "SW64", "half_t", (128, 64, 4)), hopper_gmem("K"),
                 tma_box=[64, 128], expect="fail")


# --- main --------------------------------------------------------------------------------------------

def all_files() -> list[SpecFile]:
    return [gmma_atom_file()] + atom_files() + [family_sm80_f16(), family_sm80_tf32(), family_sm80_int8(),
                                                family_sm89_fp8(), family_sm80_f64(), family_sm90_f64(),
                                                family_sm90_epilogue(), family_sm90_gmma(), mistakes()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="only compare: exit 1 when a file is out of date")
    ap.add_argument("--out", metavar="DIR", help="write under DIR instead of the repository (for tests)")
    args = ap.parse_args(argv)
    stale = []
    for f in all_files():
        path = f.path if args.out is None else Path(args.out) / f.path.relative_to(ROOT)
        text = f.render()
        if args.check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
                  f"({len(f.checks)} checks)")
    if stale:
        print("out of date (run python tools/gen_catalog.py):\n  " + "\n  ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
