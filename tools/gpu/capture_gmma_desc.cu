// tools/gpu/capture_gmma_desc.cu -- which shared-memory byte wgmma.mma_async reads for each A(m,k) / B(n,k) of a
// matrix descriptor, captured on an NVIDIA Hopper GPU (written for the H200).  No CuTe/CUTLASS code or layout is
// used: the descriptors are built here from their bit fields, and what comes back is raw observation.
//
// Build:  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -cudart static -std=c++17 \
//              -o tools/gpu/build/capture_gmma_desc tools/gpu/capture_gmma_desc.cu
// Run:    tools/gpu/build/capture_gmma_desc OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/gmma_desc.json (see tools/gpu/README.md, section "gmma_desc.json").
//
// Method.  A 1024-byte aligned shared window of 32 KB holds, in element e (byte e*E), a digit of e + 1 in base
// BASE (one pass per digit), encoded in the operand's type (f16, tf32, e4m3 or s8: integers exact in it).
// - Probing A (the SS form): B is the identity B(k,n) = [k == n] in the K-major, no-swizzle layout the earlier
//   capture validated (core matrices of 8 rows x 16 bytes, LBO 128, SBO 256), so D(m,n) = A(m,n): the value of
//   the element the descriptor under test makes the tensor core read as A(m,k=n).
// - Probing B (the RS form): A is the identity A(m,k) = [m == k] in registers (the PTX ISA fragment, validated
//   by the earlier capture), so D(k,n) = B(k,n).
// D is read back through the accumulator fragment (validated too).  The digits of each D value give e + 1 of
// the element read, hence its byte offset in the window (the element's first byte).
#include <cuda_fp16.h>
#include <cmath>
#include "capture_common.h"

constexpr int WIN_BYTES = 32 * 1024;
constexpr int IDENT_BYTES = 2048;

enum Fam { F16 = 0, TF32 = 1, E4M3 = 2, S8 = 3 };
static const char* FAM_NAME[] = {"f16", "tf32", "e4m3", "s8"};
static const int FAM_BYTES[] = {2, 4, 1, 1};
static const int FAM_BASE[] = {2048, 2048, 16, 128};
__host__ __device__ constexpr unsigned fam_one(int fam) {   // the bit pattern of 1 in each type
  return fam == F16 ? 0x3c00u : fam == TF32 ? 0x3f800000u : fam == E4M3 ? 0x38u : 0x01u;
}
static const char* MODE_NAME[] = {"none", "128B", "64B", "32B"};

static unsigned encode_value(int fam, int v) {   // a small non-negative integer as the type's bits
  switch (fam) {
    case F16: return __half_as_ushort(__float2half_rn((float)v));
    case TF32: { float f = (float)v; unsigned u; memcpy(&u, &f, 4); return u; }
    case E4M3: {
      if (v == 0) return 0;
      int e = 0;
      while ((2 << e) <= v) ++e;
      return (unsigned)(((e + 7) << 3) | (((v - (1 << e)) * 8) >> e));
    }
    default: return (unsigned)v;
  }
}

// PTX ISA matrix descriptor: bits 0-13 start >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4, 49-51 base offset,
// 62-63 swizzle mode (0 none, 1 128B, 2 64B, 3 32B)
__host__ __device__ inline uint64_t make_desc(uint32_t start, int lbo, int sbo, int base, int mode) {
  uint64_t d = (uint64_t)((start & 0x3FFFF) >> 4);
  d |= (uint64_t)((lbo >> 4) & 0x3FFF) << 16;
  d |= (uint64_t)((sbo >> 4) & 0x3FFF) << 32;
  d |= (uint64_t)(base & 7) << 49;
  d |= (uint64_t)(mode & 3) << 62;
  return d;
}

