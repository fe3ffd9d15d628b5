// made by: the verifier's authors, as test data of `import-kernel --compile` (tests/test_import_compiled.py).
// A single-tile SIMT kernel in float: A (64x8) and B (64x8), both M/N-major, are copied global -> shared by the
// block, shared -> registers one float a thread with Copy_Atom<DefaultCopy, float>, and multiplied with CuTe's
// UniversalFMA on a 16x16x1 thread layout (CUTLASS's SIMT configuration in small).
// The knob the tests turn is the line marked KNOB.
#include <cute/tensor.hpp>

using namespace cute;

template <class SmemLayoutA, class SmemLayoutB, class S2RAtom, class TiledMma, class CopyMmaA>
__global__ void simt_kernel(float const* A, float const* B, float* C, S2RAtom s2r_atom, TiledMma mma,
                            CopyMmaA copy_mma_a)
{
  __shared__ float smem_a[cosize_v<SmemLayoutA>];
  __shared__ float smem_b[cosize_v<SmemLayoutB>];
  Tensor gA = make_tensor(make_gmem_ptr(A), Layout<Shape<_64, _8>, Stride<_1, _64>>{});    // (m,k)
  Tensor gB = make_tensor(make_gmem_ptr(B), Layout<Shape<_64, _8>, Stride<_1, _64>>{});    // (n,k)
  Tensor gC = make_tensor(make_gmem_ptr(C), Layout<Shape<_64, _64>, Stride<_1, _64>>{});   // (m,n)
  Tensor sA = make_tensor(make_smem_ptr(smem_a), SmemLayoutA{});                           // (m,k)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), SmemLayoutB{});                           // (n,k)
  cooperative_copy<256>(threadIdx.x, gA, sA);
  cooperative_copy<256>(threadIdx.x, gB, sB);
  __syncthreads();

  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCrA = thr_mma.partition_fragment_A(sA);                                          // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB);                                          // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                                                   // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);

  TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom, copy_mma_a);
  ThrCopy s2r_thr_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_a.partition_S(sA);
  Tensor tXrA = s2r_thr_a.retile_D(tCrA);
  TiledCopy s2r_copy_b = make_tiled_copy_B(s2r_atom, mma);
  ThrCopy s2r_thr_b = s2r_copy_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_thr_b.partition_S(sB);
  Tensor tXrB = s2r_thr_b.retile_D(tCrB);
  for (int k = 0; k < size<2>(tCrA); ++k) {
    copy(s2r_atom, tXsA(_, _, k), tXrA(_, _, k));
    copy(s2r_atom, tXsB(_, _, k), tXrB(_, _, k));
    gemm(mma, tCrA(_, _, k), tCrB(_, _, k), tCrC);
  }
  copy(tCrC, tCgC);
}

void launch_simt(float const* A, float const* B, float* C)
{
  using SmemLayoutA = Layout<Shape<_64, _8>, Stride<_1, _64>>;
  using SmemLayoutB = Layout<Shape<_64, _8>, Stride<_1, _64>>;
  using Mma = TiledMMA<MMA_Atom<UniversalFMA<float, float, float, float>>, Layout<Shape<_16, _16, _1>>>;
  Mma mma;
  Mma copy_mma_a;                                                                          // KNOB a_copy_mma
  Copy_Atom<DefaultCopy, float> s2r_atom;
  simt_kernel<SmemLayoutA, SmemLayoutB><<<1, 256>>>(A, B, C, s2r_atom, mma, copy_mma_a);
}
