"""TMA 2-D tiled loads (`cp.async.bulk.tensor.2d.shared::cluster.global.tile`) and the tensor maps
`cuTensorMapEncodeTiled` builds for them: which shared-memory byte receives each byte of the box, what the
driver refuses to encode, and what the copy itself refuses at run time.

Written from the CUDA driver API documentation (cuTensorMapEncodeTiled) and the PTX ISA (cp.async.bulk.tensor,
"Tensor copy restrictions"), then checked against tables captured on an H200 (tools/gpu/capture_tma.cu,
tests/data/hw/tma.json.gz).  Where the two differ the model follows the hardware:
- a box row occupies a whole swizzle span (32, 64 or 128 bytes) in shared memory even when its inner
  dimension is narrower; without a swizzle, rows are packed at the inner dimension's byte size;
- the swizzle XORs the 16-byte chunk index (address bits 4..) with address bits 7.. of the *absolute* shared
  address (Swizzle<1|2|3, 4, 3> on byte addresses), so a destination off the swizzle's repeat (256 / 512 /
  1024 bytes) shifts the pattern;
- CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (sm_100, the tcgen05 128B_BASE32B layout) swizzles 32-byte chunks within the
  128-byte span (the driver API's words): chunk bits 5..6 XOR address bits 7..8, Swizzle<2,5,2> on bytes, a
  pattern of 4 rows.  Not hardware-validated: the H200's driver refuses this swizzle (and _ATOM_32B_FLIP_8B,
  _ATOM_64B) with CUDA_ERROR_INVALID_VALUE;
- out-of-bounds elements are written, never skipped: zeros, or with the NaN request the 16-bit pattern 0x7FF7
  repeated over the element (a NaN in f16, bf16, f32 and f64); the transaction counts the whole box;
- a start whose byte offset in dimension 0 (c0 * element size) is not a multiple of 16 traps (illegal
  instruction), and a destination not 128-byte aligned faults (misaligned address); the documentation states
  neither for the tiled mode;
- element strides (tools/gpu/capture_tma_store.cu, tests/data/hw/tma_store.json.gz): elementStrides[0] is ignored
  (no interleave): every element of the box's inner dimension is loaded; elementStrides[1] = s loads
  ceil(boxDim[1] / s) rows — global rows c1, c1 + s, ... — packed in shared memory as unstrided rows are; the
  transaction counts boxDim[0] x ceil(boxDim[1] / s) elements.  The driver API's text (ceil(boxDim[i] /
  elementStrides[i]) elements along every dimension) holds for dimension 1 only.

TMA 2-D tiled stores (`cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group`), captured the same way: each
in-bounds element of the box is written to global memory from the shared byte the load would have put it in (the
same row pitch and swizzle); rows past the tensor's end are not written (global memory keeps its bytes), but along
dimension 0 the store writes whole 16-byte chunks: the bytes from the row's last element up to the next multiple of
16 bytes (ceil(globalDim[0] * elementSize / 16) * 16) are overwritten with the box's following elements — the
driver API says out-of-bound elements are not written; a start before the tensor in either dimension (c0 < 0 or
c1 < 0) traps (illegal instruction), where a load fills.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

Addr = Any      # an int, or a symbolic expression (verifier.symbolic.expr.Expr) with the same operators

SECTION = "CUDA driver API cuTensorMapEncodeTiled; PTX ISA cp.async.bulk.tensor (tile mode)"
BOX_LIMIT = 256                      # elements per box dimension
DIM_LIMIT = 1 << 32                  # elements per global dimension
STRIDE_LIMIT = 1 << 40               # bytes, exclusive
ELEMENT_STRIDE_LIMIT = 8
GLOBAL_ALIGN = 16                    # bytes: global address and strides
INNER_ALIGN = 16                     # bytes: the box's inner dimension, and the start's byte offset in it
SMEM_ALIGN = 128                     # bytes: the shared-memory destination
NAN_FILL_UNIT = (0xF7, 0x7F)         # the NaN fill, little-endian, repeated every 2 bytes (observed)


class TmaSwizzle(str, Enum):
    NONE = "none"
    B32 = "32B"
    B64 = "64B"
    B128 = "128B"
    B128_ATOM_32B = "128B_atom32B"     # CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B (sm_100)

    @property
    def span(self) -> int:
        """Bytes a box row occupies in shared memory (0: rows packed, no swizzle)."""
        return {TmaSwizzle.NONE: 0, TmaSwizzle.B32: 32, TmaSwizzle.B64: 64, TmaSwizzle.B128: 128,
                TmaSwizzle.B128_ATOM_32B: 128}[self]

    @property
    def bits(self) -> int:
        """B of Swizzle<B,M,S>: how many chunk bits are XORed."""
        return {TmaSwizzle.NONE: 0, TmaSwizzle.B32: 1, TmaSwizzle.B64: 2, TmaSwizzle.B128: 3,
                TmaSwizzle.B128_ATOM_32B: 2}[self]

    @property
    def chunk_shift(self) -> int:
        """M of Swizzle<B,M,S>: log2 of the bytes moved together (16; 32 for the 32-byte atoms)."""
        return 5 if self is TmaSwizzle.B128_ATOM_32B else 4

    @property
    def repeat(self) -> int:
        """Bytes after which the pattern repeats: the row phase is address bits 7.. (B of them)."""
        return (128 << self.bits) if self.bits else 0


FLOAT_TYPES = {"float16", "bfloat16", "float32", "float64", "tfloat32"}
# CUtensorMapDataType (the CUDA driver API) by name -> bytes of one element
DATA_TYPE_BYTES = {"uint8": 1, "uint16": 2, "uint32": 4, "int32": 4, "uint64": 8, "int64": 8, "float16": 2,
                   "float32": 4, "float64": 8, "bfloat16": 2, "tfloat32": 4}


@dataclass(frozen=True)
class TensorMap2D:
    """The parameters of cuTensorMapEncodeTiled for a rank-2 tensor (dimension 0 innermost)."""
    elem_bytes: int
    box: tuple[int, int]                  # (inner, outer) elements
    swizzle: TmaSwizzle = TmaSwizzle.NONE
    global_dim: tuple[int, int] = (1 << 16, 1 << 16)
    global_stride: int = 1 << 17          # bytes between rows
    oob_nan: bool = False
    float_type: bool = True               # the NaN request needs a floating-point data type
    global_address: int = 0
    element_strides: tuple[int, int] = (1, 1)

    @property
    def box_bytes(self) -> int:
        return self.box[0] * self.box[1] * self.elem_bytes

    @property
    def row_pitch(self) -> int:
        """Bytes between box rows in shared memory."""
        return self.swizzle.span or self.box[0] * self.elem_bytes


def encode_refusal(t: TensorMap2D) -> str | None:
    """The rule cuTensorMapEncodeTiled refuses the parameters with (CUDA_ERROR_INVALID_VALUE), or None."""
    e = t.elem_bytes
    if e not in (1, 2, 4, 8):
        return f"the element size must be 1, 2, 4 or 8 bytes, not {e}"
    if t.global_address % GLOBAL_ALIGN:
        return f"the global address must be {GLOBAL_ALIGN}-byte aligned"
    for i, d in enumerate(t.global_dim):
        if not 0 < d <= DIM_LIMIT:
            return f"globalDim[{i}] must be in 1..2^32, not {d}"
    if t.global_stride % GLOBAL_ALIGN or not 0 < t.global_stride < STRIDE_LIMIT:
        return f"globalStrides[0] must be a multiple of {GLOBAL_ALIGN} below 2^40, not {t.global_stride}"
    for i, b in enumerate(t.box):
        if not 0 < b <= BOX_LIMIT:
            return f"boxDim[{i}] must be in 1..{BOX_LIMIT}, not {b}"
    inner = t.box[0] * e
    if inner % INNER_ALIGN:
        return f"boxDim[0] * elementSize = {inner} bytes must be a multiple of {INNER_ALIGN}"
    if t.swizzle.span and inner > t.swizzle.span:
        return f"the box's inner dimension, {inner} bytes, exceeds the {t.swizzle.value} swizzle span"
    for i, s in enumerate(t.element_strides):
        if not 0 < s <= ELEMENT_STRIDE_LIMIT:
            return f"elementStrides[{i}] must be in 1..{ELEMENT_STRIDE_LIMIT}, not {s}"
    if t.oob_nan and not t.float_type:
        return "the NaN out-of-bounds fill needs a floating-point data type"
    return None


def copy_refusal(t: TensorMap2D, start: tuple[int, int], dst: int) -> str | None:
    """What the copy itself refuses at run time (observed on the H200), or None."""
    if dst % SMEM_ALIGN:
        return f"the shared-memory destination {dst:#x} is not {SMEM_ALIGN}-byte aligned (misaligned address)"
    if (start[0] * t.elem_bytes) % INNER_ALIGN:
        return (f"the start's byte offset in dimension 0, {start[0]} x {t.elem_bytes} = {start[0] * t.elem_bytes}, is "
                f"not a multiple of {INNER_ALIGN} (illegal instruction)")
    return None


def smem_address(t: TensorMap2D, dst: Addr, row: Addr, col: Addr, byte: int = 0) -> Addr:
    """The absolute shared address receiving byte `byte` of box element (row, col) (box coordinates)."""
    addr = dst + row * t.row_pitch + col * t.elem_bytes + byte
    return swizzle_address(t.swizzle, addr)


def swizzle_address(s: TmaSwizzle, addr: Addr) -> Addr:
    """Swizzle<B,M,7-M> on an absolute byte address: chunk bits M..M+B XOR bits 7..7+B (M = 4; 5 for 32-byte
    atoms)."""
    if not s.bits:
        return addr
    mask = (1 << s.bits) - 1
    return addr ^ (((addr >> 7) & mask) << s.chunk_shift)


@dataclass(frozen=True)
class Write:
    addr: int           # absolute shared address
    row: int            # global coordinates, -1 for an out-of-bounds fill
    col: int
    byte: int           # byte inside the element
    value: int | None = None   # the fill byte, for out-of-bounds elements


def box_rows(t: TensorMap2D) -> int:
    """Rows of the box one copy moves: ceil(boxDim[1] / elementStrides[1]) (elementStrides[0] is ignored)."""
    return -(-t.box[1] // t.element_strides[1])


def placement(t: TensorMap2D, start: tuple[int, int], dst: int) -> list[Write]:
    """Every shared-memory byte one copy writes, in box order."""
    e = t.elem_bytes
    out = []
    for r in range(box_rows(t)):
        for c in range(t.box[0]):
            grow, gcol = start[1] + r * t.element_strides[1], start[0] + c
            inside = 0 <= gcol < t.global_dim[0] and 0 <= grow < t.global_dim[1]
            for b in range(e):
                a = smem_address(t, dst, r, c, b)
                if inside:
                    out.append(Write(a, grow, gcol, b))
                else:
                    out.append(Write(a, -1, -1, b, NAN_FILL_UNIT[b % 2] if t.oob_nan else 0))
    return out


def tx_bytes(t: TensorMap2D) -> int:
    """The mbarrier transaction count of one copy: the whole box, out-of-bounds elements included (the rows the
    element stride keeps)."""
    return t.box[0] * box_rows(t) * t.elem_bytes


# --- multicast -------------------------------------------------------------------------------------------------

CLUSTER_LIMIT = 16                   # CTAs of a cluster (8 portable; 16 with the non-portable opt-in on sm_90)


def multicast_refusal(cluster: int, mask: int) -> str | None:
    """What a `.multicast::cluster` load cannot mean, or None: a cluster size outside 1..16, a 16-bit ctaMask
    naming no CTA or a CTA outside the cluster (PTX ISA, cp.async.bulk.tensor: ctaMask is 16 bits, one per
    cluster rank)."""
    if not 1 <= cluster <= CLUSTER_LIMIT:
        return f"a cluster has 1 to {CLUSTER_LIMIT} CTAs, not {cluster}"
    if not 0 < mask < 1 << 16:
        return f"ctaMask is a non-zero 16-bit mask, not {mask:#x}"
    if mask >> cluster:
        outside = next(r for r in range(cluster, 16) if mask >> r & 1)
        return f"ctaMask {mask:#x} names CTA rank {outside}, outside the cluster of {cluster}"
    return None


def multicast_placement(t: TensorMap2D, start: tuple[int, int], dst: int, mask: int) -> dict[int, list[Write]]:
    """Cluster rank -> the shared bytes the multicast writes in that CTA: every CTA of `mask` receives the whole
    box at the same CTA-relative address (the issuing CTA only if its own bit is set); each signals the mbarrier
    at the same CTA-relative offset, with the transaction of one box."""
    writes = placement(t, start, dst)
    return {rank: writes for rank in range(16) if mask >> rank & 1}


# --- stores ----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class StoreWrite:
    offset: int         # global byte offset from the tensor's address
    row: int            # global coordinates of the element
    col: int
    byte: int           # byte inside the element
    src: int            # the absolute shared address it is read from


def store_refusal(t: TensorMap2D, start: tuple[int, int], src: int) -> str | None:
    """What a store refuses at run time, or None: the source alignment (PTX ISA, as a load's destination) and a
    start before the tensor (observed: illegal instruction)."""
    if src % SMEM_ALIGN:
        return f"the shared-memory source {src:#x} is not {SMEM_ALIGN}-byte aligned (PTX ISA)"
    if start[0] < 0 or start[1] < 0:
        return (f"a store starting before the tensor ({start[0]}, {start[1]}) traps (illegal instruction, observed on "
                "the H200); a load would fill those elements")
    return None


def store_unmodelled(t: TensorMap2D, start: tuple[int, int]) -> str | None:
    """Why the store model does not answer (a case no capture covers), or None."""
    if t.element_strides != (1, 1):
        return "element strides of a TMA store were not captured"
    if (start[0] * t.elem_bytes) % INNER_ALIGN:
        return (f"a store whose start's byte offset in dimension 0 ({start[0] * t.elem_bytes}) is not a multiple of "
                f"{INNER_ALIGN} was not captured (a load traps there)")
    return None


def store_writes(t: TensorMap2D, start: tuple[int, int], src: int) -> tuple[list[StoreWrite], list[tuple[int, int]]]:
    """Every global byte one store writes, in box order, and the box elements (row, col) it leaves unwritten
    because they lie past the tensor's end (along dimension 0: past the 16-byte chunk of its last element)."""
    e = t.elem_bytes
    row_end = -(-t.global_dim[0] * e // INNER_ALIGN) * INNER_ALIGN     # bytes of a row the store may write
    out, skipped = [], []
    for r in range(t.box[1]):
        for c in range(t.box[0]):
            grow, gcol = start[1] + r, start[0] + c
            if not (0 <= gcol * e < row_end and 0 <= grow < t.global_dim[1]):
                skipped.append((grow, gcol))
                continue
            for b in range(e):
                out.append(StoreWrite(grow * t.global_stride + gcol * e + b, grow, gcol, b,
                                      smem_address(t, src, r, c, b)))
    return out, skipped
