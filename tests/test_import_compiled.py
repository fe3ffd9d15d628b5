"""import-kernel --compile: C++ kernels read through GCC with CuTe's headers.

Offline (no compiler): the instrumenter, the reader of GCC's type spellings, and the operand paths of our own SM80
tile kernel (tests/data/cpp/tile_sm80.cu) from the types GCC gave its declarations (tests/data/cpp/*.notes, made by
`regenerate_notes` below).  With g++ and the nvidia-cutlass wheel, compiled in the test: the kernel (as a template
the file never instantiates, read through --instantiate), a mistake CuTe's own static_assert refuses, and CUTLASS's
Hopper TMA + wgmma tutorial as the wheel ships it."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.dsl.kernel_checks import OperandRecord
from verifier.importer.compile_notes import NotedType
from verifier.importer.cpp_types import TypeSyntaxError, layout_text, parse_type, tile_text
from verifier.importer.instrument import instrument
from verifier.importer.kernel_paths import read_paths
from verifier.outcome import ExitCode

DATA = Path(__file__).parent / "data" / "cpp"
TILE = DATA / "tile_sm80.cu"
DESC = DATA / "desc_sm90.cu"
EXAMPLE_48 = "48_hopper_warp_specialized_gemm/48_hopper_warp_specialized_gemm.cu"
EXAMPLE_70 = "70_blackwell_gemm/70_blackwell_fp16_gemm.cu"      # an SM100 collective (tcgen05.mma, 2 SMs)
A_COPY_FOR_B = ("make_tiled_copy_A(s2r_atom_a, mma);", "make_tiled_copy_B(s2r_atom_a, mma);")
LAUNCH_AS_TEMPLATE = ("void launch_tile(", "template <class Unused> void launch_tile(")
A_LDMATRIX_T = ("Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_a;", "Copy_Atom<SM75_U16x8_LDSM_T, half_t> s2r_atom_a;")
SIMT = DATA / "tile_simt.cu"
TMA = DATA / "tma_sm90.cu"
# the knob of tma_sm90.cu: the shared layout the host makes A's TMA atom from (the MMA reads the K-major 128-byte
# swizzled 128x64 tile): a 64-byte swizzled one (its box rows land where the MMA does not read them), and the MMA's own
# swizzle on 64 rows (two boxes a tile, each where the tile's layout puts it: correct)
TMEM = DATA / "tmem_sm100.cu"
# the knob of tmem_sm100.cu: an M=64 tcgen05.mma over the 128-row tile (its accumulator repeated twice along M)
TMEM_M64 = ("SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 64,",
            "SM100_MMA_F16BF16_SS<half_t, half_t, float, 64, 64,")
EPI = DATA / "tma_epi_sm90.cu"
EPI_FUNCTIONS = ("epi_kernel", "launch_epi")     # the kernel and the host function that makes its TMA atoms
# the knob of tma_epi_sm90.cu: the shared layout the host makes D's TMA store from (the threads store D through the
# N-major 128-byte swizzled 64x64 tile): a 64-byte swizzled one (its boxes read bytes the threads did not store there)
EPI_D_ATOM_SW64 = ("using TmaLayoutD = SmemLayoutD;", "using TmaLayoutD = decltype(tile_to_shape("
                   "GMMA::Layout_K_SW64_Atom<half_t>{}, Shape<_64, _64>{}));")
# ... and D's shared tile M-major, its TMA atom made from it, while the global D stays N-major (the views agree; the
# tensor map's dimension 0 runs along M, strided in D)
EPI_D_M_MAJOR = ("using SmemLayoutD = SmemLayout;", "using SmemLayoutD = decltype(tile_to_shape("
                 "GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_64, _64>{}));")
TMA_A_ATOM = "using TmaLayoutA = SmemLayoutA;"
TMA_A_ATOM_SW64 = (TMA_A_ATOM, "using TmaLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>{}, "
                               "Shape<_128, _64>{}));")
TMA_A_ATOM_64_ROWS = (TMA_A_ATOM, "using TmaLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, "
                                  "Shape<_64, _64>{}));")
# ... and its MMA atom of N = 32 (the atom library writes N = 8, 16, 24, 64, 128, 256 of the family; its rule builds the
# rest): the tiled MMA repeats four times along B's 128 rows and C's 128 columns
TMA_MMA_N32 = ("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>",
               "SM90_64x32x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>")
# the SIMT kernel's A copy tiled for a TiledMMA whose 16x16 threads run N first (thread t holds row t / 16 of A, the
# MMA's thread t row t % 16): a wrong thread layout that compiles
SIMT_COPY_THREADS_TRANSPOSED = (
    "  Mma copy_mma_a; ",
    "  TiledMMA<MMA_Atom<UniversalFMA<float, float, float, float>>, Layout<Shape<_16, _16, _1>, Stride<_16, _1, _0>>> "
    "copy_mma_a; ")


def _notes(path: Path) -> list[NotedType]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        ln, col, function, type_text = line.split("\t")
        out.append(NotedType(function, int(ln), int(col), type_text))
    return out


def _prove(spec: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    capsys.readouterr()
    code = main(["prove", str(spec)])
    return code, capsys.readouterr().out


def _spec_from_notes(tmp_path: Path, source_text: str, notes: Path, source: Path = TILE) -> Path:
    from verifier.dsl.kernel_checks import KernelChecks
    from verifier.dsl.spec_text import resolve_atoms, spec_text
    from verifier.importer.compiled_import import CXX_READER
    from verifier.importer.kernel_spec import ATOM_LIBRARY, load_atom_library
    from verifier.importer.collective_paths import collective_paths
    ins, noted = instrument(source_text), _notes(notes)
    records, skipped = read_paths(str(source), ins, noted)
    found, listed = collective_paths(str(source), ins, noted)
    records, skipped = records + found, skipped + listed
    mma, copy = load_atom_library(ATOM_LIBRARY)
    kernels = [KernelChecks(source.stem, records, skipped)]
    resolve_atoms(kernels, mma, copy)           # as import-kernel --compile looks them up
    spec = tmp_path / f"{source.stem}.yaml"
    spec.write_text(spec_text(source.stem, [str(source)], kernels, mma, copy, CXX_READER), encoding="utf-8")
    return spec


# --- the instrumenter -------------------------------------------------------------------------------------------

KERNEL = """\
#include <cute/tensor.hpp>
// Tensor not_me = make_tensor(x);
template <class SmemLayout, int N>
__global__ void k(float const* A, SmemLayout, int n) {
  Tensor sA = make_tensor(make_smem_ptr(A), SmemLayout{});   // "Tensor inside = 1;"
  auto [a, b] = tma_partition(x, y);
  using Local = int;
  for (int i = 0; i < n; ++i) { Tensor t = sA(_, i); copy(t, t); }
  if (n) x = 1;
}
void host(float const* A) { k<Layout<_8>, 3><<<1, 32, 0>>>(A, Layout<_8>{}, 4); }
"""


def test_the_instrumenter_notes_declarations_parameters_and_type_parameters_only():
    ins = instrument(KERNEL)
    noted = {(n.function, n.name, n.how) for n in ins.notes}
    assert {("k", "SmemLayout", "template"), ("k", "A", "parameter"), ("k", "n", "parameter"),
            ("k", "sA", "declaration"), ("k", "a", "binding"), ("k", "b", "binding"), ("k", "Local", "alias"),
            ("k", "t", "declaration"), ("host", "A", "parameter")} <= noted
    names = {n.name for n in ins.notes}
    assert "not_me" not in names and "inside" not in names and "N" not in names     # comments, strings, non-types
    assert ins.text.count("\n") == KERNEL.count("\n")                                 # every line where it was
    assert "<<<" not in ins.text and "k<Layout<_8>, 3>" in ins.text                   # the launch is a call
    assert ins.launches == [11]
    assert any(s.text.startswith("copy(t, t)") and s.line == 8 for s in ins.statements)


def test_the_instrumenter_records_braced_loops_with_their_clauses_and_bodies():
    """`for` and `while` loops whose body is a block, after unrolling macros or a pragma, nested; a loop of one
    statement without braces, and a `for` inside another statement's head, are not loops it records."""
    source = """__global__ void k(int n) {
  int s = 0;
  CUTE_NO_UNROLL
  for (int kt = 0; kt < n; ++kt)
  {
    #pragma unroll
    for (int kb = 0; kb < 4; kb += 2) { s += kb; }
    while (s > 8) { s -= 8; }
  }
  for (int i = 0; i < n; ++i) s += i;
}
"""
    loops = instrument(source).loops
    assert [(lp.keyword, lp.line, lp.clauses) for lp in loops] == [
        ("for", 7, ("int kb = 0", "kb < 4", "kb += 2")), ("while", 8, ("s > 8",)),
        ("for", 4, ("int kt = 0", "kt < n", "++kt"))]
    outer = loops[2]
    assert outer.function == "k" and outer.body == ((5, 3), (9, 3))
    assert outer.holds(7, 5) and outer.holds(8, 5) and not outer.holds(10, 3) and not outer.holds(2, 3)


def test_a_call_under_braceless_control_heads_is_found_under_them():
    from verifier.importer.instrument import guarded
    assert guarded("if (c) copy(a, b)") == ("if", "copy(a, b)")
    assert guarded("for (int i = 0; i < n; ++i) if (x) gemm(a, b, c)") == ("for", "gemm(a, b, c)")
    assert guarded("else copy(a, b)") == ("else", "copy(a, b)")
    assert guarded("copy(a, b)") is None and guarded("else_copy(a, b)") is None and guarded("double d = 1") is None


# --- GCC's spelling of CuTe's types -----------------------------------------------------------------------------

