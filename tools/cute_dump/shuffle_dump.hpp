// tools/cute_dump/shuffle_dump.hpp -- the printer of shuffle.cu: one SM90 mixed-input CollectiveBuilder configuration
// whose narrow A is value-shuffled (cutlass::compute_memory_reordering_atom, the generator's _shfl kernels), dumped as
// "@key value" lines (tests/data/cute_shuffle.json is their parse).  What the collective's mma() builds for A is
// rebuilt here with CuTe's own calls on a tensor of shared offsets: partition_A, make_tensor_like, retile_D of
// make_tiled_copy_A, partition_fragment_A, and dequantize_A_kblock's chunks (zipped_divide by NumValPerSrcReg, then
// coalesce: the layouts LayoutAwareConvertImpl is chosen by).  Host code only, no GPU.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/util/mixed_dtype_utils.hpp"
#include "dump_common.hpp"
using namespace cute;
using namespace cutlass::gemm::collective;
using namespace cutlass::gemm;

template <class Wide, class Shuffle>
using AtomQuant = decltype(cutlass::compute_memory_reordering_atom<Wide, Layout<Shape<_1, _1>>, Shuffle>());
template <class Wide, class Shuffle>
using Reordered = decltype(tile_to_shape(AtomQuant<Wide, Shuffle>{},
                                         Layout<Shape<int,int,int>, cutlass::detail::TagToStrideA_t<cutlass::layout::RowMajor>>{}));

template <class Narrow, class Wide, class Shuffle, int BM, int BN, int BK, class Sched>
using CBS = CollectiveBuilder<cutlass::arch::Sm90, cutlass::arch::OpClassTensorOp,
      Narrow, Reordered<Wide, Shuffle>, 128 / cute::sizeof_bits_v<Narrow>, Wide, cutlass::layout::ColumnMajor, 8, float,
      Shape<Int<BM>, Int<BN>, Int<BK>>, Shape<_1,_2,_1>, StageCountAutoCarveout<0>, Sched>;

template <class CB, class Wide, class Shuffle>
void dump(const char* name, const char* kernel, std::initializer_list<int> threads) {
  using CM = typename CB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  using Narrow = typename CM::RealSwappedElementA;
  constexpr int BM = size<0>(Tile{}), BK = size<2>(Tile{});
  printf("@config %s\n@kernel %s\n", name, kernel);
  printf("@tile %d %d %d\n@stages %d\n@threads %d\n", BM, int(size<1>(Tile{})), BK, int(CB::PipelineStages),
         int(size(TiledMma{})));
  pl("value_shuffle", Shuffle{});
  pl("atom_quant", AtomQuant<Wide, Shuffle>{});
  pl("smem_a", typename CM::SmemLayoutA{});
  pl("smem_b", typename CM::SmemLayoutB{});
  // the global A over two CTA tiles each way, as the generated kernel's host code makes it
  auto layout_a = tile_to_shape(AtomQuant<Wide, Shuffle>{}, make_shape(2 * BM, 2 * BK, 1));
  pl("gmem_a", layout_a);
  {   // make_tma_copy_A_sm90<TmaElementA>: the box construct_tma_gbasis derives for a stage of A
    using TA = typename CM::TmaElementA;
    auto g = make_tensor(recast_ptr<Narrow>(make_gmem_ptr(reinterpret_cast<uint8_t const*>(uintptr_t(1) << 20))), layout_a);
    auto v = make_identity_layout(shape(g)).compose(make_shape(Int<BM>{}, Int<BK>{}));
    tma_basis_lines_recast<TA>("a", g, typename CM::SmemLayoutA{}(_,_,Int<0>{}), v);
    printf("@tma_element_bits %d\n", int(sizeof_bits_v<TA>));
  }
  TiledMma mma;
  Tensor sA = make_coord_tensor(typename CM::SmemLayoutA{});               // (BLK_M,BLK_K,PIPE) -> shared offset
  auto copy_atom = typename CM::SmemCopyAtomA{};
  auto tiled_copy = make_tiled_copy_A(copy_atom, mma);
  for (int t : threads) {
    auto thr_mma = mma.get_thread_slice(t);
    Tensor tCsA = thr_mma.partition_A(sA);                                     // (MMA,MMA_M,MMA_K,PIPE)
    auto load_layout = make_layout_like(tCsA(_,_,_,Int<0>{}).layout());       // make_tensor_like<Narrow>(tCsA(...,0))
    auto mma_layout = thr_mma.partition_fragment_A(sA(_,_,Int<0>{})).layout(); // tCrA_mma
    Tensor rLoad = make_coord_tensor(load_layout);                             // register -> its index
    Tensor rMma = make_coord_tensor(mma_layout);
    auto thr_copy = tiled_copy.get_thread_slice(t % 128);
    Tensor view = thr_copy.retile_D(rLoad);                                    // tCrA_copy_view
    Tensor cA = make_identity_tensor(make_shape(Int<BM>{}, Int<BK>{}));
    Tensor tCcA = thr_mma.partition_A(cA);
    printf("@thread %d\n", t);
    pl("tCsA", tCsA.layout());
    pl("load", load_layout);
    pl("mma", mma_layout);
    pl("view", view.layout());
    for (int kb = 0; kb < size<2>(tCsA); ++kb) {
      // the copy: logical element i of tCsA(_,_,kb,1) into logical element i of the view (stage 1)
      Tensor src = tCsA(_,_,kb,1); Tensor dst = view(_,_,kb);
      printf("@copy %d", kb);
      for (int i = 0; i < size(src); ++i) printf(" %d:%d", int(dst(i)), int(src(i)));
      printf("\n");
      // dequantize_A_kblock's chunks: LayoutAwareConvert(src_vm(_, i), dst_vm(_, i))
      Tensor s = rLoad(_,_,kb); Tensor d = rMma(_,_,kb);
      constexpr int NV = cute::min(decltype(size(s(_, 0)))::value, ceil_div(32, sizeof_bits_v<Narrow>));
      Tensor s_vm = group_modes<1,-1>(zipped_divide(s, Int<NV>{}));
      Tensor d_vm = group_modes<1,-1>(zipped_divide(d, Int<NV>{}));
      for (int i = 0; i < size<1>(d_vm); ++i) {
        Tensor sc = coalesce(s_vm(_, i)); Tensor dc = coalesce(d_vm(_, i));
        printf("@chunk %d %d %d %d ", kb, i, int(sc(0)), int(dc(0)));
        print(sc.layout()); printf(" "); print(dc.layout()); printf("\n");
      }
      printf("@coords %d", kb);
      for (int i = 0; i < size(rMma(_,_,kb)); ++i) {
        auto c = tCcA(_,_,kb)(i);
        printf(" %d:%d,%d", int(rMma(_,_,kb)(i)), int(get<0>(c)), int(get<1>(c)));
      }
      printf("\n");
    }
  }
}
