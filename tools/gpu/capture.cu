// tools/gpu/capture.cu -- capture raw truth tables of warp-level matrix instructions on an
// NVIDIA GPU (written for the H200, sm_90).  No CuTe/CUTLASS code or layout is used: every
// table is a raw observation of what the hardware did with inputs chosen here.
//
// Build:  nvcc -arch=sm_90 -O2 -cudart static -std=c++17 -o tools/gpu/build/capture tools/gpu/capture.cu
// Run:    tools/gpu/build/capture OUTDIR [--date ISO8601] [--driver NVIDIA_SMI_DRIVER_STRING]
//                                       [--only SUBSTRING] [--fake]
// Writes OUTDIR/{ldmatrix,stmatrix,movmatrix,mma_sync,mma_sync_b1}.json (see tools/gpu/README.md).
//
// Every job (one table) runs in a forked child process (the parent never touches CUDA), so an
// instruction that faults at run time only loses its own table: the parent records the failure
// and starts a fresh child for the remaining jobs.
#include <cuda_fp16.h>
#include "capture_common.h"

enum DKind { DK_F16 = 0, DK_F32 = 1, DK_S32 = 2, DK_F64 = 3 };
#include "mma_ops.inc"

// Scrambled row assignment shared by ldmatrix and stmatrix: lane l points at row
// ROW_OF_LANE(l) = (11*l + 5) mod 32 (a permutation of 0..31), i.e. at byte offset
// 16*row (element offset 8*row) from the 16-byte aligned buffer base.
static int row_of_lane(int l) { return (11 * l + 5) % 32; }

// ------------------------------------------------------------------------------------------
// ldmatrix
// ------------------------------------------------------------------------------------------
template <int NUM, bool TRANS>
__global__ void ldmatrix_kernel(const int* rows, uint32_t* out) {
  __shared__ alignas(128) uint16_t buf[1024];
  const int lane = threadIdx.x;
  for (int i = lane; i < 1024; i += 32) buf[i] = (uint16_t)i;
  __syncwarp();
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(buf + 8 * rows[lane]);
  uint32_t r[4] = {0u, 0u, 0u, 0u};
  if constexpr (NUM == 1 && !TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(addr) : "memory");
  if constexpr (NUM == 2 && !TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(addr) : "memory");
  if constexpr (NUM == 4 && !TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr) : "memory");
  if constexpr (NUM == 1 && TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];\n" : "=r"(r[0]) : "r"(addr) : "memory");
  if constexpr (NUM == 2 && TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n" : "=r"(r[0]), "=r"(r[1]) : "r"(addr) : "memory");
  if constexpr (NUM == 4 && TRANS)
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) : "r"(addr) : "memory");
#pragma unroll
  for (int k = 0; k < NUM; ++k) out[lane * NUM + k] = r[k];
}

