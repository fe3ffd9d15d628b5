"""Operator tables for the one visitor (`expr.fold`): SMT-LIB 2 text, Python and numpy source, closed forms.

Each backend is a table from node kind to a function of (node, children's results).  The source backends
name every inner node once (SMT-LIB `define-fun`, a Python temporary), so a shared sub-term is lowered
once and no generated text nests deeper than one operator: a DAG of any depth or width compiles.
"""
from __future__ import annotations

import functools
import operator
from typing import Any, Callable, Sequence, cast

from .expr import Node, Op, Pred, RootValues, Var, fold

QUOTIENT, REMAINDER = 0, 1     # SMT2._division's pair
INLINE_ARGS = 16          # n-ary sums and junctions wider than this are reduced by a helper call
TEXT_LIMIT = 2000         # closed forms longer than this are cut (a report line, not a proof)


# --- Python and numpy source ----------------------------------------------------------------------

def infix(sep: str, args: Sequence[str], wide: str) -> str:
    if len(args) <= INLINE_ARGS:
        return "(" + sep.join(args) + ")"
    return f"{wide}(({', '.join(args)},))"


PYTHON_OPERATORS: dict[Op, Callable[[Node, list[str]], str]] = {
    Op.CONST: lambda n, a: f"({n.k})",
    Op.ADD: lambda n, a: infix(" + ", a, "_sum"),
    Op.MUL: lambda n, a: f"({a[0]} * {n.k})",
    Op.FLOORDIV: lambda n, a: f"({a[0]} // {n.k})",
    Op.MOD: lambda n, a: f"({a[0]} % {n.k})",
    Op.BITAND: lambda n, a: f"({a[0]} & {n.k})",
    Op.BITXOR: lambda n, a: f"({a[0]} ^ {a[1]})",
    Op.TRUE: lambda n, a: "True",
    Op.FALSE: lambda n, a: "False",
    Op.EQ: lambda n, a: f"({a[0]} == {a[1]})",
    Op.LT: lambda n, a: f"({a[0]} < {a[1]})",
    Op.AND: lambda n, a: infix(" and ", a, "_all"),
    Op.OR: lambda n, a: infix(" or ", a, "_any"),
    Op.NOT: lambda n, a: f"(not {a[0]})",
}

# numpy: the same integer operators on int64 arrays; booleans through numpy's logical functions, which
# also accept the plain True / False of a constant predicate
_NUMPY: dict[Op, Callable[[Node, list[str]], str]] = dict(PYTHON_OPERATORS)
_NUMPY.update({
    Op.AND: lambda n, a: f"_reduce(_np.logical_and, ({', '.join(a)},))",
    Op.OR: lambda n, a: f"_reduce(_np.logical_or, ({', '.join(a)},))",
    Op.NOT: lambda n, a: f"_np.logical_not({a[0]})",
})


def compile_function(roots: Sequence[Node], order: Sequence[Var], numpy: bool) -> Callable[..., RootValues]:
    """def f(<variables in order>): return (<value of each root>,) -- exact on Python ints or int64 arrays."""
    arg = {v.name: f"_a{i}" for i, v in enumerate(order)}
    table = dict(_NUMPY if numpy else PYTHON_OPERATORS)
    table[Op.VAR] = lambda n, a: arg[cast(Var, n).name]         # a VAR node is a Var
    lines: list[str] = []

    def bind(node: Node, text: str) -> str:
        name = f"_t{len(lines)}"
        lines.append(f"    {name} = {text}")
        return name

    results = fold(roots, table, bind)
    ret = ", ".join(results[r._key] for r in roots)
    src = "\n".join([f"def _f({', '.join(arg[v.name] for v in order)}):"] + lines + [f"    return ({ret},)"])
    namespace: dict[str, Any] = {"_sum": sum, "_all": all, "_any": any, "_reduce": functools.reduce}
    if numpy:
        from ..numeric import load_numpy
        load_numpy()
        import numpy as np
        namespace.update(_np=np, _sum=lambda xs: functools.reduce(operator.add, xs))
    exec(compile(src, "<obligation>", "exec"), namespace)  # noqa: S102 - source generated from our own tree
    return cast(Callable[..., RootValues], namespace["_f"])     # the `def _f` just compiled


# --- Python integers, at one point ------------------------------------------------------------------

