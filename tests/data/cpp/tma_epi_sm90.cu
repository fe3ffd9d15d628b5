// made by: the verifier's authors, as the test data of `import-kernel --compile` (tests/test_import_compiled.py).
// A single-tile SM90 epilogue: a TMA atom loads C (64x64 half, N-major, 128-byte swizzled) into shared memory, the
// threads copy it to registers and store it to the shared tile D, and a TMA atom stores D to the N-major global D.
// D's shared layout and the layout its TMA atom is made from are knobs: the atom need not be made from the layout the
// threads copy through, nor share the global tensor's major-ness.
// The knobs the tests turn are the lines marked KNOB.
#include <cute/tensor.hpp>
#include <cute/atom/copy_traits_sm90_tma.hpp>
#include <cute/atom/mma_traits_sm90_gmma.hpp>

using namespace cute;

template <class SmemLayoutC, class SmemLayoutD, class TmaC, class TmaD, class S2R>
__global__ void epi_kernel(TmaC tma_c, TmaD tma_d, S2R s2r)
{
  alignas(1024) __shared__ half_t smem_c[cosize_v<SmemLayoutC>];
  alignas(1024) __shared__ half_t smem_d[cosize_v<SmemLayoutD>];
  alignas(8) __shared__ uint64_t full;
  Tensor mC = tma_c.get_tma_tensor(Shape<_64, _64>{});                                        // (m,n)
  Tensor mD = tma_d.get_tma_tensor(Shape<_64, _64>{});                                        // (m,n)
  Tensor sC = make_tensor(make_smem_ptr(smem_c), SmemLayoutC{});                              // (m,n)
  Tensor sD = make_tensor(make_smem_ptr(smem_d), SmemLayoutD{});                              // (m,n)

  auto [tCgC, tCsC] = tma_partition(tma_c, Int<0>{}, Layout<_1>{}, group_modes<0,2>(sC), group_modes<0,2>(mC));
  auto [tDgD, tDsD] = tma_partition(tma_d, Int<0>{}, Layout<_1>{}, group_modes<0,2>(sD), group_modes<0,2>(mD));
  if (threadIdx.x == 0) {
    copy(tma_c.with(full), tCgC, tCsC);
  }
  __syncthreads();

  ThrCopy thr = s2r.get_slice(threadIdx.x);
  Tensor tSsC = thr.partition_S(sC);
  Tensor tSrC = make_fragment_like(tSsC);
  Tensor tSsD = thr.partition_D(sD);
  copy(s2r, tSsC, tSrC);
  copy_aligned(tSrC, tSsD);
  tma_store_fence();
  __syncthreads();
  if (threadIdx.x == 0) {
    copy(tma_d, tDsD, tDgD);
  }
}

void launch_epi(half_t const* C, half_t* D)
{
  using SmemLayout = decltype(tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>{}, Shape<_64, _64>{}));
  using SmemLayoutD = SmemLayout;                                                    // KNOB d_smem_layout
  using TmaLayoutD = SmemLayoutD;                                                    // KNOB d_tma_layout
  Tensor gC = make_tensor(make_gmem_ptr(C), make_layout(make_shape(64, 64), make_stride(64, Int<1>{})));
  Tensor gD = make_tensor(make_gmem_ptr(D), make_layout(make_shape(64, 64), make_stride(64, Int<1>{})));
  auto tma_c = make_tma_atom(SM90_TMA_LOAD{}, gC, SmemLayout{}, Shape<_64, _64>{});
  auto tma_d = make_tma_atom(SM90_TMA_STORE{}, gD, TmaLayoutD{}, product_each(shape(TmaLayoutD{})));
  TiledCopy s2r = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, half_t>{},
                                  Layout<Shape<_16, _8>, Stride<_8, _1>>{}, Layout<Shape<_1, _8>>{});
  epi_kernel<SmemLayout, SmemLayoutD><<<1, 128>>>(tma_c, tma_d, s2r);
}
