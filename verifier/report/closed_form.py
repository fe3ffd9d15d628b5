"""Closed forms of layouts for reports: `2*t + v%2 + 64*(v//2)` (text) and LaTeX (Markdown).

The expression tree is handed to sympy, which orders terms canonically and prints; the printer
spells floor division and modulo the way a C++ or Python reader writes them.  sympy is imported only
when a report needs a formula.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ..symbolic.expr import (Add, BitAnd, BitXor, Const, Expr, FloorDiv, Ite, Mod, Mul, Shr, Var, pred_text,
                             to_text)


@lru_cache(maxsize=1)
def _sympy():
    import sympy
    from sympy.printing.str import StrPrinter

    class Printer(StrPrinter):
        """Python spelling: a//k and a%k, parenthesised inside products and sums where needed."""

        def _print_floor(self, e):
            num, den = e.args[0].as_numer_denom()
            return f"{self._wrap(num)}//{self._print(den)}"

        def _print_Mod(self, e):
            a, k = e.args
            return f"{self._wrap(a)}%{self._print(k)}"

        def _wrap(self, a):
            s = self._print(a)
            return s if (a.is_Symbol or a.is_Integer) else f"({s})"

        def _print_Mul(self, e):
            coeff, rest = e.as_coeff_Mul()
            parts = []
            for f in (rest.args if rest.is_Mul else (rest,)):
                s = self._print(f)
                if f.func.__name__ in ("floor", "Mod", "xor", "band") or f.is_Add:
                    s = f"({s})"
                parts.append(s)
            body = "*".join(parts)
            if coeff == 1:
                return body
            if coeff == -1:
                return f"-{body}"
            return f"{self._print(coeff)}*{body}"

        def _print_Function(self, e):
            name = e.func.__name__
            if name == "xor":
                return " ^ ".join(self._wrap(a) for a in e.args)
            if name == "band":
                return f"{self._wrap(e.args[0])} & {self._print(e.args[1])}"
            return super()._print_Function(e)

    return sympy, Printer()


def to_sympy(e: Expr, symbols: dict | None = None) -> Any:
    sp, _ = _sympy()
    symbols = {} if symbols is None else symbols

    def conv(x: Expr):
        if isinstance(x, Const):
            return sp.Integer(x.value)
        if isinstance(x, Var):
            if x.name not in symbols:
                symbols[x.name] = sp.Symbol(x.name, integer=True, nonnegative=True)
            return symbols[x.name]
        if isinstance(x, Add):
            return sp.Add(*[conv(t) for t in x.terms])
        if isinstance(x, Mul):
            return sp.Integer(x.k) * conv(x.e)
        if isinstance(x, FloorDiv):
            return sp.floor(conv(x.e) / x.k)
        if isinstance(x, Mod):
            return sp.Mod(conv(x.e), x.k)
        if isinstance(x, Shr):
            return sp.floor(conv(x.e) / (1 << x.k))
        if isinstance(x, BitXor):
            return sp.Function("xor")(conv(x.a), conv(x.b))
        if isinstance(x, BitAnd):
            return sp.Function("band")(conv(x.e), sp.Integer(x.mask))
        if isinstance(x, Ite):
            return sp.Piecewise((conv(x.a), sp.Symbol(f"[{pred_text(x.c)}]")), (conv(x.b), True))
        raise TypeError(type(x))
    return conv(e)


def closed_form(e: Expr, canonical: bool = False) -> str:
    """Python-style closed form.  The expression tree prints itself (already simplified as it was built);
    with `canonical`, sympy orders the terms first (slower: sympy's import is most of a report's time)."""
    if not canonical:
        return to_text(e)
    try:
        sp, printer = _sympy()
        return printer.doprint(to_sympy(e))
    except Exception:  # a report must never fail because of pretty-printing
        return to_text(e)

