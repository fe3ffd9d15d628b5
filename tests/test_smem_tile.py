"""A shared-memory tile read at integer points (cute/gmma.py's SmemTile.offset, from each mode's table of offsets)
is CuTe's crd2idx of the tile's layout at every point: inside every mode's extent, and past one (where crd2idx runs
on along the mode's last leaf)."""
from hypothesis import given, strategies as st

from strategies import layouts
from verifier.algebra import Layout
from verifier.cute.gmma import SmemTile
from verifier.hardware.smem_operand import GmmaSwizzle


def _tile(layout: Layout) -> SmemTile:
    return SmemTile(layout, GmmaSwizzle.NONE, 2, True)


@given(layouts(max_rank=3).filter(lambda layout: layout.rank() in (2, 3)), st.data())
def test_an_integer_point_is_read_as_crd2idx_reads_it(layout, data):
    sizes = [int(layout.mode(r).size()) for r in range(layout.rank())]
    point = tuple(data.draw(st.integers(0, 2 * s), label=f"mode {r}") for r, s in enumerate(sizes))
    assert _tile(layout).offset(*point) == layout(point)


def test_a_point_past_the_stage_mode_is_not_wrapped():
    """Stage 2 of a two-stage (2,3,2) tile: past the stage mode's extent, crd2idx goes on along it (offset 12 + 12),
    it does not wrap to stage 0."""
    layout = Layout((2, 3, 2), (1, 2, 12))
    assert _tile(layout).offset(1, 2, 2) == layout((1, 2, 2)) == 1 + 4 + 24
    assert _tile(layout).offset(2, 0, 0) == layout((2, 0, 0)) == 2