// ------------------------------------------------------------------------------------------
// the instructions (immediates must be constants: one struct per form)
// ------------------------------------------------------------------------------------------
#define D4 "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
#define D8 D4, "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
#define D12 D8, "+f"(d[8]), "+f"(d[9]), "+f"(d[10]), "+f"(d[11])
#define D16 D12, "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15])
#define I4 "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
#define I8 I4, "+r"(d[4]), "+r"(d[5]), "+r"(d[6]), "+r"(d[7])
#define I12 I8, "+r"(d[8]), "+r"(d[9]), "+r"(d[10]), "+r"(d[11])
#define I16 I12, "+r"(d[12]), "+r"(d[13]), "+r"(d[14]), "+r"(d[15])
#define AREGS "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3])

#define FORM(NAME, FAM_, PROBE_, N_, K_, TRANS_, INT_)                                           \
  struct NAME {                                                                                  \
    static constexpr int FAM = FAM_, N = N_, K = K_, TRANS = TRANS_;                             \
    static constexpr char PROBE = PROBE_;                                                        \
    static constexpr bool INT = INT_;                                                            \
    static constexpr int ND = N_ / 2;                                                            \
    using D_T = std::conditional<INT_, uint32_t, float>::type;                                   \
    static constexpr const char* NAME_STR = #NAME;                                               \
    __device__ static void issue(const uint32_t (&a)[4], uint64_t da, uint64_t db, D_T (&d)[ND]);\
  };

// probing A: SS forms, B = identity (N >= K)
FORM(SsF16T0, F16, 'A', 16, 16, 0, false)
FORM(SsF16T1, F16, 'A', 16, 16, 1, false)
FORM(SsTf32, TF32, 'A', 8, 8, 0, false)
FORM(SsE4m3, E4M3, 'A', 32, 32, 0, false)
FORM(SsS8, S8, 'A', 32, 32, 0, true)
// probing B: RS forms, A = identity
FORM(RsF16N8T0, F16, 'B', 8, 16, 0, false)
FORM(RsF16N8T1, F16, 'B', 8, 16, 1, false)
FORM(RsF16N16T0, F16, 'B', 16, 16, 0, false)
FORM(RsF16N16T1, F16, 'B', 16, 16, 1, false)
FORM(RsF16N24T0, F16, 'B', 24, 16, 0, false)
FORM(RsF16N24T1, F16, 'B', 24, 16, 1, false)
FORM(RsF16N32T0, F16, 'B', 32, 16, 0, false)
FORM(RsF16N32T1, F16, 'B', 32, 16, 1, false)
FORM(RsTf32N8, TF32, 'B', 8, 8, 0, false)
FORM(RsTf32N24, TF32, 'B', 24, 8, 0, false)
FORM(RsE4m3N8, E4M3, 'B', 8, 32, 0, false)
FORM(RsE4m3N24, E4M3, 'B', 24, 32, 0, false)
FORM(RsS8N8, S8, 'B', 8, 32, 0, true)
FORM(RsS8N24, S8, 'B', 24, 32, 0, true)

