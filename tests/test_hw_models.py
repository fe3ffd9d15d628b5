"""Hardware models (written from the PTX ISA) against tables captured on an H200 (sm_90).

The captures know nothing of the models: ldmatrix/stmatrix/movmatrix move uniquely numbered 16-bit
values between scrambled rows and registers; mma.sync is run with one-hot A and B slots and records
which D slots light up.  Each model must reproduce its table exactly.
"""
import pytest

from hw_tables import tables
from verifier.hardware import mma_sm70
from verifier.hardware.registry import copy_model, mma_instruction_model
from verifier.symbolic.expr import Const


def _ints(pair):
    return tuple(int(x.value) if hasattr(x, "value") else int(x) for x in pair)


LDSM = tables("ldmatrix")["tables"]
STSM = tables("stmatrix")["tables"]
MMA = tables("mma_sync")["tables"]
MMA_B1 = tables("mma_sync_b1")["tables"]
QUAD_PAIR = [t for t in MMA if t["shape"] == [8, 8, 4] and t["types"]["a"] == "f16"]


def test_tables_carry_their_provenance():
    for family in ("ldmatrix", "stmatrix", "movmatrix", "mma_sync", "mma_sync_b1"):
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


def _slots(model, table):
    """Every A, B and D slot as (group, row, col): group is the quad-pair for SM70's m8n8k4 (its 4 products
    are independent and reuse the same coordinates), 0 for every other mma.sync."""
    group = mma_sm70.quad_pair if model.section == mma_sm70.SECTION else (lambda lane: 0)
    out = []
    for frag, num in ((model.a, table["num_a"]), (model.b, table["num_b"]), (model.c, table["num_d"])):
        out.append([(group(s // num),) + _ints(frag.coord(Const(s // num), Const(s % num))) for s in range(32 * num)])
    return out


def _predicted_hits(model, table):
    """hit (a, b, d) <=> A slot a and B slot b are in the same product and share k, and D slot d is
    (m of a, n of b) in that product."""
    na, nb, nd = table["num_a"], table["num_b"], table["num_d"]
    assert (model.a.elements, model.b.elements, model.c.elements) == (na, nb, nd)
    A, B, Dl = _slots(model, table)
    D = {c: s for s, c in enumerate(Dl)}
    assert len(D) == len(Dl), "two D slots hold the same coordinate"
    return sorted((a, b, D[(A[a][0], A[a][1], B[b][1])])
                  for a in range(32 * na) for b in range(32 * nb) if A[a][0] == B[b][0] and A[a][2] == B[b][2])


@pytest.mark.parametrize("table", [t for t in MMA if _modelled(t)], ids=[t["id"] for t in MMA if _modelled(t)])
def test_mma_fragments_reproduce_the_gpu(table):
    """Every mma.sync table of mma_sync.json, SM70's quad-pair m8n8k4 included."""
    model = mma_instruction_model(table["instruction"])
    assert sorted(map(tuple, table["hits"])) == _predicted_hits(model, table)


@pytest.mark.parametrize("table", MMA_B1, ids=[t["id"] for t in MMA_B1])
def test_b1_mma_fragments_reproduce_the_gpu(table):
    """.and.popc and .xor.popc: one hit per (m, n, k) (for .xor.popc the residual -2, see tools/gpu/README.md)."""
    model = mma_instruction_model(table["instruction"])
    assert model is not None and model.a.elem_bits == model.b.elem_bits == 1
    assert sorted(map(tuple, table["hits"])) == _predicted_hits(model, table)
    xor = table["instruction"].endswith(".xor.popc")
    assert [v for v, _ in table["hit_values"]] == ([-2] if xor else [1])
    # popc(a XOR 0) = 1 on A's whole row m (every n); popc(0 XOR b) likewise on B's whole column n
    A, B, Dl = _slots(model, table)
    D = {c: s for s, c in enumerate(Dl)}
    m, n, _ = model.shape_mnk
    a_only = sorted((a, D[(0, A[a][1], j)], 1) for a in range(len(A)) for j in range(n)) if xor else []
    b_only = sorted((b, D[(0, i, B[b][1])], 1) for b in range(len(B)) for i in range(m)) if xor else []
    assert sorted(map(tuple, table["a_only"])) == a_only
    assert sorted(map(tuple, table["b_only"])) == b_only
    assert table["zero_input_nonzero"] == []


@pytest.mark.parametrize("table", QUAD_PAIR, ids=[t["id"] for t in QUAD_PAIR])
def test_quad_pair_m8n8k4_is_four_independent_products(table):
    """Lanes 4q..4q+3 and 4q+16..4q+19 compute their own 8x8x4 product: hits never cross quad-pairs, and in
    each quad-pair hit <=> same k and D slot = (m of A, n of B); each (m, n, k) lights exactly once."""
    model = mma_instruction_model(table["instruction"])
    assert model is not None and model.lanes == 32 and model.shape_mnk == (8, 8, 4)
    na, nb, nd = table["num_a"], table["num_b"], table["num_d"]
    qp = mma_sm70.quad_pair
    hits = [tuple(h) for h in table["hits"]]
    assert all(qp(a // na) == qp(b // nb) == qp(d // nd) for a, b, d in hits)

    def coord(frag, s, num):
        return _ints(frag.coord(Const(s // num), Const(s % num)))
    for q in range(mma_sm70.QUAD_PAIRS):
        lanes = [q * 4 + r + 16 * h for h in range(2) for r in range(4)]
        A = {a: coord(model.a, a, na) for lane in lanes for a in range(lane * na, (lane + 1) * na)}
        B = {b: coord(model.b, b, nb) for lane in lanes for b in range(lane * nb, (lane + 1) * nb)}
        D = {coord(model.c, d, nd): d for lane in lanes for d in range(lane * nd, (lane + 1) * nd)}
        # within the quad-pair each operand fills its tile exactly once
        assert sorted(A.values()) == [(i, j) for i in range(8) for j in range(4)]
        assert sorted(B.values()) == [(i, j) for i in range(8) for j in range(4)]
        assert sorted(D) == [(i, j) for i in range(8) for j in range(8)]
        want = sorted((a, b, D[(ma, nb_)]) for a, (ma, ka) in A.items() for b, (nb_, kb) in B.items() if ka == kb)
        assert sorted(h for h in hits if h[0] // na in lanes) == want
        assert len(want) == 8 * 8 * 4


def test_every_captured_mma_table_is_modelled():
    missing = sorted({t["instruction"] for t in MMA + MMA_B1 if not _modelled(t)})
    assert not missing, missing


def test_instruction_strings_are_read_in_either_qualifier_order():
    """CUTLASS's asm order (.x4.m8n8) and the PTX ISA's (.m8n8.x4) name the same instruction; operands ignored."""
    a = copy_model("ldmatrix.sync.aligned.x4.m8n8.shared.b16 {%0, %1, %2, %3}, [%4];")
    b = copy_model("ldmatrix.sync.aligned.m8n8.x4.shared.b16")
    assert a is b and a.instruction == "ldmatrix.sync.aligned.m8n8.x4.shared.b16"
    assert copy_model("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16") is \
        copy_model("ldmatrix.sync.aligned.x4.trans.m8n8.shared.b16")
    assert copy_model("ldmatrix.sync.aligned.m8n8.x3.shared.b16") is None
    assert mma_instruction_model("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1},{%2, %3, %4, %5},"
                                 "{%6, %7},{%8, %9};") is not None


def test_element_wise_copies_know_their_assumed_alignment():
    from verifier.hardware.registry import element_copy_alignment
    assert element_copy_alignment("DefaultCopy") == 8 and element_copy_alignment("AutoVectorizingCopy") == 128
    assert element_copy_alignment("AutoVectorizingCopyWithAssumedAlignment<64>") == 64
    # import-cutlass names the template without its argument (no layout depends on it): CuTe's default, <128>
    assert element_copy_alignment("AutoVectorizingCopyWithAssumedAlignment") == 128
    assert element_copy_alignment("AutoVectorizingCopyWithAssumedAlignment<0>") is None
    assert element_copy_alignment("UniversalCopy<uint32_t>") is None
