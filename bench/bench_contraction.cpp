// SPDX-License-Identifier: Apache-2.0
// Contraction benchmarks (issue 10), single thread, in one run:
//   - the seed convolution (peers_contraction.h, SeedConv): the generated
//     kernel, Halide 14 JIT (the seed's schedule minus parallel), oneDNN (its
//     preferred layouts, and NHWC activations), the clang-19 loop nest;
//   - f32 matmuls c[m][n] = a[m][k] * b[k][n], row-major and contiguous, at
//     512x512x512, 509x517x511 and 1024x1024x1024 (MxNxK): the generated
//     kernel, OpenBLAS and BLIS (serial builds), oneDNN's matmul primitive,
//     Eigen 3.4 and the clang-19 i-k-j loop;
//   - the seed convolution quantized (u8 input, i8 filter, i32 bias and output)
//     and on bf16 operands: the generated kernels and oneDNN's int8 and bf16
//     convolutions;
//   - the FMA peak of this core: independent FMA chains on zmm and ymm
//     registers (peers_contraction_peak.h), so that every table can give a
//     fraction of a peak measured in the same run.
//
//   - the seed convolution with "same" padding (an 80 x 100 input read as it is): the generated
//     padded kernel, the seed kernel over a padded copy made per call, oneDNN's padded
//     convolution and the clang-19 loop that skips the window's reads outside;
// Names: "matmul/<M>x<N>x<K>/<impl>", "conv/seed/<impl>", "conv_same/seed/<impl>", "conv_u8i8/seed/<impl>",
// "conv_bf16/seed/<impl>", "peak/<impl>".
// Every row has the counter GFLOP, a rate: GFLOP/s of CPU time (an FMA is 2 flops).
// Inputs are uniform in [-1, 1) from a fixed seed, shared by every
// implementation of a problem; each implementation writes its own output.
// Before it is first timed, each implementation is prepared (outside the
// timing: reorders, JIT compilation, primitive creation), run once on a NaN-
// poisoned output and compared with the clang-19 loop's output (itself
// spot-checked in double precision); a mismatch skips that row with an error.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "peers_contraction.h"
#include "peers_contraction_eigen.h"
#include "peers_contraction_peak.h"
#include "peers_contraction_plain.h"

