"""import-kernel --compile on gemms of the threads' own partitions (theorems 44, 45; verifier/importer/thread_gemm.py).

Offline: our two SIMT kernels (tests/data/cpp/thread_gemm.cu: `raked_kernel` partitions with local_partition,
`tiled_kernel` with a TiledCopy and a UniversalFMA TiledMMA) read from the types GCC gave their declarations
(tests/data/cpp/thread_gemm*.notes, made by `regenerate_notes` below), each verified, and edits of their bodies (the
types unchanged) or of their host code (with the notes of that compile) refuted by the fact that owns the mistake.
With g++ and the nvidia-cutlass wheel: CuTe's tutorial sgemm_1.cu and sgemm_2.cu as the wheel ships them, compiled."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from test_import_compiled import WHEEL, _notes, _prove, _spec_from_notes, _wheel_examples
from verifier.commands.cli import main
from verifier.dsl.kernel_checks import OperandFillsRecord, ThreadGemmRecord
from verifier.importer.instrument import instrument
from verifier.importer.kernel_paths import read_paths
from verifier.outcome import ExitCode

DATA = Path(__file__).parent / "data" / "cpp"
SOURCE = DATA / "thread_gemm.cu"
NOTES = DATA / "thread_gemm.notes"
RAKED, TILED, STAGED, FRAGMENT = "raked_kernel", "tiled_kernel", "staged_kernel", "fragment_kernel"
# edits of the kernels' bodies (the declarations' types unchanged): (old, new, the kernel, the refuting fact)
BODY_EDITS = {
    "a_by_the_columns_of_c_threads": (
        "local_partition(sA, tC, threadIdx.x, Step<_1, X>{});", "local_partition(sA, tC, threadIdx.x, Step<X, _1>{});",
        RAKED, "every product multiplies A's element of C's row by B's element of C's column"),
    "a_read_at_the_next_thread": ("Tensor tAgA = local_partition(gA, tA, threadIdx.x);",
                                  "Tensor tAgA = local_partition(gA, tA, threadIdx.x + 1);", RAKED,
                                  "every value A copies from A lands at the coordinate it has in the global tile"),
    "operands_swapped": ("gemm(tCsA, tCsB, tCrC);", "gemm(tCsB, tCsA, tCrC);", RAKED,
                         "every product multiplies A's element of C's row by B's element of C's column"),
    "b_filled_from_a": ("copy(tBgB(_, _, kt), tBsB);", "copy(tAgA(_, _, kt), tBsB);", RAKED,
                        "B's tile of A is taken at C's block along C's columns"),
    "a_k_tile_fixed": ("copy(tAgA(_, _, kt), tAsA);", "copy(tAgA(_, _, 0), tAsA);", RAKED,
                       "for K = 2, pass kt = 1's gemm multiplies A's k-tile 0, B's k-tile 1"),
    "prefetch_two_ahead": ("int next = (kt + 1 < size<3>(tAgA)) ? kt + 1 : kt;",
                           "int next = (kt + 2 < size<3>(tAgA)) ? kt + 2 : kt;", TILED,
                           "for K = 2, pass kt = 1's gemm multiplies A's k-tile 0, B's k-tile 0"),
    "b_stored_from_a_registers": ("copy(tBrB, tBsB);", "copy(tArA, tBsB);", TILED,
                                  "B's tile of A is taken at C's block along C's columns"),
    "mma_a_of_sb": ("Tensor tCsA = thr_mma.partition_A(sA);" + " " * 55 + "// KNOB mma_a",
                    "Tensor tCsA = thr_mma.partition_A(sB);", TILED,
                    "A's tile of B is taken at C's block along C's rows"),
    "b_stage_filled_from_a": ("copy(copy_b, tBgB(_, _, _, kt), tBsB(_, _, _, stage));",
                              "copy(copy_b, tAgA(_, _, _, kt), tBsB(_, _, _, stage));", FRAGMENT,
                              "B's tile of A is taken at C's block along C's columns"),
    "k_loop_one_short": ("for (int kt = 0; kt < size<2>(tAgA); ++kt) {",
                         "for (int kt = 0; kt < size<2>(tAgA) - 1; ++kt) {", RAKED,
                         "the k-tile loop runs kt over 0, 1, ..., K-1, each once"),
    "k_loop_every_other_k_tile": ("for (int kt = 0; kt < size<2>(tAgA); ++kt) {",
                                  "for (int kt = 0; kt < size<2>(tAgA); kt += 2) {", RAKED,
                                  "for K = 2 it runs kt = [0]"),
    "fills_k_loop_from_one": ("for (int kt = 0; kt < size<3>(tAgA); ++kt) {\n    int stage = kt % 2;",
                              "for (int kt = 1; kt < size<3>(tAgA); ++kt) {\n    int stage = kt % 2;", FRAGMENT,
                              "for K = 1 it runs kt = []"),
    "a_registers_from_sb": ("copy(tCsA(_, _, kb), tCrA(_, _, kb));", "copy(tCsB(_, _, kb), tCrA(_, _, kb));", STAGED,
                            "every product multiplies A's element of C's row by B's element of C's column"),
}
# edits of the host code, compiled into notes of their own: (old, new, the kernel, the notes' name, the refuting fact)
HOST_EDITS = {
    "a_smem_overlapping": (
        "auto sA_layout = make_layout(make_shape(Int<64>{}, Int<8>{}));                               // KNOB a_smem",
        "auto sA_layout = make_layout(make_shape(Int<64>{}, Int<8>{}), make_stride(Int<1>{}, Int<32>{}));",
        RAKED, "thread_gemm_a_smem_overlapping", "A's shared layout gives distinct coordinates of its 64x8 tile"),
    "a_copy_past_its_tile": (
        "Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});       // KNOB a_copy",
        "Layout<Shape<_16, _16>>{}, Layout<Shape<_2, _1>>{});       // KNOB a_copy",
        TILED, "thread_gemm_a_copy_past_its_tile", "every value A copies from A is an element of its 64x8 global tile"),
}


def _read(text: str, notes: Path) -> tuple[list[ThreadGemmRecord], list[object]]:
    records, skipped = read_paths(str(SOURCE), instrument(text), _notes(notes))
    return [r for r in records if isinstance(r, ThreadGemmRecord)], list(skipped)


def test_both_kernels_are_read_with_their_fills_and_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    text = SOURCE.read_text(encoding="utf-8")
    records, skipped = _read(text, NOTES)
    assert [r.name for r in records] == ["raked_kernel_gemm", "tiled_kernel_gemm", "staged_kernel_gemm"]
    raked, tiled, staged = (r.read for r in records)
    assert (raked.tile, raked.threads, tiled.tile, tiled.threads) == ((64, 64, 8), 256, (64, 64, 8), 256)
    assert [[s.k_tiles for s in f.sources] for f in raked.fills] == [[("kt",)], [("kt",)]]
    assert [[s.k_tiles for s in f.sources] for f in tiled.fills] == [[("0", "next")], [("0", "next")]]
    assert [[(s.tensor, s.tile_at) for s in f.sources] for f in raked.fills] == [[("A", "blockIdx.x")],
                                                                                [("B", "blockIdx.y")]]
    assert raked.c_at == ("blockIdx.x", "blockIdx.y")
    # thread t's row of A is t % 16 (C's 16x16 threads, column-major), its values 16 rows apart, every k
    assert raked.a.origins[:18] == tuple(range(16)) + (0, 1) and str(raked.a.values.plain()) == "(4,8):(16,64)"
    # every copy of the tiles, and the accumulator's store, is credited to its check
    covered = {s.where.line: s.covered_by for s in skipped}         # type: ignore[attr-defined]
    assert {covered[line] for line in (37, 38, 43)} == {"raked_kernel_gemm"}
    assert {covered[line] for line in (75, 76, 79, 80, 83, 84, 87)} == {"tiled_kernel_gemm"}
    # the staged kernel's gemm multiplies registers copied k-block by k-block from its shared partitions: read as
    # those partitions, the k-block loop's covering every k-block stated as an assumption
    assert [[s.k_tiles for s in f.sources] for f in staged.fills] == [[("kt",)], [("kt",)]]
    assert staged.staged == (153, 154)
    assert {covered[line] for line in (149, 150, 153, 154)} == {"staged_kernel_gemm"}
    assert any("its k-block index is taken to run over every k-block" in a for a in records[2].assumes)
    # the fragment kernel's gemm multiplies register fragments a tiled copy loads (two tiled checks): its shared
    # tiles' fills, into one stage at a time, are an operand-fills check
    fills = [r for r in read_paths(str(SOURCE), instrument(text), _notes(NOTES))[0]
             if isinstance(r, OperandFillsRecord)]
    assert [r.name for r in fills] == ["fragment_kernel_fills"]
    assert [(o, t, [s.k_tiles for s in f.sources]) for o, t, f in fills[0].read.fills] == \
        [("a", (64, 8), [("kt",)]), ("b", (64, 8), [("kt",)])] and fills[0].read.c_at == ("blockIdx.x", "blockIdx.y")
    # the k-tile loops: read where the fills copy k-tile kt itself (theorem 46 proves them), a prefetch's (the tiled
    # kernel's `next`) read with the pass's k-tile stated as an assumption
    loops = [r.read.k_loop for r in records] + [fills[0].read.k_loop]
    assert [(lp.line, lp.variable, lp.start, lp.condition, lp.bound, lp.step, lp.direct) if lp else None
            for lp in loops] == [(36, "kt", 0, "<", (1, 0), 1, True), (77, "kt", 0, "<", (1, 0), 1, False),
                                 (147, "kt", 0, "<", (1, 0), 1, True), (214, "kt", 0, "<", (1, 0), 1, True)]
    # the k-tile each operand's tile holds at pass kt's gemm, the copies simulated in order: kt where the copies of
    # k-tile kt come before the gemm (the staged and fragment kernels' gemm inside their k-block loop); the tiled
    # kernel's prefetch through registers: the prologue's 0 at pass 0, the pass before's `next` after it
    direct = (("a", "kt"), ("b", "kt"))
    prefetch = "(0 if (kt == 0) else (((kt - 1) + 1) if (((kt - 1) + 1) < K) else (kt - 1)))"
    assert [lp.reads if lp else None for lp in loops] == [direct, (("a", prefetch), ("b", prefetch)), direct,
                                                          direct]
    assert not any("is not read" in a for r in records for a in r.assumes if "k-tile" in a)
    code, out = _prove(_spec_from_notes(tmp_path, text, NOTES, SOURCE), capsys)
    assert code == ExitCode.OK and "6 verified" in out and out.count("theorem 46") == 0, out


RAKED_LOOP = "for (int kt = 0; kt < size<2>(tAgA); ++kt) {"
RAKED_GEMM = "gemm(tCsA, tCsB, tCrC);"


@pytest.mark.parametrize("old, new, why", [
    (RAKED_LOOP, "for (int kt = 0; kt < ceil_div(k, 8); ++kt) {",
     "its bound's term ceil_div(k, 8) is neither an integer nor a k-tile count"),
    (RAKED_LOOP, "for (int kt = 0; kt < size<1>(tAgA); ++kt) {",
     "its bound's size<1>(tAgA) is not the k-tile extent of a global partition"),
    (RAKED_GEMM, RAKED_GEMM + " if (kt == 1) break;", "the loop at line 36 may leave a pass at line 40 (if (kt == 1) "
                                                      "break)"),
    (RAKED_GEMM, RAKED_GEMM + " kt += 1;", "the loop's kt is changed in its body at line 40 (kt += 1)"),
])
def test_a_k_tile_loop_the_reader_does_not_read_is_assumed_and_said(old: str, new: str, why: str, tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]):
    """A bound that is no k-tile count the reader reads (or one a statement changes), a body that may leave a pass
    or changes the loop's variable: no theorem 46, the loop stated as an assumption with the reason."""
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    text = text.replace(old, new)
    records, _ = _read(text, NOTES)
    assert records[0].read.k_loop is None and why in records[0].read.k_loop_not_read, records[0].read.k_loop_not_read
    assert any(a.startswith("the k-tile loop is not read (") for a in records[0].assumes)
    code, out = _prove(_spec_from_notes(tmp_path, text, NOTES, SOURCE), capsys)
    assert code == ExitCode.OK and "6 verified" in out, out


