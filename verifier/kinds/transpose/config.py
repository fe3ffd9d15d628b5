"""The transpose kind's configuration: operand B of a register-sourced wgmma (an RS atom) that CUTLASS transposes in
shared memory before the descriptor reads it, because A and B are both MN-major and B is not 16-bit
(AsyncTranspositionOperandB, cutlass/transform/collective/sm90_wgmma_transpose.hpp).

    transpose: B                     # the operand transposed in shared memory (B: the descriptor's)
    mma: SM90_64x128x8_F32TF32TF32_RS_TN
    atom_layout: [2, 1, 1]           # the tiled MMA's math warpgroups (1 or 2)
    copy: SM90_TMA_LOAD              # what writes `smem`: TMA from `gmem`, or a cp.async atom through its layout
    value_type: tfloat32_t
    smem: "tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>, (128,32,7), (2,1,3))"        # SmemLayoutB
    gmma_smem: "tile_to_shape(GMMA::Layout_K_SW32_Atom<tfloat32_t>, (128,32,7), (2,1,3))"    # GmmaSmemLayoutB
    gmem: "(4096,4096):(1,4096)"     # the global (N, K) tensor TMA reads (TMA only)
    # smem_align: 256                # bytes the buffer is aligned to (default: the larger swizzle repeat, >= 128)

`smem` is the tile the writer fills and the transposition loads (MN-major); `gmma_smem` the one it stores into and
the descriptor reads (K-major): two layouts of one buffer.  Which mainloop runs it follows from the writer: TMA is
CUTLASS's sm90_mma_tma_gmma_rs_warpspecialized.hpp (a barrier between the two calls of every k-tile, gmma_sB
position-independent), a cp.async copy its sm90_mma_multistage_gmma_rs_warpspecialized.hpp (the first k-tile's calls
back to back, gmma_sB position-dependent).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ...algebra.swizzle import ComposedLayout, SmemPtrFlag
from ...echo import quote, shorten, ECHO_LIMIT
from ...smem import position_independent
from ...specfile.fields import Fields, is_int, read_version2_choice, refuse_keys, show
from ...specfile.model import TMA_COPIES, CheckKind, CheckSpec, MMAAtomSpec, SpecError, ValueType, common_fields
from ...specfile.vocabulary import MAX_GLOBAL_ELEMENTS

TRANSPOSE_KEY = "transpose"          # the key that makes a check a transpose check
TRANSPOSED_SMEM_KEY = "gmma_smem"    # the transposed tile the descriptor reads
TRANSPOSED_OPERANDS = ("B",)         # CUTLASS transposes B (the descriptor's operand of an RS atom)
WGMMA_PREFIX = "wgmma."
NOT_READ = ("operand", "permutation", "copy_for", "copy_mma", "banks", "reduction", "smem_type", "tiled_copy",
            "major", "descriptor", "tma_box", "store", "buffer", "tmem", "tmem_columns", "scale_factors",
            "sf_vec_size", "tmem_alloc", "tmem_base", "smem_partition", "metadata")
MAX_SMEM_ALIGN = 1 << 20


@dataclass(kw_only=True)
class TransposeCheck(CheckSpec):
    """B written MN-major, transposed in shared memory, read K-major by the descriptor (theorems 9, 12-15, 34), with
    the MMA atom's theorems 1, 2 and 11."""
    kind: ClassVar[str] = CheckKind.TRANSPOSE
    mma: str
    copy: str
    transposed: str                      # "B"
    smem: Any                            # SmemLayoutB: (N, K, PIPE) -> element (the writer's, the loads')
    smem_absolute: bool                  # its swizzle reads absolute addresses (a GMMA smem_ptr layout)
    gmma_smem: Any                       # GmmaSmemLayoutB: (N, K, PIPE) -> element (the stores', the descriptor's)
    gmma_smem_absolute: bool
    gmem: Any = None                     # the global (N, K) tensor TMA reads (TMA only)
    smem_align: int | None = None        # bytes the buffer is aligned to (None: the larger swizzle repeat, >= 128)

    @property
    def by_tma(self) -> bool:
        """TMA writes `smem` (CUTLASS's TMA mainloop); otherwise a cp.async atom through its layout (the cp.async
        mainloop)."""
        return self.copy in TMA_COPIES

    def summary(self) -> str:
        source = f"gmem {self.gmem} -> {self.copy}" if self.by_tma else f"{self.copy} through its layout"
        return (f"{self.mma} {self.transposed} transposed in shared memory: {source} -> smem {self.smem} -> "
                f"AsyncTranspositionOperandB -> gmma_smem {self.gmma_smem} -> descriptor")


