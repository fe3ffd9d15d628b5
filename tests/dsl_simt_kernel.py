"""The SIMT kernel of dsl_kernels.py, written with the CuTe DSL: run in a process whose DSL keeps its IR
(`python tests/dsl_simt_kernel.py knob=value ...`, see dsl_kernels.py for the knobs).

256 threads: a 64x8 float tile of A and of B (M- / N-major) is copied global -> shared one float a thread, then
shared -> registers with CopyUniversalOp into the fragments of a 16x16x1 tiled MMA of MmaUniversalOp (CuTe's
UniversalFMA), which multiplies them into a 64x64 C tile."""
import sys
from typing import Any

import cutlass
import cutlass.cute as cute
from cutlass.cute.runtime import make_fake_stream, make_fake_tensor

from dsl_kernels import SIMT_DEFAULTS, SIMT_K, SIMT_MN, SIMT_THREADS, _parse


def build(knobs: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """The kernel's host function and its fake arguments, for the knobs (dsl_kernels.py)."""
    cfg = dict(SIMT_DEFAULTS, **knobs)
    f32 = cutlass.Float32
    threads_mn = (SIMT_THREADS[0], SIMT_THREADS[1], 1)

    @cute.kernel
    def simt_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, g2s: cute.TiledCopy, mma: cute.TiledMma,
                    copy_mma_a: cute.TiledMma):
        tidx, _, _ = cute.arch.thread_idx()
        ab_layout = cute.make_layout((SIMT_MN, SIMT_K), stride=(1, SIMT_MN))       # (mn,k) -> element, MN-major
        smem = cutlass.utils.SmemAllocator()
        sA = smem.allocate_tensor(f32, ab_layout, 16)
        sB = smem.allocate_tensor(f32, ab_layout, 16)
        # global -> shared: one float a thread
        thr_g2s = g2s.get_slice(tidx)
        cute.copy(g2s, thr_g2s.partition_S(gA), thr_g2s.partition_D(sA))
        cute.copy(g2s, thr_g2s.partition_S(gB), thr_g2s.partition_D(sB))
        cute.arch.sync_threads()
        # shared -> registers: the UniversalFMA fragments, one float a copy
        thr_mma = mma.get_slice(tidx)
        tCrA = mma.make_fragment_A(thr_mma.partition_A(sA))
        tCrB = mma.make_fragment_B(thr_mma.partition_B(sB))
        tCrC = mma.make_fragment_C(thr_mma.partition_C(gC))
        tCrC.fill(0.0)
        s2r = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), f32)
        s2r_A = cute.make_tiled_copy_A(s2r, copy_mma_a)
        s2r_B = cute.make_tiled_copy_B(s2r, mma)
        thr_s2r_A, thr_s2r_B = s2r_A.get_slice(tidx), s2r_B.get_slice(tidx)
        cute.copy(s2r_A, thr_s2r_A.partition_S(sA), thr_s2r_A.retile(tCrA))
        cute.copy(s2r_B, thr_s2r_B.partition_S(sB), thr_s2r_B.retile(tCrB))
        cute.gemm(mma, tCrC, tCrA, tCrB, tCrC)

    @cute.jit
    def launch(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, stream: Any):
        ld = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), f32)
        g2s = cute.make_tiled_copy_tv(ld, cute.make_layout((SIMT_MN, SIMT_THREADS[0] * SIMT_THREADS[1] // SIMT_MN)),
                                      cute.make_layout((1, 1)))
        fma = cute.make_mma_atom(cute.nvgpu.MmaUniversalOp(f32))
        mma = cute.make_tiled_mma(fma, cute.make_layout(threads_mn))
        copy_threads = (cute.make_layout(threads_mn, stride=(SIMT_THREADS[1], 1, 0))
                        if cfg["copy_threads"] == "transposed" else cute.make_layout(threads_mn))
        copy_mma_a = cute.make_tiled_mma(fma, copy_threads)
        simt_kernel(gA, gB, gC, g2s, mma, copy_mma_a).launch(grid=[1, 1, 1],
                                                              block=[SIMT_THREADS[0] * SIMT_THREADS[1], 1, 1],
                                                              stream=stream)

    a = make_fake_tensor(f32, (SIMT_MN, SIMT_K), stride=(1, SIMT_MN), assumed_align=16)
    b = make_fake_tensor(f32, (SIMT_MN, SIMT_K), stride=(1, SIMT_MN), assumed_align=16)
    c = make_fake_tensor(f32, (SIMT_MN, SIMT_MN), stride=(1, SIMT_MN), assumed_align=16)
    return launch, (a, b, c, make_fake_stream())


if __name__ == "__main__":        # compile it (in a process whose DSL keeps its IR)
    host, fake = build({k: _parse(v) for k, v in (a.split("=", 1) for a in sys.argv[1:])})
    cute.compile(host, *fake)
