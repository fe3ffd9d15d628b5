"""Theorem 37 (the thread-slice kind): which slice of a tiled copy each thread takes, from the coordinate the kernel
hands get_slice.  Both sides of each rule, the expression language, and bad input."""
from __future__ import annotations

from pathlib import Path

import pytest

from verifier.engine.runner import run_check
from verifier.kinds.slice.coordinate import CoordinateError, read_coordinate
from verifier.outcome import Verdict
from verifier.specfile.loader import load_spec
from verifier.specfile.model import SpecError

SPEC = """version: 2
name: slices
include: [{atoms}]
checks:
  c:
    copy: {copy}
    value_type: {value_type}
    slice: {{threads: {threads}, block: {block}, coordinate: "{coordinate}"{runs}}}
"""
ATOMS = Path(__file__).resolve().parent.parent / "specs" / "atoms"
COPIES = {"tmem": ("SM100_TMEM_LOAD_32dp32b64x", "float", "sm100_tmem.yaml"),
          "ldsm": ("SM75_U32x4_LDSM_N", "half_t", "sm75.yaml"),
          "cp_async": ("SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>", "half_t", "sm80_copy.yaml")}


def _verdict(tmp_path: Path, copy: str, threads: int, block: int, coordinate: str,
             runs: str | None = None) -> tuple[Verdict, str]:
    name, value_type, atoms = COPIES[copy]
    path = tmp_path / "s.yaml"
    path.write_text(SPEC.format(atoms=ATOMS / atoms, copy=f'"{name}"', value_type=value_type, threads=threads,
                                block=block, coordinate=coordinate, runs=f', runs: "{runs}"' if runs else ""),
                    encoding="utf-8")
    spec = load_spec(path, allow_outside=True)
    result = run_check(spec, spec.checks["c"])
    words = " ".join(f"{i.witness.actual if i.witness else ''}" for t in result.theorems for i in t.items)
    return result.verdict, " ".join([words, *result.info, *(t.reason or "" for t in result.theorems)])


@pytest.mark.parametrize("copy,threads,block,coordinate,verdict,says", [
    # the epilogue warps 4..7 of a 256-thread block, sliced at tid % 128 or tid - 128: their own lane quarters
    ("tmem", 128, 256, "tid % 128", Verdict.VERIFIED, "threads 0..127"),
    ("tmem", 128, 256, "tid - 128", Verdict.VERIFIED, "threads 128..255"),
    ("tmem", 128, 128, "0", Verdict.REFUTED, "threads 0 and 1 both take slice 0"),
    ("tmem", 128, 128, "tid ^ 32", Verdict.REFUTED, "thread 0 takes slice 32"),        # warp 0 in warp 1's lanes
    # warps 1..4 of a 160-thread block sliced at tid - 32: slices at their own threads but in another lane quarter
    ("tmem", 128, 160, "tid - 32", Verdict.REFUTED, "slice"),
    ("tmem", 128, 96, "tid", Verdict.REFUTED, "the copy has 128 threads, the block 96"),
    ("ldsm", 32, 128, "tid % 32", Verdict.VERIFIED, "threads 0..31"),
    ("ldsm", 128, 128, "tid ^ 1", Verdict.REFUTED, "thread 0 takes slice 1"),          # rows swapped in each matrix
    # a lane-keeping permutation of the warps: every slice taken at a lane ldmatrix allows, not each at its own thread
    ("ldsm", 64, 128, "tid ^ 32", Verdict.UNSUPPORTED, "not each its own"),
    # element-wise: every slice moved, but thread u's registers are slice u ^ 1's (right alone, wrong if paired)
    ("cp_async", 128, 128, "tid ^ 1", Verdict.UNSUPPORTED, "not each its own"),
    ("cp_async", 128, 128, "tid % 64", Verdict.REFUTED, "threads 0 and 64 both take slice 0"),
    ("cp_async", 128, 128, "tid + 1", Verdict.REFUTED, "thread 127 takes slice 128"),
    ("cp_async", 128, 256, "tid / 2", Verdict.REFUTED, "both take slice"),
    ("cp_async", 128, 128, "tid % (tid - tid)", Verdict.REFUTED, "undefined at tid = 0"),
])
def test_a_block_of_threads_takes_each_slice_once_at_its_own_place(tmp_path: Path, copy: str, threads: int,
                                                                  block: int, coordinate: str, verdict: Verdict,
                                                                  says: str):
    got, words = _verdict(tmp_path, copy, threads, block, coordinate)
    assert got is verdict and says in words, (got, words)


