"""MMA atoms and TiledMMA, built exactly as CuTe's mma_atom.hpp builds them.

Layout names say what they map: `thrval_to_mk` is the (thread, value) -> m + M*k map of operand A.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, overload

from ..algebra import functions as F
from ..algebra.functions import Shaped
from ..algebra.inttuple import (Dyn, IntTuple, Underscore, append_n, compact_col_major, crd2flat, crd2idx,
                                filter_zeros, get, is_constant, is_static, is_tuple, is_underscore, product, rank)
from ..algebra.layout import Layout, make_layout, make_ordered_layout
from ..algebra.ops import Tiler, complement, right_inverse
from .operand import OPERANDS, Operand
from .tensor import Tensor


@dataclass(frozen=True)
class MMAAtom:
    """One MMA_Traits: the operand layouts map (thread, value) to the operand tile's colex index."""
    name: str
    shape_mnk: tuple[int, int, int]
    thr_id: Layout                       # atom thread index -> thread id
    thrval_to_mk: Layout                 # A: (thr,val) -> m + M*k
    thrval_to_nk: Layout                 # B: (thr,val) -> n + N*k
    thrval_to_mn: Layout                 # C: (thr,val) -> m + M*n
    value_bits: dict[str, int] = field(default_factory=dict)  # a, b, c, d -> bits
    instruction: str | None = None

    def operand_layout(self, operand: str) -> Layout:
        return {"A": self.thrval_to_mk, "B": self.thrval_to_nk, "C": self.thrval_to_mn}[operand.upper()]

    def operand_tile(self, operand: str) -> tuple[int, int]:
        m, n, k = self.shape_mnk
        return Operand.of(operand).pick((m, n, k))

    def operand_bits(self, operand: str) -> int:
        return self.value_bits.get(operand.lower(), 0)


# the extent and layouts an operand's projection of an MMA atom leaves out (never read for that operand)
UNREAD_EXTENT = 0
UNREAD_LAYOUT = Layout(1, 0)


def operand_projection(atom: MMAAtom, operand: str) -> MMAAtom:
    """`atom` as tiled MMAs read it for operand A or B: its extents along the operand's (rows, K), its thread ids,
    the operand's (thr,val) layout and bits; the other operand's extent, the other layouts and the name are not
    the atom's.  make_tiled_mma's thread layout reads the thread ids, and thrfrg, get_layoutX_TV,
    partition_fragment_X and make_tiled_copy_X of the operand read its extents and layout alone (this module,
    cute/copy.py): an A does not depend on N, a B on M."""
    op = operand.upper()
    mi, ki = Operand.of(op).modes
    shape = tuple(atom.shape_mnk[i] if i in (mi, ki) else UNREAD_EXTENT for i in range(3))
    layouts = {o: atom.operand_layout(o) if o == op else UNREAD_LAYOUT for o in ("A", "B", "C")}
    return MMAAtom(f"the {op} side of an MMA atom", (shape[0], shape[1], shape[2]), atom.thr_id, layouts["A"],
                   layouts["B"], layouts["C"], {op.lower(): atom.operand_bits(op)})


