"""Theorem 23 (the buffer kind): each case of tests/specs/buffer_agreement.yaml gets the verdict it documents, and
refutes with the claim that owns its mistake; the spec keys are validated; explain traces one element."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.outcome import ExitCode
from verifier.specfile import SpecError, load_spec

SPEC = Path(__file__).parent / "specs" / "buffer_agreement.yaml"
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
}


@pytest.fixture(scope="module")
def report() -> dict[str, dict[str, object]]:
    import subprocess
    import sys
    done = subprocess.run([sys.executable, "-m", "verifier", "prove", str(SPEC), "--format", "json"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr      # every case as documented
    return {str(c["check"]): c for c in json.loads(done.stdout)["checks"]}


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
