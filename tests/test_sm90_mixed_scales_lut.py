"""SM90 mixed-input GEMMs whose scales are lookup tables (the generator's int4 x e4m3 / e5m2 ScaleOnly kernels: A of
cute::tuple<int4b_t, cutlass::Array<Wide, 8>>, CUTLASS's UseScaleLookupTable): theorem 31 for 64-bit tables and the
lookup-table form of theorem 32 against CUTLASS 4.2's own results (tests/data/cute_mixed_scales_lut.json,
tools/cute_dump/mixed_scales_lut.cu: the slots of the negative and positive tables lookup_table_convert converts every
A element of every k-block with), the prescreen's rules for those kernels, and broken configurations refuted or
refused with CUTLASS's rule."""
from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from verifier.algebra.inttuple import Underscore
from verifier.algebra.layout import Layout
from verifier.algebra.syntax import parse_layout
from verifier.cute import blockwise as BW
from verifier.cute import mixed_input as MI
from verifier.cute.convert import lookup_table_conversion, register_conversion
from verifier.cute.tensor import Tensor
from verifier.cute.tma_basis import NO_VECTORIZATION_RULE
from verifier.engine.runner import run_check
from verifier.kinds.mixed_scale import setup as mixed_setup
from verifier.kinds.mixed_scale.config import MixedScaleCheck
from verifier.kinds.mixed_scale.kind import build_setup
from verifier.kinds.mixed_scale.setup import MixedScaleSetup
from verifier.outcome import Status, Verdict
from verifier.prescreen import run as command
from verifier.prescreen import sm90_mixed_scales as rules
from verifier.prescreen.builders import SWIZZLE_ALIGN_BYTES, Mapped, MMAAtomFacts, OperandCheck, map_sm90
from verifier.prescreen.sm90_mixed_scales import MixedScalePathCheck
from verifier.prescreen.space import KernelConfig
from verifier.specfile import SpecError, load_spec
from verifier.symbolic.expr import Expr, evaluate
from verifier.theorems.catalog import TheoremId
from verifier.theorems.result import CheckResult

from test_sm90_mixed_scales import model_reads     # mixed_scales_lut.cu copies stage 1 too (DUMPED_STAGE)

T = TheoremId
DATA = json.loads((Path(__file__).parent / "data" / "cute_mixed_scales_lut.json").read_text(encoding="utf-8"))
CONFIGS = DATA["configs"]
IDS = [c["config"] for c in CONFIGS]
TABLE_BITS = 64                     # cutlass::Array<float_e4m3_t, 8>
NARROW_BITS, WIDE_BITS = 4, 8
COOP, PINGPONG, WS = "TmaWarpSpecializedCooperative", "TmaWarpSpecializedPingpong", "TmaWarpSpecialized"


def _kernel(name: str, b: str, tile: tuple[int, int, int], schedule: str) -> KernelConfig:
    """A generator lookup-table kernel: s4 A (align 32), e4m3 / e5m2 B (align 16), ScaleOnly, cluster 1x2x1."""
    return KernelConfig(name, 90, "Universal3x", "TensorOp", tile, (4, 1, 1), (0, 0, 0), "s4", b, "f32", "RowMajor",
                        "ColumnMajor", 32, 16, schedule, 0, (1, 2, 1), "", "ScaleOnly", False)


def _dumped_kernel(config: dict) -> KernelConfig:
    k = config["kernel"]
    return _kernel(config["config"], k["element_b"], tuple(k["tile"]), k["schedule"])


E4M3_COOP = _kernel("s4_e4m3_scl_128", "e4m3", (128, 128, 128), COOP)


def _mapped(kc: KernelConfig) -> Mapped:
    m = map_sm90(kc)
    assert isinstance(m, Mapped), m
    return m


def _scale_path(kc: KernelConfig, **changes: str) -> MixedScalePathCheck:
    path = next(c for c in _mapped(kc).checks if isinstance(c, MixedScalePathCheck))
    return replace(path, entries=tuple({**dict(path.entries), **changes}.items()))


