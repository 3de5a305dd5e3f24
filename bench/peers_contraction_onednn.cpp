// SPDX-License-Identifier: Apache-2.0
// oneDNN 2.6 (Debian's libdnnl-dev): the matmul primitive on plain row-major
// f32, and the seed convolution as a forward-inference convolution with bias
// and a ReLU eltwise post-op, in two layouts:
//   "onednn":      source, weights and destination in the layouts oneDNN
//                  prefers (format_tag::any: blocked, e.g. nChw16c); the input
//                  and weights are reordered once, outside the timing, and the
//                  output is reordered back to NHWC only for the check;
//   "onednn.nhwc": the benchmark's own NHWC activations, weights still in
//                  oneDNN's preferred layout (reordered once).
// Primitives are created when the peer is prepared, never inside the timing.
#include <dlfcn.h>

#include <memory>
#include <unordered_map>

#include <oneapi/dnnl/dnnl.hpp>

#include "onednn_common.h"
#include "peers_contraction.h"

namespace simdgen_bench {
namespace {

using dnnl::memory;
using tag = memory::format_tag;
using dt = memory::data_type;

using simdgen_bench_onednn::cpu;
using simdgen_bench_onednn::wrap;

// `from` in the layout `to_md` asks for: the same memory if it already has it.
memory reordered(memory from, const memory::desc& to_md, dnnl::stream& s) {
  if (from.get_desc() == to_md) return from;
  memory to(to_md, cpu());
  dnnl::reorder(from, to).execute(s, from, to);
  s.wait();
  return to;
}

// A layout in a few words for the benchmark label: `plain_name` if md is the
// plain layout `plain`, else oneDNN's inner blocks ("64a": dimension a in
// blocks of 64).
std::string layout(const memory::desc& md, const memory::desc& plain, const char* plain_name) {
  if (md == plain) return plain_name;
  const dnnl_blocking_desc_t& b = md.data.format_desc.blocking;
  std::string s = "blocked";
  for (int i = 0; i < b.inner_nblks; ++i) {
    s += ' ';
    s += std::to_string(b.inner_blks[i]);
    s += "abcdef"[b.inner_idxs[i]];
  }
  return s;
}

Prepared matmul(const Problem& p) {
  const memory::desc a_md({p.m, p.k}, dt::f32, tag::ab), b_md({p.k, p.n}, dt::f32, tag::ab),
      c_md({p.m, p.n}, dt::f32, tag::ab);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), cpu());
  auto prim = std::make_shared<dnnl::matmul>(pd);
  auto s = std::make_shared<dnnl::stream>(cpu());
  auto args = std::make_shared<std::unordered_map<int, memory>>(std::unordered_map<int, memory>{
      {DNNL_ARG_SRC, wrap(a_md, p.a)},
      {DNNL_ARG_WEIGHTS, wrap(b_md, p.b)},
      {DNNL_ARG_DST, wrap(c_md, p.out)}});
  return {[=] {
            prim->execute(*s, *args);
            s->wait();
          },
          [p] { return static_cast<const float*>(p.out); },
          pd.impl_info_str()};
}

// c = a * b on bf16 a and b (made from the benchmark's f32 values, which bf16 represents exactly:
// reordered once, outside the timing), f32 c. packed: the weights in the layout oneDNN prefers
// (reordered once, as simdgen's pack ahead), else plain row-major bf16.
Prepared matmul_bf16(const Problem& p, bool packed) {
  const memory::desc a_f32({p.m, p.k}, dt::f32, tag::ab), b_f32({p.k, p.n}, dt::f32, tag::ab),
      a_md({p.m, p.k}, dt::bf16, tag::ab), b_plain({p.k, p.n}, dt::bf16, tag::ab),
      b_md = packed ? memory::desc({p.k, p.n}, dt::bf16, tag::any) : b_plain, c_md({p.m, p.n}, dt::f32, tag::ab);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), cpu());
  auto prim = std::make_shared<dnnl::matmul>(pd);
  auto s = std::make_shared<dnnl::stream>(cpu());
  const memory a = reordered(wrap(a_f32, p.a), a_md, *s);
  const memory b = reordered(wrap(b_f32, p.b), pd.weights_desc(), *s);
  auto args = std::make_shared<std::unordered_map<int, memory>>(std::unordered_map<int, memory>{
      {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, wrap(c_md, p.out)}});
  return {[=] {
            prim->execute(*s, *args);
            s->wait();
          },
          [p] { return static_cast<const float*>(p.out); },
          std::string(pd.impl_info_str()) + ", weights " + layout(pd.weights_desc(), b_plain, "plain")};
}

