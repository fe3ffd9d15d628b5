"""A small sm_90a kernel of our own, written with the CuTe DSL and compiled with fake arguments (no GPU) to IR for
the import-dsl tests: TMA fills shared memory, wgmma reads it through descriptors.

One CTA of 128 threads (one warpgroup).  One mainloop tile: two TMA loads (warp 0 issues them) bring a K-major
64x64 half tile of A and of B (B's global rows padded to B_ROW_STRIDE) from global memory into shared memory laid
out with the 128-byte swizzle that the DSL's sm90 helpers pick for 64 half of K (warpgroup.SmemLayoutAtomKind.
K_SW128); one mbarrier, armed with the bytes of both tiles, tells the warpgroup they have landed; a 64x64x16
f16 -> f32 wgmma tiled MMA (both operands from shared memory) runs over the four k blocks; the f32 accumulator goes
to global memory straight from the registers.  Its knobs:

    share_ab        1: one shared allocation, B's view placed over the same bytes as A's (as an attention kernel
                    reuses a buffer for K and then V); both TMA loads fill it and each wgmma operand reads its own
                    view of it (here both loads land before the one wgmma, so B overwrites A: the knob gives
                    the IR's shape, not a working kernel).  0 (default): A and B in separate buffers.
    b_tma_swizzle   the swizzle width in bytes (128, 64, 32 or 0 for none) of the shared layout B's TMA atom is
                    made from, and that TMA's shared view of B is partitioned with, while wgmma reads B through the
                    128-byte layout (a mistake unless 128; default None: the same layout as wgmma's)
    b_tma_mn_major  1: B's TMA atom made from the MN-major 128-byte layout (the same swizzle as the K-major one
                    wgmma reads, other strides), its shared view of B the K-major one (a mistake: TMA lays the
                    tile out by its atom's layout, not by the view it partitions)
    b_tma_k_permuted  1: B's TMA atom made for a CTA tiler whose K mode swaps the tile's k-blocks 1 and 2 (16 elements
                    each), while its shared view and the MMA stay unpermuted: the elements land where wgmma reads them,
                    but the atom's boxes are 16 elements of one row, 32 bytes apart, three in four at a destination TMA
                    refuses (not 128-byte aligned) -- a mistake
    tile_n          the CTA tile's N, the wgmma's N (default 64; 96 names SM90_64x96x16_F32F16F16_SS, an atom the
                    atom library does not write, which its family's rule builds)
    b_global_int8   1: B's global tensor holds int8 (its rows 144 bytes apart), and B's TMA atom is made from it, so
                    it fills the half tile wgmma reads with bytes (a mistake: TMA converts nothing)
    a_tiles_of_b    1: A's TMA partition takes B's global tile (gB, the same shape at the default tile) in place of
                    A's: A's tensor map fetches A at B's tile coordinates (a mistake)
    store_a         "d": after the MMA, A's tile is TMA-stored to a fourth tensor D (f16, A's tile's shape); "b": to
                    B's tensor, which the MMA reads as its B operand (the store overwrites an operand: a mistake);
                    default "": no TMA store
    tiles           "grid": a 2x2 grid of CTAs over A, B and C two tiles each way, CTA (x, y) taking A's M tile x,
                    B's N tile y and C's tile (x, y); "a_at_n": A's M tile taken at y, B's N tile's coordinate (only
                    C's diagonal tiles are right: a mistake); default "": one CTA, every tile at (0, 0)
    stages          S > 1: a mainloop of S k-tiles (A and B are S * 64 wide in K) through S-stage shared buffers, one
                    mbarrier a stage: k-tile k is loaded into stage k % S (a counter modulo S, the loop's trip count
                    not known at compile time) and the wgmmas read that stage (default 1: one tile, no stage mode)
    mma_stage       with stages > 1, the stage the wgmmas read: "same" (k % S, right), "zero" (always stage 0: the
                    stages 1.. the TMA fills are never read, a mistake), "next" ((k + 1) % S, the stage after the
                    one whose barrier they waited on: every stage is read, a step early, a mistake) or "first_zero"
                    (the first k-block's wgmma reads stage 0, the others k % S: a mistake at every other k-tile)
    mma             "sync": in place of wgmma, the warpgroup's four warps run an SM80 mma.sync tiled MMA (16x8x16
                    f16 -> f32, a 2x2 atom layout over the warps, each warp 16x16 a step, two steps each way over
                    the 64x64 tile) whose register fragments ldmatrix fills (non-transposed, 8x8 x4, A and B being
                    K-major) from the half tiles the TMA wrote, through the same 128-byte-swizzled layouts, one k
                    block at a time; the accumulator goes to global memory from the registers by the tiled MMA's
                    partition of C.  Only with the tiles knob (the others at their defaults).  Default "wgmma": as above
    a_reads         with mma="sync", the shared tile A's ldmatrix copy reads: "a" (sA, default) or "b" (sB: the MMA
                    multiplies B by B, a mistake)
    a_fills         the shared tile A's TMA partition fills: "a" (sA, default) or "b" (sB: A's tile lands over B's and
                    nothing fills sA, which the MMA reads -- through its descriptor, or by ldmatrix with mma="sync":
                    a mistake)
    a_atom          the TMA atom A's tile is partitioned and copied with: "a" (A's, default) or "b" (B's, made from
                    B's tensor and B's shared layout: with tile_n=32 its boxes are half A's rows, so the views are not
                    paired, and sA is filled with B's elements -- a mistake) or "partition_b" (A's tile partitioned
                    with B's atom and copied with A's: with tile_n=32 each of the partition's two boxes, B's 32 rows,
                    gets A's 64-row box, twice the bytes the barrier is armed for -- a mistake).  One stage
    epilogue        how the accumulator reaches global memory: "" (default: straight from the registers); "elements"
                    or "views": a CUTLASS-style epilogue of EPI_N-column subtiles -- each subtile's registers of the
                    stmatrix tiled copy's retile of the accumulator ("elements": copied one by one at the retile's
                    indices i * n .. i * n + n - 1 into an f32 buffer; "views": a view of the registers n * i past its
                    iterator, read as a vector), converted to half, stored by stmatrix x4 into a stage of a 32-byte
                    swizzled shared subtile (EPI_STAGES stages, subtile i in stage i % EPI_STAGES), then TMA-stored to
                    its place of an f16 tensor D.  One stage, one tile
    epi_mistake     with an epilogue: "first_registers" (every subtile takes the registers of the first: the offset
                    of subtile i dropped), "reversed" (subtile i stored at the place of subtile n - 1 - i) or
                    "store_next_stage" (subtile i's TMA store reads stage (i + 1) % EPI_STAGES, the stage subtile
                    i - 1's copy wrote or, for subtile 0, none of this tile's): mistakes; default "": none
    epi_wait        with an epilogue: after each subtile's TMA store, wait until at most this many stores are still
                    reading shared memory (cp.async.bulk.wait_group.read N; default 0).  1 is enough for the two
                    stages; 2 lets subtile i + 2's copy rewrite the stage subtile i's store may still read: a race
    epi_fence       with an epilogue: 0 drops the proxy fence between each subtile's copy and its TMA store (the
                    store may read the stage before the copy's writes reach it: a race); default 1
    tx_bytes        the bytes the barrier is armed with: "ab" (default: A's tile and B's), "a" (A's alone: the phase
                    completes before B's tile lands -- a mistake) or "aab" (A's twice: it never completes -- a
                    mistake).  One stage

Run as a script it writes one IR file: `python tests/dsl_tma_kernel.py OUT.mlir [knob=value ...]` (it compiles in
a fresh interpreter whose DSL keeps its IR, CUTE_DSL_ARCH=sm_90a).  With `--compile` in place of OUT.mlir it only
compiles, in the present process (which must have been started with CUTE_DSL_KEEP=ir and CUTE_DSL_DUMP_DIR set).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from dsl_kernels import compile_knobbed, knob_config, run_knobbed  # noqa: E402

ARCH = "sm_90a"
TILE_M, TILE_N, TILE_K = 64, 64, 64     # one CTA tile; wgmma's K is 16: four k blocks a tile
B_ROW_STRIDE = TILE_K + 8               # B's rows padded in global memory (144 bytes), so A's and B's global
                                        # tensors differ and a check can tell which TMA filled a view
THREADS = 128                           # one warpgroup
READER_SWIZZLE_BYTES = 128              # the swizzle wgmma reads A and B through (64 half of K = 128-byte rows)
BUFFER_ALIGN = 1024                     # a 128-byte swizzle pattern repeats every 8 rows of 128 bytes
TMA_WARP = 0                            # the warp that arms the barrier and issues the loads
DEFAULTS: dict[str, Any] = {"share_ab": 0, "b_tma_swizzle": None, "b_tma_mn_major": 0, "tile_n": TILE_N,
                            "b_tma_k_permuted": 0, "b_global_int8": 0, "stages": 1, "mma_stage": "same",
                            "a_tiles_of_b": 0, "store_a": "", "tiles": "", "mma": "wgmma", "a_reads": "a",
                            "a_fills": "a", "a_atom": "a", "epilogue": "", "epi_mistake": "", "epi_wait": 0,
                            "epi_fence": 1, "tx_bytes": "ab"}
MMA_STAGES = ("same", "zero", "next", "first_zero")     # the mma_stage knob's values
STORE_TARGETS = ("", "d", "b")          # the store_a knob's values
TILINGS = ("", "grid", "a_at_n")        # the tiles knob's values
MMAS = ("wgmma", "sync")                # the mma knob's values
A_READS = ("a", "b")                    # the a_reads knob's values (and the a_fills knob's)
A_ATOMS = ("a", "b", "partition_b")     # the a_atom knob's values
SYNC_KNOBS = ("tiles", "mma", "a_reads", "a_fills")    # the knobs mma="sync" takes (the others at their defaults)
SYNC_ATOMS = (2, 2, 1)                  # mma="sync": the tiled MMA's warps along M, N and K
SYNC_STEP = (32, 32, 16)                # mma="sync": the tiled MMA's tile (its permutation), 16x16 a warp
GRID_TILES = 2                          # CTAs (and tiles) each way with the tiles knob
EPI_N = 16                              # epilogue subtiles: TILE_M x EPI_N
EPI_STAGES = 2                          # ... the shared subtile's stages
EPILOGUES = ("", "elements", "views")   # the epilogue knob's values
EPI_MISTAKES = ("", "first_registers", "reversed", "store_next_stage")   # the epi_mistake knob's values
TX_BYTES = ("ab", "a", "aab")           # the tx_bytes knob's values: the tiles the barrier is armed for
SCRIPT = Path(__file__)


def _k_major_atom_kind(swizzle_bytes: int) -> Any:
    from cutlass.cute.nvgpu import warpgroup
    kinds = {128: warpgroup.SmemLayoutAtomKind.K_SW128, 64: warpgroup.SmemLayoutAtomKind.K_SW64,
             32: warpgroup.SmemLayoutAtomKind.K_SW32, 0: warpgroup.SmemLayoutAtomKind.K_INTER}
    if swizzle_bytes not in kinds:
        raise ValueError(f"b_tma_swizzle must be one of {sorted(kinds)}, not {swizzle_bytes}")
    return kinds[swizzle_bytes]


def build(knobs: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """The kernel's host function and its fake arguments, for the knobs (see the module's docstring)."""
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.nvgpu import OperandMajorMode, cpasync, warpgroup
    from cutlass.cute.runtime import make_fake_stream, make_fake_tensor
    from cutlass.utils import hopper_helpers as sm90

    cfg = knob_config(knobs, DEFAULTS, {"mma_stage": MMA_STAGES, "tiles": TILINGS, "store_a": STORE_TARGETS,
                                        "mma": MMAS, "a_reads": A_READS, "a_fills": A_READS,
                                        "a_atom": A_ATOMS, "epilogue": EPILOGUES, "epi_mistake": EPI_MISTAKES,
                                        "tx_bytes": TX_BYTES})
    share_ab = bool(cfg["share_ab"])
    a_tiles_of_b = bool(cfg["a_tiles_of_b"])
    b_tma_bytes = cfg["b_tma_swizzle"] if cfg["b_tma_swizzle"] is not None else READER_SWIZZLE_BYTES
    tile_n = int(cfg["tile_n"])
    stages = int(cfg["stages"])
    tiles = str(cfg["tiles"])
    grid = [GRID_TILES, GRID_TILES, 1] if tiles else [1, 1, 1]
    store_a = str(cfg["store_a"])
    staged = stages > 1
    sync = cfg["mma"] == "sync"
    a_reads_b = cfg["a_reads"] == "b"
    a_fills_b = cfg["a_fills"] == "b"
    a_atom_b, a_partition_b = cfg["a_atom"] == "b", cfg["a_atom"] == "partition_b"
    if (a_atom_b or a_partition_b) and staged:
        raise ValueError("a_atom='b' takes one stage")
    if cfg["tx_bytes"] != DEFAULTS["tx_bytes"] and staged:
        raise ValueError("tx_bytes takes one stage")
    epilogue, epi_mistake = str(cfg["epilogue"]), str(cfg["epi_mistake"])
    if epilogue and (staged or tiles or store_a or sync):
        raise ValueError("an epilogue takes one stage and one tile, without store_a or mma='sync'")
    epi_wait, epi_fence = int(cfg["epi_wait"]), bool(cfg["epi_fence"])
    if (epi_mistake or epi_wait != DEFAULTS["epi_wait"] or not epi_fence) and not epilogue:
        raise ValueError("epi_mistake, epi_wait and epi_fence need an epilogue")
    if sync:
        others = sorted(k for k in DEFAULTS if k not in SYNC_KNOBS and cfg[k] != DEFAULTS[k])
        if others:
            raise ValueError(f"mma='sync' takes only the knobs {SYNC_KNOBS}, not {others}")
    elif a_reads_b:
        raise ValueError("a_reads='b' needs mma='sync'")
    f16, f32 = cutlass.Float16, cutlass.Float32

    def k_major_smem_layout(rows: int, swizzle_bytes: int) -> Any:
        """A (rows, TILE_K) K-major shared layout: the helpers' wgmma layout atom tiled over the tile (and over
        the stages, (rows, TILE_K, stages), when staged)."""
        atom = warpgroup.make_smem_layout_atom(_k_major_atom_kind(swizzle_bytes), f16)
        if staged:
            return cute.tile_to_shape(atom, (rows, TILE_K, stages), order=(0, 1, 2))
        return cute.tile_to_shape(atom, (rows, TILE_K), order=(0, 1))

    def mn_major_smem_layout(rows: int) -> Any:
        """A (rows, TILE_K) MN-major shared layout of the 128-byte swizzle (rows contiguous)."""
        atom = warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.MN_SW128, f16)
        return cute.tile_to_shape(atom, (rows, TILE_K), order=(1, 0))

    @cute.kernel
    def tma_wgmma_kernel(tma_a: cute.CopyAtom, mA: cute.Tensor, tma_b: cute.CopyAtom, mB: cute.Tensor,
                         gC: cute.Tensor, mma: cute.TiledMma, a_layout: cute.ComposedLayout,
                         b_layout: cute.ComposedLayout, b_tma_layout: cute.ComposedLayout):
        kernel_body(tma_a, mA, tma_b, mB, gC, mma, a_layout, b_layout, b_tma_layout, None, None)

    @cute.kernel
    def tma_wgmma_store_kernel(tma_a: cute.CopyAtom, mA: cute.Tensor, tma_b: cute.CopyAtom, mB: cute.Tensor,
                               gC: cute.Tensor, mma: cute.TiledMma, a_layout: cute.ComposedLayout,
                               b_layout: cute.ComposedLayout, b_tma_layout: cute.ComposedLayout,
                               tma_store: cute.CopyAtom, mStore: cute.Tensor):
        kernel_body(tma_a, mA, tma_b, mB, gC, mma, a_layout, b_layout, b_tma_layout, tma_store, mStore)

    @cute.kernel
    def tma_wgmma_epilogue_kernel(tma_a: cute.CopyAtom, mA: cute.Tensor, tma_b: cute.CopyAtom, mB: cute.Tensor,
                                  gC: cute.Tensor, mma: cute.TiledMma, a_layout: cute.ComposedLayout,
                                  b_layout: cute.ComposedLayout, b_tma_layout: cute.ComposedLayout,
                                  tma_d: cute.CopyAtom, mD: cute.Tensor, d_layout: cute.ComposedLayout):
        kernel_body(tma_a, mA, tma_b, mB, gC, mma, a_layout, b_layout, b_tma_layout, tma_d, mD, d_layout)

    @cute.jit
    def kernel_body(tma_a: cute.CopyAtom, mA: cute.Tensor, tma_b: cute.CopyAtom, mB: cute.Tensor,
                    gC: cute.Tensor, mma: cute.TiledMma, a_layout: cute.ComposedLayout,
                    b_layout: cute.ComposedLayout, b_tma_layout: cute.ComposedLayout, tma_store: Any, mStore: Any,
                    d_layout: Any = None):
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())

        @cute.struct
        class Shared:
            full: cute.struct.MemRange[cutlass.Int64, 1]
            ab: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(a_layout)], BUFFER_ALIGN]

        @cute.struct
        class SharedApart:
            full: cute.struct.MemRange[cutlass.Int64, stages]
            a: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(a_layout)], BUFFER_ALIGN]
            b: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(b_layout)], BUFFER_ALIGN]

        @cute.struct
        class SharedEpilogue:
            full: cute.struct.MemRange[cutlass.Int64, 1]
            a: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(a_layout)], BUFFER_ALIGN]
            b: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(b_layout)], BUFFER_ALIGN]
            d: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(d_layout) if d_layout is not None else 1],
                                 BUFFER_ALIGN]

        smem = cutlass.utils.SmemAllocator()
        sD = None
        if cutlass.const_expr(epilogue != ""):
            storage = smem.allocate(SharedEpilogue)
            a_mem, b_mem = storage.a, storage.b
            sD = storage.d.get_tensor(d_layout.outer, swizzle=d_layout.inner)
        elif cutlass.const_expr(share_ab):
            storage = smem.allocate(Shared)
            a_mem, b_mem = storage.ab, storage.ab          # B over the same bytes as A
        else:
            storage = smem.allocate(SharedApart)
            a_mem, b_mem = storage.a, storage.b
        full = storage.full.data_ptr()
        # the views: wgmma reads sA / sB; B's TMA writes sB_tma (the same bytes, maybe another swizzle)
        sA = a_mem.get_tensor(a_layout.outer, swizzle=a_layout.inner)
        sB = b_mem.get_tensor(b_layout.outer, swizzle=b_layout.inner)
        sB_tma = b_mem.get_tensor(b_tma_layout.outer, swizzle=b_tma_layout.inner)

        if warp == TMA_WARP:
            with cute.arch.elect_one():
                for stage in cutlass.range_constexpr(stages):
                    cute.arch.mbarrier_init(full + stage, 1)
        cute.arch.mbarrier_init_fence()
        cute.arch.sync_threads()
        if cutlass.const_expr(staged):
            staged_mainloop(tma_a, mA, tma_b, mB, gC, mma, sA, sB, sB_tma, full, warp, tidx)
            return

        # TMA: the CTA's (only) tile of A and of B, the tile mode grouped as the atom's
        if cutlass.const_expr(tiles != ""):
            # tiles: CTA (x, y) takes A's M tile x (y with a_at_n), B's N tile y and C's tile (x, y)
            bidx, bidy, _ = cute.arch.block_idx()
            gA = cute.local_tile(mA, (TILE_M, TILE_K), (bidy if cutlass.const_expr(tiles == "a_at_n") else bidx, 0))
            gB = cute.local_tile(mB, (tile_n, TILE_K), (bidy, 0))
            gC = cute.local_tile(gC, (TILE_M, tile_n), (bidx, bidy))
        else:
            gA = cute.local_tile(mA, (TILE_M, TILE_K), (0, 0))
            gB = cute.local_tile(mB, (tile_n, TILE_K), (0, 0))
        # a_fills="b": A's TMA partition fills sB (nothing fills sA); a_atom="b": it is made with B's atom
        tma_for_a = tma_b if cutlass.const_expr(a_atom_b) else tma_a
        # a_atom="partition_b": the partition is made with B's atom, the copy takes A's
        partition_a_with = tma_b if cutlass.const_expr(a_partition_b) else tma_for_a
        tAsA, tAgA = cpasync.tma_partition(partition_a_with, 0, cute.make_layout(1),
                                           cute.group_modes(sB if cutlass.const_expr(a_fills_b) else sA, 0, 2),
                                           cute.group_modes(gB if cutlass.const_expr(a_tiles_of_b) else gA, 0, 2))
        tBsB, tBgB = cpasync.tma_partition(tma_b, 0, cute.make_layout(1), cute.group_modes(sB_tma, 0, 2),
                                           cute.group_modes(gB, 0, 2))
        if warp == TMA_WARP:
            with cute.arch.elect_one():
                # tx_bytes: the tiles the barrier is armed for ("ab": A's and B's, as the loads fill)
                a_bytes, b_bytes = cute.size_in_bytes(f16, a_layout), cute.size_in_bytes(f16, b_layout)
                armed = a_bytes if cutlass.const_expr(cfg["tx_bytes"] == "a") else \
                    2 * a_bytes + b_bytes if cutlass.const_expr(cfg["tx_bytes"] == "aab") else a_bytes + b_bytes
                cute.arch.mbarrier_arrive_and_expect_tx(full, armed)
            cute.copy(tma_for_a, tAgA, tAsA, tma_bar_ptr=full)
            cute.copy(tma_b, tBgB, tBsB, tma_bar_ptr=full)
        cute.arch.mbarrier_wait(full, 0)
        if cutlass.const_expr(sync):
            sync_mma(mma, sA, sB, gC, tidx)
            return

        # wgmma: descriptors over sA and sB, the accumulator in registers
        thr_mma = mma.get_slice(tidx)
        tCrA = mma.make_fragment_A(thr_mma.partition_A(sA))
        tCrB = mma.make_fragment_B(thr_mma.partition_B(sB))
        tCgC = thr_mma.partition_C(gC)
        acc = cute.make_rmem_tensor(tCgC.shape, f32)
        mma.set(warpgroup.Field.ACCUMULATE, False)
        warpgroup.fence()
        for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
            cute.gemm(mma, acc, tCrA[None, None, kb], tCrB[None, None, kb], acc)
            mma.set(warpgroup.Field.ACCUMULATE, True)
        warpgroup.commit_group()
        warpgroup.wait_group(0)
        if cutlass.const_expr(store_a != ""):
            # store_a: A's tile TMA-stored (to D, or over B's tensor)
            gS = cute.local_tile(mStore, (TILE_M, TILE_K), (0, 0))
            tSsA, tSgS = cpasync.tma_partition(tma_store, 0, cute.make_layout(1), cute.group_modes(sA, 0, 2),
                                               cute.group_modes(gS, 0, 2))
            if warp == TMA_WARP:
                cute.copy(tma_store, tSsA, tSgS)

        if cutlass.const_expr(epilogue != ""):
            subtile_epilogue(mma, acc, sD, tma_store, mStore, tidx, warp)
            return
        # epilogue: the accumulator straight to global memory
        cute.autovec_copy(acc, tCgC)

    @cute.jit
    def subtile_epilogue(mma: cute.TiledMma, acc: cute.Tensor, sD: cute.Tensor, tma_d: cute.CopyAtom,
                         mD: cute.Tensor, tidx: Any, warp: Any):
        """epilogue: the accumulator stored subtile by subtile (TILE_M x EPI_N) through the shared subtile sD."""
        stsm = cute.make_copy_atom(cute.nvgpu.warp.StMatrix8x8x16bOp(False, 4), f16)
        r2s = cute.make_tiled_copy_S(stsm, cute.make_tiled_copy_C_atom(stsm, mma))
        thr_r2s = r2s.get_slice(tidx)
        tRS_sD = thr_r2s.partition_D(sD)                      # (R2S, R2S_M, R2S_N, stage)
        tRS_rAcc = r2s.retile(acc)
        rD_layout = cute.make_layout(cute.shape(thr_r2s.partition_S(sD))[:3])
        rD = cute.make_rmem_tensor_like(rD_layout, f32)
        n = cute.size(rD)
        gD_tiles = cute.zipped_divide(cute.local_tile(mD, (TILE_M, tile_n), (0, 0)), (TILE_M, EPI_N))
        bSG_sD, bSG_gD = cpasync.tma_partition(tma_d, 0, cute.make_layout(1), cute.group_modes(sD, 0, 2), gD_tiles)
        subtiles = cute.size(gD_tiles, mode=[1])
        for i in cutlass.range_constexpr(subtiles):
            first = 0 if cutlass.const_expr(epi_mistake == "first_registers") else i * n
            if cutlass.const_expr(epilogue == "views"):
                values = cute.make_tensor(tRS_rAcc.iterator + first, rD_layout).load()
            else:
                for v in cutlass.range_constexpr(n):
                    rD[v] = tRS_rAcc[first + v]
                values = rD.load()
            out = cute.make_rmem_tensor_like(rD_layout, f16)
            out.store(values.to(f16))
            stage = i % EPI_STAGES
            cute.copy(r2s, out, tRS_sD[(None, None, None, stage)])
            if cutlass.const_expr(epi_fence):
                cute.arch.fence_proxy("async.shared", space="cta")
            cute.arch.barrier(barrier_id=1, number_of_threads=THREADS)
            place = subtiles - 1 - i if cutlass.const_expr(epi_mistake == "reversed") else i
            if warp == TMA_WARP:
                read = (i + 1) % EPI_STAGES if cutlass.const_expr(epi_mistake == "store_next_stage") else stage
                cute.copy(tma_d, bSG_sD[(None, read)], bSG_gD[(None, (0, place))])
                cute.arch.cp_async_bulk_commit_group()
                cute.arch.cp_async_bulk_wait_group(epi_wait, read=True)
            cute.arch.barrier(barrier_id=1, number_of_threads=THREADS)

    @cute.jit
    def sync_mma(mma: cute.TiledMma, sA: cute.Tensor, sB: cute.Tensor, gC: cute.Tensor, tidx: Any):
        """mma="sync": ldmatrix fills the mma.sync tiled MMA's fragments from sA (sB with a_reads="b") and sB, a k
        block at a time, each followed by its MMA; the accumulator to global memory from the registers."""
        thr_mma = mma.get_slice(tidx)
        tCrA = mma.make_fragment_A(thr_mma.partition_A(sA))                  # (mma, m, k-block)
        tCrB = mma.make_fragment_B(thr_mma.partition_B(sB))
        tCgC = thr_mma.partition_C(gC)
        acc = mma.make_fragment_C(tCgC)
        acc.fill(0.0)
        ldsm = cute.make_copy_atom(cute.nvgpu.warp.LdMatrix8x8x16bOp(False, 4), f16)
        s2r_A, s2r_B = cute.make_tiled_copy_A(ldsm, mma), cute.make_tiled_copy_B(ldsm, mma)
        thr_s2r_A, thr_s2r_B = s2r_A.get_slice(tidx), s2r_B.get_slice(tidx)
        # a_reads="b": A's copy partitions sB (the MMA multiplies B by B)
        tAsA = thr_s2r_A.partition_S(sB if cutlass.const_expr(a_reads_b) else sA)
        tArA = thr_s2r_A.retile(tCrA)
        tBsB, tBrB = thr_s2r_B.partition_S(sB), thr_s2r_B.retile(tCrB)
        for kb in cutlass.range_constexpr(cute.size(tCrA, mode=[2])):
            cute.copy(s2r_A, tAsA[None, None, kb], tArA[None, None, kb])
            cute.copy(s2r_B, tBsB[None, None, kb], tBrB[None, None, kb])
            cute.gemm(mma, acc, tCrA[None, None, kb], tCrB[None, None, kb], acc)
        cute.autovec_copy(acc, tCgC)

    @cute.jit
    def staged_mainloop(tma_a: cute.CopyAtom, mA: cute.Tensor, tma_b: cute.CopyAtom, mB: cute.Tensor, gC: cute.Tensor,
                        mma: cute.TiledMma, sA: cute.Tensor, sB: cute.Tensor, sB_tma: cute.Tensor, full: Any,
                        warp: Any, tidx: Any):
        """k-tile k of A and B loaded into stage k % stages (its own mbarrier), the wgmmas reading the stage the
        mma_stage knob names, the accumulator to global memory."""
        gA = cute.local_tile(mA, (TILE_M, TILE_K), (0, None))                # (m, k, k-tile)
        gB = cute.local_tile(mB, (tile_n, TILE_K), (0, None))
        tAsA, tAgA = cpasync.tma_partition(tma_a, 0, cute.make_layout(1),
                                           cute.group_modes(sB if cutlass.const_expr(a_fills_b) else sA, 0, 2),
                                           cute.group_modes(gA, 0, 2))       # (tile, stage), (tile, k-tile)
        tBsB, tBgB = cpasync.tma_partition(tma_b, 0, cute.make_layout(1), cute.group_modes(sB_tma, 0, 2),
                                           cute.group_modes(gB, 0, 2))
        thr_mma = mma.get_slice(tidx)
        tCrA = mma.make_fragment_A(thr_mma.partition_A(sA))                  # (mma, m, k-block, stage)
        tCrB = mma.make_fragment_B(thr_mma.partition_B(sB))
        tCgC = thr_mma.partition_C(gC)
        acc = cute.make_rmem_tensor(tCgC.shape, f32)
        mma.set(warpgroup.Field.ACCUMULATE, False)
        for k in cutlass.range(cute.size(tAgA, mode=[1])):
            stage = k % stages
            if warp == TMA_WARP:
                with cute.arch.elect_one():
                    cute.arch.mbarrier_arrive_and_expect_tx(full + stage, (TILE_M + tile_n) * TILE_K * 2)
                cute.copy(tma_a, tAgA[None, k], tAsA[None, stage], tma_bar_ptr=full + stage)
                cute.copy(tma_b, tBgB[None, k], tBsB[None, stage], tma_bar_ptr=full + stage)
            cute.arch.mbarrier_wait(full + stage, 0)
            read = 0 if cutlass.const_expr(cfg["mma_stage"] == "zero") else \
                (stage + 1) % stages if cutlass.const_expr(cfg["mma_stage"] == "next") else stage
            warpgroup.fence()
            for kb in cutlass.range_constexpr(TILE_K // 16):
                at = 0 if cutlass.const_expr(cfg["mma_stage"] == "first_zero" and kb == 0) else read
                cute.gemm(mma, acc, tCrA[None, None, kb, at], tCrB[None, None, kb, at], acc)
                mma.set(warpgroup.Field.ACCUMULATE, True)
            warpgroup.commit_group()
            warpgroup.wait_group(0)
        cute.autovec_copy(acc, tCgC)

    @cute.jit
    def launch(a: cute.Tensor, b: cute.Tensor, c: cute.Tensor, stream: Any):
        tma_a, mA, tma_b, mB, mma, a_layout, b_layout, b_tma_layout = atoms(a, b)
        tma_wgmma_kernel(tma_a, mA, tma_b, mB, c, mma, a_layout, b_layout, b_tma_layout).launch(
            grid=grid, block=[THREADS, 1, 1], stream=stream)

    @cute.jit
    def launch_store(a: cute.Tensor, b: cute.Tensor, c: cute.Tensor, d: cute.Tensor, stream: Any):
        tma_a, mA, tma_b, mB, mma, a_layout, b_layout, b_tma_layout = atoms(a, b)
        # store_a: the TMA store's atom, made from D or from B
        a_tma_layout = cute.slice_(a_layout, (None, None, 0)) if staged else a_layout
        tma_store, mStore = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileS2GOp(), b if store_a == "b" else d,
                                                        a_tma_layout, (TILE_M, TILE_K))
        tma_wgmma_store_kernel(tma_a, mA, tma_b, mB, c, mma, a_layout, b_layout, b_tma_layout, tma_store,
                               mStore).launch(grid=grid, block=[THREADS, 1, 1], stream=stream)

    @cute.jit
    def launch_epilogue(a: cute.Tensor, b: cute.Tensor, c: cute.Tensor, d: cute.Tensor, stream: Any):
        tma_a, mA, tma_b, mB, mma, a_layout, b_layout, b_tma_layout = atoms(a, b)
        # the shared subtile: D's rows are N-contiguous, a 64-byte swizzle over EPI_N half, EPI_STAGES stages
        d_atom = warpgroup.make_smem_layout_atom(warpgroup.SmemLayoutAtomKind.K_SW32, f16)
        d_layout = cute.tile_to_shape(d_atom, (TILE_M, EPI_N, EPI_STAGES), order=(0, 1, 2))
        tma_d, mD = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileS2GOp(), d,
                                                cute.slice_(d_layout, (None, None, 0)), (TILE_M, EPI_N))
        tma_wgmma_epilogue_kernel(tma_a, mA, tma_b, mB, c, mma, a_layout, b_layout, b_tma_layout, tma_d, mD,
                                  d_layout).launch(grid=grid, block=[THREADS, 1, 1], stream=stream)

    def atoms(a: Any, b: Any) -> tuple[Any, ...]:
        """The TMA atoms of A and B, the tiled MMA and the shared layouts (traced inside the host function)."""
        a_layout = k_major_smem_layout(TILE_M, READER_SWIZZLE_BYTES)
        b_layout = k_major_smem_layout(tile_n, READER_SWIZZLE_BYTES)
        b_tma_layout = k_major_smem_layout(tile_n, b_tma_bytes)
        a_tma_layout = cute.slice_(a_layout, (None, None, 0)) if staged else a_layout     # one stage's
        tma_a, mA = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), a, a_tma_layout, (TILE_M, TILE_K))
        # b_tma_mn_major: B's atom made from the MN-major 128-byte layout (the same swizzle, other strides), its
        # view of B the K-major one wgmma reads
        b_atom_layout = mn_major_smem_layout(tile_n) if cfg["b_tma_mn_major"] else \
            cute.slice_(b_tma_layout, (None, None, 0)) if staged else b_tma_layout
        # b_tma_k_permuted: B's CTA tiler takes K's 16-element k-blocks in the order 0, 2, 1, 3
        b_tiler = (tile_n, cute.make_layout((16, 2, 2), stride=(1, 32, 16))) if cfg["b_tma_k_permuted"] \
            else (tile_n, TILE_K)
        tma_b, mB = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileG2SOp(), b, b_atom_layout, b_tiler)
        if sync:    # mma="sync": an SM80 mma.sync tiled MMA over the warpgroup's four warps
            mma = cute.make_tiled_mma(cute.nvgpu.warp.MmaF16BF16Op(f16, f32, (16, 8, 16)), cute.make_layout(SYNC_ATOMS),
                                      permutation_mnk=SYNC_STEP)
        else:
            mma = sm90.make_trivial_tiled_mma(f16, f16, OperandMajorMode.K, OperandMajorMode.K, f32, (1, 1, 1),
                                              tiler_mn=(TILE_M, tile_n))
        return tma_a, mA, tma_b, mB, mma, a_layout, b_layout, b_tma_layout

    k = TILE_K * stages                   # A and B in K: one tile a stage
    b_row = k + B_ROW_STRIDE - TILE_K
    each = GRID_TILES if tiles else 1     # tiles of A along M, of B along N, of C each way
    a = make_fake_tensor(f16, (each * TILE_M, k), stride=(k, 1), assumed_align=16)
    b = make_fake_tensor(cutlass.Int8, (each * tile_n, k), stride=(2 * b_row, 1), assumed_align=16) \
        if cfg["b_global_int8"] else make_fake_tensor(f16, (each * tile_n, k), stride=(b_row, 1), assumed_align=16)
    c = make_fake_tensor(f32, (each * TILE_M, each * tile_n), stride=(each * tile_n, 1), assumed_align=16)
    if store_a:
        d = make_fake_tensor(f16, (TILE_M, TILE_K), stride=(TILE_K, 1), assumed_align=16)
        return launch_store, (a, b, c, d, make_fake_stream())
    if epilogue:
        d = make_fake_tensor(f16, (TILE_M, tile_n), stride=(tile_n, 1), assumed_align=16)
        return launch_epilogue, (a, b, c, d, make_fake_stream())
    return launch, (a, b, c, make_fake_stream())


def compile_tma_kernel(target: Path, **knobs: Any) -> Path:
    """Compile the kernel with the knobs for sm_90a and write its IR to `target` (in a fresh interpreter)."""
    return compile_knobbed(SCRIPT, ARCH, target, knobs)


if __name__ == "__main__":
    run_knobbed(SCRIPT, ARCH, build, __doc__)