def test_a_gemm_before_its_copies_in_the_pass_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """raked_kernel's gemm moved before the copies of k-tile kt: pass kt multiplies the tiles the pass before left
    (pass 0 what they held before any copy) -- theorem 46 refutes it with A's tile at kt - 1."""
    text = SOURCE.read_text(encoding="utf-8")
    first, gemm = "  copy(tAgA(_, _, kt), tAsA);", "gemm(tCsA, tCsB, tCrC);" + " " * 68 + "// KNOB operands"
    assert text.count(first) == 1 and text.count(gemm) == 1
    edited = text.replace(first, "  gemm(tCsA, tCsB, tCrC); copy(tAgA(_, _, kt), tAsA);").replace(gemm, "")
    records, _ = _read(edited, NOTES)
    held = "(-1 if (kt == 0) else (kt - 1))"
    assert records[0].read.k_loop is not None and records[0].read.k_loop.reads == (("a", held), ("b", held))
    code, out = _prove(_spec_from_notes(tmp_path, edited, NOTES, SOURCE), capsys)
    refuted = out[out.index("raked_kernel_gemm"):]
    assert code == ExitCode.WRONG and "REFUTED (gemm.k_tile_loop)" in refuted.splitlines()[0], out
    assert "gemm multiplies A's k-tile -1 (none: no copy before it), B's k-tile -1" in refuted, out


