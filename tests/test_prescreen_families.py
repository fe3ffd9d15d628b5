"""A high --level's space as families (verifier/prescreen/families.py): the families expand to exactly the kernels
CUTLASS's generator emits kernel by kernel (names, counts, configurations, mappings), and a family whose sampled
member differs from it is caught."""
from __future__ import annotations

import gc
from collections import Counter
from dataclasses import replace

import pytest

from verifier.outcome import Expect, Status, Verdict, check_verdict
from verifier.prescreen.builders import Mapped, Unmapped, map_kernel
from verifier.prescreen.families import IGNORED_FIELDS, NAME_READING_KINDS, Family, Member, Share, generate_families
from verifier.prescreen import family_run
from verifier.prescreen.family_run import (FamilyMismatch, FamilyRun, cross_check, family_table, map_and_check,
                                             shared_view)
from verifier.prescreen.space import KernelConfig, gc_paused, generate
from verifier.theorems.catalog import TheoremId
from verifier.theorems.claims import TheoremResult
from verifier.theorems.result import CheckResult

generator = pytest.importorskip("cutlass_library.generator")

# parts of CUTLASS's SM90 generator that between them exercise every branch of the family Create: kernels the
# generator stamps out twice (fp8: the second of a name dropped), mixed-input modes and value shuffles, cp.async
# (unaligned) and tf32 schedules, blockwise kernels (whose mapper reads the name), sparse kernels (the other recorded
# creator), CUTLASS 2.x kernels (another creator, into the real Manifest)
PARTS = {"1000": ("GenerateSM90_TensorOp_mixed_dtype_WGMMA_gemm", "GenerateSM90_TensorOp_16b_WGMMA_alignx_gemm"),
         "0100": ("GenerateSM90_TensorOp_tf32_WGMMA_gemm",),
         "": ("GenerateSM90_TensorOp_fp8_WGMMA_gemm", "GenerateSM90_TensorOp_fp8_WGMMA_gemm_with_blockwise",
              "GenerateSM90_TensorOp_16b_WGMMA_gemm", "GenerateSM90_SparseTensorOp_16b_WGMMA_gemm",
              "GenerateSM90_TensorOp_1684")}


def _same(found: Mapped | Unmapped, family: Mapped | Unmapped, member: str, first: str) -> bool:
    if isinstance(found, Unmapped) and isinstance(family, Unmapped):
        return found.reason.replace(member, first) == family.reason
    return found == family


@pytest.mark.parametrize("level", sorted(PARTS))
def test_families_expand_to_the_generators_kernels(monkeypatch, level):
    monkeypatch.setattr(generator, "GenerateSM90",
                        lambda m, cuda: [getattr(generator, part)(m, cuda) for part in PARTS[level]])
    kernels = generate(90, level)
    families = generate_families(90, level, keep_names=True)
    names = Counter(n for f in families for n in f.names or [])
    assert names == Counter(k.name for k in kernels) and max(names.values()) == 1
    assert sum(f.kernels for f in families) == len(kernels) and all(f.kernels == len(f.names or []) for f in families)
    assert len(families) < len(kernels)
    by_name = {k.name: k for k in kernels}
    ignored = IGNORED_FIELDS[90]
    mapping = [map_kernel(f.config) for f in families]
    for family, mapped in zip(families, mapping):
        first = family.config
        names = family.names or []
        assert family.samples[0].name == first.name == min(names) and family.samples[-1].name == max(names)
        for name in family.names or []:
            kernel = by_name[name]
            assert replace(kernel, name=first.name, **{f: getattr(first, f) for f in ignored}) == first
            assert _same(map_kernel(kernel), mapped, name, first.name)
    assert any(isinstance(m, Mapped) for m in mapping)
    if level == "1000":
        assert {"ConvertOnly", "ScaleOnly"} <= {f.config.mixed_mode for f in families}
        assert any(f.config.mixed_shuffle for f in families)
    elif level == "0100":                 # members of other cluster shapes
        assert any(len({by_name[n].cluster for n in f.names or []}) > 1 for f in families)
    else:
        assert any(f.config.kind in NAME_READING_KINDS for f in families)
        assert any(f.config.kind == "SparseUniversal3x" and f.kernels > 1 for f in families)
        assert any(f.samples[0].config is not None for f in families)       # a 2.x kernel, built for real
        assert any(isinstance(m, Unmapped) for m in mapping)                # (the 2.x f64 ones: not mapped)
    assert cross_check(90, level, families, mapping) == sum(len(f.samples) for f in families)


def test_a_member_that_is_not_its_familys_is_caught(monkeypatch):
    monkeypatch.setattr(generator, "GenerateSM90",
                        lambda m, cuda: generator.GenerateSM90_TensorOp_tf32_WGMMA_gemm(m, cuda))
    families = generate_families(90, "")
    family = next(f for f in families if len(f.samples) == 2)
    other = next(f for f in families if f.config.tile != family.config.tile)
    wrong = Family(family.config, family.kernels, [family.samples[0], other.samples[0]])
    with pytest.raises(FamilyMismatch):
        cross_check(90, "", [wrong], [map_kernel(family.config)])
    renamed = Family(family.config, family.kernels, [Member(family.samples[1].name + "_x", family.samples[1].call,
                                                            family.samples[1].kernel_schedule,
                                                            family.samples[1].epilogue_schedule,
                                                            family.samples[1].tile_scheduler)])
    with pytest.raises(FamilyMismatch, match="emits 0 kernels of its name"):
        cross_check(90, "", [renamed], [map_kernel(family.config)])


