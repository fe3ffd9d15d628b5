// Miniature MMA traits for tests/test_importer.py (written for the tests, in CuTe's style).
#pragma once

#include <cute/arch/mma_toy.hpp>
#include <cute/atom/mma_traits_toy75.hpp>

// A macro whose body has braces: the scanner must not see them
#define TOY_UNUSED_MACRO(x) \
  struct MMA_Traits<x> {    \
    using ALayout = x;      \
  };

namespace cute
{

/* ---- fp16: the layouts come from an alias of mma_traits_toy75.hpp ---- */

template <>
struct MMA_Traits<TOY_16x8x8_F16F16F16F16_TN>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;

  using Shape_MNK = Shape<_16,_8,_8>;
  using ThrID   = Layout<_32>;
  using ALayout = TOY_16x8_Row;
  using BLayout = Layout<Shape <Shape < _4,_8>,_2>,
                         Stride<Stride<_16,_1>,_8>>;   // (T32,V2) -> (N8,K8)
  using CLayout = TOY_16x8_Row;
};

// inherits the layouts, overrides two value types
template <>
struct MMA_Traits<TOY_16x8x8_F32F16F16F32_TN>
     : MMA_Traits<TOY_16x8x8_F16F16F16F16_TN>
{
  using ValTypeD = float;
  using ValTypeC = float;
};

template <>
struct MMA_Traits<TOY_16x8x8_F32F16F16F32_TN_SATURATE>
     : MMA_Traits<TOY_16x8x8_F32F16F16F32_TN> {};

// every member read through a member that names another trait
template <>
struct MMA_Traits<TOY_16x8x8_VIA_TN>
{
  using Underlying = MMA_Traits<TOY_16x8x8_F32F16F16F32_TN>;

  using ValTypeD  = typename Underlying::ValTypeD;
  using ValTypeA  = typename Underlying::ValTypeA;
  using ValTypeB  = typename Underlying::ValTypeB;
  using ValTypeC  = typename Underlying::ValTypeC;
  using Shape_MNK = typename Underlying::Shape_MNK;
  using ThrID     = typename Underlying::ThrID;
  using ALayout   = typename Underlying::ALayout;
  using BLayout   = typename Underlying::BLayout;
  using CLayout   = typename Underlying::CLayout;
};

// inherits from a trait of another header; its D/C value type is a struct of three doubles
template <>
struct MMA_Traits<TOY_8x8x4_GC64_TN>
     : MMA_Traits<TOY_8x8x4_F64F64F64F64_TN>
{
  using ValTypeD = typename TOY_8x8x4_GC64_TN::Gauss;
  using ValTypeC = typename TOY_8x8x4_GC64_TN::Gauss;
};

// CuTe cannot instantiate this one: the stride of ALayout's value mode is not congruent to its shape
template <>
struct MMA_Traits<TOY_16x8x16_BROKEN_TN>
{
  using ValTypeD = int32_t;
  using ValTypeA = cute::uint1b_t;
  using ValTypeB = cute::uint1b_t;
  using ValTypeC = int32_t;

  using Shape_MNK = Shape<_16,_8,_16>;
  using ThrID   = Layout<_32>;
  using ALayout = Layout<Shape <Shape <_4,_8>,Shape <_2,_2>>,
                         Stride<Stride<_32,_1>,Stride<Stride<_16,_8>>>>;
  using BLayout = Layout<Shape <Shape <_4,_8>,_4>,
                         Stride<Stride<_32,_1>,_8>>;
  using CLayout = TOY_16x8_Row;
};

// unreadable: its A layout is a name no header defines
template <>
struct MMA_Traits<TOY_16x8x8_MYSTERY_TN>
{
  using ValTypeD = float;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = float;

  using Shape_MNK = Shape<_16,_8,_8>;
  using ThrID   = Layout<_32>;
  using ALayout = TOY_Layout_Nobody_Defines;
  using BLayout = Layout<Shape <Shape < _4,_8>,_2>,
                         Stride<Stride<_16,_1>,_8>>;
  using CLayout = TOY_16x8_Row;
};

/* ---- warpgroup MMA: a template alias with arithmetic; the Major parameters do not change the atom ---- */

template <int N>
using TOY_CLayout_64xN = Layout<Shape <Shape <  _4,_8, _4>,Shape < _2,_2,Int<N/8>>>,
                                Stride<Stride<_128,_1,_16>,Stride<_64,_8,   _512>>>;

template <int M, int K>
using TOY_ABLayout     = Layout<Shape <_128,Shape <Int<M>,Int<K>>>,
                                Stride<  _0,Stride<    _1,Int<M>>>>;

template <TOY::Major tnspA, TOY::Major tnspB>
using TOY_64x16x16_F16F16F16_SS = TOY::MMA_64x16x16_F16F16F16_SS<tnspA, tnspB>;

template <TOY::Major tnspA, TOY::Major tnspB>
struct MMA_Traits<TOY_64x16x16_F16F16F16_SS<tnspA, tnspB>>
{
  using ValTypeD = half_t;
  using ValTypeA = half_t;
  using ValTypeB = half_t;
  using ValTypeC = half_t;

  using FrgTypeA = TOY::smem_desc<tnspA>;
  using FrgTypeB = TOY::smem_desc<tnspB>;

  using Shape_MNK = Shape<_64,_16,_16>;
  using ThrID   = Layout<_128>;
  using ALayout = TOY_ABLayout< 64, 16>;
  using BLayout = TOY_ABLayout< 16, 16>;
  using CLayout = TOY_CLayout_64xN<16>;

  TOY::ScaleOut accumulate_ = TOY::ScaleOut::One;
};

// a template the importer has no instantiation rule for
template <class a_type, int N>
struct MMA_Traits<TOY_UMMA<a_type, N>>
{
  using ValTypeD = float;
  using ValTypeA = a_type;
  using ValTypeB = a_type;
  using ValTypeC = float;
  using Shape_MNK = Shape<_64,Int<N>,_16>;
  using ThrID   = Layout<_1>;
  using ALayout = Layout<Shape<_1,Shape<_64,_16>>>;
  using BLayout = Layout<Shape<_1,Shape<Int<N>,_16>>>;
  using CLayout = Layout<Shape<_1,Shape<_64,Int<N>>>>;
};

} // end namespace cute
