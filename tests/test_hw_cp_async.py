"""cp.async byte by byte (verifier/hardware/vector_copy.py: cp_async_sources, cp_async_misaligned) against the H200
(tests/data/hw/cp_async.json.gz, written by tools/gpu/capture_cp_async.cu): every shared byte of every table is the
model's, and every job the model calls misaligned faulted on the GPU (and no other)."""
import pytest

from hw_tables import HW, tables
from verifier.hardware.vector_copy import cp_async_misaligned, cp_async_sources

CAPTURED = (HW / "cp_async.json.gz").exists()
needs_capture = pytest.mark.skipif(not CAPTURED, reason="tests/data/hw/cp_async.json.gz not captured yet "
                                                        "(tools/gpu/capture_cp_async.cu on an sm_80+ GPU)")
LANES = 32


def global_byte(i: int) -> int:
    return (i * 13 + 7) & 0xFF          # the capture's global fill (its meta says so)


def predicted_window(table: dict, window_bytes: int) -> bytes:
    """The shared window the model predicts: the fill, then each lane's cp-size bytes from its source (zeros
    past src-size)."""
    out = bytearray([table["smem_fill"]] * window_bytes)
    src_size = None if table["src_size"] < 0 else table["src_size"]
    for lane in range(LANES):
        for b, source in enumerate(cp_async_sources(table["cp_size"], src_size)):
            out[table["dst"][lane] + b] = 0 if source is None else global_byte(table["src"][lane] + source)
    return bytes(out)


def test_the_model_fills_past_src_size_with_zeros():
    assert cp_async_sources(16) == tuple(range(16))
    assert cp_async_sources(8, 3) == (0, 1, 2, None, None, None, None, None)
    assert cp_async_sources(4, 0) == (None,) * 4
    with pytest.raises(ValueError):
        cp_async_sources(12)
    with pytest.raises(ValueError):
        cp_async_sources(4, 5)


def test_the_model_requires_both_addresses_aligned_to_cp_size():
    assert cp_async_misaligned(32, 64, 16) is None
    assert "dst 36" in (cp_async_misaligned(36, 64, 16) or "")
    assert "src 68" in (cp_async_misaligned(32, 68, 8) or "")
    assert cp_async_misaligned(4, 8, 4) is None


def test_a_wrong_model_would_disagree_with_a_table():
    """The comparison can fail: a model that copied the whole cp-size even with src-size 0 predicts other bytes."""
    table = {"smem_fill": 0xAB, "src_size": 0, "cp_size": 4, "dst": [4 * t for t in range(LANES)],
             "src": [4 * t for t in range(LANES)]}
    zero_filled = predicted_window(table, 256)
    copied = predicted_window({**table, "src_size": -1}, 256)
    assert zero_filled[:128] == bytes(128) and zero_filled != copied


@needs_capture
def test_the_table_carries_its_provenance():
    meta = tables("cp_async")["meta"]
    assert meta["gpu"].startswith("NVIDIA") and meta["driver"] and meta["date"] and not meta["fake"]
    assert meta["global_byte"] == "(i * 13 + 7) & 0xFF"


@needs_capture
def test_every_shared_byte_is_the_models():
    t = tables("cp_async")
    window_bytes = t["meta"]["window_bytes"]
    assert len(t["tables"]) == 28
    for table in t["tables"]:
        got = bytes.fromhex(table["window"])
        want = predicted_window(table, window_bytes)
        diff = [i for i in range(window_bytes) if got[i] != want[i]]
        assert not diff, (f"{table['id']}: {len(diff)} bytes differ, first at {diff[0]}: "
                          f"{got[diff[0]]} != {want[diff[0]]}")


@needs_capture
def test_exactly_the_misaligned_jobs_faulted():
    t = tables("cp_async")
    failed = {f["job"]: f["error"] for f in t["failed_at_run_time"]}
    assert len(failed) == 8
    for job, error in failed.items():
        form, what = job.split("_")[0], job.split("_")[1]
        cp_size = int(form[2:])
        offset = int(job.split("off")[1])
        dst, src = (offset, 0) if what == "dst" else (0, offset)
        assert cp_async_misaligned(dst, src, cp_size) is not None
        assert "misaligned" in error.lower(), error
    assert all(cp_async_misaligned(table["dst"][0], table["src"][0], table["cp_size"]) is None
               for table in t["tables"])
