// tools/cute_dump/blockwise.cu -- prints what CUTLASS 4.2's blockwise-scaled collectives build for their scale
// factors (tests/data/cute_blockwise.json is this program's output, parsed by tools/cute_dump/blockwise_json.py):
// SM90 (CollectiveBuilder<Sm90, ..., KernelTmaWarpSpecializedCooperativeFP8Blockwise / the PtrArray schedule>) and
// SM100 (KernelPtrArrayTmaWarpSpecializedBlockwise1SmSm100 with its epilogue's CopyOpT2R and EpilogueTile): the
// shared scale layouts, layout_SFA/SFB over two CTA tiles each way, every cp.async the scale-loading warp's copy_if
// issues for a k-tile (predicate, global element, shared slot), the TMA box of an SFA loaded by TMA, and the shared
// slot the reader hands each accumulator value (SM90: partition_C of the broadcast view; SM100: partition_D of the
// epilogue-tiled view through the registers accum() fills, with the TMEM addresses tcgen05.ld reads).  Host code only.
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -o blockwise tools/cute_dump/blockwise.cu && ./blockwise > blockwise.txt
//   python tools/cute_dump/blockwise_json.py blockwise.txt tests/data/cute_blockwise.json
#include "blockwise_dump.hpp"
using RM = cutlass::layout::RowMajor; using CMj = cutlass::layout::ColumnMajor;
using e4 = cutlass::float_e4m3_t; using e5 = cutlass::float_e5m2_t; using h = cutlass::half_t;
using C12 = Shape<_1,_2,_1>; using DC = Shape<int,int,_1>;

template <int GM, int GN, int GK> using Cfg90 = cutlass::detail::Sm90BlockwiseScaleConfig<GM, GN, GK>;
template <int GM, int GN, int GK> using Cfg100 = cutlass::detail::Sm100BlockwiseScaleConfig<GM, GN, GK>;

template <class EA, class EB, class LA, class LB, int GM, int GN, int GK, class Tile, class Sched, bool Array>
using CB90 = CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
      EA, cute::tuple<cute::conditional_t<Array, LA*, LA>, cute::conditional_t<Array, decltype(Cfg90<GM,GN,GK>::deduce_layoutSFA())*, decltype(Cfg90<GM,GN,GK>::deduce_layoutSFA())>>, 16,
      EB, cute::tuple<cute::conditional_t<Array, LB*, LB>, cute::conditional_t<Array, decltype(Cfg90<GM,GN,GK>::deduce_layoutSFB())*, decltype(Cfg90<GM,GN,GK>::deduce_layoutSFB())>>, 16,
      float, Tile, C12, StageCountAutoCarveout<0>, Sched>;

template <class EA, class EB, class LA, class LB, int GM, int GN, int GK, class Tile>
using CB100 = CollectiveBuilder<cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp,
      EA, cute::tuple<LA*, decltype(Cfg100<GM,GN,GK>::deduce_layoutSFA())*>, 16,
      EB, cute::tuple<LB*, decltype(Cfg100<GM,GN,GK>::deduce_layoutSFB())*>, 16,
      float, Tile, DC, StageCountAutoCarveout<0>, KernelPtrArrayTmaWarpSpecializedBlockwise1SmSm100>;

template <class Tile, class EC, class LC, class ED, class LD>
using EB100 = cutlass::epilogue::collective::CollectiveBuilder<cutlass::arch::Sm100, cutlass::arch::OpClassTensorOp,
      Tile, DC, cutlass::epilogue::collective::EpilogueTileAuto, float, float, EC, LC*, 8, ED, LD*, 8,
      cutlass::epilogue::PtrArrayTmaWarpSpecialized1Sm>;

#define EPI(M, N, EC, ED, L, NAME) dump_epilogue<EB100<Shape<_##M,_##N,_128>, EC, L, ED, L>>(NAME);

