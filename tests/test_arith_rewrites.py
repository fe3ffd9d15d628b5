"""The builders' division / modulo rewrites are exact, and block enumeration covers every point once, in order.

The rewrites ((k*M + r) // k = M + r // k, (x*c) // (c*q) = x // q, and their modulo forms) are what keep a
4000x4000 tile with a 4008-element row pitch a handful of small obligations; a wrong one would prove false
claims, so every one is checked against plain integer arithmetic on random expressions and points.
"""
from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from verifier.outcome import Status
from verifier.symbolic.decide import Procedure, Settings, _blocks, decide, failures_with_numpy, forget
from verifier.symbolic.expr import Expr, Op, Var, add, compile_py, const, eq, floordiv, lt, mod, mul, ne, postorder
from verifier.symbolic.obligation import Distinct, Obligation

SIZES = (1, 2, 3, 8, 12, 250, 256)
VARS = [Var(f"v{i}", size) for i, size in enumerate(SIZES)]

# A recipe is a nested tuple the test evaluates itself on Python integers and builds with the builders.
recipes = st.recursive(
    st.one_of(st.sampled_from([("var", i) for i in range(len(VARS))]),
              st.integers(0, 5000).map(lambda c: ("const", c))),
    lambda inner: st.one_of(
        st.tuples(st.just("add"), inner, inner),
        st.tuples(st.just("mul"), inner, st.sampled_from([1, 2, 3, 4, 8, 12, 250, 2000, 4008])),
        st.tuples(st.just("div"), inner, st.sampled_from([1, 2, 3, 4, 8, 12, 16, 250, 648, 2000])),
        st.tuples(st.just("mod"), inner, st.sampled_from([1, 2, 3, 4, 8, 12, 16, 250, 648, 2000]))),
    max_leaves=12)


def build(r: tuple) -> Expr:
    kind = r[0]
    if kind == "var":
        return VARS[r[1]]
    if kind == "const":
        return const(r[1])
    if kind == "add":
        return add(build(r[1]), build(r[2]))
    if kind == "mul":
        return mul(build(r[1]), r[2])
    if kind == "div":
        return floordiv(build(r[1]), r[2])
    return mod(build(r[1]), r[2])


def value(r: tuple, point: tuple[int, ...]) -> int:
    kind = r[0]
    if kind == "var":
        return point[r[1]]
    if kind == "const":
        return r[1]
    if kind == "add":
        return value(r[1], point) + value(r[2], point)
    if kind == "mul":
        return value(r[1], point) * r[2]
    if kind == "div":
        return value(r[1], point) // r[2]
    return value(r[1], point) % r[2]


@settings(max_examples=400, deadline=None)
@given(recipes, st.data())
def test_rewritten_expressions_equal_integer_arithmetic(recipe, data):
    e = build(recipe)
    f = compile_py([e], VARS)
    for _ in range(20):
        point = tuple(data.draw(st.integers(0, v.size - 1)) for v in VARS)
        got = f(*point)[0]
        assert got == value(recipe, point)
        assert e.lo <= got <= e.hi


def test_a_padded_pitch_index_splits_back_into_its_coordinates():
    """(v + 2000*r + 8*c) with v < 8, c < 250: // 2000 is r, // 8 % 250 is c, % 8 is v -- no division left."""
    v, r, c = Var("v", 8), Var("r", 250), Var("c", 250)
    index = add(v, mul(r, 2000), mul(c, 8))
    assert floordiv(index, 2000) == r
    assert mod(floordiv(index, 8), 250) == c
    assert mod(index, 8) == v
    assert not any(n.op in (Op.FLOORDIV, Op.MOD) for n in postorder([add(floordiv(index, 2000), mod(index, 8))]))