def test_layouts_are_read_from_their_types():
    static = parse_type("cute::Layout<cute::tuple<cute::tuple<cute::C<8>, cute::C<16> >, cute::C<8> >, "
                        "cute::tuple<cute::tuple<cute::C<128>, cute::C<1> >, cute::C<16> > >")
    assert layout_text(static) == "((8,16),8):((128,1),16)"
    dynamic = parse_type("cute::Layout<cute::tuple<int, int>, cute::tuple<cute::C<1>, long int> >")
    assert layout_text(dynamic) == "(?,?):(1,?)"
    gmma = parse_type("cute::ComposedLayout<cute::Swizzle<3, 4, 3>, cute::smem_ptr_flag_bits<16>, cute::Layout<"
                      "cute::tuple<cute::C<8>, cute::C<64> >, cute::tuple<cute::C<64>, cute::C<1> > > >")
    assert layout_text(gmma) == "Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)"
    tiler = parse_type("cute::tuple<cute::C<32>, cute::Underscore, cute::Layout<cute::C<4>, cute::C<2> > >")
    assert tile_text(tiler) == '[32, "_", "4:2"]'
    with pytest.raises(TypeSyntaxError):
        layout_text(parse_type("cute::tuple<cute::C<1> >"))


# --- the operand paths, offline ---------------------------------------------------------------------------------

def test_the_tile_kernel_s_operand_paths_from_recorded_types_are_verified(tmp_path: Path,
                                                                          capsys: pytest.CaptureFixture[str]):
    records, skipped = read_paths(str(TILE), instrument(TILE.read_text(encoding="utf-8")),
                                  _notes(DATA / "tile_sm80.notes"))
    ops = {r.operand: r for r in records if isinstance(r, OperandRecord)}
    assert set(ops) == {"A", "B"} and len(records) == 2
    a = ops["A"]
    assert (a.mma, a.copy, a.value_type, a.permutation) == ("SM80_16x8x16_F16F16F16F16_TN", "SM75_U32x4_LDSM_N",
                                                            "half_t", "[32, 32, 16]")
    assert a.smem == "Sw<2,3,3> o _0 o (64,32):(32,1)" and a.tiled_copy is not None
    assert (a.where.line, a.where.column) == (47, 5)
    # what is not checked is listed with its line: the cp.async copies, the copy without an atom, and the gemm's
    # operands' fills (the kernel's one tile is no local_tile of a block)
    reasons = {s.where.line: s.why for s in skipped}
    assert set(reasons) == {26, 27, 49, 51} and "global -> shared" in reasons[26]
    assert "gC is not a global tile made with local_tile" in reasons[49]
    code, out = _prove(_spec_from_notes(tmp_path, TILE.read_text(encoding="utf-8"), DATA / "tile_sm80.notes"),
                       capsys)
    assert code == ExitCode.OK and "2 verified" in out


def test_a_copy_tiled_for_the_other_operand_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    text = TILE.read_text(encoding="utf-8").replace(*A_COPY_FOR_B)
    spec = _spec_from_notes(tmp_path, text, DATA / "tile_sm80_a_copy_for_B.notes")
    code, out = _prove(spec, capsys)
    assert code != ExitCode.OK
    assert "REFUTED (copy.dst_matches_mma" in out and "1 verified" in out


def test_a_copy_of_the_other_operands_tile_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """A's ldmatrix partitions sB (of A's layout: the types GCC gives are the same): the tiled check states the memory
    each tile views (`tiles:`, the pointer its root tensor is made over) -- A's copy reads smem_b, A's fragment was
    partitioned from smem_a -- and theorem 7 refutes it; the kernel as written states them equal."""
    text = TILE.read_text(encoding="utf-8")
    assert '    tiles: {copied_from: "make_smem_ptr(smem_a)", fragment_of: "make_smem_ptr(smem_a)"}' in \
        _spec_from_notes(tmp_path, text, DATA / "tile_sm80.notes").read_text(encoding="utf-8")
    mutated = text.replace("Tensor tXsA = s2r_thr_a.partition_S(sA);", "Tensor tXsA = s2r_thr_a.partition_S(sB);")
    spec = _spec_from_notes(tmp_path, mutated, DATA / "tile_sm80.notes")
    code, out = _prove(spec, capsys)
    assert code == ExitCode.WRONG and "REFUTED (fragment.aliasing)" in out and "1 verified" in out, out
    assert "the copy reads make_smem_ptr(smem_b), expected make_smem_ptr(smem_a), the tile the A fragment was " \
        "partitioned from" in out


def test_the_tiles_key_is_proved_on_both_sides_and_refused_when_malformed(tmp_path: Path):
    from spec_report import assert_refuted_by, documented_report
    from verifier.specfile import SpecError, load_spec
    spec = Path(__file__).parent / "specs" / "tiled_tiles.yaml"
    report = documented_report(spec)
    assert report["copy_of_the_fragments_tile"]["verdict"] == "verified"
    assert_refuted_by(report["copy_of_the_other_tile"], "the copy reads the shared tile the fragment was partitioned "
                      "from", "the copy reads make_smem_ptr(smem_b)")
    bad = tmp_path / "bad.yaml"
    text = spec.read_text(encoding="utf-8").replace("../../specs", str(Path(__file__).parent.parent / "specs"))
    bad.write_text(text.replace('fragment_of: "make_smem_ptr(smem_a)"}', 'fragment_of: 3}', 1), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(bad, allow_outside=True)
    assert "'tiles' of" in str(e.value) and str(e.value).startswith(str(bad) + ":"), str(e.value)


def test_a_simt_kernel_on_universal_fma_is_verified_from_recorded_types(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]):
    """tile_simt.cu: TiledMMA<MMA_Atom<UniversalFMA<float,float,float,float>>, 16x16x1> with Copy_Atom<DefaultCopy,
    float> (GCC spells it AutoVectorizingCopyWithAssumedAlignment<8>) retiled into its fragments: both operand paths
    are tiled checks on the library's UniversalFMA atom, and both are proved."""
    text = SIMT.read_text(encoding="utf-8")
    records, skipped = read_paths(str(SIMT), instrument(text), _notes(DATA / "tile_simt.notes"))
    ops = {r.operand: r for r in records if isinstance(r, OperandRecord)}
    assert set(ops) == {"A", "B"} and len(records) == 2
    a = ops["A"]
    assert (a.mma, a.copy, a.value_type, a.atom_layout, a.permutation) == (
        "UniversalFMA<float,float,float,float>", "DefaultCopy", "float", "[16, 16, 1]", None)
    assert a.smem == "(64,8):(1,64)" and a.tiled_copy is not None
    # cooperative_copy twice, the gemm's operands' fills (one tile, no local_tile), C's copy without an atom
    assert {s.where.line for s in skipped} == {21, 22, 43, 45}
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tile_simt.notes", SIMT), capsys)
    assert code == ExitCode.OK and "2 verified" in out, out


def test_a_simt_copy_on_the_wrong_thread_layout_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The SIMT kernel's A copy made for a TiledMMA whose threads are transposed: thread 1 loads A(0,0) where the
    UniversalFMA fragment expects A(1,0), refuted; B's path is still proved."""
    text = SIMT.read_text(encoding="utf-8").replace(*SIMT_COPY_THREADS_TRANSPOSED)
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tile_simt_a_copy_threads_transposed.notes", SIMT),
                       capsys)
    assert code != ExitCode.OK
    assert "REFUTED" in out and "1 verified" in out and "thread=1 " in out, out


# --- through the compiler ---------------------------------------------------------------------------------------

def test_descriptor_operands_the_threads_write_are_verified_from_recorded_types(tmp_path: Path,
                                                                               capsys: pytest.CaptureFixture[str]):
    """desc_sm90.cu fills both SS-wgmma tiles with cp.async, no TMA: each is a descriptor check of the shared layout
    (theorems 9, 12, 15), the two copies are listed as proved by it, nothing else is silent."""
    text = DESC.read_text(encoding="utf-8")
    records, skipped = read_paths(str(DESC), instrument(text), _notes(DATA / "desc_sm90.notes"))
    from verifier.dsl.kernel_checks import DescriptorRecord
    assert [(type(r), r.operand, r.copy, r.gmem) for r in records] == [
        (DescriptorRecord, op, "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", None) for op in "AB"]
    assert records[0].smem.startswith("Sw<3,4,3> o smem_ptr[16b](unset) o ")
    assert sorted((s.where.line, s.covered) for s in skipped) == [(28, True), (29, True), (45, False)]
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "desc_sm90.notes", DESC), capsys)
    assert code == ExitCode.OK and "2 verified" in out, out


def _tma_records(text: str, notes: str) -> list:
    records, skipped = read_paths(str(TMA), instrument(text), _notes(DATA / notes))
    assert not [s for s in skipped if "not read" in s.why], skipped
    return records


def test_a_tma_atom_s_own_box_and_swizzle_are_what_its_check_proves(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]):
    """tma_sm90.cu's TMA atoms, made from the layouts the MMA reads: each descriptor check states the atom's own box
    and swizzle, read off its type (AuxTmaParams), and is verified."""
    text = TMA.read_text(encoding="utf-8")
    records = _tma_records(text, "tma_sm90.notes")
    assert [(r.operand, r.tma_box, r.tma_swizzle, r.gmem) for r in records] == [
        (op, (64, 128), "128B", "(4096,4096):(4104,1)") for op in "AB"]
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tma_sm90.notes", TMA), capsys)
    assert code == ExitCode.OK and "2 verified" in out, out


