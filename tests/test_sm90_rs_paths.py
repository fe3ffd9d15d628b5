"""SM90's register-sourced A (an RS wgmma), as CUTLASS's RS collective builders build it: an MN-major tf32 A loaded
element by element from its shared tile into the RS fragment, and the narrow A of a mixed-input GEMM loaded as its
own type from the MMA's partition of the tile (`smem_partition: mma`) and converted in registers (`smem_type`);
the TMA that fills a register-sourced A's tile (theorems 9, 12-14, no descriptor); the prescreen's rules for the
generator's NN / TT tf32 and ConvertOnly mixed-input kernels, the kernels left not mapped with their reasons, and
deliberately wrong rules refuted."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from verifier.engine.runner import run_check
from verifier.outcome import Status, Verdict
from verifier.cute import mma_families
from verifier.prescreen import builders
from verifier.prescreen import run as command
from verifier.prescreen.builders import Mapped, MMAAtomFacts, OperandCheck, Unmapped, gmma_atom, map_sm90
from verifier.prescreen.space import KernelConfig
from verifier.specfile import SpecError, load_spec
from verifier.theorems.catalog import TheoremId
from verifier.theorems.result import CheckResult

ROOT = Path(__file__).parent.parent
GENERIC_ATOMS = ROOT / "specs" / "atoms" / "generic.yaml"      # AutoVectorizingCopy, UniversalCopy<uintN_t>
T = TheoremId
F16 = gmma_atom(128, "f32", "f16", "f16", ("K", "K"), rs=True)
BF16 = gmma_atom(128, "f32", "bf16", "bf16", ("K", "K"), rs=True)
TF32 = gmma_atom(128, "f32", "tf32", "tf32", ("K", "K"), rs=True)
TF32_SS = gmma_atom(128, "f32", "tf32", "tf32", ("K", "K"))
S8 = gmma_atom(128, "s32", "s8", "s8", ("K", "K"), rs=True)
# the f16 RS atom with the fragment's k+1 and m+8 value modes exchanged: not the PTX ISA's register order
F16_WRONG_ORDER = MMAAtomFacts("SM90_64x128x16_F32F16F16_RS_WRONG_ORDER", tuple(
    (k, '"((4,8,4),(2,2,2)):((128,1,16),(8,64,512))"' if k == "a" else v) for k, v in F16.fields))
# N = 88: 11 column blocks, fragments that are no power-of-two layout (the generator's tiles at a high --level)
F16_N88 = gmma_atom(88, "f32", "f16", "f16", ("K", "K"), rs=True)
ATOMS = (F16, BF16, TF32, TF32_SS, S8, F16_WRONG_ORDER, F16_N88)
TILED_THEOREMS = {T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION, T.MMA_TYPES, T.COPY_ROUTING, T.COPY_DST_MATCHES_MMA,
                  T.COPY_SRC_MATCHES_DST, T.COPY_ADDRESSING, T.FRAGMENT_ALIASING, T.END_TO_END, T.SMEM_INJECTIVE,
                  T.SMEM_IN_BOUNDS, T.COPY_VALUE_TYPE}


def _spec_path(tmp_path: Path, checks: dict[str, dict[str, object]]) -> Path:
    lines = ["version: 2", "name: rs", f"include: [{json.dumps(str(GENERIC_ATOMS))}]", "mma_atoms:"]
    for atom in ATOMS:
        lines.append(f"  {json.dumps(atom.name)}:")
        lines += [f"    {k}: {v}" for k, v in atom.fields]
    lines.append("checks:")
    for name, body in checks.items():
        lines.append(f"  {name}:")
        lines += [f"    {k}: {json.dumps(v)}" for k, v in body.items() if v is not None]
    path = tmp_path / "rs.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _prove(tmp_path: Path, checks: dict[str, dict[str, object]]) -> dict[str, CheckResult]:
    spec = load_spec(_spec_path(tmp_path, checks), allow_outside=True)
    return {name: run_check(spec, c) for name, c in spec.checks.items()}


def _failed(r: CheckResult) -> set[TheoremId]:
    return {t.id for t in r.theorems if t.status in (Status.REFUTED, Status.REFUSED)}


def _narrow(atom: MMAAtomFacts, narrow: str, smem: str, **more: object) -> dict[str, object]:
    """The mixed-input mainloop's copy of a narrow A: AutoVectorizingCopy of the narrow type from thr_mma.partition_A,
    converted in registers to the MMA's type."""
    return {"mma": atom.name, "operand": "A", "copy": "AutoVectorizingCopy", "value_type": narrow,
            "smem_type": narrow, "smem_partition": "mma", "smem": smem, **more}


