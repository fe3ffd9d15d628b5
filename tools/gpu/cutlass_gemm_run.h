// What the programs that run a whole CUTLASS GEMM share (blockwise_scale_overrun.cu, shuffled_s8_convert.cu): the
// adapter made ready for its arguments, then run again and again, every D compared with a host reference.
#pragma once

#include <cstdio>
#include <vector>

#include "cutlass/cutlass.h"

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    std::printf("CUDA error %s at %s:%d\n", cudaGetErrorString(e_), __FILE__, __LINE__); return 2; } } while (0)

constexpr int kMismatchesShown = 8;   // mismatches printed, the first ones met

struct Tally {
  long wrong_runs = 0;
  long wrong_elements = 0;
};

// can_implement, a workspace, initialize; 0, or 2 with a line saying which step failed
template <class Gemm>
int prepare(Gemm& gemm, typename Gemm::Arguments const& args) {
  if (gemm.can_implement(args) != cutlass::Status::kSuccess) { std::printf("can_implement refused\n"); return 2; }
  void* workspace = nullptr;
  CHECK(cudaMalloc(&workspace, Gemm::get_workspace_size(args) + 1));
  if (gemm.initialize(args, workspace) != cutlass::Status::kSuccess) { std::printf("initialize failed\n"); return 2; }
  return 0;
}

// `rounds` runs into `d_d` (zeroed before each), every D (column-major, `m` rows) compared with `want`; the first
// mismatches printed with `column_note(j)` after them, and `mismatch(i, j)` called for each; 0, or 2 on a CUDA error
template <class Gemm, class ColumnNote, class OnMismatch>
int run_and_compare(Gemm& gemm, float* d_d, std::vector<float> const& want, int m, int rounds, Tally& tally,
                    ColumnNote&& column_note, OnMismatch&& mismatch) {
  std::vector<float> got(want.size());
  long shown = 0;
  for (int r = 0; r < rounds; ++r) {
    CHECK(cudaMemset(d_d, 0, want.size() * sizeof(float)));
    if (gemm.run() != cutlass::Status::kSuccess) { std::printf("run failed\n"); return 2; }
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got.data(), d_d, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    long wrong = 0;
    for (size_t at = 0; at < got.size(); ++at) {
      if (got[at] == want[at]) continue;
      size_t const i = at % m, j = at / m;
      ++wrong;
      mismatch(i, j);
      if (shown < kMismatchesShown) {
        std::printf("  round %d: D(%zu, %zu) = %g, want %g%s\n", r, i, j, got[at], want[at], column_note(j).c_str());
        ++shown;
      }
    }
    tally.wrong_elements += wrong;
    tally.wrong_runs += wrong > 0;
  }
  return 0;
}
