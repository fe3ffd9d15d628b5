"""wgmma.mma_async fragments (verifier/hardware/wgmma.py, written from the PTX ISA) against one-hot tables
captured on an H200 (sm_90a) by tools/gpu/capture_wgmma.cu.

The capture knows nothing of the model.  For every A position (RS: thread T of the warpgroup, element i
of its A registers, numbered as the PTX ISA numbers them, slot T*num_a + i; SS: element (m, k) of the
shared-memory A tile, index m + 64*k) and every B position (element (n, k) of the shared-memory B tile,
index n + N*k, placed where the K-major no-swizzle matrix descriptor says it is), the GPU ran the wgmma
with that single 1 and recorded every nonzero accumulator element (thread T, element j: slot T*num_d + j).
The model must say: a hit exactly when A's k equals B's k, at the D slot holding (m of A, n of B).
"""
from collections import defaultdict

import pytest

from hw_tables import tables
from verifier.hardware.registry import mma_instruction_model
from verifier.symbolic.expr import Const

DOC = tables("wgmma")
WG = DOC["tables"]
CUTLASS_TYPE = {"f16": "F16", "bf16": "BF16", "f32": "F32", "tf32": "TF32", "e4m3": "E4M3", "s8": "S8",
                "s32": "S32"}


def _ints(pair):
    return tuple(int(x.value) if hasattr(x, "value") else int(x) for x in pair)


def _atom_name(t):
    """CUTLASS's name for the atom of this table, e.g. SM90_64x8x16_F32F16F16_RS."""
    m, n, k = t["shape"]
    ty = t["types"]
    return (f"SM90_{m}x{n}x{k}_{CUTLASS_TYPE[ty['d']]}{CUTLASS_TYPE[ty['a']]}{CUTLASS_TYPE[ty['b']]}"
            f"_{t['form']}")


def _model(t):
    return mma_instruction_model(t["instruction"], _atom_name(t))


def _a_coords(model, t):
    if t["form"] == "RS":
        na = t["num_a"]
        return [_ints(model.a.coord(Const(s // na), Const(s % na))) for s in range(128 * na)]
    # SS: A is a descriptor; position index m + 64*k is the model's descriptor element
    return [_ints(model.a.coord(Const(0), Const(p))) for p in range(t["num_a_positions"])]


def _predicted_hits(model, t):
    m, n, k = t["shape"]
    nd = t["num_d"]
    A = _a_coords(model, t)
    B = [_ints(model.b.coord(Const(0), Const(p))) for p in range(t["num_b_positions"])]
    Dl = [_ints(model.c.coord(Const(s // nd), Const(s % nd))) for s in range(128 * nd)]
    # the model's fragments are bijections onto the operand tiles
    assert sorted(A) == sorted((i, j) for i in range(m) for j in range(k))
    assert sorted(B) == sorted((i, j) for i in range(n) for j in range(k))
    assert sorted(Dl) == sorted((i, j) for i in range(m) for j in range(n))
    D = {c: s for s, c in enumerate(Dl)}
    b_by_k = defaultdict(list)
    for b, (bn, bk) in enumerate(B):
        b_by_k[bk].append((b, bn))
    return sorted((a, b, D[(am, bn)]) for a, (am, ak) in enumerate(A) for b, bn in b_by_k[ak])


def test_table_carries_its_provenance():
    meta = DOC["meta"]
    assert meta["gpu"].startswith("NVIDIA") and "H200" in meta["gpu"] and meta["sm"] == "9.0"
    assert meta["driver"] and meta["cuda_runtime"] and meta["date"].endswith("Z") and not meta.get("fake")
    assert meta["tool"] == "tools/gpu/capture_wgmma.cu"
    assert DOC["failed_at_run_time"] == [] and WG


@pytest.mark.parametrize("t", WG, ids=[t["id"] for t in WG])
def test_capture_is_clean(t):
    """Zero A or zero B gives zero D, every hit is exactly 1, and nothing overflowed."""
    assert not t["overflow"] and t["records"] == len(t["hits"])
    assert t["a_only"] == [] and t["b_only"] == [] and t["zero_input_nonzero"] == []
    assert t["hit_values"] == [[1, len(t["hits"])]]
    m, n, k = t["shape"]
    assert len(t["hits"]) == m * n * k           # one hit per (m, n, k) product
    for side in ("a_smem", "b_smem"):
        if side in t:                            # the one-hot positions are distinct bytes of the tile
            offs = t[side]["byte_offset_of_position"]
            assert len(set(offs)) == len(offs)


def test_m64n8k16_rs_model_reproduces_the_gpu():
    """The brief's case, with the model looked up as the CuTe atom names it."""
    t = next(t for t in WG if t["id"] == "rs_m64n8k16_f32_f16_f16")
    model = mma_instruction_model("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "SM90_64x8x16_F32F16F16_RS")
    assert model is not None and model.lanes == 128
    assert (model.a.elements, model.b.elements, model.c.elements) == (8, 8 * 16, 4)
    assert sorted(map(tuple, t["hits"])) == _predicted_hits(model, t)


@pytest.mark.parametrize("t", WG, ids=[t["id"] for t in WG])
def test_wgmma_model_reproduces_the_gpu(t):
    model = _model(t)
    assert model is not None, t["instruction"]
    assert model.shape_mnk == tuple(t["shape"]) and model.lanes == t["threads"] == 128
    assert model.c.elements == t["num_d"] and model.b.elements == t["num_b_positions"]
    if t["form"] == "RS":
        assert model.a.elements == t["num_a"]
    else:
        assert model.a.elements == t["num_a_positions"]
    assert sorted(map(tuple, t["hits"])) == _predicted_hits(model, t)


@pytest.mark.parametrize("types,problem", [
    (("f32", "f16", "f16"), None), (("f16", "f16", "f16"), None), (("f32", "bf16", "bf16"), None),
    (("f32", "tf32", "tf32"), None), (("f16", "e4m3", "e5m2"), None), (("f32", "e5m2", "e4m3"), None),
    (("s32", "u8", "s8"), None),
    (("f32", "f16", "bf16"), "wgmma multiplies .f16 by .f16, not by .bf16"),
    (("f16", "bf16", "bf16"), "wgmma accumulates .bf16 x .bf16 in .f32, not in .f16"),
    (("f16", "tf32", "tf32"), "wgmma accumulates .tf32 x .tf32 in .f32, not in .f16"),
    (("f32", "e4m3", "s8"), "wgmma multiplies .e4m3 by .e4m3 or .e5m2, not by .s8"),
    (("f32", "s8", "s8"), "wgmma accumulates .s8 x .s8 in .s32, not in .f32"),
])
def test_a_wgmma_s_types_are_the_ptx_isa_s_pairs(types, problem):
    """The PTX ISA's Matrix Data-types: a model of types it does not pair is no instruction (theorem 2 refutes the
    atom), whatever its shape."""
    d, a, b = types
    k = {16: 16, 32: 8, 8: 32}[{"f16": 16, "bf16": 16, "tf32": 32}.get(a, 8)]
    model = mma_instruction_model(f"wgmma.mma_async.sync.aligned.m64n64k{k}.{d}.{a}.{b}")
    assert model is not None and model.invalid == (problem or "")
