// tools/cute_dump/mixed_scales_lut.cu -- prints what CUTLASS 4.2's SM90 mixed-input collective builds for lookup-table
// scales (the generator's int4 x e4m3 / e5m2 ScaleOnly kernels: A of cute::tuple<int4b_t, cutlass::Array<Wide, 8>>):
// the scale tile, the stages and buffers, the scale fragment and its copy view, and for listed threads the slot of the
// negative and positive table lookup_table_convert converts each A element (m, k) of every k-block with
// (tools/cute_dump/mixed_scales_lut_dump.hpp).  Host code only: no GPU.
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -o mixed_scales_lut tools/cute_dump/mixed_scales_lut.cu && ./mixed_scales_lut > lut.txt
//   python tools/cute_dump/mixed_scales_json.py lut.txt tests/data/cute_mixed_scales_lut.json
#include "mixed_scales_lut_dump.hpp"
using RM = cutlass::layout::RowMajor; using CMj = cutlass::layout::ColumnMajor;
using e4 = cutlass::float_e4m3_t; using e5 = cutlass::float_e5m2_t; using s4 = cutlass::int4b_t;
template <class NarrowTuple, class Wide, int AA, int AB, class Tile, class Sched>
using CB = CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp, NarrowTuple, RM, AA, Wide, CMj, AB,
      float, Tile, Shape<_1,_2,_1>, StageCountAutoCarveout<0>, Sched>;

int main() {
  // the generator's lookup-table kernels (cluster 1x2x1, TN, align 32 / 16, auto stage count)
  dump_lut<CB<cute::tuple<s4, cutlass::Array<e4, 8>>, e4, 32, 16, Shape<_128,_128,_128>, KernelTmaWarpSpecializedCooperative>>(
      "s4 x e4m3 lookup table 128x128x128 cooperative", "s4 e4m3 ScaleOnly 128 128 128 TmaWarpSpecializedCooperative", 4096, 32, {0, 1, 37, 127, 128, 255});
  dump_lut<CB<cute::tuple<s4, cutlass::Array<e4, 8>>, e4, 32, 16, Shape<_64,_128,_128>, KernelTmaWarpSpecializedPingpong>>(
      "s4 x e4m3 lookup table 64x128x128 pingpong", "s4 e4m3 ScaleOnly 64 128 128 TmaWarpSpecializedPingpong", 4096, 32, {0, 5, 66, 127});
  dump_lut<CB<cute::tuple<s4, cutlass::Array<e5, 8>>, e5, 32, 16, Shape<_256,_128,_128>, KernelTmaWarpSpecialized>>(
      "s4 x e5m2 lookup table 256x128x128 warpspecialized", "s4 e5m2 ScaleOnly 256 128 128 TmaWarpSpecialized", 4096, 32, {0, 3, 64, 127});
}
