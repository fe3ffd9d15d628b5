"""`import-kernel`: the CuTe configuration of a C++ kernel source, read without a compiler, becomes the same checks
the catalog maps by hand (tests/data/kernels: small sources written in the style of CUTLASS's sgemm_sm80.cu
tutorial and of default_gemm_configuration.hpp's Sm80 half configuration); what cannot be read is reported with
file:line:column.  And CuTe's C++ spelling of a layout is accepted by the calculator and the spec loader."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.algebra.syntax import ParseError, parse_expression, parse_layout
from verifier.commands.cli import main
from verifier.importer.kernel import import_kernel
from verifier.specfile import SpecError, load_spec

ROOT = Path(__file__).parent.parent
KERNELS = Path(__file__).parent / "data" / "kernels"
TUTORIAL = KERNELS / "sgemm_sm80_style.cu"
CONFIGURATION = KERNELS / "sm80_gemm_configuration_style.hpp"
CONFIG = "GemmConfiguration_OpClassTensorOp_Sm80_half_t_{}_half_t_{}_float_LayoutC_float_{}"
# imported check -> the catalog's hand-mapped check of the same configuration
SAME_AS_CATALOG = {
    "gemm_tn_a": "tutorial_sgemm_sm80_a_ldsm_x4",
    "gemm_tn_b": "tutorial_sgemm_sm80_b_ldsm_x4",
    CONFIG.format("RowMajor", "ColumnMajor", "a"): "cutlass_sm80_f32f16_a_kmajor_sw233_128x32",
    CONFIG.format("RowMajor", "ColumnMajor", "b"): "cutlass_sm80_f32f16_b_kmajor_sw233_128x32",
    CONFIG.format("RowMajor", "RowMajor", "b"): "cutlass_sm80_f32f16_b_mnmajor_sw333_128x32",
    CONFIG.format("ColumnMajor", "ColumnMajor", "a"): "cutlass_sm80_f32f16_a_mnmajor_sw333_128x32",
}


def verifier(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("kernel") / "kernel.yaml"
    p = verifier("import-kernel", str(TUTORIAL), str(CONFIGURATION), "-o", str(out))
    assert p.returncode == 0, p.stderr
    return out, p.stderr


def _tiled(atom_layout):
    if atom_layout is None:
        return (1, 1, 1)
    if isinstance(atom_layout, tuple):
        return tuple(atom_layout) + (1,) * (3 - len(atom_layout))
    return str(atom_layout)


def _same(mine, theirs):
    assert (mine.mma, mine.operand, mine.copy, mine.value_type.name) == \
           (theirs.mma, theirs.operand, theirs.copy, theirs.value_type.name)
    assert _tiled(mine.atom_layout) == _tiled(theirs.atom_layout)
    assert mine.permutation == theirs.permutation
    assert str(mine.smem) == str(theirs.smem)
    assert mine.smem.values() == theirs.smem.values()


def test_the_imported_checks_are_the_catalogs_hand_mapped_ones(imported):
    spec = load_spec(imported[0], allow_outside=True)
    catalog = load_spec(ROOT / "specs" / "catalog" / "sm80_f16.yaml")
    assert set(spec.checks) == set(SAME_AS_CATALOG)
    for mine, theirs in SAME_AS_CATALOG.items():
        _same(spec.checks[mine], catalog.checks[theirs])


def test_the_imported_spec_proves_on_its_own(imported):
    p = verifier("prove", str(imported[0]), "--allow-outside", "--no-cache", "--format", "json")
    assert p.returncode == 0, p.stdout[-2000:] + p.stderr
    assert {c["verdict"] for c in json.loads(p.stdout)["checks"]} == {"verified"}


def test_what_cannot_be_read_is_reported_with_its_place(imported):
    report = imported[1]
    assert f"{TUTORIAL}:22:8: 'dA': depends on 'ldA'" in report               # a run-time leading dimension
    assert f"{CONFIGURATION}:21:9: 'GmemTiledCopy': cannot read 'make_tiled_copy(...)'" in report
    assert "operand A of gemm_nt: a shared-memory layout and a tiled MMA but no shared->register Copy_Atom" \
        in report                                                               # UniversalFMA, no s2r atom
    assert "6 checks from 2 file(s)" in report


def test_comments_and_commented_alternatives_are_not_read():
    r = import_kernel(TUTORIAL.read_text(), str(TUTORIAL))
    assert {c.copy.op for c in r.checks} == {"SM75_U32x4_LDSM_N"}              # the x2 alternative is a comment


def test_a_struct_template_is_read_for_each_layout_its_recipes_are_written_for():
    r = import_kernel(CONFIGURATION.read_text(), str(CONFIGURATION))
    by_name = {c.name: c for c in r.checks}
    a_k, a_m = by_name[CONFIG.format("RowMajor", "ColumnMajor", "a")], by_name[CONFIG.format("ColumnMajor",
                                                                                             "ColumnMajor", "a")]
    assert (a_k.copy.op, a_m.copy.op) == ("SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T")
    b_n = by_name[CONFIG.format("RowMajor", "RowMajor", "b")]       # inherited from A's M-major recipe
    assert b_n.copy.op == "SM75_U16x8_LDSM_T" and b_n.smem_from == "tile_to_shape(SmemLayoutAtomB, (128, 32))"


@pytest.mark.parametrize("content, why", [(None, "no such file"), (b"\x00\x01binary", "not a text file"),
                                          (b"int main() { return 0; }\n", "found no CuTe configuration")])
def test_bad_input_is_one_line_and_exit_2(tmp_path, content, why):
    f = tmp_path / "k.cu"
    if content is not None:
        f.write_bytes(content)
    p = verifier("import-kernel", str(f))
    assert p.returncode == 2 and why in p.stderr and len(p.stderr.strip().splitlines()) == 1
    assert "Traceback" not in p.stderr


def test_an_atom_the_library_lacks_is_reported_and_its_check_left_out(tmp_path):
    f = tmp_path / "k.cu"
    f.write_text(TUTORIAL.read_text().replace("SM75_U32x4_LDSM_N, half_t> s2r_atom_B",
                                              "SM75_U32x4_LDSM_MADE_UP, half_t> s2r_atom_B"))
    out = tmp_path / "k.yaml"
    p = verifier("import-kernel", str(f), "-o", str(out))
    assert p.returncode == 0, p.stderr
    assert "check gemm_tn_b: the atom library defines no copy atom SM75_U32x4_LDSM_MADE_UP" in p.stderr
    assert set(load_spec(out, allow_outside=True).checks) == {"gemm_tn_a"}


# --- CuTe's C++ spelling -------------------------------------------------------------------------------------

@pytest.mark.parametrize("cpp, printed", [
    ("Layout<Shape<_8,_64>, Stride<_64,_1>>{}", "(8,64):(64,1)"),
    ("composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>, Stride<_64,_1>>{})", "Sw<3,3,3> o (8,64):(64,1)"),
    ("tile_to_shape(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{}), Shape<_128,_32>{})",
     "Sw<2,3,3> o _0 o ((_8,_16),(_32,_1)):((_32,_256),(_1,_0))"),
    ("make_layout(make_shape(Int<4>{}, Int<8>{}), make_stride(Int<8>{}, Int<1>{}))", "(4,8):(8,1)"),
])
def test_the_calculator_and_the_loader_read_cpp_spelling(cpp, printed):
    a, b = parse_expression(cpp), parse_layout(printed)
    assert a.values() == b.values() and str(parse_layout(cpp)) == str(a)


@pytest.mark.parametrize("cpp, column, words", [
    ("Layout<Shape<_8,foo>>{}", 17, "unknown name 'foo'"),
    ("Layout<Shape<_8,_64>, Stride<_64,_1>{}", 38, "expected '>'"),
    ("Layout<Shape<Int<100000000>,Int<100000000>>>{}", 1, "larger than the supported"),
    ("Layout<" * 70 + "_1" + ">" * 70 + "{}", None, "nested too deeply"),
    ("Layout<Shape<Int<" + "9" * 60 + ">>>{}", None, "digits is too large"),
])
def test_bad_cpp_spelling_is_a_parse_error_with_a_column(cpp, column, words):
    with pytest.raises(ParseError) as e:
        parse_expression(cpp)
    assert words in e.value.message
    if column is not None:
        assert e.value.pos + 1 == column


def test_a_spec_may_write_smem_in_cpp_spelling(tmp_path):
    atoms = ROOT / "specs" / "atoms"
    text = ("version: 1\nname: cpp\ninclude: [" + f"{atoms / 'sm75.yaml'}, {atoms / 'sm80_f16.yaml'}" + "]\n"
            "checks:\n  seed:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n    copy: SM75_U32x4_LDSM_N\n"
            "    value_type: half_t\n    smem: \"Layout<Shape<_16,_16>, Stride<_16,_1>>{}\"\n"
            "  bad:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n    copy: SM75_U32x4_LDSM_N\n"
            "    value_type: half_t\n    smem: \"Layout<Shape<_16,_16>, Stride<_16>>{}\"\n")
    f = tmp_path / "cpp.yaml"
    f.write_text(text)
    with pytest.raises(SpecError) as e:
        load_spec(f, allow_outside=True)
    assert e.value.loc.line == 16 and "not congruent" in e.value.message
    f.write_text(text.split("  bad:")[0])
    spec = load_spec(f, allow_outside=True)
    assert str(spec.checks["seed"].smem) == str(parse_layout("(16,16):(16,1)"))
    p = verifier("prove", str(f), "--allow-outside", "--no-cache")
    assert p.returncode == 0 and "verified" in p.stdout


@pytest.mark.parametrize("text", [
    "void f() { " + "{" * 5000 + " }",                                   # unbalanced, deeply nested blocks
    "using A = " + "Layout<" * 300 + "_1" + ">" * 300 + "{};\n",        # nesting beyond the reader's limit
    "struct X { using T = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>>{}); };" * 2000,
    "template <class T> struct S : S<T> {};\nusing A = S<int>::Member;\n",   # a base that is the struct itself
])
def test_hostile_sources_give_a_report_not_a_traceback(tmp_path, text):
    f = tmp_path / "k.cu"
    f.write_text(text)
    p = subprocess.run([sys.executable, "-m", "verifier", "import-kernel", str(f)], capture_output=True, text=True,
                       cwd=ROOT, timeout=60)
    assert p.returncode in (0, 2) and "Traceback" not in p.stderr


def test_a_second_configuration_with_the_same_path_is_listed_not_dropped(tmp_path, capsys):
    """Two configuration structs: the second one's A is the first one's (one check proves both, and the import
    says so); its B, written inline as decltype(tile_to_shape(composition(Swizzle...))), is a check of its own."""
    src = Path(__file__).parent / "data" / "kernels" / "two_configurations.hpp"
    spec = tmp_path / "two.yaml"
    assert main(["import-kernel", str(src), "-o", str(spec)]) == 0
    err = capsys.readouterr().err
    assert "operand A of ConfigTwo: the same operand path as check ConfigOne_a, which proves it" in err
    text = spec.read_text(encoding="utf-8")
    assert "ConfigOne_a:" in text and "ConfigOne_b:" in text and "ConfigTwo_b:" in text
    assert "Sw<2,3,3>" in text.split("ConfigTwo_b:")[1]


def _toolchain_or_skip():
    from verifier.importer.compiled import CompilerUnavailable, toolchain
    try:
        return toolchain(None, None)
    except CompilerUnavailable as e:
        pytest.skip(f"no compiler path here: {e}")


def test_check_reader_compares_every_named_layout_with_cutes_own(tmp_path, capsys):
    _toolchain_or_skip()
    src = Path(__file__).parent / "data" / "kernels" / "two_configurations.hpp"
    assert main(["import-kernel", str(src), "--check-reader", "-o", str(tmp_path / "c.yaml")]) == 0
    err = capsys.readouterr().err
    assert "check-reader: 3 shared layouts compared with CuTe's own" in err and "; 0 differ" in err


def test_check_reader_uses_cutes_value_where_the_reader_is_wrong():
    from verifier.algebra.syntax import parse_layout
    from verifier.importer.kernel import KernelImport
    from verifier.importer.kernel_spec import check_reader
    tools = _toolchain_or_skip()
    src = Path(__file__).parent / "data" / "kernels" / "two_configurations.hpp"
    result = import_kernel(src.read_text(encoding="utf-8"), str(src), KernelImport())
    wrong = next(c for c in result.checks if c.name == "ConfigTwo_b")
    right = wrong.smem
    wrong.smem = parse_layout("(128,32):(32,1)")          # as if the reader had lost the swizzle
    check_reader(tools, src, result.checks, result, {})
    assert result.compared == 3 and result.differ == 1
    assert str(wrong.smem) == str(right)
    assert any("the reader read (_128,_32):(_32,_1), CuTe computes" in str(u) for u in result.unreadable)


def test_check_reader_without_a_compiler_is_one_line_and_exit_2(capsys):
    src = Path(__file__).parent / "data" / "kernels" / "two_configurations.hpp"
    assert main(["import-kernel", str(src), "--check-reader", "--cxx", "/no/such/compiler"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no C++ compiler" in err[0]


@pytest.mark.parametrize("written, unknown", [("Layout<Shape<_2,_2>>{}", "Layout<Shape<i3216,_2>>{}"),
                                              ("Tile<_32,_32,_16>{}", "Tile<_32,kTileN,_16>{}")])
def test_a_tiled_mma_whose_layouts_name_an_unknown_value_is_reported_not_a_crash(written, unknown):
    """An unresolved name in make_tiled_mma's thread layout or permutation (a typo, a run-time value): the
    declaration is listed as unreadable at its place; it was kept as a layout holding a name, and the first use of
    it (hashing its text) was an internal error."""
    text = TUTORIAL.read_text()
    assert written in text
    r = import_kernel(text.replace(written, unknown, 1), str(TUTORIAL))
    name = "i3216" if "i3216" in unknown else "kTileN"
    assert any(f"its layouts depend on '{name}'" in u.why and u.what == "'mmaC'" for u in r.unreadable)


@pytest.mark.parametrize("text, said", [
    ("composition(cute<2,3,3>{}, Layout<Shape<_64,_32>, Stride<_32,_1>>{})", "composition: expected a layout"),
    ("tile_to_shape(kAtom, Shape<_64,_64>{})", "tile_to_shape: expected a layout"),
    ("logical_divide(Layout<Shape<_8,_8>>{}, Shape<_2,kN>{})", "logical_divide: expected a layout or a tiler"),
    ("upcast<kBits>(Layout<Shape<_8>>{})", "upcast<N>(L) needs one positive integer N"),
])
def test_a_layout_function_given_a_name_it_cannot_resolve_is_a_read_error(text, said):
    """The C++ reader's layout functions check their arguments as the calculator does: an unresolved name passed
    where a layout or a shape goes is a read error at its place (it reached the algebra, an internal error)."""
    from verifier.algebra.cpp_syntax import CppParseError, read_cpp
    with pytest.raises(CppParseError) as e:
        read_cpp(text)
    assert said in e.value.message


def test_a_shared_layout_cute_refuses_to_build_is_reported_at_its_configuration():
    """The reader builds tile_to_shape(SmemLayoutAtom, TileShape) as CUTLASS's collective does: a tile its atom does
    not divide, which CuTe refuses to build, is listed as unreadable for each operand (it was an internal error)."""
    text = CONFIGURATION.read_text()
    written = "using TileShape = Shape<_128, _128, _32>;"
    assert written in text
    r = import_kernel(text.replace(written, "using TileShape = Shape<_1, _128, _32>;", 1), str(CONFIGURATION))
    refused = [u for u in r.unreadable if "its shared-memory layout is one CuTe refuses to build" in u.why]
    assert refused and all("tile_to_shape: block shape does not divide the target shape" in u.why for u in refused)
    assert {u.what.split(" of ")[0] for u in refused} == {"operand A"}      # B's tile (N = 128) is still built
