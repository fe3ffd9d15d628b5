"""The Hopper data path: TMA -> swizzled shared memory -> wgmma descriptor.

The prover's verdicts are checked against a simulation that shares nothing with the symbolic encoding: the
integer hardware models (validated on the H200 by test_hw_tma.py / test_hw_gmma_desc.py) run box by box and
slice by slice for concrete base addresses, with descriptors encoded to their 64-bit words and decoded back,
and CuTe's layout evaluated on integers.  Where the simulation finds a disagreement at a base the prover
covers, the theorem must be refuted; where it finds none at every base tried, the theorem must be proved.
"""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from oracle import load
from verifier.algebra import parse_layout
from verifier.algebra.swizzle import Swizzle
from verifier.commands.cli import main
from verifier.hardware import tma as TMA
from verifier.hardware.gmma_desc import Descriptor, operand_reads
from verifier.outcome import Status, Verdict
from verifier.symbolic.procedure import Procedure
from verifier.specfile import SpecError, load_spec
from verifier.theorems.catalog import TheoremId
from verifier.engine.runner import run_check
from verifier.kinds.smem_mma.setup import Sm90Setup, build_sm90

ROOT = Path(__file__).parent.parent
CATALOG = load_spec(ROOT / "specs" / "catalog" / "sm90_gmma.yaml")
MISTAKES = load_spec(ROOT / "specs" / "mistakes.yaml")
T = TheoremId
BASES = (0x0, 0x80, 0x380, 0x1400)     # on and off the 256 / 512 / 1024-byte swizzle repeats


class _LayoutOffsets:
    """CuTe's smem layout on integers, evaluated once over its whole domain (every base reuses the table)."""

    def __init__(self, s: Sm90Setup) -> None:
        self.s = s
        layout = s.tile.inner if s.absolute else s.check.smem
        self.rank3 = s.tile.inner.rank() > 2
        self.sizes = [int(m.size()) for m in layout.modes()]
        self.table = layout.values()

    def __call__(self, mn: int, k: int, stage: int) -> int:
        flat = mn + self.sizes[0] * k + (self.sizes[0] * self.sizes[1] * stage if self.rank3 else 0)
        return int(self.table[flat])


def _layout_address(s: Sm90Setup, offsets: _LayoutOffsets, base: int, mn: int, k: int, stage: int) -> int:
    """CuTe's meaning of the smem layout, on integers: a GMMA smem_ptr layout swizzles the absolute byte address."""
    if s.absolute:
        addr = base + offsets(mn, k, stage) * s.elem_bytes
        return int(Swizzle(s.swizzle.bits, 4, 3)(addr)) if s.swizzle.bits else addr
    return base + offsets(mn, k, stage) * s.elem_bytes


