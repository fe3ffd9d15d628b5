"""The tool as a user installs it: the atom library ships inside the package (verifier/atom_library, which in a
checkout links to specs/atoms) and a spec anywhere names it with `cute-verifier:atoms/FILE.yaml`; --version; the
license.  (The wheel itself was built and installed in a fresh venv outside the repository by hand; see README.)"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from verifier.engine.runner import run_check
from verifier.outcome import Verdict
from verifier.specfile import SpecError, load_spec
from verifier.specfile.library import atom_library_dir, library_file

ROOT = Path(__file__).parent.parent


def test_the_atom_library_is_package_data_and_is_specs_atoms():
    assert atom_library_dir() == (ROOT / "specs" / "atoms").resolve()
    tomllib = pytest.importorskip("tomllib")     # Python 3.11+
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "atom_library/*.yaml" in config["tool"]["setuptools"]["package-data"]["verifier"]
    assert (ROOT / "verifier" / "atom_library" / "sm80_f16.yaml").is_file()
    assert library_file("cute-verifier:atoms/sm80_f16.yaml") == atom_library_dir() / "sm80_f16.yaml"
    for bad in ("cute-verifier:atoms/../../pyproject.toml", "cute-verifier:atoms/missing.yaml", "cute-verifier:x.yaml",
                "cute-verifier:atoms/.hidden.yaml"):
        assert library_file(bad) is None


def test_a_spec_outside_any_checkout_includes_the_installed_library(tmp_path: Path):
    spec = tmp_path / "mine.yaml"
    spec.write_text("""version: 2
name: mine
include: ["cute-verifier:atoms/sm75.yaml", "cute-verifier:atoms/sm80_f16.yaml"]
checks:
  a:
    mma: SM80_16x8x16_F16F16F16F16_TN
    operand: A
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "(16,16):(16,1)"
""", encoding="utf-8")
    loaded = load_spec(spec)                    # no --allow-outside: the installed library is the tool's own
    assert run_check(loaded, loaded.checks["a"]).verdict is Verdict.VERIFIED


def test_a_library_file_that_does_not_exist_is_one_line_with_its_place(tmp_path: Path):
    spec = tmp_path / "bad.yaml"
    spec.write_text('version: 2\nname: bad\ninclude: ["cute-verifier:atoms/sm99.yaml"]\nchecks: {}\n',
                    encoding="utf-8")
    with pytest.raises(SpecError) as e:
        load_spec(spec)
    assert (e.value.loc.line, e.value.loc.column) == (3, 11) and "names no file of the installed atom library" in \
        e.value.message


def test_version_and_license():
    p = subprocess.run([sys.executable, "-m", "verifier", "--version"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and p.stdout.startswith("cute-layout-verifier ")
    assert "BSD 3-Clause License" in (ROOT / "LICENSE").read_text(encoding="utf-8")
