"""Remembered layout functions (verifier/algebra/memo.py) return what a fresh call returns: a run-time integer is
never confused with the static integer of the same value, and CuTe's refusals are raised on every call."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strategies import layouts
from verifier.algebra import Layout, memo, ops, tiling
from verifier.algebra.inttuple import AlgebraError, Dyn, transform_leaf


def _fresh(f, *args):
    memo.forget()
    return str(f.__wrapped__(*args))


def test_a_dynamic_stride_is_not_the_static_one():
    """CuTe merges modes only when it can prove the strides line up at compile time: 2:1 then 2:_2 merges, 2:1
    then 2:2 (a run-time stride of the same value) does not.  Asked in either order, each gets its own answer."""
    static = Layout((2, 2), (1, 2))
    dynamic = Layout((2, 2), (1, Dyn(2)))
    assert static == dynamic                                  # Python's equality cannot tell them apart
    for first, second in ((static, dynamic), (dynamic, static)):
        memo.forget()
        answers = {str(first): str(ops.coalesce(first)), str(second): str(ops.coalesce(second))}
        assert answers == {str(static): "_4:_1", str(dynamic): "(_2,_2):(_1,2)"}
        assert ops.coalesce(first) is ops.coalesce(first)     # the second call is remembered


def _dynamic_somewhere(layout: Layout, flags: list[bool]) -> Layout:
    it = iter(flags * 16)
    return Layout(layout.shape, transform_leaf(layout.stride, lambda d: Dyn(d) if next(it) else d))


@settings(max_examples=200, deadline=None)
@given(layouts(max_stride=16), layouts(max_rank=2, zero_strides=False, max_stride=8),
       st.lists(st.booleans(), min_size=1, max_size=8))
def test_remembered_results_are_fresh_results(a, b, flags):
    """coalesce, composition, complement, logical_divide and logical_product, asked of a layout, of the same layout
    with some strides made run-time integers, and of the first again, all remembered in one table: each answer is
    the one the function computes afresh."""
    cases = [(f, args) for layout in (a, _dynamic_somewhere(a, flags), a)
             for f, args in ((ops.coalesce, (layout,)), (ops.compose_layouts, (layout, b)),
                             (ops.complement, (layout, 4096)), (tiling.logical_divide, (layout, b)),
                             (tiling.logical_product, (layout, b)))]

    def answer(f, args):
        try:
            return str(f(*args))
        except AlgebraError as e:
            return f"refused: {e.rule}"
    expected = []
    for f, args in cases:
        memo.forget()
        expected.append(answer(f.__wrapped__, args))
    memo.forget()
    assert [answer(f, args) for f, args in cases] == expected


def test_a_refusal_is_raised_every_time():
    """(4,3):(1,10) o 2:6 steps 6 elements through a mode of 4: CuTe's stride divisibility condition refuses it."""
    memo.forget()
    for _ in range(3):
        with pytest.raises(AlgebraError, match="Stride Divisibility"):
            ops.compose_layouts(Layout((4, 3), (1, 10)), Layout(2, 6))


def test_a_full_table_starts_over(monkeypatch):
    monkeypatch.setattr(memo, "MEMO_SIZE", 4)
    memo.forget()
    results = [str(ops.coalesce(Layout((2, n), (1, 2)))) for n in range(1, 20)]
    assert results == [_fresh(ops.coalesce, Layout((2, n), (1, 2))) for n in range(1, 20)]


def test_other_arguments_are_not_remembered():
    """A swizzle (or anything not made of integers, tuples and layouts) is passed through: the call is made."""
    calls = []

    @memo.remembered
    def f(x):
        calls.append(x)
        return Layout(4, 1)
    f(Layout(2, 1))
    f(Layout(2, 1))
    f(True)
    f(True)
    assert len(calls) == 3
    assert str(ops.coalesce(Layout((2, 2), (1, 2)), profile=None)) == "_4:_1"     # keywords: called, not remembered


def test_an_exact_key_tells_a_run_time_integer_from_a_static_one():
    static, run_time = Layout((4, 8), (8, 1)), Layout((4, 8), (Dyn(8), 1))
    assert static == run_time                                   # Python's equality does not tell them apart
    assert memo.exact_key(static) != memo.exact_key(run_time)
    assert memo.exact_key((static, 2)) == memo.exact_key((Layout((4, 8), (8, 1)), 2))
    assert memo.exact_key((static, 2)) != memo.exact_key((run_time, 2))
    assert memo.exact_key("half_t") == "half_t"                  # another kind keys as itself


def test_a_check_configuration_key_is_exact_about_run_time_integers():
    from dataclasses import replace
    from verifier.kinds.base import configuration_key
    from verifier.specfile.model import CheckSpec, Loc
    check = CheckSpec("c", Loc("s.yaml", 1, 1), atom_layout=Layout((2, 1, 1), (1, 0, 0)))
    assert configuration_key(check) == configuration_key(replace(check, name="d", loc=Loc("t.yaml", 9, 9)))
    assert configuration_key(check) != configuration_key(replace(check, atom_layout=Layout((2, 1, 1), (Dyn(1), 0, 0))))
