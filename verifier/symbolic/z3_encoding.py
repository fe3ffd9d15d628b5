"""Lowering expressions to Z3's input language: bit-vector SMT-LIB 2 text, the prover's encoding.

The bit-vector width comes from the expressions' own bounds (`expr.bit_width`): every sub-term,
including products and differences, fits in the signed range, so two-complement wrap-around can
never make two different integers equal.  Powers of two lower to shifts and masks.
"""
from __future__ import annotations

from .expr import (TRUE, FALSE, Add, BitAnd, BitXor, Const, Expr, FloorDiv, Ite, Mod, Mul, Pred, Shr, Var,
                   _pow2)


class SMT2Writer:
    """Bit-vector lowering written as SMT-LIB 2 text.

    Handing Z3 one string per obligation avoids thousands of Python API calls (the API's object
    wrappers cost more than solving these obligations); shared sub-terms become `define-fun`s.
    """

    def __init__(self, width: int) -> None:
        self.width = width
        self.lines: list[str] = []
        self.names: dict = {}
        self.vars: list[str] = []

    def _bv(self, v: int) -> str:
        W = self.width
        return f"(_ bv{v} {W})" if v >= 0 else f"(bvneg (_ bv{-v} {W}))"

    def expr(self, e: Expr) -> str:
        k = e._key
        if k in self.names:
            return self.names[k]
        if isinstance(e, Const):
            return self._bv(e.value)
        if isinstance(e, Var):
            name = f"|{e.name}|"
            self.lines.append(f"(declare-const {name} (_ BitVec {self.width}))")
            self.vars.append(e.name)
            self.names[k] = name
            return name
        if isinstance(e, Add):
            body = "(bvadd " + " ".join(self.expr(t) for t in e.terms) + ")"
        elif isinstance(e, Mul):
            body = (f"(bvshl {self.expr(e.e)} {self._bv(e.k.bit_length() - 1)})" if _pow2(e.k)
                    else f"(bvmul {self.expr(e.e)} {self._bv(e.k)})")
        elif isinstance(e, FloorDiv):
            body = (f"(bvlshr {self.expr(e.e)} {self._bv(e.k.bit_length() - 1)})" if _pow2(e.k)
                    else f"(bvudiv {self.expr(e.e)} {self._bv(e.k)})")
        elif isinstance(e, Mod):
            body = (f"(bvand {self.expr(e.e)} {self._bv(e.k - 1)})" if _pow2(e.k)
                    else f"(bvurem {self.expr(e.e)} {self._bv(e.k)})")
        elif isinstance(e, BitAnd):
            body = f"(bvand {self.expr(e.e)} {self._bv(e.mask)})"
        elif isinstance(e, BitXor):
            body = f"(bvxor {self.expr(e.a)} {self.expr(e.b)})"
        elif isinstance(e, Shr):
            body = f"(bvlshr {self.expr(e.e)} {self._bv(e.k)})"
        elif isinstance(e, Ite):
            body = f"(ite {self.pred(e.c)} {self.expr(e.a)} {self.expr(e.b)})"
        else:
            raise TypeError(type(e))
        name = f"e{len(self.names)}"
        self.lines.append(f"(define-fun {name} () (_ BitVec {self.width}) {body})")
        self.names[k] = name
        return name

    def pred(self, p: Pred) -> str:
        if p is TRUE:
            return "true"
        if p is FALSE:
            return "false"
        if p.op == "==":
            return f"(= {self.expr(p.args[0])} {self.expr(p.args[1])})"
        if p.op == "<":
            return f"(bvslt {self.expr(p.args[0])} {self.expr(p.args[1])})"
        if p.op == "and":
            return "(and " + " ".join(self.pred(a) for a in p.args) + ")"
        if p.op == "or":
            return "(or " + " ".join(self.pred(a) for a in p.args) + ")"
        if p.op == "not":
            return f"(not {self.pred(p.args[0])})"
        raise ValueError(p.op)

    def domain(self, v: Var) -> str:
        return f"(bvult {self.expr(v)} {self._bv(v.size)})"

    def text(self, assertions: list[str]) -> str:
        return "\n".join(self.lines + [f"(assert {a})" for a in assertions])
