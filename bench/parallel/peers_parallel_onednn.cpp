// SPDX-License-Identifier: Apache-2.0
// oneDNN peers of bench_parallel.cpp (peers_parallel_onednn.h).
#include "peers_parallel_onednn.h"

#include <memory>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

#include "../onednn_common.h"

namespace simdgen_bench {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

using simdgen_bench_onednn::wrap;
using simdgen_bench_onednn::cpu;

// One primitive with its arguments, executed on a stream that waits for it.
std::function<void()> runner(dnnl::primitive prim, std::unordered_map<int, memory> args) {
  auto stream = std::make_shared<dnnl::stream>(cpu());
  return [prim, args, stream] {
    prim.execute(*stream, args);
    stream->wait();
  };
}

}  // namespace

std::function<void()> onednnMatmul(const float* a, const float* b, float* c, int64_t m, int64_t k, int64_t n) {
  const memory::desc amd({m, k}, dt::f32, tag::ab), bmd({k, n}, dt::f32, tag::ab), cmd({m, n}, dt::f32, tag::ab);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(amd, bmd, cmd), cpu());
  return runner(dnnl::matmul(pd), {{DNNL_ARG_SRC, wrap(amd, a)}, {DNNL_ARG_WEIGHTS, wrap(bmd, b)}, {DNNL_ARG_DST, wrap(cmd, c)}});
}

std::function<void()> onednnSoftmax(const float* x, float* y, int64_t rows, int64_t cols) {
  const memory::desc md({rows, cols}, dt::f32, tag::ab);
  const dnnl::softmax_forward::primitive_desc pd(dnnl::softmax_forward::desc(dnnl::prop_kind::forward_inference, md, 1), cpu());
  return runner(dnnl::softmax_forward(pd), {{DNNL_ARG_SRC, wrap(md, x)}, {DNNL_ARG_DST, wrap(md, y)}});
}

std::function<void()> onednnRowSums(const float* x, float* out, int64_t rows, int64_t cols) {
  const memory::desc src({rows, cols}, dt::f32, tag::ab), dst({rows, 1}, dt::f32, tag::ab);
  const dnnl::reduction::primitive_desc pd(dnnl::reduction::desc(dnnl::algorithm::reduction_sum, src, dst, 0.f, 0.f), cpu());
  return runner(dnnl::reduction(pd), {{DNNL_ARG_SRC, wrap(src, x)}, {DNNL_ARG_DST, wrap(dst, out)}});
}

std::function<void()> onednnTranspose(const float* x, float* out, int64_t rows, int64_t cols) {
  // The same logical rows x cols array, written column-major: out[c * rows + r] = x[r * cols + c].
  const memory::desc src({rows, cols}, dt::f32, tag::ab), dst({rows, cols}, dt::f32, tag::ba);
  memory from = wrap(src, x), to = wrap(dst, out);
  return runner(dnnl::reorder(from, to), {{DNNL_ARG_FROM, from}, {DNNL_ARG_TO, to}});
}

}  // namespace simdgen_bench
