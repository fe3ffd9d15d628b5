"""The spec loader: valid files load with their includes; every bad spec is one `file:line:column: message`."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from verifier.algebra import ComposedLayout, Layout, parse_layout
from verifier.specfile import Loc, SpecError, load_spec, load_specs

ATOMS = """\
version: 1
name: sm80_atoms
mma_atoms:
  SM80_16x8x16_F16F16F16F16_TN:
    instruction: mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16
    shape_mnk: [16, 8, 16]
    thr_id: "32:1"
    types: {a: half_t, b: half_t, c: half_t, d: half_t}
    a: "((4,8),(2,2,2)):((32,1),(16,8,128))"
    b: "((4,8),(2,2)):((16,1),(8,64))"
    c: "((4,8),(2,2)):((32,1),(16,8))"
copy_atoms:
  SM75_U32x4_LDSM_N:
    instruction: ldmatrix.sync.aligned.m8n8.x4.shared.b16
    thr_id: "32:1"
    src: "(32,128):(128,1)"
    dst: "(32,(32,4)):(32,(1,1024))"
    ref: dst
checks:
  only_in_the_library:
    mma: SM80_16x8x16_F16F16F16F16_TN
"""

MAIN = """\
version: 1
name: sm80_f16
description: ldmatrix feeding the SM80 f16 MMA
include: [atoms/sm80.yaml]
checks:
  ldsm_a_kmajor:
    mma: SM80_16x8x16_F16F16F16F16_TN
    atom_layout: [1, 1, 1]
    permutation: [16, 8, "16:1"]
    operand: a
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "(16,16):(16,1)"
  atom_only:
    mma: SM80_16x8x16_F16F16F16F16_TN
  copy_only:
    copy: SM75_U32x4_LDSM_N
    value_type: 16
  wrong_tiling:
    mma: SM80_16x8x16_F16F16F16F16_TN
    operand: B
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)
    expect: fail
    copy_for: a
    copy_mma: {atom_layout: [2, 2, 1]}
