#!/usr/bin/env python3
"""Which exact encoding proves a layout identity fastest?  Prints a table; not a test.

For sizes 2^8 .. 2^20 it proves  L(right_inverse(L)(i)) == i  for a row-major 2-mode layout L, plain
and with an XOR swizzle (L = Sw<3,3,3> o L), with: Z3 bit-vectors (the prover's encoding: widths from the value bounds, shifts and masks
for powers of two), Z3 integers (div/mod; XOR through bv2int), and numpy enumeration of the domain.

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
from verifier.symbolic.expr import Var, bit_width, compile_numpy, eq  # noqa: E402
from verifier.symbolic.layouts import layout_expr, swizzle_expr  # noqa: E402
from verifier.symbolic.z3_encoding import BVLowering, IntLowering  # noqa: E402


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


def z3_time(lowering, i, claim, timeout: float) -> str:
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
    print(f"{'points':>9} {'swizzle':>8} {'width':>6} | {'Z3 bit-vector':>16} | {'Z3 integer':>16} | {'numpy':>14}")
    for bits in range(8, args.max_bits + 1, 4):
        for sw in (False, True):
            i, claim = obligation(bits, sw)
            w = bit_width(claim, i)
            bv = z3_time(BVLowering(w), i, claim, args.timeout)
            it = z3_time(IntLowering(w), i, claim, args.timeout)
            nt = numpy_time(i, claim)
            print(f"{1 << bits:>9} {'yes' if sw else 'no':>8} {w:>6} | {bv:>16} | {it:>16} | {nt:>14}", flush=True)


if __name__ == "__main__":
    main()
