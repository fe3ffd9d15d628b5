"""TMA im2col loads (`cp.async.bulk.tensor.{3,4,5}d.shared::cluster.global.im2col`) and the tensor maps
`cuTensorMapEncodeIm2col` builds for them: which global element (or the out-of-bounds fill) lands in each shared byte,
what the driver refuses to encode, and what the copy refuses.

Written from the documentation alone; tools/gpu/capture_tma_im2col.cu is written to check it on an H200 (its tables
go to tests/data/hw/tma_im2col.json.gz, not captured yet).  Sources, in this module's words:

- CUDA driver API, cuTensorMapEncodeIm2col (CUDA 13.0 cuda.h): tensorRank 3, 4 or 5 — the tensor is NWC, NHWC or
  NDHWC, dimension 0 the channels C, then W, H, D, and the batch N outermost; globalAddress 16-byte aligned; globalDim
  1..2^32; globalStrides (dimensions 1..rank-1) multiples of 16 below 2^40; pixelBoxLowerCorner / pixelBoxUpperCorner
  one signed value per spatial dimension, in [-2^15, 2^15 - 1] for rank 3, [-2^7, 2^7 - 1] for rank 4 and
  [-2^4, 2^4 - 1] for rank 5, the box of non-zero area; channelsPerPixel at most 256; pixelsPerColumn at most 1024;
  elementStrides 1..8 (dimension 0's ignored without interleave); with a swizzle the channels' bytes
  (channelsPerPixel x element size) at most the swizzle span; the NaN fill only for floating-point types.
- PTX ISA, "Tensors" > "im2col mode" > "Bounding Box": the bounding box lives in the D, H, W space; its lower corner
  is the pixelBoxLowerCorner, its upper corner lies at the tensor's last pixel plus the pixelBoxUpperCorner, so along a
  spatial dimension of extent G the box holds the coordinates lower .. G - 1 + upper; pixelsPerColumn pixels are
  accessed in N, D, H, W space, channelsPerPixel elements along C from each; the instruction's coordinates give the
  channel start and the batch like the tiled mode, and in D, H, W the filter base, which must lie inside the box; the
  instruction's im2col offsets (unsigned: [0, 2^16 - 1], [0, 2^8 - 1], [0, 2^5 - 1] for ranks 3, 4, 5) are added to
  it to find the element accessed.  "Traversal Stride": the stride does not change how many pixels are accessed
  (pixelsPerColumn does); the pixels are stepped by it along D, H and W.
- PTX ISA, "Tensors": the tensor copy treats shared memory as linear; out-of-bound elements are filled.

The model, where the documentation leaves a choice -- each one settled by the H200 capture of 2026-12-05
(tools/gpu/capture_tma_im2col.cu, tests/data/hw/tma_im2col.json.gz: 4,471 placements reproduced byte for byte):
- traversal: the pixels follow the box in W, H, D, N order from the filter base: W grows by elementStrides[W]; past
  the box's upper W it restarts at the box's lower W and H grows by elementStrides[H]; past the box's upper H, H
  restarts at its lower corner and D grows (rank 5); past the last spatial dimension's upper corner the batch grows by
  elementStrides[N].  The documentation strides D, H and W only; the model first stepped the batch by one, and the
  capture showed the hardware steps it by its element stride too (a batch of 0 then 2 with elementStrides[N] = 2).
  Pixel k reads the element at its position plus the offsets;
- a pixel, or a channel, outside the tensor (a coordinate below 0 or at / past its extent; a batch past N) is filled
  as a tiled load fills: zeros, or with the NaN request the pattern 0x7FF7 repeated (tma.NAN_FILL_UNIT);
- shared memory: pixel k is row k, of channelsPerPixel elements, rows at the tiled mode's pitch (the swizzle span, or
  the channels' bytes without one), then the tiled mode's absolute-address swizzle (tma.swizzle_address);
- the 16-byte rules the tiled mode's hardware shows: the channels' bytes a multiple of 16 (an encode refusal; the
  driver's text states it for boxDim[0] of a tiled map only), the channel start's byte offset a multiple of 16 and a
  128-byte aligned destination (copy refusals);
- the transaction counts pixelsPerColumn x channelsPerPixel elements, out-of-bounds ones included.
Not modelled: the interleaved layouts, the packed sub-byte types, the sm_100 swizzles (_ATOM_*), the im2col::w modes
(cuTensorMapEncodeIm2colWide), a filter base outside the box (the documentation forbids it; its effect is unknown).
"""
from __future__ import annotations

