// tools/gpu/capture_common.h -- what the capture programs (capture.cu, capture_wgmma.cu) share:
// CUDA error checks, a small JSON writer, the one-hot record run and its JSON fields, the run's
// metadata, and the fork-per-batch job driver with its command line.  Each program is a single
// translation unit, so everything here is `static`.
#pragma once
#include <cuda_runtime.h>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <algorithm>
#include <functional>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>
#include <signal.h>

// --fake: run the driver and the JSON writers without touching CUDA (empty tables)
static bool g_fake = false;
static std::string g_date = "unknown", g_driver_str = "";

struct CudaFail {
  std::string msg;
};
#define CK(x)                                                                                       \
  do {                                                                                              \
    cudaError_t e_ = (x);                                                                           \
    if (e_ != cudaSuccess)                                                                          \
      throw CudaFail{std::string(#x) + ": " + cudaGetErrorName(e_) + ": " + cudaGetErrorString(e_)}; \
  } while (0)

// ------------------------------------------------------------------------------------------
// JSON
// ------------------------------------------------------------------------------------------
static std::string jstr(const std::string& s) {
  std::string o = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') { o += '\\'; o += c; }
    else if ((unsigned char)c < 0x20) { char b[8]; snprintf(b, sizeof b, "\\u%04x", c); o += b; }
    else o += c;
  }
  return o + "\"";
}
static std::string jnum(double v) {
  char b[40];
  if (v == (double)(long long)v && v > -1e15 && v < 1e15) snprintf(b, sizeof b, "%lld", (long long)v);
  else snprintf(b, sizeof b, "%.17g", v);
  return b;
}
template <class T>
static std::string jlist(const std::vector<T>& v) {
  std::string o = "[";
  for (size_t i = 0; i < v.size(); ++i) { if (i) o += ","; o += std::to_string(v[i]); }
  return o + "]";
}
static std::string hex64(unsigned long long v) { char b[24]; snprintf(b, sizeof b, "0x%llx", v); return b; }

// ------------------------------------------------------------------------------------------
// one-hot records: a kernel appends [a position, b position, d slot, value] for every nonzero
// (difference of) accumulator element; a or b == -1 stands for the all-zero operand
// ------------------------------------------------------------------------------------------
template <class Rec>
struct OnehotRun {
  std::vector<Rec> recs;  // sorted by (a, b, d)
  unsigned count = 0;     // records the kernel produced (may exceed the capacity)
  unsigned cap = 0;
  float ms = 0.f;
};

// launch(d_recs, d_cnt, cap) launches the kernel on the default stream
template <class Rec, class Launch>
static OnehotRun<Rec> run_onehot(unsigned cap, Launch launch) {
  OnehotRun<Rec> r;
  r.cap = cap;
  if (!g_fake) {
    Rec* d_recs; unsigned* d_cnt;
    CK(cudaMalloc(&d_recs, sizeof(Rec) * (size_t)cap));
    CK(cudaMalloc(&d_cnt, sizeof(unsigned)));
    CK(cudaMemset(d_cnt, 0, sizeof(unsigned)));
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    CK(cudaEventRecord(e0));
    launch(d_recs, d_cnt, cap);
    CK(cudaGetLastError());
    CK(cudaEventRecord(e1));
    CK(cudaDeviceSynchronize());
    CK(cudaEventElapsedTime(&r.ms, e0, e1));
    CK(cudaMemcpy(&r.count, d_cnt, sizeof(unsigned), cudaMemcpyDeviceToHost));
    r.recs.resize(std::min(r.count, cap));
    CK(cudaMemcpy(r.recs.data(), d_recs, sizeof(Rec) * r.recs.size(), cudaMemcpyDeviceToHost));
    CK(cudaFree(d_recs)); CK(cudaFree(d_cnt));
  }
  std::sort(r.recs.begin(), r.recs.end(), [](const Rec& x, const Rec& y) {
    if (x.a != y.a) return x.a < y.a;
    if (x.b != y.b) return x.b < y.b;
    return x.d < y.d;
  });
  return r;
}

// the run's JSON fields, each preceded by a comma: kernel_ms, records, overflow, hit_values
// (distinct values of the hits with their counts), hits [a,b,d], a_only [a,d,v], b_only [b,d,v],
// zero_input_nonzero [d,v]
template <class Rec>
static std::string onehot_fields(const OnehotRun<Rec>& run) {
  std::string hits = "[", aonly = "[", bonly = "[", zero = "[";
  std::vector<std::pair<double, long>> hv;
  bool fh = true, fa = true, fb = true, fz = true;
  for (const Rec& r : run.recs) {
    const double v = (double)r.v;
    if (r.a >= 0 && r.b >= 0) {
      hits += (fh ? "[" : ",[") + std::to_string(r.a) + "," + std::to_string(r.b) + "," + std::to_string(r.d) + "]";
      fh = false;
      auto it = std::find_if(hv.begin(), hv.end(), [&](const std::pair<double, long>& p) { return p.first == v; });
      if (it == hv.end()) hv.push_back({v, 1}); else it->second++;
    } else if (r.a >= 0) {
      aonly += (fa ? "[" : ",[") + std::to_string(r.a) + "," + std::to_string(r.d) + "," + jnum(v) + "]"; fa = false;
    } else if (r.b >= 0) {
      bonly += (fb ? "[" : ",[") + std::to_string(r.b) + "," + std::to_string(r.d) + "," + jnum(v) + "]"; fb = false;
    } else {
      zero += (fz ? "[" : ",[") + std::to_string(r.d) + "," + jnum(v) + "]"; fz = false;
    }
  }
  hits += "]"; aonly += "]"; bonly += "]"; zero += "]";
  std::sort(hv.begin(), hv.end());
  std::string hvs = "[";
  for (size_t i = 0; i < hv.size(); ++i) hvs += (i ? ",[" : "[") + jnum(hv[i].first) + "," + std::to_string(hv[i].second) + "]";
  hvs += "]";
  std::string o;
  o += ",\"kernel_ms\":" + jnum((double)(long long)(run.ms * 1000) / 1000.0);
  o += ",\"records\":" + std::to_string(run.count);
  o += std::string(",\"overflow\":") + (run.count > run.cap ? "true" : "false");
  o += ",\"hit_values\":" + hvs;
  o += ",\"hits\":" + hits;
  o += ",\"a_only\":" + aonly;
  o += ",\"b_only\":" + bonly;
  o += ",\"zero_input_nonzero\":" + zero;
  return o;
}

// ------------------------------------------------------------------------------------------
// metadata: GPU, driver, toolchain, date; `extra` (leading comma) follows "sm"
// ------------------------------------------------------------------------------------------
static std::string meta_json(const std::string& tool, const std::string& extra) {
  std::string gpu = "fake", sm = "9.0";
  int drv = 0, rt = 0;
  if (!g_fake) {
    cudaDeviceProp p;
    CK(cudaGetDeviceProperties(&p, 0));
    gpu = p.name;
    sm = std::to_string(p.major) + "." + std::to_string(p.minor);
    CK(cudaDriverGetVersion(&drv));
    CK(cudaRuntimeGetVersion(&rt));
  }
  auto ver = [](int v) { return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10); };
  std::string o = "{";
  o += "\"gpu\":" + jstr(gpu);
  o += ",\"sm\":" + jstr(sm);
  o += extra;
  o += ",\"driver\":" + jstr(g_driver_str.empty() ? "cuda driver api " + ver(drv) : g_driver_str);
  o += ",\"cuda_driver_api\":" + jstr(ver(drv)) + ",\"cuda_driver_api_int\":" + std::to_string(drv);
  o += ",\"cuda_runtime\":" + jstr(ver(rt)) + ",\"cuda_runtime_int\":" + std::to_string(rt);
  o += ",\"nvcc\":" + jstr(std::to_string(__CUDACC_VER_MAJOR__) + "." + std::to_string(__CUDACC_VER_MINOR__) + "." +
                           std::to_string(__CUDACC_VER_BUILD__));
  o += ",\"date\":" + jstr(g_date);
  o += ",\"tool\":" + jstr(tool);
  o += std::string(",\"fake\":") + (g_fake ? "true" : "false");
  o += "}";
  return o;
}

