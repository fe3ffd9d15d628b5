// Does CUTLASS's SM90 blockwise FP8 GEMM compute the right D when a tile's scales along N are more than 32 and no
// multiple of 32 (the README's finding: the scale warp's 32-wide copy_if walks ceil(N / 32) * 32 slots and its last
// lanes write past the stage)?  One kernel of the generator's --level 9999 shape (1 x 128 scales of A, 1 x 128 of B,
// tile 128 x TILE_N x 128, ping-pong, no-smem epilogue), run on small integers and power-of-two scales, so that
// every D is exact in float, and compared element by element with a host reference.  TILE_N = 216 is the finding's
// tile; TILE_N = 128 (4 x 32 scales) the control.  Prints one summary line and the first mismatches.
//
//   nvcc -std=c++17 -arch=sm_90a -O2 --expt-relaxed-constexpr -DTILE_N=216 -I<cutlass>/include \
//        tools/gpu/blockwise_scale_overrun.cu -o overrun && ./overrun
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cute/tensor.hpp"
#include "cutlass/cutlass.h"
#include "cutlass/detail/blockwise_scale_layout.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/gemm/device/gemm_universal_adapter.h"
#include "cutlass/gemm/dispatch_policy.hpp"
#include "cutlass/gemm/kernel/gemm_universal.hpp"
#include "cutlass/util/packed_stride.hpp"
#include "cutlass_gemm_run.h"

#ifndef TILE_N
#define TILE_N 216
#endif
#ifndef GRANULARITY_N
#define GRANULARITY_N 1      // columns a scale of B covers: TILE_N / GRANULARITY_N scales a tile along N
#endif

using namespace cute;

using ElementA = cutlass::float_e4m3_t;
using ElementB = cutlass::float_e4m3_t;
using ElementCD = float;
using LayoutA = cutlass::layout::RowMajor;      // K-major A
using LayoutB = cutlass::layout::ColumnMajor;   // K-major B
using LayoutCD = cutlass::layout::ColumnMajor;
constexpr int kAlignAB = 16;
constexpr int kAlignCD = 4;

using TileShape = Shape<_128, Int<TILE_N>, _128>;
using ClusterShape = Shape<_1, _1, _1>;
constexpr int kGranularityM = 1, kGranularityN = GRANULARITY_N, kGranularityK = 128;
using ScaleConfig = cutlass::detail::Sm90BlockwiseScaleConfig<kGranularityM, kGranularityN, kGranularityK>;
using LayoutSFA = decltype(ScaleConfig::deduce_layoutSFA());
using LayoutSFB = decltype(ScaleConfig::deduce_layoutSFB());

using Epilogue = typename cutlass::epilogue::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, TileShape, ClusterShape,
    cutlass::epilogue::collective::EpilogueTileAuto, float, float, ElementCD, LayoutCD, kAlignCD, ElementCD, LayoutCD,
    kAlignCD, cutlass::epilogue::NoSmemWarpSpecialized>::CollectiveOp;
using Mainloop = typename cutlass::gemm::collective::CollectiveBuilder<
    cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, ElementA, cute::tuple<LayoutA, LayoutSFA>, kAlignAB,
    ElementB, cute::tuple<LayoutB, LayoutSFB>, kAlignAB, float, TileShape, ClusterShape,
    cutlass::gemm::collective::StageCountAutoCarveout<static_cast<int>(sizeof(typename Epilogue::SharedStorage))>,
    cutlass::gemm::KernelTmaWarpSpecializedPingpongFP8Blockwise>::CollectiveOp;
using Kernel = cutlass::gemm::kernel::GemmUniversal<Shape<int, int, int, int>, Mainloop, Epilogue>;
using Gemm = cutlass::gemm::device::GemmUniversalAdapter<Kernel>;