"""

MMA = "SM80_16x8x16_F16F16F16F16_TN"
LDSM = "SM75_U32x4_LDSM_N"


@pytest.fixture(autouse=True)
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)   # spec paths are given relative, as a user types them
    return tmp_path


def write(name: str, text: str) -> str:
    Path(name).parent.mkdir(parents=True, exist_ok=True)
    Path(name).write_text(text)
    return name


def pos(text: str, needle: str, occurrence: int = 0) -> tuple[int, int]:
    """1-based (line, column) of the start of `needle` in `text`."""
    i = -1
    for _ in range(occurrence + 1):
        i = text.index(needle, i + 1)
    return text.count("\n", 0, i) + 1, i - (text.rfind("\n", 0, i) + 1) + 1


def error(path: str) -> SpecError:
    with pytest.raises(SpecError) as info:
        load_spec(path)
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    return info.value


def assert_error_at(path: str, line: int, column: int, *words: str) -> SpecError:
    e = error(path)
    assert str(e).startswith(f"{path}:{line}:{column}: "), str(e)
    for w in words:
        assert w in str(e), str(e)
    return e


def with_atoms(checks: str, extra_top: str = "") -> str:
    """ATOMS with its checks replaced."""
    return ATOMS.split("checks:\n")[0] + extra_top + "checks:\n" + checks


# --- a valid spec ------------------------------------------------------------------------------------

def test_valid_spec_with_include_loads() -> None:
    write("specs/atoms/sm80.yaml", ATOMS)
    path = write("specs/sm80_f16.yaml", MAIN)
    spec = load_spec(path)

    assert spec.name == "sm80_f16" and spec.version == 1 and spec.path == path
    assert spec.description == "ldmatrix feeding the SM80 f16 MMA"
    assert spec.includes == [str(Path("specs/atoms/sm80.yaml"))]
    # the include's atoms are visible, its checks are not run
    assert list(spec.checks) == ["ldsm_a_kmajor", "atom_only", "copy_only", "wrong_tiling"]
    mma, ldsm = spec.mma_atoms[MMA], spec.copy_atoms[LDSM]
    assert mma.a == parse_layout("((4,8),(2,2,2)):((32,1),(16,8,128))")
    assert mma.shape_mnk == (16, 8, 16) and mma.types["a"].bits == 16 and mma.types["d"].name == "half_t"
    assert ldsm.ref is ldsm.dst and ldsm.ref_is == "dst"
    # atoms remember the included file they were written in, relative as the user gave it
    assert mma.loc == Loc("specs/atoms/sm80.yaml", *pos(ATOMS, MMA))
    assert mma.field_locs["a"] == Loc("specs/atoms/sm80.yaml", *pos(ATOMS, '"((4,8),(2,2,2))'))
    assert mma.field_locs["types.c"] == Loc("specs/atoms/sm80.yaml", *pos(ATOMS, "half_t", 2))


def test_valid_checks_are_typed_and_located() -> None:
    write("specs/atoms/sm80.yaml", ATOMS)
    spec = load_spec(write("specs/sm80_f16.yaml", MAIN))
    tiled, atom_only, copy_only, wrong = spec.checks.values()

    assert tiled.kind == "tiled" and atom_only.kind == "mma" and copy_only.kind == "copy"
    assert tiled.operand == "A" and tiled.expect == "pass" and tiled.atom_layout == (1, 1, 1)
    assert tiled.permutation == (16, 8, Layout(16, 1))
    assert tiled.smem == parse_layout("(16,16):(16,1)")
    assert tiled.loc == Loc("specs/sm80_f16.yaml", *pos(MAIN, "ldsm_a_kmajor"))
    assert tiled.field_locs["mma"] == Loc("specs/sm80_f16.yaml", *pos(MAIN, MMA))
    assert tiled.field_locs["smem"] == Loc("specs/sm80_f16.yaml", *pos(MAIN, '"(16,16)'))
    assert copy_only.value_type is not None and (copy_only.value_type.name, copy_only.value_type.bits) == ("16", 16)
    # smem_ptr[16b](unset): the GMMA byte-address swizzle becomes one on element offsets
    assert isinstance(wrong.smem, ComposedLayout) and str(wrong.smem.a) == "Sw<3,3,3>"
    assert wrong.expect == "fail" and wrong.copy_for == "A"
    assert wrong.copy_mma is not None and wrong.copy_mma.atom_layout == (2, 2, 1)
    assert wrong.field_locs["copy_mma.atom_layout"].line == pos(MAIN, "{atom_layout")[0]


def test_integer_bit_widths_as_types() -> None:
    text = ATOMS.replace("{a: half_t, b: half_t, c: half_t, d: half_t}", "{a: 16, b: 16, c: 32, d: float}")
    spec = load_spec(write("widths.yaml", text))
    types = spec.mma_atoms[MMA].types
    assert (types["a"].name, types["a"].bits, types["c"].bits, types["d"].bits) == ("16", 16, 32, 32)


def test_load_specs_reads_directories_recursively_in_order() -> None:
    write("specs/atoms/sm80.yaml", ATOMS)
    write("specs/sm80_f16.yaml", MAIN)
    write("specs/notes.txt", "not a spec")
    specs = load_specs(["specs"])
    assert [s.path for s in specs] == [str(Path("specs/atoms/sm80.yaml")), str(Path("specs/sm80_f16.yaml"))]
    assert list(specs[0].checks) == ["only_in_the_library"]
    with pytest.raises(SpecError, match="no such spec file"):
        load_specs(["nowhere"])


# --- YAML errors -------------------------------------------------------------------------------------

def test_malformed_yaml() -> None:
    text = 'version: 1\nname: bad\nmma_atoms:\n  X:\n    a: "((4,8),(2,2)):((32,1))"\n  - oops\n'
    assert_error_at(write("bad.yaml", text), 6, 3, "bad YAML", "'-'")


def test_duplicate_key() -> None:
    text = ATOMS.replace("    b: \"((4,8)", "    a: \"((4,8),(2,2,2)):((32,1),(16,8,128))\"\n    b: \"((4,8)", 1)
    line, col = pos(text, "    a: ", 1)
    assert_error_at(write("dup.yaml", text), line, col + 4, "duplicate key", '"a"')


def test_empty_file_and_non_mapping_top_level() -> None:
    assert_error_at(write("empty.yaml", ""), 1, 1, "must be a mapping")
    assert_error_at(write("list.yaml", "- 1\n- 2\n"), 1, 1, "must be a mapping")


def test_tags_construct_no_objects() -> None:
    text = "version: 1\nname: !!python/object/apply:os.system [echo hi]\n"
    assert_error_at(write("tag.yaml", text), 2, 7, "'name'", "must be a string")


# --- top level ---------------------------------------------------------------------------------------

def test_unknown_top_level_key() -> None:
    text = ATOMS.replace("mma_atoms:", "mma_atom:\n  {}\nmma_atoms:")
    assert_error_at(write("top.yaml", text), *pos(text, "mma_atom:"), "unknown key 'mma_atom'",
                    "did you mean 'mma_atoms'")


@pytest.mark.parametrize("version", ["3", "0", "'1'", "true"])
def test_version_must_be_1_or_2(version: str) -> None:
    text = ATOMS.replace("version: 1", f"version: {version}")
    assert_error_at(write("v.yaml", text), 1, 10, "'version' must be 1 or 2")


def test_version_2_reads_version_1_files() -> None:
    assert load_spec(write("v2.yaml", ATOMS.replace("version: 1", "version: 2"))).version == 2


def test_missing_version_and_name() -> None:
    assert_error_at(write("nov.yaml", "name: x\n"), 1, 1, "'version' must be 1 or 2")
    assert_error_at(write("non.yaml", "version: 1\n"), 1, 1, "missing 'name'")


# --- includes ----------------------------------------------------------------------------------------

def test_include_cycle() -> None:
    write("a.yaml", "version: 1\nname: a\ninclude: [b.yaml]\n")
    write("b.yaml", "version: 1\nname: b\ninclude:\n  - a.yaml\n")
    # reported where the cycle closes, with the way there
    e = str(error("a.yaml"))
    assert e.startswith("b.yaml:4:5: include cycle: a.yaml -> b.yaml -> a.yaml"), e
    assert e.endswith("(included from a.yaml:3:11)"), e


def test_missing_include() -> None:
    text = "version: 1\nname: m\ninclude: [atoms/nope.yaml]\n"
    assert_error_at(write("m.yaml", text), 3, 11, "'atoms/nope.yaml' not found")


def test_error_in_included_file_points_into_it() -> None:
    write("lib.yaml", ATOMS.replace('thr_id: "32:1"', 'thr_id: "32:1x"', 1))
    e = error(write("user.yaml", "version: 1\nname: u\ninclude: [lib.yaml]\n"))
    assert str(e).startswith("lib.yaml:7:") and "included from user.yaml:3:11" in str(e)


def test_atom_defined_twice_is_refused() -> None:
    write("lib.yaml", ATOMS)
    text = "version: 1\nname: u\ninclude: [lib.yaml]\n" + ATOMS.split("name: sm80_atoms\n")[1].split("copy_atoms:")[0]
    assert_error_at(write("twice.yaml", text), *pos(text, MMA), "already defined at lib.yaml:4:3")


# --- atoms -------------------------------------------------------------------------------------------

def test_layout_syntax_error_points_inside_the_quoted_string() -> None:
    bad = '"((4,8),(2,2)):((16,1),(8;64))"'
    text = ATOMS.replace('"((4,8),(2,2)):((16,1),(8,64))"', bad)
    line, col = pos(text, bad)
    assert_error_at(write("syn.yaml", text), line, col + bad.index(";"), "bad layout in 'b'", "';'")


def test_layout_syntax_error_in_a_plain_scalar() -> None:
    text = ATOMS.replace("ref: dst", "ref: (32,(32,4)):(32,(1,1024)) junk")
    line, col = pos(text, "(32,(32,4)):(32,(1,1024)) junk")
    assert_error_at(write("plain.yaml", text), line, col + len("(32,(32,4)):(32,(1,1024)) "), "'ref'")


def test_shape_stride_rank_mismatch() -> None:
    text = ATOMS.replace('"((4,8),(2,2)):((32,1),(16,8))"', '"((4,8),(2,2)):((32,1))"')
    line, col = pos(text, '"((4,8),(2,2)):((32,1))"')
    e = assert_error_at(write("rank.yaml", text), line, col + 1 + len("((4,8),(2,2)):"), "different ranks")
    assert re.fullmatch(r"rank\.yaml:\d+:\d+: .+", str(e))


def test_thread_mode_must_match_thr_id() -> None:
    text = ATOMS.replace('src: "(32,128):(128,1)"', 'src: "(16,256):(256,1)"')
    assert_error_at(write("thr.yaml", text), *pos(text, '"(16,256)'), "'src' of copy atom 'SM75_U32x4_LDSM_N'",
                    "16 threads", "thr_id has 32")


def test_swizzled_atom_layout_is_refused() -> None:
    text = ATOMS.replace('c: "((4,8),(2,2)):((32,1),(16,8))"', 'c: "Sw<1,1,1> o ((4,8),(2,2)):((32,1),(16,8))"')
    assert_error_at(write("sw.yaml", text), *pos(text, '"Sw<1'), "not a swizzled layout")


def test_unknown_type_name() -> None:
    text = ATOMS.replace("d: half_t}", "d: halft_t}")
    assert_error_at(write("type.yaml", text), *pos(text, "halft_t"), "unknown value type 'halft_t'")


def test_missing_atom_key_points_at_the_atom() -> None:
    text = ATOMS.replace("    ref: dst\n", "")
    assert_error_at(write("noref.yaml", text), *pos(text, LDSM), "missing 'ref'")


def test_absurd_layout_size() -> None:
    text = ATOMS.replace('src: "(32,128):(128,1)"', 'src: "(32,1048576):(1048576,1)"')
    assert_error_at(write("huge.yaml", text), *pos(text, '"(32,1048576)'), "2**24")


# --- checks ------------------------------------------------------------------------------------------

def test_unknown_check_key() -> None:
    text = with_atoms(f"  c:\n    copy: {LDSM}\n    valu_type: half_t\n")
    assert_error_at(write("ck.yaml", text), *pos(text, "valu_type"), "unknown key 'valu_type'",
                    "did you mean 'value_type'")


def test_unknown_atom_with_suggestion() -> None:
    text = with_atoms("  c:\n    mma: SM80_16x8x16_F16F16F16F16_NT\n")
    assert_error_at(write("ua.yaml", text), *pos(text, "SM80_16x8x16_F16F16F16F16_NT"),
                    "unknown MMA atom 'SM80_16x8x16_F16F16F16F16_NT'", f"did you mean '{MMA}'")
    text = with_atoms("  c:\n    copy: SM90_nothing_like_it\n    value_type: half_t\n")
    assert_error_at(write("uc.yaml", text), *pos(text, "SM90_nothing"), "unknown copy atom 'SM90_nothing_like_it'")


def test_copy_needs_value_type() -> None:
    text = with_atoms(f"  c:\n    copy: {LDSM}\n")
    assert_error_at(write("vt.yaml", text), *pos(text, "c:\n"), "no 'value_type'")


def test_check_must_name_an_atom() -> None:
    text = with_atoms("  c:\n    expect: pass\n")
    assert_error_at(write("none.yaml", text), *pos(text, "c:\n"), "names no atom")


def test_tiled_check_needs_operand_and_smem() -> None:
    text = with_atoms(f"  c:\n    mma: {MMA}\n    copy: {LDSM}\n    value_type: half_t\n    operand: A\n")
    assert_error_at(write("nosmem.yaml", text), *pos(text, "c:\n"), "needs 'smem'")


def test_copy_for_only_on_tiled_checks() -> None:
    text = with_atoms(f"  c:\n    mma: {MMA}\n    copy_for: B\n")
    assert_error_at(write("cf.yaml", text), *pos(text, "copy_for"), "both 'mma' and 'copy'")


def test_absurd_atom_layout() -> None:
    text = with_atoms(f"  c:\n    mma: {MMA}\n    atom_layout: [8, 8, 1]\n")
    assert_error_at(write("al.yaml", text), *pos(text, "[8, 8, 1]"), "2048 threads", "at most 1024")


def test_bad_expect() -> None:
    text = with_atoms(f"  c:\n    mma: {MMA}\n    expect: maybe\n")
    assert_error_at(write("ex.yaml", text), *pos(text, "maybe"), "'expect'", "pass | fail")


def test_bad_operand_and_permutation() -> None:
    base = f"  c:\n    mma: {MMA}\n    copy: {LDSM}\n    value_type: half_t\n    smem: \"(16,16):(16,1)\"\n"
    text = with_atoms(base + "    operand: D\n")
    assert_error_at(write("op.yaml", text), *pos(text, "D\n"), "'operand'", "A | B | C")
    text = with_atoms(base + "    operand: A\n    permutation: [16, 0]\n")
    assert_error_at(write("perm.yaml", text), *pos(text, "0]"), "'permutation'")


def test_smem_ptr_width_must_match_value_type() -> None:
    text = with_atoms(f"  c:\n    mma: {MMA}\n    copy: {LDSM}\n    value_type: float\n    operand: A\n"
                      "    smem: Sw<3,4,3> o smem_ptr[16b](unset) o (8,64):(64,1)\n")
    assert_error_at(write("ptr.yaml", text), *pos(text, "Sw<3,4,3>"), "16-bit elements")


@pytest.mark.parametrize("garbage", [
    "version: 1\nname: g\nchecks: [1, 2]\n",
    "version: 1\nname: g\nchecks:\n  c: 7\n",
    "version: 1\nname: g\nmma_atoms:\n  X:\n    shape_mnk: 16\n",
    "version: 1\nname: g\ncopy_atoms:\n  1: {}\n",
    "version: 1\nname: g\ninclude: 3\n",
    "version: 1\nname: g\nmma_atoms:\n  X: {shape_mnk: [1,1,1], thr_id: '1:0', types: {a: 8},\n"
    "      a: '1:0', b: '1:0', c: '1:0'}\n",
    "version: 1\nname: g\nmma_atoms:\n  X: {thr_id: right_inverse(, types: {}, a: 1, b: 2, c: 3, shape_mnk: [1,1,1]}\n",
    "\x00\x01",
    "version: 1\nname: [" * 50,
])
def test_garbage_gives_a_located_error(garbage: str) -> None:
    e = error(write("g.yaml", garbage))
    assert re.match(r"g\.yaml:\d+:\d+: \S", str(e)), str(e)


def test_a_spec_loader_parses_a_shared_include_once(monkeypatch) -> None:
    """A worker proving file after file keeps one SpecLoader: an include two files share is read once, and each
    file gets what load_spec gives it."""
    from verifier.specfile import loader as loader_module
    read: list[str] = []
    original = loader_module._read_text
    monkeypatch.setattr(loader_module, "_read_text", lambda path: read.append(Path(path).name) or original(path))
    catalog = Path(__file__).parent.parent / "specs" / "catalog"
    spec_loader = loader_module.SpecLoader()
    first, second = spec_loader.load(catalog / "sm80_f16.yaml"), spec_loader.load(catalog / "atoms_sm80.yaml")
    assert read.count("sm80_f16.yaml") == 2          # the catalog file and specs/atoms/sm80_f16.yaml, once each
    assert read.count("sm75.yaml") == 1
    for spec, path in ((first, catalog / "sm80_f16.yaml"), (second, catalog / "atoms_sm80.yaml")):
        alone = load_spec(path)
        assert list(spec.checks) == list(alone.checks) and list(spec.mma_atoms) == list(alone.mma_atoms)
