"""A small sm_100a kernel of our own, written with the CuTe DSL and compiled with fake arguments (no GPU) to IR for
the import-dsl tests: TMA fills shared memory, tcgen05.mma reads it through descriptors and accumulates in tensor
memory, tcgen05.ld brings the accumulator to registers.

One CTA of 128 threads (four warps).  Two TMA loads (warp 0 issues them) bring a K-major 128x64 half tile of A and a
K-major 64x64 half tile of B into shared memory laid out as the DSL's sm100 helpers pick for them
(make_smem_layout_a / _b: the 128-byte swizzle for 64 half of K); one mbarrier, armed with the bytes of both tiles,
tells the MMA warp they have landed.  Warp 0 allocates ACC_COLUMNS columns of tensor memory (a power of two covering
ACC_STAGES accumulators of TILE_N f32 columns) and the accumulator is staged: `tiled_mma.make_fragment_C` of the
(M, N) accumulator shape with ACC_STAGES appended, over the pointer tcgen05.alloc wrote, the stage the last mode.
Then a loop over `num_tiles` output tiles (a kernel argument: the loop is not unrolled): tile t takes accumulator
stage t % ACC_STAGES.  Warp 0 waits for the stage to be empty, runs the 128x64x16 f16 -> f32 tcgen05 tiled MMA
(cta_group 1, A and B from shared memory) over the four k blocks into the stage (the first k block with accumulate
off) and commits to the stage's "full" mbarrier; the 128 threads wait on it, load the stage to registers with a
tcgen05.ld 32dp32b x64 tiled copy (make_tmem_copy over the stage: thread i takes row i), release the stage (its
"empty" mbarrier) and store the registers to C's tile t (global memory, f32, straight from the registers).  Every
tile multiplies the same A and B: the kernel is about the accumulator's stages, not the GEMM.  Warp 0 frees the
tensor memory at the end.  Its knobs:

    acc_stage       the accumulator stage each side takes: "same" (default: the MMA and the epilogue both take stage
                    t % ACC_STAGES, right), "mma_zero" (the MMA always writes stage 0 while the epilogue reads
                    t % ACC_STAGES: it reads stage 1 never written, a mistake), "load_zero" (the MMA writes
                    t % ACC_STAGES while the epilogue always reads stage 0: a mistake at every odd tile),
                    "load_next" (the epilogue waits on acc_full of stage t % ACC_STAGES but reads stage
                    (t % ACC_STAGES + 1) % ACC_STAGES: the other tile's stage, which its wait does not say is full,
                    a mistake), "mma_next" (the MMA warp waits on acc_empty of stage t % ACC_STAGES but writes stage
                    (t % ACC_STAGES + 1) % ACC_STAGES: a stage its wait does not say is empty, a mistake),
                    "load_reversed" (the epilogue waits on acc_full of stage s = t % ACC_STAGES but reads stage 1 - s:
                    of two stages the other one, a mistake) or "both_reversed" (both sides take stage 1 - s: a
                    renaming of the two stages, harmless)
    views           "two" (default: the MMA's code and the epilogue's each retrieve the tensor-memory pointer and build
                    their own staged accumulator tensor from it, as warp-specialized kernels do) or "one" (one staged
                    tensor, built once before the loop, used by both)
    extra_tmem      a tile of the kernel's own the 128 threads store to tensor memory before the loop: "" (default:
                    none, ACC_COLUMNS columns allocated), "apart" (EXTRA_ACC_COLUMNS columns allocated and a 128x64
                    f32 tile, each thread's row of zeros from registers, stored with a tcgen05.st 32dp32b x64 tiled
                    copy (make_tmem_copy over a plain (128,64) view of the pointer tcgen05.alloc wrote plus
                    EXTRA_OFFSETS["apart"] = 128 columns) and waited for (tcgen05.wait::st) at columns 128..191: a
                    scratch tile apart from the accumulator that nothing reads, as block-scaled kernels copy their
                    scale factors into tensor memory after their accumulators, right) or "over" (the same store at
                    EXTRA_OFFSETS["over"] = 64 columns, 64..127: over the accumulator's stage 1 before the MMAs of
                    tile 1, a write of the accumulator that no MMA makes, a mistake; EXTRA_ACC_COLUMNS allocated)
    mma_view_stages the stages of the MMA's own view of the accumulator (default None: ACC_STAGES; views="two"
                    only): 1 builds it with one stage (its stage mode 1:0), so the MMA writes every tile in the same
                    columns while the epilogue reads two stages (a mistake)
    epi_offset      columns added to the pointer the epilogue's own view is made of (default 0; views="two" only):
                    64 reads each stage one stage further on, stage 1 in columns the MMAs never write (a mistake)
    alloc_columns   the columns tcgen05.alloc allocates (default None: ACC_COLUMNS, or EXTRA_ACC_COLUMNS with an
                    extra tile); 64 allocates one stage's columns for the two-stage accumulator, whose stage 1 then
                    lies past the allocation (a mistake)
    epilogue        how a stage reaches global memory: "" (default: each thread's row straight from the registers) or
                    "tma": a CUTLASS-style epilogue of TILE_M x EPI_N subtiles in a loop over the subtiles (not
                    unrolled) -- subtile i loaded from tensor memory (a tcgen05.ld 32dp32b x32 tiled copy over the
                    stage's flat_divide by the subtile), stored by the tiled copy make_tiled_copy_D builds from the
                    smem store op CUTLASS's helper picks into stage i % EPI_STAGES of a staged shared subtile (the
                    helper's epilogue layout), a proxy fence and a barrier, then warp 0's TMA store of that stage to
                    subtile i of C's tile, a commit and a wait until EPI_STAGES - 1 stores are still reading
    epi_counter     with epilogue="tma": "" (default: subtile i's stage is i % EPI_STAGES) or "carried" (a counter the
                    loop carries from pass to pass, advanced by one at the start of each, its value modulo
                    EPI_STAGES the stage -- as CUTLASS's Blackwell epilogues keep their stage count; right)
    epi_t2r_tile    with epilogue="tma": "subtile" (default: the tcgen05.ld tiled copy made over one subtile) or "stage"
                    (made over the whole 128x64 stage: make_tmem_copy takes its atom's 128x32 tiler either way, the
                    same tiled copy -- harmless)
    epi_mistake     with epilogue="tma": "store_next_stage" (the TMA store reads stage (i + 1) % EPI_STAGES: the
                    subtile the copy wrote before, or at i = 0 a stage not yet written, put at subtile i's place),
                    "store_first_place" (every subtile stored to subtile 0's place), "load_first_subtile" (every
                    subtile loads subtile 0 of tensor memory): mistakes

Run as a script it writes one IR file: `python tests/dsl_tmem_kernel.py OUT.mlir [knob=value ...]` (it compiles in
a fresh interpreter whose DSL keeps its IR, CUTE_DSL_ARCH=sm_100a).  With `--compile` in place of OUT.mlir it only
compiles, in the present process (which must have been started with CUTE_DSL_KEEP=ir and CUTE_DSL_DUMP_DIR set).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from dsl_kernels import compile_knobbed, knob_config, run_knobbed  # noqa: E402

ARCH = "sm_100a"
TILE_M, TILE_N, TILE_K = 128, 64, 64    # the MMA's tile (M x N) and the one K tile of A and B
MMA_K = 16                              # tcgen05.mma's K for 16-bit operands: four k blocks a tile
THREADS = 128                           # four warps: warp w's tcgen05.ld reaches tensor-memory lanes 32w..32w+31
ACC_STAGES = 2                          # accumulators in tensor memory, the last mode of the staged tensor
ACC_COLUMNS = 128                       # the columns allocated: a power of two >= ACC_STAGES * TILE_N (f32: one each)
EXTRA_ACC_COLUMNS = 256                 # the columns allocated with an extra tile (extra_tmem "apart" or "over")
EXTRA_OFFSETS = {"apart": 128, "over": 64}   # the extra tile's first column, a constant offset of the TMEM pointer
TMEM_LANE_STRIDE = 1 << 16              # a tensor-memory address: the lane in its upper 16 bits, the column below
MMA_WARP = 0                            # the warp that issues TMA and the MMA, allocates and frees tensor memory
BUFFER_ALIGN = 1024                     # a 128-byte swizzle pattern repeats every 8 rows of 128 bytes
EPI_N = 32                              # epilogue="tma": subtiles of TILE_M x EPI_N
EPI_STAGES = 2                          # ... through a shared subtile of this many stages
DEFAULTS: dict[str, Any] = {"acc_stage": "same", "views": "two", "extra_tmem": "", "alloc_columns": None,
                            "mma_view_stages": None, "epi_offset": 0, "epilogue": "", "epi_mistake": "",
                            "epi_counter": "", "epi_t2r_tile": "subtile"}
EPILOGUES = ("", "tma")                                 # the epilogue knob's values
EPI_MISTAKES = ("", "store_next_stage", "store_first_place", "load_first_subtile")   # the epi_mistake knob's values
EPI_COUNTERS = ("", "carried")                          # the epi_counter knob's values
EPI_T2R_TILES = ("subtile", "stage")                    # the epi_t2r_tile knob's values
ACC_STAGE_CHOICES = ("same", "mma_zero", "load_zero", "load_next", "mma_next", "load_reversed",
                     "both_reversed")   # the acc_stage knob's values
VIEW_CHOICES = ("two", "one")                           # the views knob's values
EXTRA_TMEM_CHOICES = ("", *EXTRA_OFFSETS)               # the extra_tmem knob's values
SCRIPT = Path(__file__)


def build(knobs: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """The kernel's host function and its fake arguments, for the knobs (see the module's docstring)."""
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.nvgpu import OperandMajorMode, cpasync, make_tiled_tma_atom_A, make_tiled_tma_atom_B, tcgen05
    from cutlass.cute.runtime import make_fake_stream, make_fake_tensor
    from cutlass.cute.typing import SymInt
    from cutlass.utils import blackwell_helpers as sm100

    from cutlass.tensor_utils import LayoutEnum

    cfg = knob_config(knobs, DEFAULTS, {"acc_stage": ACC_STAGE_CHOICES, "views": VIEW_CHOICES,
                                        "extra_tmem": EXTRA_TMEM_CHOICES, "epilogue": EPILOGUES,
                                        "epi_mistake": EPI_MISTAKES, "epi_counter": EPI_COUNTERS,
                                        "epi_t2r_tile": EPI_T2R_TILES})
    tma_epilogue = cfg["epilogue"] == "tma"
    epi_mistake = str(cfg["epi_mistake"])
    carried = cfg["epi_counter"] == "carried"
    t2r_over_stage = cfg["epi_t2r_tile"] == "stage"
    if (epi_mistake or carried or t2r_over_stage) and not tma_epilogue:
        raise ValueError("epi_mistake, epi_counter and epi_t2r_tile need epilogue='tma'")
    mma_stage_zero = cfg["acc_stage"] == "mma_zero"
    load_stage_zero = cfg["acc_stage"] == "load_zero"
    mma_stage_next = cfg["acc_stage"] == "mma_next"
    load_stage_next = cfg["acc_stage"] == "load_next"
    load_reversed = cfg["acc_stage"] in ("load_reversed", "both_reversed")
    mma_reversed = cfg["acc_stage"] == "both_reversed"
    one_view = cfg["views"] == "one"
    extra_offset = EXTRA_OFFSETS.get(cfg["extra_tmem"])       # None: no extra tile
    mma_view_stages = cfg["mma_view_stages"] or ACC_STAGES
    epi_offset = int(cfg["epi_offset"])
    if (mma_view_stages != ACC_STAGES or epi_offset) and one_view:
        raise ValueError("mma_view_stages and epi_offset shape the views of views='two'")
    acc_columns = cfg["alloc_columns"] or (ACC_COLUMNS if extra_offset is None else EXTRA_ACC_COLUMNS)
    f16, f32 = cutlass.Float16, cutlass.Float32
    mma_tiler = (TILE_M, TILE_N, TILE_K)

    def acc_index(stage: Any, zero: bool, next_stage: bool, reversed_stage: bool = False) -> Any:
        """The accumulator stage a side slices for the stage it waited on: 0, the next stage, the stage reversed
        (1 - stage) or the stage itself (plain Python, run while tracing: the "next" stage is emitted as
        (stage + 1) % ACC_STAGES)."""
        if zero:
            return 0
        if next_stage:
            return (stage + 1) % ACC_STAGES
        if reversed_stage:
            return 1 - stage
        return stage

    def tiled_mma() -> Any:
        return sm100.make_trivial_tiled_mma(f16, f16, OperandMajorMode.K, OperandMajorMode.K, f32,
                                            tcgen05.CtaGroup.ONE, (TILE_M, TILE_N))

    @cute.kernel
    def tmem_kernel(tma_a: cute.CopyAtom, mA: cute.Tensor, tma_b: cute.CopyAtom, mB: cute.Tensor, mC: cute.Tensor,
                    mma: cute.TiledMma, a_layout: cute.ComposedLayout, b_layout: cute.ComposedLayout,
                    num_tiles: cutlass.Int32, tma_d: Any, mD: Any, d_layout: Any) -> None:
        tidx, _, _ = cute.arch.thread_idx()
        warp = cute.arch.make_warp_uniform(cute.arch.warp_idx())

        @cute.struct
        class Shared:
            loaded: cute.struct.MemRange[cutlass.Int64, 1]              # TMA -> MMA (expect-tx)
            acc_full: cute.struct.MemRange[cutlass.Int64, ACC_STAGES]   # MMA -> epilogue (tcgen05.commit)
            acc_empty: cute.struct.MemRange[cutlass.Int64, ACC_STAGES]  # epilogue -> MMA (each thread arrives)
            tmem_base: cutlass.Int32                                    # where tcgen05.alloc writes the address
            a: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(a_layout)], BUFFER_ALIGN]
            b: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(b_layout)], BUFFER_ALIGN]

        @cute.struct
        class SharedWithSubtile:     # epilogue="tma": the staged shared subtile too
            loaded: cute.struct.MemRange[cutlass.Int64, 1]
            acc_full: cute.struct.MemRange[cutlass.Int64, ACC_STAGES]
            acc_empty: cute.struct.MemRange[cutlass.Int64, ACC_STAGES]
            tmem_base: cutlass.Int32
            a: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(a_layout)], BUFFER_ALIGN]
            b: cute.struct.Align[cute.struct.MemRange[f16, cute.cosize(b_layout)], BUFFER_ALIGN]
            d: cute.struct.Align[cute.struct.MemRange[f32, cute.cosize(d_layout) if tma_epilogue else 1],
                                 BUFFER_ALIGN]

        smem = cutlass.memory.SmemAllocator()
        storage = smem.allocate(SharedWithSubtile if tma_epilogue else Shared)
        loaded = storage.loaded.data_ptr()
        acc_full = storage.acc_full.data_ptr()
        acc_empty = storage.acc_empty.data_ptr()
        tmem_base = storage.tmem_base
        # the staged views tcgen05.mma reads: ((MMA_M, MMA_K), REST_M, REST_K, 1)
        sA = storage.a.get_tensor(a_layout.outer, swizzle=a_layout.inner)
        sB = storage.b.get_tensor(b_layout.outer, swizzle=b_layout.inner)

        if warp == MMA_WARP:
            with cute.arch.elect_one():
                cute.arch.mbarrier_init(loaded, 1)
                for s in cutlass.range_constexpr(ACC_STAGES):
                    cute.arch.mbarrier_init(acc_full + s, 1)
                    cute.arch.mbarrier_init(acc_empty + s, THREADS)
            cute.arch.alloc_tmem(acc_columns, tmem_base)
            cute.arch.relinquish_tmem_alloc_permit()
        cute.arch.mbarrier_init_fence()
        cute.arch.sync_threads()         # the barriers initialised and the tensor-memory address written

        # TMA: the CTA's (only) tile of A and of B, partitioned as the MMA reads them, the tile modes grouped
        thr_mma = mma.get_slice(0)
        tCgA = thr_mma.partition_A(cute.local_tile(mA, cute.slice_(mma_tiler, (None, 0, None)), (0, 0)))
        tCgB = thr_mma.partition_B(cute.local_tile(mB, cute.slice_(mma_tiler, (0, None, None)), (0, 0)))
        tAsA, tAgA = cpasync.tma_partition(tma_a, 0, cute.make_layout(1), cute.group_modes(sA, 0, 3),
                                           cute.group_modes(tCgA, 0, 3))
        tBsB, tBgB = cpasync.tma_partition(tma_b, 0, cute.make_layout(1), cute.group_modes(sB, 0, 3),
                                           cute.group_modes(tCgB, 0, 3))
        if warp == MMA_WARP:
            with cute.arch.elect_one():
                cute.arch.mbarrier_arrive_and_expect_tx(loaded, cute.size_in_bytes(f16, a_layout)
                                                        + cute.size_in_bytes(f16, b_layout))
            cute.copy(tma_a, tAgA, tAsA[None, 0], tma_bar_ptr=loaded)
            cute.copy(tma_b, tBgB, tBsB[None, 0], tma_bar_ptr=loaded)
            cute.arch.mbarrier_wait(loaded, 0)      # A and B have landed (only the MMA warp reads them)

        # the operands' descriptors: (MMA, MMA_M / MMA_N, k-block, 1)
        tCrA = mma.make_fragment_A(sA)
        tCrB = mma.make_fragment_B(sB)
        # the staged accumulator: ((MMA_M, MMA_N), 1, 1, ACC_STAGES) in tensor memory
        acc_shape = mma.partition_shape_C((TILE_M, TILE_N))
        acc_fragment = mma.make_fragment_C(cute.append(acc_shape, ACC_STAGES))
        shared_acc: Any = staged_accumulator(tmem_base, acc_fragment, 0) if cutlass.const_expr(one_view) else None
        mma_fragment = mma.make_fragment_C(cute.append(acc_shape, mma_view_stages))

        if cutlass.const_expr(extra_offset is not None):
            store_extra_tile(tidx, tmem_base, extra_offset)

        # the tcgen05.ld atom: 32 lanes x 32 bits, 64 columns (one row of a stage a thread)
        load_atom = cute.make_copy_atom(tcgen05.Ld32x32bOp(tcgen05.Repetition.x64), f32)
        for t in cutlass.range(num_tiles):
            stage = t % ACC_STAGES
            phase = (t // ACC_STAGES) % 2
            if warp == MMA_WARP:
                # the stage's last reader has released it (a fresh barrier passes the wait on parity 1)
                cute.arch.mbarrier_wait(acc_empty + stage, 1 - phase)
                mma_acc = shared_acc if cutlass.const_expr(one_view) else staged_accumulator(tmem_base, mma_fragment, 0)
                mma_stage = acc_index(stage, mma_stage_zero, mma_stage_next, mma_reversed)
                mma_tile(mma, mma_acc[(None, None, None, mma_stage)], tCrA, tCrB)
                with cute.arch.elect_one():
                    tcgen05.commit(acc_full + stage)

            # epilogue: every thread waits for the stage, loads its row of it and stores it to C's tile t
            cute.arch.mbarrier_wait(acc_full + stage, phase)
            epi_acc = shared_acc if cutlass.const_expr(one_view) else staged_accumulator(tmem_base, acc_fragment,
                                                                                          epi_offset)
            acc_tile = epi_acc[(None, None, None, acc_index(stage, load_stage_zero, load_stage_next, load_reversed))]
            t2r = tcgen05.make_tmem_copy(load_atom, acc_tile)
            thr_t2r = t2r.get_slice(tidx)
            tTR_tAcc = thr_t2r.partition_S(acc_tile)
            if cutlass.const_expr(tma_epilogue):
                sD = storage.d.get_tensor(d_layout.outer, swizzle=d_layout.inner)
                subtile_epilogue(acc_tile, sD, tma_d, mD, t, tidx, warp)
                cute.arch.mbarrier_arrive(acc_empty + stage)
            else:
                tCgC = thr_mma.partition_C(cute.local_tile(mC, (TILE_M, TILE_N), (0, t)))  # as acc_tile: ((M, N), 1, 1)
                tTR_gC = thr_t2r.partition_D(tCgC)
                tTR_rAcc = cute.make_rmem_tensor(tTR_gC.shape, f32)
                cute.copy(t2r, tTR_tAcc, tTR_rAcc)
                cute.arch.fence_view_async_tmem_load()     # tcgen05.wait::ld: the stage read, the registers full
                cute.arch.mbarrier_arrive(acc_empty + stage)
                cute.autovec_copy(tTR_rAcc, tTR_gC)

        cute.arch.sync_threads()         # every load of tensor memory done
        if warp == MMA_WARP:
            cute.arch.dealloc_tmem(cute.arch.retrieve_tmem_ptr(f32, 16, tmem_base), acc_columns)

    @cute.jit
    def subtile_epilogue(acc_tile: cute.Tensor, sD: cute.Tensor, tma_d: Any, mD: Any, t: Any, tidx: Any,
                         warp: Any) -> None:
        """epilogue="tma": the stage stored subtile by subtile (TILE_M x EPI_N) through the staged shared subtile."""
        epi_tile = (TILE_M, EPI_N)
        tCtAcc_epi = cute.flat_divide(acc_tile[((None, None), 0, 0)], epi_tile)       # (EPI_M, EPI_N, 1, subtiles)
        sub_atom = cute.make_copy_atom(tcgen05.Ld32x32bOp(tcgen05.Repetition.x32), f32)
        t2r = tcgen05.make_tmem_copy(sub_atom, acc_tile[((None, None), 0, 0)] if cutlass.const_expr(t2r_over_stage)
                                     else tCtAcc_epi[(None, None, 0, 0)])
        thr_t2r = t2r.get_slice(tidx)
        tTR_tAcc = cute.group_modes(thr_t2r.partition_S(tCtAcc_epi), 3, 5)           # (T2R, T2R_M, T2R_N, subtile)
        gD_epi = cute.flat_divide(cute.local_tile(mD, (TILE_M, TILE_N), (0, t)), epi_tile)
        tTR_gD = thr_t2r.partition_D(gD_epi)
        tTR_rAcc = cute.make_rmem_tensor(tTR_gD[(None, None, None, 0, 0)].shape, f32)
        r2s = cute.make_tiled_copy_D(sm100.get_smem_store_op(LayoutEnum.ROW_MAJOR, f32, f32, t2r), t2r)
        thr_r2s = r2s.get_slice(tidx)
        tRS_sD = thr_r2s.partition_D(sD)                                              # (R2S, R2S_M, R2S_N, stage)
        tRS_rAcc = r2s.retile(tTR_rAcc)
        bSG_sD, bSG_gD = cpasync.tma_partition(tma_d, 0, cute.make_layout(1), cute.group_modes(sD, 0, 2),
                                               cute.group_modes(gD_epi, 0, 2))
        bSG_gD = cute.group_modes(bSG_gD, 1, cute.rank(bSG_gD))                        # (TMA, subtile)
        subtiles = cute.size(tTR_tAcc, mode=[3])
        count = cutlass.Int32(0) if cutlass.const_expr(carried) else None
        for i in cutlass.range(subtiles):
            loaded = 0 if cutlass.const_expr(epi_mistake == "load_first_subtile") else i
            cute.copy(t2r, tTR_tAcc[(None, None, None, loaded)], tTR_rAcc)
            cute.arch.fence_view_async_tmem_load()
            if cutlass.const_expr(carried):
                count = count + 1
                buffer = count % EPI_STAGES
            else:
                buffer = i % EPI_STAGES
            cute.copy(r2s, tRS_rAcc, tRS_sD[(None, None, None, buffer)])
            cute.arch.fence_proxy("async.shared", space="cta")
            cute.arch.barrier(barrier_id=1, number_of_threads=THREADS)
            read = (buffer + 1) % EPI_STAGES if cutlass.const_expr(epi_mistake == "store_next_stage") else buffer
            place = 0 if cutlass.const_expr(epi_mistake == "store_first_place") else i
            if warp == MMA_WARP:
                cute.copy(tma_d, bSG_sD[(None, read)], bSG_gD[(None, place)])
                cute.arch.cp_async_bulk_commit_group()
                cute.arch.cp_async_bulk_wait_group(EPI_STAGES - 1, read=True)
            cute.arch.barrier(barrier_id=1, number_of_threads=THREADS)

    @cute.jit
    def staged_accumulator(tmem_base: Any, acc_fragment: cute.Tensor, offset: cutlass.Constexpr) -> Any:
        """The staged accumulator tensor over the tensor memory tcgen05.alloc gave (its address read back), `offset`
        columns on."""
        tmem_ptr = cute.arch.retrieve_tmem_ptr(f32, 16, tmem_base)
        if cutlass.const_expr(offset):
            tmem_ptr = tmem_ptr + offset
        return cute.make_tensor(tmem_ptr, acc_fragment.layout)

    @cute.jit
    def store_extra_tile(tidx: Any, tmem_base: Any, offset: cutlass.Constexpr) -> None:
        """The extra_tmem knob's tile: every thread stores its row of a 128x64 f32 tile of zeros from registers to
        tensor memory at columns offset..offset+63 (tcgen05.st 32dp32b x64: thread i takes lane i) and waits."""
        store_atom = cute.make_copy_atom(tcgen05.St32x32bOp(tcgen05.Repetition.x64), f32)
        tile_ptr = cute.arch.retrieve_tmem_ptr(f32, 16, tmem_base) + offset
        tile = cute.make_tensor(tile_ptr, cute.make_layout((TILE_M, TILE_N), stride=(TMEM_LANE_STRIDE, 1)))
        r2t = tcgen05.make_tmem_copy(store_atom, tile)
        thr_r2t = r2t.get_slice(tidx)
        tRT_tTile = thr_r2t.partition_D(tile)
        # the thread's registers: a fragment shaped as its part of the tile's coordinates
        tRT_cTile = thr_r2t.partition_S(cute.make_identity_tensor((TILE_M, TILE_N)))
        tRT_rTile = cute.make_rmem_tensor(tRT_cTile.shape, f32)
        tRT_rTile.fill(0.0)
        cute.copy(r2t, tRT_rTile, tRT_tTile)
        cute.arch.fence_view_async_tmem_store()        # tcgen05.wait::st: the tile written

    @cute.jit
    def mma_tile(mma: cute.TiledMma, acc: cute.Tensor, tCrA: cute.Tensor, tCrB: cute.Tensor) -> None:
        """The tile's MMA over the four k blocks into one accumulator stage (the first overwrites it)."""
        mma.set(tcgen05.Field.ACCUMULATE, False)
        for kb in cutlass.range_constexpr(TILE_K // MMA_K):
            cute.gemm(mma, acc, tCrA[None, None, kb, 0], tCrB[None, None, kb, 0], acc)
            mma.set(tcgen05.Field.ACCUMULATE, True)

    @cute.jit
    def launch(a: cute.Tensor, b: cute.Tensor, c: cute.Tensor, num_tiles: cutlass.Int32, stream: Any) -> None:
        mma = tiled_mma()
        a_layout = sm100.make_smem_layout_a(mma, mma_tiler, f16, 1)
        b_layout = sm100.make_smem_layout_b(mma, mma_tiler, f16, 1)
        tma_a, mA = make_tiled_tma_atom_A(cpasync.CopyBulkTensorTileG2SOp(), a, a_layout, mma_tiler, mma)
        tma_b, mB = make_tiled_tma_atom_B(cpasync.CopyBulkTensorTileG2SOp(), b, b_layout, mma_tiler, mma)
        d_layout: Any = None
        tma_d: Any = None
        mD: Any = None
        if cutlass.const_expr(tma_epilogue):
            d_layout = sm100.make_smem_layout_epi(f32, LayoutEnum.ROW_MAJOR, (TILE_M, EPI_N), EPI_STAGES)
            tma_d, mD = cpasync.make_tiled_tma_atom(cpasync.CopyBulkTensorTileS2GOp(), c,
                                                    cute.slice_(d_layout, (None, None, 0)), (TILE_M, EPI_N))
        tmem_kernel(tma_a, mA, tma_b, mB, c, mma, a_layout, b_layout, num_tiles, tma_d, mD, d_layout).launch(
            grid=[1, 1, 1], block=[THREADS, 1, 1], stream=stream)

    a = make_fake_tensor(f16, (TILE_M, TILE_K), stride=(TILE_K, 1), assumed_align=16)
    b = make_fake_tensor(f16, (TILE_N, TILE_K), stride=(TILE_K, 1), assumed_align=16)
    c_columns = SymInt(divisibility=TILE_N)                # TILE_N a tile: num_tiles * TILE_N
    c = make_fake_tensor(f32, (TILE_M, c_columns), stride=(c_columns, 1), assumed_align=16)
    return launch, (a, b, c, cutlass.Int32(2), make_fake_stream())


def compile_tmem_kernel(target: Path, **knobs: Any) -> Path:
    """Compile the kernel with the knobs for sm_100a and write its IR to `target` (in a fresh interpreter)."""
    return compile_knobbed(SCRIPT, ARCH, target, knobs)


if __name__ == "__main__":
    run_knobbed(SCRIPT, ARCH, build, __doc__)
