"""Structure checks for the raw hardware tables in tests/data/hw/ (captured on an H200 by
tools/gpu/capture.cu).  These tests check only that the files are well formed and internally
consistent; they contain no model of any instruction's layout (models are tested elsewhere).

Set HW_TABLES_DIR to check another folder (e.g. a fresh capture, gzipped by
tools/gpu/pack_tables.py).
"""
import gzip
import json
import os
from collections import Counter
from pathlib import Path

import pytest

HW_DIR = Path(os.environ.get("HW_TABLES_DIR", Path(__file__).parent / "data" / "hw"))
FAMILIES = ["ldmatrix", "stmatrix", "movmatrix", "mma_sync", "mma_sync_b1"]
MAX_BYTES = 2 * 1024 * 1024

_cache = {}


def load(family):
    if family not in _cache:
        path = HW_DIR / f"{family}.json.gz"
        assert path.exists(), f"missing {path}"
        assert path.stat().st_size < MAX_BYTES, f"{path} is {path.stat().st_size} bytes"
        with gzip.open(path, "rt") as f:
            _cache[family] = json.load(f)
    return _cache[family]


def halves(word):
    return [word & 0xFFFF, (word >> 16) & 0xFFFF]


@pytest.mark.parametrize("family", FAMILIES)
def test_meta_and_envelope(family):
    doc = load(family)
    meta = doc["meta"]
    for key in ("gpu", "sm", "driver", "date", "tool", "cuda_runtime"):
        assert isinstance(meta.get(key), str) and meta[key], key
    assert meta["tool"] == "tools/gpu/capture.cu"
    assert meta["sm"] == "9.0"
    assert "H200" in meta["gpu"]
    assert meta.get("fake") is False
    assert len(meta["date"]) >= 20 and meta["date"].endswith("Z")
    assert isinstance(doc["tables"], list) and doc["tables"]
    assert doc["failed_at_run_time"] == [], doc["failed_at_run_time"]
    assert isinstance(doc["not_assembled"], list)


def test_gzip_is_deterministic():
    for fam in FAMILIES:
        raw = (HW_DIR / f"{fam}.json.gz").read_bytes()
        assert raw[:2] == b"\x1f\x8b"
        assert raw[4:8] == b"\x00\x00\x00\x00", f"{fam}: gzip mtime is not 0"


def _check_rows(t):
    assert sorted(t["row_of_lane"]) == list(range(32))
    offs = t["row_element_offset_of_lane"]
    assert len(offs) == 32 and all(o % 8 == 0 for o in offs)
    assert [8 * r for r in t["row_of_lane"]] == offs
    assert t["lanes_whose_address_is_used_per_isa"] == 8 * t["num"]


