"""The tile kernel of dsl_kernels.py, written with the CuTe DSL: run in a process whose DSL keeps its IR
(`python tests/dsl_tile_kernel.py knob=value ...`, see dsl_kernels.py for the knobs)."""
import sys
from typing import Any

import cutlass
import cutlass.cute as cute
from cutlass.cute.nvgpu import cpasync, warp
from cutlass.cute.runtime import make_fake_stream, make_fake_tensor

from dsl_kernels import C_SWIZZLE, DEFAULTS, RIGHT_SWIZZLE, THREADS, TILE_K, TILE_M, TILE_N, _parse


# the thread coordinates a knob slices a tiled copy at
SLICE_AT = {"tid": lambda t: t, "mod128": lambda t: t % 128, "mod64": lambda t: t % 64, "xor1": lambda t: t ^ 1,
            "minus128": lambda t: t - 128}


# The kernel's two parts, called from it; what they read comes as arguments (a function the DSL stages under a
# condition may capture nothing of the kernel's).
def mainloop(cfg, tidx, gA, gB, gC, sA, sB, sC, g2s, g2s_other, mma, ab_layout, reader_sw):
    """The C tile: cp.async fills sA and sB, ldmatrix feeds the MMA, the result is stored to sC as half."""
    f16 = cutlass.Float16
    # global -> shared, 128-bit cp.async
    thr_g2s = g2s.get_slice(SLICE_AT[cfg["g2s_thread"]](tidx))
    thr_dst_A = g2s_other.get_slice(tidx) if cutlass.const_expr(cfg["a_dst_other_copy"]) else thr_g2s
    cute.copy(g2s, thr_g2s.partition_S(gA), thr_dst_A.partition_D(sA))
    cute.copy(g2s, thr_g2s.partition_S(gB), thr_g2s.partition_D(sB))
    cute.arch.cp_async_commit_group()
    cute.arch.cp_async_wait_group(0)
    if cutlass.const_expr(cfg["copy_out_warps"] == "second"):
        cute.arch.barrier(barrier_id=1, number_of_threads=THREADS)      # the mainloop's 128 threads alone
    else:
        cute.arch.sync_threads()
    # shared -> registers: ldmatrix into the MMA's fragments
    sA_read = cute.make_tensor(cute.recast_ptr(sA.iterator, reader_sw, dtype=f16), ab_layout)
    thr_mma = mma.get_slice(tidx)
    tCrA = mma.make_fragment_A(thr_mma.partition_A(sA_read))
    tCrB = mma.make_fragment_B(thr_mma.partition_B(sB))
    tCrC = mma.make_fragment_C(thr_mma.partition_C(gC))
    tCrC.fill(0.0)
    ldsm = cute.make_copy_atom(warp.LdMatrix8x8x16bOp(False, 4), f16)
    s2r_A = (cute.make_tiled_copy_A(ldsm, mma) if cfg["a_copy_for"] == "A"
             else cute.make_tiled_copy_B(ldsm, mma))
    s2r_B = cute.make_tiled_copy_B(ldsm, mma)
    thr_s2r_A, thr_s2r_B = s2r_A.get_slice(SLICE_AT[cfg["s2r_a_thread"]](tidx)), s2r_B.get_slice(tidx)
    cute.copy(s2r_A, thr_s2r_A.partition_S(sA_read), thr_s2r_A.retile(tCrA))
    cute.copy(s2r_B, thr_s2r_B.partition_S(sB), thr_s2r_B.retile(tCrB))
    cute.gemm(mma, tCrC, tCrA, tCrB, tCrC)
    # registers -> shared (the C tile, converted to half)
    sC_write = sC
    if cutlass.const_expr(cfg["c_row_stride"] != TILE_N):
        rows = cute.make_layout((TILE_M, TILE_N), stride=(cfg["c_row_stride"], 1))
        sC_write = cute.make_tensor(sC.iterator, rows)
    tCsC = thr_mma.partition_C(sC_write)
    tCrC_half = cute.make_fragment_like(tCrC, f16)
    tCrC_half[None] = tCrC.load().to(f16)
    cute.autovec_copy(tCrC_half, tCsC)


def copy_out(cfg, thread, gC, sC, s2g):
    """shared -> global with 128-bit vectors, the tiled copy sliced at `thread`."""
    thr_s2g = s2g.get_slice(thread)
    # the copy-out's source partitioned with partition_D (c_read_as_partition_d: the same coordinates, its TV
    # layouts being one), a view the copy reads
    tSsC = thr_s2g.partition_D(sC) if cutlass.const_expr(cfg["c_read_as_partition_d"]) else thr_s2g.partition_S(sC)
    tSrC = cute.make_fragment_like(tSsC)
    cute.copy(s2g, tSsC, tSrC)
    cute.copy(s2g, tSrC, thr_s2g.partition_D(gC))


