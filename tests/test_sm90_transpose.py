"""SM90 GEMMs with A and B both MN-major tf32: CUTLASS transposes B in shared memory (AsyncTranspositionOperandB,
cutlass/transform/collective/sm90_wgmma_transpose.hpp) before wgmma reads it K-major.  CuTe's side of the model
(cute/transpose.py, the prescreen's layouts) against CUTLASS's own printed results (tests/data/cute_transpose.json,
tools/cute_dump/transpose.cu); theorem 34 (kinds/transpose) proving CUTLASS's configurations and refuting broken
ones; and the prescreen mapping the generator's 80 such kernels (prescreen/sm90_transpose.py)."""
import json
from collections import Counter
from pathlib import Path

import pytest

from verifier.algebra import parse_expression
from verifier.cute import transpose as TR
from verifier.engine.runner import run_check
from verifier.kinds.transpose.kind import build_setup
from verifier.kinds.transpose.theorems import element_coords
from verifier.outcome import Status, Verdict
from verifier.prescreen import builders
from verifier.prescreen import run as command
from verifier.prescreen.sm90_transpose import TransposePathCheck
from verifier.prescreen.space import KernelConfig
from verifier.smem import position_independent
from verifier.specfile import load_spec
from verifier.symbolic.expr import Var, compile_py
from verifier.symbolic.procedure import Settings
from verifier.theorems.catalog import TheoremId

ROOT = Path(__file__).parent.parent
DATA = json.loads((Path(__file__).parent / "data" / "cute_transpose.json").read_text())
CONFIGS = DATA["configurations"]
T = TheoremId
CROSS = Settings(cross_check=True)
ATOM_THEOREMS = {T.MMA_BIJECTIVE, T.MMA_MATCHES_INSTRUCTION, T.MMA_TYPES}
TMA_THEOREMS = ATOM_THEOREMS | {T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.TMA_ENCODABLE, T.TMA_PLACEMENT,
                                T.GMMA_DESCRIPTOR, T.GMMA_TRANSPOSE}
CP_ASYNC_THEOREMS = ATOM_THEOREMS | {T.SMEM_INJECTIVE, T.COPY_VALUE_TYPE, T.GMMA_DESCRIPTOR, T.GMMA_TRANSPOSE}
# the header's own table of the 2-step transposition (its comment, [warp][step][warp_tile] -> (n, k)), steps 0 and 1
HEADER_TABLE = {0: (((0, 0), (1, 1)), ((2, 2), (3, 3))), 1: (((1, 0), (0, 1)), ((3, 2), (2, 3))),
                2: (((2, 0), (0, 2)), ((3, 1), (1, 3))), 3: (((3, 0), (0, 3)), ((2, 1), (1, 2)))}


def _kernel(config: dict, name: str = "k") -> KernelConfig:
    k = config["kernel"]
    return KernelConfig(name, 90, "Universal3x", "TensorOp", tuple(k["tile"]), (4, 1, 1), (0, 0, 0), "tf32", "tf32",
                        "f32", "ColumnMajor", "RowMajor", k["alignment"][0], k["alignment"][1], k["schedule"], 0)


def _spec_path(tmp_path: Path, kernels: list[KernelConfig]) -> Path:
    """The prescreen's spec of the kernels' paths (as `prescreen-cutlass` writes it)."""
    paths: dict = {}
    representative: dict = {}
    counts: Counter = Counter()
    for kc in kernels:
        m = builders.map_sm90(kc)
        assert isinstance(m, builders.Mapped), m
        for c in m.checks:
            paths.setdefault(c, f"path_{len(paths) + 1:04d}_{c.operand.lower()}")
            representative.setdefault(c, kc)
            counts[c] += 1
    path = tmp_path / "prescreen_sm90.yaml"
    path.write_text(command.spec_text(90, paths, representative, counts), encoding="utf-8")
    return path


def _transpose_check(tmp_path: Path, config: dict):
    spec = load_spec(str(_spec_path(tmp_path, [_kernel(config)])), allow_outside=True)
    check = next(c for c in spec.checks.values() if c.kind == "transpose")
    return spec, check


# --- CuTe's side, against CUTLASS's printed results ---------------------------------------------------------------