def simulate(s: Sm90Setup, base: int, offsets: _LayoutOffsets | None = None) -> dict[TheoremId, bool]:
    """Run every TMA box and every wgmma slice of every stage at `base`: does each theorem hold there?"""
    offsets = _LayoutOffsets(s) if offsets is None else offsets
    e, (n0, n1) = s.elem_bytes, s.boxes.box
    mn_extent, k_extent = s.extent
    inner_extent = s.extent[s.boxes.inner_mode]
    outer_extent = s.extent[1 - s.boxes.inner_mode]
    written: dict[tuple[int, int, int], int] = {}
    runs = True
    for stage in range(s.stages):
        for bo in range(0, outer_extent, n1):
            for bi in range(0, inner_extent, n0):
                origin = (bi, bo) if s.boxes.inner_mode == 0 else (bo, bi)
                dst = base + int(s.tile.inner(origin + ((stage,) if s.tile.inner.rank() > 2 else ()))) * e
                runs &= TMA.copy_refusal(s.tensor_map, (bi, bo), dst) is None
                for w in TMA.placement(s.tensor_map, (bi, bo), dst):
                    if w.byte == 0 and w.row >= 0:
                        mn, k = (w.col, w.row) if s.boxes.inner_mode == 0 else (w.row, w.col)
                        written[(mn, k, stage)] = w.addr
    placed = all(written.get((mn, k, st)) == _layout_address(s, offsets, base, mn, k, st)
                 for st in range(s.stages) for mn in range(mn_extent) for k in range(k_extent))
    read_ok = agree = True
    for stage in range(s.stages):
        for w in range(mn_extent // s.rows):
            for kb in range(k_extent // s.k_instr):
                origin = (w * s.rows, kb * s.k_instr) + ((stage,) if s.tile.inner.rank() > 2 else ())
                start = base + int(s.tile.inner(origin)) * e
                word = dataclasses.replace(s.descriptor, start=start).encode()
                for i, j, addr in operand_reads(Descriptor.decode(word), s.major, s.rows, s.k_instr, e):
                    mn, k = w * s.rows + i, kb * s.k_instr + j
                    read_ok &= addr == _layout_address(s, offsets, base, mn, k, stage)
                    agree &= addr == written.get((mn, k, stage))
    distinct = len(set(written.values())) == len(written)    # no byte receives two elements
    return {T.TMA_PLACEMENT: placed and runs, T.GMMA_DESCRIPTOR: read_ok, T.GMMA_END_TO_END: agree and distinct}


SIMULATED = ["ws_64x128x64_f16_tn_a", "ws_64x128x64_f16_nt_b", "cooperative_128x128x64_f16_nn_a",
             "cooperative_128x128x64_f16_tt_b", "ws_64x128x64_tf32_tn_b", "cooperative_128x128x64_e4m3_tn_a",
             "cooperative_128x128x64_s8_tn_b"]
SIMULATED_MISTAKES = ["tilelang_2593_hardwired_descriptor_stride", "triton_7830_n8_no_swizzle_descriptor",
                      "emmy_200_buffer_relative_swizzle", "kmajor_atom_under_mn_descriptor",
                      "wrong_descriptor_base_offset"]


@pytest.mark.parametrize("spec,name", [(CATALOG, n) for n in SIMULATED] + [(MISTAKES, n) for n in SIMULATED_MISTAKES],
                         ids=SIMULATED + SIMULATED_MISTAKES)
def test_prover_agrees_with_simulating_the_hardware(spec, name):
    check = spec.checks[name]
    s = build_sm90(check, spec.mma_atoms[check.mma])
    verdicts = {t.id: t.status for t in run_check(spec, check).theorems}
    offsets = _LayoutOffsets(s)
    at_bases = [simulate(s, base, offsets) for base in BASES]
    seen = {tid: all(r[tid] for r in at_bases) for tid in (T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END)}
    for tid, holds in seen.items():
        if not holds:      # a disagreement at a covered base: the prover must have found one too, or CuTe
            # refuses to build the descriptor the simulation reads through
            assert verdicts[tid] in (Status.REFUTED, Status.REFUSED), (name, tid)
        elif check.expect == "pass":
            assert verdicts[tid] is Status.PROVED, (name, tid)
    if check.expect == "fail":
        assert not all(seen.values()), f"{name}: the simulation never sees the documented mistake"


def test_catalog_covers_what_the_issue_names():
    checks = list(CATALOG.checks.values())
    assert {c.value_type.name for c in checks} == {"half_t", "bfloat16_t", "tfloat32_t", "float_e4m3_t", "int8_t"}
    names = " ".join(CATALOG.checks)
    for tile in ("64x128x64", "128x128x64", "128x256x64", "256x128x64"):
        assert tile in names
    for schedule in ("ws_", "pingpong_", "cooperative_"):
        assert schedule in names
    smem = " ".join(str(c.smem) for c in checks)
    assert "Sw<3,3,3>" in smem and "Sw<2,4,3>" in smem      # SW128 on 16-bit, SW64 on 8-bit elements
    majors = {(c.operand, build_sm90(c, CATALOG.mma_atoms[c.mma]).major.value) for c in checks}
    assert majors == {("A", "K"), ("A", "MN"), ("B", "K"), ("B", "MN")}
    assert any("_RS" in c.mma for c in checks)
    text = Path(CATALOG.path).read_text(encoding="utf-8")
    assert "sm90_gmma_builder.inl" in text and "sm90_mma_tma_gmma_ss_warpspecialized.hpp" in text
    assert all(c.description for c in checks)


def test_generated_gmma_atoms_are_cute_s():
    """Every GMMA atom CuTe printed in the oracle has the same layouts in specs/atoms/sm90_gmma.yaml."""
    ours = load_spec(ROOT / "specs" / "atoms" / "sm90_gmma.yaml").mma_atoms
    compared = 0
    for case in load("atoms"):
        if case["kind"] != "mma" or not case["op"].startswith("SM90_64x"):
            continue
        name = case["op"].replace("<>", "")
        if name not in ours:
            continue
        atom = ours[name]
        for key, mine in (("ThrID", atom.thr_id), ("ALayout", atom.a), ("BLayout", atom.b), ("CLayout", atom.c)):
            assert mine.values() == parse_layout(case[key]["text"]).values(), (name, key)
        compared += 1
    assert compared >= 12


def test_the_benchmark_configuration_proves(tmp_path):
    check = CATALOG.checks["cooperative_128x256x64_f16_tn_b"]
    r = run_check(CATALOG, check)
    assert r.verdict is Verdict.VERIFIED
    ids = [t.id for t in r.theorems]
    assert {T.TMA_ENCODABLE, T.TMA_PLACEMENT, T.GMMA_DESCRIPTOR, T.GMMA_END_TO_END} <= set(ids)


def test_end_to_end_refutes_two_stages_sharing_bytes(tmp_path):
    """A stage mode of stride 0: every read finds the byte TMA wrote its element to, but the next stage's copy
    writes there too.  The end-to-end theorem says so with the two elements."""
    text = HEAD.replace('tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,4))',
                        'tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,4))'.replace("4))", "1))"))
    text = text.replace('"tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,1))"',
                        '"Sw<3,4,3> o smem_ptr[16b](unset) o ((8,16),(64,1),(1,2)):((64,512),(1,0),(0,0))"')
    spec = load_spec(_spec(tmp_path, text), allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    e2e = next(t for t in r.theorems if t.id is T.GMMA_END_TO_END)
    assert e2e.status is Status.REFUTED
    reads, distinct, swizzle = e2e.items
    assert reads.status is Status.PROVED and distinct.status is Status.REFUTED
    w = distinct.witness
    assert w.actual == w.expected and w.point["element"] < w.point["element2"]
    # the swizzle is one-to-one on every address the buffer can take, whatever the layout does
    assert swizzle.status is Status.PROVED and swizzle.procedure is Procedure.ENUMERATION


def test_tma_writes_distinct_bytes_proved_as_offsets_and_a_one_to_one_swizzle(tmp_path):
    """Distinct elements at any base: the unswizzled offsets are distinct over the buffer's elements and TMA's
    128B swizzle is one-to-one below the largest address -- each an injectivity decided over its points."""
    spec = load_spec(_spec(tmp_path, HEAD), allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    e2e = next(t for t in r.theorems if t.id is T.GMMA_END_TO_END)
    _, offsets, swizzle = e2e.items
    assert offsets.status is swizzle.status is Status.PROVED
    assert offsets.procedure is swizzle.procedure is Procedure.ENUMERATION
    assert "128x64x4 buffer at distinct offsets" in offsets.title and "128B swizzle sends distinct" in swizzle.title


def test_counterexamples_are_the_smallest_failing_points():
    """Too many points to enumerate: the witness is still the lexicographically smallest, found by Z3."""
    r = run_check(MISTAKES, MISTAKES.checks["wrong_descriptor_base_offset"])
    item = next(t for t in r.theorems if t.id is T.GMMA_DESCRIPTOR).first_failure()
    w = item.witness
    assert w.smallest and w.point == {"base": 0, "stage": 0, "k_block": 0, "n": 0, "k": 0}
    assert w.chain and any(line.label == "descriptor" and "base offset 2" in line.text for line in w.chain)
    r = run_check(MISTAKES, MISTAKES.checks["emmy_200_buffer_relative_swizzle"])
    item = next(t for t in r.theorems if t.id is T.TMA_PLACEMENT).first_failure()
    assert item.witness.point["base"] == 1 and item.witness.suspect.what.startswith("the buffer's alignment")


# --- the spec keys ------------------------------------------------------------------------------------

HEAD = """version: 2
name: t
include: [{atoms}]
checks:
  c:
    mma: "SM90_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>"
    operand: B
    copy: SM90_TMA_LOAD
    value_type: half_t
    smem: "tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,4))"
    gmem: "(4096,4096):(4096,1)"
"""


def _spec(tmp_path, text: str) -> Path:
    p = tmp_path / "t.yaml"
    p.write_text(text.replace("{atoms}", str(ROOT / "specs" / "atoms" / "sm90_gmma.yaml")), encoding="utf-8")
    return p


def _error(tmp_path, text: str) -> str:
    with pytest.raises(SpecError) as info:
        load_spec(_spec(tmp_path, text), allow_outside=True)
    return str(info.value)


def test_a_hopper_check_loads(tmp_path):
    spec = load_spec(_spec(tmp_path, HEAD), allow_outside=True)
    c = spec.checks["c"]
    assert c.kind == "gmma" and c.smem_absolute and c.gmem.rank() == 2
    assert run_check(spec, c).verdict is Verdict.VERIFIED


@pytest.mark.parametrize("edit,where,message", [
    (("version: 2", "version: 1"), ":11:5:", "'gmem' of check 'c' is a version 2 key"),
    (('    gmem: "(4096,4096):(4096,1)"\n', ""), ":5:3:", "copies with TMA and so needs 'gmem'"),
    (("operand: B", "operand: C"), ":7:14:", "must be A or B"),
    (('(4096,4096):(4096,1)"', '(4096,4096,2):(4096,1,0)"'), ":11:11:", "must be the (MN, K) global tensor"),
    (("    gmem:", "    major: MN\n    gmem:"), ":11:12:", "the atom decides"),
    (("    gmem:", "    smem_align: 96\n    gmem:"), ":11:17:", "power of two"),
    (("    gmem:", "    descriptor: {base_offset: 9}\n    gmem:"), ":11:31:", "must be in 0..7"),
    (("    gmem:", "    descriptor: {swizzle: 48B}\n    gmem:"), ":11:27:", "NONE | 32B | 64B | 128B"),
    (("    gmem:", "    descriptor: {start: 0}\n    gmem:"), ":11:18:", "unknown key 'start'"),
    (("    gmem:", "    tma_box: [64]\n    gmem:"), ":11:14:", "'tma_box' of check 'c' must be a list of 2"),
    (("    gmem:", "    tma_swizzle: 48B\n    gmem:"), ":11:18:",
     "'tma_swizzle' of check 'c' must be one of none | 32B | 64B | 128B | 128B_atom32B, not '48B'"),
    (("    gmem:", "    smem_type: int8_t\n    conversion: lookup_table\n    gmem:"), ":12:17:",
     "only a wgmma RS atom's A is converted in registers"),
    (("    gmem:", "    tma_tensors: {map_of: a}\n    gmem:"), ":11:18:",
     "'tma_tensors' of check 'c' is missing 'tiles_of'"),
    (("    gmem:", "    tma_tensors: {map_of: a, tiles_of: 3}\n    gmem:"), ":11:40:",
     "'tiles_of' of 'tma_tensors' of check 'c' must be a string"),
    (("    gmem:", "    tma_tensors: {map_of: a, tiles_of: a, of: b}\n    gmem:"), ":11:43:", "unknown key 'of'"),
])
def test_bad_hopper_keys_are_refused_at_their_place(tmp_path, edit, where, message):
    text = HEAD.replace(*edit)
    error = _error(tmp_path, text)
    assert message in error and where in error, error


def test_the_tma_tile_s_tensors_are_one(tmp_path):
    """`tma_tensors` (an importer's names of the tensors the TMA atom's map and its partition's tiles are made from):
    theorem 14 proves them one tensor -- B's atom partitioning A's tiles copies B's elements into A's tile."""
    stated = '    tma_tensors: {map_of: "host argument 1", tiles_of: "host argument 1"}\n    gmem:'
    same = HEAD.replace("    gmem:", stated)
    spec = load_spec(_spec(tmp_path, same), allow_outside=True)
    assert spec.checks["c"].tma_tensors == ("host argument 1", "host argument 1")
    assert run_check(spec, spec.checks["c"]).verdict is Verdict.VERIFIED
    other = same.replace('tiles_of: "host argument 1"', 'tiles_of: "host argument 0"')
    spec = load_spec(_spec(tmp_path, other), allow_outside=True)
    r = run_check(spec, spec.checks["c"])
    assert r.verdict is Verdict.REFUTED
    failed = [t for t in r.theorems if t.status is Status.REFUTED]
    assert [t.id for t in failed] == [T.TMA_PLACEMENT]
    item = failed[0].first_failure()
    assert item is not None and "takes the tiles of the tensor its atom's map was made from" in item.title


def test_version_1_files_cannot_name_the_tma_copy(tmp_path):
    text = HEAD.replace("version: 2", "version: 1").replace('    gmem: "(4096,4096):(4096,1)"\n', "")
    error = _error(tmp_path, text)
    assert ":8:11:" in error and "the TMA copy SM90_TMA_LOAD is a version 2 feature" in error


def test_a_global_tensor_may_be_large(tmp_path):
    spec = load_spec(_spec(tmp_path, HEAD.replace("(4096,4096):(4096,1)", "(65536,65536):(65536,1)")),
                     allow_outside=True)
    assert run_check(spec, spec.checks["c"]).verdict is Verdict.VERIFIED


# --- explain ------------------------------------------------------------------------------------------

def test_explain_traces_one_element(capsys):
    code = main(["explain", "specs/catalog/sm90_gmma.yaml", "--check", "cooperative_128x256x64_f16_nt_b",
                 "--coord", "70,9", "--stage", "1", "--base", "0x1000"])
    out = capsys.readouterr().out
    assert code == 0
    labels = [line.split()[0] for line in out.splitlines()[2:]]
    assert labels == ["global", "TMA", "TMA", "smem", "descriptor", "wgmma", "instruction"]
    assert "B(n=70, k=9) of stage 1" in out and "0xb49c" in out and "the byte TMA wrote it to" in out
    assert "LBO 8192, SBO 1024" in out and "MN-major" in out


def test_explain_shows_where_a_mistake_goes_wrong(capsys):
    code = main(["explain", "specs/mistakes.yaml", "--check", "wrong_descriptor_base_offset", "--coord", "0,0",
                 "--base", "0"])
    out = capsys.readouterr().out
    assert code == 0 and "NOT the byte TMA wrote it to" in out


@pytest.mark.parametrize("args,message", [
    (["--lane", "0", "--value", "0"], "give --coord MN,K"),
    (["--coord", "500,0"], "--coord must be within 128x64"),
    (["--coord", "0,0", "--stage", "9"], "--stage in [0,4)"),
    (["--coord", "0,0", "--base", "0x10"], "multiple of 128"),
])
def test_explain_refuses_bad_hopper_arguments(capsys, args, message):
    code = main(["explain", "specs/catalog/sm90_gmma.yaml", "--check", "ws_64x128x64_f16_tn_b", *args])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1