def test_registers_another_call_writes_are_not_followed():
    """The tiled kernel clearing A's registers after their refill: the fill through them is not followed (the
    passes' simulation would not see the clear), and the gemm is listed with the reason."""
    old = "copy(copy_a, tAgA(_, _, _, next), tArA);"
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    records, skipped = _read(text.replace(old, old + " clear(tArA);"), NOTES)
    assert "tiled_kernel_gemm" not in [r.name for r in records]
    why = [getattr(s, "why", "") for s in skipped if getattr(s, "what", "") == "gemm at line 85"]
    assert len(why) == 1 and "tArA is also written at line 83 (clear(tArA))" in why[0], why


def test_a_load_the_next_one_overwrites_is_no_mistake(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """The tiled kernel loading k-tile 0 into A's registers again right after storing them, before the refill of the
    next k-tile overwrites them: every pass still multiplies its own k-tile (theorem 46's simulation), verified --
    where A's and B's k-tiles as written differ."""
    old = "    copy(tArA, tAsA);\n"
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    edited = text.replace(old, "    copy(tArA, tAsA); copy(copy_a, tAgA(_, _, _, 0), tArA);\n")
    code, out = _prove(_spec_from_notes(tmp_path, edited, NOTES, SOURCE), capsys)
    assert code == ExitCode.OK and "6 verified" in out, out


@pytest.mark.parametrize("name", sorted(BODY_EDITS))
def test_a_body_edit_is_refuted_by_the_fact_that_owns_it(name: str, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]):
    old, new, kernel, fact = BODY_EDITS[name]
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    code, out = _prove(_spec_from_notes(tmp_path, text.replace(old, new), NOTES, SOURCE), capsys)
    assert code == ExitCode.WRONG and "5 verified" in out, out
    refuted = out[out.index(f"{kernel}_gemm" if kernel != FRAGMENT else f"{kernel}_fills"):]
    assert "REFUTED" in refuted.splitlines()[0] and fact in refuted, out


