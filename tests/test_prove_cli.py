"""`python -m verifier prove / explain`: exit codes, report formats, error handling, the seed trace."""
import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
SPEC = "specs/sm80_f16.yaml"


def verifier(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def sm80_json():
    p = verifier("prove", SPEC, "--format", "json")
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)


def test_sm80_f16_is_proved_and_every_mistake_refuted(sm80_json):
    checks = sm80_json["checks"]
    assert sm80_json["summary"]["fail"] == 0 and sm80_json["summary"]["undecided"] == 0
    fails = [c for c in checks if c["expect"] == "fail"]
    assert len(fails) >= 5
    for c in fails:
        assert c["verdict"] == "refuted" and c["counterexamples"], c["check"]
        for cx in c["counterexamples"]:
            assert cx["theorem"] and cx["suspect"]
    for c in checks:
        if c["expect"] == "pass":
            assert c["verdict"] == "verified" and all(t["status"] == "proved" for t in c["theorems"])


def test_text_report_shows_the_counterexample_chain():
    p = verifier("prove", SPEC, "--check", "mistake_mutated_alayout_stride")
    assert p.returncode == 0
    out = p.stdout
    assert "theorem 2 mma.matches_instruction" in out and "smallest counterexample: thread=0 value=2" in out
    assert "right_inverse(R)" in out and "ldmatrix.sync.aligned.m8n8.x4.shared.b16" in out
    assert "suspect:" in out and "specs/sm80_f16.yaml:" in out


def test_unexpected_counterexample_exits_1(tmp_path):
    spec = (ROOT / SPEC).read_text().replace("expect: fail", "expect: pass")
    f = tmp_path / "flipped.yaml"
    f.write_text(spec.replace("include: [atoms/", f"include: [{ROOT}/specs/atoms/").replace(
        ", atoms/", f", {ROOT}/specs/atoms/"))
    p = verifier("prove", str(f), "--check", "mistake_row_pitch_40_bytes", "--allow-outside")
    assert p.returncode == 1
    assert "FAIL" in p.stdout and "REFUTED" in p.stdout


def test_unsupported_exits_3(tmp_path):
    f = tmp_path / "unmodelled.yaml"
    f.write_text(f"""version: 1
name: unmodelled
include: [{ROOT}/specs/atoms/sm50.yaml]
checks:
  shuffle:
    copy: SM50_Shuffle_U32_2x2Trans_XOR1
    value_type: uint32_t
""")
    p = verifier("prove", str(f), "--allow-outside")
    assert p.returncode == 3
    assert "UNDECIDED" in p.stdout and "unsupported" in p.stdout and "no hardware model" in p.stdout
    f.write_text(f.read_text() + "    expect: unsupported\n")
    assert verifier("prove", str(f), "--allow-outside").returncode == 0


