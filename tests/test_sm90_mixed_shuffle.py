"""The value-shuffled narrow A of SM90 mixed-input GEMMs (theorem 35, kinds/shuffle): CuTe's reordering atom, shared
and global layouts, TMA box and per-thread partitions against CUTLASS 4.2's own results (tests/data/cute_shuffle.json,
tools/cute_dump/shuffle.cu); a check of each converter proved; the 8-bit specialization that writes past its chunk,
and a tile TMA fills in another order, refuted; the prescreen's `_shfl` ConvertOnly kernels mapped."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from verifier.algebra.syntax import parse_layout
from verifier.cute import shuffle as SH
from verifier.engine.runner import run_check
from verifier.outcome import Status, Verdict
from verifier.prescreen.builders import Mapped, gmma_atom, map_sm90
from verifier.prescreen.sm90_shuffle import ShufflePathCheck
from verifier.prescreen.space import KernelConfig
from verifier.specfile import load_spec
from verifier.theorems.catalog import TheoremId

ROOT = Path(__file__).parent.parent
DATA = json.loads((ROOT / "tests" / "data" / "cute_shuffle.json").read_text(encoding="utf-8"))
GENERIC_ATOMS = ROOT / "specs" / "atoms" / "generic.yaml"
T = TheoremId
BITS = {"s4": 4, "u4": 4, "s8": 8, "u8": 8, "e4m3": 8, "e5m2": 8}
TYPES = {"s4": "int4b_t", "u4": "uint4b_t", "s8": "int8_t", "u8": "uint8_t", "e4m3": "float_e4m3_t",
         "e5m2": "float_e5m2_t"}
F16 = gmma_atom(128, "f32", "f16", "f16", ("K", "K"), rs=True)
BF16 = gmma_atom(128, "f32", "bf16", "bf16", ("K", "K"), rs=True)
F16_SS = gmma_atom(128, "f32", "f16", "f16", ("K", "K"))        # A through a shared-memory descriptor


def _values(text: str) -> list[int]:
    layout = parse_layout(text)
    return [int(v) for v in layout.values()]


@pytest.mark.parametrize("config", DATA["configs"], ids=lambda c: c["config"])
def test_the_layouts_are_cutlass_s(config):
    """compute_memory_reordering_atom, SmemLayoutA (get_smem_layout), the reordered global A and the TMA box."""
    bits = BITS[config["kernel"]["element_a"]]
    m, _, k = config["tile"]
    atom = SH.reordering_atom(SH.VALUE_SHUFFLES[bits])
    assert str(atom) == config["atom_quant"]
    smem = SH.shuffled_smem(atom, m, k, config["stages"])
    assert smem.values() == _values(config["smem_a"])
    gmem = SH.reordered_gmem(atom, 2 * m, 2 * k)
    cute = parse_layout(config["gmem_a"])
    assert gmem.values() == cute.values()                  # colexicographic over (M, K[, L of one batch])
    from verifier.algebra.inttuple import Underscore
    tma = SH.shuffle_tma(gmem, m, k, smem.slice((Underscore, Underscore, 0)), bits, max(8, bits))
    assert isinstance(tma, SH.ShuffleTma) and tma.word_bits == config["tma_element_bits"]
    # CuTe's global tensor has the batch mode L (one batch): its extent-1 dimension comes last
    rank = len(tma.box)
    assert config["a_tma_box"][rank:] == [1] * (len(config["a_tma_box"]) - rank)
    assert list(tma.box) == config["a_tma_box"][:rank] and list(tma.global_dim) == config["a_tma_global_dim"][:rank]
    assert list(tma.global_strides) == config["a_tma_global_strides"][:rank]


def _setup(config: dict, tmp_path: Path):
    kernel = config["kernel"]
    atom = F16 if kernel["element_b"] == "f16" else BF16
    m, _, k = config["tile"]
    two = config["threads"] == 256
    body = _check(atom, kernel["element_a"], m, k, config["stages"], two)
    spec = load_spec(_spec(tmp_path, {"c": body}), allow_outside=True)
    from verifier.kinds.shuffle.setup import build
    check = spec.checks["c"]
    return build(check, spec.mma_atoms[check.mma], spec.copy_atoms.get(check.copy))  # type: ignore[attr-defined]


@pytest.mark.parametrize("config", [DATA["configs"][i] for i in (2, 6)], ids=lambda c: c["config"])
def test_the_partitions_are_cutlass_s(config, tmp_path):
    """Per listed thread: partition_A of the shared tile, make_tensor_like's buffer, partition_fragment_A, retile_D,
    every element the copy moves (stage 1), dequantize_A_kblock's chunks and partition_A of the coordinates."""
    s = _setup(config, tmp_path)
    assert s.reads is not None and s.load is not None and s.fragment is not None and s.view is not None
    reads, load, frag, view = s.reads.values(), s.load.values(), s.fragment.values(), s.view.values()
    per_kb = int(s.load.mode(0).size()) * int(s.load.mode(1).size())
    chunks = {(c.k_block, c.index): c for c in s.chunks}
    for thread in config["threads_dumped"]:
        t = thread["thread"]
        assert reads == _values(thread["tCsA"]) and load == _values(thread["load"])
        assert frag == _values(thread["mma"]) and view == _values(thread["view"])
        base = s.read_offset[t]
        for kb, pairs in thread["copies"].items():
            kb = int(kb)
            mine = [[view[i + per_kb * kb], base + reads[i + per_kb * kb + per_kb * len(thread["copies"])]]
                    for i in range(per_kb)]
            assert mine == pairs
        for c in thread["chunks"]:
            ours = chunks[(c["k_block"], c["chunk"])]
            assert (ours.src, ours.dst) == (c["src"], c["dst"])
            assert ours.src_layout.values() == _values(c["src_layout"])
            assert ours.dst_layout.values() == _values(c["dst_layout"])
        coords = s.coords.values()
        for kb, entries in thread["coords"].items():
            kb = int(kb)
            for n, (reg, m, k) in enumerate(entries):
                assert frag[n + per_kb * int(kb)] == reg
                c = s.coord_offset[t] + coords[n + per_kb * kb]
                assert (c % s.blk_m, c // s.blk_m) == (m, k)


def _check(atom, narrow: str, m: int, k: int, stages: int, two: bool, **more: object) -> dict[str, object]:
    a = SH.reordering_atom(SH.VALUE_SHUFFLES[BITS[narrow]])
    return {"shuffled": "A", "mma": atom.name, "atom_layout": [2 if two else 1, 1, 1], "copy": "AutoVectorizingCopy",
            "value_type": TYPES[narrow], "smem": SH.shuffled_smem(a, m, k, stages).plain(),
            "gmem": SH.reordered_gmem(a, 2 * m, 2 * k).plain(), **more}


def _spec(tmp_path: Path, checks: dict[str, dict[str, object]]) -> Path:
    lines = ["version: 2", "name: shuffle", f"include: [{json.dumps(str(GENERIC_ATOMS))}]", "mma_atoms:"]
    for atom in (F16, BF16, F16_SS):
        lines.append(f"  {json.dumps(atom.name)}:")
        lines += [f"    {k}: {v}" for k, v in atom.fields]
    lines.append("checks:")
    for name, body in checks.items():
        lines.append(f"  {name}:")
        lines += [f"    {key}: {json.dumps(v)}" for key, v in body.items()]
    path = tmp_path / "shuffle.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _prove(tmp_path: Path, checks: dict[str, dict[str, object]]):
    spec = load_spec(_spec(tmp_path, checks), allow_outside=True)
    return {name: run_check(spec, c) for name, c in spec.checks.items()}


def _theorem(r, tid):
    return next(t for t in r.theorems if t.id is tid)


def test_each_converter_is_proved(tmp_path):
    """The 4-bit [02461357] specializations (s4 -> f16, u4 -> bf16) and the generic converter (e4m3)."""
    results = _prove(tmp_path, {
        "s4_f16": _check(F16, "s4", 64, 64, 2, False), "u4_bf16": _check(BF16, "u4", 64, 64, 2, False),
        "e4m3_bf16": _check(BF16, "e4m3", 64, 64, 2, False)})
    for name, r in results.items():
        assert r.verdict is Verdict.VERIFIED, (name, [(t.id, t.status) for t in r.theorems])
        assert {t.id for t in r.theorems} == {T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION, T.MMA_TYPES,
                                              T.MIXED_SHUFFLED_A}
    titles = [i.title for i in _theorem(results["s4_f16"], T.MIXED_SHUFFLED_A).items]
    assert any("every register of the RS fragment holds" in t for t in titles)


def test_the_8bit_specialization_writes_another_k_blocks_registers(tmp_path):
    """LayoutAwareConvertImpl<int8_t, half_t, (2,2):(2,1), 4:1> writes four 32-bit registers (8 halves) for a chunk
    of 4: the last chunk of a k-block writes the next k-block's registers (or past the fragment)."""
    r = _prove(tmp_path, {"s8": _check(F16, "s8", 64, 64, 2, False)})["s8"]
    assert r.verdict is Verdict.REFUTED
    theorem = _theorem(r, T.MIXED_SHUFFLED_A)
    failure = theorem.first_failure()
    assert theorem.status is Status.REFUTED and failure is not None and failure.witness is not None
    assert "outside that k-block's A fragment" in failure.title
    assert "k-block 1's" in failure.witness.actual and failure.witness.point == {"k_block": 0, "chunk": 1,
                                                                                  "position": 4}


def test_a_tile_in_another_value_order_is_refuted_with_the_element(tmp_path):
    """The 4-bit global A loaded into the tile built for the 8-bit ValueShuffle: the box CuTe would derive for that
    pair is one the driver refuses (its global strides)."""
    bad = _check(F16, "s4", 64, 64, 2, False)
    bad["smem"] = SH.shuffled_smem(SH.reordering_atom(SH.VALUE_SHUFFLES[8]), 64, 64, 2).plain()
    r = _prove(tmp_path, {"bad": bad})["bad"]
    assert r.verdict is Verdict.REFUTED
    failure = _theorem(r, T.MIXED_SHUFFLED_A).first_failure()
    assert failure is not None and failure.witness is not None
    assert "cuTensorMapEncodeTiled" in failure.title, failure.title


def _kernel(a: str, b: str, tile: tuple[int, int, int], schedule: str) -> KernelConfig:
    return KernelConfig(f"{a}_{b}_shfl", 90, "Universal3x", "TensorOp", tile, (4, 1, 1), (0, 0, 0), a, b, "f32",
                        "RowMajor", "ColumnMajor", 128 // BITS[a], 8, schedule, 0, (1, 2, 1), "", "ConvertOnly", True)


def test_the_prescreen_maps_a_shuffled_kernel_to_a_shuffle_check_and_b():
    m = map_sm90(_kernel("s4", "f16", (128, 128, 64), "TmaWarpSpecializedCooperative"))
    assert isinstance(m, Mapped)
    a, b = m.checks
    assert isinstance(a, ShufflePathCheck) and b.operand == "B"
    entries = dict(a.entries)
    config = DATA["configs"][0]                                    # s4 f16 128x128x64 cooperative, 11 stages
    assert entries["atom_layout"] == "[2, 1, 1]" and entries["value_type"] == "int4b_t"
    assert _values(json.loads(entries["smem"])) == _values(config["smem_a"])


def test_stages_at_one_place_are_refuted_with_both_elements(tmp_path):
    """A SmemLayoutA whose stage stride is 0: theorem 35's distinctness names the first repeat, (m, k) of stage 0
    and the same (m, k) of stage 1 at one element (the buffer walked in order once a repeat is found)."""
    good = _check(F16, "s4", 64, 64, 2, False)
    layout = parse_layout(str(good["smem"]))
    bad = dict(good, smem=_with_stage_stride(layout, 0))
    r = _prove(tmp_path, {"bad": bad})["bad"]
    assert r.verdict is Verdict.REFUTED
    failure = _theorem(r, T.MIXED_SHUFFLED_A).first_failure()
    assert failure is not None and failure.witness is not None and "distinct (m, k, stage)" in failure.title
    assert failure.witness.point == {"element": 0, "element2": 64 * 64}
    assert "(m 0, k 0, stage 0) and (m 0, k 0, stage 1)" in failure.witness.actual


def _with_stage_stride(layout, stride: int) -> str:
    from verifier.algebra.layout import Layout
    shape, strides = layout.shape, layout.stride
    return Layout(shape, strides[:2] + (stride,)).plain()


def test_the_registers_are_decided_on_arrays_and_named_point_by_point(tmp_path):
    """`_registers` decides the fragment's registers on whole arrays and names each failing point: a thread's shared
    partition moved by one element is refuted at that thread, at every one of its points and no other's."""
    from verifier.kinds.shuffle import theorems as ST
    from verifier.kinds.shuffle.setup import build
    from verifier.theorems.suspects import Suspects
    spec = load_spec(_spec(tmp_path, {"ok": _check(F16, "s4", 64, 64, 2, False)}), allow_outside=True)
    check = spec.checks["ok"]
    setup = build(check, spec.mma_atoms[check.mma], spec.copy_atoms[check.copy])
    suspects = Suspects(spec, check)
    proved = ST._registers(setup, suspects)[-1]
    assert proved.holds and proved.domain_size == setup.threads * int(setup.fragment.size()) * setup.stages
    setup.read_offset[37] += 1
    refuted = ST._registers(setup, suspects)[-1]
    assert not refuted.holds and refuted.domain_size == proved.domain_size
    assert refuted.point["thread"] == 37
    assert refuted.failing == refuted.domain_size // setup.threads     # every point of that thread, no other


def test_distinct_counts_or_sorts():
    import numpy as np
    from verifier.kinds.shuffle.theorems import _distinct
    dense = np.arange(1000, dtype=np.int64)[::-1].copy()
    assert _distinct(dense) and not _distinct(np.append(dense, 17))
    wide = np.arange(50, dtype=np.int64) * (1 << 40)                    # a range far past 8x the count: sorted
    assert _distinct(wide) and not _distinct(np.append(wide, 3 << 40))
    assert _distinct(np.zeros(1, dtype=np.int64)) and _distinct(np.zeros(0, dtype=np.int64))


@pytest.mark.parametrize("text", ["(4,(3,2)):(1,(-7,40))", "((2,3),1,5):((0,9),4,-2)", "7:3", "1:0"])
def test_values_array_is_values(text):
    layout = parse_layout(text)
    assert layout.values_array().tolist() == layout.values()


def test_the_mixed_input_mainloops_own_asserts_refuse_a_check(tmp_path):
    """The mixed-input mainloop's static_asserts on its pipeline (sm90_mma_tma_gmma_rs_warpspecialized_mixed_input.hpp,
    each confirmed by building the collective with nvcc): one stage, an SS atom (A through a descriptor) and fewer
    than 4 k-blocks a k-tile (64 x 32 on a k16 atom) are refused by CuTe's rule, naming the field (they were verified
    or refuted); the same check with 2 stages, the RS atom and 4 k-blocks is verified."""
    from verifier.cute import gmma as G
    from verifier.cute import mixed_input as MI
    results = _prove(tmp_path, {
        "one_stage": _check(F16, "s4", 64, 64, 1, False), "ss_atom": _check(F16_SS, "s4", 64, 64, 2, False),
        "two_k_blocks": _check(F16, "s4", 64, 32, 2, False), "control": _check(F16, "s4", 64, 64, 2, False)})
    assert results["control"].verdict is Verdict.VERIFIED
    for name, rule, field in (("one_stage", G.STAGES_RULE, "Stages"), ("ss_atom", G.RS_ATOM_RULE, "MMA atom"),
                              ("two_k_blocks", MI.K_BLOCKS_RULE, "k-blocks")):
        theorem = _theorem(results[name], T.MIXED_SHUFFLED_A)
        assert theorem.status is Status.REFUSED and theorem.reason == f"CuTe refuses it: {rule}", (name, theorem)
        assert field in theorem.items[0].witness.suspect.what, (name, theorem.items[0].witness.suspect)


def test_a_plain_global_a_under_the_shuffled_stage_is_make_tma_copy_s_refusal(tmp_path):
    """The shuffled SmemLayoutA's first run steps M by 8 of a plain (M, K) global tensor (CUTLASS gives the global A
    the reordered layout, whose leaves the run steps by one): construct_tma_gbasis's static_assert "Could not find
    a common tile-gmem vectorization ..." refuses theorem 35 (it was refuted); the reordered global A is verified."""
    from verifier.cute.tma_basis import NO_VECTORIZATION_RULE
    good = _check(F16, "s4", 64, 64, 2, False)
    results = _prove(tmp_path, {"plain": dict(good, gmem="(128,128):(128,1)"), "reordered": good})
    theorem = _theorem(results["plain"], T.MIXED_SHUFFLED_A)
    assert theorem.status is Status.REFUSED and theorem.reason == f"CuTe refuses it: {NO_VECTORIZATION_RULE}"
    assert results["reordered"].verdict is Verdict.VERIFIED


def test_dequantize_a_kblock_s_static_asserts_refuse_theorem_35(tmp_path):
    """dequantize_A_kblock asserts its register buffer's value mode contiguous ("The first mode of tensor src must be
    contiguous in memory": a plain K-major SmemLayoutA, whose partition the buffer follows, gives a mode of 8 values
    spread over 20 registers), and the generic LayoutAwareConvertImpl equal cosizes (e4m3 reordered with the 4-bit
    shuffle: chunks (2,2):(4,1) into 4:1); both verified before, both refused."""
    from verifier.cute.convert import CONTIGUOUS_SRC_RULE, GENERIC_COSIZE_RULE
    e4m3 = _check(BF16, "e4m3", 64, 64, 2, False)
    four_bit = SH.reordering_atom(SH.VALUE_SHUFFLES[4])
    shuffled_as_4bit = dict(e4m3, smem=SH.shuffled_smem(four_bit, 64, 64, 2).plain(),
                            gmem=SH.reordered_gmem(four_bit, 128, 128).plain())
    k_major = dict(e4m3, smem="(64,64,2):(64,1,4096)", gmem="(128,128):(128,1)")
    results = _prove(tmp_path, {"good": e4m3, "four_bit": shuffled_as_4bit, "k_major": k_major})
    assert results["good"].verdict is Verdict.VERIFIED
    for name, rule in (("four_bit", GENERIC_COSIZE_RULE), ("k_major", CONTIGUOUS_SRC_RULE)):
        theorem = _theorem(results[name], T.MIXED_SHUFFLED_A)
        assert theorem.status is Status.REFUSED and theorem.reason == f"CuTe refuses it: {rule}", (name, theorem)
