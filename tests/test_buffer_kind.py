"""Theorem 23 (the buffer kind): each case of tests/specs/buffer_agreement.yaml gets the verdict it documents, and
refutes with the claim that owns its mistake; the spec keys are validated; explain traces one element."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from spec_report import documented_report
from verifier.commands.cli import main
from verifier.kinds.buffer.config import FIXED_AFTER_WAIT, STAGE_INDICES, WAIT_OFFSETS
from verifier.specfile import SpecError, load_spec

SPEC = Path(__file__).parent / "specs" / "buffer_agreement.yaml"
ATOMS = Path(__file__).resolve().parent.parent / "specs" / "atoms" / "sm80_copy.yaml"
# the claim (by its words) each refuted case fails first
FAILS_ON = {
    "same_pointer_view": "lies inside the 65536-byte allocation",
    "reader_unswizzled": "at the byte the writer stored it",
    "offset_swizzle_against_pointer_swizzle_on_a_16_byte_base": "lies inside the 65536-byte allocation",
    "element_swizzle_moved_onto_the_pointer": "at the byte the writer stored it",
    "epilogue_stores_collide": "distinct elements (c0,c1) at distinct bytes",
    "view_past_the_allocation": "lies inside the 65536-byte allocation",
    "scale_factors_broadcast_by_the_writer_only": "at the byte the writer stored it",
    "scale_factors_broadcast_but_rows_collide": "distinct elements (e0,e1) at distinct bytes",
    "int4_pointer_swizzle_read_as_byte_element_swizzle": "at the bit the writer stored it",
    "int4_rows_collide": "distinct elements (c0,c1) at distinct bits",
    "tma_store_along_a_strided_global_mode": "runs its dimension 0 along the global tensor's contiguous mode",
    "read_but_never_written": "something the kernel runs writes the bytes the reader reads",
}


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    return documented_report(SPEC)


def test_every_case_is_as_documented(report: dict[str, dict[str, object]]):
    spec = load_spec(SPEC, allow_outside=True)
    for name, check in spec.checks.items():
        want = "refuted" if check.expect == "fail" else "verified"
        assert report[name]["verdict"] == want, name


@pytest.mark.parametrize("name", sorted(FAILS_ON))
def test_each_refutation_fails_the_claim_that_owns_the_mistake(name: str, report: dict[str, dict[str, object]]):
    failure = json.dumps(report[name]["counterexamples"])
    assert FAILS_ON[name] in failure, failure[:400]


def test_explain_traces_an_element_through_both_views(capsys: pytest.CaptureFixture[str]):
    assert main(["explain", str(SPEC), "--check", "reader_unswizzled", "--coord", "2,0,0", "--base", "0x400"]) == 0
    out = capsys.readouterr().out
    assert "element (2,0,0) of the buffer, base 0x400" in out
    assert "writer address" in out and "reader address" in out
    assert "the writer stored it at" in out


def test_a_broadcast_writer_names_each_element_once(report: dict[str, dict[str, object]]):
    """A writer's stride-0 mode (a scale factor for 16 K elements) makes its coordinates there one element: the
    distinctness claim ranges over the elements (e0, e1: 0 along the broadcast) and its counterexample's chain shows
    the views' own coordinate of each."""
    from verifier.engine.runner import run_check
    from verifier.kinds.buffer.chain import BufferChain
    from verifier.kinds.buffer.theorems import build_buffer
    from verifier.theorems.claims import Trace
    spec = load_spec(SPEC, allow_outside=True)
    verified = report["scale_factors_broadcast_along_k"]
    assert verified["verdict"] == "verified"
    check = spec.checks["scale_factors_broadcast_but_rows_collide"]
    setup = build_buffer(check)       # type: ignore[arg-type]
    assert setup.broadcast == 1 and [(v.name, v.size) for v in setup.elements] == [("e0", 512), ("e1", 4)]
    r = run_check(spec, check)
    item = next(i for t in r.theorems for i in t.items if i.witness is not None)
    assert "distinct elements (e0,e1)" in item.title and "1 stride-0 mode" in item.title
    point = item.witness.point
    # element e0 of the mode ((32,4),(16,4)) with extents 1 along the 16: coordinate ((e0 % 32, e0 / 32 % 4), (0, e0
    # / 128)), the views' index (e0 % 128) + 2048 (e0 / 128)
    e0 = point["e0"]
    title, lines = BufferChain(setup).lines(Trace.BUFFER_ELEMENT, point)
    assert title.startswith(f"element ({e0 % 128 + 2048 * (e0 // 128)},{point['e1']})")
    assert any("writer layout" in line.label for line in lines)


