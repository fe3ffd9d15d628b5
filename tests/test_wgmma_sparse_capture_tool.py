"""tools/gpu/compare_wgmma_sparse.py, the comparison a capture of tools/gpu/capture_wgmma_sparse.cu will be judged
by (no capture exists yet: the sp-meta bit mapping of verifier/hardware/wgmma_sparse.py is inferred).  A table
written as the model predicts agrees; a table in which one nibble selects another row, one in which a thread that
does not supply metadata changes the result, and a short baseline are each reported."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "tools" / "gpu"))

import compare_wgmma_sparse as cmp  # noqa: E402


def predicted(table_id: str, atype: str, n: int, k: int, sp_sel: int) -> dict:
    """A table as the model predicts the capture (the shape of the .cu's JSON)."""
    t = cmp.sparse_type(atype)
    assert t is not None
    num_d = n // 2
    d = cmp._d(n, 32)
    slot_of = {tuple(int(x) for x in d.coord(lane, i)): lane * num_d + i for lane in range(128) for i in range(num_d)}
    base, alt = 0x4, 0xE
    changes = []
    for probe in range(128 * 8):
        thread, nibble = divmod(probe, 8)
        if cmp.supplies(t, thread, sp_sel) is cmp.TRUE:
            bit = cmp.meta_bit(t, thread, 4 * nibble)
            changes.append([probe, slot_of[(int(bit.row), int(bit.chunk))], cmp.chunk_sum(alt, t.chunk)])
    return {"id": table_id, "type": atype, "shape": [64, n, k], "sp_sel": sp_sel, "num_d": num_d, "base_nibble": base,
            "alt_nibble": alt, "baseline": [[s, cmp.chunk_sum(base, t.chunk)] for s in range(128 * num_d)],
            "changes": changes}


def test_a_table_as_the_model_predicts_agrees():
    for args in (("f16_0", "f16", 8, 32, 0), ("f16_1", "f16", 8, 32, 1), ("tf32_1", "tf32", 8, 16, 1),
                 ("e4m3", "e4m3", 16, 64, 0)):
        assert cmp.disagreements(predicted(*args)) == [], args


def test_a_nibble_that_selects_another_row_is_reported():
    table = predicted("f16_0", "f16", 8, 32, 0)
    probe, slot, value = table["changes"][5]
    table["changes"][5] = [probe, (slot + 4 * 4) % (128 * 4), value]      # the next row group's accumulator
    problems = cmp.disagreements(table)
    assert len(problems) == 1 and f"nibble {probe % 8}" in problems[0]


def test_a_thread_that_does_not_supply_metadata_is_reported():
    table = predicted("f16_0", "f16", 8, 32, 0)
    table["changes"].append([2 * 8 + 1, 0, 12.0])                   # thread 2 (T2 of a quad) under sp-sel 0
    assert any("thread 2 does not supply" in p for p in cmp.disagreements(table))


def test_a_short_baseline_is_reported():
    table = predicted("e4m3", "e4m3", 16, 64, 0)
    table["baseline"] = table["baseline"][:-1]
    assert any("baseline slots recorded" in p for p in cmp.disagreements(table))
