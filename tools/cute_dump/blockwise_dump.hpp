// tools/cute_dump/blockwise_dump.hpp -- the printer of blockwise.cu: one blockwise-scaled CollectiveBuilder
// configuration (SM90 or SM100), dumped as "@key value" lines (tests/data/cute_blockwise.json is their parse, by
// tools/cute_dump/blockwise_json.py).  Every tensor is a coordinate tensor of its layout (make_coord_tensor: its values
// are the layout's offsets), so each list printed is what CUTLASS's own code computes: global scale elements, shared
// slots, TMEM addresses.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/epilogue/collective/collective_builder.hpp"
#include "cutlass/detail/blockwise_scale_layout.hpp"
#include "dump_common.hpp"
using namespace cute;
using namespace cutlass::gemm::collective;
using namespace cutlass::gemm;
using X = Underscore;

template <class T> void values(const char* what, T const& t) {
  printf("@%s", what);
  for (int i = 0; i < size(t); ++i) printf(" %d", int(t(i)));
  printf("\n");
}

// the writer: CUTLASS's cp.async copy_if of one k-tile into one stage, as (pred, global element, shared slot) in the
// order copy_if issues them (group_modes<1,R>: rest index outer, the atom's values inner)
template <class Pred, class Src, class Dst>
void writes(const char* what, Pred const& prd_in, Src const& src, Dst const& dst) {
  constexpr int R = decltype(rank(dst))::value;
  auto prd = [&]() {         // copy_if's back-compat: a predicate of one mode less gets a (1:0) mode in front
    if constexpr (decltype(rank(prd_in))::value == R - 1) return make_tensor(prd_in.data(), prepend(prd_in.layout(), Layout<_1,_0>{}));
    else return prd_in;
  }();
  auto prd_v = group_modes<1,R>(prd);
  auto src_v = group_modes<1,R>(src);
  auto dst_v = group_modes<1,R>(dst);
  printf("@%s", what);
  for (int i = 0; i < size<1>(dst_v); ++i)
    for (int v = 0; v < size<0>(dst_v); ++v)
      printf(" %d:%d:%d", int(bool(prd_v(0, i))), int(src_v(v, i)), int(dst_v(v, i)));
  printf("\n");
}

// ---- SM90: MainloopSm90[Array]TmaGmmaWarpSpecializedBlockwise ------------------------------------------------------

template <class CM, bool Array>
void sm90_writer(const char* which, int tiles, std::initializer_list<int> lanes) {
  using Tile = typename CM::TileShape;
  constexpr int BM = size<0>(Tile{}), BN = size<1>(Tile{}), BK = size<2>(Tile{});
  auto problem = make_shape(tiles * BM, tiles * BN, tiles * BK, 1);
  bool isA = which[0] == 'a';
  auto run = [&](auto layout_SF, auto smem, auto step, int ms) {
    Tensor m = make_coord_tensor(layout_SF);
    Tensor id = make_identity_tensor(shape(layout_SF));
    Tensor g = local_tile(m, Tile{}, make_coord(_,_,_), step);
    Tensor c = local_tile(id, Tile{}, make_coord(_,_,_), step);
    int coord = tiles - 1;                                    // the last CTA tile along MN, the last k-tile
    Tensor g_k = g(_,_,coord,_,0);
    Tensor c_k = c(_,_,coord,_,0);
    Tensor s = make_coord_tensor(smem);
    using CopyAtom = typename CM::CopyAtomSFA;
    TiledCopy copy = make_tiled_copy(CopyAtom{}, Layout<Shape<_32>>{}, Layout<Shape<_1>>{});
    printf("@%s_gmem ", which); print(layout_SF); printf("\n");
    for (int t : lanes) {
      auto thr = copy.get_slice(t);
      Tensor tg = thr.partition_S(g_k);
      Tensor tc = thr.partition_S(c_k);
      Tensor ts = thr.partition_D(s);
      Tensor pred = make_tensor<bool>(shape(filter_zeros(ts(_,_,_,_0{}))));
      Tensor tc_k = filter_zeros(tc(_,_,_,coord));
      for (int i = 0; i < size(pred); ++i) pred(i) = t < ms && elem_less(tc_k(i), shape(layout_SF));
      printf("@%s_lane %d\n", which, t);
      writes((std::string(which) + "_writes").c_str(), pred, filter_zeros(tg(_,_,_,coord)), filter_zeros(ts(_,_,_,1)));
    }
  };
  if (isA) run(CM::ScaleConfig::tile_atom_to_shape_SFA(problem), typename CM::SmemLayoutSFA{}, Step<_1,X,_1>{}, CM::ScaleMsPerTile);
  else     run(CM::ScaleConfig::tile_atom_to_shape_SFB(problem), typename CM::SmemLayoutSFB{}, Step<X,_1,_1>{}, CM::ScaleNsPerTile);
}