def _tma_a(atom: MMAAtomFacts, value_type: str, smem: str, gmem: str, **more: object) -> dict[str, object]:
    return {"mma": atom.name, "operand": "A", "copy": "SM90_TMA_LOAD", "value_type": value_type, "smem": smem,
            "gmem": gmem, **more}


K_MAJOR, MN_MAJOR = "(4096,4096):(4096,1)", "(4096,4096):(1,4096)"
MN_TF32_TILE = "tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>, (128,32,4), (2,1,3))"
S8_TILE = "tile_to_shape(GMMA::Layout_K_SW64_Atom<int8_t>, (128,64,4))"


# --- the tiled kind: an operand converted in registers ------------------------------------------------------

@pytest.mark.parametrize("atom, narrow, smem, warpgroups", [
    (F16, "int8_t", S8_TILE, [2, 1, 1]),
    (BF16, "float_e4m3_t", "tile_to_shape(GMMA::Layout_K_SW64_Atom<float_e4m3_t>, (64,64,4))", [1, 1, 1]),
    (BF16, "int4b_t", "tile_to_shape(GMMA::Layout_K_SW32_Atom<int4b_t>, (256,64,4))", [2, 1, 1]),
    (F16, "uint2b_t", "tile_to_shape(GMMA::Layout_K_INTER_Atom<uint2b_t>, (128,64,4))", [1, 1, 1]),
])
def test_a_narrow_operand_converted_in_registers_is_proved(tmp_path, atom, narrow, smem, warpgroups):
    r = _prove(tmp_path, {"c": _narrow(atom, narrow, smem, atom_layout=warpgroups)})["c"]
    assert r.verdict is Verdict.VERIFIED and {t.id for t in r.theorems} == TILED_THEOREMS
    value_type = next(t for t in r.theorems if t.id is T.COPY_VALUE_TYPE)
    facts = [item.title for item in value_type.items]
    assert any(f"the registers convert each {narrow} value of A" in title for title in facts), facts


def test_a_conversion_the_mma_type_cannot_take_is_refuted_and_one_without_a_model_unsupported(tmp_path):
    results = _prove(tmp_path, {
        "narrowing": _narrow(F16, "float", "tile_to_shape(GMMA::Layout_K_SW128_Atom<float>, (64,64,4))"),
        "no_model": _narrow(TF32, "int8_t", "tile_to_shape(GMMA::Layout_K_SW32_Atom<int8_t>, (64,32,4))"),
        "undeclared": {**_narrow(F16, "int8_t", S8_TILE), "smem_type": None}})
    narrowing = results["narrowing"]
    assert narrowing.verdict is Verdict.REFUTED and _failed(narrowing) == {T.COPY_VALUE_TYPE}
    item = next(t for t in narrowing.theorems if t.id is T.COPY_VALUE_TYPE).first_failure()
    assert "cannot hold the tile's values" in item.witness.actual and "smem_type" in item.witness.suspect.what
    no_model = next(t for t in results["no_model"].theorems if t.id is T.COPY_VALUE_TYPE)
    assert no_model.status is Status.UNSUPPORTED and "no model of converting int8_t to tfloat32_t" in no_model.reason
    undeclared = results["undeclared"]
    assert _failed(undeclared) == {T.COPY_VALUE_TYPE}
    item = next(t for t in undeclared.theorems if t.id is T.COPY_VALUE_TYPE).first_failure()
    assert "8 bits of every element are never copied" in item.witness.actual
    assert "declares it with `smem_type: int8_t`" in item.witness.suspect.what


def test_a_narrow_copy_into_the_wrong_registers_is_refuted(tmp_path):
    """The copy built for B's partition, four bytes of K in one 32-bit copy (the f16 fragment holds k, k+1, then
    m+8), an atom whose fragment exchanges k+1 and m+8: each delivers some byte to a register the RS wgmma reads as
    another element."""
    results = _prove(tmp_path, {
        "copy_for_b": _narrow(F16, "int8_t", S8_TILE, copy_for="B"),
        "four_bytes": {**_narrow(F16, "int8_t", S8_TILE), "copy": "UniversalCopy<uint32_t>", "smem_partition": None},
        "wrong_order": _narrow(F16_WRONG_ORDER, "int8_t", S8_TILE),
        "other_mma": _narrow(F16, "int8_t", S8_TILE, atom_layout=[2, 1, 1], copy_mma={"atom_layout": [1, 2, 1]})})
    assert all(r.verdict is Verdict.REFUTED for r in results.values()), {n: r.verdict for n, r in results.items()}
    assert {T.COPY_DST_MATCHES_MMA, T.FRAGMENT_ALIASING} <= _failed(results["copy_for_b"])
    assert T.END_TO_END in _failed(results["four_bytes"])
    assert {T.MMA_MATCHES_INSTRUCTION, T.END_TO_END} <= _failed(results["wrong_order"])
    src = next(t for t in results["other_mma"].theorems if t.id is T.COPY_SRC_MATCHES_DST)
    assert src.status is Status.REFUTED and "smem_partition" in src.first_failure().witness.suspect.what


