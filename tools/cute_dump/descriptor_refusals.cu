// tools/cute_dump/descriptor_refusals.cu -- does CuTe build the shared-memory descriptor of an operand tile?  Each
// CASE partitions a tile with a tiled MMA of one SS atom and makes the operand's fragment (make_fragment_A/B, which
// calls make_gmma_desc / make_umma_desc on mode 0 of the partition), so a static_assert of the builder stops the
// compile.  The cases are tests/specs/descriptor_refusals.yaml's checks, by name; descriptor_refusals.sh compiles
// each one and writes tests/data/cute_descriptor_refusals.txt ("NAME compiles" or "NAME refused: MESSAGE", the
// builder's first static_assert in source order).  Host compile only: no GPU.
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cute/atom/mma_atom.hpp"
#if defined(SM100_CASES) || defined(UTCCP_CASES)
#include "cute/atom/mma_traits_sm100.hpp"
#else
#include "cute/atom/mma_traits_sm90_gmma.hpp"
#endif
using namespace cute;

// make the fragment of operand A (or B) of `Op` from the tile SL of T, as a mainloop does
template <class Op, class T, class SL, bool OperandA>
void fragment() {
  auto tiled_mma = make_tiled_mma(Op{});
  Tensor s = make_tensor(make_smem_ptr<T>((T*)nullptr), SL{});
  auto thr = tiled_mma.get_slice(0);
  if constexpr (OperandA) { print(thr.make_fragment_A(thr.partition_A(s))); }
  else                    { print(thr.make_fragment_B(thr.partition_B(s))); }
  print("\n");
}
using GK = GMMA::Major;
template <int B, int M, int S, class L> using Sw = decltype(make_composed_layout(Swizzle<B,M,S>{}, smem_ptr_flag_bits<16>{}, L{}));
template <int B, int M, int S, class L> using Sw32 = decltype(make_composed_layout(Swizzle<B,M,S>{}, smem_ptr_flag_bits<32>{}, L{}));

// make_umma_desc<K> of a tcgen05.cp source as get_utccp_smem_desc_tensor hands it over: bytes, (rows, 16 bytes)
template <class L>
void utccp_source() {
  auto desc = UMMA::make_umma_desc<UMMA::Major::K>(make_tensor(make_smem_ptr<uint8_t>((uint8_t*)nullptr), L{}));
  printf("%llu\n", (unsigned long long)uint64_t(desc));
}

int main() {
#if defined(UTCCP_CASES)
#if CASE == 1    // utccp_sparse_cute: CUTLASS's SM100 sparse E source (128 rows of 16 bytes)
  utccp_source<Layout<Shape<_128,_16>, Stride<_16,_1>>>();
#elif CASE == 2  // utccp_sparse_row_major_atom: 16-bit A's E laid out with the 8-bit atom (2-byte runs)
  utccp_source<Layout<Shape<Shape<_8,_2,_8>,Shape<_2,_2,_4>>, Stride<Stride<_16,_2,_256>,Stride<_1,_128,_4>>>>();
#elif CASE == 3  // utccp_sf_cute: CUTLASS's SFA source (32 rows of 16 bytes)
  utccp_source<Layout<Shape<_32,_16>, Stride<_16,_1>>>();
#elif CASE == 4  // utccp_sf_rows_uneven: its 8-row core matrices unevenly spaced (16 rows, then 1024 bytes on)
  utccp_source<Layout<Shape<Shape<_16,_2>,_16>, Stride<Stride<_16,_1024>,_1>>>();
#endif
#elif !defined(SM100_CASES)
  using F16_KK = SM90_64x128x16_F32F16F16_SS<GK::K, GK::K>;
  using F16_KMN = SM90_64x128x16_F32F16F16_SS<GK::K, GK::MN>;
  using F16_MNK = SM90_64x128x16_F32F16F16_SS<GK::MN, GK::K>;
#if CASE == 1    // gmma_k_sw128_b: control
  fragment<F16_KK, half_t, decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64,_4>{})), false>();
#elif CASE == 2  // gmma_k_tile_under_mn_b
  fragment<F16_KMN, half_t, decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64,_4>{})), false>();
#elif CASE == 3  // gmma_mn_tile_under_k_b
  fragment<F16_KK, half_t, decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_128,_64,_4>{}, Step<_2,_1,_3>{})), false>();
#elif CASE == 4  // gmma_k_sw128_rows_64_bytes_apart_b
  fragment<F16_KK, half_t, Sw<3,4,3, Layout<Shape<_128,_32,_4>, Stride<_32,_1,_4096>>>, false>();
#elif CASE == 5  // gmma_swizzle_s4_b
  fragment<F16_KK, half_t, Sw<3,4,4, Layout<Shape<Shape<_8,_16>,_64,_4>, Stride<Stride<_64,_512>,_1,_8192>>>, false>();
#elif CASE == 6  // gmma_plain_composition_b
  fragment<F16_KK, half_t, decltype(tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), Shape<_128,_64,_4>{})), false>();
#elif CASE == 7  // gmma_mn_sw128_b: control
  fragment<F16_KMN, half_t, decltype(tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_128,_64,_4>{}, Step<_2,_1,_3>{})), false>();
#elif CASE == 8  // gmma_mn_sw64_a: control
  fragment<F16_MNK, half_t, decltype(tile_to_shape(GMMA::Layout_MN_SW64_Atom<half_t>{}, Shape<_64,_64,_3>{}, Step<_2,_1,_3>{})), true>();
