// made by: the verifier's authors, as the test data of `import-kernel --compile` (tests/test_import_compiled.py).
// A single-tile SM80 kernel: A (64x32, K-major) and B (64x32, K-major) are copied global -> shared with cp.async,
// shared -> registers with ldmatrix, and multiplied with mma.sync m16n8k16 on a 2x2 warp grid.
// The knobs the tests turn are the lines marked KNOB.
#include <cute/tensor.hpp>

using namespace cute;

template <class SmemLayoutA, class SmemLayoutB, class G2SCopy, class S2RAtomA, class S2RAtomB, class TiledMma>
__global__ void tile_kernel(half_t const* A, half_t const* B, half_t* C, G2SCopy g2s, S2RAtomA s2r_atom_a,
                            S2RAtomB s2r_atom_b, TiledMma mma)
{
  __shared__ half_t smem_a[cosize_v<SmemLayoutA>];
  __shared__ half_t smem_b[cosize_v<SmemLayoutB>];
  Tensor gA = make_tensor(make_gmem_ptr(A), Layout<Shape<_64, _32>, Stride<_32, _1>>{});   // (m,k)
  Tensor gB = make_tensor(make_gmem_ptr(B), Layout<Shape<_64, _32>, Stride<_32, _1>>{});   // (n,k)
  Tensor gC = make_tensor(make_gmem_ptr(C), Layout<Shape<_64, _64>, Stride<_64, _1>>{});   // (m,n)
  Tensor sA = make_tensor(make_smem_ptr(smem_a), SmemLayoutA{});                           // (m,k)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), SmemLayoutB{});                           // (n,k)

  ThrCopy g2s_thr = g2s.get_slice(threadIdx.x);
  Tensor tAgA = g2s_thr.partition_S(gA);
  Tensor tAsA = g2s_thr.partition_D(sA);
  Tensor tBgB = g2s_thr.partition_S(gB);
  Tensor tBsB = g2s_thr.partition_D(sB);
  copy(g2s, tAgA, tAsA);
  copy(g2s, tBgB, tBsB);
  cp_async_wait<0>();
  __syncthreads();

  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCrA = thr_mma.partition_fragment_A(sA);                                          // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB);                                          // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                                                   // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);

  TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom_a, mma);                               // KNOB a_copy_for
  ThrCopy s2r_thr_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_a.partition_S(sA);
  Tensor tXrA = s2r_thr_a.retile_D(tCrA);
  TiledCopy s2r_copy_b = make_tiled_copy_B(s2r_atom_b, mma);
  ThrCopy s2r_thr_b = s2r_copy_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_thr_b.partition_S(sB);
  Tensor tXrB = s2r_thr_b.retile_D(tCrB);
  for (int k = 0; k < size<2>(tCrA); ++k) {
    copy(s2r_atom_a, tXsA(_, _, k), tXrA(_, _, k));
    copy(s2r_atom_b, tXsB(_, _, k), tXrB(_, _, k));
    gemm(mma, tCrA(_, _, k), tCrB(_, _, k), tCrC);
  }
  copy(tCrC, tCgC);
}

void launch_tile(half_t const* A, half_t const* B, half_t* C)
{
  using SmemLayoutA = decltype(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_64, _32>, Stride<_32, _1>>{}));
  using SmemLayoutB = decltype(composition(Swizzle<2, 3, 3>{}, Layout<Shape<_64, _32>, Stride<_32, _1>>{}));
  TiledCopy g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                  Layout<Shape<_32, _4>, Stride<_4, _1>>{}, Layout<Shape<_1, _8>>{});
  TiledMMA mma = make_tiled_mma(SM80_16x8x16_F16F16F16F16_TN{}, Layout<Shape<_2, _2, _1>>{}, Tile<_32, _32, _16>{});
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_a;                                         // KNOB a_ldmatrix
  Copy_Atom<SM75_U32x4_LDSM_N, half_t> s2r_atom_b;
  tile_kernel<SmemLayoutA, SmemLayoutB><<<1, 128>>>(A, B, C, g2s, s2r_atom_a, s2r_atom_b, mma);
}
