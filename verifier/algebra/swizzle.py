"""Swizzle<B,M,S>, CuTe's MixedBits, and ComposedLayout (A o offset o B) with swizzle-aware slicing.

A Swizzle XORs the B bits at position M+S into the B bits at position M (for S > 0; a negative S
shifts the other way).  Shared-memory layouts are `Sw<B,M,S> o _0 o L`.  When CuTe partitions such a
layout per thread it tries to "decay" the swizzle into a plain layout with run-time strides; which
strides become run-time values changes later layouts (make_fragment_like orders them last), so the
decay is reproduced here exactly, MixedBits included.
"""
from __future__ import annotations

from typing import TypeVar, Union, cast, overload

from .inttuple import (AlgebraError, Coord, Dyn, IntTuple, Underscore, dice_tuple, fmt, idx2crd,
                       is_int, is_static, is_tuple, is_underscore, slice_tuple)
from .layout import Layout

T = TypeVar("T")
# A swizzle offset: an int (static, or a Dyn), or one whose bits are partly known statically.
Bits = Union[int, "MixedBits"]
# The offset of a composed layout: Bits, or an unset shared-memory pointer (offset 0 with an element width).
Offset = Union[int, "MixedBits", "SmemPtrFlag"]


@overload
def _shiftr(x: int, s: int) -> int: ...
@overload
def _shiftr(x: Bits, s: int) -> Bits: ...


def _shiftr(x: Bits, s: int) -> Bits:
    if isinstance(x, MixedBits):
        return x >> s if s >= 0 else x << -s
    return x >> s if s >= 0 else x << -s


class Swizzle:
    """Swizzle<B,M,S>: offset ^ ((offset & yyy_msk) >> S)."""

    __slots__ = ("B", "M", "S")

    def __init__(self, B: int, M: int, S: int) -> None:
        if M < 0:
            raise AlgebraError("MBase must be positive.")
        if B < 0:
            raise AlgebraError("BBits must be positive.")
        if abs(S) < B:
            raise AlgebraError("abs(SShift) must be more than BBits.")
        self.B, self.M, self.S = B, M, S

    @property
    def bit_msk(self) -> int:
        return (1 << self.B) - 1

    @property
    def yyy_msk(self) -> int:
        return self.bit_msk << (self.M + max(0, self.S))

    @property
    def zzz_msk(self) -> int:
        return self.bit_msk << (self.M - min(0, self.S))

    @property
    def swizzle_code(self) -> int:
        return self.yyy_msk | self.zzz_msk

    @overload
    def __call__(self, offset: int) -> int: ...
    @overload
    def __call__(self, offset: Bits) -> Bits: ...

    def __call__(self, offset: Bits) -> Bits:
        return offset ^ _shiftr(offset & self.yyy_msk, self.S)

    def domain(self) -> int:
        """Size of the smallest domain that contains every bit the swizzle reads or writes."""
        return 1 << (self.B + self.M + abs(self.S))

    def values(self) -> list[int]:
        return [int(self(i)) for i in range(self.domain())]

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Swizzle) and (self.B, self.M, self.S) == (other.B, other.M, other.S)

    def __hash__(self) -> int:
        return hash(("Sw", self.B, self.M, self.S))

    def __str__(self) -> str:
        return f"Sw<{self.B},{self.M},{self.S}>"

    __repr__ = __str__


def _popcount(x: int) -> int:
    return bin(x).count("1")


def _countr_zero(x: int) -> int:
    return 32 if x == 0 else (x & -x).bit_length() - 1


def make_swizzle(y: int, z: int) -> Swizzle:
    """The swizzle whose Y (source) and Z (target) bit masks are y and z (CuTe's make_swizzle<Y,Z>)."""
    bz, by = _popcount(y), _popcount(z)
    if bz != by:
        raise AlgebraError("Number of bits in Y and Z don't match")
    tzy, tzz = _countr_zero(y), _countr_zero(z)
    m = min(tzy, tzz) % 32
    s = tzy - tzz
    sw = Swizzle(bz, m, s)
    if (y | z) != sw.swizzle_code:
        raise AlgebraError("make_swizzle: the masks are not a single swizzle", f"Y={y:#x} Z={z:#x}")
    return sw


