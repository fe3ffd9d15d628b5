// tools/cute_dump/mixed_scales_lut_dump.hpp -- the printer of mixed_scales_lut.cu: one SM90 mixed-input CollectiveBuilder
// configuration whose scales are lookup tables (ElementA = cute::tuple<int4b_t, cutlass::Array<Wide, 8>>, ScaleOnly:
// the collective's UseScaleLookupTable), dumped as "@key value" lines (tests/data/cute_mixed_scales_lut.json is their
// parse, by tools/cute_dump/mixed_scales_json.py).  Each table in the shared scale buffer holds its own slot number (its
// 64 bits); the lines of MixedInputUtils (cutlass/detail/collective/mixed_input_utils.hpp, CUTLASS_DEVICE, so restated
// here for the host) are run with CuTe's own objects: partition_extra_mma_info's lookup-table branch (tCsS, tCrS_neg and
// tCrS_pos of partition_fragment_A(sS(_,_,0))'s layout), retile_extra_mma_info and copy_tensors_MK's k-block 0 copy into
// retile_D(tCrS_neg), and dequantize_A_kblock's UseScaleLookupTable branch: the chunks of NumValPerSrcReg values
// (zipped_divide of the load buffer and of tCrS_neg / tCrS_pos), the positive tables derived at k-block 0 over
// filter(scales_neg_vm) (here: the negative table's slot number copied, where CUTLASS flips its sign bits), and for
// each chunk the table lookup_table_convert takes for output register i (filter(scales_vm(_, c))(i)), which converts
// the values at positions 4i .. 4i + 3 of the chunk.  For each A element (m, k) of a k-block: the slot of its negative
// table and of its positive table (-1: a register no k-block 0 derivation wrote).
#include <cstdio>
#include <cstring>
#include <cstdint>
#include <cstddef>
#include <memory>
#include "cutlass/cutlass.h"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "dump_common.hpp"
using namespace cute;
using namespace cutlass::gemm::collective;
using namespace cutlass::gemm;

constexpr uint64_t NOT_WRITTEN = ~uint64_t(0);
template <class T> long long slot_of(T const& x) {
  uint64_t r; static_assert(sizeof(T) == sizeof(r)); memcpy(&r, &x, sizeof(r));
  return r == NOT_WRITTEN ? -1 : (long long)r;
}
template <class T> T as_table(uint64_t slot) { T x; static_assert(sizeof(T) == sizeof(slot)); memcpy(&x, &slot, sizeof(slot)); return x; }

