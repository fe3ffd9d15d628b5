// tools/gpu/capture_tma_nd.cu -- what a 3-, 4- and 5-D tiled TMA load (cp.async.bulk.tensor.{3,4,5}d ... tile)
// really writes into shared memory on an NVIDIA Hopper GPU (written for the H200), which rank-3..5 tensor maps the
// driver refuses, and what it does with the packed sub-byte data types (CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B,
// 16U4_ALIGN16B, 16U6_ALIGN16B).  No CuTe/CUTLASS code or layout is used; tensor maps are encoded here with
// cuTensorMapEncodeTiled (through cudaGetDriverEntryPointByVersion, so no -lcuda) and what comes back is raw
// observation.
//
// Build:  nvcc -gencode=arch=compute_90a,code=sm_90a -gencode=arch=compute_100a,code=sm_100a -O2 -cudart static \
//              -std=c++17 -o tools/gpu/build/capture_tma_nd tools/gpu/capture_tma_nd.cu
// (the kernel uses only sm_90 instructions; the sm_100a build is for a Blackwell run: the sub-byte types are sm_100
// features, and an H200's driver may refuse to encode them, as it refuses the sm_100 swizzles)
// Run:    tools/gpu/build/capture_tma_nd OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/tma_nd.json (tools/gpu/README.md, section "tma_nd.json").
//
// Placement method (capture_tma.cu's): global byte i carries the digits of i + 1 in base 256, one digit per pass;
// the 1024-byte aligned shared window is prefilled with 0x00 in one run and 0xFF in another of pass 0, so a byte
// that reads the same in both was written, and its digits v tell where it came from (v - 1: the global byte; 0: a
// zero fill; anything else a fill pattern, recorded raw).  Written window bytes are reported run-length encoded as
// [window offset, v, length, dv], over the box's shared footprint (rows x the row pitch: a row takes the whole
// swizzle span, and a padded sub-byte row 16 bytes per 16 elements) and 1024 bytes past it.  The padding of the
// ALIGN16B types is uninitialised: a padding byte the copy leaves alone reads differently in the two prefills and
// is absent from the runs; one it writes (zeros, say) shows as written.
#include "tma_common.h"

constexpr int MAX_RANK = 5;

// info[0]: 1 when the mbarrier phase completed with expect_tx = tx; info[1]: the window's shared address
template <int R>
__global__ void tma_nd_kernel(const __grid_constant__ CUtensorMap tmap, int4 c03, int c4, int dst_off,
                              unsigned prefill, unsigned tx, uint8_t* out, int out_bytes, unsigned* info) {
  __shared__ __align__(1024) uint8_t win[WINDOW];
  __shared__ __align__(8) uint64_t bar;
  for (int i = threadIdx.x; i < WINDOW; i += blockDim.x) win[i] = (uint8_t)prefill;
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  if (threadIdx.x == 0) {
    const uint32_t b = smem_addr(&bar), d = smem_addr(win) + (uint32_t)dst_off;
    const uint64_t m = reinterpret_cast<uint64_t>(&tmap);
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(tx) : "memory");
    if constexpr (R == 2) {
      asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3}], [%4];\n"
                   ::"r"(d), "l"(m), "r"(c03.x), "r"(c03.y), "r"(b) : "memory");
    } else if constexpr (R == 3) {
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4}], [%5];\n"
                   ::"r"(d), "l"(m), "r"(c03.x), "r"(c03.y), "r"(c03.z), "r"(b) : "memory");
    } else if constexpr (R == 4) {
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5}], [%6];\n"
                   ::"r"(d), "l"(m), "r"(c03.x), "r"(c03.y), "r"(c03.z), "r"(c03.w), "r"(b) : "memory");
    } else {
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5, %6}], [%7];\n"
                   ::"r"(d), "l"(m), "r"(c03.x), "r"(c03.y), "r"(c03.z), "r"(c03.w), "r"(c4), "r"(b) : "memory");
    }
    unsigned done = 0;
    for (long long spin = 0; spin < (1LL << 22) && !done; ++spin) {
      asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}\n"
                   : "=r"(done) : "r"(b) : "memory");
    }
    info[0] = done;
    info[1] = smem_addr(win);
  }
  __syncthreads();
  for (int i = threadIdx.x; i < out_bytes; i += blockDim.x) out[i] = win[i];
}