def test_the_tables_decode_to_the_headers_documented_schedule():
    t = TR.transposition(32, 1, 128, 32, 8, 32, True)
    assert isinstance(t, TR.Transposition)
    got = {w: tuple(tuple((wt.n, wt.k) for wt in t.schedule if wt.warp == w and wt.step == step) for step in (0, 1))
           for w in range(4)}
    assert got == HEADER_TABLE
    two = TR.transposition(32, 2, 128, 32, 8, 32, True)        # two math warpgroups: warpgroup g takes step g
    assert isinstance(two, TR.Transposition)
    assert {(wt.warpgroup, wt.warp, wt.n, wt.k) for wt in two.schedule} == {
        (step, w, n, k) for w, steps in HEADER_TABLE.items() for step in (0, 1) for n, k in steps[step]}


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c["config"])
def test_the_model_is_cutlass_own_transposition(tmp_path, config):
    """The prescreen's SmemLayoutB / GmmaSmemLayoutB and stages, the transposition's constants and each math warp's
    table slice, the warp's tiled copy, and every lane's load and store offset of every warp tile of the stages CUTLASS
    printed."""
    spec, check = _transpose_check(tmp_path, config)
    assert "AsyncTranspositionOperandB<" in config["transpose"]
    for key, ours in (("smem_b", check.smem), ("gmma_smem_b", check.gmma_smem)):
        cute = position_independent(parse_expression(config[key]), 32)
        assert str(cute) == str(ours), key
    setup = build_setup(spec, check)
    t = setup.transposition
    assert isinstance(t, TR.Transposition)
    assert (setup.stages, setup.warpgroups * 128) == (config["stages"], config["threads"])
    assert (t.steps_per_warpgroup, t.warpgroups, t.warpgroup_tile, t.warp_tile, list(t.warp_thread),
            t.warpgroup_tiles) == (config["steps_per_warpgroup"], config["math_warpgroups"],
                                   config["warpgroup_tile"], config["warp_tile"], config["warp_thread"],
                                   config["warpgroup_tiles"])
    assert config["lut"] == [TR.N_COORD_TABLE, TR.K_COORD_TABLE] and config["steps"] == TR.STEPS
    for lut in config["warp_luts"]:
        shift = (lut["warp_idx"] % TR.WARPGROUP_WARPS) * TR.BITS_PER_WARP
        assert (lut["n"], lut["k"]) == ((TR.N_COORD_TABLE >> shift) & TR.WARP_MASK,
                                        (TR.K_COORD_TABLE >> shift) & TR.WARP_MASK)
    assert str(t.thread_copy.layout_tv) == config["copy_layout_tv"]
    variables = [Var("stage", setup.stages), Var("tile_n", 64), Var("tile_k", 64), Var("lane", 32), Var("value", 2)]
    n, k = element_coords(t, *variables[1:])
    s = variables[0]
    f = compile_py([setup.load_address(0, n, k, s), setup.store_address(0, n, k, s)], variables)
    assert config["tiles"]
    for tile in config["tiles"]:
        ours_src, ours_dst = [], []
        for lane in range(32):
            for value in range(t.values):
                load, store = f(tile["stage"], tile["tile_n"], tile["tile_k"], lane, value)
                ours_src.append(load // 4)
                ours_dst.append(store // 4)
        assert (ours_src, ours_dst) == (tile["src"], tile["dst"]), (tile["stage"], tile["tile_n"], tile["tile_k"])


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: c["config"])
def test_cutlass_own_operator_moves_each_warp_tile_with_the_warp_and_call_the_model_says(tmp_path, config):
    """CUTLASS's operator() run on the host for every math thread and call (tools/cute_dump/transpose_exec.cpp): every
    element moved once to where GmmaSmemLayoutB puts it, each warp tile by one warp and call — the model's."""
    spec, check = _transpose_check(tmp_path, config)
    t = build_setup(spec, check).transposition
    assert isinstance(t, TR.Transposition)
    executed = config["executed"]
    assert (executed["unmoved"], executed["misplaced"], executed["moved_twice"]) == (0, 0, 0)
    per = t.warpgroup_tile // t.warp_tile
    owners = {(wt.n, wt.k): (TR.PRODUCER_WARPS + TR.WARPGROUP_WARPS * wt.warpgroup + wt.warp, wt.step)
              for wt in t.schedule}
    movers = executed["movers"]
    assert len(movers) == (config["kernel"]["tile"][1] // t.warp_tile) * per
    for tile_n, tile_k, warp_idx, call, uniform in movers:
        assert uniform and owners[(tile_n % per, tile_k)] == (warp_idx, call), (tile_n, tile_k)


# --- theorem 34 ---------------------------------------------------------------------------------------------------

ATOM = """  SM90_64x128x8_F32TF32TF32_RS_TN:
    instruction: wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32
    shape_mnk: [64, 128, 8]
    thr_id: "128:1"
    types: {a: tfloat32_t, b: tfloat32_t, c: float, d: float}
    a: "((4,8,4),(2,2)):((64,1,16),(8,256))"
    b: "(128,(128,8)):(0,(1,128))"
    c: "((4,8,4),(2,2,16)):((128,1,16),(64,8,512))"
"""
SW32_MN = "tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>, (128,32,{stages}){order})"
SW32_K = "tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>, (128,32,{stages}){order})"
STEP = ", (2,1,3)"


def _check(warpgroups: int = 1, tma: bool = True, **more: object) -> dict[str, object]:
    order = STEP if tma else ""
    body: dict[str, object] = {
        "transpose": "B", "mma": "SM90_64x128x8_F32TF32TF32_RS_TN", "atom_layout": [warpgroups, 1, 1],
        "copy": "SM90_TMA_LOAD" if tma else "SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uint64_t>", "value_type": "tfloat32_t",
        "smem": SW32_MN.format(stages=4, order=order), "gmma_smem": SW32_K.format(stages=4, order=order)}
    if tma:
        body["gmem"] = "(4096,4096):(1,4096)"
    body.update(more)
    return body


def _prove(tmp_path: Path, checks: dict[str, dict[str, object]]) -> dict:
    lines = ["version: 2", "name: transpose", 'include: ["cute-verifier:atoms/generic.yaml", '
             '"cute-verifier:atoms/sm80_copy.yaml"]', "mma_atoms:", ATOM.rstrip("\n"), "checks:"]
    for name, body in checks.items():
        lines.append(f"  {name}:")
        lines += [f"    {k}: {json.dumps(v)}" for k, v in body.items()]
    path = tmp_path / "transpose.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    spec = load_spec(str(path), allow_outside=True)
    return {name: run_check(spec, c, CROSS) for name, c in spec.checks.items()}


def _item(result, tid: TheoremId, words: str):
    theorem = next(t for t in result.theorems if t.id is tid)
    return next(i for i in theorem.items if words in i.title)


def test_cutlass_transpositions_are_proved(tmp_path):
    """One math warpgroup with TMA, two with cp.async (the prescreen's test below proves every class once more)."""
    results = _prove(tmp_path, {"one": _check(1), "cp_async_two": _check(2, tma=False)})
    for name, r in results.items():
        assert r.verdict is Verdict.VERIFIED, (name, [(t.id, t.status) for t in r.theorems])
    assert {t.id for t in results["one"].theorems} == TMA_THEOREMS
    assert {t.id for t in results["cp_async_two"].theorems} == CP_ASYNC_THEOREMS
    in_place = _item(results["one"], T.GMMA_TRANSPOSE, "in place without a race")
    assert in_place.status is Status.PROVED


def test_a_transposed_store_with_the_wrong_swizzle_is_refuted(tmp_path):
    """GmmaSmemLayoutB of K_SW128 over SmemLayoutB of MN_SW32 (gmma_smem_transpose_or_passthrough maps MN_SW32 to
    K_SW32): the descriptor reads the SW128 tile consistently, but warp 0's stores land in bytes warp 2 loads."""
    r = _prove(tmp_path, {"c": _check(1, gmma_smem=SW32_K.replace("SW32", "SW128").format(stages=4, order=STEP))})["c"]
    assert r.verdict is Verdict.REFUTED
    failed = {t.id for t in r.theorems if t.status.refutes}
    assert failed == {T.GMMA_TRANSPOSE}
    item = _item(r, T.GMMA_TRANSPOSE, "in place without a race")
    assert item.status is Status.REFUTED and "warp 0" in item.witness.actual and "warp 2" in item.witness.actual
    assert "GmmaSmemLayoutB" in item.witness.suspect.what


def test_a_warp_storing_into_bytes_another_warp_still_reads_is_refuted(tmp_path):
    """GmmaSmemLayoutB tiled N first (tile_to_shape's default order) over a SmemLayoutB tiled K first: warp 1's store
    of warp tile (0, 1) lands in warp tile (4, 0), which warp 0 loads in the same call."""
    r = _prove(tmp_path, {"c": _check(2, gmma_smem=SW32_K.format(stages=4, order=""))})["c"]
    item = _item(r, T.GMMA_TRANSPOSE, "in place without a race")
    assert r.verdict is Verdict.REFUTED and item.status is Status.REFUTED
    assert "warp 1" in item.witness.actual and "warp 0" in item.witness.actual
    assert item.witness.point["tile_n"] == 0 and item.witness.point["tile_k"] == 1


def test_a_buffer_aligned_below_the_swizzle_repeat_is_refuted(tmp_path):
    """The position-independent sB and gmma_sB (as_position_independent_swizzle_tensor) read the swizzle off the
    offset: a 128-byte aligned buffer moves SW32's pattern, and the lane loads another byte than TMA wrote."""
    r = _prove(tmp_path, {"c": _check(1, smem_align=128)})["c"]
    load = _item(r, T.GMMA_TRANSPOSE, "every lane loads element")
    assert r.verdict is Verdict.REFUTED and load.status is Status.REFUTED
    assert load.witness.point["base"] % 2 == 1 and "alignment" in load.witness.suspect.what


def test_cutlass_refusals_and_what_has_no_model(tmp_path):
    results = _prove(tmp_path, {
        "universal": _check(1, smem=SW32_MN.replace("SW32", "SW64").format(stages=4, order=STEP)),
        "k64": _check(1, smem="tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>, (128,64,2), (2,1,3))",
                      gmma_smem="tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>, (128,64,2), (2,1,3))")})
    universal = next(t for t in results["universal"].theorems if t.id is T.GMMA_TRANSPOSE)
    assert universal.status is Status.REFUSED and TR.RULE_UNIVERSAL in universal.reason
    k64 = next(t for t in results["k64"].theorems if t.id is T.GMMA_TRANSPOSE)
    assert k64.status is Status.REFUSED and TR.RULE_K in k64.reason
    assert isinstance(TR.transposition(8, 1, 128, 128, 32, 128, True), str)      # the 1-byte class: no model


def test_a_k_major_written_tile_and_a_universal_one_byte_b_are_refused(tmp_path):
    """gmma_smem_transpose_or_passthrough takes only the MN-major GMMA atoms as the written tile's; a 1-byte B is
    transposed asynchronously on Layout_MN_SW128_Atom only (use_universal_transposition), any other atom is the
    universal transposition the register-sourced mainloops refuse (both verified or unsupported before)."""
    results = _prove(tmp_path, {
        "k_major": _check(1, smem=SW32_K.format(stages=4, order=""), gmem="(4096,4096):(4096,1)"),
        "mn_major": _check(1)})
    k_major = next(t for t in results["k_major"].theorems if t.id is T.GMMA_TRANSPOSE)
    assert k_major.status is Status.REFUSED and TR.RULE_ATOM in k_major.reason
    assert results["mn_major"].verdict is Verdict.VERIFIED
    for swizzle in (0, 32, 64):
        refused = TR.transposition(8, 1, 128, 128, 32, swizzle, True)
        assert isinstance(refused, TR.Refused) and refused.rule == TR.RULE_UNIVERSAL, swizzle
    assert isinstance(TR.transposition(8, 1, 128, 128, 32, 128, True), str)
    k_major_8_bit = TR.transposition(8, 1, 128, 128, 32, 128, True, mn_major=False)
    assert isinstance(k_major_8_bit, TR.Refused) and k_major_8_bit.rule == TR.RULE_ATOM


SWAPPED_WARP1 = (TR.N_COORD_TABLE & ~(0o77 << 12)) | (0o13 << 12), (TR.K_COORD_TABLE & ~(0o77 << 12)) | (0o02 << 12)


def test_a_table_moving_k_block_0_in_the_second_call_is_refuted_on_one_warpgroup(tmp_path, monkeypatch):
    """Warp 1's two calls exchanged: its tiles (1, 0) and (0, 1) move in call 1, after wgmma k-block 0 is issued
    (synchronize(0) fenced call 0 only); with two math warpgroups both calls precede the first barrier."""
    monkeypatch.setattr(TR, "N_COORD_TABLE", SWAPPED_WARP1[0])
    monkeypatch.setattr(TR, "K_COORD_TABLE", SWAPPED_WARP1[1])
    results = _prove(tmp_path, {"one": _check(1), "two": _check(2)})
    fenced = _item(results["one"], T.GMMA_TRANSPOSE, "fenced")
    assert results["one"].verdict is Verdict.REFUTED and fenced.status is Status.REFUTED
    assert "call 1, after wgmma k-block 0" in fenced.witness.actual
    assert results["two"].verdict is Verdict.VERIFIED


def test_a_second_warpgroup_without_its_table_shift_is_refuted(tmp_path, monkeypatch):
    """Both math warpgroups reading step 0 of the tables: half the warp tiles moved twice, half never."""
    monkeypatch.setattr(TR, "WARPS_PER_WARPGROUP_PAIR", 16)
    r = _prove(tmp_path, {"c": _check(2)})["c"]
    item = _item(r, T.GMMA_TRANSPOSE, "coordinate tables")
    assert r.verdict is Verdict.REFUTED and item.status is Status.REFUTED and "moved 2 time(s)" in item.witness.actual


def test_explain_traces_one_element(tmp_path, capsys):
    from verifier.commands.cli import main
    _prove(tmp_path, {"c": _check(2)})
    assert main(["explain", str(tmp_path / "transpose.yaml"), "--check", "c", "--coord", "37,9", "--stage", "1",
                 "--allow-outside"]) == 0
    out = capsys.readouterr().out
    assert "warp tile (n 4, k 1)" in out and "B(n 37, k 9)" in out and "the byte written" in out \
        and "the byte stored" in out


# --- the prescreen ------------------------------------------------------------------------------------------------

def test_the_generators_80_transposed_kernels_are_mapped():
    """Every kernel of the default SM90 space with A and B MN-major 32-bit (the 80 tf32 NT kernels) maps to a
    transpose check of B; no other kernel does."""
    space = command.kernels(90, "")
    both_mn = [kc for kc in space if kc.element_a == kc.element_b == "tf32" and kc.layout_a == "ColumnMajor"
               and kc.layout_b == "RowMajor"]
    transposed = [kc for kc in space if kc.element_a == "tf32" and isinstance(m := builders.map_kernel(kc),
                                                                              builders.Mapped)
                  and any(isinstance(c, TransposePathCheck) for c in m.checks)]
    assert len(both_mn) == 80 and transposed == both_mn


def test_one_kernel_of_each_transposed_class_is_proved(monkeypatch, tmp_path):
    kernels = [_kernel(c, c["config"].replace(" ", "_")) for c in CONFIGS]
    monkeypatch.setattr(command, "kernels", lambda arch, level: kernels)
    results, mapped, _, _ = command.run(90, "", 1, tmp_path)
    assert mapped == len(kernels)
    assert {r.name: r.verdict for r in results} == {k.name: Verdict.VERIFIED for k in kernels}
    assert all(T.GMMA_TRANSPOSE in {t.id for t in r.theorems} for r in results)


def test_the_rs_mainloops_own_asserts_refuse_a_transposition():
    """tests/specs/transpose_mainloop_asserts.yaml: the transposition runs in CUTLASS's register-sourced mainloops,
    whose static_asserts refuse one stage (TMA and cp.async forms) and an SS atom at theorem 34, naming the field (they
    were verified); the builder's tf32 NT cooperative kernel is verified."""
    from verifier.cute import gmma as G
    from verifier.engine.runner import run_check
    from verifier.outcome import Status, Verdict
    from verifier.specfile import load_spec
    spec = load_spec(Path(__file__).parent / "specs" / "transpose_mainloop_asserts.yaml")
    results = {name: run_check(spec, check) for name, check in spec.checks.items()}
    assert results["baseline_tma_coop"].verdict is Verdict.VERIFIED
    for name, rule, blamed in (("one_stage_tma", G.STAGES_RULE, "stages"),
                               ("one_stage_cp_async", G.STAGES_RULE, "stages"),
                               ("ss_atom", G.RS_ATOM_RULE, "MMA atom")):
        theorem = next(t for t in results[name].theorems if t.id.value == "gmma.transpose")
        assert theorem.status is Status.REFUSED and theorem.reason == f"CuTe refuses it: {rule}", (name, theorem)
        assert blamed in theorem.items[0].witness.suspect.what, (name, theorem.items[0].witness.suspect)


def test_a_transposed_tile_make_gmma_desc_refuses_refuses_the_transposition(tmp_path):
    """Theorem 34 moves B into the bytes the descriptor reads: when make_gmma_desc refuses the transposed tile (an
    MN-major GmmaSmemLayoutB under the K-major descriptor) CuTe builds no such kernel, and theorem 34 is refused
    with the builder's rule as theorem 15 is (it was refuted)."""
    r = _prove(tmp_path, {"mn": _check(1, gmma_smem=SW32_MN.format(stages=4, order=STEP))})["mn"]
    for tid in (T.GMMA_DESCRIPTOR, T.GMMA_TRANSPOSE):
        theorem = next(t for t in r.theorems if t.id is tid)
        assert theorem.status is Status.REFUSED and "Not a canonical GMMA_K Layout" in theorem.reason, theorem
