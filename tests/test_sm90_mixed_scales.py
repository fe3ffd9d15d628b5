"""SM90 mixed-input GEMMs with scales (MixedInputMode ScaleOnly, ScaleWithZeroPoint): the mixed-scale kind (theorems
31, 32) against CUTLASS 4.2's own results (tests/data/cute_mixed_scales.json, tools/cute_dump/mixed_scales.cu), the
prescreen's rules for the generator's kernels (their stage counts, the scale buffers' alignments, one check a scale
tensor), the kernels proved, and broken configurations and rules refuted with their counterexamples."""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterator

import pytest

from verifier.algebra.inttuple import Underscore
from verifier.algebra.layout import Layout
from verifier.algebra.syntax import parse_layout
from verifier.cute import blockwise as BW
from verifier.cute import mixed_input as MI
from verifier.cute.tensor import Tensor
from verifier.engine.runner import run_check
from verifier.kinds.mixed_scale.config import MixedScaleCheck
from verifier.kinds.mixed_scale.kind import build_setup
from verifier.kinds.mixed_scale.setup import MixedScaleSetup
from verifier.kinds.mixed_scale.theorems import a_row, read_register, source_slot, written_register
from verifier.outcome import Status, Verdict
from verifier.prescreen import run as command
from verifier.prescreen import sm90_mixed_scales as rules
from verifier.prescreen.builders import SWIZZLE_ALIGN_BYTES, Mapped, MMAAtomFacts, OperandCheck, Unmapped, map_sm90
from verifier.prescreen.sm90_mixed_scales import MixedScalePathCheck
from verifier.prescreen.space import KernelConfig
from verifier.specfile import SpecError, load_spec
from verifier.symbolic.expr import Expr, const, evaluate
from verifier.theorems.catalog import TheoremId
from verifier.theorems.result import CheckResult

T = TheoremId
DATA = json.loads((Path(__file__).parent / "data" / "cute_mixed_scales.json").read_text(encoding="utf-8"))
CONFIGS = DATA["configs"]
IDS = [c["config"] for c in CONFIGS]
NARROW_BITS = {"s8": 8, "u8": 8, "e4m3": 8, "e5m2": 8, "s4": 4, "u4": 4, "s2": 2, "u2": 2}
DUMPED_STAGE = 1                    # mixed_scales.cu copies stage 1 into registers
MIXED = {T.MIXED_SCALE_LOAD, T.MIXED_SCALE_READ}
COOP, PINGPONG, WS = "TmaWarpSpecializedCooperative", "TmaWarpSpecializedPingpong", "TmaWarpSpecialized"


