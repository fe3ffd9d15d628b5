"""wgmma.mma_async.sp's sp-meta fragment (verifier/hardware/wgmma_sparse.py) against the H200
(tests/data/hw/wgmma_sparse.json.gz, written by tools/gpu/capture_wgmma_sparse.cu on 2026-12-05): for every thread and
metadata nibble, under sp-sel 0 and 1, the accumulator the hardware changed is the one the model's bit mapping
names, and a thread the model says supplies nothing under that sp-sel changed nothing — the inferred part of the
model (PTX ISA Figures 176, 178, 180, 181 are images) confirmed for f16, tf32 and e4m3.  The comparison itself
(tools/gpu/compare_wgmma_sparse.py) is shown to catch a wrong mapping by tests/test_wgmma_sparse_capture_tool.py."""
from __future__ import annotations

import sys
from pathlib import Path

from hw_tables import tables

sys.path.insert(0, str(Path(__file__).parent.parent / "tools" / "gpu"))

import compare_wgmma_sparse as cmp  # noqa: E402

THREADS, NIBBLES = 128, 8


def test_the_capture_is_real_and_covers_both_selectors_and_three_types():
    doc = tables("wgmma_sparse")
    assert doc["meta"]["gpu"].startswith("NVIDIA") and not doc["meta"]["fake"] and not doc["failed_at_run_time"]
    assert {(t["type"], t["sp_sel"]) for t in doc["tables"]} == {("f16", 0), ("f16", 1), ("tf32", 0), ("tf32", 1),
                                                                ("e4m3", 0)}
    assert all(not t["overflow"] for t in doc["tables"])


def test_every_captured_table_is_the_models():
    for table in tables("wgmma_sparse")["tables"]:
        assert cmp.disagreements(table) == [], table["id"]


def test_half_the_threads_supply_f16_metadata_and_every_thread_e4m3s():
    """What the text says and the capture shows: under one sp-sel two threads of each quad give a 16-bit type's
    metadata (512 of 1,024 probes change one accumulator each); an 8-bit type's every thread (1,024)."""
    changed = {t["id"]: len({c[0] for c in t["changes"]}) for t in tables("wgmma_sparse")["tables"]}
    assert changed == {"ss_m64n8k32_f32_f16_f16_spsel0": THREADS * NIBBLES // 2,
                       "ss_m64n8k32_f32_f16_f16_spsel1": THREADS * NIBBLES // 2,
                       "ss_m64n8k16_f32_tf32_tf32_spsel0": THREADS * NIBBLES // 2,
                       "ss_m64n8k16_f32_tf32_tf32_spsel1": THREADS * NIBBLES // 2,
                       "ss_m64n16k64_f32_e4m3_e4m3_spsel0": THREADS * NIBBLES}