def test_a_buffer_nothing_writes_has_no_element_to_explain_or_draw(capsys: pytest.CaptureFixture[str],
                                                                   tmp_path: Path):
    assert main(["explain", str(SPEC), "--check", "read_but_never_written", "--coord", "0,0"]) == 2
    assert "a buffer nothing writes" in capsys.readouterr().err
    from verifier.kinds.registry import kind_of
    check = load_spec(SPEC, allow_outside=True).checks["read_but_never_written"]
    assert kind_of(check).views(check) == ()


def test_explain_without_a_coordinate_says_what_to_give(capsys: pytest.CaptureFixture[str]):
    assert main(["explain", str(SPEC), "--check", "reader_unswizzled", "--lane", "0", "--value", "0"]) == 2
    assert "give --coord with 3 coordinates" in capsys.readouterr().err


@pytest.mark.parametrize("buffer, why", [
    ("{bytes: 64, align: 3, writer: {at: 0, layout: '8:1'}, reader: {at: 0, layout: '8:1'}}", "power of two"),
    ("{bytes: 64, align: 16, writer: {at: 0, layout: '8:1'}, reader: {at: 0, layout: '(4,2):(1,4)'}}",
     "must name the same coordinates"),
    ("{bytes: 64, align: 16, writer: {at: 64, layout: '8:1'}, reader: {at: 0, layout: '8:1'}}", "byte offset"),
    ("{bytes: 64, align: 16, writer: {at: 0, layout: '8:1'}}", "missing 'reader'"),
    ("{bytes: 64, align: 16, writer: {at: 0, layout: '8:1'}, reader: {at: 0, layout: '8:1', gmem: '(64,64):(1,64)'}}",
     "gives 'gmem' and 'tma_dim0' together"),
    ("{bytes: 64, align: 16, writer: {at: 0, layout: '8:1'}, reader: {at: 0, layout: '8:1', gmem: '(64,64):(1,64)', "
     "tma_dim0: 2}}", "must be a mode of its global tensor, 0..1, not int 2"),
    # a buffer nothing writes: `unwritten` in place of the writer, a text
    ("{bytes: 64, align: 16, writer: {at: 0, layout: '8:1'}, reader: {at: 0, layout: '8:1'}, unwritten: 'x'}",
     "gives 'writer' (the view its writer stores through) or 'unwritten'"),
    ("{bytes: 64, align: 16, reader: {at: 0, layout: '8:1'}}", "gives 'writer' (the view its writer stores through) "
                                                               "or 'unwritten'"),
    ("{bytes: 64, align: 16, reader: {at: 0, layout: '8:1'}, unwritten: 3}",
     "'unwritten' of 'buffer' of check 'c' must be a string"),
    ("{bytes: 64, align: 16, reader: {at: 0, layout: '8:1'}, unwritten: ''}", "must be a text saying why nothing"),
])
def test_bad_buffer_keys_are_refused_with_their_place(buffer: str, why: str, tmp_path: Path):
    spec = tmp_path / "b.yaml"
    spec.write_text(f"""version: 2
name: b
include: [{SPEC.parent.parent.parent / 'specs' / 'atoms' / 'sm80_copy.yaml'}]
checks:
  c:
    copy: "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"
    value_type: half_t
    buffer: {buffer}
""", encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec, allow_outside=True)
    assert why in str(e.value) and str(e.value).startswith(str(spec) + ":")


_STAGED = """version: 2
name: staged
include: [{atoms}]
checks:
  c:
    copy: "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"
    value_type: half_t
    buffer:
      bytes: {bytes}
      align: 128
      writer: {{by: w, at: 0, layout: "{layout}"}}
      reader: {{by: r, at: 0, layout: "{layout}"}}
{stages}"""