def compose_swizzles(a: Swizzle, b: Swizzle) -> Swizzle:
    if a.S != b.S:
        raise AlgebraError("Can only merge swizzles of the same shift.")
    return make_swizzle(a.yyy_msk ^ b.yyy_msk, a.zzz_msk ^ b.zzz_msk)


def _log2(n: int) -> int:
    if n <= 0 or n & (n - 1):
        raise AlgebraError("N must be a power of two", str(n))
    return n.bit_length() - 1


def upcast_swizzle(sw: Swizzle, n: int) -> Swizzle:
    new_m = sw.M - _log2(n)
    if new_m >= 0:
        return Swizzle(sw.B, new_m, sw.S)
    return Swizzle(max(sw.B + new_m, 0), 0, sw.S)


def downcast_swizzle(sw: Swizzle, n: int) -> Swizzle:
    return Swizzle(sw.B, sw.M + _log2(n), sw.S)


# --- MixedBits: an offset with some bits known statically and some only at run time ------------

class MixedBits:
    """StaticInt | (dynamic & Flags): CuTe tracks which bits of a swizzle offset are known statically."""

    __slots__ = ("s", "f", "d")

    def __init__(self, s: int, f: int, d: int) -> None:
        self.s, self.f, self.d = s, f, int(d) & f

    def __int__(self) -> int:
        return self.s | self.d

    def __index__(self) -> int:
        return int(self)

    def __and__(self, o: Bits) -> Bits:
        if isinstance(o, MixedBits):
            return make_mixed_bits(self.s & o.s,
                                   ((o.s & self.f) & self.d) | ((self.s & o.f) & o.d) | (self.d & o.d),
                                   (o.s & self.f) | (self.s & o.f) | (self.f & o.f), dynamic=True)
        if isinstance(o, Dyn):
            return Dyn(int(self) & int(o))
        return make_mixed_bits(self.s & o, self.d, self.f & o, dynamic=True)

    __rand__ = __and__

    def __or__(self, o: Bits) -> Bits:
        if isinstance(o, MixedBits):
            return make_mixed_bits(self.s | o.s, ((~o.s & self.f) & self.d) | ((~self.s & o.f) & o.d),
                                   (~self.s & o.f) | (~o.s & self.f), dynamic=True)
        if isinstance(o, Dyn):
            return Dyn(int(self) | int(o))
        return make_mixed_bits(self.s | o, self.d, self.f & ~o, dynamic=True)

    __ror__ = __or__

    def __xor__(self, o: Bits) -> Bits:
        if isinstance(o, MixedBits):
            return make_mixed_bits((~self.s & o.s & ~self.f) | (self.s & ~o.s & ~o.f),
                                   (self.s | self.d) ^ (o.s | o.d), self.f | o.f, dynamic=True)
        if isinstance(o, Dyn):
            return Dyn(int(self) ^ int(o))
        return make_mixed_bits((~self.s & o & ~self.f) | (self.s & ~o), (self.s | self.d) ^ o, self.f,
                               dynamic=True)

    __rxor__ = __xor__

    def __lshift__(self, n: int) -> Bits:
        return make_mixed_bits(self.s << n, self.d << n, self.f << n, dynamic=True)

    def __rshift__(self, n: int) -> Bits:
        return make_mixed_bits(self.s >> n, self.d >> n, self.f >> n, dynamic=True)

    def __add__(self, o: Bits) -> Dyn:
        return Dyn(int(self) + int(o))

    __radd__ = __add__

    def __neg__(self) -> Dyn:
        return Dyn(-int(self))

    def __eq__(self, o: object) -> bool:
        return isinstance(o, (int, MixedBits)) and int(self) == int(o)  # a run-time comparison

    def __hash__(self) -> int:
        return hash(int(self))

    def __str__(self) -> str:
        return f"M_{self.s}|({self.d}&{self.f})={int(self)}"

    __repr__ = __str__


