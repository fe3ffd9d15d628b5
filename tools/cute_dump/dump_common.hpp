// tools/cute_dump/dump_common.hpp -- what the CuTe dump programs share: the "@key value" printers (a type's name, a
// CuTe object) and the TMA basis lines (rank, global dims, byte strides, box) of construct_tma_gbasis for a global
// tensor, a shared layout and the value map, as make_tma_copy derives them.  Host code only.  Included by the
// mixed-scale, lookup-table, sparse, sparse SM100, transpose, blockwise and shuffle dumps, each program's output
// unchanged by the move (recompiled and compared byte for byte); blockscaled_dump.hpp prints its own format.
#pragma once
#include <cstdio>
#include <cstring>
#include <cstdint>
#include "cute/tensor.hpp"

// "@what T": the template argument's name as the compiler spells it
template <class T> void tname(const char* what) {
  const char* p = __PRETTY_FUNCTION__;
  const char* s = strstr(p, "T = ");
  printf("@%s %.*s\n", what, s ? int(strlen(s+4)-1) : 0, s ? s+4 : "");
}

// "@what x": a CuTe object as cute::print prints it
template <class X_> void pl(const char* what, X_ const& x) { printf("@%s ", what); cute::print(x); printf("\n"); }

// "@what_tma_rank", "_global_dim", "_global_strides" (bytes), "_box": the TMA basis make_tma_copy<TmaT> derives;
// the global dims and strides read from `filled` (the global tensor itself, or as TmaT elements)
template <class TmaT, class GTensor, class FTensor, class SLayout, class VMap>
void tma_basis_lines_of(const char* what, GTensor g, FTensor filled, SLayout s, VMap v) {
  using namespace cute;
  auto tma_gbasis = cute::detail::construct_tma_gbasis<TmaT>(g, s, v);
  cute::array<uint64_t,5> gs = {1,1,1,1,1}; cute::array<uint64_t,5> gst = {0,0,0,0,0};
  cute::detail::fill_tma_gmem_shape_stride(filled, stride(tma_gbasis), gs, gst);
  constexpr int R = decltype(rank(tma_gbasis))::value;
  cute::array<uint32_t,5> box = {1,1,1,1,1};
  for_each(make_seq<R>{}, [&](auto i){ box[i] *= size<i>(tma_gbasis); });
  printf("@%s_tma_rank %d\n@%s_tma_global_dim", what, R, what); for (int i=0;i<R;++i) printf(" %llu", (unsigned long long)gs[i]);
  printf("\n@%s_tma_global_strides", what); for (int i=0;i<R;++i) printf(" %llu", (unsigned long long)(gst[i]*sizeof_bits_v<TmaT>/8));
  printf("\n@%s_tma_box", what); for (int i=0;i<R;++i) printf(" %u", box[i]);
  printf("\n");
}

// the TMA basis, dims and strides from the global tensor as it is
template <class TmaT, class GTensor, class SLayout, class VMap>
void tma_basis_lines(const char* what, GTensor g, SLayout s, VMap v) { tma_basis_lines_of<TmaT>(what, g, g, s, v); }

// the TMA basis, dims and strides from the global tensor recast to TmaT (a narrow or metadata operand moved as wider
// TMA elements: the sparse, sparse SM100 and shuffle dumps)
template <class TmaT, class GTensor, class SLayout, class VMap>
void tma_basis_lines_recast(const char* what, GTensor g, SLayout s, VMap v) {
  tma_basis_lines_of<TmaT>(what, g, cute::recast<TmaT>(g), s, v);
}