def test_a_block_coordinate_spelled_otherwise_is_the_same_coordinate(tmp_path: Path,
                                                                     capsys: pytest.CaptureFixture[str]):
    """A's tile taken at `make_coord(int(blockIdx.x), blockIdx.y, _)` written in place, C's at the kernel's `block`
    variable (`make_coord(blockIdx.x, blockIdx.y, _)`): one coordinate, verified."""
    old = "local_tile(mA, tiler, block, Step<_1, X, _1>{});                                  // KNOB a_tile"
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    mutated = text.replace(old, "local_tile(mA, tiler, make_coord(int(blockIdx.x), blockIdx.y, _), Step<_1, X, _1>{});")
    records, _ = _read(mutated, NOTES)
    assert records[0].read.fills[0].sources[0].tile_at == "blockIdx.x"
    code, out = _prove(_spec_from_notes(tmp_path, mutated, NOTES, SOURCE), capsys)
    assert code == ExitCode.OK and "6 verified" in out, out


@pytest.mark.parametrize("name", sorted(HOST_EDITS))
def test_a_host_edit_is_refuted_from_the_notes_of_its_compile(name: str, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]):
    old, new, kernel, notes, fact = HOST_EDITS[name]
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    code, out = _prove(_spec_from_notes(tmp_path, text.replace(old, new), DATA / f"{notes}.notes", SOURCE), capsys)
    assert code == ExitCode.WRONG and f"{kernel}_gemm" in out and fact in out, out


