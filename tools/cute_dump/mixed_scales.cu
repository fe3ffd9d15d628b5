// tools/cute_dump/mixed_scales.cu -- prints what CUTLASS 4.2's SM90 mixed-input collective
// (MainloopSm90TmaGmmaRmemAWarpSpecializedMixedInput, built by CollectiveBuilder<Sm90, OpClassTensorOp, ...> for an A of
// cute::tuple<Narrow, Scale[, Zero]>) builds for its scales and zero points: SmemLayoutScale, the scale TMA's box and
// tensor map (construct_tma_gbasis<TmaElementScale>), the TensorStorage offsets, the scale copy's TiledCopy, the scale
// fragment and its copy view, and -- run by MixedInputUtils' lines, restated for the host -- the shared slot in the
// register dequantize_A_kblock multiplies A element (m, k) by, for every k-block (tests/data/cute_mixed_scales.json is this program's output,
// parsed by tools/cute_dump/mixed_scales_json.py).  Host code only: no GPU.
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -o mixed_scales tools/cute_dump/mixed_scales.cu && ./mixed_scales > mixed.txt
//   python tools/cute_dump/mixed_scales_json.py mixed.txt tests/data/cute_mixed_scales.json
#include "mixed_scales_dump.hpp"
using RM = cutlass::layout::RowMajor; using CMj = cutlass::layout::ColumnMajor;
using h = cutlass::half_t; using bf = cutlass::bfloat16_t; using e4 = cutlass::float_e4m3_t;
using s4 = cutlass::int4b_t; using u4 = cutlass::uint4b_t; using s2 = cutlass::int2b_t;
template <class NarrowTuple, class Wide, int AA, int AB, class Tile, class Sched>
using CB = CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, NarrowTuple, RM, AA, Wide, CMj, AB,
      float, Tile, Shape<_1,_2,_1>, StageCountAutoCarveout<0>, Sched>;

int main() {
  // the generator's mixed-input kernels (cluster 1x2x1, TN, auto stage count), ScaleOnly and ScaleWithZeroPoint
  dump<CB<cute::tuple<int8_t,h>, h, 16, 8, Shape<_128,_128,_64>, KernelTmaWarpSpecializedCooperative>>(
      "s8 x f16 scale 128x128x64 cooperative", "s8 f16 ScaleOnly 128 128 64 TmaWarpSpecializedCooperative", 4096, 64, {0, 1, 37, 127, 128, 255});
  dump<CB<cute::tuple<u4,bf,bf>, bf, 32, 8, Shape<_64,_128,_128>, KernelTmaWarpSpecializedPingpong>>(
      "u4 x bf16 scale+zero 64x128x128 pingpong", "u4 bf16 ScaleWithZeroPoint 64 128 128 TmaWarpSpecializedPingpong", 4096, 32, {0, 5, 66, 127});
  dump<CB<cute::tuple<e4,h>, h, 16, 8, Shape<_256,_128,_64>, KernelTmaWarpSpecialized>>(
      "e4m3 x f16 scale 256x128x64 warpspecialized", "e4m3 f16 ScaleOnly 256 128 64 TmaWarpSpecialized", 4096, 64, {0, 3, 64, 127});
  dump<CB<cute::tuple<s2,bf,bf>, bf, 64, 8, Shape<_256,_128,_64>, KernelTmaWarpSpecializedCooperative>>(
      "s2 x bf16 scale+zero 256x128x64 cooperative", "s2 bf16 ScaleWithZeroPoint 256 128 64 TmaWarpSpecializedCooperative", 4096, 64, {0, 9, 130, 255});
  dump<CB<cute::tuple<uint8_t,bf>, bf, 16, 8, Shape<_128,_128,_64>, KernelTmaWarpSpecialized>>(
      "u8 x bf16 scale 128x128x64 warpspecialized", "u8 bf16 ScaleOnly 128 128 64 TmaWarpSpecialized", 4096, 64, {0, 17, 127});
  dump<CB<cute::tuple<s4,h,h>, h, 32, 16, Shape<_128,_128,_128>, KernelTmaWarpSpecializedPingpong>>(
      "s4 x f16 scale+zero 128x128x128 pingpong", "s4 f16 ScaleWithZeroPoint 128 128 128 TmaWarpSpecializedPingpong", 4096, 32, {0, 1, 100, 127});
}
