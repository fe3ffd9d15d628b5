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


def _wgmma_entry(name: str, n: int, k: int, ptx_types: str, types: str, a: str, c: str) -> str:
    """A wgmma atom m64nNkK (a warpgroup, B read through its descriptor) as a spec's `mma_atoms` entry."""
    return f"""  "{name}":
    instruction: wgmma.mma_async.sync.aligned.m64n{n}k{k}.{ptx_types}
    shape_mnk: [64, {n}, {k}]
    thr_id: "128:1"
    types: {{{types}}}
    a: "{a}"
    b: "(128,({n},{k})):(0,(1,{n}))"
    c: "{c}"
"""


def _gmma_atom(name: str, n: int, accumulator: str) -> str:
    """An SS wgmma atom m64nNk16 on half_t (K-major A and B, f32 accumulators) as a spec's `mma_atoms` entry."""
    return _wgmma_entry(name, n, 16, "f32.f16.f16", "a: half_t, b: half_t, c: float, d: float",
                        "(128,(64,16)):(0,(1,64))", accumulator)


def _tma_check(name: str, atom: str, operand: str, smem: str, gmem: str = "(4096,4096):(4096,1)",
               atom_layout: str = "") -> str:
    """A check of the operand TMA fills from `gmem` into `smem`, read by `atom`'s descriptor (on the warpgroups
    `atom_layout` lays out, when given)."""
    tiled = f"    atom_layout: {atom_layout}\n" if atom_layout else ""
    return f"""  {name}:
    mma: "{atom}"
{tiled}    operand: {operand}
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
                                _tma_check("a_wide_two_warpgroups", WIDE, "A", smem, atom_layout="[2, 1, 1]"),
                                _tma_check("b_narrow", ATOM, "B", smem), _tma_check("b_wide", WIDE, "B", smem)]),
                    encoding="utf-8")
    return load_spec(path)


def _operand_theorems(result):
    return [t for t in result.theorems if t.id in OPERAND_THEOREMS]


def _given_after(spec, first: str, second: str, ids: tuple[TheoremId, ...]):
    """`second`'s result, proved after `first`: both verified, and `second` given the theorems `ids` (their group
    decided once: no time of its own)."""
    earlier = runner.run_check(spec, spec.checks[first])
    later = runner.run_check(spec, spec.checks[second])
    assert earlier.verdict is Verdict.VERIFIED and later.verdict is Verdict.VERIFIED
    theorems = [t for t in later.theorems if t.id in ids]
    assert [t.id for t in theorems] == list(ids) and all(t.seconds == 0.0 for t in theorems)
    return later


def test_an_a_tile_is_decided_once_for_wgmma_atoms_of_any_n(tmp_path: Path) -> None:
    forget()
    spec = _across_n(tmp_path, GOOD_SMEM)
    wide = _given_after(spec, "a_narrow", "a_wide", OPERAND_THEOREMS)     # the A side of both atoms agrees
    assert any(t.seconds > 0.0 for t in _atom_theorems(wide))            # the wider atom's own theorems decided
    given = _shape(_operand_theorems(wide))
    forget()
    assert _shape(_operand_theorems(runner.run_check(spec, spec.checks["a_wide"]))) == given
    # the same tile read by two warpgroups along M: theorem 15 also proves they share its slices evenly, so it is
    # another group, decided anew (a group it shared with one warpgroup would give it that one's theorem 15)
    two = runner.run_check(spec, spec.checks["a_wide_two_warpgroups"])
    assert two.verdict is Verdict.VERIFIED and any(t.seconds > 0.0 for t in _operand_theorems(two))
    assert any("atoms along M share" in item for t in two.theorems for item in map(str, t.items)), two.theorems
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
    for name in ("a_narrow", "a_wide", "a_wide_two_warpgroups"):
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


# --- a tiled check's operand path (theorems 4-10, 12), shared across the atom's other operand and the stage count --

TILED_THEOREMS = (T.COPY_DST_MATCHES_MMA, T.COPY_SRC_MATCHES_DST, T.COPY_ADDRESSING, T.FRAGMENT_ALIASING,
                  T.END_TO_END, T.SMEM_IN_BOUNDS, T.COPY_VALUE_TYPE)
TF32_A = "((4,8,4),(2,2)):((64,1,16),(8,256))"      # the RS wgmma's A fragment on tf32, (thr, val) -> (m, k)
# a (64,32,PIPE) tile of GMMA::Layout_MN_SW32_Atom<tfloat32_t> (tile_to_shape), its stages `stride` elements apart
SW32_STAGES = "Sw<1,2,3> o ((8,8),(8,4),{stages}):((1,64),(8,512),{stride})"


def _rs_name(n: int) -> str:
    return f"SM90_64x{n}x8_F32TF32TF32_RS_TN"


def _accumulator(n: int) -> str:
    """The m64nN wgmma's f32 accumulator fragment, (thr, val) -> (m, n)."""
    return f"((4,8,4),(2,2,{n // 8})):((128,1,16),(64,8,512))"