def _spec_file(tmp_path: Path, path: object, kc: KernelConfig) -> Path:
    out = tmp_path / "lut.yaml"
    out.write_text(command.spec_text(90, {path: "c"}, {path: kc}, {path: 1}, "lut"), encoding="utf-8")   # type: ignore[dict-item]
    return out


def _setup(tmp_path: Path, kc: KernelConfig) -> MixedScaleSetup:
    spec = load_spec(_spec_file(tmp_path, _scale_path(kc), kc), allow_outside=True)
    check = spec.checks["c"]
    assert isinstance(check, MixedScaleCheck)
    return build_setup(spec, check)


def _prove(tmp_path: Path, path: object, kc: KernelConfig = E4M3_COOP) -> CheckResult:
    spec = load_spec(_spec_file(tmp_path, path, kc), allow_outside=True)
    return run_check(spec, spec.checks["c"])


def _at(e: Expr) -> int:
    return int(evaluate([e], {})[0])


def _theorem(r: CheckResult, tid: TheoremId):
    return next(t for t in r.theorems if t.id is tid)


def _failing(r: CheckResult, tid: TheoremId):
    return next(i for i in _theorem(r, tid).items if i.status.refutes)


# --- CuTe's objects, against CUTLASS's ---------------------------------------------------------------------------