from dataclasses import dataclass

from .tma import (DATA_TYPE_BYTES, DIM_LIMIT, ELEMENT_STRIDE_LIMIT, GLOBAL_ALIGN, INNER_ALIGN, NAN_FILL_UNIT,
                  ND_FLOAT_TYPES, SMEM_ALIGN, STRIDE_LIMIT, TmaSwizzle, WriteND, swizzle_address)

SECTION = ("CUDA driver API cuTensorMapEncodeIm2col; PTX ISA, Tensors > im2col mode (Bounding Box, Traversal "
           "Stride)")
IM2COL_RANKS = (3, 4, 5)
SPATIAL_NAMES = ("W", "H", "D")                      # the spatial dimensions, innermost first (dimensions 1..)
# rank -> the corners' bound: a corner lies in [-bound, bound - 1] (driver API; PTX ISA, Bounding Box table)
CORNER_BOUND = {3: 1 << 15, 4: 1 << 7, 5: 1 << 4}
# rank -> the im2col offsets' bound: an offset lies in [0, bound - 1] (PTX ISA, im2col offsets table)
OFFSET_BOUND = {3: 1 << 16, 4: 1 << 8, 5: 1 << 5}
CHANNELS_LIMIT = 256                 # channelsPerPixel
PIXELS_LIMIT = 1024                  # pixelsPerColumn
IM2COL_NOTE = ("the im2col model is written from the driver API's and the PTX ISA's documentation and reproduces an "
               "H200 capture of 4,471 placements and every encoding rule (tools/gpu/capture_tma_im2col.cu); "
               "interleaved layouts, sub-byte types and the sm_100 swizzles are not modelled")
MODELLED_SWIZZLES = (TmaSwizzle.NONE, TmaSwizzle.B32, TmaSwizzle.B64, TmaSwizzle.B128)
# the element types of the model: the byte-sized CUtensorMapDataType names -> bytes
IM2COL_TYPE_BYTES = {**DATA_TYPE_BYTES, "float32_ftz": 4, "tfloat32_ftz": 4}


class Im2colUnmodelled(ValueError):
    """Parameters the im2col model does not cover (the message says which and why)."""


