"""The chain of a buffer check at one element: its coordinate, then each side's layout, offset, swizzle and byte."""
from __future__ import annotations

from collections.abc import Mapping

from ...algebra.inttuple import crd2idx
from ...algebra.swizzle import ComposedLayout, Swizzle
from ...theorems.claims import ChainLine, Trace
from .config import BufferView
from .theorems import BYTE, BufferSetup


def _offset(view: BufferView, coord: tuple[int, ...]) -> int:
    """The inner layout's element offset of a coordinate (one index per mode)."""
    inner = view.inner
    return crd2idx(coord if len(coord) > 1 else coord[0], inner.shape, inner.stride)


def _element(view: BufferView, coord: tuple[int, ...]) -> int:
    """The view's element offset: the inner layout's, swizzled where the view composes a swizzle with it."""
    offset = _offset(view, coord)
    layout = view.layout
    if isinstance(layout, ComposedLayout) and view.address_swizzle is None:
        x = offset + int(layout.offset)
        return int(layout.a(x)) if isinstance(layout.a, Swizzle) else x
    return offset


class BufferChain:
    def __init__(self, setup: BufferSetup) -> None:
        self.setup = setup

    def lines(self, trace: Trace, point: Mapping[str, int]) -> tuple[str, list[ChainLine]]:
        if self.setup.broadcast and any(v.name in point for v in self.setup.elements):   # the distinctness claim's
            coord = self.setup.element_coord([int(point.get(v.name, 0)) for v in self.setup.elements])
        else:
            coord = tuple(int(point.get(v.name, 0)) for v in self.setup.coords)
        return self.element_lines(coord, int(point.get("base", 0)) * self.setup.check.align)

    def side(self, label: str, view: BufferView, coord: tuple[int, ...], base: int) -> list[ChainLine]:
        setup = self.setup
        e = setup.elem_bytes
        offset = _offset(view, coord)
        out = [ChainLine(f"{label} layout", f"{view.inner}{_shown(coord)} = {offset}   [{view.by}]")]
        sw = view.address_swizzle
        if sw is not None and setup.sub_byte:
            per = BYTE // setup.bits
            raw = base + view.at + offset // per
            out.append(ChainLine(f"{label} address", f"{sw}(base {base:#x} + {view.at} + {offset}/{per} = {raw:#x}) "
                                                     f"= byte {int(sw(raw)):#x}, bit {(offset % per) * setup.bits}   "
                                                     f"(the pointer's swizzle, on the byte address; {per} elements a "
                                                     "byte)"))
            return out
        if sw is not None:
            raw = base + view.at + offset * e
            out.append(ChainLine(f"{label} address", f"{sw}(base {base:#x} + {view.at} + {offset}*{e} = {raw:#x}) "
                                                     f"= {int(sw(raw)):#x}   (the pointer's swizzle, on the byte "
                                                     "address)"))
            return out
        osw = view.offset_swizzle
        element = _element(view, coord)
        if osw is not None:
            out.append(ChainLine(f"{label} swizzle", f"{osw} on the element offset: {element}"))
        if setup.sub_byte:
            bit = base * BYTE + view.at * BYTE + element * setup.bits
            out.append(ChainLine(f"{label} address", f"8 (base {base:#x} + {view.at}) + {element}*{setup.bits} = bit "
                                                     f"{bit:#x} (byte {bit // BYTE:#x}, bit {bit % BYTE})"))
            return out
        out.append(ChainLine(f"{label} address", f"base {base:#x} + {view.at} + {element}*{e} = "
                                                 f"{base + view.at + element * e:#x}"))
        return out

    def address(self, view: BufferView, coord: tuple[int, ...], base: int) -> int:
        """The element's address as the theorems compute it (a bit address for sub-byte elements)."""
        setup = self.setup
        e = setup.elem_bytes
        sw = view.address_swizzle
        if setup.sub_byte:
            per = BYTE // setup.bits
            if sw is not None:
                offset = _offset(view, coord)
                return int(sw(base + view.at + offset // per)) * BYTE + (offset % per) * setup.bits
            return (base + view.at) * BYTE + _element(view, coord) * setup.bits
        if sw is not None:
            return int(sw(base + view.at + _offset(view, coord) * e))
        return base + view.at + _element(view, coord) * e

    def element_lines(self, coord: tuple[int, ...], base: int) -> tuple[str, list[ChainLine]]:
        check = self.setup.check
        w, r = self.setup.writer, check.reader
        wrote, looks = self.address(w, coord, base), self.address(r, coord, base)
        out = self.side("writer", w, coord, base) + self.side("reader", r, coord, base)
        unit = self.setup.unit
        out.append(ChainLine("agreement", f"the same {unit}" if wrote == looks else
                             f"the writer stored it at {unit} {wrote:#x}, the reader looks at {unit} {looks:#x}"
                             if self.setup.sub_byte else
                             f"the writer stored it at {wrote:#x}, the reader looks at {looks:#x}"))
        return f"element {_shown(coord)} of the buffer, base {base:#x}", out


def _shown(coord: tuple[int, ...]) -> str:
    return "(" + ",".join(str(c) for c in coord) + ")"