// c = a * b on u8 (or s8: a_type) a and s8 b (the benchmark's floats hold integers in their
// ranges: reordered once, outside the timing), s32 c, converted to floats for the check outside
// the timing. packed: the weights in the layout oneDNN prefers (reordered once), else plain
// row-major s8.
Prepared matmul_int8(const Problem& p, bool packed, dt a_type) {
  const memory::desc a_f32({p.m, p.k}, dt::f32, tag::ab), b_f32({p.k, p.n}, dt::f32, tag::ab),
      a_md({p.m, p.k}, a_type, tag::ab), b_plain({p.k, p.n}, dt::s8, tag::ab),
      b_md = packed ? memory::desc({p.k, p.n}, dt::s8, tag::any) : b_plain, c_md({p.m, p.n}, dt::s32, tag::ab);
  const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), cpu());
  auto prim = std::make_shared<dnnl::matmul>(pd);
  auto s = std::make_shared<dnnl::stream>(cpu());
  const memory a = reordered(wrap(a_f32, p.a), a_md, *s);
  const memory b = reordered(wrap(b_f32, p.b), pd.weights_desc(), *s);
  auto c = std::make_shared<std::vector<int32_t>>(static_cast<size_t>(p.m * p.n));
  auto args = std::make_shared<std::unordered_map<int, memory>>(std::unordered_map<int, memory>{
      {DNNL_ARG_SRC, a}, {DNNL_ARG_WEIGHTS, b}, {DNNL_ARG_DST, memory(c_md, cpu(), c->data())}});
  return {[=] {
            prim->execute(*s, *args);
            s->wait();
          },
          [p, c] {
            for (int64_t i = 0; i < p.m * p.n; ++i) p.out[i] = static_cast<float>((*c)[static_cast<size_t>(i)]);
            return static_cast<const float*>(p.out);
          },
          std::string(pd.impl_info_str()) + ", weights " + layout(pd.weights_desc(), b_plain, "plain")};
}

// The operands' types of a convolution peer.
enum class ConvTypes { f32, u8s8, bf16 };

// The seed convolution; nhwc = false lets oneDNN pick the activation layouts. u8s8: u8 source,
// s8 weights, s32 bias and destination (the benchmark's floats hold integers in those ranges:
// reordered once, outside the timing; the s32 output converted to floats for the check). bf16:
// bf16 source and weights (values bf16 represents exactly, reordered once), f32 bias and
// destination.
// pad 1: "same" padding, the source H x W (the padded seed convolution).
Prepared conv(const Problem& p, bool nhwc, ConvTypes types = ConvTypes::f32, int64_t pad = 0) {
  using C = SeedConv;
  const bool int8 = types == ConvTypes::u8s8, bf16 = types == ConvTypes::bf16;
  // Logical dims are always (N, C, H, W) and (OC, IC, KH, KW); the tags give
  // the physical order. The benchmark's filter[ci][kh][kw][co] is ihwo.
  const dt src_t = int8 ? dt::u8 : bf16 ? dt::bf16 : dt::f32, w_t = int8 ? dt::s8 : bf16 ? dt::bf16 : dt::f32,
           out_t = int8 ? dt::s32 : dt::f32;
  const memory::desc user_src({C::N, C::CI, C::H + 2 - 2 * pad, C::W + 2 - 2 * pad}, dt::f32, tag::nhwc),
      user_w({C::CO, C::CI, 3, 3}, dt::f32, tag::ihwo), user_bias({C::CO}, dt::f32, tag::a),
      bias_md({C::CO}, out_t, tag::a), user_dst({C::N, C::CO, C::H, C::W}, out_t, tag::nhwc);
  const memory::desc src_md(user_src.dims(), src_t, nhwc ? tag::nhwc : tag::any), w_md(user_w.dims(), w_t, tag::any),
      dst_md = nhwc ? user_dst : memory::desc(user_dst.dims(), out_t, tag::any);
  dnnl::post_ops ops;
  ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_relu, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(ops);
  const dnnl::convolution_forward::primitive_desc pd(
      dnnl::convolution_forward::desc(dnnl::prop_kind::forward_inference,
                                      dnnl::algorithm::convolution_direct, src_md, w_md, bias_md,
                                      dst_md, {1, 1}, {pad, pad}, {pad, pad}),
      attr, cpu());

  auto s = std::make_shared<dnnl::stream>(cpu());
  const memory src = reordered(wrap(user_src, p.a), pd.src_desc(), *s);
  const memory w = reordered(wrap(user_w, p.b), pd.weights_desc(), *s);
  const memory bias = reordered(wrap(user_bias, p.bias), bias_md, *s);
  // int8: the s32 output in its own buffer, converted to p.out's floats for the check.
  auto out32 = std::make_shared<std::vector<int32_t>>(int8 ? static_cast<size_t>(C::kOutput) : 0);
  const memory user_out = int8 ? memory(user_dst, cpu(), out32->data()) : wrap(user_dst, p.out);
  const memory dst = pd.dst_desc() == user_dst ? user_out : memory(pd.dst_desc(), cpu());
  auto prim = std::make_shared<dnnl::convolution_forward>(pd);
  auto args = std::make_shared<std::unordered_map<int, memory>>(std::unordered_map<int, memory>{
      {DNNL_ARG_SRC, src},
      {DNNL_ARG_WEIGHTS, w},
      {DNNL_ARG_BIAS, bias},
      {DNNL_ARG_DST, dst}});
  return {[=] {
            prim->execute(*s, *args);
            s->wait();
          },
          [=] {
            if (dst.get_desc() != user_dst) {  // blocked: back to NHWC, for the check only
              memory from = dst, to = user_out;
              dnnl::reorder(from, to).execute(*s, from, to);
              s->wait();
            }
            for (size_t i = 0; i < out32->size(); ++i) p.out[i] = static_cast<float>((*out32)[i]);
            return static_cast<const float*>(p.out);
          },
          std::string(pd.impl_info_str()) + ", src " + layout(pd.src_desc(), user_src, "nhwc") +
              ", weights " + layout(pd.weights_desc(), user_w, "ihwo") + ", dst " +
              layout(pd.dst_desc(), user_dst, "nhwc")};
}

}  // namespace

