"""TiledMMA / TiledCopy vs CuTe (oracle/tiled.json), per configuration and per thread."""
import pytest

from oracle import Tally, cases, tiled_copy
from verifier.algebra import parse_layout
from verifier.algebra.cpp_syntax import read_cpp
from verifier.cute.tensor import Tensor

TILED = cases("tiled")
MMA_CASES = [c for c in TILED if c["config"]["operand"] is not None]
COPY_ONLY = [c for c in TILED if c["config"]["operand"] is None]


def _smem(case):
    layout = parse_layout(case["smem"]["text"])
    assert Tensor(0, layout).offsets() == case["smem"]["offsets"]
    return Tensor(0, layout)


@pytest.mark.parametrize("case", MMA_CASES, ids=[c["id"] for c in MMA_CASES])
def test_tiled_layouts(case):
    tc, mma = tiled_copy(case)
    assert str(mma.thr_layout_vmnk) == case["mma"]["thr_layout_vmnk"]
    assert list(mma.tile_mnk()) == case["mma"]["tile_mnk"]
    assert mma.num_threads() == case["mma"]["threads"]
    for op in "ABC":
        layout = mma.get_layout_tv(op)
        assert str(layout) == case["mma"][f"layout{op}_TV"]["text"]
        assert layout.values() == case["mma"][f"layout{op}_TV"]["table"]
    ct = case["tiled_copy"]
    assert str(tc.layout_tv) == ct["TiledLayout_TV"]["text"]
    assert tc.num_threads == ct["threads"]
    for name, layout in (("layoutS_TV", tc.layout_S_tv()), ("layoutD_TV", tc.layout_D_tv())):
        assert str(layout) == ct[name]["text"]
        assert layout.values() == ct[name]["table"]
    for name, layout in (("AtomLayoutSrc", tc.atom.src), ("AtomLayoutDst", tc.atom.dst),
                         ("AtomLayoutRef", tc.atom.ref), ("AtomThrID", tc.atom.atom.thr_id)):
        assert str(layout) == ct[name]["text"]
    assert (tc.atom.num_thr, tc.atom.num_val) == (ct["AtomNumThr"], ct["AtomNumVal"])


@pytest.mark.parametrize("case", MMA_CASES, ids=[c["id"] for c in MMA_CASES])
def test_tiled_partitions_per_thread(case):
    """mma_frag, mma_part, copy_part, copy_retile of every thread: printed layout and offsets."""
    tc, mma = tiled_copy(case)
    op = case["config"]["operand"]
    smem = _smem(case)
    for th in case["threads"]:
        t = th["t"]
        frag = mma.partition_fragment(smem, op, t)
        part = mma.partition(smem, op, t)
        copy_part = tc.partition_S(smem, t) if op != "C" else tc.partition_D(smem, t)
        retile = tc.retile_tensor(frag)
        got = {"mma_frag": (str(frag.layout), frag.layout.values()),
               "mma_part": (str(part.layout), part.offsets()),
               "copy_part": (str(copy_part.layout), copy_part.offsets()),
               "copy_retile": (str(retile.layout), retile.layout.values())}
        for key, (text, values) in got.items():
            want = th[key]
            assert text == want["text"], f"thread {t} {key}"
            assert values == want.get("offsets", want.get("table")), f"thread {t} {key}"
    Tally.record("tiled", True)


@pytest.mark.parametrize("case", MMA_CASES, ids=[c["id"] for c in MMA_CASES])
def test_tiled_partitions_of_many_threads(case):
    """partitions(): every listed thread's partition_X at once (the threads after the first by their modes' tables
    of values), the same layouts and offsets as CuTe's per thread."""
    _, mma = tiled_copy(case)
    op = case["config"]["operand"]
    threads = [th["t"] for th in case["threads"]]
    parts = mma.partitions(_smem(case), op, threads)
    for th, part in zip(case["threads"], parts):
        assert (str(part.layout), part.offsets()) == (th["mma_part"]["text"], th["mma_part"]["offsets"]), th["t"]
    # a thread past the tiled MMA's: CuTe's crd2idx rule (its last mode takes the rest), as one thread's slice
    past = mma.num_threads() + 3
    assert mma.partitions(_smem(case), op, [threads[0], past])[1].offsets() == \
        mma.partition(_smem(case), op, past).offsets()


@pytest.mark.parametrize("case", COPY_ONLY, ids=[c["id"] for c in COPY_ONLY])
def test_copy_only_partitions(case):
    tc, _ = tiled_copy(case)
    assert str(tc.layout_tv) == case["tiled_copy"]["TiledLayout_TV"]["text"]
    gmem = Tensor(0, read_cpp(case["config"]["gmem_layout_expr"]))
    smem = _smem(case)
    for th in case["threads"]:
        src, dst = tc.partition_S(gmem, th["t"]), tc.partition_D(smem, th["t"])
        assert (str(src.layout), src.offsets()) == (th["copy_src_part"]["text"], th["copy_src_part"]["offsets"])
        assert (str(dst.layout), dst.offsets()) == (th["copy_dst_part"]["text"], th["copy_dst_part"]["offsets"])
    Tally.record("tiled", True)
