// tools/gpu/capture_tma_store.cu -- what a 2-D tiled TMA store (cp.async.bulk.tensor.2d.global.shared::cta.tile)
// really writes into global memory on an NVIDIA Hopper GPU (written for the H200), what a tiled load with
// element strides (elementStrides != 1) writes into shared memory, and what a multicast load
// (.multicast::cluster) writes into each CTA of a cluster.  No CuTe/CUTLASS code or layout is used.
//
// Build:  nvcc -gencode=arch=compute_90a,code=sm_90a -O2 -cudart static -std=c++17 \
//              -o tools/gpu/build/capture_tma_store tools/gpu/capture_tma_store.cu
// Run:    tools/gpu/build/capture_tma_store OUTDIR [--date ISO8601] [--driver STR] [--only SUBSTR] [--fake]
// Writes OUTDIR/tma_store.json (tools/gpu/README.md, section "tma_store.json").
//
// Store method: shared byte i of a 1024-byte aligned window carries the digits of i + 1 in base 256, one digit
// per pass.  The global buffer is prefilled with 0x00 in one run and 0xFF in another of pass 0: a global byte that
// reads the same in both was written by the store.  Its value v tells where it came from: v - 1 is the window
// offset.  Each written global byte is reported run-length encoded as [global byte offset, v, length, dv].
// Strided loads use the load method of capture_tma.cu (tma_common.h) with elementStrides set.
#include "tma_common.h"

constexpr int STORE_WINDOW = 32 * 1024;   // shared bytes the store may read; below 65535: two digits

__global__ void tma_store_kernel(const __grid_constant__ CUtensorMap tmap, int c0, int c1, int src_off, int digit,
                                 unsigned* info) {
  __shared__ __align__(1024) uint8_t win[STORE_WINDOW];
  for (int i = threadIdx.x; i < STORE_WINDOW; i += blockDim.x) win[i] = (uint8_t)(((i + 1) >> (8 * digit)) & 0xFF);
  __syncthreads();
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  if (threadIdx.x == 0) {
    const uint32_t s = smem_addr(win) + (uint32_t)src_off;
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];\n"
                 ::"l"(reinterpret_cast<uint64_t>(&tmap)), "r"(c0), "r"(c1), "r"(s) : "memory");
    asm volatile("cp.async.bulk.commit_group;\n" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;\n" ::: "memory");
    info[0] = 1;
    info[1] = smem_addr(win);
  }
}

// a multicast load: the CTA of cluster rank `issuer` copies one box to every CTA of `mask`; each CTA of the cluster
// reports its window (out + rank * out_bytes) and whether its own barrier completed (info[2 * rank])
constexpr int MC_WINDOW = 16 * 1024;

__global__ void tma_multicast_kernel(const __grid_constant__ CUtensorMap tmap, int c0, int c1, int dst_off,
                                     unsigned prefill, unsigned tx, int issuer, unsigned mask, uint8_t* out,
                                     int out_bytes, unsigned* info) {
  __shared__ __align__(1024) uint8_t win[MC_WINDOW];
  __shared__ __align__(8) uint64_t bar;
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;\n" : "=r"(rank));
  for (int i = threadIdx.x; i < MC_WINDOW; i += blockDim.x) win[i] = (uint8_t)prefill;
  const bool receives = (mask >> rank) & 1;
  const uint32_t b = smem_addr(&bar);
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;\n" ::"r"(b) : "memory");
    asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    if (receives) asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(b), "r"(tx) : "memory");
  }
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
  __syncthreads();
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
  if (threadIdx.x == 0 && (int)rank == issuer) {
    const uint32_t d = smem_addr(win) + (uint32_t)dst_off;
    const uint16_t m = (uint16_t)mask;
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1, {%2, %3}], [%4], %5;\n"
                 ::"r"(d), "l"(reinterpret_cast<uint64_t>(&tmap)), "r"(c0), "r"(c1), "r"(b), "h"(m) : "memory");
  }
  if (threadIdx.x == 0) {
    unsigned done = 0;
    for (long long spin = 0; receives && spin < (1LL << 22) && !done; ++spin) {
      asm volatile("{\n.reg .pred p;\nmbarrier.try_wait.parity.shared::cta.b64 p, [%1], 0;\nselp.u32 %0, 1, 0, p;\n}\n"
                   : "=r"(done) : "r"(b) : "memory");
    }
    info[2 * rank] = done;
    info[2 * rank + 1] = smem_addr(win);
  }
  __syncthreads();
  asm volatile("barrier.cluster.arrive.release.aligned;\nbarrier.cluster.wait.acquire.aligned;\n" ::: "memory");
  for (int i = threadIdx.x; i < out_bytes; i += blockDim.x) out[rank * out_bytes + i] = win[i];
}