// ------------------------------------------------------------------------------------------
// files
// ------------------------------------------------------------------------------------------
static bool read_file(const std::string& p, std::string& out) {
  FILE* f = fopen(p.c_str(), "rb");
  if (!f) return false;
  out.clear();
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  fclose(f);
  return true;
}
// written to a temporary name and renamed, so a crash never leaves half a file
static bool write_file(const std::string& p, const std::string& s) {
  std::string tmp = p + ".tmp";
  FILE* f = fopen(tmp.c_str(), "wb");
  if (!f) return false;
  bool ok = fwrite(s.data(), 1, s.size(), f) == s.size();
  ok = (fclose(f) == 0) && ok;
  return ok && rename(tmp.c_str(), p.c_str()) == 0;
}

// ------------------------------------------------------------------------------------------
// job driver.  Jobs run in a forked child (the parent never touches CUDA), in order, one part
// file each; a job that faults only loses its own table: the parent records the failure and
// starts a fresh child at the next job.  One JSON document per family:
//   {"meta":..., "failed_at_run_time":[{job,error}], "not_assembled":[...], "tables":[...]}
// ------------------------------------------------------------------------------------------
struct Job {
  std::string name, family;
  std::function<std::string()> fn;
};

struct Capture {
  std::string tag;                                      // log prefix, e.g. "capture"
  std::function<std::string()> meta;                    // the "meta" job
  std::vector<Job> jobs;
  std::vector<std::string> families;                    // one OUTDIR/<family>.json each
  std::function<std::string(const std::string&)> not_assembled;  // JSON list for a family
};

