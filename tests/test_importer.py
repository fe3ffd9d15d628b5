"""`import-cutlass`: CuTe's MMA_Traits / Copy_Traits read from C++ headers into spec files.

The headers under tests/data/cpp/include are miniatures written for these tests in CuTe's spelling (not
CUTLASS's files).  The last test runs the importer on a real CUTLASS checkout when CUTLASS_INCLUDE names
its include/ directory, and compares every atom with CuTe's own print-out (tests/data/oracle_atoms*.json.gz).
"""
from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.algebra.cpp_syntax import read_cpp
from verifier.commands.import_cutlass import main
from verifier.importer import ImportReport, import_cutlass
from verifier.importer.atoms import instruction_of
from verifier.importer.compare_oracle import compare, compare_details, compare_rejected
from verifier.importer.not_imported import CUTE_REFUSES, TMA_LOAD
from verifier.importer.scanner import AliasDecl, StaticAssert, StructDecl, scan, walk
from verifier.specfile import load_spec

DATA = Path(__file__).parent / "data"
INCLUDE = DATA / "cpp" / "include"
ATOM = INCLUDE / "cute" / "atom"


def _line(header: str, text: str) -> int:
    """The 1-based line of `text` in one of the miniature headers."""
    lines = (ATOM / header).read_text().splitlines()
    return next(i + 1 for i, s in enumerate(lines) if text in s)


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[ImportReport, Path]:
    out = tmp_path_factory.mktemp("specs")
    return import_cutlass(INCLUDE, out), out


@pytest.fixture(scope="module")
def toy80(imported):
    return load_spec(imported[1] / "toy80.yaml")


# --- the files -----------------------------------------------------------------------------------------

def test_one_spec_file_per_header_family(imported):
    report, out = imported
    files = ["generic.yaml", "sm100_toy.yaml", "toy75.yaml", "toy80.yaml"]
    assert sorted(p.name for p in out.iterdir()) == files
    assert sorted(Path(p).name for p in report.spec_files) == files
    for path in report.spec_files:
        spec = load_spec(path)                 # the project's own loader accepts every file
        assert spec.version == 1


def test_headers_scanned_in_parallel_give_the_same_specs(tmp_path, capsys):
    """--jobs 2 scans headers in two processes; the spec files and the report are those of --jobs 1."""
    assert main([str(INCLUDE), "-o", str(tmp_path / "one"), "--jobs", "1"]) == 0
    one = capsys.readouterr().out
    assert main([str(INCLUDE), "-o", str(tmp_path / "two"), "--jobs", "2"]) == 0
    two = capsys.readouterr().out
    assert one.replace(str(tmp_path / "one"), "OUT") == two.replace(str(tmp_path / "two"), "OUT")
    files = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert files and files == sorted(p.name for p in (tmp_path / "two").iterdir())
    for name in files:
        assert (tmp_path / "one" / name).read_text() == (tmp_path / "two" / name).read_text()
    assert main([str(INCLUDE), "-o", str(tmp_path / "x"), "--jobs", "0"]) == 2


def test_each_atom_gets_its_theorem_check(toy80):
    mma_checks = {c.mma for c in toy80.checks.values() if c.kind == "mma"}
    assert mma_checks == set(toy80.mma_atoms)
    copy_checks = {c.copy: c.value_type.name for c in toy80.checks.values() if c.kind == "copy"}
    assert copy_checks == {"TOY_U32x4_LDSM_N": "half_t", "TOY_U32x4_STSM_N": "half_t", "TOY_U32x1_MOVM_T": "half_t",
                           "TOY_CP_ASYNC_CACHEALWAYS<uint8_t>": "uint8_t",
                           "TOY_CP_ASYNC_CACHEALWAYS<uint16_t>": "uint16_t",
                           "TOY_CP_ASYNC_CACHEALWAYS<uint32_t>": "uint32_t",
                           "TOY_CP_ASYNC_CACHEALWAYS<uint64_t>": "uint64_t",
                           "TOY_CP_ASYNC_CACHEALWAYS<uint128_t>": "uint128_t"}


def test_yaml_style_matches_the_project(imported):
    text = (imported[1] / "toy80.yaml").read_text()
    assert '    a: "((4,8),(2,2)):((32,1),(16,8))"\n' in text          # CuTe's syntax, no `_`
    assert "    types: {a: half_t, b: half_t, c: float, d: float}\n" in text
    assert '  "TOY_CP_ASYNC_CACHEALWAYS<uint32_t>":\n' in text
    line = _line("mma_traits_toy80.hpp", "struct MMA_Traits<TOY_16x8x8_F16F16F16F16_TN>")
    assert f'    source: "include/cute/atom/mma_traits_toy80.hpp:{line}"\n' in text


# --- MMA traits ----------------------------------------------------------------------------------------

