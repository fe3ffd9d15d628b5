// made by: the verifier's authors, as test data of `import-kernel --compile` (tests/test_thread_gemm_import.py).
// Two SIMT GEMMs in float, C (m,n) = sum over k of A (m,k) B (n,k), each block a 64x64 tile of C over 8-deep k-tiles
// on 256 threads, A and B M/N-major (the CuTe tutorial's shape of kernel, in small):
// - raked_kernel partitions with local_partition: a copy's thread layout over a whole tile, C's thread layout's rows
//   (for A) and columns (for B) for the gemm;
// - tiled_kernel copies with a TiledCopy through registers and multiplies with a UniversalFMA TiledMMA.
// The knobs the tests turn are the lines marked KNOB.
#include <cute/tensor.hpp>

using namespace cute;

template <class Tiler, class SmemLayoutA, class SmemLayoutB, class ThreadsA, class ThreadsB, class ThreadsC>
__global__ void raked_kernel(int m, int n, int k, float const* A, float const* B, float* C, Tiler tiler,
                             SmemLayoutA sA_layout, SmemLayoutB sB_layout, ThreadsA tA, ThreadsB tB, ThreadsC tC)
{
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(m, k), make_stride(Int<1>{}, m));       // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(n, k), make_stride(Int<1>{}, n));       // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(m, n), make_stride(Int<1>{}, m));       // (M,N)
  auto block = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, block, Step<_1, X, _1>{});                                  // KNOB a_tile
  Tensor gB = local_tile(mB, tiler, block, Step< X, _1, _1>{});                                 // (BN,BK,k)
  Tensor gC = local_tile(mC, tiler, block, Step<_1, _1, X>{});                                  // (BM,BN)
  __shared__ float smem_a[cosize_v<SmemLayoutA>];
  __shared__ float smem_b[cosize_v<SmemLayoutB>];
  Tensor sA = make_tensor(make_smem_ptr(smem_a), sA_layout);                                   // (BM,BK)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), sB_layout);                                   // (BN,BK)
  Tensor tAgA = local_partition(gA, tA, threadIdx.x);                                          // (THR_M,THR_K,k)
  Tensor tAsA = local_partition(sA, tA, threadIdx.x);                                          // (THR_M,THR_K)
  Tensor tBgB = local_partition(gB, tB, threadIdx.x);
  Tensor tBsB = local_partition(sB, tB, threadIdx.x);
  Tensor tCsA = local_partition(sA, tC, threadIdx.x, Step<_1, X>{});                           // KNOB a_rows
  Tensor tCsB = local_partition(sB, tC, threadIdx.x, Step< X, _1>{});                          // (THR_N,BK)
  Tensor tCgC = local_partition(gC, tC, threadIdx.x, Step<_1, _1>{});                          // (THR_M,THR_N)
  Tensor tCrC = make_tensor_like(tCgC);
  clear(tCrC);
  for (int kt = 0; kt < size<2>(tAgA); ++kt) {
    copy(tAgA(_, _, kt), tAsA);
    copy(tBgB(_, _, kt), tBsB);                                                                // KNOB b_fill
    __syncthreads();
    gemm(tCsA, tCsB, tCrC);                                                                    // KNOB operands
    __syncthreads();
  }
  copy(tCrC, tCgC);
}

