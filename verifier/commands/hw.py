"""`python -m verifier hw tma|wgmma|banks|tmem ...`: the hardware models, queried directly (README, "Hardware
models").  `hw -` reads one query a line (the words after `hw`) and answers each with one JSON line; a
malformed query gets `{"error": ...}` and the others go on.  Parameters the driver or the hardware refuses
get `{"refused": "<the rule>"}`.
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
from typing import Any, Callable, TextIO

from ..hardware.banks import BankModelError, parse_instruction, wavefronts
from ..hardware.gmma_desc import Descriptor, operand_reads
from ..hardware.smem_operand import Major
from ..hardware.registry import mma_instruction_model, mma_instruction_types
from ..hardware.tma import (DATA_TYPE_BYTES, FLOAT_TYPES, TensorMap2D, TmaSwizzle, copy_refusal, encode_refusal,
                            multicast_placement, multicast_refusal, placement, store_refusal, store_unmodelled,
                            store_writes, tx_bytes)
from ..hardware.tmem_copy import TmemForm, TmemShape, register_cell
from ..outcome import ExitCode

Answer = dict[str, Any]
MAX_QUERY_CHARS = 4096
SIXTEEN_BIT = {"f16", "bf16"}          # the types whose wgmma operands may be MN-major (imm-trans)
TYPE_BYTES = {"f16": 2, "bf16": 2, "tf32": 4, "e4m3": 1, "e5m2": 1, "s8": 1, "u8": 1}


class QueryError(Exception):
    """A malformed query: the message is one line."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise QueryError(message)


