"""Theorems 29 and 30 (kinds/blockwise): a blockwise-scaled GEMM's scales, from the global scale tensor through the
scale loader into shared memory and on to the accumulator values they multiply.

CuTe's side (verifier/cute/blockwise.py, the kind's setup, prescreen/blockwise.py's rules) is checked against
CUTLASS's own results (tests/data/cute_blockwise.json: its SM90 and SM100 blockwise collectives and the SM100
epilogue builder compiled on the host, tools/cute_dump/blockwise.cu); the theorems prove the configurations CUTLASS
builds and refute each broken one at the theorem and field that own it."""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.algebra.inttuple import Underscore
from verifier.algebra.layout import Layout, make_layout
from verifier.cute import blockwise as BW
from verifier.cute.tensor import Tensor
from verifier.engine.proving import prove_check
from verifier.kinds.blockwise import theorems as BT
from verifier.kinds.blockwise.kind import build_setup
from verifier.kinds.blockwise.setup import Sm90Reader, Sm100Reader
from verifier.outcome import Status, Verdict
from verifier.prescreen import blockwise as PB
from verifier.prescreen.space import KernelConfig
from verifier.specfile import load_spec
from verifier.symbolic.expr import const, evaluate
from verifier.symbolic.procedure import Settings

DATA = json.loads((Path(__file__).parent / "data" / "cute_blockwise.json").read_text())
CONFIGS = DATA["configurations"]
CASES = [(c, op) for c in CONFIGS for op in "AB"]
LIBRARY = Path(__file__).parent.parent / "verifier" / "atom_library"
STAGE = 1                          # the dump's stage (and last CTA tile / k-tile: 1 of two each way)
TILE = (1, 1)


def _id(case: tuple[dict, str]) -> str:
    return f"{case[0]['config']} SF{case[1]}"


def _short(name: str) -> str:
    return name.split("::")[-1]


def _ints(text: str) -> tuple[int, ...]:
    """(threads, values) of a printed TiledLayout_TV."""
    layout = parse_layout(text)
    return tuple(int(layout.mode(i).size()) for i in range(layout.rank()))


def _tile(text: str) -> tuple[int, ...]:
    """The extents of a printed EpilogueTile, a tuple of layouts: (_128:_1,_32:_1)."""
    return tuple(int(x) for x in re.findall(r"_(\d+):", text))


def _atom(config: dict) -> tuple[str, str]:
    """The MMA atom a config's check names, and its definition (SM100: the dense UMMA atom prescreen writes)."""
    m, n, _ = config["tile"]
    if config["arch"] == 90:
        return f"SM90_64x{n}x32_F32E4M3E4M3_SS_TN", ""
    from verifier.prescreen.builders import UMMA_FAMILIES, umma_atom
    family = next(f for f in UMMA_FAMILIES if f.kind == "f8f6f4")
    facts = umma_atom(family, 1, "e4m3", "e4m3", "f32", m, n)
    body = "\n".join(f"    {k}: {v}" for k, v in facts.fields)
    return facts.name, f"mma_atoms:\n  {json.dumps(facts.name)}:\n{body}\n"


BROKEN_ATOM = """mma_atoms:
  BROKEN:
    instruction: "wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3"
    shape_mnk: [64, 128, 32]
    thr_id: "128:1"
    types: {a: float_e4m3_t, b: float_e4m3_t, c: float, d: float}
    a: "(128,(64,32)):(0,(1,64))"
    b: "(128,(128,32)):(0,(1,128))"
    c: "((4,8,4),(2,2,16)):((128,1,16),(64,512,8))"
"""


def spec_text(config: dict, op: str, **changes: str) -> str:
    """A blockwise check of one operand of a dumped configuration, every layout CUTLASS's own print."""
    name, atoms = _atom(config)
    lower = op.lower()
    g_mn = config["granularity"][0 if op == "A" else 1]
    fields = {"blockwise": op, "mma": json.dumps(name), "granularity": f"[{g_mn}, {config['granularity'][2]}]",
              "tile": f"[{', '.join(map(str, config['tile']))}]", "value_type": "float",
              "smem": json.dumps(config[f"smem_{lower}"]), "gmem": json.dumps(config[f"{lower}_gmem"])}
    tma = config["tma_load"]["AB".index(op)] == 1
    if config["arch"] == 90:
        fields = {"atom_layout": "[2, 1, 1]", **fields}
        fields["copy"] = "SM90_TMA_LOAD" if tma else json.dumps(PB.CP_ASYNC_SCALE)
        if not tma:
            fields["copy_layout"] = "[32, 1]"
        include = ["sm90_gmma.yaml", "sm80_copy.yaml"]
    else:
        threads, values = _ints(config[f"{lower}_copy_layout_tv"])
        fields["copy"] = json.dumps(PB.CP_ASYNC_BY_BYTES[values * BW.SCALE_BYTES])
        fields["copy_layout"] = f"[{threads}, {values}]"
        fields["tmem_load"] = _short(config["tmem_load"])
        em, en = _tile(config["epilogue_tile"])
        fields["epilogue_tile"] = f"[{em}, {en}]"
        include = ["sm100_tmem.yaml", "sm80_copy.yaml"]
    fields.update(changes)
    fields = {k: v for k, v in fields.items() if v is not None}
    if fields["mma"] == "BROKEN":
        atoms = BROKEN_ATOM
    body = "\n".join(f"    {k}: {v}" for k, v in fields.items())
    includes = ", ".join(json.dumps(str(LIBRARY / f)) for f in include)
    return f"version: 2\nname: blockwise\ninclude: [{includes}]\n{atoms}checks:\n  sf:\n{body}\n"


def _load(text: str, folder: Path):
    path = folder / "blockwise.yaml"
    path.write_text(text)
    spec = load_spec(path, allow_outside=True)
    [check] = spec.checks.values()
    return spec, check


def setup_of(config: dict, op: str, tmp_path: Path, **changes: str):
    spec, check = _load(spec_text(config, op, **changes), tmp_path)
    return build_setup(spec, check)