def reads_transpose_check(fields: Fields) -> bool:
    return fields.has(TRANSPOSE_KEY)


def _tile(fields: Fields, key: str, value_type: ValueType) -> tuple[Any, bool]:
    """A shared tile (N, K, PIPE) in element units (CuTe's GMMA form rewritten to act on element offsets), and
    whether its swizzle reads absolute addresses."""
    raw = fields.layout(key, swizzle_ok=True)
    absolute = isinstance(raw, ComposedLayout) and isinstance(raw.offset, SmemPtrFlag)
    layout = raw
    if absolute:
        try:
            layout = position_independent(raw, value_type.smem_bits)
        except (ValueError, ArithmeticError) as e:   # the algebra refuses the swizzle or the element width
            raise SpecError(fields.at(key), f"'{key}' of {fields.what}: {shorten(str(e), 4 * ECHO_LIMIT)}") from None
    if layout.rank() != 3:
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must be (N, K, PIPE), the stage mode included, "
                                        f"not rank {layout.rank()}")
    return layout, absolute


def read_transpose_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None) -> TransposeCheck:
    what = fields.what
    transposed = read_version2_choice(fields, TRANSPOSE_KEY, TRANSPOSED_OPERANDS, upper=True)
    if mma is None or named.mma is None:
        raise SpecError(fields.loc, f"{what} transposes {transposed} in shared memory: it needs 'mma' (the "
                                    "register-sourced wgmma atom that reads it)")
    if not (mma.instruction or "").strip().startswith(WGMMA_PREFIX):
        raise SpecError(fields.at("mma"), f"{what}: CUTLASS transposes B in shared memory for wgmma; "
                                          f"{quote(mma.name)} issues {quote(mma.instruction or 'no instruction')}")
    if named.copy is None:
        raise SpecError(fields.loc, f"{what} needs 'copy': what writes 'smem' (SM90_TMA_LOAD, or a cp.async atom)")
    for k in ("smem", TRANSPOSED_SMEM_KEY) + (("gmem",) if named.copy in TMA_COPIES else ()):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} transposes {transposed} in shared memory and so needs '{k}'")
    refuse_keys(fields, NOT_READ, "is not used by transpose checks")
    if named.copy not in TMA_COPIES:
        refuse_keys(fields, ("gmem",), f"is only read when the copy is {' or '.join(TMA_COPIES)} (the threads write "
                                       f"this tile through its layout with {quote(named.copy)})")
    assert named.value_type is not None
    smem, absolute = _tile(fields, "smem", named.value_type)
    gmma_smem, gmma_absolute = _tile(fields, TRANSPOSED_SMEM_KEY, named.value_type)
    gmem = None
    if named.copy in TMA_COPIES:
        gmem = fields.layout("gmem", max_elements=MAX_GLOBAL_ELEMENTS)
        if gmem.rank() != 2:
            raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be the (N, K) global tensor, rank 2")
    check = TransposeCheck(**{**common_fields(named), "mma": named.mma, "copy": named.copy}, transposed=transposed,
                           smem=smem, smem_absolute=absolute, gmma_smem=gmma_smem,
                           gmma_smem_absolute=gmma_absolute, gmem=gmem)
    if fields.has("smem_align"):
        align = fields.m["smem_align"]
        if not is_int(align) or align <= 0 or align & (align - 1) or align > MAX_SMEM_ALIGN:
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two of bytes, "
                                                     f"not {show(align)}")
        check.smem_align = int(align)
    return check
