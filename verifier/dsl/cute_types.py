"""The CuTe dialect's types, read from their text into the verifier's own objects.

    !cute.memref<f16, smem, align<16>, S<2,4,3>, "(8,64):(64,1)">     a tensor: element, memory, swizzled pointer
    !cute.memref<f16, smem, align<16>, "S<3,3,4> o 0 o (8,64):(64,1)">  ... or a swizzle composed with the layout
    !cute.ptr<f16, smem, align<16>, S<2,4,3>>                           a pointer
    !cute.tiled_copy<ATOM, layout_copy_tv = <"(thr,val)->(m,n)">, tiler_mn = <"[32:1;16:1]">>
    !cute.tiled_mma<ATOM, atom_layout_MNK = <"(2,2,1):(1,2,0)">, permutation_MNK = <"[32:1;32:1;16:1]">>
    !cute.layout<"...">, !cute.composed_layout<"...">, !cute.swizzle<"S<2,4,3>">, !cute.int_tuple<"32768">

A pointer's swizzle acts on its byte address (CuTe's swizzle_ptr); a composed layout's acts on the element offset.
Layouts print as CuTe prints them, with `S<B,M,S>` for a swizzle and `?{div=N}` for a dynamic integer known to be
a multiple of N; a layout with a dynamic integer is DynamicValue (the caller says what that leaves unchecked).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..algebra.inttuple import AlgebraError, Underscore
from ..algebra.layout import Layout
from ..algebra.swizzle import ComposedLayout, Swizzle
from ..algebra.syntax import ParseError, parse_layout
from .brackets import split_top

# the DSL's element types, in the C++ names the atom library's value types use
ELEMENT_TYPES: dict[str, str] = {
    "f16": "half_t", "bf16": "bfloat16_t", "f32": "float", "tf32": "tfloat32_t", "f64": "double",
    "i8": "int8_t", "ui8": "uint8_t", "u8": "uint8_t", "i16": "int16_t", "i32": "int32_t", "ui32": "uint32_t",
    "f8E4M3FN": "float_e4m3_t", "f8E5M2": "float_e5m2_t", "i4": "int4_t",
    "f4E2M1FN": "float_e2m1_t", "f8E8M0FNU": "float_ue8m0_t",
}
ELEMENT_BITS: dict[str, int] = {
    "f16": 16, "bf16": 16, "f32": 32, "tf32": 32, "f64": 64, "i8": 8, "ui8": 8, "u8": 8, "i16": 16, "ui16": 16,
    "i32": 32, "ui32": 32, "i64": 64, "ui64": 64, "f8E4M3FN": 8, "f8E5M2": 8, "i4": 4, "i1": 1,
    # MLIR's narrow floats (the block-scaled kernels' operands and scale factors): their widths, though the spec has
    # no C++ name for some of them
    "f4E2M1FN": 4, "f6E2M3FN": 6, "f6E3M2FN": 6, "f8E8M0FNU": 8,
}


class TypeTextError(ValueError):
    """A CuTe type this reader cannot take: why, in words."""


class DynamicValue(TypeTextError):
    """A layout with an integer known only at run time (`?`, `?{div=N}`)."""


@dataclass(frozen=True)
class AtomType:
    """An atom's type: its family (`ldsm`, `simt_async_copy`, `sm80.mma`, ...) and its parameters as written."""
    family: str
    params: tuple[str, ...]        # top-level comma-separated
    text: str

    def param(self, key: str) -> str | None:
        """A `key = value` parameter's value."""
        for p in self.params:
            k, eq, v = p.partition("=")
            if eq and k.strip() == key:
                return v.strip()
        return None

    def flag(self, word: str) -> bool:
        return word in (p.strip() for p in self.params)


class CopyAtomType(AtomType):
    """A copy atom's type: `!cute_nvgpu.atom.ldsm<val_type = f16, ..., num_matrices = 4, n>`, ..."""

    def bits(self) -> int | None:
        """A `128 b` parameter: the bits one copy moves."""
        for p in self.params:
            m = re.fullmatch(r"(\d+)\s*b", p.strip())
            if m:
                return int(m.group(1))
        return None


class MmaAtomType(AtomType):
    """An MMA atom's type: `!cute_nvgpu.sm80.mma<16x8x16, elem_type = (f16, f16, f32)>` and its relatives."""

    def shape(self) -> tuple[int, int, int] | None:
        for p in self.params:
            m = re.fullmatch(r"(\d+)x(\d+)x(\d+)", p.strip())
            if m:
                return int(m.group(1)), int(m.group(2)), int(m.group(3))
        return None


