// Does CUTLASS's SM90 value-shuffled mixed-input GEMM (s8 A, f16 B, the generator's `_shfl` ConvertOnly kernels)
// compute the right D?  The README's theorem-35 finding: LayoutAwareConvertImpl<int8_t, half_t, (2,2):(2,1), 4:1>
// writes four 32-bit registers for a chunk of four values, so a k-block's last chunk writes the next k-block's first
// registers and the last k-block's writes go past the fragment.  One kernel of that shape (A int8 reordered with
// compute_memory_reordering_atom and ValueShuffle (2,2):(2,1), K-major B of half_t, tile 128 x 128 x 64, cooperative),
// run on small integers, so that every D is exact in float, and compared element by element with a host reference.
// SHUFFLE=0 builds the same kernel on a plain K-major A (no value shuffle): the control.  Prints one summary line.
//
//   nvcc -std=c++17 -arch=sm_90a -O2 --expt-relaxed-constexpr -DSHUFFLE=1 -I<cutlass>/include \
//        -I<cutlass>/tools/util/include tools/gpu/shuffled_s8_convert.cu -o shfl && ./shfl
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/mixed_dtype_utils.hpp"
#include "cutlass/util/packed_stride.hpp"
#include "cutlass_gemm_run.h"

#ifndef SHUFFLE
#define SHUFFLE 1
#endif

using namespace cute;

using Narrow = int8_t;
using Wide = cutlass::half_t;
using StrideA = cutlass::detail::TagToStrideA_t<cutlass::layout::RowMajor>;        // (m, k, l): K-major
using StrideB = cutlass::detail::TagToStrideB_t<cutlass::layout::ColumnMajor>;     // (n, k, l): K-major
using ValueShuffle = Layout<Shape<_2, _2>, Stride<_2, _1>>;                       // the generator's 8-bit shuffle
using LayoutAtomQuant = decltype(cutlass::compute_memory_reordering_atom<Wide, Layout<Shape<_1, _1>>, ValueShuffle>());
using LayoutAShuffled = decltype(cute::tile_to_shape(LayoutAtomQuant{}, Layout<Shape<int, int, int>, StrideA>{}));
#if SHUFFLE
using LayoutAArg = LayoutAShuffled;
#else
using LayoutAArg = cutlass::layout::RowMajor;
#endif

using TileShape = Shape<_128, _128, _64>;
using ClusterShape = Shape<_1, _1, _1>;
using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, float, cutlass::layout::ColumnMajor, 4, float,
    cutlass::layout::ColumnMajor, 4, cutlass::epilogue::TmaWarpSpecializedCooperative>::CollectiveOp;
using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, Narrow, LayoutAArg, 16, Wide, cutlass::layout::ColumnMajor, 8,
    float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedCooperative>::CollectiveOp;
using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

int main(int argc, char** argv) {
  int const m = 256, n = 256, k = 64 * 16, l = 1;
  int const rounds = argc > 1 ? std::atoi(argv[1]) : 20;
  std::srand(2026);
  std::vector<Narrow> a(size_t(m) * k);      // (m, k) at m * K + k, before the shuffle
  std::vector<Wide> b(size_t(n) * k);        // (n, k) at n * K + k
  for (auto& x : a) x = Narrow(std::rand() % 7 - 3);
  for (auto& x : b) x = Wide(float(std::rand() % 5 - 2));
  std::vector<float> want(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float d = 0.f;
      for (int x = 0; x < k; ++x) d += float(a[size_t(i) * k + x]) * float(b[size_t(j) * k + x]);
      want[i + size_t(j) * m] = d;
    }

  Narrow* d_a = nullptr; Wide* d_b = nullptr; float* d_c = nullptr; float* d_d = nullptr;
  CHECK(cudaMalloc(&d_a, a.size() * sizeof(Narrow)));
  CHECK(cudaMalloc(&d_b, b.size() * sizeof(Wide)));
  CHECK(cudaMalloc(&d_c, want.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_d, want.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_a, a.data(), a.size() * sizeof(Narrow), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(d_b, b.data(), b.size() * sizeof(Wide), cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_c, 0, want.size() * sizeof(float)));

  auto stride_a = cutlass::make_cute_packed_stride(StrideA{}, make_shape(m, k, l));
  auto stride_b = cutlass::make_cute_packed_stride(StrideB{}, make_shape(n, k, l));
  auto stride_cd = cutlass::make_cute_packed_stride(typename Kernel::StrideC{}, make_shape(m, n, l));
#if SHUFFLE
  // the narrow tensor stored reordered, as the kernel expects it (CUTLASS's own reorder_tensor)
  LayoutAShuffled layout_a = cute::tile_to_shape(LayoutAtomQuant{}, make_layout(make_shape(m, k, l), stride_a));
  cutlass::reorder_tensor(d_a, make_layout(make_shape(m, k, l), stride_a), layout_a);
#else
  auto layout_a = stride_a;
#endif
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm, {m, n, k, l},
                                {d_a, layout_a, d_b, stride_b}, {{}, d_c, stride_cd, d_d, stride_cd}};
  args.epilogue.thread.alpha = 1.f;
  args.epilogue.thread.beta = 0.f;

  Gemm gemm;
  if (int failed = prepare(gemm, args)) return failed;
  Tally tally;
  auto note = [](size_t) { return std::string(); };
  auto count = [](size_t, size_t) {};
  if (int failed = run_and_compare(gemm, d_d, want, m, rounds, tally, note, count)) return failed;
  std::printf("s8 x f16 ConvertOnly, %s A, tile 128x128x64, stages %d: %ld of %d runs wrong, %ld wrong elements\n",
              SHUFFLE ? "value-shuffled (2,2):(2,1)" : "plain K-major", int(Mainloop::DispatchPolicy::Stages),
              tally.wrong_runs, rounds, tally.wrong_elements);
  return tally.wrong_runs ? 1 : 0;
}
