// tools/cute_dump/transpose_dump.hpp -- the printer of transpose.cu: one SM90 register-sourced CollectiveBuilder
// configuration whose A and B are both MN-major 32-bit (the builder's IsWarpSpecializedTransposeB), dumped as
// "@key value" lines (tests/data/cute_transpose.json is their parse, by tools/cute_dump/transpose_json.py).  What is
// printed is what CUTLASS's own host-callable code computes: the collective's SmemLayoutB (TMA's / cp.async's) and
// GmmaSmemLayoutB (the descriptor's), the transposition class make_transpose_operand_b picks and its constants, the
// per-warp coordinate tables its constructor slices (private members, made visible to this printer only), the tiled
// copy of one warp, and for every warp tile of a stage the element offsets partition_S (of the position-independent
// sB) and partition_D (of the transposed gmma_sB, as each mainloop makes it) hand each lane.  Host code only.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <vector>
#define private public
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "dump_common.hpp"
#undef private
using namespace cute;
using namespace cutlass::gemm::collective;
using namespace cutlass::gemm;

// element offsets (from the buffer's first element) of every element of a partition, in its own order
template <class T, class Tn>
void offsets(const char* what, T const* base, Tn const& t) {
  printf(" %s", what);
  for (int i = 0; i < size(t); ++i) printf(" %d", int(&t(i) - base));
}

// PositionIndependentD: the mainloop makes gmma_sB position-independent (the TMA mainloop) or not (the cp.async one)
template <class CB, bool PositionIndependentD>
void dump(const char* name, const char* kernel, std::initializer_list<int> stages_shown) {
  using CM = typename CB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  using ElementB = typename CM::InternalElementB;
  using Transpose = typename CM::TransposeOperandB;
  using SmemLayoutB = typename CM::SmemLayoutB;
  using GmmaSmemLayoutB = typename CM::GmmaSmemLayoutB;
  constexpr int BM = size<0>(Tile{}), BN = size<1>(Tile{}), BK = size<2>(Tile{});
  printf("@config %s\n@kernel %s\n", name, kernel);
  tname<typename TiledMma::Atom::MMA_Op>("mma_op");
  tname<Transpose>("transpose");
  tname<ElementB>("element_b");
  printf("@tile %d %d %d\n@stages %d\n@threads %d\n", BM, BN, BK, int(size<2>(SmemLayoutB{})), int(size(TiledMma{})));
  pl("smem_a", typename CM::SmemLayoutA{});
  pl("smem_b", SmemLayoutB{});
  pl("gmma_smem_b", GmmaSmemLayoutB{});
  printf("@steps %d\n@steps_per_warpgroup %d\n@math_warpgroups %d\n@warpgroup_tile %d\n@warp_tile %d\n",
         Transpose::Steps, Transpose::StepsPerWarpGroup, Transpose::NumMathWarpGroup, Transpose::WarpgroupTileSize,
         Transpose::WarpTileSize);
  printf("@warp_thread %d %d\n@warpgroup_tiles %d\n@tiles_per_warp %d\n", Transpose::WarpThreadShapeN,
         Transpose::WarpThreadShapeK, Transpose::WarpgroupTileNum, Transpose::TilesPerWarp);
  printf("@lut %lld %lld\n", (long long)Transpose::WarpTileNCoordLUT, (long long)Transpose::WarpTileKCoordLUT);
  // the consumer warps (warp_idx 4.. of the CTA: warpgroup 0 is the producer) and the table slice each constructs
  for (int w = 4; w < 4 + 4 * Transpose::NumMathWarpGroup; ++w) {
    Transpose t(w, (w - 4) * 32 % 128, TiledMma{}, SmemLayoutB{}, typename CM::InternalSmemLayoutAtomB{}, ElementB{});
    printf("@warp_lut %d %d %d\n", w, t.current_warp_tile_n_coord_LUT, t.current_warp_tile_k_coord_LUT);
  }
  // the warp's tiled copy, as operator() makes it
  auto warp_thread_layout = make_layout(make_shape(Int<Transpose::WarpThreadShapeN>{}, Int<Transpose::WarpThreadShapeK>{}));
  auto tiled_copy = make_tiled_copy(Copy_Atom<DefaultCopy, ElementB>{}, warp_thread_layout, Layout<_1>{});
  pl("copy_layout_tv", typename decltype(tiled_copy)::TiledLayout_TV{});
  // the buffer: a host array standing for shared memory, 1024-byte aligned as CUTLASS aligns smem_B
  std::vector<ElementB> storage(cosize(SmemLayoutB{}) + 1024);
  ElementB* base = reinterpret_cast<ElementB*>((reinterpret_cast<uintptr_t>(storage.data()) + 1023) & ~uintptr_t(1023));
  Tensor sB = as_position_independent_swizzle_tensor(make_tensor(make_smem_ptr(base), SmemLayoutB{}));
  auto gmma_sB = [&]() {
    if constexpr (PositionIndependentD) {
      return as_position_independent_swizzle_tensor(make_tensor(make_smem_ptr(base), GmmaSmemLayoutB{}));
    } else {
      return make_tensor(make_smem_ptr(base), GmmaSmemLayoutB{});
    }
  }();
  constexpr int WT = Transpose::WarpTileSize;
  auto warp_tile_shape = make_shape(Int<WT>{}, Int<WT>{});
  for (int s : stages_shown) {
    Tensor s_tile = zipped_divide(sB(_,_,s), warp_tile_shape);
    Tensor s_tile_t = zipped_divide(gmma_sB(_,_,s), warp_tile_shape);
    for (int tk = 0; tk < BK / WT; ++tk) {
      for (int tn = 0; tn < BN / WT; ++tn) {
        printf("@tile %d %d %d", s, tn, tk);
        for (int lane = 0; lane < 32; ++lane) {
          auto thr = tiled_copy.get_thread_slice(lane);
          Tensor src = thr.partition_S(flatten(s_tile(_, make_coord(tn, tk))));
          Tensor dst = thr.partition_D(flatten(s_tile_t(_, make_coord(tn, tk))));
          printf(" |");
          offsets("", base, src);
          printf(" >");
          offsets("", base, dst);
        }
        printf("\n");
      }
    }
  }
}
