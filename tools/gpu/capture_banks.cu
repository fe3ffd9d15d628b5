// tools/gpu/capture_banks.cu -- one warp-wide shared-memory instruction per kernel launch, for Nsight Compute to
// count its shared-memory wavefronts and bank conflicts.  No CuTe/CUTLASS code or layout is used: the per-lane
// addresses come from tools/gpu/bank_patterns.py (a text file), the counts from ncu (run_banks.sh).
//
// Build:  nvcc -arch=sm_90 -O2 -cudart static -std=c++17 -o tools/gpu/build/capture_banks tools/gpu/capture_banks.cu
// Run:    tools/gpu/build/capture_banks PATTERNS.txt OUT.json [--date ISO8601] [--driver STR] [--fake]
//         (under ncu: tools/gpu/run_banks.sh).  Launch i runs pattern i (line i of PATTERNS.txt), in order.
//
// The kernel: one block of 32 threads; lane l issues the pattern's instruction at buffer + offset[l], where the
// buffer is a 1024-byte aligned static __shared__ array.  Nothing else touches shared memory (loaded values
// are kept alive through a global sink that is never written in practice), so each launch's shared-memory
// counters are that one instruction's.
#include "capture_common.h"

constexpr int LANES = 32;
constexpr int BUFFER = 48 * 1024;

__global__ void bank_kernel(int kind, const unsigned* __restrict__ offsets, const uint4* __restrict__ gsrc,
                            unsigned* sink) {
  __shared__ __align__(1024) unsigned char buf[BUFFER];
  const unsigned lane = threadIdx.x;
  const unsigned base = (unsigned)__cvta_generic_to_shared(buf);
  const unsigned a = base + offsets[lane];
  const void* g = gsrc + lane;
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0;
  switch (kind) {
    case 0: asm volatile("ld.shared.b32 %0, [%1];" : "=r"(r0) : "r"(a)); break;
    case 1: asm volatile("ld.shared.v2.b32 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); break;
    case 2: asm volatile("ld.shared.v4.b32 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a)); break;
    case 3: asm volatile("st.shared.b32 [%0], %1;" ::"r"(a), "r"(lane) : "memory"); break;
    case 4: asm volatile("st.shared.v2.b32 [%0], {%1,%2};" ::"r"(a), "r"(lane), "r"(lane) : "memory"); break;
    case 5: asm volatile("st.shared.v4.b32 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(lane), "r"(lane), "r"(lane), "r"(lane) : "memory"); break;
    case 6: asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a)); break;
    case 7: asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); break;
    case 8: asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a)); break;
    case 9: asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];" : "=r"(r0) : "r"(a)); break;
    case 10: asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(a)); break;
    case 11: asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(a)); break;
    case 12: asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(a), "r"(lane) : "memory"); break;
    case 13: asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1,%2};" ::"r"(a), "r"(lane), "r"(lane) : "memory"); break;
    case 14: asm volatile("stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(lane), "r"(lane), "r"(lane), "r"(lane) : "memory"); break;
    case 15: asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(a), "r"(lane) : "memory"); break;
    case 16: asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1,%2};" ::"r"(a), "r"(lane), "r"(lane) : "memory"); break;
    case 17: asm volatile("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1,%2,%3,%4};" ::"r"(a), "r"(lane), "r"(lane), "r"(lane), "r"(lane) : "memory"); break;
    case 18: asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\ncp.async.wait_all;" ::"r"(a), "l"(g) : "memory"); break;
    case 19: asm volatile("cp.async.ca.shared.global [%0], [%1], 8;\ncp.async.wait_all;" ::"r"(a), "l"(g) : "memory"); break;
    case 20: asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\ncp.async.wait_all;" ::"r"(a), "l"(g) : "memory"); break;
    case 21: { unsigned short h; asm volatile("ld.shared.u16 %0, [%1];" : "=h"(h) : "r"(a)); r0 = h; break; }
    case 22: { unsigned short h; asm volatile("ld.shared.u8 %0, [%1];" : "=h"(h) : "r"(a)); r0 = h; break; }
    case 23: asm volatile("st.shared.u16 [%0], %1;" ::"r"(a), "h"((unsigned short)lane) : "memory"); break;
    case 24: asm volatile("st.shared.u8 [%0], %1;" ::"r"(a), "h"((unsigned short)lane) : "memory"); break;
    default: break;
  }
  if ((r0 ^ r1 ^ r2 ^ r3) == 0x5eed1e55u) sink[lane] = r0;   // keeps the loads; never true for our data in practice
  if (lane == 0) sink[LANES] = base;                          // the buffer's shared address (a global store)
}