int main() {
  using Coop = KernelTmaWarpSpecializedCooperativeFP8Blockwise;
  using PCoop = KernelPtrArrayTmaWarpSpecializedCooperativeFP8Blockwise;
  dump_sm90<CB90<e4,e4,RM,CMj,1,128,128,Shape<_128,_128,_128>,Coop,false>, false>("sm90 1x128 128x128 128x128x128 cooperative", "e4m3 e4m3 1 128 128 128 128 128 BlockwiseTmaWarpSpecializedCooperative");
  dump_sm90<CB90<e4,e4,RM,CMj,1,1,128,Shape<_128,_128,_128>,Coop,false>, false>("sm90 1x128 1x128 128x128x128 cooperative", "e4m3 e4m3 1 1 128 128 128 128 BlockwiseTmaWarpSpecializedCooperative");
  dump_sm90<CB90<e4,e5,RM,CMj,128,128,128,Shape<_128,_128,_128>,Coop,false>, false>("sm90 128x128 128x128 128x128x128 cooperative", "e4m3 e5m2 128 128 128 128 128 128 BlockwiseTmaWarpSpecializedCooperative");
  dump_sm90<CB90<e4,e4,RM,CMj,1,128,128,Shape<_256,_128,_128>,Coop,false>, false>("sm90 1x128 128x128 256x128x128 cooperative", "e4m3 e4m3 1 128 128 256 128 128 BlockwiseTmaWarpSpecializedCooperative");
  dump_sm90<CB90<e5,e4,RM,CMj,256,128,128,Shape<_256,_128,_128>,Coop,false>, false>("sm90 256x128 128x128 256x128x128 cooperative", "e5m2 e4m3 256 128 128 256 128 128 BlockwiseTmaWarpSpecializedCooperative");
  dump_sm90<CB90<e4,e4,RM,CMj,1,128,128,Shape<_128,_128,_128>,PCoop,true>, true>("sm90 ptr-array 1x128 128x128 128x128x128 cooperative", "e4m3 e4m3 1 128 128 128 128 128 PtrArrayBlockwiseTmaWarpSpecializedCooperative");
  dump_sm100<CB100<e4,e4,RM,CMj,128,128,128,Shape<_128,_128,_128>>, EB100<Shape<_128,_128,_128>, h, RM, h, RM>>("sm100 128x128x128 f16 row", "e4m3 e4m3 128 128 128 128 128 128 f16 f16 RowMajor", {0, 1, 33, 127});
  dump_sm100<CB100<e4,e5,CMj,CMj,64,32,128,Shape<_64,_32,_128>>, EB100<Shape<_64,_32,_128>, float, CMj, float, CMj>>("sm100 64x32x128 f32 column", "e4m3 e5m2 64 32 128 64 32 128 f32 f32 ColumnMajor", {0, 1, 17, 33, 127});
  dump_sm100<CB100<e5,e4,RM,RM,64,256,128,Shape<_64,_256,_128>>, EB100<Shape<_64,_256,_128>, void, RM, h, RM>>("sm100 64x256x128 void/f16 row", "e5m2 e4m3 64 256 128 64 256 128 void f16 RowMajor", {0, 1, 17, 127});
  dump_sm100<CB100<e4,e4,RM,CMj,128,64,128,Shape<_128,_64,_128>>, EB100<Shape<_128,_64,_128>, void, CMj, float, CMj>>("sm100 128x64x128 void/f32 column", "e4m3 e4m3 128 64 128 128 64 128 void f32 ColumnMajor", {0, 1, 33, 127});
  // finer granularities than the generator's (the builder's vectorized scale copies, two K blocks a tile)
  dump_sm100<CB100<e4,e4,RM,CMj,1,128,128,Shape<_128,_128,_128>>, EB100<Shape<_128,_128,_128>, float, CMj, float, CMj>>("sm100 128x128x128 1x128 128x128 f32 column", "e4m3 e4m3 1 128 128 128 128 128 f32 f32 ColumnMajor", {0, 1, 33, 127});
  dump_sm100<CB100<e4,e4,RM,CMj,1,1,64,Shape<_64,_64,_128>>, EB100<Shape<_64,_64,_128>, void, RM, h, RM>>("sm100 64x64x128 1x64 1x64 void/f16 row", "e4m3 e4m3 1 1 64 64 64 128 void f16 RowMajor", {0, 1, 17, 33, 127});
  // the epilogue's choice for every tile, D width, C presence and layout of the generated space
#define TILES(EC, ED, L, TAG) EPI(64,32,EC,ED,L,"64 32 " TAG) EPI(64,64,EC,ED,L,"64 64 " TAG) EPI(64,128,EC,ED,L,"64 128 " TAG) EPI(64,256,EC,ED,L,"64 256 " TAG) \
    EPI(128,32,EC,ED,L,"128 32 " TAG) EPI(128,64,EC,ED,L,"128 64 " TAG) EPI(128,128,EC,ED,L,"128 128 " TAG) EPI(128,256,EC,ED,L,"128 256 " TAG)
  TILES(float, float, RM, "f32 f32 RowMajor") TILES(float, float, CMj, "f32 f32 ColumnMajor")
  TILES(h, h, RM, "f16 f16 RowMajor") TILES(h, h, CMj, "f16 f16 ColumnMajor")
  TILES(void, float, RM, "void f32 RowMajor") TILES(void, float, CMj, "void f32 ColumnMajor")
  TILES(void, h, RM, "void f16 RowMajor") TILES(void, h, CMj, "void f16 ColumnMajor")
}
