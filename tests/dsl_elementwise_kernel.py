"""Element-wise kernels of our own, written with the CuTe DSL and compiled for sm_80 with fake arguments (no GPU) to IR
for the import-dsl tests of theorem 43.  Its knobs:

    form            "tiled" (default): C = A + B over M x N half tensors divided on the host by the tile a tiled copy
                    of THREADS threads and VALUES values a thread covers (make_layout_tv of two ordered layouts), one
                    block a tile; each side's tile partitioned by its own tiled copy (CopyUniversalOp) at the thread,
                    copied into a fragment, added, stored.  "slice": D = Q * s, an int8 tensor dequantized to half,
                    both divided in the kernel by 1 x TILE, every thread taking its own tile whole (its index the
                    thread's plus the block's times the block's threads), copied into registers with autovec_copy
                    and stored with `.store()`.  "compose": C = A * B as CUTLASS's elementwise_apply tiles it -- the
                    tensors divided on the host by make_layout_tv's tile and their tiles remapped (the rest mode
                    composed with a column-major layout of the tiles), each block's tile composed with the (thr, val)
                    layout and sliced at the thread, read with `.load()` and written with `.store()`
    mistake         "" (default: none); with form="tiled": "b_threads_transposed" (B's tiled copy orders its THREADS
                    column-major, the others row-major: thread t's values of B are other elements than of A and C)
                    or "c_tile_shifted" (C is taken at the block's tile plus one: every block adds A and B of one
                    tile into the next); with form="compose": "b_threads_other" (B's tile composed with the (thr, val)
                    layout of its threads ordered column-major: thread t's values of B other elements than of A and C);
                    with form="slice": "q_tile_2x" (Q divided by 2 x TILE/2: value 1 of a
                    thread's tile is read one row down and written one column right)

    slices          with form="tiled", the slice of each tiled copy a thread takes: "tid" (default: its own), "b_xor1"
                    (B's at tid ^ 1: a thread adds its neighbour's B -- a mistake) or "all_xor1" (every side's at
                    tid ^ 1, each computed apart: the threads trade whole slices, harmless)

Run as a script it writes one IR file: `python tests/dsl_elementwise_kernel.py OUT.mlir [knob=value ...]` (it compiles
in a fresh interpreter whose DSL keeps its IR, CUTE_DSL_ARCH=sm_80).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from dsl_kernels import compile_knobbed, knob_config, run_knobbed  # noqa: E402

ARCH = "sm_80"
M, N = 64, 256                       # every tensor's shape
THREADS = (4, 32)                    # form="tiled": the tiled copies' threads, row-major
VALUES = (4, 8)                      # ... and each thread's values, row-major: 16 x 256 tiles
TILE = 128                           # form="slice": a thread's 1 x TILE tile
SLICE_THREADS = 64                   # ... threads a block
FORMS = ("tiled", "slice", "compose")
MISTAKES = ("", "b_threads_transposed", "c_tile_shifted", "q_tile_2x", "b_threads_other")
SLICES = ("tid", "b_xor1", "all_xor1")
DEFAULTS: dict[str, Any] = {"form": "tiled", "mistake": "", "slices": "tid"}
SCRIPT = Path(__file__)


def build(knobs: dict[str, Any]) -> tuple[Any, tuple[Any, ...]]:
    """The host function and its fake arguments, for the knobs."""
    import cutlass
    import cutlass.cute as cute
    from cutlass.cute.runtime import make_fake_stream, make_fake_tensor

    cfg = knob_config(knobs, DEFAULTS, {"form": FORMS, "mistake": MISTAKES, "slices": SLICES})
    mistake, slices = str(cfg["mistake"]), str(cfg["slices"])
    f16, i8, f32 = cutlass.Float16, cutlass.Int8, cutlass.Float32

    @cute.kernel
    def add_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, thr: cute.Layout, thr_b: cute.Layout,
                   val: cute.Layout):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, _, _ = cute.arch.block_idx()
        c_tile = bidx + 1 if cutlass.const_expr(mistake == "c_tile_shifted") else bidx
        load = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), gA.element_type)
        store = cute.make_copy_atom(cute.nvgpu.CopyUniversalOp(), gC.element_type)
        xor_b = cutlass.const_expr(slices != "tid")
        xor_ac = cutlass.const_expr(slices == "all_xor1")
        thr_a = cute.make_tiled_copy_tv(load, thr, val).get_slice(tidx ^ 1 if xor_ac else tidx)
        thr_b = cute.make_tiled_copy_tv(load, thr_b, val).get_slice(tidx ^ 1 if xor_b else tidx)
        thr_c = cute.make_tiled_copy_tv(store, thr, val).get_slice(tidx ^ 1 if xor_ac else tidx)
        tAgA = thr_a.partition_S(gA[((None, None), bidx)])
        tBgB = thr_b.partition_S(gB[((None, None), bidx)])
        tCgC = thr_c.partition_S(gC[((None, None), c_tile)])
        rA, rB, rC = cute.make_fragment_like(tAgA), cute.make_fragment_like(tBgB), cute.make_fragment_like(tCgC)
        cute.copy(load, tAgA, rA)
        cute.copy(load, tBgB, rB)
        rC.store(rA.load() + rB.load())
        cute.copy(store, rC, tCgC)

    @cute.jit
    def launch_add(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, stream: Any):
        thr = cute.make_ordered_layout(THREADS, order=(1, 0))
        val = cute.make_ordered_layout(VALUES, order=(1, 0))
        thr_b = cute.make_ordered_layout(THREADS, order=(0, 1)) if mistake == "b_threads_transposed" else thr
        tiler, tv = cute.make_layout_tv(thr, val)
        gA, gB, gC = (cute.zipped_divide(t, tiler) for t in (mA, mB, mC))
        add_kernel(gA, gB, gC, thr, thr_b, val).launch(grid=[cute.size(gC, mode=[1]), 1, 1],
                                                       block=[cute.size(tv, mode=[0]), 1, 1], stream=stream)

    @cute.kernel
    def scale_kernel(mQ: cute.Tensor, scale: cutlass.Float32, mD: cute.Tensor):
        q_tile = (2, TILE // 2) if cutlass.const_expr(mistake == "q_tile_2x") else (1, TILE)
        gQ = cute.zipped_divide(mQ, q_tile)
        gD = cute.zipped_divide(mD, (1, TILE))
        rQ = cute.make_rmem_tensor(gQ[None, 0].shape, i8)
        tidx, _, _ = cute.arch.thread_idx()
        bdim, _, _ = cute.arch.block_dim()
        bidx, _, _ = cute.arch.block_idx()
        idx = tidx + bidx * bdim
        cute.autovec_copy(gQ[None, idx], rQ)
        gD[None, idx].store((rQ.load().to(f32) * scale).to(f16))

    @cute.jit
    def launch_scale(mQ: cute.Tensor, mD: cute.Tensor, stream: Any):
        scale_kernel(mQ, cutlass.Float32(0.5), mD).launch(grid=[M * N // TILE // SLICE_THREADS, 1, 1],
                                                          block=[SLICE_THREADS, 1, 1], stream=stream)

    @cute.kernel
    def mul_kernel(gA: cute.Tensor, gB: cute.Tensor, gC: cute.Tensor, tv: cute.Layout, tv_b: cute.Layout):
        tidx, _, _ = cute.arch.thread_idx()
        bidx, bidy, _ = cute.arch.block_idx()
        tile = ((None, None), (bidx, bidy))
        tA = cute.composition(gA[tile], tv)[(tidx, None)]
        tB = cute.composition(gB[tile], tv_b)[(tidx, None)]
        tC = cute.composition(gC[tile], tv)[(tidx, None)]
        tC.store(tA.load() * tB.load())

    @cute.jit
    def launch_mul(mA: cute.Tensor, mB: cute.Tensor, mC: cute.Tensor, stream: Any):
        thr = cute.make_ordered_layout(THREADS, order=(1, 0))
        val = cute.make_ordered_layout(VALUES, order=(1, 0))
        tiler, tv = cute.make_layout_tv(thr, val)
        tv_b = tv
        if cutlass.const_expr(mistake == "b_threads_other"):
            _, tv_b = cute.make_layout_tv(cute.make_ordered_layout(THREADS, order=(0, 1)), val)
        divided = [cute.zipped_divide(t, tiler) for t in (mA, mB, mC)]
        tiles = cute.make_ordered_layout(cute.select(divided[0].shape[1], mode=[1, 0]), order=(1, 0))
        gA, gB, gC = (cute.composition(t, (None, tiles)) for t in divided)
        mul_kernel(gA, gB, gC, tv, tv_b).launch(grid=cute.product_each(gC.shape[1]),
                                               block=[cute.size(tv, mode=[0]), 1, 1], stream=stream)

    if slices != "tid" and cfg["form"] != "tiled":
        raise ValueError(f"slices={slices!r} takes form='tiled'")
    if cfg["form"] == "compose":
        if mistake not in ("", "b_threads_other"):
            raise ValueError(f"mistake={mistake!r} takes another form")
        a, b, c = (make_fake_tensor(f16, (M, 2 * N), stride=(2 * N, 1), assumed_align=16) for _ in range(3))
        return launch_mul, (a, b, c, make_fake_stream())
    if mistake == "b_threads_other":
        raise ValueError("mistake='b_threads_other' takes form='compose'")
    if cfg["form"] == "slice":
        if mistake not in ("", "q_tile_2x"):
            raise ValueError(f"mistake={mistake!r} takes form='tiled'")
        q = make_fake_tensor(i8, (M, N), stride=(N, 1), assumed_align=16)
        d = make_fake_tensor(f16, (M, N), stride=(N, 1), assumed_align=16)
        return launch_scale, (q, d, make_fake_stream())
    if mistake == "q_tile_2x":
        raise ValueError("mistake='q_tile_2x' takes form='slice'")
    a, b, c = (make_fake_tensor(f16, (M, N), stride=(N, 1), assumed_align=16) for _ in range(3))
    return launch_add, (a, b, c, make_fake_stream())


def compile_elementwise_kernel(target: Path, **knobs: Any) -> Path:
    """Compile the kernel with the knobs for sm_80 and write its IR to `target` (in a fresh interpreter)."""
    return compile_knobbed(SCRIPT, ARCH, target, knobs)


if __name__ == "__main__":
    run_knobbed(SCRIPT, ARCH, build, __doc__)
