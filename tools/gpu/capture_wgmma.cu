// tools/gpu/capture_wgmma.cu -- one-hot truth tables of wgmma.mma_async (sm_90a, one warpgroup of
// 128 threads) captured on an NVIDIA Hopper GPU (written for the H200).  No CuTe/CUTLASS code or
// layout is used: the register operands are numbered as the PTX ISA numbers them (element i of a
// thread lives in register i / (32/bits), low bits first), and the shared-memory operands are put
// where the matrix descriptor built here says they are.  What comes back is raw observation.
//
// Build:  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -cudart static -std=c++17 \
//              -o tools/gpu/build/capture_wgmma tools/gpu/capture_wgmma.cu
// Run:    tools/gpu/build/capture_wgmma OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/wgmma.json (see tools/gpu/README.md, section "wgmma.json").
//
// Method (every table): one block = one warpgroup (threads 0..127 = warps 0..3).  Block x handles
// A position x-1 (x == 0: A = 0).  It loops over every B position (and B = 0): it rewrites the
// whole B tile in shared memory with a single 1 at that position, issues
//   wgmma.fence; wgmma.mma_async (accumulators zero in, scale-d = 1); commit_group; wait_group 0
// and records every nonzero accumulator element as [a, b, d, value] (a or b = -1 for the zero input).
//
// Shared-memory operands (B always, A in the SS forms): K-major, no swizzle (descriptor layout type 0,
// "interleave"), the canonical layout of the PTX ISA for that mode: the tile is cut into core matrices
// of 8 rows (M or N) x 16 bytes (16/bytes_per_element K-elements); inside a core matrix row r starts at
// byte 16*r and is contiguous in K.  Core matrix (rb, kb) (rb along M/N, kb along K) starts at byte
//   rb * SBO + kb * LBO
// with LBO ("leading dimension byte offset", descriptor bits 16-29) the distance between core matrices
// adjacent in K and SBO ("stride dimension byte offset", bits 32-45) the distance between core matrices
// adjacent in M/N.  Here LBO = 128 and SBO = 128 * (core matrices along K) = 256 (K-adjacent core
// matrices are contiguous).  The tables record LBO, SBO, the descriptor words and the byte offset of
// every position, so a reader can check the addressing.
#include <cuda_fp16.h>
#include <type_traits>
#include "capture_common.h"

enum DKind { DK_F16 = 0, DK_F32 = 1, DK_S32 = 2 };

// ------------------------------------------------------------------------------------------
// shared-memory layout (K-major, no swizzle) and the matrix descriptor
// ------------------------------------------------------------------------------------------
constexpr int LBO_BYTES = 128;   // K-adjacent core matrices
constexpr int A_TILE_BYTES = 4096, B_TILE_BYTES = 2048;

// byte offset of element (r, k) of a K-major tile (r along M or N), elements of `bytes` bytes
__host__ __device__ constexpr int kmajor_offset(int r, int k, int bytes, int sbo) {
  return (r / 8) * sbo + (k / (16 / bytes)) * LBO_BYTES + (r % 8) * 16 + (k % (16 / bytes)) * bytes;
}

// PTX ISA "Matrix Descriptor Format" (sm_90): bits 0-13 start address >> 4 (of addr & 0x3FFFF),
// 16-29 LBO >> 4, 32-45 SBO >> 4, 49-51 base offset (0), 62-63 swizzle mode (0: none).
__device__ __forceinline__ uint64_t make_desc(const void* smem, int lbo, int sbo) {
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(smem);
  uint64_t d = 0;
  d |= (uint64_t)((addr & 0x3FFFF) >> 4);
  d |= (uint64_t)((lbo >> 4) & 0x3FFF) << 16;
  d |= (uint64_t)((sbo >> 4) & 0x3FFF) << 32;
  return d;
}

// ------------------------------------------------------------------------------------------
// the variants.  A: 4 x 32-bit registers in every RS form here.  D_T: float (f32) or uint32_t.
// ------------------------------------------------------------------------------------------
#define WG_COMMON(id_, instr_, form_, ta_, tb_, td_, n_, k_, abits_, bbits_, nd_, dk_, done_, aone_, bone_)      \
  static constexpr const char* ID = id_;                                                                       \
  static constexpr const char* INSTR = instr_;                                                                 \
  static constexpr const char* FORM = form_;                                                                   \
  static constexpr const char* TA = ta_;                                                                       \
  static constexpr const char* TB = tb_;                                                                       \
  static constexpr const char* TD = td_;                                                                       \
  static constexpr bool A_IN_REGS = (form_[0] == 'R');                                                         \
  static constexpr int M = 64, N = n_, K = k_, A_BITS = abits_, B_BITS = bbits_;                               \
  static constexpr int NA = 4 * 32 / abits_; /* A elements per thread (RS) */                                  \
  static constexpr int ND = nd_, D_KIND = dk_, D_REGS = (dk_ == DK_F16 ? nd_ / 2 : nd_);                      \
  static constexpr int A_SBO = 128 * (k_ * abits_ / 8 / 16), B_SBO = 128 * (k_ * bbits_ / 8 / 16);            \
  static constexpr unsigned A_ONE = aone_, B_ONE = bone_;                                                      \
  static constexpr const char* DESC_NOTE = done_;

