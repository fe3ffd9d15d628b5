"""import-kernel --compile on element-wise copies between global tiles (theorem 43;
verifier/importer/elementwise_copy.py).

Offline: our two copy kernels (tests/data/cpp/elementwise_copy.cu: `tiled_kernel` through a TiledCopy's partitions,
`raked_kernel` through local_partition, both through registers, over tensors divided into 128x64 tiles) read from the
types GCC gave their declarations (tests/data/cpp/elementwise_copy.notes, made by `regenerate_notes` below) and
verified; D partitioned by another thread layout than S refuted with its element, D's tile taken at the block
coordinates swapped listed with the reason.  With g++ and the nvidia-cutlass wheel: CuTe's tutorial tiled_copy.cu
compiled and verified."""
from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest

from test_import_compiled import WHEEL, _notes, _prove, _spec_from_notes, _wheel_examples
from verifier.algebra.layout import Layout
from verifier.commands.cli import main
from verifier.dsl.kernel_checks import ElementwiseRecord
from verifier.importer.elementwise_copy import thread_layout
from verifier.importer.instrument import instrument
from verifier.importer.kernel_paths import read_paths
from verifier.importer.thread_gemm import NotRead
from verifier.outcome import ExitCode

DATA = Path(__file__).parent / "data" / "cpp"
SOURCE = DATA / "elementwise_copy.cu"
NOTES = DATA / "elementwise_copy.notes"
KERNELS = ("tiled_kernel", "raked_kernel", "predicated_kernel")
D_BY_ROW_MAJOR_THREADS = ("local_partition(tile_D, thr, threadIdx.x);" + " " * 32 + "// KNOB raked_d",
                          "local_partition(tile_D, thr_t, threadIdx.x);" + " " * 31 + "// KNOB raked_d")
KNOB = " " * 34 + "// KNOB"
D_TILE_SWAPPED = ("Tensor tile_D = D(make_coord(_, _), blockIdx.x, blockIdx.y);" + KNOB,
                  "Tensor tile_D = D(make_coord(_, _), blockIdx.y, blockIdx.x);" + KNOB)


def _read(text: str) -> tuple[list[ElementwiseRecord], list[object]]:
    records, skipped = read_paths(str(SOURCE), instrument(text), _notes(NOTES))
    return [r for r in records if isinstance(r, ElementwiseRecord)], list(skipped)


def _edited(old: str, new: str) -> str:
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(old) == 1
    return text.replace(old, new)