@dataclass(frozen=True)
class TiledCopyType:
    atom: CopyAtomType
    layout_tv: Layout              # (thr, val) -> (m, n) coordinate of the tiler's tile
    tiler: tuple[Any, ...]         # the tile (m, n) the TV layout covers: sizes or layouts
    tiler_text: str


@dataclass(frozen=True)
class TiledMmaType:
    atom: MmaAtomType
    atom_layout: Layout            # (m, n, k) atom -> thread group
    permutation: tuple[Any, ...]   # Tile<M, N, K>
    text: str


@dataclass(frozen=True)
class MemrefType:
    element: str                   # the DSL's element type (f16, bf16, ...)
    space: str                     # gmem | smem | rmem | tmem
    align: int | None              # bytes the pointer is known to be aligned to
    ptr_swizzle: Swizzle | None    # the pointer's swizzle (on byte addresses)
    layout_text: str               # as printed (may hold `?`)

    @property
    def bits(self) -> int:
        return ELEMENT_BITS.get(self.element, 0)

    def layout(self) -> Layout | ComposedLayout:
        return layout_of(self.layout_text)


@dataclass(frozen=True)
class PtrType:
    element: str
    space: str
    align: int | None
    swizzle: Swizzle | None


def _inside(text: str, head: str) -> str | None:
    """The parameters of `head<...>` when `text` is exactly that type."""
    text = text.strip()
    if not (text.startswith(head + "<") and text.endswith(">")):
        return None
    return text[len(head) + 1:-1]


def layout_type_text(text: str) -> str | None:
    """The printed layout inside a `!cute.composed_layout<"...">` or `!cute.layout<"...">` type, or None."""
    return _inside(text, "!cute.composed_layout") or _inside(text, "!cute.layout")


_SWIZZLE = re.compile(r"S<(\d+),(\d+),(\d+)>")


