/***************************************************************************************************
 * Miniature MMA traits for tests/test_importer.py (written for the tests, in CuTe's style).
 * A comment with C++ in it must not confuse the scanner: struct MMA_Traits<X> { using A = B; };
 **************************************************************************************************/
#pragma once

#include <cute/arch/mma_toy.hpp>
#include <cute/atom/mma_traits.hpp>

namespace cute
{

namespace {

// (T32,V1) -> (M8,K4); used here and by mma_traits_toy80.hpp
using TOY_8x4      = Layout<Shape <Shape < _4,_8>,_1>,
                            Stride<Stride< _8,_1>,_0>>;
// (T32,V4) -> (M16,N8)
using TOY_16x8_Row = Layout<Shape <Shape < _4,_8>,Shape < _2,_2>>,
                            Stride<Stride<_32,_1>,Stride<_16,_8>>>;

}

template <>
struct MMA_Traits<TOY_8x8x4_F64F64F64F64_TN>
{
  using ValTypeD = double;
  using ValTypeA = double;
  using ValTypeB = double;
  using ValTypeC = double;

  using Shape_MNK = Shape<Int<8>,Int<8>,Int<4>>;
  using ThrID   = Layout<Int<32>>;
  using ALayout = TOY_8x4;
  using BLayout = TOY_8x4;
  // a line continuation inside a declaration
  using CLayout = Layout<Shape <Shape < _4,_8>,_2>, \
                         Stride<Stride<_16,_1>,_8>>;
};

} // namespace cute
