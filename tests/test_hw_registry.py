"""The instruction registry (verifier/hardware/registry.py): which family claims each instruction string, what it
builds, and the registration rules (one family per claim, lazily imported modules, families added by others)."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.hardware import registry
from verifier.hardware.base import CopyModel, MMAModel
from verifier.hardware.registry import (COPY_FAMILIES, MMA_FAMILIES, FamilyConflict, FamilyTable, Instruction,
                                        InstructionFamily, ModelQuery, copy_model, mma_instruction_model,
                                        mma_instruction_types)

ROOT = Path(__file__).resolve().parents[1]
_INSTRUCTION_LINE = re.compile(r"^\s*instruction:\s*(.+?)\s*$", re.MULTILINE)


def _spec_instructions() -> list[str]:
    """Every instruction string the specs use (`grep -rh "instruction:" specs`), unquoted."""
    found = set()
    for path in (ROOT / "specs").rglob("*.yaml"):
        for written in _INSTRUCTION_LINE.findall(path.read_text()):
            found.add(written.strip().strip('"').strip("'"))
    return sorted(found)


SPEC_INSTRUCTIONS = _spec_instructions()
COPY_FAMILIES.load_all()
MMA_FAMILIES.load_all()
COPY_BY_NAME = {f.name: f for f in COPY_FAMILIES.families()}
MMA_BY_NAME = {f.name: f for f in MMA_FAMILIES.families()}

# the spelling's start -> (the copy family claiming it, the MMA family claiming it); None: no family parses it
EXPECTED_FAMILY = [
    ("UniversalCopy<", "UniversalCopy", None),
    ("DefaultCopy", "DefaultCopy / AutoVectorizingCopy", None),
    ("AutoVectorizingCopy", "DefaultCopy / AutoVectorizingCopy", None),
    ("cp.async.", "cp.async", None),
    ("ldmatrix.", "ldmatrix / stmatrix / movmatrix", None),
    ("stmatrix.", "ldmatrix / stmatrix / movmatrix", None),
    ("movmatrix.", "ldmatrix / stmatrix / movmatrix", None),
    ("tcgen05.ld.red.", None, None),                      # the reducing load is not modelled
    ("tcgen05.ld.", "tcgen05.ld / tcgen05.st", None),
    ("tcgen05.st.", "tcgen05.ld / tcgen05.st", None),
    ("tcgen05.mma.", None, "tcgen05.mma"),
    ("wgmma.", None, "wgmma.mma_async"),
    ("mma.sync.", None, "mma.sync"),
    ("dp4a.", None, "dp4a / dp2a"),
    ("dp2a.", None, "dp4a / dp2a"),
    ("UniversalFMA<", None, "UniversalFMA"),              # CuTe's scalar multiply-add, claimed as the atom itself
    ("SM50_Shuffle_", None, None),                        # a shuffle atom: no instruction model
]
TCGEN05_SHAPE = (128, 256, 16)
CP_ASYNC_BITS = 128
VALUE_BITS = 16


def _expected(text: str) -> tuple[str | None, str | None]:
    for start, copy_family, mma_family in EXPECTED_FAMILY:
        if text.startswith(start):
            return copy_family, mma_family
    raise AssertionError(f"no expectation for the spec's instruction {text!r}: add it to EXPECTED_FAMILY")


def _claimant_name(table: FamilyTable, query: ModelQuery) -> str | None:
    found = table.claimant(query)
    return found[0].name if found is not None else None


def _shape_of(name: str) -> tuple[int, int, int]:
    m, n, k = re.search(r"\.m(\d+)n(\d+)k(\d+)\.", name).groups()
    return int(m), int(n), int(k)


def test_the_specs_use_every_kind_of_instruction():
    assert len(SPEC_INSTRUCTIONS) > 200
    claimed = {_expected(text) for text in SPEC_INSTRUCTIONS}
    assert {c for c, _ in claimed if c} == set(COPY_BY_NAME)
    assert {m for _, m in claimed if m} == set(MMA_BY_NAME)


@pytest.mark.parametrize("text", SPEC_INSTRUCTIONS)
def test_each_spec_instruction_is_claimed_by_its_family_only(text):
    copy_family, mma_family = _expected(text)
    copy_query = ModelQuery(Instruction.parse(text), bits_per_thread=CP_ASYNC_BITS, value_bits=VALUE_BITS)
    mma_query = ModelQuery(Instruction.parse(text), shape_mnk=TCGEN05_SHAPE)
    assert _claimant_name(COPY_FAMILIES, copy_query) == copy_family
    assert _claimant_name(MMA_FAMILIES, mma_query) == mma_family
    for table, query in ((COPY_FAMILIES, copy_query), (MMA_FAMILIES, mma_query)):
        claiming = [f.name for f in table.families() if any(True for _ in f.spellings(query))]
        assert len(claiming) <= 1, claiming


def _qualifier_set(text: str) -> set[str]:
    opcode, words = registry.qualifiers(text)
    return {opcode, *words}


@pytest.mark.parametrize("text", SPEC_INSTRUCTIONS)
def test_each_spec_instruction_gets_the_model_of_that_instruction(text):
    copy_family, mma_family = _expected(text)
    copy = copy_model(text, bits_per_thread=CP_ASYNC_BITS, value_bits=VALUE_BITS)
    mma = mma_instruction_model(text, shape_mnk=TCGEN05_SHAPE)
    assert (copy is not None) == (copy_family is not None) and (mma is not None) == (mma_family is not None)
    if copy is not None:
        assert isinstance(copy, CopyModel)
        if copy_family == "cp.async":
            assert copy.instruction == f"{text.lower()} ({CP_ASYNC_BITS // 8} bytes)" and copy.lanes == 1
        elif copy_family in ("UniversalCopy", "DefaultCopy / AutoVectorizingCopy"):
            assert copy.instruction == text and copy.lanes == 1
            assert copy.element_wise == (copy_family != "UniversalCopy")
        else:   # the canonical spelling of the same qualifiers (CUTLASS writes ldmatrix's in another order)
            assert _qualifier_set(copy.instruction) == _qualifier_set(text) and copy.lanes == 32
        assert copy.invalid == ""
    if mma is not None:
        assert isinstance(mma, MMAModel) and mma_instruction_types(text) is not None
        if mma_family == "tcgen05.mma":
            assert mma.instruction == f"{text} (instruction descriptor M=128, N=256)"
            assert mma.shape_mnk[:2] == TCGEN05_SHAPE[:2]
        elif mma_family in ("dp4a / dp2a", "UniversalFMA"):
            assert mma.instruction == text and mma.lanes == 1
        else:
            assert _qualifier_set(mma.instruction) == _qualifier_set(text) - {"satfinite"}
            assert mma.shape_mnk == _shape_of(text) and mma.lanes == (128 if mma_family == "wgmma.mma_async" else 32)


# what the lookups answer for forms whose model says why they are no instruction (the reports print these)
INVALID_COPIES = [
    (("cp.async.cg.shared.global", "", 64), "cp.async.cg moves 16 bytes only, not 8"),
    (("cp.async.ca.shared.global", "", 16), "cp.async moves 4, 8 or 16 bytes, not 2"),
    (("stmatrix.sync.aligned.m16n8.x2.shared.b8", "", None), ".m16n8 requires .trans"),
    (("ldmatrix.sync.aligned.m16n16.x1.shared.b8", "", None), ".m16n16 requires .trans"),
    (("ldmatrix.sync.aligned.m16n16.x4.trans.shared.b8", "", None), ".m16n16 takes .x1 or .x2, not .x4"),
    (("ldmatrix.sync.aligned.m8n16.x1.trans.shared.b8x16.b4x16_p64", "", None), ".m8n16 has no .trans"),
    (("tcgen05.ld.sync.aligned.32x32b.x256.b32", "", None), ".num must be one of .x1 ... .x128, not .x256"),
]


@pytest.mark.parametrize("args, invalid", INVALID_COPIES, ids=[a[0] for a, _ in INVALID_COPIES])
def test_a_form_that_is_no_instruction_says_why(args, invalid):
    model = copy_model(*args)
    assert model is not None and model.invalid == invalid


def test_the_mma_forms_that_are_no_instruction_say_why():
    dp2a = mma_instruction_model("dp2a.s32.s32")
    assert dp2a.invalid.startswith("dp2a needs .lo or .hi") and dp2a.invalid_in == "instruction"
    umma = mma_instruction_model("tcgen05.mma.cta_group::1.kind::f16", shape_mnk=(32, 8, 16))
    assert umma.invalid == "M = 64 or 128 for .cta_group::1, not 32"


def test_the_atom_name_decides_what_the_instruction_does_not_say():
    # wgmma without operands: A from registers for an _RS atom, from a descriptor for an _SS one
    text = "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16"
    rs, ss = mma_instruction_model(text, "SM90_64x64x16_F32F16F16_RS<>"), mma_instruction_model(text, "x_SS")
    assert rs.a.elements == 8 and ss.a.elements == 64 * 16
    assert mma_instruction_model(text + " {%0}, {%1, %2}, %3, p;").a is rs.a
    # CuTe's regrouping ldmatrix.m16n16 atoms; CuTe's atoms written as the atom's name, not the instruction
    regrouped = copy_model("ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8", "cute::SM100_U8x8_LDSM_T")
    assert regrouped.instruction.endswith("(+ CuTe's byte regrouping)")
    assert copy_model("", "UniversalCopy<uint64_t>").instruction == "UniversalCopy<uint64_t>"
    assert copy_model("UniversalCopy<uint32_t>", "DefaultCopy", value_bits=8).element_wise   # the element copy first
    assert copy_model("DefaultCopy") is None                         # no value type: no unit, no model


@pytest.mark.parametrize("text", [None, "", "bogus.sync.aligned", "ld.shared.b32", "mma", "mma.sync.aligned",
                                  "wgmma.mma_async.sync.aligned.m64n8k16.f32", "tcgen05.cp.cta_group::1.128x256b",
                                  "mma.sync.aligned.m8n8k128.row.col.s32.b1.b1.s32.or.popc",
                                  "UniversalCopy<bogus_t>", "SM50_Shuffle_U32_2x2Trans_XOR1",
                                  # a D or C type PTX does not have (it was a KeyError: an internal error)
                                  "mma.sync.aligned.m16n8k16.row.col.f99.f16.f16.f32",
                                  "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.x32"])
def test_an_unknown_instruction_has_no_model(text):
    assert copy_model(text, bits_per_thread=CP_ASYNC_BITS, value_bits=VALUE_BITS) is None
    assert mma_instruction_model(text, shape_mnk=TCGEN05_SHAPE) is None


def test_the_operand_types_come_from_the_same_parse():
    assert mma_instruction_types("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32") == \
        {"a": "bf16", "b": "bf16", "c": "f32", "d": "f32"}
    assert mma_instruction_types("wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.u8") == \
        {"a": "s8", "b": "u8", "c": "s32", "d": "s32"}
    assert mma_instruction_types("tcgen05.mma.cta_group::2.kind::f16")["a"] == "f16|bf16"
    assert mma_instruction_types("dp2a.lo.u32.s32") == {"a": "u16", "b": "s8", "c": "s32", "d": "s32"}
    assert mma_instruction_types("ldmatrix.sync.aligned.x1.m8n8.shared.b16") is None


def test_an_instruction_is_parsed_once_into_its_parts():
    parsed = Instruction.parse("  wgmma.mma_async.sync.aligned.m64n8k16.f32.F16.f16 {%0}, {%1}, %2;  ")
    assert parsed.opcode == "wgmma" and parsed.qualifiers[-3:] == ("f32", "f16", "f16")
    assert parsed.operands == "{%0}, {%1}, %2;" and parsed.cute_atom == ""
    atom = Instruction.parse("cute::AutoVectorizingCopyWithAssumedAlignment< 32 >")
    assert atom.cute_atom == "AutoVectorizingCopyWithAssumedAlignment" and atom.operands == "32 >"
    assert Instruction.parse(None) == Instruction("", "", (), "", "")


def _family(name: str, ptx: frozenset[str] | set[str] = frozenset(), atoms: frozenset[str] | set[str] = frozenset(),
            model: object = None) -> InstructionFamily:
    return InstructionFamily(name, lambda instruction: instruction.qualifiers, lambda form, query: model,
                             ptx_opcodes=frozenset(ptx), cute_atoms=frozenset(atoms),
                             operand_types=lambda form: {"a": "x", "b": "x", "c": "y", "d": "y"})


@pytest.mark.parametrize("table", [COPY_FAMILIES, MMA_FAMILIES], ids=["copy", "mma"])
def test_a_second_family_for_a_claimed_instruction_is_refused(table):
    before = table.families()
    claimed = sorted(next(f for f in before if f.ptx_opcodes).ptx_opcodes)[0]
    with pytest.raises(FamilyConflict, match=f"PTX opcode '{claimed}'"):
        table.register(_family("usurper", ptx={"brand_new_opcode", claimed}))
    assert table.families() == before        # refused whole: not even its unclaimed opcode is taken
    with pytest.raises(FamilyConflict, match="CuTe atom 'UniversalCopy'"):
        COPY_FAMILIES.register(_family("another UniversalCopy", atoms={"UniversalCopy"}))


def test_a_family_claims_something():
    with pytest.raises(ValueError, match="claims no PTX opcode and no CuTe atom"):
        _family("nothing")


def test_a_family_registered_here_is_found():
    model = mma_instruction_model("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")
    family = MMA_FAMILIES.register(_family("test.mma", ptx={"testmma"}, model=model))
    try:
        assert mma_instruction_model("testmma.sync.aligned {%0}, %1;") is model
        assert mma_instruction_types("testmma.x") == {"a": "x", "b": "x", "c": "y", "d": "y"}
        assert _claimant_name(MMA_FAMILIES, ModelQuery(Instruction.parse("testmma"))) == "test.mma"
    finally:
        MMA_FAMILIES.unregister(family)
    assert mma_instruction_model("testmma.sync.aligned") is None
    copy = copy_model("UniversalCopy<uint8_t>")
    atom_family = COPY_FAMILIES.register(_family("test atom", atoms={"SM50_Shuffle_U32_2x2Trans_XOR1"}, model=copy))
    try:   # a CuTe atom family is matched against the atom's name too
        assert copy_model("", "SM50_Shuffle_U32_2x2Trans_XOR1") is copy
    finally:
        COPY_FAMILIES.unregister(atom_family)
    assert copy_model("", "SM50_Shuffle_U32_2x2Trans_XOR1") is None


def test_a_fresh_table_holds_only_its_own_families():
    table = FamilyTable("test", ptx_modules={}, atom_modules={})
    first = table.register(_family("first", ptx={"op"}, model="first's model"))
    with pytest.raises(FamilyConflict):
        table.register(_family("second", ptx={"op"}))
    assert table.families() == (first,)
    assert table.model(ModelQuery(Instruction.parse("op.a.b"))) == "first's model"
    assert table.model(ModelQuery(Instruction.parse("other.a.b"))) is None


@pytest.mark.parametrize("table", [COPY_FAMILIES, MMA_FAMILIES], ids=["copy", "mma"])
def test_the_module_index_names_the_module_registering_each_claim(table):
    owners = {claim: family for family in table.families() for claim in (*family.ptx_opcodes, *family.cute_atoms)}
    index = table.module_index()
    assert set(index) <= set(owners)
    for claim, module in index.items():
        assert owners[claim].parse.__module__ == f"verifier.hardware.{module}", claim


def _imported_after(lookups: str) -> set[str]:
    probe = ("import sys\nfrom verifier.hardware.registry import copy_model, mma_instruction_model, "
             f"mma_instruction_types\n{lookups}\n"
             "print(' '.join(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('verifier.hardware.')))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True)
    return set(done.stdout.split())


BLACKWELL = {"umma", "umma_desc", "matrix_copy_sm100", "tmem_copy"}


def test_an_sm80_or_sm90_lookup_imports_no_blackwell_module():
    imported = _imported_after(
        "copy_model('ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16')\n"
        "copy_model('stmatrix.sync.aligned.x2.m8n8.shared.b16')\n"
        "copy_model('movmatrix.sync.aligned.m8n8.trans.b16')\n"
        "copy_model('cp.async.cg.shared.global', bits_per_thread=128)\n"
        "copy_model('UniversalCopy<uint128_t>'); copy_model('DefaultCopy', value_bits=16)\n"
        "mma_instruction_model('mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32')\n"
        "mma_instruction_model('mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32')\n"
        "mma_instruction_model('wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16', 'SM90_x_SS')\n"
        "mma_instruction_types('wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16')\n"
        "mma_instruction_model('dp4a.s32.s32')")
    assert {"matrix_copy", "vector_copy", "mma_sync", "mma_sm70", "wgmma", "dot_product"} <= imported
    assert not imported & BLACKWELL, imported & BLACKWELL


def test_a_tcgen05_lookup_imports_no_hopper_module():
    imported = _imported_after(
        "copy_model('tcgen05.ld.sync.aligned.32x32b.x4.b32')\n"
        "mma_instruction_model('tcgen05.mma.cta_group::1.kind::f16', 'SM100_MMA_F16BF16_SS', (128, 256, 16))\n"
        "mma_instruction_types('tcgen05.mma.cta_group::2.kind::i8')\n"
        "copy_model('ldmatrix.sync.aligned.m16n16.x1.trans.shared.b8')")
    assert {"tmem_copy", "umma", "matrix_copy_sm100"} <= imported
    assert "wgmma" not in imported and "mma_sync" not in imported
