"""The im2col TMA model (verifier/hardware/tma_im2col.py), its comparison tool (tools/gpu/compare_tma_im2col.py) and
`hw tma --im2col`.

- Hand-worked examples from the documentation (PTX ISA, Tensors > im2col mode: "Bounding Box", "Traversal Stride";
  the driver API's cuTensorMapEncodeIm2col): each expectation is written out below, derived by hand from the text,
  not from the model.
- The driver's documented refusal rules, each on both sides of its boundary.
- The comparison tool on a capture-shaped document the model writes (no disagreement) and on corrupted copies.
- tests/data/hw/tma_im2col.json.gz (tools/gpu/capture_tma_im2col.cu), when it exists: every encode and a fixed sample
  of the placements (the tool checks them all).
"""
import io
import json
import sys
from pathlib import Path

import pytest

from hw_tables import HW, tables
from verifier.commands.hw import hw_main
from verifier.hardware.tma import NAN_FILL_UNIT, TmaSwizzle
from verifier.hardware.tma_im2col import (Im2colMap, Im2colUnmodelled, base_outside_box, copy_refusal_im2col,
                                          encode_refusal_im2col, global_offset_im2col, pixels, placement_im2col,
                                          smem_address_im2col, tx_bytes_im2col)

sys.path.insert(0, str(Path(__file__).parent.parent / "tools" / "gpu"))
import compare_tma_im2col as cmp  # noqa: E402

SW = TmaSwizzle