def make_mixed_bits(s: int, d: int, f: int, dynamic: bool | None = None) -> Bits:
    """C<s> | (d & C<f>), as a static int when no flagged bit is left, else MixedBits."""
    if dynamic is None:
        dynamic = not is_static(d)
    new_f = f & ~s
    if new_f == 0 or not dynamic:
        return s | (int(d) & new_f)
    return MixedBits(s, new_f, int(d) & new_f)


def to_mixed_bits(shape: IntTuple, stride: IntTuple, coord: IntTuple) -> Bits:
    if is_tuple(shape):
        acc: Bits = 0
        for s, d, c in zip(shape, stride, coord):
            acc = acc ^ to_mixed_bits(s, d, c)
        return acc
    span = int(shape) * int(stride)
    if span != 0 and span & (span - 1):
        raise AlgebraError("Requires pow2 shape*stride.", f"{int(shape)}*{int(stride)}")
    return make_mixed_bits(0, coord * stride, (int(shape) - 1) * int(stride))


# --- ComposedLayout ---------------------------------------------------------------------------

class SmemPtrFlag:
    """CuTe's smem_ptr_flag_bits<B>: an unset shared-memory pointer of B-bit elements (offset 0)."""

    __slots__ = ("bits",)

    def __init__(self, bits: int) -> None:
        self.bits = bits

    def __int__(self) -> int:
        return 0

    def __add__(self, o: T) -> T:
        return o

    __radd__ = __add__

    def __str__(self) -> str:
        return f"smem_ptr[{self.bits}b](unset)"

    def __eq__(self, o: object) -> bool:
        return isinstance(o, SmemPtrFlag) and o.bits == self.bits

    def __hash__(self) -> int:
        return hash(("smem", self.bits))


def _fmt_offset(o: Offset) -> str:
    if isinstance(o, (MixedBits, SmemPtrFlag)):
        return str(o)
    return fmt(o)