@pytest.mark.parametrize("old, new, why", [
    ("local_partition(sA, tC, threadIdx.x, Step<_1, X>{});",
     "local_partition(sA, tC, threadIdx.y, Step<_1, X>{});",
     "tCsA: local_partition at threadIdx.y: not an expression of threadIdx.x the reader evaluates"),
    ("copy(tBgB(_, _, kt), tBsB);", "copy(tBgB(_, _, kt), tBsB); clear(tAsA);",
     "sA is also written at line 38 (clear(tAsA)), by a call the reader does not follow"),
    ("copy(tCrC, tCgC);\n}\n\ntemplate", "clear(tCrC);\n}\n\ntemplate",
     "the accumulator tCrC is not stored to tCgC (copy or axpby) after the gemm"),
    ("copy(tBgB(_, _, kt), tBsB);", "copy(tBgB(_, _, kt), tBsB); if (kt == 1) copy(tBgB(_, _, 0), tAsA);",
     "sA is also written at line 38 (if (kt == 1) copy(tBgB(_, _, 0), tAsA)), by a call the reader does not follow"),
])
def test_a_form_the_reader_does_not_follow_is_listed_with_its_reason(old: str, new: str, why: str):
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    records, skipped = _read(text.replace(old, new), NOTES)
    assert [r.name for r in records] == ["tiled_kernel_gemm", "staged_kernel_gemm"]         # the raked one listed
    listed = [s for s in skipped if "gemm at line 40" == getattr(s, "what", "")]
    assert len(listed) == 1 and why in listed[0].why, [getattr(s, "why", "") for s in skipped]   # type: ignore
    if "if (kt == 1)" in new:         # and the copy under the braceless if is listed itself, never dropped
        assert any(getattr(s, "what", "") == "copy at line 38" and "the body of a braceless `if`" in
                   getattr(s, "why", "") for s in skipped)


needs_compiler = pytest.mark.skipif(WHEEL is None or _wheel_examples() is None,
                                    reason="needs g++ and the nvidia-cutlass wheel's headers and examples")


@needs_compiler
@pytest.mark.parametrize("tutorial", ["sgemm_1.cu", "sgemm_2.cu"])
def test_cutes_sgemm_tutorials_are_verified_as_compiled(tutorial: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]):
    examples = _wheel_examples()
    assert examples is not None
    source = examples / "cute" / "tutorial" / tutorial
    spec = tmp_path / "t.yaml"
    assert main(["import-kernel", "--compile", str(source), "-o", str(spec)]) == ExitCode.OK
    text = spec.read_text(encoding="utf-8")
    assert text.count("    thread_gemm:") == 2           # the NT and TN instantiations
    code, out = _prove(spec, capsys)
    assert code == ExitCode.OK and "2 verified" in out, out


@needs_compiler
def test_sgemm_1_with_a_partitioned_by_cs_columns_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    examples = _wheel_examples()
    assert examples is not None
    text = (examples / "cute" / "tutorial" / "sgemm_1.cu").read_text(encoding="utf-8")
    old = "local_partition(sA, tC, threadIdx.x, Step<_1, X>{});"
    assert text.count(old) == 1
    source = tmp_path / "sgemm_1.cu"
    source.write_text(text.replace(old, "local_partition(sA, tC, threadIdx.x, Step< X,_1>{});"), encoding="utf-8")
    spec = tmp_path / "t.yaml"
    assert main(["import-kernel", "--compile", str(source), "-o", str(spec)]) == ExitCode.OK
    code, out = _prove(spec, capsys)
    assert code == ExitCode.WRONG and out.count("REFUTED (gemm.thread_products)") == 2, out