def test_an_atom_of_eleven_column_blocks_is_proved_end_to_end_and_a_wrong_copy_refuted(tmp_path):
    """m64n88: theorem 2 proves the atom's layouts are the PTX fragments, so the end-to-end theorem runs on them
    (no power-of-two fit needed); the 32-bit copy of four K bytes is refuted there as for N = 128."""
    results = _prove(tmp_path, {
        "narrow": _narrow(F16_N88, "int8_t", S8_TILE, atom_layout=[2, 1, 1]),
        "four_bytes": {**_narrow(F16_N88, "int8_t", S8_TILE), "copy": "UniversalCopy<uint32_t>",
                       "smem_partition": None}})
    narrow = results["narrow"]
    assert narrow.verdict is Verdict.VERIFIED and {t.id for t in narrow.theorems} == TILED_THEOREMS
    assert next(t for t in narrow.theorems if t.id is T.END_TO_END).status is Status.PROVED
    assert results["four_bytes"].verdict is Verdict.REFUTED and T.END_TO_END in _failed(results["four_bytes"])


def test_the_mma_partition_read_in_order_is_the_copy_partition_for_make_tiled_copy_a(tmp_path):
    """CUTLASS's mixed-input and cp.async RS mainloops copy from thr_mma.partition_A(sA), the TMA RS mainloop from
    the copy's partition_S: for make_tiled_copy_A of AutoVectorizingCopy both deliver every element where the RS
    fragment expects it (the kernels rely on it; the sheet's open question 5)."""
    body = {"mma": TF32.name, "atom_layout": [2, 1, 1], "operand": "A", "copy": "AutoVectorizingCopy",
            "value_type": "tfloat32_t", "smem": MN_TF32_TILE}
    results = _prove(tmp_path, {"partition_s": body, "partition_a": {**body, "smem_partition": "mma"}})
    assert [r.verdict for r in results.values()] == [Verdict.VERIFIED, Verdict.VERIFIED]


@pytest.mark.parametrize("more, message", [
    ({"operand": "C", "copy": "AutoVectorizingCopy"}, "not a C tile"),
    ({"smem_partition": "thread"}, "must be one of copy | mma"),
])
def test_bad_smem_partitions_are_refused(tmp_path, more, message):
    with pytest.raises(SpecError) as info:
        load_spec(_spec_path(tmp_path, {"c": _narrow(F16, "int8_t", S8_TILE, **more)}), allow_outside=True)
    assert message in str(info.value)


# --- the smem_mma kind: TMA into the tile of a register-sourced A ------------------------------------------

def test_tma_into_a_register_sourced_tile_runs_the_tma_theorems_only(tmp_path):
    results = _prove(tmp_path, {
        "tf32": _tma_a(TF32, "tfloat32_t", MN_TF32_TILE, MN_MAJOR),
        "s8": _tma_a(F16, "int8_t", S8_TILE, K_MAJOR, smem_type="int8_t"),
        "s4": _tma_a(BF16, "int4b_t", "tile_to_shape(GMMA::Layout_K_SW32_Atom<int4b_t>, (128,64,4))", K_MAJOR,
                     smem_type="int4b_t"),
        "u2": _tma_a(F16, "uint2b_t", "tile_to_shape(GMMA::Layout_K_INTER_Atom<uint2b_t>, (128,64,4))", K_MAJOR,
                     smem_type="uint2b_t")})
    for name, r in results.items():
        assert r.verdict is Verdict.VERIFIED, (name, r.verdict)
        assert {t.id for t in r.theorems} == {T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION, T.MMA_TYPES,
                                              T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.TMA_ENCODABLE, T.TMA_PLACEMENT}
    # SM90's mixed-input mainloop loads a sub-byte A as bytes (TmaElementA = uint8_t): no driver packed type
    encodable = next(t for t in results["s4"].theorems if t.id is T.TMA_ENCODABLE)
    assert not any("16U4" in item.title for item in encodable.items)