def _rs_atom(n: int, a: str = TF32_A) -> str:
    """An RS wgmma atom m64nNk8 on tfloat32_t (A from registers) as a spec's `mma_atoms` entry."""
    return _wgmma_entry(_rs_name(n), n, 8, "f32.tf32.tf32", "a: tfloat32_t, b: tfloat32_t, c: float, d: float", a,
                        _accumulator(n))


def _tiled_check(name: str, n: int, stages: int, stride: int = 2048, operand: str = "A") -> str:
    """The RS mainloop's copy of `operand` from its staged shared tile into registers (AutoVectorizingCopy, the tiled
    MMA's partition), the MMA atom m64nNk8."""
    smem = SW32_STAGES.format(stages=stages, stride=stride)
    return f"""  {name}:
    mma: "{_rs_name(n)}"
    operand: {operand}
    copy: AutoVectorizingCopy
    value_type: tfloat32_t
    smem: "{smem}"
    smem_partition: mma
"""


AUTO_VECTORIZING = """copy_atoms:
  AutoVectorizingCopy:
    instruction: AutoVectorizingCopy
    thr_id: "1:0"
    src: "(1,1):(0,0)"
    dst: "(1,1):(0,0)"
    ref: dst
"""


def _rs_spec(tmp_path: Path, atoms: list[str], checks: list[str]):
    path = tmp_path / "rs.yaml"
    path.write_text(_spec_text("shared_tiled", atoms, []).replace("checks:\n", AUTO_VECTORIZING + "checks:\n")
                    + "".join(checks), encoding="utf-8")
    return load_spec(path)


def _tiled_theorems(result):
    return [t for t in result.theorems if t.id in TILED_THEOREMS]


def _theorem(result, tid):
    return next(t for t in result.theorems if t.id is tid)


def test_a_tiled_a_is_decided_once_for_rs_atoms_of_any_n_and_any_stage_count(tmp_path: Path) -> None:
    forget()
    spec = _rs_spec(tmp_path, [_rs_atom(64), _rs_atom(128)],
                    [_tiled_check("narrow", 64, 2), _tiled_check("wide", 128, 5), _tiled_check("wide_again", 128, 5)])
    narrow = runner.run_check(spec, spec.checks["narrow"])
    wide = runner.run_check(spec, spec.checks["wide"])
    again = runner.run_check(spec, spec.checks["wide_again"])
    assert [r.verdict for r in (narrow, wide, again)] == [Verdict.VERIFIED] * 3, \
        [(t.id, t.status, t.reason) for t in wide.theorems]
    assert [t.id for t in _tiled_theorems(wide)] == list(TILED_THEOREMS)
    assert all(t.seconds == 0.0 for t in _tiled_theorems(wide))        # the A side of both atoms and stage 0 agree
    assert _theorem(wide, T.SMEM_INJECTIVE).seconds > 0.0               # five stages are not two: decided anew
    assert _theorem(again, T.SMEM_INJECTIVE).seconds == 0.0             # ... once
    given = _report(wide)
    forget()                                                            # decided alone: the same report
    assert _report(runner.run_check(spec, spec.checks["wide"])) == given