template <class Tiler, class SmemLayoutA, class SmemLayoutB, class CopyA, class CopyB, class Mma>
__global__ void tiled_kernel(int m, int n, int k, float const* A, float const* B, float* C, Tiler tiler,
                             SmemLayoutA sA_layout, SmemLayoutB sB_layout, CopyA copy_a, CopyB copy_b, Mma mma)
{
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(m, k), make_stride(Int<1>{}, m));       // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(n, k), make_stride(Int<1>{}, n));       // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(m, n), make_stride(Int<1>{}, m));       // (M,N)
  auto block = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, block, Step<_1, X, _1>{});                                  // (BM,BK,k)
  Tensor gB = local_tile(mB, tiler, block, Step< X, _1, _1>{});                                 // (BN,BK,k)
  Tensor gC = local_tile(mC, tiler, block, Step<_1, _1, X>{});                                  // (BM,BN)
  __shared__ float smem_a[cosize_v<SmemLayoutA>];
  __shared__ float smem_b[cosize_v<SmemLayoutB>];
  Tensor sA = make_tensor(make_smem_ptr(smem_a), sA_layout);                                   // (BM,BK)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), sB_layout);                                   // (BN,BK)
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);                                                    // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);                                                    // (CPY,CPY_M,CPY_K)
  Tensor tArA = make_fragment_like(tAsA);
  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB);
  Tensor tBrB = make_fragment_like(tBsB);
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                                                       // KNOB mma_a
  Tensor tCsB = thr_mma.partition_B(sB);                                                       // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                                                       // (MMA,MMA_M,MMA_N)
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);
  copy(copy_a, tAgA(_, _, _, 0), tArA);
  copy(copy_b, tBgB(_, _, _, 0), tBrB);
  for (int kt = 0; kt < size<3>(tAgA); ++kt) {
    __syncthreads();
    copy(tArA, tAsA);
    copy(tBrB, tBsB);                                                                          // KNOB b_store
    __syncthreads();
    int next = (kt + 1 < size<3>(tAgA)) ? kt + 1 : kt;
    copy(copy_a, tAgA(_, _, _, next), tArA);
    copy(copy_b, tBgB(_, _, _, next), tBrB);
    gemm(mma, tCsA, tCsB, tCrC);
  }
  copy(tCrC, tCgC);
}

void launch_raked(int m, int n, int k, float const* A, float const* B, float* C)
{
  auto tiler = make_shape(Int<64>{}, Int<64>{}, Int<8>{});
  auto sA_layout = make_layout(make_shape(Int<64>{}, Int<8>{}));                               // KNOB a_smem
  auto sB_layout = make_layout(make_shape(Int<64>{}, Int<8>{}));
  auto tA = make_layout(make_shape(Int<32>{}, Int<8>{}));
  auto tB = make_layout(make_shape(Int<32>{}, Int<8>{}));
  auto tC = make_layout(make_shape(Int<16>{}, Int<16>{}));                                     // KNOB c_threads
  dim3 grid(m / 64, n / 64);
  raked_kernel<<<grid, 256>>>(m, n, k, A, B, C, tiler, sA_layout, sB_layout, tA, tB, tC);
}

void launch_tiled(int m, int n, int k, float const* A, float const* B, float* C)
{
  auto tiler = make_shape(Int<64>{}, Int<64>{}, Int<8>{});
  auto sA_layout = make_layout(make_shape(Int<64>{}, Int<8>{}));
  auto sB_layout = make_layout(make_shape(Int<64>{}, Int<8>{}));
  TiledCopy copy_a = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                                     Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});       // KNOB a_copy
  TiledCopy copy_b = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                                     Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});
  TiledMMA mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  dim3 grid(m / 64, n / 64);
  tiled_kernel<<<grid, 256>>>(m, n, k, A, B, C, tiler, sA_layout, sB_layout, copy_a, copy_b, mma);
}