def _kernel(name: str, a: str, b: str, tile: tuple[int, int, int], schedule: str, mode: str) -> KernelConfig:
    return KernelConfig(name, 90, "Universal3x", "TensorOp", tile, (4, 1, 1), (0, 0, 0), a, b, "f32", "RowMajor",
                        "ColumnMajor", 128 // NARROW_BITS[a], 8, schedule, 0, (1, 2, 1), "", mode, False)


def _dumped_kernel(config: dict) -> KernelConfig:
    k = config["kernel"]
    return _kernel(config["config"], k["element_a"], k["element_b"], tuple(k["tile"]), k["schedule"], k["mode"])


def _scale_paths(m: Mapped | Unmapped) -> list[MixedScalePathCheck]:
    assert isinstance(m, Mapped), m
    return [c for c in m.checks if isinstance(c, MixedScalePathCheck)]


def _spec_file(tmp_path: Path, path: MixedScalePathCheck, kc: KernelConfig) -> Path:
    out = tmp_path / "mixed.yaml"
    out.write_text(command.spec_text(90, {path: "c"}, {path: kc}, {path: 1}, "mixed"), encoding="utf-8")   # type: ignore[dict-item]
    return out


def _path(kc: KernelConfig, tensor: str = "scale", **changes: str) -> MixedScalePathCheck:
    path = next(c for c in _scale_paths(map_sm90(kc)) if c.tensor == tensor)
    entries = {**dict(path.entries), **changes}
    return replace(path, entries=tuple(entries.items()))


def _setup(tmp_path: Path, kc: KernelConfig, tensor: str = "scale") -> MixedScaleSetup:
    spec = load_spec(_spec_file(tmp_path, _path(kc, tensor), kc), allow_outside=True)
    check = spec.checks["c"]
    assert isinstance(check, MixedScaleCheck)
    return build_setup(spec, check)


def _prove(tmp_path: Path, kc: KernelConfig, tensor: str = "scale", **changes: str) -> CheckResult:
    spec = load_spec(_spec_file(tmp_path, _path(kc, tensor, **changes), kc), allow_outside=True)
    return run_check(spec, spec.checks["c"])


def _at(e: Expr) -> int:
    return int(evaluate([e], {})[0])


def _failed(r: CheckResult) -> set[TheoremId]:
    return {t.id for t in r.theorems if t.status in (Status.REFUTED, Status.REFUSED)}


def _theorem(r: CheckResult, tid: TheoremId):
    return next(t for t in r.theorems if t.id is tid)


# --- CuTe's objects, against CUTLASS's ---------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_rules_build_cutlass_s_shared_tile_stages_tma_and_buffers(config):
    kc = _dumped_kernel(config)
    m = map_sm90(kc)
    paths = _scale_paths(m)
    assert isinstance(m, Mapped) and [c.tensor for c in paths] == (["scale", "zero"] if config["zero"] else ["scale"])
    assert f"{config['stages']} stages" in m.how          # the builder's count: a stage holds the scales too
    smem = parse_layout(json.loads(dict(paths[0].entries)["smem"]))
    assert smem == parse_layout(config["smem_scale"])
    # the TensorStorage offsets of the scale and zero buffers, and the alignment each check states
    aligns = [SWIZZLE_ALIGN_BYTES[c.smem.split("Layout_K_")[1].split("_Atom")[0]] for c in m.checks
              if isinstance(c, OperandCheck) and c.copy == "SM90_TMA_LOAD"]
    store = rules.storage(kc.tile, config["stages"], NARROW_BITS[kc.element_a], 16, 16, aligns[0], aligns[1])
    dumped = config["storage"]
    assert (store.smem_b, store.smem_scale, store.smem_zero, store.align) == (
        dumped["smem_b"], dumped["smem_scale"], dumped["smem_zero"], dumped["align"])
    for c in paths:
        offset = dumped["smem_zero" if c.tensor == "zero" else "smem_scale"]
        assert int(dict(c.entries)["smem_align"]) == min(dumped["align"], offset & -offset)
    # the box construct_tma_gbasis<TmaElementScale> derives for the dumped global tensor (its batch mode dropped)
    global_m, columns = config["scale_tma_global_dim"][:2]
    tma = BW.scale_tma(MI.scale_global(global_m, columns), smem.slice((Underscore, Underscore, 0)), kc.tile[0], 1,
                       config["scale_tma_type_bits"] // 8)
    assert not isinstance(tma, str), tma
    assert (list(tma.box), list(tma.global_dim), list(tma.global_strides)) == (
        config["scale_tma_box"][:2], [global_m, columns], config["scale_tma_global_strides"][1:2])
    # the transaction bytes CUTLASS adds for the scales (and zeros) of a stage
    assert config["tx_bytes"][2] == len(paths) * int(product_of(smem)) * config["scale_tma_type_bits"] // 8


def product_of(smem: Layout) -> int:
    return int(smem.mode(0).size()) * int(smem.mode(1).size())


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_scale_path_is_cutlass_s_for_every_dumped_thread_and_k_block(config, tmp_path):
    """tCrS, retile_D(tCrS), each listed thread's partition_A of the scale tile, and for every k-block and element of
    A's fragment: the element (m, k) the RS wgmma reads from it (PTX ISA fragment) is CuTe's partition_A coordinate,
    and the slot in the register dequantize_A_kblock pairs with it after the k-block 0 copy (the copy's last element
    writing it) is the one CUTLASS's code put there -- for the scales and the zero points alike."""
    setup = _setup(tmp_path, _dumped_kernel(config))
    r = setup.registers
    assert r is not None and setup.reading is not None
    assert (r.fragment, r.copy_view) == (parse_layout(config["frag_scale"]), parse_layout(config["copy_view_scale"]))
    assert setup.threads == config["threads"] and setup.a_fragment[2] == config["k_blocks"]
    for dumped in config["threads_dumped"]:
        assert setup.reading.partition(Tensor(0, setup.check.smem), "A", dumped["thread"]).layout == \
            parse_layout(dumped["scale_layout"])
        for read in model_reads(setup, dumped):
            assert read.mk == read.dumped[:2]
            slot, zero = read.dumped[2:]
            assert read.slot == slot and zero in (-1, slot)


@dataclass(frozen=True)
class ModelRead:
    """One dumped read of a thread's A element x of k-block kb, beside what the model says of it."""
    dumped: tuple[int, ...]        # CUTLASS's line: m, k, then the slots it dumped
    mk: tuple[int, int]            # the (m, k) the RS wgmma reads from register x of k-block kb (PTX ISA fragment)
    register: int                  # the scale register dequantize_A_kblock pairs with it
    slot: int                      # the slot the k-block 0 copy put in that register (the copy's last writer)


def model_reads(setup: MixedScaleSetup, dumped: dict) -> Iterator[ModelRead]:
    """Every read CUTLASS dumped for one thread (k-block by k-block, element by element), with the model's."""
    r = setup.registers
    assert r is not None
    t, k_atom, writes = dumped["thread"], setup.atom.shape_mnk[2], int(r.write_view.size())
    reads = iter(dumped["reads"])
    for kb in range(setup.a_fragment[2]):
        for x in range(setup.a_fragment[0] * setup.a_fragment[1]):
            row, col = a_row(setup, const(t), const(x))
            register = _at(read_register(setup, const(x), const(kb)))
            writer = max(y for y in range(writes) if _at(written_register(setup, const(y))) == register)
            yield ModelRead(tuple(next(reads)), (_at(row), kb * k_atom + _at(col)), register,
                            _at(source_slot(setup, const(t), const(writer), const(DUMPED_STAGE))))
    assert next(reads, None) is None, "CUTLASS dumped more reads than the thread's fragment holds"


# --- the prescreen: the generator's kernels ------------------------------------------------------------------------

S8_F16 = _kernel("s8_f16_scl", "s8", "f16", (128, 128, 64), COOP, "ScaleOnly")
U4_BF16 = _kernel("u4_bf16_sclzr", "u4", "bf16", (64, 128, 128), PINGPONG, "ScaleWithZeroPoint")
E4M3_F16 = _kernel("e4m3_f16_scl", "e4m3", "f16", (256, 128, 64), WS, "ScaleOnly")
S2_BF16 = _kernel("s2_bf16_sclzr", "s2", "bf16", (256, 128, 64), COOP, "ScaleWithZeroPoint")
REPRESENTATIVES = [S8_F16, U4_BF16]        # a cooperative ScaleOnly and a pingpong ScaleWithZeroPoint kernel


def test_the_generator_s_scaled_kernels_are_mapped():
    """Every ScaleOnly / ScaleWithZeroPoint kernel of the generator's SM90 space maps (its 20 int4 x 8-bit float ones
    with lookup tables: tests/test_sm90_mixed_scales_lut.py), with a mixed-scale check of each tensor its mode loads
    and no group size fixed (every one is covered)."""
    from verifier.prescreen.space import generate
    scaled = [kc for kc in generate(90) if kc.mixed_mode in rules.TENSORS_OF_MODE]
    assert len(scaled) == 580
    mapped = {kc.name: map_sm90(kc) for kc in scaled}
    assert not [kc for kc in scaled if isinstance(mapped[kc.name], Unmapped)]
    for kc in scaled:
        paths = _scale_paths(mapped[kc.name])
        assert [c.tensor for c in paths] == list(rules.scale_tensors(kc.mixed_mode))
        assert all("group_size" not in dict(c.entries) for c in paths)
        lookup = kc.element_a == "s4" and kc.element_b in ("e4m3", "e5m2")
        assert all(("conversion" in dict(c.entries)) == lookup for c in paths)


def test_one_kernel_of_each_class_is_proved(monkeypatch, tmp_path):
    monkeypatch.setattr(command, "kernels", lambda arch, level: REPRESENTATIVES)
    results, mapped, _, _ = command.run(90, "", 1, tmp_path)
    assert mapped == len(REPRESENTATIVES)
    assert {r.name: r.verdict for r in results} == {k.name: Verdict.VERIFIED for k in REPRESENTATIVES}
    assert all({t.id for t in r.theorems} >= MIXED for r in results)


def test_a_rule_that_overlaps_the_stages_shows_refuted_kernels(monkeypatch, tmp_path):
    """A rule that lays the scale stages half a tile apart: two rows of two stages share a slot (theorem 31)."""
    real = MI.scale_smem

    def half_apart(atom_rows: int, tile_m: int, stages: int) -> Layout:
        good = real(atom_rows, tile_m, stages)
        return Layout((good.shape[0], good.shape[1], stages), (good.stride[0], good.stride[1], tile_m // 2))
    monkeypatch.setattr(rules.MI, "scale_smem", half_apart)
    monkeypatch.setattr(command, "kernels", lambda arch, level: [S8_F16])
    results, _, _, _ = command.run(90, "", 1, tmp_path)
    assert [r.verdict for r in results] == [Verdict.REFUTED] and _failed(results[0]) == {T.MIXED_SCALE_LOAD}


# --- refutations of the kind ---------------------------------------------------------------------------------------

def test_a_group_smaller_than_the_k_tile_is_refuted_with_the_first_k_of_the_next_group(tmp_path):
    """group_size 64 on a 128-deep k-tile: reload_factor is 1, so k-tile 0 loads column 0 for all its k, but k = 64
    belongs to group 1 (CUTLASS's can_implement rejects such a group size; the theorem says what the kernel would
    compute)."""
    r = _prove(tmp_path, U4_BF16, "zero", group_size="64", gmem=json.dumps("(128,64):(1,128)"))   # 64 groups of K
    assert r.verdict is Verdict.REFUTED and _failed(r) == {T.MIXED_SCALE_READ}
    item = _theorem(r, T.MIXED_SCALE_READ).first_failure()
    assert item.witness.point == {"group_size": 64, "k_tile": 0, "k": 64}
    assert "can_implement rejects this group size" in item.witness.expected
    assert "the group size 64" in item.witness.suspect.what
    fine = _prove(tmp_path, U4_BF16, "zero", group_size="256")
    assert fine.verdict is Verdict.VERIFIED


def test_scales_read_through_an_atom_of_the_wrong_register_order_are_refuted_with_the_register(tmp_path):
    """An RS atom whose A fragment exchanges k+1 and m+8 (its values 1 and 2): CuTe partitions the scales as the atom
    says, the wgmma reads value 1 of row g: the register paired with it holds row g + 8's scale."""
    path = _path(S8_F16)
    wrong = MMAAtomFacts(path.mma.name, tuple((k, '"((4,8,4),(2,2,2)):((128,1,16),(8,64,512))"' if k == "a" else v)
                                              for k, v in path.mma.fields))
    spec = load_spec(_spec_file(tmp_path, replace(path, mma=wrong), S8_F16), allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    assert r.verdict is Verdict.REFUTED and T.MIXED_SCALE_READ in _failed(r)
    w = _theorem(r, T.MIXED_SCALE_READ).first_failure().witness
    assert (w.point["thread"], w.point["value"]) == (0, 1)
    assert (w.values["m"], w.values["slot copied into it"], w.values["slot of row m"]) == (0, 8, 0)
    assert [line.label for line in w.chain] == ["wgmma", "dequantize", "copy", "row"]


def test_scales_partitioned_by_a_smaller_tiled_mma_are_refused_by_cute(tmp_path):
    """The scales of a cooperative kernel copied with one warpgroup's tiled MMA: a k-block of tCrS holds 16 values,
    A's 8 -- dequantize_A_kblock's static_assert."""
    r = _prove(tmp_path, S8_F16, reader_atom_layout="[1, 1, 1]")
    read = _theorem(r, T.MIXED_SCALE_READ)
    assert r.verdict is Verdict.REFUTED and read.status is Status.REFUSED
    assert "size(src) == size(scales)" in read.reason


def test_a_misaligned_scale_buffer_and_a_two_column_tile_are_refuted_or_refused(tmp_path):
    misaligned = _prove(tmp_path, S8_F16, smem_align="64")
    assert _failed(misaligned) == {T.MIXED_SCALE_LOAD}
    two_columns = _prove(tmp_path, S8_F16, smem=json.dumps("tile_to_shape((8,2):(1,8), (128,2,9), (2,1,3))"))
    load = _theorem(two_columns, T.MIXED_SCALE_LOAD)
    assert load.status is Status.REFUSED and "size<1>(SmemLayoutAtomScale) must be 1." in load.reason


def test_bad_mixed_scale_checks_are_refused(tmp_path):
    for changes, words in (({"mixed_scales": "bias"}, "must be one of scale | zero"),
                           ({"copy": "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"}, "needs 'copy: SM90_TMA_LOAD'"),
                           ({"problem_k": "0"}, "'problem_k'")):
        with pytest.raises(SpecError) as info:
            load_spec(_spec_file(tmp_path, _path(S8_F16, **changes), S8_F16), allow_outside=True)
        assert words in str(info.value)


def test_explain_traces_an_a_element_to_its_scale_and_a_scale_to_its_readers(capsys):
    """Thread 130 (warpgroup 1, lane 2), element 3 of k-block 2 of the catalog's s8 x f16 kernel: the wgmma reads
    A(72, 37) there; its scale register is filled from slot 200, row 72's of stage 1."""
    from verifier.commands.cli import main
    catalog = str(Path(__file__).parent.parent / "specs" / "catalog" / "sm90_mixed_scales.yaml")
    check = "s8_f16_128x128x64_cooperative_scale"
    assert main(["explain", catalog, "--check", check, "--lane", "130", "--value", "3", "--instance", "2",
                 "--stage", "1"]) == 0
    out = capsys.readouterr().out
    assert "A register 3 of k-block 2 is value 3 of M block 0: A(72, 37)" in out
    assert "from slot 200" in out and "row 72's slot: SmemLayoutScale(72, 0, 1) = 200" in out
    assert main(["explain", catalog, "--check", check, "--coord", "9,0", "--stage", "1"]) == 0
    out = capsys.readouterr().out
    assert "SmemLayoutScale(9, 0, stage 1) = slot 137" in out and "box (128, 1) element (9, 0)" in out


def test_the_groups_failing_k_are_the_ones_read_from_another_column():
    """group_failures (theorem 32's group fact, counted by intervals, every multiple of BLK_K skipped) against every k
    of every k-tile: k fails when its group (kt BLK_K + k) / g is not the column kt / reload_factor loaded."""
    from types import SimpleNamespace
    from verifier.kinds.mixed_scale.theorems import group_failures
    cases = [(64, [64, 128, 192, 256, 4096], 64), (64, [32], 8), (64, [96, 160], 12), (128, [48, 128, 200], 9),
             (32, [32 * r for r in range(1, 17)] + [520], 17), (64, [1, 63, 65], 5)]
    for bk, groups, k_tiles in cases:
        failing, first = 0, None
        for g in groups:
            reload = MI.reload_factor(g, bk)
            for kt in range(k_tiles):
                for k in range(bk):
                    if (kt * bk + k) // g != kt // reload:
                        failing += 1
                        first = first or (g, kt, k)
        setup = SimpleNamespace(tile_k=bk, groups=groups, k_tiles=k_tiles)
        assert group_failures(setup) == (failing, first), (bk, groups, k_tiles)   # type: ignore[arg-type]
    assert group_failures(SimpleNamespace(tile_k=64, groups=[96], k_tiles=4))[0] > 0      # type: ignore[arg-type]


def test_the_registers_read_are_each_value_and_k_blocks_register():
    """table_registers (every (value, k-block) at once) against table_register one by one, for every check of the
    catalog, its lookup-table ones included."""
    from verifier.kinds.mixed_scale.theorems import table_register, table_registers
    spec = load_spec(Path(__file__).parent.parent / "specs" / "catalog" / "sm90_mixed_scales.yaml")
    seen_lookup = False
    for check in spec.checks.values():
        if not isinstance(check, MixedScaleCheck):
            continue
        setup = build_setup(spec, check)
        if setup.registers is None or setup.a_fragment is None:
            continue
        values, m_blocks, k_blocks = setup.a_fragment
        x_size = values * m_blocks
        if setup.lookup is not None and x_size > int(setup.registers.read_view.size()):
            continue
        seen_lookup |= setup.lookup is not None
        found = table_registers(setup, x_size, k_blocks)
        assert found == [(x, kb, table_register(setup, x, kb)) for kb in range(k_blocks) for x in range(x_size)]
    assert seen_lookup


def test_the_mixed_input_mainloops_own_asserts_refuse_a_scale_check(tmp_path):
    """One stage of scales, or a 32-deep tile (2 k-blocks of the k16 atom: "Consider increasing TileShapeK"), is
    refused at both theorems by the mixed-input mainloop's static_asserts (both confirmed with nvcc; they were
    verified); the generator's kernel is verified."""
    from verifier.cute import gmma as G
    from verifier.cute import mixed_input as MI
    one_stage = '"((_8,_16),(_1,_1),(_1,_1)):((_1,_8),(_0,_0),(_0,_128))"'
    for changes, rule in (({}, None), ({"smem": one_stage}, G.STAGES_RULE),
                          ({"tile": "[128, 128, 32]"}, MI.K_BLOCKS_RULE)):
        r = _prove(tmp_path, S8_F16, **changes)
        if rule is None:
            assert r.verdict is Verdict.VERIFIED, _failed(r)
            continue
        for tid in (TheoremId.MIXED_SCALE_LOAD, TheoremId.MIXED_SCALE_READ):
            theorem = next(t for t in r.theorems if t.id is tid)
            assert theorem.status is Status.REFUSED and theorem.reason == f"CuTe refuses it: {rule}", theorem


def test_a_sub_byte_scale_stage_is_sized_in_bits(tmp_path):
    """compute_tma_transaction_bytes_extra sizes a scale stage as bits_to_bytes(BLK_M * bits): 128 4-bit scales are
    64 bytes, refused by "Each scale stage must be 128B aligned." (the stage was sized a byte a scale, 128 bytes, and
    the check refuted for its TMA type); 128 8-bit ones are 128 bytes and pass the rule."""
    from verifier.kinds.mixed_scale.setup import STAGE_SIZE_RULE
    r = _prove(tmp_path, S8_F16, value_type="int4b_t")
    for tid in (TheoremId.MIXED_SCALE_LOAD, TheoremId.MIXED_SCALE_READ):
        theorem = next(t for t in r.theorems if t.id is tid)
        assert theorem.status is Status.REFUSED and theorem.reason == f"CuTe refuses it: {STAGE_SIZE_RULE}", theorem
        assert "64 bytes" in theorem.items[0].note, theorem.items[0].note
    r = _prove(tmp_path, S8_F16, value_type="int8_t")
    assert all(t.reason != f"CuTe refuses it: {STAGE_SIZE_RULE}" for t in r.theorems)


def test_a_zero_point_tensor_takes_cute_s_tensor_map_format(tmp_path):
    """make_tma_copy encodes the zero points with to_CUtensorMapDataType of their element type: int8_t zeros are
    UINT8 (they were refuted for a format the tool did not know, and are verified); a type with no format is its
    static_assert "Unknown TMA Format!" (refused), as a 32-bit scale is not (uint_bit_t<32>: UINT32)."""
    from verifier.cute.tma_basis import UNKNOWN_TMA_FORMAT
    assert _prove(tmp_path, S2_BF16, "zero", value_type="int8_t").verdict is Verdict.VERIFIED
    r = _prove(tmp_path, S2_BF16, "zero", value_type="int16_t")
    load = next(t for t in r.theorems if t.id is TheoremId.MIXED_SCALE_LOAD)
    assert load.status is Status.REFUSED and load.reason == f"CuTe refuses it: {UNKNOWN_TMA_FORMAT}", load
    assert _prove(tmp_path, S2_BF16, value_type="int32_t").verdict is Verdict.VERIFIED


def test_a_tile_n_no_gmma_layout_atom_divides_is_refused(tmp_path):
    """The mixed-input mainloop asserts the tile's N a multiple of B's layout atom's size<0> ("SmemLayoutAtom must
    evenly divide tile shape."); every GMMA atom's is a multiple of 8, so N = 100 is refused (the tile's N was not
    read: verified), N = 96 is not refused by it."""
    from verifier.cute.mixed_input import ATOM_DIVIDES_RULE
    r = _prove(tmp_path, S8_F16, tile="[128, 100, 64]")
    for tid in (TheoremId.MIXED_SCALE_LOAD, TheoremId.MIXED_SCALE_READ):
        theorem = next(t for t in r.theorems if t.id is tid)
        assert theorem.status is Status.REFUSED and theorem.reason == f"CuTe refuses it: {ATOM_DIVIDES_RULE}"
    assert _prove(tmp_path, S8_F16, tile="[128, 96, 64]").verdict is Verdict.VERIFIED
