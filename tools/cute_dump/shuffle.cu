// tools/cute_dump/shuffle.cu -- prints what CUTLASS 4.2's SM90 mixed-input collective builds for a value-shuffled
// narrow A (the generator's _shfl ConvertOnly kernels: A's layout is tile_to_shape(compute_memory_reordering_atom<
// Wide, Layout<Shape<_1,_1>>, ValueShuffle>(), (M,K,L)), ValueShuffle (2,4):(4,1) for 4-bit and (2,2):(2,1) for 8-bit
// A, as gemm_operation.py writes it): the reordering atom, SmemLayoutA (get_smem_layout's make_layout_like of the
// global tile), the global layout over two tiles each way, construct_tma_gbasis<TmaElementA>, and for each listed
// thread partition_A of the shared tile, make_tensor_like's register layout, partition_fragment_A, retile_D of
// make_tiled_copy_A(Copy_Atom<AutoVectorizingCopy, Narrow>), every element the copy moves, dequantize_A_kblock's
// chunks and partition_A of the identity (the tile coordinate of each fragment register).  Host code only, no GPU.
// tests/data/cute_shuffle.json is this program's output, parsed by tools/cute_dump/shuffle_json.py:
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -I$CUTLASS/tools/util/include -I$CURAND_INCLUDE -o shuffle \
//        tools/cute_dump/shuffle.cu && ./shuffle > shuffle.txt
//   python tools/cute_dump/shuffle_json.py shuffle.txt tests/data/cute_shuffle.json
//
// (cutlass/util/mixed_dtype_utils.hpp, which defines compute_memory_reordering_atom, includes curand_kernel.h: the
// nvidia-curand-cu12 wheel's include/ directory provides it.)
#include "shuffle_dump.hpp"
using h = cutlass::half_t; using bf = cutlass::bfloat16_t;
using s4 = cutlass::int4b_t; using u4 = cutlass::uint4b_t;
using e4 = cutlass::float_e4m3_t; using e5 = cutlass::float_e5m2_t;
using Shfl4 = Layout<Shape<_2,_4>, Stride<_4,_1>>; using Shfl8 = Layout<Shape<_2,_2>, Stride<_2,_1>>;
using Coop = KernelTmaWarpSpecializedCooperative; using Ping = KernelTmaWarpSpecializedPingpong;
using WS = KernelTmaWarpSpecialized;
#define DUMP(N, W, SH, BM, SCHED, NAME, KERNEL, THREADS) \
  dump<CBS<N, W, SH, BM, 128, 64, SCHED>, W, SH>(NAME, KERNEL, THREADS);

int main() {
  auto coop = {0, 1, 2, 5, 31, 32, 97, 127, 128, 161, 255};
  auto one = {0, 1, 2, 5, 31, 32, 97, 127};
  DUMP(s4, h, Shfl4, 128, Coop, "s4 f16 128x128x64 cooperative", "s4 f16 128 128 64 TmaWarpSpecializedCooperative", coop)
  DUMP(u4, bf, Shfl4, 256, Coop, "u4 bf16 256x128x64 cooperative", "u4 bf16 256 128 64 TmaWarpSpecializedCooperative", coop)
  DUMP(s4, bf, Shfl4, 64, Ping, "s4 bf16 64x128x64 pingpong", "s4 bf16 64 128 64 TmaWarpSpecializedPingpong", one)
  DUMP(u4, h, Shfl4, 256, WS, "u4 f16 256x128x64 ws", "u4 f16 256 128 64 TmaWarpSpecialized", one)
  DUMP(int8_t, h, Shfl8, 128, WS, "s8 f16 128x128x64 ws", "s8 f16 128 128 64 TmaWarpSpecialized", one)
  DUMP(uint8_t, bf, Shfl8, 256, Coop, "u8 bf16 256x128x64 cooperative", "u8 bf16 256 128 64 TmaWarpSpecializedCooperative", coop)
  DUMP(e4, h, Shfl8, 64, Ping, "e4m3 f16 64x128x64 pingpong", "e4m3 f16 64 128 64 TmaWarpSpecializedPingpong", one)
  DUMP(e5, bf, Shfl8, 128, Coop, "e5m2 bf16 128x128x64 cooperative", "e5m2 bf16 128 128 64 TmaWarpSpecializedCooperative", coop)
  DUMP(int8_t, bf, Shfl8, 64, WS, "s8 bf16 64x128x64 ws", "s8 bf16 64 128 64 TmaWarpSpecialized", one)
  DUMP(e4, bf, Shfl8, 256, Ping, "e4m3 bf16 256x128x64 pingpong", "e4m3 bf16 256 128 64 TmaWarpSpecializedPingpong", one)
}
