"""Copy atoms and TiledCopy, exactly as CuTe's copy_atom.hpp builds them.

Copy_Traits state the instruction in bits: `src_bits` maps (thread, bit) to the bit position inside
the instruction's internal element numbering; Copy_Atom<Op, T> recasts them to units of T.
"""
from __future__ import annotations

from copy import copy as shallow_copy
from dataclasses import dataclass
from typing import TYPE_CHECKING, overload

from ..algebra import functions as F
from ..algebra.functions import Shaped
from ..algebra.inttuple import AlgebraError, Coord, Dyn, IntTuple, Modes, Underscore, append_n, is_tuple, product_each
from ..algebra.layout import Layout, make_layout
from ..algebra.ops import Tiler, coalesce, right_inverse
from .operand import Operand
from .tensor import Tensor

if TYPE_CHECKING:
    from .mma import TiledMMA


@dataclass(frozen=True)
class CopyAtom:
    """One Copy_Traits: thread ids and the src / dst / ref layouts, (thr, bit) -> bit."""
    name: str
    thr_id: Layout
    src_bits: Layout
    dst_bits: Layout
    ref_bits: Layout
    instruction: str | None = None

    def with_value_bits(self, value_bits: int) -> "TypedCopyAtom":
        return TypedCopyAtom(self, value_bits)


class TypedCopyAtom:
    """Copy_Atom<Op, T>: the traits recast from bits to values of `value_bits` bits."""

    def __init__(self, atom: CopyAtom, value_bits: int) -> None:
        self.atom = atom
        self.value_bits = value_bits
        self.src = F.recast_layout(atom.src_bits, 1, value_bits)   # (thr, val) -> internal value index
        self.dst = F.recast_layout(atom.dst_bits, 1, value_bits)
        self.ref = F.recast_layout(atom.ref_bits, 1, value_bits)
        nthr = int(atom.thr_id.size())
        for which, lay in (("Src", self.src), ("Dst", self.dst), ("Ref", self.ref)):
            if int(lay.mode(0).size()) != nthr:
                raise AlgebraError(f"CopyOperation is not valid for {which} of ValType.",
                                   f"{atom.name} with {value_bits}-bit values: {which} layout {lay} "
                                   f"has {int(lay.mode(0).size())} threads, the atom has {nthr}")

    @property
    def num_val_src(self) -> int:
        return int(self.src.mode(1).size())

    @property
    def num_val_dst(self) -> int:
        return int(self.dst.mode(1).size())

    @property
    def num_thr(self) -> int:
        return int(self.ref.mode(0).size())

    @property
    def num_val(self) -> int:
        return int(self.ref.mode(1).size())

    def executing(self, unread: str) -> "TypedCopyAtom":
        """The atom as a configuration that never reads its `unread` side ("src" or "dst") runs it: that side
        replaced by RefLayout (a load retiles its registers through RefLayout, a store its sources)."""
        out = shallow_copy(self)
        setattr(out, unread, self.ref)
        return out

    def ref_to_src(self) -> Layout:
        """right_inverse(R) o S: source (thr, val) -> reference (thr, val) index."""
        return F.composition(right_inverse(self.ref), self.src)

    def ref_to_dst(self) -> Layout:
        return F.composition(right_inverse(self.ref), self.dst)


def _zip_layout(layout: Layout) -> Layout:
    """Unary zip of a rank-2 layout of rank-2 modes: ((a,b),(c,d)) -> ((a,c),(b,d))."""
    def z(t: IntTuple) -> IntTuple:
        if is_tuple(t) and t and is_tuple(t[0]):
            n = len(t[0])
            if any(not is_tuple(e) or len(e) != n for e in t):
                raise AlgebraError("Mismatched Ranks", "zip")
            return tuple(tuple(e[j] for e in t) for j in range(n))
        if is_tuple(t):
            return (t,)
        return t
    return Layout(z(layout.shape), z(layout.stride))


# TiledCopy's static_asserts on its TV layout against its atom's threads and values (CuTe C++'s words)
TOO_FEW_THREADS = "TiledCopy uses too few thrs for selected CopyAtom"
TOO_FEW_VALUES = "TiledCopy uses too few vals for selected CopyAtom"
TOO_FEW_FOR_ATOM = (TOO_FEW_THREADS, TOO_FEW_VALUES)