@dataclass(frozen=True)
class Im2colMap:
    """The parameters of cuTensorMapEncodeIm2col (interleave NONE), every tuple dimension 0 first: C, W[, H[, D]], N
    for the tensor, W first for the corners."""
    dtype: str                                # CUtensorMapDataType by name (IM2COL_TYPE_BYTES)
    global_dim: tuple[int, ...]               # globalDim, elements
    global_strides: tuple[int, ...]           # globalStrides, bytes, of dimensions 1..rank-1
    lower_corner: tuple[int, ...]             # pixelBoxLowerCorner, one per spatial dimension, W first
    upper_corner: tuple[int, ...]             # pixelBoxUpperCorner, likewise
    channels_per_pixel: int
    pixels_per_column: int
    element_strides: tuple[int, ...] = ()     # elementStrides (traversal strides); () for all ones
    swizzle: TmaSwizzle = TmaSwizzle.NONE
    oob_nan: bool = False                     # CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
    global_address: int = 0

    def __post_init__(self) -> None:
        if self.dtype not in IM2COL_TYPE_BYTES:
            raise Im2colUnmodelled(f"the im2col model covers the byte-sized element types, not {self.dtype!r}")
        if self.swizzle not in MODELLED_SWIZZLES:
            raise Im2colUnmodelled(f"the {self.swizzle.value} swizzle (sm_100) is not modelled for im2col loads")
        rank = self.rank
        spatial = max(rank - 2, 0)
        if len(self.global_strides) != max(rank - 1, 0) or len(self.lower_corner) != spatial \
                or len(self.upper_corner) != spatial or len(self.element_strides) not in (0, rank):
            raise ValueError(f"a rank-{rank} im2col map needs {max(rank - 1, 0)} globalStrides, {spatial} values of "
                             f"each corner and {rank} elementStrides")

    @property
    def rank(self) -> int:
        return len(self.global_dim)

    @property
    def spatial(self) -> int:
        """Spatial dimensions (W, H, D): rank - 2."""
        return self.rank - 2

    @property
    def elem_bytes(self) -> int:
        return IM2COL_TYPE_BYTES[self.dtype]

    @property
    def traversal(self) -> tuple[int, ...]:
        """elementStrides, all ones when not given."""
        return self.element_strides or (1,) * self.rank

    @property
    def channel_bytes(self) -> int:
        """Bytes of one pixel's channels: channelsPerPixel x the element size."""
        return self.channels_per_pixel * self.elem_bytes

    @property
    def row_pitch(self) -> int:
        """Bytes between pixel rows in shared memory: the swizzle span, or the channels' bytes without one."""
        return self.swizzle.span or self.channel_bytes

    @property
    def footprint(self) -> int:
        """Bytes from the destination the pixels span in shared memory."""
        return self.pixels_per_column * self.row_pitch

    def box_upper(self, i: int) -> int:
        """The bounding box's largest coordinate along spatial dimension i (0: W): G - 1 + upper corner."""
        return self.global_dim[1 + i] - 1 + self.upper_corner[i]

    def box_extent(self, i: int) -> int:
        """Coordinates the box holds along spatial dimension i: G + upper - lower (may be <= 0: refused)."""
        return self.box_upper(i) - self.lower_corner[i] + 1


def encode_refusal_im2col(t: Im2colMap) -> str | None:
    """The rule cuTensorMapEncodeIm2col refuses the parameters with (CUDA_ERROR_INVALID_VALUE), or None (the driver
    API's rules; the channels' 16-byte rule is the tiled mode's, see the module docstring)."""
    if t.rank not in IM2COL_RANKS:
        return f"tensorRank must be 3, 4 or 5 for an im2col tensor map, not {t.rank}"
    if t.global_address % GLOBAL_ALIGN:
        return f"the global address must be {GLOBAL_ALIGN}-byte aligned"
    for i, d in enumerate(t.global_dim):
        if not 0 < d <= DIM_LIMIT:
            return f"globalDim[{i}] must be in 1..2^32, not {d}"
    for i, s in enumerate(t.global_strides):
        if s % GLOBAL_ALIGN or not 0 < s < STRIDE_LIMIT:
            return f"globalStrides[{i}] must be a multiple of {GLOBAL_ALIGN} below 2^40, not {s}"
    bound = CORNER_BOUND[t.rank]
    for name, corner in (("pixelBoxLowerCorner", t.lower_corner), ("pixelBoxUpperCorner", t.upper_corner)):
        for i, v in enumerate(corner):
            if not -bound <= v < bound:
                return (f"{name} {SPATIAL_NAMES[i]} must be in [{-bound}, {bound - 1}] for rank {t.rank}, not {v}")
    for i in range(t.spatial):
        if t.box_extent(i) < 1:
            return (f"the bounding box is empty along {SPATIAL_NAMES[i]}: {t.global_dim[1 + i]} + upper "
                    f"{t.upper_corner[i]} - lower {t.lower_corner[i]} = {t.box_extent(i)} coordinates")
    if not 0 < t.channels_per_pixel <= CHANNELS_LIMIT:
        return f"channelsPerPixel must be in 1..{CHANNELS_LIMIT}, not {t.channels_per_pixel}"
    if not 0 < t.pixels_per_column <= PIXELS_LIMIT:
        return f"pixelsPerColumn must be in 1..{PIXELS_LIMIT}, not {t.pixels_per_column}"
    if t.channel_bytes % INNER_ALIGN:
        return (f"channelsPerPixel x elementSize = {t.channel_bytes} bytes must be a multiple of {INNER_ALIGN} (the "
                "tiled mode's rule for the box's inner dimension)")
    if t.swizzle.span and t.channel_bytes > t.swizzle.span:
        return f"the pixel's channels, {t.channel_bytes} bytes, exceed the {t.swizzle.value} swizzle span"
    for i, s in enumerate(t.traversal):
        if not 0 < s <= ELEMENT_STRIDE_LIMIT:
            return f"elementStrides[{i}] must be in 1..{ELEMENT_STRIDE_LIMIT}, not {s}"
    if t.oob_nan and t.dtype not in ND_FLOAT_TYPES:
        return "the NaN out-of-bounds fill needs a floating-point data type"
    return None