template <int NUM, bool TRANS>
static std::string job_ldmatrix() {
  std::vector<int> rows(32);
  for (int l = 0; l < 32; ++l) rows[l] = row_of_lane(l);
  std::vector<uint32_t> regs(32 * NUM, 0);
  if (!g_fake) {
    int* d_rows; uint32_t* d_out;
    CK(cudaMalloc(&d_rows, 32 * sizeof(int)));
    CK(cudaMalloc(&d_out, 32 * NUM * sizeof(uint32_t)));
    CK(cudaMemcpy(d_rows, rows.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xEE, 32 * NUM * sizeof(uint32_t)));
    ldmatrix_kernel<NUM, TRANS><<<1, 32>>>(d_rows, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(regs.data(), d_out, regs.size() * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CK(cudaFree(d_rows)); CK(cudaFree(d_out));
  }
  std::string instr = std::string("ldmatrix.sync.aligned.m8n8.x") + std::to_string(NUM) + (TRANS ? ".trans" : "") + ".shared.b16";
  std::vector<int> offs(32);
  for (int l = 0; l < 32; ++l) offs[l] = 8 * rows[l];
  std::string o = "{";
  o += "\"instruction\":" + jstr(instr);
  o += ",\"num\":" + std::to_string(NUM);
  o += std::string(",\"trans\":") + (TRANS ? "true" : "false");
  o += ",\"buffer\":" + jstr("shared memory, 1024 x b16, 128-byte aligned; element i holds the value i");
  o += ",\"row_of_lane\":" + jlist(rows);
  o += ",\"row_element_offset_of_lane\":" + jlist(offs);
  o += ",\"lanes_whose_address_is_used_per_isa\":" + std::to_string(8 * NUM);
  o += ",\"registers\":[";
  for (int l = 0; l < 32; ++l) {
    if (l) o += ",";
    std::vector<uint32_t> rr(regs.begin() + l * NUM, regs.begin() + (l + 1) * NUM);
    o += jlist(rr);
  }
  o += "]}";
  return o;
}

// ------------------------------------------------------------------------------------------
// stmatrix
// ------------------------------------------------------------------------------------------
__host__ __device__ inline uint32_t stm_reg_value(int lane, int r) {
  // half h (0 = low 16 bits, 1 = high) of register r of lane l holds l*8 + r*2 + h
  return (uint32_t)(lane * 8 + r * 2) | ((uint32_t)(lane * 8 + r * 2 + 1) << 16);
}

template <int NUM, bool TRANS>
__global__ void stmatrix_kernel(const int* rows, uint16_t* out) {
  __shared__ alignas(128) uint16_t buf[256];
  const int lane = threadIdx.x;
  for (int i = lane; i < 256; i += 32) buf[i] = 0xFFFF;
  __syncwarp();
  uint32_t addr = (uint32_t)__cvta_generic_to_shared(buf + 8 * rows[lane]);
  uint32_t r[4];
#pragma unroll
  for (int k = 0; k < 4; ++k) r[k] = stm_reg_value(lane, k);
  if constexpr (NUM == 1 && !TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};\n" :: "r"(addr), "r"(r[0]) : "memory");
  if constexpr (NUM == 2 && !TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};\n" :: "r"(addr), "r"(r[0]), "r"(r[1]) : "memory");
  if constexpr (NUM == 4 && !TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  if constexpr (NUM == 1 && TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};\n" :: "r"(addr), "r"(r[0]) : "memory");
  if constexpr (NUM == 2 && TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};\n" :: "r"(addr), "r"(r[0]), "r"(r[1]) : "memory");
  if constexpr (NUM == 4 && TRANS)
    asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};\n"
                 :: "r"(addr), "r"(r[0]), "r"(r[1]), "r"(r[2]), "r"(r[3]) : "memory");
  __syncwarp();
  for (int i = lane; i < 256; i += 32) out[i] = buf[i];
}

template <int NUM, bool TRANS>
static std::string job_stmatrix() {
  std::vector<int> rows(32);
  for (int l = 0; l < 32; ++l) rows[l] = row_of_lane(l);
  std::vector<uint16_t> smem(256, 0xFFFF);
  if (!g_fake) {
    int* d_rows; uint16_t* d_out;
    CK(cudaMalloc(&d_rows, 32 * sizeof(int)));
    CK(cudaMalloc(&d_out, 256 * sizeof(uint16_t)));
    CK(cudaMemcpy(d_rows, rows.data(), 32 * sizeof(int), cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xEE, 256 * sizeof(uint16_t)));
    stmatrix_kernel<NUM, TRANS><<<1, 32>>>(d_rows, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(smem.data(), d_out, 256 * sizeof(uint16_t), cudaMemcpyDeviceToHost));
    CK(cudaFree(d_rows)); CK(cudaFree(d_out));
  }
  std::string instr = std::string("stmatrix.sync.aligned.m8n8.x") + std::to_string(NUM) + (TRANS ? ".trans" : "") + ".shared.b16";
  std::vector<int> offs(32);
  for (int l = 0; l < 32; ++l) offs[l] = 8 * rows[l];
  std::string o = "{";
  o += "\"instruction\":" + jstr(instr);
  o += ",\"num\":" + std::to_string(NUM);
  o += std::string(",\"trans\":") + (TRANS ? "true" : "false");
  o += ",\"buffer\":" + jstr("shared memory, 256 x b16 (32 rows of 8), 128-byte aligned, filled with 0xFFFF before the store");
  o += ",\"register_value_rule\":" + jstr("half h (0 = low 16 bits) of source register r of lane l holds l*8 + r*2 + h");
  o += ",\"fill_value\":65535";
  o += ",\"row_of_lane\":" + jlist(rows);
  o += ",\"row_element_offset_of_lane\":" + jlist(offs);
  o += ",\"lanes_whose_address_is_used_per_isa\":" + std::to_string(8 * NUM);
  o += ",\"registers\":[";
  for (int l = 0; l < 32; ++l) {
    if (l) o += ",";
    std::vector<uint32_t> rr;
    for (int k = 0; k < NUM; ++k) rr.push_back(stm_reg_value(l, k));
    o += jlist(rr);
  }
  o += "]";
  o += ",\"smem\":" + jlist(smem);
  o += "}";
  return o;
}

// ------------------------------------------------------------------------------------------
// movmatrix
// ------------------------------------------------------------------------------------------
__global__ void movmatrix_kernel(const uint32_t* in, uint32_t* out) {
  const int lane = threadIdx.x;
  uint32_t a = in[lane], d;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;\n" : "=r"(d) : "r"(a));
  out[lane] = d;
}

static std::string job_movmatrix() {
  std::vector<uint32_t> in(32), out(32, 0);
  for (int l = 0; l < 32; ++l) in[l] = (uint32_t)(l * 2) | ((uint32_t)(l * 2 + 1) << 16);
  if (!g_fake) {
    uint32_t *d_in, *d_out;
    CK(cudaMalloc(&d_in, 32 * 4)); CK(cudaMalloc(&d_out, 32 * 4));
    CK(cudaMemcpy(d_in, in.data(), 32 * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0xEE, 32 * 4));
    movmatrix_kernel<<<1, 32>>>(d_in, d_out);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(out.data(), d_out, 32 * 4, cudaMemcpyDeviceToHost));
    CK(cudaFree(d_in)); CK(cudaFree(d_out));
  }
  std::string o = "{";
  o += "\"instruction\":" + jstr("movmatrix.sync.aligned.m8n8.trans.b16");
  o += ",\"input_rule\":" + jstr("half h (0 = low 16 bits) of the source register of lane l holds l*2 + h");
  o += ",\"input\":" + jlist(in);
  o += ",\"output\":" + jlist(out);
  o += "}";
  return o;
}

