"""CuTe's named shared-memory layout atoms, as layout facts: GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>
(cute/atom/mma_traits_sm90_gmma.hpp; UMMA:: names the same atoms), their structured-sparse forms
GMMA::Layout_{K,MN}_{...}_SpAtom<T, S> (mma_traits_sm90_gmma_sparse.hpp) and UMMA::Layout_MN_SW128_32B_Atom<T>
(mma_traits_sm100.hpp).  The calculator's parser and the Hopper and Blackwell models read them here."""
from __future__ import annotations

import re

from . import functions as F
from .layout import Layout
from .swizzle import ComposedLayout, SmemPtrFlag, Swizzle, compose3

# (major, swizzle) -> (B of Swizzle<B,4,3>, shape in bits, stride in bits): MN-major atoms are (MN, K)
GMMA_ATOMS_BITS: dict[tuple[str, str], tuple[int, tuple[int, int], tuple[int, int]]] = {
    ("K", "INTER"): (0, (8, 128), (128, 1)),
    ("K", "SW32"): (1, (8, 256), (256, 1)),
    ("K", "SW64"): (2, (8, 512), (512, 1)),
    ("K", "SW128"): (3, (8, 1024), (1024, 1)),
    ("MN", "INTER"): (0, (128, 8), (1, 128)),
    ("MN", "SW32"): (1, (256, 8), (1, 256)),
    ("MN", "SW64"): (2, (512, 8), (1, 512)),
    ("MN", "SW128"): (3, (1024, 8), (1, 1024)),
}
SW128_32B = "SW128_32B"     # UMMA::Layout_MN_SW128_32B_Atom's swizzle name (the atom: cute/umma.py)
# GMMA::Layout_* (UMMA:: names the same atoms), or UMMA's own MN-major 128-byte swizzle with 32-byte atomicity
ATOM_NAME = re.compile(r"^(?:cute::)?(?:(?:(?:SM90::)?GMMA::|UMMA::)?Layout_(K|MN)_(INTER|SW32|SW64|SW128)_Atom"
                       r"|(?:UMMA::)?Layout_(MN)_(SW128_32B)_Atom)$")
# GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_SpAtom<T, S>: the same atoms in logical units of a structured-sparse A
# (UMMA:: names them too: mma_traits_sm100.hpp's `using cute::GMMA::Layout_*_SpAtom`)
SPARSE_ATOM_NAME = re.compile(r"^(?:cute::)?(?:(?:SM90::)?GMMA::|UMMA::)?Layout_(K|MN)_(INTER|SW32|SW64|SW128)_SpAtom$")
# UMMA::Layout_MN_SW128_32B_Atom<T> (cute/atom/mma_traits_sm100.hpp): Sw<2,5,2> o smem_ptr o (1024,4):(1,1024) bits
UMMA_SW128_32B_BITS: tuple[Swizzle, tuple[int, int], tuple[int, int]] = (Swizzle(2, 5, 2), (1024, 4), (1, 1024))


def gmma_layout_atom(major: str, swizzle: str, value_bits: int) -> ComposedLayout:
    """GMMA::Layout_<major>_<swizzle>_Atom<T>: Sw<B,4,3> o smem_ptr[T bits] o upcast<bits(T)>(the bit layout)."""
    b, shape, stride = GMMA_ATOMS_BITS[(major, swizzle)]
    inner = F.upcast(Layout(shape, stride), value_bits)
    atom: ComposedLayout = compose3(Swizzle(b, 4, 3), SmemPtrFlag(value_bits), inner)
    return atom


def gmma_sparse_layout_atom(major: str, swizzle: str, value_bits: int, sparsity: int) -> ComposedLayout:
    """GMMA::Layout_<major>_<swizzle>_SpAtom<T, S> = ComposedLayout<Swizzle<B,4,3>, smem_sparse_ptr_flag_bits<S,
    bits(T)>, blocked_product(Layout<Shape<_1,Int<S>>>, Layout_<major>_<swizzle>_Atom<T>.layout_b())>: the dense
    atom with each stored element standing for S adjacent logical elements along K, in logical units of bits(T) / S
    bits (a sparse pointer reads logical offset i at stored element i / S)."""
    b, _, _ = GMMA_ATOMS_BITS[(major, swizzle)]
    dense = gmma_layout_atom(major, swizzle, value_bits).b
    atom: ComposedLayout = compose3(Swizzle(b, 4, 3), SmemPtrFlag(max(1, value_bits // sparsity)),
                                    F.blocked_product(Layout((1, sparsity)), dense))
    return atom


def atom_from_name(name: str, value_bits: int) -> ComposedLayout | None:
    m = ATOM_NAME.match(name)
    if m is None:
        return None
    if m.group(4) == SW128_32B:   # UMMA's own atom
        return umma_sw128_32b_atom(value_bits)
    return gmma_layout_atom(m.group(1), m.group(2), value_bits)


def umma_sw128_32b_atom(value_bits: int) -> ComposedLayout:
    """UMMA::Layout_MN_SW128_32B_Atom<T>: Sw<2,5,2> o smem_ptr[T bits] o upcast<bits(T)>((1024,4):(1,1024))."""
    swizzle, shape, stride = UMMA_SW128_32B_BITS
    atom: ComposedLayout = compose3(swizzle, SmemPtrFlag(value_bits), F.upcast(Layout(shape, stride), value_bits))
    return atom
