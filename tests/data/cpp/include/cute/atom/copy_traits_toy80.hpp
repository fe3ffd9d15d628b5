// Miniature copy traits for tests/test_importer.py (written for the tests, in CuTe's style).
#pragma once

#include <cute/arch/copy_toy.hpp>

namespace cute
{

template <>
struct Copy_Traits<TOY_U32x4_LDSM_N>
{
  // Logical thread id to thread idx (warp)
  using ThrID = Layout<_32>;

  // Map from (src-thr,src-val) to bit
  using SrcLayout = Layout<Shape < _32,_128>,
                           Stride<_128,  _1>>;
  // Map from (dst-thr,dst-val) to bit
  using DstLayout = Layout<Shape <_32,Shape <_32,   _4>>,
                           Stride<_32,Stride< _1,_1024>>>;

  // Reference map from (thr,val) to bit
  using RefLayout = DstLayout;
};

// the store is the load read backwards: members of another trait
template <>
struct Copy_Traits<TOY_U32x4_STSM_N>
{
  using ThrID     = Layout<_32>;
  using SrcLayout = typename Copy_Traits<TOY_U32x4_LDSM_N>::DstLayout;
  using DstLayout = typename Copy_Traits<TOY_U32x4_LDSM_N>::SrcLayout;
  using RefLayout = SrcLayout;
};

// written in 16-bit units and turned into bits with downcast; the reference layout through upcast
template <>
struct Copy_Traits<TOY_U32x1_MOVM_T>
{
  using ThrID     = Layout<_32>;
  using SrcLayout = decltype(downcast<16>(Layout<Shape<_32,_2>,Stride<_2,_1>>{}));
  using DstLayout = SrcLayout;
  using RefLayout = decltype(upcast<1>(DstLayout{}));
};

template <class S, class D>
struct Copy_Traits<TOY_CP_ASYNC_CACHEALWAYS<S,D>>
{
  // Logical thread id to thread idx (one-thread)
  using ThrID = Layout<_1>;

  // Map from (src-thr,src-val) to bit
  using SrcLayout = Layout<Shape<_1,Int<sizeof_bits<S>::value>>>;
  // Map from (dst-thr,dst-val) to bit
  using DstLayout = Layout<Shape<_1,Int<sizeof_bits<D>::value>>>;

  // Reference map from (thr,val) to bit
  using RefLayout = SrcLayout;

  // Predicate value: true = load, false = zfill
  bool pred = true;

  CUTE_HOST_DEVICE constexpr
  Copy_Traits<TOY_CP_ASYNC_CACHEALWAYS<S,D>>
  with(bool pred) const {
    return {pred};
  }
};

// 64-bit values over a (32 thread, 32 bit) layout: Copy_Atom<TOY_U64x1_SHFL, uint64_t> is refused by CuTe
template <>
struct Copy_Traits<TOY_U64x1_SHFL>
{
  using ThrID     = Layout<_32>;
  using SrcLayout = Layout<Shape <_32,_32>,
                           Stride<_32, _1>>;
  using DstLayout = SrcLayout;
  using RefLayout = SrcLayout;
};

// TMA-like traits carry more template arguments than the Op: not an atom of the spec format
template <class NumBitsPerTMA>
struct Copy_Traits<TOY_TMA_LOAD, NumBitsPerTMA>
{
  using ThrID = Layout<_1>;
};

} // end namespace cute
