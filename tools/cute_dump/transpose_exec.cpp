// tools/cute_dump/transpose_exec.cpp -- runs CUTLASS 4.2's own AsyncTranspositionOperandB::operator() (cutlass/
// transform/collective/sm90_wgmma_transpose.hpp) on the host, thread by thread, for every math thread and call of one
// stage, and prints which warp and call moved each 8x8 warp tile and whether every element landed where GmmaSmemLayoutB
// puts it (tests/data/cute_transpose.json's "executed", parsed by tools/cute_dump/transpose_json.py).  The loads read
// one buffer and the stores write another (the kernel transposes in place; here the order of threads is sequential,
// so the two are kept apart: what is recorded is each thread's addresses, not the race freedom theorem 34 proves).
// Compiled by the host C++ compiler, CUTLASS_DEVICE functions being host functions there; the device built-ins the
// header names (__syncwarp) are stand-ins that do nothing.
//
//   g++ -std=c++17 -O0 -DNDEBUG -I$CUTLASS/include -I$CUDA/include -I$CUDA/include/cccl \
//       -o transpose_exec tools/cute_dump/transpose_exec.cpp && ./transpose_exec >> t.txt
inline void __syncwarp(unsigned = 0xffffffffu) {}
inline void __syncthreads() {}
#include <cstdio>
#include <cstdint>
#include <vector>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/arch/barrier.h"
#include "cute/atom/mma_traits_sm90_gmma.hpp"
#include "cutlass/transform/collective/sm90_wgmma_transpose.hpp"
using namespace cute;

template <int NWG, int BN, int Stages, bool StepK>
void run(const char* name) {
  using ElementB = uint32_t;
  using AtomMN = GMMA::Layout_MN_SW32_Atom<ElementB>;
  using AtomK = GMMA::Layout_K_SW32_Atom<ElementB>;
  using Order = cute::conditional_t<StepK, Step<_2,_1,_3>, Step<_1,_2,_3>>;
  using SmemLayoutB = decltype(tile_to_shape(AtomMN{}, make_shape(Int<BN>{}, _32{}, Int<Stages>{}), Order{}));
  using GmmaSmemLayoutB = decltype(tile_to_shape(AtomK{}, make_shape(Int<BN>{}, _32{}, Int<Stages>{}), Order{}));
  using TiledMma = decltype(make_tiled_mma(SM90::GMMA::MMA_64x128x8_F32TF32TF32_RS_TN<>{}, Layout<Shape<Int<NWG>,_1,_1>>{}));
  using Transpose = decltype(cutlass::transform::collective::detail::make_transpose_operand_b(
      0, 0, TiledMma{}, SmemLayoutB{}, AtomMN{}, ElementB{}, cute::true_type{}));
  constexpr int cosz = cosize(SmemLayoutB{});
  std::vector<ElementB> src(cosz + 256), dst(cosz + 256);
  ElementB* s_base = reinterpret_cast<ElementB*>((reinterpret_cast<uintptr_t>(src.data()) + 1023) & ~uintptr_t(1023));
  ElementB* d_base = reinterpret_cast<ElementB*>((reinterpret_cast<uintptr_t>(dst.data()) + 1023) & ~uintptr_t(1023));
  Tensor sB = as_position_independent_swizzle_tensor(make_tensor(make_smem_ptr(s_base), SmemLayoutB{}));
  Tensor gmma_sB = as_position_independent_swizzle_tensor(make_tensor(make_smem_ptr(d_base), GmmaSmemLayoutB{}));
  const int stage = Stages - 1;
  // every element of the stage holds its own coordinate n + BN k in the source; the destination starts empty
  for (int k = 0; k < 32; ++k) for (int n = 0; n < BN; ++n) sB(n, k, stage) = ElementB(n + BN * k);
  for (int i = 0; i < cosz; ++i) d_base[i] = 0xffffffffu;
  std::vector<int> mover(BN * 32, -1);       // element -> warp_idx * 4 + call of the thread that stored it
  int twice = 0;
  for (int call = 0; call < Transpose::StepsPerWarpGroup; ++call) {
    for (int t = 0; t < NWG * 128; ++t) {
      int warp_idx = 4 + t / 32;             // the math warps follow the producer warpgroup's four
      std::vector<ElementB> before(d_base, d_base + cosz);
      Transpose transpose(warp_idx, t % 128, TiledMma{}, SmemLayoutB{}, AtomMN{}, ElementB{});
      transpose(sB, gmma_sB, stage, call);
      for (int i = 0; i < cosz; ++i) {
        if (d_base[i] != before[i]) {
          ElementB e = d_base[i];
          if (mover[e] >= 0) ++twice;
          mover[e] = warp_idx * 4 + call;
        }
      }
    }
  }
  int misplaced = 0, unmoved = 0;
  for (int k = 0; k < 32; ++k) for (int n = 0; n < BN; ++n) {
    if (mover[n + BN * k] < 0) ++unmoved;
    else if (gmma_sB(n, k, stage) != ElementB(n + BN * k)) ++misplaced;
  }
  printf("@executed %s\n@executed_check %d %d %d\n", name, unmoved, misplaced, twice);
  for (int tk = 0; tk < 4; ++tk) for (int tn = 0; tn < BN / 8; ++tn) {
    int first = mover[tn * 8 + BN * tk * 8];
    int same = 1;
    for (int k = 0; k < 8; ++k) for (int n = 0; n < 8; ++n) same &= mover[tn * 8 + n + BN * (tk * 8 + k)] == first;
    printf("@mover %d %d %d %d %d\n", tn, tk, first / 4, first % 4, same);
  }
}

int main() {
  run<2, 128, 7, true>("tf32 NT 128x128x32 cooperative");
  run<1, 128, 9, true>("tf32 NT 64x128x32 pingpong");
  run<1, 128, 4, true>("tf32 NT 256x128x32 ws");
  run<2, 128, 7, false>("tf32 NT 128x128x32 cp.async cooperative");
  run<1, 128, 7, false>("tf32 NT 128x128x32 cp.async ws");
  return 0;
}
