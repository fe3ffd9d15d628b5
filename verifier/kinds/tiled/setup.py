"""The concrete objects of a check, built once: CuTe's TiledMMA / TiledCopy, partitions, hardware models.

Everything here is CuTe's own algebra (exact), computed before any solver runs.  Per-thread
fragment layouts are computed for thread 0: in C++ they are compile-time types, so they cannot depend
on the thread index (the oracle tests confirm it for every configuration they cover).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Hashable, TypeVar

from ...algebra.inttuple import AlgebraError, PortLimit, is_tuple
from ...algebra.layout import Layout
from ...algebra.swizzle import require_nonnegative_strides
from ...algebra.ops import left_inverse
from ...cute.copy import TOO_FEW_FOR_ATOM, TiledCopy, TypedCopyAtom, make_tiled_copy_for
from ...cute.mma import MMAAtom, TiledMMA, operand_projection
from ...cute.tensor import Tensor
from ...hardware.base import CopyModel, MMAModel
from ...specfile.model import CheckSpec, CopyAtomSpec, MMAAtomSpec, ValueType
from .config import TiledCheck
from ..atom.theorems import proved_by, renaming
from ..cute_objects import (copy_atom, copy_model_for, hardware_layout, mma_atom,
                            mma_model_for, refused_as, thread_layout)

T = TypeVar("T")


def _hardware_atom(spec: MMAAtomSpec, atom: MMAAtom, model: MMAModel | None) -> MMAAtom | None:
    """The atom of the instruction's own fragments (the hardware tiled MMA's): the atom itself when theorem 2 proves
    it computes C += A·B in its own coordinates -- also where the fragments are no power-of-two layout the fit finds
    (wgmma of N = 24, 40, ... 248) -- else the fragments fitted as layouts; None when a fragment is no layout."""
    if model is None:
        return None
    renamed = renaming(spec, model, proved_by())
    if renamed is not None and renamed.consistent:
        return atom
    layouts = {}
    for op in ("A", "B", "C"):
        hw = hardware_layout(model, op, atom.thr_id)
        if hw is None:
            return None
        layouts[op] = hw
    return MMAAtom(atom.name + " (PTX ISA)", atom.shape_mnk, atom.thr_id, layouts["A"], layouts["B"], layouts["C"],
                   atom.value_bits, atom.instruction)


@dataclass(frozen=True)
class TiledAtomSide:
    """What a tiled check's build and theorems read of its MMA atom (`tiled_atom_side`): `build_tiled` reads the atom
    through this alone, and the theorems read `TiledSetup.mma_spec` and `mma_hw` only to name them in an
    unsupported theorem's reason or a counterexample's chain -- so two checks whose atoms agree here and whose own
    fields agree decide alike (the kind's shared groups).  An A or B copied for itself (make_tiled_copy of its own
    operand) keeps only the operand's projection (`operand_projection`): an A of any N is one side."""
    atom: MMAAtom                  # CuTe's MMA_Atom, or its projection
    hardware: MMAAtom | None       # the instruction's fragments as an atom (`_hardware_atom`), projected alike
    has_model: bool                # the instruction has a hardware model
    operand_type: ValueType        # the MMA's type of the operand (c for C)

    def key(self) -> tuple[Hashable, ...]:
        """The side as a `Group.shared` key (each atom by its content, `content_key`)."""
        from ..base import content_key
        return (content_key(self.atom, ()), None if self.hardware is None else content_key(self.hardware, ()),
                self.has_model, self.operand_type)


def tiled_atom_side(check: TiledCheck, spec: MMAAtomSpec) -> TiledAtomSide:
    """What `check`'s build reads of its MMA atom `spec` (`TiledAtomSide`)."""
    operand = (check.operand or "A").upper()
    copy_for = (check.copy_for or operand).upper()
    atom = mma_atom(spec)
    model = mma_model_for(spec)
    hardware = _hardware_atom(spec, atom, model)
    operand_type = spec.types[operand.lower()]
    if operand != "C" and copy_for == operand:
        atom = operand_projection(atom, operand)
        hardware = None if hardware is None else operand_projection(hardware, operand)
    return TiledAtomSide(atom, hardware, model is not None, operand_type)