def test_wrong_tmas_into_a_register_sourced_tile_are_refuted(tmp_path):
    """A narrow tile the registers convert, undeclared; a conversion the MMA's type cannot take; a K-major atom for
    the MN-major global tensor; and the SS atom — wgmma reading the MN-major tf32 tile itself, which it cannot."""
    results = _prove(tmp_path, {
        "undeclared": _tma_a(F16, "int8_t", S8_TILE, K_MAJOR),
        "narrowing": _tma_a(F16, "float", "tile_to_shape(GMMA::Layout_K_SW128_Atom<float>, (128,64,4))", K_MAJOR,
                            smem_type="float"),
        "k_major_atom": _tma_a(TF32, "tfloat32_t", "tile_to_shape(GMMA::Layout_K_SW128_Atom<tfloat32_t>, (128,32,4))",
                               MN_MAJOR),
        "ss_atom": {**_tma_a(TF32_SS, "tfloat32_t", MN_TF32_TILE, MN_MAJOR)}})
    assert _failed(results["undeclared"]) == {T.COPY_VALUE_TYPE}
    item = next(t for t in results["undeclared"].theorems if t.id is T.COPY_VALUE_TYPE).first_failure()
    assert "says smem_type: int8_t" in item.witness.suspect.what
    assert _failed(results["narrowing"]) == {T.COPY_VALUE_TYPE}
    assert T.TMA_ENCODABLE in _failed(results["k_major_atom"])
    assert {T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END} <= _failed(results["ss_atom"])


def test_smem_type_of_a_descriptor_read_operand_is_the_type_the_tensor_core_reads(tmp_path):
    """On an operand read through the descriptor, smem_type is the type the tile holds: the tensor core reads it as
    the MMA's, so a tile of another type is refuted (theorem 12); no register conversion applies to it."""
    check = {"mma": F16.name, "operand": "B", "copy": "SM90_TMA_LOAD", "value_type": "half_t", "smem_type": "half_t",
             "smem": "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,4))", "gmem": K_MAJOR}
    spec = load_spec(_spec_path(tmp_path, {"own": check, "other": {**check, "smem_type": "bfloat16_t"}}),
                     allow_outside=True)
    results = {name: run_check(spec, c) for name, c in spec.checks.items()}
    assert results["own"].verdict is Verdict.VERIFIED
    assert _failed(results["other"]) == {T.COPY_VALUE_TYPE}
    with pytest.raises(SpecError) as info:
        load_spec(_spec_path(tmp_path, {"c": {**check, "smem_type": "int8_t", "conversion": "lookup_table"}}),
                  allow_outside=True)
    assert "only a wgmma RS atom's A is converted in registers" in str(info.value)


# --- the prescreen's rules ------------------------------------------------------------------------------------

def _kernel(name: str, a: str, b: str, layouts: tuple[str, str], tile: tuple[int, int, int], schedule: str,
            align: tuple[int, int], mode: str = "", shuffle: bool = False) -> KernelConfig:
    return KernelConfig(name, 90, "Universal3x", "TensorOp", tile, (4, 1, 1), (0, 0, 0), a, b, "f32", *layouts,
                        *align, schedule, 0, (1, 2, 1), "", mode, shuffle)


COOP, PINGPONG, WS = "TmaWarpSpecializedCooperative", "TmaWarpSpecializedPingpong", "TmaWarpSpecialized"
NN = _kernel("tf32_nn", "tf32", "tf32", ("ColumnMajor", "ColumnMajor"), (128, 128, 32), COOP, (4, 4))
TT = _kernel("tf32_tt", "tf32", "tf32", ("RowMajor", "RowMajor"), (64, 128, 32), "ScheduleAuto", (4, 4))
NN_CP_ASYNC = _kernel("tf32_nn_cp", "tf32", "tf32", ("ColumnMajor", "ColumnMajor"), (128, 128, 32),
                      "CpAsyncWarpSpecializedCooperative", (2, 2))
TT_CP_ASYNC = replace(NN_CP_ASYNC, name="tf32_tt_cp", layout_a="RowMajor", layout_b="RowMajor", align_a=1,
                      align_b=1, schedule="CpAsyncWarpSpecialized")
