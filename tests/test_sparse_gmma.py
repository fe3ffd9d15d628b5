"""SM90 structured-sparse GEMM (wgmma.mma_async.sp): the metadata model (hardware/wgmma_sparse.py), CuTe's side of the
compressed A and the metadata (cute/sparse.py, the smem_mma kind's sparse A) against CUTLASS's own printed results
(tests/data/cute_sparse.json, tools/cute_dump/sparse.cu), theorems 27 and 28 (kinds/sparse) proving CUTLASS's
configurations and refuting broken ones, and the prescreen's mapping of SparseUniversal3x kernels
(prescreen/sm90_sparse.py)."""
import json
from dataclasses import replace
from pathlib import Path

import pytest

from verifier.algebra import functions as F
from verifier.algebra import parse_layout
from verifier.algebra.inttuple import Underscore
from verifier.algebra.layout import Layout, make_layout
from verifier.algebra.ops import coalesce
from verifier.algebra.swizzle import ComposedLayout
from verifier.algebra.types import type_bits
from verifier.cute import sparse as SP
from verifier.cute.copy import CopyAtom
from verifier.cute.mma import MMAAtom, TiledMMA
from verifier.hardware import wgmma_sparse as WS
from verifier.hardware.registry import mma_instruction_model, mma_instruction_types
from verifier.engine.proving import prove_check
from verifier.outcome import Status, Verdict
from verifier.prescreen import builders
from verifier.prescreen import run as command
from verifier.prescreen import sm90_sparse as PS
from verifier.prescreen.space import KernelConfig
from verifier.specfile import load_spec
from verifier.specfile.model import SpecError
from verifier.symbolic.expr import evaluate
from verifier.symbolic.procedure import Settings
from verifier.theorems.catalog import TheoremId

DATA = json.loads((Path(__file__).parent / "data" / "cute_sparse.json").read_text())
CONFIGS = DATA["configurations"]
BITS = {"f16": 16, "bf16": 16, "tf32": 32, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8}
T = TheoremId


def _ids(c: dict) -> str:
    return c["config"]


def kernel(config: dict, name: str = "k") -> KernelConfig:
    k = config["kernel"]
    return KernelConfig(name, 90, "SparseUniversal3x", "SparseTensorOp", tuple(config["tile"]), (4, 1, 1), (0, 0, 0),
                        k["element_a"], k["element_b"], k["element_acc"], k["layout_a"], k["layout_b"], k["align_a"],
                        k["align_b"], k["schedule"], 0)


def entries(check: PS.SparsePathCheck) -> dict[str, str]:
    return {k: json.loads(v) if v.startswith('"') else v for k, v in check.entries}


def values(layout: object) -> list[int]:
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    assert isinstance(inner, Layout)
    return [int(x) for x in inner.values()]