_AT_A_POINT: dict[Op, Callable[[Node, list[Any]], Any]] = {
    Op.CONST: lambda n, a: n.k,
    Op.ADD: lambda n, a: sum(a),
    Op.MUL: lambda n, a: a[0] * n.k,
    Op.FLOORDIV: lambda n, a: a[0] // n.k,
    Op.MOD: lambda n, a: a[0] % n.k,
    Op.BITAND: lambda n, a: a[0] & n.k,
    Op.BITXOR: lambda n, a: a[0] ^ a[1],
    Op.TRUE: lambda n, a: True,
    Op.FALSE: lambda n, a: False,
    Op.EQ: lambda n, a: a[0] == a[1],
    Op.LT: lambda n, a: a[0] < a[1],
    Op.AND: lambda n, a: all(a),
    Op.OR: lambda n, a: any(a),
    Op.NOT: lambda n, a: not a[0],
}


def evaluate(roots: Sequence[Node], point: dict[str, int]) -> list[Any]:
    """The value of every root at `point` (every variable of the roots named), exactly, on Python integers: the
    operators of PYTHON_OPERATORS applied node by node, with nothing compiled (one point is cheaper that way)."""
    table = dict(_AT_A_POINT)
    table[Op.VAR] = lambda n, a: point[cast(Var, n).name]
    results = fold(roots, table)
    return [results[r._key] for r in roots]


# --- SMT-LIB 2 (QF_BV) -------------------------------------------------------------------------------

class SMT2:
    """Bit-vector lowering as SMT-LIB 2 text: one `define-fun` per inner node, powers of two as shifts/masks.

    The width comes from the expressions' own bounds (`expr.bit_width`): every sub-term, products and
    differences included, fits the signed range, so wrap-around never makes two different integers equal.

    x // k and x % k by any other constant k are a quotient q and a remainder r declared once per (x, k), with
    x = q*k + r, r < k, q*k <= x and q <= (2^width - 1) // k (all unsigned): q*k cannot wrap, so x - q*k is r
    exactly and (q, r) is bvudiv's and bvurem's pair, the only one, at every point.  Z3 bit-blasts bvudiv and
    bvurem into a divider circuit; this form costs it a multiplier by a constant (the claims of non-power-of-two
    tiles decided 13-32 times faster; `tests/test_symbolic.py` checks the form against enumeration).
    """

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[str] = []
        w = width
        bv = self.bv
        self.table: dict[Op, Callable[[Node, list[str]], str]] = {
            Op.CONST: lambda n, a: bv(n.k),
            Op.VAR: self._declare,
            Op.ADD: lambda n, a: "(bvadd " + " ".join(a) + ")",
            Op.MUL: lambda n, a: (f"(bvshl {a[0]} {bv(n.k.bit_length() - 1)})" if _pow2(n.k)
                                  else f"(bvmul {a[0]} {bv(n.k)})"),
            Op.FLOORDIV: lambda n, a: (f"(bvlshr {a[0]} {bv(n.k.bit_length() - 1)})" if _pow2(n.k)
                                       else self._division(a[0], n.k)[QUOTIENT]),
            Op.MOD: lambda n, a: (f"(bvand {a[0]} {bv(n.k - 1)})" if _pow2(n.k)
                                  else self._division(a[0], n.k)[REMAINDER]),
            Op.BITAND: lambda n, a: f"(bvand {a[0]} {bv(n.k)})",
            Op.BITXOR: lambda n, a: f"(bvxor {a[0]} {a[1]})",
            Op.TRUE: lambda n, a: "true",
            Op.FALSE: lambda n, a: "false",
            Op.EQ: lambda n, a: f"(= {a[0]} {a[1]})",
            Op.LT: lambda n, a: f"(bvslt {a[0]} {a[1]})",
            Op.AND: lambda n, a: "(and " + " ".join(a) + ")",
            Op.OR: lambda n, a: "(or " + " ".join(a) + ")",
            Op.NOT: lambda n, a: f"(not {a[0]})",
        }
        self._sort = f"(_ BitVec {w})"
        self._divisions: dict[tuple[str, int], tuple[str, str]] = {}   # (dividend's name, k) -> (quotient, remainder)
        self._division_facts: list[str] = []

    def _division(self, dividend: str, k: int) -> tuple[str, str]:
        """The quotient and remainder of `dividend` by the constant k (a non-power of two): two constants of the
        script's own names and the facts that make them bvudiv's and bvurem's (the class's docstring)."""
        found = self._divisions.get((dividend, k))
        if found is None:
            q, r = self._fresh(), self._fresh()
            product = f"(bvmul {q} {self.bv(k)})"
            self._division_facts += [f"(= {dividend} (bvadd {product} {r}))", f"(bvult {r} {self.bv(k)})",
                                     f"(bvule {product} {dividend})",
                                     f"(bvule {q} {self.bv(((1 << self.width) - 1) // k)})"]
            found = self._divisions[(dividend, k)] = (q, r)
        return found

    def bv(self, v: int) -> str:
        return f"(_ bv{v} {self.width})" if v >= 0 else f"(bvneg (_ bv{-v} {self.width}))"

    def _declare(self, node: Node, _: list[str]) -> str:
        assert isinstance(node, Var)
        name = f"|{node.name}|"
        self.lines.append(f"(declare-const {name} {self._sort})")
        return name

    def _fresh(self) -> str:
        """A constant of the script's own (numbered like `_bind`'s names: no clash)."""
        name = f"e{len(self.lines)}"
        self.lines.append(f"(declare-const {name} {self._sort})")
        return name

    def _bind(self, node: Node, text: str) -> str:
        name = f"e{len(self.lines)}"
        sort = "Bool" if isinstance(node, Pred) else self._sort
        self.lines.append(f"(define-fun {name} () {sort} {text})")
        return name

    def script(self, variables: list[Var], premise: Pred, claim: Pred) -> str:
        """Assertions whose satisfying assignments are the counterexamples: domain, premise, not claim."""
        results = fold(list(variables) + [premise, claim], self.table, self._bind)
        asserts = [f"(bvult {results[v._key]} {self.bv(v.size)})" for v in variables]
        asserts += self._division_facts + [results[premise._key], f"(not {results[claim._key]})"]
        return "\n".join(self.lines + [f"(assert {a})" for a in asserts])


