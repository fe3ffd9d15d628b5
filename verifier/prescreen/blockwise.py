"""Blockwise-scaled GEMMs (GemmKind BlockwiseUniversal3x / GroupedBlockwiseUniversal3x): the CuTe configuration CUTLASS
4.2's blockwise collectives build for their scales, as data, and each kernel's scale paths as checks (theorems 29, 30).

A and B take the dense path (the builder's SS GMMA / UMMA atom, shared layouts and TMA are the dense builder's; the
stage count is the blockwise builder's, whose stage also holds the scales), so the kernel is mapped by the dense rules
with that count, and the scales of A (SFA) and B (SFB) are added, one blockwise check each:

- granularities (ScaleGranularityM/N/K) from the kernel's name (`..._1x128f32xe4m3_128x128f32xe4m3_...`: gM x gK for A,
  gN x gK for B), MN-major scales (Sm90 / Sm100BlockwiseScaleConfig's default, the generator's LayoutSFA / SFB);
- SmemLayoutSFA / SFB: smem_atom_layoutSF of the CTA tile with the stages, layout_SFA / SFB over two CTA tiles each way;
- SM90 (sm90_mma_[array_]tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp): Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS
  <float>, float> on 32 threads x 1 value, the warp's lanes below ScaleMsPerTile (ScaleNsPerTile) writing; except the
  non-array kernels' SFA (SFB) with at least 32 scales a tile along M (N), fewer than 32 along the other and MN-major
  (IsTmaLoadSFA / IsTmaLoadSFB): SM90_TMA_LOAD; the reader is the tiled MMA of the dense A and B (the builder's
  AtomLayoutMNK: 2 warpgroups along M when cooperative, 1 for ping-pong);
- SM100 (sm100_mma_array_warpspecialized_blockwise_scaling.hpp, sm100_blockwise_umma_builder.inl): the builder's
  sm100_make_simt_gmem_tiled_copy_SF (at least 32 leading scales: 32 threads x a 16-byte-at-most vector, else one thread
  a scale), and the reader accum(): make_tmem_copy(CopyOpT2R, the epilogue tile) of the 1-SM accumulator; CopyOpT2R and
  EpilogueTile are the epilogue builder's (sm100_builder.inl: sm100_dense_compute_tile_shape_or_override with
  EpilogueTileAuto, sm100_get_tmem_load_op and TMEM::op_repeater), from the kernel's C and D types and layout.

The rules never import builders.py (which calls them from `map_kernel`): they return the dense rules' input, and the
kernel's paths -- the dense ones given back and their own records, `BlockwiseScaleCheck`, each the spec lines of its
check.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any, Protocol

from ..cute import blockwise as BW
from ..hardware.shared_memory import SM90_BLOCK_SHARED_BYTES, SM100_BLOCK_SHARED_BYTES
from .space import KernelConfig

BLOCKWISE_KINDS = ("BlockwiseUniversal3x", "GroupedBlockwiseUniversal3x")
GROUPED_KIND = "GroupedBlockwiseUniversal3x"
SM100_DENSE_KINDS = {"BlockwiseUniversal3x": "Universal3x", "GroupedBlockwiseUniversal3x": "GroupedUniversal3x"}
SM100_DENSE_SCHEDULES = {"BlockwiseTmaWarpSpecialized1SmSm100": "TmaWarpSpecialized1SmSm100",
                         "BlockwiseTmaWarpSpecialized2SmSm100": "TmaWarpSpecialized2SmSm100",
                         "PtrArrayBlockwiseTmaWarpSpecialized1SmSm100": "PtrArrayTmaWarpSpecialized1SmSm100",
                         "PtrArrayBlockwiseTmaWarpSpecialized2SmSm100": "PtrArrayTmaWarpSpecialized2SmSm100"}
# the kernel name's scale part: {gM}x{gK}{sfa}x{A}_{gN}x{gK}{sfb}x{B}_{acc}_{C}_{D}_{tile}_{cluster}_{stages}_{layouts}
NAME = re.compile(r"_(?P<gm>\d+)x(?P<gk>\d+)(?P<sfa>[a-z0-9]+)x(?P<a>[a-z0-9]+)_(?P<gn>\d+)x(?P<gk2>\d+)[a-z0-9]+x"
                  r"[a-z0-9]+_(?P<acc>[a-z0-9]+)_(?P<c>[a-z0-9]+)_(?P<d>[a-z0-9]+)_\d+x\d+x\d+_\d+x\d+x\d+_\d+_"
                  r"(?P<layouts>[nt]{3})_align")
SCALE_TYPE = "f32"                    # ElementBlockScale = ElementAccumulator
SCALE_BYTES = BW.SCALE_BYTES
GLOBAL_TILES = 2                      # CTA tiles of the global scale tensor along MN and K a check names
WARP = 32
STAGE_ALIGN = 128                     # the builders round a stage to 128 bytes
SM90_PIPELINE_BYTES = 16              # sizeof(PipelineTmaAsync<1>::SharedStorage)
SM90_ARRAY_CARVEOUT = 2 * 128 + 128   # the grouped builder's tensormaps (2 x TmaDescriptor) and scheduler pipeline
SM100_PIPELINE_BYTES = 16 + 16        # PipelineTmaUmmaAsync<1> + PipelineAsync<1> shared storage (A/B and scales)
SCALE_TMA_THRESHOLD = 32              # ScaleTmaThreshold: at least this many scales a tile along MN for TMA
CP_ASYNC_SCALE = "SM80_CP_ASYNC_CACHEALWAYS<uint32_t>"   # Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<float>, float>: 4 bytes
CP_ASYNC_BY_BYTES = {4: CP_ASYNC_SCALE, 8: "SM80_CP_ASYNC_CACHEALWAYS<uint64_t>",
                     16: "SM80_CP_ASYNC_CACHEALWAYS<uint128_t>"}
MAX_VECTOR_BYTES = 16
TMA = "SM90_TMA_LOAD"
# the epilogue (sm100_builder.inl, EpilogueTileAuto, a 1-SM MMA: TmemWarpShape_MN (4, 1))
TMEM_WARPS_M = 4
TMEM_DATAPATHS = 32                   # datapaths of one TMEM sub-partition
EPILOGUE_COMPUTE_ELEMENTS = 4096      # DisableSource: a fixed amount of compute per epilogue iteration
TYPE_BITS = {"f32": 32, "f16": 16, "bf16": 16, "e4m3": 8, "e5m2": 8, "s8": 8, "u8": 8, "s32": 32}
VOID = "void"
# TMEM::op_repeater: the widest repetition of a 1x load whose bits divide the tile's columns
T2R_REPEATS = {"SM100_TMEM_LOAD_32dp32b": (32, 128), "SM100_TMEM_LOAD_16dp256b": (256, 32),
               "SM100_TMEM_LOAD_16dp128b": (128, 64), "SM100_TMEM_LOAD_16dp32b": (32, 128)}


class AtomFacts(Protocol):
    """builders.AtomFacts: an MMA atom a check names, with the MMA_Traits the spec defines it by."""
    @property
    def name(self) -> str: ...
    @property
    def fields(self) -> tuple[tuple[str, str], ...]: ...


@dataclass(frozen=True)
class BlockwiseScaleCheck:
    """The scales of A or B of a blockwise kernel as a check's fields (hashable: kernels share them)."""
    mma: AtomFacts
    scaled: str                                     # "A" | "B"
    copy: str
    entries: tuple[tuple[str, str], ...]            # the check's other keys, YAML text

    @property
    def operand(self) -> str:
        return f"SF{self.scaled}"

    def spec_lines(self) -> list[str]:
        return [f"    {k}: {v}" for k, v in self.entries]


