"""Theorem 22: after a TMEM load, the epilogue's store to shared memory (stmatrix or a vector store) as CuTe builds
it: `make_tiled_copy_D(Copy_Atom<Op, T>, tiled_t2r)` over the registers the load filled (converted to T in place),
`retile_S` of that fragment, `partition_D` of the shared tile.

- the registers: the coordinate the TMEM load left in each register (theorem 19's partition) is the coordinate the
  store's partition names for the register `retile_S` hands it;
- the instruction: every element the store instruction writes (each address lane's row or vector, every copy
  instance of every warp, or of every thread for a per-thread vector store) is smem[layout(coordinate of the
  register the instruction takes it from)];
- the addresses: each address lane's values are contiguous in shared memory and its row is aligned as the
  instruction requires (for base 0: the tile's base alignment is the kernel's).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...algebra.inttuple import AlgebraError
from ...algebra.layout import Layout
from ...cute.copy import TiledCopy, TypedCopyAtom
from ...cute.tensor import Tensor
from ...hardware.base import CopyModel
from ...specfile.model import CopyAtomSpec
from .config import TmemStoreSpec
from ...symbolic.expr import Const, Var, and_, eq, lt
from ...symbolic.layouts import layout_expr
from ...symbolic.obligation import Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Refusal, Unsupported
from ..cute_objects import ConfigurationRefused, copy_atom, copy_model_for
from ...theorems.suspects import Suspects
from .theorems import TmemSetup, flat_calls


@dataclass
class TmemStoreSetup:
    t2r: TmemSetup
    store: TmemStoreSpec
    copy_spec: CopyAtomSpec
    model: CopyModel | None
    r2s: TiledCopy
    smem_frg: Any                       # // (thread, value, instance) -> shared element offset (partition_D)
    reg_coords: Any                     # // (thread, value, instance) -> tile coordinate (partition_S of coordinates)
    retiled: Any                        # // (value, instance) -> register storage index (retile_S of the fragment)

    @property
    def value_bits(self) -> int:
        return self.store.value_type.bits

    @property
    def values(self) -> int:
        return int(self.reg_coords.mode(1).size())

    @property
    def instances(self) -> int:
        return int(self.reg_coords.size()) // (self.t2r.threads * self.values)


def build_store(t2r: TmemSetup, store: TmemStoreSpec, copy_spec: CopyAtomSpec) -> TmemStoreSetup:
    """make_tiled_copy_D of the store atom over the TMEM copy, its partitions, and retile_S of the load's fragment."""
    bits = store.value_type.bits
    try:
        typed: TypedCopyAtom = copy_atom(copy_spec).with_value_bits(bits)
        given = store.tiled_copy
        r2s = (TiledCopy(typed, given.layout_tv, given.tiler) if given is not None     # the store as built
               else TiledCopy(typed, t2r.tiled.layout_D_tv(), t2r.tiled.tiler_mn))    # make_tiled_copy_D
        smem_frg = flat_calls(r2s.tidfrg_D(store.smem))
        reg_coords = flat_calls(r2s.tidfrg_S(Layout(t2r.coord_to_addr.shape)))
        coords = Tensor(0, Layout(t2r.coord_to_addr.shape))
        loaded = (t2r.tiled.partition_D if t2r.form.load else t2r.tiled.partition_S)(coords, 0)
        fragment = Layout(loaded.layout.shape)       # // make_tensor<T>(shape(tTR_gD)): (value, rest...) -> storage
        retiled = r2s.retile(fragment)
    except AlgebraError as e:
        raise ConfigurationRefused(e.rule, str(e), "make_tiled_copy_D of the store over the TMEM copy",
                                   "store") from None
    model = copy_model_for(copy_spec, "store", bits)
    return TmemStoreSetup(t2r, store, copy_spec, model, r2s, smem_frg, reg_coords, _flat_values(retiled))


def _flat_values(retiled: Any) -> Layout:
    """((value, rest value), rest...) -> (value, instance): the instances as one mode, as flat_calls does."""
    val = retiled.mode(0)
    rest = [retiled.mode(i) for i in range(1, retiled.rank())]
    shapes, strides = tuple(m.shape for m in rest) or (1,), tuple(m.stride for m in rest) or (0,)
    return Layout((val.shape, shapes), (val.stride, strides))


# copy_unpack's static_assert (cute/atom/copy_traits.hpp): the registers of one instruction's destination
VECTORIZE_RULE = "Copy_Traits: dst failed to vectorize into registers. Layout is incompatible with this CopyOp."


def _scattered_row(s: TmemStoreSetup, per_row: int) -> str | None:
    """The first address lane whose `per_row` values of one instruction are not contiguous in the shared layout
    (CuTe recasts each thread's destination to the instruction's register type: with static layouts a row that
    is no contiguous run does not compile), or None."""
    model = s.model
    assert model is not None
    width = model.lanes
    lanes = model.address_lanes or model.dst_lanes
    for instance in range(s.instances):
        for thread in range(0, s.t2r.threads, width):
            for lane in range(lanes):
                offsets = [int(s.smem_frg(thread + lane, j, instance)) for j in range(per_row)]
                if offsets != list(range(offsets[0], offsets[0] + per_row)):
                    return (f"copy_unpack of {s.copy_spec.name}: thread {thread + lane}'s {per_row} values of "
                            f"instance {instance} are at shared elements {offsets}, no contiguous run of "
                            f"{model.row_bytes} bytes")
    return None


