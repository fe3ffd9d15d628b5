"""TMA tiled loads, 2-D (`cp.async.bulk.tensor.2d.shared::cluster.global.tile`; N-D below) and the tensor maps
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

N-dimensional tiled loads (`cp.async.bulk.tensor.{1..5}d...tile`) and the packed sub-byte data types, modelled from the
documentation alone (no capture yet: tools/gpu/capture_tma_nd.cu is written for one) and reducing, for rank 2 and the
byte-sized types, to the validated 2-D model above byte for byte (tests/test_hw_tma_nd.py replays every 2-D capture):
- the driver API (cuTensorMapEncodeTiled, CUDA 13.0 cuda.h) allows ranks 1 to 5 in the tiled mode and states the same
  per-dimension limits for every dimension (globalDim 1..2^32, boxDim 1..256, elementStrides 1..8, the strides —
  of dimensions 1..rank-1 — multiples of 16 below 2^40); the model keeps the 2-D rules for each dimension;
- the PTX ISA's "Tensors" section (the tiled mode keeps the source's multi-dimensional layout, shared memory is
  linear) fixes no row order beyond that; the model numbers the box's rows over dimensions 1..rank-1 with dimension 1
  fastest (row = j1 + n1 * (j2 + n2 * ...), n_i = ceil(boxDim[i] / elementStrides[i]), j_i the traversal index), each
  row at the 2-D row pitch, then the absolute-address swizzle; dimension 0 of element strides stays ignored and
  every other dimension keeps every s-th coordinate, packed, as dimension 1 does on the hardware;
- the driver API writes the strides as nested (each including the previous dimension's extent and padding) but states
  no rule that they must be; the H200 accepted a rank-2 stride below a row's bytes, and CUTLASS's block-scaled kernels
  encode scale-factor maps whose outer strides do not nest (m-blocks 4096 bytes apart along dimension 1, k-blocks 512
  along dimension 2: tests/data/cute_blockscaled.json), so the model refuses no stride order;
- the sub-byte types (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B = PTX `.b4x16`, 16U4_ALIGN16B = `.b4x16_p64`,
  16U6_ALIGN16B = `.b6x16_p32`; globalDim and boxDim count 4- or 6-bit elements): the driver API's extra rules —
  16U4_ALIGN8B: globalDim[0] even; the two ALIGN16B types: a 32-byte aligned global address, 32-byte strides,
  globalDim[0] a multiple of 128, boxDim[0] exactly 128, no 32B / 64B swizzle (loads: none, 128B, 128B_ATOM_32B);
  none of them with the NaN fill — and the PTX ISA's ("Restriction on Tensor Copy instructions": the same sizes
  in bytes, and the first tensor coordinate of a padded type a multiple of 128; "Bounding Box" of the tiled mode: a
  box starts on a 16-byte boundary, so a 16U4_ALIGN8B start is a multiple of 32 elements);
- placement (PTX ISA, "Padding and alignment of the sub-byte types", and the driver API's words): 16U4_ALIGN8B
  copies the packed bytes unchanged (a box row is boxDim[0] / 2 bytes); 16U4_ALIGN16B puts each group of 16
  elements (8 global bytes) at the start of a 16-byte slot and appends 8 bytes of padding, 16U6_ALIGN16B each group
  of 16 (12 bytes) with 4 bytes appended; the padding is uninitialised (`padding_nd`: the model says nothing of its
  bytes).  Inside a group the TMA moves bytes: which bits of them hold element k is the packing's
  (`element_position`: element k % 16 at bit bits * (k % 16), low bits first, the PTX ISA's convention for packed
  elements);
- not documented, so not modelled: the transaction bytes of the padded types (the packed global bytes or the padded
  shared ones: `tx_bytes_nd` answers None), stores and multicast of rank other than 2 or of the sub-byte types, the
  interleaved layouts, and the 16U6_ALIGN16B store form (PTX `.b6p2x16`, 6 bits in each byte).  The sub-byte types
  are sm_100 / sm_120 features (the PTX ISA lists `tensormap.replace` of those element types for sm_100a and
  sm_120a only).
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


ROW_PHASE_BIT = 7                    # a swizzled row's phase: shared address bits 7.. (128-byte rows)


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

    @property
    def byte_swizzle(self) -> tuple[int, int, int]:
        """(B, M, S) of the Swizzle<B,M,S> on byte addresses this mode applies: chunks of 2^M bytes, the row phase
        from address bits 7.. (S = 7 - M)."""
        return self.bits, self.chunk_shift, ROW_PHASE_BIT - self.chunk_shift

    @classmethod
    def of_byte_swizzle(cls, b: int, m: int, s: int) -> TmaSwizzle | None:
        """The mode applying Swizzle<B,M,S> on byte addresses (B = 0: none, whatever M and S), or None."""
        if b == 0:
            return cls.NONE
        return next((mode for mode in cls if mode.bits and mode.byte_swizzle == (b, m, s)), None)


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
    return swizzle_address(t.swizzle, smem_unswizzled(t, dst, row, col, byte))


def smem_unswizzled(t: TensorMap2D, dst: Addr, row: Addr, col: Addr, byte: int = 0) -> Addr:
    """`smem_address` before the swizzle: the destination plus the box element's row pitch and column bytes."""
    return dst + row * t.row_pitch + col * t.elem_bytes + byte


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


