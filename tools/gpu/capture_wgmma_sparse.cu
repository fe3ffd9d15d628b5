// tools/gpu/capture_wgmma_sparse.cu -- which bit of sp-meta selects which row and chunk of A in
// wgmma.mma_async.sp (sm_90a, one warpgroup of 128 threads), captured on an NVIDIA Hopper GPU (written
// for the H200).  No CuTe/CUTLASS code or layout is used.  What comes back is raw observation; the model
// it is compared with is verifier/hardware/wgmma_sparse.py (whose bit mapping is otherwise inferred).
//
// Build:  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -cudart static -std=c++17 \
//              -o tools/gpu/build/capture_wgmma_sparse tools/gpu/capture_wgmma_sparse.cu
// Run:    tools/gpu/build/capture_wgmma_sparse OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/wgmma_sparse.json (see tools/gpu/README.md, section "wgmma_sparse.json").
//
// Method (every table).  A is the packed M x K/2 tile of the PTX ISA's sparse storage, every stored element
// ONE, in shared memory (K-major, no swizzle, the dense capture's canonical layout).  B (N x K, K-major, no
// swizzle) is built so that column n sees one chunk of A's rows: B(n, k) = 2^(k % CHUNK) when k / CHUNK == n,
// else 0.  Then D(m, n) = sum over the kept positions q of chunk n of row m of 2^q: the accumulator spells
// out, for every row and chunk, which positions the metadata kept.
// Every thread's sp-meta is BASE_NIBBLE in each of its eight nibbles.  Launch 1 (one block) records the
// baseline accumulator.  Launch 2 runs one block a probe p = 8*t + j (thread t, nibble j): thread t's nibble
// j becomes ALT_NIBBLE (other positions kept), everything else as in the baseline; the block records every
// accumulator element that differs from the baseline as [p, d slot, value] (d slot = thread*num_d +
// element, the dense wgmma's accumulator numbering, captured in wgmma.json).  A probe that changes nothing
// is a nibble the hardware does not read under that sp-sel.
#include <type_traits>
#include "capture_common.h"

constexpr int LBO_BYTES = 128;   // K-adjacent core matrices
constexpr int A_TILE_BYTES = 2048, B_TILE_BYTES = 1024;
constexpr int NIBBLES = 8;       // sp-meta: one .b32 register a thread, eight 4-bit fields
constexpr int PROBES = 128 * NIBBLES;

// byte offset of element (r, k) of a K-major tile (r along M or N), elements of `bytes` bytes
__host__ __device__ constexpr int kmajor_offset(int r, int k, int bytes, int sbo) {
  return (r / 8) * sbo + (k / (16 / bytes)) * LBO_BYTES + (r % 8) * 16 + (k % (16 / bytes)) * bytes;
}

// PTX ISA "Matrix Descriptor Format" (sm_90): bits 0-13 start address >> 4, 16-29 LBO >> 4, 32-45 SBO >> 4,
// 49-51 base offset (0), 62-63 swizzle mode (0: none).
__device__ __forceinline__ uint64_t make_desc(const void* smem, int lbo, int sbo) {
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem);
  uint64_t d = 0;
  d |= (uint64_t)((addr & 0x3FFFF) >> 4);
  d |= (uint64_t)((lbo >> 4) & 0x3FFF) << 16;
  d |= (uint64_t)((sbo >> 4) & 0x3FFF) << 32;
  return d;
}

// ------------------------------------------------------------------------------------------
// the variants (SS forms: A and B from shared memory; D f32)
// ------------------------------------------------------------------------------------------
#define SP_COMMON(id_, instr_, ta_, n_, k_, bits_, chunk_, spsel_, base_, alt_, one_, pow2_)                    \
  static constexpr const char* ID = id_;                                                                       \
  static constexpr const char* INSTR = instr_;                                                                 \
  static constexpr const char* TA = ta_;                                                                       \
  static constexpr int M = 64, N = n_, K = k_, BITS = bits_, BYTES = bits_ / 8, CHUNK = chunk_;                \
  static constexpr int SP_SEL = spsel_;                                                                        \
  static constexpr unsigned BASE_NIBBLE = base_, ALT_NIBBLE = alt_;                                            \
  static constexpr unsigned ONE = one_;                                                                        \
  static constexpr int ND = n_ / 2; /* f32 accumulators a thread: 64 * N / 128 */                             \
  static constexpr int A_SBO = 128 * ((k_ / 2) * bits_ / 8 / 16), B_SBO = 128 * (k_ * bits_ / 8 / 16);        \
  __device__ static unsigned pow2(int q) { const unsigned t[4] = pow2_; return t[q]; }

#define POW2_F16 {0x3c00u, 0x4000u, 0x4400u, 0x4800u}
#define POW2_E4M3 {0x38u, 0x40u, 0x48u, 0x50u}
#define POW2_TF32 {0x3f800000u, 0x40000000u, 0u, 0u}

