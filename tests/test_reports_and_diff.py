"""SARIF (validated against the OASIS 2.1.0 schema), `--jobs`, and `diff` between spec versions."""
import gzip
import json
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

ROOT = Path(__file__).parent.parent
DATA = Path(__file__).parent / "data"
SPECS = Path(__file__).parent / "specs"


def verifier(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def sarif_schema():
    with gzip.open(DATA / "sarif-schema-2.1.0.json.gz", "rt") as f:
        return json.load(f)


def _flipped(tmp_path: Path) -> Path:
    """specs/sm80_f16.yaml with its documented mistakes claimed correct: every mistake becomes a finding."""
    text = (ROOT / "specs" / "sm80_f16.yaml").read_text().replace("expect: fail", "expect: pass")
    out = tmp_path / "flipped.yaml"
    out.write_text(text.replace("atoms/", f"{ROOT}/specs/atoms/"))
    return out


def test_sarif_validates_and_locates_each_finding(tmp_path, sarif_schema):
    out = tmp_path / "report.sarif"
    p = verifier("prove", str(_flipped(tmp_path)), "--format", "sarif", "--output", str(out), "--allow-outside")
    assert p.returncode == 1
    log = json.loads(out.read_text())
    jsonschema.Draft202012Validator(sarif_schema).validate(log)
    results = log["runs"][0]["results"]
    assert len(results) == 8                         # the eight documented mistakes
    rules = {r["id"] for r in log["runs"][0]["tool"]["driver"]["rules"]}
    assert {r["ruleId"] for r in results} <= rules
    pitch = next(r for r in results if r["properties"]["check"] == "mistake_row_pitch_40_bytes")
    assert pitch["ruleId"] == "copy.addressing"
    region = pitch["locations"][0]["physicalLocation"]["region"]
    line = next(i for i, t in enumerate((ROOT / "specs/sm80_f16.yaml").read_text().splitlines(), 1)
                if 'smem: "(16,16):(20,1)"' in t)
    assert region["startLine"] == line                # the smem layout to suspect


def test_sarif_of_a_clean_run_is_valid_and_empty(tmp_path, sarif_schema):
    p = verifier("prove", "specs/sm80_f16.yaml", "--format", "sarif")
    assert p.returncode == 0
    log = json.loads(p.stdout)
    jsonschema.Draft202012Validator(sarif_schema).validate(log)
    assert log["runs"][0]["results"] == []


def test_sarif_points_at_the_cpp_header_of_an_imported_atom(tmp_path, sarif_schema):
    spec = tmp_path / "imported.yaml"
    spec.write_text("""version: 1
name: imported
copy_atoms:
  SM75_U32x1_MOVM_T:
    instruction: movmatrix.sync.aligned.m8n8.trans.b16
    thr_id: "32:1"
    src: "(32,32):(32,1)"
    dst: "(32,32):(32,1)"
    ref: dst
    source: "include/cute/atom/copy_traits_sm75.hpp:144"
checks:
  movm:
    copy: SM75_U32x1_MOVM_T
    value_type: half_t
""")
    p = verifier("prove", str(spec), "--format", "sarif")
    assert p.returncode == 1
    log = json.loads(p.stdout)
    jsonschema.Draft202012Validator(sarif_schema).validate(log)
    loc = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "include/cute/atom/copy_traits_sm75.hpp"
    assert loc["region"]["startLine"] == 144


def test_jobs_give_the_same_verdicts():
    one = json.loads(verifier("prove", "tests/specs/theorem_cases.yaml", "--format", "json").stdout)
    two = json.loads(verifier("prove", "tests/specs/theorem_cases.yaml", "--format", "json", "--jobs", "2").stdout)

    def key(d):
        return [(c["check"], c["verdict"], [cx["point"] for cx in c["counterexamples"]]) for c in d["checks"]]
    assert key(one) == key(two)


def _two_specs(tmp_path: Path, second: str) -> Path:
    """A directory with the seed spec (and its atom libraries) and a second spec file of the given text."""
    d = tmp_path / "specs"
    (d / "atoms").mkdir(parents=True)
    for name in ("sm75.yaml", "sm80_f16.yaml"):
        (d / "atoms" / name).write_text((ROOT / "specs" / "atoms" / name).read_text())
    (d / "a_seed.yaml").write_text((ROOT / "specs" / "sm80_f16.yaml").read_text())
    (d / "b_second.yaml").write_text(second)
    return d


@pytest.mark.parametrize("case", ["bad file", "unknown check", "output onto a spec", "good"])
def test_parallel_loading_judges_the_run_as_a_sequential_load(tmp_path, case):
    """--jobs 2 loads the files in its workers; bad input, a mistyped --check and --output onto a spec give the
    line and exit code of --jobs 1, and a good run the same report."""
    seed = (ROOT / "specs" / "sm80_f16.yaml").read_text()
    second = "version: 2\nname: broken\nchecks:\n  x: {mma: NOPE, operand: Q}\n" if case == "bad file" else \
        seed.replace("name: sm80_f16", "name: second")
    d = _two_specs(tmp_path, second)
    extra = {"unknown check": ["--check", "ldsm_x4_a_kmajr"],
             "output onto a spec": ["--format", "json", "--output", str(d / "atoms" / "sm75.yaml")]}.get(case, [])
    runs = [subprocess.run([sys.executable, "-m", "verifier", "prove", str(d), "--no-cache", "--jobs", jobs, *extra],
                           capture_output=True, text=True, cwd=tmp_path) for jobs in ("1", "2")]
    one, two = runs
    assert one.returncode == two.returncode == (0 if case == "good" else 2)
    assert one.stderr == two.stderr

    def essence(out: str) -> list[str]:
        return [line.rsplit("  ", 1)[0] for line in out.splitlines() if not line.startswith(tuple("0123456789"))]
    assert essence(one.stdout) == essence(two.stdout)
    if case == "good":
        assert two.stdout.count("PASS") == 2 * 20
    elif case == "bad file":
        assert "b_second.yaml" in two.stderr


def test_diff_between_two_files(tmp_path):
    new = _flipped(tmp_path)
    old = tmp_path / "old.yaml"
    old.write_text((ROOT / "specs" / "sm80_f16.yaml").read_text().replace("atoms/", f"{ROOT}/specs/atoms/"))
    text = new.read_text().replace('smem: "(8,16):(16,1)"', 'smem: "(8,16):(12,1)"')
    new.write_text(text.replace("expect: pass", "expect: fail", 0))
    p = verifier("diff", str(old), str(new), "--allow-outside")
    assert p.returncode == 1
    assert "NEWLY FAILING  ldsm_x2_b_kmajor" in p.stdout and "copy.addressing" in p.stdout
    assert "NEWLY FAILING  mistake_row_pitch_40_bytes" in p.stdout
    md = verifier("diff", str(old), str(new), "--format", "markdown", "--allow-outside").stdout
    assert "| ❌ newly failing | `ldsm_x2_b_kmajor` | verified | refuted |" in md
    js = json.loads(verifier("diff", str(old), str(new), "--format", "json", "--allow-outside").stdout)
    assert {x["after"]["check"] for x in js["newly_failing"]} >= {"ldsm_x2_b_kmajor"}


def test_diff_against_a_git_revision(tmp_path):
    repo = tmp_path / "repo"
    (repo / "specs" / "atoms").mkdir(parents=True)
    for f in ("sm75.yaml", "sm80_f16.yaml"):
        (repo / "specs" / "atoms" / f).write_text((ROOT / "specs" / "atoms" / f).read_text())
    spec = repo / "specs" / "kernel.yaml"
    spec.write_text((ROOT / "specs" / "sm80_f16.yaml").read_text())
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "base"], check=True)
    spec.write_text(spec.read_text().replace('smem: "(16,16):(1,16)"\n    expect: fail',
                                             'smem: "(16,16):(16,1)"\n    expect: fail'))
    p = verifier("diff", str(spec), "--git", "HEAD")
    # a documented mistake that now proves is a check that no longer behaves as documented
    assert p.returncode == 1, p.stdout + p.stderr
    assert "NEWLY FAILING  mistake_n_atom_on_mmajor_smem: was refuted (expect fail), now verified" in p.stdout
    assert "19 unchanged" in p.stdout
    bad = verifier("diff", str(spec), "--git", "no-such-rev")
    assert bad.returncode == 2 and "unknown git revision" in bad.stderr