def test_only_an_operand_copied_for_itself_is_projected(tmp_path: Path) -> None:
    """An A or B tile copied by make_tiled_copy of its own operand reads its side of the atom; a C tile, or a copy
    made for another operand (copy_for), reads the whole atom: its side is the atom as written."""
    from dataclasses import replace
    from verifier.kinds.cute_objects import mma_atom
    from verifier.kinds.tiled.setup import tiled_atom_side
    spec = _rs_spec(tmp_path, [_rs_atom(64), _rs_atom(128)], [_tiled_check("a", 64, 2), _tiled_check("wide", 128, 3)])
    check, wide = spec.checks["a"], spec.checks["wide"]
    atom = spec.mma_atoms[_rs_name(64)]
    assert tiled_atom_side(check, atom).key() == tiled_atom_side(wide, spec.mma_atoms[_rs_name(128)]).key()
    for whole in (replace(check, operand="C"), replace(check, copy_for="B")):
        side = tiled_atom_side(whole, atom)
        assert side.atom == mma_atom(atom) and side.key() != tiled_atom_side(check, atom).key()


def test_stages_that_overlap_are_refuted_though_stage_0_was_proved_for_another_check(tmp_path: Path) -> None:
    forget()
    spec = _rs_spec(tmp_path, [_rs_atom(64), _rs_atom(128)],
                    [_tiled_check("sound", 64, 2), _tiled_check("overlapping", 128, 3, stride=1024)])
    assert runner.run_check(spec, spec.checks["sound"]).verdict is Verdict.VERIFIED
    r = runner.run_check(spec, spec.checks["overlapping"])
    assert r.verdict is Verdict.REFUTED
    assert all(t.status is Status.PROVED and t.seconds == 0.0 for t in _tiled_theorems(r))   # stage 0's, given
    injective = _theorem(r, T.SMEM_INJECTIVE)
    assert injective.status is Status.REFUTED and injective.seconds > 0.0
    witness = injective.first_failure().witness
    assert witness is not None and witness.suspect is not None


def test_an_atom_whose_a_side_differs_is_decided_with_its_own_refutation(tmp_path: Path) -> None:
    forget()
    # two values of the fragment swapped with another thread's: not the instruction's A, another side
    broken = _rs_atom(128, "((4,8,4),(2,2)):((64,1,16),(256,8))")
    spec = _rs_spec(tmp_path, [_rs_atom(64), broken], [_tiled_check("sound", 64, 2), _tiled_check("broken", 128, 2)])
    assert runner.run_check(spec, spec.checks["sound"]).verdict is Verdict.VERIFIED
    r = runner.run_check(spec, spec.checks["broken"])
    assert r.verdict is Verdict.REFUTED
    refuted = [t for t in r.theorems if t.status is Status.REFUTED]
    assert refuted and all(t.seconds > 0.0 for t in refuted)
    assert refuted[0].first_failure().witness is not None


# --- a value-shuffled A (theorem 35), shared across the RS atom's N -----------------------------------------------

F16_RS_A = "((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"     # the RS wgmma's A fragment on half_t, (thr, val) -> (m, k)
SHUFFLED_GMEM = "((((8,2),1),8),(((2,4,2),1),8)):((((32,1),0),256),(((4,8,2),0),2048))"
SHUFFLED_SMEM = "((((8,2),1),4),(((2,4,2),1),4),2):((((32,1),0),256),(((4,8,2),0),1024),4096)"
# an int8_t A laid out as for int4b_t: the converter of a chunk writes another k-block's registers
BROKEN_GMEM = "((((8,2),1),8),(((2,4,2),1),8)):((((32,1),0),256),(((2,8,4),0),2048))"
BROKEN_SMEM = "((((8,2),1),4),(((2,4,2),1),4),2):((((32,1),0),256),(((2,8,4),0),1024),4096)"


