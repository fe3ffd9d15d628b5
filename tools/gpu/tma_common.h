// tools/gpu/tma_common.h -- what capture_tma.cu (loads) and capture_tma_store.cu (stores, strided loads) share:
// the driver's cuTensorMapEncodeTiled, the element types and swizzles, the load kernel and the placement run
// (the method is described in capture_tma.cu).
#pragma once
#include <cuda.h>
#include "capture_common.h"

constexpr int WINDOW = 40 * 1024;        // the shared-memory window the copy may write into
constexpr int PASSES = 2;                // global buffers stay below 65535 bytes: two base-256 digits

typedef CUresult (*EncodeTiled)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*, const cuuint64_t*,
                                const cuuint64_t*, const cuuint32_t*, const cuuint32_t*, CUtensorMapInterleave,
                                CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

static EncodeTiled encode_fn() {
  static EncodeTiled fn = nullptr;
  if (!fn) {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult q;
    CK(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault, &q));
    if (q != cudaDriverEntryPointSuccess || !p) throw CudaFail{"cuTensorMapEncodeTiled not found"};
    fn = (EncodeTiled)p;
  }
  return fn;
}

__device__ __forceinline__ uint32_t smem_addr(const void* p) { return (uint32_t)__cvta_generic_to_shared(p); }

// info[0]: 1 when the mbarrier phase completed with expect_tx = tx; info[1]: the window's shared address
__global__ void tma_kernel(const __grid_constant__ CUtensorMap tmap, int c0, int c1, int dst_off, unsigned prefill,
                           unsigned tx, uint8_t* out, int out_bytes, unsigned* info) {
  __shared__ __align__(1024) uint8_t win[WINDOW];
  __shared__ __align__(8) uint64_t bar;
  for (int i = threadIdx.x; i < WINDOW; i += blockDim.x) win[i] = (uint8_t)prefill;
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  if (threadIdx.x == 0) {
    const uint32_t b = smem_addr(&bar), d = smem_addr(win) + (uint32_t)dst_off;
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(tx) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];\n"
                 ::"r"(d), "l"(reinterpret_cast<uint64_t>(&tmap)), "r"(c0), "r"(c1), "r"(b)
                 : "memory");
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

struct Dtype { const char* name; CUtensorMapDataType dt; int bytes; bool is_float; };
static const Dtype DTYPES[] = {
  {"uint8", CU_TENSOR_MAP_DATA_TYPE_UINT8, 1, false},   {"uint16", CU_TENSOR_MAP_DATA_TYPE_UINT16, 2, false},
  {"uint32", CU_TENSOR_MAP_DATA_TYPE_UINT32, 4, false}, {"uint64", CU_TENSOR_MAP_DATA_TYPE_UINT64, 8, false},
  {"float16", CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2, true}, {"float32", CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, true},
  {"bfloat16", CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, true}, {"float64", CU_TENSOR_MAP_DATA_TYPE_FLOAT64, 8, true},
};
static const char* SWIZZLE_NAMES[] = {"none", "32B", "64B", "128B"};
static const CUtensorMapSwizzle SWIZZLES[] = {CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_SWIZZLE_32B,
                                              CU_TENSOR_MAP_SWIZZLE_64B, CU_TENSOR_MAP_SWIZZLE_128B};