def prove(text: str, tmp_path: Path):
    spec, check = _load(text, tmp_path)
    return prove_check(spec, check, Settings())


def failed(result) -> dict[str, list[str]]:
    return {t.id.value: [i.title for i in t.items if i.status in (Status.REFUTED, Status.REFUSED)]
            for t in result.theorems if t.status in (Status.REFUTED, Status.REFUSED)}


def _at(expr) -> int:
    return int(evaluate([expr], {})[0])


# --- CuTe's side against CUTLASS's own results ---------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_the_shared_and_global_layouts_are_cutlass_own(case):
    config, op = case
    g_mn, g_k = config["granularity"][0 if op == "A" else 1], config["granularity"][2]
    tile_mn = config["tile"][0 if op == "A" else 1]
    smem = BW.scale_smem(BW.scale_atom(g_mn, g_k, tile_mn, config["tile"][2]), config["stages"])
    assert smem == parse_layout(config[f"smem_{op.lower()}"])
    cutlass_global = parse_layout(config[f"{op.lower()}_gmem"])            # (MN, K, L): one batch
    assert BW.scale_global(g_mn, g_k, 2 * tile_mn, 2 * config["tile"][2]) == make_layout(cutlass_global.mode(0),
                                                                                           cutlass_global.mode(1))


COPY_CASES = [(c, op) for c, op in CASES if c["tma_load"]["AB".index(op)] == 0]


@pytest.mark.parametrize("case", COPY_CASES, ids=[_id(c) for c in COPY_CASES])
def test_the_scale_warps_copy_if_is_cutlass_own(case, tmp_path):
    """Every cp.async the scale warp issues for the last k-tile of the last CTA tile into stage 1, lane by lane, in
    copy_if's order: the predicate, the global scale read and the shared slot written."""
    config, op = case
    s = setup_of(config, op, tmp_path)
    assert s.parts is not None and s.tile_index is not None
    src, dst = s.parts.src, s.parts.dst
    for lane in config[f"{op.lower()}_lanes"]:
        t = lane["lane"]
        thread = t % s.copy.num_threads
        got = [[int(t < s.active_lanes),
                int(s.tile_index(*TILE)) + int(src.thread(thread)) + int(src.filtered.mode(0)(v)) + int(src.rest(i)),
                STAGE * s.stage_stride + int(dst.thread(thread)) + int(dst.filtered.mode(0)(v)) + int(dst.rest(i))]
               for i in range(dst.calls) for v in range(dst.vector)]
        assert got == lane["writes"], f"lane {t}"


TMA_CASES = [c for c in CONFIGS if c["tma_load"][0] == 1]


@pytest.mark.parametrize("config", TMA_CASES, ids=[c["config"] for c in TMA_CASES])
def test_the_tma_box_is_the_one_cute_derives(config, tmp_path):
    s = setup_of(config, "A", tmp_path)
    assert s.tma is not None
    rank = len(s.tma.box)                                  # CUTLASS's basis adds the batch mode L (extent 1)
    assert list(s.tma.box) == config["a_tma_box"][:rank]
    assert list(s.tma.global_dim) == config["a_tma_global_dim"][:rank]
    assert list(s.tma.global_strides) == config["a_tma_global_strides"][1:rank]


SM90_CASES = [(c, op) for c, op in CASES if c["arch"] == 90]


@pytest.mark.parametrize("case", SM90_CASES, ids=[_id(c) for c in SM90_CASES])
def test_the_sm90_reader_is_cutlass_own(case, tmp_path):
    """partition_C of the broadcast view hands each thread CUTLASS's slots, and the wgmma model's accumulator
    element of each value is CuTe's partition_C coordinate."""
    config, op = case
    s = setup_of(config, op, tmp_path)
    r = s.reader
    assert isinstance(r, Sm90Reader)
    for th in config["reader_threads"]:
        t = th["thread"]
        part = r.mma.partition(Tensor(0, r.view), "C", t)
        slots = part.slice((Underscore, Underscore, Underscore, (0, STAGE))).offsets()
        assert slots == th[f"reader_{op.lower()}"], f"thread {t}"
        elements = [[_at(x) for x in BT.sm90_element(s, r, const(t), const(v), const(rm), const(rn))]
                    for rn in range(r.rest[1]) for rm in range(r.rest[0]) for v in range(r.values)]
        assert elements == th["reader_c"], f"thread {t}"


SM100_CASES = [(c, op) for c, op in CASES if c["arch"] == 100]


@pytest.mark.parametrize("case", SM100_CASES, ids=[_id(c) for c in SM100_CASES])
def test_the_sm100_reader_is_cutlass_own(case, tmp_path):
    """make_tmem_copy's partitions: the TMEM address of each call, the slot accum()'s registers hand each value (k =
    kb gK, stage 1), and the accumulator element the tcgen05.ld model reads for each register is CuTe's coordinate."""
    config, op = case
    s = setup_of(config, op, tmp_path)
    r = s.reader
    assert isinstance(r, Sm100Reader) and r.register_problem is None
    t2r_m, t2r_n, epi_m, epi_n = r.calls
    assert str(r.copy.layout_tv) == config["t2r_layout_tv"]
    for th in config["reader_threads"]:
        t = th["thread"]
        bases = [int(r.tmem_part(t, 0, (0, 0, em, en))) for em in range(epi_m) for en in range(epi_n)]
        assert bases == th["reader_tmem"], f"thread {t}"
        values = [(v, cm, cn) for cn in range(t2r_n) for cm in range(t2r_m) for v in range(r.values)]
        slots = [int(r.view_part(t, v, (cm, cn, em, en, kb * s.g_k, STAGE)))
                 for em in range(epi_m) for en in range(epi_n) for kb in range(s.blocks_k) for v, cm, cn in values]
        assert slots == th[f"reader_{op.lower()}"], f"thread {t}"
        elements = []
        for em in range(epi_m):
            for en in range(epi_n):
                for v, cm, cn in values:
                    addr, m, n, back = BT.sm100_element(s, r, const(t), const(v), tuple(map(const, (cm, cn, em, en))))
                    assert _at(back) == _at(addr)
                    elements.append([_at(m), _at(n)])
        assert elements == th["reader_c"], f"thread {t}"