template <class CB>
void dump_lut(const char* name, const char* kernel, int global_m, int scale_k, std::initializer_list<int> threads) {
  using CM = typename CB::CollectiveOp;
  static_assert(CM::UseScaleLookupTable, "a lookup-table configuration");
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  using Storage = typename CM::TensorStorage;
  using ElementScale = typename CM::NonVoidElementScale;
  using SrcType = typename CM::RealSwappedElementA;
  constexpr int BM = size<0>(Tile{}), BK = size<2>(Tile{});
  printf("@config %s\n@kernel %s\n", name, kernel);
  tname<typename TiledMma::Atom::MMA_Op>("mma_op");
  tname<ElementScale>("element_scale");
  printf("@tile %d %d %d\n@stages %d\n@threads %d\n@zero 0\n", BM, int(size<1>(Tile{})), BK, int(CB::PipelineStages),
         int(size(TiledMma{})));
  printf("@scale_bits %d\n", int(sizeof_bits_v<ElementScale>));
  pl("smem_scale", typename CM::SmemLayoutScale{});
  printf("@tx_bytes %u %u %u\n", CM::TmaTransactionBytesMK, CM::TmaTransactionBytesNK, CM::TmaTransactionBytesExtra);
  printf("@storage %d %d %d %d %d %d\n", int(offsetof(Storage, smem_A)), int(offsetof(Storage, smem_B)),
         int(offsetof(Storage, smem_scale)), int(offsetof(Storage, smem_zero)), int(sizeof(Storage)), int(alignof(Storage)));
  // the scale TMA: make_tma_copy<TmaElementScale = uint_bit_t<64>>(SM90_TMA_LOAD, (M, scale_k, L):dS,
  // SmemLayoutScale(_,_,0), ScaleTileShape)
  {
    using TmaT = typename CM::TmaElementScale;
    auto layout = make_layout(make_shape(global_m, scale_k, 1), make_stride(_1{}, int64_t(global_m), int64_t(global_m) * scale_k));
    Tensor g = make_tensor(make_gmem_ptr(reinterpret_cast<ElementScale const*>(uintptr_t(1) << 20)), layout);
    auto v = make_identity_layout(shape(g)).compose(typename CM::ScaleTileShape{});
    tma_basis_lines<TmaT>("scale", g, typename CM::SmemLayoutScale{}(_,_,Int<0>{}), v);
    printf("@scale_tma_type_bits %d\n", int(sizeof_bits_v<TmaT>));
  }
  TiledMma tiled_mma;
  auto smem_tiled_copy_S = make_tiled_copy_A(typename CM::SmemCopyAtomScale{}, tiled_mma);
  auto storage = std::make_unique<Storage>();
  constexpr int scale_elements = cosize_v<typename CM::SmemLayoutScale>;
  for (int i = 0; i < scale_elements; ++i) storage->smem_scale.begin()[i] = as_table<ElementScale>(uint64_t(i));
  constexpr int read_stage = 1;
  bool first = true;
  for (int t : threads) {
    auto mma_thread_slice = tiled_mma.get_thread_slice(t);
    Tensor sA = make_tensor(make_smem_ptr(storage->smem_A.begin()), typename CM::SmemLayoutA{});
    Tensor tCrA_mma = mma_thread_slice.partition_fragment_A(sA(_,_,Int<0>{}));
    Tensor tCrA_load = make_fragment_like<SrcType>(tCrA_mma);
    Tensor cA = mma_thread_slice.partition_A(make_identity_tensor(make_shape(Int<BM>{}, Int<BK>{})));
    // partition_extra_mma_info, UseScaleLookupTable
    Tensor sS = make_tensor(make_smem_ptr(storage->smem_scale.begin()), typename CM::SmemLayoutScale{});
    Tensor tCsS = mma_thread_slice.partition_A(sS);
    Tensor tCrS_neg = make_tensor<ElementScale>(mma_thread_slice.partition_fragment_A(sS(_,_,Int<0>{})).layout());
    Tensor tCrS_pos = make_tensor<ElementScale>(mma_thread_slice.partition_fragment_A(sS(_,_,Int<0>{})).layout());
    // retile_extra_mma_info: get<1> of the extra info is tCrS_neg
    auto smem_thr_copy_S = smem_tiled_copy_S.get_thread_slice(t % 128);
    Tensor tCrS_copy_view = smem_thr_copy_S.retile_D(tCrS_neg);
    for (int i = 0; i < size(tCrS_neg); ++i) {
      tCrS_neg(i) = as_table<ElementScale>(NOT_WRITTEN); tCrS_pos(i) = as_table<ElementScale>(NOT_WRITTEN);
    }
    copy(smem_tiled_copy_S, tCsS(_,_,0,read_stage), tCrS_copy_view(_,_,0));     // copy_tensors_MK, k_block 0
    if (first) {
      first = false;
      pl("frag_a", tCrA_mma.layout());
      pl("frag_load", tCrA_load.layout());
      pl("frag_scale", tCrS_neg.layout());
      pl("copy_view_scale", tCrS_copy_view.layout());
      printf("@k_blocks %d\n", int(size<2>(tCrA_load)));
    }
    printf("@thread %d\n", t);
    pl("thread_scale_layout", tCsS.layout());
    printf("@reads");
    for (int kb = 0; kb < size<2>(tCrA_load); ++kb) {
      // dequantize_A_kblock, UseScaleLookupTable
      Tensor src = tCrA_load(_, _, kb);
      Tensor coords = cA(_, _, kb);
      constexpr int NumValPerSrcReg = cute::min(decltype(size(src(_, 0)))::value, ceil_div(32, sizeof_bits_v<SrcType>));
      Tensor src_vm = cute::group_modes<1,-1>(cute::zipped_divide(src, Int<NumValPerSrcReg>{}));
      Tensor scales_neg = tCrS_neg(_, _, kb);
      Tensor scales_pos = tCrS_pos(_, _, kb);
      CUTE_STATIC_ASSERT_V(cute::size(src) == cute::size(scales_neg));
      Tensor scales_neg_vm = cute::group_modes<1,-1>(cute::zipped_divide(scales_neg, Int<NumValPerSrcReg>{}));
      Tensor scales_pos_vm = cute::group_modes<1,-1>(cute::zipped_divide(scales_pos, Int<NumValPerSrcReg>{}));
      if (kb == 0) {
        Tensor scales_neg_vm_ = filter(scales_neg_vm);
        Tensor scales_pos_vm_ = filter(scales_pos_vm);
        for (int i = 0; i < size(scales_neg_vm_.layout()); ++i) scales_pos_vm_(i) = scales_neg_vm_(i);
      }
      // lookup_table_convert(src_vm(_, c), dst_vm(_, c), scales_neg_vm(_, c), scales_pos_vm(_, c)); coords is divided
      // like src (element (e, c) is the k-block's element e + N c)
      Tensor coords_vm = cute::group_modes<1,-1>(cute::zipped_divide(coords, Int<NumValPerSrcReg>{}));
      auto in = src_vm(_, 0).layout();
      constexpr int N = decltype(cute::cosize(in))::value;
      static_assert(N == 4 || N == 8);
      for (int c = 0; c < size<1>(src_vm); ++c) {
        Tensor neg = cute::filter(scales_neg_vm(_, c));
        Tensor pos = cute::filter(scales_pos_vm(_, c));
        for (int e = 0; e < size<0>(src_vm); ++e) {
          int position = int(src_vm(_, c).layout()(e)) ;     // the value's place in the chunk's source register
          int i = position / 4;                                // output register i takes table i
          auto mk = coords_vm(e, c);
          printf(" %d,%d:%lld:%lld", int(get<0>(mk)), int(get<1>(mk)), slot_of(neg(i)), slot_of(pos(i)));
        }
      }
    }
    printf("\n");
  }
}
