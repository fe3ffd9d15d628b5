// tools/cute_dump/tmem_datapath.cu -- prints the TMEM layouts CuTe (CUTLASS 4.2) gives an MMA's accumulator:
// UMMA::tmem_frg_1sm / tmem_frg_2sm (Interleaved) and UMMA::tmem_frg_ws_1sm over one MMA tile ((M_MMA_SM, N), 1, 1)
// of float, and over two MMA tiles along N, one line a case: "@case <frg> <ctas> <ws> <rows a CTA> <N> <tiles along N>
// <layout>" (the layout maps ((row, column), 1, tile) to the TMEM address, lane << 16 | column).  tests/data/cute_tmem_datapath.json is its output, parsed
// by tools/cute_dump/tmem_datapath_json.py; tests/test_tmem_accumulator.py compares it with hardware/tmem_datapath.py.
// Host code only:
//
//   nvcc -std=c++17 -O0 -I$CUTLASS/include -o tmem_datapath tools/cute_dump/tmem_datapath.cu && ./tmem_datapath > t.txt
//   python tools/cute_dump/tmem_datapath_json.py t.txt tests/data/cute_tmem_datapath.json
#include <cstdio>
#include "cutlass/cutlass.h"
#include "cute/tensor.hpp"
#include "cute/atom/mma_traits_sm100.hpp"

using namespace cute;

template <class Frg, int Rows, int N, int TilesN = 1>
void dump(char const* frg, int ctas, int ws) {
  auto t = Frg::make(Shape<Shape<Int<Rows>, Int<N>>, _1, Int<TilesN>>{});
  std::printf("@case %s %d %d %d %d %d ", frg, ctas, ws, Rows, N, TilesN);
  print(layout(t));
  std::printf("\n");
}

template <int Rows, int N> using F1 = UMMA::tmem_frg_1sm<float, float>;
template <int Rows, int N> using F2 = UMMA::tmem_frg_2sm<float, float>;
template <int Rows, int N> using FW = UMMA::tmem_frg_ws_1sm<float, float>;

#define NS(FRG, NAME, CTAS, WS, ROWS) \
  dump<FRG<ROWS, 64>, ROWS, 64>(NAME, CTAS, WS); dump<FRG<ROWS, 128>, ROWS, 128>(NAME, CTAS, WS); \
  dump<FRG<ROWS, 256>, ROWS, 256>(NAME, CTAS, WS);

int main() {
  NS(F1, "tmem_frg_1sm", 1, 0, 64)      // M = 64, .cta_group::1
  NS(F1, "tmem_frg_1sm", 1, 0, 128)     // M = 128, .cta_group::1
  NS(F2, "tmem_frg_2sm", 2, 0, 64)      // M = 128, .cta_group::2: 64 rows a CTA
  NS(F2, "tmem_frg_2sm", 2, 0, 128)     // M = 256, .cta_group::2: 128 rows a CTA
  NS(FW, "tmem_frg_ws_1sm", 1, 1, 32)   // .ws M = 32
  NS(FW, "tmem_frg_ws_1sm", 1, 1, 64)   // .ws M = 64
  NS(FW, "tmem_frg_ws_1sm", 1, 1, 128)  // .ws M = 128
  // two MMAs along N: where CuTe puts the second one's D (Interleaved: M = 64 tiles in data paths first)
  dump<F1<64, 128>, 64, 128, 2>("tmem_frg_1sm", 1, 0);
  dump<F2<64, 128>, 64, 128, 2>("tmem_frg_2sm", 2, 0);
  dump<FW<32, 64>, 32, 64, 2>("tmem_frg_ws_1sm", 1, 1);
  dump<FW<64, 128>, 64, 128, 2>("tmem_frg_ws_1sm", 1, 1);
  return 0;
}
