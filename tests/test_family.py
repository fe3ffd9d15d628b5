"""`family:` (format version 2): one check for every value of its parameters, proved member by member — verified
when every member is, else refuted (or refused, unsupported ...) with its smallest member that is not verified,
never claimed for a member that was not proved; bad families are bad input at their line."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.engine.runner import run_check
from verifier.outcome import Status, Verdict
from verifier.specfile import SpecError, load_spec
from verifier.specfile.family import SHARED_BYTES, FamilyCheck

ROOT = Path(__file__).parent.parent
ATOMS = ROOT / "specs" / "atoms"
HEAD = (f"version: 2\nname: fam\ninclude: [{ATOMS / 'sm75.yaml'}, {ATOMS / 'sm80_f16.yaml'}, "
        f"{ATOMS / 'sm90_gmma.yaml'}, {ATOMS / 'sm100_umma.yaml'}]\nchecks:\n")
TILED = """    mma: SM80_16x8x16_F32F16F16F32_TN
    atom_layout: [2, 2, 1]
    permutation: [32, 32, 16]
    operand: {operand}
    copy: SM75_U32x4_LDSM_N
    value_type: half_t
    smem: "{smem}"
"""
SWIZZLED = "tile_to_shape(Sw<3,3,3> o (8,64):(64,1), ({BM},64,{stages}))"
HARDCODED_STAGE = "composition(Sw<3,3,3>, ({BM},64,{stages}):(64,1,8192))"


def family(name: str, domains: str, smem: str, operand: str = "A", extra: str = "") -> str:
    body = TILED.replace("{operand}", operand).replace("{smem}", smem)
    return f"  {name}:\n    family:\n" + "".join(f"      {d.strip()}\n" for d in domains.split(";")) + extra + body


def hopper_family(name: str, domains: str, tile: str) -> str:
    """A TMA + wgmma operand-A check (a family with `domains`; none: a plain check) of the K-major SW128 tile."""
    head = "    family:\n" + "".join(f"      {d.strip()}\n" for d in domains.split(";")) if domains else ""
    return (f"  {name}:\n{head}"
            '    mma: "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"\n'
            "    operand: A\n    copy: SM90_TMA_LOAD\n    value_type: half_t\n"
            f'    smem: "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, {tile})"\n'
            '    gmem: "(4096,4096):(4096,1)"\n')


def load(tmp_path: Path, checks: str, version: int = 2):
    f = tmp_path / "fam.yaml"
    f.write_text(HEAD.replace("version: 2", f"version: {version}") + checks)
    return load_spec(f, allow_outside=True)


def prove(tmp_path: Path, checks: str):
    spec = load(tmp_path, checks)
    return spec, {n: run_check(spec, c) for n, c in spec.checks.items()}


def test_the_sm80_mainloop_family_is_proved_for_every_member(tmp_path):
    spec, results = prove(tmp_path, family("a", "BM: {multiple_of: 32, min: 32}; stages: [2, 8]", SWIZZLED)
                          + family("b", "BN: {multiple_of: 32, min: 32}; stages: [2, 8]",
                                   SWIZZLED.replace("{BM}", "{BN}"), operand="B"))
    for name in ("a", "b"):
        fam, r = spec.checks[name], results[name]
        assert isinstance(fam, FamilyCheck) and r.verdict is Verdict.VERIFIED and r.member == ""
        assert all(t.status is Status.PROVED for t in r.theorems) and len(r.theorems) == 12
        # every BM from 32 to the largest whose 2 stages fit: 896 = 232448 // (64 * 2 bytes * 2 stages) rounded to 32
        rows = sorted({m.point[fam.parameters[0].name] for m in fam.members})
        assert rows == list(range(32, 897, 32)) and len(fam.members) == 28 * 7
        assert [m.shared_bytes for m in fam.members] == sorted(m.shared_bytes for m in fam.members)
        assert fam.members[0].point[fam.parameters[0].name] == 32 and fam.members[-1].shared_bytes == 896 * 64 * 2 * 8
        assert any("196 members" in line and "every member enumerated" in line for line in r.info)
        assert any("the last value whose member (stages=2) fits" in line for line in r.info)


def test_members_are_the_checks_written_one_by_one(tmp_path):
    """The cross-check: the family's members, written as plain checks, are proved alike (the first members and the
    first failing one of a family with a bug from BM = 160 on)."""
    spec, results = prove(tmp_path, family("f", "BM: {multiple_of: 32, max: 192, min: 32}; stages: [2, 3]",
                                           HARDCODED_STAGE, extra="    expect: fail\n"))
    fam = spec.checks["f"]
    plain = "".join(f"  m{m.point['BM']}_{m.point['stages']}:\n"
                    + TILED.replace("{operand}", "A").replace("{smem}", HARDCODED_STAGE.replace(
                        "{BM}", str(m.point["BM"])).replace("{stages}", str(m.point["stages"])))
                    for m in fam.members)
    _, one_by_one = prove(tmp_path, plain)
    verdicts = [one_by_one[f"m{m.point['BM']}_{m.point['stages']}"].verdict for m in fam.members]
    first_bad = next(i for i, v in enumerate(verdicts) if v is not Verdict.VERIFIED)
    assert fam.members[first_bad].point == {"BM": 160, "stages": 2}
    assert all(v is Verdict.VERIFIED for v in verdicts[:first_bad])
    r = results["f"]
    assert r.verdict is Verdict.REFUTED and r.member == "BM=160, stages=2"
    member = one_by_one["m160_2"]
    assert [(t.id, t.status) for t in r.theorems] == [(t.id, t.status) for t in member.theorems]
    fails = [t for t in r.theorems if t.status is Status.REFUTED]
    assert fails and fails[0].first_failure().witness.point == \
        next(t for t in member.theorems if t.status is Status.REFUTED).first_failure().witness.point


def test_a_bug_from_some_size_on_is_refuted_with_its_smallest_member(tmp_path):
    _, results = prove(tmp_path, family("stride", "BM: {multiple_of: 32, min: 32}; stages: [2, 8]",
                                        HARDCODED_STAGE, extra="    expect: fail\n"))
    r = results["stride"]
    assert r.verdict is Verdict.REFUTED and r.member == "BM=160, stages=2" and r.ok
    assert [t.id.value for t in r.failures()] == ["smem.injective"]
    assert any("the 5 smaller members are verified" in line for line in r.info)


def test_a_bug_in_the_largest_member_only_is_found(tmp_path):
    """Nothing is sampled: a stage stride wrong only at BM = 896 is found there."""
    _, results = prove(tmp_path, family("last", "BM: {multiple_of: 32, min: 32}; stages: [2, 8]",
                                        "({BM},64,{stages}):(64,1,{BM*64 - (BM//896)*8})"))
    r = results["last"]
    assert r.verdict is Verdict.REFUTED and r.member == "BM=896, stages=2"


def test_padded_pitch_families(tmp_path):
    _, results = prove(tmp_path, family("good", "BM: {multiple_of: 32, min: 32}; p: {multiple_of: 8, min: 64, "
                                                "max: 128}; stages: [2, 3]", "({BM},64,{stages}):({p},1,{BM*p})")
                       + family("odd", "BM: {multiple_of: 32, min: 32, max: 128}; p: {multiple_of: 4, min: 64, "
                                       "max: 96}", "({BM},64,2):({p},1,{BM*p})")
                       + family("narrow", "BM: {multiple_of: 32, min: 32, max: 64}; p: {values: [56, 64]}",
                                "({BM},64):({p},1)"))
    assert results["good"].verdict is Verdict.VERIFIED
    assert results["odd"].member == "BM=32, p=68" and [t.id.value for t in results["odd"].failures()] == \
        ["copy.addressing"]
    # a pitch narrower than the row: rows overlap (the smallest member, p = 56, since it spans the fewest bytes)
    assert results["narrow"].member == "BM=32, p=56" and "smem.injective" in \
        [t.id.value for t in results["narrow"].failures()]


def test_a_swept_family_and_a_family_of_the_descriptor_path(tmp_path):
    swept = family("s_{operand}", "T: {multiple_of: 32, min: 32, max: 128}; stages: [2, 3]",
                   SWIZZLED.replace("{BM}", "{T}")).replace("    operand: A\n", "")
    swept += "    sweep:\n      operand: [A, B]\n"
    hopper = hopper_family("tma_a", "BM: {multiple_of: 64, min: 64, max: 256}; stages: [2, 3]; BK: {values: [64, 128]}",
                           "({BM},{BK},{stages})")
    spec, results = prove(tmp_path, swept + hopper)
    assert sorted(results) == ["s_A", "s_B", "tma_a"]
    assert all(r.verdict is Verdict.VERIFIED for r in results.values())
    assert spec.checks["tma_a"].member_kind == "gmma" and len(spec.checks["tma_a"].members) == 16


def test_a_member_beyond_shared_memory_is_judged_as_its_check(tmp_path):
    """No member is left out: one whose buffer exceeds a block's shared memory gets its own check's verdict — an
    SM80 tiled check has no capacity theorem (verified), a descriptor check refutes it (theorem 13), as written
    alone."""
    hopper = hopper_family("tma_big", "BM: {values: [128, 256]}; stages: [4, 8]", "({BM},64,{stages})")
    alone = "".join(line + "\n" for line in hopper_family("alone", "", "(256,64,8)").splitlines()
                    if line.strip() != "family:")
    spec, results = prove(tmp_path, family("big", "BM: {values: [128, 1024]}; stages: [2, 2]", SWIZZLED)
                          + hopper + alone)
    assert [m.point["BM"] for m in spec.checks["big"].members] == [128, 1024]
    assert results["big"].verdict is Verdict.VERIFIED
    r = results["tma_big"]
    assert r.verdict is Verdict.REFUTED and r.member == "BM=256, stages=8" and SHARED_BYTES < 256 * 64 * 2 * 8
    assert [t.id.value for t in r.failures()] == [t.id.value for t in results["alone"].failures()] == \
        ["tma.encodable"]


BAD = [
    ("BM: [8, 4]; stages: [2, 2]", "the range [8, 4] is empty"),
    ("BM: {min: 32, step: 32}; stages: [2, 2]", "unknown key 'step'"),
    ("BM: {max: 64}; stages: [2, 2]", "needs 'min'"),
    ("BM: [32, 64, 96]; stages: [2, 2]", "a list is a range [lo, hi]"),
    ("BM: {values: [32, 32]}; stages: [2, 2]", "lists a value twice"),
    ("BM: {multiple_of: 32, min: 32, max: 64}; stages: [2, 2]; unused: [1, 2]", "'unused' is not used"),
    ("BM: {multiple_of: 32, min: 33, max: 40}; stages: [2, 2]", "takes no value"),
    ("BM: {min: 4096, multiple_of: 32}; stages: [2, 2]", "the family has no member"),
    ("operand: [1, 2]; BM: {values: [32]}; stages: [2, 2]", "also a key of the check"),
    # bounds past a placeholder's limit, and a domain of billions of values, refused before anything is listed
    ("BM: {multiple_of: 32, min: 32, max: 99999999999999999999999}; stages: [2, 2]", "beyond 1099511627776"),
    ("BM: {values: [32, -99999999999999999999999]}; stages: [2, 2]", "beyond 1099511627776"),
    ("BM: [32, 99999999999999999999999]; stages: [2, 2]", "beyond 1099511627776"),
    ("BM: {min: 0, max: 1099511627000}; stages: [2, 2]", "takes 1099511627001 values; at most 4096"),
]


def test_a_tile_whose_offsets_pass_int64_is_sized_exactly(tmp_path):
    """A stride of 10^20 is still a layout: the family's members are sized with Python integers where int64 would
    overflow (it was an internal error), and such a tile fits no block's shared memory."""
    from verifier.algebra.syntax import parse_layout
    from verifier.kinds.shared_tile import footprint_elements
    stride = 10 ** 20
    layout = parse_layout(f"Sw<3,3,3> o (8,64,2):(64,{stride},1)")
    offsets = (i * 64 + j * stride + k for i in range(8) for j in range(64) for k in range(2))
    assert footprint_elements(layout) == max(x ^ ((x & layout.a.yyy_msk) >> layout.a.S) for x in offsets) + 1
    with pytest.raises(SpecError, match=r"needs \d+ bytes of shared memory, more than a block has"):
        load(tmp_path, family("huge", "BM: {multiple_of: 32, min: 32}; stages: [2, 2]",
                              f"tile_to_shape(Sw<3,3,3> o (8,64):(64,{stride}), ({{BM}},64,{{stages}}))"))