def vectorize_refusal(s: TmemStoreSetup) -> str | None:
    """Where copy_unpack refuses the store (VECTORIZE_RULE): its first address lane whose row of one instruction is
    no contiguous run; None for a store it compiles (or one without rows: a per-element copy)."""
    model = s.model
    if model is None or model.direction != "store" or not model.row_bytes or model.element_wise:
        return None
    return _scattered_row(s, model.row_bytes * 8 // s.value_bits)


def store_chain(s: TmemStoreSetup, suspects: Suspects) -> Plan:
    """Theorem 22."""
    model = s.model
    if model is None:
        return Unsupported(f"no hardware model for '{s.copy_spec.instruction}' (copy atom {s.copy_spec.name})")
    if model.direction != "store":
        return [Fact(f"{s.copy_spec.name} stores registers to shared memory", False, model.direction, "store",
                     suspects.field("store", "the epilogue's store copy"))]
    t2r = s.t2r
    vb = s.value_bits
    t, v, i = Var("thread", t2r.threads), Var("value", s.values), Var("instance", s.instances)
    blame_copy = suspects.field("store", f"make_tiled_copy_D(Copy_Atom<{s.copy_spec.name}, "
                                         f"{s.store.value_type.name}>, tiled_t2r) and the shared layout")
    # the registers: what the TMEM load left where retile_S looks
    storage = layout_expr(s.retiled, (v, i))
    loaded = layout_expr(t2r.reg_frag, (t, storage % t2r.values, storage // t2r.values))
    named = layout_expr(s.reg_coords, (t, v, i))
    items: list[Item] = [
        Fact("the store's registers are the TMEM load's (make_tiled_copy_D over the same threads and values)",
             int(s.retiled.size()) == t2r.values * t2r.calls,
             f"{int(s.retiled.size())} registers per thread", f"{t2r.values * t2r.calls} registers per thread",
             blame_copy),
        Claim(Obligation("each register the store takes (retile_S) holds the coordinate its partition names",
                         [t, v, i], eq(loaded, named), lhs=loaded, rhs=named,
                         shown={"storage index": storage, "coordinate loaded": loaded, "coordinate named": named}),
              blame_copy)]
    # the instruction: each element it writes is smem[layout(coordinate of its source register)]
    # one instruction per warp (stmatrix) or per thread (a vector store): `group` numbers the instructions, `lane`
    # the destination lane inside one, so thread = group * lanes + lane covers every thread of the warpgroup
    width = model.lanes
    group = Var("warp" if width > 1 else "thread", t2r.threads // width)
    lane = Var("lane", model.dst_lanes)
    bit = Var("bit", model.dst_bits)
    src_lane, src_bit = model.source_of(lane, bit)
    written = layout_expr(s.smem_frg, (width * group + lane, bit // vb, i))
    coordinate = layout_expr(s.reg_coords, (width * group + src_lane, src_bit // vb, i))
    wanted = layout_expr(s.store.smem, coordinate)
    providing = lt(lane, model.address_lanes) if model.address_lanes else lt(lane, model.dst_lanes)
    items.append(Claim(Obligation(f"every element {model.instruction} writes is smem[layout(coordinate of its source "
                                  "register)]", [group, lane, bit, i], eq(written, wanted),
                                  premise=and_(providing, eq(bit % vb, 0)), lhs=written, rhs=wanted,
                                  shown={"src lane": src_lane, "src bit": src_bit, "coordinate": coordinate}),
                       blame_copy))
    # the addresses: each address lane's values contiguous, its row aligned (base 0)
    if model.row_bytes and not model.element_wise:
        per_row = model.row_bytes * 8 // vb
        scattered = vectorize_refusal(s)
        if scattered is not None:        # copy_unpack's recast<RegTypeDst>(dst) of these static layouts
            return Refusal(VECTORIZE_RULE, scattered,
                           suspects.field("store", "the shared layout of the store (row pitch, swizzle)"))
        j = Var("value_in_row", per_row)
        first = layout_expr(s.smem_frg, (width * group + lane, Const(0), i))
        each = layout_expr(s.smem_frg, (width * group + lane, j, i))
        blame_smem = suspects.field("store", "the shared layout of the store (row pitch, swizzle)")
        items.append(Claim(Obligation(f"each address lane's {per_row} values are contiguous", [group, lane, j, i],
                                      eq(each, first + j), premise=providing, lhs=each, rhs=first + j),
                           blame_smem))
        items.append(Claim(Obligation(f"each row starts {model.align_bytes}-byte aligned (base 0)", [group, lane, i],
                                      eq((first * vb) % (8 * model.align_bytes), 0), premise=providing,
                                      shown={"row start (bits)": first * vb}), blame_smem))
    return items
