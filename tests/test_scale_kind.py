"""Theorems 24-26 (kinds/scale): a block-scaled MMA's scale factors from the global SF tensor to the byte the tensor
core multiplies by.

CuTe's side (verifier/cute/blockscaled.py) is checked against CUTLASS's own results (tests/data/cute_blockscaled.json:
its collective builder compiled on the host and its layouts printed, tools/cute_dump/blockscaled.cu); the theorems
prove the configurations CUTLASS builds and refute each broken one with the field to blame."""
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from verifier.algebra import parse_layout
from verifier.algebra.inttuple import Underscore
from verifier.algebra.layout import make_layout
from verifier.cute import blockscaled as BS
from verifier.engine.proving import prove_check
from verifier.hardware import tcgen05_cp as CP
from verifier.hardware import umma_scale as US
from verifier.hardware.umma_desc import UmmaDescriptor
from verifier.outcome import Status, Verdict
from verifier.specfile import load_spec
from verifier.symbolic.procedure import Settings

DATA = json.loads((Path(__file__).parent / "data" / "cute_blockscaled.json").read_text())
CASES = [(c, op) for c in DATA["configurations"] for op in c["operands"]]


def _id(case: tuple[dict, str]) -> str:
    return f"{case[0]['config']} SF{case[1]}"


def _shape(config: dict, op: str) -> BS.SfShape:
    """The SF tile CUTLASS builds: A's rows per CTA, or all of N rounded up to 128 for B."""
    rows = config["mma_m"] // config["ctas"] if op == "A" else -(-config["mma_n"] // 128) * 128
    return BS.SfShape(rows, config["k_mma"], config["vs"], config["tile_k"])


