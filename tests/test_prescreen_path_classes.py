"""Operand paths proved once a class (verifier/prescreen/path_classes.py): SM90 descriptor-read operands that differ
only in their stage count, and operands A that differ only in their atom's N as well.  Every class is cross-checked
here against the concrete prover: the space proved with its classes gives every kernel the verdict and theorem
statuses it gets with every path proved alone."""
from dataclasses import replace
from types import SimpleNamespace


from verifier.outcome import Status, Verdict
from verifier.prescreen import builders
from verifier.prescreen import path_classes as PC
from verifier.prescreen import run as command
from verifier.prescreen.builders import Mapped, OperandCheck, map_sm90
from verifier.prescreen.space import KernelConfig
from verifier.theorems.result import CheckResult

SM90_F16 = KernelConfig("k90", 90, "Universal3x", "TensorOp", (128, 128, 64), (4, 1, 1), (0, 0, 0), "f16", "f16",
                        "f32", "RowMajor", "ColumnMajor", 8, 8, "ScheduleAuto", 0)


def _paths(kc: KernelConfig) -> tuple[OperandCheck, ...]:
    mapped = map_sm90(kc)
    assert isinstance(mapped, Mapped), mapped
    checks = tuple(c for c in mapped.checks if isinstance(c, OperandCheck))
    assert len(checks) == len(mapped.checks)
    return checks


def _space() -> list[KernelConfig]:
    """SS kernels over N, stage counts, A's major-ness and both mainloops (TMA, cp.async)."""
    space = []
    for n in (64, 128, 256):
        for stages in (2, 3, 4):
            for layout_a in ("RowMajor", "ColumnMajor"):
                for schedule in ("ScheduleAuto", "CpAsyncWarpSpecialized"):
                    space.append(replace(SM90_F16, name=f"k_{n}_{stages}_{layout_a}_{schedule}", tile=(128, n, 64),
                                         stages=stages, layout_a=layout_a, schedule=schedule,
                                         align_a=8 if layout_a == "RowMajor" else 4))
    return space


def test_paths_that_differ_in_their_stage_count_or_as_a_in_their_atoms_n_are_one_class():
    a64, b64 = _paths(replace(SM90_F16, tile=(128, 64, 64), stages=3))
    a256, b256 = _paths(replace(SM90_F16, tile=(128, 256, 64), stages=2))
    assert a64.mma != a256.mma and a64.smem != a256.smem
    first, second = PC.member(a64), PC.member(a256)
    assert first is not None and second is not None and first.key == second.key
    assert (first.stages, first.atom_n, second.stages, second.atom_n) == (3, 64, 2, 256)
    # B reads the atom's N: another N is another class; another stage count is the same class
    assert PC.member(b64).key != PC.member(b256).key                                     # type: ignore[union-attr]
    b64_two = _paths(replace(SM90_F16, tile=(128, 64, 64), stages=2))[1]
    assert PC.member(b64).key == PC.member(b64_two).key                                  # type: ignore[union-attr]
    # another M, K, major-ness or type is another class
    for other in (replace(SM90_F16, tile=(64, 64, 64), stages=3), replace(SM90_F16, tile=(128, 64, 128), stages=3),
                  replace(SM90_F16, tile=(128, 64, 64), stages=3, layout_a="ColumnMajor"),
                  replace(SM90_F16, tile=(128, 64, 64), stages=3, element_a="bf16", element_b="bf16")):
        assert PC.member(_paths(other)[0]).key != first.key, other                      # type: ignore[union-attr]