template <class T>
T* to_device(std::vector<T> const& host) {
  T* p = nullptr;
  if (cudaMalloc(&p, host.size() * sizeof(T)) != cudaSuccess) return nullptr;
  cudaMemcpy(p, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return p;
}

int main(int argc, char** argv) {
  int const m = 256, n = TILE_N * 4, k = 128 * 16, l = 1;        // four N tiles: the first three have a next one
  int const rounds = argc > 1 ? std::atoi(argv[1]) : 20;
  std::srand(2026);
  std::vector<ElementA> a(size_t(m) * k);                         // (m, k) at m * K + k
  std::vector<ElementB> b(size_t(n) * k);                         // (n, k) at n * K + k
  std::vector<float> a_val(a.size()), b_val(b.size());
  for (size_t i = 0; i < a.size(); ++i) { a_val[i] = float(std::rand() % 5 - 2); a[i] = ElementA(a_val[i]); }
  for (size_t i = 0; i < b.size(); ++i) { b_val[i] = float(std::rand() % 5 - 2); b[i] = ElementB(b_val[i]); }

  auto problem = make_shape(m, n, k, l);
  LayoutSFA layout_sfa = ScaleConfig::tile_atom_to_shape_SFA(problem);
  LayoutSFB layout_sfb = ScaleConfig::tile_atom_to_shape_SFB(problem);
  float const powers[4] = {0.5f, 1.f, 2.f, 4.f};
  std::vector<float> sfa(size(filter_zeros(layout_sfa))), sfb(size(filter_zeros(layout_sfb)));
  for (auto& s : sfa) s = powers[std::rand() % 4];
  for (auto& s : sfb) s = powers[std::rand() % 4];

  // the host reference: D(m, n) = sum over k-blocks of SFA(m, kb) * SFB(n, kb) * sum_k A(m, k) B(n, k)
  std::vector<float> want(size_t(m) * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float d = 0.f;
      for (int kb = 0; kb < k; kb += kGranularityK) {
        float part = 0.f;
        for (int x = kb; x < kb + kGranularityK; ++x) part += a_val[size_t(i) * k + x] * b_val[size_t(j) * k + x];
        d += part * sfa[layout_sfa(i, kb, 0)] * sfb[layout_sfb(j, kb, 0)];
      }
      want[i + size_t(j) * m] = d;
    }

  ElementA* d_a = to_device(a);
  ElementB* d_b = to_device(b);
  float* d_sfa = to_device(sfa);
  float* d_sfb = to_device(sfb);
  std::vector<float> zeros(size_t(m) * n, 0.f);
  float* d_c = to_device(zeros);
  float* d_d = to_device(zeros);
  if (!d_a || !d_b || !d_sfa || !d_sfb || !d_c || !d_d) { std::printf("cudaMalloc failed\n"); return 2; }

  auto stride_a = cutlass::make_cute_packed_stride(typename Kernel::StrideA{}, make_shape(m, k, l));
  auto stride_b = cutlass::make_cute_packed_stride(typename Kernel::StrideB{}, make_shape(n, k, l));
  auto stride_c = cutlass::make_cute_packed_stride(typename Kernel::StrideC{}, make_shape(m, n, l));
  auto stride_d = cutlass::make_cute_packed_stride(typename Kernel::StrideD{}, make_shape(m, n, l));
  typename Gemm::Arguments args{cutlass::gemm::GemmUniversalMode::kGemm, {m, n, k, l},
                                {d_a, stride_a, d_b, stride_b, d_sfa, layout_sfa, d_sfb, layout_sfb},
                                {{}, d_c, stride_c, d_d, stride_d}};
  args.epilogue.thread.alpha = 1.f;
  args.epilogue.thread.beta = 0.f;

  Gemm gemm;
  if (int failed = prepare(gemm, args)) return failed;
  Tally tally;
  long wrong_in_first_8 = 0;       // mismatches in a tile's columns 0-7, those the overrun's lanes write
  auto note = [](size_t j) { return " (column " + std::to_string(j % TILE_N) + " of its tile)"; };
  auto count = [&](size_t, size_t j) { wrong_in_first_8 += (j % TILE_N) < 8; };
  if (int failed = run_and_compare(gemm, d_d, want, m, rounds, tally, note, count)) return failed;
  std::printf("tile 128x%dx128, scales of B 1x%dx128 (%d a tile along N), stages %d: %ld of %d runs wrong, %ld wrong "
              "elements, %ld of them in a tile's columns 0-7\n", TILE_N, GRANULARITY_N, TILE_N / GRANULARITY_N,
              int(Mainloop::DispatchPolicy::Stages), tally.wrong_runs, rounds, tally.wrong_elements, wrong_in_first_8);
  return tally.wrong_runs ? 1 : 0;
}
