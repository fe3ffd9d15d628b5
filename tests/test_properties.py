"""Properties of the algebra on random layouts (hypothesis)."""
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from strategies import compact_layouts, injective, layouts
from verifier.algebra import (AlgebraError, Layout, coalesce, complement, composition, downcast, left_inverse,
                              logical_divide, make_layout, right_inverse, upcast)

SETTINGS = settings(max_examples=200, deadline=None)


@SETTINGS
@given(layouts())
def test_right_inverse_is_a_right_inverse(L):
    R = right_inverse(L)
    for i in range(int(R.size())):
        assert L(R(i)) == i


@SETTINGS
@given(layouts(zero_strides=False))
def test_left_inverse_is_a_left_inverse_of_injective_layouts(L):
    assume(injective(L))
    try:
        LI = left_inverse(L)
    except AlgebraError:  # CuTe refuses non-divisible strides ("Left inverse divisibility condition")
        return
    for i in range(int(L.size())):
        assert LI(L(i)) == i


@SETTINGS
@given(layouts(zero_strides=False))
def test_complement_is_disjoint_from_the_layout(L):
    assume(injective(L))
    try:
        C = complement(L)
    except AlgebraError:
        return
    both = make_layout(L, C)
    assert injective(both)


@SETTINGS
@given(layouts())
def test_coalesce_preserves_the_function(L):
    C = coalesce(L)
    assert int(C.size()) == int(L.size())
    assert C.values() == L.values()


@SETTINGS
@given(layouts(pow2=True), compact_layouts())
def test_composition_is_function_composition_when_divisible(A, B):
    """Powers of two satisfy every divisibility condition, and a compact B splits its index into disjoint
    bit fields, so CuTe's by-mode composition is the function composition inside B's domain."""
    assume(int(B.size()) <= int(A.size()))
    R = composition(A, B)
    assert [R(i) for i in range(int(B.size()))] == [A(B(i)) for i in range(int(B.size()))]


@SETTINGS
@given(compact_layouts(), compact_layouts())
def test_logical_divide_rearranges_the_layout(L, T):
    assume(int(L.size()) % int(T.size()) == 0)
    D = logical_divide(L, T)
    assert sorted(D.values()) == sorted(L.values())
    assert [D(i) for i in range(int(T.size()))] == [L(T(i)) for i in range(int(T.size()))]


@SETTINGS
@given(layouts(pow2=True, zero_strides=False), st.sampled_from([2, 4, 8]))
def test_downcast_then_upcast_is_identity(L, n):
    if not any(d == 1 for d in __import__("verifier.algebra.inttuple", fromlist=["x"]).flatten_to_tuple(L.stride)):
        return
    assert upcast(downcast(L, n), n) == L


def test_right_inverse_of_stride0_mode_is_cute_s():
    """pycute returns 1:0 for any stride-0 mode; CuTe keeps the invertible part."""
    assert str(right_inverse(Layout((4, 4, 2), (1, 4, 0)))) == "_16:_1"