def _nested(dims: tuple[int, ...], e: int) -> list[int]:
    """Packed globalStrides: each pixel's channels rounded up to 16 bytes, every dimension nested in the next."""
    s = -(-dims[0] * e // 16) * 16
    out = []
    for d in dims[1:]:
        out.append(s)
        s *= d
    return out


def im2col(dtype: str, dims: tuple[int, ...], lower: tuple[int, ...], upper: tuple[int, ...], channels: int,
           npix: int, **kw) -> Im2colMap:
    return Im2colMap(dtype, dims, tuple(_nested(dims, {"uint8": 1, "float16": 2, "float32": 4}[dtype])), lower, upper,
                     channels, npix, **kw)


def positions(t: Im2colMap, start, offsets) -> list[tuple[int, ...]]:
    """The elements read, spatial W first, then the batch."""
    return [p.coord for p in pixels(t, tuple(start), tuple(offsets))]


# --- hand-worked examples --------------------------------------------------------------------------------------

def test_ptx_example_1_the_traversal_wraps_from_the_last_w_of_the_box_to_its_first():
    """PTX ISA, Bounding Box, example 1 (Figure 13): C 64, W 9, H 14, N 64, 64 pixels of 8 channels, both corners
    (-1, -1), filter base (w 7, h 4), offsets 0.  Along W the box holds -1 .. 9 - 1 - 1 = 7, along H -1 .. 12.  The
    base is the last W of its row, so pixel 1 is the first W of the next row, (-1, 5) — outside the tensor; rows of 9
    pixels follow: pixel 1 + 9 r is (-1, 5 + r), and pixel 63 = 1 + 9 * 6 + 8 is (7, 11).  The text's channel start 7
    is 14 bytes of float16 (refused: the 16-byte rule); channel 8 is used for the bytes."""
    t = im2col("float16", (64, 9, 14, 64), (-1, -1), (-1, -1), 8, 64)
    assert encode_refusal_im2col(t) is None
    got = positions(t, (8, 7, 4, 0), (0, 0))
    assert got[:4] == [(7, 4, 0), (-1, 5, 0), (0, 5, 0), (1, 5, 0)]
    assert got[10] == (-1, 6, 0) and got[63] == (7, 11, 0) and len(got) == 64
    filled = [k for k, p in enumerate(pixels(t, (8, 7, 4, 0), (0, 0))) if not p.inside(t)]
    assert filled == [1 + 9 * r for r in range(7)]
    assert "14" in (copy_refusal_im2col(t, (7, 7, 4, 0), (0, 0), 0) or "")
    # shared memory: pixel k is row k of 8 float16 = 16 bytes; pixel 2, channel 3 holds element (c 11, w 0, h 5, n 0)
    writes = {w.addr: (w.coord, w.byte) for w in placement_im2col(t, (8, 7, 4, 0), (0, 0), 0x400)}
    assert writes[0x400 + 2 * 16 + 3 * 2 + 1] == ((11, 0, 5, 0), 1)
    assert writes[0x400 + 1 * 16] == (None, 0)
    assert tx_bytes_im2col(t) == 64 * 8 * 2


def test_padding_one_and_the_offset_that_cancels_it():
    """A 4 x 4 image (N 1), corners (-1, -1) both: the box holds W and H -1 .. 2, 4 x 4 positions.  From the box's
    first pixel with offsets 0 the column reads rows h = -1 .. 2 of w = -1 .. 2: the first row and the first column
    are outside (filled).  With offsets (1, 1) every position moves by one: exactly the image, in raster order."""
    t = im2col("float32", (32, 4, 4, 1), (-1, -1), (-1, -1), 32, 16)
    plain = positions(t, (0, -1, -1, 0), (0, 0))
    assert plain == [(w, h, 0) for h in range(-1, 3) for w in range(-1, 3)]
    inside = [p.inside(t) for p in pixels(t, (0, -1, -1, 0), (0, 0))]
    assert inside == [h >= 0 and w >= 0 for h in range(-1, 3) for w in range(-1, 3)]
    assert positions(t, (0, -1, -1, 0), (1, 1)) == [(w, h, 0) for h in range(4) for w in range(4)]


def test_traversal_stride_steps_w_and_h_and_restarts_at_the_lower_corner():
    """PTX ISA, Traversal Stride: the stride steps the pixels along D, H, W and does not change their number.  W 8,
    H 14, corners -1: W holds -1 .. 6; stride 2 on W and H from (-1, -1): W -1, 1, 3, 5, then H + 2 from W -1."""
    t = im2col("float16", (64, 8, 14, 2), (-1, -1), (-1, -1), 16, 10, element_strides=(1, 2, 2, 1))
    assert positions(t, (0, -1, -1, 0), (0, 0)) == [(-1, -1, 0), (1, -1, 0), (3, -1, 0), (5, -1, 0), (-1, 1, 0),
                                                    (1, 1, 0), (3, 1, 0), (5, 1, 0), (-1, 3, 0), (1, 3, 0)]
    # the offsets move what is read, not the traversal
    assert positions(t, (0, -1, -1, 0), (1, 1))[4] == (0, 2, 0)


def test_the_column_runs_into_the_next_image_and_past_the_last():
    """Rank 3 (NWC), W 5, corners 0, two images: from w 3 of image 0, five pixels are w 3, 4, then image 1's w 0, 1,
    2.  From image 1 they run into image 2, which does not exist: filled."""
    t = im2col("uint8", (16, 5, 2), (0,), (0,), 16, 5)
    assert positions(t, (0, 3, 0), (0,)) == [(3, 0), (4, 0), (0, 1), (1, 1), (2, 1)]
    beyond = pixels(t, (0, 3, 1), (0,))
    assert [p.coord for p in beyond] == [(3, 1), (4, 1), (0, 2), (1, 2), (2, 2)]
    assert [p.inside(t) for p in beyond] == [True, True, False, False, False]


def test_rank_5_wraps_w_then_h_then_d():
    """Rank 5 (NDHWC), W 2, H 2, D 2, corners 0: W fastest, then H, then D."""
    t = im2col("float16", (8, 2, 2, 2, 1), (0, 0, 0), (0, 0, 0), 8, 6)
    assert positions(t, (0, 0, 0, 0, 0), (0, 0, 0)) == [(0, 0, 0, 0), (1, 0, 0, 0), (0, 1, 0, 0), (1, 1, 0, 0),
                                                        (0, 0, 1, 0), (1, 0, 1, 0)]


def test_upper_corner_past_the_tensor_extends_the_box():
    """An upper corner of +1 along W: the box holds 0 .. W, one coordinate past the tensor (filled)."""
    t = im2col("float16", (8, 3, 2), (0,), (1,), 8, 5)
    got = pixels(t, (0, 0, 0), (0,))
    assert [p.coord for p in got] == [(0, 0), (1, 0), (2, 0), (3, 0), (0, 1)]
    assert [p.inside(t) for p in got] == [True, True, True, False, True]


def test_channels_past_c_are_filled_and_the_nan_fill_is_the_tiled_pattern():
    t = im2col("float16", (24, 4, 1), (0,), (0,), 16, 1, oob_nan=True)
    writes = placement_im2col(t, (16, 0, 0), (0,), 0)
    assert [w.coord for w in writes[::2]] == [(16 + j, 0, 0) for j in range(8)] + [None] * 8
    assert [w.value for w in writes[16:20]] == [NAN_FILL_UNIT[0], NAN_FILL_UNIT[1]] * 2
    zero = im2col("float16", (24, 4, 1), (0,), (0,), 16, 1)
    assert {w.value for w in placement_im2col(zero, (16, 0, 0), (0,), 0) if w.coord is None} == {0}


def test_rows_are_packed_without_a_swizzle_and_take_the_span_with_one():
    """Pixel k is row k: at k x the channels' bytes unswizzled; at k x 128 under the 128B swizzle, whose 16-byte
    chunk index is XORed with address bits 7..9 (the tiled mode's, tma.swizzle_address)."""
    plain = im2col("float16", (64, 9, 2), (0,), (0,), 16, 8)
    assert smem_address_im2col(plain, 0x400, 3, 0) == 0x400 + 3 * 32
    sw = im2col("float16", (64, 9, 2), (0,), (0,), 16, 8, swizzle=SW.B128)
    assert smem_address_im2col(sw, 0x400, 3, 9) == 0x400 + 3 * 128 + ((9 * 2 // 16) ^ 3) * 16 + (9 * 2) % 16
    assert sw.footprint == 8 * 128 and plain.footprint == 8 * 32


def test_the_global_offset_uses_the_strides():
    t = Im2colMap("float16", (8, 3, 2, 2), (32, 128, 512), (0, 0), (0, 0), 8, 2)
    assert global_offset_im2col(t, (5, 2, 1, 1), 1) == 5 * 2 + 2 * 32 + 1 * 128 + 1 * 512 + 1


# --- the driver's refusal rules --------------------------------------------------------------------------------

BASE = dict(dtype="float16", global_dim=(64, 8, 8, 2), global_strides=(128, 1024, 8192), lower_corner=(0, 0),
            upper_corner=(0, 0), channels_per_pixel=32, pixels_per_column=16)


def refusal(**change) -> str | None:
    return encode_refusal_im2col(Im2colMap(**{**BASE, **change}))


@pytest.mark.parametrize("change, words", [
    ({}, None),
    (dict(global_dim=(64, 8, 2), global_strides=(128, 1024), lower_corner=(0,), upper_corner=(0,)), None),
    (dict(global_dim=(64, 4, 4, 4, 2), global_strides=(128, 512, 2048, 8192), lower_corner=(0, 0, 0),
          upper_corner=(0, 0, 0)), None),
    (dict(global_dim=(64, 2), global_strides=(128,), lower_corner=(), upper_corner=()), "tensorRank"),
    (dict(global_dim=(64, 2, 2, 2, 2, 2), global_strides=(128,) * 5, lower_corner=(0,) * 4, upper_corner=(0,) * 4),
     "tensorRank"),
    (dict(global_address=8), "global address"),
    (dict(global_dim=(64, 8, 8, 0)), "globalDim[3]"),
    (dict(global_dim=(64, 8, 8, (1 << 32) + 1)), "globalDim[3]"),
    (dict(global_strides=(136, 1088, 8704)), "globalStrides[0]"),
    (dict(global_strides=(128, 1024, 1 << 40)), "globalStrides[2]"),
    (dict(lower_corner=(-128, 0)), None), (dict(lower_corner=(-129, 0)), "pixelBoxLowerCorner W"),
    (dict(global_dim=(64, 200, 8, 2), upper_corner=(127, 0)), None),
    (dict(global_dim=(64, 200, 8, 2), upper_corner=(0, 128)), "pixelBoxUpperCorner H"),
    (dict(global_dim=(64, 8, 2), global_strides=(128, 1024), lower_corner=(-32768,), upper_corner=(0,)), None),
    (dict(global_dim=(64, 8, 2), global_strides=(128, 1024), lower_corner=(-32769,), upper_corner=(0,)),
     "[-32768, 32767]"),
    (dict(global_dim=(64, 4, 4, 4, 2), global_strides=(128, 512, 2048, 8192), lower_corner=(0, 0, -16),
          upper_corner=(0, 0, 0)), None),
    (dict(global_dim=(64, 4, 4, 4, 2), global_strides=(128, 512, 2048, 8192), lower_corner=(0, 0, -17),
          upper_corner=(0, 0, 0)), "pixelBoxLowerCorner D"),
    (dict(upper_corner=(-7, 0)), None), (dict(upper_corner=(-8, 0)), "empty along W"),
    (dict(lower_corner=(0, 8)), "empty along H"), (dict(lower_corner=(0, 7)), None),
    (dict(channels_per_pixel=0), "channelsPerPixel"), (dict(channels_per_pixel=256, global_dim=(512, 8, 8, 2),
                                                            global_strides=(1024, 8192, 65536)), None),
    (dict(channels_per_pixel=257), "channelsPerPixel"),
    (dict(pixels_per_column=0), "pixelsPerColumn"), (dict(pixels_per_column=1024), None),
    (dict(pixels_per_column=1025), "pixelsPerColumn"),
    (dict(channels_per_pixel=4), "multiple of 16"), (dict(channels_per_pixel=8), None),
    (dict(swizzle=SW.B64), None), (dict(swizzle=SW.B32), "exceed the 32B swizzle span"),
    (dict(element_strides=(1, 8, 1, 1)), None), (dict(element_strides=(1, 9, 1, 1)), "elementStrides[1]"),
    (dict(element_strides=(0, 1, 1, 1)), "elementStrides[0]"),
    (dict(oob_nan=True), None), (dict(oob_nan=True, dtype="uint16"), "floating-point"),
])
def test_encode_refusals(change, words):
    got = refusal(**change)
    if words is None:
        assert got is None, got
    else:
        assert got is not None and words in got, got


def test_unmodelled_parameters_are_said_so():
    with pytest.raises(Im2colUnmodelled, match="byte-sized"):
        Im2colMap(**{**BASE, "dtype": "16U4_ALIGN8B"})
    with pytest.raises(Im2colUnmodelled, match="sm_100"):
        Im2colMap(**{**BASE, "swizzle": SW.B128_ATOM_32B})
    with pytest.raises(ValueError, match="corner"):
        Im2colMap(**{**BASE, "lower_corner": (0,)})


def test_copy_refusals():
    t = Im2colMap(**BASE)                      # box: W and H 0 .. 7
    assert copy_refusal_im2col(t, (0, 0, 0, 0), (0, 0), 0) is None
    assert copy_refusal_im2col(t, (8, 7, 7, 1), (255, 255), 128) is None
    assert "[0, 255]" in (copy_refusal_im2col(t, (0, 0, 0, 0), (256, 0), 0) or "")
    assert "[0, 255]" in (copy_refusal_im2col(t, (0, 0, 0, 0), (0, -1), 0) or "")
    assert "outside the bounding box" in (copy_refusal_im2col(t, (0, 8, 0, 0), (0, 0), 0) or "")
    assert base_outside_box(t, (0, 0, -1, 0)) is not None and base_outside_box(t, (0, 7, 7, 0)) is None
    assert "misaligned" in (copy_refusal_im2col(t, (0, 0, 0, 0), (0, 0), 64) or "")
    assert "multiple of 16" in (copy_refusal_im2col(t, (4, 0, 0, 0), (0, 0), 0) or "")
    with pytest.raises(ValueError):
        copy_refusal_im2col(t, (0, 0, 0), (0, 0), 0)


# --- the comparison tool ---------------------------------------------------------------------------------------

def predicted_placement(dtype: str, dims, lower, upper, channels: int, npix: int, start, offsets, swizzle="none",
                        estr=None, nan=False, dst=0) -> dict:
    """A placement as the model predicts the capture writes it (the .cu's fields)."""
    e = {"uint8": 1, "float16": 2, "float32": 4}[dtype]
    strides = _nested(tuple(dims), e)
    p = {"dtype": dtype, "elem_bytes": e, "rank": len(dims), "swizzle": swizzle, "global_dim": list(dims),
         "global_strides": strides, "lower_corner": list(lower), "upper_corner": list(upper),
         "channels_per_pixel": channels, "pixels_per_column": npix,
         "element_strides": list(estr or [1] * len(dims)), "start": list(start), "offsets": list(offsets),
         "dst_offset": dst, "oob_fill": "nan" if nan else "zero", "window_addr": 0x2000,
         "global_bytes": (dims[0] * e + sum((d - 1) * s for d, s in zip(dims[1:], strides)) + 255) // 256 * 256}
    t = cmp.placement_map(p)
    p.update(encode=0, expect_tx=tx_bytes_im2col(t), tx_complete=True, runs=cmp.runs_of(cmp.modelled(t, p)))
    return p


def predicted_doc() -> dict:
    ps = [predicted_placement("float16", (40, 6, 5, 2), (-1, -1), (-1, -1), 16, 30, (8, -1, -1, 0), (1, 2)),
          predicted_placement("float32", (24, 4, 5, 2), (-2, -2), (2, 2), 16, 40, (8, 3, 4, 1), (0, 0), nan=True),
          predicted_placement("uint8", (48, 9, 3), (-2,), (1,), 32, 25, (16, 8, 0), (3,), swizzle="32B", dst=128),
          predicted_placement("float16", (40, 5, 4, 3, 2), (-1, -1, -1), (-1, -1, -1), 32, 13, (8, -1, 1, -1, 1),
                              (1, 0, 1), swizzle="128B", estr=[1, 2, 2, 1, 1])]
    enc = {"id": "encode_rules_im2col", "kind": "encode_im2col",
           "fields": ["dtype", "rank", "swizzle", "dims", "strides", "lower_corner", "upper_corner",
                      "channels_per_pixel", "pixels_per_column", "element_strides", "addr_misalign", "nan_fill",
                      "interleave", "result"],
           "rows": [["float16", 4, "none", [64, 8, 8, 2], [128, 1024, 8192], [0, 0], [0, 0], 32, 16, [1, 1, 1, 1], 0,
                     False, 0, 0],
                    ["float16", 4, "none", [64, 8, 8, 2], [128, 1024, 8192], [0, 0], [0, 0], 32, 1025, [1, 1, 1, 1],
                     0, False, 0, 1],
                    ["float16", 4, "32B", [64, 8, 8, 2], [128, 1024, 8192], [0, 0], [0, 0], 32, 16, [1, 1, 1, 1], 0,
                     False, 32, 0]]}
    return {"meta": {"fake": False, "tool": "tools/gpu/capture_tma_im2col.cu"}, "failed_at_run_time": [],
            "not_assembled": [], "tables": [enc, {"id": "place", "kind": "placement_im2col", "placements": ps}]}


def test_a_capture_as_the_model_predicts_it_agrees():
    problems, notes = cmp.disagreements(predicted_doc())
    assert problems == [] and len(notes) == 1 and "interleave" in notes[0]


def test_a_corrupted_capture_is_reported_line_by_line():
    doc = predicted_doc()
    ps = doc["tables"][1]["placements"]
    ps[0]["runs"][3][1] += 1                           # one run's value: a byte from elsewhere
    ps[1]["runs"] = ps[1]["runs"][1:]                  # a run missing: bytes unwritten
    ps[2]["tx_complete"] = False                       # the transaction did not complete
    doc["tables"][0]["rows"][1][-1] = 0                # the driver accepted 1025 pixels
    doc["failed_at_run_time"].append({"job": "place_r4_float16_none", "error": "child killed by signal 4"})
    problems, _ = cmp.disagreements(doc)
    assert len(problems) == 5, problems
    assert "window bytes differ" in problems[1] and "unwritten" in problems[2]
    assert "did not complete" in problems[3] and "returned 0, the model refuses" in problems[0]
    assert "place_r4_float16_none" in problems[4]


def test_the_tool_s_exit_status(tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(predicted_doc()))
    doc = predicted_doc()
    doc["tables"][1]["placements"][3]["swizzle"] = "64B"   # the model places it elsewhere
    bad.write_text(json.dumps(doc))
    assert cmp.main([str(good)]) == 0
    assert cmp.main([str(bad)]) == 1
    assert cmp.main([]) == 2
    fake = predicted_doc()
    fake["meta"]["fake"] = True
    assert cmp.disagreements(fake)[0] == ["the capture was written with --fake: it holds no observations"]


def test_a_job_the_model_expects_to_trap_may_fail():
    doc = predicted_doc()
    doc["failed_at_run_time"].append({"job": "channel_misaligned", "error": "illegal instruction"})
    assert cmp.disagreements(doc)[0] == []


# --- hw tma --im2col -------------------------------------------------------------------------------------------

def query(capsys, *argv: str) -> tuple[int, str, str]:
    rc = hw_main(["tma", "--im2col", *argv])
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_hw_im2col_json_is_the_model(capsys):
    rc, out, _ = query(capsys, "--dtype", "float32", "--global-dim", "32,4,4,1", "--lower-corner", "-1,-1",
                       "--upper-corner", "-1,-1", "--channels-per-pixel", "32", "--pixels-per-column", "16",
                       "--start", "0,-1,-1,0", "--offsets", "1,1", "--swizzle", "128B", "--dst", "0x400", "--json")
    ans = json.loads(out)
    assert rc == 0 and ans["tx_bytes"] == 16 * 32 * 4
    assert [p[1:] for p in ans["pixels"]] == [[0, h, w, True] for h in range(4) for w in range(4)]
    t = im2col("float32", (32, 4, 4, 1), (-1, -1), (-1, -1), 32, 16, swizzle=SW.B128)
    want = [[w.addr, *reversed(w.coord), w.byte] for w in placement_im2col(t, (0, -1, -1, 0), (1, 1), 0x400)]
    assert ans["writes"] == want and "reproduces an H200 capture" in ans["note"]


def test_hw_im2col_defaults_start_at_the_box_and_the_table_marks_fills(capsys):
    rc, out, _ = query(capsys, "--elem-bytes", "2", "--global-dim", "8,3,1", "--lower-corner", "-1",
                       "--channels-per-pixel", "8", "--pixels-per-column", "2", "--dst", "0")
    assert rc == 0 and "0:(0,-1)*" in out and "1:(0,0)" in out and "tx_bytes 32" in out


@pytest.mark.parametrize("argv, words", [
    (["--elem-bytes", "2", "--channels-per-pixel", "8", "--pixels-per-column", "2", "--dst", "0"], "--global-dim"),
    (["--elem-bytes", "2", "--global-dim", "8,3,3,1", "--lower-corner", "-1", "--channels-per-pixel", "8",
      "--pixels-per-column", "2", "--dst", "0"], "--lower-corner gives 1 values"),
    (["--elem-bytes", "2", "--global-dim", "8,3,1", "--box", "8,3", "--channels-per-pixel", "8",
      "--pixels-per-column", "2", "--dst", "0"], "--box"),
    (["--elem-bytes", "2", "--global-dim", "8,3,1", "--channels-per-pixel", "8", "--pixels-per-column", "2",
      "--dst", "0", "--start", "0,0"], "--start gives 2"),
    (["--global-dim", "8,3,1", "--channels-per-pixel", "8", "--pixels-per-column", "2", "--dst", "0"],
     "--elem-bytes or --dtype"),
    (["--elem-bytes", "2", "--global-dim", "8,3,1", "--channels-per-pixel", "x", "--dst", "0"], "not an integer"),
])
def test_hw_im2col_bad_input_is_one_line_and_exit_2(capsys, argv, words):
    rc, out, err = query(capsys, *argv)
    assert rc == 2 and out == "" and words in err and err.count("\n") == 1, err


def test_hw_im2col_options_need_im2col(capsys):
    assert hw_main(["tma", "--elem-bytes", "2", "--box", "8,8", "--dst", "0", "--offsets", "1,1"]) == 2
    assert "add --im2col" in capsys.readouterr().err
    assert hw_main(["tma", "--elem-bytes", "2", "--dst", "0"]) == 2
    assert "--box" in capsys.readouterr().err


def test_hw_im2col_refusals_and_unsupported(capsys):
    base = ["--global-dim", "8,3,1", "--channels-per-pixel", "8", "--pixels-per-column", "2", "--dst", "0", "--json"]
    rc, out, _ = query(capsys, "--elem-bytes", "2", *base, "--offsets", "70000")
    assert rc == 0 and "[0, 65535]" in json.loads(out)["refused"]
    rc, out, _ = query(capsys, "--elem-bytes", "2", *base, "--start", "0,3,0")
    assert rc == 0 and "outside the bounding box" in json.loads(out)["refused"]
    rc, out, _ = query(capsys, "--elem-bytes", "1", *base)
    assert rc == 0 and "multiple of 16" in json.loads(out)["refused"]
    rc, out, _ = query(capsys, "--dtype", "16U4_ALIGN8B", *base)
    assert rc == 3 and "byte-sized" in json.loads(out)["unsupported"]


def test_hw_batch_answers_im2col_queries():
    lines = io.StringIO("tma --im2col --elem-bytes 2 --global-dim 8,3,1 --channels-per-pixel 8 "
                        "--pixels-per-column 2 --dst 0 --lower-corner -1\n")
    out = io.StringIO()
    from verifier.commands.hw import _batch
    assert _batch(lines, out) == 0
    assert json.loads(out.getvalue())["pixels"][0] == [0, 0, -1, False]


# --- the capture, when there is one ----------------------------------------------------------------------------

IM2COL_FILE = HW / "tma_im2col.json.gz"
needs_capture = pytest.mark.skipif(
    not IM2COL_FILE.exists(), reason="tests/data/hw/tma_im2col.json.gz is not captured yet: tools/gpu/"
                                     "capture_tma_im2col.cu has not run on an H200")
SAMPLE = 12            # every SAMPLE-th placement is replayed here (tools/gpu/compare_tma_im2col.py replays all)


@needs_capture
def test_the_im2col_capture_is_real():
    doc = tables("tma_im2col")
    assert not doc["meta"]["fake"] and doc["meta"]["tool"] == "tools/gpu/capture_tma_im2col.cu"
    ranks = {p["rank"] for t in doc["tables"] if t["kind"] == "placement_im2col" for p in t["placements"]}
    assert ranks == {3, 4, 5}


@needs_capture
def test_every_im2col_encoding_is_the_model_s():
    doc = tables("tma_im2col")
    enc = next(t for t in doc["tables"] if t["kind"] == "encode_im2col")
    assert cmp.encode_row_problems(enc, []) == []
    assert cmp.failed_job_problems(doc) == []


@needs_capture
def test_a_sample_of_im2col_placements_is_reproduced_byte_for_byte():
    doc = tables("tma_im2col")
    placements = [(t["id"], p) for t in doc["tables"] if t["kind"] == "placement_im2col" for p in t["placements"]]
    sample = placements[::SAMPLE] + [tp for tp in placements if not tp[0].startswith("place_")]
    problems = [m for tid, p in sample for m in cmp.placement_problems(tid, p, [])]
    assert problems == []


def test_the_batch_steps_by_its_element_stride_as_the_h200_does():
    """Found by the capture (the text strides D, H and W only): with elementStrides[N] = 2 the traversal wraps from
    batch 0 to batch 2.  W's box -1 .. 7 (extent 9, corners -1 / -1) stepped by 2 gives 5 pixels a batch."""
    t = Im2colMap("float16", (40, 9, 3), (96, 864), (-1,), (-1,), 32, 12, element_strides=(1, 2, 2))
    px = pixels(t, (8, -1, 0), (0,))
    assert [p.position for p in px] == [(w, n) for n in (0, 2) for w in (-1, 1, 3, 5, 7)] + [(-1, 4), (1, 4)]
    assert not any(p.inside(t) for p in px[10:])          # batch 4 of 3: filled