class TiledCopy:
    """TiledCopy<Atom, TiledLayout_TV, Tiler_MN>."""

    def __init__(self, atom: TypedCopyAtom, layout_tv: Layout, tiler_mn: Tiler) -> None:
        self.atom = atom
        self.layout_tv = layout_tv          # (tid, vid) -> coordinate in the tile (TiledLayout_TV)
        self.tiler_mn = tiler_mn
        if int(layout_tv.mode(0).size()) % atom.num_thr:
            raise AlgebraError(TOO_FEW_THREADS)
        if int(layout_tv.mode(1).size()) % atom.num_val:
            raise AlgebraError(TOO_FEW_VALUES)

    @property
    def num_threads(self) -> int:
        return int(self.layout_tv.mode(0).size())

    @property
    def num_values(self) -> int:
        return int(self.layout_tv.mode(1).size())

    @overload
    def tile2thrfrg(self, layout: Layout, ref2trg: Layout) -> Layout: ...
    @overload
    def tile2thrfrg(self, layout: Shaped, ref2trg: Layout) -> Shaped: ...

    def tile2thrfrg(self, layout: Shaped, ref2trg: Layout) -> Shaped:
        atom_layout_tv = F.zipped_divide(self.layout_tv, (self.atom.num_thr, self.atom.num_val))
        trg_layout_tv = F.composition(atom_layout_tv, (ref2trg, Underscore))
        thrval_to_mn = coalesce(_zip_layout(trg_layout_tv), (1, (1, 1)))
        tv = F.composition(layout, (thrval_to_mn, Underscore))
        return tv.slice(((Underscore, Underscore), Underscore))

    @overload
    def tidfrg_S(self, layout: Layout) -> Layout: ...
    @overload
    def tidfrg_S(self, layout: Shaped) -> Shaped: ...

    def tidfrg_S(self, layout: Shaped) -> Shaped:
        return self.tile2thrfrg(F.zipped_divide(layout, self.tiler_mn), self.atom.ref_to_src())

    @overload
    def tidfrg_D(self, layout: Layout) -> Layout: ...
    @overload
    def tidfrg_D(self, layout: Shaped) -> Shaped: ...

    def tidfrg_D(self, layout: Shaped) -> Shaped:
        return self.tile2thrfrg(F.zipped_divide(layout, self.tiler_mn), self.atom.ref_to_dst())

    def _ref_tile(self) -> Layout:
        return Layout((self.tiler_shape(), 1))

    def tiler_shape(self) -> IntTuple:
        t = self.tiler_mn
        if isinstance(t, Layout):
            return t.shape
        if is_tuple(t):
            return tuple(x.size() if isinstance(x, Layout) else x for x in t)
        return t

    def layout_S_tv(self) -> Layout:
        """get_layoutS_TV(): F o right_inverse(R) o S, (src thread, src value) -> tile coordinate."""
        return self.tile2thrfrg(self._ref_tile(), self.atom.ref_to_src()).slice((Underscore, Underscore, 0))

    def layout_D_tv(self) -> Layout:
        return self.tile2thrfrg(self._ref_tile(), self.atom.ref_to_dst()).slice((Underscore, Underscore, 0))

    @overload
    def retile(self, layout: Layout) -> Layout: ...
    @overload
    def retile(self, layout: Shaped) -> Shaped: ...

    def retile(self, layout: Shaped) -> Shaped:
        """TiledCopy::retile: view a register fragment as the copy's (value, repeats) layout."""
        r = layout.rank()
        v = int(layout.mode(0).size())
        frg_layout_mn = F.upcast(F.composition(right_inverse(self.layout_tv), Layout(self.tiler_shape())),
                                 self.num_threads * v)
        frg_layout_v = F.zipped_divide(F.logical_product(Layout(v), right_inverse(frg_layout_mn)),
                                       Layout(self.atom.num_val))
        t = F.zipped_divide(layout, (v,) + tuple(_wrap(product_each(frg_layout_mn.shape))))
        vt = F.composition(t, (frg_layout_v, Underscore))
        return vt.slice((Underscore, append_n(0, r, Underscore)))

    # -- per thread ----------------------------------------------------------------------------
    def partition_S(self, tensor: Tensor, thr_idx: int) -> Tensor:
        thr = Tensor(tensor.offset, self.tidfrg_S(tensor.layout))
        return thr.slice((Dyn(thr_idx), Underscore, _repeat(tensor.rank())))

    def partition_D(self, tensor: Tensor, thr_idx: int) -> Tensor:
        thr = Tensor(tensor.offset, self.tidfrg_D(tensor.layout))
        return thr.slice((Dyn(thr_idx), Underscore, _repeat(tensor.rank())))

    def retile_tensor(self, tensor: Tensor) -> Tensor:
        """retile_S / retile_D (they are the same function in CuTe)."""
        return Tensor(tensor.offset, self.retile(tensor.layout))


def _wrap(t: IntTuple) -> Modes:
    return t if is_tuple(t) else (t,)


def _repeat(r: int) -> Coord:
    return Underscore if r == 1 else (Underscore,) * r


def make_tiled_copy_for(atom: TypedCopyAtom, mma: TiledMMA, operand: str) -> TiledCopy:
    """make_tiled_copy_A/B/C(copy_atom, tiled_mma)."""
    op = operand.upper()
    mi, ki = Operand.of(op).modes
    return TiledCopy(atom, mma.get_layout_tv(op), (mma.tile_size(mi), mma.tile_size(ki)))


def make_tiled_copy(atom: TypedCopyAtom, thr_layout: Layout, val_layout: Layout | None = None) -> TiledCopy:
    """make_tiled_copy(copy_atom, thr_layout (m,n)->thr, val_layout (m,n)->val)."""
    if val_layout is None:
        val_layout = Layout(1)
    layout_mn = F.raked_product(thr_layout, val_layout)
    layout_tv = F.composition(right_inverse(layout_mn),
                              Layout((int(thr_layout.size()), int(val_layout.size()))))
    return TiledCopy(atom, layout_tv, product_each(layout_mn.shape))


__all__ = ["CopyAtom", "TypedCopyAtom", "TiledCopy", "make_tiled_copy_for", "make_tiled_copy", "make_layout"]