namespace simdgen_bench {
namespace {

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Floats = std::unique_ptr<float[], FreeDeleter>;

Floats alloc(int64_t n) {  // 64-byte aligned, rounded up to whole lines
  const size_t bytes = (static_cast<size_t>(n) * sizeof(float) + 63) / 64 * 64;
  return Floats(static_cast<float*>(std::aligned_alloc(64, bytes)));
}

// One random array per (name, length), shared by every implementation.
const float* random_input(const std::string& name, int64_t n) {
  static std::map<std::string, Floats> cache;
  Floats& a = cache[name + "/" + std::to_string(n)];
  if (!a) {
    a = alloc(n);
    std::mt19937_64 rng(0xc0de0000u + std::hash<std::string>{}(name) + static_cast<uint64_t>(n));
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    for (int64_t i = 0; i < n; ++i) a[i] = dist(rng);
  }
  return a.get();
}

// --- Problems -----------------------------------------------------------------

struct MatmulSize {
  int64_t m, n, k;
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  }
};
constexpr MatmulSize kMatmulSizes[] = {{512, 512, 512}, {509, 517, 511}, {1024, 1024, 1024}};

// What bench cases need of a problem: its inputs (out left null), its output
// length, its flop count, one output element in double precision (for the
// reference's spot check) and the reference output itself.
struct ProblemKind {
  std::string label;  // "matmul/512x512x512", "conv/seed"
  Problem inputs;
  int64_t out_count;
  double flops;
  double (*exact)(const Problem&, int64_t index);
  void (*reference)(const Problem&);  // the clang-19 loop, writing p.out
};

double matmul_exact(const Problem& p, int64_t at) {
  const int64_t i = at / p.n, j = at % p.n;
  double s = 0;
  for (int64_t q = 0; q < p.k; ++q) s += double(p.a[i * p.k + q]) * double(p.b[q * p.n + j]);
  return s;
}

double conv_exact(const Problem& p, int64_t at) {
  using C = SeedConv;
  const int64_t co = at % C::CO, x = at / C::CO % C::W, y = at / (C::CO * C::W) % C::H,
                n = at / (C::CO * C::W * C::H);
  double s = p.bias[co];
  for (int64_t rz = 0; rz < 3; ++rz)
    for (int64_t ry = 0; ry < 3; ++ry)
      for (int64_t rx = 0; rx < C::CI; ++rx)
        s += double(p.b[((rx * 3 + rz) * 3 + ry) * C::CO + co]) *
             double(p.a[((n * (C::H + 2) + y + rz) * (C::W + 2) + x + ry) * C::CI + rx]);
  return s > 0 ? s : 0;
}

// "Same" padding: the input is H x W, the window's reads outside it are zeros.
double conv_same_exact(const Problem& p, int64_t at) {
  using C = SeedConv;
  const int64_t co = at % C::CO, x = at / C::CO % C::W, y = at / (C::CO * C::W) % C::H,
                n = at / (C::CO * C::W * C::H);
  double s = p.bias[co];
  for (int64_t rz = 0; rz < 3; ++rz)
    for (int64_t ry = 0; ry < 3; ++ry) {
      const int64_t iy = y + rz - 1, ix = x + ry - 1;
      if (iy < 0 || iy >= C::H || ix < 0 || ix >= C::W) continue;
      for (int64_t rx = 0; rx < C::CI; ++rx)
        s += double(p.b[((rx * 3 + rz) * 3 + ry) * C::CO + co]) * double(p.a[((n * C::H + iy) * C::W + ix) * C::CI + rx]);
    }
  return s > 0 ? s : 0;
}

ProblemKind matmul_problem(const MatmulSize& s) {
  Problem p{};
  p.a = random_input("a", s.m * s.k);
  p.b = random_input("b", s.k * s.n);
  p.m = s.m, p.n = s.n, p.k = s.k;
  return {"matmul/" + s.name(), p, s.m * s.n, 2.0 * s.m * s.n * s.k, matmul_exact,
          [](const Problem& q) {
            plain_matmul_f32_clang19(q.a, q.b, q.m, q.n, q.k, q.k, q.n, q.n, q.out);
          }};
}

// The same product on values a bfloat16 represents exactly (the f32 inputs rounded to 8
// significant bits), so that bf16 kernels and the f32 reference see the same numbers.
const float* bf16_input(const std::string& name, int64_t n) {
  static std::map<std::string, Floats> cache;
  Floats& a = cache[name + "/" + std::to_string(n)];
  if (!a) {
    a = alloc(n);
    const float* x = random_input(name, n);
    for (int64_t i = 0; i < n; ++i) {
      uint32_t u;
      std::memcpy(&u, &x[i], 4);
      u = (u + 0x7fffu + ((u >> 16) & 1u)) & 0xffff0000u;  // to nearest, ties to even
      std::memcpy(&a[i], &u, 4);
    }
  }
  return a.get();
}

ProblemKind matmul_bf16_problem(const MatmulSize& s) {
  ProblemKind kind = matmul_problem(s);
  kind.label = "matmul_bf16/" + s.name();
  kind.inputs.a = bf16_input("a", s.m * s.k);
  kind.inputs.b = bf16_input("b", s.k * s.n);
  return kind;
}

// The same product on integers: a in 0..255 (u8), b in -128..127 (i8), so int8 kernels and the
// f32 reference see the same numbers (f32 sums of these are exact up to 2^24; the check's
// tolerance covers the rest).
const float* int8_input(const std::string& name, int64_t n, bool is_unsigned) {
  static std::map<std::string, Floats> cache;
  Floats& a = cache[name + "/" + std::to_string(n)];
  if (!a) {
    a = alloc(n);
    std::mt19937_64 rng(std::hash<std::string>{}(name) + uint64_t(n));
    for (int64_t i = 0; i < n; ++i) a[i] = static_cast<float>(static_cast<int>(rng() % 256) - (is_unsigned ? 0 : 128));
  }
  return a.get();
}

// pair: "u8i8", "i8i8", "u8u8" or "i16i16" (a's type, then b's; i16 operands hold int8 values,
// so that the f32 reference stays exact).
ProblemKind matmul_int8_problem(const MatmulSize& s, const std::string& pair) {
  ProblemKind kind = matmul_problem(s);
  kind.label = "matmul_" + pair + "/" + s.name();
  const size_t half = pair.size() / 2;
  const std::string a = pair.substr(0, half), b = pair.substr(half);
  kind.inputs.a = int8_input("a." + a, s.m * s.k, a == "u8");
  kind.inputs.b = int8_input("b." + b, s.k * s.n, b == "u8");
  return kind;
}

ProblemKind conv_problem() {
  Problem p{};
  p.a = random_input("conv.input", SeedConv::kInput);
  p.b = random_input("conv.filter", SeedConv::kFilter);
  p.bias = random_input("conv.bias", SeedConv::CO);
  return {"conv/seed", p, SeedConv::kOutput, SeedConv::kFlops, conv_exact,
          [](const Problem& q) { plain_seed_conv_clang19(q.b, q.a, q.bias, q.out); }};
}

// The seed convolution with "same" padding: the same filter and bias, an unpadded H x W input.
ProblemKind conv_same_problem() {
  Problem p{};
  p.a = random_input("conv.input.same", SeedConv::kInputSame);
  p.b = random_input("conv.filter", SeedConv::kFilter);
  p.bias = random_input("conv.bias", SeedConv::CO);
  return {"conv_same/seed", p, SeedConv::kOutput, SeedConv::kFlops, conv_same_exact,
          [](const Problem& q) { plain_seed_conv_same_clang19(q.b, q.a, q.bias, q.out); }};
}

// The seed convolution on integers (u8 input, i8 filter, bias -128..127), for the int8 kernels:
// the f32 reference sums them with rounding far inside the check's tolerance.
ProblemKind conv_u8i8_problem() {
  ProblemKind kind = conv_problem();
  kind.label = "conv_u8i8/seed";
  kind.inputs.a = int8_input("conv.input.u8", SeedConv::kInput, true);
  kind.inputs.b = int8_input("conv.filter.i8", SeedConv::kFilter, false);
  kind.inputs.bias = int8_input("conv.bias.i8", SeedConv::CO, false);
  return kind;
}

// The seed convolution on values bfloat16 represents exactly, for the bf16 kernels.
ProblemKind conv_bf16_problem() {
  ProblemKind kind = conv_problem();
  kind.label = "conv_bf16/seed";
  kind.inputs.a = bf16_input("conv.input", SeedConv::kInput);
  kind.inputs.b = bf16_input("conv.filter", SeedConv::kFilter);
  return kind;
}

// --- Checking -------------------------------------------------------------------

// Sums of ~1000 products in f32 differ from one order of summation to another by
// far less than this fraction of the largest output; a dropped, doubled or
// misplaced term shows up far above it.
constexpr double kTolerance = 1e-4;

double max_abs(const float* x, int64_t n) {
  double m = 0;
  for (int64_t i = 0; i < n; ++i) m = std::max(m, double(std::fabs(x[i])));
  return m;
}

// An empty string if got matches ref element by element within kTolerance x
// max |ref| (NaN never matches), else what differs.
std::string compare(const float* got, const float* ref, int64_t n) {
  const double tol = kTolerance * std::max(1.0, max_abs(ref, n));
  for (int64_t i = 0; i < n; ++i) {
    const double d = std::fabs(double(got[i]) - double(ref[i]));
    if (!(d <= tol)) {
      char msg[200];
      std::snprintf(msg, sizeof msg, "output element %lld is %.9g, the reference %.9g (tolerance %.3g)",
                    static_cast<long long>(i), double(got[i]), double(ref[i]), tol);
      return msg;
    }
  }
  return "";
}

// The reference output of a problem (the clang-19 loop's), computed once; 256
// of its elements, picked at random, must match a double-precision sum, or the
// run stops: every other check relies on it.
const float* reference(const ProblemKind& kind) {
  static std::map<std::string, Floats> cache;
  Floats& out = cache[kind.label];
  if (!out) {
    out = alloc(kind.out_count);
    Problem p = kind.inputs;
    p.out = out.get();
    kind.reference(p);
    const double tol = kTolerance * std::max(1.0, max_abs(p.out, kind.out_count));
    std::mt19937_64 rng(42);
    for (int s = 0; s < 256; ++s) {
      const int64_t at = static_cast<int64_t>(rng() % static_cast<uint64_t>(kind.out_count));
      const double exact = kind.exact(p, at);
      if (!(std::fabs(exact - p.out[at]) <= tol)) {
        std::fprintf(stderr,
                     "simdgen_bench_contraction: the reference (plain.clang19) is wrong for %s: "
                     "element %lld is %.9g, exactly %.9g\n",
                     kind.label.c_str(), static_cast<long long>(at), double(p.out[at]), exact);
        std::abort();
      }
    }
  }
  return out.get();
}

// --- Registration -----------------------------------------------------------------

void set_gflops(benchmark::State& state, double flops_per_call) {
  state.counters["GFLOP"] =
      benchmark::Counter(flops_per_call * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
}

// One implementation of one problem: prepared and checked on its first run
// (Google Benchmark calls a benchmark function several times), then timed.
struct Case {
  bool tried = false;
  std::string error;
  Floats out;
  std::optional<Prepared> prepared;
};

void add(const ProblemKind& kind, const Peer& peer) {
  const std::string name = kind.label + "/" + peer.name;
  auto c = std::make_shared<Case>();
  benchmark::RegisterBenchmark(name.c_str(), [kind, peer, name, c](benchmark::State& state) {
    if (!c->tried) {
      c->tried = true;
      try {
        const float* ref = reference(kind);
        c->out = alloc(kind.out_count);
        std::fill_n(c->out.get(), kind.out_count, std::numeric_limits<float>::quiet_NaN());
        Problem p = kind.inputs;
        p.out = c->out.get();
        c->prepared = peer.prepare(p);
        c->prepared->run();
        const std::string diff = compare(c->prepared->result(), ref, kind.out_count);
        if (!diff.empty()) c->error = "WRONG RESULT: " + diff;
      } catch (const std::exception& e) {
        c->error = std::string("setup failed: ") + e.what();
      }
      if (!c->error.empty())
        std::fprintf(stderr, "simdgen_bench_contraction: %s: %s; not timed\n", name.c_str(),
                     c->error.c_str());
    }
    if (!c->error.empty()) {
      state.SkipWithError(c->error.c_str());
      return;
    }
    if (!c->prepared->label.empty()) state.SetLabel(c->prepared->label);
    for (auto _ : state) c->prepared->run();
    benchmark::ClobberMemory();
    set_gflops(state, kind.flops);
  });
}

// A peer from a plain function of the matmul signature.
Peer matmul_fn(const std::string& name,
               void (*f)(const float*, const float*, int64_t, int64_t, int64_t, int64_t, int64_t,
                         int64_t, float*)) {
  return {name, [f](const Problem& p) {
            return Prepared{[f, p] { f(p.a, p.b, p.m, p.n, p.k, p.k, p.n, p.n, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

std::vector<Peer> matmul_peers() {
  std::vector<Peer> peers = simdgen_matmul_peers();
#define SIMDGEN_ADD_PLAIN(suffix) peers.push_back(matmul_fn("plain." #suffix, plain_matmul_f32_##suffix));
  SIMDGEN_CONTRACTION_PLAIN_PEER_BUILDS(SIMDGEN_ADD_PLAIN)
#undef SIMDGEN_ADD_PLAIN
  for (auto* family : {openblas_matmul_peers, blis_matmul_peers, onednn_matmul_peers})
    for (Peer& p : family()) peers.push_back(std::move(p));
  peers.push_back(matmul_fn("eigen", eigen_matmul_f32));
  return peers;
}

std::vector<Peer> conv_peers() {
  std::vector<Peer> peers = simdgen_conv_peers();
#define SIMDGEN_ADD_PLAIN(suffix)                                                           \
  peers.push_back({"plain." #suffix, [](const Problem& p) {                                 \
                     return Prepared{                                                       \
                         [p] { plain_seed_conv_##suffix(p.b, p.a, p.bias, p.out); },        \
                         [p] { return static_cast<const float*>(p.out); }};                 \
                   }});
  SIMDGEN_CONTRACTION_PLAIN_PEER_BUILDS(SIMDGEN_ADD_PLAIN)
#undef SIMDGEN_ADD_PLAIN
  for (auto* family : {halide_conv_peers, onednn_conv_peers})
    for (Peer& p : family()) peers.push_back(std::move(p));
  return peers;
}

std::vector<Peer> conv_same_peers() {
  std::vector<Peer> peers = simdgen_conv_same_peers();
#define SIMDGEN_ADD_PLAIN(suffix)                                                           \
  peers.push_back({"plain." #suffix, [](const Problem& p) {                                 \
                     return Prepared{                                                       \
                         [p] { plain_seed_conv_same_##suffix(p.b, p.a, p.bias, p.out); },   \
                         [p] { return static_cast<const float*>(p.out); }};                 \
                   }});
  SIMDGEN_CONTRACTION_PLAIN_PEER_BUILDS(SIMDGEN_ADD_PLAIN)
#undef SIMDGEN_ADD_PLAIN
  for (Peer& p : onednn_conv_same_peers()) peers.push_back(std::move(p));
  return peers;
}

// The FMA peak rows: "peak/fma.zmm16" and "peak/fma.ymm12" (chains in the name).
void add_peak(const std::string& impl, float (*kernel)(float), bool supported, int chains,
              int lanes) {
  const double flops = double(kPeakSteps) * chains * lanes * 2;
  benchmark::RegisterBenchmark(("peak/" + impl).c_str(), [=](benchmark::State& state) {
    if (!supported) {
      state.SkipWithError("this CPU lacks the ISA");
      return;
    }
    float x = 0.5f;
    for (auto _ : state) {
      benchmark::DoNotOptimize(x);
      x = kernel(x) * 1e-30f + 0.5f;  // a dependency between calls, no growth
    }
    benchmark::DoNotOptimize(x);
    set_gflops(state, flops);
  });
}

}  // namespace

void register_contraction_benchmarks() {
  const bool avx512 = __builtin_cpu_supports("avx512f");
  const bool avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  add_peak("fma.zmm" + std::to_string(kZmmChains), fma_peak_zmm, avx512, kZmmChains, 16);
  add_peak("fma.ymm" + std::to_string(kYmmChains), fma_peak_ymm, avx2_fma, kYmmChains, 8);

  const ProblemKind conv = conv_problem();
  for (const Peer& peer : conv_peers()) add(conv, peer);
  const ProblemKind conv_same = conv_same_problem();
  for (const Peer& peer : conv_same_peers()) add(conv_same, peer);
  const ProblemKind conv_u8i8 = conv_u8i8_problem();
  std::vector<Peer> conv_int8 = simdgen_conv_u8i8_peers();
  for (Peer& p : onednn_conv_u8i8_peers()) conv_int8.push_back(std::move(p));
  for (const Peer& peer : conv_int8) add(conv_u8i8, peer);
  const ProblemKind conv_bf16 = conv_bf16_problem();
  std::vector<Peer> conv_b = simdgen_conv_bf16_peers();
  for (Peer& p : onednn_conv_bf16_peers()) conv_b.push_back(std::move(p));
  for (const Peer& peer : conv_b) add(conv_bf16, peer);
  const std::vector<Peer> matmuls = matmul_peers();
  for (const MatmulSize& size : kMatmulSizes) {
    const ProblemKind kind = matmul_problem(size);
    for (const Peer& peer : matmuls) add(kind, peer);
  }
  std::vector<Peer> bf16 = simdgen_bf16_matmul_peers();
  for (Peer& p : onednn_bf16_matmul_peers()) bf16.push_back(std::move(p));
  for (const MatmulSize& size : kMatmulSizes) {
    if (size.m != size.n) continue;  // 512^3 and 1024^3
    const ProblemKind kind = matmul_bf16_problem(size);
    for (const Peer& peer : bf16) add(kind, peer);
  }
  for (const std::string pair : {"u8i8", "i8i8", "u8u8", "i16i16"}) {
    // oneDNN's int8 matmul takes s8 weights only: u8 x u8 has no oneDNN row (nor has i16 x i16).
    std::vector<Peer> int8 = pair == "u8i8"   ? simdgen_u8i8_matmul_peers()
                             : pair == "i8i8" ? simdgen_i8i8_matmul_peers()
                             : pair == "u8u8" ? simdgen_u8u8_matmul_peers()
                                              : simdgen_i16i16_matmul_peers();
    if (pair == "u8i8" || pair == "i8i8")
      for (Peer& p : pair == "u8i8" ? onednn_u8i8_matmul_peers() : onednn_i8i8_matmul_peers()) int8.push_back(std::move(p));
    for (const MatmulSize& size : kMatmulSizes) {
      if (size.m != size.n) continue;  // 512^3 and 1024^3
      const ProblemKind kind = matmul_int8_problem(size, pair);
      for (const Peer& peer : int8) add(kind, peer);
    }
  }
}

}  // namespace simdgen_bench
