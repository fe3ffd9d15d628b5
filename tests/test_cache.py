"""The proof cache (verifier/engine/cache.py): a warm run gives the same report as a cold one and as no cache at all;
corrupt and foreign entries are ignored; a changed input is a miss; concurrent runs share a directory."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from verifier.engine.cache import ProofCache
from verifier.jsoncodec import from_json, to_json
from verifier.specfile import load_spec
from verifier.engine.runner import CheckResult, run_check

ROOT = Path(__file__).parent.parent
SEED = ROOT / "specs" / "sm80_f16.yaml"


def prove(*args: str, cwd: Path = ROOT) -> tuple[int, dict]:
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", *args, "--format", "json"], capture_output=True,
                       text=True, cwd=cwd)
    return p.returncode, json.loads(p.stdout)


def _essence(report: dict) -> list:
    """What a report says, without its timings."""
    def strip(x):
        if isinstance(x, dict):
            return {k: strip(v) for k, v in x.items() if k not in ("seconds", "cross_check")}
        if isinstance(x, list):
            return [strip(v) for v in x]
        return x
    return strip(report["checks"])


def test_warm_run_reports_what_a_cold_run_and_no_cache_report(tmp_path):
    cache = tmp_path / "cache"
    plain = prove(str(SEED), "--no-cache")
    cold = prove(str(SEED), "--cache-dir", str(cache))
    warm = prove(str(SEED), "--cache-dir", str(cache))
    assert plain[0] == cold[0] == warm[0] == 0
    assert _essence(plain[1]) == _essence(cold[1]) == _essence(warm[1])
    entries = list(cache.rglob("*.json"))
    assert entries and not list(cache.rglob(".tmp-*"))
    assert not (tmp_path / "none").exists()


def test_no_cache_writes_nothing(tmp_path):
    prove(str(SEED), "--no-cache", "--cache-dir", str(tmp_path / "c"))
    assert not (tmp_path / "c").exists()


def test_corrupt_and_foreign_entries_are_ignored(tmp_path):
    cache = tmp_path / "cache"
    reference = prove(str(SEED), "--cache-dir", str(cache))[1]
    entries = sorted(cache.rglob("*.json"))
    for i, path in enumerate(entries):
        if i % 3 == 0:
            path.write_text("{not json")                                   # corrupt
        elif i % 3 == 1:
            doc = json.loads(path.read_text())
            doc["key"] = "0" * 64                                           # another key's entry
            path.write_text(json.dumps(doc))
        else:
            doc = json.loads(path.read_text())
            doc["value"] = {"verdict": "verified"}                          # the wrong shape
            path.write_text(json.dumps(doc))
    again = prove(str(SEED), "--cache-dir", str(cache))[1]
    assert _essence(again) == _essence(reference)


def test_a_changed_file_is_a_miss_and_its_locations_are_fresh(tmp_path):
    spec = tmp_path / "s.yaml"
    text = SEED.read_text().replace("include: [", f"include: [{ROOT}/specs/", 1)
    text = text.replace(", atoms/", f", {ROOT}/specs/atoms/")
    spec.write_text(text)
    cache = tmp_path / "cache"
    first = prove(str(spec), "--allow-outside", "--cache-dir", str(cache), "--check", "mistake_row_pitch_40_bytes")
    spec.write_text("# a comment shifts every line\n" + text)
    second = prove(str(spec), "--allow-outside", "--cache-dir", str(cache), "--check", "mistake_row_pitch_40_bytes")
    loc1 = first[1]["checks"][0]["counterexamples"][0]["suspect_location"]
    loc2 = second[1]["checks"][0]["counterexamples"][0]["suspect_location"]
    assert int(loc2.split(":")[-2]) == int(loc1.split(":")[-2]) + 1


def test_concurrent_runs_share_a_directory(tmp_path):
    cache = tmp_path / "cache"
    cmd = [sys.executable, "-m", "verifier", "prove", str(SEED), "--cache-dir", str(cache)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT) for _ in range(3)]
    assert all(p.wait(timeout=300) == 0 for p in procs)
    assert prove(str(SEED), "--cache-dir", str(cache))[0] == 0


def test_results_round_trip_through_json(tmp_path):
    spec = load_spec(ROOT / "specs" / "mistakes.yaml")
    store = ProofCache(tmp_path)
    for name in (list(spec.checks)[0], "tilelang_2593_hardwired_descriptor_stride",
                 "ldsm_unswizzled_kmajor_64x64_bank_conflicts"):
        r = run_check(spec, spec.checks[name])
        key = store.key("test", name)
        store.put(key, r)
        assert store.get(key, CheckResult) == r == from_json(CheckResult, json.loads(json.dumps(to_json(r))))


# --- the warm start: a whole run's record --------------------------------------------------------------------

def _spec_dir(tmp_path: Path) -> Path:
    """A directory holding a copy of the seed spec and of the atom libraries it includes."""
    d = tmp_path / "specs"
    (d / "atoms").mkdir(parents=True)
    for name in ("sm75.yaml", "sm80_f16.yaml"):
        (d / "atoms" / name).write_text((ROOT / "specs" / "atoms" / name).read_text())
    (d / "seed.yaml").write_text(SEED.read_text())
    return d


def test_a_warm_run_loads_no_yaml_and_imports_no_solver(tmp_path):
    cache = tmp_path / "cache"
    d = _spec_dir(tmp_path)
    cold = prove(str(d), "--cache-dir", str(cache), cwd=tmp_path)
    probe = ("import sys, io, contextlib\nfrom verifier.commands.cli import main\nout = io.StringIO()\n"
             "with contextlib.redirect_stdout(out):\n"
             f"    rc = main(['prove', {str(d)!r}, '--cache-dir', {str(cache)!r}, '--format', 'json'])\n"
             "print(int(rc), [m for m in ('ruamel.yaml', 'z3', 'numpy', 'verifier.specfile.loader')\n"
             "                if m in sys.modules])\n"
             "print(out.getvalue())")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path)
    first, _, report = p.stdout.partition("\n")
    assert first == "0 []", p.stderr
    assert _essence(json.loads(report)) == _essence(cold[1])


def test_an_edited_include_is_seen_by_a_warm_run(tmp_path):
    cache = tmp_path / "cache"
    d = _spec_dir(tmp_path)
    assert prove(str(d), "--cache-dir", str(cache), cwd=tmp_path)[0] == 0
    atoms = d / "atoms" / "sm80_f16.yaml"
    text = atoms.read_text()
    broken = text.replace('a: "((4,8),(2,2,2)):((32,1),(16,8,128))"', 'a: "((4,8),(2,2,2)):((32,1),(16,128,8))"', 1)
    assert broken != text
    atoms.write_text(broken)
    code, report = prove(str(d), "--cache-dir", str(cache), cwd=tmp_path)
    assert code == 1
    assert any(c["verdict"] == "refuted" and c["expect"] == "pass" for c in report["checks"])
    atoms.write_text(text)
    assert prove(str(d), "--cache-dir", str(cache), cwd=tmp_path)[0] == 0


def test_a_new_spec_file_is_proved_by_a_warm_run(tmp_path):
    cache = tmp_path / "cache"
    d = _spec_dir(tmp_path)
    before = prove(str(d), "--cache-dir", str(cache), cwd=tmp_path)[1]
    (d / "copy.yaml").write_text(SEED.read_text().replace("name: sm80_f16", "name: copy_of_the_seed"))
    after = prove(str(d), "--cache-dir", str(cache), cwd=tmp_path)[1]
    assert len(after["checks"]) == 2 * len(before["checks"])
    assert {c["spec_name"] for c in after["checks"]} == {"sm80_f16", "copy_of_the_seed"}


def test_a_warm_run_still_refuses_to_overwrite_a_spec(tmp_path):
    cache = tmp_path / "cache"
    d = _spec_dir(tmp_path)
    prove(str(d), "--cache-dir", str(cache), cwd=tmp_path)
    atoms = d / "atoms" / "sm75.yaml"
    before = atoms.read_text()
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", str(d), "--cache-dir", str(cache), "--format",
                        "json", "--output", str(atoms)], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 2 and "refusing to overwrite" in p.stderr and atoms.read_text() == before


def _fingerprint_of(package_parent: Path) -> str:
    code = "from verifier.engine.cache import tool_fingerprint; print(tool_fingerprint())"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=package_parent,
                       env={"PYTHONPATH": str(package_parent), "PATH": "/usr/bin:/bin"}, check=True)
    return p.stdout.strip()


def test_the_fingerprint_covers_every_module_of_the_tool(tmp_path):
    """An edit to a theorem module, a hardware model or the algebra (not only to the engine beside the cache) makes
    every kept result foreign: a user who upgrades the tool never reads an older tool's verdict."""
    import shutil
    from verifier.engine.cache import fingerprinted_sources
    modules = {str(p) for p in (ROOT / "verifier").rglob("*.py")}
    assert set(fingerprinted_sources()) == modules
    copy = tmp_path / "tool"
    shutil.copytree(ROOT / "verifier", copy / "verifier", ignore=shutil.ignore_patterns("__pycache__"))
    before = _fingerprint_of(copy)
    theorems = copy / "verifier" / "kinds" / "smem_mma" / "theorems.py"
    theorems.write_text(theorems.read_text() + "\n# edited\n")
    assert _fingerprint_of(copy) != before


