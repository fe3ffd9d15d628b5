"""Hostile spec input: every problem is one short `file:line:column: message` SpecError, quickly.

Directories without specs and symlink loops, YAML built to hurt (keys that are lists, alias bombs, huge
duplicate values, huge integers, deep nesting), includes that are not specs or lie outside the repository,
and names no report could print.
"""
from __future__ import annotations

import os
import time
import warnings
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest

from verifier.specfile import Spec, SpecError, load_spec, load_specs
from verifier.specfile.loader import MAX_YAML_EVENTS, MAX_YAML_NODES, repository_root

# every refusal comes back within this: a guard against a hang or a blow-up (minutes), not a speed measure (the
# slowest, 30,000 YAML nodes read before the refusal, takes about 1 s on a 2-core machine and 2 s under the suite)
SECONDS = 10.0
MESSAGE_LIMIT = 300      # characters of one error line
ECHO = 60                # characters of any user value an error line may repeat

ATOMS = """\
version: 1
name: atoms
mma_atoms:
  MMA:
    shape_mnk: [16, 8, 16]
    thr_id: "32:1"
    types: {a: half_t, b: half_t, c: half_t, d: half_t}
    a: "((4,8),(2,2,2)):((32,1),(16,8,128))"
    b: "((4,8),(2,2)):((16,1),(8,64))"
    c: "((4,8),(2,2)):((32,1),(16,8))"
copy_atoms:
  LDSM:
    instruction: ldmatrix.sync.aligned.m8n8.x4.shared.b16
    thr_id: "32:1"
    src: "(32,128):(128,1)"
    dst: "(32,(32,4)):(32,(1,1024))"
    ref: dst
"""
CHECK = "checks:\n  c:\n    mma: MMA\n"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(name: str, text: str | bytes) -> str:
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        Path(name).write_bytes(text)
    else:
        Path(name).write_text(text)
    return name


def refusal(load: Callable[[], object]) -> str:
    """The one line `load()` refuses with, checked to be short, single and quick."""
    start = time.monotonic()
    with pytest.raises(SpecError) as info, warnings.catch_warnings(record=True) as warned:
        warnings.simplefilter("always")
        load()
    assert time.monotonic() - start < SECONDS
    assert not warned, [str(w.message)[:300] for w in warned]   # ruamel's warnings quote the file on stderr
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message, message[:500]
    assert len(message.replace(os.getcwd(), "<tmp>")) < MESSAGE_LIMIT, message[:500]   # tmp paths are long
    return message


def spec_refusal(path: str, **kwargs: bool) -> str:
    return refusal(lambda: load_spec(path, **kwargs))


# --- 1. directories and symlinks ---------------------------------------------------------------------

def test_empty_directory_is_refused() -> None:
    os.mkdir("empty")
    assert refusal(lambda: load_specs(["empty"])) == "empty: no spec files (*.yaml, *.yml) in this directory"


def test_directory_without_specs_is_refused() -> None:
    write("notes/readme.txt", "not a spec")
    write("notes/deeper/config.json", "{}")
    assert "no spec files" in refusal(lambda: load_specs(["notes"]))


def test_directory_symlink_to_an_ancestor_is_not_followed() -> None:
    os.makedirs("specs/sub")
    os.symlink("..", "specs/sub/up")
    os.symlink(".", "specs/self")
    message = refusal(lambda: load_specs(["specs"]))
    assert "no spec files" in message and "directory symlinks are not followed: self, up" in message
    write("specs/sub/atoms.yaml", ATOMS)
    assert [s.path for s in load_specs(["specs"])] == [os.path.join("specs", "sub", "atoms.yaml")]


def test_file_symlink_loop_is_refused() -> None:
    os.mkdir("loop")
    os.symlink("b.yaml", "loop/a.yaml")
    os.symlink("a.yaml", "loop/b.yaml")
    for paths in (["loop"], ["loop/a.yaml"]):
        message = refusal(partial(load_specs, paths))
        assert message.startswith("cannot read spec file 'loop/a.yaml': ") and "symbolic links" in message


def test_dangling_symlink_is_refused() -> None:
    os.symlink("nowhere.yaml", "dangling.yaml")
    assert refusal(lambda: load_specs(["dangling.yaml"])) == "spec file 'dangling.yaml' not found"


def test_fifo_named_like_a_spec_never_blocks() -> None:
    os.mkdir("d")
    os.mkfifo("d/pipe.yaml")
    assert refusal(lambda: load_specs(["d"])) == "'d/pipe.yaml' is not a regular file"


