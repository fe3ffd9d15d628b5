"""The concrete objects of a scale check, built once: the MMA's scale-factor read (kind, vector size, rows it reads),
the shared and TMEM SF tiles at the operand's coordinates, the tile of the global SF tensor, the TMA box CuTe derives
for a stage, the tcgen05.cp copies make_utccp_copy hands out and the TMEM address each k-block's MMA is given.

Problems CuTe would meet, or the models do not cover, are kept as data (`problems`) for the theorems to report.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

from ...algebra.inttuple import AlgebraError, Underscore, flatten_to_tuple, product
from ...algebra.layout import Layout, make_layout
from ...cute import blockscaled as BS
from ...hardware import tma as TMA
from ...hardware import umma_scale as US
from ...hardware.tcgen05_cp import CpShape
from ...specfile.model import MMAAtomSpec
from .config import ScaleCheck

UTCCP_SHAPE = CpShape.S32x128b_X4        # SM100_UTCCP_4x32dp128bit_*: tcgen05.cp.32x128b.warpx4


@dataclass
class ScaleSetup:
    check: ScaleCheck
    atom: MMAAtomSpec
    cta_group: int
    rows_read: int                        # rows (A) / columns (B) of the MMA whose factors this CTA holds
    k_mma: int                            # the instruction's K
    vec: US.ScaleVec | None
    vec_problem: str | None
    smem_view: Layout                     # (mn, k, stage) -> SF byte (stage-relative offsets included)
    tmem_tile: Layout                     # CuTe's TMEM SF tile ((mn x replica, k), n_mn, n_k) -> TMEM element
    tmem_view: Layout                     # (mn, replica, k) -> TMEM element (lane << 18 | byte column)
    tile_global: Layout                   # (mn, k) of one CTA tile -> global SF byte, relative to the tile's first
    tile_index: Layout                    # (tile along MN, tile along K) -> the tile's first global byte
    tiles: tuple[int, int]                # tiles of the global SF tensor along (MN, K)
    tma: BS.SfTma | None
    tma_problem: str | None
    tensor_map: TMA.TensorMapND | None = None    # the box as cuTensorMapEncodeTiled takes it (uint16 elements)
    copies: list[BS.UtccpCopy] = field(default_factory=list)
    copies_problem: str | None = None
    copies_rule: str | None = None         # CuTe's static_assert when make_utccp_copy refuses the TMEM tile
    # tmem_sf_frg's static_assert refusing the TMEM SF tile (the allocation, the shared tile's shape): the rule, what
    # it met, and the field it reads
    tmem_refused: TmemRefused | None = None
    block_problem: str | None = None      # why CUTLASS's SF layouts do not exist for the shared tile's shape
    load_layout: Layout | None = None     # (mn', k) -> SF byte: the tensor TMA's tiles are cut from (gmem, or the
                                          # collective's remap for an N of 64 / 192)
    odd_shift: int = 0                    # rows the odd N tiles' MMA skips in the SF tile (CTA N 64 / 192), else 0
    cta_tiles: int = 1                    # the CTA's N tiles over the global SF tensor (with odd_shift)

    @property
    def remapped(self) -> bool:
        """SFB of a CTA N of 64 or 192: CUTLASS's coordinate remap and odd-tile TMEM shift (CTA_N_GLUE)."""
        return self.odd_shift != 0

    @property
    def mn(self) -> int:
        return self.check.mn * self.check.n_mn

    @property
    def tile_k(self) -> int:
        return self.check.k_mma * self.check.n_k

    @property
    def vs(self) -> int:
        return self.check.sf_vec_size

    @property
    def factors_k(self) -> int:
        """Scale factors of a row over the tile's K."""
        return self.tile_k // self.vs

    @property
    def stages(self) -> int:
        return self.check.stages

    @property
    def stage_bytes(self) -> int:
        """The bytes one stage spans (CuTe's stage stride)."""
        return int(self.check.smem.mode(3).stride) if self.check.smem.rank() > 3 else int(self.check.smem.cosize())

    @property
    def k_blocks(self) -> int:
        """MMAs of one stage (each reads its own factors)."""
        return self.tile_k // self.k_mma

    @cached_property
    def lowest_byte(self) -> int:
        """The least shared byte (relative to the buffer) the layout gives any factor of any stage; negative when the
        layout reaches before the buffer (a stage stride counts only when there are stages to step through)."""
        lowest = min(self.stage_table, default=0)
        return lowest + (self.stages - 1) * min(self.stage_bytes, 0)

    @cached_property
    def stage_table(self) -> list[int]:
        """Stage 0's byte of every (mn, k), mn fastest (index mn + MN k)."""
        view = self.smem_view.slice((Underscore, Underscore, 0)) if self.smem_view.rank() > 2 else self.smem_view
        return [int(v) for v in view.values()]

    def tsf_element(self, k_block: int) -> int:
        """The TMEM element CuTe hands the MMA of k-block `k_block`: tCtSF(_, _, k_block)'s first."""
        return BS.value_at(self.tmem_view, 0, 0, k_block * self.k_mma)


TMA_SF_TYPE = "uint16"            # make_tma_atom_*_sm100<uint16_t>: the SF tensor map's data type
TWO_BY_TWO_RULE = "Should be 2x2 Datapath"   # tmem_sf_frg's static_assert(N_SM == 2) for SFB's 2x2 data path
MMA_SF_RULE = "Expected an MMA-SF partitioned tensor"   # tmem_sf_frg::make: the MMA's K mode is (VS, NSF)
MMA_SF_K_RANK = 2