@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_the_rules_build_cutlass_s_table_tile_stages_buffers_and_tma(config):
    """The builder's stage count with 64-bit tables, SmemLayoutScale, the TensorStorage offsets (smem_zero after
    BLK_M x stages tables of 8 bytes), the box construct_tma_gbasis<uint64_t> derives and the transaction bytes."""
    kc = _dumped_kernel(config)
    m = _mapped(kc)
    assert f"{config['stages']} stages" in m.how and "by lookup tables of the scales" in m.how
    (path,) = [c for c in m.checks if isinstance(c, MixedScalePathCheck)]
    entries = dict(path.entries)
    assert entries["conversion"] == "lookup_table" and config["scale_bits"] == TABLE_BITS
    assert json.loads(entries["value_type"]) == config["element_scale"].replace("cutlass::", "").replace(
        "Array<float", "cutlass::Array<float")
    smem = parse_layout(json.loads(entries["smem"]))
    assert smem == parse_layout(config["smem_scale"])
    aligns = [SWIZZLE_ALIGN_BYTES[c.smem.split("Layout_K_")[1].split("_Atom")[0]] for c in m.checks
              if isinstance(c, OperandCheck) and c.copy == "SM90_TMA_LOAD"]
    store = rules.storage(kc.tile, config["stages"], NARROW_BITS, WIDE_BITS, TABLE_BITS, aligns[0], aligns[1])
    dumped = config["storage"]
    assert (store.smem_b, store.smem_scale, store.smem_zero, store.align) == (
        dumped["smem_b"], dumped["smem_scale"], dumped["smem_zero"], dumped["align"])
    assert int(entries["smem_align"]) == min(dumped["align"], dumped["smem_scale"] & -dumped["smem_scale"])
    global_m, columns = config["scale_tma_global_dim"][:2]
    tma = BW.scale_tma(MI.scale_global(global_m, columns), smem.slice((Underscore, Underscore, 0)), kc.tile[0], 1,
                       config["scale_tma_type_bits"] // 8)
    assert not isinstance(tma, str), tma
    assert (list(tma.box), list(tma.global_dim), list(tma.global_strides)) == (
        config["scale_tma_box"][:2], [global_m, columns], config["scale_tma_global_strides"][1:2])
    assert config["tx_bytes"][2] == int(smem.mode(0).size()) * TABLE_BITS // 8
    # A's checks convert by the tables: a conversion of the lookup-table mode only
    a_checks = [c for c in m.checks if isinstance(c, OperandCheck) and c.operand == "A"]
    assert len(a_checks) == 2 and all(c.conversion == "lookup_table" and c.smem_type == "int4b_t" for c in a_checks)
    wide = f"float_{kc.element_b}_t"
    assert lookup_table_conversion("int4b_t", wide) is not None and register_conversion("int4b_t", wide) is None


@pytest.mark.parametrize("config", CONFIGS, ids=IDS)
def test_every_table_lookup_is_cutlass_s_for_every_dumped_thread_and_k_block(config, tmp_path):
    """tCrS_neg and its copy view, the load buffer's chunk, and for every k-block and A element of each dumped thread:
    the (m, k) the RS wgmma reads there, the slot of the negative table lookup_table_convert takes for it (the k-block
    0 copy's last write of that register) and that its positive table is the one derived from the same register at
    k-block 0 -- as CUTLASS's code, run on the host, gives them."""
    setup = _setup(tmp_path, _dumped_kernel(config))
    r, lk = setup.registers, setup.lookup
    assert r is not None and lk is not None and setup.reading is not None and setup.a_load is not None
    assert (r.fragment, r.copy_view) == (parse_layout(config["frag_scale"]), parse_layout(config["copy_view_scale"]))
    load = parse_layout(config["frag_load"])
    assert setup.a_load.mode(0) == load.mode(0)         # mode 0 compact whatever SmemLayoutA: the chunks' positions
    assert setup.threads == config["threads"] and setup.a_fragment[2] == config["k_blocks"]
    derived = {int(v) for v in r.read_view.values()}    # the registers k-block 0 derives a positive table in
    for dumped in config["threads_dumped"]:
        assert setup.reading.partition(Tensor(0, setup.check.smem), "A", dumped["thread"]).layout == \
            parse_layout(dumped["scale_layout"])
        for read in model_reads(setup, dumped):
            assert read.mk == read.dumped[:2]
            negative, positive = read.dumped[2:]
            assert read.slot == negative
            assert positive == negative and read.register in derived


# --- the prescreen -------------------------------------------------------------------------------------------------

def test_the_generator_s_lookup_table_kernels_are_mapped():
    """The generator's 20 int4 x 8-bit float kernels (ScaleOnly only) map, each with a lookup-table scale check."""
    from verifier.prescreen.space import generate
    luts = [kc for kc in generate(90) if kc.element_a == "s4" and kc.element_b in ("e4m3", "e5m2")]
    assert len(luts) == 20 and {kc.mixed_mode for kc in luts} == {"ScaleOnly"}
    for kc in luts:
        scales = [c for c in _mapped(kc).checks if isinstance(c, MixedScalePathCheck)]
        assert [dict(c.entries)["conversion"] for c in scales] == ["lookup_table"]


def test_a_lookup_table_kernel_is_proved(monkeypatch, tmp_path):
    monkeypatch.setattr(command, "kernels", lambda arch, level: [E4M3_COOP])
    results, mapped, _, _ = command.run(90, "", 1, tmp_path)
    assert mapped == 1 and [r.verdict for r in results] == [Verdict.VERIFIED]
    assert {T.MIXED_SCALE_LOAD, T.MIXED_SCALE_READ, T.COPY_VALUE_TYPE} <= {t.id for t in results[0].theorems}


# --- refutations and refusals ----------------------------------------------------------------------------------------

def test_tables_shared_by_fewer_than_four_adjacent_weights_are_refused_by_static_check_scale(tmp_path):
    """The tables on a 16-bit RS wgmma (the s8 x f16 kernel's atom): an f16 A fragment keeps 2 values of a row
    together, so flatten(tCrS_neg(_,_,k_block))'s first mode is 2:0 -- CUTLASS's static_check_scale refuses it."""
    kc = replace(E4M3_COOP, name="s8_f16", element_a="s8", element_b="f16", align_a=16, align_b=8, tile=(128, 128, 64))
    path = next(c for c in _mapped(kc).checks if isinstance(c, MixedScalePathCheck))
    lut = replace(path, entries=tuple({**dict(path.entries), "value_type": json.dumps("cutlass::Array<half_t, 4>"),
                                       "conversion": "lookup_table"}.items()))
    r = _prove(tmp_path, lut, kc)
    read = _theorem(r, T.MIXED_SCALE_READ)
    assert r.verdict is Verdict.REFUTED and read.status is Status.REFUSED
    assert "At least 4 adjacent weights in a thread must share the same scale." in read.reason


def test_a_scale_fragment_whose_k_blocks_are_not_broadcast_is_refuted_at_the_positive_tables(monkeypatch, tmp_path):
    """A rule giving tCrS a k-block mode of stride 2 (its own registers per k-block) and a copy that fills all of
    them: k-block 1 reads tables in registers 2 and 3, filled by the copy, but dequantize_A_kblock derived the
    positive tables at k-block 0 only, in registers 0 and 1."""
    real = MI.scale_registers

    def k_strided(mma, stage0, atom):
        good = real(mma, stage0, atom)
        assert good.fragment == parse_layout("((_4,_2,_2),_1,_1):((_0,_1,_0),_0,_0)")    # CuTe's, this tile
        # tCrS: k-block kb in registers 2 kb, 2 kb + 1   // (FrgV, MMA_M, k_block) -> register
        fragment = Layout(((4, 2, 2), 1, 4), ((0, 1, 0), 0, 2))
        # the copy: value (j, row half, k half) -> register 2 j + row half: every register, with its row's table
        everything = Layout(((1, (4, 2, 2)), 1, 1), ((0, (2, 1, 0)), 0, 0))
        return replace(good, fragment=fragment, copy_view=everything)
    monkeypatch.setattr(mixed_setup.MI, "scale_registers", k_strided)
    r = _prove(tmp_path, _scale_path(E4M3_COOP))
    assert r.verdict is Verdict.REFUTED and _theorem(r, T.MIXED_SCALE_READ).status is Status.REFUTED
    item = _failing(r, T.MIXED_SCALE_READ)
    assert "derived at k-block 0" in item.title
    assert item.witness.point == {"value": 0, "k_block": 1}


def test_a_scale_tile_with_rows_exchanged_is_refused_at_the_load(tmp_path):
    """SmemLayoutScale with its row modes exchanged ((8,16):(16,1): row m in slot 16 (m % 8) + m / 8): the stage's
    first run of slots steps the global rows by 8, so make_tma_copy's construct_tma_gbasis static_asserts (nvcc says
    so: tests/data/cute_tma_basis_refusals.txt, scale_rows_exchanged); theorem 31 is refused with that rule, and the
    read, which follows the same layout, holds."""
    swapped = _scale_path(E4M3_COOP, smem=json.dumps("((_8,_16),(_1,_1),(_1,_9)):((_16,_1),(_0,_0),(_0,_128))"))
    r = _prove(tmp_path, swapped)
    load = _theorem(r, T.MIXED_SCALE_LOAD)
    assert r.verdict is Verdict.REFUTED and load.status is Status.REFUSED
    assert load.reason == f"CuTe refuses it: {NO_VECTORIZATION_RULE}"
    assert _theorem(r, T.MIXED_SCALE_READ).status is Status.PROVED


def test_a_scale_tensor_whose_rows_are_not_contiguous_is_refuted_at_the_load(tmp_path):
    """The global scales K-major ((256,32):(32,1)): the box CuTe derives starts along the rows, stride 32, which
    compiles (scale_k_major_global) and fails the host's run-time check: refuted at theorem 31, never refused."""
    k_major = _scale_path(E4M3_COOP, gmem=json.dumps("(_256,_32):(_32,_1)"))
    r = _prove(tmp_path, k_major)
    load = _theorem(r, T.MIXED_SCALE_LOAD)
    assert r.verdict is Verdict.REFUTED and load.status is Status.REFUTED
    assert "one TMA box" in _failing(r, T.MIXED_SCALE_LOAD).title


def test_tables_of_the_wrong_element_type_and_atoms_of_the_wrong_register_order_are_refuted(tmp_path):
    e5m2_tables = _prove(tmp_path, _scale_path(E4M3_COOP, value_type=json.dumps("cutlass::Array<float_e5m2_t, 8>")))
    assert e5m2_tables.verdict is Verdict.REFUTED
    assert "8 values of the MMA's A type" in _failing(e5m2_tables, T.MIXED_SCALE_READ).title
    # an RS atom whose A fragment exchanges m + 8 with k + 16 (its values 4..7 and 8..11): the table CuTe partitions
    # for value 4 (row g + 8's) is the one lookup_table_convert uses for it, but the wgmma reads row g there
    path = _scale_path(E4M3_COOP)
    wrong = MMAAtomFacts(path.mma.name, tuple((k, '"((4,8,4),(4,2,2)):((256,1,16),(64,1024,8))"' if k == "a" else v)
                                              for k, v in path.mma.fields))
    r = _prove(tmp_path, replace(path, mma=wrong))
    assert r.verdict is Verdict.REFUTED and _theorem(r, T.MIXED_SCALE_READ).status is Status.REFUTED
    w = _failing(r, T.MIXED_SCALE_READ).witness
    assert (w.point["thread"], w.point["value"], w.point["k_block"]) == (0, 4, 0)
    assert (w.values["m"], w.values["slot copied into it"], w.values["slot of row m"]) == (8, 0, 8)


def test_bad_lookup_table_checks_are_spec_errors_and_a_non_int4_a_is_refused(tmp_path):
    for changes, words in (({"conversion": "table"}, "must be one of lookup_table"),
                           ({"mixed_scales": "zero"}, "the lookup tables are scales")):
        with pytest.raises(SpecError) as info:
            load_spec(_spec_file(tmp_path, _scale_path(E4M3_COOP, **changes), E4M3_COOP), allow_outside=True)
        assert words in str(info.value) and "lut.yaml:" in str(info.value)
    plain = _scale_path(E4M3_COOP)
    plain = replace(plain, entries=tuple((k, v) for k, v in plain.entries if k != "conversion"))
    with pytest.raises(SpecError) as info:
        load_spec(_spec_file(tmp_path, plain, E4M3_COOP), allow_outside=True)
    assert "conversion: lookup_table" in str(info.value)
    # A's load into registers says lookup_table for a uint4b_t tile: CUTLASS's static_assert refuses it
    a_load = next(c for c in _mapped(E4M3_COOP).checks if isinstance(c, OperandCheck) and c.copy != "SM90_TMA_LOAD"
                  and c.operand == "A")
    u4 = replace(a_load, value_type="uint4b_t", smem_type="uint4b_t",
                 smem=a_load.smem.replace("<int4b_t>", "<uint4b_t>"))
    r = _prove(tmp_path, u4)
    value_type = _theorem(r, T.COPY_VALUE_TYPE)
    assert value_type.status is Status.REFUSED and "int4 being the quant type" in value_type.reason
    no_table = replace(a_load, conversion=None)
    assert _theorem(_prove(tmp_path, no_table), T.COPY_VALUE_TYPE).status is Status.UNSUPPORTED


def test_explain_traces_an_a_element_to_its_table(capsys):
    """Thread 130 (warpgroup 1, lane 2), element 5 of k-block 1 of the catalog's s4 x e4m3 kernel: the wgmma reads
    A(72, 41) there; lookup_table_convert takes it from table 1 of chunk 0, the register filled from slot 200, row 72's
    of stage 1."""
    from verifier.commands.cli import main
    catalog = str(Path(__file__).parent.parent / "specs" / "catalog" / "sm90_mixed_scales.yaml")
    assert main(["explain", catalog, "--check", "s4_e4m3_128x128x128_cooperative_lookup_tables", "--lane", "130",
                 "--value", "5", "--instance", "1", "--stage", "1"]) == 0
    out = capsys.readouterr().out
    assert "A register 5 of k-block 1 is value 5 of M block 0: A(72, 41)" in out
    assert "chunk 0 position 5: lookup_table_convert's table 1 = tCrS_neg / tCrS_pos register 1" in out
    assert "from slot 200" in out and "row 72's slot: SmemLayoutScale(72, 0, 1) = 200" in out
