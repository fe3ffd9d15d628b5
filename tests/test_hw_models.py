"""Hardware models (written from the PTX ISA) against tables captured on an H200 (sm_90).

The captures know nothing of the models: ldmatrix/stmatrix/movmatrix move uniquely numbered 16-bit
values between scrambled rows and registers; mma.sync is run with one-hot A and B slots and records
which D slots light up.  Each model must reproduce its table exactly.
"""
import pytest

from hw_tables import tables
from verifier.hardware.registry import copy_model, mma_instruction_model
from verifier.symbolic.expr import Const


def _ints(pair):
    return tuple(int(x.value) if hasattr(x, "value") else int(x) for x in pair)


LDSM = tables("ldmatrix")["tables"]
STSM = tables("stmatrix")["tables"]
MMA = tables("mma_sync")["tables"]


def test_tables_carry_their_provenance():
    for family in ("ldmatrix", "stmatrix", "movmatrix", "mma_sync"):
        meta = tables(family)["meta"]
        assert meta["gpu"].startswith("NVIDIA") and meta["driver"] and meta["date"] and not meta.get("fake")


@pytest.mark.parametrize("table", LDSM, ids=[t["instruction"] for t in LDSM])
def test_ldmatrix_model_reproduces_the_gpu(table):
    model = copy_model(table["instruction"])
    assert model is not None and model.dst_bits == 32 * table["num"]
    rows = table["row_element_offset_of_lane"]
    for lane in range(32):
        for reg in range(table["num"]):
            word = table["registers"][lane][reg]
            for half in range(2):
                got = (word >> (16 * half)) & 0xFFFF
                src_lane, src_bit = _ints(model.source_of(Const(lane), Const(32 * reg + 16 * half)))
                assert src_lane < model.address_lanes
                assert got == rows[src_lane] + src_bit // 16, (lane, reg, half)


@pytest.mark.parametrize("table", STSM, ids=[t["instruction"] for t in STSM])
def test_stmatrix_model_reproduces_the_gpu(table):
    model = copy_model(table["instruction"])
    rows = table["row_element_offset_of_lane"]
    smem = list(table["smem"])
    written = set()
    for lane in range(model.dst_lanes):
        for col in range(8):
            src_lane, src_bit = _ints(model.source_of(Const(lane), Const(16 * col)))
            reg, half = src_bit // 32, (src_bit % 32) // 16
            at = rows[lane] + col
            written.add(at)
            assert smem[at] == src_lane * 8 + reg * 2 + half, (lane, col)
    untouched = [i for i in range(len(smem)) if i not in written]
    assert all(smem[i] == table["fill_value"] for i in untouched)


def test_movmatrix_model_reproduces_the_gpu():
    table = tables("movmatrix")["tables"][0]
    model = copy_model(table["instruction"])
    for lane in range(32):
        for half in range(2):
            got = (table["output"][lane] >> (16 * half)) & 0xFFFF
            src_lane, src_bit = _ints(model.source_of(Const(lane), Const(16 * half)))
            assert got == src_lane * 2 + src_bit // 16


def _modelled(t):
    return mma_instruction_model(t["instruction"]) is not None


@pytest.mark.parametrize("table", [t for t in MMA if _modelled(t)], ids=[t["id"] for t in MMA if _modelled(t)])
def test_mma_fragments_reproduce_the_gpu(table):
    """hit (a, b, d) <=> A slot a and B slot b share k, and D slot d is (m of a, n of b)."""
    model = mma_instruction_model(table["instruction"])
    na, nb, nd = table["num_a"], table["num_b"], table["num_d"]
    assert (model.a.elements, model.b.elements, model.c.elements) == (na, nb, nd)
    A = [_ints(model.a.coord(Const(s // na), Const(s % na))) for s in range(32 * na)]
    B = [_ints(model.b.coord(Const(s // nb), Const(s % nb))) for s in range(32 * nb)]
    D = {_ints(model.c.coord(Const(s // nd), Const(s % nd))): s for s in range(32 * nd)}
    want = sorted((a, b, D[(A[a][0], B[b][0])]) for a in range(32 * na) for b in range(32 * nb) if A[a][1] == B[b][1])
    assert sorted(map(tuple, table["hits"])) == want


def test_unmodelled_mma_tables_are_known():
    """Tables captured for instructions that have no model yet (issue: SM70 quad-pair m8n8k4)."""
    missing = sorted({t["instruction"] for t in MMA if not _modelled(t)})
    assert all("m8n8k4" in m and ".f16" in m for m in missing), missing