def test_both_copy_kernels_are_read_and_verified(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    records, skipped = _read(SOURCE.read_text(encoding="utf-8"))
    assert [r.name for r in records] == ["tiled_kernel_elementwise", "raked_kernel_elementwise",
                                         "predicated_kernel_elementwise"]
    tiled, raked, predicated = (r.read for r in records)
    # the TiledCopy: 32x8 threads of 4x1 values over a 128x8 tile, 8 of them along the 64 columns
    assert tiled.output.thread_values.plain() == "(256,((4,1),1,8)):(4,((1,0),0,1024))"
    assert tiled.inputs[0].thread_values == tiled.output.thread_values and tiled.output.tile == (128, 64)
    # local_partition by the 32x8 thread layout: thread t's values 32 rows and 8 columns apart
    assert raked.output.thread_values.plain() == "((32,8),(4,8)):((1,128),(32,1024))"
    assert [len(r.read.values) for r in records] == [32, 32, 32] and raked.values[5] == ((0, 5),)
    assert all(any("run-time values" in a for a in r.assumes) for r in records)
    # the copy_if between local_tiles of the undivided tensors: as raked_kernel's, its predicate stated as assumed;
    # the copy inside `#if 0` is not read
    assert predicated.output.thread_values == raked.output.thread_values
    assert [a for a in records[2].assumes if "predicates" in a] == [
        "the copies' predicates (thr_tile_P) are not read: every element of the tile is taken as in bounds"]
    covered = {s.where.line: s.covered_by for s in skipped}         # type: ignore[attr-defined]
    assert (covered[22], covered[23], covered[34], covered[35], covered[54]) == \
        ("tiled_kernel_elementwise",) * 2 + ("raked_kernel_elementwise",) * 2 + ("predicated_kernel_elementwise",)
    assert 52 not in covered and not any(s.line == 52 for s in instrument(SOURCE.read_text()).statements)
    code, out = _prove(_spec_from_notes(tmp_path, SOURCE.read_text(encoding="utf-8"), NOTES, SOURCE), capsys)
    assert code == ExitCode.OK and "3 verified" in out, out


def test_d_partitioned_by_other_threads_than_s_is_refuted(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """raked_kernel's D partitioned by the row-major 32x8 thread layout: thread 1 writes D's (0, 1) with S's (1, 0)."""
    code, out = _prove(_spec_from_notes(tmp_path, _edited(*D_BY_ROW_MAJOR_THREADS), NOTES, SOURCE), capsys)
    assert code == ExitCode.WRONG and "2 verified" in out, out
    refuted = out[out.index("raked_kernel_elementwise"):]
    assert "REFUTED (elementwise.coordinates)" in refuted.splitlines()[0], out
    assert "thread 1: output value 0 is the output's element (0, 1), computed from value 0 of input 0, its element " \
           "(1, 0)" in refuted, out


def test_sides_taken_at_other_tiles_are_listed_with_the_reason():
    records, skipped = _read(_edited(*D_TILE_SWAPPED))
    assert [r.name for r in records] == ["raked_kernel_elementwise", "predicated_kernel_elementwise"]
    listed = [s for s in skipped if getattr(s, "what", "") == "the copies at lines 22 and 23"]
    assert len(listed) == 1 and "thr_tile_D's tile is taken at (blockIdx.y, blockIdx.x), thr_tile_S's at " \
        "(blockIdx.x, blockIdx.y)" in listed[0].why, [getattr(s, "why", "") for s in skipped]   # type: ignore


def test_registers_used_between_the_copies_are_listed_not_proved():
    """A statement between the load and the store that names the registers (here one that moves a value to another
    place) may do anything to them: the copies are listed with it, not proved element by element."""
    records, skipped = _read(_edited("  copy(thr_tile_S, fragment);\n", "  copy(thr_tile_S, fragment); "
                                     "fragment(0) = fragment(1);\n"))
    assert [r.name for r in records] == ["tiled_kernel_elementwise", "predicated_kernel_elementwise"]
    listed = [s for s in skipped if getattr(s, "what", "") == "the copies at lines 34 and 35"]
    assert len(listed) == 1 and "fragment is also used at line 34 (fragment(0) = fragment(1))" in \
        listed[0].why, [getattr(s, "why", "") for s in skipped]                                   # type: ignore


def test_the_threads_origins_are_read_back_as_the_layout_that_gives_them():
    """Random layouts of up to 64 threads: the layout read back from their values gives every one of them; values
    no layout gives (thread 0 not at 0, an uneven step) are refused."""
    rng = random.Random(43)
    for _ in range(300):
        modes = [rng.choice([1, 2, 3, 4]) for _ in range(rng.randrange(1, 4))]
        strides = [rng.choice([0, 1, 2, 4, 8, 32, 128]) for _ in modes]
        layout = Layout(tuple(modes), tuple(strides))
        origins = tuple(int(layout(t)) for t in range(int(layout.size())))     # type: ignore[arg-type]
        found = thread_layout(origins)
        assert tuple(int(found(t)) for t in range(len(origins))) == origins, (layout, found)   # type: ignore
    for bad in ((1, 2, 3, 4), (0, 1, 2, 4), (0, 1, 5)):
        with pytest.raises(NotRead):
            thread_layout(bad)


needs_compiler = pytest.mark.skipif(WHEEL is None or _wheel_examples() is None,
                                    reason="needs g++ and the nvidia-cutlass wheel's headers and examples")


@needs_compiler
def test_cutes_tiled_copy_tutorial_is_verified_as_compiled(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    examples = _wheel_examples()
    assert examples is not None
    spec = tmp_path / "t.yaml"
    assert main(["import-kernel", "--compile", str(examples / "cute" / "tutorial" / "tiled_copy.cu"),
                 "-o", str(spec)]) == ExitCode.OK
    assert spec.read_text(encoding="utf-8").count("    elementwise:") == 1     # copy_kernel_vectorized's
    code, out = _prove(spec, capsys)
    assert code == ExitCode.OK and "1 verified" in out, out


@needs_compiler
def test_cutes_tiled_copy_if_tutorial_is_verified_as_compiled(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    """tiled_copy_if.cu: its two kernels' copy_if between local_tiles (one through registers), their predicates
    stated as assumed; the copy_if of its `#if 0` branch is not read."""
    examples = _wheel_examples()
    assert examples is not None
    spec = tmp_path / "t.yaml"
    assert main(["import-kernel", "--compile", str(examples / "cute" / "tutorial" / "tiled_copy_if.cu"),
                 "-o", str(spec)]) == ExitCode.OK
    assert spec.read_text(encoding="utf-8").count("    elementwise:") == 2
    code, out = _prove(spec, capsys)
    assert code == ExitCode.OK and "2 verified" in out and out.count("predicates (thr_tile_P) are not read") == 2, out


def regenerate_notes() -> None:          # pragma: no cover - run by hand when the kernels or the headers change
    """Write tests/data/cpp/elementwise_copy.notes from a compile of elementwise_copy.cu."""
    from verifier.importer.compile_notes import compile_notes
    from verifier.importer.compiled import toolchain
    tools = toolchain(None, None)
    text = SOURCE.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / SOURCE.name
        f.write_text(text, encoding="utf-8")
        notes = [n for n in compile_notes(tools, f, instrument(text), {}, use_cache=False).notes
                 if n.function.startswith(KERNELS)]
    head = ("# made by: tests/test_elementwise_copy_import.py::regenerate_notes (g++ 12.2, the nvidia-cutlass 4.2.0.0 "
            f"wheel's headers): the types GCC spelled for {' and '.join(KERNELS)}'s declarations; line, column, "
            "instantiation, type\n")
    NOTES.write_text(head + "".join(f"{n.line}\t{n.column}\t{n.function}\t{n.type_text}\n" for n in notes),
                     encoding="utf-8")


def test_a_copy_by_an_instruction_that_moves_values_between_threads_is_not_read_as_element_wise():
    """Only element copies pair a thread's value v with its own value v: a TiledCopy of ldmatrix (values cross the
    warp) is refused with the reason, one of UniversalCopy passes, a copy of no atom passes."""
    from types import SimpleNamespace

    from verifier.importer.cpp_types import parse_type
    from verifier.importer.elementwise_copy import per_thread
    from verifier.importer.instrument import Statement
    types = {"ldsm": "cute::TiledCopy<cute::Copy_Atom<cute::SM75_U32x4_LDSM_N, cute::half_t>, cute::Layout<"
                     "cute::C<32>, cute::C<1> >, cute::tuple<cute::C<8>, cute::C<8> > >",
             "universal": "cute::Copy_Atom<cute::UniversalCopy<cutlass::uint128_t, cutlass::uint128_t>, float>"}
    reader = SimpleNamespace(value=lambda name, line: SimpleNamespace(node=parse_type(types[name])))
    at = Statement("k", 7, 3, "copy(ldsm, a, b)")
    with pytest.raises(NotRead, match="made by ldsm .SM75_U32x4_LDSM_N., not an element copy"):
        per_thread(reader, at, "ldsm")                                   # type: ignore[arg-type]
    per_thread(reader, at, "universal")                                  # type: ignore[arg-type]
    per_thread(reader, at, None)                                         # type: ignore[arg-type]
