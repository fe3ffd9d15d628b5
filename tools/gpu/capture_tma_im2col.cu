// tools/gpu/capture_tma_im2col.cu -- what an im2col TMA load (cp.async.bulk.tensor.{3,4,5}d.shared::cluster.global
// .im2col) really writes into shared memory on an NVIDIA Hopper GPU (written for the H200), and which im2col tensor
// maps cuTensorMapEncodeIm2col refuses.  No CuTe/CUTLASS code or layout is used; tensor maps are encoded here with
// cuTensorMapEncodeIm2col (through cudaGetDriverEntryPointByVersion, as capture_tma.cu gets cuTensorMapEncodeTiled,
// so no -lcuda is needed) and what comes back is raw observation.
//
// Build:  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -cudart static -std=c++17 \
//              -o tools/gpu/build/capture_tma_im2col tools/gpu/capture_tma_im2col.cu
// Run:    tools/gpu/build/capture_tma_im2col OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/tma_im2col.json (tools/gpu/README.md, section "tma_im2col.json").
//
// The tensor is NWC (rank 3), NHWC (rank 4) or NDHWC (rank 5): dimension 0 is C (channels, innermost), then W, H, D,
// and N last.  Every array below is given in that order, dimension 0 first: the corners and the im2col offsets W
// first (the driver's arrays are innermost-first like globalDim; its text names them {D, H, W}, and an asymmetric
// corner in the rank-4 and rank-5 jobs settles which element is W).
//
// Placement method (capture_tma.cu's): global byte i carries the digits of i + 1 in base 256, one digit per pass;
// the 1024-byte aligned shared window is prefilled with 0x00 in one run and 0xFF in another of pass 0, so a byte
// that reads the same in both was written, and its digits v tell where it came from (v - 1: the global byte; 0: a
// zero fill; anything else a fill pattern, recorded raw).  Written window bytes are reported run-length encoded as
// [window offset, v, length, dv] over the pixels' shared footprint (pixelsPerColumn rows x the row pitch: a row takes
// the whole swizzle span) and 1024 bytes past it.
#include "tma_common.h"

constexpr int MAX_RANK = 5;
constexpr int MAX_SPATIAL = 3;           // W, H, D

typedef CUresult (*EncodeIm2col)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                 const cuuint64_t*, const int*, const int*, cuuint32_t, cuuint32_t, const cuuint32_t*,
                                 CUtensorMapInterleave, CUtensorMapSwizzle, CUtensorMapL2promotion,
                                 CUtensorMapFloatOOBfill);

static EncodeIm2col encode_im2col_fn() {
  static EncodeIm2col fn = nullptr;
  if (!fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", &p, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !p) throw CudaFail{"cuTensorMapEncodeIm2col not found"};
    fn = (EncodeIm2col)p;
  }
  return fn;
}