def test_mma_with_alias_from_another_header(toy80):
    atom = toy80.mma_atoms["TOY_16x8x8_F16F16F16F16_TN"]
    assert atom.instruction == "mma.sync.aligned.m16n8k8.row.col.f16.f16.f16.f16"
    assert atom.shape_mnk == (16, 8, 8)
    assert atom.thr_id == parse_layout("32:1")
    assert atom.a == parse_layout("((4,8),(2,2)):((32,1),(16,8))")      # TOY_16x8_Row of mma_traits_toy75.hpp
    assert atom.b == parse_layout("((4,8),2):((16,1),8)")
    assert atom.c == atom.a
    assert {k: v.name for k, v in atom.types.items()} == {"a": "half_t", "b": "half_t", "c": "half_t", "d": "half_t"}
    assert atom.source == f"include/cute/atom/mma_traits_toy80.hpp:" \
                          f"{_line('mma_traits_toy80.hpp', 'struct MMA_Traits<TOY_16x8x8_F16F16F16F16_TN>')}"


def test_inheritance_with_partial_override(toy80):
    base = toy80.mma_atoms["TOY_16x8x8_F16F16F16F16_TN"]
    f32 = toy80.mma_atoms["TOY_16x8x8_F32F16F16F32_TN"]
    assert (f32.a, f32.b, f32.c, f32.shape_mnk) == (base.a, base.b, base.c, base.shape_mnk)
    assert {k: v.name for k, v in f32.types.items()} == {"a": "half_t", "b": "half_t", "c": "float", "d": "float"}
    assert f32.instruction == "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32"     # its own Op's asm
    sat = toy80.mma_atoms["TOY_16x8x8_F32F16F16F32_TN_SATURATE"]                   # `: MMA_Traits<...> {}`
    assert (sat.a, sat.types["d"].name) == (base.a, "float")
    assert sat.instruction == "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32.satfinite"


def test_members_of_a_trait_named_by_a_member(toy80):
    via = toy80.mma_atoms["TOY_16x8x8_VIA_TN"]                 # typename Underlying::ALayout
    f32 = toy80.mma_atoms["TOY_16x8x8_F32F16F16F32_TN"]
    assert (via.a, via.b, via.c, via.shape_mnk, via.thr_id) == (f32.a, f32.b, f32.c, f32.shape_mnk, f32.thr_id)
    assert {k: v.name for k, v in via.types.items()} == {k: v.name for k, v in f32.types.items()}
    assert via.instruction is None                            # no Op struct of that name


def test_int_n_and_line_continuation(imported):
    spec = load_spec(imported[1] / "toy75.yaml")
    atom = spec.mma_atoms["TOY_8x8x4_F64F64F64F64_TN"]
    assert atom.shape_mnk == (8, 8, 4)                                     # Shape<Int<8>,Int<8>,Int<4>>
    assert atom.thr_id == parse_layout("32:1")                             # Layout<Int<32>>
    assert atom.a == parse_layout("((4,8),1):((8,1),0)")
    assert atom.c == parse_layout("((4,8),2):((16,1),8)")                  # written over a `\` continuation
    assert atom.instruction == "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64"


def test_inheritance_across_headers_and_a_struct_value_type(toy80):
    atom = toy80.mma_atoms["TOY_8x8x4_GC64_TN"]
    assert atom.a == parse_layout("((4,8),1):((8,1),0)")
    assert (atom.types["d"].bits, atom.types["a"].name) == (192, "double")   # struct { double t0, t1, t2; }
    assert atom.instruction is None                                          # its Op has no asm


def test_template_alias_arithmetic_and_parameters_that_change_nothing(imported, toy80):
    atom = toy80.mma_atoms["TOY_64x16x16_F16F16F16_SS"]
    assert atom.instruction == "wgmma.mma_async.sync.aligned.m64n16k16.f16.f16.f16"   # after `setp` in the asm
    assert atom.thr_id == parse_layout("128:1")
    assert atom.a == parse_layout("(128,(64,16)):(0,(1,64))")
    assert atom.b == parse_layout("(128,(16,16)):(0,(1,16))")
    assert atom.c == parse_layout("((4,8,4),(2,2,2)):((128,1,16),(64,8,512))")        # Int<N/8> with N = 16
    text = (imported[1] / "toy80.yaml").read_text()
    assert "# its layouts and value types do not depend on tnspA, tnspB" in text


def test_class_templates_are_instantiated_from_the_table(imported):
    spec = load_spec(imported[1] / "generic.yaml")
    assert sorted(spec.mma_atoms) == sorted(["UniversalFMA<float,float,float,float>",
                                             "UniversalFMA<half_t,half_t,half_t,half_t>",
                                             "UniversalFMA<double,double,double,double>",
                                             "UniversalFMA<int32_t,int8_t,int8_t,int32_t>"])
    atom = spec.mma_atoms["UniversalFMA<int32_t,int8_t,int8_t,int32_t>"]
    assert [atom.types[k].name for k in "abcd"] == ["int8_t", "int8_t", "int32_t", "int32_t"]
    assert atom.a == parse_layout("(1,1):(0,0)") and atom.thr_id == parse_layout("1:0")