def tiled_mma(config: dict) -> TiledMMA:
    m, n, _ = config["tile"]
    bits = BITS[config["kernel"]["element_a"]]
    k = 512 // bits
    c = Layout(((4, 8, 4), (2, 2, n // 8)), ((128, 1, 16), (64, 8, 512)))
    atom = MMAAtom("sparse", (64, n, k), Layout(128, 1), Layout((128, (64, k)), (0, (1, 64))),
                   Layout((128, (n, k)), (0, (1, n))), c)
    warpgroups = 2 if "Cooperative" in config["kernel"]["schedule"] else 1
    return TiledMMA(atom, (warpgroups, 1, 1))


def auto_vectorizing(bits: int = 32):
    return CopyAtom("AutoVectorizingCopy", Layout(1, 0), Layout((1, 1), (0, 0)), Layout((1, 1), (0, 0)),
                    Layout((1, 1), (0, 0)), "AutoVectorizingCopy").with_value_bits(bits)


# --- the hardware model ---------------------------------------------------------------------------------------

def _meta(t: WS.SparseType, thread: int, bit: int) -> tuple[int, int]:
    """(row, row bit) the model gives bit `bit` of `thread`'s sp-meta."""
    mb = WS.meta_bit(t, thread, bit)
    return int(mb.row), int(mb.row_bit())


@pytest.mark.parametrize("atype", ["f16", "tf32", "e4m3"])
def test_the_model_is_the_sheets_formulas(atype):
    """The formulas of the research sheet (a Triton fork's reading of the figures, checked bit-exact on mma.sp
    hardware; OpenXLA's 16-bit lowering), written independently of the model: row and K per bit."""
    t = WS.sparse_type(atype)
    assert t is not None
    for thread in range(128):
        w, lane = thread // 32, thread % 32
        for bit in range(32):
            row, row_bit = _meta(t, thread, bit)
            if atype == "f16":     # row = 16w + lane/4 + 8(b>>4), nibble n covers k 16j+4n.., j = lane&1
                k = 16 * (lane & 1) + 4 * ((bit & 15) >> 2) + (bit & 3)
                assert (row, row_bit) == (16 * w + lane // 4 + 8 * (bit >> 4), k)
            elif atype == "tf32":  # the same lanes; nibble n covers the 2-chunk k 8j+2n..; 2 bits a logical k
                k = 8 * (lane & 1) + 2 * ((bit & 15) >> 2) + ((bit & 3) >> 1)
                assert (row, row_bit // 2, row_bit % 2) == (16 * w + lane // 4 + 8 * (bit >> 4), k, bit & 1)
            else:                  # row = 16w + lane/4 + 8(lane&1), bit b covers k 32((lane>>1)&1) + b
                assert (row, row_bit) == (16 * w + lane // 4 + 8 * (lane & 1), 32 * ((lane >> 1) & 1) + bit)


def test_the_16_bit_model_is_openxla_s_packing():
    """OpenXLA's Hopper lowering: thread (warp, lane) packs meta[row + 8] << 16 | meta[row] of row 16 warp + lane/4,
    16-bit column lane % 2 (16 logical K each)."""
    t = WS.sparse_type("bf16")
    assert t is not None
    for thread in range(128):
        warp, lane = thread // 32, thread % 32
        for bit in range(32):
            half, column = bit // 16, lane % 2
            assert _meta(t, thread, bit) == (16 * warp + lane // 4 + 8 * half, 16 * column + bit % 16)


@pytest.mark.parametrize("atype", ["f16", "tf32", "s8"])
def test_every_chunk_of_every_row_is_supplied_once_under_each_sp_sel(atype):
    t = WS.sparse_type(atype)
    assert t is not None
    for sel in t.sp_sels:
        seen: dict[tuple[int, int], int] = {}
        for thread in range(128):
            if not evaluate([WS.supplies(t, thread, sel)], {})[0]:
                continue
            for bit in range(32):
                key = _meta(t, thread, bit)
                seen[key] = seen.get(key, 0) + 1
        assert sorted(seen) == [(r, b) for r in range(64) for b in range(t.row_bits)]
        assert set(seen.values()) == {1}


def test_the_selectors_each_type_allows():
    f16, tf32, e4 = (WS.sparse_type(a) for a in ("f16", "tf32", "e5m2"))
    assert f16 and tf32 and e4
    assert WS.sp_sel_problem(f16, 1) is None and WS.sp_sel_problem(tf32, 0) is None
    assert "must be 0" in (WS.sp_sel_problem(e4, 1) or "")
    assert "undefined" in (WS.sp_sel_problem(f16, 2) or "") and "0..3" in (WS.sp_sel_problem(f16, 4) or "")
    assert (f16.k, f16.stored_k, tf32.k, tf32.stored_k, e4.k, e4.stored_k) == (32, 16, 16, 8, 64, 32)


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_cutlass_s_elayout_is_the_model_at_every_point(config):
    """CuTe's ELayout_64x{32,16,64} (thread, value) -> (m, k) against the model, every thread the sp-sel 0 reads."""
    t = WS.sparse_type(config["kernel"]["element_a"])
    assert t is not None
    elayout = parse_layout(config["elayout"])
    eb = t.bits_per_element
    for thread in range(128):
        if not evaluate([WS.supplies(t, thread, 0)], {})[0]:
            continue
        for bit in range(32):
            mk = int(elayout(thread, bit // eb))
            assert _meta(t, thread, bit) == (mk % 64, (mk // 64) * eb + bit % eb)


def test_the_sparse_instruction_s_model_and_types():
    model = mma_instruction_model("wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16", "X_SS")
    assert model is not None and model.shape_mnk == (64, 128, 32) and model.a.elements == 64 * 32
    assert mma_instruction_model("wgmma.mma_async.sp.sync.aligned.m64n128k16.f32.f16.f16", "X_SS") is None
    assert mma_instruction_model("wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16 {%0}, {%1}, %2", "X") is None
    assert mma_instruction_types("wgmma.mma_async.sp.sync.aligned.m64n64k64.s32.s8.u8")["b"] == "u8"
    assert WS.shape_problem("m64n40k64", "s8") is not None and WS.shape_problem("m64n48k64", "s8") is None
    assert (type_bits("sparse_elem<8,uint8_t>"), type_bits("cute::sparse_elem<4, uint8_t>"),
            type_bits("sparse_elem<2,half_t>")) == (1, 2, 8)


# --- CuTe's side against CUTLASS's own results ---------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_the_rules_write_cutlass_s_layouts_and_stages(config):
    kc = kernel(config)
    mapped = PS.map_sm90_sparse(kc)
    assert not isinstance(mapped, str), mapped
    a, b, e = mapped[0]
    bits = BITS[kc.element_a]
    assert PS.sparse_stages(kc.tile, bits, BITS[kc.element_b], SP.FORMATS[bits].e_bits) == config["stages"]
    for check, key in ((a, "smem_a"), (b, "smem_b"), (e, "smem_e")):
        mine, cutlass = parse_layout(entries(check)["smem"]), parse_layout(config[key])
        assert values(mine) == values(cutlass), key
        if isinstance(mine, ComposedLayout):
            assert (mine.a.B, mine.offset.bits) == (cutlass.a.B, cutlass.offset.bits), key
    cutlass_e = parse_layout(config["layout_e"])           # (M, K, L): one batch
    assert str(parse_layout(entries(e)["gmem"])) == str(make_layout(cutlass_e.mode(0), cutlass_e.mode(1)))
    cutlass_a = parse_layout(config["layout_a"])
    assert str(parse_layout(entries(a)["gmem"])) == str(make_layout(cutlass_a.mode(0), cutlass_a.mode(1)))
    assert str(parse_layout(PS.ELAYOUTS[bits])) == str(parse_layout(config["elayout"]))
    assert str(SP.tensor_e_atom(bits, kc.tile[2])) == config["tensor_e_atom"]
    assert a.mma.name.replace("GMMA::", "") in config["mma_op"].replace("cute::", "").replace("SM90::GMMA::", "")\
        .replace(" ", "").replace("SPARSE::", "SM90::SPARSE::").replace("<>", "")


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_the_stored_a_tile_is_cutlass_s_recast(config):
    """The smem_mma kind reads a sparse A's logical layouts recast to the stored elements: CuTe's recast_layout<
    sparse_elem<2,T>, T> of SmemLayoutA's stage 0 and of fill_layoutA."""
    kc = kernel(config)
    mapped = PS.map_sm90_sparse(kc)
    assert not isinstance(mapped, str)
    a = entries(mapped[0][0])
    stored = F.upcast(parse_layout(a["smem"]), 2)
    stage0 = stored.b.slice((Underscore, Underscore, 0))
    assert values(stage0) == values(parse_layout(config["a_raw_smem"]))
    cutlass = parse_layout(config["a_raw_gmem"])
    assert str(coalesce(F.upcast(parse_layout(a["gmem"]), 2), (1, 1))) == \
        str(coalesce(make_layout(cutlass.mode(0), cutlass.mode(1)), (1, 1)))


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_get_layout_e_tv_and_the_tiled_copy_are_cutlass_own(config):
    mma = tiled_mma(config)
    elayout = parse_layout(config["elayout"])
    assert values(SP.layout_e_tv(mma, elayout)) == values(parse_layout(config["layout_e_tv"]))
    copy = SP.tiled_copy_e(mma, elayout, auto_vectorizing())
    assert values(copy.layout_tv) == values(parse_layout(config["copy_e_layout_tv"]))
    assert f"(_{mma.tile_size(0)},_{mma.tile_size(2)})" == config["copy_e_tiler"]


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_each_thread_reads_and_registers_are_cutlass_own(config):
    """partition_S of SmemLayoutE (the shared offsets each thread's copy reads, stage 0), retile_D's register view
    of make_fragment_like(partition_E), recast<uint32_t> of each wgmma's metadata, partition_A's slices."""
    mma = tiled_mma(config)
    elayout = parse_layout(config["elayout"])
    copy = SP.tiled_copy_e(mma, elayout, auto_vectorizing())
    smem = parse_layout(config["smem_e"]).b
    stage0 = smem.slice((Underscore, Underscore, 0))
    reads = copy.tidfrg_S(smem)
    m, _, k = config["tile"]
    a_slices = mma.thrfrg(Layout((m, k)), "A")
    for t in config["threads_dumped"]:
        thread = t["thread"]
        mine, offset = reads.slice_and_offset((thread, Underscore, (Underscore, Underscore, 0)))
        assert [offset + v for v in values(mine)] == t["reads"], thread
        fragment = SP.register_fragment(mma, stage0, elayout, copy, thread)
        assert values(fragment) == values(parse_layout(t["tErE"])), thread
        bits = SP.FORMATS[BITS[config["kernel"]["element_a"]]].e_bits
        for w in t["words"]:
            assert w["registers"] == 1
            assert int(fragment(0, w["m_block"], w["k_block"])) * bits // 32 == w["register"]
        for o in t["a_origins"]:
            origin = int(a_slices((0, (thread // 128, 0)), (0, (o["m_block"], o["k_block"]))))
            assert (origin % m, origin // m) == (o["m"], o["k"])


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_the_metadata_tma_box_is_cutlass_own(config):
    """construct_tma_gbasis<uint64_t> of E: box, global extents and strides (CUTLASS's extra size-1 dimension for the
    batch mode L, stride 0, is not part of a check's rank-2 global tensor)."""
    kc = kernel(config)
    bits = BITS[kc.element_a]
    m, _, k = kc.tile
    atom = SP.tensor_e_atom(bits, k)
    assert isinstance(atom, Layout)
    stage0 = SP.smem_layout_e(atom, m, k, 1).slice((Underscore, Underscore, 0))
    tma = SP.metadata_tma(SP.fill_layout_e(atom, 2 * m, 2 * k), m, k, stage0, SP.FORMATS[bits].e_bits)
    assert isinstance(tma, SP.MetaTma), tma
    rank = config["e_tma_rank"] - 1
    assert config["e_tma_global_strides"][rank] == 0 and config["e_tma_global_dim"][rank] == 1
    assert list(tma.box) == config["e_tma_box"][:rank]
    assert list(tma.global_dim) == config["e_tma_global_dim"][:rank]
    assert list(tma.global_strides) == config["e_tma_global_strides"][:rank]


# --- the theorems ---------------------------------------------------------------------------------------------

ATOM = ("  \"{name}\":\n    instruction: wgmma.mma_async.sp.sync.aligned.m64n128k32.f32.f16.f16\n"
        "    shape_mnk: [64, 128, 32]\n    thr_id: \"128:1\"\n"
        "    types: {{a: half_t, b: half_t, c: float, d: float, e: \"{etype}\"}}\n"
        "    a: \"(128,(64,32)):(0,(1,64))\"\n    b: \"(128,(128,32)):(0,(1,128))\"\n"
        "    c: \"((4,8,4),(2,2,16)):((128,1,16),(64,8,512))\"\n    e: \"{e}\"\n    sp_sel: {sel}\n")
ELAYOUT_16 = PS.ELAYOUTS[16]
SMEM_E = "(((8,2,4),2),((16,2,2),1),(1,2)):(((64,16,1024),4096),((1,512,32),0),(0,8192))"
GMEM_E = "(((8,2,4),4),((16,2,2),2)):(((64,16,1024),4096),((1,512,32),16384))"
METADATA = ("  {name}:\n    metadata: A\n    mma: \"{atom}\"\n    atom_layout: [2, 1, 1]\n"
            "    copy: AutoVectorizingCopy\n    value_type: uint32_t\n    smem: \"{smem}\"\n    gmem: \"{gmem}\"\n")
A_CHECK = ("  {name}:\n    mma: \"{atom}\"\n    atom_layout: [2, 1, 1]\n    operand: A\n    copy: SM90_TMA_LOAD\n"
           "    value_type: half_t\n    smem: \"{smem}\"\n    gmem: \"(4096,(2,2048)):(4096,(1,2))\"\n")


def spec(tmp_path: Path, atoms: dict[str, dict], checks: str):
    text = ("version: 2\nname: sparse\ninclude: [\"cute-verifier:atoms/generic.yaml\"]\nmma_atoms:\n"
            + "".join(ATOM.format(name=n, **{"etype": "sparse_elem<8,uint8_t>", "e": ELAYOUT_16, "sel": 0, **a})
                      for n, a in atoms.items()) + "checks:\n" + checks)
    path = tmp_path / "sparse.yaml"
    path.write_text(text)
    return load_spec(str(path), allow_outside=True)


def prove(s, name):
    return prove_check(s, s.checks[name], Settings(cross_check=True))


def failed(r) -> dict:
    return {t.id: t for t in r.theorems if t.status is not Status.PROVED}


def test_cutlass_s_configuration_is_verified_and_broken_ones_refuted_at_their_theorem(tmp_path):
    # a register order off by one chunk: the ELayout's chunks 1 and 2 of each thread exchanged
    swapped = "((2,2,8,4),((4,2,2),2)):((1024,0,1,16),((64,512,256),8))"
    rows = "((2,2,8,4),(16,2)):((1024,0,2,16),(64,1))"          # rows g and g+8 exchanged with g's lanes
    pair_only = "((2,2,8,4),(16,2)):((1024,2048,1,16),(64,8))"   # no copy for the thread pair T2, T3
    atoms = {"good": {}, "chunks": {"e": swapped}, "rows": {"e": rows}, "sel2": {"sel": 2},
             "pair": {"e": pair_only, "sel": 1}, "etype": {"etype": "sparse_elem<4,uint8_t>"}, "sel1": {"sel": 1}}
    checks = "".join(METADATA.format(name=f"e_{n}", atom=n, smem=SMEM_E, gmem=GMEM_E) for n in atoms)
    checks += METADATA.format(name="e_overlap", atom="good", smem=SMEM_E.replace("8192))", "4096))"), gmem=GMEM_E)
    checks += A_CHECK.format(name="a_good", atom="good", smem="tile_to_shape(GMMA::Layout_K_SW64_SpAtom<half_t,2>, "
                                                                 "(128,64,4))")
    checks += A_CHECK.format(name="a_dense_k", atom="good", smem="tile_to_shape(GMMA::Layout_K_SW64_Atom<half_t>, "
                                                                   "(128,64,4))")
    s = spec(tmp_path, atoms, checks)
    good = prove(s, "e_good")
    assert good.verdict is Verdict.VERIFIED and [t.id for t in good.theorems][-2:] == [T.SPARSE_METADATA_TMA,
                                                                                       T.SPARSE_METADATA_READ]
    assert prove(s, "e_sel1").verdict is Verdict.VERIFIED          # CuTe's ELayout copies T0,T1's bits to T2,T3
    assert prove(s, "a_good").verdict is Verdict.VERIFIED
    for name, theorem, words in (("e_chunks", T.SPARSE_METADATA_READ, "holds the metadata of the row and chunk"),
                                 ("e_rows", T.SPARSE_METADATA_READ, "holds the metadata of the row and chunk"),
                                 ("e_sel2", T.SPARSE_METADATA_READ, "sparsity selector"),
                                 ("e_pair", T.SPARSE_METADATA_READ, "inside the 128x64 tile"),
                                 ("e_etype", T.SPARSE_METADATA_READ, "ValTypeE"),
                                 ("e_overlap", T.SPARSE_METADATA_TMA, "distinct shared positions"),
                                 ("a_dense_k", T.TMA_ENCODABLE, "units of 16 bits")):
        r = prove(s, name)
        bad = failed(r)
        assert r.verdict is Verdict.REFUTED and bad[theorem].status is Status.REFUTED, (name, bad)
        item = bad[theorem].first_failure()
        assert item is not None and (words in item.title or words in (item.witness.actual or "")), (name, item.title)
    chunks = failed(prove(s, "e_chunks"))[T.SPARSE_METADATA_READ].first_failure()
    assert chunks.witness.point["bit"] == 4 and chunks.witness.suspect.what.startswith("the E layout")


def test_a_metadata_check_needs_a_sparse_atom_and_its_units(tmp_path):
    with pytest.raises(SpecError, match="'sp_sel' of MMA atom 'x' is the sparsity selector, an integer in 0..3"):
        spec(tmp_path, {"x": {"sel": 9}}, "")
    dense = ATOM.format(name="dense", etype="", e="", sel=0).split("    e: ")[0].replace(', e: ""', "")
    path = tmp_path / "dense.yaml"
    path.write_text("version: 2\nname: d\ninclude: [\"cute-verifier:atoms/generic.yaml\"]\nmma_atoms:\n" + dense
                    + "checks:\n" + METADATA.format(name="e", atom="dense", smem=SMEM_E, gmem=GMEM_E))
    with pytest.raises(SpecError, match="no metadata layout 'e'"):
        load_spec(str(path), allow_outside=True)
    bad = METADATA.format(name="e", atom="good", smem="Sw<0,4,3> o smem_sparse<4>_ptr[8b](unset) o " + SMEM_E,
                          gmem=GMEM_E)
    with pytest.raises(SpecError, match="2-bit elements"):
        spec(tmp_path, {"good": {}}, bad)


def test_explain_traces_a_metadata_bit(tmp_path, capsys):
    from verifier.commands.cli import main
    spec(tmp_path, {"good": {}}, METADATA.format(name="e", atom="good", smem=SMEM_E, gmem=GMEM_E))
    assert main(["explain", str(tmp_path / "sparse.yaml"), "--check", "e", "--lane", "5", "--value", "17",
                 "--instance", "0,1", "--allow-outside"]) == 0
    out = capsys.readouterr().out
    assert "tile element (m 9, k 49)" in out and "bit 1 of chunk 4 (K 48..51) of row 9: row bit 49" in out


# --- the prescreen ------------------------------------------------------------------------------------------

SPARSE = KernelConfig("sp", 90, "SparseUniversal3x", "SparseTensorOp", (128, 128, 64), (4, 1, 1), (0, 0, 0), "f16",
                      "f16", "f32", "RowMajor", "ColumnMajor", 16, 8, "ScheduleAuto", 0)


def test_a_sparse_kernel_maps_to_its_compressed_a_b_and_metadata():
    m = builders.map_sm90(SPARSE)
    assert isinstance(m, builders.Mapped) and m.how.startswith("TmaWarpSpecializedCooperative,")
    a, b, e = m.checks
    assert isinstance(a, PS.SparsePathCheck) and [c.operand for c in m.checks] == ["A", "B", "E"]
    assert a.mma.name == "SM90::GMMA::SPARSE::GMMA_64x128x32_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
    assert entries(a)["smem"].startswith("tile_to_shape(GMMA::Layout_K_SW64_SpAtom<half_t,2>, (128,64,")
    assert entries(b)["smem"].startswith("tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,")
    assert entries(e)["metadata"] == "A" and entries(e)["copy"] == "AutoVectorizingCopy"
    pingpong = builders.map_sm90(replace(SPARSE, tile=(64, 128, 64)))
    assert isinstance(pingpong, builders.Mapped) and "Pingpong" in pingpong.how and "[1, 1, 1]" in dict(
        pingpong.checks[0].entries)["atom_layout"]
    mn = builders.map_sm90(replace(SPARSE, layout_a="ColumnMajor", tile=(128, 128, 64)))
    assert isinstance(mn, builders.Mapped) and entries(mn.checks[0])["smem"].startswith(
        "tile_to_shape(GMMA::Layout_MN_SW128_SpAtom<half_t,2>, (128,64,") and entries(mn.checks[0])["smem"].endswith(
        ", (2,1,3))")


@pytest.mark.parametrize("change, words", [
    ({"opcode": "TensorOp"}, "not built by the SM90 sparse collective builder"),
    ({"element_a": "tf32", "element_b": "tf32", "layout_a": "ColumnMajor"}, "sparse A sourced from RF"),
    ({"schedule": "TmaWarpSpecializedCooperativeFP8FastAccum"}, "Only FP8 datatypes"),
    ({"align_a": 4}, "TMA alignment"),
    ({"tile": (128, 128, 48)}, "Tile_K of 32"),
    ({"schedule": "CpAsyncWarpSpecialized"}, "not one of the sparse builder's"),
])
def test_sparse_kernels_outside_the_builder_are_not_mapped_with_a_reason(change, words):
    m = builders.map_sm90(replace(SPARSE, **change))
    assert isinstance(m, builders.Unmapped) and words in m.reason, m


def test_the_mapped_paths_are_proved_and_a_wrong_rule_refuted(monkeypatch, tmp_path):
    space = [replace(SPARSE, name="f16"), replace(SPARSE, name="e4m3", element_a="e4m3", element_b="e4m3",
                                                   tile=(128, 128, 128), align_a=32, align_b=16,
                                                   schedule="TmaWarpSpecializedPingpongFP8FastAccum"),
             replace(SPARSE, name="tf32", element_a="tf32", element_b="tf32", tile=(64, 128, 32), align_a=8,
                     align_b=4)]
    monkeypatch.setattr(command, "kernels", lambda arch, level: space)
    results, mapped, paths, _ = command.run(90, "", 1, tmp_path)
    assert mapped == 3 and paths == (9, 9) and [r.verdict for r in results] == [Verdict.VERIFIED] * 3
    # the tf32 atom's ELayout given to the 16-bit atoms: their metadata is refuted
    monkeypatch.setitem(PS.ELAYOUTS, 16, PS.ELAYOUTS[32].replace("(8,2)", "(16,2)"))
    results, _, _, _ = command.run(90, "", 1, tmp_path)
    by_name = {r.name: r for r in results}          # (a report lists a space's kernels by name)
    assert [by_name[k].verdict for k in ("f16", "e4m3", "tf32")] == [Verdict.REFUTED, Verdict.VERIFIED,
                                                                      Verdict.VERIFIED]
    assert any(t.id is T.SPARSE_METADATA_READ and t.status is Status.REFUTED for t in by_name["f16"].theorems)


# --- import-cutlass: the sparse GMMA atoms ------------------------------------------------------------------

def _wheel_include() -> Path:
    import importlib.util
    found = importlib.util.find_spec("cutlass_library")
    return Path(found.origin).parent / "source" / "include" if found and found.origin else Path("/nonexistent")


WHEEL_INCLUDE = _wheel_include()


@pytest.mark.skipif(not (WHEEL_INCLUDE / "cute/atom/mma_traits_sm90_gmma_sparse.hpp").exists(),
                    reason="the nvidia-cutlass wheel's headers are not installed in .venv")
def test_import_cutlass_reads_the_sparse_gmma_atoms_with_their_metadata(tmp_path):
    from verifier.importer.headers import import_cutlass
    report = import_cutlass(str(WHEEL_INCLUDE), str(tmp_path), 1)
    assert not [f for f in report.failures if "mma_traits_sm90_gmma_sparse" in f.header]
    files = sorted(p.name for p in tmp_path.glob("sm90_gmma_sparse*.yaml"))
    assert files == ["sm90_gmma_sparse.yaml", "sm90_gmma_sparse_ext.yaml", "sm90_gmma_sparse_ext_2.yaml"]
    s = load_spec(str(tmp_path / "sm90_gmma_sparse.yaml"), allow_outside=True)
    ss = s.mma_atoms["SM90::GMMA::SPARSE::GMMA_64x128x32_F32F16F16_SS"]
    assert str(ss.e) == str(parse_layout(PS.ELAYOUTS[16]))
    assert ss.types["e"].bits == 1 and ss.types["a"].name == "half_t"
    tf32 = s.mma_atoms["SM90::GMMA::SPARSE::GMMA_64x128x16_F32TF32TF32_SS_TN"]
    assert tf32.types["e"].bits == 2 and str(tf32.e) == str(parse_layout(PS.ELAYOUTS[32]))
    for name in ("SM90::GMMA::SPARSE::GMMA_64x128x32_F32F16F16_SS", "SM90::GMMA::SPARSE::GMMA_64x64x64_S32S8U8_SS_TN",
                 "SM90::GMMA::SPARSE::GMMA_64x8x16_F32TF32TF32_SS_TN"):
        r = prove_check(s, s.checks[name], Settings(cross_check=True))
        assert r.verdict is Verdict.VERIFIED and r.ok, name
    rs = prove_check(s, s.checks["SM90::GMMA::SPARSE::GMMA_64x128x32_F32F16F16_RS"], Settings())
    assert rs.verdict is Verdict.UNSUPPORTED and rs.ok and rs.expect == "unsupported"
    assert len(load_spec(str(tmp_path / "sm90_gmma_sparse_ext_2.yaml"), allow_outside=True).checks) == 224


def test_sp_meta_registers_of_a_fragment() -> None:
    """recast<uint32_t> of each wgmma's metadata: one aligned run of 32 bits a wgmma, or why not; computed once a
    fragment (the checks of one tiled MMA share it)."""
    from verifier.algebra.layout import Layout
    from verifier.kinds.sparse.setup import _words
    # 16 values of 2 bits a wgmma, 2 M repeats x 2 k-blocks, contiguous: registers 0..3
    frag = Layout((16, 2, 2), (1, 16, 32))
    found, problem = _words(frag, 16, 2)
    assert problem is None and dict(found) == {(0, 0): 0, (1, 0): 1, (0, 1): 2, (1, 1): 3}
    assert _words(Layout((16, 2, 2), (1, 16, 32)), 16, 2) == (found, problem)     # the same fragment: remembered
    assert _words.cache_info().hits >= 1
    # the k-blocks interleaved with the values: no run of 16 contiguous elements
    _, problem = _words(Layout((16, 2, 2), (2, 32, 1)), 16, 2)
    assert problem is not None and "not one aligned run of 16" in problem
    # 8 values where a register holds 16
    _, problem = _words(Layout((8, 2), (1, 8)), 16, 2)
    assert problem is not None and "holds 8 logical elements of 2 bits, not the 16" in problem


def test_the_sm90_sparse_collectives_asserts_refuse_the_metadata_path():
    """tests/specs/sparse_collective_asserts.yaml: one stage (Stages >= 2) and a 16-deep tile of 16-bit A
    (Sm90GemmSparseConfig's MinTileShapeK 16 against BlockK 32), a 192-deep s8 tile and a 32-row one (SmemLayoutE's
    tile_to_shape of TensorEAtom, 64 x min(BLK_K, 128)) and an RS sparse atom (the mainloop is SS only) are refused
    at theorems 27 and 28 by the collective's rule,
    blaming the shared tile (they were verified and unsupported); two stages of a 64-deep tile, and a 128-deep s8
    tile, are verified."""
    from verifier.engine.runner import run_check
    from verifier.outcome import Status, Verdict
    from verifier.specfile import load_spec
    spec = load_spec(Path(__file__).parent / "specs" / "sparse_collective_asserts.yaml")
    results = {name: run_check(spec, check) for name, check in spec.checks.items()}
    assert results["two_stages"].verdict is Verdict.VERIFIED and results["s8_tile_k_128"].verdict is Verdict.VERIFIED
    tile_to_shape = "tile_to_shape: block shape does not divide the target shape."
    for name, rule in (("one_stage", "Specialization requires Stages set to value 2 or more."),
                       ("tile_k_16", "MinTileShapeK must be a multiple of BlockK"),
                       ("s8_tile_k_192", tile_to_shape), ("tile_m_32", tile_to_shape),
                       ("rs_atom", "MMA atom must source both A and B operand from smem_desc for this mainloop.")):
        refused = [t for t in results[name].theorems if t.status is Status.REFUSED]
        assert {t.id.value for t in refused} == {"sparse.metadata_tma", "sparse.metadata_read"}, name
        assert all(t.reason == f"CuTe refuses it: {rule}" and t.items[0].witness.suspect.what.startswith(
            "the shared metadata tile") for t in refused), name
    # Sm90GemmSparseConfig's static_assert on the atom's ValTypeE (uint8_t, no sparse_elem): the atom is blamed
    refused = [t for t in results["e_type_not_sparse_elem"].theorems if t.status is Status.REFUSED]
    assert {t.id.value for t in refused} == {"sparse.metadata_tma", "sparse.metadata_read"}
    assert all(t.reason == "CuTe refuses it: ElementEMma MUST be sparse elem" and t.items[0].witness.suspect.what
               .startswith("the sparse MMA atom") for t in refused)


def test_make_tma_copy_s_static_asserts_refuse_the_metadata_load():
    """construct_tma_gbasis's static_asserts (tests/specs/sparse_collective_asserts.yaml): a stage whose first run
    steps no global mode by one element ("Could not find a common tile-gmem vectorization ...") and a run that is
    no whole number of uint64 TMA elements (upcast's "Divisibility condition", CUTLASS's own 96-deep f16 tile) are
    refused at theorem 27 (they were refuted); a box whose first dimension is not the global tensor's stride-1 mode
    is the host's run-time assert, a reason the theorem refutes, not a refusal."""
    from verifier.cute.tma_basis import DIVISIBILITY_RULE, NO_VECTORIZATION_RULE, TmaRefused, construct_tma_gbasis
    from verifier.algebra.layout import Layout
    from verifier.engine.runner import run_check
    from verifier.outcome import Status
    from verifier.specfile import load_spec
    spec = load_spec(Path(__file__).parent / "specs" / "sparse_collective_asserts.yaml")
    for name, rule in (("k_interleaved", NO_VECTORIZATION_RULE), ("tile_k_96", DIVISIBILITY_RULE)):
        r = run_check(spec, spec.checks[name])
        statuses = {t.id.value: t for t in r.theorems}
        assert statuses["sparse.metadata_tma"].status is Status.REFUSED, name
        assert statuses["sparse.metadata_tma"].reason == f"CuTe refuses it: {rule}", name
    runtime = construct_tma_gbasis(Layout((64, 128), (128, 1)), 64, 128, Layout((64, 128), (1, 64)), 8, 64)
    assert isinstance(runtime, str) and "contiguous elements" in runtime
    assert not isinstance(runtime, TmaRefused)