template <class CM>
void sm90_reader(std::initializer_list<int> threads) {
  using Tile = typename CM::TileShape;
  using SLA = typename CM::SmemLayoutSFA; using SLB = typename CM::SmemLayoutSFB;
  // the scale views of mma(): (BLK_M, BLK_N, (BLK_K, P)) -> shared slot, the other operand's mode stride 0
  auto viewA = make_layout(make_shape(get<0>(shape(SLA{})), get<1>(Tile{}), make_shape(get<1>(shape(SLA{})), get<2>(shape(SLA{})))),
                           make_stride(get<0>(stride(SLA{})), _0{}, make_stride(get<1>(stride(SLA{})), get<2>(stride(SLA{})))));
  auto viewB = make_layout(make_shape(get<0>(Tile{}), get<0>(shape(SLB{})), make_shape(get<1>(shape(SLB{})), get<2>(shape(SLB{})))),
                           make_stride(_0{}, get<0>(stride(SLB{})), make_stride(get<1>(stride(SLB{})), get<2>(stride(SLB{})))));
  pl("view_a", viewA); pl("view_b", viewB);
  typename CM::TiledMma mma;
  Tensor sA = make_coord_tensor(viewA); Tensor sB = make_coord_tensor(viewB);
  for (int t : threads) {
    Tensor tA = mma.get_slice(t).partition_C(sA);
    Tensor tB = mma.get_slice(t).partition_C(sB);
    Tensor cC = make_identity_tensor(make_shape(size<0>(Tile{}), size<1>(Tile{})));
    Tensor tC = mma.get_slice(t).partition_C(cC);
    printf("@reader_thread %d\n", t);
    pl("reader_a_layout", tA.layout());
    values("reader_a", tA(_,_,_,make_coord(_0{}, 1)));     // stage 1, K block 0 (what mma() copies)
    values("reader_b", tB(_,_,_,make_coord(_0{}, 1)));
    printf("@reader_c");
    for (int i = 0; i < size(tC); ++i) printf(" %d,%d", int(get<0>(tC(i))), int(get<1>(tC(i))));
    printf("\n");
  }
}

template <class CB, bool Array>
void dump_sm90(const char* name, const char* kernel) {
  using CM = typename CB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  printf("@config %s\n@arch 90\n@kernel %s\n", name, kernel);
  tname<typename TiledMma::Atom::MMA_Op>("mma_op");
  printf("@tile %d %d %d\n@stages %d\n@threads %d\n", int(size<0>(Tile{})), int(size<1>(Tile{})), int(size<2>(Tile{})),
         int(CB::PipelineStages), int(size(TiledMma{})));
  printf("@granularity %d %d %d\n", int(CM::ScaleGranularityM), int(CM::ScaleGranularityN), int(CM::ScaleGranularityK));
  printf("@scales_per_tile %d %d\n", int(CM::ScaleMsPerTile), int(CM::ScaleNsPerTile));
  if constexpr (!Array) printf("@tma_load %d %d\n", int(CM::IsTmaLoadSFA), int(CM::IsTmaLoadSFB));
  else printf("@tma_load 0 0\n");
  pl("atom_layout", typename TiledMma::ThrLayoutVMNK{});
  pl("smem_a", typename CM::SmemLayoutSFA{});
  pl("smem_b", typename CM::SmemLayoutSFB{});
  pl("copy_atom_layout_tv", typename decltype(make_tiled_copy(typename CM::CopyAtomSFA{}, Layout<Shape<_32>>{}, Layout<Shape<_1>>{}))::TiledLayout_TV{});
  sm90_writer<CM, Array>("a", 2, {0, 1, 5, 31});
  sm90_writer<CM, Array>("b", 2, {0, 1, 5, 31});
  if constexpr (!Array) {
    if constexpr (CM::IsTmaLoadSFA) {
      auto problem = make_shape(2 * size<0>(Tile{}), 2 * size<1>(Tile{}), 2 * size<2>(Tile{}), 1);
      auto layout_SFA = CM::ScaleConfig::tile_atom_to_shape_SFA(problem);
      Tensor g = make_tensor(make_gmem_ptr(reinterpret_cast<float const*>(uintptr_t(1) << 20)), filter_zeros(layout_SFA));
      auto v = make_identity_layout(shape(g)).compose(Shape<Int<CM::ScaleMsPerTile>, _1>{});
      tma_basis_lines<float>("a", g, filter_zeros(typename CM::SmemLayoutSFA{})(_,_,Int<0>{}), v);
    }
  }
  sm90_reader<CM>({0, 1, 37, 128, 255});
}