def _proves_as(path: Path, verdict: str, says: str) -> None:
    """The spec's check `c` has `verdict`; where `says`, a refuted item's title or witness says it."""
    from verifier.engine.runner import run_check
    from verifier.specfile.loader import load_spec
    spec = load_spec(path, allow_outside=True)
    result = run_check(spec, spec.checks["c"])
    assert result.verdict.value == verdict, [(t.status, t.reason) for t in result.theorems]
    if says:
        text = " ".join(f"{i.title} {i.witness.actual if i.witness else ''}" for t in result.theorems for i in t.items
                        if i.status.value == "refuted")
        assert says in text, text


@pytest.mark.parametrize("layout,bytes_,stages,verdict,says", [
    ("((64,32),(1,3)):((32,1),(0,2048))", 12288, None, "verified", ""),
    ("((64,32),(1,3)):((32,1),(0,2048))", 12288, 3, "verified", ""),
    # the pipeline cycles through 4 stages, the views hold 3: stage 3 lies past the allocation
    ("((64,32),(1,3)):((32,1),(0,2048))", 12288, 4, "refuted", "inside the 12288-byte allocation"),
    # a one-stage view of stride 0 under a 2-stage pipeline: both in-flight stages in the same bytes
    ("((64,32),(1,1)):((32,1),(0,0))", 4096, 2, "refuted", "stages 0 and 1 both at offset 0"),
    ("((64,32),3):((32,1),2048)", 16384, 4, "verified", ""),             # room for a fourth stage: verified
])
def test_a_buffer_is_proved_at_every_stage_the_pipeline_takes(tmp_path: Path, layout: str, bytes_: int,
                                                              stages: int | None, verdict: str, says: str):
    """`stages:` (the DSL reader writes it where a kernel's pipeline cycles through more stages than its shared views
    hold): theorem 23 proves the views at every stage index the pipeline takes, as CuTe reads a mode past its
    extent, and that those stages lie at distinct offsets (survey 5's DSL mutants t0_06, t2_01, efc02)."""
    path = tmp_path / "s.yaml"
    path.write_text(_STAGED.format(atoms=ATOMS, bytes=bytes_, layout=layout,
                                   stages=f"      stages: {stages}\n" if stages is not None else ""), encoding="utf-8")
    _proves_as(path, verdict, says)


def test_stages_that_do_not_fill_a_stage_mode_are_bad_input(tmp_path: Path):
    from verifier.specfile.loader import load_spec
    from verifier.specfile.model import SpecError
    path = tmp_path / "s.yaml"
    path.write_text(_STAGED.format(atoms=ATOMS, bytes=12288, layout="((64,32),(2,3)):((32,1),(4096,2048))",
                                   stages="      stages: 3\n"), encoding="utf-8")
    with pytest.raises(SpecError, match="do not fill"):
        load_spec(path, allow_outside=True)


def _stage_kernel(body: str) -> tuple[Any, Any, Any]:
    """A kernel of `body` (its operations, %c0 and %c1 given) read as the DSL reader reads one: the module, its
    flow and the stage indices of its slices."""
    from verifier.dsl.flow import read_flow
    from verifier.dsl.mlir_text import read_module
    from verifier.dsl.stage_index import StageIndexes
    text = ("gpu.module @m {\n  gpu.func @k() kernel {\n    %c0 = arith.constant 0 : i32\n"
            "    %c1 = arith.constant 1 : i32\n" + body + "    gpu.return\n  }\n}\n")
    module = read_module(text, "t.mlir")
    flow = read_flow(module, module.kernels()[0])
    return module, flow, StageIndexes(flow)


def test_a_pipeline_s_stage_index_is_read_back_from_its_advance():
    """The DSL's PipelineState.advance (index + 1, back to 0 at the stage count) and a counter modulo N give the
    stage indices a view is sliced at; another form is not read."""
    module, _, indexes = _stage_kernel("""\
    %c2 = arith.constant 2 : i32
    %c4 = arith.constant 4 : i32
    %c9 = arith.constant 9 : i32
    %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%idx = %c0) -> (i32) {
      %n = arith.addi %idx, %c1 : i32
      %w = arith.cmpi eq, %n, %c4 : i32
      %s = arith.select %w, %c0, %n : i32
      %m = arith.remsi %i, %c2 : i32
      %k = arith.muli %i, %c2 : i32
      scf.yield %s : i32
    }
""")
    by_name = {v.name: v for op in module.kernels()[0].ops for v in op.results}
    idx = next(v for v in module.bound if v.name == "%idx")
    found = indexes.index_bound(idx)
    assert found is not None and found.stages == 4
    modulo = indexes.index_bound(by_name["%m"])
    assert modulo is not None and modulo.stages == 2
    assert indexes.index_bound(by_name["%k"]) is None


