"""The blockwise kind's configuration: the scales of operand A (CUTLASS's SFA, rows m) or B (SFB, columns n) of a
blockwise-scaled GEMM, from the global scale tensor (`gmem`: layout_SFA / SFB over the problem) through the scale
loader (`copy`: the scale warp's cp.async, or SM90_TMA_LOAD where CUTLASS loads SFA by TMA) into the shared stages
(`smem`), to the accumulators they multiply: on SM90 through the tiled MMA's partition_C of the broadcast view (`mma`,
`atom_layout`), on SM100 through the accumulator-transform warps' tcgen05.ld (`tmem_load` over `epilogue_tile` of the
accumulator in TMEM, `tmem`).

    blockwise: A                  # whose scales: A (SFA) or B (SFB)
    mma: "SM90_64x128x32_F32E4M3E4M3_SS_TN"
    atom_layout: [2, 1, 1]
    granularity: [1, 128]         # (MN, K) elements one scale covers
    tile: [128, 128, 128]         # the CTA tile (M, N, K)
    copy: "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>"     # Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>
    copy_layout: [32, 1]          # make_tiled_copy's thread and value layouts (Layout<Shape<32>>, Layout<Shape<1>>)
    value_type: float
    smem: "((_1,_128),(_128,_1),_6):((_0,_1),(_0,_128),_128)"   # SmemLayoutSFA, CuTe's print
    gmem: "((_1,256),(_128,2)):((_0,_1),(_0,256))"              # tile_atom_to_shape_SFA: (m, k) -> scale element
    # SM100:  tmem_load: SM100_TMEM_LOAD_32dp32b32x   epilogue_tile: [128, 32]   tmem: "(_128,_128):(_65536,_1)"

Every layout is in scale elements (floats): `smem` ((gMN, MN/gMN), (gK, K/gK), PIPE) -> slot, `gmem` (mn, k) -> element.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...algebra.inttuple import product
from ...algebra.layout import Layout, make_layout
from ...echo import quote
from ...specfile.fields import AtomTable, Fields, is_int, read_version2_choice, refuse_keys, show
from ...specfile.model import TMA_COPIES, UMMA_INSTRUCTION, CheckKind, CheckSpec, MMAAtomSpec, SpecError, common_fields
from ...specfile.vocabulary import MAX_GLOBAL_ELEMENTS, MAX_TMEM_ELEMENTS

BLOCKWISE_KEY = "blockwise"          # the key that makes a check a blockwise scale check
SCALED_OPERANDS = ("A", "B")
SCALE_TYPE = "float"                 # ElementBlockScale: the accumulator's type
WGMMA_INSTRUCTION = "wgmma."         # the SM90 reader: the tiled MMA's accumulator fragment
SM90, SM100 = 90, 100
SM100_KEYS = ("tmem_load", "epilogue_tile")
NOT_READ = ("operand", "permutation", "copy_for", "copy_mma", "banks", "reduction", "smem_type", "tiled_copy",
            "major", "descriptor", "tma_box", "store", "buffer", "tmem_columns", "scale_factors", "sf_vec_size",
            "tmem_alloc", "tmem_base", "smem_partition", "metadata")
DEFAULT_SMEM_ALIGN = 128             # CUTE_ALIGNAS(128) smem_SFA / smem_SFB
MAX_SMEM_ALIGN = 1 << 20
LIMIT = 1 << 16                      # tile extents, granularities, threads, values


@dataclass(kw_only=True)
class BlockwiseCheck(CheckSpec):
    """A blockwise-scaled GEMM's scales of one operand (theorems 29, 30), with the MMA atom's theorems 1, 2 and 11."""
    kind: ClassVar[str] = CheckKind.BLOCKWISE
    mma: str
    copy: str
    scaled: str                            # "A" | "B"
    arch: int                              # 90 (wgmma reader) | 100 (tcgen05.ld reader)
    granularity: tuple[int, int]           # (gMN, gK)
    tile: tuple[int, int, int]             # the CTA tile (M, N, K)
    smem: Layout                           # ((gMN, MN/gMN), (gK, K/gK), PIPE) -> slot
    gmem: Layout                           # (mn, k) -> global scale element
    copy_layout: tuple[int, int] | None = None     # cp.async: make_tiled_copy's (threads, values)
    reader_atom_layout: tuple[int, ...] | None = None   # SM90: the tiled MMA whose partition_C reads the view
    tmem: Layout | None = None             # SM100: the accumulator's TMEM layout, (m, n) -> lane << 16 | column
    tmem_load: str | None = None           # SM100: the epilogue's CopyOpT2R
    epilogue_tile: tuple[int, int] | None = None    # SM100: the EpilogueTile (M, N)
    smem_align: int = DEFAULT_SMEM_ALIGN

    @property
    def tma(self) -> bool:
        return self.copy in TMA_COPIES

    @property
    def tile_mn(self) -> int:
        return self.tile[0] if self.scaled == "A" else self.tile[1]

    @property
    def tile_other(self) -> int:
        return self.tile[1] if self.scaled == "A" else self.tile[0]

    @property
    def stages(self) -> int:
        return int(product(self.smem.mode(2).shape))

    def summary(self) -> str:
        reader = (f"{self.mma} partition_C" if self.arch == SM90 else f"{self.tmem_load} over {self.epilogue_tile}")
        return (f"blockwise scales of {self.scaled} ({self.granularity[0]}x{self.granularity[1]} elements a scale, "
                f"tile {'x'.join(map(str, self.tile))}): gmem {self.gmem} -> {self.copy} -> smem {self.smem} -> "
                f"{reader}")


def reads_blockwise_check(fields: Fields) -> bool:
    return fields.has(BLOCKWISE_KEY)


def _ints(fields: Fields, key: str, n: int) -> tuple[int, ...]:
    values = fields.int_list(key, n, n)
    if any(v > LIMIT for v in values):
        raise SpecError(fields.at(key), f"'{key}' of {fields.what} must hold integers up to {LIMIT}, not "
                                        f"{list(values)}")
    return values


def _arch(atom: MMAAtomSpec, fields: Fields) -> int:
    instruction = (atom.instruction or "").strip()
    if instruction.startswith(WGMMA_INSTRUCTION):
        return SM90
    if instruction.startswith(UMMA_INSTRUCTION):
        return SM100
    raise SpecError(fields.at("mma"), f"{fields.what}: blockwise scales are read from a wgmma (SM90) or tcgen05.mma "
                                      f"(SM100) accumulator; {quote(atom.name)} issues "
                                      f"{quote(instruction or 'no instruction')}")


def _layouts(fields: Fields) -> tuple[Layout, Layout]:
    what = fields.what
    smem = fields.layout("smem")
    if not isinstance(smem, Layout) or smem.rank() != 3 or smem.mode(0).rank() != 2 or smem.mode(1).rank() != 2:
        raise SpecError(fields.at("smem"), f"'smem' of {what} must be CUTLASS's SmemLayoutSF, ((gMN, MN/gMN), (gK, "
                                           f"K/gK), PIPE) -> slot, a plain layout, not {show(fields.m['smem'])}")
    gmem = fields.layout("gmem", max_elements=MAX_GLOBAL_ELEMENTS)
    if isinstance(gmem, Layout) and gmem.rank() == 3 and int(product(gmem.mode(2).shape)) == 1:
        gmem = make_layout(gmem.mode(0), gmem.mode(1))           # tile_atom_to_shape_SF's L of one batch
    if not isinstance(gmem, Layout) or gmem.rank() != 2:
        raise SpecError(fields.at("gmem"), f"'gmem' of {what} must be layout_SF over (MN, K) of one batch, a plain "
                                           f"rank-2 layout, not {show(fields.m['gmem'])}")
    return smem, gmem


def read_blockwise_check(fields: Fields, named: CheckSpec, mma: MMAAtomSpec | None,
                         atoms: AtomTable) -> BlockwiseCheck:
    what = fields.what
    scaled = read_version2_choice(fields, BLOCKWISE_KEY, SCALED_OPERANDS, upper=True)
    if mma is None or named.mma is None:
        raise SpecError(fields.loc, f"{what} names the blockwise scales of {scaled}: it needs 'mma' (the MMA atom "
                                    "whose accumulators they scale)")
    if named.copy is None:
        raise SpecError(fields.loc, f"{what} needs 'copy': the scale loader (SM80_CP_ASYNC_CACHEALWAYS<...>, or "
                                    "SM90_TMA_LOAD where CUTLASS loads the scales by TMA)")
    for k in ("granularity", "tile", "smem", "gmem"):
        if not fields.has(k):
            raise SpecError(fields.loc, f"{what} names blockwise scales and so needs '{k}'")
    refuse_keys(fields, NOT_READ, "is not used by blockwise checks")
    arch = _arch(mma, fields)
    assert named.value_type is not None
    if named.value_type.name != SCALE_TYPE:
        raise SpecError(fields.at("value_type"), f"'value_type' of {what} is the scales' type, the accumulator's "
                                                 f"{SCALE_TYPE}, not {quote(named.value_type.name)}")
    smem, gmem = _layouts(fields)
    granularity = _ints(fields, "granularity", 2)
    tile = _ints(fields, "tile", 3)
    check = BlockwiseCheck(**{**common_fields(named), "mma": named.mma, "copy": named.copy}, scaled=scaled, arch=arch,
                           granularity=(granularity[0], granularity[1]), tile=(tile[0], tile[1], tile[2]),
                           smem=smem, gmem=gmem)
    if check.tma:
        refuse_keys(fields, ("copy_layout",), "is the cp.async loader's (a TMA box has no thread layout)")
    else:
        if not fields.has("copy_layout"):
            raise SpecError(fields.loc, f"{what}: the scales' cp.async loader needs 'copy_layout', make_tiled_copy's "
                                        "(threads, values), e.g. [32, 1]")
        threads, values = _ints(fields, "copy_layout", 2)
        check.copy_layout = (threads, values)
    if arch == SM90:
        refuse_keys(fields, SM100_KEYS + ("tmem",), "belongs to the SM100 reader (tcgen05.ld)")
        if fields.has("reader_atom_layout"):
            check.reader_atom_layout = _ints(fields, "reader_atom_layout", 3)
    else:
        refuse_keys(fields, ("reader_atom_layout",), "belongs to the SM90 reader (the tiled MMA's partition_C)")
        for k in SM100_KEYS:
            if not fields.has(k):
                raise SpecError(fields.loc, f"{what}: the SM100 scales are read by the accumulator-transform warps' "
                                            f"tcgen05.ld: it needs '{k}'")
        check.tmem_load = atoms.lookup(fields, "tmem_load", atoms.copy, "copy atom")
        m, n = _ints(fields, "epilogue_tile", 2)
        check.epilogue_tile = (m, n)
        if fields.has("tmem"):
            tmem = fields.layout("tmem", max_elements=MAX_TMEM_ELEMENTS)
            if isinstance(tmem, Layout) and tmem.rank() == 3 and int(product(tmem.mode(1).shape)) == 1 \
                    and int(product(tmem.mode(2).shape)) == 1:
                tmem = tmem.mode(0)                   # CuTe's print of one stage: ((M, N), MMA_M, MMA_N)
            if not isinstance(tmem, Layout) or tmem.rank() != 2:
                raise SpecError(fields.at("tmem"), f"'tmem' of {what} is the accumulator's TMEM layout, (m, n) -> "
                                                   "lane << 16 | column, a plain rank-2 layout, not "
                                                   f"{show(fields.m['tmem'])}")
            check.tmem = tmem
    if fields.has("smem_align"):
        align = fields.m["smem_align"]
        if not is_int(align) or align <= 0 or align & (align - 1) or align > MAX_SMEM_ALIGN:
            raise SpecError(fields.at("smem_align"), f"'smem_align' of {what} must be a power of two of bytes, "
                                                     f"not {show(align)}")
        check.smem_align = int(align)
    return check
