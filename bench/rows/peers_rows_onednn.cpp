// SPDX-License-Identifier: Apache-2.0
// oneDNN 2.6 (Debian's libdnnl-dev): softmax_v2 (softmax_accurate over axis 1) and
// layer_normalization (forward_inference, statistics computed, use_scale | use_shift) on the
// benchmark's plain row-major f32 rows x cols arrays. oneDNN works with primitives made once per
// shape: each call looks its primitive and memory objects up in a cache keyed by the shape and
// pointers (made at the first call, outside the timing, since every case is run once to be checked
// before it is timed), so a timed call costs a lookup and execute(). 2.6 has no RMSNorm (3.x's
// rms_norm flag) and no dot product or quantization by a row's own maximum.
#include <dlfcn.h>

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

#include "../onednn_common.h"
#include "peers_rows.h"

namespace simdgen_bench_rows {

namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

using simdgen_bench_onednn::cpu;
using simdgen_bench_onednn::wrap;

dnnl::stream& stream() {
  static dnnl::stream s(cpu());
  return s;
}


struct Prepared {
  dnnl::primitive prim;
  std::unordered_map<int, memory> args;
  std::string impl;
};

Prepared make_softmax(const float* x, int64_t rows, int64_t cols, float* y) {
  const memory::desc md({rows, cols}, dt::f32, tag::ab);
  const dnnl::softmax_v2_forward::primitive_desc pd(
      dnnl::softmax_v2_forward::desc(dnnl::prop_kind::forward_inference, dnnl::algorithm::softmax_accurate, md, md, 1),
      cpu());
  return {dnnl::softmax_v2_forward(pd), {{DNNL_ARG_SRC, wrap(md, x)}, {DNNL_ARG_DST, wrap(md, y)}}, pd.impl_info_str()};
}

Prepared make_layernorm(const float* x, const float* g, const float* b, int64_t rows, int64_t cols, float eps,
                        float* y) {
  const memory::desc md({rows, cols}, dt::f32, tag::ab), vec({cols}, dt::f32, tag::a);
  const auto flags = dnnl::normalization_flags::use_scale | dnnl::normalization_flags::use_shift;
  const dnnl::layer_normalization_forward::primitive_desc pd(
      dnnl::layer_normalization_forward::desc(dnnl::prop_kind::forward_inference, md, eps, flags), cpu());
  return {dnnl::layer_normalization_forward(pd),
          {{DNNL_ARG_SRC, wrap(md, x)},
           {DNNL_ARG_DST, wrap(md, y)},
           {DNNL_ARG_SCALE, wrap(vec, g)},
           {DNNL_ARG_SHIFT, wrap(vec, b)}},
          pd.impl_info_str()};
}

using Key = std::tuple<const void*, const void*, const void*, const void*, int64_t, int64_t, float>;

std::map<Key, Prepared>& cache() {
  static std::map<Key, Prepared> c;
  return c;
}

void run(Prepared& p) {
  p.prim.execute(stream(), p.args);
  stream().wait();
}

void softmax(const float* x, int64_t rows, int64_t cols, float* y) {
  const Key key{x, y, nullptr, nullptr, rows, cols, 0.0f};
  auto it = cache().find(key);
  if (it == cache().end()) it = cache().emplace(key, make_softmax(x, rows, cols, y)).first;
  run(it->second);
}

void layernorm(const float* x, const float* g, const float* b, int64_t rows, int64_t cols, float eps, float* y) {
  const Key key{x, y, g, b, rows, cols, eps};
  auto it = cache().find(key);
  if (it == cache().end()) it = cache().emplace(key, make_layernorm(x, g, b, rows, cols, eps, y)).first;
  run(it->second);
}

}  // namespace

std::span<const RowsFn> onednn_rows_functions() {
  static const RowsFn table[] = {
      {"softmax_f32", "onednn", erase(&softmax), "", "softmax_v2_forward, softmax_accurate, axis 1"},
      {"layernorm_f32", "onednn", erase(&layernorm), "", "layer_normalization_forward, use_scale | use_shift"},
  };
  return table;
}

// oneDNN's CPU engine runs on OpenMP here (libdnnl2 links libgomp): one thread through
// omp_set_num_threads, looked up at run time since the benchmark is not built with -fopenmp. The
// run script sets OMP_NUM_THREADS=1 as well. Names the implementations oneDNN picks for 64 x 4096.
std::string onednn_config() {
  using SetThreads = void (*)(int);
  using GetThreads = int (*)();
  auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (set) set(1);
  const dnnl::version_t* v = dnnl::version();
  static float x[64 * 4096], y[64 * 4096], g[4096], b[4096];
  const std::string impls = "softmax " + make_softmax(x, 64, 4096, y).impl + ", layer_normalization " +
                            make_layernorm(x, g, b, 64, 4096, 1e-5f, y).impl;
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." + std::to_string(v->patch) +
         ", " + (get ? std::to_string(get()) : std::string("?")) + " OpenMP thread(s), " + impls;
}

}  // namespace simdgen_bench_rows
