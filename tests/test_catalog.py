"""The CUTLASS atom catalog: `python -m verifier prove specs/` proves every configuration CUTLASS uses,
refutes every documented mistake with a counterexample, and the generated files are up to date.

specs/catalog/*.yaml and specs/mistakes.yaml are written by tools/gen_catalog.py.
"""
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
CATALOG = ROOT / "specs" / "catalog"
EXPECTED_VERDICT = {"pass": "verified", "fail": "refuted", "undecided": "undecided", "unsupported": "unsupported"}
# the atom libraries whose every atom must be gated by an atom-only check (SM75-SM90, CuTe's generic copies)
GATED_LIBRARIES = ("sm75", "sm80_f16", "sm80_tf32", "sm80_int8", "sm80_int4", "sm80_b1", "sm80_f64", "sm80_copy",
                   "sm89", "sm90", "sm90_gmma", "generic")


def _gen_catalog():
    spec = importlib.util.spec_from_file_location("gen_catalog", ROOT / "tools" / "gen_catalog.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_catalog"] = mod          # dataclasses look their module up there
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def report():
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", "specs/", "--format", "json", "--jobs", "2",
                        "--cross-check"], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-3000:] + p.stdout[-3000:]
    data = json.loads(p.stdout)
    return data


def _catalog_checks(report):
    return [c for c in report["checks"]
            if "/catalog/" in c["spec"].replace("\\", "/") or c["spec"].replace("\\", "/").endswith("mistakes.yaml")]


def test_generated_files_are_up_to_date(tmp_path):
    gen = _gen_catalog()
    assert gen.main(["--check"]) == 0, "run: python tools/gen_catalog.py"
    # and the generator is deterministic: a second rendering is byte-identical
    first = {str(f.path): f.render() for f in gen.all_files()}
    second = {str(f.path): f.render() for f in gen.all_files()}
    assert first == second


def test_prove_specs_every_verdict_as_expected(report):
    s = report["summary"]
    assert s["fail"] == 0 and s["undecided"] == 0 and s["error"] == 0, s
    for c in report["checks"]:
        assert c["verdict"] == EXPECTED_VERDICT[c["expect"]], (c["spec"], c["check"], c["verdict"])
        assert c["outcome"] == "pass", (c["spec"], c["check"])


def test_catalog_size(report):
    checks = _catalog_checks(report)
    assert len(checks) >= 300
    by_expect = {e: sum(c["expect"] == e for c in checks) for e in EXPECTED_VERDICT}
    assert by_expect["pass"] >= 250 and by_expect["fail"] >= 20
    # speed is measured by benchmarks/prove_time.py, not asserted here


def test_every_documented_mistake_is_refuted_with_a_counterexample(report):
    mistakes = [c for c in report["checks"] if c["spec"].replace("\\", "/").endswith("specs/mistakes.yaml")]
    assert len(mistakes) >= 15
    for c in _catalog_checks(report):
        if c["expect"] != "fail":
            continue
        assert c["verdict"] == "refuted" and c["counterexamples"], c["check"]
        for cx in c["counterexamples"]:
            assert cx["theorem"] and cx["suspect"], (c["check"], cx)
            # a concrete failing point, or a fact (actual against expected, CuTe's refusal among them)
            assert cx["point"] or (cx["actual"] is not None and cx["expected"] is not None), (c["check"], cx)
    assert all(c["expect"] == "fail" for c in mistakes)


def test_every_configuration_cutlass_uses_is_fully_proved(report):
    for c in _catalog_checks(report):
        if c["expect"] == "pass":
            assert c["theorems"] and all(t["status"] == "proved" for t in c["theorems"]), c["check"]


def test_every_catalog_check_is_decided():
    """DefaultCopy and AutoVectorizingCopy are modelled: nothing in the catalog is documented as undecided."""
    from verifier.spec.loader import load_specs
    for spec in load_specs([CATALOG, ROOT / "specs" / "mistakes.yaml"]):
        for check in spec.checks.values():
            assert check.expect in ("pass", "fail"), (spec.path, check.name)


def test_the_cross_check_agrees_on_the_whole_catalog(report):
    """Every obligation of at most 2**22 points was decided a second time by enumeration, with the same answer
    (a disagreement would be an internal error)."""
    checked = agreed = 0
    for c in report["checks"]:
        for t in c["theorems"]:
            for o in t["obligations"]:
                cc = o["cross_check"]
                if cc and cc["status"]:
                    checked += 1
                    agreed += cc["status"] == o["status"]
    assert checked > 2000 and agreed == checked


def test_every_atom_has_an_atom_only_check():
    from verifier.spec.loader import load_spec, load_specs
    gated = {}
    for lib in GATED_LIBRARIES:
        spec = load_spec(ROOT / "specs" / "atoms" / f"{lib}.yaml")
        gated.update({("mma", n): lib for n in spec.mma_atoms})
        gated.update({("copy", n): lib for n in spec.copy_atoms})
    seen = set()
    for spec in load_specs([CATALOG]):
        for check in spec.checks.values():
            if check.kind == "mma":
                seen.add(("mma", check.mma))
            elif check.kind == "copy":
                seen.add(("copy", check.copy))
    missing = sorted(set(gated) - seen)
    assert not missing, missing


