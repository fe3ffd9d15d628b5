// tools/cute_dump/blockwise_shapes.cu -- the shapes GmmaFP8Accumulation's static_asserts compare in CUTLASS 4.2's SM90
// blockwise collective (sm90_mma_tma_gmma_ss_warpspecialized_fp8_blockwise_scaling.hpp, fp8_accumulation.hpp): the
// accumulators' partition_fragment_C(tiled_mma, take<0,2>(TileShape)) and each operand's register scales,
// make_tensor_like(tCsSF(_,_,_,_0{})) of partition_C of the broadcast view mma() builds from SmemLayoutSF, with
// Sm90BlockwiseScaleConfig's shared layout atoms, for tiles, warpgroup layouts and granularities.  "@same_a 0" is a
// kernel nvcc refuses ("Accumulator and scaleA must have same shape.") when it holds more than one scale of A a tile.
// tests/data/cute_blockwise_shapes.txt is this program's output.  Host code only.
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -o blockwise_shapes tools/cute_dump/blockwise_shapes.cu
//   ./blockwise_shapes > tests/data/cute_blockwise_shapes.txt
#include <cstdio>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cute/atom/mma_atom.hpp"
#include "cute/arch/mma_sm90.hpp"
#include "cutlass/detail/blockwise_scale_layout.hpp"
using namespace cute;

// one configuration: tile BM x BN x BK, WM warpgroups along M (the builder's AtomLayoutMNK), granularity GM x GN x GK,
// K-major e4m3 operands (the wgmma atom ss_op_selector picks for a 64 x BN x BK warpgroup tile)
template <int BM, int BN, int BK, int WM, int GM, int GN, int GK>
void probe() {
  using Tile = Shape<Int<BM>, Int<BN>, Int<BK>>;
  using Op = decltype(GMMA::ss_op_selector<cutlass::float_e4m3_t, cutlass::float_e4m3_t, float,
                      Shape<_64, Int<BN>, Int<BK>>, GMMA::Major::K, GMMA::Major::K>());
  auto tiled_mma = make_tiled_mma(Op{}, Layout<Shape<Int<WM>, _1, _1>>{});
  using Cfg = cutlass::detail::Sm90BlockwiseScaleConfig<GM, GN, GK>;
  using AtomSFA = decltype(Cfg::smem_atom_layoutSFA(Tile{}));
  using AtomSFB = decltype(Cfg::smem_atom_layoutSFB(Tile{}));
  constexpr int Stages = 4;
  using SmemSFA = decltype(make_layout(append(shape(AtomSFA{}), Int<Stages>{}), append(stride(AtomSFA{}), size(filter_zeros(AtomSFA{})))));
  using SmemSFB = decltype(make_layout(append(shape(AtomSFB{}), Int<Stages>{}), append(stride(AtomSFB{}), size(filter_zeros(AtomSFB{})))));
  auto sSFA = make_layout(make_shape(get<0>(shape(SmemSFA{})), get<1>(Tile{}), make_shape(get<1>(shape(SmemSFA{})), get<2>(shape(SmemSFA{})))),
                          make_stride(get<0>(stride(SmemSFA{})), _0{}, make_stride(get<1>(stride(SmemSFA{})), get<2>(stride(SmemSFA{})))));
  auto sSFB = make_layout(make_shape(get<0>(Tile{}), get<0>(shape(SmemSFB{})), make_shape(get<1>(shape(SmemSFB{})), get<2>(shape(SmemSFB{})))),
                          make_stride(_0{}, get<0>(stride(SmemSFB{})), make_stride(get<1>(stride(SmemSFB{})), get<2>(stride(SmemSFB{})))));
  auto accum = partition_fragment_C(tiled_mma, take<0,2>(Tile{}));
  auto tA = tiled_mma.get_slice(0).partition_C(make_coord_tensor(sSFA));
  auto tB = tiled_mma.get_slice(0).partition_C(make_coord_tensor(sSFB));
  auto rA = make_tensor_like<float>(tA(_,_,_,_0{}));
  auto rB = make_tensor_like<float>(tB(_,_,_,_0{}));
  printf("@case %d %d %d %d %d %d %d\n", BM, BN, BK, WM, GM, GN, GK);
  printf("@smem_a "); print(SmemSFA{}); printf("\n");
  printf("@smem_b "); print(SmemSFB{}); printf("\n");
  printf("@accum "); print(shape(accum)); printf("\n");
  printf("@scale_a "); print(shape(rA)); printf("\n");
  printf("@scale_b "); print(shape(rB)); printf("\n");
  printf("@same_a %d\n", int(decltype(shape(accum) == shape(rA))::value));
  printf("@same_b %d\n", int(decltype(shape(accum) == shape(rB))::value));
}