// written out, as the operand numbers differ with the form
__device__ void SsF16T0::issue(const uint32_t (&)[4], uint64_t da, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, 0, 0;\n}\n"
               : D8 : "l"(da), "l"(db), "r"(1));
}
__device__ void SsF16T1::issue(const uint32_t (&)[4], uint64_t da, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %10, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, %8, %9, p, 1, 1, 1, 0;\n}\n"
               : D8 : "l"(da), "l"(db), "r"(1));
}
__device__ void SsTf32::issue(const uint32_t (&)[4], uint64_t da, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, %4, %5, p, 1, 1;\n}\n"
               : D4 : "l"(da), "l"(db), "r"(1));
}
__device__ void SsE4m3::issue(const uint32_t (&)[4], uint64_t da, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k32.f32.e4m3.e4m3 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, "
               "%16, %17, p, 1, 1;\n}\n"
               : D16 : "l"(da), "l"(db), "r"(1));
}
__device__ void SsS8::issue(const uint32_t (&)[4], uint64_t da, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %18, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k32.s32.s8.s8 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, "
               "%16, %17, p;\n}\n"
               : I16 : "l"(da), "l"(db), "r"(1));
}
__device__ void RsF16N8T0::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 0;\n}\n"
               : D4 : AREGS, "l"(db), "r"(1));
}
__device__ void RsF16N8T1::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1, 1;\n}\n"
               : D4 : AREGS, "l"(db), "r"(1));
}
__device__ void RsF16N16T0::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, p, 1, 1, 0;\n}\n"
               : D8 : AREGS, "l"(db), "r"(1));
}
__device__ void RsF16N16T1::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7}, {%8,%9,%10,%11}, %12, p, 1, 1, 1;\n}\n"
               : D8 : AREGS, "l"(db), "r"(1));
}
__device__ void RsF16N24T0::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %17, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, "
               "{%12,%13,%14,%15}, %16, p, 1, 1, 0;\n}\n"
               : D12 : AREGS, "l"(db), "r"(1));
}
__device__ void RsF16N24T1::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %17, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n24k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, "
               "{%12,%13,%14,%15}, %16, p, 1, 1, 1;\n}\n"
               : D12 : AREGS, "l"(db), "r"(1));
}
__device__ void RsF16N32T0::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, "
               "{%16,%17,%18,%19}, %20, p, 1, 1, 0;\n}\n"
               : D16 : AREGS, "l"(db), "r"(1));
}
__device__ void RsF16N32T1::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n32k16.f32.f16.f16 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11,%12,%13,%14,%15}, "
               "{%16,%17,%18,%19}, %20, p, 1, 1, 1;\n}\n"
               : D16 : AREGS, "l"(db), "r"(1));
}
__device__ void RsTf32N8::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1;\n}\n"
               : D4 : AREGS, "l"(db), "r"(1));
}
__device__ void RsTf32N24::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %17, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n24k8.f32.tf32.tf32 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, "
               "{%12,%13,%14,%15}, %16, p, 1, 1;\n}\n"
               : D12 : AREGS, "l"(db), "r"(1));
}
__device__ void RsE4m3N8::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p, 1, 1;\n}\n"
               : D4 : AREGS, "l"(db), "r"(1));
}
__device__ void RsE4m3N24::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %17, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n24k32.f32.e4m3.e4m3 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, "
               "{%12,%13,%14,%15}, %16, p, 1, 1;\n}\n"
               : D12 : AREGS, "l"(db), "r"(1));
}
__device__ void RsS8N8::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0,%1,%2,%3}, {%4,%5,%6,%7}, %8, p;\n}\n"
               : I4 : AREGS, "l"(db), "r"(1));
}
__device__ void RsS8N24::issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[ND]) {
  asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %17, 0;\n"
               "wgmma.mma_async.sync.aligned.m64n24k32.s32.s8.s8 {%0,%1,%2,%3,%4,%5,%6,%7,%8,%9,%10,%11}, "
               "{%12,%13,%14,%15}, %16, p;\n}\n"
               : I12 : AREGS, "l"(db), "r"(1));
}

// ------------------------------------------------------------------------------------------
// the kernel: window image in, accumulators out
// ------------------------------------------------------------------------------------------
struct Desc { int mode, lbo, sbo, base, start_off; };

// RS identity A: element i of thread T holds A(m,k) per the PTX ISA fragment; 1 where m == k
__device__ inline void identity_a(int fam, int T, uint32_t (&a)[4]) {
  const int w = T / 32, l = T % 32, g = l / 4, t = l % 4;
  const int bits = 8 * (fam == F16 ? 2 : fam == TF32 ? 4 : 1), per = 32 / bits, n = 4 * per;
  for (int r = 0; r < 4; ++r) a[r] = 0;
  for (int i = 0; i < n; ++i) {
    int m, k;
    if (fam == F16) { m = 16 * w + g + 8 * ((i / 2) % 2); k = 2 * t + i % 2 + 8 * (i / 4); }
    else if (fam == TF32) { m = 16 * w + g + 8 * (i % 2); k = t + 4 * (i / 2); }
    else { m = 16 * w + g + 8 * ((i / 4) % 2); k = 4 * t + i % 4 + 16 * (i / 8); }
    if (m == k) a[i / per] |= fam_one(fam) << ((i % per) * bits);
  }
}