@dataclass
class TiledSetup:
    """Everything CuTe builds for one tiled check, plus the hardware models it is judged against."""
    check: TiledCheck
    mma_spec: MMAAtomSpec        # named in reasons and witnesses only: what is read of it is `side`
    side: TiledAtomSide
    copy_spec: CopyAtomSpec
    operand: str
    mma: TiledMMA                # the kernel's tiled MMA
    copy_mma: TiledMMA           # the tiled MMA the copy was built from
    copy_for: str                # make_tiled_copy_{A,B,C}
    typed: TypedCopyAtom
    tiled_copy: TiledCopy
    copy_hw: CopyModel | None
    smem: Tensor
    value_bits: int

    @cached_property
    def mma_hw(self) -> MMAModel | None:
        """The MMA instruction's model: its fragment and name in a counterexample's chain."""
        return mma_model_for(self.mma_spec)

    @property
    def is_store(self) -> bool:
        """Registers -> shared memory (stmatrix, an epilogue's vector store) rather than a load into registers."""
        return stores(self.check, self.copy_hw)

    @property
    def elem_bytes(self) -> float:
        return self.value_bits / 8

    @property
    def converted(self) -> bool:
        """An A / B operand loaded as its shared tile's type (`smem_type`) and converted in registers, element by
        element, to the MMA's operand type before the MMA reads it (CUTLASS's mixed-input mainloops)."""
        smem_type = self.check.smem_type
        return self.operand != "C" and smem_type is not None and smem_type.bits != self.side.operand_type.bits

    @property
    def fragment_bits(self) -> int:
        """The bits of one element of the fragment the instruction reads: the copy's, or the MMA operand's type's
        for a converted operand."""
        return self.side.operand_type.bits if self.converted else self.value_bits

    # -- partitions (concrete, CuTe exact) --------------------------------------------------------
    @cached_property
    @refused_as("partition_fragment of the shared-memory tile", "smem")
    def fragment(self) -> Layout:
        """partition_fragment_X(sX) of thread 0: (value, rest...) -> register storage index."""
        layout = self.mma.partition_fragment(self.smem, self.operand, 0).layout
        assert isinstance(layout, Layout)     # a register fragment is compact: never swizzled
        return layout

    @cached_property
    @refused_as("left_inverse of the register fragment", "smem")
    def fragment_inverse(self) -> Layout:
        return left_inverse(self.fragment)

    @cached_property
    @refused_as("retile of the register fragment", "copy")
    def retiled(self) -> Layout:
        """retile_D (loads) / retile_S (stores) of the fragment: ((value, rest value), rest...) -> storage."""
        return self.tiled_copy.retile(self.fragment)

    @cached_property
    @refused_as("partition of the shared-memory tile by the tiled copy", "smem")
    def memory_frg(self) -> Any:
        """tidfrg of the shared-memory tensor on the copy's memory side: (thr, (val, rest val), rest...)."""
        if self.is_store:
            return self.tiled_copy.tidfrg_D(self.smem.layout)
        return self.tiled_copy.tidfrg_S(self.smem.layout)

    @cached_property
    @refused_as("partition of the shared-memory tile by the tiled MMA", "smem")
    def mma_memory_frg(self) -> Any:
        """thr_mma.partition_X(sX) of every thread, unsliced: (thread's (v, m, n, k), (value, rest...)) -> element
        offset — the shared side of a copy that reads the MMA's partition (`smem_partition: mma`)."""
        return self.mma.thrfrg(self.smem.layout, self.operand)

    @cached_property
    def coord_tensor(self) -> Layout:
        """The operand tile's coordinates: colex index of (row, col) in the smem tensor's shape."""
        return Layout(_static_shape(self.smem.layout.shape))

    @cached_property
    @refused_as("partition of the register side by the tiled copy", "copy")
    def register_frg_coords(self) -> Any:
        """Coordinates the copy's register side holds: tidfrg on the register side of the coordinate tensor."""
        if self.is_store:
            return self.tiled_copy.tidfrg_S(self.coord_tensor)
        return self.tiled_copy.tidfrg_D(self.coord_tensor)

    @cached_property
    @refused_as("partition of the shared-memory tile by the tiled MMA", "smem")
    def mma_frg_coords(self) -> Any:
        return self.mma.thrfrg(self.coord_tensor, self.operand)

    @cached_property
    def hw_tiled_mma(self) -> TiledMMA | None:
        """The kernel's tiled MMA with the atom's layouts replaced by the instruction's own fragments."""
        hardware = self.side.hardware
        return None if hardware is None else TiledMMA(hardware, self.mma.atom_layout_mnk, self.mma.permutation)

    @cached_property
    @refused_as("partition of the shared-memory tile by the instruction's fragments", "smem")
    def hw_mma_frg(self) -> Any:
        """Shared-memory offsets the instruction itself reads (A/B) or the slot produces (C), per thread."""
        hw = self.hw_tiled_mma
        return None if hw is None else hw.thrfrg(self.smem.layout, self.operand)

    def instance_shape(self) -> list[int]:
        """Sizes of the copy-instance modes: (rest value, rest modes...) of the memory partition."""
        frg = self.memory_frg
        frg = frg.b if hasattr(frg, "b") else frg
        mode1 = frg.mode(1)
        rest_val = int(mode1.mode(1).size()) if mode1.rank() > 1 else 1
        rest = frg.mode(2)   # tidfrg keeps the tile repeats as one mode: (RestM, RestK, ...)
        return [rest_val] + [int(m.size()) for m in rest.modes()]


