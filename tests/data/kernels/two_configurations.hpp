#include <cute/tensor.hpp>
using namespace cute;
struct ConfigOne {
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
  using SmemLayoutAtomA = decltype(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}));
  using SmemLayoutA = decltype(tile_to_shape(SmemLayoutAtomA{}, Shape<_128,_64>{}));
  using SmemLayoutB = decltype(tile_to_shape(SmemLayoutAtomA{}, Shape<_128,_64>{}));
  using SmemCopyAtomA = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
  using SmemCopyAtomB = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
};
struct ConfigTwo {
  using TiledMma = TiledMMA<MMA_Atom<SM80_16x8x16_F32F16F16F32_TN>, Layout<Shape<_2,_2,_1>>, Tile<_32,_32,_16>>;
  using SmemLayoutA = decltype(tile_to_shape(composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}), Shape<_128,_64>{}));
  using SmemLayoutB = decltype(tile_to_shape(composition(Swizzle<2,3,3>{}, Layout<Shape<_8,_32>,Stride<_32,_1>>{}), Shape<_128,_32>{}));
  using SmemCopyAtomA = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
  using SmemCopyAtomB = Copy_Atom<SM75_U32x4_LDSM_N, half_t>;
};