def _f16_rs_atom(n: int) -> str:
    """An RS wgmma atom m64nNk16 on half_t as a spec's `mma_atoms` entry."""
    return _wgmma_entry(f"SM90_64x{n}x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>", n, 16, "f32.f16.f16",
                        "a: half_t, b: half_t, c: float, d: float", F16_RS_A, _accumulator(n))


def _shuffle_check(name: str, n: int, value_type: str, smem: str, gmem: str) -> str:
    return f"""  {name}:
    shuffled: A
    mma: "SM90_64x{n}x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>"
    atom_layout: [1, 1, 1]
    copy: AutoVectorizingCopy
    value_type: {value_type}
    smem: "{smem}"
    gmem: "{gmem}"
"""


def _shuffle_spec(tmp_path: Path):
    checks = [_shuffle_check(f"{what}_{n}", n, vt, smem, gmem) for n in (64, 128)
              for what, vt, smem, gmem in (("good", "int4b_t", SHUFFLED_SMEM, SHUFFLED_GMEM),
                                           ("bad", "int8_t", BROKEN_SMEM, BROKEN_GMEM))]
    return _rs_spec(tmp_path, [_f16_rs_atom(64), _f16_rs_atom(128)], checks)


def test_a_shuffled_a_is_decided_once_for_rs_atoms_of_any_n(tmp_path: Path) -> None:
    forget()
    spec = _shuffle_spec(tmp_path)
    narrow = runner.run_check(spec, spec.checks["good_64"])
    wide = runner.run_check(spec, spec.checks["good_128"])
    assert narrow.verdict is Verdict.VERIFIED and wide.verdict is Verdict.VERIFIED
    shuffled = _theorem(wide, T.MIXED_SHUFFLED_A)
    assert shuffled.status is Status.PROVED and shuffled.seconds == 0.0     # the A side of both atoms agrees
    assert _theorem(narrow, T.MIXED_SHUFFLED_A).seconds > 0.0
    given = _report(wide)
    forget()
    assert _report(runner.run_check(spec, spec.checks["good_128"])) == given


def test_a_broken_shuffle_is_refuted_for_each_atom_with_its_own_witness(tmp_path: Path) -> None:
    forget()
    spec = _shuffle_spec(tmp_path)
    for name in ("bad_64", "bad_128"):
        r = runner.run_check(spec, spec.checks[name])
        shuffled = _theorem(r, T.MIXED_SHUFFLED_A)
        assert r.verdict is Verdict.REFUTED and shuffled.status is Status.REFUTED
        assert shuffled.seconds > 0.0
        assert shuffled.first_failure().witness is not None


ATOM_LIBRARY_FILES = ("sm75.yaml", "sm80_f16.yaml", "sm80_tf32.yaml", "sm80_int8.yaml", "sm80_f64.yaml")


@pytest.mark.parametrize("operand", ["A", "B"])
@pytest.mark.parametrize("atom_layout", [(1, 1, 1), (2, 2, 1), (1, 2, 2), (4, 1, 1)])
def test_an_operands_projection_is_what_tiled_mmas_read_of_the_atom(operand: str, atom_layout) -> None:
    """`operand_projection` leaves out what a tiled MMA never reads for the operand: every partition of it and the
    copy made for it are the full atom's, for every atom of the library."""
    from verifier.cute.copy import make_tiled_copy_for
    from verifier.cute.mma import TiledMMA
    from verifier.cute.operand import Operand
    from verifier.cute.tensor import Tensor
    from verifier.algebra.layout import Layout
    from verifier.importer.kernel_spec import ATOM_LIBRARY
    from verifier.kinds.cute_objects import copy_atom, mma_atom
    from verifier.cute.mma import operand_projection
    library = load_spec(ATOM_LIBRARY / "generic.yaml")
    vector = copy_atom(library.copy_atoms["UniversalCopy<uint32_t>"])
    compared = 0
    for name in ATOM_LIBRARY_FILES:
        for spec_atom in load_spec(ATOM_LIBRARY / name).mma_atoms.values():
            full = mma_atom(spec_atom)
            projected = operand_projection(full, operand)
            assert projected.shape_mnk != full.shape_mnk
            tiled = [TiledMMA(a, atom_layout) for a in (full, projected)]
            mi, ki = Operand.of(operand).modes
            rows, cols = (tiled[0].tile_size(mi) * 2, tiled[0].tile_size(ki) * 2)
            tile = Tensor(0, Layout((rows, cols)))
            bits = full.operand_bits(operand)
            seen = [(t.tile_size(mi), t.tile_size(ki), t.num_threads(), t.get_layout_tv(operand),
                     t.thrfrg(tile.layout, operand), t.partition_fragment(tile, operand, 3).layout,
                     t.partition(tile, operand, t.num_threads() - 1).layout,
                     make_tiled_copy_for(vector.with_value_bits(bits), t, operand).layout_tv
                     if 32 % bits == 0 and bits else None) for t in tiled]
            assert seen[0] == seen[1], (spec_atom.name, operand)
            compared += 1
    assert compared > 20


