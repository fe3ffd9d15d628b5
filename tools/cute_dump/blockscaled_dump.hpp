// tools/cute_dump/blockscaled_dump.hpp -- the printer of blockscaled.cu: one CollectiveBuilder configuration, dumped.
#include <cstdio>
#include <cstring>
#include <cstdint>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cutlass/gemm/collective/collective_builder.hpp"
#include "cutlass/detail/sm100_blockscaled_layout.hpp"
#include "cutlass/detail/sm100_tmem_helper.hpp"
#include "cutlass/util/packed_stride.hpp"
using namespace cute;
using namespace cutlass::gemm::collective;
using namespace cutlass::gemm;

template <class T> void tname(const char* what) {
  const char* p = __PRETTY_FUNCTION__;
  const char* s = strstr(p, "T = ");
  printf("%s: %.*s\n", what, s ? int(strlen(s+4)-1) : 0, s ? s+4 : "");
}
static inline uint32_t rotl2(uint32_t a){return a;}
static void pa(uint32_t a) { printf("[lane %u col %u byte %u]", (a>>16)&0x7f, a&0xffff, a>>30); }

template <class TiledMma, class GTensor, class SLayout, class Tiler>
void tma_info(const char* what, GTensor g, SLayout s, Tiler mma_tiler_mk, TiledMma mma, int num_mc, bool isB) {
  auto g_tile = make_identity_layout(shape(g)).compose(mma_tiler_mk);
  auto cta_v_tile = [&]() {
    if constexpr (true) {
      if (isB) return layout<1>(mma.thrfrg_B(g_tile))(_, repeat<rank(g_tile)>(_));
      else     return layout<1>(mma.thrfrg_A(g_tile))(_, repeat<rank(g_tile)>(_));
    }
  };
  (void)cta_v_tile;
}

template <class TmaT, class GTensor, class SLayout, class VMap>
void gbasis(const char* what, GTensor g, SLayout s, VMap v, int num_mc) {
  auto tma_gbasis = cute::detail::construct_tma_gbasis<TmaT>(g, get_nonswizzle_portion(s), v);
  printf("  %s cta_v_map: ", what); print(v); printf("\n");
  printf("  %s tma_gbasis: ", what); print(tma_gbasis); printf("\n");
  cute::array<uint64_t,5> gs = {1,1,1,1,1}; cute::array<uint64_t,5> gst = {0,0,0,0,0};
  Tensor gT = recast<TmaT>(g);
  cute::detail::fill_tma_gmem_shape_stride(gT, stride(tma_gbasis), gs, gst);
  constexpr int R = decltype(rank(tma_gbasis))::value;
  cute::array<uint32_t,5> box = {1,1,1,1,1};
  for_each(make_seq<R>{}, [&](auto i){ box[i] *= size<i>(tma_gbasis); });
  for (int i = R-1, m = num_mc; m > 1; --i) { uint32_t nm = ceil_div(m, (int)box[i]); box[i] = ceil_div((int)box[i], m); m = nm; }
  printf("  %s rank %d  globalDim", what, R); for(int i=0;i<R;++i) printf(" %llu", (unsigned long long)gs[i]);
  printf("  globalStride(B)"); for(int i=0;i<R;++i) printf(" %llu", (unsigned long long)(gst[i]*sizeof_bits_v<TmaT>/8));
  printf("  boxDim"); for(int i=0;i<R;++i) printf(" %u", box[i]);
  printf("  (num_multicast %d, bytes/box %d)\n", num_mc, int(size(tma_gbasis)*sizeof_bits_v<TmaT>/8));
}

