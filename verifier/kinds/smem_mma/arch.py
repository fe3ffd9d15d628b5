"""What the shared smem_mma code (setup.py, theorems.py, chain.py) knows of an architecture: two small Protocols, and
the table that picks the module implementing them from the atom's instruction.

- `Architecture`: the tensor core that reads the operand through a descriptor (its instruction and descriptor
  builder's names, the rows and CTAs of one instruction, the tiles it reads, the rules only it has), and
- `TileDescriptor`: the descriptor a tile gets, as that architecture builds and reads it (the fields, the 64-bit word,
  the byte the tensor core reads for each element, why the fields cannot be encoded, the swizzle atom's bytes).

sm90.py implements them for wgmma (hardware/gmma_desc.py), sm100.py for tcgen05.mma (hardware/umma_desc.py,
cute/umma.py).  `architecture` imports only the module the atom needs: a Hopper check never loads a Blackwell
module, nor a Blackwell check a Hopper one.  Nothing here tests an architecture's class.
"""
from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Mapping, Protocol

if TYPE_CHECKING:
    from ...algebra.layout import Layout
    from ...cute.gmma import SmemTile
    from ...cute.operand import Operand
    from ...hardware.smem_operand import Major
    from ...specfile.model import MMAAtomSpec
    from ...symbolic.expr import Expr, ExprLike

# the instruction's first word -> the module (of this package) that reads its operands; the first entry is the
# default, as it was before the table: an atom that names no tcgen05.mma is read as wgmma reads
ARCHITECTURES: tuple[tuple[str, str], ...] = (("wgmma.", ".sm90"), ("tcgen05.mma", ".sm100"))
# both descriptors encode start, LBO and SBO alike: 14 bits of x >> 4
FIELD_RULE = "multiples of 16 within 14 bits of 16-byte units"


class SwizzleName(Protocol):
    """The descriptor's swizzle field, as the report names it."""
    @property
    def label(self) -> str: ...
    @property
    def bits(self) -> int: ...


class DescriptorFields(Protocol):
    """The fields every shared-memory descriptor has (gmma_desc.Descriptor, umma_desc.UmmaDescriptor)."""
    @property
    def start(self) -> int: ...
    @property
    def lbo(self) -> int: ...
    @property
    def sbo(self) -> int: ...
    @property
    def base_offset(self) -> int: ...
    @property
    def swizzle(self) -> SwizzleName: ...
    def encode(self) -> int: ...


class TileDescriptor(Protocol):
    """The descriptor a tile gets: what the builder makes for one slice of one stage, and how the tensor core reads."""
    @property
    def fields(self) -> DescriptorFields: ...
    @property
    def chunk_bytes(self) -> int:
        """The swizzle atom: the bytes the swizzle moves together (16; 32 for tcgen05's 128B_BASE32B)."""
    def overridden(self, overrides: Mapping[str, int]) -> TileDescriptor:
        """The descriptor with the check's fields (lbo, sbo, base_offset, swizzle in GMMA naming) put in."""
    def word(self, start: int) -> int:
        """The 64-bit descriptor with `start` as its start address."""
    def read_address(self, major: Major, i: ExprLike, j: ExprLike, elem_bytes: int, start: ExprLike) -> Expr:
        """The byte the tensor core reads as element (i, j) (A(m,k) / B(n,k)) of the slice starting at `start`."""
    def unswizzled_offset(self, major: Major, i: int, j: int, elem_bytes: int) -> int:
        """Bytes from the slice's start to element (i, j) before the swizzle."""
    def field_problem(self, major: Major) -> str | None:
        """Why the instruction cannot take these fields, or None."""


class Architecture(Protocol):
    """The tensor core that reads an operand from shared memory through a descriptor."""
    @property
    def engine(self) -> str:
        """The instruction family: "wgmma" or "tcgen05.mma"."""
    @property
    def builder(self) -> str:
        """The CuTe function that builds the descriptor: "make_gmma_desc" or "make_umma_desc"."""
    @property
    def mn_major_widths(self) -> tuple[tuple[int, ...], str]:
        """The element widths the instruction reads MN-major (transposed) and the rule in words."""
    def rows(self, atom: MMAAtomSpec, operand: Operand) -> int:
        """The M (A) or N (B) rows of one instruction that one CTA's descriptor covers."""
    def cta_group(self, atom: MMAAtomSpec) -> int:
        """How many CTAs one instruction spans."""
    def sparsity(self, atom: MMAAtomSpec, operand: Operand) -> int:
        """Logical elements of the operand one stored element stands for: 2 for A of a structured-sparse MMA (stored
        packed, M x K/2), 1 otherwise."""
    def tile(self, layout: object, elem_bits: int, absolute: bool) -> SmemTile | str:
        """The tile of the check's smem layout, or why the instruction and TMA cannot read it."""
    def descriptor(self, tile: SmemTile, major: Major, origin: tuple[int, int], stage: int,
                   shape: tuple[int, int]) -> TileDescriptor:
        """What the builder makes for the (rows x k) `shape` slice at `origin` (mn0, k0) of `stage`."""
    def field_rule(self, major: Major) -> str:
        """What encodable fields are, in words (the fact's expectation)."""
    def unsettled_read(self, tile: SmemTile, major: Major, elem_bits: int) -> str | None:
        """Why no model says what the instruction reads from this tile (neither verified nor refuted), or None."""
    @property
    def swizzles(self) -> tuple[tuple[int, int, int], ...]:
        """The byte-address swizzles (B, M, S) the builder's layout_type takes."""
    def builder_rule(self, slice_layout: Layout, elem_bits: int, major: Major,
                     tile: SmemTile) -> tuple[str, str] | None:
        """The static_assert with which the builder refuses the slice it is given (mode 0 of the operand's
        partition: one instruction's (MN, K) elements, in the check's units of `elem_bits`), and what it met; None
        when it builds the descriptor."""


def module_of(instruction: str | None) -> str:
    """The module (relative to this package) for an atom's instruction: the table's entry it starts with."""
    text = (instruction or "").strip()
    return next((module for prefix, module in ARCHITECTURES if text.startswith(prefix)), ARCHITECTURES[0][1])


def architecture(atom: MMAAtomSpec) -> Architecture:
    """The architecture that reads the atom's shared operands, its module imported now (and only it)."""
    arch: Architecture = importlib.import_module(module_of(atom.instruction), __package__).ARCH
    return arch