def test_a_family_is_mapped_from_what_its_members_share():
    config = KernelConfig("k_2x1x1_align8_warpspecialized", 90, "Universal3x", "TensorOp", (128, 128, 64), (4, 1, 1),
                          (0, 0, 0), "f16", "f16", "f32", "RowMajor", "ColumnMajor", 8, 8, "KernelScheduleAuto", 0,
                          (2, 1, 1))
    view = shared_view(config)
    assert view.name == "" and view.cluster == (0, 0, 0)
    assert replace(view, name=config.name, cluster=(2, 1, 1)) == config
    reads_name = replace(config, kind=sorted(NAME_READING_KINDS)[0])
    assert shared_view(reads_name) == replace(reads_name, cluster=(0, 0, 0))     # its rules read the name: kept
    assert shared_view(replace(config, arch=100)) == replace(config, arch=100, name="")   # SM100 reads the cluster


def test_only_a_name_reading_kinds_members_are_mapped_again(monkeypatch):
    monkeypatch.setattr(generator, "GenerateSM90",
                        lambda m, cuda: generator.GenerateSM90_TensorOp_tf32_WGMMA_gemm(m, cuda))
    families = [f for f in generate_families(90, "") if len(f.samples) == 2][:3]
    mapped: list[KernelConfig] = []

    def by_name(kc: KernelConfig) -> Mapped:        # a rule that reads the kernel's name
        mapped.append(kc)
        return Mapped((), kc.name)
    monkeypatch.setattr(family_run, "map_kernel", by_name)
    mapping = [family_run.map_family(f.config) for f in families]
    assert mapping == [Mapped((), "")] * 3           # it cannot: the family's members look alike to it
    assert cross_check(90, "", families, mapping) == 6 and len(mapped) == 3     # no member mapped again
    monkeypatch.setattr(family_run, "NAME_READING_KINDS", (families[0].config.kind,))
    mapping = [family_run.map_family(f.config) for f in families]
    with pytest.raises(FamilyMismatch, match="maps differently"):   # a kind whose rules may read the name: compared
        cross_check(90, "", families, mapping)


def test_the_family_table_counts_kernels_and_families():
    def result(verdict: Verdict, expect: Expect = Expect.PASS, summary: str = "") -> CheckResult:
        r = CheckResult("s.yaml", "sm90 kernels", "k", None, expect, None, summary)   # type: ignore[arg-type]
        r.verdict = verdict
        return r
    run = FamilyRun([result(Verdict.VERIFIED), result(Verdict.VERIFIED),
                     result(Verdict.UNSUPPORTED, Expect.UNSUPPORTED, "a family of 7 kernels; not mapped: why")],
                    [5, 6, 7], 3, 6, 1.0)
    table = family_table(90, "9999", run)
    assert "18 GEMM kernels in 3 families, 11 kernels (2 families) mapped" in table
    assert "| verified | 11 | 2 |" in table and "| not mapped | 7 | 1 |" in table and "7  why" in table
    assert "by theorem" not in table and "by CuTe's rule" not in table


def test_the_family_table_says_where_refuted_and_refused_families_fail():
    def result(*theorems: TheoremResult) -> CheckResult:
        r = CheckResult("s.yaml", "sm90 kernels", "k", None, Expect.PASS, None, "")   # type: ignore[arg-type]
        r.theorems = list(theorems)
        r.verdict = check_verdict(t.status for t in theorems)
        return r
    load = TheoremResult(TheoremId.BLOCKWISE_LOAD, Status.REFUTED)
    rule = TheoremResult(TheoremId.COPY_ROUTING, Status.REFUSED, reason="TiledCopy uses too few vals")
    run = FamilyRun([result(load), result(load), result(rule)], [4, 5, 6], 3, 6, 1.0)
    table = family_table(90, "9999", run)
    assert "| refuted (a counterexample) | 9 | 2 |" in table and "| refused by CuTe | 6 | 1 |" in table
    assert "refuted, by theorem (kernels, families):\n         9      2  29 blockwise.load" in table
    assert "refused by CuTe's rule (kernels, families):\n         6      1  TiledCopy uses too few vals" in table


def test_families_are_mapped_and_checked_alike_on_two_workers(monkeypatch):
    monkeypatch.setattr(generator, "GenerateSM90",
                        lambda m, cuda: generator.GenerateSM90_TensorOp_tf32_WGMMA_gemm(m, cuda))
    families = generate_families(90, "")
    alone, checked = map_and_check(90, "", families, 1)
    assert map_and_check(90, "", families, 2) == (alone, checked) == ([map_kernel(f.config) for f in families],
                                                                      sum(len(f.samples) for f in families))
    assert gc.isenabled()       # the answers were unpickled with the collector off, and it is on again


