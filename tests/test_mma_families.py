"""The MMA atom families (verifier/cute/mma_families.py): a GMMA or UMMA atom of any size built from its name by its
family's MMA_Traits, for the readers when a kernel names a size the atom library does not write."""
from __future__ import annotations

from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.cute.mma_families import family_atom
from verifier.importer.kernel_spec import ATOM_LIBRARY, FAMILY_SOURCE, family_atoms, load_atom_library
from verifier.outcome import ExitCode
from verifier.specfile.model import MMAAtomSpec

FAMILY_PREFIXES = ("SM90_64x", "SM100_MMA_")


def _facts(a: MMAAtomSpec) -> tuple[object, ...]:
    return (a.instruction, a.shape_mnk, str(a.thr_id), {k: v.name for k, v in a.types.items()}, str(a.a), str(a.b),
            str(a.c))


def test_every_member_the_library_writes_is_built_as_the_library_writes_it():
    """The library's GMMA and dense / block-scaled UMMA atoms were instantiated from CUTLASS's headers (import-cutlass):
    the family rules rebuild each of them field for field -- the rules are CuTe's traits at those sizes."""
    mma, _ = load_atom_library(ATOM_LIBRARY)
    members = [n for n in mma if n.startswith(FAMILY_PREFIXES) and "SPARSE" not in n]
    built = family_atoms(members, {})
    assert len(members) > 450 and sorted(built) == sorted(members)
    assert [n for n in members if _facts(built[n]) != _facts(mma[n])] == []
    assert {built[n].source for n in members} == {FAMILY_SOURCE}


@pytest.mark.parametrize("name", [
    "SM90_64x96x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>",
    "SM90_64x200x16_F16F16F16_RS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x96x32_F32E4M3E5M2_SS_TN",                       # mixed 8-bit floats
    "SM90_64x48x32_S32U8S8_RS_TN",
    "SM90_64x40x8_F32TF32TF32_SS_TN",
    "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,192>",
    "SM100_MMA_F16BF16_2x1SM_TS<bfloat16_t,bfloat16_t,float,256,96>",
    "SM100_MMA_F8F6F4_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,128,16>",   # mixed block-less f8f6f4
    "SM100_MMA_MXF8F6F4_2x1SM_SS<float_e5m2_t,float_e3m2_unpacksmem_t,float,float_ue8m0_t,256,176>",
    "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,128,80,16>",
])
def test_a_member_of_a_size_the_library_lacks_is_built_and_proved(name: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]):
    """Built by its family's rule, the atom is verified by theorems 1, 2 and 11 against the PTX ISA's model of its
    instruction."""
    facts = family_atom(name)
    assert facts is not None and facts.name == name
    spec = tmp_path / "atom.yaml"
    spec.write_text("version: 2\nname: atom\nmma_atoms:\n" + "\n".join(facts.yaml_lines())
                    + f'\nchecks:\n  atom:\n    mma: "{name}"\n', encoding="utf-8")
    assert main(["prove", str(spec), "--no-cache"]) == ExitCode.OK, capsys.readouterr().out


@pytest.mark.parametrize("name", [
    "SM90_64x96x16_F32F16F16_RS<GMMA::Major::MN,GMMA::Major::K>",   # an RS A is K-major (CuTe's static_assert)
    "SM90_64x96x32_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",    # f16 reads K = 16, not 32
    "SM90_64x96x16_F32F16F16_SS_TN",                                # 16-bit atoms name their majors
    "SM90_64x96x32_F32E4M3E4M3_SS<GMMA::Major::K,GMMA::Major::K>",  # ... the others are _TN
    "SM90_64x96x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>x",   # trailing text
    "SM90_128x96x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",   # wgmma's M is 64
    "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,97>",       # N not halved between the CTAs
    "SM100_MMA_F16BF16_SS<half_t,half_t,float,128>",                # no N
    "SM100_MMA_F16BF16_SS<half_t,half_t,double,128,64>",            # no such accumulator
    "SM100_MMA_MXF4_SS<float_e2m1_t,float_e2m1_t,float,float_ue8m0_t,128,64,8>",    # VS 16 or 32
    "SM100_MMA_MXF8F6F4_TS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,64>",  # no block-scaled TS family here
    "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,128,64>",  # its scale factors' type missing
    "SM100_MMA_F16BF16_SS_SPARSE<half_t,half_t,float,128,64>",      # sparse: not a family here
    "SM80_16x8x16_F32F16F16F32_TN",
])
def test_a_name_outside_the_families_is_not_built(name: str):
    assert family_atom(name) is None


@pytest.mark.parametrize("name", [
    "SM90_64x12x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",    # N = 12: no wgmma shape
    "SM90_64x96x16_F32F16BF16_SS<GMMA::Major::K,GMMA::Major::K>",   # f16 x bf16: no wgmma types
    "SM100_MMA_F8F6F4_SS<float_e2m1_t,float_e4m3_t,float,128,64>",   # a packed e2m1 in .kind::f8f6f4
    "SM90_64x96x32_F32E4M3S8_SS_TN",                                # e4m3 x s8: no wgmma types
    "SM90_64x96x16_F16BF16BF16_SS<GMMA::Major::K,GMMA::Major::K>",  # bf16 accumulates in f32 only
])
def test_a_built_atom_the_instruction_does_not_take_is_never_verified(name: str, tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]):
    """The rules build any spelling of a family's name; theorems 1, 2 and 11 refuse to verify one the PTX ISA's
    instruction does not take."""
    facts = family_atom(name)
    assert facts is not None
    spec = tmp_path / "atom.yaml"
    spec.write_text("version: 2\nname: atom\nmma_atoms:\n" + "\n".join(facts.yaml_lines())
                    + f'\nchecks:\n  atom:\n    mma: "{name}"\n', encoding="utf-8")
    code = main(["prove", str(spec), "--no-cache"])
    out = capsys.readouterr().out
    assert code != ExitCode.OK and "verified" not in out.split("\n  ")[1], out


def test_the_library_s_own_atoms_are_never_rebuilt():
    """A name the library writes is the library's (with its header's `source:`), never the rule's."""
    mma, _ = load_atom_library(ATOM_LIBRARY)
    name = "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
    assert name in mma and family_atoms([name], mma) == {}