def swizzle_of(text: str) -> Swizzle:
    m = _SWIZZLE.fullmatch(text.strip().strip('"'))
    if m is None:
        raise TypeTextError(f"'{text}' is not a swizzle S<B,M,S>")
    try:
        return Swizzle(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except AlgebraError as e:          # CuTe's own rule for a swizzle's parameters
        raise TypeTextError(f"'{text}' is no swizzle CuTe builds: {e}") from None


def layout_of(text: str) -> Layout | ComposedLayout:
    """A printed layout (`S<B,M,S> o OFFSET o L` for a composed one) as the algebra's object."""
    text = text.strip().strip('"')
    if "?" in text:
        raise DynamicValue(f"layout {text} holds an integer known only at run time")
    try:
        return parse_layout(_SWIZZLE.sub(lambda m: f"Sw<{m.group(1)},{m.group(2)},{m.group(3)}>", text))
    except (ParseError, ValueError, ArithmeticError) as e:
        raise TypeTextError(f"layout {text}: {e}") from None


def plain_layout_of(text: str) -> Layout:
    layout = layout_of(text)
    if not isinstance(layout, Layout):
        raise TypeTextError(f"{text} is a composed layout where a plain one is expected")
    return layout


def tile_of(text: str) -> tuple[Any, ...]:
    """A printed tile `[32:1;16:1]` (or `[32;16]`): each mode a size where its layout is contiguous, else the
    layout."""
    text = text.strip().strip('"')
    if not (text.startswith("[") and text.endswith("]")):
        raise TypeTextError(f"'{text}' is not a tile [..;..]")
    modes: list[Any] = []
    for part in text[1:-1].split(";"):
        part = part.strip()
        if "?" in part:
            raise DynamicValue(f"tile {text} holds an integer known only at run time")
        if re.fullmatch(r"\d+", part):
            modes.append(int(part))
            continue
        if part == "_":                  # CuTe's Underscore: the mode is left as it is
            modes.append(Underscore)
            continue
        layout = plain_layout_of(part)
        modes.append(int(layout.size()) if layout.plain() == Layout(int(layout.size())).plain() else layout)
    return tuple(modes)


def _string_param(params: list[str], key: str) -> str | None:
    for p in params:
        k, eq, v = p.partition("=")
        if eq and k.strip() == key:
            v = v.strip()
            if v.startswith("<") and v.endswith(">"):
                v = v[1:-1]
            return v.strip().strip('"')
    return None


def copy_atom_of(text: str) -> CopyAtomType:
    m = re.fullmatch(r"!cute_nvgpu\.(?:atom\.)?([\w.]+)<(.*)>", text.strip(), re.S)
    if m is None:
        raise TypeTextError(f"'{text[:80]}' is not a copy atom type")
    return CopyAtomType(m.group(1), tuple(split_top(m.group(2))), text.strip())


def mma_atom_of(text: str) -> MmaAtomType:
    m = re.fullmatch(r"!cute_nvgpu\.([\w.]+)<(.*)>", text.strip(), re.S)
    if m is None:
        raise TypeTextError(f"'{text[:80]}' is not an MMA atom type")
    return MmaAtomType(m.group(1), tuple(split_top(m.group(2))), text.strip())


def tiled_copy_of(text: str) -> TiledCopyType:
    inner = _inside(text, "!cute.tiled_copy")
    if inner is None:
        raise TypeTextError(f"'{text[:80]}' is not a !cute.tiled_copy")
    params = split_top(inner)
    tv, tiler = _string_param(params, "layout_copy_tv"), _string_param(params, "tiler_mn")
    if tv is None or tiler is None:
        raise TypeTextError(f"tiled copy {text[:120]} names no layout_copy_tv or tiler_mn")
    return TiledCopyType(copy_atom_of(params[0]), plain_layout_of(tv), tile_of(tiler), tiler)


def tiled_mma_of(text: str) -> TiledMmaType:
    inner = _inside(text, "!cute.tiled_mma")
    if inner is None:
        raise TypeTextError(f"'{text[:80]}' is not a !cute.tiled_mma")
    params = split_top(inner)
    atom_layout = _string_param(params, "atom_layout_MNK")
    perm = _string_param(params, "permutation_MNK")
    if atom_layout is None:
        raise TypeTextError(f"tiled MMA {text[:120]} names no atom_layout_MNK")
    return TiledMmaType(mma_atom_of(params[0]), plain_layout_of(atom_layout),
                        tile_of(perm) if perm is not None else (), text.strip())


def _align(params: list[str]) -> int | None:
    for p in params:
        m = re.fullmatch(r"align<(\d+)>", p.strip())
        if m:
            return int(m.group(1))
    return None


def _ptr_swizzle(params: list[str]) -> Swizzle | None:
    for p in params:
        if _SWIZZLE.fullmatch(p.strip()):
            return swizzle_of(p)
    return None


def memref_of(text: str) -> MemrefType:
    inner = _inside(text, "!cute.memref")
    if inner is None:
        raise TypeTextError(f"'{text[:80]}' is not a !cute.memref")
    params = split_top(inner)
    if len(params) < 3 or not params[-1].startswith('"'):
        raise TypeTextError(f"memref {text[:120]} has no layout")
    return MemrefType(params[0], params[1], _align(params), _ptr_swizzle(params), params[-1].strip('"'))


def ptr_of(text: str) -> PtrType:
    inner = _inside(text, "!cute.ptr")
    if inner is None:
        raise TypeTextError(f"'{text[:80]}' is not a !cute.ptr")
    params = split_top(inner)
    return PtrType(params[0], params[1] if len(params) > 1 else "generic", _align(params), _ptr_swizzle(params))


def is_type(text: str | None, head: str) -> bool:
    return text is not None and text.strip().startswith(head + "<")


COORD_TENSOR = "!cute.coord_tensor"
COORD_SPACE = "coord"                 # what space_of says of a coordinate tensor


def space_of(type_text: str | None) -> str:
    """What a tensor's type holds: its memory space (gmem, smem, rmem, tmem) for a memref, `coord` for a coordinate
    tensor, "" for anything else."""
    text = (type_text or "").strip()
    if text.startswith(COORD_TENSOR):
        return COORD_SPACE
    try:
        return memref_of(text).space if is_type(text, "!cute.memref") else ""
    except TypeTextError:
        return ""


def int_tuple_of(text: str) -> int | None:
    """A static `!cute.int_tuple<"N">`; None when it is dynamic or not one integer."""
    inner = _inside(text, "!cute.int_tuple")
    if inner is None:
        return None
    value = inner.strip().strip('"')
    return int(value) if re.fullmatch(r"-?\d+", value) else None


__all__ = ["split_top", "ELEMENT_TYPES",
           "ELEMENT_BITS", "TypeTextError", "layout_type_text", "DynamicValue", "CopyAtomType", "MmaAtomType",
           "TiledCopyType", "TiledMmaType", "MemrefType", "PtrType", "layout_of", "plain_layout_of", "tile_of",
           "swizzle_of", "tiled_copy_of", "tiled_mma_of", "memref_of", "ptr_of", "is_type", "int_tuple_of",
           "copy_atom_of", "mma_atom_of"]
