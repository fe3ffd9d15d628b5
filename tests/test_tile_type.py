"""Theorem 12 on an operand read through a descriptor: the tensor core reads the tile's bits as the MMA's operand
type, so a tile holding another type of the same width (bf16 read as f16, e5m2 as e4m3: wrong values, no fault) is
refuted; `smem_type` states the tile's type, and the readers write it where it is not the atom's by name."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from verifier.engine.runner import run_check
from verifier.outcome import Verdict
from verifier.specfile.loader import load_spec
from verifier.specfile.model import SpecError, ValueType
from verifier.theorems.catalog import TheoremId

CATALOG = Path(__file__).resolve().parent.parent / "specs" / "catalog" / "sm90_gmma.yaml"
TF32_A = "ws_64x128x64_tf32_tn_a"          # a tf32 wgmma's A, TMA-filled, read through the descriptor


@pytest.mark.parametrize("tile_type,verdict", [
    (None, Verdict.VERIFIED),
    ("tfloat32_t", Verdict.VERIFIED),
    ("float", Verdict.VERIFIED),             # CUTLASS's tf32 GEMMs feed the .tf32 MMA float tiles
    ("int32_t", Verdict.REFUTED),            # 32 bits, not a value the .tf32 MMA reads as it is
    ("uint32_t", Verdict.REFUTED),
])
def test_the_tile_holds_the_type_the_tensor_core_reads(tile_type: str | None, verdict: Verdict):
    spec = load_spec(CATALOG)
    check = spec.checks[TF32_A]
    if tile_type is not None:
        check = dataclasses.replace(check, smem_type=ValueType(tile_type, 32))
    result = run_check(spec, check)
    assert result.verdict is verdict
    failed = {t.id for t in result.theorems if t.status.value == "refuted"}
    assert failed == ({TheoremId.COPY_VALUE_TYPE} if verdict is Verdict.REFUTED else set())


def test_a_conversion_is_refused_on_an_operand_the_descriptor_reads(tmp_path: Path):
    """`conversion: lookup_table` belongs to a register-sourced A; on a descriptor-read operand it is bad input."""
    from verifier.dsl.importer import run
    from verifier.importer.kernel_spec import ATOM_LIBRARY
    ir = Path(__file__).parent / "data" / "dsl" / "tma.mlir"
    spec_text, _ = run([ir], ATOM_LIBRARY, None)
    marker = "    operand: A\n"
    assert marker in spec_text
    bad = tmp_path / "bad.yaml"
    bad.write_text(spec_text.replace(marker, marker + "    smem_type: int8_t\n    conversion: lookup_table\n", 1),
                   encoding="utf-8")
    with pytest.raises(SpecError, match="only a wgmma RS atom's A is converted in registers"):
        load_spec(bad, allow_outside=True)


def test_the_readers_state_a_tile_type_the_atom_does_not_name():
    """The DSL kernel's A tile re-typed bf16 under its f16 wgmma: the descriptor check states smem_type: bfloat16_t
    (and is refuted); its own types write no smem_type."""
    from verifier.dsl.importer import import_files
    from verifier.dsl.kernel_checks import DescriptorRecord
    from verifier.dsl.spec_text import resolve_atoms
    from verifier.importer.kernel_spec import ATOM_LIBRARY, load_atom_library
    ir = Path(__file__).parent / "data" / "dsl" / "tma.mlir"
    mma, copy = load_atom_library(ATOM_LIBRARY)
    kernels = import_files([ir]).kernels
    resolve_atoms(kernels, mma, copy)
    records = [r for k in kernels for r in k.records if isinstance(r, DescriptorRecord)]
    assert [r.tile_type for r in records] == [None, None]
    kernels = import_files([ir]).kernels
    for k in kernels:
        for r in k.records:
            if isinstance(r, DescriptorRecord) and r.operand == "A":
                r.value_type = "bfloat16_t"
    resolve_atoms(kernels, mma, copy)
    assert [r.tile_type for k in kernels for r in k.records
            if isinstance(r, DescriptorRecord)] == ["bfloat16_t", None]


_MIXED_B = """version: 2
name: mixed_b
mma_atoms:
{atom}
checks:
  b_desc:
    mma: "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,float_ue8m0_t,128,128>"
    atom_layout: "(1,1,1):(0,0,0)"
    operand: B
    copy: SM90_TMA_LOAD
    value_type: {value_type}
    smem: "Sw<3,4,3> o smem_ptr[8b](unset) o ((128,1),(32,4),6):((128,0),(1,32),16384)"
    gmem: "(4096,4096):(4160,1)"
    smem_align: 1024
    major: K
    tma_box: [128, 128]
    tma_swizzle: 128B
{extra}"""


@pytest.mark.parametrize("value_type,extra,verdict", [
    ("float_e2m1_unpacksmem_t", "", Verdict.VERIFIED),
    # the same bytes filled by a plain byte copy (the DSL kernel's i8 view without the atom's unpacking format): the
    # tile holds int8 values the MMA reads as e2m1
    ("int8_t", "    smem_type: int8_t\n", Verdict.REFUTED),
])
def test_a_byte_tile_of_unpacked_e2m1_is_read_as_the_mma_s_b(tmp_path: Path, value_type: str, extra: str,
                                                             verdict: Verdict):
    """The mixed block-scaled kernels' 4-bit B (dense_blockscaled_gemm_persistent with e4m3 x e2m1): TMA unpacks it
    into a byte tile the MXF8F6F4 atom reads a byte an element; the reader states it as CuTe's unpacked type and the
    check verifies, while a byte tile that holds bytes is refuted at theorem 12."""
    from verifier.cute.mma_families import family_atom
    atom = family_atom("SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,float_ue8m0_t,128,128>")
    assert atom is not None
    lines = [f'  "{atom.name}":'] + [f"    {k}: {v}" for k, v in atom.fields]
    path = tmp_path / "mixed.yaml"
    path.write_text(_MIXED_B.format(atom="\n".join(lines), value_type=value_type, extra=extra), encoding="utf-8")
    spec = load_spec(path)
    result = run_check(spec, spec.checks["b_desc"])
    assert result.verdict is verdict, [(t.id, t.status, t.reason) for t in result.theorems]
    failed = {t.id for t in result.theorems if t.status.value == "refuted"}
    assert failed == ({TheoremId.COPY_VALUE_TYPE} if verdict is Verdict.REFUTED else set())
