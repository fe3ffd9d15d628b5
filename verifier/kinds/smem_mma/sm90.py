"""Hopper's wgmma behind the smem_mma Protocols (arch.py): make_gmma_desc's descriptor (cute/gmma.py) read by the
wgmma descriptor model an H200 confirmed (hardware/gmma_desc.py); M/N/K from the atom's shape (theorem 2 proves
it the instruction's).

Imported by arch.architecture for an atom whose instruction is wgmma (or names no tcgen05.mma); imports no
Blackwell module.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from ...algebra.layout import Layout
from ...cute.gmma import GMMA_SWIZZLES, SmemTile, canonical_refusal, gmma_descriptor, gmma_form, smem_tile
from ...cute.operand import Operand
from ...hardware import gmma_desc as GD
from ...hardware.gmma_desc import Descriptor
from ...hardware.smem_operand import GmmaSwizzle, Major
from ...specfile.model import MMAAtomSpec
from ...symbolic.expr import Expr, ExprLike
from .arch import FIELD_RULE

ENGINE, BUILDER = "wgmma", "make_gmma_desc"
TRANSPOSED = ((16,), "wgmma transposes only f16 / bf16")     # the one width wgmma reads MN-major
GMMA_SPARSE_PREFIX = "wgmma.mma_async.sp."                    # the structured-sparse wgmma
SPARSE_A = 2                                                 # ... keeps two of every four (one of two) elements of A


@dataclass(frozen=True)
class GmmaTileDescriptor:
    """A wgmma descriptor of a tile's slice (implements arch.TileDescriptor)."""
    fields: Descriptor
    chunk_bytes: int = 16          # wgmma swizzles 16-byte chunks only

    def overridden(self, overrides: Mapping[str, int]) -> GmmaTileDescriptor:
        d = self.fields
        return GmmaTileDescriptor(replace(d, lbo=overrides.get("lbo", d.lbo), sbo=overrides.get("sbo", d.sbo),
                                          base_offset=overrides.get("base_offset", d.base_offset),
                                          swizzle=GmmaSwizzle(overrides.get("swizzle", int(d.swizzle)))))

    def word(self, start: int) -> int:
        return replace(self.fields, start=start).encode()

    def read_address(self, major: Major, i: ExprLike, j: ExprLike, elem_bytes: int, start: ExprLike) -> Expr:
        addr: Expr = GD.read_address(self.fields, major, i, j, elem_bytes, start=start)
        return addr

    def unswizzled_offset(self, major: Major, i: int, j: int, elem_bytes: int) -> int:
        return int(GD.unswizzled_offset(self.fields, major, i, j, elem_bytes))

    def field_problem(self, major: Major) -> str | None:
        return self.fields.field_problem()


class Wgmma:
    """wgmma.mma_async (sm_90a) reading A / B through make_gmma_desc's descriptor (implements arch.Architecture)."""
    engine = ENGINE
    builder = BUILDER
    mn_major_widths: tuple[tuple[int, ...], str] = TRANSPOSED

    def rows(self, atom: MMAAtomSpec, operand: Operand) -> int:
        m, n, _ = atom.shape_mnk
        return m if operand is Operand.A else n

    def cta_group(self, atom: MMAAtomSpec) -> int:
        return 1

    def sparsity(self, atom: MMAAtomSpec, operand: Operand) -> int:
        """wgmma.mma_async.sp stores A packed, M x K/2 (PTX ISA 9.7.15.6): every stored element stands for two."""
        sparse = GMMA_SPARSE_PREFIX in (atom.instruction or "").strip()
        return SPARSE_A if sparse and operand is Operand.A else 1

    def tile(self, layout: object, elem_bits: int, absolute: bool) -> SmemTile | str:
        return smem_tile(layout, elem_bits, absolute)

    def descriptor(self, tile: SmemTile, major: Major, origin: tuple[int, int], stage: int,
                   shape: tuple[int, int]) -> GmmaTileDescriptor:
        return GmmaTileDescriptor(gmma_descriptor(tile, major, origin, stage, shape))

    def field_rule(self, major: Major) -> str:
        return FIELD_RULE

    def unsettled_read(self, tile: SmemTile, major: Major, elem_bits: int) -> str | None:
        return None      # the H200 settled every read this model makes (tests/data/hw/gmma_desc.json.gz)

    swizzles = GMMA_SWIZZLES

    def builder_rule(self, slice_layout: Layout, elem_bits: int, major: Major,
                     tile: SmemTile) -> tuple[str, str] | None:
        return canonical_refusal(slice_layout, elem_bits, gmma_form(major, tile.swizzle, elem_bits))


ARCH = Wgmma()