def test_ldmatrix_tables():
    doc = load("ldmatrix")
    seen = set()
    for t in doc["tables"]:
        num, trans = t["num"], t["trans"]
        assert num in (1, 2, 4) and isinstance(trans, bool)
        seen.add((num, trans))
        assert t["instruction"] == f"ldmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16"
        _check_rows(t)
        offs = t["row_element_offset_of_lane"]
        regs = t["registers"]
        assert len(regs) == 32 and all(len(r) == num for r in regs)
        assert all(isinstance(w, int) and 0 <= w < 2**32 for r in regs for w in r)
        pointed = set(offs)
        used = set(offs[: 8 * num])
        got = [h for r in regs for w in r for h in halves(w)]
        # every half decodes to an element of a row some lane pointed at
        assert all(e // 8 * 8 in pointed for e in got)
        # and (ISA: lanes 0..8*num-1 supply the row addresses) each element of those rows once
        assert Counter(got) == Counter(o + c for o in used for c in range(8))
    assert seen == {(n, t) for n in (1, 2, 4) for t in (False, True)}


def test_stmatrix_tables():
    doc = load("stmatrix")
    seen = set()
    for t in doc["tables"]:
        num, trans = t["num"], t["trans"]
        seen.add((num, trans))
        assert t["instruction"] == f"stmatrix.sync.aligned.m8n8.x{num}{'.trans' if trans else ''}.shared.b16"
        _check_rows(t)
        regs = t["registers"]
        assert len(regs) == 32 and all(len(r) == num for r in regs)
        for lane, r in enumerate(regs):
            for k, w in enumerate(r):
                assert halves(w) == [lane * 8 + k * 2, lane * 8 + k * 2 + 1]
        smem = t["smem"]
        assert len(smem) == 256 and all(0 <= v <= 0xFFFF for v in smem)
        fill = t["fill_value"]
        written = [v for v in smem if v != fill]
        # every source half lands exactly once, nothing else is written
        expected = {l * 8 + k * 2 + h for l in range(32) for k in range(num) for h in range(2)}
        assert Counter(written) == Counter(expected)
        used_rows = set(t["row_element_offset_of_lane"][: 8 * num])
        for i, v in enumerate(smem):
            if v != fill:
                assert i // 8 * 8 in used_rows
    assert seen == {(n, t) for n in (1, 2, 4) for t in (False, True)}


def test_movmatrix_table():
    doc = load("movmatrix")
    (t,) = doc["tables"]
    assert t["instruction"] == "movmatrix.sync.aligned.m8n8.trans.b16"
    assert [halves(w) for w in t["input"]] == [[2 * l, 2 * l + 1] for l in range(32)]
    out = [h for w in t["output"] for h in halves(w)]
    assert sorted(out) == list(range(64))


def _elems(regs, bits):
    return regs if bits == 64 else regs * (32 // bits)


D_PER_REG = {"f16": 2, "f32": 1, "s32": 1, "f64": 1}
A_BITS = {"f16": 16, "bf16": 16, "tf32": 32, "s8": 8, "u8": 8, "s4": 4, "u4": 4,
          "e4m3": 8, "e5m2": 8, "b1": 1, "f64": 64}


@pytest.mark.parametrize("family", ["mma_sync", "mma_sync_b1"])
def test_mma_tables(family):
    doc = load(family)
    ids = set()
    for t in doc["tables"]:
        assert t["id"] not in ids
        ids.add(t["id"])
        M, N, K = t["shape"]
        ty = t["types"]
        shape = f"m{M}n{N}k{K}"
        assert t["instruction"].startswith(
            f"mma.sync.aligned.{shape}.{t['layout']}.{ty['d']}.{ty['a']}.{ty['b']}.{ty['c']}")
        assert t["a_elem_bits"] == A_BITS[ty["a"]] and t["b_elem_bits"] == A_BITS[ty["b"]]
        na, nb, nd = t["num_a"], t["num_b"], t["num_d"]
        assert na == _elems(t["a_regs"], t["a_elem_bits"])
        assert nb == _elems(t["b_regs"], t["b_elem_bits"])
        assert nd == t["d_regs"] * D_PER_REG[ty["d"]]
        # the warp holds the whole A, B and D operands (m8n8k4: four independent quad-pair products)
        reps = 4 if shape == "m8n8k4" and ty["a"] == "f16" else 1
        assert 32 * na == reps * M * K and 32 * nb == reps * K * N and 32 * nd == reps * M * N
        assert t["overflow"] is False
        hits = t["hits"]
        assert hits, t["id"]
        assert all(len(h) == 3 for h in hits)
        assert len(set(map(tuple, hits))) == len(hits)
        for a, b, d in hits:
            assert 0 <= a < 32 * na and 0 <= b < 32 * nb and 0 <= d < 32 * nd
        # one (m, n, k) per lit slot pair: reps*M*N*K hits in all, every slot of A, B and D used
        assert len(hits) == reps * M * N * K, (t["id"], len(hits))
        assert {h[0] for h in hits} == set(range(32 * na))
        assert {h[1] for h in hits} == set(range(32 * nb))
        assert {h[2] for h in hits} == set(range(32 * nd))
        assert sum(c for _, c in t["hit_values"]) == len(hits)
        xor = t["instruction"].endswith(".xor.popc")
        assert [v for v, _ in t["hit_values"]] == ([-2] if xor else [1])
        assert t["zero_input_nonzero"] == []
        if xor:
            assert all(0 <= a < 32 * na and 0 <= d < 32 * nd and v == 1 for a, d, v in t["a_only"])
            assert all(0 <= b < 32 * nb and 0 <= d < 32 * nd and v == 1 for b, d, v in t["b_only"])
            assert len(t["a_only"]) == 32 * na * N and len(t["b_only"]) == 32 * nb * M
        else:
            assert t["a_only"] == [] and t["b_only"] == []
    if family == "mma_sync":
        must = {
            "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16",
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
            "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
            "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32",
            "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",
            "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32",
            "mma.sync.aligned.m16n8k32.row.col.s32.u8.u8.s32",
            "mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64",
            "mma.sync.aligned.m16n8k32.row.col.f32.e4m3.e4m3.f32",
            "mma.sync.aligned.m16n8k32.row.col.f32.e5m2.e5m2.f32",
        }
    else:
        must = {f"mma.sync.aligned.{s}.row.col.s32.b1.b1.s32.and.popc"
                for s in ("m8n8k128", "m16n8k128", "m16n8k256")}
    got = {t["instruction"] for t in doc["tables"]}
    assert must <= got, must - got