template <class V>
__global__ void __launch_bounds__(128, 1) desc_kernel(const uint32_t* img, Desc dsc, float* dout, unsigned* info) {
  __shared__ __align__(1024) uint32_t win[WIN_BYTES / 4];
  __shared__ __align__(1024) uint32_t ident[IDENT_BYTES / 4];
  const int T = threadIdx.x;
  for (int i = T; i < WIN_BYTES / 4; i += 128) win[i] = img[i];
  for (int i = T; i < IDENT_BYTES / 4; i += 128) ident[i] = 0;
  __syncthreads();
  const int E = V::FAM == F16 ? 2 : V::FAM == TF32 ? 4 : 1;
  if (V::PROBE == 'A' && T < V::K) {   // B(k,n) = [k == n], K-major, no swizzle, LBO 128, SBO 256
    const int n = T, k = T, kb = k * E;
    const int off = (n / 8) * 256 + (kb / 16) * 128 + (n % 8) * 16 + kb % 16;
    const unsigned one = fam_one(V::FAM);
    if (E == 4) ident[off / 4] = one;
    else if (E == 2) ident[off / 4] |= one << ((off & 2) * 8);
    else ident[off / 4] |= one << ((off & 3) * 8);
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  const uint32_t waddr = (uint32_t)__cvta_generic_to_shared(win);
  const uint64_t dtest = make_desc(waddr + dsc.start_off, dsc.lbo, dsc.sbo, dsc.base, dsc.mode);
  const uint64_t dident = make_desc((uint32_t)__cvta_generic_to_shared(ident), 128, 256, 0, 0);
  uint32_t a[4] = {0, 0, 0, 0};
  if (V::PROBE == 'B') identity_a(V::FAM, T, a);
  typename V::D_T d[V::ND];
  for (int j = 0; j < V::ND; ++j) d[j] = 0;
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  if (V::PROBE == 'A') V::issue(a, dtest, dident, d);
  else V::issue(a, 0, dtest, d);
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
  for (int j = 0; j < V::ND; ++j) {
    if constexpr (V::INT) dout[T * V::ND + j] = (float)(int)d[j];
    else dout[T * V::ND + j] = d[j];
  }
  if (T == 0) info[0] = waddr;
}

// ------------------------------------------------------------------------------------------
// host: one probe = one descriptor under test, all passes, decoded into the byte each position reads
// ------------------------------------------------------------------------------------------
template <class V>
static std::string probe_json(const char* major, const Desc& dsc) {
  const int fam = V::FAM, E = FAM_BYTES[fam], base = FAM_BASE[fam];
  const int rows = V::PROBE == 'A' ? 64 : V::N;          // M for A, N for B
  const int elems = WIN_BYTES / E;
  int passes = 1;
  for (long long reach = base; reach < elems + 1; reach *= base) ++passes;
  std::string o = "{\"form\":" + jstr(V::NAME_STR) + ",\"operand\":" + jstr(std::string(1, V::PROBE)) +
                  ",\"type\":" + jstr(FAM_NAME[fam]) + ",\"elem_bytes\":" + std::to_string(E) + ",\"shape\":[64," +
                  std::to_string(V::N) + "," + std::to_string(V::K) + "],\"major\":" + jstr(major) +
                  ",\"trans\":" + std::to_string(V::TRANS) + ",\"mode\":" + jstr(MODE_NAME[dsc.mode]) +
                  ",\"lbo\":" + std::to_string(dsc.lbo) + ",\"sbo\":" + std::to_string(dsc.sbo) +
                  ",\"base_offset\":" + std::to_string(dsc.base) + ",\"start_offset\":" + std::to_string(dsc.start_off) +
                  ",\"passes\":" + std::to_string(passes) + ",\"value_base\":" + std::to_string(base);
  if (g_fake) return o + ",\"window_addr\":0,\"descriptor\":\"0x0\",\"reads\":[]}";
  uint32_t* d_img = nullptr; float* d_out = nullptr; unsigned* d_info = nullptr;
  CK(cudaMalloc(&d_img, WIN_BYTES));
  CK(cudaMalloc(&d_out, 128 * V::ND * sizeof(float)));
  CK(cudaMalloc(&d_info, sizeof(unsigned)));
  std::vector<uint8_t> img(WIN_BYTES);
  std::vector<long long> code(rows * V::K, 0);
  std::vector<int> bad(rows * V::K, 0);
  std::vector<float> h(128 * V::ND);
  unsigned waddr = 0;
  long long scale = 1;
  for (int p = 0; p < passes; ++p, scale *= base) {
    for (int e = 0; e < elems; ++e) {
      const unsigned bits = encode_value(fam, (int)(((long long)(e + 1) / scale) % base));
      for (int b = 0; b < E; ++b) img[e * E + b] = (uint8_t)(bits >> (8 * b));
    }
    CK(cudaMemcpy(d_img, img.data(), WIN_BYTES, cudaMemcpyHostToDevice));
    desc_kernel<V><<<1, 128>>>(d_img, dsc, d_out, d_info);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), d_out, h.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(&waddr, d_info, sizeof waddr, cudaMemcpyDeviceToHost));
    for (int T = 0; T < 128; ++T) {
      const int w = T / 32, l = T % 32, g = l / 4, t = l % 4;
      for (int j = 0; j < V::ND; ++j) {   // D(m, n) of the accumulator fragment
        const int m = 16 * w + g + 8 * ((j / 2) % 2), n = 8 * (j / 4) + 2 * t + j % 2;
        int r, k;
        if (V::PROBE == 'A') { r = m; k = n; } else { r = n; k = m; }
        if (k >= V::K || r >= rows) continue;
        const float v = h[T * V::ND + j];
        if (!(v >= 0.f) || v >= (float)base || v != std::floor(v)) bad[r + rows * k] = 1;
        else code[r + rows * k] += (long long)v * scale;
      }
    }
  }
  std::string reads = "[";
  for (int k = 0; k < V::K; ++k)
    for (int r = 0; r < rows; ++r) {
      const long long c = code[r + rows * k];
      const long long off = bad[r + rows * k] || c < 1 ? -1 : (c - 1) * E;
      reads += (reads.size() > 1 ? "," : "") + std::string("[") + std::to_string(r) + "," + std::to_string(k) + "," +
               std::to_string(off) + "]";
    }
  reads += "]";
  cudaFree(d_img); cudaFree(d_out); cudaFree(d_info);
  return o + ",\"window_addr\":" + std::to_string(waddr) + ",\"descriptor\":" +
         jstr(hex64(make_desc(waddr + dsc.start_off, dsc.lbo, dsc.sbo, dsc.base, dsc.mode))) + ",\"reads\":" + reads + "}";
}

