"""The wgmma descriptor model (verifier/hardware/gmma_desc.py) reproduces every probe captured on the H200
(tools/gpu/capture_gmma_desc.cu): for each A(m,k) / B(n,k), the shared byte the tensor core read."""
import pytest

from hw_tables import tables
from verifier.hardware.gmma_desc import Descriptor, GmmaSwizzle, Major, read_address

DESC = tables("gmma_desc")
PROBES = [pr for t in DESC["tables"] for pr in t["probes"]]


def test_the_capture_is_real_and_complete():
    assert not DESC["meta"]["fake"] and not DESC["failed_at_run_time"]
    assert len(PROBES) == 359
    kinds = {(p["probe"]["type"], p["probe"]["major"], p["probe"]["mode"], p["probe"]["operand"]) for p in PROBES}
    assert ("f16", "MN", "64B", "A") in kinds and ("s8", "K", "32B", "B") in kinds
    assert all(r[2] >= 0 for p in PROBES for r in p["probe"]["reads"])


@pytest.mark.parametrize("form", sorted({p["probe"]["form"] for p in PROBES}))
def test_every_read_is_reproduced(form):
    for pr in PROBES:
        p = pr["probe"]
        if p["form"] != form:
            continue
        d = Descriptor.decode(int(p["descriptor"], 16))
        assert d.encode() == int(p["descriptor"], 16)
        major = Major(p["major"])
        for mn, k, off in p["reads"]:
            assert read_address(d, major, mn, k, p["elem_bytes"]) - p["window_addr"] == off, (pr["id"], mn, k)


def test_swizzled_mn_major_trades_lbo_and_sbo():
    """MN-major with a swizzle: LBO steps along M/N, SBO along K; without a swizzle the other way round."""
    d = Descriptor(1024, lbo=1024, sbo=512, swizzle=GmmaSwizzle.B64)
    assert read_address(d, Major.MN, 32, 0, 2) - 1024 == 1024 and read_address(d, Major.MN, 0, 8, 2) - 1024 == 512
    n = Descriptor(1024, lbo=128, sbo=256)
    assert read_address(n, Major.MN, 8, 0, 2) - 1024 == 256 and read_address(n, Major.MN, 0, 8, 2) - 1024 == 128


def test_the_base_offset_re_anchors_the_pattern():
    """A start 128 bytes past a 1024-byte boundary: with base offset 0 row 0 is XORed with 1, with 1 it is not."""
    off = Descriptor(1024 + 128, lbo=16, sbo=1024, swizzle=GmmaSwizzle.B128)
    on = Descriptor(1024 + 128, lbo=16, sbo=1024, base_offset=1, swizzle=GmmaSwizzle.B128)
    assert read_address(off, Major.K, 0, 0, 2) == 1024 + 144
    assert read_address(on, Major.K, 0, 0, 2) == 1024 + 128
