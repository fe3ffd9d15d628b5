// tools/cute_dump/tma_basis_refusals.cu -- does CuTe's make_tma_copy build the TMA copy of one shared stage?  Each
// CASE hands make_tma_copy a global tensor and one stage of a shared layout, with the CTA tile the stage holds, as
// the SM90 mixed-input collective does for its scales (make_tma_copy<TmaElementScale>(..., SmemLayoutScale(_,_,0),
// (BLK_M, 1), 1)); construct_tma_gbasis's static_asserts stop the compile.  tma_basis_refusals.sh compiles each
// case and writes tests/data/cute_tma_basis_refusals.txt ("NAME compiles" or "NAME refused: MESSAGE"), which
// tests/test_tma_basis_refusals.py compares with verifier/cute/tma_basis.py.  Host compile only: no GPU.
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cute/atom/copy_traits_sm90_tma.hpp"
using namespace cute;

int main() {
  using Scale = cutlass::half_t;
  Scale* ptr = nullptr;
  // the global scales: (M, scale_k), M-major unless the case says otherwise   // (m, k) -> element
  auto m_major = make_layout(make_shape(256, 4), make_stride(_1{}, 256));
#if CASE == 1    // scale_rows_in_order: control, one stage of 128 scales in row order
  auto gmem = m_major;
  using Stage = Layout<Shape<_128,_1>, Stride<_1,_0>>;
#elif CASE == 2  // scale_rows_exchanged: row m in slot 16 (m % 8) + m / 8
  auto gmem = m_major;
  using Stage = Layout<Shape<Shape<_8,_16>,_1>, Stride<Stride<_16,_1>,_0>>;
#elif CASE == 3  // scale_k_major_global: the rows 4 scales apart in memory (compiles; the host's check fails)
  auto gmem = make_layout(make_shape(256, 4), make_stride(4, _1{}));
  using Stage = Layout<Shape<_128,_1>, Stride<_1,_0>>;
#elif CASE == 4  // scale_every_other_slot: row m in slot 2 m
  auto gmem = m_major;
  using Stage = Layout<Shape<_128,_1>, Stride<_2,_0>>;
#endif
  auto tma = make_tma_copy<Scale>(SM90_TMA_LOAD{}, make_tensor(make_gmem_ptr(ptr), gmem), Stage{},
                                  Shape<_128,_1>{}, _1{});
  print(tma);
  print("\n");
}
