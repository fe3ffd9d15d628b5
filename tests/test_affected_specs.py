"""A change to an included file reaches every spec that includes it: the pre-commit hook (`prove --changed`) and
`diff DIR --git REV` prove the including specs, not only the changed files."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
GOOD_A = '    a: "((4,8),(2,2,2)):((32,1),(16,8,128))"\n'
BROKEN_A = '    a: "((4,8),(2,2,2)):((32,1),(16,128,8))"\n'


def verifier(*args, cwd):
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture()
def repo(tmp_path):
    """A git repository: atoms, a kernel spec including them, an unrelated spec, and a non-spec YAML file."""
    repo = tmp_path / "repo"
    (repo / "specs" / "atoms").mkdir(parents=True)
    for f in ("sm75.yaml", "sm80_f16.yaml"):
        (repo / "specs" / "atoms" / f).write_text((ROOT / "specs" / "atoms" / f).read_text())
    (repo / "specs" / "kernel.yaml").write_text((ROOT / "specs" / "sm80_f16.yaml").read_text())
    (repo / "specs" / "copies.yaml").write_text("""version: 1
name: copies
include: [atoms/sm75.yaml]
checks:
  ldsm:
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
""")
    (repo / "workflow.yml").write_text("on: push\njobs: {}\n")
    git = ["git", "-C", str(repo), "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-qm", "base"], check=True)
    atoms = repo / "specs" / "atoms" / "sm80_f16.yaml"
    assert GOOD_A in atoms.read_text()
    atoms.write_text(atoms.read_text().replace(GOOD_A, BROKEN_A, 1))   # break the MMA atom the kernel uses
    return repo


def test_changed_atoms_prove_every_including_spec(repo):
    p = verifier("prove", "--changed", "specs/atoms/sm80_f16.yaml", "--format", "json", cwd=repo)
    assert p.returncode == 1, p.stdout[-2000:] + p.stderr
    specs = {Path(c["spec"]).name for c in json.loads(p.stdout)["checks"]}
    assert specs == {"kernel.yaml"}          # copies.yaml does not include the changed file


def test_changed_files_that_no_spec_includes_prove_nothing(repo):
    p = verifier("prove", "--changed", "workflow.yml", cwd=repo)
    assert p.returncode == 0 and "no spec is, or includes" in p.stdout


def test_diff_of_a_directory_against_a_revision_follows_includes(repo):
    p = verifier("diff", "specs", "--git", "HEAD", "--format", "json", cwd=repo)
    assert p.returncode == 1, p.stdout[-2000:] + p.stderr
    doc = json.loads(p.stdout)
    newly = {x["after"]["check"] for x in doc["newly_failing"]}
    assert "ldsm_x4_a_kmajor" in newly and "mma_atom_16x8x16_f16" in newly
    assert doc["unchanged"] >= 1 and not doc["added"] and not doc["removed"]
    text = verifier("diff", "specs", "--git", "HEAD", cwd=repo).stdout
    assert "NEWLY FAILING  ldsm_x4_a_kmajor" in text
    # the broken A layout makes the atom compute something else than C += A·B, so theorem 2 refutes every check
    # that runs the atom (its A and its B configurations); 11 checks of kernel.yaml keep their verdict, and
    # copies.yaml (unaffected: not proved) keeps its one
    assert "9 newly failing, 0 fixed, 0 changed, 0 added, 0 removed, 12 unchanged" in text


def test_version_2_specs_are_found_by_the_hook(repo):
    """A spec in format version 2 (the Hopper and banks keys) is a spec to the pre-commit hook too."""
    from verifier.specfile.affected import tracked_specs
    kernel = (repo / "specs" / "kernel.yaml").read_text()
    assert kernel.startswith("version: 2")
    assert str(repo / "specs" / "kernel.yaml") in tracked_specs(repo)
    assert str(repo / "specs" / "copies.yaml") in tracked_specs(repo)


def test_changed_builds_only_the_affected_specs_checks(repo):
    """--changed reads every candidate for its includes, but builds checks only in the specs it proves: a bad
    check body in an unaffected spec does not stop it."""
    (repo / "specs" / "copies.yaml").write_text((repo / "specs" / "copies.yaml").read_text()
                                                + "  broken:\n    copy: NO_SUCH_ATOM\n    value_type: half_t\n")
    p = verifier("prove", "--changed", "specs/atoms/sm80_f16.yaml", "--format", "json", cwd=repo)
    assert p.returncode == 1, p.stderr                     # the kernel spec's broken atom: refuted, as before
    assert {c["spec"].split("/")[-1] for c in json.loads(p.stdout)["checks"]} == {"kernel.yaml"}
    whole = verifier("prove", "specs/copies.yaml", cwd=repo)
    assert whole.returncode == 2 and "NO_SUCH_ATOM" in whole.stderr