_TAKEN = """version: 2
name: taken
include: [{atoms}]
checks:
  c:
    copy: "SM80_CP_ASYNC_CACHEGLOBAL<uint128_t>"
    value_type: half_t
    buffer:
      bytes: 16384
      align: 128
      writer: {{by: w, at: 0, layout: "((64,32),4):((32,1),2048)"{written}}}
      reader: {{by: r, at: 0, layout: "((64,32),4):((32,1),2048)"{read}}}
"""


@pytest.mark.parametrize("field,written,read,verdict,says", [
    (STAGE_INDICES, "[0, 1, 2, 3]", "[3, 2, 1, 0]", "verified", ""),
    (STAGE_INDICES, "[0, 2]", "[2, 0]", "verified", ""),
    (STAGE_INDICES, None, "[0]", "verified", ""),         # one side's stages not stated: nothing to compare
    # the reader always reads stage 0 while the writer cycles through four (survey 7's b31_08, pd10)
    (STAGE_INDICES, "[0, 1, 2, 3]", "[0]", "refuted", "the writer fills stages 0..3, the reader reads stage 0: "
                                                      "stages 1..3 filled and never read"),
    # the reader cycles through two stages the writer never fills one of
    (STAGE_INDICES, "[0]", "[0, 1]", "refuted", "stage 1 read and never filled"),
    (WAIT_OFFSETS, "[0]", "[0]", "verified", ""),
    (WAIT_OFFSETS, None, "[0]", "verified", ""),
    # both sides take the stage after the one whose barrier they waited on: the stages renamed alike, harmless
    (WAIT_OFFSETS, "[1]", "[1]", "verified", ""),
    (WAIT_OFFSETS, None, "[1]", "verified", ""),          # one side linked: nothing to compare it with
    # the MMA reads (index + 1) % S after waiting on the barrier at index (survey 7's hg15)
    (WAIT_OFFSETS, "[0]", "[1]", "refuted", "the reader's slices take the stage 1 past the one whose barrier their "
                                            "thread waited on: a barrier's stage is not the same on both sides"),
    # ... in some k-blocks only: one side at two offsets
    (WAIT_OFFSETS, "[0]", "[0, 1]", "refuted", "the reader's slices are not all at one offset from their waits"),
    # the producer fills the stage after the one whose empty barrier it waited on
    (WAIT_OFFSETS, "[2]", "[0]", "refuted", "the writer's slices take the stage 2 past the one whose barrier their "
                                            "thread waited on"),
    # the first k-block's copy reads stage 0 right after the pipeline waited on a cycling stage (survey 7's gf11)
    (FIXED_AFTER_WAIT, None, "[0]", "refuted", "a slice takes stage 0 right after its pipeline waited on the "
                                                "barrier of a cycling stage"),
])
def test_the_stages_the_sides_state_are_judged(tmp_path: Path, field: str, written: str | None, read: str,
                                               verdict: str, says: str):
    """What the DSL reader states of each side's stages: `stage_indices` on both sides (a buffer's only writer and
    only reader) -- theorem 23 proves the writer fills exactly the stages the reader reads, the stage left over its
    witness; `wait_offsets` (a side whose slices are linked to barrier waits) -- one offset a side, the same on both
    sides (a stage renamed alike on both is harmless); `fixed_after_wait` -- none (a fixed stage where the pipeline
    cycles)."""
    path = tmp_path / "s.yaml"
    path.write_text(_TAKEN.format(atoms=ATOMS, written=f", {field}: {written}" if written else "",
                                  read=f", {field}: {read}"), encoding="utf-8")
    _proves_as(path, verdict, says)