def _static_shape(shape: Any) -> Any:
    if is_tuple(shape):
        return tuple(_static_shape(s) for s in shape)
    return int(shape)


def stores(check: CheckSpec, copy_hw: CopyModel | None) -> bool:
    """Registers -> shared memory?  The instruction decides (ldmatrix loads even the C tile, e.g. an epilogue reading
    its source); a per-thread vector copy loads A/B and stores C."""
    if copy_hw is not None and copy_hw.direction in ("load", "store"):
        return copy_hw.direction == "store"
    return (check.operand or "A").upper() == "C"


def unread_side(copy_spec: CopyAtomSpec, store: bool) -> str | None:
    """The side of the copy atom a configuration never reads: a load partitions shared memory with SrcLayout and
    retiles its registers through RefLayout, so DstLayout's values are read only when RefLayout is DstLayout (a
    store: SrcLayout only when RefLayout is SrcLayout).  None when every side is read."""
    if store:
        return None if copy_spec.ref_is == "src" else "src"
    return None if copy_spec.ref_is == "dst" else "dst"


def executed_unread_side(check: CheckSpec, operand_type: ValueType, copy_spec: CopyAtomSpec) -> str | None:
    """`unread_side` of the configuration a tiled check builds (`operand_type`: the MMA's type of its operand), where
    replacing it by RefLayout keeps its shape (the sizes CuTe's Copy_Atom reads from it); else None (every side is
    judged as written)."""
    operand = (check.operand or "A").upper()
    bits = check.value_type.bits if check.value_type else operand_type.bits
    unread = unread_side(copy_spec, stores(check, copy_model_for(copy_spec, "store" if operand == "C" else "load",
                                                                 bits)))
    if unread is None:
        return None
    side = copy_spec.src if unread == "src" else copy_spec.dst
    return unread if tuple(side.shape) == tuple(copy_spec.ref.shape) else None


