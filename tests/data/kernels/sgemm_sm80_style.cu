// A kernel configuration in the style of CUTLASS's examples/cute/tutorial/sgemm_sm80.cu, written for the
// import-kernel tests: a half-precision TN GEMM fed by ldmatrix from a swizzled K-major tile, and a float NT
// GEMM on UniversalFMA (no atom library entry: reported, not imported).
#include <cute/tensor.hpp>

template <class TA, class TB, class TC>
void gemm_nt(int m, int n, int k, TA const* A, int ldA, TB const* B, int ldB, TC* C, int ldC)
{
  using namespace cute;
  auto M = int(m);
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int<  8>{};
  auto sA = make_layout(make_shape(bM, bK));       // m-major
  auto sB = make_layout(make_shape(bN, bK));       // n-major
  TiledMMA mmaC = make_tiled_mma(UniversalFMA<TC,TA,TB>{}, Layout<Shape<_16,_16,_1>>{});
}

void gemm_tn(int m, int n, int k, cute::half_t const* A, int ldA, cute::half_t const* B, int ldB)
{
  using namespace cute;
  auto dA = make_stride(ldA, Int<1>{});            // run-time leading dimension: not a layout of the tile
  auto bM = Int<128>{};
  auto bN = Int<128>{};
  auto bK = Int< 64>{};
  auto bP = Int<  3>{};                            // pipeline stages
  /* the 128-byte swizzle over an 8 x 64 K-major atom */
  auto swizzle_atom = composition(Swizzle<3,3,3>{},
                                  Layout<Shape <_8,Shape <_8, _8>>,
                                         Stride<_8,Stride<_1,_64>>>{});
  auto sA = tile_to_shape(swizzle_atom, make_shape(bM, bK, bP));
  auto sB = tile_to_shape(swizzle_atom, make_shape(bN, bK, bP));
  TiledMMA mmaC = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{},
                                 Layout<Shape<_2,_2>>{},
                                 Tile<_32,_32,_16>{});
  // Copy_Atom<SM75_U32x2_LDSM_N, half_t> s2r_atom_A;   (an alternative, commented out)
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_A;
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_B;
}
