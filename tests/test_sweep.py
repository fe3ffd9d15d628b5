"""`sweep:` (format version 2): one check written once for a product of values expands into named checks, equal
to the checks written one by one, with errors at the template's lines."""
from pathlib import Path

import pytest

from verifier.specfile import SpecError, load_spec

ROOT = Path(__file__).parent.parent
ATOMS = ROOT / "specs" / "atoms"
HEAD = (f"version: 2\nname: swept\ninclude: [{ATOMS / 'sm75.yaml'}, {ATOMS / 'sm80_f16.yaml'}]\nchecks:\n")
# the catalog's warp sweep (specs/catalog/sm80_f16.yaml), written once
WARPS = """  warps{atom_layout}_{operand}_kmajor_ldsm_n_x4:
    description: "{atom_layout} warps, operand {operand}"
    mma: SM80_16x8x16_F32F16F16F32_TN
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64))"
    sweep:
      atom_layout: {1: [1, 1, 1], 2: [2, 1, 1], 4: [2, 2, 1], 8: [4, 2, 1]}
      operand: [A, B]
"""
PERMUTATION = {"1": [16, 16, 16], "2": [32, 16, 16], "4": [32, 32, 16], "8": [64, 32, 16]}


def spec(tmp_path, checks):
    f = tmp_path / "swept.yaml"
    f.write_text(HEAD + checks)
    return load_spec(f, allow_outside=True)


def test_a_sweep_expands_in_order_with_its_labels(tmp_path):
    s = spec(tmp_path, WARPS.replace("    copy:", "    permutation: [16, 16, 16]\n    copy:"))
    assert list(s.checks) == [f"warps{w}_{op}_kmajor_ldsm_n_x4" for w in ("1", "2", "4", "8") for op in "AB"]
    c = s.checks["warps4_B_kmajor_ldsm_n_x4"]
    assert (c.atom_layout, c.operand, c.description) == ((2, 2, 1), "B", "4 warps, operand B")


def test_the_swept_checks_are_the_catalogs(tmp_path):
    text = WARPS.replace("    copy:", "    permutation: {permutation}\n    copy:").replace(
        "      operand: [A, B]", "      operand: [A, B]")
    # the permutation follows the warps: one template per warp count keeps the product honest
    catalog = load_spec(ROOT / "specs" / "catalog" / "sm80_f16.yaml")
    for w, perm in PERMUTATION.items():
        one = WARPS.replace("    copy:", f"    permutation: {perm}\n    copy:").replace(
            "{1: [1, 1, 1], 2: [2, 1, 1], 4: [2, 2, 1], 8: [4, 2, 1]}",
            {"1": "{1: [1, 1, 1]}", "2": "{2: [2, 1, 1]}", "4": "{4: [2, 2, 1]}", "8": "{8: [4, 2, 1]}"}[w])
        s = spec(tmp_path, one)
        for op in "ab":
            mine = s.checks[f"warps{w}_{op.upper()}_kmajor_ldsm_n_x4"]
            theirs = catalog.checks[f"warps{w}_{op}_kmajor_ldsm_n_x4"]
            assert (mine.mma, mine.operand, mine.copy, mine.value_type, mine.permutation) == \
                   (theirs.mma, theirs.operand, theirs.copy, theirs.value_type, theirs.permutation)
            assert tuple(mine.atom_layout) == tuple(theirs.atom_layout)
            assert str(mine.smem) == str(theirs.smem)
    assert "{permutation}" in text


def test_a_variable_the_name_does_not_mention_adds_its_label(tmp_path):
    s = spec(tmp_path, WARPS.replace("warps{atom_layout}_{operand}_kmajor", "w{atom_layout}_kmajor"))
    assert "w4_kmajor_ldsm_n_x4_B" in s.checks


