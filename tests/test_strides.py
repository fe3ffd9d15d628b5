"""Injectivity read off a layout's strides (verifier/symbolic/strides.py): a proof only where the layout is
injective -- checked against its values on random layouts -- and used by `decide` only when the obligation is that
layout's injectivity (the expression built again and compared), else the other procedures decide."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.algebra.layout import Layout
from verifier.algebra.swizzle import ComposedLayout, Swizzle
from verifier.outcome import Status
from verifier.algebra.syntax import parse_layout
from verifier.symbolic.decide import Procedure, Settings, decide, forget
from verifier.symbolic.expr import Var, lt, ne
from verifier.symbolic.layouts import index_of, layout_expr
from verifier.symbolic.obligation import Distinct, Obligation
from verifier.symbolic.strides import injective_by_strides


def _injective(layout: Layout | ComposedLayout) -> bool:
    values = [int(layout(i)) for i in range(layout.size())]
    return len(set(values)) == len(values)


def test_compact_and_swizzled_layouts_are_proved_by_their_strides():
    assert injective_by_strides(Layout((8, 4), (1, 8))) is not None                   # compact, column-major
    assert injective_by_strides(Layout(((8, 2), (64, 3)), ((64, 1024), (1, 2048)))) is not None
    assert injective_by_strides(Layout((4, 4), (-1, 4))) is not None                  # a negative stride
    sw128 = ComposedLayout(Swizzle(3, 4, 3), 0, Layout((8, 64), (64, 1)))
    proof = injective_by_strides(sw128)
    assert proof is not None and "Sw<3,4,3>" in proof and "8:64" in proof
    assert injective_by_strides(Layout(1, 0)) is not None                               # one element


def test_layouts_the_strides_do_not_show_injective():
    assert injective_by_strides(Layout((4, 2), (1, 0))) is None             # a broadcast mode: not injective
    assert injective_by_strides(Layout((4, 4), (1, 2))) is None             # overlapping: 0+2*1 == 2+0
    assert injective_by_strides(Layout((3, 2), (2, 3))) is None             # injective, but not by this argument
    assert _injective(Layout((3, 2), (2, 3)))
    # a layout composed with a layout (not a swizzle) is not read
    assert injective_by_strides(ComposedLayout(Layout(4, 1), 0, Layout(4, 1))) is None


shapes = st.lists(st.integers(1, 5), min_size=1, max_size=4)


@settings(max_examples=400, deadline=None)
@given(shapes, st.data(), st.booleans())
def test_a_stride_proof_is_never_given_for_a_layout_that_is_not_injective(shape, data, swizzled):
    strides = data.draw(st.lists(st.integers(-40, 40), min_size=len(shape), max_size=len(shape)))
    layout: Layout | ComposedLayout = Layout(tuple(shape), tuple(strides))
    if swizzled:
        layout = ComposedLayout(Swizzle(2, 1, 3), data.draw(st.integers(0, 64)), layout)
    if injective_by_strides(layout) is not None:
        assert _injective(layout), layout


def _obligation(layout: Layout | ComposedLayout, hint: Layout | ComposedLayout | None) -> Obligation:
    rows, cols = (int(layout.shape[0]), int(layout.shape[1])) if isinstance(layout.shape, tuple) else (layout.size(), 1)
    r1, c1, r2, c2 = Var("m", rows), Var("k", cols), Var("m2", rows), Var("k2", cols)
    i1, i2 = index_of([r1, c1], [rows, cols]), index_of([r2, c2], [rows, cols])
    o1, o2 = layout_expr(layout, i1), layout_expr(layout, i2)
    return Obligation("distinct coordinates have distinct offsets", [r1, c1, r2, c2], ne(o1, o2), premise=lt(i1, i2),
                      lhs=o1, rhs=o2, distinct=Distinct(o1, (r1, c1), (r2, c2), hint))


def test_decide_proves_a_layouts_injectivity_by_its_strides_and_cross_checks_it():
    forget()
    tile = parse_layout("Sw<3,3,3> o (64,64):(64,1)")
    decision, _ = decide(_obligation(tile, tile))
    assert decision.status is Status.PROVED and decision.procedure is Procedure.STRIDES
    assert "injective by its strides" in decision.reason
    checked, _ = decide(_obligation(tile, tile), Settings(cross_check=True))
    assert checked.status is Status.PROVED and checked.cross_check is not None
    assert checked.cross_check.procedure is Procedure.ENUMERATION and checked.cross_check.status is Status.PROVED
    # a procedure forced (the tests that compare procedures): not the strides
    forced, _ = decide(_obligation(tile, tile), Settings(procedure=Procedure.ENUMERATION))
    assert forced.procedure is Procedure.ENUMERATION and forced.status is Status.PROVED


def test_decide_refutes_an_aliasing_layout_by_enumeration_and_ignores_a_hint_it_is_not():
    forget()
    aliasing = Layout((64, 64), (64, 2))              # (2,0) and (0,1) share offset 4
    decision, _ = decide(_obligation(aliasing, aliasing))
    assert decision.status is Status.REFUTED and decision.procedure is Procedure.ENUMERATION
    # a hint naming another (injective) layout than the expression's is not used: the expression decides
    forget()
    wrong_hint, _ = decide(_obligation(aliasing, Layout((64, 64), (1, 64))))
    assert wrong_hint.status is Status.REFUTED and wrong_hint.procedure is not Procedure.STRIDES
    # nor one whose domain is not the obligation's
    forget()
    small = Layout((8, 8), (1, 8))
    ob = _obligation(small, Layout((8, 16), (1, 8)))
    assert decide(ob)[0].procedure is not Procedure.STRIDES