// staged_kernel: the tiled kernel's copies straight into shared memory, and its gemm one k-block at a time from
// registers each k-block is copied into (the CuTe tutorial's sgemm_sm70 in small), C stored by axpby.
template <class Tiler, class SmemLayoutA, class SmemLayoutB, class CopyA, class CopyB, class Mma>
__global__ void staged_kernel(int m, int n, int k, float const* A, float const* B, float* C, Tiler tiler,
                              SmemLayoutA sA_layout, SmemLayoutB sB_layout, CopyA copy_a, CopyB copy_b, Mma mma)
{
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(m, k), make_stride(Int<1>{}, m));       // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(n, k), make_stride(Int<1>{}, n));       // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(m, n), make_stride(Int<1>{}, m));       // (M,N)
  auto block = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, block, Step<_1, X, _1>{});                                  // (BM,BK,k)
  Tensor gB = local_tile(mB, tiler, block, Step< X, _1, _1>{});                                 // (BN,BK,k)
  Tensor gC = local_tile(mC, tiler, block, Step<_1, _1, X>{});                                  // (BM,BN)
  __shared__ float smem_a[cosize_v<SmemLayoutA>];
  __shared__ float smem_b[cosize_v<SmemLayoutB>];
  Tensor sA = make_tensor(make_smem_ptr(smem_a), sA_layout);                                   // (BM,BK)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), sB_layout);                                   // (BN,BK)
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);                                                    // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);                                                    // (CPY,CPY_M,CPY_K)
  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB);
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCsA = thr_mma.partition_A(sA);                                                       // (MMA,MMA_M,MMA_K)
  Tensor tCsB = thr_mma.partition_B(sB);                                                       // (MMA,MMA_N,MMA_K)
  Tensor tCgC = thr_mma.partition_C(gC);                                                       // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.make_fragment_A(tCsA);
  Tensor tCrB = thr_mma.make_fragment_B(tCsB);
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);
  for (int kt = 0; kt < size<3>(tAgA); ++kt) {
    __syncthreads();
    copy(copy_a, tAgA(_, _, _, kt), tAsA);
    copy(copy_b, tBgB(_, _, _, kt), tBsB);
    __syncthreads();
    for (int kb = 0; kb < size<2>(tCrA); ++kb) {
      copy(tCsA(_, _, kb), tCrA(_, _, kb));                                                    // KNOB a_registers
      copy(tCsB(_, _, kb), tCrB(_, _, kb));
      gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
    }
  }
  axpby(1.0f, tCrC, 0.0f, tCgC);
}

void launch_staged(int m, int n, int k, float const* A, float const* B, float* C)
{
  auto tiler = make_shape(Int<64>{}, Int<64>{}, Int<8>{});
  auto sA_layout = make_layout(make_shape(Int<64>{}, Int<8>{}));
  auto sB_layout = make_layout(make_shape(Int<64>{}, Int<8>{}));
  TiledCopy copy_a = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                                     Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});
  TiledCopy copy_b = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                                     Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});
  TiledMMA mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  dim3 grid(m / 64, n / 64);
  staged_kernel<<<grid, 256>>>(m, n, k, A, B, C, tiler, sA_layout, sB_layout, copy_a, copy_b, mma);
}