def test_paths_no_class_holds():
    a, _ = _paths(replace(SM90_F16, tile=(128, 128, 64), stages=3))
    # a tile read through registers (an RS atom), converted, or given another major-ness than its atom's
    for changed in (replace(a, mma=replace(a.mma, name=a.mma.name.replace("_SS", "_RS"))),
                    replace(a, smem_type="float_e4m3_t"), replace(a, major="MN"),
                    replace(a, copy="AutoVectorizingCopy"), replace(a, smem="(128,64,3):(64,1,8192)")):
        assert PC.member(changed) is None, changed
    # a buffer whose stages' starts would leave gaps (theorems 14-16 then keep their base and stage): 256x128 f16
    # stages of 64 KiB, three of them, leave 35,840 bytes of bases, less than a stage's step
    wide, _ = _paths(replace(SM90_F16, tile=(256, 128, 128), stages=3))
    assert PC.member(wide) is None
    assert PC.no_gaps(64 * 1024, 2) and not PC.no_gaps(64 * 1024, 3)
    assert not PC.no_gaps(100, 2)                        # a stage that is not a whole number of alignments


def test_an_a_path_joins_other_atoms_only_beside_a_path_of_its_own_atom():
    a64, b64 = _paths(replace(SM90_F16, tile=(128, 64, 64), stages=3))
    a256, b256 = _paths(replace(SM90_F16, tile=(128, 256, 64), stages=2))
    plan = PC.fold([a64, b64, a256, b256], [(a64, b64), (a256, b256)])
    assert plan.classes[a64] is plan.classes[a256] and plan.classes[a64].representative == a64   # 3 stages
    assert plan.classes[a64].cross_check == a256
    assert set(plan.own) == {b64, b256}
    # A of 256 in a kernel without its atom's B path: it keeps its own atom
    lone = PC.fold([a64, b64, a256], [(a64, b64), (a256,)])
    assert a256 in lone.own and a64 in lone.own and not lone.classes


def test_the_first_round_proves_each_class_at_its_largest_and_smallest_stage_count():
    checks = [_paths(replace(SM90_F16, tile=(128, 128, 64), stages=s))[1] for s in (2, 3, 4, 5)]
    plan = PC.fold(checks, [(c,) for c in checks])
    cls = plan.classes[checks[0]]
    assert (cls.representative, cls.cross_check) == (checks[3], checks[0])
    assert sorted(map(id, plan.first_round())) == sorted(map(id, (checks[3], checks[0])))


def _outcome(results: list[CheckResult]) -> dict[str, tuple[Verdict, list[tuple[int, Status]]]]:
    return {r.name: (r.verdict, [(t.number, t.status) for t in r.theorems]) for r in results}


def _no_classes(paths, kernels):            # every path proved as its own
    return PC.Plan(own=list(paths))


def test_a_space_proved_by_classes_gives_each_kernel_what_its_own_paths_give(monkeypatch, tmp_path):
    space = _space()
    monkeypatch.setattr(command, "kernels", lambda arch, level: space)
    results, mapped, (paths, decided), _ = command.run(90, "", 1, tmp_path / "classes")
    assert mapped == len(space) and decided < paths
    assert all(r.verdict is Verdict.VERIFIED for r in results), [r.summary for r in results]
    monkeypatch.setattr(command, "fold", _no_classes)
    alone, _, (paths_alone, decided_alone), _ = command.run(90, "", 1, tmp_path / "alone")
    assert (paths_alone, decided_alone) == (paths, paths)
    assert _outcome(results) == _outcome(alone)
    # the representative's description names what it stands for
    text = "\n".join(p.read_text() for p in (tmp_path / "classes").iterdir())
    assert "proved once for the 3 operand paths of its class: stage counts [2, 3, 4]" in text