#elif CASE == 9  // gmma_k_inter_a: control
  fragment<F16_KK, half_t, decltype(tile_to_shape(GMMA::Layout_K_INTER_Atom<half_t>{}, Shape<_64,_64,_2>{})), true>();
#elif CASE == 10 // gmma_k_sw32_e4m3_b: control
  fragment<SM90_64x128x32_F32E4M3E4M3_SS_TN<>, float_e4m3_t, decltype(tile_to_shape(GMMA::Layout_K_SW32_Atom<float_e4m3_t>{}, Shape<_128,_64,_4>{})), false>();
#elif CASE == 11 // gmma_tf32_on_mn_tile_a
  fragment<SM90_64x128x8_F32TF32TF32_SS_TN<>, tfloat32_t, decltype(tile_to_shape(GMMA::Layout_MN_SW32_Atom<tfloat32_t>{}, Shape<_64,_32,_4>{}, Step<_2,_1,_3>{})), true>();
#elif CASE == 12 // gmma_k_split_row_mode_b: control (a canonical tile written with its row mode split)
  fragment<F16_KK, half_t, Sw<3,4,3, Layout<Shape<Shape<_2,_4,_16>,_64,_4>, Stride<Stride<_64,_128,_512>,_1,_8192>>>, false>();
#elif CASE == 13 // gmma_k_inter_rows_32_bytes_apart_a
  fragment<F16_KK, half_t, Sw<0,4,3, Layout<Shape<_64,_16,_2>, Stride<_16,_1,_1024>>>, true>();
#elif CASE == 14 // gmma_mn_sw128_k_rows_apart_b (MN-major SW128, K rows 256 bytes apart: not the atom's 128)
  fragment<F16_KMN, half_t, Sw<3,4,3, Layout<Shape<Shape<_64,_2>,Shape<_8,_2>,_2>, Stride<Stride<_1,_8192>,Stride<_128,_1024>,_16384>>>, false>();
#elif CASE == 15 // gmma_k_sw128_row_groups_apart_b (16 rows, then a gap: the rows' rest is no single stride)
  fragment<F16_KK, half_t, Sw<3,4,3, Layout<Shape<Shape<_8,_2,_8>,_64,_2>, Stride<Stride<_64,_512,_2048>,_1,_16384>>>, false>();
#elif CASE == 16 // gmma_k_sw128_units_permuted_b (a row's 16-byte units permuted: K's two units not adjacent)
  fragment<F16_KK, half_t, Sw<3,4,3, Layout<Shape<_128,Shape<_8,_2,_4>,_2>, Stride<_64,Stride<_1,_16,_8>,_8192>>>, false>();
#endif
#else
  using UK = UMMA::Major;
  using U_KK = SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UK::K, UK::K>;
  using U_MNK = SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 128, UK::MN, UK::K>;
#if CASE == 1    // umma_k_sw128_a: control
  fragment<U_KK, half_t, decltype(tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64,_4>{})), true>();
#elif CASE == 2  // umma_mn_tile_under_k_a
  fragment<U_KK, half_t, decltype(tile_to_shape(UMMA::Layout_MN_SW128_Atom<half_t>{}, Shape<_128,_64,_4>{}, Step<_2,_1,_3>{})), true>();
#elif CASE == 3  // umma_k_tile_under_mn_a
  fragment<U_MNK, half_t, decltype(tile_to_shape(UMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128,_64,_4>{})), true>();
#elif CASE == 4  // umma_base32b_under_k_a
  fragment<SM100_MMA_TF32_SS<tfloat32_t, tfloat32_t, float, 128, 128, UK::K, UK::K>, tfloat32_t, decltype(tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>{}, Shape<_128,_32,_4>{}, Step<_2,_1,_3>{})), true>();
#elif CASE == 5  // umma_k_sw128_rows_64_bytes_apart_a
  fragment<U_KK, half_t, Sw<3,4,3, Layout<Shape<_128,_32,_4>, Stride<_32,_1,_4096>>>, true>();
#elif CASE == 6  // umma_base32b_mn_tf32_a: control
  fragment<SM100_MMA_TF32_SS<tfloat32_t, tfloat32_t, float, 128, 128, UK::MN, UK::K>, tfloat32_t, decltype(tile_to_shape(UMMA::Layout_MN_SW128_32B_Atom<tfloat32_t>{}, Shape<_128,_32,_4>{}, Step<_2,_1,_3>{})), true>();
#elif CASE == 7  // umma_base32b_k_rows_4_apart_a (CUTLASS #3089's comment layout)
  fragment<U_MNK, half_t, Sw<2,5,2, Layout<Shape<Shape<_8,_8,_2>,Shape<_4,_16>>, Stride<Stride<_1,_8,_256>,Stride<_32,_512>>>>, true>();
#elif CASE == 8  // umma_base32b_k_rows_8_apart_a: control (#3089's reporter)
  fragment<U_MNK, half_t, Sw<2,5,2, Layout<Shape<Shape<_8,_8,_2>,Shape<_4,_16>>, Stride<Stride<_1,_8,_256>,Stride<_64,_512>>>>, true>();
#elif CASE == 9  // umma_mn_sw64_a: control
  fragment<U_MNK, half_t, decltype(tile_to_shape(UMMA::Layout_MN_SW64_Atom<half_t>{}, Shape<_128,_64,_2>{}, Step<_2,_1,_3>{})), true>();
#endif
#endif
}
