// tools/gpu/capture_dot_product.cu -- what dp4a and dp2a.lo / dp2a.hi compute on the GPU, for a fixed set of
// operand words (every signedness combination), and whether ptxas accepts dp2a without .lo / .hi (built
// separately: see tools/gpu/README.md).  No CuTe code; raw observation written as JSON to stdout.
// Build:  nvcc -arch=sm_90 -O2 -o tools/gpu/build/capture_dot_product tools/gpu/capture_dot_product.cu
#include <cstdio>
#include <cstdint>

#define DP(op, a, b, c, d) asm volatile(op " %0, %1, %2, %3;" : "=r"(d) : "r"(a), "r"(b), "r"(c))

__global__ void kernel(const uint32_t* in, int n, int* out) {
  for (int i = 0; i < n; ++i) {
    uint32_t a = in[3 * i], b = in[3 * i + 1], c = in[3 * i + 2];
    int* o = out + 12 * i;
    DP("dp4a.s32.s32", a, b, c, o[0]);    DP("dp4a.s32.u32", a, b, c, o[1]);
    DP("dp4a.u32.s32", a, b, c, o[2]);    DP("dp4a.u32.u32", a, b, c, o[3]);
    DP("dp2a.lo.s32.s32", a, b, c, o[4]); DP("dp2a.lo.s32.u32", a, b, c, o[5]);
    DP("dp2a.lo.u32.s32", a, b, c, o[6]); DP("dp2a.lo.u32.u32", a, b, c, o[7]);
    DP("dp2a.hi.s32.s32", a, b, c, o[8]); DP("dp2a.hi.s32.u32", a, b, c, o[9]);
    DP("dp2a.hi.u32.s32", a, b, c, o[10]); DP("dp2a.hi.u32.u32", a, b, c, o[11]);
  }
}

int main() {
  const uint32_t words[][3] = {{0x04030201u, 0x281E140Au, 0u}, {0xFF80017Fu, 0x7F01FF80u, 5u},
                               {0x8000FFFFu, 0x80FF7F01u, 0xFFFFFFF0u}, {0x12345678u, 0x9ABCDEF0u, 1000u},
                               {0xFFFFFFFFu, 0xFFFFFFFFu, 0u}, {0x00010002u, 0x01020304u, 7u}};
  const int n = sizeof(words) / sizeof(words[0]);
  const char* ops[12] = {"dp4a.s32.s32", "dp4a.s32.u32", "dp4a.u32.s32", "dp4a.u32.u32", "dp2a.lo.s32.s32",
                         "dp2a.lo.s32.u32", "dp2a.lo.u32.s32", "dp2a.lo.u32.u32", "dp2a.hi.s32.s32",
                         "dp2a.hi.s32.u32", "dp2a.hi.u32.s32", "dp2a.hi.u32.u32"};
  uint32_t* d_in; int* d_out;
  cudaMalloc(&d_in, sizeof words); cudaMalloc(&d_out, 12 * n * sizeof(int));
  cudaMemcpy(d_in, words, sizeof words, cudaMemcpyHostToDevice);
  kernel<<<1, 1>>>(d_in, n, d_out);
  int out[12 * 6];
  cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
  printf("{\"cases\": [");
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 12; ++j)
      printf("%s\n  {\"instruction\": \"%s\", \"a\": %u, \"b\": %u, \"c\": %u, \"d\": %d}", (i || j) ? "," : "",
             ops[j], words[i][0], words[i][1], words[i][2], out[12 * i + j]);
  printf("\n]}\n");
  return 0;
}