S8_F16 = _kernel("s8_f16", "s8", "f16", ("RowMajor", "ColumnMajor"), (128, 128, 64), COOP, (16, 8), "ConvertOnly")
S4_BF16 = _kernel("s4_bf16", "s4", "bf16", ("RowMajor", "ColumnMajor"), (256, 128, 64), WS, (32, 8), "ConvertOnly")
U2_F16 = _kernel("u2_f16", "u2", "f16", ("RowMajor", "ColumnMajor"), (64, 128, 64), PINGPONG, (64, 8), "ConvertOnly")
E5M2_F16 = _kernel("e5m2_f16", "e5m2", "f16", ("RowMajor", "ColumnMajor"), (128, 128, 64), COOP, (16, 8),
                   "ConvertOnly")


def test_an_mn_major_tf32_a_goes_through_registers_and_b_through_the_descriptor():
    m = map_sm90(NN)
    assert isinstance(m, Mapped) and "SwapAB" not in m.how
    tma_a, copy_a, tma_b = m.checks
    assert isinstance(tma_a, OperandCheck) and isinstance(copy_a, OperandCheck) and isinstance(tma_b, OperandCheck)
    assert tma_a.mma.name == "SM90_64x128x8_F32TF32TF32_RS_TN" and ("a", '"((4,8,4),(2,2)):((64,1,16),(8,256))"') \
        in tma_a.mma.fields
    # rs_smem_selector: MN-major whole words "Fall into SW32"; the TMA mainloop's Step<_2,_1,_3>; 7 stages of 32 KiB
    # rounded to the 1024-byte alignment of B's SW128 atom
    assert tma_a.smem == copy_a.smem == "tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>, (128,32,7), (2,1,3))"
    assert (tma_a.copy, tma_a.gmem, copy_a.copy, copy_a.gmem, copy_a.smem_partition) == (
        "SM90_TMA_LOAD", "(4096,4096):(1,4096)", "AutoVectorizingCopy", None, None)
    assert tma_b.operand == "B" and tma_b.smem == "tile_to_shape(GMMA::Layout_K_SW128_Atom<tfloat32_t>, (128,32,7))"
    assert tma_a.atom_layout == (2, 1, 1)


def test_a_k_major_a_with_an_mn_major_b_is_the_swapped_problem():
    m = map_sm90(TT)
    assert isinstance(m, Mapped) and "SwapAB" in m.how and m.how.startswith("TmaWarpSpecializedPingpong,")
    tma_a, copy_a, tma_b = m.checks
    assert isinstance(tma_a, OperandCheck) and isinstance(tma_b, OperandCheck)
    # the MMA's A is the user's B (MN-major), tiled to the CTA's BLK_M; its B the user's A (K-major) over BLK_N
    assert tma_a.smem == "tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>, (64,32,9), (2,1,3))"
    assert tma_a.gmem == "(4096,4096):(1,4096)" and tma_b.gmem == "(4096,4096):(4096,1)"
    assert tma_b.smem == "tile_to_shape(GMMA::Layout_K_SW128_Atom<tfloat32_t>, (128,32,9))"


def test_cp_async_rs_mainloops_copy_from_the_mma_partition_in_tile_order():
    m = map_sm90(NN_CP_ASYNC)
    assert isinstance(m, Mapped) and m.how.startswith("CpAsyncWarpSpecializedCooperative,")
    copy_a, cp_b = m.checks
    assert isinstance(copy_a, OperandCheck) and isinstance(cp_b, OperandCheck)
    assert copy_a.smem == "tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>, (128,32,7))"     # no Step
    assert copy_a.smem_partition == "mma" and copy_a.atom_layout == (2, 1, 1)
    assert cp_b.copy == "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>" and cp_b.gmem is None
    one = map_sm90(replace(NN_CP_ASYNC, tile=(64, 128, 32)))
    assert isinstance(one, Mapped) and one.checks[0].atom_layout == (1, 1, 1)        # M < 128: one warpgroup


