// tools/gpu/capture_cp_async.cu -- what cp.async (sm_80+, LDGSTS) writes into shared memory, captured on the GPU
// (written for the H200).  No CuTe/CUTLASS code or layout is used; what comes back is raw observation, compared with
// verifier/hardware/vector_copy.py's cp.async model by tests/test_hw_cp_async.py.
//
// Build:  nvcc -arch=sm_90 -O2 -cudart static -std=c++17 -o tools/gpu/build/capture_cp_async tools/gpu/capture_cp_async.cu
// Run:    tools/gpu/build/capture_cp_async OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/cp_async.json (see tools/gpu/README.md, section "cp.async").
//
// Method (every table).  Global byte i holds GLOBAL_BYTE(i); shared memory is filled with SMEM_FILL, then each of
// the 32 lanes of one warp issues one cp.async [smem + dst(lane)], [global + src(lane)], cp-size, src-size (or
// without src-size), commits, waits for all groups, and the block copies the shared window out.  The table holds
// the form, each lane's dst and src offsets and the window's bytes (hex).  A job whose address the instruction
// refuses (misaligned) faults: the driver records it in `failed_at_run_time` with CUDA's error.
#include "capture_common.h"

constexpr int LANES = 32;
constexpr int WINDOW = 2048;          // shared bytes recorded (every dst below is inside it)
constexpr int GLOBAL_BYTES = 4096;
constexpr unsigned char SMEM_FILL = 0xAB;
__host__ __device__ constexpr unsigned char global_byte(int i) { return (unsigned char)((i * 13 + 7) & 0xFF); }

enum Form { CA4, CA8, CA16, CG16 };
static const char* form_name(Form f) {
  switch (f) { case CA4: return "ca4"; case CA8: return "ca8"; case CA16: return "ca16"; default: return "cg16"; }
}
static int form_bytes(Form f) { return f == CA4 ? 4 : f == CA8 ? 8 : 16; }
static const char* form_ptx(Form f) {
  return f == CG16 ? "cp.async.cg.shared.global [dst], [src], 16, src_size"
                   : "cp.async.ca.shared.global [dst], [src], cp_size, src_size";
}

struct Plan {
  int dst[LANES], src[LANES];
  int src_size;                       // < 0: the form without src-size
};

template <int CP, bool CG>
__device__ __forceinline__ void issue(uint32_t dst, const void* src, int src_size) {
  if (src_size < 0) {
    if (CG) asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst), "l"(src));
    else asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(dst), "l"(src), "n"(CP));
  } else {
    if (CG) asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src), "r"(src_size));
    else asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(dst), "l"(src), "n"(CP), "r"(src_size));
  }
}

template <int CP, bool CG>
__global__ void kernel(const unsigned char* global, Plan plan, unsigned char* out) {
  __shared__ __align__(128) unsigned char smem[WINDOW];
  for (int i = threadIdx.x; i < WINDOW; i += blockDim.x) smem[i] = SMEM_FILL;
  __syncthreads();
  const int lane = threadIdx.x;
  const uint32_t base = (uint32_t)__cvta_generic_to_shared(smem);
  issue<CP, CG>(base + plan.dst[lane], global + plan.src[lane], plan.src_size);
  asm volatile("cp.async.commit_group;\n" ::);
  asm volatile("cp.async.wait_all;\n" ::);
  __syncthreads();
  for (int i = threadIdx.x; i < WINDOW; i += blockDim.x) out[i] = smem[i];
}

static std::string hex(const std::vector<unsigned char>& v) {
  static const char* d = "0123456789abcdef";
  std::string o;
  for (unsigned char c : v) { o += d[c >> 4]; o += d[c & 15]; }
  return o;
}

