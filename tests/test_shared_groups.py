"""A group of theorems shared by the checks of one spec (kinds/base.py's `Group.shared`, engine/runner.py): the
MMA atom's theorems 1, 2 and 11 are decided once for every check of a spec that uses the atom, and a later check
gets the same proved theorems; an atom whose theorems are not all proved is decided in each check anew, so every
check that uses a broken atom is refuted with its own witness."""
from __future__ import annotations

from pathlib import Path

import pytest

from verifier.engine import runner
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.symbolic.decide import forget
from verifier.theorems.catalog import TheoremId

T = TheoremId
ATOM_THEOREMS = (T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION, T.MMA_TYPES)
ATOM = "SM90_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
ACCUMULATOR = "((4,8,4),(2,2,8)):((128,1,16),(64,8,512))"          # (thr, val) -> (m, n)
# two values of a thread swapped with another's: no longer the wgmma accumulator fragment
BROKEN_ACCUMULATOR = "((4,8,4),(2,2,8)):((128,1,16),(8,64,512))"


def _gmma_atom(name: str, n: int, accumulator: str) -> str:
    """An SS wgmma atom m64nNk16 on half_t (K-major A and B, f32 accumulators) as a spec's `mma_atoms` entry."""
    return f"""  "{name}":
    instruction: wgmma.mma_async.sync.aligned.m64n{n}k16.f32.f16.f16
    shape_mnk: [64, {n}, 16]
    thr_id: "128:1"
    types: {{a: half_t, b: half_t, c: float, d: float}}
    a: "(128,(64,16)):(0,(1,64))"
    b: "(128,({n},16)):(0,(1,{n}))"
    c: "{accumulator}"
"""


def _tma_check(name: str, atom: str, operand: str, smem: str, gmem: str = "(4096,4096):(4096,1)") -> str:
    """A check of the operand TMA fills from `gmem` into `smem`, read by `atom`'s descriptor."""
    return f"""  {name}:
    mma: "{atom}"
    operand: {operand}
    copy: SM90_TMA_LOAD
    value_type: half_t
    smem: "{smem}"
    gmem: "{gmem}"
"""


def _spec_text(name: str, atoms: list[str], checks: list[str]) -> str:
    return f"version: 2\nname: {name}\nmma_atoms:\n" + "".join(atoms) + "checks:\n" + "".join(checks)


def _shared_text(accumulator: str) -> str:
    return _spec_text("shared_atoms", [_gmma_atom(ATOM, 64, accumulator)], [
        _tma_check("a_tile", ATOM, "A", "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (64,64,2))"),
        _tma_check("b_tile", ATOM, "B", "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (64,64,3))")])


def _spec(tmp_path: Path, accumulator: str):
    path = tmp_path / "shared.yaml"
    path.write_text(_shared_text(accumulator), encoding="utf-8")
    return load_spec(path)


def _atom_theorems(result):
    return [t for t in result.theorems if t.id in ATOM_THEOREMS]


def _shape(theorems):
    """What a report shows of the theorems: status, reason and each obligation's title, status and procedure."""
    return [(t.id, t.status, t.reason, [(i.title, i.status, i.procedure, i.domain_size) for i in t.items])
            for t in theorems]


def test_a_proved_atom_is_decided_once_and_its_theorems_given_to_the_next_check(tmp_path: Path) -> None:
    forget()
    spec = _spec(tmp_path, ACCUMULATOR)
    first = runner.run_check(spec, spec.checks["a_tile"])
    second = runner.run_check(spec, spec.checks["b_tile"])
    assert first.verdict is Verdict.VERIFIED and second.verdict is Verdict.VERIFIED
    assert [t.id for t in _atom_theorems(second)] == list(ATOM_THEOREMS)
    assert all(t.status is Status.PROVED for t in _atom_theorems(second))
    assert all(t.seconds == 0.0 for t in _atom_theorems(second))          # given, not decided again
    assert any(t.seconds > 0.0 for t in _atom_theorems(first))
    given = _shape(_atom_theorems(second))
    forget()                                                             # decided afresh: the same theorems
    alone = runner.run_check(spec, spec.checks["b_tile"])
    assert _shape(_atom_theorems(alone)) == given
    assert all(t.seconds > 0.0 for t in _atom_theorems(alone)[:2])
    # the rest of the check is its own: the operand's theorems decided for B, not copied from A
    assert [t.id for t in second.theorems] == [t.id for t in alone.theorems]