def _signed_env(tmp_path: Path, secret: str) -> dict[str, str]:
    import os
    return {**os.environ, "CUTE_VERIFIER_CACHE_KEY": secret, "XDG_CONFIG_HOME": str(tmp_path / "config")}


def _prove_env(env: dict[str, str], *args: str) -> tuple[int, dict]:
    p = subprocess.run([sys.executable, "-m", "verifier", "prove", *args, "--format", "json"], capture_output=True,
                       text=True, cwd=ROOT, env=env)
    return p.returncode, json.loads(p.stdout)


def _forge(entry: Path, secret: str | None) -> bool:
    """Rewrite a kept check result's verdicts to 'verified' (re-signed with `secret` when given); False when the
    entry holds no refutation to forge."""
    import hashlib
    import hmac
    doc = json.loads(entry.read_text())
    payload = doc["value"]
    if '"verdict":"refuted"' not in payload:
        return False
    doc["value"] = payload.replace('"verdict":"refuted"', '"verdict":"verified"')
    if secret is not None:
        key = hashlib.sha256(secret.encode()).digest()
        doc["mac"] = hmac.new(key, doc["key"].encode() + b"\0" + doc["value"].encode(), hashlib.sha256).hexdigest()
    entry.write_text(json.dumps(doc))
    return True


