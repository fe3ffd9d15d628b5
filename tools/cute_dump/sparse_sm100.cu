// tools/cute_dump/sparse_sm100.cu -- prints what CUTLASS 4.2's SM100 structured-sparse collective builds for the
// metadata E of its tcgen05.mma.sp mainloop (tests/data/cute_sparse_sm100.json is this program's output, parsed by
// tools/cute_dump/sparse_sm100_json.py): Sm1xxGemmSparseConfig's TensorEAtom, fill_layoutA/E, the collective's
// UtccpReuseCnt, TileShapeE, SmemLayoutA/B/E, construct_tma_gbasis<uint64_t> of E, partition_A's k-block origins, the
// TMEM metadata tile (tmem_e_frg) after the accumulators and the address / sparsity selector each k-block's MMA is
// handed, make_utccp_copy(SM100_UTCCP_128dp128bit_*) with its partitions and descriptors.  Host code only, no GPU.
//
//   nvcc -std=c++17 -O0 -w -diag-suppress 20013 -I$CUTLASS/include -o sparse_sm100 tools/cute_dump/sparse_sm100.cu
//   ./sparse_sm100 > sparse_sm100.txt
//   python tools/cute_dump/sparse_sm100_json.py sparse_sm100.txt tests/data/cute_sparse_sm100.json
//
// (As for blockscaled.cu: GCC as nvcc's host compiler refuses cute::rotl / cute::rotr of cute/numeric/math.hpp, which
// call each other for a negative shift; a private copy of that header, put first on -I, whose negative-shift branches
// compute the rotation directly, compiles it and changes no result.)
#include "sparse_sm100_dump.hpp"
using RM = cutlass::layout::RowMajor; using CMj = cutlass::layout::ColumnMajor;
using e4 = cutlass::float_e4m3_t; using e5 = cutlass::float_e5m2_t; using h = cutlass::half_t;
template <class EA, class EB, class Acc, int AA, int AB, class Tile, class Sched>
using CBT = CollectiveBuilder<cutlass::arch::Sm100, cutlass::arch::OpClassSparseTensorOp,
      EA, RM, AA, EB, CMj, AB, Acc, Tile, Shape<_4,_4,_1>, StageCountAutoCarveout<0>, Sched>;
using S1 = KernelSparseTmaWarpSpecialized1SmSm100; using S2 = KernelSparseTmaWarpSpecialized2SmSm100;
#define D(EA, EB, ACC, AA, AB, M, N, K, S, LABEL, KERNEL) \
  dump<CBT<EA,EB,ACC,AA,AB,Shape<_##M,_##N,_##K>,S>>(LABEL, KERNEL)
int main() {
  D(h, h, float, 16, 8, 128, 128, 64, S1, "f16 TN 128x128x64 1sm", "f16 f16 f32 SparseTmaWarpSpecialized1SmSm100 128 128 64");
  D(h, h, float, 16, 8, 128, 256, 64, S1, "f16 TN 128x256x64 1sm", "f16 f16 f32 SparseTmaWarpSpecialized1SmSm100 128 256 64");
  D(h, h, float, 16, 8, 256, 128, 64, S2, "f16 TN 256x128x64 2sm", "f16 f16 f32 SparseTmaWarpSpecialized2SmSm100 256 128 64");
  D(h, h, float, 16, 8, 256, 256, 64, S2, "f16 TN 256x256x64 2sm", "f16 f16 f32 SparseTmaWarpSpecialized2SmSm100 256 256 64");
  D(float, float, float, 8, 4, 128, 128, 32, S1, "tf32 TN 128x128x32 1sm", "tf32 tf32 f32 SparseTmaWarpSpecialized1SmSm100 128 128 32");
  D(float, float, float, 8, 4, 128, 256, 32, S1, "tf32 TN 128x256x32 1sm", "tf32 tf32 f32 SparseTmaWarpSpecialized1SmSm100 128 256 32");
  D(float, float, float, 8, 4, 256, 128, 32, S2, "tf32 TN 256x128x32 2sm", "tf32 tf32 f32 SparseTmaWarpSpecialized2SmSm100 256 128 32");
  D(float, float, float, 8, 4, 256, 256, 32, S2, "tf32 TN 256x256x32 2sm", "tf32 tf32 f32 SparseTmaWarpSpecialized2SmSm100 256 256 32");
  D(int8_t, int8_t, int32_t, 32, 16, 128, 128, 128, S1, "s8 TN 128x128x128 1sm", "s8 s8 s32 SparseTmaWarpSpecialized1SmSm100 128 128 128");
  D(int8_t, int8_t, int32_t, 32, 16, 128, 256, 128, S1, "s8 TN 128x256x128 1sm", "s8 s8 s32 SparseTmaWarpSpecialized1SmSm100 128 256 128");
  D(int8_t, int8_t, int32_t, 32, 16, 256, 128, 128, S2, "s8 TN 256x128x128 2sm", "s8 s8 s32 SparseTmaWarpSpecialized2SmSm100 256 128 128");
  D(int8_t, int8_t, int32_t, 32, 16, 256, 256, 128, S2, "s8 TN 256x256x128 2sm", "s8 s8 s32 SparseTmaWarpSpecialized2SmSm100 256 256 128");
  D(e4, e4, float, 32, 16, 128, 128, 128, S1, "e4m3 TN 128x128x128 1sm", "e4m3 e4m3 f32 SparseTmaWarpSpecialized1SmSm100 128 128 128");
  D(e4, e4, float, 32, 16, 128, 256, 128, S1, "e4m3 TN 128x256x128 1sm", "e4m3 e4m3 f32 SparseTmaWarpSpecialized1SmSm100 128 256 128");
  D(e5, e5, float, 32, 16, 256, 128, 128, S2, "e5m2 TN 256x128x128 2sm", "e5m2 e5m2 f32 SparseTmaWarpSpecialized2SmSm100 256 128 128");
  D(e4, e5, float, 32, 16, 256, 256, 128, S2, "e4m3xe5m2 TN 256x256x128 2sm", "e4m3 e5m2 f32 SparseTmaWarpSpecialized2SmSm100 256 256 128");
}