def test_a_broken_atom_refutes_every_check_that_uses_it_with_its_own_witness(tmp_path: Path) -> None:
    forget()
    spec = _spec(tmp_path, BROKEN_ACCUMULATOR)
    results = [runner.run_check(spec, spec.checks[name]) for name in ("a_tile", "b_tile")]
    for r in results:
        assert r.verdict is Verdict.REFUTED
        refuted = [t for t in _atom_theorems(r) if t.status is Status.REFUTED]
        assert refuted, [(t.id, t.status) for t in r.theorems]
        assert all(t.seconds > 0.0 for t in refuted)                      # decided in this check
        witness = refuted[0].first_failure().witness
        assert witness is not None and witness.point and witness.suspect is not None


def test_a_shared_decision_is_dropped_with_the_remembered_decisions(tmp_path: Path) -> None:
    forget()
    spec = _spec(tmp_path, ACCUMULATOR)
    runner.run_check(spec, spec.checks["a_tile"])
    forget()           # what a test that replaces the solver does: nothing decided before is given again
    again = runner.run_check(spec, spec.checks["b_tile"])
    assert all(t.seconds > 0.0 for t in _atom_theorems(again)[:2])


@pytest.mark.parametrize("only", [{T.MMA_TYPES}, None])
def test_the_theorems_asked_for_are_part_of_the_key(tmp_path: Path, only) -> None:
    forget()
    spec = _spec(tmp_path, ACCUMULATOR)
    runner.run_check(spec, spec.checks["a_tile"], only={T.MMA_TYPES})
    r = runner.run_check(spec, spec.checks["b_tile"], only=only)
    ids = {t.id for t in r.theorems}
    assert ids == {T.MMA_TYPES} if only else set(ATOM_THEOREMS) <= ids


# --- the operand's group of a descriptor-read check (theorems 9, 12-16), shared across the atom's other operand ---

OPERAND_THEOREMS = (T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.TMA_ENCODABLE, T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR,
                    T.GMMA_END_TO_END)
WIDE = "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
GOOD_SMEM = "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,2))"
# the 128-byte swizzle's atom on a tile whose rows are 32 elements (64 bytes) apart: TMA's box rows and the layout's
# rows disagree
BROKEN_SMEM = "Sw<3,4,3> o (128,64,2):(32,1,8192)"


def _across_n(tmp_path: Path, smem: str):
    path = tmp_path / "across_n.yaml"
    path.write_text(_spec_text("shared_operand", [_gmma_atom(ATOM, 64, ACCUMULATOR),
                                                  _gmma_atom(WIDE, 128, "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))")],
                               [_tma_check("a_narrow", ATOM, "A", smem), _tma_check("a_wide", WIDE, "A", smem),
                                _tma_check("a_wide_other_gmem", WIDE, "A", smem, "(4096,8192):(8192,1)"),
                                _tma_check("b_narrow", ATOM, "B", smem), _tma_check("b_wide", WIDE, "B", smem)]),
                    encoding="utf-8")
    return load_spec(path)


def _operand_theorems(result):
    return [t for t in result.theorems if t.id in OPERAND_THEOREMS]


def test_an_a_tile_is_decided_once_for_wgmma_atoms_of_any_n(tmp_path: Path) -> None:
    forget()
    spec = _across_n(tmp_path, GOOD_SMEM)
    narrow = runner.run_check(spec, spec.checks["a_narrow"])
    wide = runner.run_check(spec, spec.checks["a_wide"])
    assert narrow.verdict is Verdict.VERIFIED and wide.verdict is Verdict.VERIFIED
    assert [t.id for t in _operand_theorems(wide)] == list(OPERAND_THEOREMS)
    assert all(t.seconds == 0.0 for t in _operand_theorems(wide))        # the A side of both atoms agrees
    assert any(t.seconds > 0.0 for t in _atom_theorems(wide))            # the wider atom's own theorems decided
    given = _shape(_operand_theorems(wide))
    forget()
    assert _shape(_operand_theorems(runner.run_check(spec, spec.checks["a_wide"]))) == given
    # another global tensor is another configuration: decided anew
    other = runner.run_check(spec, spec.checks["a_wide_other_gmem"])
    assert other.verdict is Verdict.VERIFIED
    assert any(t.seconds > 0.0 for t in _operand_theorems(other))