int main() {
  probe<64,128,128,1, 1,1,128>();
  probe<64,128,128,1, 2,2,128>();
  probe<64,128,128,1, 4,4,128>();
  probe<64,128,128,1, 8,8,128>();
  probe<64,128,128,1, 16,16,128>();
  probe<64,128,128,1, 32,32,128>();
  probe<64,128,128,1, 64,64,128>();
  probe<64,128,128,1, 64,128,128>();
  probe<64,128,128,1, 1,128,128>();
  probe<64,128,128,1, 64,1,128>();
  probe<128,128,128,1, 1,1,128>();
  probe<128,128,128,1, 2,2,128>();
  probe<128,128,128,1, 4,4,128>();
  probe<128,128,128,1, 8,8,128>();
  probe<128,128,128,1, 16,16,128>();
  probe<128,128,128,1, 32,32,128>();
  probe<128,128,128,1, 64,64,128>();
  probe<128,128,128,1, 128,128,128>();
  probe<128,128,128,1, 1,128,128>();
  probe<128,128,128,1, 128,1,128>();
  probe<128,128,128,2, 1,1,128>();
  probe<128,128,128,2, 2,2,128>();
  probe<128,128,128,2, 4,4,128>();
  probe<128,128,128,2, 8,8,128>();
  probe<128,128,128,2, 16,16,128>();
  probe<128,128,128,2, 32,32,128>();
  probe<128,128,128,2, 64,64,128>();
  probe<128,128,128,2, 128,128,128>();
  probe<128,128,128,2, 1,128,128>();
  probe<128,128,128,2, 128,1,128>();
  probe<256,128,128,2, 1,1,128>();
  probe<256,128,128,2, 2,2,128>();
  probe<256,128,128,2, 4,4,128>();
  probe<256,128,128,2, 8,8,128>();
  probe<256,128,128,2, 16,16,128>();
  probe<256,128,128,2, 32,32,128>();
  probe<256,128,128,2, 64,64,128>();
  probe<256,128,128,2, 256,128,128>();
  probe<256,128,128,2, 1,128,128>();
  probe<256,128,128,2, 256,1,128>();
  probe<128,64,128,2, 1,1,128>();
  probe<128,64,128,2, 2,2,128>();
  probe<128,64,128,2, 4,4,128>();
  probe<128,64,128,2, 8,8,128>();
  probe<128,64,128,2, 16,16,128>();
  probe<128,64,128,2, 32,32,128>();
  probe<128,64,128,2, 64,64,128>();
  probe<128,64,128,2, 128,64,128>();
  probe<128,64,128,2, 1,64,128>();
  probe<128,64,128,2, 128,1,128>();
  probe<128,256,128,2, 1,1,128>();
  probe<128,256,128,2, 2,2,128>();
  probe<128,256,128,2, 4,4,128>();
  probe<128,256,128,2, 8,8,128>();
  probe<128,256,128,2, 16,16,128>();
  probe<128,256,128,2, 32,32,128>();
  probe<128,256,128,2, 64,64,128>();
  probe<128,256,128,2, 128,256,128>();
  probe<128,256,128,2, 1,256,128>();
  probe<128,256,128,2, 128,1,128>();
  probe<128,192,128,2, 1,1,128>();
  probe<128,192,128,2, 2,2,128>();
  probe<128,192,128,2, 4,4,128>();
  probe<128,192,128,2, 8,8,128>();
  probe<128,192,128,2, 16,16,128>();
  probe<128,192,128,2, 32,32,128>();
  probe<128,192,128,2, 64,64,128>();
  probe<128,192,128,2, 128,192,128>();
  probe<128,192,128,2, 1,192,128>();
  probe<128,192,128,2, 128,1,128>();
  probe<128,192,128,2, 1,24,128>();
  probe<64,96,128,1, 1,1,128>();
  probe<64,96,128,1, 2,2,128>();
  probe<64,96,128,1, 4,4,128>();
  probe<64,96,128,1, 8,8,128>();
  probe<64,96,128,1, 16,16,128>();
  probe<64,96,128,1, 32,32,128>();
  probe<64,96,128,1, 64,96,128>();
  probe<64,96,128,1, 1,96,128>();
  probe<64,96,128,1, 64,1,128>();
  probe<64,96,128,1, 1,24,128>();
  return 0;
}
