"""`python -m verifier hw tma|wgmma|banks|tmem ...`: the hardware models, queried directly (README, "Hardware
models").  `hw -` reads one query a line (the words after `hw`) and answers each with one JSON line; a
malformed query gets `{"error": ...}` and the others go on.  Parameters the driver or the hardware refuses
get `{"refused": "<the rule>"}`; what no model covers `{"unsupported": "<why>"}` (exit 3), and an answer with a
part the documentation leaves open lists it under "unmodelled" (exit 3).
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
from ..hardware.tma import (DATA_TYPE_BITS, ND_FLOAT_TYPES, PACKED_DIM0_MULTIPLE, PADDED_DIM0_MULTIPLE,
                            PADDED_GLOBAL_ALIGN, SUBBYTE_GROUP, SUBBYTE_TYPES, TX_UNMODELLED, TensorMap2D, TensorMapND,
                            TmaSwizzle, copy_refusal, copy_refusal_nd, encode_refusal, encode_refusal_nd,
                            multicast_placement, multicast_refusal, padding_nd, placement,
                            placement_nd, store_refusal, store_unmodelled, store_writes, tx_bytes, tx_bytes_nd)
from ..hardware.tma_im2col import (IM2COL_NOTE, Im2colMap, Im2colUnmodelled, copy_refusal_im2col,
                                   encode_refusal_im2col, pixels, placement_im2col, tx_bytes_im2col)
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


MAX_RANK_ARGUMENT = 8              # coordinates a --box / --start / ... may give (the driver's limit, 5, is a refusal)


def _ints(text: str) -> tuple[int, ...]:
    try:
        out = tuple(int(x, 0) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected integers separated by commas, not {text[:40]!r}") from None
    if len(out) > MAX_RANK_ARGUMENT:
        raise argparse.ArgumentTypeError(f"at most {MAX_RANK_ARGUMENT} values, not {len(out)}")
    return out


def _dtype(text: str) -> str:
    """A tensor map data type, the sub-byte names in any case (16u4_align8b is 16U4_ALIGN8B)."""
    return next((name for name in DATA_TYPE_BITS if name.lower() == text.lower()), text)


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
SIGNED_VALUE_OPTIONS = ("--start", "--lower-corner", "--upper-corner", "--offsets")
TMA_DEFAULT_DTYPE = {1: "uint8", 2: "uint16", 4: "uint32", 8: "uint64"}   # an N-D box given only --elem-bytes
# the most shared memory an N-D answer may span: a 2-D box's most (256 rows of 256 8-byte elements); more could not
# land in one CTA's shared memory anyway (227 KiB on sm_90 and sm_100)
MAX_TMA_ANSWER_BYTES = 256 * 256 * 8


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
    t = sub.add_parser("tma", help="a tiled TMA load (rank 1..5): the shared byte each global byte lands in (--store, "
                                   "rank 2: the global bytes a store writes and the shared byte each comes from)")
    t.add_argument("--elem-bytes", type=int, choices=(1, 2, 4, 8), default=None,
                   help="bytes of an element (or give --dtype)")
    t.add_argument("--box", type=_ints, default=None, metavar="B0,B1[,B2..]",
                   help="boxDim, dimension 0 (innermost) first; two values: INNER,OUTER (a tiled load: required)")
    t.add_argument("--swizzle", choices=[s.value for s in TmaSwizzle], default="none")
    t.add_argument("--dst", type=_shared_address, required=True, metavar="ADDR",
                   help="shared-window byte address (of a store: its source)")
    t.add_argument("--store", action="store_true",
                   help="a store (cp.async.bulk.tensor.2d.global.shared::cta): shared memory to the global tensor")
    t.add_argument("--multicast", type=_int, default=None, metavar="MASK",
                   help="a .multicast::cluster load to the CTAs of this 16-bit ctaMask (with --cluster)")
    t.add_argument("--cluster", type=_int, default=None, metavar="N", help="CTAs in the cluster (with --multicast)")
    t.add_argument("--element-strides", type=_ints, default=None, metavar="E0,E1[,..]",
                   help="elementStrides (1..8): Ei keeps every Ei-th coordinate of dimension i >= 1; E0 is ignored "
                        "by the hardware")
    t.add_argument("--start", type=_ints, default=None, metavar="C0,C1[,..]",
                   help="global coordinate, dimension 0 first (col, row)")
    t.add_argument("--global-dim", type=_ints, default=None, metavar="D0,D1[,..]",
                   help="global tensor size in elements, dimension 0 first; default: large enough for the box")
    t.add_argument("--global-stride", type=_int, default=None, metavar="BYTES",
                   help="rank 2: bytes between global rows; default: D0 * elem-bytes rounded up to 16")
    t.add_argument("--global-strides", type=_ints, default=None, metavar="S1,S2,..",
                   help="globalStrides in bytes, of dimensions 1..rank-1; default: packed rows (rounded up to 16, "
                        "32 for the ALIGN16B types), each dimension nested in the next")
    t.add_argument("--oob-fill", choices=("zero", "nan"), default="zero")
    t.add_argument("--dtype", type=_dtype, choices=sorted(DATA_TYPE_BITS), default=None,
                   help="the tensor map's data type, the sub-byte ones (16U4_ALIGN8B, 16U4_ALIGN16B, 16U6_ALIGN16B) "
                        "included (the NaN fill needs a floating-point one; default for a 2-D box: not checked)")
    i = t.add_argument_group("im2col loads (cp.async.bulk.tensor.{3,4,5}d...im2col, cuTensorMapEncodeIm2col): "
                             "--global-dim C,W[,H[,D]],N, corners and offsets W first")
    i.add_argument("--im2col", action="store_true", help="an im2col load instead of a tiled one (no --box)")
    i.add_argument("--lower-corner", type=_ints, default=None, metavar="W[,H[,D]]",
                   help="pixelBoxLowerCorner (default zeros)")
    i.add_argument("--upper-corner", type=_ints, default=None, metavar="W[,H[,D]]",
                   help="pixelBoxUpperCorner (default zeros)")
    i.add_argument("--channels-per-pixel", type=_int, default=None, metavar="N", help="channelsPerPixel")
    i.add_argument("--pixels-per-column", type=_int, default=None, metavar="N", help="pixelsPerColumn")
    i.add_argument("--offsets", type=_ints, default=None, metavar="W[,H[,D]]",
                   help="the instruction's im2col offsets (default zeros)")
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

def _coords(a: argparse.Namespace, name: str, rank: int) -> tuple[int, ...] | None:
    """The option's values, checked to give one per dimension of the box."""
    v: tuple[int, ...] | None = getattr(a, name)
    if v is not None and len(v) != rank:
        raise QueryError(f"--{name.replace('_', '-')} gives {len(v)} values; the box has rank {rank}")
    return v