template <class CB>
void dump(const char* name, int M, int N, int K, int epiN) {
  using CM = typename CB::CollectiveOp;
  using TiledMma = typename CM::TiledMma;
  printf("\n==================== %s\n", name);
  tname<typename TiledMma::Atom::MMA_Op>("MMA_Op");
  tname<typename CM::TiledMMA_SF::Atom::MMA_Op>("MMA_ScaleFactor op (TiledMMA_SF)");
  printf("Atom K %d  SFVecSize %d  ThrID size %d  Stages(carveout0) %d\n", int(TiledMma::K), int(TiledMma::SFVecSize), int(size(typename TiledMma::AtomThrID{})), int(CB::PipelineStages));
  tname<typename CB::ElementAMma>("ElementAMma"); tname<typename CB::ElementBMma>("ElementBMma");
  tname<typename CM::SmemAllocTypeA>("SmemAllocTypeA"); tname<typename CM::SmemAllocTypeB>("SmemAllocTypeB");
  tname<typename CM::TmaInternalElementA>("TmaInternalElementA"); tname<typename CM::TmaInternalElementB>("TmaInternalElementB");
  tname<typename CM::GmemTiledCopyA>("GmemTiledCopyA"); tname<typename CM::GmemTiledCopyB>("GmemTiledCopyB");
  tname<typename CM::GmemTiledCopySFA>("GmemTiledCopySFA"); tname<typename CM::GmemTiledCopySFB>("GmemTiledCopySFB");
  printf("IsF8F6F4 %d  TileShape_SF ", int(CM::IsF8F6F4)); print(typename CM::TileShape_SF{}); printf("  CtaShape "); print(typename CM::CtaShape_MNK{}); printf("\n");
  printf("MmaShapeA_MK "); print(typename CB::MmaShapeA_MK{}); printf("  MmaShapeB_NK "); print(typename CB::MmaShapeB_NK{}); printf("\n");
  printf("SmemLayoutAtomA: "); print(typename CB::SmemLayoutAtomA{}); printf("\n");
  printf("SmemLayoutAtomB: "); print(typename CB::SmemLayoutAtomB{}); printf("\n");
  printf("SmemLayoutA(stage0): "); print(typename CM::SmemLayoutA{}(_,_,_,Int<0>{})); printf("\n");
  printf("SmemLayoutB(stage0): "); print(typename CM::SmemLayoutB{}(_,_,_,Int<0>{})); printf("\n");
  printf("SmemLayoutAtomSFA: "); print(typename CB::SmemLayoutAtomSFA{}); printf("\n");
  printf("SmemLayoutAtomSFB: "); print(typename CB::SmemLayoutAtomSFB{}); printf("\n");
  printf("SmemLayoutSFA: "); print(typename CM::SmemLayoutSFA{}); printf("  cosize/stage %d\n", int(size(filter_zeros(typename CB::SmemLayoutAtomSFA{}))));
  printf("SmemLayoutSFB: "); print(typename CM::SmemLayoutSFB{}); printf("  cosize/stage %d\n", int(size(filter_zeros(typename CB::SmemLayoutAtomSFB{}))));
  printf("TmaTransactionBytes AB %u SF %u\n", CM::ABTmaTransactionBytes, CM::SFTransactionBytes);

  // ---- TMEM
  auto acc_shape = partition_shape_C(TiledMma{}, take<0,2>(typename CM::TileShape{}));
  using EpiTile = Shape<_128, Int<64>>;
  Tensor acc = cutlass::detail::make_sm100_accumulator<CB::AccumulatorPipelineStageCount, CM::IsOverlappingAccum>(TiledMma{}, acc_shape, EpiTile{});
  Tensor tCtSFA = make_tensor<typename TiledMma::FrgTypeSFA>(shape(typename CB::SmemLayoutAtomSFA{}));
  Tensor tCtSFB = make_tensor<typename TiledMma::FrgTypeSFB>(shape(typename CB::SmemLayoutAtomSFB{}));
  tname<typename TiledMma::FrgTypeSFA>("FrgTypeSFA"); tname<typename TiledMma::FrgTypeSFB>("FrgTypeSFB");
  printf("accumulators (AccPipe %d, overlap %d, epiN %d): ", int(CB::AccumulatorPipelineStageCount), int(CM::IsOverlappingAccum), 64); print(acc.layout()); printf("\n");
  printf("tCtSFA: "); print(tCtSFA.layout()); printf("\n");
  printf("tCtSFB: "); print(tCtSFB.layout()); printf("\n");
  uint32_t acc_cols = cutlass::detail::find_tmem_tensor_col_offset(acc);
  uint32_t sfa_cols = cutlass::detail::find_tmem_tensor_col_offset(tCtSFA);
  uint32_t sfb_cols = cutlass::detail::find_tmem_tensor_col_offset(tCtSFB);
  printf("col offsets: acc %u  sfa %u  sfb %u  => SFA at col %u, SFB at col %u, end %u\n", acc_cols, sfa_cols, sfb_cols, acc_cols, acc_cols+sfa_cols, acc_cols+sfa_cols+sfb_cols);
  tCtSFA.data() = acc_cols; tCtSFB.data() = acc_cols + sfa_cols;
  for (int kb = 0; kb < size<2>(tCtSFA); ++kb) {
    uint32_t a = raw_pointer_cast(tCtSFA(_,_,kb).data()); uint32_t b = raw_pointer_cast(tCtSFB(_,_,kb).data());
    printf("  k_block %d: tsfa_addr 0x%08x ", kb, a); pa(a); printf("  tsfb_addr 0x%08x ", b); pa(b);
    uint64_t id = UMMA::make_runtime_instr_desc_block_scaled<>(TiledMma{}.idesc_, a, b);
    UMMA::InstrDescriptorBlockScaled d; d.desc_ = uint32_t(id >> 32);
    printf(" idesc a_sf_id %d b_sf_id %d\n", int(d.a_sf_id_), int(d.b_sf_id_));
  }
  { UMMA::InstrDescriptorBlockScaled d = TiledMma{}.idesc_; printf("  idesc: a_fmt %d b_fmt %d a_major %d b_major %d n_dim %d m_dim %d scale_fmt %d k_size %d raw 0x%08x\n", int(d.a_format_), int(d.b_format_), int(d.a_major_), int(d.b_major_), int(d.n_dim_), int(d.m_dim_), int(d.scale_format_), int(d.k_size_), uint32_t(d.desc_)); }

  // ---- UTCCP
  using ElementSF = typename CM::ElementSF;
  ElementSF* sbase = reinterpret_cast<ElementSF*>(uintptr_t(0));
  Tensor tCsSFA = make_tensor(make_smem_ptr(sbase), typename CM::SmemLayoutSFA{});
  Tensor tCsSFB = make_tensor(make_smem_ptr(sbase), typename CM::SmemLayoutSFB{});
  auto tCsSFA_compact = make_tensor(tCsSFA.data(), filter_zeros(tCsSFA.layout()));
  auto tCtSFA_compact = make_tensor(tCtSFA.data(), filter_zeros(tCtSFA.layout()));
  auto tCsSFB_compact = make_tensor(tCsSFB.data(), filter_zeros(tCsSFB.layout()));
  auto tCtSFB_compact = make_tensor(tCtSFB.data(), filter_zeros(tCtSFB.layout()));
  printf("tCsSFA_compact: "); print(tCsSFA_compact.layout()); printf("\n");
  printf("tCtSFA_compact: "); print(tCtSFA_compact.layout()); printf("\n");
  printf("tCsSFB_compact: "); print(tCsSFB_compact.layout()); printf("\n");
  printf("tCtSFB_compact: "); print(tCtSFB_compact.layout()); printf("\n");
  using AtomThrID = typename TiledMma::AtomThrID;
  using UtccpOp = cute::conditional_t<(decltype(cute::size(AtomThrID{}) == Int<2>{})::value), SM100_UTCCP_4x32dp128bit_2cta, SM100_UTCCP_4x32dp128bit_1cta>;
  tname<UtccpOp>("UtccpOp");
  auto cpA = make_utccp_copy(UtccpOp{}, tCtSFA_compact);
  auto cpB = make_utccp_copy(UtccpOp{}, tCtSFB_compact);
  printf("tiled_copy_s2t_SFA: Tiler_MN "); print(typename decltype(cpA)::Tiler_MN{}); printf("  TiledLayout_TV "); print(typename decltype(cpA)::TiledLayout_TV{}); printf("\n");
  printf("tiled_copy_s2t_SFB: Tiler_MN "); print(typename decltype(cpB)::Tiler_MN{}); printf("  TiledLayout_TV "); print(typename decltype(cpB)::TiledLayout_TV{}); printf("\n");
  auto run = [&](const char* nm, auto cp, auto sC, auto tC) {
    auto thr = cp.get_slice(0);
    auto s_ = thr.partition_S(sC);
    auto d = thr.partition_D(tC);
    printf("%s partition_S: ", nm); print(s_.layout()); printf("\n");
    printf("%s partition_D: ", nm); print(d.layout()); printf("\n");
    auto sd = get_utccp_smem_desc_tensor<UtccpOp>(s_);
    printf("%s desc tensor: ", nm); print(sd.layout()); printf("\n");
    constexpr int RS = decltype(rank(sd))::value;
    auto sd0 = sd(_,_,_,_,0);                  // stage 0
    auto sdg = group_modes<1, RS-1>(sd0);
    auto dg = group_modes<1, decltype(rank(d))::value>(d);
    printf("%s copies/stage %d\n", nm, int(size<1>(sdg)));
    for (int i = 0; i < size<1>(sdg); ++i) {
      UMMA::SmemDescriptor ds = sdg(0, i);
      uint32_t dst = raw_pointer_cast(dg(_, i).data());
      printf("   cp %d: smem start +%u B, LBO %u B, SBO %u B, layout_type %d -> tmem 0x%08x ", i, unsigned(ds.start_address_)*16, unsigned(ds.leading_byte_offset_)*16, unsigned(ds.stride_byte_offset_)*16, int(ds.layout_type_), dst); pa(dst); printf("\n");
    }
    UMMA::SmemDescriptor ds1 = sd(0,0,0,0,1); printf("   stage 1 first desc start +%u B\n", unsigned(ds1.start_address_)*16);
  };
  run("SFA", cpA, tCsSFA_compact, tCtSFA_compact);
  run("SFB", cpB, tCsSFB_compact, tCtSFB_compact);

  // ---- TMA (SF) gbasis
  auto layout_SFA = CB::Sm1xxBlkScaledConfig::tile_atom_to_shape_SFA(make_shape(M,N,K,1));
  auto layout_SFB = CB::Sm1xxBlkScaledConfig::tile_atom_to_shape_SFB(make_shape(M,N,K,1));
  printf("layout_SFA(M=%d,N=%d,K=%d): ", M,N,K); print(layout_SFA); printf("\n");
  printf("layout_SFB: "); print(layout_SFB); printf("\n");
  Tensor gSFA = make_tensor(make_gmem_ptr(reinterpret_cast<ElementSF const*>(uintptr_t(1)<<20)), layout_SFA);
  Tensor gSFB = make_tensor(make_gmem_ptr(reinterpret_cast<ElementSF const*>(uintptr_t(1)<<20)), layout_SFB);
  {
    auto tiler_mk = remove<1>(typename CM::TileShape{});
    auto g_tile = make_identity_layout(shape(gSFA)).compose(tiler_mk);
    auto v = layout<1>(TiledMma{}.thrfrg_A(g_tile))(_, repeat<rank(g_tile)>(_));
    gbasis<uint16_t>("SFA", gSFA, typename CM::SmemLayoutSFA{}(_,_,_,Int<0>{}), v, 1);
  }
  {
    auto tiler_nk = remove<0>(typename CM::TileShape_SF{});
    auto g_tile = make_identity_layout(shape(gSFB)).compose(tiler_nk);
    auto v = layout<1>(typename CM::TiledMMA_SF{}.thrfrg_B(g_tile))(_, repeat<rank(g_tile)>(_));
    gbasis<uint16_t>("SFB", gSFB, typename CM::SmemLayoutSFB{}(_,_,_,Int<0>{}), v, 1);
  }
  {
    using TA = typename CM::TmaInternalElementA; using TB = typename CM::TmaInternalElementB;
    auto dA = cutlass::make_cute_packed_stride(typename CM::StrideA{}, make_shape(M,K,1));
    auto dB = cutlass::make_cute_packed_stride(typename CM::StrideB{}, make_shape(N,K,1));
    Tensor gA = make_tensor(recast_ptr<TA>(make_gmem_ptr(reinterpret_cast<uint8_t const*>(uintptr_t(1)<<20))), make_layout(make_shape(M,K,1), dA));
    Tensor gB = make_tensor(recast_ptr<TB>(make_gmem_ptr(reinterpret_cast<uint8_t const*>(uintptr_t(1)<<20))), make_layout(make_shape(N,K,1), dB));
    auto tA = remove<1>(typename CM::TileShape{}); auto tB = remove<0>(typename CM::TileShape{});
    auto gtA = make_identity_layout(shape(gA)).compose(tA); auto vA = layout<1>(TiledMma{}.thrfrg_A(gtA))(_, repeat<rank(gtA)>(_));
    auto gtB = make_identity_layout(shape(gB)).compose(tB); auto vB = layout<1>(TiledMma{}.thrfrg_B(gtB))(_, repeat<rank(gtB)>(_));
    printf("  sizeof_bits TmaInternalA %d B %d\n", int(sizeof_bits_v<TA>), int(sizeof_bits_v<TB>));
    gbasis<TA>("A", gA, typename CM::SmemLayoutA{}(_,_,_,Int<0>{}), vA, 1);
    gbasis<TB>("B", gB, typename CM::SmemLayoutB{}(_,_,_,Int<0>{}), vB, 1);
  }
}