// the element types of this tool: the byte-sized ones of tma_common.h and the packed sub-byte ones (bits per element;
// the driver counts globalDim and boxDim in elements)
struct NdType { const char* name; CUtensorMapDataType dt; int bits; };
static const NdType ND_TYPES[] = {
  {"uint8", CU_TENSOR_MAP_DATA_TYPE_UINT8, 8}, {"uint16", CU_TENSOR_MAP_DATA_TYPE_UINT16, 16},
  {"uint32", CU_TENSOR_MAP_DATA_TYPE_UINT32, 32}, {"float16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 16},
  {"16U4_ALIGN8B", CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B, 4}, {"16U4_ALIGN16B", CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B, 4},
  {"16U6_ALIGN16B", CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 6},
};
enum { T_U8, T_U16, T_U32, T_F16, T_U4_8B, T_U4_16B, T_U6_16B };

struct NdPlacement {
  const NdType* t;
  int rank;
  int swizzle;                          // index into SWIZZLES
  long long dims[MAX_RANK];             // elements
  long long strides[MAX_RANK - 1];      // bytes, dimensions 1..rank-1
  int box[MAX_RANK];                    // elements
  int estr[MAX_RANK];                   // elementStrides (1 unless a strided job sets them)
  int start[MAX_RANK];
  int dst_off;
  bool nan_fill;                        // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
  int smem_footprint;                   // bytes from the destination the box spans in shared memory
  int tx;                               // the bytes expect_tx is told (the box's bytes unless a job says otherwise)
};

static CUresult encode_nd(CUtensorMap* tmap, const NdPlacement& P, void* g) {
  cuuint64_t dims[MAX_RANK], strides[MAX_RANK - 1];
  cuuint32_t box[MAX_RANK], estr[MAX_RANK];
  for (int i = 0; i < P.rank; ++i) {
    dims[i] = (cuuint64_t)P.dims[i];
    box[i] = (cuuint32_t)P.box[i];
    estr[i] = (cuuint32_t)P.estr[i];
    if (i) strides[i - 1] = (cuuint64_t)P.strides[i - 1];
  }
  return encode_fn()(tmap, P.t->dt, (cuuint32_t)P.rank, g, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                     SWIZZLES[P.swizzle], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                     P.nan_fill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

static std::string ints(const long long* v, int n) {
  std::string o = "[";
  for (int i = 0; i < n; ++i) o += (i ? "," : "") + std::to_string(v[i]);
  return o + "]";
}
static std::string ints(const int* v, int n) {
  std::string o = "[";
  for (int i = 0; i < n; ++i) o += (i ? "," : "") + std::to_string(v[i]);
  return o + "]";
}

static void launch_nd(const NdPlacement& P, const CUtensorMap& tmap, unsigned prefill, unsigned tx, uint8_t* out,
                      int out_bytes, unsigned* info) {
  const int4 c03 = make_int4(P.start[0], P.start[1], P.rank > 2 ? P.start[2] : 0, P.rank > 3 ? P.start[3] : 0);
  const int c4 = P.rank > 4 ? P.start[4] : 0;
  switch (P.rank) {
    case 2: tma_nd_kernel<2><<<1, 256>>>(tmap, c03, c4, P.dst_off, prefill, tx, out, out_bytes, info); break;
    case 3: tma_nd_kernel<3><<<1, 256>>>(tmap, c03, c4, P.dst_off, prefill, tx, out, out_bytes, info); break;
    case 4: tma_nd_kernel<4><<<1, 256>>>(tmap, c03, c4, P.dst_off, prefill, tx, out, out_bytes, info); break;
    default: tma_nd_kernel<5><<<1, 256>>>(tmap, c03, c4, P.dst_off, prefill, tx, out, out_bytes, info); break;
  }
}

// the global buffer's bytes: the outermost dimension's extent times its stride (dimension 0's packed bytes for a
// rank-1 view), rounded up to 256
static long long global_bytes(const NdPlacement& P) {
  const long long inner = (P.dims[0] * P.t->bits + 7) / 8;
  long long end = inner;
  for (int i = 1; i < P.rank; ++i) end += (P.dims[i] - 1) * P.strides[i - 1];
  return (end + 255) / 256 * 256;
}

static std::string nd_placement_json(const NdPlacement& P) {
  const long long gbytes = global_bytes(P);
  const int out_bytes = std::min(WINDOW, P.dst_off + P.smem_footprint + 1024);
  std::string o = "{\"dtype\":" + jstr(P.t->name) + ",\"elem_bits\":" + std::to_string(P.t->bits) +
                  ",\"rank\":" + std::to_string(P.rank) + ",\"swizzle\":" + jstr(SWIZZLE_NAMES[P.swizzle]) +
                  ",\"box\":" + ints(P.box, P.rank) + ",\"global_dim\":" + ints(P.dims, P.rank) +
                  ",\"global_strides\":" + ints(P.strides, P.rank - 1) + ",\"element_strides\":" +
                  ints(P.estr, P.rank) + ",\"start\":" + ints(P.start, P.rank) +
                  ",\"dst_offset\":" + std::to_string(P.dst_off) + ",\"oob_fill\":" +
                  jstr(P.nan_fill ? "nan" : "zero") + ",\"smem_footprint\":" +
                  std::to_string(P.smem_footprint) + ",\"expect_tx\":" + std::to_string(P.tx) +
                  ",\"global_bytes\":" + std::to_string(gbytes);
  if (g_fake) return o + ",\"encode\":\"fake\",\"window_addr\":0,\"tx_complete\":false,\"runs\":[]}";
  if (gbytes >= 65535) throw CudaFail{"placement's global buffer exceeds the two-digit encoding"};
  return o + placement_runs(
      gbytes, out_bytes, [&](CUtensorMap* tmap, uint8_t* g) { return encode_nd(tmap, P, g); },
      [&](const CUtensorMap& tmap, unsigned prefill, uint8_t* d_out, unsigned* d_info) {
        launch_nd(P, tmap, prefill, (unsigned)P.tx, d_out, out_bytes, d_info);
      });
}

static std::string job_nd(const std::string& id, const std::vector<NdPlacement>& ps) {
  std::string o = "{\"id\":" + jstr(id) + ",\"kind\":\"placement_nd\",\"instruction\":" +
                  jstr("cp.async.bulk.tensor.<rank>d.shared::cluster.global.tile.mbarrier::complete_tx::bytes") +
                  ",\"passes\":" + std::to_string(PASSES) + ",\"placements\":[";
  for (size_t k = 0; k < ps.size(); ++k) o += (k ? ",\n" : "\n") + nd_placement_json(ps[k]);
  return o + "]}";
}

// box rows one copy moves: ceil(boxDim[i] / elementStrides[i]) over dimensions 1..rank-1 (dimension 0's stride is
// ignored by the hardware, tools/gpu/capture_tma_store.cu)
static long long box_rows(const NdPlacement& P) {
  long long n = 1;
  for (int i = 1; i < P.rank; ++i) n *= (P.box[i] + P.estr[i] - 1) / P.estr[i];
  return n;
}

// the bytes the box moves from global memory (packed)
static int box_bytes(const NdPlacement& P) { return (int)(box_rows(P) * P.box[0] * P.t->bits / 8); }

// the bytes from the destination the box spans in shared memory: rows x the row pitch (the swizzle span, or the
// row's bytes: packed, or 16 per 16 elements for the padded sub-byte types)
static int smem_footprint(const NdPlacement& P) {
  const bool padded = P.t->dt == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B || P.t->dt == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B;
  const int row = padded ? P.box[0] / 16 * 16 : P.box[0] * P.t->bits / 8;
  const int pitch = P.swizzle ? std::max(row, 16 << P.swizzle) : row;
  return (int)(box_rows(P) * pitch);
}

// a byte-typed placement: dims, box and start given innermost first; the strides are the packed ones, each row
// padded to a multiple of 16 bytes plus `pad` bytes
static NdPlacement byte_placement(int type, int swz, std::vector<long long> dims, std::vector<int> box,
                                  std::vector<int> start, int dst, int pad = 16,
                                  std::vector<long long> strides = {}) {
  NdPlacement P{};
  P.t = &ND_TYPES[type];
  P.rank = (int)dims.size();
  P.swizzle = swz;
  for (int i = 0; i < P.rank; ++i) { P.dims[i] = dims[i]; P.box[i] = box[i]; P.start[i] = start[i]; P.estr[i] = 1; }
  if (strides.empty()) {
    long long s = ((dims[0] * P.t->bits / 8 + 15) / 16) * 16 + pad;
    for (int i = 1; i < P.rank; ++i) { P.strides[i - 1] = s; s *= dims[i]; }
  } else {
    for (int i = 1; i < P.rank; ++i) P.strides[i - 1] = strides[i - 1];
  }
  P.dst_off = dst;
  P.tx = box_bytes(P);
  P.smem_footprint = smem_footprint(P);
  return P;
}

// the scale-factor shape: 512-byte blocks read as 256 uint16 (dimension 0), the blocks strided along the two outer
// dimensions in either order, one block or several a box, inside and partly past the end
static std::vector<NdPlacement> sf_blocks() {
  std::vector<NdPlacement> out;
  // dims (256, Kb=4, Mb=3): k-blocks 512 bytes apart, m-blocks 2048 apart
  for (auto b : std::vector<std::vector<int>>{{256, 1, 1}, {256, 2, 1}, {256, 1, 2}, {256, 4, 3}, {128, 2, 2}}) {
    for (auto s : std::vector<std::vector<int>>{{0, 0, 0}, {0, 1, 1}, {0, 3, 2}, {128, 0, 0}}) {
      if (s[0] + b[0] > 256 && s[0]) continue;
      out.push_back(byte_placement(T_U16, 0, {256, 4, 3}, b, s, 0, 0, {512, 2048}));
    }
  }
  // the outer dimensions given m-block first (global strides decreasing): dims (256, Mb=3, Kb=4)
  for (auto b : std::vector<std::vector<int>>{{256, 3, 1}, {256, 1, 4}, {256, 2, 2}})
    out.push_back(byte_placement(T_U16, 0, {256, 3, 4}, b, {0, 0, 1}, 128, 0, {2048, 512}));
  // a rank-4 view of the same blocks: (16 bytes of one row as 8 uint16, 32 rows 16 bytes apart, k-blocks, m-blocks);
  // a TMA row cannot be narrower than 16 bytes (boxDim[0] x elementSize and the strides are multiples of 16)
  out.push_back(byte_placement(T_U16, 0, {8, 32, 4, 3}, {8, 32, 2, 2}, {0, 0, 1, 1}, 0, 0, {16, 512, 2048}));
  return out;
}

// generic rank-3, -4 and -5 boxes of byte-sized types: inner rows of 16 to 128 bytes, unswizzled and swizzled,
// inside and partly out of bounds on either side
static std::vector<NdPlacement> generic(int type, int swz, int rank) {
  std::vector<NdPlacement> out;
  const int E = ND_TYPES[type].bits / 8;
  const int span = swz == 0 ? 128 : (16 << swz);
  for (int ib : {16, 32, 64, 128}) {
    if (ib > span) continue;
    const int box0 = ib / E;
    std::vector<long long> dims = {box0 * 2 + 16 / E, 5, 4, 3, 2};
    std::vector<int> box = {box0, 3, 2, 2, 2};
    dims.resize(rank); box.resize(rank);
    const int step = 16 / E;
    std::vector<std::vector<int>> starts = {{0, 0, 0, 0, 0}, {step, 1, 1, 1, 0}, {-step, -1, 3, 2, 1},
                                            {(int)dims[0] - step, 4, -1, 0, 1}};
    for (auto s : starts) {
      s.resize(rank);
      for (int dst : {0, 128}) {
        if (dst && s[0] < 0) continue;
        out.push_back(byte_placement(type, swz, dims, box, s, dst));
      }
    }
  }
  return out;
}

// element strides along the outer dimensions of a rank-3 box (the driver API: ceil(boxDim[i] / elementStrides[i])
// elements along dimension i; dimension 1 was captured in 2-D, tools/gpu/capture_tma_store.cu)
static std::vector<NdPlacement> strided_nd(int swz) {
  std::vector<NdPlacement> out;
  for (auto es : std::vector<std::vector<int>>{{1, 1, 2}, {1, 2, 2}, {1, 1, 3}, {2, 3, 2}}) {
    for (auto s : std::vector<std::vector<int>>{{0, 0, 0}, {8, 1, 2}, {-8, -1, 3}}) {
      NdPlacement P = byte_placement(T_F16, swz, {40, 6, 5}, {32, 4, 4}, s, 0);
      for (int i = 0; i < 3; ++i) P.estr[i] = es[i];
      P.tx = box_bytes(P);
      P.smem_footprint = smem_footprint(P);
      out.push_back(P);
    }
  }
  return out;
}

// the NaN fill of a rank-3 box partly out of bounds along each dimension
static std::vector<NdPlacement> nan_nd() {
  std::vector<NdPlacement> out;
  for (auto s : std::vector<std::vector<int>>{{-8, 0, 0}, {0, 4, 0}, {0, 0, 3}, {24, -1, -1}}) {
    NdPlacement P = byte_placement(T_F16, 0, {40, 6, 4}, {16, 3, 2}, s, 0);
    P.nan_fill = true;
    out.push_back(P);
  }
  return out;
}

// the packed sub-byte types, rank 2 and 3: globalDim[0] a multiple of 128 elements, strides multiples of 32 bytes;
// boxDim[0] 128 (the ALIGN16B types' only value) and, for 16U4_ALIGN8B, 32 to 256
static std::vector<NdPlacement> sub_byte(int type) {
  std::vector<NdPlacement> out;
  const int bits = ND_TYPES[type].bits;
  const long long row = 256LL * bits / 8;              // bytes of 256 elements
  const long long stride = (row + 31) / 32 * 32 + 32;
  std::vector<int> box0s = type == T_U4_8B ? std::vector<int>{32, 128, 256} : std::vector<int>{128};
  for (int b0 : box0s) {
    for (int swz : {0, 3}) {
      for (auto s : std::vector<std::vector<int>>{{0, 0}, {128, 1}, {0, 6}}) {
        NdPlacement P = byte_placement(type, swz, {256, 8}, {b0, 4}, s, 0, 0, {stride});
        // the transaction told the packed bytes (byte_placement's), and for the padded types (a second copy) the
        // shared bytes, 16 per 16 elements: a count above what arrives never completes, so the second copy settles
        // which one the hardware counts
        out.push_back(P);
        const int padded_bytes = b0 / 16 * 16 * 4;
        if (type != T_U4_8B && s[0] == 0 && s[1] == 0) {
          P.tx = padded_bytes;
          out.push_back(P);
        }
      }
    }
  }
  out.push_back(byte_placement(type, 0, {256, 4, 3}, {128, 2, 2}, {0, 1, 1}, 0, 0, {stride, stride * 4}));
  return out;
}

// ------------------------------------------------------------------------------------------
// the driver's refusals: cuTensorMapEncodeTiled for ranks 1..6 and the sub-byte types (host only)
// ------------------------------------------------------------------------------------------
static std::string job_encode_rules_nd() {
  std::string o = "{\"id\":\"encode_rules_nd\",\"kind\":\"encode_nd\",\"function\":\"cuTensorMapEncodeTiled\","
                  "\"fields\":[\"dtype\",\"elem_bits\",\"rank\",\"swizzle\",\"dims\",\"strides\",\"box\","
                  "\"addr_misalign\",\"nan_fill\",\"result\"],\"rows\":[";
  if (g_fake) return o + "]}";
  uint8_t* g = nullptr;
  CK(cudaMalloc(&g, 1 << 22));
  bool first = true;
  auto try_one = [&](int type, int swz, std::vector<long long> dims, std::vector<long long> strides,
                     std::vector<int> box, int mis, bool nan = false) {
    CUtensorMap m;
    const int rank = (int)dims.size();
    cuuint64_t d[8], s[8];
    cuuint32_t b[8], e[8];
    for (int i = 0; i < rank; ++i) { d[i] = (cuuint64_t)dims[i]; b[i] = (cuuint32_t)box[i]; e[i] = 1; }
    for (int i = 0; i + 1 < rank; ++i) s[i] = (cuuint64_t)strides[i];
    CUresult r = encode_fn()(&m, ND_TYPES[type].dt, (cuuint32_t)rank, g + mis, d, s, b, e,
                             CU_TENSOR_MAP_INTERLEAVE_NONE, SWIZZLES[swz], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                             nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    o += (first ? "\n[" : ",\n[") + jstr(ND_TYPES[type].name) + "," + std::to_string(ND_TYPES[type].bits) + "," +
         std::to_string(rank) + "," + jstr(SWIZZLE_NAMES[swz]) + "," + ints(dims.data(), rank) + "," +
         ints(strides.data(), rank - 1) + "," + ints(box.data(), rank) + "," + std::to_string(mis) + "," +
         (nan ? "true" : "false") + "," + std::to_string((int)r) + "]";
    first = false;
  };
  // ranks 1..6 with a plain box; rank 6 is beyond the tiled mode's five
  for (int rank = 1; rank <= 6; ++rank) {
    std::vector<long long> dims(rank, 8), strides;
    dims[0] = 64;
    long long st = 128;
    for (int i = 1; i < rank; ++i) { strides.push_back(st); st *= 8; }
    std::vector<int> box(rank, 2);
    box[0] = 16;
    try_one(T_U16, 0, dims, strides, box, 0);
  }
  // rank 3: each outer dimension's box at 256 / 257, an outer stride off 16 bytes, strides not increasing, a
  // dimension of 2^32 elements, the inner box over the swizzle span
  for (int t : {T_U8, T_U16}) {
    try_one(t, 0, {256, 300, 300}, {512, 512 * 300}, {256, 256, 1}, 0);
    try_one(t, 0, {256, 300, 300}, {512, 512 * 300}, {256, 1, 256}, 0);
    try_one(t, 0, {256, 300, 300}, {512, 512 * 300}, {256, 257, 1}, 0);
    try_one(t, 0, {256, 300, 300}, {512, 512 * 300}, {256, 1, 257}, 0);
    try_one(t, 0, {256, 4, 3}, {520, 2080}, {256, 1, 1}, 0);
    try_one(t, 0, {256, 4, 3}, {512, 2056}, {256, 1, 1}, 0);
    try_one(t, 0, {256, 4, 3}, {2048, 512}, {256, 1, 1}, 0);
    try_one(t, 0, {256, 4, 3}, {512, 512}, {256, 1, 1}, 0);
    try_one(t, 0, {256, 4, 1LL << 32}, {512, 2048}, {256, 1, 1}, 0);
    try_one(t, 0, {256, 4, (1LL << 32) + 1}, {512, 2048}, {256, 1, 1}, 0);
    try_one(t, 3, {256, 4, 3}, {512, 2048}, {256, 1, 1}, 0);
    try_one(t, 3, {256, 4, 3}, {512, 2048}, {128 * 8 / ND_TYPES[t].bits, 1, 1}, 0);
    try_one(t, 0, {256, 4, 3}, {512, 2048}, {256, 1, 1}, 8);
  }
  // the sub-byte types: globalDim[0], boxDim[0], strides, the address and the swizzles each
  for (int t : {T_U4_8B, T_U4_16B, T_U6_16B}) {
    for (long long d0 : {64LL, 96LL, 128LL, 130LL, 256LL})
      for (int b0 : {16, 32, 64, 96, 128, 256})
        try_one(t, 0, {d0, 8}, {256}, {b0, 2}, 0);
    for (long long s : {16LL, 32LL, 48LL, 64LL, 96LL, 256LL})
      try_one(t, 0, {256, 8}, {s}, {128, 2}, 0);
    for (int mis : {8, 16, 32})
      try_one(t, 0, {256, 8}, {256}, {128, 2}, mis);
    for (int swz = 0; swz < 4; ++swz)
      try_one(t, swz, {256, 8}, {256}, {128, 2}, 0);
    try_one(t, 0, {256, 4, 3}, {256, 1024}, {128, 2, 2}, 0);
    try_one(t, 0, {256, 8}, {256}, {128, 2}, 0, true);            // the NaN fill: refused for the packed types
  }
  // the NaN fill of a rank-3 float16 and uint16 map
  try_one(T_F16, 0, {64, 4, 3}, {128, 512}, {16, 2, 2}, 0, true);
  try_one(T_U16, 0, {64, 4, 3}, {128, 512}, {16, 2, 2}, 0, true);
  cudaFree(g);
  return o + "]}";
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_tma_nd";
  c.meta = [] { return meta_json("tools/gpu/capture_tma_nd.cu", ",\"target\":\"sm_90a, sm_100a\""); };
  c.jobs.push_back({"encode_rules_nd", "tma_nd", job_encode_rules_nd});
  c.jobs.push_back({"place_sf_blocks", "tma_nd", [] { return job_nd("place_sf_blocks", sf_blocks()); }});
  for (int rank : {3, 4, 5}) {
    for (int type : {T_U8, T_U16, T_U32}) {
      for (int swz : {0, 1, 3}) {
        if (rank > 3 && swz == 1) continue;
        const std::string id = "place_r" + std::to_string(rank) + "_" + ND_TYPES[type].name + "_" + SWIZZLE_NAMES[swz];
        c.jobs.push_back({id, "tma_nd", [id, type, swz, rank] { return job_nd(id, generic(type, swz, rank)); }});
      }
    }
  }
  for (int swz : {0, 3}) {
    const std::string id = std::string("strided_r3_float16_") + SWIZZLE_NAMES[swz];
    c.jobs.push_back({id, "tma_nd", [id, swz] { return job_nd(id, strided_nd(swz)); }});
  }
  c.jobs.push_back({"place_r3_float16_nan", "tma_nd", [] { return job_nd("place_r3_float16_nan", nan_nd()); }});
  for (int type : {T_U4_8B, T_U4_16B, T_U6_16B}) {
    const std::string id = std::string("place_") + ND_TYPES[type].name;
    c.jobs.push_back({id, "tma_nd", [id, type] { return job_nd(id, sub_byte(type)); }});
  }
  c.families = {"tma_nd"};
  return capture_main(argc, argv, c);
}