@dataclass(frozen=True)
class Granularity:
    m: int
    n: int
    k: int


def _yaml(text: str) -> str:
    return json.dumps(text)


def granularity(kc: KernelConfig) -> Granularity | str:
    """ScaleGranularityM / N / K from the kernel's name (the generator writes them: `{gM}x{gK}f32x{A}_{gN}x{gK}...`)."""
    found = NAME.search(kc.name)
    if found is None:
        return f"{kc.name}: no scale granularities in the kernel's name"
    if found["gk"] != found["gk2"]:
        return "SFA and SFB of different K granularities (CUTLASS: \"Vector size K must be equal for SFA and SFB\")"
    return Granularity(int(found["gm"]), int(found["gn"]), int(found["gk"]))


# --- stages ----------------------------------------------------------------------------------------------------------

def _round_up(x: int, to: int) -> int:
    return -(-x // to) * to


def sm90_stages(kc: KernelConfig, g: Granularity) -> int:
    """compute_stage_count_with_blockwise_scale for the whole shared memory (no epilogue carveout; the grouped
    builder's KernelSmemCarveout): A, B and one scale a tile block of each, rounded to 128 bytes, plus the barriers."""
    m, n, k = kc.tile
    ab = (m * TYPE_BITS[kc.element_a] + n * TYPE_BITS[kc.element_b]) * k // 8
    stage = _round_up(ab + SCALE_BYTES * (m // g.m + n // g.n), STAGE_ALIGN) + SM90_PIPELINE_BYTES
    carveout = SM90_ARRAY_CARVEOUT if kc.kind == GROUPED_KIND else 0
    capacity = SM90_BLOCK_SHARED_BYTES // STAGE_ALIGN * STAGE_ALIGN
    return (capacity - carveout) // stage


def sm100_stages(kc: KernelConfig, g: Granularity) -> int:
    """sm100_compute_stage_count_or_override_blockwise for the whole capacity (no kernel or epilogue carveout)."""
    m, n, k = kc.tile
    ab = (m * TYPE_BITS[kc.element_a] + n * TYPE_BITS[kc.element_b]) * k // 8
    scales = SCALE_BYTES * (m // g.m + n // g.n) * (k // g.k)
    return SM100_BLOCK_SHARED_BYTES // (_round_up(ab + scales, STAGE_ALIGN) + SM100_PIPELINE_BYTES)


# --- the SM100 epilogue's CopyOpT2R and EpilogueTile -----------------------------------------------------------------

def _repeated(base: str, column_bits: int) -> str | None:
    unit, widest = T2R_REPEATS[base]
    times = widest
    while times >= 1:
        if column_bits % (unit * times) == 0:
            return f"{base}{times}x"
        times //= 2
    return None


def epilogue_choice(tile_m: int, tile_n: int, c: str, d: str, d_m_major: bool) -> tuple[str, tuple[int, int]] | str:
    """(CopyOpT2R, EpilogueTile) of the 1-SM epilogue with EpilogueTileAuto, a float accumulator and a C of type `c`
    (void: no source) and D of type `d`, both laid out M-major (ColumnMajor) when `d_m_major`."""
    bits_c = TYPE_BITS.get(d if c == VOID else c)
    bits_d = TYPE_BITS.get(d)
    if bits_c is None or bits_d is None:
        return f"C {c}, D {d}: epilogue types not modelled"
    tile_em = min(tile_m, TMEM_DATAPATHS * TMEM_WARPS_M)
    if c == VOID:
        n_perf = EPILOGUE_COMPUTE_ELEMENTS // tile_em
    elif max(bits_c, bits_d) == 32:
        n_perf = 16 if tile_m > 64 and tile_n <= 128 else 32
    elif max(bits_c, bits_d) == 16:
        n_perf = 32 if tile_n <= 128 else 64
    else:
        n_perf = 64
    n_min_c = 8 if c == VOID or d_m_major else 128 // bits_c
    n_min_d = 8 if d_m_major else 128 // bits_d
    tile_en = min(tile_n, max(n_perf, n_min_c, n_min_d))
    dp = tile_em // TMEM_WARPS_M
    if bits_d == 32:
        base = ("SM100_TMEM_LOAD_16dp256b" if d_m_major else "SM100_TMEM_LOAD_16dp128b") if dp == 16 \
            else "SM100_TMEM_LOAD_32dp32b"
    elif bits_d == 16:
        base = "SM100_TMEM_LOAD_16dp256b" if dp == 16 or d_m_major else "SM100_TMEM_LOAD_32dp32b"
    else:
        return f"D {d}: an {bits_d}-bit epilogue is not modelled"
    op = _repeated(base, tile_en * BW.SCALE_BITS)
    if op is None:
        return f"{tile_en} columns of 32 bits: no repetition of {base}1x"
    return op, (tile_em, tile_en)


# --- the checks ------------------------------------------------------------------------------------------------------

@lru_cache(maxsize=None)      # a pure function of its arguments (the kernels of a level share a few thousand)
def _scale_layouts(g_mn: int, g_k: int, tile_mn: int, tile_k: int, stages: int) -> tuple[str, str]:
    smem = BW.scale_smem(BW.scale_atom(g_mn, g_k, tile_mn, tile_k), stages)
    gmem = BW.scale_global(g_mn, g_k, GLOBAL_TILES * tile_mn, GLOBAL_TILES * tile_k)
    return str(smem), str(gmem)


def _entries(scaled: str, g_mn: int, g_k: int, tile: tuple[int, int, int], copy: str,
             copy_layout: tuple[int, int] | None, smem: str, gmem: str) -> list[tuple[str, str]]:
    out = [("blockwise", scaled), ("granularity", f"[{g_mn}, {g_k}]"), ("tile", f"[{', '.join(map(str, tile))}]"),
           ("copy", _yaml(copy))]
    if copy_layout is not None:
        out.append(("copy_layout", f"[{copy_layout[0]}, {copy_layout[1]}]"))
    out += [("value_type", "float"), ("smem", _yaml(smem)), ("gmem", _yaml(gmem))]
    return out


def sm90_scale_checks(kc: KernelConfig, g: Granularity, mma: AtomFacts, stages: int,
                      atom_layout: tuple[int, int, int]) -> list[BlockwiseScaleCheck]:
    """SFA and SFB of an SM90 kernel; `atom_layout`: the builder's AtomLayoutMNK (the dense path's: (2, 1, 1) for the
    cooperative schedules, (1, 1, 1) for ping-pong), the tiled MMA whose accumulators the scales multiply."""
    m, n, k = kc.tile
    blocks = {"A": m // g.m, "B": n // g.n}
    out = []
    for scaled, g_mn, tile_mn in (("A", g.m, m), ("B", g.n, n)):
        other = blocks["B" if scaled == "A" else "A"]
        tma = (kc.kind != GROUPED_KIND and blocks[scaled] >= SCALE_TMA_THRESHOLD and other < SCALE_TMA_THRESHOLD)
        smem, gmem = _scale_layouts(g_mn, g.k, tile_mn, k, stages)
        copy = TMA if tma else CP_ASYNC_SCALE
        entries = _entries(scaled, g_mn, g.k, kc.tile, copy, None if tma else (WARP, 1), smem, gmem)
        entries.insert(0, ("atom_layout", f"[{', '.join(map(str, atom_layout))}]"))
        out.append(BlockwiseScaleCheck(mma, scaled, copy, tuple(entries)))
    return out


def sm100_scale_copy(blocks_mn: int) -> tuple[str, tuple[int, int]]:
    """sm100_make_simt_gmem_tiled_copy_SF for MN-major scales: at least 32 leading scales a tile, 32 threads with a
    vector of min(scales x 4 / 32, 16) bytes; fewer, one thread a scale."""
    if blocks_mn >= WARP:
        vector = min(blocks_mn * SCALE_BYTES // WARP, MAX_VECTOR_BYTES)
        return CP_ASYNC_BY_BYTES[vector], (WARP, vector // SCALE_BYTES)
    return CP_ASYNC_SCALE, (blocks_mn, 1)


def sm100_scale_checks(kc: KernelConfig, g: Granularity, mma: AtomFacts,
                       stages: int) -> list[BlockwiseScaleCheck] | str:
    found = NAME.search(kc.name)
    assert found is not None
    m, n, k = kc.tile
    epilogue = epilogue_choice(m, n, found["c"], found["d"], found["layouts"][2] == "n")
    if isinstance(epilogue, str):
        return epilogue
    t2r, (em, en) = epilogue
    out = []
    for scaled, g_mn, tile_mn in (("A", g.m, m), ("B", g.n, n)):
        copy, layout = sm100_scale_copy(tile_mn // g_mn)
        smem, gmem = _scale_layouts(g_mn, g.k, tile_mn, k, stages)
        entries = _entries(scaled, g_mn, g.k, kc.tile, copy, layout, smem, gmem)
        entries += [("tmem_load", t2r), ("epilogue_tile", f"[{em}, {en}]")]
        out.append(BlockwiseScaleCheck(mma, scaled, copy, tuple(entries)))
    return out


def dense_config(kc: KernelConfig) -> KernelConfig | str:
    """The kernel as the dense rules map its A and B: the blockwise builder's stage count (SM100: the dense kind and
    1-SM schedule the blockwise builder's A / B match), or why it is not mapped."""
    g = granularity(kc)
    if isinstance(g, str):
        return g
    m, n, k = kc.tile
    if m % g.m or n % g.n or k % g.k:
        return (f"granularity {g.m}x{g.n}x{g.k} on a {m}x{n}x{k} tile: CUTLASS's static_assert \"Scale Granularity "
                "must divide Tile Shape\"")
    if kc.element_acc != SCALE_TYPE:
        return f"{kc.element_acc} accumulators: the blockwise collectives scale float accumulators"
    if kc.arch == 90:
        return replace(kc, stages=kc.stages or sm90_stages(kc, g))
    schedule = SM100_DENSE_SCHEDULES.get(kc.schedule)
    if schedule is None or "2Sm" in schedule:
        return f"blockwise schedule {kc.schedule}: the 2-SM blockwise collective is not modelled"
    return replace(kc, kind=SM100_DENSE_KINDS[kc.kind], schedule=schedule, stages=kc.stages or sm100_stages(kc, g))


def blockwise_paths(kc: KernelConfig, dense: tuple[Any, ...], how: str) -> tuple[tuple[Any, ...], str] | str:
    """The kernel's paths: the dense rules' A and B (`dense`, mapped from `dense_config`; `how` their choices) and a
    blockwise check of the scales of each; or why the scales are not mapped."""
    g = granularity(kc)
    config = dense_config(kc)
    if isinstance(g, str) or isinstance(config, str):
        return g if isinstance(g, str) else str(config)
    mma = dense[0].mma                     # the dense path's atom: the MMA the scales' accumulators come from
    stages = config.stages
    scales = (sm90_scale_checks(kc, g, mma, stages, dense[0].atom_layout) if kc.arch == 90
              else sm100_scale_checks(kc, g, mma, stages))
    if isinstance(scales, str):
        return scales
    return dense + tuple(scales), (f"{how}; blockwise scales {g.m}x{g.k} (A) and {g.n}x{g.k} (B), "
                                   + ", ".join(f"SF{c.scaled} by {c.copy}" for c in scales))