@needs_compiler
def test_a_bound_a_statement_changes_is_not_read_as_its_initializer(tmp_path: Path):
    """sgemm_1 with `--K_TILE_MAX;` before its k-tile loop: the bound is not K, and the reader says so rather than
    read K_TILE_MAX's initializer (the loop an assumption, theorem 46 not run)."""
    examples = _wheel_examples()
    assert examples is not None
    text = (examples / "cute" / "tutorial" / "sgemm_1.cu").read_text(encoding="utf-8")
    old = "auto K_TILE_MAX = size<2>(tAgA);"
    assert text.count(old) == 1
    source = tmp_path / "sgemm_1.cu"
    source.write_text(text.replace(old, old + " --K_TILE_MAX;"), encoding="utf-8")
    spec = tmp_path / "t.yaml"
    assert main(["import-kernel", "--compile", str(source), "-o", str(spec)]) == ExitCode.OK
    written = spec.read_text(encoding="utf-8")
    assert "k_loop:" not in written and written.count("its bound's K_TILE_MAX is changed at line 194") == 2, written


def regenerate_notes() -> None:          # pragma: no cover - run by hand when the kernels or the headers change
    """Write tests/data/cpp/thread_gemm*.notes from compiles of thread_gemm.cu and its host edits."""
    from verifier.importer.compile_notes import compile_notes
    from verifier.importer.compiled import toolchain
    tools = toolchain(None, None)
    text = SOURCE.read_text(encoding="utf-8")
    cases = [("thread_gemm", text, (RAKED, TILED, STAGED, FRAGMENT))] + \
        [(notes, text.replace(old, new), (kernel,)) for old, new, kernel, notes, _ in HOST_EDITS.values()]
    for name, t, kernels in cases:
        with tempfile.TemporaryDirectory() as d:
            f = Path(d) / SOURCE.name
            f.write_text(t, encoding="utf-8")
            notes = [n for n in compile_notes(tools, f, instrument(t), {}, use_cache=False).notes
                     if n.function.startswith(kernels)]
        head = ("# made by: tests/test_thread_gemm_import.py::regenerate_notes (g++ 12.2, the nvidia-cutlass 4.2.0.0 "
                f"wheel's headers): the types GCC spelled for {' and '.join(kernels)}'s declarations; line, column, "
                "instantiation, type\n")
        (DATA / f"{name}.notes").write_text(head + "".join(f"{n.line}\t{n.column}\t{n.function}\t{n.type_text}\n"
                                                           for n in notes), encoding="utf-8")


@needs_compiler
def test_sgemm_sm80_fills_are_checked_for_every_instantiation(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """CuTe's sgemm_sm80.cu with its float gemms instantiated too: each instantiation's cp.async fills of its staged
    shared tiles -- of half_t through uint128_t, of float through SM80_CP_ASYNC_CACHEALWAYS<float>, read as the
    library's 32-bit atom -- are an operand-fills check beside the tiled checks, all verified."""
    examples = _wheel_examples()
    assert examples is not None
    spec = tmp_path / "t.yaml"
    source = examples / "cute" / "tutorial" / "sgemm_sm80.cu"
    assert main(["import-kernel", "--compile", str(source), "-o", str(spec),
                 "--instantiate", "&gemm_nt<float, float, float, float, float>",
                 "--instantiate", "&gemm_tn<float, float, float, float, float>"]) == ExitCode.OK
    assert spec.read_text(encoding="utf-8").count("    fills:") == 3
    code, out = _prove(spec, capsys)
    assert code == ExitCode.OK and "9 verified" in out, out


def test_registers_of_two_partitions_are_listed_not_proved_by_their_fills_alone():
    """The staged kernel's A registers copied from sA and from sB: no thread-gemm reads them, and no tiled copy loads
    them, so no check proves the gemm -- it is listed with the reason, and its shared tiles' fills are no check of
    their own (that would pass a kernel whose products nothing proved)."""
    text = SOURCE.read_text(encoding="utf-8")
    old = "copy(tCsA(_, _, kb), tCrA(_, _, kb));"
    assert text.count(old) == 1
    records, skipped = read_paths(str(SOURCE), instrument(text.replace(old, old + " copy(tCsB(_, _, kb), "
                                                                               "tCrA(_, _, kb));")), _notes(NOTES))
    names = [r.name for r in records]
    assert "staged_kernel_gemm" not in names and "staged_kernel_fills" not in names, names
    listed = [s for s in skipped if s.what == "gemm at line 155"]
    assert len(listed) == 1 and "tCrA is filled from 2 partitions" in listed[0].why, [s.why for s in skipped]