@pytest.mark.parametrize("checks, line, words", [
    (WARPS.replace("operand {operand}", "operand {oprand}"), 6, "names {oprand}, which its sweep does not define"),
    (WARPS.replace("      operand: [A, B]", "      operand: [A, B]\n      unused: [1, 2]"), 14,
     "is neither a check key"),
    (WARPS.replace("operand: [A, B]", "operand: [[A], B]"), 13, "give a list or mapping value a label"),
    (WARPS.replace("operand: [A, B]", "operand: [A, A]"), 13, "lists one label twice"),
    (WARPS.replace("operand: [A, B]", "operand: []"), 13, "non-empty list of values"),
    (WARPS.replace("_{operand}_kmajor", "_kmajor") + WARPS.replace("_{operand}_kmajor", "_kmajor").replace(
        "  warps", "  wa"), None, None),
    (WARPS + "  warps4_A_kmajor_ldsm_n_x4:\n    mma: SM80_16x8x16_F32F16F16F32_TN\n", 14, "is defined twice"),
    (WARPS.replace("operand: [A, B]", "operand: [A, B]\n      " + "\n      ".join(
        f"v{i}: [1, 2, 3, 4, 5, 6, 7, 8]" for i in range(4))).replace("operand {operand}", "{v0}{v1}{v2}{v3}"),
     None, "at most 4096"),
])
def test_bad_sweeps_are_one_line_at_the_template(tmp_path, checks, line, words):
    if words is None:     # two templates that expand into distinct names: fine
        assert len(spec(tmp_path, checks).checks) == 16
        return
    with pytest.raises(SpecError) as e:
        spec(tmp_path, checks)
    assert words in e.value.message
    if line is not None:
        assert e.value.loc is not None and e.value.loc.line == line


def test_sweep_is_a_version_2_key(tmp_path):
    f = tmp_path / "v1.yaml"
    f.write_text(HEAD.replace("version: 2", "version: 1") + WARPS)
    with pytest.raises(SpecError) as e:
        load_spec(f, allow_outside=True)
    assert "version 2 key" in e.value.message and e.value.loc.line == 11


def test_values_naming_values_cannot_blow_up(tmp_path):
    """Each round of substitution could multiply a string's length: it is bounded, one line at the template."""
    def group(var, name, text):
        return f"      {var}: {{one: {{{name}: \"{text}\"}}}}\n"
    text = ("  c:\n    description: \"" + "{xa}" * 50 + "\"\n    mma: SM80_16x8x16_F32F16F16F32_TN\n    sweep:\n"
            + group("a", "xa", "{xb}" * 50) + group("b", "xb", "{xc}" * 50) + group("c", "xc", "{xd}" * 50)
            + group("d", "xd", "z" * 10))
    with pytest.raises(SpecError) as e:
        spec(tmp_path, text)
    assert "grows beyond" in e.value.message and e.value.loc.line == 5


GROUPED = """  g_{case}_{tag}:
    description: "on {atom_layout} warps"
    mma: SM80_16x8x16_F32F16F16F32_TN
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    operand: A
    smem: "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), (128,64))"
    sweep:
      case:
        two: {atom_layout: [2, 1, 1], permutation: [32, 16, 16], tag: x2}
        four: {atom_layout: [2, 2, 1], permutation: [32, 32, 16], tag: x4}
"""


def test_a_list_a_group_sets_is_shown_as_yaml_writes_it(tmp_path):
    s = spec(tmp_path, GROUPED)
    assert [(n, c.description) for n, c in s.checks.items()] == [("g_two_x2", "on [2, 1, 1] warps"),
                                                                  ("g_four_x4", "on [2, 2, 1] warps")]


def test_a_group_entry_that_leaves_out_a_variable_the_check_uses_is_bad_input_at_the_entry(tmp_path):
    """Another entry sets it, so the template names a known variable; this entry's check could not be named (it was
    a KeyError, an internal error)."""
    with pytest.raises(SpecError) as e:
        spec(tmp_path, GROUPED.replace(", tag: x4}", "}"))
    assert "sweep variable 'case': its entry 'four' does not set tag, which check 'g_{case}_{tag}' uses" in \
        e.value.message and e.value.loc.line == 15