@pytest.mark.parametrize("epilogue", DATA["epilogues"], ids=lambda e: " ".join(map(str, e.values())))
def test_the_epilogue_rule_is_cutlass_own(epilogue):
    m, n = epilogue["tile"]
    got = PB.epilogue_choice(m, n, epilogue["element_c"], epilogue["element_d"], epilogue["layout"] == "ColumnMajor")
    assert not isinstance(got, str), got
    assert got == (_short(epilogue["tmem_load"]), _tile(epilogue["epilogue_tile"]))


def kernel(config: dict) -> KernelConfig:
    """The generator's record of a dumped configuration (its name spells the granularities)."""
    k = config["kernel"]
    g, tile = k["granularity"], k["tile"]
    grouped = "ptr-array" in config["config"] or config["arch"] == 100
    name = (f"cutlass3x_sm{config['arch']}_tensorop_gemm{'_grouped' if grouped else ''}_{g[0]}x{g[2]}f32x"
            f"{k['element_a']}_{g[1]}x{g[2]}f32x{k['element_b']}_f32_f32_f32_{'x'.join(map(str, tile))}_1x2x1_0_"
            "tnn_align16")
    kind = ("GroupedBlockwiseUniversal3x" if grouped else "BlockwiseUniversal3x")
    schedule = ("PtrArrayBlockwiseTmaWarpSpecialized1SmSm100" if config["arch"] == 100
                else "PtrArrayBlockwiseTmaWarpSpecializedCooperative" if grouped
                else "BlockwiseTmaWarpSpecializedCooperative")
    return KernelConfig(name, config["arch"], kind, "TensorOp", tuple(tile), (4, 1, 1), (0, 0, 0), k["element_a"],
                        k["element_b"], "f32", "RowMajor", "ColumnMajor", 16, 16, schedule, 0)


@pytest.mark.parametrize("config", CONFIGS, ids=[c["config"] for c in CONFIGS])
def test_the_stage_counts_are_the_builders(config):
    kc = kernel(config)
    g = PB.granularity(kc)
    assert not isinstance(g, str), g
    stages = PB.sm90_stages(kc, g) if config["arch"] == 90 else PB.sm100_stages(kc, g)
    assert stages == config["stages"]


@pytest.mark.parametrize("config", CONFIGS, ids=[c["config"] for c in CONFIGS])
def test_the_prescreen_writes_cutlass_own_scale_checks(config):
    """The mapped kernel's SFA / SFB checks hold CUTLASS's shared layouts, loader and (SM100) copy layout."""
    from verifier.prescreen.builders import Mapped, map_kernel
    mapped = map_kernel(kernel(config))
    assert isinstance(mapped, Mapped), mapped
    checks = {c.scaled: dict(c.entries) for c in mapped.checks if isinstance(c, PB.BlockwiseScaleCheck)}
    for i, op in enumerate("AB"):
        assert parse_layout(json.loads(checks[op]["smem"])) == parse_layout(config[f"smem_{op.lower()}"])
        assert (json.loads(checks[op]["copy"]) == "SM90_TMA_LOAD") == (config["tma_load"][i] == 1)
        if config["arch"] == 100:
            threads, values = _ints(config[f"{op.lower()}_copy_layout_tv"])
            assert checks[op]["copy_layout"] == f"[{threads}, {values}]"


# --- the theorems --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_cutlass_configurations_are_verified(case, tmp_path):
    config, op = case
    r = prove(spec_text(config, op), tmp_path)
    assert r.verdict is Verdict.VERIFIED, failed(r)
    assert {t.id.value for t in r.theorems} >= {"blockwise.load", "blockwise.read", "mma.matches_instruction"}


