// made by: the verifier's authors, as the test data of `import-kernel --compile` (tests/test_import_compiled.py).
// A single-tile SM100 epilogue fragment: a tcgen05.mma tiled MMA's accumulator in tensor memory (128x64 floats, M=128
// data path) loaded into registers by a tiled copy make_tmem_copy builds over it.  The TMEM load atom is a knob.
// The knobs the tests turn are the lines marked KNOB.
#include <cute/tensor.hpp>
#include <cute/atom/mma_traits_sm100.hpp>
#include <cute/atom/copy_traits_sm100.hpp>

using namespace cute;

template <class TiledMma>
__global__ void tmem_kernel(float* C, TiledMma mma)
{
  Tensor gC = make_tensor(make_gmem_ptr(C), Layout<Shape<_128, _64>, Stride<_64, _1>>{});   // (m,n)
  ThrMMA cta_mma = mma.get_slice(0);
  Tensor tCgC = cta_mma.partition_C(gC);                                                     // (MMA,MMA_M,MMA_N)
  Tensor tCtAcc = cta_mma.make_fragment_C(tCgC);                                             // tensor memory
  tCtAcc.data() = 0;
  TiledCopy t2r = make_tmem_copy(SM100_TMEM_LOAD_32dp32b1x{}, tCtAcc);                      // KNOB t2r_atom
  ThrCopy thr_t2r = t2r.get_slice(threadIdx.x);
  Tensor tTRtAcc = thr_t2r.partition_S(tCtAcc);
  Tensor tTRgC = thr_t2r.partition_D(tCgC);
  Tensor tTRrC = make_fragment_like(tTRgC);
  copy(t2r, tTRtAcc, tTRrC);
  copy(tTRrC, tTRgC);
}

void launch_tmem(float* C)
{
  TiledMMA mma = make_tiled_mma(SM100_MMA_F16BF16_SS<half_t, half_t, float, 128, 64, UMMA::Major::K,
                                                     UMMA::Major::K>{});
  tmem_kernel<<<1, 128>>>(C, mma);
}