def test_a_member_with_an_empty_tile_is_bad_input_at_its_member(tmp_path):
    """BM = 0 makes tile_to_shape an empty tile (CuTe builds it): bad input naming the member, not an internal
    error of theorems over nothing."""
    with pytest.raises(SpecError) as e:
        load(tmp_path, family("empty", "BM: {multiple_of: 32, min: 0, max: 64}; stages: [2, 2]", SWIZZLED))
    assert "has a mode of extent 0" in e.value.message and "member BM=0, stages=2" in e.value.message


@pytest.mark.parametrize("domains, message", BAD)
def test_bad_families_are_bad_input_at_their_line(tmp_path, domains, message):
    with pytest.raises(SpecError) as e:
        load(tmp_path, family("bad", domains, SWIZZLED))
    assert message in e.value.message and e.value.loc is not None and e.value.loc.line > 4


def test_a_parameter_that_never_outgrows_shared_memory_needs_a_max(tmp_path):
    """The upward scan of a parameter without max is bounded: a parameter that never grows the tile is told."""
    with pytest.raises(SpecError, match="has no max and 1024 of its values fit"):
        load(tmp_path, family("x", "n: {min: 1}; BM: {values: [32]}; stages: [2, 2]", SWIZZLED).replace(
            "    mma:", "    description: \"variant {n}\"\n    mma:", 1))