template <int SPSEL>
struct Sp_ss_m64n8k32_f32_f16_f16 {
  SP_COMMON(SPSEL ? "ss_m64n8k32_f32_f16_f16_spsel1" : "ss_m64n8k32_f32_f16_f16_spsel0",
            "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16", "f16", 8, 32, 16, 4, SPSEL, 0x4u, 0xEu, 0x3c00u,
            POW2_F16)
  __device__ static void issue(uint64_t da, uint64_t db, uint32_t e, float (&d)[ND]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %7, 0;\n"
                 "wgmma.mma_async.sp.sync.aligned.m64n8k32.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, %6, %8, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db), "r"(e), "r"(1), "n"(SPSEL));
  }
};

template <int SPSEL>
struct Sp_ss_m64n8k16_f32_tf32_tf32 {
  SP_COMMON(SPSEL ? "ss_m64n8k16_f32_tf32_tf32_spsel1" : "ss_m64n8k16_f32_tf32_tf32_spsel0",
            "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32", "tf32", 8, 16, 32, 2, SPSEL, 0x4u, 0xEu,
            0x3f800000u, POW2_TF32)
  __device__ static void issue(uint64_t da, uint64_t db, uint32_t e, float (&d)[ND]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %7, 0;\n"
                 "wgmma.mma_async.sp.sync.aligned.m64n8k16.f32.tf32.tf32 {%0, %1, %2, %3}, %4, %5, %6, %8, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db), "r"(e), "r"(1), "n"(SPSEL));
  }
};

struct Sp_ss_m64n16k64_f32_e4m3_e4m3 {
  SP_COMMON("ss_m64n16k64_f32_e4m3_e4m3_spsel0", "wgmma.mma_async.sp.sync.aligned.m64n16k64.f32.e4m3.e4m3", "e4m3",
            16, 64, 8, 4, 0, 0x4u, 0xEu, 0x38u, POW2_E4M3)
  __device__ static void issue(uint64_t da, uint64_t db, uint32_t e, float (&d)[ND]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %11, 0;\n"
                 "wgmma.mma_async.sp.sync.aligned.m64n16k64.f32.e4m3.e4m3 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                 "%8, %9, %10, 0, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "l"(da), "l"(db), "r"(e), "r"(1));
  }
};

// ------------------------------------------------------------------------------------------
// the probe kernel
// ------------------------------------------------------------------------------------------
struct Rec {
  int a, b, d;   // a: the probe (8*thread + nibble, -1 for the baseline), b: unused (-1), d: accumulator slot
  float v;
};

// store element value `v` (BITS wide) at byte offset `off` of a tile of 32-bit words (every thread a share)
template <class Op>
__device__ __forceinline__ void put(uint32_t* tile, int off, unsigned v) {
  if constexpr (Op::BYTES == 4) tile[off >> 2] = v;
  else atomicOr(&tile[off >> 2], v << ((off & 3) * 8));
}

