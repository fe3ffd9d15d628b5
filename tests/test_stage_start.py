"""Theorems 14-16 of a TMA + descriptor operand over its stages as translates of stage 0 (`Sm90Setup.stage_start`):
each claim about stage s of a buffer at base b is the claim about a one-stage buffer starting at b + step * s, so
it is decided once over the stage's start, for every stage count of the same stage 0 at once; when that form is not
proved the claim over (base, stage) is decided and reported.  The two forms must agree on every configuration."""
from __future__ import annotations

from pathlib import Path

import pytest

from verifier.engine import runner
from verifier.engine.runner import run_check
from verifier.kinds.smem_mma.setup import SMEM_BYTES, STAGE_START, Sm90Setup, build_sm90
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.specfile.model import Spec
from verifier.symbolic.decide import forget
from verifier.symbolic.expr import FALSE, TRUE, Var, eq, lt
from verifier.symbolic.obligation import Obligation
from verifier.theorems.catalog import TheoremId
from verifier.theorems.claims import Claim, Suspect

ROOT = Path(__file__).parent.parent
ATOMS = ROOT / "specs" / "atoms" / "sm90_gmma.yaml"
T = TheoremId
PER_STAGE = (T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END)
MMA = "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"


def _spec(tmp_path: Path, checks: dict[str, dict[str, str]]) -> Spec:
    lines = ["version: 2", "name: stage_start", f"include: [{str(ATOMS)!r}]", "checks:"]
    for name, fields in checks.items():
        lines.append(f"  {name}:")
        base = {"mma": f'"{MMA}"', "atom_layout": "[1, 1, 1]", "operand": "B", "copy": "SM90_TMA_LOAD",
                "value_type": "half_t", "gmem": '"(4096,4096):(4096,1)"'}
        lines += [f"    {k}: {v}" for k, v in {**base, **fields}.items()]
    path = tmp_path / "stages.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return load_spec(path, allow_outside=True)


def _smem(bn: int, bk: int, stages: int, atom: str = "GMMA::Layout_K_SW128_Atom<half_t>") -> dict[str, str]:
    return {"smem": f'"tile_to_shape({atom}, ({bn},{bk},{stages}))"'}


def _setup(spec: Spec, name: str) -> Sm90Setup:
    check = spec.checks[name]
    return build_sm90(check, spec.mma_atoms[check.mma])   # type: ignore[attr-defined]


def _claims(spec: Spec, name: str) -> dict[TheoremId, list[Claim]]:
    from verifier.kinds.smem_mma import theorems as HT
    from verifier.theorems.suspects import Suspects
    setup, suspects = _setup(spec, name), Suspects(spec, spec.checks[name])
    plans = {T.TMA_PLACEMENT: HT.tma_placement, T.GMMA_DESCRIPTOR: HT.gmma_descriptor,
             T.GMMA_END_TO_END: HT.end_to_end}
    out: dict[TheoremId, list[Claim]] = {}
    for tid, plan in plans.items():
        items = plan(setup, suspects)
        assert isinstance(items, list)
        out[tid] = [i for i in items if isinstance(i, Claim)]
    return out


def _statuses(spec: Spec, name: str) -> dict[TheoremId, Status]:
    forget()
    r = run_check(spec, spec.checks[name])
    return {t.id: t.status for t in r.theorems}


def test_stage_counts_share_the_one_stage_claims(tmp_path: Path) -> None:
    # a 128x64 K-major half_t stage (16 KiB) at 2 and at 5 stages: the per-stage claims are the same obligations
    spec = _spec(tmp_path, {"two": _smem(128, 64, 2), "five": _smem(128, 64, 5)})
    two, five = _setup(spec, "two"), _setup(spec, "five")
    assert two.stage_start is not None and five.stage_start is not None
    assert two.stage_start == five.stage_start            # the same start variable: 0 .. every start
    start = five.stage_start
    assert start is not None and start.step == 16384 // 128
    # every byte a 16 KiB stage can start at in a block's shared memory, in 128-byte units: the bases of the
    # 5-stage buffer and 4 steps of a stage beyond the last one
    assert start.start.size == (SMEM_BYTES - 16384) // 128 + 1 == five.base_var.size + 4 * start.step
    for tid in PER_STAGE:
        # each theorem's claim about the stages' addresses (16's first; its injectivities: the next test)
        per_two, per_five = _claims(spec, "two")[tid][:1], _claims(spec, "five")[tid][:1]
        for a, b in zip(per_two, per_five):
            assert a.exact is not None and b.exact is not None
            assert [(v.name, v.size) for v in a.obligation.variables] == \
                   [(v.name, v.size) for v in b.obligation.variables]
            assert a.obligation.claim == b.obligation.claim and a.obligation.premise == b.obligation.premise
            assert STAGE_START in a.obligation.domain_text() and "stage in" not in a.obligation.domain_text()
            # the exact forms differ: each over its own bases and stages
            assert "stage in [0,2)" in a.exact().domain_text() and "stage in [0,5)" in b.exact().domain_text()
    r = run_check(spec, spec.checks["five"])
    assert r.verdict is Verdict.VERIFIED
    items = [i for t in r.theorems if t.id in PER_STAGE for i in t.items if i.procedure is not None and i.domain]
    assert any(STAGE_START in i.domain for i in items)
    assert any("each of the 5 stages is stage 0 moved by 16384 bytes" in i.note for i in items)