// ------------------------------------------------------------------------------------------
// mma.sync one-hot capture
// ------------------------------------------------------------------------------------------
struct Rec {
  int a, b, d, pad;  // a == -1: A all zero; b == -1: B all zero
  double v;
};

// words of one operand with element `elem` (or none if elem < 0) set to `one`.
// Element i lives in 32-bit register i / (32/BITS) at bit position (i % (32/BITS)) * BITS,
// low bits first; a 64-bit element i spans words 2i (low) and 2i+1 (high).
template <int NW, int BITS>
__device__ __forceinline__ void build_operand(uint32_t (&w)[NW], int elem, unsigned long long one) {
#pragma unroll
  for (int j = 0; j < NW; ++j) {
    uint32_t v = 0;
    if constexpr (BITS == 64) {
      if (elem >= 0 && j / 2 == elem) v = (j & 1) ? (uint32_t)(one >> 32) : (uint32_t)one;
    } else {
      constexpr int PER = 32 / BITS;
      if (elem >= 0 && elem / PER == j) v = (uint32_t)one << ((elem % PER) * BITS);
    }
    w[j] = v;
  }
}

template <class Op>
__device__ __forceinline__ double decode_d(const uint32_t (&d)[Op::D_WORDS], int j) {
  if constexpr (Op::D_KIND == DK_F16) {
    uint32_t w = d[j / 2];
    unsigned short h = (unsigned short)((j & 1) ? (w >> 16) : (w & 0xFFFF));
    return (double)__half2float(__ushort_as_half(h));
  } else if constexpr (Op::D_KIND == DK_F32) {
    return (double)__uint_as_float(d[j]);
  } else if constexpr (Op::D_KIND == DK_S32) {
    return (double)(int)d[j];
  } else {
    return __hiloint2double((int)d[2 * j + 1], (int)d[2 * j]);
  }
}