static std::string run(const std::string& id, Form form, const Plan& plan) {
  std::vector<unsigned char> window(WINDOW, 0);
  if (!g_fake) {
    unsigned char *d_global, *d_out;
    CK(cudaMalloc(&d_global, GLOBAL_BYTES));
    CK(cudaMalloc(&d_out, WINDOW));
    std::vector<unsigned char> g(GLOBAL_BYTES);
    for (int i = 0; i < GLOBAL_BYTES; ++i) g[i] = global_byte(i);
    CK(cudaMemcpy(d_global, g.data(), GLOBAL_BYTES, cudaMemcpyHostToDevice));
    switch (form) {
      case CA4: kernel<4, false><<<1, LANES>>>(d_global, plan, d_out); break;
      case CA8: kernel<8, false><<<1, LANES>>>(d_global, plan, d_out); break;
      case CA16: kernel<16, false><<<1, LANES>>>(d_global, plan, d_out); break;
      case CG16: kernel<16, true><<<1, LANES>>>(d_global, plan, d_out); break;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(window.data(), d_out, WINDOW, cudaMemcpyDeviceToHost));
    CK(cudaFree(d_global)); CK(cudaFree(d_out));
  }
  std::vector<int> dst(plan.dst, plan.dst + LANES), src(plan.src, plan.src + LANES);
  std::string o = "{\"id\":" + jstr(id) + ",\"form\":" + jstr(form_name(form)) + ",\"ptx\":" + jstr(form_ptx(form));
  o += ",\"cp_size\":" + std::to_string(form_bytes(form)) + ",\"src_size\":" + std::to_string(plan.src_size);
  o += ",\"dst\":" + jlist(dst) + ",\"src\":" + jlist(src);
  o += ",\"smem_fill\":" + std::to_string(SMEM_FILL) + ",\"window\":" + jstr(hex(window)) + "}";
  return o;
}

// lane t writes its own cp-size bytes (dst t * stride) from a permuted source (src perm(t) * cp-size, perm a
// bijection of the lanes), so a byte that lands in the wrong lane's slot or from the wrong source is visible
static Plan permuted(Form f, int src_size, int dst_stride_mult = 1) {
  Plan p;
  const int cp = form_bytes(f);
  for (int t = 0; t < LANES; ++t) {
    p.dst[t] = t * cp * dst_stride_mult;
    p.src[t] = ((t * 5 + 3) % LANES) * cp + 64;
  }
  p.src_size = src_size;
  return p;
}

static Plan misaligned(Form f, int dst_off, int src_off) {
  Plan p = permuted(f, -1);
  p.dst[0] += dst_off;
  p.src[0] += src_off;
  return p;
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_cp_async";
  c.meta = [] {
    return meta_json("tools/gpu/capture_cp_async.cu",
                     ",\"global_byte\":\"(i * 13 + 7) & 0xFF\",\"window_bytes\":" + std::to_string(WINDOW));
  };
  c.families = {"cp_async"};
  auto add = [&](const std::string& id, Form f, Plan p) {
    c.jobs.push_back({id, "cp_async", [id, f, p] { return run(id, f, p); }});
  };
  for (Form f : {CA4, CA8, CA16, CG16}) {
    const int cp = form_bytes(f);
    const std::string n = form_name(f);
    add(n + "_full", f, permuted(f, -1));
    add(n + "_full_strided", f, permuted(f, -1, 3));
    add(n + "_src_size_" + std::to_string(cp), f, permuted(f, cp));
    for (int s : {0, 1, cp / 2, cp - 1})
      if (s < cp) add(n + "_src_size_" + std::to_string(s), f, permuted(f, s));
  }
  // the alignment the instruction requires of both addresses: cp-size bytes (a fault is the observation)
  add("ca4_dst_off2", CA4, misaligned(CA4, 2, 0));
  add("ca4_src_off2", CA4, misaligned(CA4, 0, 2));
  add("ca8_dst_off4", CA8, misaligned(CA8, 4, 0));
  add("ca8_src_off4", CA8, misaligned(CA8, 0, 4));
  add("ca16_dst_off8", CA16, misaligned(CA16, 8, 0));
  add("ca16_src_off8", CA16, misaligned(CA16, 0, 8));
  add("cg16_dst_off4", CG16, misaligned(CG16, 4, 0));
  add("cg16_src_off4", CG16, misaligned(CG16, 0, 4));
  return capture_main(argc, argv, c);
}
