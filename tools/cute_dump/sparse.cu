// tools/cute_dump/sparse.cu -- prints what CUTLASS 4.2's SM90 structured-sparse collective builds for its compressed A
// and its metadata E (tests/data/cute_sparse.json is this program's output, parsed by tools/cute_dump/sparse_json.py):
// SmemLayoutA/B/E, fill_layoutA/E, the ELayout, get_layoutE_TV, make_tiled_copy_E, per thread partition_E,
// make_fragment_like, partition_S (the shared offsets each thread reads), retile_D, recast<uint32_t> of each wgmma's
// metadata, partition_A's slices, and construct_tma_gbasis<uint64_t> for E.  Host code only, no GPU.
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -o sparse tools/cute_dump/sparse.cu && ./sparse > sparse.txt
//   python tools/cute_dump/sparse_json.py sparse.txt tests/data/cute_sparse.json
#include "sparse_dump.hpp"
using RM = cutlass::layout::RowMajor; using CMj = cutlass::layout::ColumnMajor;
using e4 = cutlass::float_e4m3_t; using e5 = cutlass::float_e5m2_t; using h = cutlass::half_t;
using bf = cutlass::bfloat16_t;
template <class EA, class EB, class Acc, class LA, class LB, int AA, int AB, class Tile, class Cluster, class Sched>
using CBT = CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassSparseTensorOp,
      EA, LA, AA, EB, LB, AB, Acc, Tile, Cluster, StageCountAutoCarveout<0>, Sched>;
using C12 = Shape<_1,_2,_1>; using C21 = Shape<_2,_1,_1>;

int main() {
  auto coop = {0, 1, 2, 3, 4, 5, 31, 32, 97, 127, 128, 131, 255};
  auto one = {0, 1, 2, 3, 4, 5, 31, 32, 97, 127};
  dump<CBT<h,h,float,RM,CMj,16,16,Shape<_128,_128,_64>,C12,KernelTmaWarpSpecializedCooperative>>("f16 TN 128x128x64 cooperative", "f16 f16 f32 RowMajor ColumnMajor 16 16 TmaWarpSpecializedCooperative", coop);
  dump<CBT<h,h,h,CMj,RM,16,16,Shape<_128,_128,_64>,C12,KernelTmaWarpSpecializedPingpong>>("f16 NT 128x128x64 pingpong", "f16 f16 f16 ColumnMajor RowMajor 16 16 TmaWarpSpecializedPingpong", one);
  dump<CBT<bf,bf,float,RM,RM,16,16,Shape<_128,_128,_64>,C21,KernelTmaWarpSpecialized>>("bf16 TT 128x128x64 ws", "bf16 bf16 f32 RowMajor RowMajor 16 16 TmaWarpSpecialized", one);
  dump<CBT<float,float,float,RM,CMj,8,8,Shape<_128,_128,_32>,C12,KernelTmaWarpSpecializedCooperative>>("f32/tf32 TN 128x128x32 cooperative", "tf32 tf32 f32 RowMajor ColumnMajor 8 8 TmaWarpSpecializedCooperative", coop);
  dump<CBT<float,float,float,RM,CMj,8,8,Shape<_64,_128,_32>,C12,KernelTmaWarpSpecializedPingpong>>("f32/tf32 TN 64x128x32 pingpong", "tf32 tf32 f32 RowMajor ColumnMajor 8 8 TmaWarpSpecializedPingpong", one);
  dump<CBT<float,float,float,RM,CMj,8,8,Shape<_256,_128,_32>,C21,KernelTmaWarpSpecializedCooperative>>("f32/tf32 TN 256x128x32 cooperative", "tf32 tf32 f32 RowMajor ColumnMajor 8 8 TmaWarpSpecializedCooperative", coop);
  dump<CBT<e4,e4,float,RM,CMj,32,16,Shape<_128,_128,_128>,C12,KernelTmaWarpSpecializedCooperativeFP8FastAccum>>("e4m3 TN 128x128x128 cooperative fastaccum", "e4m3 e4m3 f32 RowMajor ColumnMajor 32 16 TmaWarpSpecializedCooperativeFP8FastAccum", coop);
  dump<CBT<e4,e5,float,RM,CMj,32,16,Shape<_64,_128,_128>,C12,KernelTmaWarpSpecializedPingpong>>("e4m3xe5m2 TN 64x128x128 pingpong", "e4m3 e5m2 f32 RowMajor ColumnMajor 32 16 TmaWarpSpecializedPingpong", one);
  dump<CBT<e5,e5,float,RM,CMj,32,16,Shape<_256,_128,_128>,C21,KernelTmaWarpSpecializedCooperative>>("e5m2 TN 256x128x128 cooperative", "e5m2 e5m2 f32 RowMajor ColumnMajor 32 16 TmaWarpSpecializedCooperative", coop);
  dump<CBT<int8_t,int8_t,int32_t,RM,CMj,32,16,Shape<_128,_128,_128>,C12,KernelTmaWarpSpecializedCooperative>>("s8 TN 128x128x128 cooperative", "s8 s8 s32 RowMajor ColumnMajor 32 16 TmaWarpSpecializedCooperative", coop);
}