__device__ __forceinline__ void put(Rec* recs, unsigned* cnt, unsigned cap, int a, int b, int d, double v) {
  unsigned i = atomicAdd(cnt, 1u);
  if (i < cap) { Rec r; r.a = a; r.b = b; r.d = d; r.pad = 0; r.v = v; recs[i] = r; }
}

// One warp per block; block x handles A slot x-1 (x == 0: A = 0).  It loops over every B slot
// (and B = 0), issuing D(A,B) and D(0,B).  Records:
//   a>=0,b>=0: D(a,b) - D(a,0) - D(0,b) + D(0,0) != 0     -> "hits"
//   a>=0,b=-1: D(a,0) - D(0,0) != 0                       -> "a_only"
//   a=-1,b>=0: D(0,b) - D(0,0) != 0                       -> "b_only"
//   a=-1,b=-1: D(0,0) != 0                                -> "zero_input_nonzero"
// For every type except xor.popc only "hits" can be non-empty.
template <class Op>
__global__ void __launch_bounds__(32) mma_onehot_kernel(Rec* recs, unsigned* cnt, unsigned cap) {
  const int lane = threadIdx.x;
  const int a_slot = (int)blockIdx.x - 1;
  const int a_elem = (a_slot >= 0 && lane == a_slot / Op::NA) ? a_slot % Op::NA : -1;
  uint32_t a[Op::A_WORDS], za[Op::A_WORDS];
  build_operand<Op::A_WORDS, Op::A_BITS>(a, a_elem, Op::A_ONE);
  build_operand<Op::A_WORDS, Op::A_BITS>(za, -1, Op::A_ONE);
  double d_a0[Op::ND], d_00[Op::ND];
#pragma unroll
  for (int j = 0; j < Op::ND; ++j) { d_a0[j] = 0.0; d_00[j] = 0.0; }
  for (int b_slot = -1; b_slot < 32 * Op::NB; ++b_slot) {
    const int b_elem = (b_slot >= 0 && lane == b_slot / Op::NB) ? b_slot % Op::NB : -1;
    uint32_t b[Op::B_WORDS];
    build_operand<Op::B_WORDS, Op::B_BITS>(b, b_elem, Op::B_ONE);
    uint32_t dab[Op::D_WORDS], d0b[Op::D_WORDS];
    Op::mma(a, b, dab);
    Op::mma(za, b, d0b);
#pragma unroll
    for (int j = 0; j < Op::ND; ++j) {
      const double vab = decode_d<Op>(dab, j), v0b = decode_d<Op>(d0b, j);
      const int dslot = lane * Op::ND + j;
      if (b_slot < 0) {
        d_a0[j] = vab;
        d_00[j] = v0b;
        if (a_slot < 0) { if (v0b != 0.0) put(recs, cnt, cap, -1, -1, dslot, v0b); }
        else if (vab - v0b != 0.0) put(recs, cnt, cap, a_slot, -1, dslot, vab - v0b);
      } else if (a_slot < 0) {
        if (v0b - d_00[j] != 0.0) put(recs, cnt, cap, -1, b_slot, dslot, v0b - d_00[j]);
      } else {
        const double diff = vab - d_a0[j] - v0b + d_00[j];
        if (diff != 0.0) put(recs, cnt, cap, a_slot, b_slot, dslot, diff);
      }
    }
  }
}

