"""Typed outcomes end to end: the hostile configurations of issue 8 get the verdict they deserve, internal errors
are errors (exit 4) that `expect: fail` never turns into a pass, a failing description never changes a verdict,
and the command line refuses bad options with exit 2."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from verifier.commands.cli import main
from verifier.outcome import ExitCode, Status, Verdict
from verifier.specfile import load_spec
from verifier.symbolic.decide import Settings, forget
from verifier.engine import runner
from verifier.theorems.catalog import TheoremId
from verifier.engine.runner import run_check

ROOT = Path(__file__).parent.parent
ATOMS = ROOT / "specs" / "atoms"
SEED = "specs/sm80_f16.yaml"
T = TheoremId


def write(tmp_path: Path, body: str, name: str = "spec.yaml") -> Path:
    f = tmp_path / name
    f.write_text(f"version: 1\nname: t\ninclude: [{ATOMS}/sm75.yaml, {ATOMS}/sm80_f16.yaml, {ATOMS}/sm80_b1.yaml]\n"
                 + body)
    return f


def run(*argv: str, capsys=None) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr() if capsys is not None else None
    return code, (out.out if out else ""), (out.err if out else "")


SEED_CHECK = """  c:
    mma: SM80_16x8x16_F16F16F16F16_TN
    operand: A
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "(16,16):(16,1)"
"""


# --- the wrong verdicts of issue 8 ------------------------------------------------------------------------

@pytest.mark.parametrize("smem, atom_layout, theorem", [
    ('"(16,16):(8,1)"', None, T.SMEM_INJECTIVE),
    ('"(8,8):(8,1)"', None, T.SMEM_IN_BOUNDS),
    ('"(8,16):(16,1)"', None, T.SMEM_IN_BOUNDS),
    ('"(16,16):(16,1)"', "[2, 1, 1]", T.SMEM_IN_BOUNDS),
])
def test_unsound_shared_tiles_are_refuted(tmp_path, smem, atom_layout, theorem):
    body = SEED_CHECK.replace('"(16,16):(16,1)"', smem)
    if atom_layout:
        body = body.replace("    operand: A\n", f"    atom_layout: {atom_layout}\n    operand: A\n")
    spec = load_spec(write(tmp_path, "checks:\n" + body), allow_outside=True)
    r = run_check(spec, spec.checks["c"], Settings(cross_check=True))
    assert r.verdict is Verdict.REFUTED
    tr = next(t for t in r.theorems if t.id is theorem)
    assert tr.status is Status.REFUTED
    w = tr.first_failure().witness
    assert w.suspect.loc is not None and w.suspect.loc.line == spec.checks["c"].field_locs["smem"].line


def test_mma_types_that_are_not_the_instructions_are_refuted(tmp_path):
    f = write(tmp_path, """mma_atoms:
  WRONG:
    instruction: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
    shape_mnk: [16, 8, 16]
    thr_id: "32:1"
    types: {a: float, b: half_t, c: half_t, d: half_t}
    a: "((4,8),(2,2,2)):((32,1),(16,8,128))"
    b: "((4,8),(2,2)):((16,1),(8,64))"
    c: "((4,8),(2,2)):((32,1),(16,8))"
checks:
  c:
    mma: WRONG
""")
    spec = load_spec(f, allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    tr = next(t for t in r.theorems if t.id is T.MMA_TYPES)
    assert r.verdict is Verdict.REFUTED and tr.status is Status.REFUTED
    item = tr.first_failure()
    assert "the a type" in item.title and item.witness.expected == ".f16"
    assert item.witness.suspect.loc == spec.mma_atoms["WRONG"].field_locs["types.a"]


def test_the_b1_mutant_is_refuted_with_its_report(tmp_path):
    """A mutated A layout of the m16n8k256 .b1 atom: refuted, the counterexample described (no RecursionError)."""
    f = write(tmp_path, """mma_atoms:
  B1_MUTANT:
    instruction: mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.xor.popc
    shape_mnk: [16, 8, 256]
    thr_id: "32:1"
    types: {a: uint1b_t, b: uint1b_t, c: int32_t, d: int32_t}
    a: "((4,8),(32,2,2)):((512,1),(16,2048,8))"
    b: "((4,8),(32,2)):((256,1),(8,1024))"
    c: "((4,8),(2,2)):((32,1),(16,8))"