def test_a_tile_copied_with_the_other_operand_s_atom_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Each descriptor check names the atom its tile's TMA copies take (whose map TMA reads through) and the atom whose
    get_tma_tensor made the coordinates its partition takes (`tma_tensors`): one atom in tma_sm90.cu, verified.  A's
    tile copied with tma_b at mA's coordinates (both atoms of one type here: every other theorem holds) copies B's
    tensor into sA: refuted at theorem 14, whichever atom the partition was made with."""
    text = TMA.read_text(encoding="utf-8")
    records = _tma_records(text, "tma_sm90.notes")
    assert [(r.operand, r.tensors.map_of, r.tensors.tiles_of) for r in records if r.tensors is not None] == [
        ("A", "tma_a (line 14)", "tma_a (line 14)"), ("B", "tma_b (line 14)", "tma_b (line 14)")]
    partition_b = text.replace("tma_partition(tma_a,", "tma_partition(tma_b,")
    copy_b = text.replace("copy(tma_a.with(full), tAgA", "copy(tma_b.with(full), tAgA")
    both = partition_b.replace("copy(tma_a.with(full), tAgA", "copy(tma_b.with(full), tAgA")
    assert partition_b.count("tma_b") == copy_b.count("tma_b") == text.count("tma_b") + 1
    for mutated in (copy_b, both):        # TMA reads through the copy's atom's map: B's, at mA's coordinates
        code, out = _prove(_spec_from_notes(tmp_path, mutated, DATA / "tma_sm90.notes", TMA), capsys)
        assert code == ExitCode.WRONG, out
        assert "tma_kernel_desc_a" in out and "REFUTED (tma.placement)" in out, out
        assert "its tensor map is made from tma_b (line 14), the tiles its partition takes are tma_a (line 14)'s" in out
        assert "tma_kernel_desc_b                  verified" in out, out
    # the partition alone made with tma_b (boxes of one shape), its copy by tma_a: A's map at A's coordinates
    code, out = _prove(_spec_from_notes(tmp_path, partition_b, DATA / "tma_sm90.notes", TMA), capsys)
    assert code == ExitCode.OK and "2 verified" in out, out


def test_a_tma_atom_made_from_another_swizzle_than_the_mma_reads_is_refuted(tmp_path: Path,
                                                                             capsys: pytest.CaptureFixture[str]):
    """A's TMA atom made from the 64-byte swizzled layout while the MMA reads the 128-byte swizzled tile: its boxes of
    32 columns land where the descriptor does not read them (theorem 14), the atom's swizzle the suspect."""
    text = TMA.read_text(encoding="utf-8").replace(*TMA_A_ATOM_SW64)
    records = _tma_records(text, "tma_sm90_a_atom_sw64.notes")
    assert [(r.operand, r.tma_box, r.tma_swizzle) for r in records] == [("A", (32, 128), "64B"),
                                                                        ("B", (64, 128), "128B")]
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tma_sm90_a_atom_sw64.notes", TMA), capsys)
    assert code == ExitCode.WRONG, out
    assert "tma_kernel_desc_a" in out and "REFUTED" in out and "tma.placement" in out, out
    assert "suspect: the TMA swizzle 64B given by 'tma_swizzle'" in out, out
    assert "tma_kernel_desc_b                  verified" in out, out


def test_a_tma_atom_of_another_box_that_tiles_the_layout_is_verified(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]):
    """A's TMA atom made from the MMA's swizzle on 64 rows: a 64x64 box, two a tile, each where the tile's layout
    puts it -- a different atom that loads the same bytes, verified (the check proves the copy, not the type)."""
    text = TMA.read_text(encoding="utf-8").replace(*TMA_A_ATOM_64_ROWS)
    records = _tma_records(text, "tma_sm90_a_atom_64_rows.notes")
    assert [(r.operand, r.tma_box) for r in records] == [("A", (64, 64)), ("B", (64, 128))]
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tma_sm90_a_atom_64_rows.notes", TMA), capsys)
    assert code == ExitCode.OK and "2 verified" in out, out


def test_an_mma_atom_of_a_size_the_library_does_not_write_is_built_by_its_family(tmp_path: Path,
                                                                                   capsys: pytest.CaptureFixture[str]):
    """tma_sm90.cu with an m64n32k16 wgmma (SM90_64x32x16_F32F16F16_SS, which the atom library does not write): the
    atom is built by its family's rule and both descriptor checks are verified; with A's TMA atom made from the 64-byte
    swizzle as well, A's is refuted (theorem 14), B's verified."""
    text = TMA.read_text(encoding="utf-8").replace(*TMA_MMA_N32)
    spec = _spec_from_notes(tmp_path, text, DATA / "tma_sm90_mma_n32.notes", TMA)
    assert "source: \"built by its family's rule" in spec.read_text(encoding="utf-8")
    code, out = _prove(spec, capsys)
    assert code == ExitCode.OK and "2 verified" in out, out
    text = text.replace(*TMA_A_ATOM_SW64)
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tma_sm90_mma_n32_a_atom_sw64.notes", TMA), capsys)
    assert code == ExitCode.WRONG and "tma_kernel_desc_a" in out and "tma.placement" in out, out
    assert "tma_kernel_desc_b                  verified" in out, out


def test_an_epilogue_s_tma_tiles_are_buffer_checks_of_the_atoms_own_boxes(tmp_path: Path,
                                                                            capsys: pytest.CaptureFixture[str]):
    """tma_epi_sm90.cu: C loaded by TMA and read by the threads, D stored by the threads and by TMA: each tile a buffer
    check (theorem 23) of the atom's boxes under its swizzle against the layout the threads copy through; the four
    copies listed as proved by them; verified."""
    text = EPI.read_text(encoding="utf-8")
    records, skipped = read_paths(str(EPI), instrument(text), _notes(DATA / "tma_epi_sm90.notes"))
    from verifier.dsl.kernel_checks import BufferRecord
    assert [(type(r), r.copy, r.writer.by.split(" ")[0], r.reader.by.split(" ")[0]) for r in records] == [
        (BufferRecord, "SM90_TMA_LOAD", "tma_c", "UniversalCopy<uint128_t>"),
        (BufferRecord, "AutoVectorizingCopy", "AutoVectorizingCopy", "tma_d")]
    tma_view = "Sw<3,4,3> o smem_ptr[16b](unset) o ((64,1),(64,1)):((64,4096),(1,0))"
    assert records[0].writer.layout == records[1].reader.layout == tma_view
    # each TMA side with the global tensor its atom copies (its N-major type, from launch_epi) and its dimension 0's
    # mode: N, which the check proves contiguous
    assert (records[0].writer.gmem, records[0].writer.tma_dim0) == ("(4096,4096):(4104,1)", 1)
    assert (records[1].reader.gmem, records[1].reader.tma_dim0) == ("(4096,4096):(4104,1)", 1)
    # the TMA copies proved; the threads' copies listed: which elements each thread moves is not checked
    assert sorted((s.where.line, s.covered) for s in skipped) == [(27, True), (35, False), (36, False), (40, True)]
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tma_epi_sm90.notes", EPI), capsys)
    assert code == ExitCode.OK and "2 verified" in out, out


def test_an_epilogue_tma_store_made_from_another_swizzle_is_refuted(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]):
    """D's TMA store made from the 64-byte swizzled layout: its 32-column boxes read bytes the threads stored other
    elements in (theorem 23, the store's view the suspect); C's load is still verified."""
    text = EPI.read_text(encoding="utf-8").replace(*EPI_D_ATOM_SW64)
    records, _ = read_paths(str(EPI), instrument(text), _notes(DATA / "tma_epi_sm90_d_atom_sw64.notes"))
    assert records[1].reader.layout.startswith("Sw<2,4,3> o smem_ptr[16b](unset) o ((64,1),(32,2))")
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tma_epi_sm90_d_atom_sw64.notes", EPI), capsys)
    assert code == ExitCode.WRONG, out
    assert "epi_kernel_buffer_sD" in out and "REFUTED (buffer.agreement)" in out, out
    assert "suspect: the reader's view (tma_d (TMA store, its own box and swizzle))" in out, out
    assert "epi_kernel_buffer_sC               verified" in out, out


def test_an_epilogue_tma_store_along_a_strided_global_mode_is_refuted(tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]):
    """D's tile M-major and its TMA atom made from it, the global D N-major (its type's static unit stride, read where
    launch_epi makes the atom): the views agree, but the atom's dimension 0 runs along M, strided in D (theorem 23's
    fact; CuTe asserts it only at run time, in a debug build)."""
    text = EPI.read_text(encoding="utf-8").replace(*EPI_D_M_MAJOR)
    records, _ = read_paths(str(EPI), instrument(text), _notes(DATA / "tma_epi_sm90_d_m_major.notes"))
    assert (records[1].reader.gmem, records[1].reader.tma_dim0) == ("(4096,4096):(4104,1)", 0)
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tma_epi_sm90_d_m_major.notes", EPI), capsys)
    assert code == ExitCode.WRONG, out
    assert "the reader's TMA atom runs its dimension 0 along the global tensor's contiguous mode" in out, out
    assert "epi_kernel_buffer_sC               verified" in out, out


def test_a_tmem_copy_is_a_tmem_check_of_the_tile_it_was_made_for(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]):
    """tmem_sm100.cu: make_tmem_copy over the tcgen05.mma accumulator, a TMEM check of the tiled copy's atom over the
    tile (128x64 floats, lanes then columns), verified; its copy listed as proved by it."""
    text = TMEM.read_text(encoding="utf-8")
    records, skipped = read_paths(str(TMEM), instrument(text), _notes(DATA / "tmem_sm100.notes"))
    from verifier.dsl.kernel_checks import TmemRecord
    assert [(type(r), r.copy, r.value_type, r.tmem) for r in records] == [
        (TmemRecord, "SM100_TMEM_LOAD_32dp32b1x", "float", "(128,64):(65536,1)")]
    assert [(s.where.line, s.covered) for s in skipped if "tensor-memory copy" in s.why] == [(24, True)]
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "tmem_sm100.notes", TMEM), capsys)
    assert code == ExitCode.OK and "1 verified" in out, out