def _pair(text: str) -> tuple[int, int]:
    try:
        a, b = (int(x, 0) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected two integers separated by a comma, not {text[:40]!r}") from None
    return a, b


def _int(text: str) -> int:
    try:
        return int(text, 0)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not an integer: {text[:40]!r}") from None


SHARED_ADDRESS_LIMIT = 1 << 32    # a shared-window address is 32 bits
DESCRIPTOR_LIMIT = 1 << 64


def _shared_address(text: str) -> int:
    v = _int(text)
    if not 0 <= v < SHARED_ADDRESS_LIMIT:
        raise argparse.ArgumentTypeError(f"a shared-window address is in [0, 2^32), not {text[:40]!r}")
    return v


def _descriptor(text: str) -> int:
    v = _int(text)
    if not 0 <= v < DESCRIPTOR_LIMIT:
        raise argparse.ArgumentTypeError(f"a descriptor is 64 bits, not {text[:40]!r}")
    return v


def _addresses(text: str) -> list[int]:
    try:
        out = [int(x, 0) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers separated by commas, not {text[:40]!r}") from None
    bad = next((a for a in out if not 0 <= a < SHARED_ADDRESS_LIMIT), None)
    if bad is not None:
        raise argparse.ArgumentTypeError(f"a shared-window address is in [0, 2^32), not {bad}")
    return out


# options whose value may begin with '-' (a negative coordinate): `--start -8,-8` is read as `--start=-8,-8`
SIGNED_VALUE_OPTIONS = ("--start",)


def _signed_values(argv: list[str]) -> list[str]:
    out: list[str] = []
    i = 0
    while i < len(argv):
        if argv[i] in SIGNED_VALUE_OPTIONS and i + 1 < len(argv) and argv[i + 1][:1] == "-" \
                and argv[i + 1][1:2].isdigit():
            out.append(f"{argv[i]}={argv[i + 1]}")
            i += 2
            continue
        out.append(argv[i])
        i += 1
    return out


def build_parser(prog: str = "python -m verifier hw") -> argparse.ArgumentParser:
    p = _Parser(prog=prog, description="Query the hardware models: where TMA puts each byte, which byte a wgmma "
                                       "descriptor makes the tensor core read, which TMEM cell a tcgen05.ld "
                                       "register holds.")
    sub = p.add_subparsers(dest="what", required=True, parser_class=_Parser)
    t = sub.add_parser("tma", help="a 2-D tiled TMA load: the shared byte each global byte lands in (--store: the "
                                   "global bytes a store writes and the shared byte each comes from)")
    t.add_argument("--elem-bytes", type=int, choices=(1, 2, 4, 8), required=True)
    t.add_argument("--box", type=_pair, required=True, metavar="INNER,OUTER")
    t.add_argument("--swizzle", choices=[s.value for s in TmaSwizzle], default="none")
    t.add_argument("--dst", type=_shared_address, required=True, metavar="ADDR",
                   help="shared-window byte address (of a store: its source)")
    t.add_argument("--store", action="store_true",
                   help="a store (cp.async.bulk.tensor.2d.global.shared::cta): shared memory to the global tensor")
    t.add_argument("--multicast", type=_int, default=None, metavar="MASK",
                   help="a .multicast::cluster load to the CTAs of this 16-bit ctaMask (with --cluster)")
    t.add_argument("--cluster", type=_int, default=None, metavar="N", help="CTAs in the cluster (with --multicast)")
    t.add_argument("--element-strides", type=_pair, default=(1, 1), metavar="E0,E1",
                   help="elementStrides (1..8): E1 keeps every E1-th row; E0 is ignored by the hardware")
    t.add_argument("--start", type=_pair, default=(0, 0), metavar="C0,C1", help="global coordinate (col, row)")
    t.add_argument("--global-dim", type=_pair, default=None, metavar="D0,D1",
                   help="global tensor size (cols, rows); default: large enough for the box")
    t.add_argument("--global-stride", type=_int, default=None, metavar="BYTES",
                   help="bytes between global rows; default: D0 * elem-bytes rounded up to 16")
    t.add_argument("--oob-fill", choices=("zero", "nan"), default="zero")
    t.add_argument("--dtype", choices=sorted(DATA_TYPE_BYTES), default=None,
                   help="the tensor map's data type (the NaN fill needs a floating-point one; default: not checked)")
    t.add_argument("--json", action="store_true")
    w = sub.add_parser("wgmma", help="a wgmma shared-memory descriptor: the byte read for each A(m,k) / B(n,k)")
    w.add_argument("--instruction", required=True, help="e.g. wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16")
    w.add_argument("--operand", choices=("A", "B"), required=True, type=str.upper)
    w.add_argument("--major", choices=("K", "MN"), default="K", type=str.upper)
    w.add_argument("--desc", type=_descriptor, required=True, metavar="0x<64-bit descriptor>")
    w.add_argument("--json", action="store_true")
    b = sub.add_parser("banks", help="shared-memory wavefronts of one warp-wide access, and the conflicting lanes")
    b.add_argument("--instruction", required=True)
    b.add_argument("--addresses", type=_addresses, required=True, metavar="A0,A1,...,A31")
    b.add_argument("--json", action="store_true")
    m = sub.add_parser("tmem", help="a tcgen05.ld / tcgen05.st: the TMEM cell each lane's register holds")
    m.add_argument("shape", choices=[x.value for x in TmemShape])
    m.add_argument("--num", type=int, default=1, help=".x1 ... .x128 (default 1)")
    m.add_argument("--pack", action="store_true", help=".pack::16b (ld) / .unpack::16b (st): 16-bit halves")
    m.add_argument("--lane", type=int, default=None, help="only this lane of the warp")
    m.add_argument("--json", action="store_true")
    return p


# --- the queries ----------------------------------------------------------------------------------------------

def tma_query(a: argparse.Namespace) -> Answer:
    e = a.elem_bytes
    box = a.box
    start = a.start
    dims = a.global_dim or (max(1, start[0] + box[0]), max(1, start[1] + box[1]))
    stride = a.global_stride if a.global_stride is not None else ((dims[0] * e + 15) // 16) * 16
    if a.dtype is not None and DATA_TYPE_BYTES[a.dtype] != e:
        raise QueryError(f"--dtype {a.dtype} has {DATA_TYPE_BYTES[a.dtype]}-byte elements, not --elem-bytes {e}")
    float_type = a.dtype is None or a.dtype in FLOAT_TYPES
    t = TensorMap2D(e, box, TmaSwizzle(a.swizzle), dims, stride, a.oob_fill == "nan", float_type,
                    element_strides=a.element_strides)
    encode = encode_refusal(t)
    if encode:
        return {"refused": encode}
    if a.store:
        if a.oob_fill != "zero" or a.multicast is not None or a.cluster is not None:
            raise QueryError("--oob-fill, --multicast and --cluster are a load's: a store writes no fill and goes to "
                             "one global tensor")
        why = store_refusal(t, start, a.dst)
        if why:
            return {"refused": why}
        missing = store_unmodelled(t, start)
        if missing:
            return {"unsupported": missing}
        writes, untouched = store_writes(t, start, a.dst)
        return {"stores": [[w.offset, w.row, w.col, w.byte, w.src] for w in writes],
                "untouched": [list(rc) for rc in untouched]}
    why = copy_refusal(t, start, a.dst)
    if why:
        return {"refused": why}
    if (a.multicast is None) != (a.cluster is None):
        raise QueryError("--multicast MASK and --cluster N go together")
    if a.multicast is not None:
        refused = multicast_refusal(a.cluster, a.multicast)
        if refused:
            return {"refused": refused}
        ctas = multicast_placement(t, start, a.dst, a.multicast)
        return {"tx_bytes": tx_bytes(t), "ctas": [{"rank": r, "writes": [[w.addr, w.row, w.col, w.byte] for w in ws]}
                                                  for r, ws in sorted(ctas.items())],
                "untouched_ctas": [r for r in range(a.cluster) if r not in ctas]}
    return {"tx_bytes": tx_bytes(t), "writes": [[w.addr, w.row, w.col, w.byte] for w in placement(t, start, a.dst)]}


def wgmma_query(a: argparse.Namespace) -> Answer:
    from ..hardware.wgmma import shape_problem
    q = a.instruction.strip().split(".")
    if a.instruction.strip().startswith("wgmma.mma_async.sync.aligned.") and len(q) >= 8:
        problem = shape_problem(q[4], q[6])
        if problem is not None:
            return {"refused": f"{problem} (PTX ISA, wgmma.mma_async)"}
    model = mma_instruction_model(a.instruction)
    types = mma_instruction_types(a.instruction)
    if model is None or types is None or not a.instruction.strip().startswith("wgmma."):
        raise QueryError(f"not a wgmma.mma_async instruction the models know: {a.instruction[:80]!r}")
    m, n, k = model.shape_mnk
    ptx = types["a" if a.operand == "A" else "b"]
    major = Major(a.major)
    if major is Major.MN and ptx not in SIXTEEN_BIT:
        return {"refused": f"an MN-major operand (imm-trans) needs .f16 or .bf16, not .{ptx} (PTX ISA, wgmma)"}
    d = Descriptor.decode(a.desc)
    if a.desc >> 64 or a.desc < 0:
        raise QueryError("a descriptor is 64 bits")
    rows = m if a.operand == "A" else n
    return {"reads": [[mn, kk, addr] for mn, kk, addr in operand_reads(d, major, rows, k, TYPE_BYTES[ptx])],
            "descriptor": {"start": d.start, "lbo": d.lbo, "sbo": d.sbo, "base_offset": d.base_offset,
                           "swizzle": d.swizzle.label}}


def banks_query(a: argparse.Namespace) -> Answer:
    try:
        instr = parse_instruction(a.instruction)
    except BankModelError as e:
        if a.instruction.strip().startswith("cp.async"):
            return {"unsupported": str(e)}
        raise QueryError(str(e)) from None
    try:
        w = wavefronts(instr, a.addresses)
    except BankModelError as e:
        raise QueryError(str(e)) from None
    return {"wavefronts": w.count, "ideal": w.ideal,
            "phases": [{"lanes": list(p.lanes), "wavefronts": p.wavefronts, "bank": p.worst_bank,
                        "conflicting_lanes": list(p.worst_lanes)} for p in w.phases],
            "paired_lanes": w.merged_pairs}


def tmem_query(a: argparse.Namespace) -> Answer:
    form = TmemForm(TmemShape(a.shape), a.num, a.pack, True)
    if form.invalid:
        return {"refused": form.invalid}
    if a.lane is not None and not 0 <= a.lane < 32:
        raise QueryError(f"--lane must be in [0,32), not {a.lane}")
    cells = []
    for lane in range(32) if a.lane is None else (a.lane,):
        for reg in range(form.registers):
            cell = register_cell(form.shape, form.num, lane, reg)
            column = int(cell.column)
            if form.packed:     # the low halves of two columns: the register's low half, then its high half
                cells.append([lane, reg, int(cell.lane), [2 * column, 2 * column + 1]])
            else:
                cells.append([lane, reg, int(cell.lane), [column]])
    return {"instruction": form.instruction, "registers": form.registers, "tmem_lanes": form.shape.lanes,
            "columns": form.columns, "cells": cells}


QUERIES: dict[str, Callable[[argparse.Namespace], Answer]] = {"tma": tma_query, "wgmma": wgmma_query,
                                                              "banks": banks_query, "tmem": tmem_query}


def answer(argv: list[str]) -> tuple[Answer, argparse.Namespace]:
    args = build_parser().parse_args(_signed_values(argv))
    return QUERIES[args.what](args), args


# --- output -----------------------------------------------------------------------------------------------------

def _table(what: str, ans: Answer) -> str:
    if "refused" in ans:
        return f"refused: {ans['refused']}\n"
    if "unsupported" in ans:
        return f"unsupported: {ans['unsupported']}\n"
    if what == "tma" and "stores" in ans:
        lines = [f"{'global':>8} {'row':>6} {'col':>6} {'byte':>4} {'from shared':>11}"]
        lines += [f"{o:>8} {r:>6} {c:>6} {b:>4} {src:#11x}" for o, r, c, b, src in ans["stores"]]
        if ans["untouched"]:
            lines.append(f"not written (past the tensor's end): {len(ans['untouched'])} box elements (row, col) "
                         + " ".join(f"({r},{c})" for r, c in ans["untouched"][:16])
                         + (" ..." if len(ans["untouched"]) > 16 else ""))
        return "\n".join(lines) + "\n"
    if what == "tma" and "ctas" in ans:
        lines = [f"tx_bytes {ans['tx_bytes']} in each receiving CTA; not written: CTAs "
                 f"{', '.join(map(str, ans['untouched_ctas'])) or 'none'}",
                 f"{'cta':>3} {'addr':>10} {'row':>6} {'col':>6} {'byte':>4}"]
        lines += [f"{c['rank']:>3} {a:#10x} {r:>6} {col:>6} {b:>4}"
                  for c in ans["ctas"] for a, r, col, b in c["writes"]]
        return "\n".join(lines) + "\n"
    if what == "tma":
        lines = [f"tx_bytes {ans['tx_bytes']}", f"{'addr':>10} {'row':>6} {'col':>6} {'byte':>4}"]
        lines += [f"{a:#10x} {r:>6} {c:>6} {b:>4}" + ("   (out of bounds: fill)" if r < 0 else "")
                  for a, r, c, b in ans["writes"]]
        return "\n".join(lines) + "\n"
    if what == "banks":
        lines = [f"wavefronts {ans['wavefronts']} (ideal {ans['ideal']})"
                 + (f"; lanes l and l^{ans['paired_lanes']} read the same address: served as one"
                    if ans["paired_lanes"] else "")]
        for i, p in enumerate(ans["phases"]):
            lanes = p["lanes"]
            span = f"lanes {lanes[0]}-{lanes[-1]}" if lanes == list(range(lanes[0], lanes[-1] + 1)) else \
                f"lanes {','.join(map(str, lanes))}"
            worst = (f": bank {p['bank']} holds {p['wavefronts']} words for lanes "
                     f"{','.join(map(str, p['conflicting_lanes']))}" if p["conflicting_lanes"] else "")
            lines.append(f"  phase {i} ({span}): {p['wavefronts']} wavefront{'s' if p['wavefronts'] > 1 else ''}"
                         + worst)
        return "\n".join(lines) + "\n"
    if what == "tmem":
        lines = [f"{ans['instruction']}: {ans['registers']} registers per lane, {ans['tmem_lanes']} TMEM lanes x "
                 f"{ans['columns']} columns (relative to the address)", f"{'lane':>4} {'reg':>4} {'TMEM lane':>9} "
                 "column(s)"]
        lines += [f"{lane:>4} {reg:>4} {tl:>9} {','.join(map(str, cols))}"
                  + (" (low 16 bits of each)" if len(cols) > 1 else "") for lane, reg, tl, cols in ans["cells"]]
        return "\n".join(lines) + "\n"
    d = ans["descriptor"]
    lines = [f"descriptor: start {d['start']:#x}, LBO {d['lbo']}, SBO {d['sbo']}, base offset {d['base_offset']}, "
             f"swizzle {d['swizzle']}", f"{'mn':>4} {'k':>4} {'addr':>10}"]
    lines += [f"{mn:>4} {k:>4} {addr:#10x}" for mn, k, addr in ans["reads"]]
    return "\n".join(lines) + "\n"


def _exit_for(ans: Answer) -> int:
    return ExitCode.UNDECIDED if "unsupported" in ans else ExitCode.OK


def hw_main(argv: list[str], out: TextIO | None = None, err: TextIO | None = None) -> int:
    out, err = out or sys.stdout, err or sys.stderr
    if argv == ["-"]:
        return _batch(sys.stdin, out)
    try:
        ans, args = answer(argv)
    except QueryError as e:
        err.write(f"python -m verifier hw: error: {e}\n")
        return ExitCode.BAD_INPUT
    out.write(json.dumps(ans) + "\n" if args.json else _table(args.what, ans))
    return _exit_for(ans)


def _batch(lines: Any, out: TextIO) -> int:
    """One JSON line per query line; exit 2 when any query was malformed."""
    ok = True
    for line in lines:
        text = line.strip()
        if not text:
            continue
        try:
            if len(text) > MAX_QUERY_CHARS:
                raise QueryError(f"the query is {len(text)} characters long; at most {MAX_QUERY_CHARS}")
            words = shlex.split(text)
            if words[:1] == ["hw"]:
                words = words[1:]
            if words == ["-"]:
                raise QueryError("'-' is not a query")
            ans, _ = answer(words)
        except (QueryError, ValueError) as e:   # shlex's unbalanced quotes are ValueErrors
            ans, ok = {"error": str(e)}, False
        out.write(json.dumps(ans) + "\n")
    out.flush()
    return ExitCode.OK if ok else ExitCode.BAD_INPUT