# --- what sharing may change: nothing a report shows but the times -----------------------------------------------

SHARED_FILES = ("catalog/sm90_gmma.yaml", "catalog/sm90_sparse.yaml", "catalog/sm100_umma.yaml",
                "catalog/blockwise.yaml", "catalog/sm90_mixed_scales.yaml", "catalog/sm90_transpose.yaml",
                "catalog/sm80_f16.yaml", "catalog/sm80_tf32.yaml", "catalog/sm90_epilogue_stsm.yaml", "sm80_f16.yaml",
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


# --- a structured-sparse wgmma's metadata (theorems 27, 28), shared across the atom's N ----------------------------

METADATA_THEOREMS = (T.SPARSE_METADATA_TMA, T.SPARSE_METADATA_READ)
SPARSE_E = "((2,2,8,4),(16,2)):((1024,0,1,16),(64,8))"       # MMA_Traits::ELayout of an f16 wgmma.mma_async.sp
# SmemLayoutE and LayoutE of a cooperative 128x128x64 f16 mainloop (9 stages), as prescreen-cutlass writes them
METADATA_SMEM = "(((_8,_2,_4),_2),((_16,_2,_2),_1),(_1,_9)):(((_64,_16,_1024),_4096),((_1,_512,_32),_0),(_0,_8192))"
# ... its chunks of 16 k and of 2 k swapped: each thread's metadata read from another column
BROKEN_METADATA_SMEM = ("(((_8,_2,_4),_2),((_16,_2,_2),_1),(_1,_9)):(((_64,_16,_1024),_4096),((_1,_32,_512),_0),"
                        "(_0,_8192))")
METADATA_GMEM = "(((_8,_2,_4),_4),((_16,_2,_2),_2)):(((_64,_16,_1024),_4096),((_1,_512,_32),_16384))"


def _sparse_atom(name: str, n: int, sp_sel: int = 0) -> str:
    """A wgmma.mma_async.sp atom m64nNk32 on half_t (K-major A and B, f32 accumulators) as an `mma_atoms` entry."""
    entry = _wgmma_entry(name, n, 32, "f32.f16.f16", 'a: half_t, b: half_t, c: float, d: float, '
                         'e: "sparse_elem<8,uint8_t>"', "(128,(64,32)):(0,(1,64))",
                         f"((4,8,4),(2,2,{n // 8})):((128,1,16),(64,8,512))")
    return (entry.replace("wgmma.mma_async.sync", "wgmma.mma_async.sp.sync") + f'    e: "{SPARSE_E}"\n'
            + (f"    sp_sel: {sp_sel}\n" if sp_sel else ""))


def _metadata_check(name: str, atom: str, smem: str) -> str:
    return f"""  {name}:
    mma: "{atom}"
    metadata: A
    atom_layout: [2, 1, 1]
    copy: AutoVectorizingCopy
    value_type: uint32_t
    smem: "{smem}"
    gmem: "{METADATA_GMEM}"
"""


SPARSE_NARROW = "SPARSE_64x64x32_F32F16F16_SS"
SPARSE_WIDE = "SPARSE_64x128x32_F32F16F16_SS"
SPARSE_OTHER_SEL = "SPARSE_64x128x32_F32F16F16_SS_SEL1"


def _metadata_spec(tmp_path: Path, smem: str):
    path = tmp_path / "metadata.yaml"
    atoms = [_sparse_atom(SPARSE_NARROW, 64), _sparse_atom(SPARSE_WIDE, 128), _sparse_atom(SPARSE_OTHER_SEL, 128, 1)]
    path.write_text("version: 2\nname: shared_metadata\ninclude: [" + repr(str(SPECS / "atoms" / "generic.yaml"))
                    + "]\nmma_atoms:\n" + "".join(atoms) + "checks:\n"
                    + _metadata_check("e_narrow", SPARSE_NARROW, smem) + _metadata_check("e_wide", SPARSE_WIDE, smem)
                    + _metadata_check("e_other_sel", SPARSE_OTHER_SEL, smem), encoding="utf-8")
    return load_spec(path, allow_outside=True)


def _metadata_theorems(result):
    return [t for t in result.theorems if t.id in METADATA_THEOREMS]


def test_a_sparse_atoms_metadata_is_decided_once_for_any_n(tmp_path: Path) -> None:
    forget()
    spec = _metadata_spec(tmp_path, METADATA_SMEM)
    wide = _given_after(spec, "e_narrow", "e_wide", METADATA_THEOREMS)    # the metadata side of both atoms agrees
    given = _report(wide)
    forget()
    assert _report(runner.run_check(spec, spec.checks["e_wide"])) == given
    # another sparsity selector is another side: decided anew
    other = runner.run_check(spec, spec.checks["e_other_sel"])
    assert any(t.seconds > 0.0 for t in _metadata_theorems(other))


def test_a_broken_metadata_tile_is_refuted_for_each_atom_with_its_own_witness(tmp_path: Path) -> None:
    forget()
    spec = _metadata_spec(tmp_path, BROKEN_METADATA_SMEM)
    for name in ("e_narrow", "e_wide"):
        r = runner.run_check(spec, spec.checks[name])
        refuted = [t for t in _metadata_theorems(r) if t.status is Status.REFUTED]
        assert r.verdict is Verdict.REFUTED and refuted and all(t.seconds > 0.0 for t in refuted)
        assert refuted[0].first_failure().witness is not None


def test_the_metadata_names_its_instruction_with_n_left_out() -> None:
    from verifier.kinds.sparse.setup import metadata_side
    spec = load_spec(SPECS / "catalog" / "sm90_sparse.yaml")
    sides = {metadata_side(atom).instruction for atom in spec.mma_atoms.values() if atom.e is not None}
    assert "wgmma.mma_async.sp.sync.aligned.m64nNk32.f32.f16.f16" in sides
    assert all(".m64nNk" in s for s in sides)


def test_the_metadatas_a_side_builds_what_the_whole_atom_builds() -> None:
    """The metadata's partitions over the tiled MMA of the atom's A side are those over the whole atom's."""
    from dataclasses import replace
    from verifier.kinds.cute_objects import mma_atom
    from verifier.kinds.sparse.config import MetadataCheck
    from verifier.kinds.sparse.setup import build, metadata_side
    spec = load_spec(SPECS / "catalog" / "sm90_sparse.yaml")
    checks = [c for c in spec.checks.values() if isinstance(c, MetadataCheck)]
    assert len(checks) >= 5
    for check in checks:
        atom = spec.mma_atoms[check.mma]
        side = metadata_side(atom)
        whole = replace(side, atom=mma_atom(atom))
        assert side.atom != whole.atom
        built = [build(check, atom, spec.copy_atoms.get(check.copy), s) for s in (side, whole)]
        assert built[0].copy is not None and built[0].fragment is not None
        for field in ("tile_problem", "cute_refusal", "source", "reads", "fragment", "a_slices", "rest", "threads"):
            assert getattr(built[0], field) == getattr(built[1], field), (check.name, field)
        assert built[0].copy.layout_tv == built[1].copy.layout_tv
