// tools/cute_dump/sparse_sm100_dump.hpp -- the printer of sparse_sm100.cu: one SM100 sparse CollectiveBuilder
// configuration, dumped as "@key value" lines (tests/data/cute_sparse_sm100.json is their parse).
#include <cstdio>
#include <cstring>
#include <cstdint>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/detail/sm100_tmem_helper.hpp"
#include "dump_common.hpp"
using namespace cute;
using namespace cutlass::gemm::collective;
using namespace cutlass::gemm;

template <class CB>
void dump(const char* name, const char* kernel) {
  using CM = typename CB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  using TileE = typename CM::TileShapeE;
  constexpr int BM = size<0>(Tile{}), BN = size<1>(Tile{}), BK = size<2>(Tile{}), BKE = size<2>(TileE{});
  printf("@config %s\n@kernel %s\n", name, kernel);
  tname<typename TiledMma::Atom::MMA_Op>("mma_op");
  tname<typename CM::ElementAMma>("element_a_mma"); tname<typename CM::ElementEMma>("element_e_mma");
  printf("@tile %d %d %d\n@tile_e %d %d %d\n@stages %d\n@ctas %d\n@reuse %d\n", BM, BN, BK, BM, BN, BKE,
         int(CB::PipelineStages), int(size(typename TiledMma::AtomThrID{})), int(CM::UtccpReuseCnt));
  pl("tensor_e_atom", typename CM::SparseConfig::TensorEAtom{});
  pl("smem_a", typename CM::SmemLayoutA{});
  pl("smem_b", typename CM::SmemLayoutB{});
  pl("smem_e", typename CM::SmemLayoutE{});
  pl("mma_shape_e", typename CM::MmaShapeE_MK{});
  auto layout_e = CM::SparseConfig::fill_layoutE(make_shape(2*BM, BN, 2*BKE, 1));
  auto layout_a = CM::SparseConfig::fill_layoutA(make_shape(4096, BN, 4096, 1));
  pl("layout_e", layout_e);
  pl("layout_a", layout_a);
  TiledMma mma;
  // the A slice of each k-block this CTA's MMA reads (partition_A of the tile's coordinates, CTA 0 of the group)
  Tensor cA = make_identity_tensor(make_shape(Int<BM>{}, Int<BK>{}));
  Tensor tCcA = mma.get_slice(0).partition_A(cA);
  for (int kb = 0; kb < size<2>(tCcA); ++kb) {
    auto c = tCcA(0, 0, kb);
    printf("@a_origin %d %d %d\n", kb, int(get<0>(c)), int(get<1>(c)));
  }
  // TMA of E (make_tma_atom_A_sm100<uint64_t> over TileShapeE), as construct_tma_gbasis derives it
  {
    Tensor gE = make_tensor(recast_ptr<typename CM::ElementEMma>(make_gmem_ptr(reinterpret_cast<uint8_t const*>(uintptr_t(1)<<20))), layout_e);
    auto tiler = make_shape(Int<BM>{}, Int<BKE>{});
    auto g_tile = make_identity_layout(shape(gE)).compose(tiler);
    auto v = layout<1>(mma.thrfrg_A(g_tile))(_, repeat<rank(g_tile)>(_));
    pl("e_cta_v_map", v);
    tma_basis_lines_recast<uint64_t>("e", gE, get_nonswizzle_portion(typename CM::SmemLayoutE{}(_,_,_,Int<0>{})), v);
  }
  // TMEM: the accumulators, then E (set_tmem_offsets), and the address each k-block's MMA is handed
  auto acc_shape = partition_shape_C(TiledMma{}, take<0,2>(Tile{}));
  using EpiTile = Shape<_128, _64>;
  Tensor acc = cutlass::detail::make_sm100_accumulator<CB::AccumulatorPipelineStageCount, CM::IsOverlappingAccum>(mma, acc_shape, EpiTile{});
  Tensor tCtE = make_tensor<typename TiledMma::FrgTypeE>(take<0,3>(shape(typename CM::SmemLayoutE{})));
  uint32_t acc_cols = cutlass::detail::find_tmem_tensor_col_offset(acc);
  printf("@acc_cols %u\n", acc_cols);
  pl("tmem_e", tCtE.layout());
  printf("@tmem_e_cols %u\n", unsigned(cutlass::detail::find_tmem_tensor_col_offset(tCtE)));
  tCtE.data() = acc_cols;
  for (int i = 0; i < size<2>(tCtE); ++i) {
    uint32_t a = raw_pointer_cast(tCtE(_,_,i).data());
    printf("@e_addr %d %u %u %u\n", i, a, a & 1u, a & ~1u);
  }
  // tcgen05.cp of E: make_utccp_copy over recast<ElementE>(tCtE), partition_S of recast<ElementE>(sE)
  using ElementE = typename CM::ElementE;
  using AtomThrID = typename TiledMma::AtomThrID;
  using UtccpEOp = cute::conditional_t<(decltype(cute::size(AtomThrID{}) == Int<2>{})::value),
      SM100_UTCCP_128dp128bit_2cta, SM100_UTCCP_128dp128bit_1cta>;
  tname<UtccpEOp>("utccp_op");
  auto cp = make_utccp_copy(UtccpEOp{}, recast<ElementE>(tCtE));
  pl("copy_tv", typename decltype(cp)::TiledLayout_TV{});
  pl("copy_tiler", typename decltype(cp)::Tiler_MN{});
  ElementE* sbase = reinterpret_cast<ElementE*>(uintptr_t(0));
  Tensor sE = make_tensor(make_smem_ptr(recast_ptr<typename CM::ElementEMma>(sbase)), typename CM::SmemLayoutE{});
  auto thr = cp.get_slice(0);
  Tensor s_ = thr.partition_S(recast<ElementE>(sE));
  Tensor d = thr.partition_D(recast<ElementE>(tCtE));
  pl("cp_src", s_.layout());
  pl("cp_dst", d.layout());
  auto sd = get_utccp_smem_desc_tensor<UtccpEOp>(s_);
  pl("cp_desc", sd.layout());
  constexpr int RS = decltype(rank(sd))::value;
  auto sd0 = sd(_,_,_,_,0);
  auto sdg = group_modes<1, RS-1>(sd0);
  auto dg = group_modes<1, decltype(rank(d))::value>(d);
  for (int i = 0; i < size<1>(sdg); ++i) {
    UMMA::SmemDescriptor ds = sdg(0, i);
    uint32_t dst = raw_pointer_cast(dg(_, i).data());
    printf("@copy %d %u %u %u %d %u\n", i, unsigned(ds.start_address_)*16, unsigned(ds.leading_byte_offset_)*16,
           unsigned(ds.stride_byte_offset_)*16, int(ds.layout_type_), dst);
  }
  UMMA::SmemDescriptor ds1 = sd(0,0,0,0,1);
  printf("@stage1_start %u\n", unsigned(ds1.start_address_)*16);
}