def tma_query(a: argparse.Namespace) -> Answer:
    if a.im2col:
        return tma_query_im2col(a)
    im2col_only = [o for o, v in (("--lower-corner", a.lower_corner), ("--upper-corner", a.upper_corner),
                                  ("--channels-per-pixel", a.channels_per_pixel),
                                  ("--pixels-per-column", a.pixels_per_column), ("--offsets", a.offsets))
                   if v is not None]
    if im2col_only:
        raise QueryError(f"{im2col_only[0]} is an im2col load's: add --im2col")
    if a.box is None:
        raise QueryError("a tiled load needs --box B0,B1[,..] (or give --im2col)")
    rank = len(a.box)
    sub = a.dtype in SUBBYTE_TYPES
    if a.global_strides is not None and len(a.global_strides) != max(rank - 1, 0):
        raise QueryError(f"--global-strides gives {len(a.global_strides)} values; a rank-{rank} box has {rank - 1}")
    if a.global_strides is not None and a.global_stride is not None:
        raise QueryError("--global-stride is the rank-2 form of --global-strides: give one of them")
    if rank == 2 and not sub:
        stride = a.global_stride if a.global_strides is None else a.global_strides[0]
        return tma_query_2d(a, stride)
    if a.global_stride is not None:
        raise QueryError(f"--global-stride is for a rank-2 box; a rank-{rank} box takes --global-strides S1,...")
    return tma_query_nd(a)