@pytest.mark.parametrize("field,value,why", [
    (STAGE_INDICES, "[]", "must be a list of distinct stage indices in 0..1023, not"),
    (STAGE_INDICES, "3", "must be a list of distinct stage indices in 0..1023, not"),
    (STAGE_INDICES, "[0, 0]", "item 1 repeats stage 0"),
    (STAGE_INDICES, "[0, -1]", "item 1 is int -1"),
    (STAGE_INDICES, "[0, x]", "item 1 is"),
    (WAIT_OFFSETS, "[]", "must be a list of distinct offsets in stages in 0..1023, not"),
    (WAIT_OFFSETS, "[1, 1]", "item 1 repeats offset 1"),
    (WAIT_OFFSETS, "[0, -1]", "item 1 is int -1"),
    (FIXED_AFTER_WAIT, "[0, 0]", "item 1 repeats stage 0"),
])
def test_bad_stage_lists_are_refused_with_their_place(tmp_path: Path, field: str, value: str, why: str):
    _refused_at(tmp_path, "", f", {field}: {value}", 12, why)


def _refused_at(tmp_path: Path, written: str, read: str, line: int, why: str) -> None:
    """`_TAKEN` with these fields added to the writer and the reader is bad input at `line`, saying `why`."""
    from verifier.specfile.loader import load_spec
    from verifier.specfile.model import SpecError
    path = tmp_path / "s.yaml"
    path.write_text(_TAKEN.format(atoms=ATOMS, written=written, read=read), encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(path, allow_outside=True)
    assert why in str(e.value) and str(e.value).startswith(f"{path}:{line}:"), str(e.value)


def test_a_slice_is_linked_to_the_barrier_waits_of_its_index_s_base():
    """`StageIndexes.waited`: a slice's index and an mbarrier wait's barrier index read as (base + offset) mod N;
    a slice of the waited index takes offset 0, one of (index + 1) % N offset 1, one behind a wait (which may take a
    stage waited on a step before) and one of another base are not linked."""
    module, _, indexes = _stage_kernel("""\
    %c2 = arith.constant 2 : i32
    %c4 = arith.constant 4 : i32
    %c9 = arith.constant 9 : i32
    %bars = arith.constant 0 : i32
    %t = arith.constant 0 : i32
    %u = arith.constant 0 : i32
    %v = arith.constant 0 : i32
    %w = arith.constant 0 : i32
    %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%idx = %c0) -> (i32) {
      %tuple = cute.make_int_tuple(%idx) : (i32) -> !cute.int_tuple<"?">
      %ptr = cute.add_offset(%bars, %tuple) : (i32, !cute.int_tuple<"?">) -> i32
      %llvm = builtin.unrealized_conversion_cast %ptr : i32 to !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %llvm, %c0, %c9 : !llvm.ptr<3>, i32, i32
      %same = cute.make_coord(%idx) : (i32) -> !cute.coord<"(_,?)">
      %a = cute.slice(%t, %same) : i32, !cute.coord<"(_,?)">
      %n = arith.addi %idx, %c1 : i32
      %m = arith.remsi %n, %c4 : i32
      %next = cute.make_coord(%m) : (i32) -> !cute.coord<"(_,?)">
      %b = cute.slice(%u, %next) : i32, !cute.coord<"(_,?)">
      %p = arith.subi %idx, %c1 : i32
      %prev = cute.make_coord(%p) : (i32) -> !cute.coord<"(_,?)">
      %c = cute.slice(%v, %prev) : i32, !cute.coord<"(_,?)">
      %other = cute.make_coord(%i) : (i32) -> !cute.coord<"(_,?)">
      %d = cute.slice(%w, %other) : i32, !cute.coord<"(_,?)">
      %s = arith.select %c2, %c0, %n : i32
      scf.yield %s : i32
    }
""")
    values = {v.name: v for op in module.kernels()[0].ops for v in op.results}
    same, after = indexes.waited([values["%t"]]), indexes.waited([values["%u"]])
    assert same is not None and same.offsets == {0} and same.linked == 1 and not same.past
    assert after is not None and after.offsets == {1} and "takes the stage 1 past" in after.past[0]
    both = indexes.waited([values["%t"], values["%u"]])
    assert both is not None and both.offsets == {0, 1} and both.linked == 2
    assert indexes.waited([values["%v"]]) is None           # behind the wait: not stated
    assert indexes.waited([values["%w"]]) is None           # another base: not linked
    form = indexes.form(values["%m"])
    assert (form.base.name, form.offset, form.modulus) == ("%idx", 1, 4)


def test_a_fixed_stage_right_after_a_cycling_wait_is_read():
    """A slice of a linked side at a static stage index, in the block of a wait on the side's barriers at a cycling
    index and after it, takes a fixed stage where the pipeline waited on the cycling one (`fixed`); a static slice
    before the wait, or in another block, is not."""
    module, _, indexes = _stage_kernel("""\
    %c9 = arith.constant 9 : i32
    %bars = arith.constant 0 : i32
    %t = arith.constant 0 : i32
    %u = arith.constant 0 : i32
    %first = cute.make_coord() : () -> !cute.coord<"(_,0)">
    %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%idx = %c0) -> (i32) {
      %early = cute.slice(%u, %first) : i32, !cute.coord<"(_,0)">
      %tuple = cute.make_int_tuple(%idx) : (i32) -> !cute.int_tuple<"?">
      %ptr = cute.add_offset(%bars, %tuple) : (i32, !cute.int_tuple<"?">) -> i32
      %llvm = builtin.unrealized_conversion_cast %ptr : i32 to !llvm.ptr<3>
      nvvm.mbarrier.try_wait.parity %llvm, %c0, %c9 : !llvm.ptr<3>, i32, i32
      %zero = cute.slice(%t, %first) : i32, !cute.coord<"(_,0)">
      %same = cute.make_coord(%idx) : (i32) -> !cute.coord<"(_,?)">
      %a = cute.slice(%t, %same) : i32, !cute.coord<"(_,?)">
      %b = cute.slice(%u, %same) : i32, !cute.coord<"(_,?)">
      scf.yield %idx : i32
    }
    %late = cute.slice(%u, %first) : i32, !cute.coord<"(_,0)">
""")
    values = {v.name: v for op in module.kernels()[0].ops for v in op.results}
    fixed = indexes.waited([values["%t"]])
    assert fixed is not None and fixed.fixed == {0} and fixed.offsets == {0}
    assert "takes stage 0 after the barrier of a cycling stage was waited on" in fixed.past[0]
    apart = indexes.waited([values["%u"]])             # its static slices: before the wait, outside its block
    assert apart is not None and not apart.fixed and apart.offsets == {0}


@pytest.mark.parametrize("tensors,verdict,says", [
    ('tma_map_of: "host argument 0", tma_tiles_of: "host argument 0"', "verified", ""),
    # A's tensor map at B's tile coordinates (survey 7's pd07)
    ('tma_map_of: "host argument 0", tma_tiles_of: "host argument 1"', "refuted",
     "its tensor map is made from host argument 0, the tiles its partition takes are host argument 1's: it copies "
     "the map's tensor at another tensor's tile coordinates"),
])
def test_a_tma_partition_takes_the_tiles_of_its_map_s_tensor(tmp_path: Path, tensors: str, verdict: str, says: str):
    """`tma_map_of` and `tma_tiles_of` on a TMA side (the DSL reader names the host tensors an atom's tensor map and
    the coordinate tensor its partition takes were made from): theorem 23 proves them one tensor."""
    path = tmp_path / "s.yaml"
    path.write_text(_TAKEN.format(atoms=ATOMS, written=", " + tensors, read=""), encoding="utf-8")
    _proves_as(path, verdict, says)


@pytest.mark.parametrize("stores,verdict,says", [
    ('["host argument 2"]', "verified", ""),
    # B's atom made from the output tensor the kernel's TMA store writes (survey 7's b4_12)
    ('["host argument 2", "host argument 0"]', "refuted",
     "its tensor map is made from host argument 0, which the kernel's TMA stores write"),
])
def test_an_mma_operand_s_tma_load_reads_no_tensor_the_kernel_stores(tmp_path: Path, stores: str, verdict: str,
                                                                      says: str):
    """`tma_stores_write` on a TMA load the tensor core reads (the DSL reader states the tensors the kernel's TMA
    stores write): theorem 23 proves the load's map made from none of them."""
    path = tmp_path / "s.yaml"
    tensors = f', tma_map_of: "host argument 0", tma_tiles_of: "host argument 0", tma_stores_write: {stores}'
    path.write_text(_TAKEN.format(atoms=ATOMS, written=tensors, read=""), encoding="utf-8")
    _proves_as(path, verdict, says)


@pytest.mark.parametrize("side,why", [
    (', tma_stores_write: ["host argument 2"]', "'tma_stores_write' of"),
    (', tma_map_of: "a", tma_tiles_of: "a", tma_stores_write: ["b", "b"]', "item 1 repeats 'b'"),
    (', tma_map_of: "a", tma_tiles_of: "a", tma_stores_write: []', "must be a list of distinct names"),
])
def test_bad_tma_stores_write_is_refused_with_its_place(tmp_path: Path, side: str, why: str):
    _refused_at(tmp_path, side, "", 11, why)


@pytest.mark.parametrize("tiles,verdict,says", [
    ('mn_tile_at: ["%17 (line 66)"], other_mn_tile_at: ["%18 (line 67)"]', "verified", ""),
    # A's M tile taken at the coordinate B's N tile is taken at (survey 7's hg16)
    ('mn_tile_at: ["%18 (line 67)"], other_mn_tile_at: ["%18 (line 67)", "%3 (line 9)"]', "refuted",
     "its M (A) or N (B) tiles and the other operand's are both taken at %18 (line 67): every CTA multiplies A's "
     "tile m by B's tile n = m"),
])
def test_an_mma_operand_takes_its_tiles_apart_from_the_other_operand_s(tmp_path: Path, tiles: str, verdict: str,
                                                                        says: str):
    """`mn_tile_at` and `other_mn_tile_at` on an MMA operand's TMA load (the DSL reader states the values A's loads
    take their M tiles at and B's their N tiles at): theorem 23 proves none shared."""
    path = tmp_path / "s.yaml"
    path.write_text(_TAKEN.format(atoms=ATOMS, written=", " + tiles, read=""), encoding="utf-8")
    _proves_as(path, verdict, says)


@pytest.mark.parametrize("side,why", [
    (', tma_map_of: "host argument 0"', "gives 'tma_map_of' and 'tma_tiles_of' together"),
    (', mn_tile_at: ["%1 (line 2)"]', "gives 'mn_tile_at' and 'other_mn_tile_at' together"),
])
def test_a_tma_side_gives_both_of_a_pair_or_neither(tmp_path: Path, side: str, why: str):
    _refused_at(tmp_path, side, "", 11, why)


def test_the_stages_a_side_takes_are_its_slices_union_and_unknown_when_used_otherwise():
    """`StageIndexes.taken`: the union of a tensor's slices' stage indices (a static index, a counter modulo N);
    None where a use is not such a slice (the whole tensor copied, or sliced keeping its stage mode)."""
    module, _, indexes = _stage_kernel("""\
    %c2 = arith.constant 2 : i32
    %c9 = arith.constant 9 : i32
    %t = arith.constant 0 : i32
    %u = arith.constant 0 : i32
    %w = arith.constant 0 : i32
    %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%x = %c0) -> (i32) {
      %m = arith.remsi %i, %c2 : i32
      %coord = cute.make_coord(%m) : (i32) -> !cute.coord<"(_,?)">
      %a = cute.slice(%t, %coord) : i32, !cute.coord<"(_,?)">
      %b = cute.slice(%u, %coord) : i32, !cute.coord<"(_,?)">
      scf.yield %x : i32
    }
    %c3 = cute.make_coord() : () -> !cute.coord<"(_,3)">
    %d = cute.slice(%t, %c3) : i32, !cute.coord<"(_,3)">
    %keep = cute.make_coord() : () -> !cute.coord<"(0,_)">
    %e = cute.slice(%u, %keep) : i32, !cute.coord<"(0,_)">
    %f = cute.slice(%w, %c3) : i32, !cute.coord<"(_,3)">
    %g = arith.addi %w, %c1 : i32
""")
    values = {v.name: v for op in module.kernels()[0].ops for v in op.results}
    taken = indexes.taken([values["%t"]])
    assert taken is not None and taken.indices == {0, 1, 3}
    assert any("a counter modulo 2" in h for h in taken.how) and any("a static stage index 3" in h for h in taken.how)
    assert indexes.taken([values["%u"]]) is None            # sliced keeping its stage mode as well
    assert indexes.taken([values["%w"]]) is None            # used by an op that is no slice
    assert indexes.taken([values["%t"], values["%w"]]) is None


def test_a_persistent_kernel_s_stage_index_and_a_static_one_are_read():
    """A persistent kernel's k-loop carries the pipeline index its tile loop carries (from 0): its advance still
    bounds it; a slice at a static stage index k reaches k + 1 stages (survey 6's bp_t01 kind and fmha's O)."""
    module, _, indexes = _stage_kernel("""\
    %c3 = arith.constant 3 : i32
    %c9 = arith.constant 9 : i32
    %t = arith.constant 0 : i32
    %r = scf.for %i = %c0 to %c9 step %c1 iter_args(%outer = %c0) -> (i32) {
      %q = scf.for %j = %c0 to %c9 step %c1 iter_args(%idx = %outer) -> (i32) {
        %n = arith.addi %idx, %c1 : i32
        %w = arith.cmpi eq, %n, %c3 : i32
        %s = arith.select %w, %c0, %n : i32
        scf.yield %s : i32
      }
      scf.yield %q : i32
    }
    %coord = cute.make_coord() : () -> !cute.coord<"(_,_,1)">
    %v = cute.slice(%t, %coord) : i32, !cute.coord<"(_,_,1)">
""")
    idx = next(v for v in module.bound if v.name == "%idx")
    found = indexes.index_bound(idx)
    assert found is not None and found.stages == 3
    t = next(v for op in module.kernels()[0].ops for v in op.results if v.name == "%t")
    static = indexes.of_view(t)
    assert static is not None and static.stages == 2


def test_views_in_one_field_of_a_shared_storage_struct_are_proved_inside_it():
    """The DSL allocates a kernel's shared storage as one struct (`smem.struct_fields`): a buffer check whose views
    lie in one field is proved inside that field's bytes, so a stage that spills into the next field (survey 6's
    hd_t08: sA's field shorter than its 7 stages) is refuted, not taken for the struct's."""
    from verifier.dsl.flow import read_flow
    from verifier.dsl.mlir_text import read_module
    fields = '["bar:112:0", "sA:4096:1024", "sB:8192:5120"]'
    text = ("gpu.module @m {\n  gpu.func @k() kernel {\n"
            f"    %smem = cute.memref.alloca() {{smem.partition_id = 1 : i32, smem.struct_fields = {fields}}} : "
            '!cute.memref<i8, smem, align<1024>, "13312:1">\n    gpu.return\n  }\n}\n')
    module = read_module(text, "t.mlir")
    flow = read_flow(module, module.kernels()[0])
    (alloc,) = flow.allocations.values()
    assert [(f.name, f.bytes, f.offset) for f in alloc.fields] == [("bar", 112, 0), ("sA", 4096, 1024),
                                                                   ("sB", 8192, 5120)]
    field = alloc.field_at(2048)
    assert field is not None and field.name == "sA" and alloc.field_at(5120) is not field
    assert alloc.field_at(500) is None


def test_a_while_loop_s_do_region_takes_the_values_its_condition_hands_on():
    """A persistent kernel carries its pipeline index through an scf.while: the `do` region's block arguments are the
    values its scf.condition hands on, so the index inside is followed to the while's first value (survey 6's
    bp_t01: A given one stage fewer than its persistent pipeline, refuted once the index is read)."""
    module, _, indexes = _stage_kernel("""\
    %c5 = arith.constant 5 : i32
    %true = arith.constant true
    %w:2 = scf.while (%a = %true, %b = %c0) : (i1, i32) -> (i1, i32) {
      scf.condition(%a) %a, %b : i1, i32
    } do {
    ^bb0(%x: i1, %y: i32):
      %r = scf.for %j = %c0 to %c5 step %c1 iter_args(%idx = %y) -> (i32) {
        %n = arith.addi %idx, %c1 : i32
        %e = arith.cmpi eq, %n, %c5 : i32
        %s = arith.select %e, %c0, %n : i32
        scf.yield %s : i32
      }
      scf.yield %x, %r : i1, i32
    }
""")
    idx = next(v for v in module.bound if v.name == "%idx")
    found = indexes.index_bound(idx)
    assert found is not None and found.stages == 5
    y = next(v for v in module.bound if v.name == "%y")
    assert module.bound[y].name == "%b"          # the do region's %y is the condition's %b