def test_a_refuted_class_is_proved_member_by_member(monkeypatch, tmp_path):
    """K-major atoms for MN-major A tiles: every class is refuted, so every member is proved as its own path and
    each kernel is reported with its own paths' counterexamples."""
    space = [k for k in _space() if k.layout_a == "ColumnMajor"]
    real = builders.gmma_atom
    monkeypatch.setattr(builders, "gmma_atom", lambda n, acc, a, b, majors: real(n, acc, a, b, ("K", "K")))
    monkeypatch.setattr(command, "kernels", lambda arch, level: space)
    results, _, (paths, decided), _ = command.run(90, "", 1, tmp_path / "classes")
    assert all(r.verdict is Verdict.REFUTED for r in results)
    monkeypatch.setattr(command, "fold", _no_classes)
    alone, _, _, _ = command.run(90, "", 1, tmp_path / "alone")
    assert _outcome(results) == _outcome(alone)
    # each kernel's refuted A path is its own (the paths are numbered alike in both runs); its verified B path is
    # its class's representative for some kernels
    own = {r.name: [p.name for p in r.paths] for r in alone}
    found = {r.name: [p.name for p in r.paths] for r in results}
    assert all(found[k][0] == own[k][0] and found[k][0].endswith("_a") for k in own)
    assert any(found[k][1] != own[k][1] for k in own) and decided < paths


def test_a_class_whose_cross_check_disagrees_is_proved_member_by_member(monkeypatch, tmp_path):
    space = [k for k in _space() if k.layout_a == "RowMajor" and k.schedule == "ScheduleAuto"]
    monkeypatch.setattr(command, "kernels", lambda arch, level: space)
    plans: list[PC.Plan] = []

    def fold(paths, kernels):
        plans.append(PC.fold(paths, kernels))
        return plans[-1]
    real = command._prove_paths
    rounds: list[int] = []
    flipped: list[str] = []

    def cross_refuted(arch, paths, *args, **kwargs):
        found = real(arch, paths, *args, **kwargs)
        rounds.append(len(paths))
        if len(rounds) == 1:        # the first round: every cross-check made to disagree with its representative
            for cls in plans[0].distinct():
                if cls.cross_check is not None:
                    r = found[paths[cls.cross_check]]
                    r.theorems = [replace(t, status=Status.REFUTED) for t in r.theorems[:1]] + r.theorems[1:]
                    flipped.append(r.name)
        return found
    monkeypatch.setattr(command, "fold", fold)
    monkeypatch.setattr(command, "_prove_paths", cross_refuted)
    results, _, (paths, decided), _ = command.run(90, "", 1, tmp_path)
    assert flipped
    assert len(rounds) == 2 and decided == paths        # every member proved as itself in the end
    monkeypatch.setattr(command, "fold", _no_classes)
    monkeypatch.setattr(command, "_prove_paths", real)
    alone, _, _, _ = command.run(90, "", 1, tmp_path / "alone")
    # each kernel reported with its own paths (the doctored cross-checks refute theirs)
    assert {r.name: [p.name for p in r.paths] for r in results} == {r.name: [p.name for p in r.paths] for r in alone}
    assert {r.name for r in results if r.verdict is not Verdict.VERIFIED} == \
        {r.name for r in results if any(p.name in flipped for p in r.paths)}


def test_agreement_needs_both_verified_by_the_same_theorems():
    checks = [_paths(replace(SM90_F16, tile=(128, 128, 64), stages=s))[1] for s in (2, 4)]
    cls = PC.PathClass(checks, checks[1], checks[0], (2, 4))
    names = {checks[0]: "small", checks[1]: "large"}

    def result(verdict: Verdict, statuses: list[Status]) -> SimpleNamespace:
        return SimpleNamespace(verdict=verdict, theorems=[SimpleNamespace(number=i, status=s)
                                                          for i, s in enumerate(statuses)])
    proved = [Status.PROVED, Status.PROVED]
    assert command._agree({"small": result(Verdict.VERIFIED, proved), "large": result(Verdict.VERIFIED, proved)},
                          names, cls)
    assert not command._agree({"small": result(Verdict.REFUTED, [Status.PROVED, Status.REFUTED]),
                               "large": result(Verdict.VERIFIED, proved)}, names, cls)
    assert not command._agree({"small": result(Verdict.VERIFIED, proved),
                               "large": result(Verdict.REFUTED, [Status.REFUTED, Status.PROVED])}, names, cls)
    assert not command._agree({"small": result(Verdict.VERIFIED, proved[:1]),
                               "large": result(Verdict.VERIFIED, proved)}, names, cls)
