// tools/cute_dump/mixed_scales_dump.hpp -- the printer of mixed_scales.cu: one SM90 mixed-input CollectiveBuilder
// configuration with scales (ScaleOnly: ElementA = cute::tuple<Narrow, Scale>; ScaleWithZeroPoint: cute::tuple<Narrow,
// Scale, Zero>), dumped as "@key value" lines (tests/data/cute_mixed_scales.json is their parse, by
// tools/cute_dump/mixed_scales_json.py).  The scale path is run with CuTe's own objects on a TensorStorage whose scale
// (zero) buffer holds each element's own slot number, by the lines of MixedInputUtils (cutlass/detail/collective/
// mixed_input_utils.hpp; its members are CUTLASS_DEVICE, so they are restated here for the host):
// partition_extra_mma_info (tCsS = partition_A(sS), tCrS of partition_fragment_A(sS(_,_,0))'s layout),
// retile_extra_mma_info (make_tiled_copy_A(SmemCopyAtomScale, tiled_mma), retile_D(tCrS)), copy_tensors_MK's k-block 0
// copy of the scales into registers, and the registers dequantize_A_kblock reads for every k-block
// (get<1>(partitioned_extra_info)(_, _, k_block), paired by index with tCrA_mma(_, _, k_block)).
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

// the bits of a 16-bit scale element, read back as its slot number
template <class T> int slot_of(T const& x) { uint16_t r; memcpy(&r, &x, sizeof(r)); return int(r); }
template <class T> T as_scale(int slot) { uint16_t r = uint16_t(slot); T x; memcpy(&x, &r, sizeof(r)); return x; }

template <class CB>
void dump(const char* name, const char* kernel, int global_m, int scale_k, std::initializer_list<int> threads) {
  using CM = typename CB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  using Tile = typename CM::TileShape;
  using Storage = typename CM::TensorStorage;
  using ElementScale = typename CM::NonVoidElementScale;
  constexpr bool HasZero = CM::KernelConversionMode == cutlass::detail::ConversionMode::ConvertAndScaleWithZero;
  constexpr int BM = size<0>(Tile{}), BK = size<2>(Tile{});
  printf("@config %s\n@kernel %s\n", name, kernel);
  tname<typename TiledMma::Atom::MMA_Op>("mma_op");
  tname<ElementScale>("element_scale");
  printf("@tile %d %d %d\n@stages %d\n@threads %d\n@zero %d\n", BM, int(size<1>(Tile{})), BK, int(CB::PipelineStages),
         int(size(TiledMma{})), int(HasZero));
  pl("atom_layout", typename TiledMma::ThrLayoutVMNK{});
  pl("smem_a", typename CM::SmemLayoutA{});
  pl("smem_scale", typename CM::SmemLayoutScale{});
  printf("@tx_bytes %u %u %u\n", CM::TmaTransactionBytesMK, CM::TmaTransactionBytesNK, CM::TmaTransactionBytesExtra);
  printf("@storage %d %d %d %d %d %d\n", int(offsetof(Storage, smem_A)), int(offsetof(Storage, smem_B)),
         int(offsetof(Storage, smem_scale)), int(offsetof(Storage, smem_zero)), int(sizeof(Storage)), int(alignof(Storage)));
  // the scale TMA: make_tma_copy<TmaElementScale>(SM90_TMA_LOAD, (M, scale_k, L):dS, SmemLayoutScale(_,_,0), ScaleTileShape)
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
  pl("scale_copy_layout_tv", typename decltype(smem_tiled_copy_S)::TiledLayout_TV{});
  pl("scale_copy_tiler", typename decltype(smem_tiled_copy_S)::Tiler_MN{});
  auto storage = std::make_unique<Storage>();
  constexpr int scale_elements = cosize_v<typename CM::SmemLayoutScale>;
  for (int i = 0; i < scale_elements; ++i) {
    storage->smem_scale.begin()[i] = as_scale<ElementScale>(i);
    if constexpr (HasZero) storage->smem_zero.begin()[i] = as_scale<ElementScale>(i);
  }
  constexpr int read_stage = 1;
  bool first = true;
  for (int t : threads) {
    auto mma_thread_slice = tiled_mma.get_thread_slice(t);
    Tensor sA = make_tensor(make_smem_ptr(storage->smem_A.begin()), typename CM::SmemLayoutA{});
    Tensor tCrA_mma = mma_thread_slice.partition_fragment_A(sA(_,_,Int<0>{}));
    Tensor tCrA_load = make_fragment_like<typename CM::RealSwappedElementA>(tCrA_mma);
    Tensor cA = mma_thread_slice.partition_A(make_identity_tensor(make_shape(Int<BM>{}, Int<BK>{})));
    // partition_extra_mma_info
    Tensor sS = make_tensor(make_smem_ptr(storage->smem_scale.begin()), typename CM::SmemLayoutScale{});
    Tensor tCsS = mma_thread_slice.partition_A(sS);
    Tensor tCrS = make_tensor<ElementScale>(mma_thread_slice.partition_fragment_A(sS(_,_,Int<0>{})).layout());
    Tensor sZ = make_tensor(make_smem_ptr(storage->smem_zero.begin()), typename CM::SmemLayoutScale{});
    Tensor tCsZ = mma_thread_slice.partition_A(sZ);
    Tensor tCrZ = make_tensor<ElementScale>(mma_thread_slice.partition_fragment_A(sZ(_,_,Int<0>{})).layout());
    // retile_extra_mma_info
    auto smem_thr_copy_S = smem_tiled_copy_S.get_thread_slice(t % 128);
    Tensor tCrS_copy_view = smem_thr_copy_S.retile_D(tCrS);
    Tensor tCrZ_copy_view = smem_thr_copy_S.retile_D(tCrZ);
    for (int i = 0; i < size(tCrS); ++i) { tCrS(i) = as_scale<ElementScale>(0xFFFF); tCrZ(i) = as_scale<ElementScale>(0xFFFF); }
    // copy_tensors_MK at k_block 0 (after A's copy, which does not touch these registers): the scales' and zeros'
    copy(smem_tiled_copy_S, tCsS(_,_,0,read_stage), tCrS_copy_view(_,_,0));
    if constexpr (HasZero) copy(smem_tiled_copy_S, tCsZ(_,_,0,read_stage), tCrZ_copy_view(_,_,0));
    if (first) {
      first = false;
      pl("frag_a", tCrA_mma.layout());
      pl("coords_a", cA.layout());
      pl("frag_scale", tCrS.layout());
      pl("copy_view_scale", tCrS_copy_view.layout());
      printf("@k_blocks %d\n", int(size<2>(tCrA_load)));
    }
    CUTE_STATIC_ASSERT_V(size(cA) == size(tCrA_mma) && size<2>(cA) == size<2>(tCrA_mma));
    printf("@thread %d\n", t);
    pl("thread_scale_layout", tCsS.layout());
    printf("@reads");
    for (int kb = 0; kb < size<2>(tCrA_load); ++kb) {
      Tensor coords = cA(_,_,kb);
      Tensor scales = tCrS(_,_,kb);        // dequantize_A_kblock: get<1>(partitioned_extra_info)(_, _, k_block)
      CUTE_STATIC_ASSERT_V(size(coords) == size(scales));
      for (int i = 0; i < size(scales); ++i) {
        int zero = -1;
        if constexpr (HasZero) zero = slot_of(tCrZ(_,_,kb)(i));
        printf(" %d,%d:%d:%d", int(get<0>(coords(i))), int(get<1>(coords(i))), slot_of(scales(i)), zero);
      }
    }
    printf("\n");
  }
}
