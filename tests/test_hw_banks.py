"""The shared-memory bank model (verifier/hardware/banks.py) against Nsight Compute's counters captured on an H200
(tools/gpu/capture_banks.cu under tools/gpu/run_banks.sh, packed by tools/gpu/pack_banks.py).

Each captured pattern is one warp-wide instruction in its own kernel launch; the launch's shared-memory
wavefronts (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld` / `_op_st`) and bank conflicts
(`l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld` / `_op_st`) are that instruction's.  The model must give
both, exactly, for every load and store pattern; for cp.async it must decline (its counters fit no rule).
"""
from __future__ import annotations

import gzip

import pytest

from hw_tables import HW, tables
from verifier.hardware.banks import BankModelError, SharedInstruction, parse_instruction, wavefronts

DOC = tables("banks")
BASE = DOC["buffer_shared_address"]
PATTERNS = DOC["patterns"]
MODELLED = [p for p in PATTERNS if not p["instruction"].startswith("cp.async")]
WAVEFRONTS = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{}.sum"
CONFLICTS = "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{}.sum"


def _measured(p: dict, instr: SharedInstruction) -> tuple[int, int]:
    side = "ld" if instr.access.value == "load" else "st"
    return p["counters"].get(WAVEFRONTS.format(side), 0), p["counters"].get(CONFLICTS.format(side), 0)


def test_capture_carries_its_provenance():
    meta = DOC["meta"]
    assert "H200" in meta["gpu"] and meta["sm"] == "9.0" and not meta["fake"]
    assert meta["tool"] == "tools/gpu/capture_banks.cu" and meta["date"].endswith("Z") and "Nsight" not in meta["ncu"]
    assert meta["ncu"].startswith("Version 20")
    assert BASE % 1024 == 0 and len(PATTERNS) >= 690
    raw = (HW / "banks.json.gz").read_bytes()
    assert raw[4:8] == b"\x00\x00\x00\x00"           # deterministic gzip
    with gzip.open(HW / "banks.json.gz") as f:
        assert f.read(1) == b"{"


def test_each_launch_ran_exactly_one_shared_memory_instruction():
    for p in PATTERNS:
        c = p["counters"]
        ran = (c.get("smsp__sass_inst_executed_op_shared.sum", 0) + c.get("smsp__sass_inst_executed_op_ldgsts.sum", 0))
        assert ran == 1, p["id"]


@pytest.mark.parametrize("p", MODELLED, ids=[p["id"] for p in MODELLED])
def test_model_reproduces_the_counters(p):
    instr = parse_instruction(p["instruction"])
    model = wavefronts(instr, [BASE + o for o in p["offsets"]])
    assert (model.count, model.conflicts) == _measured(p, instr)


def test_the_pattern_families_are_covered():
    kinds = {p["instruction"] for p in MODELLED}
    assert len(kinds) == 22
    names = {p["id"].split("/")[1] for p in MODELLED}
    for family in ("contiguous", "broadcast", "column_132B_rows", "rows_down_sw3", "sw3_sm80_a", "sm80_a_unswizzled",
                   "quads_ABAB_shared", "quads_ABBA_shared", "random_0"):
        assert family in names


def test_paired_lanes_merge_only_for_wide_loads():
    """A hardware finding the model keeps: broadcast LDS.128 takes 2 wavefronts, STS.128 takes 4."""
    by_id = {p["id"]: p for p in PATTERNS}
    for pid, want in (("lds128/broadcast", 2), ("sts128/broadcast", 4), ("lds64/broadcast", 1),
                      ("lds64/quads_ABAB_shared", 1), ("lds64/quads_ABBA_shared", 2), ("lds128/modulo_4", 4)):
        p = by_id[pid]
        instr = parse_instruction(p["instruction"])
        assert _measured(p, instr)[0] == want
        assert wavefronts(instr, [BASE + o for o in p["offsets"]]).count == want


def test_cp_async_is_declined_with_the_reason():
    with pytest.raises(BankModelError, match="cp.async"):
        parse_instruction("cp.async.cg.shared.global [%0], [%1], 16;")


def test_conflicting_lanes_are_named():
    """An unswizzled K-major tile read down its rows by ldmatrix.x4: 8 rows of one matrix in 4 banks."""
    instr = parse_instruction("ldmatrix.sync.aligned.x4.m8n8.shared.b16")
    addrs = [(lane % 16) * 128 + (lane // 16) * 16 for lane in range(32)]
    w = wavefronts(instr, addrs)
    assert (w.count, w.ideal) == (32, 4)
    first = w.phases[0]
    assert first.wavefronts == 8 and first.worst_bank == 0 and first.worst_lanes == tuple(range(8))
    swizzled = [a ^ (((a >> 7) & 7) << 4) for a in addrs]
    assert wavefronts(instr, swizzled).count == 4


def test_narrow_accesses_do_not_conflict_inside_a_word():
    """Bytes of one word read by different lanes: one word, one wavefront (captured for 8- and 16-bit LDS/STS)."""
    for text in ("ld.shared.u16", "st.shared.u8"):
        instr = parse_instruction(text)
        w = instr.bytes_per_lane
        assert wavefronts(instr, [(lane // (4 // w)) * 4 + (lane % (4 // w)) * w for lane in range(32)]).count == 1
        assert wavefronts(instr, [lane * 128 for lane in range(32)]).count == 32


@pytest.mark.parametrize("text,message", [
    ("ld.shared.v4.b64", "32-byte accesses"), ("ld.global.b32", "not a shared-memory"),
    ("ldmatrix.sync.aligned.m8n8.shared.b16", "x1|x2|x4"), ("ld.shared.v2", "one element type"),
])
def test_unknown_instructions_are_refused(text, message):
    with pytest.raises(BankModelError, match=message):
        parse_instruction(text)


def test_addresses_are_checked():
    instr = parse_instruction("ld.shared.v4.b32")
    with pytest.raises(BankModelError, match="32 addresses"):
        wavefronts(instr, [0] * 31)
    with pytest.raises(BankModelError, match="16-byte aligned"):
        wavefronts(instr, [8] + [0] * 31)
