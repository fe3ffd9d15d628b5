"""SM80 SIMT kernels (CUTLASS 2.x `cutlass_simt_*gemm_*`): judged, like the SM80 tensor-core kernels, by the CuTe
configuration CUTLASS 3 writes for the same types and layouts — `DefaultGemmConfigurationToCutlass3Types<OpClassSimt,
ArchTag, Element, LayoutA, Element, LayoutB, ...>` (test/unit/gemm/device/default_gemm_configuration.hpp, "SIMT Two
Stage"): 256 threads as a 16x16x1 tiled MMA of UniversalFMA<Element> atoms over a 128x128x8 tile, each operand's
shared tile `DefaultGemm_Simt_OperandA<Element, Layout, 256, 128, 8>`'s atom — (128,8):(1,128) where the operand is
M/N-major in memory, (128,8):(1,132) (padded by 4) where it is K-major — read into registers with
Copy_Atom<DefaultCopy, Element>.

That configuration exists for the 128x128x8 tile only: a SIMT kernel of another tile has no CuTe configuration
from CUTLASS (a fact about CUTLASS, said as the reason it is not mapped).  A complex kernel (`cgemm`, `zgemm`)
multiplies complex<float> / complex<double> values, each moved whole; its conjugating variants (c / h in the name:
A or B conjugated) conjugate in registers, which moves no element.
"""
from __future__ import annotations

from dataclasses import dataclass

from .space import KernelConfig

SIMT_OPCODE = "Simt"
SIMT_TILE = (128, 128, 8)          # DefaultGemm_Simt_OperandA<Element, Layout, 256, 128, 8>: the one tile written
SIMT_THREADS = (16, 16, 1)         # TiledMMA<MMA_Atom<UniversalFMA<...>>, Layout<Shape<_16,_16,_1>>>
# (the M/N-major atom, the K-major one)   // (mn, k) -> element
SIMT_SMEM_ATOMS = {"MN": "(128,8):(1,128)", "K": "(128,8):(1,132)"}
SIMT_COPY = "DefaultCopy"          # SmemCopyAtom: Copy_Atom<DefaultCopy, Element>
# the element a SIMT kernel multiplies: (generator's math type, complex) -> CuTe's value type
SIMT_ELEMENTS: dict[tuple[str, bool], str] = {("f32", False): "float", ("f64", False): "double",
                                              ("f32", True): "complex<float>", ("f64", True): "complex<double>"}


@dataclass(frozen=True)
class SimtConfiguration:
    """What CUTLASS 3's SIMT configuration builds for a kernel: the atom, its element, each operand's shared tile."""
    mma: str                       # UniversalFMA<E,E,E,E>
    element: str
    smem_a: str                    # (m, k) -> element
    smem_b: str                    # (n, k) -> element

    def how(self, is_complex: bool) -> str:
        conjugate = " (the conjugation in registers moves no element)" if is_complex else ""
        return (f"{self.mma} on 16x16x1 threads, 128x128x8, Copy_Atom<{SIMT_COPY}, {self.element}>{conjugate}")


def universal_fma(element: str) -> str:
    """CuTe's UniversalFMA atom of one element type (D = A = B = C), as the atom library names it."""
    return f"UniversalFMA<{element},{element},{element},{element}>"


def simt_configuration(kc: KernelConfig, majors: tuple[str, str], is_complex: bool) -> SimtConfiguration | str:
    """CUTLASS 3's SIMT configuration of a SIMT kernel whose A and B are `majors` ("K" / "MN"), or why it has
    none (a fact about CUTLASS)."""
    if kc.tile != SIMT_TILE:
        m, n, k = kc.tile
        return (f"SIMT tile {m}x{n}x{k}: CUTLASS writes its CuTe SIMT configuration for the 128x128x8 tile only "
                "(DefaultGemm_Simt_OperandA<Element, Layout, 256, 128, 8>)")
    element = SIMT_ELEMENTS.get((kc.element_a, is_complex))
    if element is None or kc.element_b != kc.element_a or kc.element_acc != kc.element_a:
        kind = "complex " if is_complex else ""
        return (f"SIMT {kind}{kc.element_a} x {kc.element_b} -> {kc.element_acc}: CUTLASS writes no CuTe SIMT "
                "configuration for these types")
    return SimtConfiguration(universal_fma(element), element, SIMT_SMEM_ATOMS[majors[0]], SIMT_SMEM_ATOMS[majors[1]])
