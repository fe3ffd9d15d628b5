"""Blackwell's tcgen05.mma (UMMA) behind the smem_mma Protocols (arch.py): make_umma_desc's descriptor (cute/umma.py)
read by the tcgen05 descriptor model (hardware/umma_desc.py, written from the PTX ISA: no Blackwell GPU confirmed
it); M/N/K from the atom's shape and its CTA group, never from an instruction model.

Imported by arch.architecture for an atom whose instruction is tcgen05.mma; imports no Hopper-only module
(sm90.py).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Mapping

from ...cute.gmma import SmemTile
from ...cute.operand import Operand
from ...algebra.layout import Layout
from ...cute.umma import (UMMA_SWIZZLES, cta_group, layout_type, operand_rows, umma_desc_refusal, umma_descriptor,
                             umma_smem_tile)
from ...hardware import umma_desc as UD
from ...hardware.smem_operand import GmmaSwizzle, Major
from ...hardware.umma_desc import UmmaDescriptor, UmmaLayoutType
from ...specfile.model import MMAAtomSpec
from ...symbolic.expr import Expr, ExprLike
from .arch import FIELD_RULE

ENGINE, BUILDER = "tcgen05.mma", "make_umma_desc"
UMMA_SPARSE_PREFIX = "tcgen05.mma.sp."     # the structured-sparse tcgen05.mma
UMMA_SPARSE_A = 2                          # ... keeps two of every four (one of two) logical elements of A
MN_32BIT_BITS = 32
# PTX ISA 9.7.16.10.3, Table 54 "Valid Combinations of Type-Size, Major-ness and Swizzling": tcgen05.mma reads 8-,
# 16- and 32-bit operands MN-major (transposed); 4- and 6-bit ones (.kind::f8f6f4, .kind::mxf8f6f4) have no
# transposed row -- and CUTLASS's instruction-descriptor comment (cute/arch/mma_sm100_desc.hpp, a_major_) agrees --,
# yet CUTLASS's builder builds MN-major unpacked 4- and 6-bit tiles (sm1xx_common.inl): unsettled (below)
TRANSPOSED = ((4, 6, 8, 16, 32), "tcgen05.mma transposes 8-, 16- and 32-bit operands (PTX ISA Table 54), and "
                                 "CUTLASS builds 4- and 6-bit ones")
SUB_BYTE_TRANSPOSED = (4, 6)
SUB_BYTE_MN_UNSETTLED = ("an MN-major {bits}-bit operand: the PTX ISA (Table 54) and CUTLASS's own instruction-"
                         "descriptor comment (mma_sm100_desc.hpp) allow transposed operands of 8, 16 and 32 bits only, "
                         "yet CUTLASS's builder builds this tile (sm1xx_common.inl): without a Blackwell GPU neither "
                         "verified nor refuted")
MN_32BIT_UNSETTLED = ("an MN-major 32-bit operand on a 16-byte-atomic layout: the PTX ISA text read here does not "
                      "settle how tcgen05.mma reads it, and CUTLASS's sm100_smem_selector allows only "
                      "SWIZZLE_128B_BASE32B (UMMA::Layout_MN_SW128_32B_Atom) for MN-major tf32: neither verified nor "
                      "refuted")


@dataclass(frozen=True)
class UmmaTileDescriptor:
    """A tcgen05 shared-memory descriptor of a tile's slice (implements arch.TileDescriptor)."""
    fields: UmmaDescriptor

    @property
    def chunk_bytes(self) -> int:
        return self.fields.layout.chunk_bytes

    def overridden(self, overrides: Mapping[str, int]) -> UmmaTileDescriptor:
        u = self.fields
        swizzle = overrides.get("swizzle")   # given in GMMA naming: the same layout type
        return UmmaTileDescriptor(replace(
            u, lbo=overrides.get("lbo", u.lbo), sbo=overrides.get("sbo", u.sbo),
            base_offset=overrides.get("base_offset", u.base_offset),
            layout=u.layout if swizzle is None else UmmaLayoutType.of_gmma(GmmaSwizzle(swizzle))))

    def word(self, start: int) -> int:
        return replace(self.fields, start=start).encode()

    def read_address(self, major: Major, i: ExprLike, j: ExprLike, elem_bytes: int, start: ExprLike) -> Expr:
        addr: Expr = UD.read_address(self.fields, major, i, j, elem_bytes, start=start)
        return addr

    def unswizzled_offset(self, major: Major, i: int, j: int, elem_bytes: int) -> int:
        return int(UD.unswizzled_offset(self.fields, major, i, j, elem_bytes))

    def field_problem(self, major: Major) -> str | None:
        return self.fields.field_problem(major)


class Tcgen05:
    """tcgen05.mma (sm_100a) reading A / B through make_umma_desc's descriptor (implements arch.Architecture)."""
    engine = ENGINE
    builder = BUILDER
    mn_major_widths: tuple[tuple[int, ...], str] = TRANSPOSED

    def rows(self, atom: MMAAtomSpec, operand: Operand) -> int:
        return operand_rows(atom, operand)

    def cta_group(self, atom: MMAAtomSpec) -> int:
        return cta_group(atom)

    def sparsity(self, atom: MMAAtomSpec, operand: Operand) -> int:
        """A of tcgen05.mma.sp is stored packed, M x K/2 ("the A matrix is Mx(K/2)", PTX ISA 9.7.16.10.9.2), read
        through its descriptor like a dense operand of K/2 (CuTe's UMMA::sparse_smem_desc is smem_desc's)."""
        sparse = (atom.instruction or "").strip().startswith(UMMA_SPARSE_PREFIX)
        return UMMA_SPARSE_A if sparse and operand is Operand.A else 1

    def tile(self, layout: object, elem_bits: int, absolute: bool) -> SmemTile | str:
        return umma_smem_tile(layout, elem_bits, absolute)

    def descriptor(self, tile: SmemTile, major: Major, origin: tuple[int, int], stage: int,
                   shape: tuple[int, int]) -> UmmaTileDescriptor:
        return UmmaTileDescriptor(umma_descriptor(tile, major, origin, stage, shape))

    def field_rule(self, major: Major) -> str:
        return f"{FIELD_RULE}, a layout type the {major.value}-major form has ({UD.SECTION})"

    def unsettled_read(self, tile: SmemTile, major: Major, elem_bits: int) -> str | None:
        """tcgen05.mma on an MN-major 32-bit operand laid out with 16-byte atoms, or an MN-major 4- or 6-bit one: no
        model says what it reads."""
        if (major is Major.MN and elem_bits == MN_32BIT_BITS
                and layout_type(tile) is not UmmaLayoutType.B128_BASE32B):
            return MN_32BIT_UNSETTLED
        if major is Major.MN and elem_bits in SUB_BYTE_TRANSPOSED:
            return SUB_BYTE_MN_UNSETTLED.format(bits=elem_bits)
        return None

    swizzles = UMMA_SWIZZLES

    def builder_rule(self, slice_layout: Layout, elem_bits: int, major: Major,
                     tile: SmemTile) -> tuple[str, str] | None:
        return umma_desc_refusal(slice_layout, elem_bits, major, tile)


ARCH = Tcgen05()
