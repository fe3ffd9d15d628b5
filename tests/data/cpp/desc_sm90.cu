// made by: the verifier's authors, as the test data of `import-kernel --compile` (tests/test_import_compiled.py).
// A single-tile SM90 kernel whose wgmma reads both operands from shared memory through descriptors: A (128x64,
// K-major) and B (128x64, K-major) are written global -> shared by the threads with cp.async (no TMA), through the
// tiles' own layouts, and multiplied by two warpgroups of SS wgmma m64n128k16.
// The knobs the tests turn are the lines marked KNOB.
#include <cute/tensor.hpp>
#include <cute/arch/copy_sm80.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

using namespace cute;

template <class SmemLayoutA, class SmemLayoutB, class G2SCopy, class TiledMma>
__global__ void desc_kernel(half_t const* A, half_t const* B, float* C, G2SCopy g2s, TiledMma mma)
{
  alignas(1024) __shared__ half_t smem_a[cosize_v<SmemLayoutA>];
  alignas(1024) __shared__ half_t smem_b[cosize_v<SmemLayoutB>];
  Tensor gA = make_tensor(make_gmem_ptr(A), Layout<Shape<_128, _64>, Stride<_64, _1>>{});   // (m,k)
  Tensor gB = make_tensor(make_gmem_ptr(B), Layout<Shape<_128, _64>, Stride<_64, _1>>{});   // (n,k)
  Tensor gC = make_tensor(make_gmem_ptr(C), Layout<Shape<_128, _128>, Stride<_128, _1>>{}); // (m,n)
  Tensor sA = make_tensor(make_smem_ptr(smem_a), SmemLayoutA{});                            // (m,k)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), SmemLayoutB{});                            // (n,k)

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
  Tensor tCsA = thr_mma.partition_A(sA);                                                    // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                                                    // (MMA,MMA_N,MMA_K)
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);                                              // descriptors
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);
  Tensor tCgC = thr_mma.partition_C(gC);
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);
  warpgroup_arrive();
  gemm(mma, tCrA, tCrB, tCrC);
  warpgroup_commit_batch();
  warpgroup_wait<0>();
  copy(tCrC, tCgC);
}

void launch_desc(half_t const* A, half_t const* B, float* C)
{
  using SmemLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128, _64>{}));  // KNOB a_smem
  using SmemLayoutB = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128, _64>{}));
  TiledCopy g2s = make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                  Layout<Shape<_32, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  TiledMMA mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{},   // KNOB mma_major
                                Layout<Shape<_2, _1, _1>>{});
  desc_kernel<SmemLayoutA, SmemLayoutB><<<1, 256>>>(A, B, C, g2s, mma);
}