@pytest.mark.parametrize("copy,threads,block,coordinate,runs,verdict,says", [
    # the epilogue warps 4..7 of a 256-thread block: sliced at tid - 128 right, at tid wrong (which no block without
    # `runs` shows: threads 0..127 would take those slices)
    ("cp_async", 128, 256, "tid - 128", "floordiv(tid, 32) >= 4", Verdict.VERIFIED,
     "threads 128..255 of the block run"),
    ("cp_async", 128, 256, "tid", "floordiv(tid, 32) >= 4", Verdict.REFUTED, "thread 128 takes slice 128"),
    ("cp_async", 128, 256, "tid", None, Verdict.VERIFIED, "threads 0..127"),
    ("cp_async", 128, 256, "tid", "tid < 128", Verdict.VERIFIED, "threads 0..127 of the block run"),
    # two warpgroups each running the copy, each its own group of slices
    ("tmem", 128, 384, "tid % 128", "not tid < 128", Verdict.VERIFIED, "threads 128..383 of the block run"),
    ("tmem", 128, 384, "tid - 128", "not tid < 128", Verdict.REFUTED, "thread 256 takes slice 128"),
    # warps 2..5 sliced at tid - 64: each its own slice, but warp 2 in lane quarter 0
    ("tmem", 128, 256, "tid - 64", "tid >= 64 and tid < 192", Verdict.REFUTED, "whose place differs"),
    # half the copy's threads run it: slices 64..127 moved by no thread
    ("cp_async", 128, 256, "tid", "tid < 64", Verdict.REFUTED, "no thread takes slice 64"),
    # two warps apart: every slice once, but the group is not consecutive threads
    ("cp_async", 64, 256, "tid % 64", "tid < 32 or tid >= 224", Verdict.UNSUPPORTED, "not each its own"),
    ("cp_async", 128, 128, "tid", "tid > 1000", Verdict.UNSUPPORTED, "no thread of the 128-thread block"),
    # a 256-thread copy run under both branches of a warp condition: all its threads, each its own slice
    ("cp_async", 256, 256, "tid", "(floordiv(tid, 32) < 4) or (not (floordiv(tid, 32) < 4))", Verdict.VERIFIED,
     "threads 0..255 of the block run"),
    ("cp_async", 128, 128, "tid", "1 if 128 / (tid - 5) else 0", Verdict.UNSUPPORTED, "undefined"),
])
def test_the_threads_that_run_the_copy_take_its_slices_in_groups(tmp_path: Path, copy: str, threads: int, block: int,
                                                                 coordinate: str, runs: str | None, verdict: Verdict,
                                                                 says: str):
    got, words = _verdict(tmp_path, copy, threads, block, coordinate, runs)
    assert got is verdict and says in words, (got, words)


@pytest.mark.parametrize("text,tid,value", [
    ("tid % 128", 130, 2), ("(tid - 128) % 64", 100, -28),       # C's remainder: the dividend's sign
    ("(tid - 129) / 2", 0, -64), ("floordiv(tid - 129, 2)", 0, -65), ("tid ^ 32", 33, 1), ("tid & 31", 70, 6),
    ("tid | 1", 4, 5), ("tid << 1", 3, 6), ("tid >> 5", 70, 2), ("-tid", 3, -3), ("7", 99, 7),
    # conditions: 1 true, 0 false, as in C
    ("floordiv(tid, 32) >= 4", 128, 1), ("floordiv(tid, 32) >= 4", 127, 0), ("not tid < 4", 3, 0),
    ("tid < 4 and tid > 1", 2, 1), ("tid < 1 or tid > 5", 3, 0), ("1 if tid < 4 else 2", 9, 2), ("tid != 3", 3, 0),
])
def test_the_coordinate_language_is_c_s_integer_arithmetic(text: str, tid: int, value: int):
    assert read_coordinate(text)(tid) == value


@pytest.mark.parametrize("text", ["tid ** 2", "x + 1", "tid < 1 < 2", "tid in (1, 2)", "__import__('os')", "tid +",
                                  "1.5", "floordiv(tid)", "max(tid, 1)", "tid " + "+ 1 " * 300])
def test_a_coordinate_outside_the_language_is_refused(text: str):
    with pytest.raises(CoordinateError):
        read_coordinate(text)


