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
from verifier.outcome import Status  # noqa: E402
from verifier.symbolic.decide import Procedure, Settings, decide  # noqa: E402
from verifier.symbolic.expr import Node, Op, Var, bit_width, compile_numpy, eq, fold  # noqa: E402
from verifier.symbolic.layouts import layout_expr, swizzle_expr  # noqa: E402
from verifier.symbolic.obligation import Obligation  # noqa: E402


def _bv_op(node: Node, a: list, op) -> z3.ExprRef:
    """Integers have no bitwise operators: through a bit-vector of the needed width and back."""
    width = max(getattr(node, "hi", 1).bit_length(), 1) + 1
    bvs = [z3.Int2BV(x, width) for x in a]
    return z3.BV2Int(op(*bvs) if len(bvs) > 1 else op(bvs[0], node.k))


def int_table(names: dict[str, z3.ArithRef]) -> dict:
    """Unbounded Z3 integers with div/mod: exact too, but slow on XOR.  The alternative measured here, as one
    more operator table for the expression visitor."""
    return {
        Op.CONST: lambda n, a: z3.IntVal(n.k),
        Op.VAR: lambda n, a: names.setdefault(n.name, z3.Int(n.name)),
        Op.ADD: lambda n, a: z3.Sum(a),
        Op.MUL: lambda n, a: a[0] * n.k,
        Op.FLOORDIV: lambda n, a: a[0] / n.k,
        Op.MOD: lambda n, a: a[0] % n.k,
        Op.BITAND: lambda n, a: _bv_op(n, a, lambda x, k: x & k),
        Op.BITXOR: lambda n, a: _bv_op(n, a, lambda x, y: x ^ y),
        Op.TRUE: lambda n, a: z3.BoolVal(True),
        Op.FALSE: lambda n, a: z3.BoolVal(False),
        Op.EQ: lambda n, a: a[0] == a[1],
        Op.LT: lambda n, a: a[0] < a[1],
        Op.AND: lambda n, a: z3.And(a),
        Op.OR: lambda n, a: z3.Or(a),
        Op.NOT: lambda n, a: z3.Not(a[0]),
    }


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
    d, _ = decide(Obligation("right inverse", [i], claim),
                  Settings(timeout_s=timeout, enumeration_limit=0, procedure=Procedure.Z3))
    dt = time.perf_counter() - t0
    if d.status is Status.UNDECIDED:
        return f"timeout>{timeout:.0f}s"
    return f"{dt * 1000:9.2f} ms" + ("" if d.status is Status.PROVED else " (sat!)")


def int_time(i, claim, timeout: float) -> str:
    names: dict = {}
    terms = fold([i, claim], int_table(names))
    s = z3.Solver()
    s.set("timeout", int(timeout * 1000))
    t0 = time.perf_counter()
    x = terms[i.key()]
    s.add(z3.And(x >= 0, x < i.size))
    s.add(z3.Not(terms[claim.key()]))
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
