// tools/cute_dump/blockscaled.cu -- prints what CUTLASS's SM100 block-scaled collective builds for its scale factors
// (tests/data/cute_blockscaled.json is this program's output, parsed): the shared and TMEM SF layouts, make_utccp_copy's
// tiled copy, its partitions and descriptors, the scale address each k-block's MMA is handed, the global SF layout and
// the TMA basis CuTe derives.  Host code only, no GPU: CuTe's own algebra evaluates everything.
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -I$CUTLASS/tools/util/include -o blockscaled tools/cute_dump/blockscaled.cu
//
// (GCC as nvcc's host compiler refuses cute::rotl / cute::rotr of cute/numeric/math.hpp, which call each other for a
// negative shift; a private copy of that header, put first on -I, whose negative-shift branches compute the rotation
// directly, compiles it and changes no result.)
#include "blockscaled_dump.hpp"
using RM = cutlass::layout::RowMajor; using CMj = cutlass::layout::ColumnMajor;
using e4 = cutlass::float_e4m3_t; using e5 = cutlass::float_e5m2_t; using e2 = cutlass::float_e2m1_t; using e3 = cutlass::float_e3m2_t; using u8 = cutlass::float_ue8m0_t; using u4 = cutlass::float_ue4m3_t;
using f4 = cutlass::type_erased_dynamic_float4_t;
template <class EA, class EB, class SF, class LA, class LB, int AA, int AB, class Tile, class Cluster, class Sched>
using CBT = CollectiveBuilder<cutlass::arch::Sm100, cutlass::arch::OpClassBlockScaledTensorOp,
      cute::tuple<EA,SF>, LA, AA, cute::tuple<EB,SF>, LB, AB, float, Tile, Cluster, StageCountAutoCarveout<0>, Sched>;
using DC = Shape<int,int,_1>;

int main() {
  dump<CBT<e4,e4,u8,RM,CMj,16,16,Shape<_128,_128,_128>,DC,KernelTmaWarpSpecialized1SmMxf8f6f4Sm100>>("mxf8f6f4 e4m3xe4m3 TN 128x128x128 1SM dyncluster", 512, 384, 1024, 64);
  dump<CBT<e4,e4,u8,RM,CMj,16,16,Shape<_128,_256,_128>,DC,KernelTmaWarpSpecialized1SmMxf8f6f4Sm100>>("mxf8f6f4 e4m3xe4m3 TN 128x256x128 1SM", 512, 512, 1024, 64);
  dump<CBT<e4,e4,u8,RM,CMj,16,16,Shape<_256,_128,_128>,Shape<_2,_1,_1>,KernelTmaWarpSpecialized2SmMxf8f6f4Sm100>>("mxf8f6f4 e4m3xe4m3 TN 256x128x128 2SM cluster 2x1", 512, 384, 1024, 64);
  dump<CBT<e4,e4,u8,RM,CMj,16,16,Shape<_256,_256,_128>,DC,KernelTmaWarpSpecialized2SmMxf8f6f4Sm100>>("mxf8f6f4 e4m3xe4m3 TN 256x256x128 2SM dyncluster", 512, 512, 1024, 64);
  dump<CBT<e2,e2,u8,RM,CMj,32,32,Shape<_128,_128,_256>,DC,KernelTmaWarpSpecialized1SmMxf4Sm100>>("mxf4 e2m1 ue8m0 VS32 128x128x256 1SM", 512, 384, 1024, 64);
  dump<CBT<e2,e2,u8,RM,CMj,32,32,Shape<_128,_192,_256>,DC,KernelTmaWarpSpecialized1SmMxf4Sm100>>("mxf4 e2m1 ue8m0 VS32 128x192x256 1SM", 512, 384, 1024, 64);
  dump<CBT<e2,e2,u8,RM,CMj,32,32,Shape<_128,_64,_256>,DC,KernelTmaWarpSpecialized1SmMxf4Sm100>>("mxf4 e2m1 ue8m0 VS32 128x64x256 1SM", 512, 384, 1024, 64);
  dump<CBT<e2,e2,u8,RM,CMj,32,32,Shape<_256,_256,_256>,DC,KernelTmaWarpSpecialized2SmMxf4Sm100>>("mxf4 e2m1 ue8m0 VS32 256x256x256 2SM", 512, 512, 1024, 64);
  dump<CBT<e2,e2,u4,RM,CMj,32,32,Shape<_128,_128,_256>,DC,KernelTmaWarpSpecialized1SmNvf4Sm100>>("nvf4 e2m1 ue4m3 VS16 128x128x256 1SM", 512, 384, 1024, 64);
  dump<CBT<e2,e2,u4,RM,CMj,32,32,Shape<_128,_256,_256>,DC,KernelTmaWarpSpecialized1SmNvf4Sm100>>("nvf4 e2m1 ue4m3 VS16 128x256x256 1SM", 512, 512, 1024, 64);
  dump<CBT<e2,e2,u4,RM,CMj,32,32,Shape<_256,_192,_256>,DC,KernelTmaWarpSpecialized2SmNvf4Sm100>>("nvf4 e2m1 ue4m3 VS16 256x192x256 2SM", 512, 384, 1024, 64);
  dump<CBT<e2,e2,u4,RM,CMj,32,32,Shape<_256,_64,_256>,DC,KernelTmaWarpSpecialized2SmNvf4Sm100>>("nvf4 e2m1 ue4m3 VS16 256x64x256 2SM", 512, 384, 1024, 64);
}