def test_a_remainder_that_can_cross_the_divisor_stays_a_division():
    """v + 8*c with v < 12 may carry into the next multiple of 8: no rewrite drops that carry."""
    v, c = Var("v", 12), Var("c", 250)
    q = floordiv(add(v, mul(c, 8)), 8)
    assert any(n.op is Op.FLOORDIV for n in postorder([q]))
    f = compile_py([q], [v, c])
    assert all(f(a, b)[0] == (a + 8 * b) // 8 for a in range(12) for b in range(250))


@settings(deadline=None)
@given(st.lists(st.integers(1, 12), min_size=0, max_size=4), st.integers(1, 300))
def test_blocks_cover_the_domain_once_in_c_order(shape, chunk):
    shape = tuple(shape)
    seen: list[tuple] = []
    for b in _blocks(shape, chunk):
        assert b.size <= chunk or not shape
        assert b.start == len(seen)
        if not shape:                       # no variables: one block of the single (empty) point
            seen.append(())
            continue
        grid = np.broadcast_arrays(*b.coords, np.zeros(b.shape, dtype=np.int64))[:-1]
        flat = list(zip(*(np.asarray(g).ravel().tolist() for g in grid)))
        assert flat == list(zip(*(p.tolist() for p in b.points(np.arange(b.size)))))
        seen.extend(flat)
    assert seen == list(itertools.product(*(range(k) for k in shape)))


def test_enumeration_reports_the_smallest_failure_across_blocks(monkeypatch):
    """Failing points in several blocks: the first reported is the lexicographically smallest, all are counted."""
    import verifier.symbolic.decide as decide_module
    monkeypatch.setattr(decide_module, "CHUNK", 7)
    a, b, c = Var("a", 5), Var("b", 6), Var("c", 4)
    ob = Obligation("a*24 + b*4 + c is not 50 or 90", [a, b, c],
                    ne(add(mul(a, 24), mul(b, 4), c), 50) & ne(add(mul(a, 24), mul(b, 4), c), 90))
    e = failures_with_numpy(ob)
    assert e.first == {"a": 2, "b": 0, "c": 2} and e.failing == 2


def test_injectivity_both_ways_to_enumerate():
    """A dense value range is checked with a bitmap, a sparse one by sorting; both prove and both refute."""
    forget()
    x, y = Var("x", 5000), Var("y", 5000)
    for scale in (1, 1000):                                    # span 5000 (bitmap) and 4999001 (sort)
        good = Obligation("injective", [x, y], ne(mul(x, scale), mul(y, scale)), premise=lt(x, y),
                          distinct=Distinct(mul(x, scale), (x,), (y,)))
        d, _ = decide(good, Settings(procedure=Procedure.ENUMERATION))
        assert d.status is Status.PROVED and d.procedure is Procedure.ENUMERATION
        folded = mul(floordiv(x, 2), scale)
        bad = Obligation("not injective", [x, y], ne(folded, mul(floordiv(y, 2), scale)), premise=lt(x, y),
                         distinct=Distinct(folded, (x,), (y,)))
        d, e = decide(bad, Settings(procedure=Procedure.ENUMERATION))
        assert d.status is Status.REFUTED and e is not None and e.failing == 2500
        assert d.witness is not None and d.witness["x"] // 2 == d.witness["y"] // 2
    forget()


def test_rewrites_keep_the_claim_true_and_false_where_it_was():
    """The same identity proved with Z3 and enumeration on the rewritten form; a broken pitch refuted by both."""
    forget()
    v, r, c = Var("v", 8), Var("r", 500), Var("c", 250)
    index = add(v, mul(r, 2000), mul(c, 8))
    rebuilt = add(mul(floordiv(index, 2000), 2000), mul(mod(floordiv(index, 8), 250), 8), mod(index, 8))
    for procedure in (Procedure.Z3, Procedure.ENUMERATION):
        d, _ = decide(Obligation("round trip", [v, r, c], eq(rebuilt, index)), Settings(procedure=procedure))
        assert d.status is Status.PROVED, procedure
        broken = add(mul(floordiv(index, 2000), 2008), mul(mod(floordiv(index, 8), 250), 8), mod(index, 8))
        d, _ = decide(Obligation("pitch 2008 is not 2000", [v, r, c], eq(broken, index)),
                      Settings(procedure=procedure))
        assert d.status is Status.REFUTED and d.witness is not None and d.witness["r"] > 0, procedure
        forget()