def _idx2crd_strided(idx: int, shape: IntTuple, stride: IntTuple) -> IntTuple:
    """CuTe's idx2crd(idx, shape, stride) for compact layouts: (idx / stride) % shape per leaf."""
    if is_tuple(shape):
        return tuple(_idx2crd_strided(idx, s, d) for s, d in zip(shape, stride))
    if is_constant(1, shape):
        return 0
    return (idx // stride) % shape


_THR_VMNK: dict[Layout, dict[int, tuple[int, ...]]] = {}     # TiledMMA.thr_vmnk's answers, by thread layout


class TiledMMA:
    """make_tiled_mma(atom, atom_layout, permutation)."""

    def __init__(self, atom: MMAAtom, atom_layout: Layout | tuple[int, ...] | None = None,
                 permutation: tuple[Tiler, ...] | None = None) -> None:
        self.atom = atom
        if atom_layout is None:
            atom_layout = Layout((1, 1, 1))
        elif not isinstance(atom_layout, Layout):
            atom_layout = Layout(tuple(atom_layout))
        self.atom_layout_mnk = Layout(append_n(atom_layout.shape, 3, 1), append_n(atom_layout.stride, 3, 0))
        perm = tuple(permutation) if permutation is not None else ()
        self.permutation = perm + (Underscore,) * (3 - len(perm))
        self.thr_layout_vmnk = F.tiled_product(atom.thr_id, self.atom_layout_mnk)
        # thread index -> thr_vmnk: a pure function of the thread layout, shared by the tiled MMAs that have it
        self._thr_vmnk = _THR_VMNK.setdefault(self.thr_layout_vmnk, {})

    # -- sizes -----------------------------------------------------------------------------
    def permutation_mnk(self, i: int) -> Tiler:
        p = self.permutation[i]
        if is_underscore(p):
            return self.atom.shape_mnk[i] * int(self.thr_layout_vmnk.mode(i + 1).size())
        return p

    def tile_size(self, i: int) -> int:
        p = self.permutation_mnk(i)
        return int(p.size()) if isinstance(p, Layout) else int(product(p))

    def tile_mnk(self) -> tuple[int, int, int]:
        return (self.tile_size(0), self.tile_size(1), self.tile_size(2))

    def num_threads(self) -> int:
        return int(self.thr_layout_vmnk.size())

    def _vsize(self, i: int) -> int:
        return int(self.thr_layout_vmnk.mode(i).size())

    # -- thrfrg ------------------------------------------------------------------------------
    @overload
    def _thrfrg(self, layout: Layout, operand: str) -> Layout: ...
    @overload
    def _thrfrg(self, layout: Shaped, operand: str) -> Shaped: ...

    def _thrfrg(self, layout: Shaped, operand: str) -> Shaped:
        mi, ki = Operand.of(operand).modes
        t = F.logical_divide(layout, (self.permutation_mnk(mi), self.permutation_mnk(ki)))
        atom_tile = (Layout(self.atom.shape_mnk[mi]), Layout(self.atom.shape_mnk[ki]))
        atom_tensor = F.zipped_divide(t, atom_tile)                       # ((AtomM,AtomK),(RestM,RestK))
        tv = F.composition(atom_tensor, (self.atom.operand_layout(operand), Underscore))  # ((ThrV,FrgV),Rest)
        thr_tile = (Underscore, (Layout(self._vsize(mi + 1)), Layout(self._vsize(ki + 1))))
        return F.zipped_divide(tv, thr_tile)                               # ((ThrV,(ThrM,ThrK)),(FrgV,Rest))

    @overload
    def thrfrg(self, layout: Layout, operand: str) -> Layout: ...
    @overload
    def thrfrg(self, layout: Shaped, operand: str) -> Shaped: ...

    def thrfrg(self, layout: Shaped, operand: str) -> Shaped:
        return self._thrfrg(layout, operand.upper())

    def _thridx_to_thrid(self) -> Layout:
        vmnk = self.thr_layout_vmnk
        return F.composition(Layout((int(vmnk.size()), 1), (1, 0)),
                             right_inverse(make_layout(vmnk, complement(vmnk))))

    def get_layout_tv(self, operand: str) -> Layout:
        """get_layoutX_TV(): (thread index, value) -> colex index in the (tile_M x tile_K) etc. tile."""
        op = operand.upper()
        mi, ki = Operand.of(op).modes
        ref = Layout((self.tile_size(mi), self.tile_size(ki)))
        tv = self._thrfrg(ref, op)
        if op == "A":
            tile = (Underscore, (Layout((self._vsize(1), self._vsize(2)), (1, 0)), Underscore))
            tv = F.composition(tv, (tile, Underscore))
        elif op == "B":
            tile = (Underscore, (Layout((self._vsize(1), self._vsize(2)), (0, 1)), Underscore))
            tv = F.composition(tv, (tile, Underscore))
        return F.composition(tv, (self._thridx_to_thrid(), Underscore))

    # -- per thread ---------------------------------------------------------------------------
    def thr_vmnk(self, thr_idx: int) -> tuple[int, ...]:
        """get_slice(thr_idx).thr_vmnk_: the flat (v, m, n, k) coordinate of a thread (run-time values)."""
        found = self._thr_vmnk.get(thr_idx)
        if found is None:
            vmnk = self.thr_layout_vmnk
            hier = _idx2crd_strided(Dyn(thr_idx), vmnk.shape, vmnk.stride)
            found = self._thr_vmnk[thr_idx] = tuple(crd2flat(get(hier, i), get(vmnk.shape, i))
                                                    for i in range(vmnk.rank()))
        return found

    def partition(self, tensor: Tensor, operand: str, thr_idx: int) -> Tensor:
        """thr_mma.partition_X(tensor)."""
        return self.partitions(tensor, operand, (thr_idx,))[0]

    def partitions(self, tensor: Tensor, operand: str, thr_indices: Iterable[int]) -> list[Tensor]:
        """thr_mma.partition_X(tensor) of each thread: the thread-value split (thrfrg) made once, sliced per thread."""
        op = operand.upper()
        thr = Tensor(tensor.offset, self._thrfrg(tensor.layout, op))
        r = thr.layout.mode(1, 1).rank()
        rest = (Underscore, Underscore if r == 1 else (Underscore,) * r)
        out: list[Tensor] = []
        pick = Operand.of(op).pick
        plain = thr.layout if isinstance(thr.layout, Layout) else None
        thread_modes = plain.mode(0) if plain is not None else None          # (ThrV,(ThrMN,ThrK))
        if plain is not None and thread_modes is not None and plain.is_static() and thread_modes.rank() == 2 and \
                thread_modes.mode(1).rank() == 2:
            # a static plain layout: a thread's offset is the sum of its three coordinates' offsets (crd2idx is
            # linear over the modes), each read from its mode's table of values; the slice is every thread's
            v_of, mn_of, k_of = (thread_modes.mode(0).values(), thread_modes.mode(1, 0).values(),
                                 thread_modes.mode(1, 1).values())
            for thr_idx in thr_indices:
                v, m, n, k = self.thr_vmnk(thr_idx)
                mn, kk = pick((m, n, k))
                if not out:
                    out.append(thr.slice(((v, (mn, kk)), rest)))
                elif v < len(v_of) and mn < len(mn_of) and kk < len(k_of):
                    out.append(Tensor(thr.offset + v_of[v] + mn_of[mn] + k_of[kk], out[0].layout))
                else:        # a coordinate past its mode: crd2idx's own rule (the last mode takes the rest)
                    out.append(Tensor(thr.offset + crd2idx(((v, (mn, kk)), rest), plain.shape, plain.stride),
                                      out[0].layout))
            return out
        for thr_idx in thr_indices:
            v, m, n, k = self.thr_vmnk(thr_idx)
            coord = ((v, pick((m, n, k))), rest)
            if out and isinstance(thr.layout, Layout):
                # a plain layout's slice keeps the modes under `_`, the same for every thread: only the offset moves
                out.append(Tensor(thr.offset + crd2idx(coord, thr.layout.shape, thr.layout.stride), out[0].layout))
            else:
                out.append(thr.slice(coord))
        return out

    def partition_fragment(self, tensor: Tensor, operand: str, thr_idx: int) -> Tensor:
        """thr_mma.partition_fragment_X(tensor): the register fragment (offsets are register indices)."""
        part = self.partition(tensor, operand, thr_idx)
        if operand.upper() == "C":
            return Tensor(0, Layout(_static(part.layout.shape)))   # make_fragment_C: compact over the shape
        return Tensor(0, make_fragment_like(part.layout))


def _static(t: IntTuple) -> IntTuple:
    if is_tuple(t):
        return tuple(_static(e) for e in t)
    return int(t)


def make_fragment_like(layout: Shaped) -> Layout:
    """CuTe's make_fragment_like(layout): mode 0 compact, the other modes ordered like their strides."""
    from ..algebra.swizzle import ComposedLayout
    if isinstance(layout, ComposedLayout):
        layout = layout.b
    r = layout.rank()
    if r > 1 and is_static(layout.shape):
        s0, d0 = get(layout.shape, 0), get(layout.stride, 0)
        first = Layout(s0, compact_col_major(filter_zeros(d0, s0)))
        rest = make_ordered_layout(tuple(layout.shape[1:]), tuple(layout.stride[1:]))
        return F.tiled_product(first, rest)
    return Layout(_static(layout.shape))


__all__ = ["MMAAtom", "TiledMMA", "make_fragment_like", "operand_projection", "OPERANDS", "rank"]