def test_a_forged_entry_never_decides_a_verdict(tmp_path):
    """Whoever can write the cache directory (a restored Actions cache) but has not the signing key cannot make a
    refuted check read as verified: the edited entry is ignored and the check proved again."""
    cache, env = tmp_path / "cache", _signed_env(tmp_path, "the CI's secret")
    code, reference = _prove_env(env, str(SEED), "--cache-dir", str(cache))
    forged = [p for p in cache.rglob("*.json") if _forge(p, None)]
    assert forged and code == 0
    again = _prove_env(env, str(SEED), "--cache-dir", str(cache))[1]
    assert _essence(again) == _essence(reference)
    # signed with another secret: ignored too
    code, reference = _prove_env(env, str(SEED), "--cache-dir", str(cache))
    assert [p for p in cache.rglob("*.json") if _forge(p, "a guessed secret")]
    assert _essence(_prove_env(env, str(SEED), "--cache-dir", str(cache))[1]) == _essence(reference)
    # (the key is what protects: an entry re-signed with the real secret is read — the test can tell)
    assert [p for p in cache.rglob("*.json") if _forge(p, "the CI's secret")]
    trusted = _prove_env(env, str(SEED), "--cache-dir", str(cache))[1]
    assert _essence(trusted) != _essence(reference)


def test_the_cache_stays_under_its_limit_across_a_hundred_edits(tmp_path):
    """Each edit of a spec keeps new entries; the least recently used go once the directory passes its limit."""
    results = [run_check(load_spec(SEED), c) for c in list(load_spec(SEED).checks.values())[:3]]
    store = ProofCache(tmp_path, max_bytes=120_000)
    sizes = []
    for edit in range(100):
        for i, r in enumerate(results):
            store.put(store.key("check", f"edit {edit}", str(i)), r)
        store.prune()
        sizes.append(sum(size for _, size, _ in store.entries()))
    assert max(sizes) <= 120_000 and len(store.entries()) >= 3
    newest = store.key("check", "edit 99", "0")
    assert store.get(newest, CheckResult) is not None                       # the latest edit is kept
    assert store.get(store.key("check", "edit 0", "0"), CheckResult) is None   # the first is gone