def test_umma_templates_are_instantiated_with_int_parameters(imported):
    """SM100 UMMA: types from MMA_CLASS_ARGS, M and N from MMA_INT_ARGS; Major / ScaleIn are not instantiated
    (the layouts do not mention them) and are left out of the name; instances the Op refuses are not imported."""
    from verifier.importer.instances import MMA_CLASS_ARGS, MMA_INT_ARGS
    report, out = imported
    spec = load_spec(out / "sm100_toy.yaml")
    ts = "SM100_MMA_F16BF16_TS"
    pair = "SM100_MMA_F16BF16_2x1SM_SS"
    types = MMA_CLASS_ARGS[ts]
    n_ts, n_pair = MMA_INT_ARGS[ts]["N"], MMA_INT_ARGS[pair]["N"]
    refused = {f"{ts}<{','.join(t)},128,{n}>" for t in types for n in n_ts if n % 16}   # M = 128 takes N % 16 == 0
    want_ts = {f"{ts}<{','.join(t)},{m},{n}>" for t in types for m in MMA_INT_ARGS[ts]["M"] for n in n_ts} - refused
    want_pair = {f"{pair}<{','.join(t)},{m},{n}>" for t in MMA_CLASS_ARGS[pair] for m in MMA_INT_ARGS[pair]["M"]
                 for n in n_pair}
    assert refused and set(spec.mma_atoms) == want_ts | want_pair
    assert {c.mma for c in spec.checks.values()} == set(spec.mma_atoms)
    not_instantiated = {n.name for n in report.notes if "not instantiated: static_assert(" in n.text}
    assert refused <= not_instantiated
    one = spec.mma_atoms["SM100_MMA_F16BF16_TS<half_t,half_t,float,64,8>"]
    assert one.instruction == "tcgen05.mma.cta_group::1.kind::f16"
    assert one.shape_mnk == (64, 8, 16)                        # static constexpr int K = 256 / 16
    assert (one.thr_id, one.a, one.c) == (parse_layout("1:0"), parse_layout("(1,(64,16)):(0,(1,64))"),
                                          parse_layout("(1,(64,8)):(0,(1,64))"))
    two = spec.mma_atoms["SM100_MMA_F16BF16_2x1SM_SS<bfloat16_t,bfloat16_t,float,256,64>"]
    assert two.instruction == "tcgen05.mma.cta_group::2.kind::f16"
    assert (two.shape_mnk, two.thr_id) == ((256, 64, 16), parse_layout("2:1"))
    assert two.a == parse_layout("(2,(128,16)):(128,(1,256))")       # each CTA: half of M
    assert two.b == parse_layout("(2,(32,16)):(32,(1,64))")          # each CTA: half of N
    text = (out / "sm100_toy.yaml").read_text()
    assert "# its layouts and value types do not depend on a_major, b_major: one atom for all of them" in text


# --- copy traits ---------------------------------------------------------------------------------------

def test_copy_atom_and_members_of_another_trait(toy80):
    ldsm = toy80.copy_atoms["TOY_U32x4_LDSM_N"]
    assert ldsm.instruction == "ldmatrix.sync.aligned.x4.m8n8.shared.b16"
    assert (ldsm.src, ldsm.dst) == (parse_layout("(32,128):(128,1)"), parse_layout("(32,(32,4)):(32,(1,1024))"))
    assert ldsm.ref_is == "dst"
    stsm = toy80.copy_atoms["TOY_U32x4_STSM_N"]                # typename Copy_Traits<...>::DstLayout
    assert (stsm.src, stsm.dst, stsm.ref_is) == (ldsm.dst, ldsm.src, "src")
    assert stsm.instruction == "stmatrix.sync.aligned.x4.m8n8.shared.b16"


def test_downcast_and_upcast_in_a_definition(toy80):
    atom = toy80.copy_atoms["TOY_U32x1_MOVM_T"]          # downcast<16>((32,2):(2,1)) counts bits
    assert atom.src == atom.dst == atom.ref == parse_layout("(32,32):(32,1)")
    assert atom.instruction == "movmatrix.sync.aligned.m8n8.trans.b16"


def test_templated_copy_on_value_type(imported, toy80):
    report = imported[0]
    for bits in (32, 64, 128):
        atom = toy80.copy_atoms[f"TOY_CP_ASYNC_CACHEALWAYS<uint{bits}_t>"]
        assert atom.src == atom.dst == parse_layout(f"(1,{bits}):(0,1)")   # Int<sizeof_bits<S>::value>
        assert atom.instruction == "cp.async.ca.shared.global.L2::128B"
    # the Op's own static_assert refuses 1- and 2-byte copies when used; CuTe still prints their traits, so
    # they are imported, and their checks document the failure
    refused = {n.name for n in report.notes if "the Op refuses this instance" in n.text}
    assert refused == {"TOY_CP_ASYNC_CACHEALWAYS<uint8_t>", "TOY_CP_ASYNC_CACHEALWAYS<uint16_t>"}
    note = next(n for n in report.notes if n.name == "TOY_CP_ASYNC_CACHEALWAYS<uint8_t>")
    assert "sizeof(TS) == 4 || sizeof(TS) == 8 || sizeof(TS) == 16" in note.text
    assert "include/cute/arch/copy_toy.hpp:" in note.text
    checks = {c.copy: c for c in toy80.checks.values() if c.kind == "copy"}
    assert checks["TOY_CP_ASYNC_CACHEALWAYS<uint8_t>"].expect == "fail"
    assert checks["TOY_CP_ASYNC_CACHEALWAYS<uint32_t>"].expect == "pass"