struct Multicast {
  const Dtype* t;
  int swizzle;
  int box0, box1, cols, rows, pitch, c0, c1, dst_off;
  int cluster, issuer;
  unsigned mask;
};

static std::string multicast_json(const Multicast& P) {
  const int E = P.t->bytes;
  const int gbytes = P.rows * P.pitch;
  const int box_bytes = P.box0 * P.box1 * E;
  const int out_bytes = std::min(MC_WINDOW, P.dst_off + box_bytes + 1024);
  std::string o = "{\"dtype\":" + jstr(P.t->name) + ",\"elem_bytes\":" + std::to_string(E) +
                  ",\"swizzle\":" + jstr(SWIZZLE_NAMES[P.swizzle]) + ",\"box\":[" + std::to_string(P.box0) + "," +
                  std::to_string(P.box1) + "],\"global_dim\":[" + std::to_string(P.cols) + "," +
                  std::to_string(P.rows) + "],\"global_stride\":" + std::to_string(P.pitch) + ",\"start\":[" +
                  std::to_string(P.c0) + "," + std::to_string(P.c1) + "],\"dst_offset\":" +
                  std::to_string(P.dst_off) + ",\"oob_fill\":\"zero\",\"expect_tx\":" + std::to_string(box_bytes) +
                  ",\"cluster\":" + std::to_string(P.cluster) + ",\"issuer\":" + std::to_string(P.issuer) +
                  ",\"mask\":" + std::to_string(P.mask);
  if (g_fake) return o + ",\"encode\":\"fake\",\"ctas\":[]}";
  uint8_t* g = nullptr;
  uint8_t* d_out = nullptr;
  unsigned* d_info = nullptr;
  CK(cudaMalloc(&g, gbytes + 256));
  CK(cudaMalloc(&d_out, P.cluster * out_bytes));
  CK(cudaMalloc(&d_info, 2 * P.cluster * sizeof(unsigned)));
  CUtensorMap tmap;
  CUresult r = encode_2d(&tmap, P.t, g, P.cols, P.rows, P.pitch, P.box0, P.box1, P.swizzle);
  o += ",\"encode\":" + std::to_string((int)r);
  if (r != CUDA_SUCCESS) {
    cudaFree(g); cudaFree(d_out); cudaFree(d_info);
    return o + ",\"ctas\":[]}";
  }
  std::vector<uint8_t> host(gbytes), img[PASSES + 1];
  std::vector<unsigned> info(2 * P.cluster);
  std::vector<int> done(P.cluster, 1);
  for (int run = 0; run <= PASSES; ++run) {
    const int digit = run == 0 ? 0 : run - 1;
    for (int i = 0; i < gbytes; ++i) host[i] = (uint8_t)(((i + 1) >> (8 * digit)) & 0xFF);
    CK(cudaMemcpy(g, host.data(), gbytes, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_info, 0, 2 * P.cluster * sizeof(unsigned)));
    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3(P.cluster);
    cfg.blockDim = dim3(128);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = P.cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CK(cudaLaunchKernelEx(&cfg, tma_multicast_kernel, tmap, P.c0, P.c1, P.dst_off, run == 1 ? 0xFFu : 0x00u,
                          (unsigned)box_bytes, P.issuer, P.mask, d_out, out_bytes, d_info));
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    img[run].resize(P.cluster * out_bytes);
    CK(cudaMemcpy(img[run].data(), d_out, P.cluster * out_bytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(info.data(), d_info, info.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int k = 0; k < P.cluster; ++k) done[k] = done[k] && info[2 * k] == 1;
  }
  std::string ctas = "[";
  for (int k = 0; k < P.cluster; ++k) {
    const std::string runs = written_runs(img, k * out_bytes, out_bytes);
    ctas += (k ? "," : "") + std::string("{\"rank\":") + std::to_string(k) + ",\"window_addr\":" +
            std::to_string(info[2 * k + 1]) + ",\"tx_complete\":" + (done[k] ? "true" : "false") + ",\"runs\":" +
            runs + "}";
  }
  cudaFree(g); cudaFree(d_out); cudaFree(d_info);
  return o + ",\"ctas\":" + ctas + "]}";
}

static std::string job_multicast(const std::string& id, const std::vector<Multicast>& ps) {
  std::string o = "{\"id\":" + jstr(id) + ",\"kind\":\"multicast\",\"instruction\":" +
                  jstr("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                       ".multicast::cluster") + ",\"passes\":" + std::to_string(PASSES) + ",\"loads\":[";
  for (size_t k = 0; k < ps.size(); ++k) o += (k ? ",\n" : "\n") + multicast_json(ps[k]);
  return o + "]}";
}

// clusters of 2 and 4 CTAs, masks with and without the issuing CTA, swizzled and not, a box partly out of bounds
static std::vector<Multicast> multicasts(int cluster) {
  const Dtype* t = &DTYPES[4];   // float16
  std::vector<Multicast> out;
  const unsigned full = (1u << cluster) - 1;
  for (unsigned mask : {full, 1u, 2u, full & 0xAu, full & 0x6u}) {
    for (int issuer : {0, cluster - 1}) {
      out.push_back({t, 3, 64, 8, 160, 24, 320, 0, 0, 0, cluster, issuer, mask});
      out.push_back({t, 0, 32, 4, 40, 12, 80, 16, 10, 1024, cluster, issuer, mask});
    }
  }
  return out;
}

struct Store {
  const Dtype* t;
  int swizzle;                 // index into SWIZZLES
  int box0, box1;              // elements: inner (cols), outer (rows)
  int cols, rows, pitch;       // global tensor: dims and row pitch (bytes)
  int c0, c1;                  // start coordinate (col, row), may be negative or run past the end
  int src_off;                 // source offset inside the 1024-aligned window
};

static std::string store_json(const Store& P) {
  const int E = P.t->bytes;
  const int gbytes = P.rows * P.pitch;
  std::string o = "{\"dtype\":" + jstr(P.t->name) + ",\"elem_bytes\":" + std::to_string(E) +
                  ",\"swizzle\":" + jstr(SWIZZLE_NAMES[P.swizzle]) + ",\"box\":[" + std::to_string(P.box0) + "," +
                  std::to_string(P.box1) + "],\"global_dim\":[" + std::to_string(P.cols) + "," +
                  std::to_string(P.rows) + "],\"global_stride\":" + std::to_string(P.pitch) + ",\"start\":[" +
                  std::to_string(P.c0) + "," + std::to_string(P.c1) + "],\"src_offset\":" +
                  std::to_string(P.src_off);
  if (g_fake) return o + ",\"encode\":\"fake\",\"window_addr\":0,\"runs\":[]}";
  uint8_t* g = nullptr;
  unsigned* d_info = nullptr;
  CK(cudaMalloc(&g, gbytes + 256));
  CK(cudaMalloc(&d_info, 2 * sizeof(unsigned)));
  CUtensorMap tmap;
  CUresult r = encode_2d(&tmap, P.t, g, P.cols, P.rows, P.pitch, P.box0, P.box1, P.swizzle);
  o += ",\"encode\":" + std::to_string((int)r);
  if (r != CUDA_SUCCESS) {
    cudaFree(g); cudaFree(d_info);
    return o + ",\"window_addr\":null,\"runs\":[]}";
  }
  std::vector<uint8_t> img[PASSES + 1];
  unsigned info[2] = {0, 0};
  for (int run = 0; run <= PASSES; ++run) {        // run 0: digit 0, prefill 0x00; run 1: digit 0, 0xFF; run 2+: digit run-1
    const int digit = run == 0 ? 0 : run - 1;
    CK(cudaMemset(g, run == 1 ? 0xFF : 0x00, gbytes));
    tma_store_kernel<<<1, 256>>>(tmap, P.c0, P.c1, P.src_off, digit, d_info);
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    img[run].resize(gbytes);
    CK(cudaMemcpy(img[run].data(), g, gbytes, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(info, d_info, sizeof info, cudaMemcpyDeviceToHost));
  }
  const std::string runs = written_runs(img, 0, gbytes);
  cudaFree(g); cudaFree(d_info);
  return o + ",\"window_addr\":" + std::to_string(info[1]) + ",\"runs\":" + runs + "}";
}

static std::string job_stores(const std::string& id, const std::vector<Store>& ps) {
  std::string o = "{\"id\":" + jstr(id) + ",\"kind\":\"store\",\"instruction\":" +
                  jstr("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group") +
                  ",\"passes\":" + std::to_string(PASSES) + ",\"stores\":[";
  for (size_t k = 0; k < ps.size(); ++k) o += (k ? ",\n" : "\n") + store_json(ps[k]);
  return o + "]}";
}

static std::string job_strided(const std::string& id, const std::vector<Placement>& ps) {
  std::string o = "{\"id\":" + jstr(id) + ",\"kind\":\"placement\",\"instruction\":" +
                  jstr("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes") +
                  ",\"passes\":" + std::to_string(PASSES) + ",\"placements\":[";
  for (size_t k = 0; k < ps.size(); ++k) o += (k ? ",\n" : "\n") + placement_json(ps[k]);
  return o + "]}";
}

// the stores of one (element type, swizzle) family: box shapes, starts inside and partly outside the tensor on
// either side, 128-byte aligned source offsets
static std::vector<Store> store_family(const Dtype* t, int swz, int which) {
  const int E = t->bytes;
  const int span = swz == 0 ? 256 : (16 << swz);
  std::vector<Store> out;
  for (int ib : {16, 32, 64, 128, 256}) {
    if (ib > span || ib / E > 256) continue;
    const int box0 = ib / E;
    for (int box1 : {1, 5, 8}) {
      const int cols = box0 * 2 + 3, rows = 20;
      const int pitch = ((cols * E + 15) / 16) * 16 + 16;
      const int step = 16 / E;
      struct S { int c0, c1; bool all_src; } starts[] = {
          {0, 0, true}, {step, 2, true}, {-step, 2, false}, {0, -3, false},
          {(cols - box0 / 2) / step * step, rows - 2, false}};
      for (int k = 0; k < 5; ++k) {
        if (k != which) continue;         // one job per kind of start: a start that traps loses only its job
        const S s = starts[k];
        for (int src : {0, 128, 1024}) {
          if (src && !s.all_src) continue;
          out.push_back({t, swz, box0, box1, cols, rows, pitch, s.c0, s.c1, src});
        }
      }
    }
  }
  return out;
}

// loads with element strides: float16 and float32, unswizzled and 128B, strides along either dimension or both,
// a box inside the tensor and one partly outside
static std::vector<Placement> strided(int k, int swz) {
  const Dtype* t = &DTYPES[k];
  const int E = t->bytes;
  std::vector<Placement> out;
  struct ES { int s0, s1; } strides[] = {{2, 1}, {1, 2}, {2, 2}, {4, 1}, {3, 1}, {1, 3}, {8, 1}};
  for (auto es : strides) {
    const int box0 = 64 / E, box1 = 6;
    const int cols = 3 * box0, rows = 20;
    const int pitch = ((cols * E + 15) / 16) * 16;
    out.push_back({t, swz, box0, box1, cols, rows, pitch, 0, 0, 0, false, es.s0, es.s1});
    out.push_back({t, swz, box0, box1, cols, rows, pitch, 16 / E, 1, 1024, false, es.s0, es.s1});
    out.push_back({t, swz, box0, box1, cols, rows, pitch, cols - box0 / 2 / (16 / E) * (16 / E), rows - 3, 0, false,
                   es.s0, es.s1});
  }
  return out;
}

int main(int argc, char** argv) {
  Capture c;
  c.tag = "capture_tma_store";
  c.meta = [] { return meta_json("tools/gpu/capture_tma_store.cu", ",\"target\":\"sm_90a\""); };
  for (int k : {0, 1, 2, 3}) {                 // uint8, uint16, uint32, uint64
    for (int swz = 0; swz < 4; ++swz) {
      static const char* STARTS[] = {"origin", "inside", "before_col", "before_row", "past_end"};
      for (int which = 0; which < 5; ++which) {
        const std::string id = std::string("store_") + DTYPES[k].name + "_" + SWIZZLE_NAMES[swz] + "_" +
                               STARTS[which];
        const Dtype* t = &DTYPES[k];
        c.jobs.push_back({id, "tma_store", [id, t, swz, which] {
          return job_stores(id, store_family(t, swz, which)); }});
      }
    }
  }
  for (int k : {4, 5}) {                       // float16, float32
    for (int swz : {0, 3}) {
      const std::string id = std::string("strided_") + DTYPES[k].name + "_" + SWIZZLE_NAMES[swz];
      c.jobs.push_back({id, "tma_store", [id, k, swz] { return job_strided(id, strided(k, swz)); }});
    }
  }
  for (int cluster : {2, 4}) {
    const std::string id = "multicast_cluster" + std::to_string(cluster);
    c.jobs.push_back({id, "tma_store", [id, cluster] { return job_multicast(id, multicasts(cluster)); }});
  }
  c.families = {"tma_store"};
  return capture_main(argc, argv, c);
}