def test_catalog_covers_the_configuration_space():
    from verifier.spec.loader import load_specs
    tiled = [c for s in load_specs([CATALOG]) for c in s.checks.values() if c.kind == "tiled" and c.expect == "pass"]
    copies = {c.copy for c in tiled}
    for n in (1, 2, 4):
        assert f"SM75_U32x{n}_LDSM_N" in copies
        assert f"SM75_U16x{2 * n}_LDSM_T" in copies
    assert {"SM90_U32x4_STSM_N", "SM90_U16x8_STSM_T", "SM90_U32x2_STSM_N", "SM90_U16x4_STSM_T"} <= copies
    assert {"UniversalCopy<tfloat32_t>", "UniversalCopy<double>", "UniversalCopy<uint128_t>"} <= copies
    assert {c.operand for c in tiled} == {"A", "B", "C"}
    types = {c.value_type.name for c in tiled}
    assert {"half_t", "bfloat16_t", "tfloat32_t", "int8_t", "uint8_t", "float_e4m3_t", "float_e5m2_t",
            "double"} <= types
    warps = {tuple(c.atom_layout) if isinstance(c.atom_layout, tuple) else str(c.atom_layout) for c in tiled
             if c.atom_layout is not None}
    assert {(1, 1, 1), (2, 1, 1), (2, 2, 1), (4, 2, 1)} <= warps
    assert any("(2,2,1):(2,1,1)" in re.sub(r"[_ ]", "", w) for w in map(str, warps) if ":" in w)
    smem = " ".join(str(c.smem) for c in tiled)
    for sw in ("Sw<1,3,3>", "Sw<2,3,3>", "Sw<3,3,3>", "Sw<3,4,3>", "Sw<3,2,3>", "Sw<2,2,3>", "Sw<2,4,3>"):
        assert sw in smem, sw


def test_strided_atom_layout_is_loaded_as_a_layout():
    from verifier.algebra import Layout
    from verifier.spec.loader import load_spec
    spec = load_spec(CATALOG / "sm80_tf32.yaml")
    check = spec.checks["cutlass_sm80_tf32_a_kmajor_sw323_128x32"]
    assert isinstance(check.atom_layout, Layout)
    assert check.atom_layout.values() == [0, 2, 1, 3]


def test_non_bijective_atom_layout_string_is_refused(tmp_path):
    from verifier.spec.loader import load_spec
    from verifier.spec.model import SpecError
    f = tmp_path / "bad.yaml"
    f.write_text(f"""version: 1
name: bad
include: ["{ROOT / 'specs' / 'atoms' / 'sm80_f16.yaml'}"]
checks:
  c:
    mma: SM80_16x8x16_F16F16F16F16_TN
    atom_layout: "(2,2,1):(1,1,1)"
""")
    with pytest.raises(SpecError) as e:
        load_spec(f, allow_outside=True)   # the spec lies in tmp_path, its include in the repository
    assert e.value.loc is not None and e.value.loc.line == 7 and "bijective" in e.value.message


@pytest.mark.parametrize("procedure", ["z3", "enumeration"])
def test_verdicts_do_not_depend_on_the_procedure(report, procedure):
    """Every catalog check, proved again with one decision procedure forced wherever it applies, keeps its verdict
    and every theorem its status."""
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", "specs/", "--format", "json", "--jobs", "2",
                        "--procedure", procedure], capture_output=True, text=True, cwd=ROOT)
    assert p.returncode == 0, p.stderr[-2000:]
    forced = {(c["spec"], c["check"]): c for c in json.loads(p.stdout)["checks"]}
    assert len(forced) == len(report["checks"])
    def procedures(checks):
        return [o["procedure"] for c in checks for t in c["theorems"] for o in t["obligations"]
                if o["procedure"] != "evaluation"]
    for c in report["checks"]:
        f = forced[(c["spec"], c["check"])]
        assert f["verdict"] == c["verdict"], (c["check"], f["verdict"], c["verdict"])
        assert [t["status"] for t in f["theorems"]] == [t["status"] for t in c["theorems"]], c["check"]
    default, used = procedures(report["checks"]), procedures(forced.values())
    if procedure == "z3":
        assert set(used) == {"z3-bitvector"}
    else:
        assert used.count("enumeration") > default.count("enumeration") > 0


def test_verdicts_do_not_depend_on_the_cache(report, tmp_path):
    """The whole catalog proved with an empty cache, then from it, gives the report proved without one."""
    def run(*extra):
        p = subprocess.run([sys.executable, "-m", "verifier", "prove", "specs/", "--format", "json", "--jobs", "2",
                            "--cross-check", *extra], capture_output=True, text=True, cwd=ROOT)
        assert p.returncode == 0, p.stderr[-2000:]
        return {(c["spec"], c["check"]): (c["verdict"], [t["status"] for t in c["theorems"]],
                                          [x["point"] for x in c["counterexamples"]])
                for c in json.loads(p.stdout)["checks"]}
    cold, warm = run("--cache-dir", str(tmp_path)), run("--cache-dir", str(tmp_path))
    plain = run("--no-cache")
    assert cold == warm == plain
    assert len(plain) == len(report["checks"])