# --- N-dimensional tiled loads and the packed sub-byte types ---------------------------------------------------

TILE_RANK_LIMIT = 5                  # tensorRank of the tiled mode: 1..5
SUBBYTE_GROUP = 16                   # elements of one packed group: "16 x U4", "16 x U6"
PADDED_SLOT = 16                     # bytes a group of an ALIGN16B type occupies in shared memory
PADDED_BOX0 = 128                    # boxDim[0] of the ALIGN16B types (64 / 96 packed bytes)
PADDED_DIM0_MULTIPLE = 128           # globalDim[0] of the ALIGN16B types
PADDED_GLOBAL_ALIGN = 32             # bytes: the ALIGN16B types' global address and strides
PADDED_START_MULTIPLE = 128          # elements: the first tensor coordinate of an ALIGN16B type (PTX ISA)
PACKED_DIM0_MULTIPLE = 2             # globalDim[0] of 16U4_ALIGN8B
PADDED_SWIZZLES = (TmaSwizzle.NONE, TmaSwizzle.B128, TmaSwizzle.B128_ATOM_32B)   # loads of the ALIGN16B types


@dataclass(frozen=True)
class SubByteType:
    """A packed sub-byte CUtensorMapDataType: 16 elements of `bits` each, packed in global memory, a group taking
    `slot` bytes in shared memory (its packed bytes first, then uninitialised padding)."""
    name: str
    bits: int
    slot: int

    @property
    def data(self) -> int:
        """Packed bytes of one group (global memory): 8 for 4-bit elements, 12 for 6-bit ones."""
        return SUBBYTE_GROUP * self.bits // 8

    @property
    def padded(self) -> bool:
        return self.slot > self.data


SUBBYTE_TYPES = {t.name: t for t in (SubByteType("16U4_ALIGN8B", 4, 8), SubByteType("16U4_ALIGN16B", 4, PADDED_SLOT),
                                     SubByteType("16U6_ALIGN16B", 6, PADDED_SLOT))}
ND_FLOAT_TYPES = FLOAT_TYPES | {"float32_ftz", "tfloat32_ftz"}
# every CUtensorMapDataType by name (the driver's enum, lower case; the sub-byte ones as the enum spells them) -> bits
DATA_TYPE_BITS = {**{name: 8 * size for name, size in DATA_TYPE_BYTES.items()}, "float32_ftz": 32,
                  "tfloat32_ftz": 32, **{name: t.bits for name, t in SUBBYTE_TYPES.items()}}