def test_a_tmem_tile_the_reader_cannot_put_in_m_n_form_is_listed():
    """An M=64 MMA over the 128-row tile: its accumulator ((MMA_M, MMA_N), 2, 1) repeats along M, whose (M, N) form
    the reader does not build: listed, never checked as a wrong tile."""
    text = TMEM.read_text(encoding="utf-8").replace(*TMEM_M64)
    records, skipped = read_paths(str(TMEM), instrument(text), _notes(DATA / "tmem_sm100_m64.notes"))
    assert records == []
    assert any("an MMA partition with repeats" in s.why for s in skipped), skipped


@pytest.mark.parametrize("slice_text,tmem", [
    ("(_,_0{})", "(128,64):(65536,1)"),
    ("(_,0)", "(128,64):(65536,1)"),
    ("(_,_1{})", "at an index other than 0"),
    ("(_)", "a slice of 1 modes of a layout of 2"),
])
def test_a_tmem_tile_is_sliced_as_the_call_slices_it(slice_text: str, tmem: str):
    from verifier.importer.cpp_types import parse_type
    from verifier.importer.kernel_paths import tmem_tile_text
    tensor = parse_type("cute::Tensor<cute::ViewEngine<cute::tmem_ptr<float> >, cute::Layout<cute::tuple<cute::tuple<"
                        "cute::tuple<cute::C<128>, cute::C<64> > >, cute::C<4> >, cute::tuple<cute::tuple<cute::tuple<"
                        "cute::C<65536>, cute::C<1> > >, cute::C<64> > > >")
    if tmem.startswith("("):
        assert tmem_tile_text(tensor, slice_text) == tmem
    else:
        with pytest.raises(TypeSyntaxError, match=re.escape(tmem)):
            tmem_tile_text(tensor, slice_text)


@pytest.mark.parametrize("source,notes,edit,sources", [
    # B's TMA partitions sA: sA is filled by both atoms, sB by none (the types are the same: A's and B's tiles alike)
    (TMA, "tma_sm90.notes",
     ("group_modes<0,2>(sB), group_modes<0,2>(mB)", "group_modes<0,2>(sA), group_modes<0,2>(mB)"),
     "TMA tma_a (line 14), TMA tma_b (line 14)"),
    # B's cp.async copy partitions sA: sA is filled from gA and from gB, sB from nothing
    (DESC, "desc_sm90.notes", ("Tensor tBsB = g2s_thr.partition_D(sB);", "Tensor tBsB = g2s_thr.partition_D(sA);"),
     "gA (copied at line 28), gB (copied at line 29)"),
])
def test_a_tile_filled_from_two_sources_is_listed_never_verified(source: Path, notes: str, edit: tuple[str, str],
                                                                  sources: str):
    """A shared tile that two TMA atoms, or copies from two global tensors, fill holds whichever lands last: no check
    models the race, so the operand is listed (look here) and the tile nothing fills is listed too; neither is
    verified."""
    text = source.read_text(encoding="utf-8")
    assert text.count(edit[0]) == 1
    records, skipped = read_paths(str(source), instrument(text.replace(*edit)), _notes(DATA / notes))
    assert records == []
    why = {s.what.rsplit(", ", 1)[-1]: s.why for s in skipped if s.what.startswith("gemm")}
    assert why["operand A"] == (f"sA is filled from more than one source ({sources}): every element's bytes are "
                                "written by each, which one the MMA reads is a race no check models: not checked "
                                "(look here)"), why
    assert why["operand B"].startswith("sB is written by no TMA copy"), why


def test_a_multicast_tma_atom_s_slicing_is_an_assumption_the_report_states():
    """A multicast TMA atom's type holds the CTA tile's box; the slice each CTA loads (num_multicast, tma_partition's
    CTA layout and coordinate) is fixed at run time: the check proves the box and says what it assumes of the rest."""
    from verifier.importer.kernel_paths import ASSUME_MULTICAST
    notes = [NotedType(n.function, n.line, n.column,
                       n.type_text.replace("cute::SM90_TMA_LOAD,", "cute::SM90_TMA_LOAD_MULTICAST,"))
             for n in _notes(DATA / "tma_sm90.notes")]
    records, _ = read_paths(str(TMA), instrument(TMA.read_text(encoding="utf-8")), notes)
    assert [ASSUME_MULTICAST.format(tma=f"tma_{op}") in r.assumes for op, r in zip("ab", records)] == [True, True]
    plain, _ = read_paths(str(TMA), instrument(TMA.read_text(encoding="utf-8")), _notes(DATA / "tma_sm90.notes"))
    assert not any("multicast" in a for r in plain for a in r.assumes)


@pytest.mark.parametrize("box,swizzle,expect", [
    # a three-dimensional box: its swizzle stated, the boxes make_tma_copy takes of the layout proved, the rest assumed
    ("cute::Layout<cute::tuple<cute::C<64>, cute::C<64>, cute::C<2> >, cute::tuple<cute::ScaledBasis<cute::C<1>, 1>, "
     "cute::ScaledBasis<cute::C<1>, 0>, cute::ScaledBasis<cute::C<64>, 0> > >", "cute::Swizzle<3, 4, 3>",
     (None, "128B", "(64:1@1, 64:1@0, 2:64@0)")),
    # a swizzle no tensor map applies: the path is listed as not read
    ("cute::Layout<cute::tuple<cute::C<64>, cute::C<128> >, cute::tuple<cute::ScaledBasis<cute::C<1>, 1>, "
     "cute::ScaledBasis<cute::C<1>, 0> > >", "cute::Swizzle<3, 3, 3>", "Swizzle<3,3,3> is no swizzle of a tensor map"),
    # a box of extent 0 (a damaged spelling): listed as not read, never a division by zero
    ("cute::Layout<cute::tuple<cute::C<0>, cute::C<128> >, cute::tuple<cute::ScaledBasis<cute::C<1>, 1>, "
     "cute::ScaledBasis<cute::C<1>, 0> > >", "cute::Swizzle<3, 4, 3>", "an extent below 1"),
])
def test_a_tma_atom_the_check_cannot_state_is_assumed_or_listed(box: str, swizzle: str, expect: object):
    text = TMA.read_text(encoding="utf-8")
    original = ("cute::Layout<cute::tuple<cute::C<64>, cute::C<128> >, cute::tuple<cute::ScaledBasis<cute::C<1>, 1>, "
                "cute::ScaledBasis<cute::C<1>, 0> > >")
    notes = [NotedType(n.function, n.line, n.column,
                       n.type_text.replace(original, box).replace("cute::Swizzle<3, 4, 3>&", swizzle + "&"))
             for n in _notes(DATA / "tma_sm90.notes")]
    records, skipped = read_paths(str(TMA), instrument(text), notes)
    if isinstance(expect, str):
        assert records == [] and [s.why for s in skipped if expect in s.why], skipped
        return
    from verifier.importer.kernel_paths import ASSUME_TMA_BOX
    box_value, swizzle_name, box_text = expect    # type: ignore[misc]
    assert [(r.tma_box, r.tma_swizzle) for r in records] == [(box_value, swizzle_name)] * 2
    assert ASSUME_TMA_BOX.format(tma="tma_a", box=box_text) in records[0].assumes


def _wheel_examples() -> Path | None:
    import importlib.util
    spec = importlib.util.find_spec("cutlass_library")
    if spec is None or spec.origin is None:
        return None
    d = Path(spec.origin).parent / "source" / "examples"
    return d if (d / EXAMPLE_48).is_file() else None


def test_cutlass_s_example_48_is_read_through_its_collective(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """Example 48's kernel body is CUTLASS's (GemmUniversal over a CollectiveBuilder's mainloop): the collective's
    members GCC spelled for its namespace-scope aliases become one descriptor check a TMA-filled operand, verified;
    the GemmKernel and Gemm aliases holding the same collective are listed as proved by them."""
    examples = _wheel_examples()
    if examples is None:
        pytest.skip("the nvidia-cutlass wheel's examples are not installed")
    source = examples / EXAMPLE_48
    text = source.read_text(encoding="utf-8")
    from verifier.importer.collective_paths import collective_paths
    ins, noted = instrument(text), _notes(DATA / "example_48_scope.notes")
    assert read_paths(str(source), ins, noted) == ([], [])        # no function of the file copies or multiplies
    records, skipped = collective_paths(str(source), ins, noted)
    from verifier.dsl.kernel_checks import DescriptorRecord, SliceRecord
    descriptors = [r for r in records if isinstance(r, DescriptorRecord)]
    assert [(r.name, r.mma, r.operand, r.value_type) for r in descriptors] == [
        (f"CollectiveMainloop_desc_{op.lower()}", "SM90_64x128x8_F32TF32TF32_SS_TN", op, "float") for op in "AB"]
    assert all(r.gmem == "(4096,4096):(4100,1)" and "SM90_TMA_LOAD_MULTICAST" in r.what for r in descriptors)
    # its 2x4 cluster (ClusterShape 4x2x1: A's tile split among the 2 CTAs along N, B's among the 4 along M), each
    # slice multicast to all: a CTA-slice check an operand
    assert [(r.name, r.threads, r.block, r.unit.value) for r in records if isinstance(r, SliceRecord)] == [
        ("CollectiveMainloop_cta_slice_a", 2, 2, "cta"), ("CollectiveMainloop_cta_slice_b", 4, 4, "cta")]
    # the GemmKernel and Gemm aliases holding the same collective: each of its 4 checks proves their paths
    assert sorted((s.where.line, s.covered) for s in skipped) == [(136, True)] * 4 + [(142, True)] * 4
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "example_48_scope.notes", source), capsys)
    assert code == ExitCode.OK and "4 verified" in out, out


