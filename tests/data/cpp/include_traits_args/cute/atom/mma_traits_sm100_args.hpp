// Miniature SM100 UMMA traits for tests/test_importer.py (written for the tests in CuTe's spelling; not
// CUTLASS's file): MMA_Traits<Op, a_type, b_type, c_type, C<M>, C<N>, integral_constant<...>...>, the atom's
// parameters given to the traits of an Op that is no template (CUTLASS 4.2's SM100_MMA_F8F6F4_SS).
#pragma once

#include <cute/arch/mma_sm100_args.hpp>

namespace cute
{

template <class a_type, class b_type, class c_type, int M, int N,
          UMMA::Major a_major, UMMA::Major b_major, UMMA::ScaleIn a_neg, UMMA::ScaleIn b_neg>
struct MMA_Traits<SM100_MMA_F8F6F4_SS, a_type, b_type, c_type, cute::C<M>, cute::C<N>,
                  cute::integral_constant<UMMA::Major, a_major>, cute::integral_constant<UMMA::Major, b_major>,
                  cute::integral_constant<UMMA::ScaleIn, a_neg>, cute::integral_constant<UMMA::ScaleIn, b_neg>>
{
  using ValTypeD = c_type;
  using ValTypeA = a_type;
  using ValTypeB = b_type;
  using ValTypeC = c_type;
  static_assert(M == 64 || M == 128, "toy: M is 64 or 128 for one CTA");

  // K spans 256 bits of an 8-bit A
  constexpr static int K = 32;

  using Shape_MNK = Shape<Int<M>,Int<N>,Int<K>>;
  using ThrID   = Layout<_1>;
  using ALayout = Layout<Shape <_1,Shape <Int<M>,Int<K>>>, Stride<_0,Stride<_1,Int<M>>>>;
  using BLayout = Layout<Shape <_1,Shape <Int<N>,Int<K>>>, Stride<_0,Stride<_1,Int<N>>>>;
  using CLayout = Layout<Shape <_1,Shape <Int<M>,Int<N>>>, Stride<_0,Stride<_1,Int<M>>>>;
};

} // namespace cute