@dataclass(frozen=True)
class TensorMapND:
    """The parameters of cuTensorMapEncodeTiled for a tensor of rank 1..5 (more, to be refused), dimension 0
    innermost in every tuple; interleave NONE."""
    dtype: str                                # CUtensorMapDataType by name (DATA_TYPE_BITS)
    box: tuple[int, ...]                      # boxDim, elements (sub-byte types: 4- or 6-bit elements)
    global_dim: tuple[int, ...]               # globalDim, elements
    global_strides: tuple[int, ...] = ()      # globalStrides, bytes, of dimensions 1..rank-1
    swizzle: TmaSwizzle = TmaSwizzle.NONE
    element_strides: tuple[int, ...] = ()     # elementStrides; () for all ones
    oob_nan: bool = False                     # CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
    global_address: int = 0

    def __post_init__(self) -> None:
        if self.dtype not in DATA_TYPE_BITS:
            raise ValueError(f"unknown tensor map data type {self.dtype!r}")
        if len(self.global_dim) != self.rank or len(self.global_strides) != max(self.rank - 1, 0) \
                or len(self.element_strides) not in (0, self.rank):
            raise ValueError(f"a rank-{self.rank} tensor map needs {self.rank} globalDim, {max(self.rank - 1, 0)} "
                             f"globalStrides and {self.rank} elementStrides")

    @property
    def rank(self) -> int:
        return len(self.box)

    @property
    def bits(self) -> int:
        """Bits of one element."""
        return DATA_TYPE_BITS[self.dtype]

    @property
    def subbyte(self) -> SubByteType | None:
        return SUBBYTE_TYPES.get(self.dtype)

    @property
    def unit(self) -> int:
        """Elements placed together along dimension 0: 1, or a group of 16 for the sub-byte types."""
        return SUBBYTE_GROUP if self.subbyte else 1

    @property
    def unit_bytes(self) -> int:
        """Global (packed) bytes of one unit: the element size, or 8 / 12 for a group."""
        return self.unit * self.bits // 8

    @property
    def unit_slot(self) -> int:
        """Shared-memory bytes of one unit: its packed bytes, or 16 for a group of an ALIGN16B type."""
        sb = self.subbyte
        return sb.slot if sb else self.bits // 8

    @property
    def traversal(self) -> tuple[int, ...]:
        """elementStrides, all ones when not given."""
        return self.element_strides or (1,) * self.rank

    @property
    def counts(self) -> tuple[int, ...]:
        """Elements one copy moves along each dimension: boxDim[0] (its element stride is ignored), then
        ceil(boxDim[i] / elementStrides[i])."""
        return (self.box[0],) + tuple(-(-b // s) for b, s in zip(self.box[1:], self.traversal[1:]))

    @property
    def rows(self) -> int:
        """Box rows one copy writes: the product of the counts of dimensions 1..rank-1."""
        n = 1
        for c in self.counts[1:]:
            n *= c
        return n

    @property
    def inner_bytes(self) -> int:
        """boxDim[0] x the element size in global memory (packed), what the driver's 16-byte rule counts."""
        return self.box[0] * self.bits // 8

    @property
    def smem_inner_bytes(self) -> int:
        """Bytes a box row's data and padding take in shared memory."""
        return self.box[0] // self.unit * self.unit_slot

    @property
    def row_pitch(self) -> int:
        """Bytes between box rows in shared memory: the swizzle span, or the row's bytes without a swizzle."""
        return self.swizzle.span or self.smem_inner_bytes

    @property
    def footprint(self) -> int:
        """Bytes from the destination the box spans in shared memory (rows x pitch)."""
        return self.rows * self.row_pitch


def encode_refusal_nd(t: TensorMapND) -> str | None:
    """The rule cuTensorMapEncodeTiled refuses the parameters with (CUDA_ERROR_INVALID_VALUE), or None: the driver
    API's rules for each dimension, the packed sub-byte types' extra ones (module docstring); for rank 2 and the
    byte-sized types exactly `encode_refusal`'s."""
    if not 1 <= t.rank <= TILE_RANK_LIMIT:
        return f"tensorRank must be 1..{TILE_RANK_LIMIT} for a tiled tensor map, not {t.rank}"
    sb = t.subbyte
    padded = sb is not None and sb.padded
    address_align = PADDED_GLOBAL_ALIGN if padded else GLOBAL_ALIGN
    if t.global_address % address_align:
        return f"the global address must be {address_align}-byte aligned" + (f" for {t.dtype}" if padded else "")
    for i, d in enumerate(t.global_dim):
        if not 0 < d <= DIM_LIMIT:
            return f"globalDim[{i}] must be in 1..2^32, not {d}"
    if padded and t.global_dim[0] % PADDED_DIM0_MULTIPLE:
        return f"globalDim[0] of {t.dtype} must be a multiple of {PADDED_DIM0_MULTIPLE}, not {t.global_dim[0]}"
    if sb is not None and not padded and t.global_dim[0] % PACKED_DIM0_MULTIPLE:
        return f"globalDim[0] of {t.dtype} must be a multiple of {PACKED_DIM0_MULTIPLE}, not {t.global_dim[0]}"
    stride_align = PADDED_GLOBAL_ALIGN if padded else GLOBAL_ALIGN
    for i, s in enumerate(t.global_strides):
        if s % stride_align or not 0 < s < STRIDE_LIMIT:
            return f"globalStrides[{i}] must be a multiple of {stride_align} below 2^40, not {s}"
    for i, b in enumerate(t.box):
        if not 0 < b <= BOX_LIMIT:
            return f"boxDim[{i}] must be in 1..{BOX_LIMIT}, not {b}"
    if padded and t.box[0] != PADDED_BOX0:
        return f"boxDim[0] of {t.dtype} must be {PADDED_BOX0}, not {t.box[0]}"
    if (t.box[0] * t.bits) % (8 * INNER_ALIGN):
        return f"boxDim[0] * elementSize = {t.box[0] * t.bits / 8:g} bytes must be a multiple of {INNER_ALIGN}"
    if padded and t.swizzle not in PADDED_SWIZZLES:
        return (f"{t.dtype} allows the swizzles " + ", ".join(s.value for s in PADDED_SWIZZLES)
                + f" (a load), not {t.swizzle.value}")
    if t.swizzle.span and t.smem_inner_bytes > t.swizzle.span:
        return f"the box's inner dimension, {t.smem_inner_bytes} bytes, exceeds the {t.swizzle.value} swizzle span"
    for i, s in enumerate(t.traversal):
        if not 0 < s <= ELEMENT_STRIDE_LIMIT:
            return f"elementStrides[{i}] must be in 1..{ELEMENT_STRIDE_LIMIT}, not {s}"
    if t.oob_nan and sb is not None:
        return f"the NaN out-of-bounds fill is not allowed for the packed type {t.dtype}"
    if t.oob_nan and t.dtype not in ND_FLOAT_TYPES:
        return "the NaN out-of-bounds fill needs a floating-point data type"
    return None


def copy_refusal_nd(t: TensorMapND, start: tuple[int, ...], dst: int) -> str | None:
    """What the copy refuses at run time, or None: the destination's alignment and the start along dimension 0
    (observed on the H200 for the byte-sized types; the PTX ISA's bounding box starts on a 16-byte boundary, and a
    padded sub-byte type's first coordinate is a multiple of 128)."""
    if len(start) != t.rank:
        raise ValueError(f"a rank-{t.rank} copy takes {t.rank} coordinates, not {len(start)}")
    if dst % SMEM_ALIGN:
        return f"the shared-memory destination {dst:#x} is not {SMEM_ALIGN}-byte aligned (misaligned address)"
    sb = t.subbyte
    if sb is not None and sb.padded:
        if start[0] % PADDED_START_MULTIPLE:
            return (f"the first tensor coordinate of a {t.dtype} copy must be a multiple of {PADDED_START_MULTIPLE}, "
                    f"not {start[0]} (PTX ISA, restrictions on tensor copies)")
        return None
    if (start[0] * t.bits) % (8 * INNER_ALIGN):
        if sb is not None:
            return (f"the start's offset in dimension 0, {start[0]} x {t.bits} bits, is not a multiple of "
                    f"{INNER_ALIGN} bytes (PTX ISA: a bounding box starts on a 16-byte boundary)")
        e = t.bits // 8
        return (f"the start's byte offset in dimension 0, {start[0]} x {e} = {start[0] * e}, is "
                f"not a multiple of {INNER_ALIGN} (illegal instruction)")
    return None


def smem_address_nd(t: TensorMapND, dst: Addr, box_coord: tuple[Addr, ...], byte: Addr = 0) -> Addr:
    """The absolute shared address receiving byte `byte` of the box element at traversal indices box_coord =
    (i0, j1, ..., j{rank-1}) (j_i: the j-th coordinate the copy keeps along dimension i).  For a sub-byte type i0
    names the 16-element group holding element i0 and `byte` a byte of the group's packed data (0..7, or 0..11 for
    6-bit elements); bytes of a padded group from 8 (12) on are its padding.  Ints or symbolic expressions."""
    if len(box_coord) != t.rank:
        raise ValueError(f"a rank-{t.rank} box element has {t.rank} indices, not {len(box_coord)}")
    counts = t.counts
    col: Addr = box_coord[0] * t.unit_slot if t.unit == 1 else box_coord[0] // t.unit * t.unit_slot
    if t.rank == 1:
        return swizzle_address(t.swizzle, dst + col + byte)
    row: Addr = box_coord[t.rank - 1]
    for i in range(t.rank - 2, 0, -1):
        row = box_coord[i] + counts[i] * row
    return swizzle_address(t.swizzle, dst + row * t.row_pitch + col + byte)


@dataclass(frozen=True)
class WriteND:
    """One shared byte an N-D copy writes."""
    addr: int                           # absolute shared address
    coord: tuple[int, ...] | None       # global coordinates, dimension 0 first (a sub-byte type: the first element
                                        # of the 16-element group); None for an out-of-bounds fill
    byte: int                           # byte inside the element (a sub-byte type: inside the group's packed bytes)
    value: int | None = None            # the fill byte, for out-of-bounds elements


def _box_rows(t: TensorMapND) -> list[tuple[int, ...]]:
    """The traversal indices (j1, ..., j{rank-1}) of every box row, in row order (dimension 1 fastest)."""
    rows: list[tuple[int, ...]] = [()]
    for n in t.counts[1:]:
        rows = [r + (j,) for j in range(n) for r in rows]
    return rows


def placement_nd(t: TensorMapND, start: tuple[int, ...], dst: int) -> list[WriteND]:
    """Every shared byte one copy writes, in box order (rows, then units along dimension 0, then bytes); a padded
    type's padding is not among them (`padding_nd`)."""
    if len(start) != t.rank:
        raise ValueError(f"a rank-{t.rank} copy takes {t.rank} coordinates, not {len(start)}")
    sb = t.subbyte
    out = []
    for js in _box_rows(t):
        outer = tuple(start[i + 1] + j * t.traversal[i + 1] for i, j in enumerate(js))
        rows_inside = all(0 <= c < d for c, d in zip(outer, t.global_dim[1:]))
        for u in range(t.box[0] // t.unit):
            i0 = u * t.unit
            c0 = start[0] + i0
            for b in range(t.unit_bytes):
                last = c0 + (8 * b + 7) // t.bits if sb else c0        # the last element the byte holds
                a = smem_address_nd(t, dst, (i0,) + js, b)
                if rows_inside and 0 <= c0 and last < t.global_dim[0]:
                    out.append(WriteND(a, (c0,) + outer, b))
                else:
                    out.append(WriteND(a, None, b, NAN_FILL_UNIT[b % 2] if t.oob_nan else 0))
    return out


def padding_nd(t: TensorMapND, dst: int) -> list[int]:
    """The shared addresses of a padded type's padding (8 or 4 bytes after each group's packed bytes), which the
    copy leaves uninitialised (PTX ISA, padding of the sub-byte types); [] for every other type."""
    sb = t.subbyte
    if sb is None or not sb.padded:
        return []
    return [smem_address_nd(t, dst, (u * t.unit,) + js, b) for js in _box_rows(t)
            for u in range(t.box[0] // t.unit) for b in range(sb.data, sb.slot)]


def tx_bytes_nd(t: TensorMapND) -> int | None:
    """The mbarrier transaction count of one copy: every element the box moves (out-of-bounds ones too), in bytes;
    None for the padded sub-byte types, whose count (packed or padded bytes) the documentation does not give."""
    sb = t.subbyte
    if sb is not None and sb.padded:
        return None
    return t.inner_bytes * t.rows


TX_UNMODELLED = ("the transaction byte count of a padded sub-byte type (the packed global bytes or the padded shared "
                 "ones) is documented nowhere and was not captured")


def global_offset_nd(t: TensorMapND, coord: tuple[int, ...], byte: int = 0) -> int:
    """The byte offset from the tensor's global address of byte `byte` of the element (a sub-byte type: of the
    16-element group starting) at `coord`."""
    return coord[0] * t.bits // 8 + sum(c * s for c, s in zip(coord[1:], t.global_strides)) + byte


@dataclass(frozen=True)
class ElementPosition:
    """Where element k of a box row of a sub-byte type lies in shared memory, relative to the row's start."""
    slot: int           # the row byte its group starts at: 16 * (k // 16) padded, 8 * (k // 16) for 16U4_ALIGN8B
    bit: int            # the element's first bit inside the group's packed bytes: bits * (k % 16)
    bits: int           # 4 or 6

    @property
    def first_byte(self) -> int:
        """The row byte holding the element's first bit."""
        return self.slot + self.bit // 8

    @property
    def last_byte(self) -> int:
        """The row byte holding its last bit (a 6-bit element may straddle two bytes)."""
        return self.slot + (self.bit + self.bits - 1) // 8


def element_position(t: TensorMapND, k: int) -> ElementPosition:
    """Element k (along dimension 0, from the box's start) of a sub-byte type's row: its group's slot and, inside,
    the packed position (the TMA moves whole bytes; the bit order is the packing's, element 0 in the low bits)."""
    sb = t.subbyte
    if sb is None:
        raise ValueError(f"{t.dtype} is not a packed sub-byte type")
    return ElementPosition(k // SUBBYTE_GROUP * sb.slot, k % SUBBYTE_GROUP * sb.bits, sb.bits)
