#!/usr/bin/env python3
"""Which exact encoding proves a layout identity fastest?  Prints a table; not a test.

For sizes 2^8 .. 2^20 it proves  L(right_inverse(L)(i)) == i  for a row-major 2-mode layout L, plain
and with an XOR swizzle (L = Sw<3,3,3> o L), with: Z3 bit-vectors (the prover's own path, `decide`:
widths from the value bounds, shifts and
masks for powers of two), Z3 integers (div/mod; XOR through bv2int), and numpy enumeration of the domain.

    python benchmarks/encodings.py [--timeout 20]
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
import z3  # noqa: E402

from verifier.algebra import Swizzle, parse_layout, right_inverse  # noqa: E402
from verifier.symbolic.expr import (TRUE, FALSE, Add, BitAnd, BitXor, Const, FloorDiv, Ite, Mod,  # noqa: E402
                                    Mul, Shr, Var, bit_width, compile_numpy, eq)
from verifier.symbolic.layouts import layout_expr, swizzle_expr  # noqa: E402
from verifier.symbolic.solver import Obligation, prove  # noqa: E402


class IntLowering:
    """Unbounded Z3 integers with div/mod: exact too, but slow on XOR.  The alternative measured here."""

    def __init__(self) -> None:
        self.vars: dict = {}

    def var(self, v):
        return self.vars.setdefault(v.name, z3.Int(v.name))

    def domain(self, v):
        x = self.var(v)
        return z3.And(x >= 0, x < v.size)

    def expr(self, e):
        if isinstance(e, Const):
            return z3.IntVal(e.value)
        if isinstance(e, Var):
            return self.var(e)
        if isinstance(e, Add):
            return z3.Sum([self.expr(t) for t in e.terms])
        if isinstance(e, Mul):
            return self.expr(e.e) * e.k
        if isinstance(e, FloorDiv):
            return self.expr(e.e) / e.k
        if isinstance(e, Mod):
            return self.expr(e.e) % e.k
        if isinstance(e, Shr):
            return self.expr(e.e) / (1 << e.k)
        if isinstance(e, (BitAnd, BitXor)):
            # integers have no bitwise operators: through a bit-vector of the needed width and back
            W = max(e.hi.bit_length(), 1) + 1
            if isinstance(e, BitAnd):
                return z3.BV2Int(z3.Int2BV(self.expr(e.e), W) & e.mask)
            return z3.BV2Int(z3.Int2BV(self.expr(e.a), W) ^ z3.Int2BV(self.expr(e.b), W))
        if isinstance(e, Ite):
            return z3.If(self.pred(e.c), self.expr(e.a), self.expr(e.b))
        raise TypeError(type(e))

    def pred(self, p):
        if p is TRUE or p is FALSE:
            return z3.BoolVal(p is TRUE)
        if p.op == "==":
            return self.expr(p.args[0]) == self.expr(p.args[1])
        if p.op == "<":
            return self.expr(p.args[0]) < self.expr(p.args[1])
        ops = {"and": z3.And, "or": z3.Or, "not": z3.Not}
        return ops[p.op](*[self.pred(a) for a in p.args])


def obligation(bits: int, swizzled: bool):
    rows = 1 << (bits // 2)
    cols = 1 << (bits - bits // 2)
    L = parse_layout(f"({rows},{cols}):({cols},1)")
    i = Var("i", int(L.size()))
    if not swizzled:
        return i, eq(layout_expr(L, layout_expr(right_inverse(L), i)), i)
    sw = Swizzle(3, 3, 3) if bits >= 9 else Swizzle(2, 2, 3)
    # (Sw o L)(right_inverse(L)(Sw(i))) == i: the swizzle is an involution
    SL = parse_layout(f"{sw} o {L}")
    return i, eq(layout_expr(SL, layout_expr(right_inverse(L), swizzle_expr(sw, i))), i)


def prover_time(i, claim, timeout: float) -> str:
    t0 = time.perf_counter()
    v = prove(Obligation("bench", "right inverse", [i], claim), timeout_s=timeout)
    dt = time.perf_counter() - t0
    if v.status == "unknown":
        return f"timeout>{timeout:.0f}s"
    return f"{dt * 1000:9.2f} ms" + ("" if v.proved else " (sat!)")


def int_time(i, claim, timeout: float) -> str:
    lowering = IntLowering()
    s = z3.Solver()
    s.set("timeout", int(timeout * 1000))
    t0 = time.perf_counter()
    s.add(lowering.domain(i))
    s.add(z3.Not(lowering.pred(claim)))
    r = s.check()
    dt = time.perf_counter() - t0
    if r == z3.unknown:
        return f"timeout>{timeout:.0f}s"
    return f"{dt * 1000:9.2f} ms" + ("" if r == z3.unsat else " (sat!)")


def numpy_time(i, claim) -> str:
    t0 = time.perf_counter()
    fn = compile_numpy([claim], [i])
    ok = fn(np.arange(i.size, dtype=np.int64))[0]
    dt = time.perf_counter() - t0
    return f"{dt * 1000:9.2f} ms" + ("" if np.all(ok) else " (false!)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--timeout", type=float, default=20.0)
    ap.add_argument("--max-bits", type=int, default=20)
    args = ap.parse_args()
    print(f"z3 {z3.get_version_string()}, numpy {np.__version__}, python {sys.version.split()[0]}")
    prover_time(*obligation(8, False), args.timeout)  # warm-up: Z3's first context is not the encoding's cost
    print(f"{'points':>9} {'swizzle':>8} {'width':>6} | {'Z3 bit-vector':>16} | {'Z3 integer':>16} | {'numpy':>14}")
    for bits in range(8, args.max_bits + 1, 4):
        for sw in (False, True):
            i, claim = obligation(bits, sw)
            w = bit_width(claim, i)
            bv = prover_time(i, claim, args.timeout)
            it = int_time(i, claim, args.timeout)
            nt = numpy_time(i, claim)
            print(f"{1 << bits:>9} {'yes' if sw else 'no':>8} {w:>6} | {bv:>16} | {it:>16} | {nt:>14}", flush=True)


if __name__ == "__main__":
    main()