struct Wg_rs_m64n8k16_f32_f16_f16 {
  WG_COMMON("rs_m64n8k16_f32_f16_f16", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "RS", "f16", "f16",
            "f32", 8, 16, 16, 16, 4, DK_F32, "imm-scale-a 1, imm-scale-b 1, imm-trans-b 0", 0x3c00u, 0x3c00u)
  using D_T = float;
  __device__ static void issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
  }
};

struct Wg_rs_m64n16k16_f32_f16_f16 {
  WG_COMMON("rs_m64n16k16_f32_f16_f16", "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16", "RS", "f16", "f16",
            "f32", 16, 16, 16, 16, 8, DK_F32, "imm-scale-a 1, imm-scale-b 1, imm-trans-b 0", 0x3c00u, 0x3c00u)
  using D_T = float;
  __device__ static void issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %13, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n16k16.f32.f16.f16 {%0, %1, %2, %3, %4, %5, %6, %7}, "
                 "{%8, %9, %10, %11}, %12, p, 1, 1, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
  }
};

struct Wg_ss_m64n8k16_f32_f16_f16 {
  WG_COMMON("ss_m64n8k16_f32_f16_f16", "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16", "SS", "f16", "f16",
            "f32", 8, 16, 16, 16, 4, DK_F32, "imm-scale-a 1, imm-scale-b 1, imm-trans-a 0, imm-trans-b 0", 0x3c00u,
            0x3c00u)
  using D_T = float;
  __device__ static void issue(const uint32_t (&)[4], uint64_t da, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %6, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, p, 1, 1, 0, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "l"(da), "l"(db), "r"(1));
  }
};

struct Wg_rs_m64n8k16_f32_bf16_bf16 {
  WG_COMMON("rs_m64n8k16_f32_bf16_bf16", "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16", "RS", "bf16",
            "bf16", "f32", 8, 16, 16, 16, 4, DK_F32, "imm-scale-a 1, imm-scale-b 1, imm-trans-b 0", 0x3f80u, 0x3f80u)
  using D_T = float;
  __device__ static void issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1, 0;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
  }
};

struct Wg_rs_m64n8k16_f16_f16_f16 {
  WG_COMMON("rs_m64n8k16_f16_f16_f16", "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16", "RS", "f16", "f16",
            "f16", 8, 16, 16, 16, 4, DK_F16, "imm-scale-a 1, imm-scale-b 1, imm-trans-b 0", 0x3c00u, 0x3c00u)
  using D_T = uint32_t;
  __device__ static void issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %7, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, %6, p, 1, 1, 0;\n}\n"
                 : "+r"(d[0]), "+r"(d[1])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
  }
};

struct Wg_rs_m64n8k8_f32_tf32_tf32 {
  WG_COMMON("rs_m64n8k8_f32_tf32_tf32", "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32", "RS", "tf32", "tf32",
            "f32", 8, 8, 32, 32, 4, DK_F32, "imm-scale-a 1, imm-scale-b 1", 0x3f800000u, 0x3f800000u)
  using D_T = float;
  __device__ static void issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k8.f32.tf32.tf32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
  }
};

struct Wg_rs_m64n8k32_f32_e4m3_e4m3 {
  WG_COMMON("rs_m64n8k32_f32_e4m3_e4m3", "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3", "RS", "e4m3",
            "e4m3", "f32", 8, 32, 8, 8, 4, DK_F32, "imm-scale-a 1, imm-scale-b 1", 0x38u, 0x38u)
  using D_T = float;
  __device__ static void issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k32.f32.e4m3.e4m3 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p, 1, 1;\n}\n"
                 : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
  }
};

