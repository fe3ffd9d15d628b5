"""Fuzzing `prove` in-process: random but well-formed spec documents (atoms with random layouts, types and shapes;
checks pairing them with random shared-memory tiles, warp layouts and value types).  Every run ends in a verdict
or a bad-input error: exit code 0, 1, 2 or 3, never an internal error (4), never an exception, each bounded."""
import io
import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from verifier.outcome import ExitCode
from verifier.commands.prove import prove_main
from verifier.symbolic.decide import Settings

ROOT = Path(__file__).parent.parent
ATOMS = ROOT / "specs" / "atoms"
TYPES = ["half_t", "bfloat16_t", "float", "tfloat32_t", "int8_t", "uint8_t", "double", "int32_t", "16", "8"]
KNOWN_MMA = ["SM80_16x8x16_F16F16F16F16_TN", "SM80_16x8x8_F16F16F16F16_TN", "SM80_16x8x16_F32F16F16F32_TN"]
KNOWN_COPY = ["SM75_U32x4_LDSM_N", "SM75_U32x2_LDSM_N", "SM75_U32x1_LDSM_N", "SM75_U16x8_LDSM_T",
              "SM90_U32x2_STSM_N", "UniversalCopy<uint32_t>", "UniversalCopy<uint128_t>", "DefaultCopy"]
INSTRUCTIONS = ["mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
                "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
                "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", "ldmatrix.sync.aligned.m8n8.x4.shared.b16",
                "stmatrix.sync.aligned.m8n8.x2.trans.shared.b16", "cp.async.ca.shared.global", "no.such.op", ""]

leaf = st.sampled_from([1, 2, 4, 8, 16, 32, 3, 5])
stride = st.sampled_from([0, 1, 2, 4, 8, 16, 32, 64, 128, 3, 40])


def _mode(depth: int):
    if depth == 0:
        return st.tuples(leaf, stride).map(lambda p: (str(p[0]), str(p[1])))
    return st.lists(_mode(depth - 1), min_size=1, max_size=3).map(
        lambda ms: ("(" + ",".join(m[0] for m in ms) + ")", "(" + ",".join(m[1] for m in ms) + ")"))


def layout_text(rank: int = 2):
    modes = st.lists(st.one_of(_mode(0), _mode(1)), min_size=rank, max_size=rank)
    return modes.map(lambda ms: "(" + ",".join(m[0] for m in ms) + "):(" + ",".join(m[1] for m in ms) + ")")


def tv_layout():
    """(thr, val) layouts whose thread mode has 32 threads, as the loader demands of atom operands."""
    thr = st.sampled_from(["(4,8)", "32"]).flatmap(
        lambda s: st.tuples(st.just(s), st.sampled_from(["(32,1)", "(1,4)", "(16,1)", "(2,64)"] if s == "(4,8)"
                                                       else ["1", "2", "0", "4"])))
    val = _mode(1)
    return st.tuples(thr, val).map(lambda p: f"({p[0][0]},{p[1][0]}):({p[0][1]},{p[1][1]})")


smem = st.one_of(layout_text(2), st.tuples(st.sampled_from(["Sw<3,3,3>", "Sw<2,3,3>", "Sw<1,2,3>"]),
                                           layout_text(2)).map(lambda p: f"{p[0]} o {p[1]}"))