def copy_refusal_im2col(t: Im2colMap, start: tuple[int, ...], offsets: tuple[int, ...], dst: int) -> str | None:
    """What the copy refuses, or None: the offsets' documented range, a filter base outside the bounding box (the
    PTX ISA requires it inside), the destination's alignment and the channel start's 16-byte rule (the tiled mode's,
    observed on the H200)."""
    _check_arity(t, start, offsets)
    bound = OFFSET_BOUND[t.rank]
    for i, o in enumerate(offsets):
        if not 0 <= o < bound:
            return (f"the im2col offset along {SPATIAL_NAMES[i]} must be in [0, {bound - 1}] for a rank-{t.rank} copy "
                    f"(PTX ISA, im2col mode), not {o}")
    outside = base_outside_box(t, start)
    if outside:
        return outside
    if dst % SMEM_ALIGN:
        return f"the shared-memory destination {dst:#x} is not {SMEM_ALIGN}-byte aligned (misaligned address)"
    if (start[0] * t.elem_bytes) % INNER_ALIGN:
        return (f"the channel start's byte offset, {start[0]} x {t.elem_bytes} = {start[0] * t.elem_bytes}, is not a "
                f"multiple of {INNER_ALIGN} (the tiled mode traps there)")
    return None


def base_outside_box(t: Im2colMap, start: tuple[int, ...]) -> str | None:
    """Why the filter base (the start's D, H, W) lies outside the bounding box, or None: the PTX ISA requires it
    inside and says nothing of what the copy does otherwise."""
    for i in range(t.spatial):
        c = start[1 + i]
        if not t.lower_corner[i] <= c <= t.box_upper(i):
            return (f"the filter base {SPATIAL_NAMES[i]} = {c} lies outside the bounding box "
                    f"[{t.lower_corner[i]}, {t.box_upper(i)}] (PTX ISA, im2col mode: it must lie inside)")
    return None


def _check_arity(t: Im2colMap, start: tuple[int, ...], offsets: tuple[int, ...]) -> None:
    if t.rank not in IM2COL_RANKS:
        raise ValueError(f"an im2col copy has rank 3, 4 or 5, not {t.rank}")
    if len(start) != t.rank or len(offsets) != t.spatial:
        raise ValueError(f"a rank-{t.rank} im2col copy takes {t.rank} coordinates and {t.spatial} offsets, not "
                         f"{len(start)} and {len(offsets)}")