struct Wg_rs_m64n8k32_s32_s8_s8 {
  WG_COMMON("rs_m64n8k32_s32_s8_s8", "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8", "RS", "s8", "s8", "s32", 8,
            32, 8, 8, 4, DK_S32, "", 0x01u, 0x01u)
  using D_T = uint32_t;
  __device__ static void issue(const uint32_t (&a)[4], uint64_t, uint64_t db, D_T (&d)[D_REGS]) {
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %9, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n8k32.s32.s8.s8 {%0, %1, %2, %3}, {%4, %5, %6, %7}, %8, p;\n}\n"
                 : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
  }
};

// ------------------------------------------------------------------------------------------
// the one-hot kernel
// ------------------------------------------------------------------------------------------
struct Rec {
  int a, b, d;
  float v;
};

template <class Op>
__device__ __forceinline__ float decode_d(const typename Op::D_T (&d)[Op::D_REGS], int j) {
  if constexpr (Op::D_KIND == DK_F16) {
    uint32_t w = d[j / 2];
    unsigned short h = (unsigned short)((j & 1) ? (w >> 16) : (w & 0xFFFF));
    return __half2float(__ushort_as_half(h));
  } else if constexpr (Op::D_KIND == DK_F32) {
    return d[j];
  } else {
    return (float)(int)d[j];
  }
}

template <class T, int N>
__device__ __forceinline__ void fence_operands(T (&r)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i) {
    if constexpr (sizeof(T) == 4 && std::is_same<T, float>::value) asm volatile("" : "+f"(r[i])::"memory");
    else asm volatile("" : "+r"(r[i])::"memory");
  }
}

// write the whole tile (words 0..words-1) with a single ONE at byte offset `off` (off < 0: all zero)
__device__ __forceinline__ void write_onehot_tile(uint32_t* tile, int words, int off, unsigned one) {
  for (int w = threadIdx.x; w < words; w += blockDim.x)
    tile[w] = (off >= 0 && (off >> 2) == w) ? (one << ((off & 3) * 8)) : 0u;
}

template <class Op>
__global__ void __launch_bounds__(128, 1) wgmma_onehot_kernel(Rec* recs, unsigned* cnt, unsigned cap) {
  __shared__ __align__(1024) uint32_t sA[A_TILE_BYTES / 4];
  __shared__ __align__(1024) uint32_t sB[B_TILE_BYTES / 4];
  const int T = threadIdx.x;
  const int a_pos = (int)blockIdx.x - 1;

  uint32_t a[4];
#pragma unroll
  for (int r = 0; r < 4; ++r) a[r] = 0u;
  if constexpr (Op::A_IN_REGS) {
    constexpr int per_reg = 32 / Op::A_BITS;
    const int a_elem = (a_pos >= 0 && T == a_pos / Op::NA) ? a_pos % Op::NA : -1;
#pragma unroll
    for (int r = 0; r < 4; ++r)
      a[r] = (a_elem >= 0 && a_elem / per_reg == r) ? (Op::A_ONE << ((a_elem % per_reg) * Op::A_BITS)) : 0u;
    write_onehot_tile(sA, A_TILE_BYTES / 4, -1, 0u);
  } else {
    // A position p = m + 64*k of the 64 x K tile (colex)
    const int off = a_pos >= 0 ? kmajor_offset(a_pos % Op::M, a_pos / Op::M, Op::A_BITS / 8, Op::A_SBO) : -1;
    write_onehot_tile(sA, A_TILE_BYTES / 4, off, Op::A_ONE);
  }
  const uint64_t da = make_desc(sA, LBO_BYTES, Op::A_SBO);
  const uint64_t db = make_desc(sB, LBO_BYTES, Op::B_SBO);

  for (int b_pos = -1; b_pos < Op::N * Op::K; ++b_pos) {
    __syncthreads();  // every thread's previous wgmma has completed (wait_group 0) before the tile changes
    // B position p = n + N*k of the N x K tile (colex)
    const int off = b_pos >= 0 ? kmajor_offset(b_pos % Op::N, b_pos / Op::N, Op::B_BITS / 8, Op::B_SBO) : -1;
    write_onehot_tile(sB, B_TILE_BYTES / 4, off, Op::B_ONE);
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();

    typename Op::D_T d[Op::D_REGS];
#pragma unroll
    for (int r = 0; r < Op::D_REGS; ++r) d[r] = 0;
    fence_operands(d);
    fence_operands(a);
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
    Op::issue(a, da, db, d);
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
    fence_operands(d);
    fence_operands(a);
#pragma unroll
    for (int j = 0; j < Op::ND; ++j) {
      const float v = decode_d<Op>(d, j);
      if (v != 0.0f) {
        unsigned i = atomicAdd(cnt, 1u);
        if (i < cap) { Rec rr; rr.a = a_pos; rr.b = b_pos; rr.d = T * Op::ND + j; rr.v = v; recs[i] = rr; }
      }
    }
  }
}