def test_the_collector_is_paused_in_the_block_and_restored_as_it_was():
    assert gc.isenabled()
    with pytest.raises(KeyError):
        with gc_paused():
            assert not gc.isenabled()
            with gc_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()         # the inner block found it off: it leaves it off
            raise KeyError("x")
    assert gc.isenabled()


def _facts(families: list[Family]) -> list[tuple[object, ...]]:
    """Each family's configuration, kernel count, samples and members (in name order: CUTLASS's generator emits the
    kernels of a space in an order that differs from process to process, it iterates sets of objects hashed by
    identity; what a family is made of does not)."""
    return [(f.config, f.kernels, [m.name for m in f.samples], sorted(f.names or [])) for f in families]


def test_the_call_sequence_cut_in_two_gives_the_families_of_one_run():
    """The two parts of GenerateSM90's calls (before and from SPLIT_AT), run in two children at once and merged: the
    families of one run of the whole sequence (another process), in the same order, each the same configuration,
    kernel count, samples and members."""
    from functools import partial
    from verifier.prescreen.families import SPLIT_AT, generate_share, merge, shared_name
    from verifier.prescreen.space import in_child, in_children
    whole = in_child(partial(generate_families, keep_names=True), 90, "0500", 600)
    first, second = in_children([partial(generate_share, part=p, keep_names=True) for p in (0, 1)], 90, "0500", 600)
    assert shared_name(first, second) is None
    assert first.families and second.families and SPLIT_AT[90].endswith("blockwise")
    assert all(key[0].kind in NAME_READING_KINDS for key, _ in second.families)     # part 1: the blockwise calls
    merged = merge([first, second], keep_names=True)
    assert _facts(merged) == _facts(whole) and sum(f.kernels for f in merged) == 36986
    for family in merged:
        names = family.names or []
        assert family.samples[0].name == min(names) == family.config.name and family.samples[-1].name == max(names)


def _share(names: list[str], kernels: int = 1) -> Share:
    config = KernelConfig(names[0], 90, "Universal3x", "TensorOp", (128, 128, 64), (4, 1, 1), (1, 1, 1), "f16",
                          "f16", "f32", "RowMajor", "ColumnMajor", 8, 8, "KernelTmaWarpSpecialized", 0, (1, 1, 1), "",
                          "", False)
    low, high = min(names), max(names)
    family = Family(config, kernels, names=list(names), low=(low, Member(low, config=replace(config, name=low))),
                    high=(high, Member(high, config=replace(config, name=high))))
    seen: dict[str, frozenset[str]] = {}
    for name in names:
        prefix, _, suffix = name.partition("align8")
        seen[prefix + "align8"] = seen.get(prefix + "align8", frozenset()) | {suffix}
    return Share([(("key",), family)], [], seen, set())


def test_two_parts_that_emit_one_name_are_not_merged_and_a_familys_parts_are_one_family():
    from verifier.prescreen.families import merge, shared_name
    a = _share(["k_align8_ws", "k_align8_pp"], 2)
    b = _share(["k_align8_coop", "k_align8_cs"], 2)
    assert shared_name(a, b) is None
    assert shared_name(a, _share(["j_align8", "k_align8_pp"], 2)) == "k_align8_pp"
    manifest_twin = _share(["x_align8"])
    manifest_twin.manifest_names = {"k_align8_ws"}           # a kernel the real Manifest holds, recorded by `a`
    assert shared_name(manifest_twin, a) == "k_align8_ws"
    (family,) = merge([a, b], keep_names=True)
    assert family.kernels == 4 and family.names == ["k_align8_ws", "k_align8_pp", "k_align8_coop", "k_align8_cs"]
    assert [m.name for m in family.samples] == ["k_align8_coop", "k_align8_ws"]     # the least and greatest names
    assert family.config.name == "k_align8_coop"


def test_the_generator_alone_runs_its_rules_and_builds_no_kernel(monkeypatch):
    """benchmarks/prescreen.py --generator-floor: the generator's calls run (their schedule rules asked), no Create
    builds a kernel into the Manifest, and CUTLASS's Create functions are its own again after."""
    from cutlass_library import manifest
    from verifier.prescreen.families import CREATORS, generator_alone
    asked: list[int] = []
    appended: list[int] = []
    rules = generator.get_valid_schedules
    monkeypatch.setattr(generator, "get_valid_schedules", lambda *a, **k: asked.append(1) or rules(*a, **k))
    append = manifest.Manifest.append
    monkeypatch.setattr(manifest.Manifest, "append", lambda self, op: appended.append(1) or append(self, op))
    monkeypatch.setattr(generator, "GenerateSM90",
                        lambda m, cuda: [getattr(generator, part)(m, cuda) for part in PARTS["0100"]])
    creators = {creator: getattr(generator, creator) for creator in CREATORS}
    generator_alone(90, "0100", None)
    assert asked and not appended
    assert all(getattr(generator, creator) is creators[creator] for creator in CREATORS)
    generate(90, "0100")          # the same calls listed kernel by kernel build kernels
    assert appended