// oneDNN's CPU engine runs on OpenMP here (libdnnl2 links libgomp): one thread
// through omp_set_num_threads, looked up at run time since the benchmark is not
// built with -fopenmp (which would also parallelise Eigen). The run script sets
// OMP_NUM_THREADS=1 as well.
std::string onednn_single_thread() {
  using SetThreads = void (*)(int);
  using GetThreads = int (*)();
  auto set = reinterpret_cast<SetThreads>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
  auto get = reinterpret_cast<GetThreads>(dlsym(RTLD_DEFAULT, "omp_get_max_threads"));
  if (set) set(1);
  const dnnl::version_t* v = dnnl::version();
  return "oneDNN " + std::to_string(v->major) + "." + std::to_string(v->minor) + "." +
         std::to_string(v->patch) + ", " +
         (get ? std::to_string(get()) : std::string("?")) + " OpenMP thread(s)";
}

std::vector<Peer> onednn_matmul_peers() { return {{"onednn", matmul}}; }

std::vector<Peer> onednn_bf16_matmul_peers() {
  return {{"onednn", [](const Problem& p) { return matmul_bf16(p, false); }},
          {"onednn.packed", [](const Problem& p) { return matmul_bf16(p, true); }}};
}

std::vector<Peer> onednn_u8i8_matmul_peers() {
  return {{"onednn", [](const Problem& p) { return matmul_int8(p, false, dt::u8); }},
          {"onednn.packed", [](const Problem& p) { return matmul_int8(p, true, dt::u8); }}};
}

std::vector<Peer> onednn_i8i8_matmul_peers() {
  return {{"onednn", [](const Problem& p) { return matmul_int8(p, false, dt::s8); }},
          {"onednn.packed", [](const Problem& p) { return matmul_int8(p, true, dt::s8); }}};
}

// "onednn" (its preferred layouts) and "onednn.nhwc" for operands of `types`.
std::vector<Peer> conv_peers(ConvTypes types) {
  return {{"onednn", [types](const Problem& p) { return conv(p, false, types); }},
          {"onednn.nhwc", [types](const Problem& p) { return conv(p, true, types); }}};
}

std::vector<Peer> onednn_conv_peers() { return conv_peers(ConvTypes::f32); }
std::vector<Peer> onednn_conv_same_peers() {
  return {{"onednn", [](const Problem& p) { return conv(p, false, ConvTypes::f32, 1); }},
          {"onednn.nhwc", [](const Problem& p) { return conv(p, true, ConvTypes::f32, 1); }}};
}
std::vector<Peer> onednn_conv_u8i8_peers() { return conv_peers(ConvTypes::u8s8); }
std::vector<Peer> onednn_conv_bf16_peers() { return conv_peers(ConvTypes::bf16); }

}  // namespace simdgen_bench