// ---- SM100: MainloopSm100[Array]TmaUmmaWarpSpecializedBlockwiseScaling, and the epilogue's CopyOpT2R / EpilogueTile --

template <class CM, class CopySF, class Layout_, class Smem, class Step_>
void sm100_writer(const char* which, Layout_ layout_SF, Smem smem, Step_ step, int tiles, std::initializer_list<int> lanes) {
  using Cta = typename CM::CtaShape_MNK;
  Tensor m = make_coord_tensor(layout_SF);
  Tensor id = make_identity_tensor(shape(layout_SF));
  Tensor g = local_tile(m, Cta{}, make_coord(_,_,_), step);
  Tensor c = local_tile(id, Cta{}, make_coord(_,_,_), step);
  Tensor s = make_coord_tensor(smem);
  CopySF copy{};
  pl((std::string(which) + "_copy_layout_tv").c_str(), typename CopySF::TiledLayout_TV{});
  pl((std::string(which) + "_copy_tiler").c_str(), typename CopySF::Tiler_MN{});
  printf("@%s_copy_threads %d\n", which, int(size(copy)));
  printf("@%s_gmem ", which); print(layout_SF); printf("\n");
  int coord = tiles - 1;
  for (int lane : lanes) {
    auto thr = copy.get_slice(lane % size(copy));
    Tensor tg_mkl = thr.partition_S(g);
    Tensor tc_mkl = thr.partition_S(c);
    Tensor ts = thr.partition_D(s);
    Tensor tg = tg_mkl(_, _, _, coord, _, 0);
    Tensor tile_k = tc_mkl(_0{}, _, _, coord, _, 0);
    Tensor pred = make_tensor<bool>(shape(filter_zeros(tile_k(_,_,_0{}), tg(_0{},_,_,_0{}).stride())));
    for (int i = 0; i < size(pred); ++i) {
      Tensor tc = filter_zeros(tile_k(_,_,coord), tg(_0{},_,_,_0{}).stride());
      pred(i) = elem_less(tc(i), shape(filter_zeros(layout_SF))) && lane % 32 < size(copy);
    }
    printf("@%s_lane %d\n", which, lane);
    writes((std::string(which) + "_writes").c_str(), pred, filter_zeros(tg(_,_,_,coord)), filter_zeros(ts(_,_,_,1)));
  }
}

