"""Theorem 23, producer/consumer agreement on a shared buffer: every element the writer stores lands at its own byte
inside the allocation, at the byte where the reader looks for that same element, for every allowed base address.

Addresses, for a view `at` bytes into an allocation at `base` of `e`-byte elements and coordinate c:
    plain layout L                       base + at + L(c) * e
    swizzled offset  Sw o off o L        base + at + Sw(off + L(c)) * e
    swizzled pointer Sw o smem_ptr o L   Sw(base + at + L(c) * e)        (the swizzle acts on the byte address)
Elements of b < 8 bits (1, 2 or 4: 8 / b a byte) have bit addresses, 8 byte + bit: 8 (base + at) + L(c) b, and for a
swizzled pointer 8 Sw(base + at + L(c) / (8/b)) + (L(c) % (8/b)) b (the swizzle moves the byte; the bit stays).

Which bases are tried: every multiple of the allocation's alignment below 2^T, T the top bit a pointer swizzle reads
(one base, 0, when no view swizzles its address).  That covers every base: a swizzle reads and writes only bits below
T, so adding a multiple of 2^T to the base adds it to both sides' addresses alike, and every claim below compares
addresses with each other or with the base."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from ...algebra.inttuple import PortLimit, flatten_to_tuple, idx2crd, product
from ...algebra.layout import Layout
from ...algebra.ops import filter_zero_strides
from ...algebra.swizzle import ComposedLayout, Swizzle
from ...symbolic.expr import Expr, ExprLike, Var, and_, const, eq, le, lt, ne
from ...symbolic.layouts import index_of, layout_expr, swizzle_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Fact, Item, Plan, Suspect, Trace
from ...theorems.stage_sets import StageSets, WaitOffsets
from ...theorems.suspects import Suspects
from ...theorems.tma_tensors import tiles_of_the_map
from ...specfile.fields import stages_text
from .config import READER, WRITER, BufferCheck, BufferView, mode_sizes


BYTE = 8
# what a side's slice past the waited stage does, by side
PAST_WAIT = {WRITER: "writes a stage whose reader the barrier has not released (it may still be reading it)",
             READER: "reads a stage the barrier does not say is filled (the writer may not have filled it yet)"}


def _top_bit(sw: Swizzle) -> int:
    """The bits below which a swizzle reads and writes: M + S + B (its yyy mask's end)."""
    return int(sw.yyy_msk).bit_length()


@dataclass
class BufferSetup:
    check: BufferCheck
    writer: BufferView            # the check's writer (a buffer nothing writes has no setup: `unwritten`)
    elem_bytes: int
    coords: list[Var]             # one variable per mode of the views' shape
    base_var: Var                 # base = base_var * align
    period: int                   # the bases tried are the multiples of align below it
    # the writer's view naming each element once (its stride-0 leaves of extent > 1 made extent 1: a broadcast, as a
    # block-scaled kernel's scale factor serves a vector of K), how many such leaves it had, and one variable per mode
    # of its coordinate (e0, e1, ... where it had any: an element's coordinate, 0 along the broadcast leaves)
    elements_view: BufferView
    broadcast: int
    elements: list[Var]
    bits: int = BYTE              # bits of one element: below 8, addresses are bit addresses (8 byte + bit)

    @property
    def sub_byte(self) -> bool:
        return self.bits < BYTE

    @property
    def scale(self) -> int:
        """Address units a byte: 8 where addresses are bit addresses (sub-byte elements), else 1."""
        return BYTE if self.sub_byte else 1

    @property
    def width(self) -> int:
        """Address units one element takes."""
        return self.bits if self.sub_byte else self.elem_bytes

    @property
    def unit(self) -> str:
        return "bit" if self.sub_byte else "byte"

    @property
    def base(self) -> Expr:
        return self.base_var * self.check.align

    def coordinate(self) -> Any:
        """The views' coordinate as a tuple of per-mode 1-D indices."""
        return tuple(self.coords) if len(self.coords) > 1 else self.coords[0]

    def element_coord(self, values: list[int]) -> tuple[int, ...]:
        """The views' coordinate (per-mode 1-D indices) of the element `values` of `elements` names."""
        if not self.broadcast:
            return tuple(values)
        inner, once = self.writer.inner, self.elements_view.inner
        # the element's coordinate in its own mode's shape (0 along each broadcast leaf) is a coordinate of the
        # view's mode: its colexicographic index there
        return tuple(int(Layout(inner.mode(i).shape)(idx2crd(v, once.mode(i).shape))) for i, v in enumerate(values))

    def address(self, view: BufferView, base: ExprLike, coord: Any) -> Expr:
        """Where the view puts the element at `coord`, the allocation at `base`: its byte address, or for sub-byte
        elements its bit address (8 byte + bit; a pointer's swizzle moves the byte, the bit within it stays)."""
        e = self.elem_bytes
        sw = view.address_swizzle
        if self.sub_byte:
            per = BYTE // self.bits                 # elements a byte
            if sw is not None:
                offset = layout_expr(view.inner, coord)
                return swizzle_expr(sw, const(base) + view.at + offset // per) * BYTE + (offset % per) * self.bits
            return (const(base) + view.at) * BYTE + layout_expr(view.layout, coord) * self.bits
        if sw is not None:
            return swizzle_expr(sw, const(base) + view.at + layout_expr(view.inner, coord) * e)
        return const(base) + view.at + layout_expr(view.layout, coord) * e


def build_buffer(check: BufferCheck) -> BufferSetup:
    writer = check.writer
    assert writer is not None, "a buffer nothing writes is decided by `unwritten`, without a setup"
    shape = check.shape
    modes = shape if isinstance(shape, tuple) else (shape,)
    coords = [Var(f"c{i}", int(product(m))) for i, m in enumerate(modes)]
    tops = [_top_bit(sw) for sw in (writer.address_swizzle, check.reader.address_swizzle) if sw is not None]
    period = max([check.align] + [1 << t for t in tops]) if tops else check.align
    once, broadcast = _elements_once(writer)
    elements = [Var(f"e{i}", size) for i, size in enumerate(mode_sizes(once.inner))] if broadcast else coords
    bits = check.value_type.smem_bits if check.value_type else BYTE     # an unpacksmem type's element is a byte
    if bits < BYTE and BYTE % bits:
        raise PortLimit(f"{check.value_type}: elements of {bits} bits, packed across bytes, are not modelled by the "
                        "buffer check (elements of 1, 2 and 4 bits are, by their bit addresses)")
    return BufferSetup(check, writer, max(1, bits // BYTE), coords, Var("base", max(1, period // check.align)),
                       period, once, broadcast, elements, bits)


def unwritten(check: BufferCheck, suspects: Suspects) -> Plan:
    """A buffer nothing the kernel runs writes (`unwritten`, what its importer read): the reader reads shared memory
    no one filled, whatever it held before."""
    r = check.reader
    return [Fact("something the kernel runs writes the bytes the reader reads", False,
                 f"nothing writes them: {check.unwritten}",
                 "a writer of the reader's bytes (a TMA load, cp.async, a store from registers)",
                 Suspect(f"the reader's view ({r.by}): the buffer it reads, which no copy of the kernel fills",
                         check.field_locs.get("buffer.reader", check.loc), r.source),
                 subject=READER)]


def _coord_text(coords: list[Var]) -> str:
    return "(" + ",".join(v.name for v in coords) + ")"


def agreement(setup: BufferSetup, suspects: Suspects) -> Plan:
    """The writer's stores are distinct bytes, both views lie in the allocation, the reader finds each element."""
    check = setup.check
    coord = setup.coordinate()
    base = setup.base
    w, r = setup.writer, check.reader
    wrote = setup.address(w, base, coord)
    looks = setup.address(r, base, coord)
    writer_blame = Suspect(f"the writer's view ({w.by}): its layout or swizzle", check.field_locs.get(
        "buffer.writer", check.loc), w.source)
    reader_blame = Suspect(f"the reader's view ({r.by}): it must look where the writer stores, swizzle included",
                           check.field_locs.get("buffer.reader", check.loc), r.source)
    unit, scale = setup.unit, setup.scale
    note = (f"for every base a multiple of {check.align}: bases below {setup.period} decide every one"
            if setup.base_var.size > 1 else "the base adds to both sides alike: base 0 decides every one")
    if setup.sub_byte:
        note += f"; {setup.bits}-bit elements: addresses are bit addresses, 8 byte + bit"
    # distinctness needs no base: a swizzle is a bijection of addresses, so two coordinates share a byte at one base
    # exactly when they share it at every base.  Coordinates that differ only along the writer's stride-0 leaves name
    # one element: each element is named once (`elements_view`)
    firsts = setup.elements
    second = [Var(v.name + "'", v.size) for v in firsts]
    first_at0 = setup.address(setup.elements_view, 0, tuple(firsts) if len(firsts) > 1 else firsts[0])
    second_at0 = setup.address(setup.elements_view, 0, tuple(second) if len(second) > 1 else second[0])
    sizes = [v.size for v in firsts]
    first_index, second_index = index_of(list(firsts), sizes), index_of(list(second), sizes)
    what = f"the writer stores distinct elements {_coord_text(firsts)} at distinct {unit}s"
    if setup.broadcast:
        what += (f" (an element for each coordinate that is 0 along the writer's {setup.broadcast} stride-0 "
                 f"mode{'s' if setup.broadcast > 1 else ''}: coordinates that differ only there name one element)")
    distinct = Obligation(
        what, [*firsts, *second], ne(first_at0, second_at0), premise=lt(first_index, second_index),
        lhs=first_at0, rhs=second_at0, shown={"writer address - base": first_at0, "second address - base": second_at0},
        note="a swizzle is a bijection of addresses: the same at every base",
        distinct=Distinct(first_at0, tuple(firsts), tuple(second)))
    items: list[Claim] = [Claim(distinct, writer_blame, Trace.BUFFER_ELEMENT, subject=WRITER)]
    start = base * scale
    for side, addr, blame in ((WRITER, wrote, writer_blame), (READER, looks, reader_blame)):
        inside = and_(le(start, addr), le(addr + setup.width, (base + check.bytes) * scale))
        items.append(Claim(Obligation(
            f"every element the {side} names lies inside the {check.bytes}-byte allocation",
            [setup.base_var, *setup.coords], inside, shown={f"{side} address - base": addr - start}, note=note),
            blame, Trace.BUFFER_ELEMENT, subject=side))
    items.append(Claim(Obligation(
        f"the reader looks for every element {_coord_text(setup.coords)} at the {unit} the writer stored it",
        [setup.base_var, *setup.coords], eq(looks, wrote), lhs=looks, rhs=wrote,
        shown={"base": base, "writer address - base": wrote - start, "reader address - base": looks - start},
        note=note), reader_blame, Trace.BUFFER_ELEMENT, subject=READER))
    facts: list[Item] = [_tma_majorness(side, view, blame) for side, view, blame in
                         ((WRITER, w, writer_blame), (READER, r, reader_blame)) if view.gmem is not None]
    if check.stages is not None:
        stages_blame = Suspect(f"the views' stage mode against the {check.stages} stages the kernel's pipeline "
                               "cycles through", check.field_locs.get("buffer.stages", check.loc))
        facts += [_stages_apart(side, view, check.stages, stages_blame) for side, view in ((WRITER, w), (READER, r))]
    def suspect(side: str, view: BufferView, what: str) -> Suspect:
        """A side's field, suspected of `what` (its place in the spec, and the kernel's where an importer gave it)."""
        return Suspect(what, check.field_locs.get(f"buffer.{side}", check.loc), view.source)
    sides = ((WRITER, w), (READER, r))
    if w.stage_indices is not None and r.stage_indices is not None:
        facts.append(_stages_taken_alike(w.stage_indices, r.stage_indices, *(
            suspect(side, view, f"the stage indices the {side}'s copies slice its view at ({view.by})")
            for side, view in sides)))
    facts += [_tiles_of_the_map(side, view, suspect(
        side, view, f"the global tiles the {side}'s TMA partition takes ({view.by}) against its atom's tensor map"))
        for side, view in sides if view.tma_map_of is not None]
    facts += [_reads_no_output(side, view, suspect(
        side, view, f"the global tensor the {side}'s TMA atom ({view.by}) was made from, against the tensors the "
                    "kernel's TMA stores write"))
        for side, view in sides if view.tma_stores_write is not None]
    facts += [_tiles_apart(side, view, suspect(
        side, view, f"the coordinates the {side}'s TMA load ({view.by}) takes its MMA operand's tiles at, against "
                    "the other operand's"))
        for side, view in sides if view.mn_tile_at is not None]
    if w.wait_offsets is not None or r.wait_offsets is not None:
        offsets = WaitOffsets(w.wait_offsets, r.wait_offsets)
        side, view = (WRITER, w) if offsets.at_fault == WRITER else (READER, r)
        facts.append(Fact(
            "the writer's and the reader's slices take the same stage of the barrier their thread waited on",
            offsets.holds, offsets.actual(WRITER, READER), "one offset a side, the same on both sides",
            suspect(side, view, f"the stage index the {side}'s copies slice its view at ({view.by}) against the "
                                "barrier its pipeline waited on"),
            subject=side, point=offsets.point, failing=0 if offsets.holds else 1, domain_size=1))
    facts += [_fixed_after_wait(side, view, suspect(
        side, view, f"the stage index the {side}'s copies slice its view at ({view.by}) against the barrier its "
                    "pipeline waited on"))
        for side, view in sides if view.fixed_after_wait is not None]
    return [*items, *facts]


def _tiles_of_the_map(side: str, view: BufferView, blame: Suspect) -> Fact:
    """A TMA side's partition takes the tiles of the global tensor its atom's tensor map was made from
    (`tiles_of_the_map`)."""
    assert view.tma_map_of is not None and view.tma_tiles_of is not None
    return tiles_of_the_map(side, view.tma_map_of, view.tma_tiles_of, blame, side)


def _reads_no_output(side: str, view: BufferView, blame: Suspect) -> Fact:
    """An MMA operand's TMA load reads none of the global tensors the kernel's TMA stores write: an operand made
    from the output tensor (B's atom made from C's) multiplies by the output's elements, which the kernel's own
    stores overwrite."""
    stores = view.tma_stores_write or ()
    clear = view.tma_map_of not in stores
    actual = (f"its tensor map is made from {view.tma_map_of}, which the kernel's TMA stores write" if not clear else
              f"its tensor map is made from {view.tma_map_of}; the TMA stores write {', '.join(stores)}")
    return Fact(f"the {side}'s TMA load of an MMA operand reads no tensor the kernel's TMA stores write", clear,
                actual, f"a tensor other than {', '.join(stores)}", blame, subject=side)


def _tiles_apart(side: str, view: BufferView, blame: Suspect) -> Fact:
    """An MMA operand's TMA load takes its tiles along M (A) or N (B) at other values than the MMA's other operand
    takes its tiles at: one value for both makes every CTA multiply A's tile m by B's tile n = m, so only C's tiles
    with m = n are computed right (A's M tile taken at the N tile's coordinate)."""
    both = sorted(set(view.mn_tile_at or ()) & set(view.other_mn_tile_at or ()))
    actual = (f"its M (A) or N (B) tiles and the other operand's are both taken at {', '.join(both)}: every CTA "
              "multiplies A's tile m by B's tile n = m, only C's tiles with m = n are right" if both else
              f"its tiles at {', '.join(view.mn_tile_at or ())}, the other operand's at "
              f"{', '.join(view.other_mn_tile_at or ())}")
    return Fact(f"the {side}'s MMA operand takes its tiles at other coordinates than the other operand's", not both,
                actual, "no value shared", blame, subject=side)


def _fixed_after_wait(side: str, view: BufferView, blame: Suspect) -> Fact:
    """No slice of the side takes a static stage right after its pipeline waited on the barrier of a cycling stage:
    at the steps the pipeline is at another stage, that slice takes a stage nothing has synchronised."""
    fixed = view.fixed_after_wait or ()
    actual = (f"a slice takes stage {fixed[0]} right after its pipeline waited on the barrier of a cycling stage: at "
              f"the steps the pipeline is at another stage it {PAST_WAIT[side]}" if fixed else
              "no slice takes a fixed stage after a cycling wait")
    return Fact(f"the {side}'s slices take no fixed stage where their pipeline cycles", not fixed, actual,
                "no fixed stage", blame, subject=side, point={"stage": fixed[0]} if fixed else None,
                failing=len(fixed), domain_size=len(fixed))


def _stages_taken_alike(written: tuple[int, ...], read: tuple[int, ...], writer_blame: Suspect,
                        reader_blame: Suspect) -> Fact:
    """The writer fills exactly the stages the reader reads: a stage filled and never read is work lost (and the
    reader reads another stage's elements in its place), a stage read and never filled is read uninitialised.  Both
    sides are the only ones of their views (the importer states the indices only then), so no other reader or writer
    takes the stages one of them leaves."""
    sets = StageSets(written, read)
    problem = sets.problem("filled")
    actual = (f"the writer fills {stages_text(list(written))}, the reader reads {stages_text(list(read))}"
              + (f": {problem}" if problem else ""))
    return Fact("the writer fills exactly the stages the reader reads", not problem, actual,
                "the same stages on both sides", reader_blame if sets.reader_at_fault else writer_blame,
                subject=READER if sets.reader_at_fault else WRITER,
                point=None if sets.first is None else {"stage": sets.first},
                failing=sets.failing, domain_size=sets.size)


def _stages_apart(side: str, view: BufferView, stages: int, blame: Suspect) -> Fact:
    """The pipeline's stages 0..stages-1 are distinct stages of the view: its stage mode (the last) takes them to
    distinct offsets (a stage mode of stride 0 would put every stage in the same bytes, two in-flight stages of the
    pipeline in one buffer; the writer's distinctness claim names such stages one element, a broadcast)."""
    inner = view.inner
    mode = inner.mode(inner.rank() - 1)
    offsets = [int(mode(i)) for i in range(stages)]
    first = next(((i, j) for j in range(stages) for i in range(j) if offsets[i] == offsets[j]), None)
    actual = (f"stages {first[0]} and {first[1]} both at offset {offsets[first[0]]} (the stage mode {mode})"
              if first is not None else f"offsets {offsets[:4]}{'...' if stages > 4 else ''}")
    return Fact(f"the {side}'s view puts the pipeline's {stages} stages at distinct offsets", first is None, actual,
                f"{stages} distinct offsets", blame, subject=side,
                point=None if first is None else {"stage": first[1]}, failing=0 if first is None else 1,
                domain_size=stages)


def contiguous_mode(layout: Layout) -> int | None:
    """The top-level mode of `layout` holding its unit-stride leaf (of extent > 1), if it has one."""
    for i in range(layout.rank()):
        mode = layout.mode(i)
        if any(int(s) == 1 and int(n) > 1 for n, s in zip(flatten_to_tuple(mode.shape), flatten_to_tuple(mode.stride))):
            return i
    return None


def _tma_majorness(side: str, view: BufferView, blame: Suspect) -> Fact:
    """A TMA side's atom runs its dimension 0 along the global mode `tma_dim0`; a tensor map's dimension 0 is the
    global tensor's contiguous one (cuTensorMapEncodeTiled takes no stride for it): both must be the same mode."""
    assert view.gmem is not None
    contiguous = contiguous_mode(view.gmem)
    return Fact(f"the {side}'s TMA atom runs its dimension 0 along the global tensor's contiguous mode",
                contiguous is not None and contiguous == view.tma_dim0,
                f"dimension 0 along mode {view.tma_dim0} of the global tensor {view.gmem}, contiguous along mode "
                f"{contiguous}", "the contiguous mode: a tensor map's dimension 0 has no stride of its own", blame,
                subject=side)


def _elements_once(view: BufferView) -> tuple[BufferView, int]:
    """The view with its stride-0 leaves of extent > 1 made extent 1 (filter_zeros of its inner layout), so that each
    element it names is named once, and how many such leaves it had."""
    inner = view.inner
    broadcast = sum(1 for s, d in zip(flatten_to_tuple(inner.shape), flatten_to_tuple(inner.stride))
                    if int(s) > 1 and int(d) == 0)
    if not broadcast:
        return view, 0
    once = filter_zero_strides(inner)
    layout = view.layout
    return replace(view, layout=ComposedLayout(layout.a, layout.offset, once)
                   if isinstance(layout, ComposedLayout) else once), broadcast
