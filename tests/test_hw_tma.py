"""The TMA model (verifier/hardware/tma.py) reproduces every table captured on the H200 (tools/gpu/capture_tma.cu):
each placement byte for byte, every encoding the driver accepted or refused, and the copies the hardware refused."""
import pytest

from hw_tables import tables
from verifier.hardware.tma import (FLOAT_TYPES, TensorMap2D, TmaSwizzle, copy_refusal, encode_refusal, placement,
                                   tx_bytes)

TMA = tables("tma")
PLACEMENTS = [(t["id"], p) for t in TMA["tables"] if t["kind"] == "placement" for p in t["placements"]]
ENCODINGS = next(t for t in TMA["tables"] if t["kind"] == "encode")


def tensor_map(p: dict) -> TensorMap2D:
    return TensorMap2D(p["elem_bytes"], tuple(p["box"]), TmaSwizzle(p["swizzle"]), tuple(p["global_dim"]),
                       p["global_stride"], p["oob_fill"] == "nan", p["dtype"] in FLOAT_TYPES)


def observed(p: dict) -> dict:
    """Window offset -> global byte index, or ('fill', byte) for a byte no global byte went to."""
    global_bytes = p["global_dim"][1] * p["global_stride"]
    out = {}
    for off, v, length, dv in p["runs"]:
        for i in range(length):
            value = v + i * dv
            out[off + i] = value - 1 if 1 <= value <= global_bytes else ("fill", value & 0xFF)
    return out


def modelled(p: dict, t: TensorMap2D | None = None) -> dict:
    """Window offset -> global byte index (or fill) as the model places the capture's copy (`t`: its map)."""
    t = t or tensor_map(p)
    out = {}
    for w in placement(t, tuple(p["start"]), p["window_addr"] + p["dst_offset"]):
        off = w.addr - p["window_addr"]
        out[off] = (w.row * p["global_stride"] + w.col * p["elem_bytes"] + w.byte) if w.row >= 0 else ("fill", w.value)
    return out


def test_the_capture_is_real_and_complete():
    assert not TMA["meta"]["fake"] and TMA["meta"]["gpu"] == "NVIDIA H200"
    assert len(PLACEMENTS) > 1300 and len(ENCODINGS["rows"]) > 600
    assert {p["swizzle"] for _, p in PLACEMENTS} == {"none", "32B", "64B", "128B"}
    assert {p["elem_bytes"] for _, p in PLACEMENTS} == {1, 2, 4, 8}


@pytest.mark.parametrize("family", sorted({tid for tid, _ in PLACEMENTS}))
def test_every_placement_is_reproduced_byte_for_byte(family):
    for tid, p in PLACEMENTS:
        if tid == family:
            assert p["encode"] == 0 and p["tx_complete"], p
            assert observed(p) == modelled(p), (p["box"], p["start"], p["dst_offset"], p["swizzle"])
            assert tx_bytes(tensor_map(p)) == p["expect_tx"]


def test_rows_take_a_whole_swizzle_span_and_the_swizzle_reads_absolute_addresses():
    """A 16-byte box row under the 128B swizzle occupies 128 bytes; at a destination 128 bytes past the pattern's
    1024-byte boundary, row 0's first chunk is already XORed with 1."""
    [(_, p)] = [(t, p) for t, p in PLACEMENTS
                if t == "place_uint16_128B" and p["box"] == [8, 5] and p["start"] == [0, 0] and p["dst_offset"] == 0]
    rows = sorted(off for off, v in observed(p).items() if isinstance(v, int) and v % p["global_stride"] == 0)
    assert rows == [0, 144, 288, 432, 576]
    [(_, q)] = [(t, q) for t, q in PLACEMENTS if t == "place_uint16_128B" and q["box"] == [64, 5]
                and q["start"] == [0, 0] and q["dst_offset"] == 128]
    assert observed(q)[128] == 16          # chunk 1 of row 0 lands first: the window address is 1024-aligned


def test_the_nan_fill_is_0x7ff7_repeated():
    fills = {v[1] for _, p in PLACEMENTS if p["oob_fill"] == "nan"
             for v in observed(p).values() if isinstance(v, tuple)}
    assert fills == {0xF7, 0x7F}


def test_every_encoding_result_is_the_models():
    f = ENCODINGS["fields"]
    for row in ENCODINGS["rows"]:
        d = dict(zip(f, row))
        t = TensorMap2D(d["elem_bytes"], (d["box0"], d["box1"]), TmaSwizzle(d["swizzle"]), (d["dim0"], d["dim1"]),
                        d["stride"], d["nan_fill"], d["dtype"] in FLOAT_TYPES, d["addr_misalign"],
                        (d["elem_stride0"], d["elem_stride1"]))
        assert (encode_refusal(t) is None) == (d["result"] == 0), d


def test_the_copies_the_hardware_refused_are_the_models_refusals():
    failed = {f["job"]: f["error"] for f in TMA["failed_at_run_time"]}
    assert len(failed) == 9
    jobs = {t["id"] for t in TMA["tables"]}
    t = TensorMap2D(2, (64, 8), TmaSwizzle.NONE, (80, 16), 176)
    for job, error in failed.items():
        if job.startswith("misaligned_"):
            dst = int(job.rsplit("_", 1)[1])
            assert "misaligned address" in error.lower().replace("misalignedaddress", "misaligned address")
            assert copy_refusal(t, (0, 0), 1024 + dst) is not None
        else:
            elem = {"uint8": 1, "uint16": 2, "float32": 4, "uint64": 8}[job.split("_")[2]]
            c0 = int(job.rsplit("_", 1)[1])
            assert "illegal instruction" in error.lower().replace("illegalinstruction", "illegal instruction")
            assert copy_refusal(TensorMap2D(elem, (32 // elem, 2)), (c0, 1), 1024) is not None
    assert "start_misaligned_uint8_c0_16" in jobs            # the aligned control ran
    assert copy_refusal(TensorMap2D(1, (32, 2)), (16, 1), 1024) is None