template <class CB, class EB>
void dump_sm100(const char* name, const char* kernel, std::initializer_list<int> threads) {
  using CM = typename CB::CollectiveOp;
  using CE = typename EB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  using Cta = typename CM::CtaShape_MNK;
  printf("@config %s\n@arch 100\n@kernel %s\n", name, kernel);
  tname<typename TiledMma::Atom::MMA_Op>("mma_op");
  tname<typename CE::CopyOpT2R>("tmem_load");
  pl("epilogue_tile", typename CE::EpilogueTile{});
  printf("@tile %d %d %d\n@stages %d\n@threads 128\n", int(size<0>(Tile{})), int(size<1>(Tile{})), int(size<2>(Tile{})),
         int(CB::PipelineStages));
  printf("@granularity %d %d %d\n", int(CM::ScaleGranularityM), int(CM::ScaleGranularityN), int(CM::ScaleGranularityK));
  printf("@scales_per_tile %d %d\n", int(CM::ScaleMsPerTile), int(CM::ScaleNsPerTile));
  printf("@tma_load 0 0\n");
  pl("smem_a", typename CM::SmemLayoutScaleA{});
  pl("smem_b", typename CM::SmemLayoutScaleB{});
  constexpr int tiles = 2;
  auto problem = make_shape(tiles * size<0>(Cta{}), tiles * size<1>(Cta{}), tiles * size<2>(Cta{}), 1);
  sm100_writer<CM, typename CM::GmemTiledCopySFA>("a", CM::ScaleConfig::tile_atom_to_shape_SFA(problem),
      typename CM::SmemLayoutScaleA{}, Step<_1,X,_1>{}, tiles, {0, 1, 5, 31});
  sm100_writer<CM, typename CM::GmemTiledCopySFB>("b", CM::ScaleConfig::tile_atom_to_shape_SFB(problem),
      typename CM::SmemLayoutScaleB{}, Step<X,_1,_1>{}, tiles, {0, 1, 5, 31});
  // the accumulator in TMEM (one stage) and the reader of accum()
  TiledMma mma;
  auto acc_shape = partition_shape_C(mma, take<0,2>(Tile{}));
  Tensor accumulators = TiledMma::make_fragment_C(acc_shape);
  pl("accumulator", accumulators.layout());
  Tensor tAcc = accumulators(make_coord(_,_),_0{},_0{});
  using EpiTile = typename CE::EpilogueTile;
  Tensor tAcc_epi = flat_divide(tAcc, EpiTile{});
  using SLA = typename CM::SmemLayoutScaleA; using SLB = typename CM::SmemLayoutScaleB;
  auto viewA = make_layout(make_shape(get<0>(shape(SLA{})), get<1>(Cta{}), get<1>(shape(SLA{})), get<2>(shape(SLA{}))),
                           make_stride(get<0>(stride(SLA{})), _0{}, get<1>(stride(SLA{})), get<2>(stride(SLA{}))));
  auto viewB = make_layout(make_shape(get<0>(Cta{}), get<0>(shape(SLB{})), get<1>(shape(SLB{})), get<2>(shape(SLB{}))),
                           make_stride(_0{}, get<0>(stride(SLB{})), get<1>(stride(SLB{})), get<2>(stride(SLB{}))));
  pl("view_a", viewA); pl("view_b", viewB);
  Tensor sSFA_epi = flat_divide(make_coord_tensor(viewA), EpiTile{});
  Tensor sSFB_epi = flat_divide(make_coord_tensor(viewB), EpiTile{});
  TiledCopy t2r = make_tmem_copy(typename CE::CopyOpT2R{}, tAcc_epi(_,_,_0{},_0{}));
  pl("t2r_layout_tv", typename decltype(t2r)::TiledLayout_TV{});
  pl("t2r_tiler", typename decltype(t2r)::Tiler_MN{});
  for (int t : threads) {
    auto thr = t2r.get_slice(t);
    Tensor ident = make_identity_tensor(product_each(shape(tAcc_epi)));
    Tensor tTR_rAcc = thr.partition_D(ident);
    Tensor tTR_tAcc = thr.partition_S(tAcc_epi);
    Tensor tTR_sSFA = thr.partition_D(sSFA_epi);
    Tensor tTR_sSFB = thr.partition_D(sSFB_epi);
    printf("@reader_thread %d\n", t);
    pl("reader_a_layout", tTR_sSFA.layout());
    // the registers of accum(): filter_zeros'd slots copied into a compact fragment, read back through the full shape
    auto read = [&](const char* what, auto tTR_s) {
      Tensor s0 = tTR_s(_,_,_,_,_,_,1);
      Tensor compact = make_fragment_like<int>(filter_zeros(s0));
      copy(filter_zeros(s0), compact);
      Layout rl = make_layout(s0.shape(), compact.stride());
      Tensor r = make_tensor(compact.data(), rl);
      printf("@%s", what);
      for (int em = 0; em < size<2>(tAcc_epi); ++em) for (int en = 0; en < size<3>(tAcc_epi); ++en)
        for (int kb = 0; kb < CM::ScaleKsPerTile; ++kb) {
          Tensor scale = r(_,_,_,em,en,kb * CM::ScaleGranularityK);
          for (int i = 0; i < size(scale); ++i) printf(" %d", int(scale(i)));
        }
      printf("\n");
    };
    read("reader_a", tTR_sSFA);
    read("reader_b", tTR_sSFB);
    printf("@reader_tmem");
    for (int em = 0; em < size<2>(tAcc_epi); ++em) for (int en = 0; en < size<3>(tAcc_epi); ++en) {
      Tensor a = tTR_tAcc(_,_,_,em,en);
      printf(" %u", unsigned(a.data().get()));
    }
    printf("\n@reader_c");
    for (int em = 0; em < size<2>(tAcc_epi); ++em) for (int en = 0; en < size<3>(tAcc_epi); ++en) {
      Tensor c = tTR_rAcc(_,_,_,em,en);
      for (int i = 0; i < size(c); ++i) {
        auto x = c(i);
        printf(" %d,%d", int(get<0>(x)) + em * int(size<0>(tAcc_epi)), int(get<1>(x)) + en * int(size<1>(tAcc_epi)));
      }
    }
    printf("\n");
  }
}

// the epilogue's choices alone (CopyOpT2R, EpilogueTile) for a configuration
template <class EB>
void dump_epilogue(const char* name) {
  using CE = typename EB::CollectiveOp;
  printf("@epilogue %s\n", name);
  tname<typename CE::CopyOpT2R>("epilogue_tmem_load");
  pl("epilogue_epilogue_tile", typename CE::EpilogueTile{});
}