def test_cutlass_s_example_70_is_read_through_its_sm100_collective(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]):
    """Example 70's SM100 collective lays its stages out in tcgen05.mma's partition form, ((MMA_M, MMA_K), REST_M,
    REST_K, PIPE) (tile_to_mma_shape): the descriptor checks take a stage as (M, K) = ((MMA_M, REST_M), (MMA_K,
    REST_K)), with the atom's majors, and verify; read as a (MN, K, PIPE) tile, MMA_K would be taken for K's rows."""
    examples = _wheel_examples()
    if examples is None:
        pytest.skip("the nvidia-cutlass wheel's examples are not installed")
    source = examples / EXAMPLE_70
    text = source.read_text(encoding="utf-8")
    from verifier.importer.collective_paths import collective_paths
    from verifier.dsl.kernel_checks import DescriptorRecord
    records, _ = collective_paths(str(source), instrument(text), _notes(DATA / "example_70_scope.notes"))
    descriptors = [r for r in records if isinstance(r, DescriptorRecord)]
    # A's tile split among the 2 CTAs along the cluster's N (multicast); B's pairs along M: one
    assert [r.name for r in records] == ["CollectiveMainloop_cta_slice_a", "CollectiveMainloop_desc_a",
                                         "CollectiveMainloop_desc_b"]
    assert [(r.operand, r.mma, r.major) for r in descriptors] == [
        (op, "SM100_MMA_F16BF16_2x1SM_SS<half_t,half_t,float,256,128>", "K") for op in "AB"]
    a, b = descriptors
    assert a.smem == "Sw<3,4,3> o smem_ptr[16b](unset) o ((_128,_1),(_16,_4)):((_64,_0),(_1,_16))"
    assert b.smem == "Sw<3,4,3> o smem_ptr[16b](unset) o ((_64,_1),(_16,_4)):((_64,_0),(_1,_16))"
    code, out = _prove(_spec_from_notes(tmp_path, text, DATA / "example_70_scope.notes", source), capsys)
    assert code == ExitCode.OK and "3 verified" in out, out


@pytest.mark.parametrize("notes, old, new, says", [
    # B's tile split among the 4 CTAs along the cluster's M with a plain TMA load: each CTA loads its quarter into
    # its own shared memory alone, the other three quarters of its tile by no CTA (the kernel waits for them)
    ("example_48_scope.notes", "m_GmemTiledCopyB<cute::SM90_TMA_LOAD_MULTICAST>",
     "m_GmemTiledCopyB<cute::SM90_TMA_LOAD>", "no CTA takes slice 1"),
    # an SM100 2-CTA kernel's A split among the 2 CTAs along N with the plain 2SM load
    ("example_70_scope.notes", "m_GmemTiledCopyA<cute::SM100_TMA_2SM_LOAD_MULTICAST>",
     "m_GmemTiledCopyA<cute::SM100_TMA_2SM_LOAD>", "no CTA takes slice 1"),
    # the 2-CTA MMA in a cluster of one CTA along M: no pair
    ("example_70_scope.notes", "cute::tuple<cute::C<2>, cute::C<2>, cute::C<1>",
     "cute::tuple<cute::C<1>, cute::C<2>, cute::C<1>", "no CTA takes slice 1"),
])
def test_a_collective_s_tile_split_among_its_cluster_is_loaded_whole(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str],
                                                                     notes: str, old: str, new: str, says: str):
    """CUTLASS's collectives split A's TMA tile among the cluster's CTAs along N and B's along M (an SM100 2-CTA
    MMA's B among its pairs) whatever the copy: a plain load then fills only its own CTA's slice (survey 6's C++
    a10, b04: verified, though the kernel hangs or reads rows of the next tile), and a 2-CTA MMA needs a pair along
    M (b07).  Mutated notes of examples 48 and 70: refuted at the CTA-slice check; their own notes verify (above)."""
    examples = _wheel_examples()
    if examples is None:
        pytest.skip("the nvidia-cutlass wheel's examples are not installed")
    source = examples / (EXAMPLE_48 if "48" in notes else EXAMPLE_70)
    mutated = tmp_path / notes
    text = (DATA / notes).read_text(encoding="utf-8")
    assert old in text
    mutated.write_text(text.replace(old, new), encoding="utf-8")
    code, out = _prove(_spec_from_notes(tmp_path, source.read_text(encoding="utf-8"), mutated, source), capsys)
    assert code == ExitCode.WRONG and "REFUTED (copy.thread_slice)" in out and says in out, out


def test_a_collective_declared_inside_a_class_template_is_listed_with_what_to_do():
    """Example 49 builds its mainloops as member aliases of a class template (ExampleRunner<...>), whose members the
    instrumented compile never notes: each is listed with what to give, never dropped in silence; example 48's,
    at namespace scope, are read and not listed."""
    examples = _wheel_examples()
    if examples is None:
        pytest.skip("the nvidia-cutlass wheel's examples are not installed")
    from verifier.importer.collective_paths import EPILOGUE_NOT_READ, NOT_AT_SCOPE, unread_collectives
    e49 = examples / "49_hopper_gemm_with_collective_builder" / "49_collective_builder.cu"
    text = e49.read_text(encoding="utf-8")
    listed = unread_collectives(str(e49), text, instrument(text))
    assert [(s.what, s.why) for s in listed] == [("collective CollectiveMainloop", NOT_AT_SCOPE),
                                                 ("collective epilogue CollectiveEpilogue", EPILOGUE_NOT_READ)]
    assert text.splitlines()[listed[0].where.line - 1].lstrip().startswith("using CollectiveMainloop")
    e48 = examples / EXAMPLE_48
    text = e48.read_text(encoding="utf-8")
    # example 48's mainloop is read; its epilogue, as every epilogue collective, is listed (survey 5's P03: example
    # 50's epilogue made non-injective was verified with nothing said)
    assert [s.what for s in unread_collectives(str(e48), text, instrument(text))] == [
        "collective epilogue CollectiveEpilogue"]


def test_a_collective_s_other_shared_buffers_are_listed_as_not_read():
    """A blockwise-scaled (or block-scaled, mixed-input, sparse) mainloop keeps shared buffers besides A's and B's
    tiles, which the collective reader does not read: each such collective lists them; a plain one lists nothing."""
    from types import SimpleNamespace
    from verifier.importer.collective_paths import _collective
    from verifier.importer.cpp_types import parse_type
    mma = parse_type("cute::TiledMMA<cute::MMA_Atom<cute::SM90::GMMA::MMA_64x128x32_F32E4M3E4M3_SS_TN<"
                     "cute::SM90::GMMA::ScaleIn::One, cute::SM90::GMMA::ScaleIn::One>>, cute::Layout<cute::tuple<"
                     "cute::C<1>, cute::C<1>, cute::C<1>>, cute::tuple<cute::C<0>, cute::C<0>, cute::C<0>>>, "
                     "cute::tuple<cute::Underscore, cute::Underscore, cute::Underscore>>")

    def listed(policy: str) -> list[str]:
        reader = SimpleNamespace(skipped=[], records=[])
        _collective("k.cu", "Mainloop", 7, 1, {"TiledMma": mma, "DispatchPolicy": parse_type(
            f"cutlass::gemm::{policy}<4, cute::tuple<cute::C<1>, cute::C<1>, cute::C<1>>>")}, reader)  # type: ignore[arg-type]
        return [s.what for s in reader.skipped if "operand" not in s.what]
    assert listed("MainloopSm90TmaGmmaWarpSpecializedBlockwiseFP8") == ["collective Mainloop, its blockwise scale "
                                                                        "buffers"]
    assert listed("MainloopSm100TmaUmmaWarpSpecializedBlockScaledSparse") == [
        "collective Mainloop, its scale-factor buffers", "collective Mainloop, its sparse metadata buffer (E)"]
    assert listed("MainloopSm90TmaGmmaWarpSpecialized") == []


def test_where_an_atom_takes_a_from_says_why_a_is_not_checked():
    """A collective's A is checked where the atom reads it through a shared-memory descriptor (SS, SS_TN, and the
    emulated-f32 SS_SCALED); otherwise the reason names where it comes from: registers, tensor memory, or a compressed
    sparse A."""
    from verifier.importer.kernel_paths import a_source
    for ss in ("SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>", "SM90_64x128x8_F32TF32TF32_SS_TN",
               "SM100_MMA_F16BF16_2x1SM_SS_SCALED<bfloat16_t,bfloat16_t,float,256,128>"):
        assert a_source(ss) is None, ss
    assert "registers" in str(a_source("SM90_64x16x16_F32BF16BF16_RS<GMMA::Major::K,GMMA::Major::K>"))
    assert "tensor memory" in str(a_source("SM100_MMA_F16BF16_2x1SM_TS<bfloat16_t,bfloat16_t,float,256,128>"))
    assert "compressed sparse A" in str(a_source("SM100_MMA_F16BF16_2x1SM_SS_SPARSE<half_t,half_t,float,256,128>"))


def test_a_mainloop_that_converts_its_tiles_is_not_checked_against_the_tma_filled_ones():
    """The emulated-f32 mainloop (FastF32) has TMA fill float tiles its transform warps convert into the bf16
    buffers the MMA reads: neither operand is checked as if the MMA read what TMA filled (theorem 12 would refute a
    float tile under a bf16 atom), each listed with the reason."""
    from types import SimpleNamespace
    from verifier.importer.collective_paths import _collective
    from verifier.importer.cpp_types import parse_type
    mma = parse_type("cute::TiledMMA<cute::MMA_Atom<cute::SM100_MMA_F16BF16_2x1SM_SS_SCALED<cutlass::bfloat16_t, "
                     "cutlass::bfloat16_t, float, 256, 128, cute::UMMA::Major::K, cute::UMMA::Major::K>>, "
                     "cute::Layout<cute::tuple<cute::C<1>, cute::C<1>, cute::C<1>>, cute::tuple<cute::C<0>, "
                     "cute::C<0>, cute::C<0>>>, cute::tuple<cute::Underscore, cute::Underscore, cute::Underscore>>")
    reader = SimpleNamespace(skipped=[], records=[])
    policy = parse_type("cutlass::gemm::MainloopSm100TmaUmmaWarpSpecializedFastF32<3, 1, 2, 0, 1>")
    _collective("k.cu", "Mainloop", 7, 1, {"TiledMma": mma, "DispatchPolicy": policy}, reader)  # type: ignore[arg-type]
    assert reader.records == []
    assert [s.what for s in reader.skipped] == ["collective Mainloop, operand A", "collective Mainloop, operand B"]
    assert all("transform warps convert the TMA-filled float tiles" in s.why for s in reader.skipped)