def test_copy_without_asm_and_a_value_type_cute_refuses(imported, toy80):
    atom = toy80.copy_atoms["TOY_U64x1_SHFL"]
    assert atom.instruction == "TOY_U64x1_SHFL"                 # no asm: the Op's name, as for UniversalCopy
    assert all(c.copy != "TOY_U64x1_SHFL" for c in toy80.checks.values())
    note = next(n for n in imported[0].notes if n.name == "TOY_U64x1_SHFL")
    assert "CuTe refuses Copy_Atom<TOY_U64x1_SHFL, uint64_t>" in note.text
    assert "CopyOperation is not valid for Src of ValType" in note.text


# --- what could not be imported -------------------------------------------------------------------------

def test_every_unimported_definition_is_reported_with_header_and_line(imported):
    report = imported[0]
    by_name = {f.name: f for f in report.failures}
    assert set(by_name) == {"TOY_16x8x16_BROKEN_TN", "TOY_16x8x8_MYSTERY_TN", "TOY_UMMA", "TOY_TMA_LOAD",
                            "SM90_BULK_TOY", "GMMA::Layout_MN_SW64_Atom_Bits"}
    broken = by_name["TOY_16x8x16_BROKEN_TN"]
    assert (broken.header, broken.line) == ("include/cute/atom/mma_traits_toy80.hpp",
                                            _line("mma_traits_toy80.hpp", "MMA_Traits<TOY_16x8x16_BROKEN_TN>"))
    assert "Mismatched ranks" in broken.reason                 # what CuTe's static_assert says
    assert "TOY_Layout_Nobody_Defines" in by_name["TOY_16x8x8_MYSTERY_TN"].reason
    assert "no instantiation rule" in by_name["TOY_UMMA"].reason
    assert by_name["TOY_TMA_LOAD"].reason == TMA_LOAD                       # a TMA copy is no warp-level atom
    assert CUTE_REFUSES in broken.reason                                     # CuTe's own static_assert
    text = report.text()
    assert f"could not import TOY_16x8x16_BROKEN_TN (include/cute/atom/mma_traits_toy80.hpp:{broken.line}): " \
           "ALayout" in text
    names = {a.name for a in report.imported}
    assert not names & set(by_name)


def test_counts(imported):
    report = imported[0]
    assert (report.count("mma"), report.count("copy")) == (62, 9)     # 51 of them UMMA (sm100_toy)
    assert "imported 62 MMA atoms and 9 copy atoms into 4 spec files" in report.summary()


# --- command line ---------------------------------------------------------------------------------------