@pytest.mark.parametrize("fields, why", [
    # a descriptor base offset make_gmma_desc does not give: theorems 15 and 16 refuted
    ({**_smem(128, 64, 4), "descriptor": "{base_offset: 2}"}, "descriptor"),
    # an LBO hard-wired for N a multiple of 16 on an unswizzled MN-major B of N = 24 (TileLang #2593)
    ({"mma": '"SM90_64x24x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>"', "gmem": '"(4096,4096):(1,4096)"',
      **_smem(24, 64, 2, "GMMA::Layout_MN_INTER_Atom<half_t>"), "descriptor": "{lbo: 256}"}, "lbo"),
])
def test_a_refutation_is_reported_over_base_and_stage(tmp_path: Path, fields: dict[str, str], why: str) -> None:
    spec = _spec(tmp_path, {"bad": fields})
    forget()
    r = run_check(spec, spec.checks["bad"])
    assert r.verdict is Verdict.REFUTED, why
    refuted = [i for t in r.theorems if t.id in PER_STAGE for i in t.items if i.status is Status.REFUTED]
    assert refuted
    for item in refuted:       # the exact form decided it: its witness names the base and the stage
        assert STAGE_START not in item.domain and "base in" in item.domain
        assert item.witness is not None and STAGE_START not in item.witness.point


def _exact_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Sm90Setup, "stage_start", property(lambda self: None))


@pytest.mark.parametrize("name, fields", [
    ("k_sw128_4", _smem(128, 64, 4)),
    ("k_sw64_3", _smem(64, 32, 3, "GMMA::Layout_K_SW64_Atom<half_t>")),
    ("k_sw32_7", _smem(128, 16, 7, "GMMA::Layout_K_SW32_Atom<half_t>")),
    ("mn_sw128_2", {"mma": '"SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>"',
                    "gmem": '"(4096,4096):(1,4096)"',
                    "smem": '"tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>, (128,64,2), (2,1,3))"'}),
    ("base_offset", {**_smem(128, 64, 4), "descriptor": "{base_offset: 2}"}),
    ("sbo", {**_smem(128, 64, 4), "descriptor": "{sbo: 32}"}),
    ("box", {**_smem(128, 64, 4, "GMMA::Layout_K_SW64_Atom<half_t>"), "tma_box": "[64, 128]"}),
    # stages 16512 bytes apart: a multiple of the 128-byte alignment, not of the swizzle's 1024-byte repeat
    ("overlap", {"smem": '"Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,4096))"'}),
    ("skewed", {"smem": '"Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8256))"'}),
    ("inter_mn", {"mma": '"SM90_64x24x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::MN>"',
                  "gmem": '"(4096,4096):(1,4096)"', **_smem(24, 64, 2, "GMMA::Layout_MN_INTER_Atom<half_t>")}),
])
def test_the_two_forms_agree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str,
                             fields: dict[str, str]) -> None:
    spec = _spec(tmp_path, {name: fields})
    per_stage = _statuses(spec, name)
    with monkeypatch.context() as m:
        _exact_only(m)
        exact = _statuses(spec, name)
    assert per_stage == exact


def test_stages_that_are_no_translates_keep_base_and_stage(tmp_path: Path) -> None:
    # near the shared-memory limit the stages' starts leave gaps (a stage is longer than the bases left): exact form
    spec = _spec(tmp_path, {"big": _smem(256, 128, 3), "odd": {
        "smem": '"Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,8200))"'},
        "uneven": {"smem": '"Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(2,2)):((64,512),(1,0),(8192,24576))"'}})
    big = _setup(spec, "big")
    assert big.stage_start is None and big.base_var.size < 256 * 128 * 2 // big.align
    odd = _setup(spec, "odd")
    assert odd.stage_start is None           # 8200 elements of 2 bytes: no multiple of the 128-byte alignment
    uneven = _setup(spec, "uneven")
    assert uneven.stage_start is None        # stages at 0, 8192, 24576, 32768: no one step between them
    for tid in PER_STAGE:
        claims = _claims(spec, "big")[tid]
        assert all(c.exact is None for c in claims)
        assert any("stage in [0,3)" in c.obligation.domain_text() for c in claims)