def test_a_collective_mma_alias_inside_a_function_is_listed():
    """`using CollectiveMainloop = cutlass::gemm::collective::CollectiveMma<...>` inside main() (example 50's form):
    listed with what to do, like a builder's alias inside a class template."""
    from verifier.importer.collective_paths import unread_collectives
    text = ("int main() {\n  using CollectiveMainloop = cutlass::gemm::collective::CollectiveMma<\n"
            "    Policy, Tile, half_t, StrideA>;\n  return 0;\n}\n")
    listed = unread_collectives("k.cu", text, instrument(text))
    assert [(s.where.line, s.what) for s in listed] == [(2, "collective CollectiveMainloop")]
    text = ("int main() {\n  using Epilogue = cutlass::epilogue::collective::detail::Sm90TmaWarpSpecializedAdapter<\n"
            "    Inner>;\n  return 0;\n}\n")
    assert [(s.where.line, s.what) for s in unread_collectives("k.cu", text, instrument(text))] == [
        (2, "collective epilogue Epilogue")]


def test_atomless_copies_are_listed_never_dropped():
    """The Blackwell epilogue tutorial moves C and D between shared memory and registers with copy_aligned (CuTe's
    vectorizing copy, no atom and no tiled copy): each call is listed with its line, never passed over."""
    source = WHEEL / "examples" / "cute" / "tutorial" / "blackwell" / "05_mma_tma_epi_sm100.cu" if WHEEL else None
    if source is None or not source.is_file():
        pytest.skip("the nvidia-cutlass wheel's tutorials are not installed")
    _, skipped = read_paths(str(source), instrument(source.read_text(encoding="utf-8")),
                            _notes(DATA / "tma_epi_sm100.notes"))
    listed = [(s.where.line, s.why) for s in skipped if s.what.startswith("copy_aligned")]
    assert [line for line, _ in listed] == [434, 444]
    assert all("a copy without a tiled copy" in why for _, why in listed)


def test_sm100_atoms_are_named_as_the_atom_library_names_them():
    """A block-scaled atom's arguments are <A, B, C, SF, M, N[, VS], majors...>: its name keeps the scale-factor
    type and every integer, its majors come after them."""
    from verifier.importer.cpp_types import parse_type
    from verifier.importer.kernel_paths import mma_atom_name
    k, mn = "cute::UMMA::Major::K", "cute::UMMA::Major::MN"
    assert mma_atom_name(parse_type(
        f"cute::SM100_MMA_MXF4_2x1SM_SS<cutlass::float_e2m1_t, cutlass::float_e2m1_t, float, cutlass::float_ue4m3_t, "
        f"256, 256, 16, {k}, {k}>")) == (
        "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,256,256,16>", "", ("K", "K"))
    assert mma_atom_name(parse_type(
        f"cute::SM100_MMA_F16BF16_SS<cutlass::half_t, cutlass::half_t, float, 128, 256, {k}, {mn}, "
        "cute::UMMA::ScaleIn::One, cute::UMMA::ScaleIn::One>")) == (
        "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256>", "", ("K", "MN"))
    assert mma_atom_name(parse_type(
        f"cute::SM100_MMA_MXF8F6F4_SS<cutlass::float_e4m3_t, cutlass::detail::float_e2m1_unpacksmem_t, float, "
        f"cutlass::float_ue8m0_t, 128, 256, {k}, {k}>"))[0] == (
        "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e2m1_unpacksmem_t,float,float_ue8m0_t,128,256>")


def test_a_header_error_is_placed_at_the_kernel_s_line():
    """An error inside CuTe's headers (no static_assert: no overload for the layout) names the source line that
    asked for it, and where in the header it failed."""
    from verifier.importer.compile_notes import _first_error
    host, original = Path("/tmp/x/k.cu"), Path("kernels/k.cu")
    stderr = "\n".join([
        "/h/cute/atom/mma_traits_sm90_gmma.hpp: In instantiation of 'auto make_gmma_desc(...)':",
        "/h/cute/atom/mma_atom.hpp:92:40:   required from 'auto make_fragment_A(...)'",
        f"{host}:36:40:   required from 'void desc_kernel(...)'",
        f"{host}:56:52:   required from here",
        "/h/cute/atom/mma_traits_sm90_gmma.hpp:211:49: error: no matching function for call to 'layout_type(T)'"])
    e = _first_error(stderr, host, original)
    assert not e.refused_by_cute
    assert str(e).startswith("kernels/k.cu:36:40: the host compile fails in a header "
                             "(/h/cute/atom/mma_traits_sm90_gmma.hpp:211:49): no matching function")


def test_a_compiler_crash_is_named_as_one_not_hidden_behind_its_last_line():
    """GCC's internal compiler error inside a header is reported as the compiler's crash, at the source line that
    asked for it; without it the first error is none and the report would quote GCC's closing line at line 1."""
    from verifier.importer.compile_notes import _first_error
    host, original = Path("/tmp/x/k.cu"), Path("kernels/k.cu")
    stderr = "\n".join([
        "/h/cutlass/epilogue/collective/sm100_epilogue_nosmem.hpp: In instantiation of 'struct X<int>':",
        f"{host}:509:5:   required from here",
        "/h/cutlass/epilogue/collective/sm100_epilogue_nosmem.hpp:726:43: internal compiler error: in "
        "lookup_template_class_1, at cp/pt.cc:10126",
        "Please submit a full bug report, with preprocessed source (by using -freport-bug).",
        "See <file:///usr/share/doc/gcc-12/README.Bugs> for instructions."])
    e = _first_error(stderr, host, original)
    assert not e.refused_by_cute
    assert str(e).startswith("kernels/k.cu:509:5: the host compile fails in a header "
                             "(/h/cutlass/epilogue/collective/sm100_epilogue_nosmem.hpp:726:43): the compiler crashed "
                             "(GCC's internal compiler error: in lookup_template_class_1")


def test_a_path_whose_proving_check_is_dropped_says_it_is_not_checked():
    """A path listed as proved by another check, whose atom the library lacks: the other check is dropped, so the
    path says it is not checked either, and no longer counts as covered."""
    from verifier.dsl.flow import Skipped
    from verifier.dsl.kernel_checks import DescriptorRecord, KernelChecks
    from verifier.dsl.mlir_text import Where
    from verifier.dsl.spec_text import drop_unknown_atoms
    where = Where("k.cu", 10, 1, None)
    unknown = DescriptorRecord("m_desc_a", where, "a", "SM100_MMA_NOT_AN_ATOM<half_t,half_t,float,64,64>", '"1"', "A",
                               "half_t", "(64,16):(16,1)", "(64,64):(64,1)", 128)
    same = Skipped(Where("k.cu", 20, 1, None), "GemmKernel operand A",
                   "the same operand path as check m_desc_a, which proves it", covered_by="m_desc_a")
    kernels = [KernelChecks("k", [unknown], [same])]
    drop_unknown_atoms(kernels, {}, {})
    (k,) = kernels
    assert k.records == [] and [s.covered for s in k.skipped] == [False, False]
    (rewritten,) = [s for s in k.skipped if s.what == "GemmKernel operand A"]
    assert rewritten.why == ("the same operand path as check m_desc_a, which is not checked either (the atom library "
                             "lacks its atom)")


def _wheel() -> Path | None:
    import importlib.util
    spec = importlib.util.find_spec("cutlass_library")
    if spec is None or spec.origin is None or shutil.which("g++") is None:
        return None
    root = Path(spec.origin).parent / "source"
    return root if (root / "include" / "cute" / "tensor.hpp").is_file() else None


WHEEL = _wheel()
needs_compiler = pytest.mark.skipif(WHEEL is None, reason="needs g++ and the nvidia-cutlass wheel's headers")


@pytest.fixture(scope="module")
def compiled() -> dict[str, tuple[int, str, str]]:
    """Each source imported with --compile, the compiles side by side: name -> (exit, spec text, stderr)."""
    assert WHEEL is not None
    tmp = Path(tempfile.mkdtemp(prefix="test_import_compiled_"))
    text = TILE.read_text(encoding="utf-8")
    # the tile kernel is compiled as a template the file never instantiates (read through --instantiate); its
    # mistake that compiles is proved from recorded types above, the one CuTe refuses is compiled here
    sources = {"template_only": text.replace(*LAUNCH_AS_TEMPLATE), "a_ldmatrix_T": text.replace(*A_LDMATRIX_T)}
    paths = {}
    for name, t in sources.items():
        (tmp / name).mkdir()
        paths[name] = tmp / name / "tile_sm80.cu"
        paths[name].write_text(t, encoding="utf-8")
    hopper = WHEEL / "examples" / "cute" / "tutorial" / "hopper" / "wgmma_tma_sm90.cu"
    if hopper.is_file():
        paths["wgmma_tma_sm90"] = hopper

    def run(name: str) -> tuple[str, tuple[int, str, str]]:     # two processes side by side
        spec = tmp / f"{name}.yaml"
        extra = ["--instantiate", "&launch_tile<int>"] if name == "template_only" else []
        done = subprocess.run([sys.executable, "-m", "verifier", "import-kernel", "--compile", "--no-cache",
                               str(paths[name]), "-o", str(spec), *extra], capture_output=True, text=True)
        return name, (done.returncode, spec.read_text(encoding="utf-8") if spec.exists() else "", done.stderr)
    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(pool.map(run, paths))