// fragment_kernel: the tiled kernel's fills (straight into two stages of each shared tile), and a gemm of register
// fragments each k-block is loaded into by a tiled copy made for the MMA (retile_D): the tiled checks prove the
// loads, an operand-fills check the fills (CUTLASS's sgemm_sm80 in small).
template <class Tiler, class SmemLayoutA, class SmemLayoutB, class CopyA, class CopyB, class Mma, class S2RAtom>
__global__ void fragment_kernel(int m, int n, int k, float const* A, float const* B, float* C, Tiler tiler,
                                SmemLayoutA sA_layout, SmemLayoutB sB_layout, CopyA copy_a, CopyB copy_b, Mma mma,
                                S2RAtom s2r_atom)
{
  Tensor mA = make_tensor(make_gmem_ptr(A), make_shape(m, k), make_stride(Int<1>{}, m));       // (M,K)
  Tensor mB = make_tensor(make_gmem_ptr(B), make_shape(n, k), make_stride(Int<1>{}, n));       // (N,K)
  Tensor mC = make_tensor(make_gmem_ptr(C), make_shape(m, n), make_stride(Int<1>{}, m));       // (M,N)
  auto block = make_coord(blockIdx.x, blockIdx.y, _);
  Tensor gA = local_tile(mA, tiler, block, Step<_1, X, _1>{});                                  // (BM,BK,k)
  Tensor gB = local_tile(mB, tiler, block, Step< X, _1, _1>{});                                 // (BN,BK,k)
  Tensor gC = local_tile(mC, tiler, block, Step<_1, _1, X>{});                                  // (BM,BN)
  __shared__ float smem_a[cosize_v<SmemLayoutA>];
  __shared__ float smem_b[cosize_v<SmemLayoutB>];
  Tensor sA = make_tensor(make_smem_ptr(smem_a), sA_layout);                                   // (BM,BK,PIPE)
  Tensor sB = make_tensor(make_smem_ptr(smem_b), sB_layout);                                   // (BN,BK,PIPE)
  ThrCopy thr_copy_a = copy_a.get_slice(threadIdx.x);
  Tensor tAgA = thr_copy_a.partition_S(gA);                                                    // (CPY,CPY_M,CPY_K,k)
  Tensor tAsA = thr_copy_a.partition_D(sA);                                                    // (CPY,CPY_M,CPY_K,PIPE)
  ThrCopy thr_copy_b = copy_b.get_slice(threadIdx.x);
  Tensor tBgB = thr_copy_b.partition_S(gB);
  Tensor tBsB = thr_copy_b.partition_D(sB);
  ThrMMA thr_mma = mma.get_slice(threadIdx.x);
  Tensor tCgC = thr_mma.partition_C(gC);                                                       // (MMA,MMA_M,MMA_N)
  Tensor tCrA = thr_mma.partition_fragment_A(sA(_, _, 0));                                     // (MMA,MMA_M,MMA_K)
  Tensor tCrB = thr_mma.partition_fragment_B(sB(_, _, 0));
  Tensor tCrC = thr_mma.make_fragment_C(tCgC);
  clear(tCrC);
  TiledCopy s2r_copy_a = make_tiled_copy_A(s2r_atom, mma);
  ThrCopy s2r_thr_a = s2r_copy_a.get_slice(threadIdx.x);
  Tensor tXsA = s2r_thr_a.partition_S(sA);                                                     // (CPY,MMA_M,MMA_K,PIPE)
  Tensor tXrA = s2r_thr_a.retile_D(tCrA);
  TiledCopy s2r_copy_b = make_tiled_copy_B(s2r_atom, mma);
  ThrCopy s2r_thr_b = s2r_copy_b.get_slice(threadIdx.x);
  Tensor tXsB = s2r_thr_b.partition_S(sB);
  Tensor tXrB = s2r_thr_b.retile_D(tCrB);
  for (int kt = 0; kt < size<3>(tAgA); ++kt) {
    int stage = kt % 2;
    __syncthreads();
    copy(copy_a, tAgA(_, _, _, kt), tAsA(_, _, _, stage));
    copy(copy_b, tBgB(_, _, _, kt), tBsB(_, _, _, stage));                                     // KNOB b_stage_fill
    __syncthreads();
    for (int kb = 0; kb < size<2>(tCrA); ++kb) {
      copy(s2r_atom, tXsA(_, _, kb, stage), tXrA(_, _, kb));
      copy(s2r_atom, tXsB(_, _, kb, stage), tXrB(_, _, kb));
      gemm(mma, tCrA(_, _, kb), tCrB(_, _, kb), tCrC);
    }
  }
  copy(tCrC, tCgC);
}

void launch_fragment(int m, int n, int k, float const* A, float const* B, float* C)
{
  auto tiler = make_shape(Int<64>{}, Int<64>{}, Int<8>{});
  auto sA_layout = make_layout(make_shape(Int<64>{}, Int<8>{}, Int<2>{}));
  auto sB_layout = make_layout(make_shape(Int<64>{}, Int<8>{}, Int<2>{}));
  TiledCopy copy_a = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                                     Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});
  TiledCopy copy_b = make_tiled_copy(Copy_Atom<UniversalCopy<uint64_t>, float>{},
                                     Layout<Shape<_32, _8>>{}, Layout<Shape<_2, _1>>{});
  TiledMMA mma = make_tiled_mma(UniversalFMA<float, float, float>{}, Layout<Shape<_16, _16, _1>>{});
  Copy_Atom<DefaultCopy, float> s2r_atom;
  dim3 grid(m / 64, n / 64);
  fragment_kernel<<<grid, 256>>>(m, n, k, A, B, C, tiler, sA_layout, sB_layout, copy_a, copy_b, mma, s2r_atom);
}