def test_bad_members_and_files_are_bad_input(tmp_path):
    with pytest.raises(SpecError, match="names 'BN', which is not a parameter"):
        load(tmp_path, family("x", "BM: {values: [32]}; stages: [2, 2]", "({BM*BN},64,{stages}):(64,1,2048)"))
    with pytest.raises(SpecError, match="an expression has at most 200"):    # no deep recursion on hostile text
        load(tmp_path, family("x", "BM: {values: [32]}; stages: [2, 2]",
                              "({" + "1+" * 5000 + "BM},64,{stages}):(64,1,2048)"))
    with pytest.raises(SpecError, match="is not an integer expression"):
        load(tmp_path, family("x", "BM: {values: [32]}; stages: [2, 2]", "({BM**2},64,{stages}):(64,1,2048)"))
    with pytest.raises(SpecError, match=r"member BM=36, stages=2"):      # CuTe's tile_to_shape does not divide 36
        load(tmp_path, family("x", "BM: {values: [32, 36]}; stages: [2, 2]", SWIZZLED))
    with pytest.raises(SpecError, match="version 2 key"):
        load(tmp_path, family("x", "BM: {values: [32]}; stages: [2, 2]", SWIZZLED), version=1)
    with pytest.raises(SpecError, match="a family needs checks with a shared-memory tile"):
        load(tmp_path, "  atom:\n    family:\n      n: {values: [1]}\n    description: \"{n}\"\n"
                       "    mma: SM80_16x8x16_F32F16F16F32_TN\n")


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=ROOT)