def test_main_writes_and_reports(tmp_path, capsys):
    assert main([str(INCLUDE), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "could not import TOY_16x8x8_MYSTERY_TN" in out
    assert (tmp_path / "out" / "toy80.yaml").is_file()


def test_main_accepts_the_cute_directory(tmp_path):
    assert main([str(INCLUDE / "cute"), "-o", str(tmp_path)]) == 0
    assert (tmp_path / "toy75.yaml").is_file()


@pytest.mark.parametrize("argv", [["/no/such/include/dir"], [str(DATA)], []])
def test_main_bad_input_exits_2(argv, tmp_path, capsys):
    assert main(argv + ["-o", str(tmp_path)] if argv else argv) == 2
    assert "error" in capsys.readouterr().err.lower()


# --- the pieces -----------------------------------------------------------------------------------------

def test_scanner_ignores_comments_macros_and_keeps_lines():
    text = (ATOM / "mma_traits_toy80.hpp").read_text()
    header = scan(text, "h.hpp")
    traits = [d for d in walk(header.decls) if isinstance(d, StructDecl) and d.name == "MMA_Traits"]
    assert [d.args.split("<")[0] for d in traits] == [
        "TOY_16x8x8_F16F16F16F16_TN", "TOY_16x8x8_F32F16F16F32_TN", "TOY_16x8x8_F32F16F16F32_TN_SATURATE",
        "TOY_16x8x8_VIA_TN", "TOY_8x8x4_GC64_TN", "TOY_16x8x16_BROKEN_TN", "TOY_16x8x8_MYSTERY_TN",
        "TOY_64x16x16_F16F16F16_SS",
        "TOY_UMMA"]                                           # not the one inside #define
    for d in traits:
        assert text.splitlines()[d.line - 1].lstrip().startswith("struct MMA_Traits<")
    aliases = {d.name: d for d in header.decls if isinstance(d, AliasDecl)}
    assert [p.name for p in aliases["TOY_CLayout_64xN"].params] == ["N"]
    assert aliases["TOY_64x16x16_F16F16F16_SS"].params[0].kind == "TOY::Major"


def test_scanner_line_continuation_keeps_line_numbers():
    text = "struct A {\n  using X = Layout<_2, \\\n   _1>;\n};\nstruct B { using Y = _3; };\n"
    decls = scan(text, "t.hpp").decls
    a, b = decls
    assert (a.line, b.line) == (1, 5)
    assert a.members[0].value == "Layout<_2, _1>"


def test_scanner_static_assert_and_asm():
    text = (INCLUDE / "cute" / "arch" / "copy_toy.hpp").read_text()
    structs = {d.name: d for d in walk(scan(text, "a.hpp").decls) if isinstance(d, StructDecl)}
    cp = structs["TOY_CP_ASYNC_CACHEALWAYS"]
    asserts = [m for m in cp.members if isinstance(m, StaticAssert)]
    assert asserts[1].condition == "sizeof(TS) == 4 || sizeof(TS) == 8 || sizeof(TS) == 16"
    assert asserts[1].message == "cp.async sizeof(TS) is not supported"
    assert [p.default for p in cp.params] == [None, "TS"]
    assert instruction_of(cp.asm[0][0]) == "cp.async.ca.shared.global.L2::128B"


def test_scanner_blanks_what_it_never_reads():
    """asm operand lists and fma parameter lists are blanked before tokenizing: the asm text, the members after
    them and every line number stay as written; a list without its closing parenthesis is left alone."""
    from verifier.importer.scanner import _Text, tokenize
    text = (
        "struct OP {\n"
        "  static void fma(float & d0, float & d1,\n"
        "                  uint32_t const& a0 /* (a comment) */, char c = ')')\n"
        "  {\n"
        '    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 "\n'
        '                 "{%0, %1}, {%2};\\n"\n'
        '      : "+f"(d0), "+f"(d1)\n'
        '      : "r"((a0 + 1) * (2)));\n'
        "  }\n"
        "  using DRegisters = float[2];\n"
        "};\n"
        "struct Broken { void fma(int a, \n")
    cleaned = _Text(text).text
    assert len(cleaned) == len(text) and cleaned.count("\n") == text.count("\n")
    assert "d0" not in cleaned.split("asm")[0] and '"+f"' not in cleaned and "fma(int a," in cleaned
    assert len(tokenize(cleaned)) < len(tokenize(text)) // 2
    op, broken = scan(text, "t.hpp").decls
    assert op.asm == [("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0, %1}, {%2};\n", 5)]
    alias = op.members[-1]
    assert isinstance(alias, AliasDecl) and (alias.name, alias.value, alias.line) == ("DRegisters", "float[2]", 10)
    assert broken.name == "Broken" and broken.line == 12


@pytest.mark.parametrize("asm, want", [
    ("mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16{%0, %1},{%2};\n",
     "mma.sync.aligned.m8n8k4.row.col.f16.f16.f16.f16"),
    ("{\n.reg .pred p;\nsetp.ne.b32 p, %4, 0;\nwgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0}, p;\n}\n",
     "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16"),
    ("tcgen05.ld.sync.aligned.16x256b.x1.b32{%0, %1}, [%2];\n", "tcgen05.ld.sync.aligned.16x256b.x1.b32"),
])
def test_instruction_of_asm(asm, want):
    assert instruction_of(asm) == want


def test_cpp_reader_extensions():
    assert read_cpp("Int<2+3*4>") == 14 and read_cpp("Int<-7/2>") == -3            # C++ precedence, truncation
    assert read_cpp("Int<sizeof_bits<uint64_t>::value>") == 64
    assert read_cpp("Layout<Shape<_2,_4>, Stride<_1,-2>>").plain() == "(2,4):(1,-2)"
    assert str(read_cpp("typename Foo<_1>::Bar")) == "Foo<1>::Bar"                  # an unknown member: a name


# --- a real CUTLASS checkout -----------------------------------------------------------------------------

CUTLASS = os.environ.get("CUTLASS_INCLUDE")


@pytest.mark.skipif(not CUTLASS, reason="set CUTLASS_INCLUDE to a CUTLASS include/ directory")
def test_real_cutlass_reproduces_cute_atoms(tmp_path):
    report = import_cutlass(Path(CUTLASS), tmp_path)
    result = compare_details(report.spec_files, DATA / "oracle_atoms.json.gz", report)
    assert result.problems == []
    assert len(result.matched) >= 130, result.explained          # explained ones are reported, with reasons
    assert compare(report.spec_files, DATA / "oracle_atoms.json.gz", report) == []
    assert compare_rejected(report, DATA / "oracle_atoms_rejected.json.gz") == []
    assert all(re.search(r"\.hpp:\d+\)", str(f)) for f in report.failures)


def test_a_documented_finding_is_written_with_the_catalogs_expect(tmp_path):
    """SM75_U32x1_MOVM_T's traits are an identity copy while movmatrix transposes: the imported check documents
    it as the catalog does (expect: fail, the finding as its description), and prove agrees."""
    from verifier.algebra import parse_layout
    from verifier.findings import KNOWN_FINDINGS
    from verifier.importer.atoms import CopyRecord
    from verifier.importer.writer import spec_text
    from verifier.outcome import Verdict
    from verifier.engine.runner import run_check
    bits = parse_layout("(32,32):(32,1)")
    rec = CopyRecord("SM75_U32x1_MOVM_T", "movmatrix.sync.aligned.m8n8.trans.b16", parse_layout("32:1"), bits, bits,
                     bits, "dst", "half_t", "include/cute/atom/copy_traits_sm75.hpp", 144)
    f = tmp_path / "sm75.yaml"
    f.write_text(spec_text("imported_sm75", ["include/cute/atom/copy_traits_sm75.hpp"], [], [rec],
                           {"include/cute/atom/copy_traits_sm75.hpp": "include/cute/atom/copy_traits_sm75.hpp"}))
    spec = load_spec(f)
    check = spec.checks["SM75_U32x1_MOVM_T"]
    assert check.expect == "fail" and check.description == KNOWN_FINDINGS["SM75_U32x1_MOVM_T"]
    r = run_check(spec, check)
    assert r.verdict is Verdict.REFUTED and r.ok


def test_an_mma_without_an_instruction_is_written_as_documented_unsupported(tmp_path):
    """An Op that computes in C++ and has no model (SM100's float2 FMAs; UniversalFMA has one, scalar_fma.py) names
    no instruction: the imported check says so (expect: unsupported, with the reason), and prove reports it as
    documented rather than as undecided."""
    from verifier.algebra import parse_layout
    from verifier.importer.atoms import MMARecord
    from verifier.importer.writer import NO_INSTRUCTION, spec_text
    from verifier.outcome import Verdict
    from verifier.engine.runner import run_check
    one = parse_layout("(1,1):(0,0)")
    rec = MMARecord("SM100_2x1x1_F32F32F32F32", None, (1, 1, 1), parse_layout("1:0"),
                    {"a": "float", "b": "float", "c": "float", "d": "float"}, one, one, one,
                    "include/cute/atom/mma_traits.hpp", 70)
    f = tmp_path / "generic.yaml"
    f.write_text(spec_text("imported_generic", ["include/cute/atom/mma_traits.hpp"], [rec], [],
                           {"include/cute/atom/mma_traits.hpp": "include/cute/atom/mma_traits.hpp"}))
    spec = load_spec(f)
    check = spec.checks["SM100_2x1x1_F32F32F32F32"]
    assert check.expect == "unsupported" and check.description == NO_INSTRUCTION
    r = run_check(spec, check)
    assert r.verdict is Verdict.UNSUPPORTED and r.ok


# --- the Hopper definitions ----------------------------------------------------------------------------

def test_gmma_layout_atoms_are_compared_with_the_verifier_s(imported):
    """GMMA::Layout_*_Atom_Bits are read and compared with verifier/cute/gmma.py's facts: one agrees, and the
    miniature's wrong MN-major 64-byte atom is reported as a disagreement at its header line."""
    report, _ = imported
    header = "mma_traits_toy90_gmma.hpp"
    good = next(n for n in report.notes if n.name == "GMMA::Layout_K_SW128_Atom_Bits")
    assert (good.header, good.line) == (f"include/cute/atom/{header}", _line(header, "Layout_K_SW128_Atom_Bits"))
    assert "agrees with the verifier's GMMA::Layout_K_SW128_Atom" in good.text
    bad = report.failure_for("GMMA::Layout_MN_SW64_Atom_Bits")
    assert bad is not None and bad.line == _line(header, "Layout_MN_SW64_Atom_Bits")
    assert "disagrees with the verifier's GMMA::Layout_MN_SW64_Atom" in bad.reason
    assert "(_512,_8):(_1,_512)" in bad.reason
    assert "read 2 GMMA shared-memory layout atoms: 1 disagree" in report.summary()


def test_the_tiled_tma_load_is_a_note_and_other_bulk_copies_are_not_imported(imported):
    report, _ = imported
    note = next(n for n in report.notes if n.name == "SM90_TMA_LOAD")
    assert "copy: SM90_TMA_LOAD" in note.text and note.line == _line("copy_traits_toy90_tma.hpp", "SM90_TMA_LOAD,")
    assert report.failure_for("SM90_TMA_LOAD") is None
    other = report.failure_for("SM90_BULK_TOY")
    assert other is not None and "not a warp-level atom" in other.reason


# --- why a definition is not imported ------------------------------------------------------------------------

TRAITS_ARGS_INCLUDE = DATA / "cpp" / "include_traits_args"


def test_traits_that_take_the_atom_s_parameters_as_arguments_are_instantiated(tmp_path):
    """MMA_Traits<SM100_MMA_F8F6F4_SS, a_type, b_type, c_type, C<M>, C<N>, integral_constant<...>...> (CUTLASS 4.2's
    form: the Op is no template) is instantiated by the Op's rules as the template form is, and named alike."""
    from verifier.engine.runner import run_check
    from verifier.importer.instances import MMA_CLASS_ARGS, MMA_INT_ARGS
    from verifier.outcome import Verdict
    report = import_cutlass(TRAITS_ARGS_INCLUDE, tmp_path)
    spec = load_spec(tmp_path / "sm100_args.yaml", allow_outside=True)
    op = "SM100_MMA_F8F6F4_SS"
    assert set(spec.mma_atoms) == {f"{op}<{','.join(t)},{m},{n}>" for t in MMA_CLASS_ARGS[op]
                                   for m in MMA_INT_ARGS[op]["M"] for n in MMA_INT_ARGS[op]["N"]}
    one = spec.mma_atoms[f"{op}<float_e4m3_t,float_e5m2_t,float,128,64>"]
    assert one.instruction == "tcgen05.mma.cta_group::1.kind::f8f6f4" and one.shape_mnk == (128, 64, 32)
    assert one.a == parse_layout("(1,(128,32)):(0,(1,128))") and one.c == parse_layout("(1,(128,64)):(0,(1,128))")
    assert run_check(spec, spec.checks[one.name]).verdict is Verdict.VERIFIED
    assert report.failures == []


def test_a_template_without_its_instantiation_rule_is_a_gap_not_a_cutlass_fact(tmp_path, monkeypatch):
    """Remove the rule of a modelled family (the miniature SM100_MMA_F16BF16_TS): its traits are reported as not
    imported, and the reason is classed as the importer's gap, never as a fact about CUTLASS."""
    from verifier.importer import instances
    from verifier.importer.not_imported import states_a_cutlass_fact
    monkeypatch.delitem(instances.MMA_CLASS_ARGS, "SM100_MMA_F16BF16_TS")
    report = import_cutlass(INCLUDE, tmp_path)
    dropped = report.failure_for("SM100_MMA_F16BF16_TS")
    assert dropped is not None and "no instantiation rule" in dropped.reason
    assert not states_a_cutlass_fact(dropped.reason)
    assert states_a_cutlass_fact(report.failure_for("TOY_TMA_LOAD").reason)


def _wheel_include() -> Path | None:
    import importlib.util
    found = importlib.util.find_spec("cutlass_library")
    if found is None or found.origin is None:
        return None
    include = Path(found.origin).parent / "source" / "include"
    return include if (include / "cute" / "atom" / "mma_traits_sm100.hpp").is_file() else None


WHEEL_INCLUDE = _wheel_include()
# The definitions of the nvidia-cutlass 4.2 wheel's headers not imported for a gap of the importer or of the models
# (neither a fact about CUTLASS nor one about the PTX ISA's documentation), each named: the test fails when one joins
# this list or leaves it.  None is left: SM100's block-scaled sparse UMMA, sm_103a's ULTRA UMMA and sm_120a's
# mma.sync .kind::f8f6f4 are imported (tests/test_import_blockscaled_sparse_sm103_sm120.py), and sm_120a's
# block-scaled and sparse mma.sync say which PTX ISA figures alone draw what their atoms define (not_imported.py).
KNOWN_GAPS: set[str] = set()


@pytest.fixture(scope="module")
def wheel_import(tmp_path_factory) -> ImportReport:
    """import-cutlass on the wheel's headers, the SM90 GMMA ones (traits and Ops) left out to keep the test short:
    they import without a failure, their atoms checked by tests/test_sparse_gmma.py and the atom library's tests."""
    assert WHEEL_INCLUDE is not None
    root = tmp_path_factory.mktemp("wheel") / "include"
    for part in ("atom", "arch"):
        (root / "cute" / part).mkdir(parents=True)
        for header in (WHEEL_INCLUDE / "cute" / part).glob("*.hpp"):
            if "gmma" not in header.name:
                (root / "cute" / part / header.name).symlink_to(header)
    return import_cutlass(root, root.parent / "specs", 1)


@pytest.mark.skipif(WHEEL_INCLUDE is None, reason="no CUTLASS headers (the nvidia-cutlass wheel) installed")
def test_every_definition_not_imported_is_a_fact_about_cutlass_or_a_named_gap(wheel_import):
    """Each definition of CUTLASS's headers the importer leaves out says why: a fact about CUTLASS (TMA and bulk
    copies are no warp-level atoms, a prefetch has no destination, CuTe refuses the U1U1 ALayout), or it is one of
    the named gaps; no reason says a model is missing, and every family with an instantiation rule is imported."""
    from verifier.importer.instances import MMA_CLASS_ARGS
    from verifier.importer.not_imported import (BULK_COPY, BULK_COPY_AUTO, BULK_PREFETCH, DRAWN_ONLY, TMA_IM2COL,
                                                TMA_PREFETCH, TMA_STORE, states_a_cutlass_fact,
                                                states_a_documentation_fact)
    report = wheel_import
    gaps = {f.name.split("<")[0] for f in report.failures
            if not (states_a_cutlass_fact(f.reason) or states_a_documentation_fact(f.reason))}
    assert gaps == KNOWN_GAPS
    drawn_only = {f.name.split("::")[-1] for f in report.failures if states_a_documentation_fact(f.reason)}
    assert drawn_only == set(DRAWN_ONLY)
    assert not [f for f in report.failures if re.search(r"\bno (?:hardware )?model\b|not modell?ed", f.reason)]
    by_reason: dict[str, set[str]] = {}
    for f in report.failures:
        by_reason.setdefault(f.reason, set()).add(f.name)
    assert by_reason[TMA_LOAD] == {"SM90_TMA_LOAD_MULTICAST", "SM90_TMA_LOAD_MULTICAST_OP", "SM100_TMA_2SM_LOAD",
                                   "SM100_TMA_2SM_LOAD_OP", "SM100_TMA_2SM_LOAD_MULTICAST",
                                   "SM100_TMA_2SM_LOAD_MULTICAST_OP"}
    assert by_reason[TMA_IM2COL] == {"SM90_TMA_LOAD_IM2COL", "SM90_TMA_LOAD_IM2COL_OP",
                                     "SM90_TMA_LOAD_IM2COL_MULTICAST", "SM90_TMA_LOAD_IM2COL_MULTICAST_OP",
                                     "SM90_TMA_STORE_IM2COL",
                                     "SM100_TMA_2SM_LOAD_IM2COL", "SM100_TMA_2SM_LOAD_IM2COL_OP",
                                     "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST", "SM100_TMA_2SM_LOAD_IM2COL_MULTICAST_OP"}
    assert by_reason[TMA_STORE] == {"SM90_TMA_STORE", "SM90_TMA_STORE_PTR", "SM90_TMA_REDUCE_ADD"}
    assert by_reason[TMA_PREFETCH] == {"SM90_TMA_LOAD::PREFETCH", "SM90_TMA_LOAD_IM2COL::PREFETCH"}
    assert (by_reason[BULK_COPY], by_reason[BULK_PREFETCH], by_reason[BULK_COPY_AUTO]) == (
        {"SM90_BULK_COPY_G2S", "SM90_BULK_COPY_S2G"}, {"SM90_BULK_COPY_G2S::PREFETCH"}, {"SM90_BULK_COPY_AUTO"})
    refused = {f.name for f in report.failures if CUTE_REFUSES in f.reason}
    assert refused == {"SM80_16x8x128_S32U1U1S32_TN_XORPOPC", "SM80_16x8x128_S32U1U1S32_TN_ANDPOPC"}
    # a family with an instantiation rule whose traits the headers hold is imported, none of it left out
    heads = {a.name.split("<")[0].split("::")[-1] for a in report.imported}      # SM103::SM103_MXF4_ULTRA_SS_VS
    failed = {f.name.split("<")[0].split("::")[-1] for f in report.failures}
    with_traits = {t for t in MMA_CLASS_ARGS if re.search(rf"\b{t}\b", "\n".join(
        h.read_text(encoding="utf-8") for h in (WHEEL_INCLUDE / "cute" / "atom").glob("mma_traits_sm100.hpp")))}
    assert with_traits and with_traits <= heads and not with_traits & failed


@pytest.mark.skipif(WHEEL_INCLUDE is None, reason="no CUTLASS headers (the nvidia-cutlass wheel) installed")
def test_cutlass_4_2_s_f8f6f4_ss_and_scaled_umma_atoms_are_the_library_s(wheel_import):
    """CUTLASS 4.2's MMA_Traits<SM100_MMA_F8F6F4_SS, ...> (no template Op) give exactly the atoms of the library's
    SM100_MMA_F8F6F4_SS<...> (CUTLASS 4.7's template form, proved by the library's tests), and the _SCALED F16BF16
    forms (tcgen05.mma's scale-input-d) the instruction, layouts and types of their unscaled twins."""
    from ruamel.yaml import YAML
    yaml = YAML(typ="safe")          # the written files read as data (the spec loader's checks are not needed here)
    imported = {n: a for f in sorted(Path(wheel_import.out_dir).glob("sm100*.yaml"))
                for n, a in yaml.load(f.read_text(encoding="utf-8"))["mma_atoms"].items()}
    library = load_spec(Path(__file__).parent.parent / "specs" / "atoms" / "sm100_umma.yaml").mma_atoms
    f8 = [n for n in imported if re.match(r"SM100_MMA_F8F6F4(?:_2x1SM)?_SS<", n)]
    scaled = [n for n in imported if "_SCALED<" in n]
    assert (len(f8), len(scaled)) == (48, 99)
    for name in f8 + scaled:
        atom, twin = imported[name], library[name.replace("_SCALED", "")]
        assert (atom["instruction"], tuple(atom["shape_mnk"]), atom["types"]) == \
            (twin.instruction, twin.shape_mnk, {k: v.name for k, v in twin.types.items()}), name
        assert [parse_layout(atom[k]) for k in ("thr_id", "a", "b", "c")] == \
            [twin.thr_id, twin.a, twin.b, twin.c], name
