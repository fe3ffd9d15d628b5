"""Lowering expressions to Z3: bit-vectors (the prover's encoding) and integers (kept for the benchmark).

The bit-vector width comes from the expressions' own bounds (`expr.bit_width`): every sub-term,
including products and differences, fits in the signed range, so two-complement wrap-around can
never make two different integers equal.  Powers of two lower to shifts and masks.
"""
from __future__ import annotations

from typing import Any

import z3

from .expr import (TRUE, FALSE, Add, BitAnd, BitXor, Const, Expr, FloorDiv, Ite, Mod, Mul, Pred, Shr, Var,
                   _pow2)


class BVLowering:
    def __init__(self, width: int, ctx: z3.Context | None = None) -> None:
        self.width = width
        self.ctx = ctx
        self.vars: dict[str, Any] = {}
        self.memo: dict = {}

    def var(self, v: Var) -> Any:
        if v.name not in self.vars:
            self.vars[v.name] = z3.BitVec(v.name, self.width, ctx=self.ctx)
        return self.vars[v.name]

    def domain(self, v: Var) -> Any:
        x = self.var(v)
        zero = z3.BitVecVal(0, self.width, ctx=self.ctx)
        return z3.And(z3.UGE(x, zero), z3.ULT(x, z3.BitVecVal(v.size, self.width, ctx=self.ctx)))

    def expr(self, e: Expr) -> Any:
        k = e._key
        if k in self.memo:
            return self.memo[k]
        W, ctx = self.width, self.ctx
        if isinstance(e, Const):
            r = z3.BitVecVal(e.value, W, ctx=ctx)
        elif isinstance(e, Var):
            r = self.var(e)
        elif isinstance(e, Add):
            r = self.expr(e.terms[0])
            for t in e.terms[1:]:
                r = r + self.expr(t)
        elif isinstance(e, Mul):
            x = self.expr(e.e)
            r = x << (e.k.bit_length() - 1) if _pow2(e.k) else x * z3.BitVecVal(e.k, W, ctx=ctx)
        elif isinstance(e, FloorDiv):
            x = self.expr(e.e)
            r = z3.LShR(x, e.k.bit_length() - 1) if _pow2(e.k) else z3.UDiv(x, z3.BitVecVal(e.k, W, ctx=ctx))
        elif isinstance(e, Mod):
            x = self.expr(e.e)
            r = x & z3.BitVecVal(e.k - 1, W, ctx=ctx) if _pow2(e.k) else z3.URem(x, z3.BitVecVal(e.k, W, ctx=ctx))
        elif isinstance(e, BitAnd):
            r = self.expr(e.e) & z3.BitVecVal(e.mask, W, ctx=ctx)
        elif isinstance(e, BitXor):
            r = self.expr(e.a) ^ self.expr(e.b)
        elif isinstance(e, Shr):
            r = z3.LShR(self.expr(e.e), e.k)
        elif isinstance(e, Ite):
            r = z3.If(self.pred(e.c), self.expr(e.a), self.expr(e.b))
        else:
            raise TypeError(type(e))
        self.memo[k] = r
        return r

    def pred(self, p: Pred) -> Any:
        if p is TRUE:
            return z3.BoolVal(True, ctx=self.ctx)
        if p is FALSE:
            return z3.BoolVal(False, ctx=self.ctx)
        if p.op == "==":
            return self.expr(p.args[0]) == self.expr(p.args[1])
        if p.op == "<":
            return self.expr(p.args[0]) < self.expr(p.args[1])  # signed: the width holds every value
        if p.op == "and":
            return z3.And(*[self.pred(a) for a in p.args])
        if p.op == "or":
            return z3.Or(*[self.pred(a) for a in p.args])
        if p.op == "not":
            return z3.Not(self.pred(p.args[0]))
        raise ValueError(p.op)


class IntLowering(BVLowering):
    """Unbounded integers with div/mod: exact too, but slow on XOR (benchmark only)."""

    def var(self, v: Var) -> Any:
        if v.name not in self.vars:
            self.vars[v.name] = z3.Int(v.name, ctx=self.ctx)
        return self.vars[v.name]

    def domain(self, v: Var) -> Any:
        x = self.var(v)
        return z3.And(x >= 0, x < v.size)

    def expr(self, e: Expr) -> Any:
        k = e._key
        if k in self.memo:
            return self.memo[k]
        ctx = self.ctx
        if isinstance(e, Const):
            r = z3.IntVal(e.value, ctx=ctx)
        elif isinstance(e, Var):
            r = self.var(e)
        elif isinstance(e, Add):
            r = z3.Sum([self.expr(t) for t in e.terms])
        elif isinstance(e, Mul):
            r = self.expr(e.e) * e.k
        elif isinstance(e, FloorDiv):
            r = self.expr(e.e) / e.k
        elif isinstance(e, Mod):
            r = self.expr(e.e) % e.k
        elif isinstance(e, (BitAnd, BitXor)):
            # integers have no bitwise operators: go through a bit-vector of the needed width and back
            W = max(e.hi.bit_length(), 1) + 1
            if isinstance(e, BitAnd):
                bv = z3.Int2BV(self.expr(e.e), W) & z3.BitVecVal(e.mask, W, ctx=ctx)
            else:
                bv = z3.Int2BV(self.expr(e.a), W) ^ z3.Int2BV(self.expr(e.b), W)
            r = z3.BV2Int(bv)
        elif isinstance(e, Shr):
            r = self.expr(e.e) / (1 << e.k)
        elif isinstance(e, Ite):
            r = z3.If(self.pred(e.c), self.expr(e.a), self.expr(e.b))
        else:
            raise TypeError(type(e))
        self.memo[k] = r
        return r


class SMT2Writer:
    """The same bit-vector lowering as BVLowering, written as SMT-LIB 2 text.

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