template <class Op>
static std::string offsets_json(int rows, int k, int bits, int sbo) {
  std::string o = "[";
  for (int p = 0; p < rows * k; ++p) o += (p ? "," : "") + std::to_string(kmajor_offset(p % rows, p / rows, bits / 8, sbo));
  return o + "]";
}

template <class Op>
static std::string job_wgmma() {
  const int a_positions = Op::A_IN_REGS ? 128 * Op::NA : Op::M * Op::K;
  const int b_positions = Op::N * Op::K;
  const int blocks = a_positions + 1;
  const auto run = run_onehot<Rec>(1u << 22, [&](Rec* recs, unsigned* cnt, unsigned cap) {
    wgmma_onehot_kernel<Op><<<blocks, 128>>>(recs, cnt, cap);
  });

  auto smem = [](int rows, int k, int bits, int sbo, const std::string& pos) {
    return std::string("{\"major\":\"K\",\"layout_type\":0,\"swizzle\":\"none\",\"lbo_bytes\":") +
           std::to_string(LBO_BYTES) + ",\"sbo_bytes\":" + std::to_string(sbo) +
           ",\"core_matrix\":\"8 rows x 16 bytes\",\"position\":" + jstr(pos) +
           ",\"byte_offset_of_position\":" + offsets_json<Op>(rows, k, bits, sbo) + "}";
  };
  std::string o = "{";
  o += "\"id\":" + jstr(Op::ID);
  o += ",\"instruction\":" + jstr(Op::INSTR);
  o += ",\"form\":" + jstr(Op::FORM);
  o += ",\"immediates\":" + jstr(Op::DESC_NOTE);
  o += ",\"shape\":[" + std::to_string(Op::M) + "," + std::to_string(Op::N) + "," + std::to_string(Op::K) + "]";
  o += ",\"types\":{\"a\":" + jstr(Op::TA) + ",\"b\":" + jstr(Op::TB) + ",\"d\":" + jstr(Op::TD) + "}";
  o += ",\"threads\":128";
  o += ",\"a_elem_bits\":" + std::to_string(Op::A_BITS) + ",\"b_elem_bits\":" + std::to_string(Op::B_BITS);
  if (Op::A_IN_REGS) {
    o += ",\"a_regs\":4,\"num_a\":" + std::to_string(Op::NA);
    o += ",\"a_index\":\"thread*num_a + element\"";
  } else {
    o += ",\"a_index\":\"m + 64*k\",\"a_smem\":" + smem(Op::M, Op::K, Op::A_BITS, Op::A_SBO, "m + 64*k");
  }
  o += ",\"num_a_positions\":" + std::to_string(a_positions);
  o += ",\"b_index\":" + jstr("n + " + std::to_string(Op::N) + "*k");
  o += ",\"num_b_positions\":" + std::to_string(b_positions);
  o += ",\"b_smem\":" + smem(Op::N, Op::K, Op::B_BITS, Op::B_SBO, "n + " + std::to_string(Op::N) + "*k");
  o += ",\"d_regs\":" + std::to_string(Op::D_REGS) + ",\"num_d\":" + std::to_string(Op::ND);
  o += ",\"d_index\":\"thread*num_d + element\"";
  o += ",\"one_a\":" + jstr(hex64(Op::A_ONE)) + ",\"one_b\":" + jstr(hex64(Op::B_ONE));
  o += ",\"wgmma_issued\":" + std::to_string((long long)blocks * (b_positions + 1));
  o += onehot_fields(run);
  o += "}";
  return o;
}

// ------------------------------------------------------------------------------------------
// the job list
// ------------------------------------------------------------------------------------------
int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_wgmma";
  c.meta = [] { return meta_json("tools/gpu/capture_wgmma.cu", ",\"target\":\"sm_90a\""); };
#define ADD(OP) c.jobs.push_back({OP::ID, "wgmma", job_wgmma<OP>});
  ADD(Wg_rs_m64n8k16_f32_f16_f16)
  ADD(Wg_rs_m64n16k16_f32_f16_f16)
  ADD(Wg_ss_m64n8k16_f32_f16_f16)
  ADD(Wg_rs_m64n8k16_f32_bf16_bf16)
  ADD(Wg_rs_m64n8k16_f16_f16_f16)
  ADD(Wg_rs_m64n8k8_f32_tf32_tf32)
  ADD(Wg_rs_m64n8k32_f32_e4m3_e4m3)
  ADD(Wg_rs_m64n8k32_s32_s8_s8)
#undef ADD
  c.families = {"wgmma"};
  return capture_main(argc, argv, c);
}