struct Pattern {
  std::string id;
  int kind;
  std::vector<unsigned> offsets;
};

static std::vector<Pattern> read_patterns(const char* path) {
  std::vector<Pattern> out;
  FILE* f = fopen(path, "r");
  if (!f) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
  char id[256];
  int kind;
  while (fscanf(f, "%255s %d", id, &kind) == 2) {
    Pattern p{id, kind, std::vector<unsigned>(LANES)};
    for (int l = 0; l < LANES; ++l)
      if (fscanf(f, "%u", &p.offsets[l]) != 1 || p.offsets[l] >= (unsigned)BUFFER) { fprintf(stderr, "bad line %s\n", id); exit(2); }
    out.push_back(p);
  }
  fclose(f);
  return out;
}

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: capture_banks PATTERNS.txt OUT.json [--date D] [--driver V] [--fake]\n"); return 2; }
  for (int i = 3; i < argc; ++i) {
    std::string s = argv[i];
    if (s == "--fake") g_fake = true;
    else if (s == "--date" && i + 1 < argc) g_date = argv[++i];
    else if (s == "--driver" && i + 1 < argc) g_driver_str = argv[++i];
    else { fprintf(stderr, "unknown option %s\n", argv[i]); return 2; }
  }
  const std::vector<Pattern> pats = read_patterns(argv[1]);
  std::string o = "{\"meta\":" + meta_json("tools/gpu/capture_banks.cu", ",\"target\":\"sm_90\"") +
                  ",\"buffer_bytes\":" + std::to_string(BUFFER);
  unsigned base = 0;
  std::string failed = "[";
  try {
    if (!g_fake) {
      unsigned* d_off; uint4* d_src; unsigned* d_sink;
      CK(cudaMalloc(&d_off, LANES * sizeof(unsigned)));
      CK(cudaMalloc(&d_src, LANES * sizeof(uint4)));
      CK(cudaMemset(d_src, 0, LANES * sizeof(uint4)));
      CK(cudaMalloc(&d_sink, (LANES + 1) * sizeof(unsigned)));
      for (const Pattern& p : pats) {
        CK(cudaMemcpy(d_off, p.offsets.data(), LANES * sizeof(unsigned), cudaMemcpyHostToDevice));
        bank_kernel<<<1, LANES>>>(p.kind, d_off, d_src, d_sink);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
      }
      CK(cudaMemcpy(&base, d_sink + LANES, sizeof(unsigned), cudaMemcpyDeviceToHost));
    }
  } catch (const CudaFail& e) {
    failed += "{\"error\":" + jstr(e.msg) + "}";
  }
  o += ",\"buffer_shared_address\":" + std::to_string(base) + ",\"failed_at_run_time\":" + failed + "]";
  o += ",\"patterns\":[";
  for (size_t i = 0; i < pats.size(); ++i) {
    if (i) o += ",";
    o += "{\"launch\":" + std::to_string(i) + ",\"id\":" + jstr(pats[i].id) + ",\"kind\":" + std::to_string(pats[i].kind) +
         ",\"offsets\":" + jlist(pats[i].offsets) + "}";
  }
  o += "]}\n";
  return write_file(argv[2], o) ? 0 : 1;
}