struct Probe {
  std::string id;
  std::function<std::string()> fn;
};

template <class V>
static Probe probe(const char* major, Desc d) {
  char id[160];
  snprintf(id, sizeof id, "%s_%s_%s_lbo%d_sbo%d_base%d_start%d", V::NAME_STR, major, MODE_NAME[d.mode], d.lbo, d.sbo,
           d.base, d.start_off);
  return {id, [major, d] { return "{\"id\":" + jstr(std::string()) + ",\"probe\":" + probe_json<V>(major, d) + "}"; }};
}

// a job is a group of probes (one kernel form): {"id":..., "probes":[...]}
static std::string job_group(const std::string& id, const std::vector<Probe>& ps) {
  std::string o = "{\"id\":" + jstr(id) + ",\"probes\":[";
  for (size_t i = 0; i < ps.size(); ++i) {
    std::string body = ps[i].fn();
    body = "{\"id\":" + jstr(ps[i].id) + body.substr(body.find(",\"probe\""));
    o += (i ? ",\n" : "\n") + body;
  }
  return o + "]}";
}

// K-major layouts: no swizzle with several LBO/SBO choices; each swizzle with its canonical SBO (8 rows of the span),
// another SBO, the start advanced by 32 bytes along K inside the atom, and starts off the repeating pattern with
// base offsets 0 and the PTX ISA's formula
template <class V>
static std::vector<Probe> kmajor_probes() {
  std::vector<Probe> ps;
  for (auto lbo_sbo : {std::pair<int, int>{128, 256}, {256, 128}, {512, 1024}})
    ps.push_back(probe<V>("K", {0, lbo_sbo.first, lbo_sbo.second, 0, 0}));
  for (int mode : {1, 2, 3}) {
    const int span = 128 >> (mode - 1);          // 128, 64, 32 bytes
    ps.push_back(probe<V>("K", {mode, 16, 8 * span, 0, 0}));
    ps.push_back(probe<V>("K", {mode, 16, 16 * span, 0, 0}));
    if (span > 32) ps.push_back(probe<V>("K", {mode, 16, 8 * span, 0, 32}));
    for (int start : {128, 256}) {
      const int pattern = 8 * span;             // the swizzle repeats every 8 rows of the span
      if (start % pattern == 0) continue;
      ps.push_back(probe<V>("K", {mode, 16, 8 * span, 0, start}));
      ps.push_back(probe<V>("K", {mode, 16, 8 * span, (start >> 7) & 7, start}));
    }
  }
  return ps;
}

