"""Reports that fit where CI puts them: Markdown under GitHub's 65,536-character comment limit with every check whose
verdict is not the documented one in it (the job-summary format under 1 MiB), `--quiet`, and standard output with
`--output` (what is not as expected, and the summary)."""
from __future__ import annotations

import dataclasses
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

from verifier.engine.runner import run_check
from verifier.outcome import Expect
from verifier.report.formats import JOB_SUMMARY_LIMIT, MARKDOWN_LIMIT, to_markdown
from verifier.specfile import load_spec

ROOT = Path(__file__).parent.parent
SEED = ROOT / "specs" / "sm80_f16.yaml"


@lru_cache(maxsize=None)
def seed_results() -> tuple:
    spec = load_spec(SEED)
    return tuple(run_check(spec, c) for c in spec.checks.values())


def _many(passes: int, wrong: int) -> list:
    """`passes` checks as expected and `wrong` whose verdict is not the documented one (a documented mistake whose
    `expect` is flipped), each with its own name."""
    base = seed_results()
    good = [r for r in base if r.ok and not r.failures()]
    bad = [r for r in base if r.ok and r.failures()]
    out = [dataclasses.replace(good[i % len(good)], name=f"pass_{i}") for i in range(passes)]
    out += [dataclasses.replace(bad[i % len(bad)], name=f"wrong_{i}", expect=Expect.PASS) for i in range(wrong)]
    return out


def test_a_large_run_fits_a_comment_and_keeps_every_failure():
    results = _many(3000, 60)
    md = to_markdown(results, 1.0)
    assert len(md) <= MARKDOWN_LIMIT
    for i in range(60):
        assert f"| ❌ | `wrong_{i}` |" in md
    assert "Left out to stay under 65,536 characters" in md
    assert md.index("### Not as expected") < md.index("counterexample")


def test_a_small_run_is_whole_and_the_job_summary_holds_more():
    small = _many(5, 1)
    md = to_markdown(small, 1.0)
    assert "Left out" not in md and "| ✅ | `pass_4` |" in md and "| ❌ | `wrong_0` |" in md
    large = _many(3000, 60)
    summary = to_markdown(large, 1.0, limit=JOB_SUMMARY_LIMIT)
    assert MARKDOWN_LIMIT < len(summary) <= JOB_SUMMARY_LIMIT and "| ✅ | `pass_2999` |" in summary


def _prove(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", "prove", str(SEED), "--no-cache", *args],
                          capture_output=True, text=True, timeout=300)


def test_quiet_prints_the_summary_only_when_all_is_as_expected():
    p = _prove("--quiet")
    assert p.returncode == 0 and p.stdout.count("\n") == 1 and p.stdout.startswith("20 checks: 20 as expected")


def test_with_output_standard_output_is_the_summary(tmp_path: Path):
    p = _prove("--format", "json", "--output", str(tmp_path / "r.json"))
    assert p.returncode == 0 and p.stdout.count("\n") == 1 and (tmp_path / "r.json").stat().st_size > 1000


def test_json_is_compact_and_each_check_is_written_as_alone():
    """A JSON report is one compact line (`jq .` indents it), and every check in it is what its JSON is alone --
    results sharing theorem objects (prescreen-cutlass's families share their paths') and results of the same
    theorems with other obligations alike."""
    import json

    from verifier.report.formats import check_json, to_json
    base = seed_results()
    results = [dataclasses.replace(r, name=f"{r.name}_{i}") for i in range(3) for r in base]   # theorems shared
    report = to_json(results, 1.0)
    assert report.count("\n") == 1 and report.endswith("}\n")
    assert json.loads(report)["checks"] == [json.loads(json.dumps(check_json(r))) for r in results]


def _kernels_of_paths() -> tuple[list, list]:
    """prescreen-cutlass's shape of a report: kernels made of operand paths (three kernels sharing two paths, one
    of them refuted), and a path of another spec file named like one of them."""
    from verifier.prescreen.run import kernel_result
    from verifier.prescreen.space import KernelConfig
    base = seed_results()
    good = next(r for r in base if r.ok and not r.failures())
    bad = next(r for r in base if r.ok and r.failures())
    a = dataclasses.replace(good, name="path_0001_a", spec_path="/s/prescreen_sm90.yaml")
    b = dataclasses.replace(bad, name="path_0002_b", spec_path="/s/prescreen_sm90.yaml", expect=Expect.PASS)
    alike = dataclasses.replace(good, name="path_0001_a", spec_path="/s/prescreen_sm90_2.yaml")
    config = KernelConfig("k", 90, "Universal3x", "TensorOp", (128, 128, 64), (4, 1, 1), (0, 0, 0), "f16", "f16",
                          "f32", "RowMajor", "ColumnMajor", 8, 8, "", 4)
    kernels = [kernel_result(dataclasses.replace(config, name=f"k{i}"), p[0].spec_path, p, "how")
               for i, p in enumerate([[a], [a, b], [alike]])]
    return kernels, [a, b, alike]