def test_directory_is_not_a_spec_file() -> None:
    os.makedirs("specs.yaml/inner")
    assert "no spec files" in refusal(lambda: load_specs(["specs.yaml"]))


# --- 2. YAML built to hurt ---------------------------------------------------------------------------

@pytest.mark.parametrize("text,where,kind", [
    ("version: 1\nname: n\n? [a, b]\n: 1\n", "3:3", "a list"),
    ("version: 1\nname: n\nchecks: {[1,2]: 3}\n", "3:10", "a list"),
    ("version: 1\nname: n\nmma_atoms:\n  ? {a: 1}\n  : {}\n", "4:5", "a mapping"),
    ("version: 1\nname: n\ncopy_atoms:\n  X: {[1,2]: 3}\n", "4:7", "a list"),
    ("version: 1\nname: n\nx: &x [1, 2]\n? [*x, *x]\n: 1\n", "4:3", "a list"),
])
def test_key_that_is_a_list_or_a_map(text: str, where: str, kind: str) -> None:
    assert spec_refusal(write("k.yaml", text)) == f"k.yaml:{where}: a key must be a plain name, not {kind}"


def billion_laughs(levels: int = 9) -> str:
    lines = ['l0: &l0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, levels):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    return "version: 1\nname: n\n" + "\n".join(lines) + "\n"


@pytest.mark.parametrize("text", [
    billion_laughs(),
    billion_laughs() + "checks: {c: {mma: *l8}}\n",
    "version: 1\nname: n\nchecks: &c {c: *c}\n",            # a mapping that contains itself
    "version: 1\nname: &n [*n, *n]\n",                      # a list that contains itself
])
def test_alias_bomb_is_refused_before_it_expands(text: str) -> None:
    message = spec_refusal(write("bomb.yaml", text))
    assert message == f"bomb.yaml:1:1: the document expands to more than {MAX_YAML_NODES} nodes (YAML aliases?)"


def test_shared_anchors_within_the_budget_load() -> None:
    atoms = ATOMS.split("copy_atoms:")[0].replace("types: {a: half_t", "types: &f16 {a: half_t")
    second = atoms.split("mma_atoms:\n")[1].replace("  MMA:", "  MMA2:").replace("&f16 {a: half_t, b: half_t, c: "
                                                                                  "half_t, d: half_t}", "*f16")
    spec = load_spec(write("anchors.yaml", atoms + second))
    assert spec.mma_atoms["MMA2"].types["a"].bits == 16


@pytest.mark.parametrize("quoted", [False, True])
def test_duplicate_keys_with_huge_values(quoted: bool) -> None:
    big = "x" * 400_000
    value = f'"{big}"' if quoted else big
    message = spec_refusal(write("dup.yaml", f"version: 1\nname: {value}\nname: {value}\n"))
    assert message.startswith('dup.yaml:3:1: bad YAML: found duplicate key "name" (while constructing a mapping')
    assert "xx" not in message


def test_duplicate_keys_with_megabyte_values_exceed_the_file_limit() -> None:
    big = "x" * 1_000_000
    path = write("dup.yaml", f"version: 1\nname: {big}\nname: {big}\n")
    message = spec_refusal(path)
    assert message == f"spec file 'dup.yaml' has {os.path.getsize(path)} bytes; at most 1048576 (1 MiB) are supported"


def test_huge_duplicate_key_is_cut_short() -> None:
    key = "k" * 100_000
    message = spec_refusal(write("dupkey.yaml", f"version: 1\nname: n\n? {key}\n: 1\n? {key}\n: 2\n"))
    assert "duplicate key" in message and "k" * (ECHO + 1) not in message


@pytest.mark.parametrize("text,where", [
    ("version: 1\nname: n\nmma_atoms:\n  X:\n    shape_mnk: [" + "9" * 5000 + ", 1, 1]\n", "5:17"),
    ("version: " + "9" * 5000 + "\nname: n\n", "1:10"),
    ("version: 1\nname: n\nchecks:\n  c: {mma: X, permutation: [" + "7" * 4000 + "]}\n", "4:29"),
    ("version: 1\nname: !!int '" + "1" * 5000 + "'\n", "2:7"),
])
def test_huge_integers(text: str, where: str) -> None:
    message = spec_refusal(write("int.yaml", text))
    assert message.startswith(f"int.yaml:{where}: an integer of ") and message.endswith("is too large (at most 40)")


def test_huge_integer_in_a_layout_string() -> None:
    text = ATOMS.replace('thr_id: "32:1"', f'thr_id: "{"9" * 5000}:1"', 1) + CHECK
    assert "an integer with 5000 digits is too large" in spec_refusal(write("lay.yaml", text))


@pytest.mark.parametrize("layout,words", [
    ("1" * 200_000, "at most 10000"),
    ("(" * 3000 + "1" + ")" * 3000, "nested too deeply (limit 64)"),
    ("(" + "2," * 2000 + "2):(" + "1," * 2000 + "1)", "larger than the supported"),
    ("right_inverse(" * 100 + "1:1" + ")" * 100, "nested too deeply"),
])
def test_absurd_layout_strings(layout: str, words: str) -> None:
    text = ATOMS.replace('thr_id: "32:1"', f"thr_id: '{layout}'", 1) + CHECK
    message = spec_refusal(write("lay.yaml", text))
    assert message.startswith("lay.yaml:6:") and "bad layout in 'thr_id' of MMA atom 'MMA'" in message
    assert words in message


def test_a_tv_layout_that_maps_to_a_negative_index_is_refused() -> None:
    """A (thr,val) layout's values index the atom's tile: a negative one reached the theorems' swizzle arithmetic
    (an internal error); bad input at its field."""
    text = ATOMS.replace('b: "((4,8),(2,2)):((16,1),(8,64))"', 'b: "((4,8),(2,2)):((16,1),(-1,64))"', 1)
    assert text != ATOMS
    message = spec_refusal(write("negtv.yaml", text + CHECK))
    assert "'b' of MMA atom 'MMA' maps a (thread, value) to the index -1" in message


@pytest.mark.parametrize("atom", ["MMA", "LDSM"])
def test_a_thread_index_is_never_negative(atom: str) -> None:
    """thr_id maps an atom's threads to their indices: a negative one is bad input at thr_id (the instruction's
    theorem divided the negative index: an internal error)."""
    text = ATOMS.replace('thr_id: "32:1"', 'thr_id: "32:-1"', 1 if atom == "MMA" else 2)
    if atom == "LDSM":
        text = text.replace('thr_id: "32:-1"', 'thr_id: "32:1"', 1)
    message = spec_refusal(write("neg.yaml", text + CHECK))
    assert f"'thr_id' of {'MMA' if atom == 'MMA' else 'copy'} atom '{atom}' gives thread 1 the index -1" in message


@pytest.mark.parametrize("layout", ["tile_to_shape((8,8):(8,1), (0,8))", "tile_to_shape((8,8):(8,1), (8,0))",
                                    "tile_to_shape((8,8):(8,1), (8,8,-2))"])
def test_a_layout_with_no_element_is_refused(layout: str) -> None:
    """A layout written with a 0 extent is refused by the parser; CuTe's algebra may still build one (tile_to_shape
    to a 0 extent), but no tile, tensor or atom of a check is empty (its theorems would quantify over nothing: it was
    an internal error)."""
    text = ATOMS.replace('thr_id: "32:1"', f'thr_id: "{layout}"', 1) + CHECK
    message = spec_refusal(write("empty.yaml", text))
    assert message.startswith("empty.yaml:6:") and "'thr_id' of MMA atom 'MMA' has a mode of extent" in message


@pytest.mark.parametrize("text", [
    "version: 1\nname: " + "[" * 5000 + "\n",
    "version: 1\nname: n\nchecks: " + "{a: " * 3000 + "1" + "}" * 3000 + "\n",
])
def test_deep_flow_nesting_is_refused_quickly(text: str) -> None:
    assert "nested too deeply (more than 64 levels of [ and {)" in spec_refusal(write("deep.yaml", text))


def test_too_many_yaml_nodes() -> None:
    text = "version: 1\nname: n\nx: [" + ", ".join(["1"] * (MAX_YAML_EVENTS + 10)) + "]\n"
    assert f"the document has more than {MAX_YAML_EVENTS} YAML nodes" in spec_refusal(write("many.yaml", text))


def test_file_too_large() -> None:
    path = write("large.yaml", "version: 1\nname: n\ndescription: " + "x" * (5 << 20) + "\n")
    assert "at most 1048576 (1 MiB)" in spec_refusal(path)


@pytest.mark.parametrize("text,words", [
    ("version: 1\nname: 2001-13-45\n", "a value cannot be read"),
    ("version: 1\nname: !!bool maybe\n", "a value cannot be read"),
    ("version: 1\nname: !!int abc\n", "scalar.yaml:2:7: a value tagged !!int is not an integer"),
    ("version: 1\nname: !!int\n", "scalar.yaml:2:7: a value tagged !!int is not an integer"),
    ("version: 1\nname: !!float ''\n", "scalar.yaml:2:7: a value tagged !!float is not a number"),
    (b"version: 1\nname: \xff\xfe\n", "not UTF-8 text"),
])
def test_scalars_ruamel_cannot_build(text: str | bytes, words: str) -> None:
    assert words in spec_refusal(write("scalar.yaml", text))


# --- 3. includes -------------------------------------------------------------------------------------

SECRET = "TOP-SECRET-TOKEN-1234"


def including(target: str, at: str = "user.yaml") -> str:
    return write(at, f"version: 1\nname: u\ninclude: [{target!r}]\n")


@pytest.mark.parametrize("content,reason", [
    (f"root:x:0:0:{SECRET}:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n",
     "its top level is a string, not a mapping"),
    (b"\x7fELF\x02\x01\x01\x00" + SECRET.encode() + b"\xff\xfe", "not UTF-8 text at "),
    (b"\x00\x01\x02" + SECRET.encode(), "bad YAML: special characters are not allowed at "),
    (f"- {SECRET}\n- two\n", "its top level is a list, not a mapping"),
    (f"just a string {SECRET}\n", "its top level is a string, not a mapping"),
    (f"name: {SECRET}\nmma_atoms: {{}}\n", "it has no 'version'"),
    (f"version: {SECRET}\nname: x\n", "its 'version' is not one of 1, 2"),
    (f"version: 3\nname: {SECRET}\n", "its 'version' is not one of 1, 2"),
    (f'version: 1\nname: "{SECRET}\n  - x: [', "bad YAML: "),
    (f"version: 1\nname: {SECRET}\nname: {SECRET}\n", "bad YAML: found duplicate key ..."),
    ("", "its top level is nothing, not a mapping"),
    (f"a: &x {SECRET}\nb: &x {SECRET}\nc: *x\n", "it has no 'version'"),   # ruamel warns of the reused anchor
])
def test_included_file_that_is_not_a_spec(content: str | bytes, reason: str) -> None:
    write("not_a_spec.txt", content)
    message = spec_refusal(including("not_a_spec.txt"))
    assert message.startswith("user.yaml:3:11: included file 'not_a_spec.txt' is not a spec file (")
    assert reason in message and SECRET not in message and "TOKEN" not in message


def test_including_etc_passwd_prints_none_of_it() -> None:
    if not os.path.isfile("/etc/passwd"):
        pytest.skip("no /etc/passwd")
    message = spec_refusal(including("/etc/passwd"), allow_outside=True)
    assert "is not a spec file (its top level is" in message and "root" not in message
    message = spec_refusal(including("/etc/passwd"))
    assert "is outside the repository" in message and "pass --allow-outside to permit it" in message


def test_including_a_directory_or_a_fifo() -> None:
    os.mkdir("dir.yaml")
    assert "is not a spec file ('dir.yaml' is not a regular file)" in spec_refusal(including("dir.yaml"))
    os.mkfifo("pipe.yaml")
    assert "is not a spec file ('pipe.yaml' is not a regular file)" in spec_refusal(including("pipe.yaml"))


def make_repo(root: str) -> None:
    os.makedirs(os.path.join(root, ".git"))


def test_include_outside_the_repository_is_refused_unless_allowed() -> None:
    make_repo("repo")
    write("outside/atoms.yaml", ATOMS)
    user = write("repo/specs/user.yaml", "version: 1\nname: u\ninclude: [../../outside/atoms.yaml]\n" + CHECK)
    assert repository_root(user) == "repo" or repository_root(user) == os.path.abspath("repo")
    message = spec_refusal(user)
    assert message.startswith("repo/specs/user.yaml:3:11: included file '../../outside/atoms.yaml' is outside the "
                              "repository ")
    assert message.endswith("; pass --allow-outside to permit it")
    assert list(load_spec(user, allow_outside=True).checks) == ["c"]
    assert [s.name for s in load_specs([user], allow_outside=True)] == ["u"]
    assert "--allow-outside" in refusal(lambda: load_specs(["repo"]))


def test_include_inside_the_repository_from_a_subdirectory_is_allowed() -> None:
    make_repo("repo")
    write("repo/atoms/atoms.yaml", ATOMS)
    user = write("repo/specs/deep/user.yaml", "version: 1\nname: u\ninclude: [../../atoms/atoms.yaml]\n" + CHECK)
    assert list(load_spec(user).checks) == ["c"]
    target = os.path.abspath("repo/atoms/atoms.yaml")
    absolute = write("repo/specs/abs.yaml", f"version: 1\nname: a\ninclude: [{target!r}]\n")
    assert load_spec(absolute).name == "a"


def test_symlink_inside_the_repository_pointing_outside_is_refused() -> None:
    make_repo("repo")
    write("outside/atoms.yaml", ATOMS)
    os.symlink(os.path.abspath("outside/atoms.yaml"), "repo/atoms.yaml")
    user = write("repo/user.yaml", "version: 1\nname: u\ninclude: [atoms.yaml]\n")
    assert "is outside the repository" in spec_refusal(user)
    assert load_spec(user, allow_outside=True).name == "u"


def test_without_git_the_working_directory_or_the_spec_directory_is_the_root(
        in_tmp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A source tarball has no .git: run from the project, its specs may include each other; a spec outside
    the working directory may include only what lies beside it."""
    write("proj/atoms/atoms.yaml", ATOMS)
    user = os.path.abspath(write("proj/specs/user.yaml", "version: 1\nname: u\ninclude: [../atoms/atoms.yaml]\n"))
    monkeypatch.chdir(in_tmp / "proj")
    assert load_spec(user).name == "u"
    monkeypatch.chdir(in_tmp / "proj" / "specs")
    assert "is outside the repository" in refusal(lambda: load_spec(user))
    os.mkdir(in_tmp / "elsewhere")
    monkeypatch.chdir(in_tmp / "elsewhere")
    assert "is outside the repository" in refusal(lambda: load_spec(user))
    inside = os.path.abspath(in_tmp / "proj" / "atoms" / "user.yaml")
    write(inside, "version: 1\nname: u\ninclude: [atoms.yaml]\n")
    assert load_spec(inside).name == "u"


def test_nested_include_is_held_to_the_top_level_repository() -> None:
    make_repo("repo")
    write("outside/atoms.yaml", ATOMS)
    write("repo/lib.yaml", "version: 1\nname: lib\ninclude: [../outside/atoms.yaml]\n")
    user = write("repo/user.yaml", "version: 1\nname: u\ninclude: [lib.yaml]\n")
    message = spec_refusal(user)
    assert message.startswith("repo/lib.yaml:3:11: included file '../outside/atoms.yaml' is outside")
    assert message.endswith("(included from repo/user.yaml:3:11)")


def test_include_path_with_control_characters() -> None:
    message = spec_refusal(write("ctl.yaml", 'version: 1\nname: u\ninclude: ["a\\nb.yaml"]\n'))
    assert message == "ctl.yaml:3:11: an include must be a printable file path, not 'a\\nb.yaml'"


# --- 4. names ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("section,name,shown", [
    ("checks", '"a\\nb"', "'a\\nb'"),
    ("checks", '"tab\\there"', "'tab\\there'"),
    ("mma_atoms", '"bell\\a"', "'bell\\x07'"),
    ("copy_atoms", '"nul\\0"', "'nul\\x00'"),
    ("checks", '"line\\u2028sep"', "'line\\u2028sep'"),
])
def test_unprintable_names(section: str, name: str, shown: str) -> None:
    message = spec_refusal(write("n.yaml", f"version: 1\nname: n\n{section}:\n  {name}: {{}}\n"))
    assert message == (f"n.yaml:4:3: a name in '{section}' must be printable (no control characters, tabs or "
                       f"newlines), not {shown}")


def test_name_too_long() -> None:
    name = "c" * 201
    message = spec_refusal(write("long.yaml", f"version: 1\nname: n\nchecks:\n  {name}: {{mma: X}}\n"))
    assert message.startswith("long.yaml:4:3: a name in 'checks' has 201 characters; at most 200 are supported: ")
    assert "c" * (ECHO + 1) not in message


def test_longest_printable_name_loads() -> None:
    name = "é" * 200
    spec: Spec = load_spec(write("ok.yaml", ATOMS + f"checks:\n  {name}:\n    mma: MMA\n"))
    assert list(spec.checks) == [name]


def test_unknown_atom_with_a_huge_name_is_cut_short() -> None:
    text = ATOMS + "checks:\n  c:\n    mma: " + "y" * 100_000 + "\n"
    message = spec_refusal(write("u.yaml", text))
    assert message.startswith("u.yaml:20:10: unknown MMA atom 'yyy") and "y" * (ECHO + 1) not in message
