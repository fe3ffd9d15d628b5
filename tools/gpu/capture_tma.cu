// tools/gpu/capture_tma.cu -- what a 2-D tiled TMA load (cp.async.bulk.tensor.2d ... tile) really writes into
// shared memory on an NVIDIA Hopper GPU (written for the H200), and which tensor maps the driver refuses.
// No CuTe/CUTLASS code or layout is used: tensor maps are encoded here with cuTensorMapEncodeTiled (through
// cudaGetDriverEntryPointByVersion, so no -lcuda), and what comes back is raw observation.
//
// Build:  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -cudart static -std=c++17 \
//              -o tools/gpu/build/capture_tma tools/gpu/capture_tma.cu
// Run:    tools/gpu/build/capture_tma OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/tma.json (see tools/gpu/README.md, section "tma.json").
//
// Placement method: the global tensor is a 2-D array of `rows` x `cols` elements of E bytes with a row pitch
// of `pitch` bytes (dimension 0 = cols, innermost).  Global byte i carries the digits of i + 1 in base 256,
// one digit per pass: pass p writes byte i = ((i + 1) >> 8p) & 0xFF.  Shared memory (a 1024-byte aligned
// window) is prefilled with 0x00 in one run and 0xFF in another of pass 0: a byte that reads the same in both
// was written by the copy.  Its value v = sum of the digits tells where it came from: v - 1 is the global byte
// index, v == 0 is a zero fill; anything else is a fill pattern (recorded raw).  Each written window byte is
// reported run-length encoded as [window offset, v, length, dv] (v grows by dv along the run).
#include "tma_common.h"

// one job = a list of placements (a job that faults loses only its own list)
static std::string job_placements(const std::string& id, const std::vector<Placement>& ps) {
  std::string o = "{\"id\":" + jstr(id) + ",\"kind\":\"placement\",\"instruction\":" +
                  jstr("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes") +
                  ",\"passes\":" + std::to_string(PASSES) + ",\"placements\":[";
  for (size_t k = 0; k < ps.size(); ++k) o += (k ? ",\n" : "\n") + placement_json(ps[k]);
  return o + "]}";
}

// the placements of one (element type, swizzle) family: box shapes, start coordinates (inside, partly out of
// bounds on either side), 128-byte aligned destination offsets
static std::vector<Placement> family(const Dtype* t, int swz) {
  const int E = t->bytes;
  const int span = swz == 0 ? 256 : (16 << swz);            // 32, 64, 128 bytes; "none": up to 256 bytes per row
  std::vector<int> inner_bytes;
  for (int b : {16, 32, 64, 128, 256}) if (b <= span && b / E <= 256) inner_bytes.push_back(b);
  std::vector<Placement> out;
  for (int ib : inner_bytes) {
    const int box0 = ib / E;
    for (int box1 : {1, 5, 8}) {
      const int cols = box0 * 2 + 3, rows = 20;
      const int pitch = ((cols * E + 15) / 16) * 16 + 16;
      const int step = 16 / E;            // the start's byte offset in dimension 0 must be a multiple of 16 (see
                                          // the jobs start_misaligned_*: otherwise the copy traps)
      struct S { int c0, c1; bool all_dst; } starts[] = {
          {0, 0, true}, {step, 2, true}, {-step, -3, false}, {(cols - box0 / 2) / step * step, rows - 2, false}};
      for (auto s : starts) {
        for (int dst : {0, 128, 1024}) {
          if (dst && !s.all_dst) continue;       // out-of-bounds starts at one destination keep the table small
          out.push_back({t, swz, box0, box1, cols, rows, pitch, s.c0, s.c1, dst, false});
        }
      }
    }
  }
  return out;
}

// destinations not aligned to 128 bytes: the PTX ISA requires 128-byte alignment of the shared address
static std::vector<Placement> misaligned(int swz, int dst) {
  const Dtype* t = &DTYPES[4];   // float16
  return {{t, swz, 64, 8, 80, 16, 176, 0, 0, dst, false}};
}

// starts whose byte offset in dimension 0 is not a multiple of 16 (one job each: a trap ends the job)
static std::vector<Placement> start_misaligned(int k, int c0) {
  const Dtype* t = &DTYPES[k];
  const int box0 = 32 / t->bytes;
  return {{t, 0, box0, 2, 4 * box0, 8, ((4 * box0 * t->bytes + 15) / 16) * 16, c0, 1, 0, false}};
}