def test_a_mixed_input_kernel_converts_its_narrow_a_in_registers():
    m = map_sm90(S8_F16)
    assert isinstance(m, Mapped)
    tma_a, copy_a, tma_b = m.checks
    assert isinstance(tma_a, OperandCheck) and isinstance(copy_a, OperandCheck) and isinstance(tma_b, OperandCheck)
    assert tma_a.mma.name == "SM90_64x128x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>"
    # 8 KiB of A and 16 KiB of B a stage, rounded to 1024 bytes: 9 stages
    assert tma_a.smem == copy_a.smem == "tile_to_shape(GMMA::Layout_K_SW64_Atom<int8_t>, (128,64,9))"
    assert (tma_a.value_type, tma_a.smem_type, copy_a.value_type, copy_a.smem_type, copy_a.smem_partition) == (
        "int8_t", "int8_t", "int8_t", "int8_t", "mma")
    assert tma_b.value_type == "half_t" and tma_b.smem == "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,9))"
    s4 = map_sm90(S4_BF16)
    assert isinstance(s4, Mapped) and s4.checks[0].mma.name.startswith("SM90_64x128x16_F32BF16BF16_RS<")
    assert s4.checks[0].smem.startswith("tile_to_shape(GMMA::Layout_K_SW32_Atom<int4b_t>, (256,64,")
    u2 = map_sm90(U2_F16)
    assert isinstance(u2, Mapped) and u2.checks[0].smem.startswith("tile_to_shape(GMMA::Layout_K_INTER_Atom<uint2b_t>")


@pytest.mark.parametrize("kernel, words", [
    # int4 to e4m3 is converted only by the scales' lookup tables (ScaleOnly: tests/test_sm90_mixed_scales_lut.py)
    (replace(S8_F16, element_a="s4", element_b="e4m3", align_a=32, align_b=16), "not one of CUTLASS's mixed-input "
                                                                               "conversions modelled"),
    (replace(S8_F16, schedule="CpAsyncWarpSpecialized"), "Only TMA warp specialized kernels"),
    (replace(S8_F16, tile=(128, 128, 32)), "Consider increasing TileShapeK"),
    (replace(NN, tile=(128, 128, 16)), "RS loops require more than 2 MMA k-iterations"),
    (replace(NN, kind="GroupedUniversal3x"), "Only mixed input grouped RS GEMM is supported."),
    (replace(S8_F16, mixed_mode=""), "mixed or narrow inputs"),
])
def test_rs_kernels_outside_the_model_are_not_mapped_with_a_reason(kernel, words):
    m = map_sm90(kernel)
    assert isinstance(m, Unmapped) and words in m.reason, m


REPRESENTATIVES = [NN, TT, NN_CP_ASYNC, TT_CP_ASYNC, S8_F16, S4_BF16, U2_F16, E5M2_F16]


def test_one_kernel_of_each_class_is_proved(monkeypatch, tmp_path):
    monkeypatch.setattr(command, "kernels", lambda arch, level: REPRESENTATIVES)
    results, mapped, _, _ = command.run(90, "", 1, tmp_path)
    assert mapped == len(REPRESENTATIVES)
    assert {r.name: r.verdict for r in results} == {k.name: Verdict.VERIFIED for k in REPRESENTATIVES}


@pytest.mark.parametrize("patch, kernels", [
    # a 64-bit copy of two tf32 values: the fragment's pair is (m, m+8), not contiguous in the MN-major tile; a 32-bit
    # copy of four narrow values: the f16 fragment holds (k, k+1) of two rows
    ((builders, "RS_COPY", "UniversalCopy<uint64_t>"), [NN]),
    ((builders, "RS_COPY", "UniversalCopy<uint32_t>"), [S8_F16]),
    # the 16-bit fragment's k+1 and m+8 modes exchanged (a register order wgmma does not read)
    ((mma_families, "GMMA_RS_A_LAYOUTS",
      {**mma_families.GMMA_RS_A_LAYOUTS, 16: "((4,8,4),(2,2,2)):((128,1,16),(8,64,512))"}), [S8_F16]),
])
def test_a_wrong_rs_rule_shows_refuted_kernels(monkeypatch, tmp_path, patch, kernels):
    monkeypatch.setattr(*patch)
    monkeypatch.setattr(command, "kernels", lambda arch, level: kernels)
    results, _, _, _ = command.run(90, "", 1, tmp_path)
    assert [r.verdict for r in results] == [Verdict.REFUTED] * len(kernels)


def test_an_ss_atom_for_the_mn_major_tf32_tile_is_refuted(monkeypatch, tmp_path):
    """The rule wgmma cannot follow: the MN-major tf32 tile read through a descriptor (the SS atom; tf32 has no
    transpose): the descriptor and end-to-end theorems refute it."""
    real = builders.gmma_atom
    monkeypatch.setattr(builders, "gmma_atom", lambda n, acc, a, b, majors, rs=False: real(n, acc, a, b, majors))
    monkeypatch.setattr(command, "kernels", lambda arch, level: [NN])
    results, _, _, _ = command.run(90, "", 1, tmp_path)
    assert [r.verdict for r in results] == [Verdict.REFUTED]
    assert {T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END} <= _failed(results[0])
