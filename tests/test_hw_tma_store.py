"""TMA stores, strided and multicast loads (verifier/hardware/tma.py) against the tables captured on the H200
(tools/gpu/capture_tma_store.cu, tests/data/hw/tma_store.json.gz): every store byte for byte — which global bytes
it writes and the shared byte each comes from, the rest left untouched —, the stores the hardware trapped on,
every load with element strides byte for byte, and every CTA of every multicast."""
import pytest

from hw_tables import tables
from test_hw_tma import modelled, observed, tensor_map
from verifier.hardware.tma import (TensorMap2D, TmaSwizzle, box_rows, multicast_placement, multicast_refusal,
                                   store_refusal, store_unmodelled, store_writes, tx_bytes)

CAPTURE = tables("tma_store")
STORES = [(t["id"], s) for t in CAPTURE["tables"] if t["kind"] == "store" for s in t["stores"]]
STRIDED = [(t["id"], p) for t in CAPTURE["tables"] if t["kind"] == "placement" for p in t["placements"]]
TRAPPED = CAPTURE["failed_at_run_time"]


def store_map(s: dict) -> TensorMap2D:
    return TensorMap2D(s["elem_bytes"], tuple(s["box"]), TmaSwizzle(s["swizzle"]), tuple(s["global_dim"]),
                       s["global_stride"])


def observed_store(s: dict) -> dict[int, int]:
    """Global byte offset -> the window offset it was read from."""
    out = {}
    for off, v, length, dv in s["runs"]:
        for i in range(length):
            out[off + i] = v + i * dv - 1
    return out


def modelled_store(s: dict) -> dict[int, int]:
    writes, _ = store_writes(store_map(s), tuple(s["start"]), s["window_addr"] + s["src_offset"])
    return {w.offset: w.src - s["window_addr"] for w in writes}


def test_the_capture_is_real_and_covers_every_type_and_swizzle():
    assert not CAPTURE["meta"]["fake"] and CAPTURE["meta"]["gpu"] == "NVIDIA H200"
    assert len(STORES) > 400 and len(STRIDED) == 84
    assert {s["swizzle"] for _, s in STORES} == {"none", "32B", "64B", "128B"}
    assert {s["elem_bytes"] for _, s in STORES} == {1, 2, 4, 8}
    assert any(s["start"][0] + s["box"][0] > s["global_dim"][0] for _, s in STORES)     # past the end


@pytest.mark.parametrize("family", sorted({tid for tid, _ in STORES}))
def test_every_store_is_reproduced_byte_for_byte(family):
    for tid, s in STORES:
        if tid == family:
            t = store_map(s)
            assert s["encode"] == 0
            assert store_refusal(t, tuple(s["start"]), s["window_addr"] + s["src_offset"]) is None
            assert store_unmodelled(t, tuple(s["start"])) is None
            assert observed_store(s) == modelled_store(s), (s["box"], s["start"], s["src_offset"], s["swizzle"])