def _pow2(k: int) -> bool:
    return k > 0 and k & (k - 1) == 0


# --- closed forms for people ----------------------------------------------------------------------

ATOM, POSTFIX, PRODUCT, SUM, COMPARISON, JUNCTION = range(6)   # binding strength, tightest first
Text = tuple[str, int]


def _wrap(t: Text, loosest: int) -> str:
    return t[0] if t[1] <= loosest else f"({t[0]})"


def _cut(s: str) -> str:
    return s if len(s) <= TEXT_LIMIT else s[:TEXT_LIMIT] + "…"


def _sum_text(n: Node, a: list[Text]) -> Text:
    out = ""
    for i, (s, _) in enumerate(a):
        if i == 0:
            out = s
        elif s.startswith("-"):
            out += " - " + s[1:]
        else:
            out += " + " + s
    return out, SUM


def _not_text(n: Node, a: list[Text]) -> Text:
    inner = n.args[0]
    if inner.op is Op.EQ:
        return a[0][0].replace(" == ", " != ", 1), COMPARISON
    return f"not ({a[0][0]})", JUNCTION


def _junction_text(sep: str) -> Callable[[Node, list[Text]], Text]:
    return lambda n, a: (sep.join(f"({s})" for s, _ in a), JUNCTION)


_TEXT: dict[Op, Callable[[Node, list[Text]], Text]] = {
    Op.CONST: lambda n, a: (str(n.k), ATOM),
    Op.VAR: lambda n, a: (cast(Var, n).name, ATOM),
    Op.ADD: _sum_text,
    Op.MUL: lambda n, a: (f"-{_wrap(a[0], ATOM)}" if n.k == -1 else f"{n.k}*{_wrap(a[0], ATOM)}", PRODUCT),
    Op.FLOORDIV: lambda n, a: (f"{_wrap(a[0], ATOM)}//{n.k}", POSTFIX),
    Op.MOD: lambda n, a: (f"{_wrap(a[0], ATOM)}%{n.k}", POSTFIX),
    Op.BITAND: lambda n, a: (f"{_wrap(a[0], ATOM)} & {n.k:#x}", POSTFIX),
    Op.BITXOR: lambda n, a: (f"{_wrap(a[0], ATOM)} ^ {_wrap(a[1], ATOM)}", POSTFIX),
    Op.TRUE: lambda n, a: ("true", ATOM),
    Op.FALSE: lambda n, a: ("false", ATOM),
    Op.EQ: lambda n, a: (f"{a[0][0]} == {a[1][0]}", COMPARISON),
    Op.LT: lambda n, a: (f"{a[0][0]} < {a[1][0]}", COMPARISON),
    Op.AND: _junction_text(" and "),
    Op.OR: _junction_text(" or "),
    Op.NOT: _not_text,
}


def _capped(f: Callable[[Node, list[Text]], Text]) -> Callable[[Node, list[Text]], Text]:
    def g(n: Node, a: list[Text]) -> Text:
        s, strength = f(n, a)
        return _cut(s), strength
    return g


_TEXT_CAPPED = {op: _capped(f) for op, f in _TEXT.items()}


def texts_of(es: Sequence[Node]) -> list[str]:
    """Closed forms with Python operators, e.g. `2*t + v%2 + 64*(v//2)` (cut beyond TEXT_LIMIT characters)."""
    results = fold(es, _TEXT_CAPPED)
    return [results[e._key][0] for e in es]


def text_of(e: Node) -> str:
    return texts_of([e])[0]