def build(knobs: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """The kernel's host function and its fake arguments, for the knobs (dsl_kernels.py)."""
    cfg = dict(DEFAULTS, **knobs)
    f16, f32 = cutlass.Float16, cutlass.Float32
    writer = cfg["writer_swizzle"]
    reader = cfg["reader_swizzle"] if cfg["reader_swizzle"] is not None else writer

    @cute.kernel
    def tile_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, g2s: cute.TiledCopy, g2s_other: cute.TiledCopy,
                    s2g: cute.TiledCopy,
                    mma: cute.TiledMma):
        tidx, _, _ = cute.arch.thread_idx()
        writer_sw, reader_sw = cute.make_swizzle(*writer), cute.make_swizzle(*reader)
        ab_layout = cute.make_layout((TILE_M, TILE_K), stride=(TILE_K, 1))           # (m,k) -> element, K-major
        c_layout = cute.make_layout((TILE_M, TILE_N), stride=(TILE_N, 1))
        smem = cutlass.utils.SmemAllocator()
        sA = smem.allocate_tensor(f16, ab_layout, 16, swizzle=writer_sw)
        sB = smem.allocate_tensor(f16, ab_layout, 16, swizzle=cute.make_swizzle(*RIGHT_SWIZZLE))
        sC = smem.allocate_tensor(f16, c_layout, 16, swizzle=cute.make_swizzle(*C_SWIZZLE))
        if cutlass.const_expr(cfg["copy_out_warps"] == "second"):
            # warps 0..3 compute the C tile, warps 4..7 copy it out, each group under its own condition
            warp_idx = cute.arch.make_warp_uniform(cute.arch.warp_idx())
            if warp_idx < THREADS // 32:
                mainloop(cfg, tidx, gA, gB, gC, sA, sB, sC, g2s, g2s_other, mma, ab_layout, reader_sw)
            cute.arch.sync_threads()
            if warp_idx >= THREADS // 32:
                copy_out(cfg, SLICE_AT[cfg["s2g_thread"]](tidx), gC, sC, s2g)
        else:
            mainloop(cfg, tidx, gA, gB, gC, sA, sB, sC, g2s, g2s_other, mma, ab_layout, reader_sw)
            cute.arch.sync_threads()
            copy_out(cfg, tidx, gC, sC, s2g)

    @cute.jit
    def launch(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, stream: Any):
        cp = cute.make_copy_atom(cpasync.CopyG2SOp(cache_mode=cpasync.LoadCacheMode.GLOBAL), f16,
                                 num_bits_per_copy=128)
        g2s = cute.make_tiled_copy_tv(cp, cute.make_layout((32, 4), stride=(4, 1)), cute.make_layout((1, 8)))
        g2s_other = cute.make_tiled_copy_tv(cp, cute.make_layout((32, 4), stride=(1, 32)), cute.make_layout((1, 8)))
        st = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), f16, num_bits_per_copy=128)
        s2g = cute.make_tiled_copy_tv(st, cute.make_layout((16, 8), stride=(8, 1)), cute.make_layout((1, 8)))
        mma = cute.make_tiled_mma(warp.MmaF16BF16Op(f16, f32, (16, 8, 16)), cute.make_layout((2, 2, 1)),
                                  permutation_mnk=(32, 32, 16))
        block = 2 * THREADS if cfg["copy_out_warps"] == "second" else THREADS
        tile_kernel(gA, gB, gC, g2s, g2s_other, s2g, mma).launch(grid=[1, 1, 1], block=[block, 1, 1], stream=stream)

    a = make_fake_tensor(f16, (TILE_M, TILE_K), stride=(TILE_K, 1), assumed_align=16)
    b = make_fake_tensor(f16, (TILE_N, TILE_K), stride=(TILE_K, 1), assumed_align=16)
    c = make_fake_tensor(f16, (TILE_M, TILE_N), stride=(TILE_N, 1), assumed_align=16)
    return launch, (a, b, c, make_fake_stream())


if __name__ == "__main__":        # compile it (in a process whose DSL keeps its IR)
    host, fake = build({k: _parse(v) for k, v in (a.split("=", 1) for a in sys.argv[1:])})
    cute.compile(host, *fake)
