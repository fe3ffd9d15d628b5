// made by: the verifier's authors, as test data of `import-kernel --compile` (tests/test_elementwise_copy_import.py).
// Two copy kernels in float over tensors divided into 128x64 tiles (the shape of CuTe's tutorial tiled_copy.cu):
// - tiled_kernel copies each thread's partition of a TiledCopy through registers;
// - raked_kernel partitions S's and D's tiles with local_partition by a 32x8 thread layout, through registers,
//   and is also given the same thread layout row-major (thr_t), which it does not use;
// - predicated_kernel takes local_tiles of the tensors undivided and copies with copy_if, its predicate the tile's
//   coordinates inside the tensor (as CuTe's tiled_copy_if.cu), after a copy inside `#if 0`.
// The knobs the tests turn are the lines marked KNOB.
#include <cute/tensor.hpp>

using namespace cute;

template <class TensorS, class TensorD, class Tiled>
__global__ void tiled_kernel(TensorS S, TensorD D, Tiled tiled_copy)
{
  Tensor tile_S = S(make_coord(_, _), blockIdx.x, blockIdx.y);                                  // (128,64)
  Tensor tile_D = D(make_coord(_, _), blockIdx.x, blockIdx.y);                                  // KNOB d_tile
  ThrCopy thr_copy = tiled_copy.get_thread_slice(threadIdx.x);
  Tensor thr_tile_S = thr_copy.partition_S(tile_S);                                             // (CPY,CPY_M,CPY_N)
  Tensor thr_tile_D = thr_copy.partition_D(tile_D);                                             // KNOB d_part
  Tensor fragment = make_fragment_like(thr_tile_D);
  copy(tiled_copy, thr_tile_S, fragment);
  copy(tiled_copy, fragment, thr_tile_D);
}

template <class TensorS, class TensorD, class Thr, class ThrT>
__global__ void raked_kernel(TensorS S, TensorD D, Thr thr, ThrT thr_t)
{
  Tensor tile_S = S(make_coord(_, _), blockIdx.x, blockIdx.y);
  Tensor tile_D = D(make_coord(_, _), blockIdx.x, blockIdx.y);
  Tensor thr_tile_S = local_partition(tile_S, thr, threadIdx.x);                                // (4,8)
  Tensor thr_tile_D = local_partition(tile_D, thr, threadIdx.x);                                // KNOB raked_d
  Tensor fragment = make_tensor_like(thr_tile_S);
  copy(thr_tile_S, fragment);
  copy(fragment, thr_tile_D);
}

template <class TensorS, class TensorD, class Block, class Thr>
__global__ void predicated_kernel(TensorS S, TensorD D, Block block, Thr thr)
{
  auto shape_S = shape(S);
  Tensor C = make_identity_tensor(shape_S);
  Tensor P = cute::lazy::transform(C, [&](auto c) { return elem_less(c, shape_S); });
  auto block_coord = make_coord(blockIdx.x, blockIdx.y);
  Tensor tile_S = local_tile(S, block, block_coord);
  Tensor tile_D = local_tile(D, block, block_coord);
  Tensor tile_P = local_tile(P, block, block_coord);
  Tensor thr_tile_S = local_partition(tile_S, thr, threadIdx.x);
  Tensor thr_tile_D = local_partition(tile_D, thr, threadIdx.x);
  Tensor thr_tile_P = local_partition(tile_P, thr, threadIdx.x);
#if 0
  copy(thr_tile_D, thr_tile_S);
#endif
  copy_if(thr_tile_P, thr_tile_S, thr_tile_D);
}

void launch(float const* s, float* d, int m, int n)
{
  auto shape = make_shape(m, n);
  Tensor tensor_S = make_tensor(make_gmem_ptr(s), make_layout(shape));
  Tensor tensor_D = make_tensor(make_gmem_ptr(d), make_layout(shape));
  auto block = make_shape(Int<128>{}, Int<64>{});
  Tensor tiled_S = tiled_divide(tensor_S, block);                                               // ((M,N),m',n')
  Tensor tiled_D = tiled_divide(tensor_D, block);
  TiledCopy tiled_copy = make_tiled_copy(Copy_Atom<UniversalCopy<uint128_t>, float>{},
                                         Layout<Shape<_32, _8>>{}, Layout<Shape<_4, _1>>{});
  dim3 grid(size<1>(tiled_D), size<2>(tiled_D));
  tiled_kernel<<<grid, 256>>>(tiled_S, tiled_D, tiled_copy);
  auto thr = make_layout(make_shape(Int<32>{}, Int<8>{}));
  auto thr_t = make_layout(make_shape(Int<32>{}, Int<8>{}), LayoutRight{});
  raked_kernel<<<grid, 256>>>(tiled_S, tiled_D, thr, thr_t);
  predicated_kernel<<<grid, 256>>>(tensor_S, tensor_D, block, thr);
}
