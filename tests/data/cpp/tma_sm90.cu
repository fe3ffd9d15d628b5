// made by: the verifier's authors, as the test data of `import-kernel --compile` (tests/test_import_compiled.py).
// A single-tile SM90 kernel whose wgmma reads both operands from shared memory through descriptors: A (128x64,
// K-major) and B (128x64, K-major) are loaded global -> shared by TMA atoms the host makes (make_tma_atom) and
// multiplied by two warpgroups of SS wgmma m64n128k16.  The TMA atom's own shared layout is a knob: the atom need not
// be made from the layout the MMA reads.
// The knobs the tests turn are the lines marked KNOB.
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

using namespace cute;

template <class SmemLayoutA, class SmemLayoutB, class TmaA, class TmaB, class TiledMma>
__global__ void tma_kernel(TmaA tma_a, TmaB tma_b, float* C, TiledMma mma)
{
  alignas(1024) __shared__ half_t smem_a[cosize_v<SmemLayoutA>];
  alignas(1024) __shared__ half_t smem_b[cosize_v<SmemLayoutB>];
  alignas(8) __shared__ uint64_t full;
  Tensor mA = tma_a.get_tma_tensor(Shape<_128, _64>{});                                  // (m,k)
  Tensor mB = tma_b.get_tma_tensor(Shape<_128, _64>{});                                  // (n,k)
  Tensor gC = make_tensor(make_gmem_ptr(C), Layout<Shape<_128, _128>, Stride<_128, _1>>{});  // (m,n)
  Tensor sA = make_tensor(make_smem_ptr(smem_a), SmemLayoutA{});                             // (m,k)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), SmemLayoutB{});                             // (n,k)

  auto [tAgA, tAsA] = tma_partition(tma_a, Int<0>{}, Layout<_1>{}, group_modes<0,2>(sA), group_modes<0,2>(mA));
  auto [tBgB, tBsB] = tma_partition(tma_b, Int<0>{}, Layout<_1>{}, group_modes<0,2>(sB), group_modes<0,2>(mB));
  if (threadIdx.x == 0) {
    copy(tma_a.with(full), tAgA, tAsA);
    copy(tma_b.with(full), tBgB, tBsB);
  }
  __syncthreads();

  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                                                     // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                                                     // (MMA,MMA_N,MMA_K)
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);                                               // descriptors
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

void launch_tma(half_t const* A, half_t const* B, float* C)
{
  using SmemLayoutA = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128, _64>{}));
  using SmemLayoutB = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_128, _64>{}));
  using TmaLayoutA = SmemLayoutA;                                                         // KNOB a_tma_layout
  Tensor gA = make_tensor(make_gmem_ptr(A), make_layout(make_shape(128, 64), make_stride(64, Int<1>{})));
  Tensor gB = make_tensor(make_gmem_ptr(B), make_layout(make_shape(128, 64), make_stride(64, Int<1>{})));
  auto tma_a = make_tma_atom(SM90_TMA_LOAD{}, gA, TmaLayoutA{}, product_each(shape(TmaLayoutA{})));
  auto tma_b = make_tma_atom(SM90_TMA_LOAD{}, gB, SmemLayoutB{}, Shape<_128, _64>{});
  TiledMMA mma = make_tiled_mma(SM90_64x128x16_F32F16F16_SS<GMMA::Major::K, GMMA::Major::K>{},
                                Layout<Shape<_2, _1, _1>>{});
  tma_kernel<SmemLayoutA, SmemLayoutB><<<1, 256>>>(tma_a, tma_b, C, mma);
}
