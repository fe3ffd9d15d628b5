"""Theorem 23, producer/consumer agreement on a shared buffer: every element the writer stores lands at its own byte
inside the allocation, at the byte where the reader looks for that same element, for every allowed base address.

Addresses, for a view `at` bytes into an allocation at `base` of `e`-byte elements and coordinate c:
    plain layout L                       base + at + L(c) * e
    swizzled offset  Sw o off o L        base + at + Sw(off + L(c)) * e
    swizzled pointer Sw o smem_ptr o L   Sw(base + at + L(c) * e)        (the swizzle acts on the byte address)

Which bases are tried: every multiple of the allocation's alignment below 2^T, T the top bit a pointer swizzle reads
(one base, 0, when no view swizzles its address).  That covers every base: a swizzle reads and writes only bits below
T, so adding a multiple of 2^T to the base adds it to both sides' addresses alike, and every claim below compares
addresses with each other or with the base."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...algebra.inttuple import product
from ...algebra.swizzle import Swizzle
from ...symbolic.expr import Expr, ExprLike, Var, and_, const, eq, le, lt, ne
from ...symbolic.layouts import index_of, layout_expr, swizzle_expr
from ...symbolic.obligation import Distinct, Obligation
from ...theorems.claims import Claim, Plan, Suspect, Trace
from ...theorems.suspects import Suspects
from .config import READER, WRITER, BufferCheck, BufferView


def _top_bit(sw: Swizzle) -> int:
    """The bits below which a swizzle reads and writes: M + S + B (its yyy mask's end)."""
    return int(sw.yyy_msk).bit_length()


@dataclass
class BufferSetup:
    check: BufferCheck
    elem_bytes: int
    coords: list[Var]             # one variable per mode of the views' shape
    base_var: Var                 # base = base_var * align
    period: int                   # the bases tried are the multiples of align below it

    @property
    def base(self) -> Expr:
        return self.base_var * self.check.align

    def coordinate(self) -> Any:
        """The views' coordinate as a tuple of per-mode 1-D indices."""
        return tuple(self.coords) if len(self.coords) > 1 else self.coords[0]

    def address(self, view: BufferView, base: ExprLike, coord: Any) -> Expr:
        e = self.elem_bytes
        sw = view.address_swizzle
        if sw is not None:
            return swizzle_expr(sw, const(base) + view.at + layout_expr(view.inner, coord) * e)
        return const(base) + view.at + layout_expr(view.layout, coord) * e


def build_buffer(check: BufferCheck) -> BufferSetup:
    shape = check.shape
    modes = shape if isinstance(shape, tuple) else (shape,)
    coords = [Var(f"c{i}", int(product(m))) for i, m in enumerate(modes)]
    tops = [_top_bit(sw) for sw in (check.writer.address_swizzle, check.reader.address_swizzle) if sw is not None]
    period = max([check.align] + [1 << t for t in tops]) if tops else check.align
    return BufferSetup(check, max(1, check.value_type.bits // 8) if check.value_type else 1, coords,
                       Var("base", max(1, period // check.align)), period)


def _coord_text(setup: BufferSetup) -> str:
    return "(" + ",".join(v.name for v in setup.coords) + ")"


def agreement(setup: BufferSetup, suspects: Suspects) -> Plan:
    """The writer's stores are distinct bytes, both views lie in the allocation, the reader finds each element."""
    check = setup.check
    coord = setup.coordinate()
    base = setup.base
    w, r = check.writer, check.reader
    wrote = setup.address(w, base, coord)
    looks = setup.address(r, base, coord)
    writer_blame = Suspect(f"the writer's view ({w.by}): its layout or swizzle", check.field_locs.get(
        "buffer.writer", check.loc), w.source)
    reader_blame = Suspect(f"the reader's view ({r.by}): it must look where the writer stores, swizzle included",
                           check.field_locs.get("buffer.reader", check.loc), r.source)
    e = setup.elem_bytes
    note = (f"for every base a multiple of {check.align}: bases below {setup.period} decide every one"
            if setup.base_var.size > 1 else "the base adds to both sides alike: base 0 decides every one")
    # distinctness needs no base: a swizzle is a bijection of addresses, so two coordinates share a byte at one base
    # exactly when they share it at every base
    second = [Var(v.name + "'", v.size) for v in setup.coords]
    first_at0 = setup.address(w, 0, coord)
    second_at0 = setup.address(w, 0, tuple(second) if len(second) > 1 else second[0])
    sizes = [v.size for v in setup.coords]
    first_index, second_index = index_of(list(setup.coords), sizes), index_of(list(second), sizes)
    distinct = Obligation(
        f"the writer stores distinct elements {_coord_text(setup)} at distinct bytes",
        [*setup.coords, *second], ne(first_at0, second_at0), premise=lt(first_index, second_index),
        lhs=first_at0, rhs=second_at0, shown={"writer address - base": first_at0, "second address - base": second_at0},
        note="a swizzle is a bijection of addresses: the same at every base",
        distinct=Distinct(first_at0, tuple(setup.coords), tuple(second)))
    items: list[Claim] = [Claim(distinct, writer_blame, Trace.BUFFER_ELEMENT, subject=WRITER)]
    for side, addr, blame in ((WRITER, wrote, writer_blame), (READER, looks, reader_blame)):
        inside = and_(le(base, addr), le(addr + e, base + check.bytes))
        items.append(Claim(Obligation(
            f"every element the {side} names lies inside the {check.bytes}-byte allocation",
            [setup.base_var, *setup.coords], inside, shown={f"{side} address - base": addr - base}, note=note),
            blame, Trace.BUFFER_ELEMENT, subject=side))
    items.append(Claim(Obligation(
        f"the reader looks for every element {_coord_text(setup)} at the byte the writer stored it",
        [setup.base_var, *setup.coords], eq(looks, wrote), lhs=looks, rhs=wrote,
        shown={"base": base, "writer address - base": wrote - base, "reader address - base": looks - base},
        note=note), reader_blame, Trace.BUFFER_ELEMENT, subject=READER))
    return list(items)
