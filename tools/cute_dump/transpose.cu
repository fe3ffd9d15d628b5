// tools/cute_dump/transpose.cu -- prints what CUTLASS 4.2's SM90 register-sourced mainloops build to transpose B in
// shared memory when A and B are both MN-major tf32 (sm90_wgmma_transpose.hpp's AsyncTranspositionOperandB; the
// generator's 80 NT tf32 kernels): SmemLayoutB, GmmaSmemLayoutB, the transposition's constants and per-warp tables,
// the warp's tiled copy and every lane's partition_S / partition_D offsets of every warp tile of the stages shown
// (tests/data/cute_transpose.json is this program's output, parsed by tools/cute_dump/transpose_json.py).  Host code
// only, no GPU.
//
//   nvcc -std=c++17 -O0 -DNDEBUG -I$CUTLASS/include -o transpose tools/cute_dump/transpose.cu && ./transpose > t.txt
//   python tools/cute_dump/transpose_json.py t.txt tests/data/cute_transpose.json
#include "transpose_dump.hpp"
using RM = cutlass::layout::RowMajor; using CMj = cutlass::layout::ColumnMajor;
using tf = cutlass::tfloat32_t;
template <int AA, int AB, class Tile, class Cluster, class Sched>
using CBT = CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
      tf, CMj, AA, tf, RM, AB, float, Tile, Cluster, StageCountAutoCarveout<0>, Sched>;
using C12 = Shape<_1,_2,_1>; using C11 = Shape<_1,_1,_1>;

int main() {
  dump<CBT<4,4,Shape<_128,_128,_32>,C12,KernelTmaWarpSpecializedCooperative>, true>("tf32 NT 128x128x32 cooperative", "128 128 32 TmaWarpSpecializedCooperative 4 4", {0, 6});
  dump<CBT<4,4,Shape<_64,_128,_32>,C12,KernelTmaWarpSpecializedPingpong>, true>("tf32 NT 64x128x32 pingpong", "64 128 32 TmaWarpSpecializedPingpong 4 4", {8});
  dump<CBT<4,4,Shape<_256,_128,_32>,C12,KernelTmaWarpSpecialized>, true>("tf32 NT 256x128x32 ws", "256 128 32 TmaWarpSpecialized 4 4", {3});
  dump<CBT<2,2,Shape<_128,_128,_32>,C11,KernelCpAsyncWarpSpecializedCooperative>, false>("tf32 NT 128x128x32 cp.async cooperative", "128 128 32 CpAsyncWarpSpecializedCooperative 2 2", {0});
  dump<CBT<1,1,Shape<_128,_128,_32>,C11,KernelCpAsyncWarpSpecialized>, false>("tf32 NT 128x128x32 cp.async ws", "128 128 32 CpAsyncWarpSpecialized 1 1", {6});
  return 0;
}