@needs_compiler
def test_the_compiled_tile_kernel_is_verified(compiled: dict[str, tuple[int, str, str]], tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]):
    code, spec_text, err = compiled["template_only"]
    assert code == ExitCode.OK, err
    assert "compiled with CuTe's headers from" in err and "2 checks" in err
    spec = tmp_path / "tile.yaml"
    spec.write_text(spec_text, encoding="utf-8")
    code, out = _prove(spec, capsys)
    assert code == ExitCode.OK and "2 verified" in out


@needs_compiler
def test_cute_s_own_static_assert_is_a_refusal_at_the_kernel_s_line(compiled: dict[str, tuple[int, str, str]]):
    code, _, err = compiled["a_ldmatrix_T"]
    assert code == 1
    line = err.strip().splitlines()[-1]
    assert line.startswith("refused: ") and "tile_sm80.cu:47:" in line
    assert "CuTe refuses this configuration: static assertion failed" in line


@needs_compiler
def test_cutlass_s_hopper_tma_tutorial_is_verified(compiled: dict[str, tuple[int, str, str]], tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]):
    if "wgmma_tma_sm90" not in compiled:
        pytest.skip("this wheel ships no hopper/wgmma_tma_sm90.cu")
    code, spec_text, err = compiled["wgmma_tma_sm90"]
    assert code == ExitCode.OK, err
    assert spec_text.count("copy: SM90_TMA_LOAD") == 4 and "GMMA::Major::MN,GMMA::Major::MN" in spec_text
    assert "a TMA load into a shared tile an MMA reads through a descriptor: its atom's boxes are checked by" in err
    spec = tmp_path / "h.yaml"
    spec.write_text(spec_text, encoding="utf-8")
    code, out = _prove(spec, capsys)
    assert code == ExitCode.OK and "4 verified" in out


@needs_compiler
def test_a_source_that_does_not_compile_is_one_line_with_its_place(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]):
    bad = tmp_path / "bad.cu"
    bad.write_text("#include <cute/tensor.hpp>\nvoid f() { cute::no_such_thing(); }\n", encoding="utf-8")
    assert main(["import-kernel", "--compile", "--no-cache", str(bad)]) == ExitCode.BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {bad}:2:") and "host compile fails" in err[0]


def regenerate_notes() -> None:          # pragma: no cover - run by hand when the kernels or the headers change
    """Write tests/data/cpp/*.notes from compiles of the tile kernel, its mistake, the descriptor kernel and the
    namespace-scope aliases of CUTLASS's examples 48 and 70 (which need cuRAND's headers: pip install
    nvidia-curand-cu12)."""
    from verifier.importer.compile_notes import compile_notes
    from verifier.importer.compiled import toolchain
    from verifier.importer.instrument import SCOPE
    tools = toolchain(None, None)
    text = TILE.read_text(encoding="utf-8")
    examples = _wheel_examples()
    assert examples is not None
    e48, e70 = examples / EXAMPLE_48, examples / EXAMPLE_70
    for name, source, t, kernel in (("tile_sm80", TILE, text, "tile_kernel"),
                                    ("tile_sm80_a_copy_for_B", TILE, text.replace(*A_COPY_FOR_B), "tile_kernel"),
                                    ("desc_sm90", DESC, DESC.read_text(encoding="utf-8"), "desc_kernel"),
                                    ("tma_sm90", TMA, TMA.read_text(encoding="utf-8"), "tma_kernel"),
                                    ("tmem_sm100", TMEM, TMEM.read_text(encoding="utf-8"), "tmem_kernel"),
                                    ("tmem_sm100_m64", TMEM, TMEM.read_text(encoding="utf-8").replace(*TMEM_M64),
                                     "tmem_kernel"),
                                    ("tma_epi_sm90", EPI, EPI.read_text(encoding="utf-8"), EPI_FUNCTIONS),
                                    ("tma_epi_sm90_d_atom_sw64", EPI,
                                     EPI.read_text(encoding="utf-8").replace(*EPI_D_ATOM_SW64), EPI_FUNCTIONS),
                                    ("tma_epi_sm90_d_m_major", EPI,
                                     EPI.read_text(encoding="utf-8").replace(*EPI_D_M_MAJOR), EPI_FUNCTIONS),
                                    ("tma_sm90_a_atom_sw64", TMA,
                                     TMA.read_text(encoding="utf-8").replace(*TMA_A_ATOM_SW64), "tma_kernel"),
                                    ("tma_sm90_a_atom_64_rows", TMA,
                                     TMA.read_text(encoding="utf-8").replace(*TMA_A_ATOM_64_ROWS), "tma_kernel"),
                                    ("tma_sm90_mma_n32", TMA,
                                     TMA.read_text(encoding="utf-8").replace(*TMA_MMA_N32), "tma_kernel"),
                                    ("tma_sm90_mma_n32_a_atom_sw64", TMA,
                                     TMA.read_text(encoding="utf-8").replace(*TMA_MMA_N32).replace(*TMA_A_ATOM_SW64),
                                     "tma_kernel"),
                                    ("tile_simt", SIMT, SIMT.read_text(encoding="utf-8"), "simt_kernel"),
                                    ("tile_simt_a_copy_threads_transposed", SIMT,
                                     SIMT.read_text(encoding="utf-8").replace(*SIMT_COPY_THREADS_TRANSPOSED),
                                     "simt_kernel"),
                                    ("example_48_scope", e48, e48.read_text(encoding="utf-8"), SCOPE),
                                    ("example_70_scope", e70, e70.read_text(encoding="utf-8"), SCOPE)):
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / source.name
            f.write_text(t, encoding="utf-8")
            notes = [n for n in compile_notes(tools, f, instrument(t), {}, use_cache=False,
                                              include_dirs=(examples / "common",)).notes
                     if n.function.startswith(kernel)]
        head = ("# made by: tests/test_import_compiled.py::regenerate_notes (g++ 12.2, the nvidia-cutlass 4.2.0.0 "
                f"wheel's headers): the types GCC spelled for "
                f"{' and '.join(kernel) if isinstance(kernel, tuple) else kernel}'s declarations; line, column, "
                "instantiation, type\n")
        (DATA / f"{name}.notes").write_text(head + "".join(f"{n.line}\t{n.column}\t{n.function}\t{n.type_text}\n"
                                                           for n in notes), encoding="utf-8")


def test_damaged_type_spellings_are_reasons_never_crashes():
    """Each of 300 damaged copies of the recorded types (cut, spliced text) is read without an exception: a type
    the reader cannot spell becomes a listed reason."""
    import random
    rng = random.Random(3)
    notes = _notes(DATA / "tile_sm80.notes")
    ins = instrument(TILE.read_text(encoding="utf-8"))
    pieces = ["", "int", "cute::C<x>", "<", ">", ",", "cute::Underscore", "(cute::A)1", "cute::Tensor<",
              "cute::Layout<"]
    for _ in range(300):
        damaged = list(notes)
        for _ in range(rng.randrange(1, 4)):
            k = rng.randrange(len(damaged))
            n = damaged[k]
            i = rng.randrange(len(n.type_text) + 1)
            j = min(len(n.type_text), i + rng.randrange(0, 60))
            damaged[k] = NotedType(n.function, n.line, n.column, n.type_text[:i] + rng.choice(pieces)
                                   + n.type_text[j:])
        read_paths(str(TILE), ins, damaged)


def test_a_kernel_nothing_instantiates_is_listed_with_what_to_give():
    _, skipped = read_paths(str(TILE), instrument(TILE.read_text(encoding="utf-8")), [])
    assert [(s.what, s.where.line) for s in skipped] == [("function tile_kernel", 12)]
    assert "--instantiate 'EXPR'" in skipped[0].why


def test_a_source_with_no_checkable_path_is_unsupported_with_every_reason(tmp_path: Path, monkeypatch,
                                                                          capsys: pytest.CaptureFixture[str]):
    """Every copy and MMA listed, none checkable (here: the kernel template nothing instantiates): exit 3 with
    `unsupported:` and the reasons — not bad input, not a silent empty spec."""
    from verifier.importer import compiled_import
    from verifier.importer.compile_notes import CompiledNotes
    from verifier.importer.compiled import Toolchain
    from verifier.commands import import_kernel
    monkeypatch.setattr(compiled_import, "compile_notes", lambda *a, **k: CompiledNotes(notes=[], where="test"))
    monkeypatch.setattr(import_kernel, "toolchain", lambda cxx, cutlass: Toolchain("g++", (), "test"))
    source = tmp_path / "tile.cu"
    source.write_text(TILE.read_text(encoding="utf-8").replace(*LAUNCH_AS_TEMPLATE), encoding="utf-8")
    out = tmp_path / "tile.yaml"
    assert main(["import-kernel", "--compile", str(source), "-o", str(out)]) == ExitCode.UNDECIDED
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith(f"unsupported: '{source}': no operand path the verifier checks; first not checked: ")
    assert any("give --instantiate" in line for line in err) and not out.exists()


def test_a_tiled_mma_atom_layout_without_its_shape_is_a_reason_never_a_crash():
    """Found by fuzzing the recorded types: an atom layout spelled `cute::Layout` with no arguments is bad type text
    (TypeSyntaxError, which every reader turns into a listed path), never an IndexError."""
    from verifier.importer.kernel_paths import atom_layout_text
    with pytest.raises(TypeSyntaxError, match="without its shape"):
        atom_layout_text(parse_type("cute::Layout"))