def test_malformed_spec_exits_2_with_location_and_no_traceback(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text("version: 1\nname: bad\nmma_atoms:\n  X:\n    a: \"((4,8),(2,2)):((32,1))\"\n  - oops\n")
    p = verifier("prove", str(f))
    assert p.returncode == 2
    assert f"{f}:6:3:" in p.stderr and "Traceback" not in p.stderr + p.stdout


def test_layout_rank_mismatch_in_spec_points_inside_the_string(tmp_path):
    f = tmp_path / "rank.yaml"
    f.write_text(f"""version: 1
name: rank
include: [{ROOT}/specs/atoms/sm75.yaml]
checks:
  c:
    mma: nope
""")
    p = verifier("prove", str(f), "--allow-outside")
    assert p.returncode == 2 and "rank.yaml:6:10: unknown MMA atom 'nope'" in p.stderr


def test_bad_command_line_exits_2():
    assert verifier("prove").returncode == 2
    assert verifier("prove", SPEC, "--format", "pdf").returncode == 2
    assert verifier("prove", SPEC, "--check", "no_such_check").returncode == 2
    assert verifier("prove", "does/not/exist.yaml").returncode == 2


def test_junit_has_one_testcase_per_check(tmp_path):
    out = tmp_path / "junit.xml"
    p = verifier("prove", SPEC, "--format", "junit", "--output", str(out))
    assert p.returncode == 0 and "checks:" in p.stdout
    root = ET.parse(out).getroot()
    cases = root.findall(".//testcase")
    assert len(cases) == 20
    assert all(c.get("classname") == "sm80_f16" for c in cases)
    assert not root.findall(".//failure")


def test_junit_failure_carries_the_counterexample(tmp_path):
    spec = (ROOT / SPEC).read_text().replace("expect: fail", "expect: pass")
    f = tmp_path / "flipped.yaml"
    f.write_text(spec.replace("atoms/", f"{ROOT}/specs/atoms/"))
    p = verifier("prove", str(f), "--format", "junit", "--check", "mistake_n_atom_on_mmajor_smem", "--allow-outside")
    assert p.returncode == 1
    failure = ET.fromstring(p.stdout).find(".//failure")
    assert failure is not None and "smallest counterexample" in failure.text


def test_markdown_report(tmp_path):
    p = verifier("prove", SPEC, "--format", "markdown")
    assert p.returncode == 0
    assert p.stdout.startswith("## CuTe layout verification")
    assert "| ✅ | `ldsm_x4_a_kmajor`" in p.stdout and "refuted as documented" in p.stdout


def test_explain_reproduces_the_seed_article():
    p = verifier("explain", SPEC, "--check", "ldsm_x4_a_kmajor", "--lane", "0", "--value", "5")
    assert p.returncode == 0, p.stderr
    out = p.stdout
    for needle in ("F(0,5) = 144 -> A(0,9)", "D(0,5) = 129", "right_inverse(R)(129) = 160 -> reference (0,5)",
                   "S(16,1) = 129 -> source (16,1): lane 16", "smem offset 9", "0x1012",
                   "layoutS_TV(16,0) = 128 -> A(0,8) -> smem offset 8", "0x1010", "register 2, high half",
                   "value 5 is high half", "dst2", "a2 high half", "reads it as A(0,9)"):
        assert needle in out, needle


def test_explain_rejects_out_of_range_slots():
    p = verifier("explain", SPEC, "--check", "ldsm_x4_a_kmajor", "--lane", "32", "--value", "0")
    assert p.returncode == 2 and "lane must be in [0,32)" in p.stderr


def test_contract_check_of_the_shared_tools():
    tool = ROOT.parent / "shared" / "tools" / "contract_check.py"
    if not tool.exists():
        pytest.skip("../shared is not beside this checkout")
    p = subprocess.run([sys.executable, str(tool)], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stdout + p.stderr


def test_explain_a_store_from_accumulator_to_shared_memory():
    p = verifier("explain", "tests/specs/theorem_cases.yaml", "--check", "good_store_c_stsm", "--lane", "5",
                 "--value", "3")
    assert p.returncode == 0, p.stderr
    for needle in ("F(5,3) = 57 -> C(9,3)", "produced it as C(9,3)", "stmatrix.sync.aligned.m8n8.x2.shared.b16",
                   "lane 9 gives the row address", "smem offset 75"):
        assert needle in p.stdout, needle


def test_the_command_line_exits_at_once_but_not_under_a_profiler(tmp_path):
    """`python -m verifier` ends without tearing the interpreter down (its output complete, its exit code kept);
    under a profiler it exits the normal way, so that the profile is written."""
    seed = str(ROOT / "specs" / "sm80_f16.yaml")
    plain = subprocess.run([sys.executable, "-m", "verifier", "prove", seed, "--no-cache", "--format", "json"],
                           capture_output=True, text=True, cwd=ROOT)
    assert plain.returncode == 0 and json.loads(plain.stdout)["summary"]["checks"] == 20
    bad = subprocess.run([sys.executable, "-m", "verifier", "prove", seed, "--no-cache", "--check", "nope"],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 2 and "no check named 'nope'" in bad.stderr
    profile = tmp_path / "run.prof"
    profiled = subprocess.run([sys.executable, "-m", "cProfile", "-o", str(profile), "-m", "verifier", "prove",
                               seed, "--no-cache"], capture_output=True, text=True, cwd=ROOT)
    assert profiled.returncode == 0 and profile.stat().st_size > 0


def test_a_bug_of_the_tool_is_exit_4_not_1():
    """An exception no command turns into a result is an internal error (exit 4) with its traceback, never
    Python's exit code 1, which the command line documents as a counterexample."""
    crash = ("import verifier.commands.cli as cli\n"
             "def broken(argv=None):\n"
             "    raise RuntimeError('boom')\n"
             "cli.main = broken\n"
             "cli.run_command_line()\n")
    p = subprocess.run([sys.executable, "-c", crash], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 4
    assert "Traceback" in p.stderr and p.stderr.splitlines()[-1].startswith("internal error: RuntimeError: boom")


def test_check_builds_only_the_checks_it_proves(tmp_path):
    """`prove --check NAME` reads the bodies of the named checks only: a sweep of other checks is named (its names
    still answer a misspelt --check) but not built, so another check's bad body does not stop it; proving the
    whole file reports that body."""
    spec = tmp_path / "s.yaml"
    spec.write_text(
        f"version: 2\nname: s\ninclude: [{ROOT}/specs/atoms/sm75.yaml, {ROOT}/specs/atoms/sm80_f16.yaml]\nchecks:\n"
        "  target:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n    copy: SM75_U32x4_LDSM_N\n"
        "    value_type: half_t\n    smem: \"(16,16):(16,1)\"\n"
        "  other_{pitch}:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n    copy: SM75_U32x4_LDSM_N\n"
        "    value_type: half_t\n    smem: \"(16,16):({pitch},1)\"\n    sweep:\n      pitch: [16, 24]\n"
        "  broken:\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: Q\n")
    from verifier.specfile.loader import load_specs
    [loaded] = load_specs([spec], allow_outside=True, only=["target"])
    assert list(loaded.checks) == ["target"] and loaded.unbuilt == ["other_16", "other_24", "broken"]
    picked = verifier("prove", str(spec), "--allow-outside", "--check", "target", "--no-cache")
    assert picked.returncode == 0 and "1 checks: 1 as expected" in picked.stdout, picked.stderr
    whole = verifier("prove", str(spec), "--allow-outside", "--no-cache")
    assert whole.returncode == 2 and "operand" in whole.stderr and ":14:" in whole.stderr
    typo = verifier("prove", str(spec), "--allow-outside", "--check", "other_17", "--no-cache")
    assert typo.returncode == 2 and "did you mean 'other_16'" in typo.stderr
    # draw and explain take one check: they build it alone too
    drawn = verifier("draw", str(spec), "--allow-outside", "--check", "target", "-o", str(tmp_path / "t.svg"))
    assert drawn.returncode == 0 and (tmp_path / "t.svg").read_text().startswith("<svg"), drawn.stderr
    told = verifier("explain", str(spec), "--allow-outside", "--check", "target", "--lane", "0", "--value", "0")
    assert told.returncode == 0 and told.stdout, told.stderr
    for command in ("draw", "explain"):
        typo = verifier(command, str(spec), "--allow-outside", "--check", "other_17")
        assert typo.returncode == 2 and "did you mean 'other_16'" in typo.stderr, (command, typo.stderr)