@pytest.mark.parametrize("slice_text,match", [
    ('{threads: 128, block: 128, coordinate: "tid ** 2"}', "'coordinate'"),
    ('{threads: 0, block: 128, coordinate: "tid"}', "'threads'"),
    ('{threads: 128, block: 2048, coordinate: "tid"}', "'block'"),
    ('{threads: 128, coordinate: "tid"}', "needs 'block'"),
    ('{threads: 128, block: 128, coordinate: "tid", lanes: 4}', "lanes"),
    ('{threads: 128, block: 128, coordinate: "tid", runs: "tid < 1 < 2"}', "'runs'"),
    ('{threads: 128, block: 128, coordinate: "tid", runs: [1]}', "'runs'"),
])
def test_a_bad_slice_is_bad_input_at_its_line(tmp_path: Path, slice_text: str, match: str):
    path = tmp_path / "s.yaml"
    path.write_text(f"""version: 2
name: slices
include: [{ATOMS / 'sm80_copy.yaml'}]
checks:
  c:
    copy: "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"
    value_type: half_t
    slice: {slice_text}
""", encoding="utf-8")
    with pytest.raises(SpecError, match=match) as e:
        load_spec(path, allow_outside=True)
    assert e.value.loc is not None and e.value.loc.line >= 6


def test_a_block_of_more_than_one_dimension_leaves_the_slices_unread():
    """threadIdx.x is not a thread's index in a 2-D block: the reader writes no slice check (it lists the slice)."""
    from verifier.dsl.mlir_text import read_module
    from verifier.dsl.thread_coordinate import Untraced, block_threads
    from verifier.kinds.slice.config import MAX_BLOCK
    text = ("gpu.module @m {{\n  gpu.func @k() kernel attributes {{nvvm.reqntid = array<i32: {x}, {y}, 1>}} {{\n"
            "    gpu.return\n  }}\n}}\n")
    assert block_threads(read_module(text.format(x=192, y=1), "t.mlir").kernels()[0]) == 192
    assert isinstance(block_threads(read_module(text.format(x=64, y=2), "t.mlir").kernels()[0]), Untraced)
    bare = "gpu.module @m {\n  gpu.func @k() kernel {\n    gpu.return\n  }\n}\n"
    assert block_threads(read_module(bare, "t.mlir").kernels()[0]) == MAX_BLOCK


CTA_SPEC = """version: 2
name: cta_slices
checks:
  c:
    copy: {copy}
    value_type: half_t
    slice: {{threads: {threads}, block: {block}, coordinate: "{coordinate}", unit: cta}}
"""


@pytest.mark.parametrize("threads,block,coordinate,verdict,says", [
    # a multicast load's 4 slices, CTA u loading slice u for all
    (4, 4, "tid", Verdict.VERIFIED, "the 4 CTAs take the 4 slices of the tile of SM90_TMA_LOAD in order"),
    # the coordinate the same in every CTA: slices 1..3 by none
    (4, 4, "0", Verdict.REFUTED, "CTAs 0 and 1 both take slice 0"),
    # a plain load writes its own CTA's tile alone: 1 of the 2 slices reaches each tile
    (2, 1, "tid", Verdict.REFUTED, "no CTA takes slice 1"),
    (2, 2, "tid + 1", Verdict.REFUTED, "CTA 1 takes slice 2, outside"),
    # two groups of 2 along a cluster of 4 (two multicast rows), each in order
    (2, 4, "tid % 2", Verdict.VERIFIED, "in order"),
    (2, 2, "1 - tid", Verdict.UNSUPPORTED, "not each its own"),
])
def test_the_ctas_that_share_a_tile_take_its_slices(tmp_path: Path, threads: int, block: int, coordinate: str,
                                                    verdict: Verdict, says: str):
    path = tmp_path / "c.yaml"
    path.write_text(CTA_SPEC.format(copy="SM90_TMA_LOAD", threads=threads, block=block, coordinate=coordinate),
                    encoding="utf-8")
    spec = load_spec(path, allow_outside=True)
    result = run_check(spec, spec.checks["c"])
    words = " ".join([*(f"{i.witness.actual if i.witness else ''}" for t in result.theorems for i in t.items),
                      *result.info, *(t.reason or "" for t in result.theorems)])
    assert result.verdict is verdict and says in words, (result.verdict, words)


@pytest.mark.parametrize("slice_text,copy,match", [
    ('{threads: 2, block: 2, coordinate: "tid", unit: cta, runs: "tid < 1"}', "SM90_TMA_LOAD", "'runs'"),
    ('{threads: 2, block: 2, coordinate: "tid", unit: warp}', "SM90_TMA_LOAD", "'unit'"),
    ('{threads: 2, block: 2, coordinate: "tid", unit: cta}', '"SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"', "TMA copy"),
])
def test_a_bad_cta_slice_is_bad_input(tmp_path: Path, slice_text: str, copy: str, match: str):
    path = tmp_path / "s.yaml"
    path.write_text(f"""version: 2
name: slices
include: [{ATOMS / 'sm80_copy.yaml'}]
checks:
  c:
    copy: {copy}
    value_type: half_t
    slice: {slice_text}
""", encoding="utf-8")
    with pytest.raises(SpecError, match=match):
        load_spec(path, allow_outside=True)