def test_a_b_tile_is_not_shared_across_n(tmp_path: Path) -> None:
    forget()
    spec = _across_n(tmp_path, GOOD_SMEM)
    runner.run_check(spec, spec.checks["b_narrow"])
    wide = runner.run_check(spec, spec.checks["b_wide"])     # N rows of an instruction: its atom side differs
    assert any(t.seconds > 0.0 for t in _operand_theorems(wide))


def test_a_broken_a_tile_is_refuted_for_each_atom_with_its_own_witness(tmp_path: Path) -> None:
    forget()
    spec = _across_n(tmp_path, BROKEN_SMEM)
    for name in ("a_narrow", "a_wide"):
        r = runner.run_check(spec, spec.checks[name])
        assert r.verdict is Verdict.REFUTED, [(t.id, t.status, t.reason) for t in r.theorems]
        refuted = [t for t in _operand_theorems(r) if t.status is Status.REFUTED]
        assert refuted and all(t.seconds > 0.0 for t in refuted)
        assert refuted[0].first_failure().witness is not None


def test_an_atom_defined_alike_in_two_files_is_decided_once_and_one_defined_otherwise_is_not(tmp_path: Path) -> None:
    forget()
    first = _spec(tmp_path, ACCUMULATOR)
    runner.run_check(first, first.checks["a_tile"])
    alike = tmp_path / "alike"
    alike.mkdir()
    (alike / "shared.yaml").write_text("# another file: the atom at other lines\n\n" + _shared_text(ACCUMULATOR),
                                       encoding="utf-8")
    second = load_spec(alike / "shared.yaml")
    assert second.mma_atoms[ATOM].loc != first.mma_atoms[ATOM].loc
    r = runner.run_check(second, second.checks["b_tile"])
    assert r.verdict is Verdict.VERIFIED and all(t.seconds == 0.0 for t in _atom_theorems(r))
    # the same name, another accumulator: another atom, decided (and refuted) in its own right
    other = tmp_path / "other"
    other.mkdir()
    (other / "shared.yaml").write_text(_shared_text(BROKEN_ACCUMULATOR), encoding="utf-8")
    third = load_spec(other / "shared.yaml")
    broken = runner.run_check(third, third.checks["b_tile"])
    assert broken.verdict is Verdict.REFUTED
    assert any(t.status is Status.REFUTED and t.seconds > 0.0 for t in _atom_theorems(broken))


# --- what sharing may change: nothing a report shows but the times -----------------------------------------------

SHARED_FILES = ("catalog/sm90_gmma.yaml", "catalog/sm90_sparse.yaml", "catalog/sm100_umma.yaml",
                "catalog/blockwise.yaml", "catalog/sm90_mixed_scales.yaml", "catalog/sm90_transpose.yaml",
                "mistakes.yaml")
SPECS = Path(__file__).resolve().parent.parent / "specs"


def _report(result):
    """Everything a report shows of a check's result but its times: verdict, theorems, obligations, witnesses,
    lines of information and findings."""
    def witness(item):
        w = item.witness
        return None if w is None else (w.point, w.actual, w.expected, str(w.suspect), w.failing)
    return (result.verdict, [(t.id, t.status, t.reason,
                              [(i.title, i.status, i.procedure, i.domain_size, i.note, witness(i)) for i in t.items])
                             for t in result.theorems], result.info, [f.id for f in result.findings])


@pytest.mark.parametrize("name", SHARED_FILES)
def test_checks_proved_one_after_another_report_what_each_proved_alone_reports(name: str) -> None:
    spec = load_spec(SPECS / name)
    forget()
    in_turn = [runner.run_check(spec, check) for check in spec.checks.values()]
    alone = []
    for check in spec.checks.values():
        forget()
        alone.append(runner.run_check(spec, check))
    assert [_report(r) for r in in_turn] == [_report(r) for r in alone]
    assert any(t.seconds == 0.0 for r in in_turn for t in r.theorems)     # some were given (an atom's, proved)