def test_the_command_line_reports_a_family(tmp_path):
    f = tmp_path / "fam.yaml"
    f.write_text(HEAD + family("stride", "BM: {multiple_of: 32, min: 32, max: 256}; stages: [2, 3]",
                               HARDCODED_STAGE))
    p = cli("prove", str(f), "--allow-outside", "--format", "json")
    assert p.returncode == 1, p.stderr
    (check,) = json.loads(p.stdout)["checks"]
    assert check["member"] == "BM=160, stages=2" and check["verdict"] == "refuted"
    assert check["counterexamples"][0]["theorem"] == "smem.injective"
    text = cli("prove", str(f), "--allow-outside", "--check", "stride")
    assert "smallest member not verified is BM=160, stages=2" in text.stdout
    bad = tmp_path / "bad.yaml"
    bad.write_text(HEAD + family("x", "BM: [8, 4]; stages: [2, 2]", SWIZZLED))
    p = cli("prove", str(bad), "--allow-outside")
    assert p.returncode == 2 and p.stderr.count("\n") == 1 and f"{bad}:7:" in p.stderr


def test_draw_and_explain_show_the_member(tmp_path):
    from verifier.kinds.registry import kind_of
    spec, results = prove(tmp_path, family("stride", "BM: {multiple_of: 32, min: 32, max: 256}; stages: [2, 2]",
                                           HARDCODED_STAGE))
    fam, r = spec.checks["stride"], results["stride"]
    kind = kind_of(fam)
    assert kind.report_views(fam, r) == ("smem",)
    (fig,) = kind.figures(spec, fam, ("smem",), r)
    assert fig.caption[0] == "family stride, member BM=160, stages=2"


def test_a_family_is_suggested_a_change_of_every_member(tmp_path):
    """--suggest on a family changes a field of every member alike and proves the whole family again."""
    from verifier.suggest import suggest
    from verifier.symbolic.procedure import Settings
    spec = load(tmp_path, family("t_on_k", "BM: {multiple_of: 32, min: 32, max: 128}; stages: [2, 3]",
                                 SWIZZLED).replace("SM75_U32x4_LDSM_N", "SM75_U16x8_LDSM_T"))
    fam = spec.checks["t_on_k"]
    assert run_check(spec, fam).verdict is Verdict.REFUTED
    s = suggest(spec, fam, Settings())
    assert [(c.field, c.new) for c in s.changes] == [("copy", "SM75_U32x4_LDSM_N")]
    assert isinstance(s.check, FamilyCheck) and all(m.check.copy == "SM75_U32x4_LDSM_N" for m in s.check.members)
    assert s.check.copy == "SM75_U32x4_LDSM_N"
    assert run_check(s.spec, s.check).verdict is Verdict.VERIFIED