template <class Op>
__global__ void __launch_bounds__(128, 1) sparse_probe_kernel(int first_probe, const float* baseline, float* base_out,
                                                              Rec* recs, unsigned* cnt, unsigned cap) {
  __shared__ __align__(1024) uint32_t sA[A_TILE_BYTES / 4];
  __shared__ __align__(1024) uint32_t sB[B_TILE_BYTES / 4];
  const int T = threadIdx.x;
  const int probe = first_probe + (int)blockIdx.x;   // -1: the baseline
  for (int w = T; w < A_TILE_BYTES / 4; w += 128) sA[w] = 0u;
  for (int w = T; w < B_TILE_BYTES / 4; w += 128) sB[w] = 0u;
  __syncthreads();
  for (int p = T; p < Op::M * (Op::K / 2); p += 128)                  // A: every stored element ONE
    put<Op>(sA, kmajor_offset(p % Op::M, p / Op::M, Op::BYTES, Op::A_SBO), Op::ONE);
  for (int p = T; p < Op::N * Op::K; p += 128) {                      // B(n, k) = 2^(k % CHUNK) on chunk n
    const int n = p % Op::N, k = p / Op::N;
    if (k / Op::CHUNK == n) put<Op>(sB, kmajor_offset(n, k, Op::BYTES, Op::B_SBO), Op::pow2(k % Op::CHUNK));
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();

  uint32_t e = 0;
  for (int j = 0; j < NIBBLES; ++j) {
    const bool probed = probe >= 0 && T == probe / NIBBLES && j == probe % NIBBLES;
    e |= (probed ? Op::ALT_NIBBLE : Op::BASE_NIBBLE) << (4 * j);
  }
  const uint64_t da = make_desc(sA, LBO_BYTES, Op::A_SBO);
  const uint64_t db = make_desc(sB, LBO_BYTES, Op::B_SBO);
  float d[Op::ND];
#pragma unroll
  for (int r = 0; r < Op::ND; ++r) d[r] = 0.f;
#pragma unroll
  for (int r = 0; r < Op::ND; ++r) asm volatile("" : "+f"(d[r])::"memory");
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
  Op::issue(da, db, e, d);
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
  asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
  for (int r = 0; r < Op::ND; ++r) asm volatile("" : "+f"(d[r])::"memory");
#pragma unroll
  for (int j = 0; j < Op::ND; ++j) {
    const int slot = T * Op::ND + j;
    if (probe < 0) base_out[slot] = d[j];
    if (probe < 0 || d[j] != baseline[slot]) {
      unsigned i = atomicAdd(cnt, 1u);
      if (i < cap) { Rec rr; rr.a = probe; rr.b = -1; rr.d = slot; rr.v = d[j]; recs[i] = rr; }
    }
  }
}

template <class Op>
static std::string job_sparse() {
  float* d_base = nullptr;
  if (!g_fake) {
    CK(cudaMalloc(&d_base, sizeof(float) * 128 * Op::ND));
    CK(cudaMemset(d_base, 0, sizeof(float) * 128 * Op::ND));
  }
  const auto base = run_onehot<Rec>(1u << 12, [&](Rec* recs, unsigned* cnt, unsigned cap) {
    sparse_probe_kernel<Op><<<1, 128>>>(-1, d_base, d_base, recs, cnt, cap);
  });
  const auto run = run_onehot<Rec>(1u << 20, [&](Rec* recs, unsigned* cnt, unsigned cap) {
    sparse_probe_kernel<Op><<<PROBES, 128>>>(0, d_base, d_base, recs, cnt, cap);
  });
  if (!g_fake) CK(cudaFree(d_base));
  std::string baseline = "[", changes = "[";
  for (size_t i = 0; i < base.recs.size(); ++i)
    baseline += (i ? "," : "") + std::string("[") + std::to_string(base.recs[i].d) + "," + jnum(base.recs[i].v) + "]";
  for (size_t i = 0; i < run.recs.size(); ++i)
    changes += (i ? ",[" : "[") + std::to_string(run.recs[i].a) + "," + std::to_string(run.recs[i].d) + "," +
               jnum(run.recs[i].v) + "]";
  baseline += "]"; changes += "]";
  std::string o = "{";
  o += "\"id\":" + jstr(Op::ID);
  o += ",\"instruction\":" + jstr(Op::INSTR);
  o += ",\"form\":\"SS\",\"immediates\":\"scale-d 1, imm-scale-a 1, imm-scale-b 1, transposes 0\"";
  o += ",\"shape\":[" + std::to_string(Op::M) + "," + std::to_string(Op::N) + "," + std::to_string(Op::K) + "]";
  o += ",\"type\":" + jstr(Op::TA) + ",\"sp_sel\":" + std::to_string(Op::SP_SEL);
  o += ",\"chunk\":" + std::to_string(Op::CHUNK);
  o += ",\"a\":\"packed M x K/2, every stored element one; K-major, no swizzle, LBO " + std::to_string(LBO_BYTES) +
       " SBO " + std::to_string(Op::A_SBO) + "\"";
  o += ",\"b\":\"B(n, k) = 2^(k % chunk) if k / chunk == n else 0; K-major, no swizzle, LBO " +
       std::to_string(LBO_BYTES) + " SBO " + std::to_string(Op::B_SBO) + "\"";
  o += ",\"base_nibble\":" + std::to_string(Op::BASE_NIBBLE) + ",\"alt_nibble\":" + std::to_string(Op::ALT_NIBBLE);
  o += ",\"probe\":\"8*thread + nibble: that thread's sp-meta bits 4*nibble..4*nibble+3 set to alt_nibble\"";
  o += ",\"num_d\":" + std::to_string(Op::ND) + ",\"d_index\":\"thread*num_d + element\"";
  o += ",\"baseline\":" + baseline;
  o += ",\"changes\":" + changes;
  o += ",\"records\":" + std::to_string(run.count);
  o += std::string(",\"overflow\":") + (run.count > run.cap || base.count > base.cap ? "true" : "false");
  o += ",\"kernel_ms\":" + jnum((double)(long long)(run.ms * 1000) / 1000.0);
  o += "}";
  return o;
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_wgmma_sparse";
  c.meta = [] { return meta_json("tools/gpu/capture_wgmma_sparse.cu", ",\"target\":\"sm_90a\""); };
#define ADD(OP) c.jobs.push_back({OP::ID, "wgmma_sparse", job_sparse<OP>});
  ADD(Sp_ss_m64n8k32_f32_f16_f16<0>)
  ADD(Sp_ss_m64n8k32_f32_f16_f16<1>)
  ADD(Sp_ss_m64n8k16_f32_tf32_tf32<0>)
  ADD(Sp_ss_m64n8k16_f32_tf32_tf32<1>)
  ADD(Sp_ss_m64n16k64_f32_e4m3_e4m3)
#undef ADD
  c.families = {"wgmma_sparse"};
  return capture_main(argc, argv, c);
}