def test_a_disagreement_of_the_two_forms_is_an_internal_error() -> None:
    x = Var("x", 4)
    refuted = Obligation("x is below 2", [x], lt(x, 2))
    proved = Obligation("x is below 4", [x], lt(x, 4))
    suspect = Suspect("here", None)
    forget()
    r = runner._decide_claim(Claim(refuted, suspect, exact=lambda: proved), runner.DEFAULT_SETTINGS, None)
    assert r.status is Status.ERROR and "equivalent form" in r.reason
    # the one-stage form refuted and the exact one too: the exact one is reported, with its own witness
    exact = Obligation("x is not 3", [x], ~eq(x, 3))
    r = runner._decide_claim(Claim(refuted, suspect, exact=lambda: exact), runner.DEFAULT_SETTINGS, None)
    assert r.status is Status.REFUTED and r.title == "x is not 3" and r.witness is not None
    assert r.witness.point == {"x": 3}
    # proved in the one-stage form: the exact form is never built
    def never() -> Obligation:
        raise AssertionError("built")
    r = runner._decide_claim(Claim(Obligation("t", [x], TRUE), suspect, exact=never), runner.DEFAULT_SETTINGS, None)
    assert r.status is Status.PROVED
    assert runner._decide_claim(Claim(Obligation("f", [x], FALSE), suspect), runner.DEFAULT_SETTINGS,
                                None).status is Status.REFUTED


def test_the_offsets_tma_places_are_decided_for_every_stage_count(tmp_path: Path) -> None:
    # theorem 16's injectivity of TMA's offsets: over stage 0, the stages lying past it
    spec = _spec(tmp_path, {"two": _smem(128, 64, 2), "five": _smem(128, 64, 5)})
    two, five = _claims(spec, "two")[T.GMMA_END_TO_END], _claims(spec, "five")[T.GMMA_END_TO_END]
    a, b = two[1], five[1]
    assert a.obligation.claim == b.obligation.claim and a.obligation.domain_text() == b.obligation.domain_text()
    assert b.obligation.domain_text().startswith("element in [0,8192)")
    assert a.exact is not None and a.exact().domain_text().startswith("element in [0,16384)")
    assert b.exact is not None and b.exact().domain_text().startswith("element in [0,40960)")


def test_overlapping_stages_are_refuted(tmp_path: Path) -> None:
    # stages 8192 bytes apart, each 16 KiB: translates of stage 0 by whole alignments, but stage 1 overwrites half
    # of stage 0 -- each stage alone is placed and read right (theorems 14, 15), the buffer is not (9, 16)
    spec = _spec(tmp_path, {"overlap": {
        "smem": '"Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,3)):((64,512),(1,0),(0,4096))"'}})
    assert _setup(spec, "overlap").stage_start is not None
    statuses = _statuses(spec, "overlap")
    assert statuses[T.SMEM_INJECTIVE] is Status.REFUTED and statuses[T.GMMA_END_TO_END] is Status.REFUTED
    assert statuses[T.TMA_PLACEMENT] is Status.PROVED and statuses[T.GMMA_DESCRIPTOR] is Status.PROVED
    forget()
    r = run_check(spec, spec.checks["overlap"])
    refuted = [i for t in r.theorems if t.id is T.GMMA_END_TO_END for i in t.items if i.status is Status.REFUTED]
    assert refuted and refuted[0].domain.startswith("element in [0,24576)")      # the whole buffer's elements



PADDED_STAGES = '"Sw<3,4,3> o smem_ptr[16b](unset) o (128,64,2):(64,1,8200)"'   # stage 1 at 16,400 bytes


@pytest.mark.parametrize("fields", [_smem(256, 128, 3), _smem(64, 128, 4, "GMMA::Layout_MN_SW64_Atom<half_t>"),
                                    _smem(128, 64, 2, "GMMA::Layout_K_INTER_Atom<half_t>"),
                                    {"smem": PADDED_STAGES}])
def test_a_boxs_offset_on_integers_is_its_destination(tmp_path: Path, fields: dict[str, str]) -> None:
    """Theorem 13's alignment of every box of every stage reads the boxes' offsets on integers (`box_offset`):
    the symbolic destination's value at base 0."""
    setup = _setup(_spec(tmp_path, {"c": fields}), "c")
    assert setup.boxes is not None and setup.tile is not None
    n0, n1 = setup.boxes.box
    inner, outer = ((setup.extent[0], setup.extent[1]) if setup.boxes.inner_mode == 0
                    else (setup.extent[1], setup.extent[0]))
    boxes = [(bi, bo, s) for s in range(setup.stages) for bo in range(outer // n1) for bi in range(inner // n0)]
    assert {s for _, _, s in boxes} == set(range(setup.stages))
    for bi, bo, s in boxes:
        destination = setup.box_destination(0, bi, bo, s)
        assert destination.lo == destination.hi == setup.box_offset(bi, bo, s)


def test_a_stage_that_starts_off_a_tma_boundary_is_refuted_at_its_first_box(tmp_path: Path) -> None:
    spec = _spec(tmp_path, {"padded": {"smem": PADDED_STAGES}})
    r = run_check(spec, spec.checks["padded"])
    tma = next(t for t in r.theorems if t.id is T.TMA_ENCODABLE)
    aligned = next(i for i in tma.items if i.title.startswith("every box's destination is 128-byte aligned"))
    assert r.verdict is Verdict.REFUTED and aligned.status is Status.REFUTED
    assert aligned.witness is not None and aligned.witness.point == {"stage": 1, "box_inner": 0, "box_outer": 0,
                                                                     "offset": 16400}