// cuTensorMapEncodeTiled for a rank-2 tensor of `cols` x `rows` elements at a row pitch of `pitch` bytes
static CUresult encode_2d(CUtensorMap* tmap, const Dtype* t, void* g, int cols, int rows, int pitch, int box0,
                          int box1, int swizzle, int es0 = 1, int es1 = 1, bool nan_fill = false) {
  cuuint64_t dims[2] = {(cuuint64_t)cols, (cuuint64_t)rows};
  cuuint64_t strides[1] = {(cuuint64_t)pitch};
  cuuint32_t box[2] = {(cuuint32_t)box0, (cuuint32_t)box1};
  cuuint32_t estr[2] = {(cuuint32_t)es0, (cuuint32_t)es1};
  return encode_fn()(tmap, t->dt, 2, g, dims, strides, box, estr, CU_TENSOR_MAP_INTERLEAVE_NONE, SWIZZLES[swizzle],
                     CU_TENSOR_MAP_L2_PROMOTION_NONE,
                     nan_fill ? CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA : CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}

// The bytes a copy wrote, run-length encoded: img[0] and img[1] are pass 0 over the two prefills (0x00, 0xFF),
// img[p + 1] pass p; a byte equal in img[0] and img[1] was written, its value is its digits.  Bytes
// [base, base + n) of the images; each run [offset, v, length, dv], v growing by dv along the run.
static std::string written_runs(const std::vector<uint8_t>* img, int base, int n) {
  auto written = [&](int j) { return img[0][base + j] == img[1][base + j]; };
  auto value = [&](int j) {
    long v = img[0][base + j];
    for (int p = 1; p < PASSES; ++p) v += (long)img[p + 1][base + j] << (8 * p);
    return v;
  };
  std::string runs = "[";
  bool first = true;
  int i = 0;
  while (i < n) {
    if (!written(i)) { ++i; continue; }
    const long v0 = value(i);
    int len = 1;
    long dv = 0;
    if (i + 1 < n && written(i + 1)) dv = value(i + 1) - v0;
    while (i + len < n && written(i + len) && value(i + len) == v0 + dv * len) ++len;
    runs += (first ? "" : ",") + std::string("[") + std::to_string(i) + "," + std::to_string(v0) + "," +
            std::to_string(len) + "," + std::to_string(dv) + "]";
    first = false;
    i += len;
  }
  return runs + "]";
}

struct Placement {
  const Dtype* t;
  int swizzle;                 // index into SWIZZLES
  int box0, box1;              // elements: inner (cols), outer (rows)
  int cols, rows, pitch;       // global tensor: dims and row pitch (bytes)
  int c0, c1;                  // start coordinate (col, row), may be negative or run past the end
  int dst_off;                 // destination offset inside the 1024-aligned window
  bool nan_fill;
  int es0 = 1, es1 = 1;        // elementStrides (traversal strides); 1, 1 unless a strided job sets them
};

// elements one copy moves along a dimension of `box` elements traversed with stride `es` (the driver API:
// ceil(boxDim / elementStrides))
static int traversed(int box, int es) { return (box + es - 1) / es; }

// One placement by the load method: a global buffer of `gbytes` whose byte i carries the digits of i + 1 (one pass a
// digit), the map encoded by `encode(&tmap, g)`, the kernel launched by `launch(tmap, prefill, d_out, d_info)` once a
// pass (the window prefilled with 0x00, then 0xFF, in pass 0).  Returns the placement's JSON fields from "encode" on,
// the object closed: the encode result, and if accepted the window's address, whether every transaction completed
// and the written bytes run-length encoded.
template <class Encode, class Launch>
static std::string placement_runs(long long gbytes, int out_bytes, Encode encode, Launch launch) {
  uint8_t* g = nullptr;
  CK(cudaMalloc(&g, gbytes + 256));
  uint8_t* d_out = nullptr;
  unsigned* d_info = nullptr;
  CK(cudaMalloc(&d_out, WINDOW));
  CK(cudaMalloc(&d_info, 2 * sizeof(unsigned)));
  CUtensorMap tmap;
  CUresult r = encode(&tmap, g);
  std::string o = ",\"encode\":" + std::to_string((int)r);
  if (r != CUDA_SUCCESS) {
    cudaFree(g); cudaFree(d_out); cudaFree(d_info);
    return o + ",\"window_addr\":null,\"tx_complete\":null,\"runs\":[]}";
  }
  std::vector<uint8_t> host(gbytes), img[PASSES + 1];
  unsigned info[2] = {0, 0};
  bool tx_ok = true;
  for (int run = 0; run <= PASSES; ++run) {        // run 0: digit 0, prefill 0x00; run 1: digit 0, 0xFF; run 2+: digit run-1
    const int digit = run == 0 ? 0 : run - 1;
    for (long long i = 0; i < gbytes; ++i) host[i] = (uint8_t)(((i + 1) >> (8 * digit)) & 0xFF);
    CK(cudaMemcpy(g, host.data(), gbytes, cudaMemcpyHostToDevice));
    launch(tmap, run == 1 ? 0xFFu : 0x00u, d_out, d_info);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    img[run].resize(out_bytes);
    CK(cudaMemcpy(img[run].data(), d_out, out_bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(info, d_info, sizeof info, cudaMemcpyDeviceToHost));
    tx_ok = tx_ok && info[0] == 1;
  }
  const std::string runs = written_runs(img, 0, out_bytes);     // written bytes and their values
  cudaFree(g); cudaFree(d_out); cudaFree(d_info);
  return o + ",\"window_addr\":" + std::to_string(info[1]) + ",\"tx_complete\":" + (tx_ok ? "true" : "false") +
         ",\"runs\":" + runs + "}";
}

static std::string placement_json(const Placement& P) {
  const int E = P.t->bytes;
  const int gbytes = P.rows * P.pitch;
  const int box_bytes = traversed(P.box0, P.es0) * traversed(P.box1, P.es1) * E;
  const int out_bytes = std::min(WINDOW, P.dst_off + box_bytes + 2048);
  std::string o = "{\"dtype\":" + jstr(P.t->name) + ",\"elem_bytes\":" + std::to_string(E) +
                  ",\"swizzle\":" + jstr(SWIZZLE_NAMES[P.swizzle]) + ",\"box\":[" + std::to_string(P.box0) + "," +
                  std::to_string(P.box1) + "],\"global_dim\":[" + std::to_string(P.cols) + "," +
                  std::to_string(P.rows) + "],\"global_stride\":" + std::to_string(P.pitch) + ",\"start\":[" +
                  std::to_string(P.c0) + "," + std::to_string(P.c1) + "],\"dst_offset\":" +
                  std::to_string(P.dst_off) + ",\"oob_fill\":" + jstr(P.nan_fill ? "nan" : "zero") +
                  ",\"expect_tx\":" + std::to_string(box_bytes) +
                  (P.es0 != 1 || P.es1 != 1 ? ",\"element_strides\":[" + std::to_string(P.es0) + "," +
                                                  std::to_string(P.es1) + "]" : std::string());
  if (g_fake) return o + ",\"encode\":\"fake\",\"window_addr\":0,\"tx_complete\":false,\"runs\":[]}";
  return o + placement_runs(
      gbytes, out_bytes,
      [&](CUtensorMap* tmap, uint8_t* g) {
        return encode_2d(tmap, P.t, g, P.cols, P.rows, P.pitch, P.box0, P.box1, P.swizzle, P.es0, P.es1, P.nan_fill);
      },
      [&](const CUtensorMap& tmap, unsigned prefill, uint8_t* d_out, unsigned* d_info) {
        tma_kernel<<<1, 256>>>(tmap, P.c0, P.c1, P.dst_off, prefill, (unsigned)box_bytes, d_out, out_bytes, d_info);
      });
}

