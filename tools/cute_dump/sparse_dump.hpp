// tools/cute_dump/sparse_dump.hpp -- the printer of sparse.cu: one SM90 sparse CollectiveBuilder configuration, dumped
// as "@key value" lines (tests/data/cute_sparse.json is their parse).  The collective's metadata helpers (thrfrg_E,
// get_layoutE_TV, partition_E, make_tiled_copy_E) are private members: they are made visible to this printer only.
#include <cstdio>
#include <cstring>
#include <cstdint>
#define private public
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "dump_common.hpp"
#undef private
using namespace cute;
using namespace cutlass::gemm::collective;
using namespace cutlass::gemm;

template <class CB>
void dump(const char* name, const char* kernel, std::initializer_list<int> threads) {
  using CM = typename CB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  constexpr int BM = size<0>(Tile{}), BN = size<1>(Tile{}), BK = size<2>(Tile{});
  printf("@config %s\n@kernel %s\n", name, kernel);
  tname<typename TiledMma::Atom::MMA_Op>("mma_op");
  tname<typename CM::ElementAMma>("element_a_mma"); tname<typename CM::ElementEMma>("element_e_mma");
  printf("@tile %d %d %d\n@stages %d\n@threads %d\n", BM, BN, BK, int(CB::PipelineStages), int(size(TiledMma{})));
  pl("elayout", typename TiledMma::Atom::Traits::ELayout{});
  pl("tensor_e_atom", typename CM::SparseConfig::TensorEAtom{});
  pl("smem_a", typename CM::SmemLayoutA{});
  pl("smem_b", typename CM::SmemLayoutB{});
  pl("smem_e", typename CM::SmemLayoutE{});
  auto layout_e = CM::SparseConfig::fill_layoutE(make_shape(2*BM, BN, 2*BK, 1));
  auto layout_a = CM::SparseConfig::fill_layoutA(make_shape(4096, BN, 4096, 1));
  pl("layout_e", layout_e);
  pl("layout_a", layout_a);
  TiledMma mma;
  pl("layout_e_tv", CM::get_layoutE_TV(mma));
  auto copy_atom_E = Copy_Atom<typename CM::SmemCopyAtomE, uint32_t>{};
  auto tiled_copy = CM::make_tiled_copy_E(copy_atom_E, mma);
  pl("copy_e_layout_tv", typename decltype(tiled_copy)::TiledLayout_TV{});
  pl("copy_e_tiler", typename decltype(tiled_copy)::Tiler_MN{});
  // the shared E tile as a tensor of its own offsets (logical elements of E)
  Tensor sE = make_coord_tensor(typename CM::SmemLayoutE{}.layout_b());
  for (int t : threads) {
    int wg = t / 128;
    auto thread_mma = mma.get_thread_slice(wg * 128);
    Tensor tCsE = CM::partition_E(thread_mma, sE(_,_,Int<0>{}));
    Tensor tCrE = make_fragment_like<typename CM::ElementEMma>(tCsE);
    auto thr_copy = tiled_copy.get_thread_slice(t);
    Tensor tEsE = thr_copy.partition_S(sE);
    Tensor tErE = thr_copy.retile_D(tCrE);
    printf("@thread %d\n", t);
    pl("tCsE", tCsE.layout());
    pl("tCrE", tCrE.layout());
    pl("tErE", tErE.layout());
    pl("tEsE", tEsE.layout());
    Tensor s0 = tEsE(_,_,_,Int<0>{});
    printf("@reads");
    for (int i = 0; i < size(s0); ++i) printf(" %d", int(s0(i)));
    printf("\n");
    for (int kb = 0; kb < size<2>(tErE); ++kb) for (int r = 0; r < size<1>(tErE); ++r) {
      Tensor e = tErE(_, r, kb);
      Tensor w = recast<uint32_t>(e);
      printf("@word %d %d %d %d\n", r, kb, int(size(w)), int(w.data() - recast<uint32_t>(tErE).data()));
    }
    Tensor cA = make_identity_tensor(make_shape(Int<BM>{}, Int<BK>{}));
    Tensor tCcA = thread_mma.partition_A(cA);
    for (int kb = 0; kb < size<2>(tCcA); ++kb) for (int r = 0; r < size<1>(tCcA); ++r) {
      auto c = tCcA(0, r, kb);
      printf("@a_origin %d %d %d %d\n", r, kb, int(get<0>(c)), int(get<1>(c)));
    }
  }
  // TMA of E (make_tma_copy_A_sm90<uint64_t>) and of A, as construct_tma_gbasis derives them
  {
    Tensor gE = make_tensor(recast_ptr<typename CM::ElementEMma>(make_gmem_ptr(reinterpret_cast<uint8_t const*>(uintptr_t(1)<<20))), layout_e);
    auto cta_tiler = make_shape(Int<BM>{}, Int<BK>{});
    auto v = make_identity_layout(shape(gE)).compose(cta_tiler);
    tma_basis_lines_recast<uint64_t>("e", gE, get_nonswizzle_portion(typename CM::SmemLayoutE{}(_,_,Int<0>{})), v);
    using TA = typename CM::TmaInternalElementA;
    Tensor gA = make_tensor(recast_ptr<TA>(make_gmem_ptr(reinterpret_cast<uint8_t const*>(uintptr_t(1)<<20))), layout_a);
    auto vA = make_identity_layout(shape(gA)).compose(cta_tiler);
    Tensor gAraw = recast<typename TA::raw_type>(gA);
    auto sAraw = recast_layout<TA, typename TA::raw_type>(get_nonswizzle_portion(typename CM::SmemLayoutA{}(_,_,Int<0>{})));
    pl("a_raw_gmem", gAraw.layout());
    pl("a_raw_smem", sAraw);
  }
}