@dataclass(frozen=True)
class Pixel:
    """One pixel of the column: its traversal position (inside the box) and the element it reads."""
    index: int                          # k: the shared row
    position: tuple[int, ...]           # traversal position: W, H, D (spatial, W first), then the batch
    coord: tuple[int, ...]              # the pixel read: position plus the im2col offsets, W first, batch last

    def inside(self, t: Im2colMap) -> bool:
        """Whether the pixel lies in the tensor (every spatial coordinate and the batch)."""
        return all(0 <= c < d for c, d in zip(self.coord, t.global_dim[1:]))


def pixels(t: Im2colMap, start: tuple[int, ...], offsets: tuple[int, ...]) -> list[Pixel]:
    """The pixelsPerColumn pixels one copy reads, in shared-row order (module docstring, traversal)."""
    _check_arity(t, start, offsets)
    pos = list(start[1:t.rank - 1])
    batch = start[t.rank - 1]
    strides = t.traversal[1:t.rank - 1]
    batch_stride = t.traversal[t.rank - 1]      # captured: the batch steps by its element stride too
    out = []
    for k in range(t.pixels_per_column):
        coord = tuple(p + o for p, o in zip(pos, offsets)) + (batch,)
        out.append(Pixel(k, tuple(pos) + (batch,), coord))
        for i in range(t.spatial):           # W first; a dimension past its box restarts and carries into the next
            pos[i] += strides[i]
            if pos[i] <= t.box_upper(i):
                break
            pos[i] = t.lower_corner[i]
        else:
            batch += batch_stride
    return out


def smem_address_im2col(t: Im2colMap, dst: int, pixel: int, channel: int, byte: int = 0) -> int:
    """The absolute shared address receiving byte `byte` of channel `channel` (from the channel start) of pixel
    `pixel` (the row)."""
    return int(swizzle_address(t.swizzle, dst + pixel * t.row_pitch + channel * t.elem_bytes + byte))


@dataclass(frozen=True)
class ElementWrite:
    """One element a copy writes to shared memory: its first byte's absolute address (an element never straddles a
    16-byte chunk, so its bytes follow it through the swizzle) and the global element, None for the fill."""
    addr: int
    coord: tuple[int, ...] | None       # c, w[, h[, d]], n


def placement_elements(t: Im2colMap, start: tuple[int, ...], offsets: tuple[int, ...],
                       dst: int) -> list[ElementWrite]:
    """Every element one copy writes, pixel by pixel, channel by channel."""
    out = []
    for px in pixels(t, start, offsets):
        inside = px.inside(t)
        for j in range(t.channels_per_pixel):
            c = start[0] + j
            coord = (c,) + px.coord if inside and 0 <= c < t.global_dim[0] else None
            out.append(ElementWrite(smem_address_im2col(t, dst, px.index, j), coord))
    return out


def placement_im2col(t: Im2colMap, start: tuple[int, ...], offsets: tuple[int, ...], dst: int) -> list[WriteND]:
    """Every shared byte one copy writes, pixel by pixel, channel by channel, byte by byte; a write's coord is the
    global element (dimension 0 first: c, w[, h[, d]], n), None for the fill (zeros, or the NaN pattern)."""
    out = []
    for w in placement_elements(t, start, offsets, dst):
        for b in range(t.elem_bytes):
            if w.coord is not None:
                out.append(WriteND(w.addr + b, w.coord, b))
            else:
                out.append(WriteND(w.addr + b, None, b, NAN_FILL_UNIT[b % 2] if t.oob_nan else 0))
    return out


def tx_bytes_im2col(t: Im2colMap) -> int:
    """The mbarrier transaction count of one copy: pixelsPerColumn x channelsPerPixel elements."""
    return t.pixels_per_column * t.channel_bytes


def global_offset_im2col(t: Im2colMap, coord: tuple[int, ...], byte: int = 0) -> int:
    """The byte offset from the tensor's address of byte `byte` of the element at coord (c, w[, h[, d]], n)."""
    return coord[0] * t.elem_bytes + sum(c * s for c, s in zip(coord[1:], t.global_strides)) + byte