static void child_run(const Capture& c, const std::vector<Job>& jobs, size_t start, const std::string& parts) {
  for (size_t i = start; i < jobs.size(); ++i) {
    fprintf(stderr, "[%s] job %zu/%zu %s ...\n", c.tag.c_str(), i, jobs.size(), jobs[i].name.c_str());
    alarm(120);
    try {
      std::string s = jobs[i].fn();
      if (!write_file(parts + "/" + jobs[i].name + ".json", s)) {
        fprintf(stderr, "[%s] cannot write part file for %s\n", c.tag.c_str(), jobs[i].name.c_str());
        _exit(4);
      }
    } catch (const CudaFail& e) {
      fprintf(stderr, "[%s] job %s FAILED: %s\n", c.tag.c_str(), jobs[i].name.c_str(), e.msg.c_str());
      write_file(parts + "/" + jobs[i].name + ".err", e.msg);
      _exit(3);
    }
    alarm(0);
  }
  _exit(0);
}

static int capture_main(int argc, char** argv, const Capture& c) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s OUTDIR [--date ISO] [--driver STR] [--only SUBSTR] [--fake]\n", argv[0]);
    return 2;
  }
  std::string outdir = argv[1], only;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--fake") g_fake = true;
    else if (a == "--date" && i + 1 < argc) g_date = argv[++i];
    else if (a == "--driver" && i + 1 < argc) g_driver_str = argv[++i];
    else if (a == "--only" && i + 1 < argc) only = argv[++i];
    else { fprintf(stderr, "unknown argument %s\n", a.c_str()); return 2; }
  }
  std::vector<Job> jobs = {{"meta", "meta", c.meta}};
  for (const Job& j : c.jobs)
    if (only.empty() || j.name.find(only) != std::string::npos) jobs.push_back(j);
  const std::string parts = outdir + "/parts";
  mkdir(outdir.c_str(), 0755);
  mkdir(parts.c_str(), 0755);
  for (auto& j : jobs) { unlink((parts + "/" + j.name + ".json").c_str()); unlink((parts + "/" + j.name + ".err").c_str()); }

  std::vector<std::pair<size_t, std::string>> failures;  // (job index, why)
  size_t start = 0;
  while (start < jobs.size()) {
    fflush(stdout); fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) { perror("fork"); return 1; }
    if (pid == 0) child_run(c, jobs, start, parts);
    int st = 0;
    waitpid(pid, &st, 0);
    if (WIFEXITED(st) && WEXITSTATUS(st) == 0) break;
    size_t i = start;
    std::string dummy;
    while (i < jobs.size() && read_file(parts + "/" + jobs[i].name + ".json", dummy)) ++i;
    if (i >= jobs.size()) break;
    std::string why;
    if (!read_file(parts + "/" + jobs[i].name + ".err", why)) {
      if (WIFSIGNALED(st)) why = std::string("child killed by signal ") + std::to_string(WTERMSIG(st)) + " (" + strsignal(WTERMSIG(st)) + ")";
      else why = "child exited with status " + std::to_string(WEXITSTATUS(st));
    }
    fprintf(stderr, "[%s] recorded failure of %s: %s\n", c.tag.c_str(), jobs[i].name.c_str(), why.c_str());
    failures.push_back({i, why});
    start = i + 1;
  }

  std::string meta;
  if (!read_file(parts + "/meta.json", meta)) meta = "{\"error\":\"meta job failed\",\"date\":" + jstr(g_date) + "}";
  int rc = 0;
  for (const std::string& fam : c.families) {
    std::string tables = "[", failed = "[";
    bool any = false, ft = true, ff = true;
    for (size_t i = 0; i < jobs.size(); ++i) {
      if (jobs[i].family != fam) continue;
      any = true;
      std::string part;
      if (read_file(parts + "/" + jobs[i].name + ".json", part)) {
        tables += (ft ? "\n" : ",\n") + part; ft = false;
      }
    }
    for (auto& f : failures) {
      if (jobs[f.first].family != fam) continue;
      failed += (ff ? "" : ",") + std::string("{\"job\":") + jstr(jobs[f.first].name) + ",\"error\":" + jstr(f.second) + "}";
      ff = false;
    }
    tables += "\n]"; failed += "]";
    const std::string not_asm = c.not_assembled ? c.not_assembled(fam) : "[]";
    if (!any && not_asm == "[]") continue;
    std::string doc = "{\"meta\":" + meta + ",\n\"failed_at_run_time\":" + failed + ",\n\"not_assembled\":" + not_asm +
                      ",\n\"tables\":" + tables + "}\n";
    if (!write_file(outdir + "/" + fam + ".json", doc)) { fprintf(stderr, "cannot write %s\n", fam.c_str()); rc = 1; }
    else fprintf(stderr, "[%s] wrote %s/%s.json\n", c.tag.c_str(), outdir.c_str(), fam.c_str());
  }
  fprintf(stderr, "[%s] %zu jobs, %zu failed\n", c.tag.c_str(), jobs.size(), failures.size());
  return rc;
}