// MN-major layouts (16-bit types only): every mode with LBO and SBO both ways round, so the table says which of
// them is the stride along M/N and which along K
template <class V>
static std::vector<Probe> mnmajor_probes() {
  std::vector<Probe> ps;
  for (auto lbo_sbo : {std::pair<int, int>{128, 256}, {256, 128}, {1024, 128}, {128, 1024}})
    ps.push_back(probe<V>("MN", {0, lbo_sbo.first, lbo_sbo.second, 0, 0}));
  for (int mode : {1, 2, 3}) {
    const int span = 128 >> (mode - 1), atom = 8 * span;
    ps.push_back(probe<V>("MN", {mode, 2 * atom, atom, 0, 0}));
    ps.push_back(probe<V>("MN", {mode, atom, 2 * atom, 0, 0}));
    ps.push_back(probe<V>("MN", {mode, 4 * atom, atom, 0, 0}));
  }
  return ps;
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_gmma_desc";
  c.meta = [] { return meta_json("tools/gpu/capture_gmma_desc.cu", ",\"target\":\"sm_90a\""); };
#define GROUP(V, PROBES) { auto ps = PROBES<V>(); c.jobs.push_back({V::NAME_STR + std::string(#PROBES).substr(0, 2), "gmma_desc", \
                             [ps] { return job_group(V::NAME_STR, ps); }}); }
  GROUP(SsF16T0, kmajor_probes)
  GROUP(SsF16T1, mnmajor_probes)
  GROUP(SsTf32, kmajor_probes)
  GROUP(SsE4m3, kmajor_probes)
  GROUP(SsS8, kmajor_probes)
  GROUP(RsF16N8T0, kmajor_probes)
  GROUP(RsF16N8T1, mnmajor_probes)
  GROUP(RsF16N16T0, kmajor_probes)
  GROUP(RsF16N16T1, mnmajor_probes)
  GROUP(RsF16N24T0, kmajor_probes)
  GROUP(RsF16N24T1, mnmajor_probes)
  GROUP(RsF16N32T0, kmajor_probes)
  GROUP(RsF16N32T1, mnmajor_probes)
  GROUP(RsTf32N8, kmajor_probes)
  GROUP(RsTf32N24, kmajor_probes)
  GROUP(RsE4m3N8, kmajor_probes)
  GROUP(RsE4m3N24, kmajor_probes)
  GROUP(RsS8N8, kmajor_probes)
  GROUP(RsS8N24, kmajor_probes)
#undef GROUP
  c.families = {"gmma_desc"};
  return capture_main(argc, argv, c);
}