def test_a_kernels_report_lists_each_operand_path_once():
    import json

    from verifier.report.formats import to_json, to_junit
    kernels, (a, b, alike) = _kernels_of_paths()
    doc = json.loads(to_json(kernels, 1.0))
    paths = doc["paths"]
    # each path once, keyed by its name -- and its spec file where two share a name
    assert list(paths) == ["path_0001_a", "path_0002_b", "path_0001_a (prescreen_sm90_2.yaml)"]
    assert [c["paths"] for c in doc["checks"]] == [["path_0001_a"], ["path_0001_a", "path_0002_b"],
                                                   ["path_0001_a (prescreen_sm90_2.yaml)"]]
    assert [c["verdict"] for c in doc["checks"]] == ["verified", "refuted", "verified"]
    # the path holds the theorems, counterexamples and information; the kernel only names it
    assert paths["path_0002_b"]["counterexamples"] and paths["path_0002_b"]["verdict"] == "refuted"
    assert len(paths["path_0001_a"]["theorems"]) == len(a.theorems)
    assert all(k not in c for c in doc["checks"] for k in ("theorems", "counterexamples", "findings", "info"))
    # JUnit: a kernel's failure keeps its counterexample; a verified kernel lists its paths, not every theorem
    junit = to_junit(kernels, 1.0)
    assert junit.count("<testcase ") == 3 and junit.count("<failure ") == 1
    assert "operand paths: path_0001_a, path_0002_b" in junit
    failure = junit.split("<failure ")[1]
    assert "smallest counterexample" in failure and b.failures()[0].id.value in failure
    assert "proved  " not in junit.split("<testcase ")[1]        # no theorem-by-theorem list for k0
    # a check not made of paths keeps its theorems in both formats
    plain = json.loads(to_json([a], 1.0))
    assert "paths" not in plain and plain["checks"][0]["theorems"]
    assert "proved  " in to_junit([a], 1.0)


def test_sarif_reports_a_kernels_failure_once_at_its_operand_path():
    import gzip
    import json

    import jsonschema

    from verifier.report.sarif import PATH_EXAMPLES, to_sarif
    kernels, (a, b, alike) = _kernels_of_paths()
    many = kernels + [dataclasses.replace(kernels[1], name=f"more_{i}") for i in range(PATH_EXAMPLES + 2)]
    log = json.loads(to_sarif(many, 1.0))
    with gzip.open(ROOT / "tests" / "data" / "sarif-schema-2.1.0.json.gz", "rt") as f:
        jsonschema.validate(log, json.load(f))
    results = log["runs"][0]["results"]
    # thirteen kernels fail at one path: one result, at the path's suspect field, counting and naming them
    assert len(results) == 1
    found = results[0]
    assert found["properties"]["check"] == "path_0002_b" and found["properties"]["checks"] == PATH_EXAMPLES + 3
    assert found["properties"]["examples"][:2] == ["k1", "more_0"] and len(found["properties"]["examples"]) == \
        PATH_EXAMPLES
    assert found["message"]["text"].startswith(f"{PATH_EXAMPLES + 3} check(s) made of operand path 'path_0002_b'")
    assert "and 3 more" in found["message"]["text"] and found["ruleId"] == b.failures()[0].id.value
    assert found["locations"] == json.loads(to_sarif([b], 1.0))["runs"][0]["results"][0]["locations"]
    # a kernel not made of paths is its own result, as before
    assert len(json.loads(to_sarif([b], 1.0))["runs"][0]["results"]) == 1


def test_markdown_reports_kernels_made_of_paths_by_their_failing_paths_within_the_limit():
    from verifier.prescreen.run import kernel_result
    from verifier.prescreen.space import KernelConfig
    kernels, (a, b, alike) = _kernels_of_paths()
    md = to_markdown(kernels, 1.0)
    # the refuted kernel k1 is reported by its path: a row with the kernels made of it, its counterexample once
    assert "### Operand paths not verified (1;" in md and "| `path_0002_b` |" in md and "| 1: `k1` |" in md
    assert "### Not as expected" not in md and md.count("counterexample") >= 1
    # thousands of kernels failing at hundreds of paths: the paths failing the most kernels first, within the limit
    config = KernelConfig("k", 90, "Universal3x", "TensorOp", (128, 128, 64), (4, 1, 1), (0, 0, 0), "f16", "f16",
                          "f32", "RowMajor", "ColumnMajor", 8, 8, "", 4)
    paths = [dataclasses.replace(b, name=f"path_{i:04d}_b") for i in range(1000)]
    many = [kernel_result(dataclasses.replace(config, name=f"kernel_{i:05d}"), "/s/p.yaml",
                          [a, paths[i % 1000 if i < 4000 else 0]], "how") for i in range(8000)]
    md = to_markdown(many, 1.0)
    assert len(md) <= MARKDOWN_LIMIT
    rows = [line for line in md.splitlines() if line.startswith("| ❌ | `path_")]
    assert rows[0].startswith("| ❌ | `path_0000_b` |") and "| 4004: " in rows[0]      # the most kernels first
    assert 0 < len(rows) < 1000 and "rows of the operand paths not verified" in md

