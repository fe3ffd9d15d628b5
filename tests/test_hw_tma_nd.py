"""The N-D TMA model (verifier/hardware/tma.py, TensorMapND): tiled loads of rank 1..5 and the packed sub-byte types,
written from the driver API (cuTensorMapEncodeTiled) and the PTX ISA.

- Rank 2: every captured 2-D placement, strided load, encoding and run-time refusal (tests/data/hw/tma.json.gz,
  tma_store.json.gz) replayed through the N-D functions, byte for byte — the N-D model is the validated 2-D one there.
- Ranks 1, 3, 4, 5 and the sub-byte types: unit tests of the documented layout, each with its expectation written
  out (and a wrong row order shown to fail them).
- tests/data/hw/tma_nd.json.gz (tools/gpu/capture_tma_nd.cu), when it exists: every placement and encoding.
"""
import json
import random

import pytest

from hw_tables import HW, tables
from test_hw_tma import ENCODINGS, PLACEMENTS, TMA, observed
from test_hw_tma_store import STRIDED
from verifier.commands.hw import hw_main
from verifier.hardware.tma import (SUBBYTE_TYPES, TX_UNMODELLED, TensorMap2D, TensorMapND, TmaSwizzle, copy_refusal,
                                   copy_refusal_nd, element_position, encode_refusal, encode_refusal_nd,
                                   global_offset_nd, padding_nd, placement, placement_nd,
                                   smem_address, smem_address_nd, tx_bytes_nd)
from verifier.symbolic.expr import Var, evaluate

SW = TmaSwizzle


def nd_map(p: dict) -> TensorMapND:
    """A captured 2-D placement's tensor map, as the N-D model takes it."""
    return TensorMapND(p["dtype"], tuple(p["box"]), tuple(p["global_dim"]), (p["global_stride"],), SW(p["swizzle"]),
                       tuple(p.get("element_strides", ())), p["oob_fill"] == "nan")


def modelled_nd(t: TensorMapND, start, dst: int, window: int) -> dict:
    """Window offset -> global byte offset (or ('fill', byte)) as the N-D model places the copy."""
    return {w.addr - window: global_offset_nd(t, w.coord, w.byte) if w.coord is not None else ("fill", w.value)
            for w in placement_nd(t, tuple(start), dst)}


# --- rank 2: the N-D model is the captured 2-D one --------------------------------------------------------------

@pytest.mark.parametrize("family", sorted({tid for tid, _ in PLACEMENTS}))
def test_every_captured_2d_placement_is_reproduced_by_the_nd_model(family):
    for tid, p in PLACEMENTS:
        if tid != family:
            continue
        t = nd_map(p)
        dst = p["window_addr"] + p["dst_offset"]
        assert encode_refusal_nd(t) is None and copy_refusal_nd(t, tuple(p["start"]), dst) is None
        assert observed(p) == modelled_nd(t, p["start"], dst, p["window_addr"]), (p["box"], p["start"], p["swizzle"])
        assert tx_bytes_nd(t) == p["expect_tx"] and padding_nd(t, dst) == []


@pytest.mark.parametrize("family", sorted({tid for tid, _ in STRIDED}))
def test_every_captured_strided_load_is_reproduced_by_the_nd_model(family):
    for tid, p in STRIDED:
        if tid != family:
            continue
        t = nd_map(p)
        got = modelled_nd(t, p["start"], p["window_addr"] + p["dst_offset"], p["window_addr"])
        assert observed(p) == got, (p["element_strides"], p["start"], p["dst_offset"])
        assert len(got) == tx_bytes_nd(t)


def test_the_nd_writes_are_the_2d_writes_in_the_same_order():
    """Not only the same bytes: the same list, write by write (coordinates reversed: (col, row) is (row, col))."""
    for _, p in PLACEMENTS[::7] + STRIDED:
        t2 = TensorMap2D(p["elem_bytes"], tuple(p["box"]), SW(p["swizzle"]), tuple(p["global_dim"]),
                         p["global_stride"], p["oob_fill"] == "nan", element_strides=tuple(p.get("element_strides",
                                                                                                  (1, 1))))
        dst = p["window_addr"] + p["dst_offset"]
        two = [(w.addr, (w.col, w.row) if w.row >= 0 else None, w.byte, w.value)
               for w in placement(t2, tuple(p["start"]), dst)]
        nd = [(w.addr, w.coord, w.byte, w.value) for w in placement_nd(nd_map(p), tuple(p["start"]), dst)]
        assert nd == two