def tma_query_2d(a: argparse.Namespace, global_stride: int | None) -> Answer:
    """The validated 2-D model (TensorMap2D)."""
    if a.elem_bytes is None and a.dtype is None:
        raise QueryError("give --elem-bytes or --dtype")
    e = a.elem_bytes if a.elem_bytes is not None else DATA_TYPE_BITS[a.dtype] // 8
    box = a.box
    start = _coords(a, "start", 2) or (0, 0)
    element_strides = _coords(a, "element_strides", 2) or (1, 1)
    dims = _coords(a, "global_dim", 2) or (max(1, start[0] + box[0]), max(1, start[1] + box[1]))
    stride = global_stride if global_stride is not None else ((dims[0] * e + 15) // 16) * 16
    if a.dtype is not None and DATA_TYPE_BITS[a.dtype] != 8 * e:
        raise QueryError(f"--dtype {a.dtype} has {DATA_TYPE_BITS[a.dtype] // 8}-byte elements, not --elem-bytes {e}")
    float_type = a.dtype is None or a.dtype in ND_FLOAT_TYPES
    t = TensorMap2D(e, (box[0], box[1]), TmaSwizzle(a.swizzle), (dims[0], dims[1]), stride, a.oob_fill == "nan",
                    float_type, element_strides=(element_strides[0], element_strides[1]))
    encode = encode_refusal(t)
    if encode:
        return {"refused": encode}
    start2 = (start[0], start[1])
    if a.store:
        if a.oob_fill != "zero" or a.multicast is not None or a.cluster is not None:
            raise QueryError("--oob-fill, --multicast and --cluster are a load's: a store writes no fill and goes to "
                             "one global tensor")
        why = store_refusal(t, start2, a.dst)
        if why:
            return {"refused": why}
        missing = store_unmodelled(t, start2)
        if missing:
            return {"unsupported": missing}
        writes, untouched = store_writes(t, start2, a.dst)
        return {"stores": [[w.offset, w.row, w.col, w.byte, w.src] for w in writes],
                "untouched": [list(rc) for rc in untouched]}
    why = copy_refusal(t, start2, a.dst)
    if why:
        return {"refused": why}
    if (a.multicast is None) != (a.cluster is None):
        raise QueryError("--multicast MASK and --cluster N go together")
    if a.multicast is not None:
        refused = multicast_refusal(a.cluster, a.multicast)
        if refused:
            return {"refused": refused}
        ctas = multicast_placement(t, start2, a.dst, a.multicast)
        return {"tx_bytes": tx_bytes(t), "ctas": [{"rank": r, "writes": [[w.addr, w.row, w.col, w.byte] for w in ws]}
                                                  for r, ws in sorted(ctas.items())],
                "untouched_ctas": [r for r in range(a.cluster) if r not in ctas]}
    return {"tx_bytes": tx_bytes(t), "writes": [[w.addr, w.row, w.col, w.byte] for w in placement(t, start2, a.dst)]}


def tma_query_nd(a: argparse.Namespace) -> Answer:
    """A box of rank other than 2, or of a packed sub-byte type (TensorMapND, from the driver API's documentation).
    A write is [addr, c{rank-1}, ..., c1, c0, byte], the coordinates outermost first as the 2-D form's row, col."""
    rank = len(a.box)
    sub = SUBBYTE_TYPES.get(a.dtype) if a.dtype is not None else None
    if a.dtype is None:
        if a.elem_bytes is None:
            raise QueryError("give --elem-bytes or --dtype")
        if a.oob_fill == "nan":
            raise QueryError("--oob-fill nan needs --dtype (a floating-point type) for a box of rank other than 2")
        dtype = TMA_DEFAULT_DTYPE[a.elem_bytes]
    else:
        dtype = a.dtype
        if sub is not None and a.elem_bytes is not None:
            raise QueryError(f"--dtype {dtype} has {sub.bits}-bit elements: leave out --elem-bytes")
        if sub is None and a.elem_bytes is not None and DATA_TYPE_BITS[dtype] != 8 * a.elem_bytes:
            raise QueryError(f"--dtype {dtype} has {DATA_TYPE_BITS[dtype] // 8}-byte elements, not --elem-bytes "
                             f"{a.elem_bytes}")
    what = f"a {dtype} box" if sub is not None else f"a rank-{rank} box"
    if a.store:
        return {"unsupported": f"a TMA store of {what} is not modelled (only 2-D stores of byte-sized types were "
                               "captured)"}
    start = _coords(a, "start", rank) or (0,) * rank
    bits = DATA_TYPE_BITS[dtype]
    dims = _coords(a, "global_dim", rank)
    if dims is None:
        dims = tuple(max(1, s + b) for s, b in zip(start, a.box))
        multiple = PADDED_DIM0_MULTIPLE if sub is not None and sub.padded else PACKED_DIM0_MULTIPLE if sub else 1
        dims = (-(-dims[0] // multiple) * multiple,) + dims[1:]
    strides = a.global_strides
    if strides is None:
        align = PADDED_GLOBAL_ALIGN if sub is not None and sub.padded else 16
        pitch = -(-dims[0] * bits // 8 // align) * align if rank > 1 else 0
        built: list[int] = []
        for d in dims[1:]:
            built.append(pitch)
            pitch *= d
        strides = tuple(built)
    t = TensorMapND(dtype, a.box, dims, strides, TmaSwizzle(a.swizzle), _coords(a, "element_strides", rank) or (),
                    a.oob_fill == "nan")
    encode = encode_refusal_nd(t)
    if encode:
        return {"refused": encode}
    why = copy_refusal_nd(t, start, a.dst)
    if why:
        return {"refused": why}
    if t.footprint > MAX_TMA_ANSWER_BYTES:
        raise QueryError(f"the box spans {t.footprint} bytes of shared memory, more than a CTA has: not listed (at "
                         f"most {MAX_TMA_ANSWER_BYTES})")
    if (a.multicast is None) != (a.cluster is None):
        raise QueryError("--multicast MASK and --cluster N go together")
    if a.multicast is not None:
        refused = multicast_refusal(a.cluster, a.multicast)
        if refused:
            return {"refused": refused}
        if bin(a.multicast).count("1") != 1:
            return {"unsupported": f"a multicast of {what} to more than one CTA was not captured (a mask of one CTA "
                                   "is that CTA's load)"}
    unmodelled = [] if tx_bytes_nd(t) is not None else [TX_UNMODELLED]
    fill = [-1] * rank
    writes = [[w.addr, *(list(reversed(w.coord)) if w.coord is not None else fill), w.byte]
              for w in placement_nd(t, start, a.dst)]
    ans: Answer = {"tx_bytes": tx_bytes_nd(t)}
    if a.multicast is not None:
        cta = a.multicast.bit_length() - 1
        ans.update(ctas=[{"rank": cta, "writes": writes}], untouched_ctas=[r for r in range(a.cluster) if r != cta])
    else:
        ans["writes"] = writes
    if sub is not None:
        ans["element_group"] = SUBBYTE_GROUP
    if sub is not None and sub.padded:
        ans["undefined"] = padding_nd(t, a.dst)
    if unmodelled:
        ans["unmodelled"] = unmodelled
    return ans


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
    if a.operand == "A" and ".mma_async.sp." in a.instruction:   # wgmma.mma_async.sp: A stored packed, M x K/2
        k //= 2
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


def tma_query_im2col(a: argparse.Namespace) -> Answer:
    """An im2col load (Im2colMap, from the driver API's and the PTX ISA's documentation; reproduces the H200 capture).
    A write is [addr, n, [d, [h,]] w, c, byte], the coordinates outermost first as the tiled forms'; a pixel is
    [row, n, [d, [h,]] w] of the element it reads (its traversal position plus the offsets) and whether it is
    inside the tensor."""
    for option, value in (("--box", a.box), ("--store", a.store or None), ("--multicast", a.multicast),
                          ("--cluster", a.cluster), ("--global-stride", a.global_stride)):
        if value is not None:
            raise QueryError(f"{option} is not an im2col load's option (give --global-dim, --channels-per-pixel, "
                             "--pixels-per-column, the corners and --offsets)")
    if a.global_dim is None or a.channels_per_pixel is None or a.pixels_per_column is None:
        raise QueryError("an im2col load needs --global-dim C,W[,H[,D]],N, --channels-per-pixel and "
                         "--pixels-per-column")
    dims = a.global_dim
    rank = len(dims)
    spatial = max(rank - 2, 0)
    if a.dtype is None and a.elem_bytes is None:
        raise QueryError("give --elem-bytes or --dtype")
    dtype = a.dtype if a.dtype is not None else TMA_DEFAULT_DTYPE[a.elem_bytes]
    if a.dtype is not None and a.elem_bytes is not None and DATA_TYPE_BITS[a.dtype] != 8 * a.elem_bytes:
        raise QueryError(f"--dtype {a.dtype} has {DATA_TYPE_BITS[a.dtype]} bits, not --elem-bytes {a.elem_bytes}")
    if a.oob_fill == "nan" and a.dtype is None:
        raise QueryError("--oob-fill nan needs --dtype (a floating-point type)")
    values: dict[str, tuple[int, ...]] = {}
    for name in ("lower_corner", "upper_corner", "offsets"):
        v = getattr(a, name)
        if v is not None and len(v) != spatial:
            raise QueryError(f"--{name.replace('_', '-')} gives {len(v)} values; a rank-{rank} tensor has {spatial} "
                             "spatial dimensions (W[,H[,D]])")
        values[name] = v if v is not None else (0,) * spatial
    lower, upper, offsets = values["lower_corner"], values["upper_corner"], values["offsets"]
    strides = a.global_strides
    if strides is not None and len(strides) != max(rank - 1, 0):
        raise QueryError(f"--global-strides gives {len(strides)} values; a rank-{rank} tensor has {rank - 1}")
    if strides is None:
        pitch = -(-dims[0] * DATA_TYPE_BITS.get(dtype, 8) // 8 // 16) * 16
        built: list[int] = []
        for d in dims[1:]:
            built.append(pitch)
            pitch *= d
        strides = tuple(built)
    estr = a.element_strides
    if estr is not None and len(estr) != rank:
        raise QueryError(f"--element-strides gives {len(estr)} values; a rank-{rank} tensor has {rank}")
    try:
        t = Im2colMap(dtype, dims, strides, lower, upper, a.channels_per_pixel, a.pixels_per_column, estr or (),
                      TmaSwizzle(a.swizzle), a.oob_fill == "nan")
    except Im2colUnmodelled as e:
        return {"unsupported": str(e)}
    encode = encode_refusal_im2col(t)
    if encode:
        return {"refused": encode}
    start = a.start if a.start is not None else (0,) + lower + (0,)
    if len(start) != rank:
        raise QueryError(f"--start gives {len(start)} values; a rank-{rank} tensor has {rank} (c,w[,h[,d]],n)")
    why = copy_refusal_im2col(t, start, offsets, a.dst)
    if why:
        return {"refused": why}
    if t.footprint > MAX_TMA_ANSWER_BYTES:
        raise QueryError(f"the pixels span {t.footprint} bytes of shared memory, more than a CTA has: not listed (at "
                         f"most {MAX_TMA_ANSWER_BYTES})")
    fill = [-1] * rank
    writes = [[w.addr, *(list(reversed(w.coord)) if w.coord is not None else fill), w.byte]
              for w in placement_im2col(t, start, offsets, a.dst)]
    return {"tx_bytes": tx_bytes_im2col(t), "writes": writes,
            "pixels": [[p.index, *reversed(p.coord), p.inside(t)] for p in pixels(t, start, offsets)],
            "note": IM2COL_NOTE}


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
        writes = [w for c in ans["ctas"] for w in c["writes"]]
        tx = ans["tx_bytes"] if ans["tx_bytes"] is not None else "unmodelled"
        lines = [f"tx_bytes {tx} in each receiving CTA; not written: CTAs "
                 f"{', '.join(map(str, ans['untouched_ctas'])) or 'none'}",
                 f"{'cta':>3} " + _write_header(writes)]
        lines += [f"{c['rank']:>3} " + _write_line(w, False) for c in ans["ctas"] for w in c["writes"]]
        return "\n".join(lines + _tma_notes(ans)) + "\n"
    if what == "tma":
        tx = ans["tx_bytes"] if ans["tx_bytes"] is not None else "unmodelled"
        lines = [f"tx_bytes {tx}", _write_header(ans["writes"])]
        lines += [_write_line(w, True) for w in ans["writes"]]
        return "\n".join(lines + _tma_notes(ans)) + "\n"
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


def _write_header(writes: list[list[int]]) -> str:
    """A TMA write's columns: addr, row, col, byte (rank 2), or addr, d{rank-1} .. d0, byte."""
    n = len(writes[0]) - 2 if writes else 2
    names = ["row", "col"] if n == 2 else [f"d{i}" for i in reversed(range(n))]
    return f"{'addr':>10} " + " ".join(f"{x:>6}" for x in names) + f" {'byte':>4}"


def _write_line(w: list[int], note_fill: bool) -> str:
    return (f"{w[0]:#10x} " + " ".join(f"{c:>6}" for c in w[1:-1]) + f" {w[-1]:>4}"
            + ("   (out of bounds: fill)" if note_fill and w[1] < 0 else ""))


def _tma_notes(ans: Answer) -> list[str]:
    """What an N-D answer adds below its writes: the sub-byte group, the padding, what is not modelled."""
    lines = []
    if "element_group" in ans:
        lines.append(f"a packed sub-byte type: the dimension-0 coordinate (col, d0) is the first element of a "
                     f"{ans['element_group']}-element group, byte a byte of the group's packed data")
    if "undefined" in ans:
        pad = ans["undefined"]
        lines.append(f"padding, left uninitialised: {len(pad)} bytes, " + " ".join(f"{a:#x}" for a in pad[:8])
                     + (" ..." if len(pad) > 8 else ""))
    if "pixels" in ans:
        px = ans["pixels"]
        lines.append("pixels (row: coordinates outermost first, the element read): "
                     + " ".join(f"{p[0]}:({','.join(map(str, p[1:-1]))}){'' if p[-1] else '*'}" for p in px[:16])
                     + (" ..." if len(px) > 16 else "") + "   (* outside the tensor: filled)")
    if "note" in ans:
        lines.append(f"note: {ans['note']}")
    lines += [f"unmodelled: {why}" for why in ans.get("unmodelled", [])]
    return lines


def _exit_for(ans: Answer) -> int:
    return ExitCode.UNDECIDED if "unsupported" in ans or "unmodelled" in ans else ExitCode.OK


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