def test_a_store_past_the_end_writes_up_to_the_row_s_next_16_bytes_and_no_row_past_the_last():
    """uint16, 35 columns (70 bytes a row): a box of 16 columns from column 24 writes columns 24..39 of the row —
    80 bytes, the 16-byte multiple above 70 — and none of the rows past row 19."""
    [s] = [s for tid, s in STORES if tid == "store_uint16_none_past_end" and s["box"] == [16, 5]]
    assert s["global_dim"] == [35, 20] and s["start"] == [24, 18]
    written = observed_store(s)
    assert sorted({off // s["global_stride"] for off in written}) == [18, 19]
    assert max(off % s["global_stride"] for off in written) == 79 > 35 * 2 - 1
    writes, skipped = store_writes(store_map(s), tuple(s["start"]), s["window_addr"])
    assert len(skipped) == 3 * 16 and len(writes) == len(written) == 2 * 16 * 2


def test_every_store_that_started_before_the_tensor_trapped_and_the_model_refuses_it():
    assert len(TRAPPED) == 32 and all("IllegalInstruction" in f["error"] for f in TRAPPED)
    assert {f["job"].rsplit("_", 2)[-2] + "_" + f["job"].rsplit("_", 1)[-1] for f in TRAPPED} == {"before_col",
                                                                                               "before_row"}
    for f in TRAPPED:
        start = (-16, 2) if f["job"].endswith("before_col") else (0, -3)
        assert "traps" in (store_refusal(TensorMap2D(2, (8, 1)), start, 0) or "")
    assert store_refusal(TensorMap2D(2, (8, 1)), (0, 0), 0) is None          # the same box inside: stored
    assert "aligned" in (store_refusal(TensorMap2D(2, (8, 1)), (0, 0), 64) or "")


def strided_map(p: dict) -> TensorMap2D:
    t = tensor_map(p)
    return TensorMap2D(t.elem_bytes, t.box, t.swizzle, t.global_dim, t.global_stride, t.oob_nan, t.float_type,
                       element_strides=tuple(p["element_strides"]))


@pytest.mark.parametrize("family", sorted({tid for tid, _ in STRIDED}))
def test_every_strided_load_is_reproduced_byte_for_byte(family):
    """elementStrides[0] is ignored, elementStrides[1] keeps every s-th row, packed; the transaction is what is
    written: where the capture's expected count was the model's, the barrier completed."""
    for tid, p in STRIDED:
        if tid != family:
            continue
        t = strided_map(p)
        got = modelled(p, t)
        assert observed(p) == got, (p["element_strides"], p["start"], p["dst_offset"])
        assert len(got) == tx_bytes(t) == t.box[0] * box_rows(t) * t.elem_bytes
        if p["expect_tx"] == tx_bytes(t):
            assert p["tx_complete"], p


def test_a_stride_along_dimension_0_moves_every_element_and_one_along_dimension_1_skips_rows():
    [p] = [p for tid, p in STRIDED if tid == "strided_float16_none" and p["element_strides"] == [2, 1]
           and p["start"] == [0, 0]]
    assert len(observed(p)) == 32 * 6 * 2                      # the whole box: dimension 0's stride is ignored
    [q] = [p for tid, p in STRIDED if tid == "strided_float16_none" and p["element_strides"] == [1, 3]
           and p["start"] == [0, 0]]
    rows = sorted({v // q["global_stride"] for v in observed(q).values() if isinstance(v, int)})
    assert rows == [0, 3]                                      # ceil(6 / 3) rows: global rows 0 and 3


# --- multicast -------------------------------------------------------------------------------------------------

MULTICASTS = [(t["id"], m) for t in CAPTURE["tables"] if t["kind"] == "multicast" for m in t["loads"]]


def test_the_multicast_capture_covers_clusters_of_2_and_4_and_masks_without_the_issuer():
    assert {m["cluster"] for _, m in MULTICASTS} == {2, 4} and len(MULTICASTS) == 40
    assert any(not (m["mask"] >> m["issuer"]) & 1 for _, m in MULTICASTS)


@pytest.mark.parametrize("family", sorted({tid for tid, _ in MULTICASTS}))
def test_every_cta_of_the_mask_receives_the_box_at_the_same_offset_and_no_other_cta_is_written(family):
    """The PTX ISA's multicast: every CTA of ctaMask receives the whole box at the CTA-relative address of the
    issuer's destination, its own barrier completes with one box's transaction; a CTA outside the mask (the
    issuer too) receives nothing."""
    for tid, m in MULTICASTS:
        if tid != family:
            continue
        assert m["encode"] == 0 and multicast_refusal(m["cluster"], m["mask"]) is None
        t = tensor_map(m)
        for cta in m["ctas"]:
            window = cta["window_addr"]
            expected = multicast_placement(t, tuple(m["start"]), window + m["dst_offset"], m["mask"])
            got = observed({**m, "runs": cta["runs"]})
            if cta["rank"] in expected:
                want = {w.addr - window: (w.row * m["global_stride"] + w.col * m["elem_bytes"] + w.byte)
                        if w.row >= 0 else ("fill", w.value) for w in expected[cta["rank"]]}
                assert got == want and cta["tx_complete"], (m["mask"], m["issuer"], cta["rank"])
            else:
                assert got == {} and not cta["tx_complete"], (m["mask"], m["issuer"], cta["rank"])


def test_a_multicast_mask_outside_the_cluster_is_refused():
    assert "outside the cluster" in (multicast_refusal(4, 0x10) or "")
    assert "non-zero" in (multicast_refusal(4, 0) or "")
    assert "1 to 16" in (multicast_refusal(17, 1) or "")
    assert multicast_refusal(16, 0xFFFF) is None