def test_every_captured_2d_encoding_is_accepted_or_refused_as_the_driver_did():
    f = ENCODINGS["fields"]
    results = set()
    for row in ENCODINGS["rows"]:
        d = dict(zip(f, row))
        t = TensorMapND(d["dtype"], (d["box0"], d["box1"]), (d["dim0"], d["dim1"]), (d["stride"],), SW(d["swizzle"]),
                        (d["elem_stride0"], d["elem_stride1"]), d["nan_fill"], d["addr_misalign"])
        assert (encode_refusal_nd(t) is None) == (d["result"] == 0), d
        results.add(d["result"] == 0)
    assert results == {True, False}


def test_the_copies_the_h200_refused_are_refused_by_the_nd_model():
    failed = {f["job"] for f in TMA["failed_at_run_time"]}
    assert len(failed) == 9
    t = TensorMapND("float16", (64, 8), (80, 16), (176,))
    for job in failed:
        if job.startswith("misaligned_"):
            assert "misaligned address" in copy_refusal_nd(t, (0, 0), 1024 + int(job.rsplit("_", 1)[1]))
        else:
            dtype, c0 = job.split("_")[2], int(job.rsplit("_", 1)[1])
            e = {"uint8": 1, "uint16": 2, "float32": 4, "uint64": 8}[dtype]
            assert "illegal instruction" in copy_refusal_nd(TensorMapND(dtype, (32 // e, 2), (128 // e, 8), (128,)),
                                                            (c0, 1), 1024)
    assert copy_refusal_nd(TensorMapND("uint8", (32, 2), (128, 8), (128,)), (16, 1), 1024) is None


def test_random_2d_maps_agree_with_the_2d_model_refusals_and_bytes_included():
    rng = random.Random(20261204)
    types = ["uint8", "uint16", "float16", "uint32", "float32", "uint64", "float64"]
    agreed = 0
    for _ in range(400):
        dtype = rng.choice(types)
        e = {"uint8": 1, "uint16": 2, "float16": 2}.get(dtype, 4 if "32" in dtype else 8)
        box = (rng.choice([4, 8, 16, 24, 32, 64, 128]) // e or 1, rng.randint(1, 9))
        dims = (rng.randint(1, 80), rng.randint(1, 12))
        stride = rng.choice([16, 32, 48, 128, 136, 256])
        swz = rng.choice(list(SW)[:4])
        es = (rng.randint(1, 3), rng.randint(1, 3))
        nan = rng.random() < 0.2
        start = (rng.randint(-4, 4) * 16 // e, rng.randint(-3, 12))
        dst = rng.choice([0, 128, 256, 1024, 1040, 1152])
        t2 = TensorMap2D(e, box, swz, dims, stride, nan, dtype.startswith("float"), element_strides=es)
        tn = TensorMapND(dtype, box, dims, (stride,), swz, es, nan)
        assert (encode_refusal(t2) is None) == (encode_refusal_nd(tn) is None), (t2, encode_refusal_nd(tn))
        if encode_refusal(t2) is None:
            assert (copy_refusal(t2, start, dst) is None) == (copy_refusal_nd(tn, start, dst) is None)
            if copy_refusal(t2, start, dst) is None:
                assert [(w.addr, w.value) for w in placement(t2, start, dst)] == \
                    [(w.addr, w.value) for w in placement_nd(tn, start, dst)]
                agreed += 1
    assert agreed > 50


def test_the_nd_address_is_the_2d_expression_on_symbolic_coordinates():
    row, col, byte, dst = Var("row", 8), Var("col", 64), Var("byte", 2), Var("dst", 1 << 14)
    for swz in (SW.NONE, SW.B32, SW.B64, SW.B128, SW.B128_ATOM_32B):
        t2 = TensorMap2D(2, (16 if swz is SW.B32 else 64 if swz is not SW.NONE else 24, 8), swz)
        tn = TensorMapND("uint16", t2.box, t2.global_dim, (t2.global_stride,), swz)
        assert smem_address_nd(tn, dst * 128, (col, row), byte) == smem_address(t2, dst * 128, row, col, byte)


@pytest.mark.parametrize("dtype,swz", [("uint16", SW.B128), ("float32", SW.NONE), ("16U6_ALIGN16B", SW.B128),
                                       ("16U4_ALIGN8B", SW.B64)])
def test_the_nd_address_takes_symbolic_coordinates_of_every_rank(dtype, swz):
    t = TensorMapND(dtype, (128 if "U" in dtype else 32 if swz is SW.NONE else 64, 3, 2), (256, 4, 4), (512, 2048),
                    swz)
    i0, j1, j2, b, d = Var("i0", t.box[0]), Var("j1", 3), Var("j2", 2), Var("b", t.unit_bytes), Var("d", 64)
    expr = smem_address_nd(t, d * 128, (i0 // t.unit * t.unit, j1, j2), b)
    for point in ({"i0": 0, "j1": 0, "j2": 0, "b": 0, "d": 8}, {"i0": t.box[0] - 1, "j1": 2, "j2": 1, "b": 1, "d": 9},
                  {"i0": t.box[0] // 2, "j1": 1, "j2": 1, "b": t.unit_bytes - 1, "d": 3}):
        unit = point["i0"] // t.unit * t.unit
        want = smem_address_nd(t, point["d"] * 128, (unit, point["j1"], point["j2"]), point["b"])
        assert evaluate([expr], point) == [want], point


# --- ranks 1, 3, 4, 5: the documented layout ---------------------------------------------------------------------

def test_a_3d_box_lands_row_by_row_dimension_1_fastest():
    """A (4, 3, 2) box of uint32 (16-byte rows): rows (j1, j2) = (0,0) (1,0) (2,0) (0,1) (1,1) (2,1), each 16 bytes."""
    t = TensorMapND("uint32", (4, 3, 2), (8, 5, 4), (32, 160))
    writes = placement_nd(t, (4, 1, 2), 1024)
    assert tx_bytes_nd(t) == len(writes) == 96 and t.rows == 6 and t.row_pitch == 16
    at = {w.addr: (w.coord, w.byte) for w in writes}
    assert at[1024] == ((4, 1, 2), 0) and at[1024 + 15] == ((7, 1, 2), 3)
    assert at[1024 + 16] == ((4, 2, 2), 0)                 # row 1: the next coordinate of dimension 1
    assert at[1024 + 48] == ((4, 1, 3), 0)                 # row 3: dimension 2's next, after 3 rows of dimension 1
    assert at[1024 + 80] == ((4, 3, 3), 0)
    assert global_offset_nd(t, (4, 3, 3), 1) == 4 * 4 + 3 * 32 + 3 * 160 + 1
    assert smem_address_nd(t, 1024, (3, 2, 1), 2) == 1024 + 16 * (2 + 3 * 1) + 4 * 3 + 2


def wrong_rows_dimension_2_first(t: TensorMapND, start, dst: int) -> dict:
    """A plausible wrong model: rows numbered with dimension 2 fastest (row = j2 + n2 * j1)."""
    e = t.bits // 8
    return {dst + (j2 + t.box[2] * j1) * t.row_pitch + i0 * e: (start[0] + i0, start[1] + j1, start[2] + j2)
            for j1 in range(t.box[1]) for j2 in range(t.box[2]) for i0 in range(t.box[0])}


def test_rows_numbered_dimension_2_first_would_fail_these_tests():
    t = TensorMapND("uint32", (4, 3, 2), (8, 5, 4), (32, 160))
    model = {w.addr: w.coord for w in placement_nd(t, (4, 1, 2), 1024) if w.byte == 0}
    wrong = wrong_rows_dimension_2_first(t, (4, 1, 2), 1024)
    assert model[1024 + 16] == (4, 2, 2) != wrong[1024 + 16] == (4, 1, 3)
    assert sorted(model.values()) == sorted(wrong.values()) and model != wrong


def test_a_box_with_its_outer_dimensions_partly_out_of_bounds_is_filled():
    """Rows (j1, j2) with c1 = 4 + j1 < 5 and c2 = 3 + j2 < 4 are read, every other row is filled — zeros, or
    0x7FF7 with the NaN request; the transaction counts the whole box."""
    for nan, dtype in ((False, "uint32"), (True, "float32")):
        t = TensorMapND(dtype, (4, 3, 2), (8, 5, 4), (32, 160), oob_nan=nan)
        writes = placement_nd(t, (0, 4, 3), 2048)
        read = [w for w in writes if w.coord is not None]
        assert len(writes) == tx_bytes_nd(t) == 96 and len(read) == 16
        assert {w.coord[1:] for w in read} == {(4, 3)} and {w.addr for w in read} == set(range(2048, 2064))
        fills = {w.value for w in writes if w.coord is None}
        assert fills == ({0xF7, 0x7F} if nan else {0})
    inside_row = placement_nd(TensorMapND("uint8", (16, 2, 2), (16, 2, 2), (16, 32)), (0, 1, -1), 0)
    assert [w.coord for w in inside_row if w.coord is not None][0] == (0, 1, 0)    # row (j1=0, j2=1) only
    assert sum(w.coord is not None for w in inside_row) == 16


def test_a_swizzled_3d_box_keeps_a_whole_span_per_row_and_swizzles_absolute_addresses():
    t = TensorMapND("uint16", (8, 2, 2), (8, 2, 2), (16, 32), SW.B128)     # 16-byte rows under the 128B swizzle
    assert t.row_pitch == 128 and t.footprint == 512
    at = {w.coord: w.addr for w in placement_nd(t, (0, 0, 0), 1024) if w.byte == 0}
    assert at[(0, 0, 0)] == 1024 and at[(0, 1, 0)] == 1024 + 128 + 16 and at[(0, 0, 1)] == 1024 + 256 + 32
    assert at[(0, 1, 1)] == 1024 + 384 + 48 and at[(4, 1, 1)] == 1024 + 384 + 48 + 8
    wide = TensorMapND("uint16", (64, 2, 2), (64, 2, 2), (128, 256), SW.B128)
    at = {w.coord: w.addr for w in placement_nd(wide, (0, 0, 0), 1024 + 128) if w.byte == 0}
    assert at[(0, 0, 0)] == 1024 + 128 + 16            # off the 1024-byte repeat: row 0 already XORed with 1
    assert at[(8, 1, 1)] == 1024 + 128 + 3 * 128 + ((1 ^ 4) << 4)


def test_ranks_1_4_and_5():
    t1 = TensorMapND("uint8", (64,), (80,), ())
    w1 = placement_nd(t1, (32,), 0)
    assert [w.addr for w in w1] == list(range(64)) and sum(w.coord is None for w in w1) == 16 and t1.rows == 1
    assert encode_refusal_nd(t1) is None and tx_bytes_nd(t1) == 64
    t5 = TensorMapND("uint16", (8, 2, 2, 2, 2), (8, 2, 2, 2, 3), (16, 32, 64, 128))
    w5 = {w.coord: w.addr for w in placement_nd(t5, (0, 0, 0, 0, 1), 0) if w.byte == 0}
    assert encode_refusal_nd(t5) is None and t5.rows == 16 and tx_bytes_nd(t5) == 256
    assert w5[(0, 1, 0, 0, 1)] == 16 and w5[(0, 0, 1, 0, 1)] == 32 and w5[(0, 0, 0, 1, 1)] == 64
    assert w5[(0, 0, 0, 0, 2)] == 128 and w5[(7, 1, 1, 1, 2)] == 240 + 14
    t4 = TensorMapND("float32", (4, 2, 3, 2), (4, 2, 3, 2), (16, 32, 96))
    assert smem_address_nd(t4, 0, (1, 1, 2, 1), 3) == 16 * (1 + 2 * (2 + 3 * 1)) + 4 + 3


def test_the_scale_factor_box_puts_the_second_k_block_after_the_first():
    """256 uint16 = one 512-byte block a row; k-blocks 512 bytes apart along dimension 1 and m-blocks 4096 along
    dimension 2: a box of 2 k-blocks lands as 1024 contiguous bytes, smem byte k from global byte
    (c1 + k // 512) * 512 + c2 * 4096 + k % 512."""
    t = TensorMapND("uint16", (256, 2, 1, 1), (256, 8, 4, 1), (512, 4096, 16384))
    assert encode_refusal_nd(t) is None
    assert copy_refusal_nd(t, (0, 2, 1, 0), 0x400) is None and tx_bytes_nd(t) == 1024
    writes = placement_nd(t, (0, 2, 1, 0), 0x400)
    got = {w.addr - 0x400: global_offset_nd(t, w.coord, w.byte) for w in writes}
    assert got == {k: (2 + k // 512) * 512 + 1 * 4096 + k % 512 for k in range(1024)}
    last = placement_nd(t, (0, 7, 3, 0), 0x400)        # the second k-block is past the tensor: zeros
    assert all(w.coord is None for w in last[512:]) and all(w.coord is not None for w in last[:512])


def test_element_strides_keep_every_s_th_coordinate_of_the_outer_dimensions_packed():
    t = TensorMapND("float16", (8, 4, 3), (8, 8, 8), (16, 128), element_strides=(2, 2, 2))
    assert t.counts == (8, 2, 2) and t.rows == 4 and tx_bytes_nd(t) == 64      # dimension 0's stride is ignored
    at = {w.coord: w.addr for w in placement_nd(t, (0, 1, 1), 0) if w.byte == 0}
    assert at[(0, 1, 1)] == 0 and at[(0, 3, 1)] == 16 and at[(0, 1, 3)] == 32 and at[(7, 3, 3)] == 48 + 14


# --- refusals ----------------------------------------------------------------------------------------------------

def refusal(dtype="uint16", box=(16, 2, 2), dims=(64, 8, 8), strides=(128, 1024), **kw) -> str | None:
    return encode_refusal_nd(TensorMapND(dtype, box, dims, strides, **kw))


def test_what_the_driver_refuses_for_every_rank():
    assert refusal() is None
    assert "tensorRank" in refusal(box=(16,) + (1,) * 5, dims=(64,) + (2,) * 5, strides=(128, 256, 512, 1024, 2048))
    assert refusal(box=(16,) + (1,) * 4, dims=(64,) + (2,) * 4, strides=(128, 256, 512, 1024)) is None
    assert "boxDim[2]" in refusal(box=(16, 2, 257))
    assert refusal(box=(16, 2, 256), dims=(64, 8, 300)) is None
    assert "globalStrides[1]" in refusal(strides=(128, 520))
    assert "globalStrides[0]" in refusal(strides=(520, 4160))
    assert "below 2^40" in refusal(strides=(128, 1 << 40))
    assert "globalDim[2]" in refusal(dims=(64, 8, (1 << 32) + 1)) and refusal(dims=(64, 8, 1 << 32)) is None
    assert "elementStrides[2]" in refusal(element_strides=(1, 1, 9))
    assert "multiple of 16" in refusal(box=(12, 2, 2))
    assert "swizzle span" in refusal(box=(32, 2, 2), swizzle=SW.B32)
    assert "aligned" in refusal(global_address=8)
    assert "floating-point" in refusal(oob_nan=True) and refusal("float16", oob_nan=True) is None
    assert refusal("float32_ftz", box=(4, 2, 2), oob_nan=True) is None


def test_what_the_driver_refuses_for_the_sub_byte_types():
    a16 = dict(box=(128, 2), dims=(256, 8), strides=(160,))
    for dtype in ("16U4_ALIGN16B", "16U6_ALIGN16B"):
        assert refusal(dtype, **a16) is None
        assert "must be 128" in refusal(dtype, **{**a16, "box": (64, 2)})
        assert "must be 128" in refusal(dtype, **{**a16, "box": (256, 2)})
        assert "multiple of 128" in refusal(dtype, **{**a16, "dims": (192, 8)})
        assert "multiple of 32" in refusal(dtype, **{**a16, "strides": (144,)})
        assert "32-byte aligned" in refusal(dtype, **a16, global_address=16)
        assert refusal(dtype, **a16, global_address=32) is None
        for swz in (SW.NONE, SW.B128, SW.B128_ATOM_32B):
            assert refusal(dtype, **a16, swizzle=swz) is None
        for swz in (SW.B32, SW.B64):
            assert "allows the swizzles" in refusal(dtype, **a16, swizzle=swz)
        assert "packed type" in refusal(dtype, **a16, oob_nan=True)
    a8 = dict(box=(64, 2), dims=(256, 8), strides=(128,))
    assert refusal("16U4_ALIGN8B", **a8) is None and refusal("16U4_ALIGN8B", **a8, swizzle=SW.B32) is None
    assert "multiple of 2" in refusal("16U4_ALIGN8B", **{**a8, "dims": (255, 8)})
    assert "multiple of 16" in refusal("16U4_ALIGN8B", **{**a8, "box": (16, 2)})        # 8 bytes
    assert "swizzle span" in refusal("16U4_ALIGN8B", **{**a8, "box": (128, 2)}, swizzle=SW.B32)
    assert refusal("16U4_ALIGN8B", **{**a8, "strides": (144,)}) is None                # 16-byte strides suffice
    assert "packed type" in refusal("16U4_ALIGN8B", **a8, oob_nan=True)


def test_what_the_copy_refuses():
    byte = TensorMapND("uint16", (16, 2, 2), (64, 8, 8), (128, 1024))
    assert "not 128-byte aligned" in copy_refusal_nd(byte, (0, 0, 0), 1040)
    assert "illegal instruction" in copy_refusal_nd(byte, (4, 0, 0), 1024)
    assert copy_refusal_nd(byte, (-8, 3, -1), 1024) is None
    pad = TensorMapND("16U6_ALIGN16B", (128, 2), (256, 8), (224,))
    assert "multiple of 128" in copy_refusal_nd(pad, (64, 0), 0) and copy_refusal_nd(pad, (128, 0), 0) is None
    packed = TensorMapND("16U4_ALIGN8B", (64, 2), (256, 8), (128,))
    assert "16-byte boundary" in copy_refusal_nd(packed, (16, 0), 0) and copy_refusal_nd(packed, (32, 0), 0) is None
    with pytest.raises(ValueError):
        copy_refusal_nd(byte, (0, 0), 0)
    with pytest.raises(ValueError):
        TensorMapND("uint16", (16, 2), (64, 8), (128, 256))
    with pytest.raises(ValueError):
        TensorMapND("uint12", (16, 2), (64, 8), (128,))


def test_strides_that_do_not_nest_are_accepted_as_cutlass_encodes_them():
    """CUTLASS's scale-factor maps put m-blocks (4096 bytes apart) before k-blocks (512): not nested."""
    assert encode_refusal_nd(TensorMapND("uint16", (256, 1, 1), (256, 4, 8), (4096, 512))) is None


# --- the sub-byte types ------------------------------------------------------------------------------------------

def test_16u4_align8b_copies_the_packed_bytes_unchanged():
    t = TensorMapND("16U4_ALIGN8B", (64, 2), (256, 4), (128,))
    writes = placement_nd(t, (32, 1), 0)
    assert tx_bytes_nd(t) == len(writes) == 64 and t.row_pitch == 32 and padding_nd(t, 0) == []
    got = {w.addr: global_offset_nd(t, w.coord, w.byte) for w in writes}
    assert got == {r * 32 + k: (1 + r) * 128 + 16 + k for r in range(2) for k in range(32)}
    assert {w.coord[0] for w in writes} == {32, 48, 64, 80}        # the first element of each group of 16
    past = placement_nd(TensorMapND("16U4_ALIGN8B", (64, 1), (70, 4), (128,)), (32, 0), 0)
    assert [w.coord is not None for w in past] == [True] * 19 + [False] * 13     # elements 32..69: 19 bytes


@pytest.mark.parametrize("dtype,data", [("16U4_ALIGN16B", 8), ("16U6_ALIGN16B", 12)])
def test_a_padded_type_puts_each_group_at_the_start_of_a_16_byte_slot(dtype, data):
    stride = 256
    t = TensorMapND(dtype, (128, 2), (256, 4), (stride,))
    writes = placement_nd(t, (128, 2), 0x800)
    got = {w.addr - 0x800: global_offset_nd(t, w.coord, w.byte) for w in writes}
    row_global = 128 * t.bits // 8                         # the start's byte offset along dimension 0
    assert got == {r * 128 + 16 * g + b: (2 + r) * stride + row_global + data * g + b
                   for r in range(2) for g in range(8) for b in range(data)}
    assert sorted(a - 0x800 for a in padding_nd(t, 0x800)) == sorted(
        r * 128 + 16 * g + b for r in range(2) for g in range(8) for b in range(data, 16))
    assert tx_bytes_nd(t) is None and "documented nowhere" in TX_UNMODELLED
    assert t.footprint == 256 and t.smem_inner_bytes == 128
    oob = placement_nd(t, (128, 3), 0)                     # row 4 is past the tensor: its data bytes are zeros
    assert [w.value for w in oob[8 * data:]] == [0] * (8 * data) and all(w.coord for w in oob[:8 * data])


def test_a_padded_type_under_the_128b_swizzle():
    t = TensorMapND("16U4_ALIGN16B", (128, 2), (256, 4), (128,), SW.B128)
    at = {(w.coord, w.byte): w.addr for w in placement_nd(t, (0, 0), 1024)}
    assert at[((0, 0), 0)] == 1024 and at[((0, 1), 0)] == 1024 + 128 + 16 and at[((16, 1), 7)] == 1024 + 128 + 7
    pad = set(padding_nd(t, 1024))                          # each slot's upper 8 bytes move with its chunk
    assert {1024 + 128 + 16 + 8, 1024 + 128 + 8} <= pad and not {1024 + 128 + 16 + 7, 1024 + 128 + 7} & pad


@pytest.mark.parametrize("dtype", sorted(SUBBYTE_TYPES))
def test_element_position_is_where_the_copy_puts_the_element_s_bytes(dtype):
    """Element k's first and last bits come from global bits bits*k .. bits*k + bits - 1 of the row: the shared bytes
    element_position names are the ones the placement fills from those global bytes."""
    t = TensorMapND(dtype, (128, 1), (128, 1), (128,))
    from_global = {global_offset_nd(t, w.coord, w.byte): w.addr for w in placement_nd(t, (0, 0), 0)}
    for k in range(128):
        pos = element_position(t, k)
        assert pos.first_byte == from_global[t.bits * k // 8]
        assert pos.last_byte == from_global[(t.bits * k + t.bits - 1) // 8]
    sb = SUBBYTE_TYPES[dtype]
    assert element_position(t, 37).slot == 2 * sb.slot and element_position(t, 37).bit == 5 * sb.bits
    with pytest.raises(ValueError):
        element_position(TensorMapND("uint8", (16,), (16,)), 3)


def test_a_6_bit_element_may_straddle_two_bytes():
    pos = element_position(TensorMapND("16U6_ALIGN16B", (128, 1), (128, 1), (128,)), 21)
    assert (pos.slot, pos.bit, pos.first_byte, pos.last_byte) == (16, 30, 19, 20)


# --- the calculator ----------------------------------------------------------------------------------------------

def query(capsys, *argv):
    code = hw_main(["tma", *argv])
    out = capsys.readouterr()
    return code, out


def test_hw_tma_answers_an_nd_box_with_coordinates_outermost_first(capsys):
    code, out = query(capsys, "--dtype", "uint16", "--box", "256,2,1,1", "--global-dim", "256,8,4,1",
                      "--global-strides", "512,4096,16384", "--start", "0,2,1,0", "--dst", "0x400", "--json")
    ans = json.loads(out.out)
    assert code == 0 and ans["tx_bytes"] == 1024 and set(ans) == {"tx_bytes", "writes"}
    assert ans["writes"][0] == [0x400, 0, 1, 2, 0, 0] and ans["writes"][513] == [0x601, 0, 1, 3, 0, 1]
    code, out = query(capsys, "--elem-bytes", "4", "--box", "4,3,2", "--dst", "1024", "--start", "0,4,3",
                      "--global-dim", "8,5,4")
    lines = out.out.splitlines()
    assert code == 0 and lines[0] == "tx_bytes 96" and lines[1].split() == ["addr", "d2", "d1", "d0", "byte"]
    assert lines[2].split() == ["0x400", "3", "4", "0", "0"] and lines[-1].endswith("(out of bounds: fill)")


def test_hw_tma_answers_a_padded_sub_byte_box_and_says_what_it_leaves_open(capsys):
    code, out = query(capsys, "--dtype", "16u6_align16b", "--box", "128,2", "--dst", "1024", "--swizzle", "128B",
                      "--json")
    ans = json.loads(out.out)
    assert code == 3 and ans["tx_bytes"] is None and ans["unmodelled"] == [TX_UNMODELLED]
    assert ans["element_group"] == 16 and len(ans["undefined"]) == 2 * 8 * 4 and len(ans["writes"]) == 2 * 8 * 12
    assert ans["writes"][12] == [1024 + 16, 0, 16, 0]
    code, out = query(capsys, "--dtype", "16U4_ALIGN8B", "--box", "64,2,2", "--dst", "0")
    assert code == 0 and "first element of a 16-element group" in out.out and out.out.startswith("tx_bytes 128\n")
    code, out = query(capsys, "--dtype", "16U4_ALIGN16B", "--box", "128,1", "--dst", "0")
    assert code == 3 and "tx_bytes unmodelled" in out.out and "padding, left uninitialised: 64 bytes" in out.out


def test_hw_tma_refuses_and_declines_in_one_line(capsys):
    for argv, key, words, want in (
            (["--dtype", "16U4_ALIGN16B", "--box", "64,2"], "refused", "must be 128", 0),
            (["--elem-bytes", "2", "--box", "8,2,257"], "refused", "boxDim[2]", 0),
            (["--elem-bytes", "2", "--box", "8,1,1,1,1,1"], "refused", "tensorRank", 0),
            (["--elem-bytes", "2", "--box", "8,2,2", "--start", "3,0,0"], "refused", "illegal instruction", 0),
            (["--elem-bytes", "2", "--box", "8,2,2", "--store"], "unsupported", "store", 3),
            (["--dtype", "16U4_ALIGN8B", "--box", "64,2", "--store"], "unsupported", "store", 3),
            (["--elem-bytes", "2", "--box", "8,2,2", "--multicast", "3", "--cluster", "2"], "unsupported",
             "multicast", 3)):
        code, out = query(capsys, *argv, "--dst", "0", "--json")
        assert code == want and words in json.loads(out.out)[key], argv
    code, out = query(capsys, "--elem-bytes", "2", "--box", "8,2,2", "--multicast", "4", "--cluster", "4", "--dst",
                      "0", "--json")
    ans = json.loads(out.out)
    assert code == 0 and [c["rank"] for c in ans["ctas"]] == [2] and ans["untouched_ctas"] == [0, 1, 3]
    code, out = query(capsys, "--dtype", "uint16", "--box", "256,1,1", "--global-dim", "256,3,4", "--global-strides",
                      "2048,512", "--dst", "0", "--json")
    assert code == 0 and "unmodelled" not in json.loads(out.out)       # strides that do not nest: CUTLASS's own
    for argv in (["--box", "8,2,2", "--elem-bytes", "2", "--start", "0,0"],
                 ["--box", "8,2,2", "--elem-bytes", "2", "--global-stride", "16"],
                 ["--box", "8,2,2", "--elem-bytes", "2", "--global-strides", "16"],
                 ["--box", "8,2,2", "--elem-bytes", "2", "--oob-fill", "nan"],
                 ["--box", "128,2", "--dtype", "16U4_ALIGN16B", "--elem-bytes", "1"],
                 ["--box", "8,2,2"],
                 ["--box", "32,256,256,256,256", "--elem-bytes", "4"]):
        code, out = query(capsys, *argv, "--dst", "0")
        assert code == 2 and out.err.count("\n") == 1, argv


def test_hw_tma_rank_2_with_global_strides_is_the_2d_answer(capsys):
    base = ["--elem-bytes", "2", "--box", "64,5", "--swizzle", "128B", "--dst", "1152", "--global-dim", "131,20"]
    _, one = query(capsys, *base, "--global-stride", "288", "--json")
    _, other = query(capsys, *base, "--global-strides", "288", "--json")
    assert one.out == other.out and json.loads(one.out)["tx_bytes"] == 640


# --- the N-D capture, when there is one --------------------------------------------------------------------------

ND_FILE = HW / "tma_nd.json.gz"
needs_capture = pytest.mark.skipif(
    not ND_FILE.exists(), reason="tests/data/hw/tma_nd.json.gz is missing (tools/gpu/capture_tma_nd.cu, "
                                 "captured on an H200 on 2026-12-05)")


def nd_capture() -> dict:
    return tables("tma_nd")


def capture_map(p: dict) -> TensorMapND:
    return TensorMapND(p["dtype"], tuple(p["box"]), tuple(p["global_dim"]), tuple(p["global_strides"]),
                       SW(p["swizzle"]), tuple(p["element_strides"]), p["oob_fill"] == "nan")


def observed_nd(p: dict) -> dict:
    """Window offset -> global byte offset, or ('fill', byte) for a byte no global byte went to."""
    out: dict = {}
    for off, v, length, dv in p["runs"]:
        for i in range(length):
            value = v + i * dv
            out[off + i] = value - 1 if 1 <= value <= p["global_bytes"] else ("fill", value & 0xFF)
    return out


def sub_byte_unsupported(doc: dict, p: dict) -> bool:
    """A sub-byte type on a GPU before sm_100: the driver may refuse it whatever its parameters."""
    return p["dtype"] in SUBBYTE_TYPES and float(doc["meta"]["sm"]) < 10


@needs_capture
def test_the_nd_capture_is_real():
    doc = nd_capture()
    assert not doc["meta"]["fake"] and doc["meta"]["tool"] == "tools/gpu/capture_tma_nd.cu"
    ranks = {p["rank"] for t in doc["tables"] if t["kind"] == "placement_nd" for p in t["placements"]}
    assert {3, 4, 5} <= ranks


@needs_capture
def test_every_nd_placement_is_reproduced_byte_for_byte():
    """Every byte the model writes, and no other byte of the window but a padded type's padding (uninitialised: the
    copy may leave or write it); the transaction where the model gives one."""
    doc = nd_capture()
    for table in doc["tables"]:
        if table["kind"] != "placement_nd":
            continue
        for p in table["placements"]:
            t = capture_map(p)
            dst = p["window_addr"] + p["dst_offset"] if p["window_addr"] is not None else 0
            if sub_byte_unsupported(doc, p) and p["encode"] != 0:
                continue
            expect_accept = encode_refusal_nd(t) is None
            assert (p["encode"] == 0) == expect_accept, (table["id"], p["box"], encode_refusal_nd(t))
            if p["encode"] != 0:
                continue
            assert copy_refusal_nd(t, tuple(p["start"]), dst) is None
            got = observed_nd(p)
            padding = {a - p["window_addr"] for a in padding_nd(t, dst)}
            model = modelled_nd(t, p["start"], dst, p["window_addr"])
            assert {k: v for k, v in got.items() if k not in padding} == model, (table["id"], p["box"], p["start"])
            tx = tx_bytes_nd(t)
            if tx is not None and p["expect_tx"] == tx:
                assert p["tx_complete"], (table["id"], p["box"])


@needs_capture
def test_every_nd_encoding_is_the_model_s_where_the_documentation_settles_it():
    doc = nd_capture()
    enc = next(t for t in doc["tables"] if t["kind"] == "encode_nd")
    checked, accepted, sub_byte_refused = 0, 0, 0
    for row in enc["rows"]:
        d = dict(zip(enc["fields"], row))
        if sub_byte_unsupported(doc, d) and d["result"] != 0:
            sub_byte_refused += 1
            continue
        rank = d["rank"]
        t = TensorMapND(d["dtype"], tuple(d["box"]), tuple(d["dims"]), tuple(d["strides"]), SW(d["swizzle"]),
                        (), d["nan_fill"], d["addr_misalign"])
        assert (encode_refusal_nd(t) is None) == (d["result"] == 0), (rank, d, encode_refusal_nd(t))
        checked += 1
        accepted += d["result"] == 0
    # the H200 capture (sm 9.0): 34 encodings of whole-byte types, 18 accepted and 16 refused, each as the model
    # says; the 135 of the sm_100 sub-byte types all refused by its driver, whatever their parameters
    assert checked >= 34 and 0 < accepted < checked
    if float(doc["meta"]["sm"]) < 10:
        assert sub_byte_refused == 135
