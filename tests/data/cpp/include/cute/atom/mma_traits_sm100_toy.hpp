// Miniature SM100 UMMA traits for tests/test_importer.py (written for the tests in CuTe's spelling; not
// CUTLASS's file).  instances.py instantiates them with its UMMA rules; a_major / b_major / a_neg / b_neg
// are not mentioned by the layouts, so they are not instantiated.
#pragma once

#include <cute/arch/mma_sm100_umma_toy.hpp>
#include <cute/atom/mma_traits.hpp>

namespace cute
{

template <class a_type, class b_type, class c_type, int M, int N,
          UMMA::Major a_major, UMMA::Major b_major, UMMA::ScaleIn a_neg, UMMA::ScaleIn b_neg>
struct MMA_Traits<SM100_MMA_F16BF16_TS<a_type, b_type, c_type, M, N, a_major, b_major, a_neg, b_neg>>
{
  using ValTypeD = c_type;
  using ValTypeA = a_type;
  using ValTypeB = b_type;
  using ValTypeC = c_type;

  // K spans 256 bits of A
  static constexpr int K = 256 / cute::sizeof_bits<ValTypeA>::value;

  using Shape_MNK = Shape<Int<M>,Int<N>,Int<K>>;
  using ThrID   = Layout<_1>;
  using ALayout = Layout<Shape <_1,Shape <Int<M>,Int<K>>>, Stride<_0,Stride<_1,Int<M>>>>;
  using BLayout = Layout<Shape <_1,Shape <Int<N>,Int<K>>>, Stride<_0,Stride<_1,Int<N>>>>;
  using CLayout = Layout<Shape <_1,Shape <Int<M>,Int<N>>>, Stride<_0,Stride<_1,Int<M>>>>;
};

template <class a_type, class b_type, class c_type, int M, int N,
          UMMA::Major a_major, UMMA::Major b_major, UMMA::ScaleIn a_neg, UMMA::ScaleIn b_neg>
struct MMA_Traits<SM100_MMA_F16BF16_2x1SM_SS<a_type, b_type, c_type, M, N, a_major, b_major, a_neg, b_neg>>
{
  using ValTypeD = c_type;
  using ValTypeA = a_type;
  using ValTypeB = b_type;
  using ValTypeC = c_type;

  constexpr static int K = 256 / cute::sizeof_bits<ValTypeA>::value;

  // each CTA of the pair: half of M (A, C), half of N (B)
  using Shape_MNK = Shape<Int<M>,Int<N>,Int<K>>;
  using ThrID   = Layout<_2>;
  using ALayout = Layout<Shape <_2,Shape <Int<M/2>,Int<K>>>, Stride<Int<M/2>,Stride<_1,Int<M>>>>;
  using BLayout = Layout<Shape <_2,Shape <Int<N/2>,Int<K>>>, Stride<Int<N/2>,Stride<_1,Int<N>>>>;
  using CLayout = Layout<Shape <_2,Shape <Int<M/2>,Int<N>>>, Stride<Int<M/2>,Stride<_1,Int<M>>>>;
};

} // namespace cute