_MXF8F6F4_ATOM = ("cute::MMA_Atom<cute::SM100_MMA_MXF8F6F4_2x1SM_SS<cutlass::float_e4m3_t, "
                  "cutlass::float_e2m1_unpacksmem_t, float, cutlass::float_ue8m0_t, 256, 256, cute::UMMA::Major::K, "
                  "cute::UMMA::Major::K> >")


@pytest.mark.parametrize("element,op,tile", [
    ("float_e2m1_t", "B", "float_e2m1_unpacksmem_t"),   # the 4-bit B the MMA reads a byte an element (example 72c)
    ("float_e4m3_t", "A", "float_e4m3_t"),              # an 8-bit operand: the element itself
    ("float_e3m2_t", "B", "float_e3m2_t"),              # another type than the MMA's unpacked one: never swapped
])
def test_a_collective_s_tile_type_is_the_mma_s_unpacked_type_of_its_element(element: str, op: str, tile: str):
    """An SM100 f8f6f4 collective lays out and loads a 4- or 6-bit operand as the MMA's ValType, a byte an element:
    the check's value type is that unpacked type (its layout is for 8-bit elements), not the collective's Element."""
    from verifier.importer.collective_paths import _tile_type
    assert _tile_type(element, parse_type(_MXF8F6F4_ATOM), op) == tile


@pytest.mark.parametrize("element,inner,unit_bytes", [
    ("half_t", 1, 16), ("float_e4m3_t", 0, 16), ("float_e2m1_t", 1, 16),
    ("float_e2m1_unpacksmem_t", 1, 32), ("float_e3m2_unpacksmem_t", 0, 32),   # TMA's ALIGN16B types: 32-byte strides
])
def test_a_representative_global_tensor_meets_tma_s_stride_rule_for_its_type(element: str, inner: int,
                                                                             unit_bytes: int):
    """The representative global tensor's outer stride: a multiple of the bytes TMA asks of a global stride for the
    type (an unpacked 4- or 6-bit type's tensor map is an ALIGN16B one: 32 bytes), an odd number of them (a 6-bit
    type's fewest: 128 elements, three units)."""
    from verifier.algebra.types import type_bits
    from verifier.importer.kernel_paths import representative_gmem
    text = representative_gmem(inner, element)
    strides = [int(x) for x in text.split(":")[1].strip("()").split(",")]
    assert strides[inner] == 1
    outer_bits = strides[1 - inner] * type_bits(element)
    assert outer_bits % (unit_bytes * 8) == 0 and (outer_bits // (unit_bytes * 8)) % 2 == 1, text


@pytest.mark.parametrize("layout,element,why", [
    ("Sw<3,4,3> o smem_ptr[8b](unset) o ((_8,_16),(_64,_2)):((_64,_512),(_1,_8192))", "float_e4m3_t", None),
    ("Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_2)):((_64,_512),(_1,_8192))", "half_t", None),
    ("Sw<3,4,3> o smem_ptr[8b](unset) o (_128,_64):(_64,_1)", "float_e2m1_unpacksmem_t", None),   # a byte each
    ("(_128,_64):(_64,_1)", "float_e4m3_t", None),                                                # no pointer type
    # a GMMA layout atom of half_t over an 8-bit tile (survey mutant Q07): CuTe refuses it in device code
    ("Sw<3,4,3> o smem_ptr[16b](unset) o ((_8,_16),(_64,_2)):((_64,_512),(_1,_8192))", "float_e4m3_t",
     "is typed for 16-bit elements and the tile holds 8-bit float_e4m3_t"),
])
def test_a_shared_layout_typed_for_another_element_width_is_refused(layout: str, element: str, why: str | None):
    """A layout CuTe types for one element width over a tile of another is CuTe's refusal (its device code's
    static_assert, which the host compile does not instantiate: the kernel does not build), never written as a check
    the loader refuses (exit 4) nor listed while the import exits 0 (survey 5's H17, H18, U09)."""
    from verifier.importer.kernel_paths import RefusedInDeviceCode, check_pointer_width
    if why is None:
        check_pointer_width(layout, element)
        return
    with pytest.raises(RefusedInDeviceCode, match=re.escape(why)):
        check_pointer_width(layout, element)


@pytest.mark.parametrize("line,coordinate,verdict", [
    ("ThrCopy s2r_thr_a = s2r_copy_a.get_slice(threadIdx.x);", None, "verified"),      # each thread its own: none
    ("ThrCopy s2r_thr_a = s2r_copy_a.get_slice(threadIdx.x ^ 1);", "tid ^ 1", "refuted"),    # lanes' rows swapped
    ("ThrCopy g2s_thr = g2s.get_slice(threadIdx.x % 64);", "tid % 64", "refuted"),          # half the tile unmoved
    ("ThrCopy g2s_thr = g2s.get_slice(_0{});", "0", "refuted"),
    ("ThrCopy g2s_thr = g2s.get_slice(int(threadIdx.x) % 128);", "(tid) % 128", "verified"),  # the same slices
])
def test_a_c_plus_plus_thread_coordinate_is_a_thread_slice_check(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 line: str, coordinate: str | None, verdict: str):
    """The coordinate a C++ kernel hands a TiledCopy's get_slice, as written in its source (casts and CuTe's static
    integers dropped): any other than threadIdx.x itself is a thread-slice check (theorem 37), the mutants of our SM80
    tile kernel refuted (the compiler's notes are the kernel's: the argument changes no type)."""
    source = DATA / "tile_sm80.cu"
    text = source.read_text(encoding="utf-8")
    original = line.split(".get_slice(")[0] + ".get_slice(threadIdx.x);"
    assert original in text
    mutated = text.replace(original, line)
    spec = _spec_from_notes(tmp_path, mutated, DATA / "tile_sm80.notes", source)
    written = spec.read_text(encoding="utf-8")
    if coordinate is None:
        assert "slice:" not in written
    else:
        assert f'coordinate: "{coordinate}"' in written
    code, out = _prove(spec, capsys)
    assert (code == ExitCode.OK) == (verdict == "verified"), out
    if verdict == "refuted":
        assert "copy.thread_slice" in out


@pytest.mark.parametrize("text,spelled", [
    ("threadIdx.x", "tid"), ("threadIdx.x % 128", "tid % 128"), ("static_cast<int>(threadIdx.x) - 128", "(tid) - 128"),
    ("cute::Int<0>{}", "0"), ("threadIdx.x % 64u", "tid % 64"), ("warp_idx", None), ("threadIdx.y", None),
    ("f(threadIdx.x)", None),
])
def test_a_get_slice_argument_is_spelled_as_a_coordinate_of_tid(text: str, spelled: str | None):
    from verifier.importer.thread_slices import cpp_coordinate
    assert cpp_coordinate(text) == spelled


def test_a_collective_built_in_the_example_s_own_header_is_listed(tmp_path: Path):
    """Example 51 builds its mainloop inside a function template of its own gett_kernel.cuh, which the compile never
    notes: the import ended in "no operand path to check was found" (exit 2, survey 6).  A collective built in a
    header the file includes from beside it is listed with its place and what to give; a header outside the file's
    folder, or one the file does not include, is not read."""
    from verifier.importer.collective_paths import IN_HEADER, header_collectives
    folder = tmp_path / "example"
    folder.mkdir()
    (folder / "gett_kernel.cuh").write_text(
        "template <class T>\nvoid gett() {\n  // using Commented = typename cutlass::gemm::collective::"
        "CollectiveBuilder<\n  using CollectiveMainloop = typename cutlass::gemm::collective::CollectiveBuilder<\n"
        "    T>::CollectiveOp;\n}\n", encoding="utf-8")
    (folder / "unused.cuh").write_text("using Other = cutlass::gemm::collective::CollectiveMma<int>;\n",
                                       encoding="utf-8")
    (tmp_path / "outside.cuh").write_text("using Far = cutlass::gemm::collective::CollectiveMma<int>;\n",
                                          encoding="utf-8")
    main_file = folder / "gett.cu"
    source = '#include "gett_kernel.cuh"\n#include "../outside.cuh"\n#include <cute/tensor.hpp>\nint main() {}\n'
    listed = header_collectives(main_file, source)
    assert [(s.what, s.where.line, s.where.column, Path(s.where.file).name) for s in listed] == [
        ("collective CollectiveMainloop", 4, 3, "gett_kernel.cuh")]
    assert listed[0].why == IN_HEADER.format(header="gett_kernel.cuh", file="gett.cu")


@needs_compiler
def test_the_host_prelude_declares_the_warp_built_ins_cutlass_s_headers_call(tmp_path: Path):
    """CUTLASS's grouped tile scheduler votes across a warp (`__ballot_sync`, `__ffs`), its distributed and GEMV
    headers call `atomicSub` and `__frcp_rn`: the host pass failed on them (example 92's grouped GEMM, 65, 91).  The
    prelude declares them; a use compiles as host code."""
    import subprocess
    from verifier.importer.compiled import toolchain
    tools = toolchain(None, None)
    prelude = Path(__file__).resolve().parent.parent / "verifier" / "importer" / "host_prelude.hpp"
    use = tmp_path / "use.cpp"
    use.write_text("int f(unsigned* p, float x) {\n  unsigned vote = __ballot_sync(0xffffffffu, 1);\n"
                   "  atomicSub(p, 1u);\n  return __ffs(int(vote)) + __popc(vote) + __clz(1) + int(__frcp_rn(x)) +\n"
                   "         __any_sync(__activemask(), 1) + __all_sync(0xffffffffu, 1);\n}\n", encoding="utf-8")
    done = subprocess.run([tools.cxx, "-std=c++17", "-fsyntax-only", *(f"-I{d}" for d in tools.includes),
                           "-include", str(prelude), str(use)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