class ComposedLayout:
    """A o offset o B: the inner layout B gives the domain; A (a Swizzle or a Layout) maps the result.

    B is typed a plain Layout, which is what the port slices, divides and recasts.  As in CuTe it may itself be
    composed: `functions.composition` of a composed layout with a swizzled right side nests one there (the one
    place that does, see there), which the port evaluates and prints but does not otherwise handle."""

    __slots__ = ("a", "offset", "b", "text")

    def __init__(self, a: Swizzle | Layout, offset: Offset, b: Layout) -> None:
        self.a, self.offset, self.b = a, offset, b
        self.text: str | None = None     # its print, made when first needed (a composed layout is never changed)

    @property
    def shape(self) -> IntTuple:
        return self.b.shape

    def size(self) -> int:
        return self.b.size()

    def cosize(self) -> int:
        return self.b.cosize()

    def rank(self) -> int:
        return self.b.rank()

    def depth(self) -> int:
        return self.b.depth()

    @overload
    def __call__(self, coord: int, /) -> int: ...
    @overload
    def __call__(self, *coord: Coord) -> Layout | ComposedLayout | int: ...

    def __call__(self, *coord: Coord) -> Layout | ComposedLayout | int:
        """The offset of a coordinate (or 1-D index); the sliced layout when the coordinate holds `_`."""
        c = coord[0] if len(coord) == 1 else tuple(coord)
        from .inttuple import has_underscore
        if has_underscore(c):
            return self.slice(c)
        inner = cast(int, self.b(c))   # the coordinate holds no `_`: B gives an offset
        return self.a(_add_offset(self.offset, inner))

    def slice(self, coord: Coord) -> Layout | ComposedLayout:
        """layout(coord) for a coordinate holding `_`: the sliced layout (a swizzle decays where CuTe's does)."""
        return self.slice_and_offset(coord)[0]

    def values(self) -> list[int]:
        return [int(self(i)) for i in range(int(self.size()))]

    def mode(self, *idx: int) -> "ComposedLayout":
        return ComposedLayout(self.a, self.offset, self.b.mode(*idx))

    def modes(self) -> list["ComposedLayout"]:
        return [self.mode(i) for i in range(self.rank())]

    def with_inner(self, b: Layout) -> Layout | ComposedLayout:
        return compose3(self.a, self.offset, b)

    def slice_and_offset(self, coord: Coord) -> tuple[Layout | ComposedLayout, int]:
        if isinstance(self.a, Swizzle) and isinstance(self.offset, SmemPtrFlag):
            sliced, off = self.b.slice_and_offset(coord)
            if is_int(off) and is_static(off) and int(off) == 0:
                return ComposedLayout(self.a, self.offset, sliced), 0
            return ComposedLayout(self.a, off, sliced), 0
        if isinstance(self.a, Swizzle):
            return _swizzle_slice_and_offset(coord, self.a, self)
        sliced, off = self.b.slice_and_offset(coord)
        return ComposedLayout(self.a, _add_offset(self.offset, off), sliced), 0

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ComposedLayout) and str(self) == str(other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __str__(self) -> str:
        # its equality and hash are its print's: a group's key, holding a swizzled layout, is hashed at every lookup
        if self.text is None:
            self.text = f"{self.a} o {_fmt_offset(self.offset)} o {self.b}"
        return self.text

    def __repr__(self) -> str:
        return f"ComposedLayout({self})"


def _add_offset(offset: Offset, x: int) -> int:
    if isinstance(offset, SmemPtrFlag):
        return x
    if isinstance(offset, MixedBits):
        return offset + x
    return offset + x


@overload
def compose3(a: Layout, offset: Offset, b: Layout) -> ComposedLayout: ...
@overload
def compose3(a: Swizzle | Layout, offset: SmemPtrFlag, b: Layout) -> ComposedLayout: ...
@overload
def compose3(a: Swizzle | Layout, offset: Offset, b: Layout) -> Layout | ComposedLayout: ...


def compose3(a: Swizzle | Layout, offset: Offset, b: Layout) -> Layout | ComposedLayout:
    """composition(A, offset, B): the identity swizzle with a static 0 offset is dropped, as in CuTe."""
    if isinstance(a, Swizzle) and a.B == 0 and is_int(offset) and is_static(offset) and int(offset) == 0:
        return b
    return ComposedLayout(a, offset, b)


def _all_underscore(c: Coord) -> bool:
    if is_tuple(c):
        return all(_all_underscore(e) for e in c)
    return is_underscore(c)


def _swizzle_slice_and_offset(coord: Coord, sw: Swizzle, cl: ComposedLayout) -> tuple[Layout | ComposedLayout, int]:
    """cl.slice_and_offset(coord) for cl = sw o offset o B: the swizzle decayed into strides where CuTe can."""
    from .ops import compose_layouts
    B, M, S = sw.B, sw.M, sw.S
    if _all_underscore(coord):
        return compose3(sw, cl.offset, Layout(slice_tuple(coord, cl.b.shape), slice_tuple(coord, cl.b.stride))), 0
    proj_shape = (1 << M, 1 << B, 1 << (abs(S) - B), 1 << B, 1)
    proj = Layout(proj_shape)
    pst = proj.stride
    swizzle_anti_zy = Layout(proj_shape, (pst[0], 0, pst[2], 0, proj.size()))
    swizzle_only_zy = Layout(proj_shape, (0, pst[1], 0, pst[3], 0))
    sliced = Layout(slice_tuple(coord, cl.b.shape), slice_tuple(coord, cl.b.stride))
    diced = Layout(dice_tuple(coord, cl.b.shape), dice_tuple(coord, cl.b.stride))
    diced_coord = dice_tuple(coord, coord)
    diced_anti = compose_layouts(swizzle_anti_zy, diced)
    diced_only = compose_layouts(swizzle_only_zy, diced)
    offset = cl.offset
    mb = to_mixed_bits(diced_only.shape, diced_only.stride, idx2crd(diced_coord, diced_only.shape))
    offset_only_zy = _xor(offset, mb)
    offset_anti_zy = diced_anti(diced_coord)
    sliced_only = compose_layouts(swizzle_only_zy, sliced)
    active = int(sliced_only(sliced_only.size() - 1))
    if active & ~int(sw(active)):
        # the remaining layout hits both a Y bit and its Z bit: the swizzle cannot be decayed
        return ComposedLayout(sw, offset_only_zy, sliced), offset_anti_zy
    Z = sw.zzz_msk & -sw.zzz_msk
    Y = sw.yyy_msk & -sw.yyy_msk
    stride_lo = _swizzle_strides(Z < Y, Z, Y, offset_only_zy, B)
    stride_hi = _swizzle_strides(Z > Y, Z, Y, offset_only_zy, B)
    flat_shape = (1 << M,) + (2,) * B + (1 << (abs(S) - B),) + (2,) * B + (1,)
    flat_stride = (1,) + stride_lo + (1 << (M + B),) + stride_hi + (1 << (M + B + abs(S)),)
    decayed = compose_layouts(Layout(flat_shape, flat_stride), sliced)
    return decayed, _add_offset(sw(offset_only_zy), offset_anti_zy)


def _xor(a: Offset, b: Bits) -> Bits:
    if isinstance(a, SmemPtrFlag):
        a = 0
    return a ^ b


def _swizzle_strides(z_below_y: bool, Z: int, Y: int, offset: Bits, B: int) -> tuple[int, ...]:
    """CuTe's make_swizzle_strides: each stride is static when the offset bit it depends on is static."""
    out: list[int] = []
    for i in range(B):
        if z_below_y:
            probe, if_zero, if_one = Y << i, Z << i, -(Z << i)
        else:
            probe, if_zero, if_one = Z << i, (Y + Z) << i, (Y - Z) << i
        bit = offset & probe
        if isinstance(bit, (MixedBits, Dyn)):
            out.append(Dyn(if_zero if int(bit) == 0 else if_one))
        else:
            out.append(if_zero if int(bit) == 0 else if_one)
    return tuple(out)


def swizzle_of(layout: object) -> Swizzle | None:
    if isinstance(layout, ComposedLayout) and isinstance(layout.a, Swizzle):
        return layout.a
    return None


__all__ = ["Swizzle", "ComposedLayout", "MixedBits", "SmemPtrFlag", "make_swizzle", "compose_swizzles",
           "upcast_swizzle", "downcast_swizzle", "compose3", "to_mixed_bits", "make_mixed_bits", "Underscore"]


def first_stage(layout: Layout | ComposedLayout) -> Layout | ComposedLayout:
    """A (MN, K, PIPE) shared layout's first stage: its first two modes (a layout of rank 2 or less as it is)."""
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    if not isinstance(inner, Layout) or inner.rank() <= 2:
        return layout
    sliced = Layout((inner.shape[0], inner.shape[1]), (inner.stride[0], inner.stride[1]))
    if isinstance(layout, ComposedLayout):
        return ComposedLayout(layout.a, layout.offset, sliced)
    return sliced


def require_nonnegative_strides(layout: Layout | ComposedLayout, what: str) -> None:
    """PortLimit when `layout` has a negative stride: CuTe allows them (offsets below the tensor's pointer), the
    prover's shared-memory model does not (yet) — unsupported, never a refutation."""
    from .inttuple import PortLimit, flatten_to_tuple
    inner = layout.b if isinstance(layout, ComposedLayout) else layout
    if not isinstance(inner, Layout):
        return
    negative = [int(d) for d in flatten_to_tuple(inner.stride) if isinstance(d, int) and d < 0]
    if negative:
        raise PortLimit(f"{what} {inner} has a negative stride ({negative[0]}): offsets below the tensor's start are "
                        "not modelled")

