// SPDX-License-Identifier: Apache-2.0
// OpenBLAS and BLIS pthread builds by dlopen (peers_parallel_blas.h).
#include "peers_parallel_blas.h"

#include <dlfcn.h>

namespace simdgen_bench {
namespace {

void* open(const char* path) {
  static_cast<void>(dlerror());
  return dlopen(path, RTLD_NOW | RTLD_LOCAL);
}

template <class F> F symbol(void* lib, const char* name) { return lib ? reinterpret_cast<F>(dlsym(lib, name)) : nullptr; }

// cblas_sgemm's enums: CblasRowMajor 101, CblasNoTrans 111.
using CblasSgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);

}  // namespace

bool openblasSgemm(int threads, const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  static void* lib = open("/usr/lib/x86_64-linux-gnu/openblas-pthread/libopenblas.so.0");
  static const auto sgemm = symbol<CblasSgemm>(lib, "cblas_sgemm");
  static const auto setThreads = symbol<void (*)(int)>(lib, "openblas_set_num_threads");
  if (!sgemm || !setThreads) return false;
  setThreads(threads);
  sgemm(101, 111, 111, int(m), int(n), int(k), 1.0f, a, int(k), b, int(n), 0.0f, c, int(n));
  return true;
}

bool blisSgemm(int threads, const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  static void* lib = open("/usr/lib/x86_64-linux-gnu/blis-pthread/libblis.so.4");
  static const auto sgemm = symbol<CblasSgemm>(lib, "cblas_sgemm");
  static const auto setThreads = symbol<void (*)(long)>(lib, "bli_thread_set_num_threads");
  if (!sgemm || !setThreads) return false;
  setThreads(threads);
  sgemm(101, 111, 111, int(m), int(n), int(k), 1.0f, a, int(k), b, int(n), 0.0f, c, int(n));
  return true;
}

}  // namespace simdgen_bench