def build_tiled(check: TiledCheck, mma_spec: MMAAtomSpec, copy_spec: CopyAtomSpec,
                side: TiledAtomSide | None = None) -> TiledSetup:
    """CuTe's objects for a tiled check (the MMA atom read through `side`, made from `mma_spec` when not given: see
    TiledAtomSide); ConfigurationRefused names the step CuTe would refuse.  The stages' layout (`check.stages`) is
    read by theorem 9 alone (`staged`)."""
    side = side or tiled_atom_side(check, mma_spec)
    require_nonnegative_strides(check.smem, "the shared-memory layout")
    operand = (check.operand or "A").upper()
    atom = side.atom
    mma = refused_as("make_tiled_mma(atom, atom_layout, permutation)", "atom_layout")(TiledMMA)(
        atom, thread_layout(check.atom_layout), check.permutation)
    copy_mma = mma
    if check.copy_mma is not None:
        cm = check.copy_mma
        copy_mma = refused_as("make_tiled_mma of copy_mma", "copy_mma")(TiledMMA)(
            atom, thread_layout(cm.atom_layout if cm.atom_layout is not None else check.atom_layout),
            cm.permutation if cm.permutation_given else check.permutation)
    copy_for = (check.copy_for or operand).upper()
    bits = check.value_type.bits if check.value_type else side.operand_type.bits
    typed = refused_as(f"Copy_Atom<{copy_spec.name}, {check.value_type.name if check.value_type else bits}>",
                        "value_type")(copy_atom(copy_spec).with_value_bits)(bits)
    unread = executed_unread_side(check, side.operand_type, copy_spec)
    if unread is not None:    # what the configuration runs: the side it never reads is RefLayout's
        typed = typed.executing(unread)
    if check.tiled_copy is not None:     # the copy as its builder made it (the CuTe DSL's tiled copy type)
        given = check.tiled_copy
        tiled_copy = refused_as("make_tiled_copy_tv of the given layout_tv and tiler", "tiled_copy")(
            _given_tiled_copy)(typed, given.layout_tv, given.tiler)
    else:
        tiled_copy = refused_as(f"make_tiled_copy_{copy_for}(copy_atom, tiled_mma)", "copy")(make_tiled_copy_for)(
            typed, copy_mma, copy_for)
    direction = "store" if operand == "C" else "load"   # only used by per-thread copies
    return TiledSetup(check, mma_spec, side, copy_spec, operand, mma, copy_mma, copy_for, typed, tiled_copy,
                      copy_model_for(copy_spec, direction, bits), Tensor(0, check.smem), bits)


def _given_tiled_copy(typed: TypedCopyAtom, layout_tv: Layout, tiler: Any) -> TiledCopy:
    """The tiled copy a kernel's toolchain built (`tiled_copy:`).  One with fewer threads or values than its atom moves
    is CuTe C++'s static_assert, so only the CuTe DSL, which has no such rule, builds it: its partition of the atom's
    threads and values is not what this port computes, so such a check is unsupported, never refused."""
    try:
        return TiledCopy(typed, layout_tv, tiler)
    except AlgebraError as e:
        if e.rule in TOO_FEW_FOR_ATOM:
            raise PortLimit(f"the given tiled copy {layout_tv} has fewer threads or values than its atom "
                            f"{typed.atom.name} moves: CuTe C++ refuses it ({e.rule}), the CuTe DSL builds it, and the "
                            "partition the DSL then makes is not modelled") from None
        raise


def staged(setup: TiledSetup) -> TiledSetup:
    """`setup`, for theorem 9: the stages' layout refused as CuTe refuses the shared-memory layout."""
    if setup.check.stages is not None:
        require_nonnegative_strides(setup.check.stages, "the shared-memory layout")
    return setup


__all__ = ["TiledAtomSide", "TiledSetup", "build_tiled", "staged", "tiled_atom_side"]