# --- CuTe's side against CUTLASS's own results ---------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_the_layouts_are_cutlass_own(case):
    config, op = case
    want = config["operands"][op]
    shape = _shape(config, op)
    assert str(BS.sf_smem(shape, config["stages"])) == want["smem"]
    assert str(BS.tmem_sf(shape)) == want["tmem"]
    m, n, k = config["problem_mnk"]
    cutlass_global = parse_layout(want["global"])        # (MN, K, L): the L mode is one batch
    assert str(BS.sf_global(m if op == "A" else n, k, config["vs"])) == str(make_layout(cutlass_global.mode(0),
                                                                                        cutlass_global.mode(1)))


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_make_utccp_copy_and_its_copies_are_cutlass_own(case):
    config, op = case
    want = config["operands"][op]
    shape = _shape(config, op)
    smem = BS.sf_smem(shape, config["stages"])
    name = "SM100_UTCCP_4x32dp128bit_2cta" if config["ctas"] == 2 else "SM100_UTCCP_4x32dp128bit_1cta"
    tiled, copies = BS.utccp_copies(name, make_layout(*smem.modes()[:3]), BS.tmem_sf(shape))
    assert str(tiled.layout_tv) == want["utccp_layout_tv"]
    base = want["tmem_base_column"]
    got = [{"smem_start": c.smem_start, "lbo": c.lbo, "sbo": c.sbo,
            "tmem_address": BS.tmem_address(c.tmem_element) + base} for c in copies]
    assert got == want["copies"]


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_each_k_blocks_scale_address_is_cutlass_own(case):
    config, op = case
    want = config["operands"][op]
    shape = _shape(config, op)
    view = BS.mn_k_view(BS.tmem_sf(shape), shape.mn, shape.k_mma, BS.REPLICAS)
    got = [BS.tmem_address(BS.value_at(view, 0, 0, kb * shape.k_mma)) + want["tmem_base_column"]
           for kb in range(shape.tile_k // shape.k_mma)]
    assert got == want["k_block_addresses"]


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_the_tma_box_is_the_one_cute_derives(case):
    """The box's dimensions of more than one element, with their global strides, are construct_tma_gbasis's."""
    config, op = case
    want = config["operands"][op]["tma"]
    shape = _shape(config, op)
    m, n, k = config["problem_mnk"]
    glob = BS.sf_global(m if op == "A" else n, k, config["vs"])
    tile_global, _ = BS.tile_of(glob, shape.mn, shape.tile_k)
    stage0 = BS.mn_k_view(BS.sf_smem(shape, 1), shape.mn, shape.k_mma).slice((Underscore, Underscore, 0))
    tma = BS.sf_tma(tile_global, stage0)
    assert isinstance(tma, BS.SfTma)
    cute = [(b, s) for b, s in zip(want["box"], want["global_strides"]) if b > 1]
    assert [(b, s) for b, s in zip(tma.box, tma.global_strides) if b > 1] == cute


# --- the hardware models, unit by unit -----------------------------------------------------------------------

def test_tcgen05_cp_32x128b_warpx4_multicasts_each_row_to_the_four_subpartitions():
    cells = CP.cells(CP.CpShape.S32x128b_X4, 0, 10)
    assert len(cells) == 32 * 16 * 4
    row5 = {(lane, column, byte) for r, b, c, lane, column, byte in cells if r == 5 and b == 6}
    assert row5 == {(5, 11, 2), (37, 11, 2), (69, 11, 2), (101, 11, 2)}
    assert CP.destination_problem(CP.CpShape.S32x128b_X4, 0, 510) is not None     # columns 510..513
    assert CP.destination_problem(CP.CpShape.S32x128b_X4, 32, 0) is not None      # lanes 32..159
    assert CP.destination_problem(CP.CpShape.S4x256b, 0, 0) is not None           # not modelled


def test_tcgen05_cp_reads_its_source_as_a_k_major_canonical_matrix():
    desc = UmmaDescriptor(0x400, 16, 128)
    assert CP.source_address(desc, 0x400, 0, 0) == 0x400
    assert CP.source_address(desc, 0x400, 7, 15) == 0x400 + 7 * 16 + 15
    assert CP.source_address(desc, 0x400, 8, 0) == 0x400 + 128         # the next 8-row group: SBO


def test_the_scale_read_model():
    assert US.scale_cell(0, 256, 2, 37, 1, 3) == US.ScaleCell(3 * 32 + 5, 257, 3)
    assert US.id_problem(US.ScaleVec.X2, 1) is not None and US.id_problem(US.ScaleVec.X2, 2) is None
    assert US.scale_vec_of("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale", 32) is US.ScaleVec.X1
    assert US.scale_vec_of("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16", 64) is US.ScaleVec.X4
    assert US.scale_vec_of("tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32", 64) is US.ScaleVec.X2
    assert isinstance(US.scale_vec_of("tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block16", 64), str)
    assert isinstance(US.scale_vec_of("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale", 64), str)
    assert isinstance(US.scale_vec_of("tcgen05.mma.cta_group::1.kind::f16", 16), str)
    assert US.address_fields(0x800001C4) == (0, 0x1C4, 2)


# --- the theorems ------------------------------------------------------------------------------------------

ATOMS = {
    "mxf8": ("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale", 128, 128, 32, 1, "float_e4m3_t", "float_ue8m0_t"),
    "mxf8_2sm": ("tcgen05.mma.cta_group::2.kind::mxf8f6f4.block_scale", 256, 256, 32, 2, "float_e4m3_t",
                 "float_ue8m0_t"),
    "nvf4": ("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16", 128, 256, 64, 1, "float_e2m1_t",
             "float_ue4m3_t"),
    "mxf4": ("tcgen05.mma.cta_group::1.kind::mxf4.block_scale.block32", 128, 128, 64, 1, "float_e2m1_t",
             "float_ue8m0_t"),
    "nvf4_n192": ("tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.block16", 128, 192, 64, 1, "float_e2m1_t",
                  "float_ue4m3_t"),
    "mxf8_n64": ("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale", 128, 64, 32, 1, "float_e4m3_t",
                 "float_ue8m0_t"),
    "mxf8_n96": ("tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale", 128, 96, 32, 1, "float_e4m3_t",
                 "float_ue8m0_t"),
}


def spec_text(atom: str, op: str, **changes: str) -> str:
    instr, m, n, k, ctas, ab, sf = ATOMS[atom]
    vs = 16 if "block16" in instr else 32
    rows = m // ctas if op == "A" else -(-n // 128) * 128
    tile_k = 4 * k
    shape = BS.SfShape(rows, k, vs, tile_k)
    fields = {"smem": f'"{BS.sf_smem(shape, 4)}"', "gmem": f'"{BS.sf_global(2 * rows, 2 * tile_k, vs)}"',
              "sf_vec_size": str(vs), "value_type": sf, "tmem_base": "256",
              "copy": f"SM100_UTCCP_4x32dp128bit_{ctas}cta"}
    fields.update(changes)
    mc, nc = m // ctas, n // ctas
    ms, ns = (mc, nc) if ctas > 1 else (0, 0)
    body = "\n".join(f"    {key}: {value}" for key, value in fields.items())
    return textwrap.dedent(f"""\
        version: 2
        name: scale
        mma_atoms:
          ATOM:
            instruction: "{instr}"
            shape_mnk: [{m}, {n}, {k}]
            thr_id: "{ctas}:{ctas - 1}"
            types: {{a: {ab}, b: {ab}, c: float, d: float, sf: {sf}}}
            a: "({ctas},({mc},{k})):({ms},(1,{m}))"
            b: "({ctas},({nc},{k})):({ns},(1,{n}))"
            c: "({ctas},({mc},{n})):({ms},(1,{m}))"
        checks:
          sf:
            mma: ATOM
            scale_factors: {op}
        """) + body + "\n"


def prove(text: str, tmp: Path | None = None):
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "scale.yaml"
        path.write_text(text)
        spec = load_spec(path, allow_outside=True)
        [check] = spec.checks.values()
        return prove_check(spec, check, Settings())


def failed(result) -> dict[str, list[str]]:
    return {t.id.value: [i.title for i in t.items if i.status in (Status.REFUTED, Status.REFUSED)]
            for t in result.theorems if t.status in (Status.REFUTED, Status.REFUSED)}


@pytest.mark.parametrize("atom,op", [(a, op) for a in ("mxf8", "mxf8_2sm", "nvf4", "mxf4") for op in "AB"])
def test_cutlass_configurations_are_verified(atom, op):
    r = prove(spec_text(atom, op))
    assert r.verdict is Verdict.VERIFIED, failed(r)
    assert {t.id.value for t in r.theorems} >= {"scale.tma", "scale.copy", "scale.read"}


SFA_SMEM = "((((32,4),1),(32,1)),1,(4,1),4):((((16,4),512),(0,1)),0,(1,512),512)"
MUTATIONS = {
    # a shared layout whose rows are not 16 bytes apart: TMA's box is no longer the block, tcgen05.cp's rows miss
    "rows 4 bytes apart": ({"smem": SFA_SMEM.replace("(((16,4),512)", "(((4,16),512)")},
                           {"scale.tma", "scale.copy"}),
    # stages 256 bytes apart: the second stage overwrites half of the first
    "overlapping stages": ({"smem": SFA_SMEM.replace("(1,512),512)", "(1,512),256)")}, {"scale.tma"}),
    # a vector size of 16 on .kind::mxf8f6f4 (1X: one factor a row for K = 32)
    "VS 16 on mxf8f6f4": ({"sf_vec_size": "16"}, {"scale.read"}),
    # a buffer 64-byte aligned: TMA's destination must be 128-byte aligned
    "buffer 64-aligned": ({"smem_align": "64"}, {"scale.tma"}),
    # the SF tile past the 512 columns of tensor memory
    "TMEM columns": ({"tmem_base": "510"}, {"scale.copy"}),
    # a TMEM layout whose rows go along columns: the MMA reads lane x % 32, column x / 32
    "rows along columns": ({"tmem": '"((((32,4),4),(32,1)),1,(4,1)):((((4,262144),8388608),(0,1)),0,(1,0))"'},
                           {"scale.copy", "scale.read"}),
    # the scale factors' type is not the MMA's
    "ue4m3 on mxf8f6f4": ({"value_type": "float_ue4m3_t"}, {"scale.read"}),
    # a negative stride puts factors before the buffer's first byte (TMA's box cannot land there; it was an internal
    # error: the box element of a negative byte)
    "stages before the buffer": ({"smem": SFA_SMEM.replace("(1,512),512)", "(1,512),-512)")}, {"scale.tma"}),
    "rows before the buffer": ({"smem": SFA_SMEM.replace("(((16,4),512)", "(((-16,4),512)")}, {"scale.tma"}),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_mistake_is_refuted_where_it_is(name):
    changes, theorems = MUTATIONS[name]
    r = prove(spec_text("mxf8", "A", **changes))
    assert r.verdict is Verdict.REFUTED
    assert theorems <= set(failed(r)), failed(r)


def test_a_refutation_names_the_factor_and_its_chain():
    r = prove(spec_text("mxf8", "A", tmem='"((((32,4),4),(32,1)),1,(4,1)):((((4,262144),8388608),(0,1)),0,(1,0))"'))
    read = next(t for t in r.theorems if t.id.value == "scale.read")
    item = next(i for i in read.items if i.status is Status.REFUTED and i.witness)
    assert {"k_block", "mn", "subpartition"} <= set(item.witness.point)
    assert any(line.label == "MMA" for line in item.witness.chain)


@pytest.mark.parametrize("atom", ["nvf4_n192", "mxf8_n64"])
def test_sfb_of_a_cta_n_of_64_or_192_is_proved_through_cutlass_glue(atom):
    """CUTLASS rounds the SF tile up to 256 / 128 rows, loads it through remapped coordinates and hands the odd N
    tiles' MMA the address two columns on: the odd-tile claims are part of the proof."""
    r = prove(spec_text(atom, "B"))
    assert r.verdict is Verdict.VERIFIED
    notes = [i.note or "" for t in r.theorems for i in t.items]
    assert any("IsCtaN64 / IsCtaN192" in n for n in notes)
    assert prove(spec_text(atom, "A")).verdict is Verdict.VERIFIED


def test_without_the_odd_tile_shift_the_odd_tiles_read_the_wrong_factors(monkeypatch):
    """The glue is load-bearing: with the remapped coordinates but no two-column shift, the odd N tiles of N = 192
    read the factors of other columns (theorems 24 and 26 both refute)."""
    from verifier.kinds.scale import setup as scale_setup
    real = scale_setup.build

    def unshifted(check, atom):
        s = real(check, atom)
        if s.remapped:
            s.odd_shift = 1 << 20         # remapped stays on; the shift no longer what CUTLASS adds
        return s

    monkeypatch.setattr(scale_setup, "build", unshifted)
    r = prove(spec_text("nvf4_n192", "B"))
    assert r.verdict is Verdict.REFUTED
    assert {"scale.tma", "scale.read"} <= set(failed(r)), failed(r)


def test_an_mma_n_the_collective_does_not_take_is_refused():
    """The block-scaled collective static_asserts its CTA tile's N (the MMA's): "Cta N should be one of
    64/128/192/256". N = 96 is refused at theorems 24-26, for SFA and SFB alike (SFB was unsupported, SFA verified);
    N = 64, 128 and 192 are verified."""
    for op in "AB":
        r = prove(spec_text("mxf8_n96", op))
        scale = [t for t in r.theorems if t.id.value.startswith("scale.")]
        assert scale and all(t.status is Status.REFUSED and t.reason.endswith("Cta N should be one of 64/128/192/256")
                             for t in scale), [(t.id.value, t.status, t.reason) for t in scale]
    for atom in ("mxf8_n64", "mxf8", "nvf4_n192"):
        assert prove(spec_text(atom, "B")).verdict is Verdict.VERIFIED, atom


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "verifier", *args], capture_output=True, text=True, cwd=cwd)


def test_explain_traces_a_factor(tmp_path):
    path = tmp_path / "s.yaml"
    path.write_text(spec_text("mxf4", "A"))
    out = _cli("explain", str(path), "--check", "sf", "--coord", "37,70", "--stage", "1", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    for label in ("global", "shared", "TMA", "TMEM", "tcgen05.cp", "MMA"):
        assert label in out.stdout
    assert "lane 5" in out.stdout


@pytest.mark.parametrize("key,value,message", [
    ("scale_factors", "C", "must be one of A | B"),
    ("copy", "SM90_TMA_LOAD", "tcgen05.cp"),
    ("value_type", "half_t", "scale factor's type"),
    ("sf_vec_size", "0", "must be an integer"),
    ("smem", '"(128,4):(4,1)"', "partitioned"),
    ("tmem_alloc", "3x3", "must be one of"),
])
def test_bad_scale_checks_are_one_line_at_their_place(tmp_path, key, value, message):
    text = spec_text("mxf8", "A")
    if key == "scale_factors":
        text = text.replace("scale_factors: A", f"scale_factors: {value}")
    elif key in ("smem", "value_type", "copy", "sf_vec_size"):
        text = "\n".join(f"    {key}: {value}" if line.startswith(f"    {key}:") else line
                         for line in text.splitlines()) + "\n"
    else:
        text += f"    {key}: {value}\n"
    path = tmp_path / "s.yaml"
    path.write_text(text)
    out = _cli("prove", str(path), cwd=tmp_path)
    assert out.returncode == 2
    line = out.stderr.strip()
    assert "\n" not in line and "Traceback" not in line and f"{path}:" in line and message in line, line


def test_a_utccp_copy_without_scale_factors_is_refused(tmp_path):
    text = spec_text("mxf8", "A").replace("    scale_factors: A\n", "")
    path = tmp_path / "s.yaml"
    path.write_text(text)
    out = _cli("prove", str(path), cwd=tmp_path)
    assert out.returncode == 2 and "scale_factors" in out.stderr


# --- the factors view ----------------------------------------------------------------------------------------

def _factors_figure(text: str, tmp_path: Path):
    from verifier.engine.runner import run_check
    from verifier.kinds.registry import kind_of
    path = tmp_path / "scale.yaml"
    path.write_text(text)
    spec = load_spec(path)
    check = spec.checks["sf"]
    result = run_check(spec, check)
    (fig,) = kind_of(check).figures(spec, check, ("factors",), result)
    return fig, result


def test_the_factors_view_draws_each_factor_once_and_outlines_nothing_when_proved(tmp_path):
    fig, result = _factors_figure(spec_text("mxf8", "A"), tmp_path)
    assert result.verdict is Verdict.VERIFIED
    (panel,) = fig.panels
    assert (panel.rows, panel.cols) == (128, 4) and len(panel.cells) == 128 * 4
    assert not any(c.outline for c in panel.cells)
    shared = {dict(c.info)["shared byte"] for c in panel.cells}
    assert len(shared) == 128 * 4                               # every factor its own byte


# the TMEM SF layout of the 2x2 data path, given for SFB of a 1-SM MMA that reads the 4x1 one (CuTe derives none:
# tmem_sf_frg refuses the 2x2 allocation there; given, make_utccp_copy refuses to copy it, theorem 26 refutes the read)
TWO_BY_TWO_TMEM = ('"((((_32,_2),_2,_2),(_32,_1)),_1,(_4,_1)):((((_262144,_4),_16777216,_8388608),(_0,_1)),_0,'
                   '(_1,_0))"')


def test_the_factors_view_outlines_the_factor_a_counterexample_names(tmp_path):
    fig, result = _factors_figure(spec_text("mxf8", "B", tmem=TWO_BY_TWO_TMEM), tmp_path)
    read = next(t for t in result.theorems if t.id.value == "scale.read")
    witness = read.first_failure().witness
    j = witness.point["k_block"] * 1 + witness.point.get("vector", 0)      # .scale_vec::1X: one factor a k-block
    (panel,) = fig.panels
    outlined = [(c.row, c.col) for c in panel.cells if c.outline]
    assert (witness.point["mn"], j) in outlined
    assert any("theorem 26" in line for line in fig.caption)


def test_a_single_stage_s_stride_steps_nowhere():
    """With one stage, the stage mode's stride reaches no byte: a negative one is no factor before the buffer (the
    check is CUTLASS's layout with one stage, verified either way; it was refuted at theorem 24)."""
    one = SFA_SMEM.replace("(4,1),4):", "(4,1),1):")
    for stride in ("512", "-512"):
        r = prove(spec_text("mxf8", "A", smem=f'"{one.replace("(1,512),512)", f"(1,512),{stride})")}"'))
        assert r.verdict is Verdict.VERIFIED, failed(r)


def test_a_tmem_tile_make_utccp_copy_refuses_is_refused_not_refuted():
    """make_utccp_copy's static_assert ("The memory pointed to by AtomTVLayout does not exist in the DataLayout."):
    a TMEM SF layout that puts a sub-partition's rows along columns is refused at theorem 25 by that rule (it was a
    refuted fact); the same tile with CuTe's TMEM layout is verified."""
    from verifier.engine.runner import run_check
    from verifier.outcome import Status, Verdict
    from verifier.specfile.loader import load_specs
    names = ["bad_scale_tmem_rows_along_columns", "good_scale_sfa_mxf8f6f4"]
    [spec] = load_specs([Path(__file__).parent / "specs" / "theorem_cases.yaml"], only=names)
    bad, good = (run_check(spec, spec.checks[name]) for name in names)
    assert good.verdict is Verdict.VERIFIED
    copy = next(t for t in bad.theorems if t.id.value == "scale.copy")
    assert copy.status is Status.REFUSED and copy.reason.endswith("does not exist in the DataLayout."), copy


def test_the_2x2_allocation_is_sfbs_on_a_cta_pair_only(tmp_path):
    """tmem_sf_frg (mma_traits_sm100.hpp): SFA always takes the 4x1 TMEM atom, whatever tmem_alloc says (CuTe compiles
    it; it was refuted); SFB's 2x2 data path static_asserts N_SM == 2 ("Should be 2x2 Datapath"): on a 1-SM MMA it is
    refused at theorem 25 and by draw (it was refuted as the documented mistake
    sfb_tmem_layout_of_the_2x2_datapath)."""
    from verifier.commands.cli import main
    sfa = prove(spec_text("mxf8", "A", tmem_alloc="2x2"), tmp_path)
    assert sfa.verdict is Verdict.VERIFIED, [(t.id.value, t.status.value) for t in sfa.theorems]
    mistakes = str(Path(__file__).parent.parent / "specs" / "mistakes.yaml")
    from verifier.engine.runner import run_check
    from verifier.specfile.loader import load_specs
    [spec] = load_specs([mistakes], only=["sfb_tmem_layout_of_the_2x2_datapath"])
    sfb = run_check(spec, spec.checks["sfb_tmem_layout_of_the_2x2_datapath"])
    copy = next(t for t in sfb.theorems if t.id.value == "scale.copy")
    assert copy.status is Status.REFUSED and copy.reason.endswith("Should be 2x2 Datapath"), copy
    assert main(["draw", mistakes, "--check", "sfb_tmem_layout_of_the_2x2_datapath", "-o",
                 str(tmp_path / "x.html")]) == 2


MXF8_SFA = """    mma: "SM100_MMA_MXF8F6F4_SS<float_e4m3_t,float_e4m3_t,float,float_ue8m0_t,128,128>"
    scale_factors: A
    copy: SM100_UTCCP_4x32dp128bit_1cta
    value_type: float_ue8m0_t
    sf_vec_size: 32
    gmem: "(((_32,_4),_2),((_32,_4),_2)):(((_16,_4),_1024),((_0,_1),_512))"
    tmem_base: 256
"""
CUTE_SFA_SMEM = "((((_32,_4),_1),(_32,_1)),_1,(_4,_1),_6):((((_16,_4),_512),(_0,_1)),_0,(_1,_512),_512)"


def _mxf8_sfa(tmp_path: Path, smems: dict[str, str]) -> dict[str, object]:
    """The MXF8F6F4 128x128 SFA path of each shared layout given (CuTe's SmemLayoutSFA: CUTE_SFA_SMEM), proved."""
    from verifier.engine.runner import run_check
    atoms = (Path(__file__).parent.parent / "specs" / "atoms" / "sm100_umma_blockscaled.yaml").as_posix()
    checks = "".join(f"  {name}:\n{MXF8_SFA}    smem: \"{smem}\"\n" for name, smem in smems.items())
    path = tmp_path / "sf.yaml"
    path.write_text(f"version: 2\nname: sf\ninclude: [\"{atoms}\"]\nchecks:\n{checks}")
    spec = load_spec(path, allow_outside=True)
    return {name: run_check(spec, check) for name, check in spec.checks.items()}


def test_a_tcgen05_cp_source_make_umma_desc_refuses_is_refused(tmp_path):
    """get_utccp_smem_desc_tensor builds each tcgen05.cp's source descriptor with make_umma_desc<K>: a block's 32
    rows written (8,2,2):(16,128,1024), 8-row core matrices unevenly spaced (no single SBO), is no canonical K-major
    layout ("Not a canonical UMMA_K Layout: Expected profile failure.", as nvcc says); theorem 25 refuses it (it was
    refuted with the SBO read off rows 0 and 8); the same factors in CuTe's SmemLayoutSFA are verified."""
    from verifier.outcome import Status, Verdict
    uneven = ("(((((_8,_2,_2),_4),_1),(_32,_1)),_1,(_4,_1),_6):"
              "(((((_16,_128,_1024),_4),_2048),(_0,_1)),_0,(_1,_2048),_2048)")
    results = _mxf8_sfa(tmp_path, {"cute": CUTE_SFA_SMEM, "uneven": uneven})
    assert results["cute"].verdict is Verdict.VERIFIED
    copy = next(t for t in results["uneven"].theorems if t.id.value == "scale.copy")
    assert copy.status is Status.REFUSED, copy
    assert copy.reason.endswith("Not a canonical UMMA_K Layout: Expected profile failure."), copy


def test_a_shared_sf_tile_whose_k_mode_is_not_vs_nsf_is_refused(tmp_path):
    """tmem_sf_frg::make(shape(SmemLayoutAtomSF)) reads the MMA's K mode as (VS, NSF): a shared SF tile that writes
    it as one mode (_32):(_0) fails "Expected an MMA-SF partitioned tensor" (nvcc), refused at theorems 25 and 26
    (it was verified)."""
    from verifier.outcome import Status
    one_mode = "((((_32,_4),_1),_32),_1,(_4,_1),_6):((((_16,_4),_512),_0),_0,(_1,_512),_512)"
    result = _mxf8_sfa(tmp_path, {"one_mode": one_mode})["one_mode"]
    for tid in ("scale.copy", "scale.read"):
        theorem = next(t for t in result.theorems if t.id.value == tid)
        assert theorem.status is Status.REFUSED and theorem.reason.endswith("Expected an MMA-SF partitioned tensor")


def test_an_mxf4_atom_s_vs32_types_are_its_traits_rule(tmp_path):
    """Every MXF4 collective instantiates MMA_Traits<SM100_MMA_MXF4_SS> (its TiledMMA_SF's atom): at VS = 32 its
    static_assert takes e2m1 operands and ue8m0 factors only. ue4m3 factors on the 2-SM MXF4 atom (whose own traits
    carry no such assert) are refused at theorems 24-26 (they were proved there, refuted at theorem 11 only)."""
    from verifier.cute import blockscaled as BS
    from verifier.engine.runner import run_check
    from verifier.outcome import Status
    mxf4 = "SM100_MMA_MXF4_2x1SM_SS<float_e2m1_t,float_e2m1_t,float,float_ue4m3_t,256,128,32>"
    assert BS.mxf4_vs32_refusal(mxf4, "float_e2m1_t", "float_e2m1_t", "float_ue4m3_t", 32) is not None
    assert BS.mxf4_vs32_refusal(mxf4, "float_e2m1_t", "float_e2m1_t", "float_ue8m0_t", 32) is None
    assert BS.mxf4_vs32_refusal(mxf4, "float_e2m1_t", "float_e2m1_t", "float_ue4m3_t", 16) is None
    assert BS.mxf4_vs32_refusal("SM100_MMA_MXF8F6F4_SS<...>", "float_e4m3_t", "float_e4m3_t", "float_ue4m3_t",
                                32) is None
    atoms = (Path(__file__).parent.parent / "specs" / "atoms" / "sm100_umma_blockscaled.yaml").as_posix()
    path = tmp_path / "mxf4.yaml"
    path.write_text(f"""version: 2
name: mxf4
include: ["{atoms}"]
checks:
  sfa:
    mma: "{mxf4}"
    scale_factors: A
    copy: SM100_UTCCP_4x32dp128bit_2cta
    value_type: float_ue4m3_t
    sf_vec_size: 32
    smem: "((((_32,_4),_1),(_32,_2)),_1,(_2,_2),_5):((((_16,_4),_512),(_0,_1)),_0,(_2,_512),_1024)"
    gmem: "(((_32,_4),_2),((_32,_4),_4)):(((_16,_4),_2048),((_0,_1),_512))"
    tmem_base: 256
""")
    spec = load_spec(path, allow_outside=True)
    result = run_check(spec, spec.checks["sfa"])
    for tid in ("scale.tma", "scale.copy", "scale.read"):
        theorem = next(t for t in result.theorems if t.id.value == tid)
        assert theorem.status is Status.REFUSED and theorem.reason.endswith(BS.MXF4_VS32_RULE), theorem