SM90 = CONFIGS[0]                  # 1x128 / 128x128, 128x128x128: SFA by TMA, SFB by cp.async
SM90_COPY = CONFIGS[1]             # 1x128 / 1x128: both by cp.async
SM100_FINE = next(c for c in CONFIGS if c["config"].startswith("sm100 128x128x128 1x128"))
SM100_64 = next(c for c in CONFIGS if c["config"].startswith("sm100 64x32x128"))
SFA_SMEM = SM90["smem_a"]          # ((_1,_128),(_128,_1),_6):((_0,_1),(_0,_128),_128)
MUTATIONS = {
    # a shared layout of 2-row blocks for 1-row scales: two rows share a slot, the load names the granularity
    "shared blocks of 2 rows": (SM90_COPY, "A", {"smem": '"((_2,_64),(_128,_1),_6):((_0,_1),(_0,_64),_64)"'},
                                {"blockwise.load", "blockwise.read"}),
    # stages 64 slots apart: the second stage overwrites half of the first
    "overlapping stages": (SM90_COPY, "A", {"smem": json.dumps(SFA_SMEM.replace("_128),_128)", "_128),_64)"))},
                           {"blockwise.load"}),
    # a 64-thread copy run by one warp: lanes 32..63 never run, slots 64.. are never written
    "a writer that skips slots": (SM90_COPY, "A", {"copy_layout": "[64, 1]"}, {"blockwise.load"}),
    # K-major global scales under the SM100 builder's 16-byte copy: a cp.async's four rows are not contiguous
    "K-major global scales": (SM100_FINE, "A", {"gmem": '"((_1,256),(_128,2)):((_0,2),(_0,1))"'},
                              {"blockwise.load"}),
    # the scale view partitioned by another tiled MMA (warpgroups along N): the register scales are ((2,2,16),2,1),
    # the accumulators ((2,2,16),1,1), and GmmaFP8Accumulation's static_assert refuses it (theorem 30 refused)
    "the reader's tiled MMA": (SM90_COPY, "A", {"reader_atom_layout": "[1, 2, 1]"}, {"blockwise.read"}),
    # a scale buffer 64-byte aligned: TMA's destination must be 128-byte aligned
    "misaligned TMA destination": (SM90, "A", {"smem_align": "64"}, {"blockwise.load"}),
    # a 32-lane load of a 64-row accumulator: lanes 16..31 of each sub-partition hold no accumulator element (CuTe's
    # make_tmem_copy refuses it: "The memory pointed to by AtomTVLayout does not exist in the DataLayout.")
    "32dp load of an M = 64 accumulator": (SM100_64, "A", {"tmem_load": "SM100_TMEM_LOAD_32dp32b8x",
                                                           "epilogue_tile": "[64, 32]"}, {"blockwise.read"}),
    # a 64-thread copy of the 128 row scales run by the scale warp's 32 lanes: 64 slots a stage never written
    "a 64-thread copy on SM100": (SM100_FINE, "A", {"copy": json.dumps(PB.CP_ASYNC_SCALE), "copy_layout": "[64, 1]"},
                                  {"blockwise.load"}),
    # an atom whose accumulator layout swaps rows 8.. with columns 8..: partition_C hands row m's value the slot
    # of another row (theorem 2 refutes the atom, theorem 30 the scales it reads)
    "the atom's accumulator layout": (SM90_COPY, "A", {"mma": "BROKEN"}, {"blockwise.read",
                                                                          "mma.matches_instruction"}),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_mistake_is_refuted_where_it_is(name, tmp_path):
    config, op, changes, theorems = MUTATIONS[name]
    r = prove(spec_text(config, op, **changes), tmp_path)
    assert r.verdict is Verdict.REFUTED, name
    assert theorems <= set(failed(r)), failed(r)


def test_a_refutation_names_the_value_and_its_chain(tmp_path):
    config, op, changes, _ = MUTATIONS["the atom's accumulator layout"]
    r = prove(spec_text(config, op, **changes), tmp_path)
    read = next(t for t in r.theorems if t.id.value == "blockwise.read")
    item = next(i for i in read.items if i.status is Status.REFUTED and i.witness)
    assert {"thread", "value", "stage"} <= set(item.witness.point)
    assert {line.label for line in item.witness.chain} >= {"wgmma", "partition_C", "block"}


def test_cute_refuses_a_tmem_load_the_accumulator_does_not_hold(tmp_path):
    config, op, changes, _ = MUTATIONS["32dp load of an M = 64 accumulator"]
    r = prove(spec_text(config, op, **changes), tmp_path)
    read = next(t for t in r.theorems if t.id.value == "blockwise.read")
    assert read.status is Status.REFUSED and "does not exist in the DataLayout" in read.reason


def test_the_k_granularity_must_be_the_sm90_k_tile(tmp_path):
    """mma() scales a k-tile's MMAs once, with K block 0, and the collective static_asserts it: two K blocks of 64 a
    128-deep k-tile (ScalePromotionInterval 2) are refused by CUTLASS's rule (they were refuted at theorem 30)."""
    smem = '"((_1,_128),(_64,_2),_6):((_0,_1),(_0,_128),_256)"'
    gmem = '"((_1,256),(_64,4)):((_0,_1),(_0,256))"'
    r = prove(spec_text(SM90_COPY, "A", granularity="[1, 64]", smem=smem, gmem=gmem), tmp_path)
    assert r.verdict is Verdict.REFUTED
    read = next(t for t in r.theorems if t.id.value == "blockwise.read")
    assert read.status is Status.REFUSED and read.reason.endswith("ScalePromotionInterval must be a multiple of 4.")


def test_partial_tiles_are_unsupported_with_the_reason(tmp_path):
    r = prove(spec_text(SM90_COPY, "A", gmem='"((_1,200),(_128,2)):((_0,_1),(_0,200))"'), tmp_path)
    assert r.verdict is Verdict.UNSUPPORTED
    assert any("partial tiles" in (t.reason or "") for t in r.theorems)


# --- bad input, explain, the picture -------------------------------------------------------------------------

def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=cwd)


@pytest.mark.parametrize("key,value,message", [
    ("blockwise", "C", "must be one of A | B"),
    ("value_type", "half_t", "the accumulator's float"),
    ("granularity", "[1]", "a list of 2 positive integers"),
    ("smem", '"(128,4):(4,1)"', "SmemLayoutSF"),
    ("copy_layout", None, "needs 'copy_layout'"),
    ("tmem_load", "SM100_TMEM_LOAD_32dp32b8x", "SM100 reader"),
])
def test_bad_blockwise_checks_are_one_line_at_their_place(tmp_path, key, value, message):
    path = tmp_path / "s.yaml"
    path.write_text(spec_text(SM90_COPY, "A", **{key: value}))
    out = _cli("prove", "--allow-outside", str(path), cwd=tmp_path)
    assert out.returncode == 2, out.stdout
    line = out.stderr.strip()
    assert "\n" not in line and "Traceback" not in line and message in line, line
    assert re.search(rf"{re.escape(str(path))}:\d+:\d+: ", line), line           # file:line:col


