"""Agreement with NVIDIA's pycute (from the nvidia-cutlass wheel) where it has the operation and is valid.

pycute is a second reference only: CuTe C++ (the oracle) is the truth.  Known pycute deviations are
avoided by the strategies: right_inverse with stride-0 modes, logical_product with an integer.
"""
import pytest
from hypothesis import assume, given, settings

from strategies import compact_layouts, injective, layouts
from verifier.algebra import (Layout, coalesce, complement, composition, left_inverse, logical_divide,
                              logical_product, right_inverse)

pycute = pytest.importorskip("pycute")
SETTINGS = settings(max_examples=150, deadline=None)


def to_pycute(L: Layout):
    def conv(t):
        return tuple(conv(e) for e in t) if isinstance(t, tuple) else int(t)
    return pycute.Layout(conv(L.shape), conv(L.stride))


def values(pl) -> list[int]:
    return [pl(i) for i in range(pycute.size(pl))]


@SETTINGS
@given(layouts())
def test_coalesce(L):
    assert coalesce(L).values() == values(pycute.coalesce(to_pycute(L)))
    assert str(coalesce(L).plain()) == str(pycute.coalesce(to_pycute(L))).replace(" ", "")


@SETTINGS
@given(layouts(zero_strides=False))
def test_right_inverse(L):
    assume(injective(L))  # for non-injective layouts both pick a valid but different right inverse
    assert right_inverse(L).values() == values(pycute.right_inverse(to_pycute(L)))


@SETTINGS
@given(layouts(pow2=True, zero_strides=False))
def test_left_inverse(L):
    assume(injective(L))  # pycute's left_inverse is wrong on non-power-of-two strides, e.g. (2,2):(1,3)
    try:
        ours = left_inverse(L)
    except ValueError:   # CuTe's rule refuses this layout
        return
    assert [ours(L(i)) for i in range(int(L.size()))] == \
        [pycute.left_inverse(to_pycute(L))(L(i)) for i in range(int(L.size()))]


@SETTINGS
@given(layouts(pow2=True, zero_strides=False))
def test_complement(L):
    assume(injective(L))
    cot = int(L.cosize()) * 2
    assert complement(L, cot).values() == values(pycute.complement(to_pycute(L), cot))


@SETTINGS
@given(layouts(pow2=True), compact_layouts())
def test_composition(A, B):
    assume(int(B.size()) <= int(A.size()))
    assert composition(A, B).values() == values(pycute.composition(to_pycute(A), to_pycute(B)))


@SETTINGS
@given(compact_layouts(), compact_layouts())
def test_logical_divide(L, T):
    assume(int(L.size()) % int(T.size()) == 0)
    assert logical_divide(L, T).values() == values(pycute.logical_divide(to_pycute(L), to_pycute(T)))


@SETTINGS
@given(compact_layouts(max_rank=2), compact_layouts(max_rank=2))
def test_logical_product(A, B):
    assume(int(A.size()) * int(B.size()) <= 4096)
    assert logical_product(A, B).values() == values(pycute.logical_product(to_pycute(A), to_pycute(B)))