template <class Op>
static std::string job_mma() {
  const int blocks = 32 * Op::NA + 1;
  const auto run = run_onehot<Rec>(1u << 22, [&](Rec* recs, unsigned* cnt, unsigned cap) {
    mma_onehot_kernel<Op><<<blocks, 32>>>(recs, cnt, cap);
  });
  std::string o = "{";
  o += "\"id\":" + jstr(Op::ID);
  o += ",\"instruction\":" + jstr(Op::INSTR);
  o += ",\"shape\":[" + std::to_string(Op::M) + "," + std::to_string(Op::N) + "," + std::to_string(Op::K) + "]";
  o += ",\"layout\":" + jstr(Op::LAYOUT);
  o += ",\"types\":{\"a\":" + jstr(Op::TA) + ",\"b\":" + jstr(Op::TB) + ",\"c\":" + jstr(Op::TC) + ",\"d\":" + jstr(Op::TD) + "}";
  o += ",\"a_elem_bits\":" + std::to_string(Op::A_BITS) + ",\"a_regs\":" + std::to_string(Op::A_REGS);
  o += ",\"b_elem_bits\":" + std::to_string(Op::B_BITS) + ",\"b_regs\":" + std::to_string(Op::B_REGS);
  o += ",\"c_regs\":" + std::to_string(Op::C_REGS) + ",\"d_regs\":" + std::to_string(Op::D_REGS);
  o += ",\"num_a\":" + std::to_string(Op::NA) + ",\"num_b\":" + std::to_string(Op::NB) + ",\"num_d\":" + std::to_string(Op::ND);
  o += ",\"one_a\":" + jstr(hex64(Op::A_ONE)) + ",\"one_b\":" + jstr(hex64(Op::B_ONE));
  o += ",\"mma_issued\":" + std::to_string((long long)blocks * (32 * Op::NB + 1) * 2);
  o += onehot_fields(run);
  o += "}";
  return o;
}

// ------------------------------------------------------------------------------------------
// the job list
// ------------------------------------------------------------------------------------------
static std::vector<Job> make_jobs() {
  std::vector<Job> j;
  j.push_back({"ldmatrix_x1", "ldmatrix", job_ldmatrix<1, false>});
  j.push_back({"ldmatrix_x2", "ldmatrix", job_ldmatrix<2, false>});
  j.push_back({"ldmatrix_x4", "ldmatrix", job_ldmatrix<4, false>});
  j.push_back({"ldmatrix_x1_trans", "ldmatrix", job_ldmatrix<1, true>});
  j.push_back({"ldmatrix_x2_trans", "ldmatrix", job_ldmatrix<2, true>});
  j.push_back({"ldmatrix_x4_trans", "ldmatrix", job_ldmatrix<4, true>});
  j.push_back({"stmatrix_x1", "stmatrix", job_stmatrix<1, false>});
  j.push_back({"stmatrix_x2", "stmatrix", job_stmatrix<2, false>});
  j.push_back({"stmatrix_x4", "stmatrix", job_stmatrix<4, false>});
  j.push_back({"stmatrix_x1_trans", "stmatrix", job_stmatrix<1, true>});
  j.push_back({"stmatrix_x2_trans", "stmatrix", job_stmatrix<2, true>});
  j.push_back({"stmatrix_x4_trans", "stmatrix", job_stmatrix<4, true>});
  j.push_back({"movmatrix", "movmatrix", job_movmatrix});
#define ADD_MMA(OP) j.push_back({OP::ID, OP::FAMILY, job_mma<OP>});
  FOR_ALL_MMA_OPS(ADD_MMA)
#undef ADD_MMA
  return j;
}

// variants ptxas refused for sm_90 (listed by gen_mma_ops.py), as the family's "not_assembled"
static std::string not_assembled(const std::string& fam) {
  std::string o = "[";
  bool first = true;
  for (const SkippedOp* s = SKIPPED_OPS; s->id; ++s) {
    if (fam != s->family) continue;
    o += (first ? "" : ",") + std::string("{\"id\":") + jstr(s->id) + ",\"instruction\":" + jstr(s->instr) +
         ",\"ptxas\":" + jstr(s->reason) + "}";
    first = false;
  }
  return o + "]";
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture";
  c.meta = [] { return meta_json("tools/gpu/capture.cu", ""); };
  c.jobs = make_jobs();
  c.families = {"ldmatrix", "stmatrix", "movmatrix", "mma_sync", "mma_sync_b1"};
  c.not_assembled = not_assembled;
  return capture_main(argc, argv, c);
}