checks:
  c:
    mma: B1_MUTANT
    operand: A
    expect: fail
""")
    spec = load_spec(f, allow_outside=True)
    r = run_check(spec, spec.checks["c"], Settings(cross_check=True))
    assert r.verdict is Verdict.REFUTED and r.ok
    w = next(t for t in r.theorems if t.id is T.MMA_MATCHES_INSTRUCTION).first_failure().witness
    assert w.point and w.failing and not w.description_error


def test_a_huge_atom_answers_quickly(tmp_path):
    """shape_mnk [65536, 8, 16]: decided (refuted: the layout covers 256 of 2**20 coordinates) within seconds."""
    f = write(tmp_path, """mma_atoms:
  BIG:
    instruction: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
    shape_mnk: [65536, 8, 16]
    thr_id: "32:1"
    types: {a: half_t, b: half_t, c: half_t, d: half_t}
    a: "((4,8),(2,2,2)):((32,1),(16,8,128))"
    b: "((4,8),(2,2)):((16,1),(8,64))"
    c: "((4,8),(2,2)):((32,1),(16,8))"
checks:
  big:
    mma: BIG
""")
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", str(f), "--timeout", "2", "--allow-outside"],
                       capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == ExitCode.WRONG, p.stdout + p.stderr
    assert time.perf_counter() - t0 < 60
    assert "never reached" in p.stdout


# --- internal errors ----------------------------------------------------------------------------------------

def _crash(*args, **kwargs):
    raise RuntimeError("boom")


@pytest.fixture
def replaced(monkeypatch):
    """monkeypatch, for a test that replaces a part of the prover: nothing decided before it is given again (a
    shared group's decision, engine/runner.py, is dropped with the remembered decisions)."""
    forget()
    yield monkeypatch
    forget()


def test_an_internal_error_is_exit_4_and_never_a_documented_pass(tmp_path, replaced, capsys):
    f = write(tmp_path, "checks:\n" + SEED_CHECK + "    expect: fail\n")
    from verifier.kinds.tiled import theorems as tiled_theorems
    replaced.setattr(tiled_theorems, "end_to_end", _crash)
    code, out, _ = run("prove", str(f), "--allow-outside", capsys=capsys)
    assert code == ExitCode.INTERNAL_ERROR
    assert "ERROR" in out and "INTERNAL ERROR" in out and "RuntimeError: boom" in out
    code, out, _ = run("prove", str(f), "--allow-outside", "--format", "json", capsys=capsys)
    doc = json.loads(out)
    c = doc["checks"][0]
    assert c["verdict"] == "error" and c["outcome"] == "error" and doc["summary"]["error"] == 1
    e2e = next(t for t in c["theorems"] if t["id"] == "end_to_end")
    assert e2e["status"] == "error"


def test_an_internal_error_is_never_a_refusal(tmp_path, replaced):
    """Exceptions other than CuTe's rules are errors: the old runner called every exception 'CuTe would not
    compile this'."""
    f = write(tmp_path, "checks:\n" + SEED_CHECK)
    from verifier.kinds.tiled import setup as tiled_setup
    replaced.setattr(tiled_setup, "build_tiled", _crash)
    spec = load_spec(f, allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    assert r.verdict is Verdict.ERROR
    assert {t.status for t in r.theorems if t.number in range(4, 11)} == {Status.ERROR}


def test_a_limit_of_the_tool_is_unsupported_never_a_refusal(tmp_path, replaced, capsys):
    """PortLimit (an operand form or tiler the port does not implement) is the tool's limit: every theorem it
    stops is unsupported (exit 3), never refused by CuTe's rule (a refutation); CuTe's own rule stays a refusal."""
    from verifier.algebra.inttuple import AlgebraError, PortLimit
    from verifier.kinds.tiled import setup as tiled_setup

    def limit(*args, **kwargs):
        raise PortLimit("logical_divide: unsupported tiler", "(3,5)")
    f = write(tmp_path, "checks:\n" + SEED_CHECK)
    spec = load_spec(f, allow_outside=True)
    replaced.setattr(tiled_setup, "build_tiled", limit)
    r = run_check(spec, spec.checks["c"])
    stopped = [t for t in r.theorems if t.number in range(4, 11)]
    assert r.verdict is Verdict.UNSUPPORTED and {t.status for t in stopped} == {Status.UNSUPPORTED}
    assert all("not supported by this tool: logical_divide: unsupported tiler" in t.reason for t in stopped)
    assert run("prove", str(f), "--allow-outside", "--no-cache", capsys=capsys)[0] == ExitCode.UNDECIDED

    def rule(*args, **kwargs):
        raise AlgebraError("TiledCopy uses too few vals for selected CopyAtom")
    from verifier.kinds.cute_objects import refused_as
    replaced.setattr(tiled_setup, "build_tiled", refused_as("make_tiled_copy_A", "copy")(rule))
    r = run_check(spec, spec.checks["c"])
    assert r.verdict is Verdict.REFUTED
    assert {t.status for t in r.theorems if t.number in range(4, 11)} == {Status.REFUSED}


def test_a_failing_description_degrades_only_the_description(tmp_path, monkeypatch):
    """The verdict of a refuted check survives a crash while describing its counterexample."""
    f = write(tmp_path, "checks:\n" + SEED_CHECK.replace("(16,16):(16,1)", "(16,16):(20,1)"))
    monkeypatch.setattr(runner, "evaluate_at", _crash)
    spec = load_spec(f, allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    assert r.verdict is Verdict.REFUTED
    w = next(t for t in r.theorems if t.id is T.COPY_ADDRESSING).first_failure().witness
    assert "RuntimeError: boom" in w.description_error and w.point


def test_refused_by_cute_names_the_rule_and_the_field(tmp_path):
    """Copy_Atom<SM75_U16x8_LDSM_T, tfloat32_t>: CuTe refuses the value type; refused, not an error."""
    f = write(tmp_path, "checks:\n" + SEED_CHECK.replace("SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T")
              .replace("half_t\n", "tfloat32_t\n"))
    spec = load_spec(f, allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    assert r.verdict is Verdict.REFUTED
    refused = [t for t in r.theorems if t.status is Status.REFUSED]
    assert refused and all("CopyOperation is not valid" in t.items[0].reason for t in refused)
    w = refused[0].items[0].witness
    assert w.suspect.loc == spec.checks["c"].field_locs["value_type"]


# --- the command line ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["1e-9", "0", "-1", "nan", "inf", "-inf", "1e300", "x"])
def test_bad_timeouts_are_exit_2(value, capsys):
    with pytest.raises(SystemExit) as e:
        main(["prove", SEED, "--timeout", value])
    assert e.value.code == ExitCode.BAD_INPUT
    assert "--timeout" in capsys.readouterr().err


def test_a_millisecond_timeout_is_honoured_and_undecided_is_never_proved(capsys):
    code, out, _ = run("prove", SEED, "--timeout", "0.001", "--format", "json", capsys=capsys)
    doc = json.loads(out)
    assert code in (ExitCode.OK, ExitCode.UNDECIDED)
    for c in doc["checks"]:
        for t in c["theorems"]:
            for o in t["obligations"]:
                if o["procedure"] == "z3-bitvector" and o["status"] == "proved":
                    assert o["reason"] is None


def test_jobs_are_capped_at_the_cpu_count(monkeypatch, capsys):
    from verifier.engine import proving
    seen = {}
    real = proving.run_all

    def spy(selected, settings, jobs=1, debug=False, cache=None):
        seen["jobs"] = jobs
        return real(selected, settings, 1, debug, cache)

    def parallel_spy(paths, names, settings, jobs, *rest):
        seen["jobs"] = jobs
        return real_parallel(paths, names, settings, 1 if jobs < 2 else 2, *rest)
    real_parallel = proving.prove_in_parallel
    monkeypatch.setattr(proving, "run_all", spy)
    monkeypatch.setattr(proving, "prove_in_parallel", parallel_spy)
    code, _, _ = run("prove", SEED, "--check", "ldsm_x4_a_kmajor", "--jobs", "100000", capsys=capsys)
    assert code == ExitCode.OK and seen["jobs"] <= (os.cpu_count() or 1)


def test_output_never_overwrites_a_spec(tmp_path, capsys):
    f = write(tmp_path, "checks:\n" + SEED_CHECK)
    before = f.read_text()
    code, _, err = run("prove", str(f), "--allow-outside", "--output", str(f), capsys=capsys)
    assert code == ExitCode.BAD_INPUT and "refusing to overwrite" in err and f.read_text() == before
    inc = ATOMS / "sm75.yaml"
    before = inc.read_text()
    code, _, err = run("prove", str(f), "--allow-outside", "--output", str(inc), capsys=capsys)
    assert code == ExitCode.BAD_INPUT and inc.read_text() == before


def test_a_check_typo_gets_a_suggestion_not_a_list(capsys):
    code, _, err = run("prove", SEED, "--check", "ldsm_x4_a_kmajr", capsys=capsys)
    assert code == ExitCode.BAD_INPUT
    assert "did you mean 'ldsm_x4_a_kmajor'" in err and "four_warps" not in err


def test_explain_accepts_a_directory(capsys):
    code, out, err = run("explain", "specs", "--check", "ldsm_x4_a_kmajor", "--lane", "0", "--value", "5",
                         capsys=capsys)
    assert code == ExitCode.OK, err
    assert "F(0,5) = 144 -> A(0,9)" in out and "reads it as A(0,9)" in out


def test_cross_check_flag_reports_the_second_procedure(capsys):
    code, out, _ = run("prove", SEED, "--check", "ldsm_x4_a_kmajor", "--cross-check", "--format", "json",
                       capsys=capsys)
    assert code == ExitCode.OK
    obligations = [o for t in json.loads(out)["checks"][0]["theorems"] for o in t["obligations"]]
    checked = [o for o in obligations if o["cross_check"] and o["cross_check"]["status"]]
    assert checked and all(o["cross_check"]["status"] == o["status"] for o in checked)
    assert all(o["procedure"] in ("z3-bitvector", "enumeration", "strides", "evaluation") for o in obligations)
    assert any(o["procedure"] == "strides" and o["cross_check"]["procedure"] == "enumeration" for o in obligations)


# --- names in every format --------------------------------------------------------------------------------

def test_names_with_markup_characters_stay_well_formed_in_every_format(tmp_path, capsys):
    """A check name with `|`, `<`, `&`, quotes and backticks: Markdown escapes it, JUnit and SARIF stay valid."""
    import xml.etree.ElementTree as ET
    name = "bad|<name>&\"q'`x"
    f = write(tmp_path, "checks:\n" + SEED_CHECK.replace("  c:\n", f"  '{name.replace(chr(39), chr(39) * 2)}':\n")
              .replace("(16,16):(16,1)", "(16,16):(20,1)"))
    code, out, _ = run("prove", str(f), "--allow-outside", "--format", "markdown", capsys=capsys)
    assert code == ExitCode.WRONG
    row = next(line for line in out.splitlines() if line.startswith("| ❌"))
    assert row.count(" | ") == 5 and "\\|" in row          # six cells: the pipe inside the name is escaped
    code, out, _ = run("prove", str(f), "--allow-outside", "--format", "junit", capsys=capsys)
    case = ET.fromstring(out).find(".//testcase")
    assert case is not None and case.get("name") == name
    code, out, _ = run("prove", str(f), "--allow-outside", "--format", "sarif", capsys=capsys)
    assert json.loads(out)["runs"][0]["results"][0]["properties"]["check"] == name
    code, out, _ = run("prove", str(f), "--allow-outside", "--format", "json", capsys=capsys)
    assert json.loads(out)["checks"][0]["check"] == name


def test_the_test_specs_cross_check_without_disagreement(capsys):
    """Every obligation of the test specs, decided by Z3 and again by enumeration: the same answers."""
    code, out, _ = run("prove", "tests/specs", "--cross-check", "--allow-outside", "--format", "json", capsys=capsys)
    doc = json.loads(out)
    assert code == ExitCode.OK and doc["summary"]["error"] == 0
    second_opinions = [o["cross_check"] for c in doc["checks"] for t in c["theorems"] for o in t["obligations"]
               if o["cross_check"] and o["cross_check"]["status"]]
    assert len(second_opinions) > 100