@dataclass(frozen=True)
class TmemRefused:
    """tmem_sf_frg's refusal of a configuration: its rule, what it met, and the check's field that reads it."""
    rule: str
    detail: str
    field: str


def tensor_map(tma: BS.SfTma, global_layout: Layout) -> TMA.TensorMapND:
    """The tensor map of the SF box: each dimension's global extent is the global SF tensor's mode of that stride
    (construct_tma_gbasis gives every box mode its gmem mode), the box itself where no mode has it (a run of
    modes, dimension 0: one 512-byte block)."""
    leaves = dict(zip((int(d) for d in flatten_to_tuple(global_layout.stride)),
                      (int(n) for n in flatten_to_tuple(global_layout.shape))))
    dims = [tma.box[0]] + [max(b, leaves.get(gs, b)) for b, gs in zip(tma.box[1:], tma.global_strides[1:])]
    return TMA.TensorMapND(TMA_SF_TYPE, tma.box, tuple(dims), tma.global_strides[1:])


def _cta_group(atom: MMAAtomSpec) -> int:
    return int(atom.thr_id.size())


def build(check: ScaleCheck, atom: MMAAtomSpec) -> ScaleSetup:
    """Everything the theorems need, read off the check and CuTe's derivations."""
    m, n, k = atom.shape_mnk
    group = _cta_group(atom)
    rows = m // group if check.scaled == "A" else n
    vec_or_why = US.scale_vec_of(atom.instruction or "", k)
    vec = vec_or_why if isinstance(vec_or_why, US.ScaleVec) else None
    mn_mma, k_part = check.mn, check.k_mma
    stage_view = BS.mn_k_view(check.smem, mn_mma, k_part)
    block_problem = check.sf_shape.problem()
    tmem_tile = check.tmem
    tmem_refused = None
    if tmem_tile is None and block_problem is None:
        atom_shape = BS.SfShape(mn_mma, k_part, check.sf_vec_size, check.k_mma * check.n_k)
        # tmem_sf_frg::make(shape(SmemLayoutAtomSF)): the MMA's K mode is (VS, NSF); SFA always takes the 4x1 atom,
        # whatever the allocation; SFB's 2x2 data path exists on a CTA pair only (its static_asserts)
        k_mode = check.smem.mode(0).mode(1)
        alloc = check.tmem_alloc if check.scaled == "B" else BS.SfAlloc.DUPLICATED_4BY1
        if k_mode.rank() != MMA_SF_K_RANK:
            tmem_refused = TmemRefused(MMA_SF_RULE, f"tmem_sf_frg of the shared SF tile: the MMA's K mode {k_mode} is "
                                                    "not (VS, NSF)", "smem")
        elif alloc is BS.SfAlloc.DUPLICATED_2BY2 and group != BS.TWO_BY_TWO_CTAS:
            tmem_refused = TmemRefused(TWO_BY_TWO_RULE, f"tmem_sf_frg of SFB with tmem_alloc {alloc.value} on an MMA "
                                                        f"of {group} CTA(s)", "tmem_alloc")
        tmem_tile = BS.tmem_sf(atom_shape, alloc)
    if tmem_tile is None:   # no CuTe TMEM tile exists: a stand-in of the right shape; theorem 25 says why
        tmem_tile = Layout(((mn_mma * BS.REPLICAS, k_part), check.n_mn, check.n_k))
    tmem_view = BS.mn_k_view(tmem_tile, mn_mma, k_part, BS.REPLICAS)
    g = check.gmem
    remap = BS.cta_n_remap(g, rows) if check.scaled == "B" and rows % BS.SF_BLOCK_ROWS else None
    load = remap if remap is not None else g
    g_mn, g_k = int(product(load.mode(0).shape)), int(product(load.mode(1).shape))
    tile_k = k_part * check.n_k
    tile_mn = mn_mma * check.n_mn
    tma: BS.SfTma | None = None
    tma_problem: str | None = None
    if g_mn % tile_mn or g_k % tile_k:
        tile_global, tile_index, tiles = load, Layout(1, 0), (1, 1)
        tma_problem = f"the global SF tensor's {g_mn} x {g_k} (MN x K) is no whole number of {tile_mn} x {tile_k} tiles"
    else:
        tile_global, tile_index = BS.tile_of(load, tile_mn, tile_k)
        tiles = (g_mn // tile_mn, g_k // tile_k)
        stage0 = stage_view.slice((Underscore, Underscore, 0)) if stage_view.rank() > 2 else stage_view
        found = BS.sf_tma(tile_global, stage0)
        if isinstance(found, BS.SfTma):
            tma = found
        else:
            tma_problem = found
    s = ScaleSetup(check, atom, group, rows, k, vec, None if vec else str(vec_or_why), stage_view, tmem_tile,
                   tmem_view, tile_global, tile_index, tiles, tma, tma_problem, block_problem=block_problem,
                   load_layout=load)
    s.tmem_refused = tmem_refused
    if remap is not None:
        s.odd_shift = BS.ODD_TILE_ROWS
        s.cta_tiles = -(-int(product(g.mode(0).shape)) // rows)
    if tma is not None:
        s.tensor_map = tensor_map(tma, g)
    try:
        stage_tile = make_layout(*check.smem.modes()[:3])
        _, s.copies = BS.utccp_copies(check.copy, stage_tile, tmem_tile)
    except AlgebraError as e:     # CuTe's make_utccp_copy refuses the TMEM tile (its own static_assert)
        s.copies_problem, s.copies_rule = str(e), e.rule
    return s