def test_explain_and_draw_take_the_failing_member_or_the_one_named(tmp_path):
    f = tmp_path / "fam.yaml"
    f.write_text(HEAD + family("stride", "BM: {multiple_of: 32, min: 32, max: 256}; stages: [2, 3]", HARDCODED_STAGE)
                 + family("last", "BM: {multiple_of: 32, min: 32}; stages: [2, 2]",
                          "({BM},64,{stages}):(64,1,{BM*64 - (BM//896)*8})"))
    p = cli("explain", str(f), "--allow-outside", "--check", "stride", "--lane", "0", "--value", "0")
    assert p.returncode == 0 and "is a family; its member BM=160, stages=2:" in p.stdout
    p = cli("explain", str(f), "--allow-outside", "--check", "stride", "--lane", "0", "--value", "0",
            "--member", "BM=64,stages=3")
    assert p.returncode == 0 and "its member BM=64, stages=3:" in p.stdout and "smem Sw<3,3,3> o _0 o (_64,_64)" \
        in p.stdout
    for bad, said in (("BM=65,stages=3", "has no member BM=65, stages=3"), ("BM", "--member takes NAME=VALUE"),
                      ("BM=6e1,stages=3", "BM's value '6e1' is not an integer")):
        p = cli("explain", str(f), "--allow-outside", "--check", "stride", "--lane", "0", "--value", "0",
                "--member", bad)
        assert p.returncode == 2 and said in p.stderr and p.stderr.count("\n") == 1
    svg = tmp_path / "stride.svg"
    p = cli("draw", str(f), "--allow-outside", "--check", "stride", "--view", "smem", "-o", str(svg))
    assert p.returncode == 0 and 'class="outline"' in svg.read_text() and "member BM=160, stages=2" in svg.read_text()
    # the member drawn is the one the size limit is applied to: BM = 896 has 57,344 elements
    p = cli("draw", str(f), "--allow-outside", "--check", "last", "--view", "copy", "-o", str(svg))
    assert p.returncode == 2 and "57344 elements" in p.stderr
    p = cli("draw", str(f), "--allow-outside", "--check", "last", "--view", "copy", "--member", "BM=64,stages=2",
            "-o", str(svg))
    assert p.returncode == 0


UMMA = """  umma_{name}:
    family:
      BK: {{values: [64, 128]}}
      stages: [2, 4]
    mma: "SM100_MMA_F16BF16_SS<half_t,half_t,float,128,256>"
    operand: A
    copy: SM90_TMA_LOAD
    value_type: half_t
    smem: "tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>, (128,{{BK}},{{stages}}))"
    gmem: "(8192,8192):(8192,1)"
"""


def test_a_family_of_the_blackwell_descriptor_path(tmp_path):
    """tcgen05.mma's operand A over K extents and stages: verified; every member read through a 64B descriptor
    (a 128B tile): refuted at the smallest member."""
    _, results = prove(tmp_path, UMMA.format(name="good") + UMMA.format(name="desc64") +
                       "    descriptor: {swizzle: 64B}\n")
    assert results["umma_good"].verdict is Verdict.VERIFIED
    bad = results["umma_desc64"]
    assert bad.verdict is Verdict.REFUTED and bad.member == "BK=64, stages=2" and bad.failures()


def test_a_finding_of_every_member_is_said_once(tmp_path):
    """A copy atom whose DstLayout no member reads (tests/specs/program_semantics.yaml): each member is verified
    with theorem 3's refutation as a finding; the family says it once."""
    semantics = ROOT / "tests" / "specs" / "program_semantics.yaml"
    f = tmp_path / "fam.yaml"
    f.write_text(f"version: 2\nname: fam\ninclude: [{semantics}]\nchecks:\n  unread:\n    family:\n"
                 "      R: {values: [16, 32, 48]}\n    mma: SM80_16x8x16_F16F16F16F16_TN\n    operand: A\n"
                 "    copy: SM75_U32x4_LDSM_N_WRONG_DST_REF_OK\n    value_type: half_t\n"
                 '    smem: "({R},16):(16,1)"\n')
    spec = load_spec(f, allow_outside=True)
    r = run_check(spec, spec.checks["unread"])
    assert r.verdict is Verdict.VERIFIED and [t.id.value for t in r.findings] == ["copy.routing"]