// out-of-bounds fill with the NaN request, for the float types
static std::vector<Placement> nan_fill() {
  std::vector<Placement> out;
  for (int k : {4, 5, 6, 7}) {
    const Dtype* t = &DTYPES[k];
    const int box0 = 32 / t->bytes;
    const int step = 16 / t->bytes;
    out.push_back({t, 0, box0, 4, box0 + 1, 6, ((box0 + 1) * t->bytes + 15) / 16 * 16, -step, 4, 0, true});
    out.push_back({t, 3, box0, 4, box0 + 1, 6, ((box0 + 1) * t->bytes + 15) / 16 * 16, step, -2, 0, true});
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// the driver's refusals: cuTensorMapEncodeTiled over a grid of parameters (host only)
// ------------------------------------------------------------------------------------------
static std::string job_encode_rules() {
  std::string o = "{\"id\":\"encode_rules\",\"kind\":\"encode\",\"function\":\"cuTensorMapEncodeTiled\","
                  "\"rank\":2,\"fields\":[\"dtype\",\"elem_bytes\",\"swizzle\",\"box0\",\"box1\",\"dim0\",\"dim1\","
                  "\"stride\",\"addr_misalign\",\"elem_stride0\",\"elem_stride1\",\"nan_fill\",\"result\"],\"rows\":[";
  if (g_fake) return o + "]}";
  uint8_t* g = nullptr;
  CK(cudaMalloc(&g, 1 << 20));
  bool first = true;
  auto try_one = [&](const Dtype* t, int swz, long long b0, long long b1, unsigned long long d0, unsigned long long d1,
                     unsigned long long stride, int mis, int es0, int es1, bool nan) {
    CUtensorMap m;
    cuuint64_t dims[2] = {d0, d1};
    cuuint64_t strides[1] = {stride};
    cuuint32_t box[2] = {(cuuint32_t)b0, (cuuint32_t)b1};
    cuuint32_t estr[2] = {(cuuint32_t)es0, (cuuint32_t)es1};
    CUresult r = encode_fn()(&m, t->dt, 2, g + mis, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                             SWIZZLES[swz], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    o += (first ? "\n[" : ",\n[") + jstr(t->name) + "," + std::to_string(t->bytes) + "," + jstr(SWIZZLE_NAMES[swz]) +
         "," + std::to_string(b0) + "," + std::to_string(b1) + "," + std::to_string(d0) + "," + std::to_string(d1) +
         "," + std::to_string(stride) + "," + std::to_string(mis) + "," + std::to_string(es0) + "," +
         std::to_string(es1) + "," + (nan ? "true" : "false") + "," + std::to_string((int)r) + "]";
    first = false;
  };
  for (const Dtype& t : DTYPES) {
    const int E = t.bytes;
    for (int swz = 0; swz < 4; ++swz) {
      // inner box bytes around every limit: not a multiple of 16, the swizzle span, 256 elements
      for (int ib : {8, 16, 24, 32, 48, 64, 96, 128, 144, 256, 512}) {
        if (ib % E) continue;
        try_one(&t, swz, ib / E, 8, 1024, 64, 4096, 0, 1, 1, false);
      }
      try_one(&t, swz, 16 / E, 256, 1024, 1024, 4096, 0, 1, 1, false);
      try_one(&t, swz, 16 / E, 257, 1024, 1024, 4096, 0, 1, 1, false);
      try_one(&t, swz, 16 / E, 0, 1024, 1024, 4096, 0, 1, 1, false);
      try_one(&t, swz, 0, 8, 1024, 1024, 4096, 0, 1, 1, false);
    }
    if (E <= 2) try_one(&t, 0, 512 / E, 1, 1024, 64, 4096, 0, 1, 1, false);   // 256+ elements in dimension 0
    // global strides: multiple of 16, at most 2^40 - 1; dims: 1 .. 2^32; address alignment; element strides
    for (unsigned long long s : {4096ULL, 4104ULL, 4112ULL, 8ULL, (1ULL << 40) - 16, 1ULL << 40})
      try_one(&t, 0, 16 / E, 8, 64, 64, s, 0, 1, 1, false);
    for (unsigned long long d : {1ULL, 1ULL << 32, (1ULL << 32) + 1, 0ULL})
      try_one(&t, 0, 16 / E, 8, d, 64, 4096, 0, 1, 1, false);
    for (int mis : {8, 16, 32})
      try_one(&t, 0, 16 / E, 8, 64, 64, 4096, mis, 1, 1, false);
    for (int es : {2, 8, 9, 0})
      try_one(&t, 0, 16 / E, 8, 64, 64, 4096, 0, 1, es, false);
    try_one(&t, 0, 16 / E, 8, 64, 64, 4096, 0, 1, 1, true);                    // NaN fill: float types only
  }
  cudaFree(g);
  return o + "]}";
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_tma";
  c.meta = [] { return meta_json("tools/gpu/capture_tma.cu", ",\"target\":\"sm_90a\""); };
  c.jobs.push_back({"encode_rules", "tma", job_encode_rules});
  for (int k : {0, 1, 2, 3}) {                 // uint8, uint16, uint32, uint64
    for (int swz = 0; swz < 4; ++swz) {
      const std::string id = std::string("place_") + DTYPES[k].name + "_" + SWIZZLE_NAMES[swz];
      const Dtype* t = &DTYPES[k];
      c.jobs.push_back({id, "tma", [id, t, swz] { return job_placements(id, family(t, swz)); }});
    }
  }
  c.jobs.push_back({"place_nan_fill", "tma", [] { return job_placements("place_nan_fill", nan_fill()); }});
  struct Mis { int k, c0; } mis[] = {{1, 3}, {0, 8}, {5, 1}, {5, -1}, {3, 1}, {0, 16}};  // the last is aligned
  for (auto m : mis) {
    const std::string id = std::string("start_misaligned_") + DTYPES[m.k].name + "_c0_" + std::to_string(m.c0);
    c.jobs.push_back({id, "tma", [id, m] { return job_placements(id, start_misaligned(m.k, m.c0)); }});
  }
  for (int swz : {0, 3}) {
    for (int dst : {16, 64}) {
      const std::string id = std::string("misaligned_") + SWIZZLE_NAMES[swz] + "_" + std::to_string(dst);
      c.jobs.push_back({id, "tma", [id, swz, dst] { return job_placements(id, misaligned(swz, dst)); }});
    }
  }
  c.families = {"tma"};
  return capture_main(argc, argv, c);
}