def test_explain_traces_a_scale_and_a_value(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(spec_text(SM90_COPY, "A"))
    out = _cli("explain", "--allow-outside", str(path), "--check", "sf", "--coord", "37,70", "--stage", "1",
               cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for label in ("global", "shared", "cp.async", "read by"):
        assert label in out.stdout
    assert "lane 5 value 0 call 1" in out.stdout                  # row 37 = lane 5 + 32 x call 1
    out = _cli("explain", "--allow-outside", str(path), "--check", "sf", "--lane", "130", "--value", "3",
               cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "wgmma" in out.stdout and "partition_C" in out.stdout and "block" in out.stdout


def _scales_figure(text: str, tmp_path: Path):
    from verifier.engine.runner import run_check
    from verifier.kinds.registry import kind_of
    spec, check = _load(text, tmp_path)
    result = run_check(spec, check)
    (fig,) = kind_of(check).figures(spec, check, ("scales",), result)
    return fig, result


def test_the_scales_view_draws_each_block_once_and_outlines_nothing_when_proved(tmp_path):
    fig, result = _scales_figure(spec_text(SM90_COPY, "A"), tmp_path)
    assert result.verdict is Verdict.VERIFIED
    (panel,) = fig.panels
    assert (panel.rows, panel.cols) == (128, 1) and len(panel.cells) == 128
    assert not any(c.outline for c in panel.cells)
    assert len({dict(c.info)["shared slot"] for c in panel.cells}) == 128


def test_the_scales_view_outlines_the_block_a_counterexample_names(tmp_path):
    fig, result = _scales_figure(spec_text(SM90_COPY, "A", mma="BROKEN"), tmp_path)
    assert result.verdict is Verdict.REFUTED
    read = next(t for t in result.theorems if t.id.value == "blockwise.read")
    m = read.first_failure().witness.values["m"]
    (panel,) = fig.panels
    assert [(c.row, c.col) for c in panel.cells if c.outline] == [(m, 0)]
    assert any("theorem 30" in line for line in fig.caption)


def test_every_blockwise_kernel_of_the_generator_is_mapped_with_its_scales():
    """SM90's 840 and SM100's 1152 blockwise kernels: each mapped to its A / B paths and one scale check each."""
    pytest.importorskip("cutlass_library")
    from verifier.prescreen.builders import Mapped, map_kernel
    from verifier.prescreen.space import generate
    for arch in (90, 100):
        kernels = [k for k in generate(arch) if k.kind in PB.BLOCKWISE_KINDS]
        assert kernels
        for kc in kernels:
            mapped = map_kernel(kc)
            assert isinstance(mapped, Mapped), (kc.name, mapped)
            scaled = sorted(c.scaled for c in mapped.checks if isinstance(c, PB.BlockwiseScaleCheck))
            assert scaled == ["A", "B"], kc.name


def test_a_blockwise_check_reads_the_layouts_as_written():
    """The kind's layouts are CuTe's (granularity modes stride 0), read with the granularity CUTLASS reads."""
    smem = parse_layout(SFA_SMEM)
    assert BW.granularity_of(smem) == (1, 128)
    assert BW.granularity_of(parse_layout(SM90["b_gmem"])) == (128, 128)
    assert isinstance(smem, Layout)


# --- kernels of a high --level (ping-pong schedules, tiles whose scales are no multiple of the warp) ---------------

def _level_kernel(tile: tuple[int, int, int], granularity_n: int, schedule: str) -> KernelConfig:
    """An SM90 blockwise kernel as the generator lists it at --level 9999 (1x128 scales of A)."""
    name = (f"cutlass3x_sm90_tensorop_gemm_1x128f32xe4m3_{granularity_n}x128f32xe4m3_f32_f32_f32_"
            f"{'x'.join(map(str, tile))}_1x2x1_0_tnn_align16_warpspecialized_pingpong_epi_nosmem")
    return KernelConfig(name, 90, "BlockwiseUniversal3x", "TensorOp", tile, (4, 1, 1), (0, 0, 0), "e4m3", "e4m3",
                        "f32", "RowMajor", "ColumnMajor", 16, 16, schedule, 0)


def _scale_results(kc: KernelConfig) -> dict[str, object]:
    from verifier.prescreen.builders import Mapped, map_kernel
    from verifier.prescreen.run import prove as prove_paths
    mapped = map_kernel(kc)
    assert isinstance(mapped, Mapped), mapped
    scales = tuple(c for c in mapped.checks if isinstance(c, PB.BlockwiseScaleCheck))
    results, _, _ = prove_paths(90, [kc] * len(scales), [Mapped((c,), mapped.how) for c in scales],
                             [1] * len(scales), 1, None)
    return {c.scaled: (dict(c.entries), r) for c, r in zip(scales, results)}


def test_a_ping_pong_kernel_reads_its_scales_with_one_warpgroup():
    """KernelTmaWarpSpecializedPingpongFP8Blockwise derives from the ping-pong schedule: the builder's AtomLayoutMNK
    is (1, 1, 1), one warpgroup a 64-row tile; the scales' reader is that tiled MMA and is verified."""
    pytest.importorskip("cutlass_library")
    kc = _level_kernel((64, 128, 128), 128, "BlockwiseTmaWarpSpecializedPingpong")
    found = _scale_results(kc)
    for op in "AB":
        entries, r = found[op]
        assert entries["atom_layout"] == "[1, 1, 1]"
        assert r.verdict is Verdict.VERIFIED, (op, r.summary)


def test_the_cooperative_reader_on_a_ping_pong_tile_is_refuted(tmp_path):
    """The mistake the rule once made: two warpgroups read a 64-row tile's row scales; thread 128's accumulators
    (rows 64.., past the tile) are handed slot 64.  One warpgroup (ping-pong's AtomLayoutMNK) is verified."""
    config = next(c for c in CONFIGS if c["arch"] == 90 and c["tile"][0] == 128 and c["tma_load"] == [0, 0])
    text = spec_text(config, "A")
    assert "atom_layout: [2, 1, 1]" in text and "tile: [128, 128, 128]" in text
    tile64 = (text.replace("tile: [128, 128, 128]", "tile: [64, 128, 128]")
              .replace(config["smem_a"], "((_1,_64),(_128,_1),_6):((_0,_1),(_0,_64),_64)")
              .replace(config["a_gmem"], "((_1,128),(_128,2),1):((_0,_1),(_0,128),256)"))
    r = prove(tile64, tmp_path)
    assert r.verdict is Verdict.REFUTED and set(failed(r)) == {"blockwise.read"}, failed(r)
    one = prove(tile64.replace("atom_layout: [2, 1, 1]", "atom_layout: [1, 1, 1]"), tmp_path)
    assert one.verdict is Verdict.VERIFIED, failed(one)


def test_scales_no_multiple_of_the_warp_overrun_their_stage():
    """A 216-column tile with one scale a column: the warp's 32-wide copy_if walks 7 x 32 = 224 slots (CuTe
    rounds the repeat up), so lanes 24..31 write the next stage's first slots (the predicate tests only the global
    shape) -- refuted with the first write past the stage."""
    pytest.importorskip("cutlass_library")
    kc = _level_kernel((128, 216, 128), 1, "BlockwiseTmaWarpSpecializedPingpong")
    found = _scale_results(kc)
    entries, r = found["B"]
    assert json.loads(entries["copy"]) == PB.CP_ASYNC_SCALE
    assert r.verdict is Verdict.REFUTED
    load = next(t for t in r.theorems if t.id.value == "blockwise.load")
    assert load.status is Status.REFUTED
    said = [i.witness.actual for i in load.items if i.witness is not None]
    assert any("lane 24's write 6 lands in slot 216, past the stage's 216 slots" in str(a) for a in said), said
    assert found["A"][1].verdict is Verdict.VERIFIED      # 128 row scales: four full warps' worth


# tools/gpu/run_blockwise_overrun.sh on an H100 (tests/data/hw/blockwise_scale_overrun.txt): CUTLASS's own SM90
# blockwise kernel of the level's shape (ping-pong, 1x128 scales of A, tile 128 x N x 128) run plain and under
# compute-sanitizer, for B scales of one column (N scales a tile) and the controls
OVERRUN_CAPTURE = Path(__file__).parent / "data" / "hw" / "blockwise_scale_overrun.txt"
CAPTURED_RUN = re.compile(r"tile 128x(?P<n>\d+)x128, scales of B 1x(?P<g>\d+)x128 \(\d+ a tile along N\), stages "
                          r"(?P<stages>\d+): (?P<wrong>\d+) of (?P<runs>\d+) runs wrong")
SANITIZED_WRITE = re.compile(r"Invalid __shared__ write of size 4 bytes\n=+ +at [^\n]*\n=+ +by thread \((\d+),0,0\)")
OVERRUN_LANE = re.compile(r"lane (\d+)'s write \d+ lands in slot (\d+), past the stage's (\d+) slots")


def _captured_overruns() -> dict[tuple[int, int], dict[str, object]]:
    """Each captured (tile N, columns a scale) -> its plain run (None: the run failed) and the lanes of the threads
    compute-sanitizer caught writing shared memory out of bounds."""
    text = OVERRUN_CAPTURE.read_text()
    found: dict[tuple[int, int], dict[str, object]] = {}
    for block in text.split("== run ")[1:]:
        name, _, rest = block.partition("\n")
        n, g = map(int, name.split("_"))
        plain, _, sanitized = rest.partition("== memcheck")
        run = CAPTURED_RUN.search(plain)
        found[(n, g)] = {"run": run, "failed": "illegal memory access" in plain,
                         "lanes": [int(t) % 32 for t in SANITIZED_WRITE.findall(sanitized)]}
    return found


def test_the_hardware_agrees_with_the_scale_overrun_verdicts():
    """Theorem 29 refutes exactly the captured kernels whose scales a tile are over 32 and no multiple of 32, and
    verifies the controls. On the H100 the refuted 88- and 104-scale kernels stop with an illegal memory access, and
    compute-sanitizer catches their scale warp's lanes writing past the shared allocation -- lanes the refutation
    names as writing past the stage (from its counterexample's lane on; a lane writing inside the allocation, the
    next stage's first slots, is not the sanitizer's to see). The refuted 120- and 216-scale kernels ran right (their
    overrun stays inside the allocation; no wrong D in 50 runs). Every verified one ran right, and every kernel that
    ran printed the stage count the rules give it."""
    pytest.importorskip("cutlass_library")
    captured = _captured_overruns()
    assert set(captured) == {(128, 1), (88, 88), (88, 1), (104, 1), (120, 1), (216, 216), (216, 1)}
    for (n, g), hw in captured.items():
        kc = _level_kernel((128, n, 128), g, "BlockwiseTmaWarpSpecializedPingpong")
        entries, r = _scale_results(kc)["B"]
        scales = n // g
        overruns = scales > 32 and scales % 32 != 0
        assert (r.verdict is Verdict.REFUTED) == overruns, (n, g, r.verdict)
        run = hw["run"]
        if run is not None:
            config = PB.dense_config(kc)
            assert not isinstance(config, str) and int(run["stages"]) == config.stages, (n, g, run["stages"])
        if not overruns:
            assert run is not None and run["wrong"] == "0" and not hw["lanes"], (n, g, hw)
            continue
        load = next(t for t in r.theorems if t.id.value == "blockwise.load")
        said = [m for i in load.items if i.witness is not None
                for m in OVERRUN_LANE.finditer(str(i.witness.actual))]
        assert said, (n, g)
        first_lane, slot, stage_slots = map(int, said[0].groups())
        assert slot == stage_slots == scales and first_lane == scales % 32, said[0].group(0)
        if hw["failed"]:
            assert hw["lanes"] and all(first_lane <= lane < 32 for lane in hw["lanes"]), (n, g, hw["lanes"])
        else:
            assert run is not None and run["wrong"] == "0", (n, g, hw)
    assert {k for k, hw in captured.items() if hw["failed"]} == {(88, 1), (104, 1)}


def test_the_sm90_load_tiles_the_global_scales_by_their_count():
    """The SM90 collective's load() tiles the global scale tensor by the tile's scale count (local_tile with
    Int<ScaleNsPerTile>), compiled whether or not the scales go through TMA. 11 scales of 8 columns (an 88-column
    tile) do not tile it, and CuTe refuses the kernel: `nvcc` stops at "Shape Divisibility Condition" building
    tools/gpu/blockwise_scale_overrun.cu with TILE_N=88 GRANULARITY_N=8. One column a scale, or one scale a tile,
    tiles it (both built and ran on the H100: the capture above)."""
    pytest.importorskip("cutlass_library")
    refused = _scale_results(_level_kernel((128, 88, 128), 8, "BlockwiseTmaWarpSpecializedPingpong"))["B"][1]
    load = next(t for t in refused.theorems if t.id.value == "blockwise.load")
    assert load.status is Status.REFUSED and "Shape Divisibility Condition" in load.reason, load
    assert any("load(): local_tile of the global scales" in i.note for i in load.items), load.items
    for granularity, verdict in ((1, Verdict.REFUTED), (88, Verdict.VERIFIED)):     # the overrun, the control
        r = _scale_results(_level_kernel((128, 88, 128), granularity, "BlockwiseTmaWarpSpecializedPingpong"))["B"][1]
        assert r.verdict is verdict and all(t.status is not Status.REFUSED for t in r.theorems), (granularity, r)


# --- the shapes GmmaFP8Accumulation compares ---------------------------------------------------------------------

SHAPES = (Path(__file__).parent / "data" / "cute_blockwise_shapes.txt").read_text()
SHAPE_CASES = [block.strip().splitlines() for block in SHAPES.split("@case ")[1:]]


def _cute_shape(text: str):
    """A static shape as CuTe prints it, `((_2,_2,(_2,_8)),_1,_1)`, as nested tuples of ints."""
    items: list = [[]]
    for token in re.findall(r"\(|\)|\d+", text.replace("_", "")):
        if token == "(":
            items.append([])
        elif token == ")":
            done = tuple(items.pop())
            items[-1].append(done)
        else:
            items[-1].append(int(token))
    [shape] = items[0]
    return shape


def _shape_spec(cases: list[list[str]]) -> str:
    """One SM90 blockwise check an operand a dumped case (CuTe's SmemLayoutSF, the GMMA atom ss_op_selector picks)."""
    from verifier.prescreen.builders import gmma_atom
    atoms, checks = {}, []
    for i, lines in enumerate(cases):
        bm, bn, bk, wm, gm, gn, gk = map(int, lines[0].split())
        fields = dict(line[1:].split(" ", 1) for line in lines[1:])
        facts = gmma_atom(bn, "f32", "e4m3", "e4m3", ("K", "K"))
        atoms[facts.name] = "\n".join(f"    {k}: {v}" for k, v in facts.fields)
        for op, g_mn, tile_mn in (("A", gm, bm), ("B", gn, bn)):
            gmem = BW.scale_global(g_mn, gk, 2 * tile_mn, 2 * bk)
            checks.append(f"  case{i}_{op}:\n    blockwise: {op}\n    mma: {json.dumps(facts.name)}\n"
                          f"    atom_layout: [{wm}, 1, 1]\n    granularity: [{g_mn}, {gk}]\n"
                          f"    tile: [{bm}, {bn}, {bk}]\n    copy: {json.dumps(PB.CP_ASYNC_SCALE)}\n"
                          f"    copy_layout: [32, 1]\n    value_type: float\n"
                          f"    smem: {json.dumps(fields['smem_' + op.lower()])}\n    gmem: \"{gmem}\"")
    include = json.dumps(str(LIBRARY / "sm80_copy.yaml"))
    defined = "".join(f"  {json.dumps(name)}:\n{body}\n" for name, body in atoms.items())
    return f"version: 2\nname: shapes\ninclude: [{include}]\nmma_atoms:\n{defined}checks:\n" + "\n".join(checks) + "\n"


def test_the_scale_and_accumulator_shapes_are_cutes_own(tmp_path):
    """tests/data/cute_blockwise_shapes.txt (tools/cute_dump/blockwise_shapes.cu: CUTLASS's SM90 collective's
    tensors compiled on the host): for every tile, warpgroup layout and granularity dumped, the setup's accumulator
    and register-scale shapes are the ones CuTe builds, nesting included, and the reader is refused by
    GmmaFP8Accumulation's static_assert exactly where CuTe's shapes differ and the tile holds more than one scale of
    the operand (one scale is read as a scalar: no shape is compared)."""
    path = tmp_path / "shapes.yaml"
    path.write_text(_shape_spec(SHAPE_CASES))
    spec = load_spec(path, allow_outside=True)
    refused = 0
    for i, lines in enumerate(SHAPE_CASES):
        bm, bn, *_ = map(int, lines[0].split())
        fields = dict(line[1:].split(" ", 1) for line in lines[1:])
        for op in "AB":
            setup = build_setup(spec, spec.checks[f"case{i}_{op}"])
            reader = setup.reader
            assert isinstance(reader, Sm90Reader), (lines[0], op, setup.reader_problem)
            accumulators = BW.sm90_fragment_shape(reader.compute.thrfrg(Layout((bm, bn)), "C"))
            scales = BW.sm90_fragment_shape(reader.full)
            assert accumulators == _cute_shape(fields["accum"]), (lines[0], op)
            assert scales == _cute_shape(fields[f"scale_{op.lower()}"]), (lines[0], op)
            same = fields[f"same_{op.lower()}"] == "1"
            assert (scales == accumulators) is same, (lines[0], op)
            expect_refused = not same and setup.blocks_mn > 1
            assert (setup.reader_rule == f"Accumulator and scale{op} must have same shape.") is expect_refused, \
                (lines[0], op, setup.reader_rule)
            refused += expect_refused
    assert len(SHAPE_CASES) >= 80 and refused >= 15, refused


def test_scales_that_split_the_accumulators_modes_are_refused_as_nvcc_refuses_them():
    """A 128-column tile of 16-column scales of B (8 scales): a thread's scales nest its N values as (2,8) where its
    accumulators have 16, and CUTLASS's own static_assert stops nvcc ("Accumulator and scaleB must have same
    shape."): refused by that rule at theorem 30, blaming the granularity (it was reported refuted). One column a
    scale and one scale a tile are not refused (the shapes agree; one scale is a scalar)."""
    pytest.importorskip("cutlass_library")
    for schedule in ("BlockwiseTmaWarpSpecializedPingpong", "BlockwiseTmaWarpSpecializedCooperative"):
        found = _scale_results(_level_kernel((128, 128, 128), 16, schedule))["B"][1]
        read = next(t for t in found.theorems if t.id.value == "blockwise.read")
        assert read.status is Status.REFUSED and read.reason.endswith("Accumulator and scaleB must have same shape."), \
            read
        [item] = read.items
        assert "((2,2,(2,8))," in item.note and "((2,2,16)," in item.note, item.note   # (MMA_M: 1 or 2 warpgroups)
        assert item.witness.suspect.what.startswith("the granularity (16, 128)"), item.witness.suspect
        for granularity in (1, 128):
            r = _scale_results(_level_kernel((128, 128, 128), granularity, schedule))["B"][1]
            assert r.verdict is Verdict.VERIFIED, (schedule, granularity, r.summary)


def test_one_scale_a_tile_is_read_as_a_scalar_and_its_shape_not_compared(tmp_path):
    """mma() reads an operand with one scale a tile as a scalar (`tCrSFA(_0{})`): no shape is compared, so a reader
    whose partition has another shape than the accumulators (warpgroups along N) is refused with 128 scales of A a
    tile and verified with one (every value would read the tile's one scale)."""
    one = {"granularity": "[128, 128]",
           "smem": json.dumps(str(BW.scale_smem(BW.scale_atom(128, 128, 128, 128), 6))),
           "gmem": json.dumps(str(BW.scale_global(128, 128, 256, 256)))}
    for changes, refused in (({}, True), (one, False)):
        setup = setup_of(SM90_COPY, "A", tmp_path, reader_atom_layout="[1, 2, 1]", **changes)
        assert isinstance(setup.reader, Sm90Reader)
        shapes = (BW.sm90_fragment_shape(setup.reader.full),
                  BW.sm90_fragment_shape(setup.reader.compute.thrfrg(Layout((128, 128)), "C")))
        assert shapes[0] != shapes[1], shapes
        assert (setup.reader_rule == "Accumulator and scaleA must have same shape.") is refused, setup.reader_rule
        assert setup.reader_field == ("reader_atom_layout" if refused else None)
        r = prove(spec_text(SM90_COPY, "A", reader_atom_layout="[1, 2, 1]", **changes), tmp_path)
        assert r.verdict is Verdict.REFUTED if refused else r.verdict is Verdict.VERIFIED, failed(r)
        assert any(t.status is Status.REFUSED for t in r.theorems) is refused, failed(r)


GRANULARITY_RULES = [
    # (config, g_m, g_k, tile K, the collective's static_assert that refuses it, or None: it compiles)
    (SM90_COPY, 1, 128, 128, None),
    (SM90_COPY, 1, 256, 256, None),
    (SM90_COPY, 1, 64, 64, "ScalePromotionInterval must be a multiple of 4."),
    (SM90_COPY, 1, 256, 128, "size<2>(TileShape{}) % ScaleGranularityK == 0"),
    (SM90_COPY, 1, 16, 128, "ScaleGranularityK % size<2>(typename TiledMma::AtomShape_MNK{}) == 0"),
    (SM90_COPY, 1, 128, 256, "ScalePromotionInterval must be greater than or equal to the number of stages of the "
                             "MMA atom."),
    (SM90_COPY, 48, 128, 128, "FP8 scaling granularity must evenly divide tile shape along M."),
    (SM100_FINE, 1, 128, 128, None),
    (SM100_FINE, 48, 128, 128, "Scale Granularity M must divide Tile Shape"),
    (SM100_FINE, 1, 256, 128, "Scale Granularity K must divide Tile Shape"),
    (SM100_FINE, 1, 16, 128, "Scale Granularity K must be divisible by MMA_K"),
]


@pytest.mark.parametrize("case", GRANULARITY_RULES, ids=[f"sm{c[0]['arch']}-{c[1]}x{c[2]}-K{c[3]}"
                                                         for c in GRANULARITY_RULES])
def test_the_collectives_granularity_asserts_refuse_where_cutlass_does(case, tmp_path):
    """The blockwise collectives' static_asserts on the granularity against the tile and the MMA atom's K (SM90: the
    ScalePromotionInterval gK / MMA_K a multiple of 4 and at least the k-tile's wgmmas) refuse a configuration, at
    both theorems and for draw and explain, blaming the granularity; it was refuted (or, gK = BLK_K = 64 on SM90,
    verified). A granularity they accept is verified."""
    from verifier.kinds.blockwise.kind import built_setup
    from verifier.kinds.cute_objects import ConfigurationRefused
    config, g_m, g_k, tile_k, rule = case
    m, n, _ = config["tile"]
    changes = {"granularity": f"[{g_m}, {g_k}]", "tile": f"[{m}, {n}, {tile_k}]",
               "smem": json.dumps(str(BW.scale_smem(BW.scale_atom(g_m, g_k, m, tile_k), config["stages"]))),
               "gmem": json.dumps(str(BW.scale_global(g_m, g_k, 2 * m, 2 * tile_k)))}
    text = spec_text(config, "A", **changes)
    r = prove(text, tmp_path)
    if rule is None:
        assert r.verdict is Verdict.VERIFIED, failed(r)
        return
    assert r.verdict is Verdict.REFUTED, r.summary
    for t in r.theorems:
        if t.id.value in ("blockwise.load", "blockwise.read"):
            assert t.status is Status.REFUSED and t.reason == f"CuTe refuses it: {rule}", (t.id, t.reason)
            assert t.items[0].witness.suspect.what.startswith("the granularity"), t.items[0].witness.suspect
    spec, check = _load(text, tmp_path)
    with pytest.raises(ConfigurationRefused):
        built_setup(spec, check)


@pytest.mark.parametrize("config", [SM90_COPY, SM100_FINE], ids=["sm90", "sm100"])
def test_one_stage_of_scales_is_refused_by_the_collective(config, tmp_path):
    """Both collectives static_assert DispatchPolicy::Stages >= 2: a shared scale layout of one stage is refused at
    both theorems, blaming `smem` (it was verified); two stages are verified."""
    m, n, k = config["tile"]
    for stages, refused in ((1, True), (2, False)):
        smem = json.dumps(str(BW.scale_smem(BW.scale_atom(1, k, m, k), stages)))
        r = prove(spec_text(config, "A", smem=smem), tmp_path)
        if not refused:
            assert r.verdict is Verdict.VERIFIED, failed(r)
            continue
        for t in r.theorems:
            if t.id.value in ("blockwise.load", "blockwise.read"):
                assert t.status is Status.REFUSED and t.reason.endswith("Stages set to value 1 or more."), t
                assert "stages" in t.items[0].witness.suspect.what, t.items[0].witness.suspect