// info[0]: 1 when the mbarrier phase completed with expect_tx = tx; info[1]: the window's shared address.
// c03 = (c, w, h|n, d|n), c4 = n (rank 5); off = the im2col offsets (W, H, D), 16 bits each.
template <int R>
__global__ void im2col_kernel(const __grid_constant__ CUtensorMap tmap, int4 c03, int c4, int3 off, int dst_off,
                              unsigned prefill, unsigned tx, uint8_t* out, int out_bytes, unsigned* info) {
  __shared__ __align__(1024) uint8_t win[WINDOW];
  __shared__ __align__(8) uint64_t bar;
  for (int i = threadIdx.x; i < WINDOW; i += blockDim.x) win[i] = (uint8_t)prefill;
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  if (threadIdx.x == 0) {
    const uint32_t b = smem_addr(&bar), d = smem_addr(win) + (uint32_t)dst_off;
    const uint64_t m = reinterpret_cast<uint64_t>(&tmap);
    const uint16_t o0 = (uint16_t)off.x, o1 = (uint16_t)off.y, o2 = (uint16_t)off.z;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(tx) : "memory");
    if constexpr (R == 3) {
      asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4}], [%5], {%6};\n"
                   ::"r"(d), "l"(m), "r"(c03.x), "r"(c03.y), "r"(c03.z), "r"(b), "h"(o0) : "memory");
    } else if constexpr (R == 4) {
      asm volatile("cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};\n"
                   ::"r"(d), "l"(m), "r"(c03.x), "r"(c03.y), "r"(c03.z), "r"(c03.w), "r"(b), "h"(o0), "h"(o1)
                   : "memory");
    } else {
      asm volatile("cp.async.bulk.tensor.5d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes"
                   " [%0], [%1, {%2, %3, %4, %5, %6}], [%7], {%8, %9, %10};\n"
                   ::"r"(d), "l"(m), "r"(c03.x), "r"(c03.y), "r"(c03.z), "r"(c03.w), "r"(c4), "r"(b), "h"(o0),
                     "h"(o1), "h"(o2)
                   : "memory");
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

enum { T_U8 = 0, T_F16 = 4, T_F32 = 5 };      // indices into tma_common.h's DTYPES

struct Im2colPlacement {
  const Dtype* t;
  int rank;
  int swizzle;                          // index into SWIZZLES
  long long dims[MAX_RANK];             // globalDim, elements: C, W, [H, [D,]] N
  long long strides[MAX_RANK - 1];      // globalStrides, bytes, dimensions 1..rank-1
  int lower[MAX_SPATIAL];               // pixelBoxLowerCorner, W first
  int upper[MAX_SPATIAL];               // pixelBoxUpperCorner, W first
  int channels;                         // channelsPerPixel
  int pixels;                           // pixelsPerColumn
  int estr[MAX_RANK];                   // elementStrides (traversal strides)
  int start[MAX_RANK];                  // tensor coordinates: c, w, [h, [d,]] n
  int offsets[MAX_SPATIAL];             // im2col offsets, W first
  int dst_off;
  bool nan_fill;                        // CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
  int smem_footprint;                   // bytes from the destination the pixels span in shared memory
  int tx;                               // the bytes expect_tx is told
};

static int spatial(int rank) { return rank - 2; }

static CUresult encode_im2col(CUtensorMap* tmap, const Im2colPlacement& P, void* g) {
  cuuint64_t dims[MAX_RANK], strides[MAX_RANK - 1];
  cuuint32_t estr[MAX_RANK];
  for (int i = 0; i < P.rank; ++i) {
    dims[i] = (cuuint64_t)P.dims[i];
    estr[i] = (cuuint32_t)P.estr[i];
    if (i) strides[i - 1] = (cuuint64_t)P.strides[i - 1];
  }
  return encode_im2col_fn()(tmap, P.t->dt, (cuuint32_t)P.rank, g, dims, strides, P.lower, P.upper,
                            (cuuint32_t)P.channels, (cuuint32_t)P.pixels, estr, CU_TENSOR_MAP_INTERLEAVE_NONE,
                            SWIZZLES[P.swizzle], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                            P.nan_fill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                       : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
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

static void launch_im2col(const Im2colPlacement& P, const CUtensorMap& tmap, unsigned prefill, uint8_t* out,
                          int out_bytes, unsigned* info) {
  const int4 c03 = make_int4(P.start[0], P.start[1], P.rank > 2 ? P.start[2] : 0, P.rank > 3 ? P.start[3] : 0);
  const int c4 = P.rank > 4 ? P.start[4] : 0;
  const int3 off = make_int3(P.offsets[0], P.offsets[1], P.offsets[2]);
  switch (P.rank) {
    case 3: im2col_kernel<3><<<1, 256>>>(tmap, c03, c4, off, P.dst_off, prefill, (unsigned)P.tx, out, out_bytes, info); break;
    case 4: im2col_kernel<4><<<1, 256>>>(tmap, c03, c4, off, P.dst_off, prefill, (unsigned)P.tx, out, out_bytes, info); break;
    default: im2col_kernel<5><<<1, 256>>>(tmap, c03, c4, off, P.dst_off, prefill, (unsigned)P.tx, out, out_bytes, info); break;
  }
}

// the global buffer's bytes: the outermost dimension's extent times its stride plus one pixel's channels, rounded
// up to 256
static long long global_bytes(const Im2colPlacement& P) {
  long long end = P.dims[0] * P.t->bytes;
  for (int i = 1; i < P.rank; ++i) end += (P.dims[i] - 1) * P.strides[i - 1];
  return (end + 255) / 256 * 256;
}

// bytes between pixel rows in shared memory as the model has it: the swizzle span, or the pixel's channel bytes
static int row_pitch(const Im2colPlacement& P) {
  const int row = P.channels * P.t->bytes;
  return P.swizzle ? std::max(row, 16 << P.swizzle) : row;
}

static std::string placement_json(const Im2colPlacement& P) {
  const long long gbytes = global_bytes(P);
  const int S = spatial(P.rank);
  const int out_bytes = std::min(WINDOW, P.dst_off + P.smem_footprint + 1024);
  std::string o = "{\"dtype\":" + jstr(P.t->name) + ",\"elem_bytes\":" + std::to_string(P.t->bytes) +
                  ",\"rank\":" + std::to_string(P.rank) + ",\"swizzle\":" + jstr(SWIZZLE_NAMES[P.swizzle]) +
                  ",\"global_dim\":" + ints(P.dims, P.rank) + ",\"global_strides\":" + ints(P.strides, P.rank - 1) +
                  ",\"lower_corner\":" + ints(P.lower, S) + ",\"upper_corner\":" + ints(P.upper, S) +
                  ",\"channels_per_pixel\":" + std::to_string(P.channels) +
                  ",\"pixels_per_column\":" + std::to_string(P.pixels) +
                  ",\"element_strides\":" + ints(P.estr, P.rank) + ",\"start\":" + ints(P.start, P.rank) +
                  ",\"offsets\":" + ints(P.offsets, S) + ",\"dst_offset\":" + std::to_string(P.dst_off) +
                  ",\"oob_fill\":" + jstr(P.nan_fill ? "nan" : "zero") + ",\"smem_footprint\":" +
                  std::to_string(P.smem_footprint) + ",\"expect_tx\":" + std::to_string(P.tx) +
                  ",\"global_bytes\":" + std::to_string(gbytes);
  if (g_fake) return o + ",\"encode\":\"fake\",\"window_addr\":0,\"tx_complete\":false,\"runs\":[]}";
  if (gbytes >= 65535) throw CudaFail{"placement's global buffer exceeds the two-digit encoding"};
  if (P.dst_off + P.smem_footprint > WINDOW) throw CudaFail{"placement's footprint exceeds the shared window"};
  return o + placement_runs(
      gbytes, out_bytes, [&](CUtensorMap* tmap, uint8_t* g) { return encode_im2col(tmap, P, g); },
      [&](const CUtensorMap& tmap, unsigned prefill, uint8_t* d_out, unsigned* d_info) {
        launch_im2col(P, tmap, prefill, d_out, out_bytes, d_info);
      });
}

static std::string job_im2col(const std::string& id, const std::vector<Im2colPlacement>& ps) {
  std::string o = "{\"id\":" + jstr(id) + ",\"kind\":\"placement_im2col\",\"instruction\":" +
                  jstr("cp.async.bulk.tensor.<rank>d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes") +
                  ",\"passes\":" + std::to_string(PASSES) + ",\"placements\":[";
  for (size_t k = 0; k < ps.size(); ++k) o += (k ? ",\n" : "\n") + placement_json(ps[k]);
  return o + "]}";
}

// A placement: dims, corners, start and offsets given dimension 0 (resp. W) first; strides packed, each pixel's
// channels padded to a multiple of 16 bytes plus `pad` bytes (so a stride the copy ignored would show).
static Im2colPlacement make(int type, int swz, std::vector<long long> dims, std::vector<int> lower,
                            std::vector<int> upper, int channels, int pixels, std::vector<int> start,
                            std::vector<int> offsets, int dst = 0, int pad = 16) {
  Im2colPlacement P{};
  P.t = &DTYPES[type];
  P.rank = (int)dims.size();
  P.swizzle = swz;
  const int S = spatial(P.rank);
  for (int i = 0; i < P.rank; ++i) { P.dims[i] = dims[i]; P.start[i] = start[i]; P.estr[i] = 1; }
  for (int i = 0; i < S; ++i) { P.lower[i] = lower[i]; P.upper[i] = upper[i]; P.offsets[i] = offsets[i]; }
  long long s = ((dims[0] * P.t->bytes + 15) / 16) * 16 + pad;
  for (int i = 1; i < P.rank; ++i) { P.strides[i - 1] = s; s *= dims[i]; }
  P.channels = channels;
  P.pixels = pixels;
  P.dst_off = dst;
  P.tx = pixels * channels * P.t->bytes;
  P.smem_footprint = pixels * row_pitch(P);
  return P;
}

static std::vector<int> resized(std::vector<int> v, int n) { v.resize(n); return v; }

// One family: rank, element type, swizzle.  Channel counts of 16..256 bytes the swizzle allows (8..256 elements),
// several bounding boxes (padding: negative lower corners; upper corners below, at and above the tensor's end),
// pixel counts below and above one bounding-box row (so the traversal wraps along W, H, D and into the next N),
// non-zero im2col offsets, starts at the box's first pixel, inside it and at its last pixel of a row.
static std::vector<Im2colPlacement> family(int rank, int type, int swz) {
  std::vector<Im2colPlacement> out;
  const int E = DTYPES[type].bytes;
  const int span = swz == 0 ? 256 : (16 << swz);
  const int S = rank - 2;
  // spatial extents W, H, D and the batch; small enough for the two-digit encoding at 256-byte pixels
  const std::vector<long long> wsp = rank == 3 ? std::vector<long long>{9} :
                                     rank == 4 ? std::vector<long long>{5, 4} : std::vector<long long>{4, 3, 3};
  const long long batch = 2;
  // (lower, upper) corner pairs, W first
  std::vector<std::pair<std::vector<int>, std::vector<int>>> boxes = {
      {{0, 0, 0}, {0, 0, 0}},          // the tensor itself
      {{-1, -1, -1}, {-1, -1, -1}},    // padding 1, a 3-wide filter
      {{-2, 0, -1}, {1, -1, 0}},       // asymmetric: W padded 2 and past the end by 1, H not padded
  };
  for (int cbytes : {16, 32, 64, 128, 256}) {
    if (cbytes > span || cbytes / E > 256 || cbytes / E < 1) continue;
    const int channels = cbytes / E;
    // the tensor has 8 channels more than one load takes (16 bytes at least), so the channel start can move
    const long long C = channels + std::max(8, 16 / E);
    std::vector<long long> dims = {C};
    for (long long d : wsp) dims.push_back(d);
    dims.push_back(batch);
    long long pixels_total = batch;
    for (long long d : wsp) pixels_total *= d;
    if (pixels_total * (((C * E + 15) / 16) * 16 + 16) >= 60000) continue;
    for (size_t bi = 0; bi < boxes.size(); ++bi) {
      const std::vector<int> lo = resized(boxes[bi].first, S), hi = resized(boxes[bi].second, S);
      const int box_w = (int)wsp[0] + hi[0] - lo[0];           // pixels in one bounding-box row
      for (int pixels : {box_w - 1, box_w + 3, 3 * box_w + 1}) {
        if (pixels < 1) continue;
        if (pixels * std::max(cbytes, swz ? span : 0) > 32 * 1024) continue;
        // starts: the box's first pixel; inside (W + 1, last H/D of the box); the last pixel of a W row
        std::vector<std::vector<int>> starts;
        std::vector<int> first = {0}, inner = {std::max(8, 16 / E)}, last = {0};
        for (int i = 0; i < S; ++i) {
          first.push_back(lo[i]);
          inner.push_back(i == 0 ? lo[0] + 1 : (int)wsp[i] - 1 + hi[i]);
          last.push_back(i == 0 ? (int)wsp[0] - 1 + hi[0] : lo[i]);
        }
        first.push_back(0); inner.push_back(0); last.push_back(1);
        starts = {first, inner, last};
        for (size_t si = 0; si < starts.size(); ++si) {
          for (const std::vector<int>& off : std::vector<std::vector<int>>{{0, 0, 0}, {1, 2, 1}, {2, 0, 1}}) {
            // keep the count down: the non-zero offsets with one start each
            if (off[0] + off[1] + off[2] && si != (size_t)(off[0] == 1 ? 0 : 2)) continue;
            const int dst = (si == 1 && off[0] == 0) ? 128 : 0;
            out.push_back(make(type, swz, dims, lo, hi, channels, pixels, starts[si], resized(off, S), dst));
          }
        }
      }
    }
  }
  return out;
}

// traversal strides 2 (and 3) along W, H, D, one along N too; the pixels wrap several box rows
static std::vector<Im2colPlacement> strided(int rank, int swz) {
  std::vector<Im2colPlacement> out;
  const int S = rank - 2;
  std::vector<long long> dims = rank == 3 ? std::vector<long long>{40, 9, 3} :
                                rank == 4 ? std::vector<long long>{40, 7, 5, 2} :
                                            std::vector<long long>{40, 5, 4, 3, 2};
  const std::vector<int> lo = resized({-1, -1, -1}, S), hi = resized({-1, -1, -1}, S);
  for (const std::vector<int>& es : std::vector<std::vector<int>>{{1, 2, 2, 2, 1}, {1, 2, 1, 2, 1}, {1, 3, 2, 1, 1},
                                                                   {1, 2, 2, 2, 2}, {1, 1, 1, 1, 2}}) {
    for (const std::vector<int>& off : std::vector<std::vector<int>>{{0, 0, 0}, {1, 1, 1}}) {
      for (int pixels : {5, 24}) {
        std::vector<int> start = {8, -1, -1, -1, 0};
        start.resize(rank);
        start[rank - 1] = 0;
        Im2colPlacement P = make(T_F16, swz, dims, lo, hi, 32, pixels, start, resized(off, S));
        for (int i = 0; i < rank; ++i) P.estr[i] = i == rank - 1 ? es[4] : i == 0 ? 1 : es[i];
        out.push_back(P);
      }
    }
  }
  return out;
}

// out-of-bounds pixels and channels: the channel window past C, starts in the padding and past the last batch, the
// NaN fill of the float types
static std::vector<Im2colPlacement> oob(int type) {
  std::vector<Im2colPlacement> out;
  const int E = DTYPES[type].bytes;
  const int channels = 64 / E;
  const long long C = channels + 32 / E;
  for (bool nan : {false, true}) {
    if (nan && type == T_U8) continue;
    // rank 4, padding 2 on every side: the first row and column of pixels read nothing
    for (const std::vector<int>& start : std::vector<std::vector<int>>{{0, -2, -2, 0}, {32 / E, -2, -2, 0},
                                                                       {48 / E, 0, 0, 0}, {0, 3, 4, 1}}) {
      Im2colPlacement P = make(type, 0, {C, 4, 5, 2}, {-2, -2}, {2, 2}, channels, 40, start, {0, 0});
      P.nan_fill = nan;
      out.push_back(P);
    }
    // rank 3, an offset carrying the window past the tensor's end
    Im2colPlacement P = make(type, 3, {C, 6, 2}, {-1}, {-1}, channels, 12, {0, 2, 1}, {4});
    P.nan_fill = nan;
    out.push_back(P);
  }
  return out;
}

// what the documentation leaves open, each in a job of its own (a fault loses only it): a channel start off 16
// bytes, a start outside the bounding box, a transaction count other than the pixels' bytes
static std::vector<Im2colPlacement> channel_misaligned() {
  return {make(T_F16, 0, {40, 6, 3}, {0}, {0}, 16, 4, {4, 0, 0}, {0})};
}
// the PTX ISA's im2col examples (section "Bounding Box", Figures 13 and 14; "Traversal Stride", Figure 15) with one
// image (N = 1) and float16 elements (the text gives no type): example 1's filter base lies inside the box; its
// channel start 7 is 14 bytes (the tiled mode traps off 16 bytes), so it runs alone and, first, from channel 8
static std::vector<Im2colPlacement> ptx_example_1(int c) {
  return {make(T_F16, 0, {64, 9, 14, 1}, {-1, -1}, {-1, -1}, 8, 64, {c, 7, 4, 0}, {0, 0}, 0, 0)};
}
// examples 2 and 3 put the filter base's W at 7, one past the box's upper W (9 - 1 - 2 = 6; 8 - 1 - 1 = 6) as the
// model reads the corners; run alone, with the model's other starts outside the box
static std::vector<Im2colPlacement> start_outside_box() {
  Im2colPlacement ex3 = make(T_F16, 0, {64, 8, 14, 1}, {-1, -1}, {-1, -1}, 16, 32, {7, 7, 5, 0}, {1, 1}, 0, 0);
  ex3.estr[1] = ex3.estr[2] = 2;
  return {make(T_F16, 0, {64, 9, 14, 1}, {0, 0}, {-2, -2}, 8, 64, {7, 7, 4, 0}, {2, 2}, 0, 0), ex3,
          make(T_F16, 0, {32, 6, 5, 2}, {0, 0}, {-2, -2}, 16, 8, {0, 5, 1, 0}, {0, 0}),
          make(T_F16, 0, {32, 6, 5, 2}, {0, 0}, {-2, -2}, 16, 8, {0, 1, 4, 0}, {0, 0}),
          make(T_F16, 0, {32, 6, 5, 2}, {1, 1}, {0, 0}, 16, 8, {0, 0, 1, 0}, {0, 0})};
}
static std::vector<Im2colPlacement> tx_count() {
  // a count of the pixels' bytes is the model's; 16 bytes more never completes if the hardware counts exactly that
  Im2colPlacement P = make(T_F16, 3, {64, 5, 4, 2}, {-1, -1}, {-1, -1}, 64, 20, {0, -1, -1, 0}, {1, 1});
  Im2colPlacement Q = P;
  Q.tx = P.tx + 16;
  return {P, Q};
}
// large pixel counts: 256 and 1024 pixels (the driver's documented limit), channels of 16 bytes
static std::vector<Im2colPlacement> many_pixels() {
  return {make(T_F16, 0, {16, 16, 16, 4}, {-1, -1}, {-1, -1}, 8, 256, {0, -1, -1, 0}, {1, 0}),
          make(T_F16, 1, {16, 16, 16, 4}, {0, 0}, {0, 0}, 8, 1024, {0, 0, 0, 0}, {0, 0}),
          make(T_U8, 0, {16, 12, 3}, {-3}, {3}, 16, 700, {0, 4, 0}, {2})};
}

// ------------------------------------------------------------------------------------------
// the driver's refusals: cuTensorMapEncodeIm2col over each documented rule (host only)
// ------------------------------------------------------------------------------------------
static std::string job_encode_rules_im2col() {
  std::string o = "{\"id\":\"encode_rules_im2col\",\"kind\":\"encode_im2col\",\"function\":\"cuTensorMapEncodeIm2col\","
                  "\"fields\":[\"dtype\",\"rank\",\"swizzle\",\"dims\",\"strides\",\"lower_corner\",\"upper_corner\","
                  "\"channels_per_pixel\",\"pixels_per_column\",\"element_strides\",\"addr_misalign\",\"nan_fill\","
                  "\"interleave\",\"result\"],\"rows\":[";
  if (g_fake) return o + "]}";
  uint8_t* g = nullptr;
  CK(cudaMalloc(&g, 1 << 22));
  bool first = true;
  // one encode: dims / strides / estr of `rank` values (strides rank-1), corners of rank-2
  auto try_one = [&](int type, int swz, std::vector<long long> dims, std::vector<long long> strides,
                     std::vector<int> lo, std::vector<int> hi, int channels, int pixels, std::vector<int> es,
                     int mis = 0, bool nan = false, int interleave = 0) {
    CUtensorMap m;
    const int rank = (int)dims.size();
    cuuint64_t d[8], s[8];
    cuuint32_t e[8];
    int l[8] = {0}, u[8] = {0};
    for (int i = 0; i < rank; ++i) { d[i] = (cuuint64_t)dims[i]; e[i] = (cuuint32_t)es[i]; }
    for (int i = 0; i + 1 < rank; ++i) s[i] = (cuuint64_t)strides[i];
    for (size_t i = 0; i < lo.size(); ++i) { l[i] = lo[i]; u[i] = hi[i]; }
    const CUtensorMapInterleave il = interleave == 0 ? CU_TENSOR_MAP_INTERLEAVE_NONE :
                                     interleave == 16 ? CU_TENSOR_MAP_INTERLEAVE_16B : CU_TENSOR_MAP_INTERLEAVE_32B;
    CUresult r = encode_im2col_fn()(&m, DTYPES[type].dt, (cuuint32_t)rank, g + mis, d, s, l, u, (cuuint32_t)channels,
                                    (cuuint32_t)pixels, e, il, SWIZZLES[swz], CU_TENSOR_MAP_L2_PROMOTION_NONE,
                                    nan ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA
                                        : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
    o += (first ? "\n[" : ",\n[") + jstr(DTYPES[type].name) + "," + std::to_string(rank) + "," +
         jstr(SWIZZLE_NAMES[swz]) + "," + ints(dims.data(), rank) + "," + ints(strides.data(), rank - 1) + "," +
         ints(lo.data(), (int)lo.size()) + "," + ints(hi.data(), (int)hi.size()) + "," + std::to_string(channels) +
         "," + std::to_string(pixels) + "," + ints(es.data(), rank) + "," + std::to_string(mis) + "," +
         (nan ? "true" : "false") + "," + std::to_string(interleave) + "," + std::to_string((int)r) + "]";
    first = false;
  };
  // a plain map of each rank 2..6 (the driver allows 3, 4, 5); a rank-2 or rank-6 call gets empty corners
  for (int rank = 2; rank <= 6; ++rank) {
    std::vector<long long> dims(rank, 4), strides;
    dims[0] = 64;
    long long st = 128;
    for (int i = 1; i < rank; ++i) { strides.push_back(st); st *= 4; }
    const int S = std::max(rank - 2, 0);
    try_one(T_F16, 0, dims, strides, std::vector<int>(S, 0), std::vector<int>(S, 0), 32, 16, std::vector<int>(rank, 1));
  }
  // the corners' ranges by rank, each corner at and past its limits, on W and on the outermost spatial dimension
  const std::vector<long long> d3 = {64, 60000, 4}, d4 = {64, 300, 300, 4}, d5 = {64, 40, 40, 40, 4};
  const std::vector<long long> s3 = {128, 128 * 60000LL}, s4 = {128, 128 * 300, 128 * 300 * 300},
                               s5 = {128, 128 * 40, 128 * 1600, 128 * 64000LL};
  struct RankCase { int rank; std::vector<long long> d, s; int lim; };
  for (const RankCase& rc : {RankCase{3, d3, s3, 32768}, RankCase{4, d4, s4, 128}, RankCase{5, d5, s5, 16}}) {
    const int S = rc.rank - 2;
    const std::vector<int> es(rc.rank, 1);
    for (int which : {0, S - 1}) {
      for (int v : {-rc.lim, -rc.lim - 1, rc.lim - 1, rc.lim}) {
        std::vector<int> lo(S, 0), hi(S, 0);
        lo[which] = v;
        try_one(T_F16, 0, rc.d, rc.s, lo, hi, 32, 16, es);
        lo[which] = 0;
        hi[which] = v;
        try_one(T_F16, 0, rc.d, rc.s, lo, hi, 32, 16, es);
      }
    }
  }
  // the box's area: extent along W = W + upper - lower, around 0 (W = 8)
  for (const std::vector<int>& c : std::vector<std::vector<int>>{{0, -7}, {0, -8}, {0, -9}, {3, -4}, {4, -4},
                                                                  {5, 0}, {8, 0}, {9, 0}, {-2, -9}, {-2, -10}}) {
    try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1024, 8192}, {c[0], 0}, {c[1], 0}, 32, 16, {1, 1, 1, 1});
    try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1024, 8192}, {0, c[0]}, {0, c[1]}, 32, 16, {1, 1, 1, 1});
  }
  // channelsPerPixel and pixelsPerColumn: 0, 1, the limits and past them; channel bytes off 16
  for (int t : {T_U8, T_F16, T_F32}) {
    const int E = DTYPES[t].bytes;
    for (int ch : {0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 128, 255, 256, 257, 512}) {
      const long long C = std::max(ch, 1) * 2;
      const long long st = ((C * E + 15) / 16) * 16;
      try_one(t, 0, {C, 8, 8, 2}, {st, st * 8, st * 64}, {0, 0}, {0, 0}, ch, 16, {1, 1, 1, 1});
    }
  }
  for (int px : {0, 1, 16, 255, 256, 257, 512, 1023, 1024, 1025, 2048})
    try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1024, 8192}, {0, 0}, {0, 0}, 32, px, {1, 1, 1, 1});
  // the swizzle against the channels' bytes
  for (int swz = 0; swz < 4; ++swz)
    for (int cbytes : {16, 32, 48, 64, 96, 128, 256})
      try_one(T_F16, swz, {256, 8, 8, 2}, {512, 4096, 32768}, {0, 0}, {0, 0}, cbytes / 2, 16, {1, 1, 1, 1});
  // elementStrides 0..9 along dimension 0, W and N
  for (int which : {0, 1, 3})
    for (int v : {0, 1, 2, 8, 9}) {
      std::vector<int> es(4, 1);
      es[which] = v;
      try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1024, 8192}, {0, 0}, {0, 0}, 32, 16, es);
    }
  // strides off 16 bytes, not increasing, at 2^40; globalDim 0 and 2^32 (+1); the address off 16 bytes
  try_one(T_F16, 0, {64, 8, 8, 2}, {136, 1088, 8704}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1032, 8256}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  try_one(T_F16, 0, {64, 8, 8, 2}, {1024, 128, 8192}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1024, 1LL << 40}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1024, (1LL << 40) - 16}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  try_one(T_F16, 0, {64, 8, 8, 0}, {128, 1024, 8192}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  try_one(T_F16, 0, {64, 8, 8, 1LL << 32}, {128, 1024, 8192}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  try_one(T_F16, 0, {64, 8, 8, (1LL << 32) + 1}, {128, 1024, 8192}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1});
  for (int mis : {8, 16, 32})
    try_one(T_F16, 0, {64, 8, 8, 2}, {128, 1024, 8192}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1}, mis);
  // the NaN fill on float and integer types
  for (int t : {T_U8, T_F16, T_F32})
    try_one(t, 0, {64, 8, 8, 2}, {256, 2048, 16384}, {0, 0}, {0, 0}, 16, 16, {1, 1, 1, 1}, 0, true);
  // interleaved layouts (recorded, not modelled): 16B and 32B with each swizzle
  for (int il : {16, 32})
    for (int swz = 0; swz < 4; ++swz)
      try_one(T_F16, swz, {64, 8, 8, 2}, {128, 1024, 8192}, {0, 0}, {0, 0}, 32, 16, {1, 1, 1, 1}, 0, false, il);
  cudaFree(g);
  return o + "]}";
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_tma_im2col";
  c.meta = [] { return meta_json("tools/gpu/capture_tma_im2col.cu", ",\"target\":\"sm_90a\""); };
  c.jobs.push_back({"encode_rules_im2col", "tma_im2col", job_encode_rules_im2col});
  for (int rank : {3, 4, 5}) {
    for (int type : {T_U8, T_F16, T_F32}) {
      for (int swz : {0, 1, 2, 3}) {
        if (rank != 4 && (swz == 1 || swz == 2)) continue;
        const std::string id = "place_r" + std::to_string(rank) + "_" + DTYPES[type].name + "_" + SWIZZLE_NAMES[swz];
        c.jobs.push_back({id, "tma_im2col", [id, rank, type, swz] { return job_im2col(id, family(rank, type, swz)); }});
      }
    }
    for (int swz : {0, 3}) {
      const std::string id = "strided_r" + std::to_string(rank) + "_float16_" + SWIZZLE_NAMES[swz];
      c.jobs.push_back({id, "tma_im2col", [id, rank, swz] { return job_im2col(id, strided(rank, swz)); }});
    }
  }
  for (int type : {T_U8, T_F16, T_F32}) {
    const std::string id = std::string("oob_") + DTYPES[type].name;
    c.jobs.push_back({id, "tma_im2col", [id, type] { return job_im2col(id, oob(type)); }});
  }
  c.jobs.push_back({"ptx_example_1", "tma_im2col", [] { return job_im2col("ptx_example_1", ptx_example_1(8)); }});
  c.jobs.push_back({"ptx_example_1_c7", "tma_im2col",
                    [] { return job_im2col("ptx_example_1_c7", ptx_example_1(7)); }});
  c.jobs.push_back({"many_pixels", "tma_im2col", [] { return job_im2col("many_pixels", many_pixels()); }});
  c.jobs.push_back({"tx_count", "tma_im2col", [] { return job_im2col("tx_count", tx_count()); }});
  c.jobs.push_back({"start_outside_box", "tma_im2col",
                    [] { return job_im2col("start_outside_box", start_outside_box()); }});
  c.jobs.push_back({"channel_misaligned", "tma_im2col",
                    [] { return job_im2col("channel_misaligned", channel_misaligned()); }});
  c.families = {"tma_im2col"};
  return capture_main(argc, argv, c);
}