@st.composite
def spec_documents(draw):
    lines = ["version: 1", "name: fuzz",
             f"include: [{ATOMS}/sm75.yaml, {ATOMS}/sm80_f16.yaml, {ATOMS}/sm90.yaml, {ATOMS}/generic.yaml]",
             "mma_atoms:"]
    m, n, k = (draw(st.sampled_from([8, 16, 32, 4, 12])) for _ in range(3))
    lines += ["  FUZZ_MMA:", f"    instruction: \"{draw(st.sampled_from(INSTRUCTIONS))}\"",
              f"    shape_mnk: [{m}, {n}, {k}]", '    thr_id: "32:1"',
              "    types: {" + ", ".join(f"{x}: {draw(st.sampled_from(TYPES))}" for x in "abcd") + "}"]
    lines += [f'    {x}: "{draw(tv_layout())}"' for x in "abc"]
    lines += ["copy_atoms:", "  FUZZ_COPY:", f"    instruction: \"{draw(st.sampled_from(INSTRUCTIONS))}\"",
              '    thr_id: "32:1"', f'    src: "(32,{draw(st.sampled_from([16, 32, 64, 128]))}):(1,32)"',
              f'    dst: "{draw(tv_layout())}"', "    ref: dst", "checks:"]
    for i in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["mma", "copy", "tiled", "tiled"]))
        mma = draw(st.sampled_from(KNOWN_MMA + ["FUZZ_MMA"]))
        copy = draw(st.sampled_from(KNOWN_COPY + ["FUZZ_COPY"]))
        lines.append(f"  c{i}:")
        if kind in ("mma", "tiled"):
            lines.append(f"    mma: {mma}")
        if kind in ("copy", "tiled"):
            lines += [f'    copy: "{copy}"', f"    value_type: {draw(st.sampled_from(TYPES))}"]
        if kind == "tiled":
            lines += [f"    operand: {draw(st.sampled_from('ABC'))}", f'    smem: "{draw(smem)}"']
            if draw(st.booleans()):
                lines.append(f"    atom_layout: [{draw(st.sampled_from([1, 2]))}, {draw(st.sampled_from([1, 2]))}, 1]")
        if draw(st.booleans()):
            lines.append(f"    expect: {draw(st.sampled_from(['pass', 'fail', 'undecided', 'unsupported']))}")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                  HealthCheck.too_slow])
@given(spec_documents())
def test_prove_never_crashes_on_well_formed_documents(tmp_path, doc):
    f = tmp_path / "fuzz.yaml"
    f.write_text(doc)
    out = io.StringIO()
    code = prove_main([str(f)], "json", None, None, Settings(timeout_s=2.0, cross_check=True), out=out,
                      allow_outside=True)
    assert code in (0, 1, 2, 3), doc + out.getvalue()[-3000:]


yaml_text = st.one_of(
    st.text(max_size=400),
    st.lists(st.sampled_from(["version: 1", "name: x", "checks:", "  c:", "    mma: X", "mma_atoms:", "  X:",
                              "    a: \"(4,8):(8,1)\"", "include: [a.yaml]", "- [", "&a [*a]", "? [1]", ": {",
                              "    copy: Y", "    value_type: half_t", "\t", "'", "!!int x", "*b"]),
             max_size=20).map("\n".join))


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(yaml_text)
def test_prove_never_crashes_on_random_yaml(tmp_path, text):
    f = tmp_path / "random.yaml"
    f.write_bytes(text.encode("utf-8", errors="replace"))
    out = io.StringIO()
    code = prove_main([str(f)], "text", None, None, Settings(timeout_s=2.0), out=out)
    assert code in (0, 1, 2, 3)


def test_a_tile_whose_widened_coordinates_cannot_be_partitioned_is_decided_not_an_error(tmp_path):
    """Found by the fuzzer: CuTe partitions this 16x2 tile, but the algebra refused the widened coordinate tensor
    theorem 10 built (shape_div 8 vs 3), an internal error.  Theorem 10 now decides it: refuted (the stride-0
    smem layout), like the other smem theorems; no theorem is an internal error."""
    f = tmp_path / "fuzz.yaml"
    f.write_text(f"""version: 1
name: fuzz
include: [{ATOMS}/sm75.yaml]
mma_atoms:
  FUZZ_MMA:
    instruction: ""
    shape_mnk: [12, 12, 4]
    thr_id: "32:1"
    types: {{a: 16, b: int32_t, c: 16, d: bfloat16_t}}
    a: "((4,8),(32)):((16,1),(40))"
    b: "(32,(2,2,4)):(0,(4,4,8))"
    c: "(32,(8,32,1)):(4,(64,4,128))"
checks:
  c0:
    mma: FUZZ_MMA
    copy: "SM75_U32x2_LDSM_N"
    value_type: tfloat32_t
    operand: B
    smem: "Sw<3,3,3> o ((16),2):((0),0)"
    expect: fail
""")
    out = io.StringIO()
    code = prove_main([str(f)], "json", None, None, Settings(timeout_s=2.0), out=out, allow_outside=True)
    assert code == ExitCode.OK, out.getvalue()[-2000:]     # refuted, as the spec expects
    assert '"status": "error"' not in out.getvalue()
    statuses = {t["id"]: t["status"] for t in json.loads(out.getvalue())["checks"][0]["theorems"]}
    assert statuses["smem.in_bounds"] == "refuted" and statuses["smem.injective"] == "refuted"
