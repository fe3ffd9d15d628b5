// CUTLASS 3 style configuration for import-kernel's tests, written in the manner of
// test/unit/gemm/device/default_gemm_configuration.hpp (Sm80, half x half -> float): the operand recipes are
// struct template specializations chosen by the operand's layout, B's inherit A's, and the configuration is a
// partial specialization over the layouts of A, B and C. The collective tiles each SmemLayoutAtom to the CTA
// tile's (MN, K).
#pragma once
namespace config {
using namespace cute;

template <typename Element, typename Layout, int Alignment, int SizeK>
struct OperandRecipeA;
template <typename Element, typename Layout, int Alignment, int SizeK>
struct OperandRecipeB;

// A, K-major (row-major), a 32-element K block: a 64-byte swizzle
template <>
struct OperandRecipeA<half_t, layout::RowMajor, 8, 32>
{
  using SmemLayoutAtom = decltype(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>, Stride<_32,_1>>{}));
  using SmemCopyAtom = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
  using GmemTiledCopy = decltype(make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>, half_t>{},
                                                 Layout<Shape<_32,_4>, Stride<_4,_1>>{},
                                                 Layout<Shape<_1,_8>>{}));
};

// A, M-major (column-major), any K block: a 128-byte swizzle along M, transposing loads
template <int SizeK>
struct OperandRecipeA<half_t, layout::ColumnMajor, 8, SizeK>
{
  using SmemLayoutAtom = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_64,_8>, Stride<_1,_64>>{}));
  using SmemCopyAtom = Copy_Atom<SM75_U16x8_LDSM_T, half_t>;
};

// B's recipes are A's with the roles of the layouts exchanged
template <int Alignment, int SizeK>
struct OperandRecipeB<half_t, layout::ColumnMajor, Alignment, SizeK>
  : OperandRecipeA<half_t, layout::RowMajor, Alignment, SizeK> {};
template <int Alignment, int SizeK>
struct OperandRecipeB<half_t, layout::RowMajor, Alignment, SizeK>
  : OperandRecipeA<half_t, layout::ColumnMajor, Alignment, SizeK> {};

template <class OpClass, class Arch, class ElementA, class LayoutA, class ElementB, class LayoutB,
          class ElementC, class LayoutC, class ElementAccumulator>
struct GemmConfiguration;

template <typename LayoutA, typename LayoutB, typename LayoutC>
struct GemmConfiguration<arch::OpClassTensorOp, arch::Sm80, half_t, LayoutA, half_t, LayoutB, float, LayoutC, float>
{
  using TileShape = Shape<_128, _128, _32>;
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>,
                            Layout<Shape<_2,_2,_1>>,      // 2 x 2 warps
                            Tile<_32,_32,_16>>;
  static constexpr int kAlignmentA = 8;
  using RecipeA = OperandRecipeA<half_t, LayoutA, kAlignmentA, 32>;
  using SmemLayoutAtomA = typename RecipeA::SmemLayoutAtom;
  using SmemCopyAtomA = typename RecipeA::SmemCopyAtom;
  static constexpr int kAlignmentB = 8;
  using RecipeB = OperandRecipeB<half_t, LayoutB, kAlignmentB, 32>;
  using SmemLayoutAtomB = typename RecipeB::SmemLayoutAtom;
  using SmemCopyAtomB = typename RecipeB::SmemCopyAtom;
};
} // namespace config
