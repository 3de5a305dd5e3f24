// SPDX-License-Identifier: Apache-2.0
// The row-kernel benchmark (simdgen_bench_rows): every peer of peers_rows.h over the same arrays.
// Names: "rows/<case>/<impl>/<shape>", shape "n" for vectors and "<rows>x<cols>" otherwise.
//
// Shapes (issue 68): vectors n = 128, 768, 1536 (embedding sizes: L1) and 1,000,000 (8 MB: L3);
// binary codes of 1024, 8192, 65536 bits (16, 128, 1024 words: L1) and 2^26 bits (16 MB: L3);
// the query 10,000 rows x 1536 (61 MB: memory); rows 1 x 4096 (L1), 64 x 4096 (2 MB with the
// output: L2 and L3) and 512 x 4096 (16 MB: L3).
//
// Inputs (fixed seeds, 64-byte aligned, shared by every peer of a case and shape): a uniform in
// [-1, 1], b = a/2 + uniform [-1/2, 1/2] (correlated, so that the cosine is far from 0 and a peer
// that returns 0 fails the check); i8 uniform in [-128, 127]; binary codes random 64-bit words;
// softmax logits uniform in [-10, 10]; normalisation inputs uniform in [-1, 3], g in [0.5, 1.5],
// b in [-0.5, 0.5], eps = 1e-5; quantization inputs uniform in [-4, 4].
//
// Each peer is run once per shape before it is timed and compared with a double-precision
// reference: a result off by more than a wiring limit (vectors: 1e-3 of the sum of |terms|; rows:
// 1e-4 of the largest |value|; i8 and Hamming exactly; quantized values by more than 1) marks the
// case as an error (SkipWithError) rather than timing a peer that computes something else. The
// error found is the counter rel_err (quantization: the count of values off by one, q_off).
//
// Counters: elements_per_ns (vector elements, 64-bit words of a code, or matrix elements per ns),
// bytes_per_ns (the least traffic the case needs: every input read once, every output written
// once, over the time), and working_set_bytes (those bytes, for telling which cases stay in L1).
// Per-cycle figures divide by the clock row's GHz (make_rows_table.py).
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "peers_rows.h"

namespace simdgen_bench_rows {

namespace {

constexpr float kEps = 1e-5f;

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};

template <class T>
std::shared_ptr<T[]> alloc(int64_t n) {
  const size_t bytes = (static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(T) + 63) / 64 * 64;
  return std::shared_ptr<T[]>(static_cast<T*>(std::aligned_alloc(64, bytes)), FreeDeleter());
}

template <class T, class Draw>
std::shared_ptr<T[]> filled(int64_t n, uint64_t seed, Draw draw) {
  auto p = alloc<T>(n);
  std::mt19937_64 rng(seed);
  for (int64_t i = 0; i < n; ++i) p[i] = draw(rng);
  return p;
}

std::uniform_real_distribution<float> uniform(float lo, float hi) { return std::uniform_real_distribution<float>(lo, hi); }

struct Shape {
  int64_t rows, cols;  // vectors: rows = 1, cols = n
  bool vector;
  std::string label() const { return vector ? std::to_string(cols) : std::to_string(rows) + "x" + std::to_string(cols); }
  int64_t elements() const { return rows * cols; }
};

// The arrays of one case and shape, and the reference results.
struct Data {
  std::shared_ptr<float[]> a, b, x, g, bias, y, out, amax;
  std::shared_ptr<int8_t[]> a8, b8, q;
  std::shared_ptr<uint64_t[]> a64, b64;
  std::vector<double> ref;      // reference values (vector: 1; query: rows; rows: rows * cols)
  std::vector<double> ref_abs;  // vector and query: the sum of |terms| per value
  std::vector<float> ref_amax;  // quantization: the row maxima
  int64_t bytes = 0;            // the least traffic: inputs read once, outputs written once
};

uint64_t seed_of(const std::string& kase, const Shape& s) {
  return std::hash<std::string>{}(kase + "/" + s.label()) | 1;
}

// Vector f32 inputs: a uniform in [-1, 1], b = a/2 + uniform [-1/2, 1/2].
void vector_inputs(Data& d, int64_t n, uint64_t seed) {
  d.a = filled<float>(n, seed, [u = uniform(-1, 1)](auto& r) mutable { return u(r); });
  d.b = alloc<float>(n);
  std::mt19937_64 rng(seed + 1);
  auto u = uniform(-0.5f, 0.5f);
  for (int64_t i = 0; i < n; ++i) d.b[i] = 0.5f * d.a[i] + u(rng);
}

Data make_data(const std::string& kase, const Shape& s) {
  Data d;
  const uint64_t seed = seed_of(kase, s);
  const int64_t n = s.elements(), rows = s.rows, cols = s.cols;
  if (kase == "dot_f32" || kase == "l2sq_f32" || kase == "cos_f32") {
    vector_inputs(d, n, seed);
    double v = 0, abs = 0, na = 0, nb = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double a = d.a[i], b = d.b[i];
      const double t = kase == "dot_f32" ? a * b : kase == "l2sq_f32" ? (a - b) * (a - b) : a * b;
      v += t;
      abs += std::fabs(t);
      na += a * a;
      nb += b * b;
    }
    if (kase == "cos_f32") v /= std::sqrt(na * nb), abs = 1;  // the similarity: an absolute error
    d.ref = {v};
    d.ref_abs = {abs};
    d.bytes = 8 * n;
  } else if (kase == "dot_i8") {
    auto draw = [u = std::uniform_int_distribution<int>(-128, 127)](auto& r) mutable { return static_cast<int8_t>(u(r)); };
    d.a8 = filled<int8_t>(n, seed, draw);
    d.b8 = filled<int8_t>(n, seed + 1, draw);
    int64_t v = 0;
    for (int64_t i = 0; i < n; ++i) v += int64_t(d.a8[i]) * d.b8[i];
    if (v != int32_t(v)) std::fprintf(stderr, "simdgen_bench_rows: dot_i8 reference %lld overflows i32\n", (long long)v), std::abort();
    d.ref = {double(v)};
    d.ref_abs = {0};
    d.bytes = 2 * n;
  } else if (kase == "hamming_u64") {
    auto draw = [](auto& r) { return uint64_t(r()); };
    d.a64 = filled<uint64_t>(n, seed, draw);
    d.b64 = filled<uint64_t>(n, seed + 1, draw);
    uint64_t v = 0;
    for (int64_t i = 0; i < n; ++i) v += uint64_t(__builtin_popcountll(d.a64[i] ^ d.b64[i]));
    d.ref = {double(v)};  // at most 2^26: exact in a double
    d.ref_abs = {0};
    d.bytes = 16 * n;
  } else if (kase == "query_dot_f32" || kase == "query_l2sq_f32") {
    d.x = filled<float>(n, seed, [u = uniform(-1, 1)](auto& r) mutable { return u(r); });
    d.a = filled<float>(cols, seed + 1, [u = uniform(-1, 1)](auto& r) mutable { return u(r); });  // q
    d.out = alloc<float>(rows);
    d.ref.resize(rows);
    d.ref_abs.resize(rows);
    for (int64_t r = 0; r < rows; ++r) {
      double v = 0, abs = 0;
      for (int64_t c = 0; c < cols; ++c) {
        const double xv = d.x[r * cols + c], q = d.a[c];
        const double t = kase == "query_dot_f32" ? xv * q : (xv - q) * (xv - q);
        v += t;
        abs += std::fabs(t);
      }
      d.ref[r] = v;
      d.ref_abs[r] = abs;
    }
    d.bytes = 4 * (n + cols + rows);
  } else {
    const bool quant = kase == "quantize_i8";
    const float lo = kase == "softmax_f32" ? -10 : quant ? -4 : -1, hi = kase == "softmax_f32" ? 10 : quant ? 4 : 3;
    d.x = filled<float>(n, seed, [u = uniform(lo, hi)](auto& r) mutable { return u(r); });
    d.g = filled<float>(cols, seed + 1, [u = uniform(0.5f, 1.5f)](auto& r) mutable { return u(r); });
    d.bias = filled<float>(cols, seed + 2, [u = uniform(-0.5f, 0.5f)](auto& r) mutable { return u(r); });
    d.ref.resize(n);
    for (int64_t r = 0; r < rows; ++r) {
      const float* x = d.x.get() + r * cols;
      double* ref = d.ref.data() + r * cols;
      if (kase == "softmax_f32") {
        double m = x[0], sum = 0;
        for (int64_t c = 0; c < cols; ++c) m = std::max(m, double(x[c]));
        for (int64_t c = 0; c < cols; ++c) sum += ref[c] = std::exp(double(x[c]) - m);
        for (int64_t c = 0; c < cols; ++c) ref[c] /= sum;
      } else if (kase == "rmsnorm_f32") {
        double ss = 0;
        for (int64_t c = 0; c < cols; ++c) ss += double(x[c]) * x[c];
        const double scale = 1 / std::sqrt(ss / cols + kEps);
        for (int64_t c = 0; c < cols; ++c) ref[c] = x[c] * scale * d.g[c];
      } else if (kase == "layernorm_f32") {
        double mean = 0, var = 0;
        for (int64_t c = 0; c < cols; ++c) mean += x[c];
        mean /= cols;
        for (int64_t c = 0; c < cols; ++c) var += (x[c] - mean) * (x[c] - mean);
        var /= cols;
        const double rstd = 1 / std::sqrt(var + kEps);
        for (int64_t c = 0; c < cols; ++c) ref[c] = (x[c] - mean) * rstd * d.g[c] + d.bias[c];
      } else {  // quantize_i8: the spec's float steps (127 / amax in f32, the product in f32)
        float m = 0;
        for (int64_t c = 0; c < cols; ++c) m = std::max(m, std::fabs(x[c]));
        d.ref_amax.push_back(m);
        const float scale = 127.0f / m;
        for (int64_t c = 0; c < cols; ++c) ref[c] = std::nearbyint(x[c] * scale);
      }
    }
    if (quant) {
      d.q = alloc<int8_t>(n);
      d.amax = alloc<float>(rows);
      d.bytes = 5 * n + 4 * rows;
    } else {
      d.y = alloc<float>(n);
      std::fill_n(d.y.get(), n, 0.0f);
      d.bytes = 8 * n + (kase == "rmsnorm_f32" ? 4 : kase == "layernorm_f32" ? 8 : 0) * cols;
    }
  }
  return d;
}

// Made at the first use and kept: every peer of a case and shape reads the same arrays.
Data& data(const std::string& kase, const Shape& s) {
  static std::map<std::string, std::unique_ptr<Data>> cache;
  auto& slot = cache[kase + "/" + s.label()];
  if (!slot) slot = std::make_unique<Data>(make_data(kase, s));
  return *slot;
}

// One call of the peer on the case's arrays; the value it returns (vector cases) goes to `result`.
void call(const Peer& p, Data& d, const Shape& s, double* result) {
  const std::string& k = p.kase;
  const int64_t rows = s.rows, cols = s.cols;
  if (k == "dot_f32" || k == "l2sq_f32" || k == "cos_f32") {
    *result = reinterpret_cast<VecF32Fn>(p.call)(d.a.get(), d.b.get(), cols);
  } else if (k == "dot_i8") {
    *result = reinterpret_cast<VecI8Fn>(p.call)(d.a8.get(), d.b8.get(), cols);
  } else if (k == "hamming_u64") {
    *result = static_cast<double>(reinterpret_cast<VecU64Fn>(p.call)(d.a64.get(), d.b64.get(), cols));
  } else if (k == "query_dot_f32" || k == "query_l2sq_f32") {
    reinterpret_cast<QueryFn>(p.call)(d.x.get(), d.a.get(), rows, cols, d.out.get());
  } else if (k == "softmax_f32") {
    reinterpret_cast<SoftmaxFn>(p.call)(d.x.get(), rows, cols, d.y.get());
  } else if (k == "rmsnorm_f32") {
    reinterpret_cast<RmsNormFn>(p.call)(d.x.get(), d.g.get(), rows, cols, kEps, d.y.get());
  } else if (k == "layernorm_f32") {
    reinterpret_cast<LayerNormFn>(p.call)(d.x.get(), d.g.get(), d.bias.get(), rows, cols, kEps, d.y.get());
  } else {
    reinterpret_cast<QuantizeFn>(p.call)(d.x.get(), rows, cols, d.q.get(), d.amax.get());
  }
}

// Runs the peer once on poisoned outputs and compares with the reference. Returns "" when the result
// is within the wiring limit; sets `err` to the error found.
std::string check(const Peer& p, Data& d, const Shape& s, double* err) {
  const std::string& k = p.kase;
  const int64_t n = s.elements(), rows = s.rows;
  if (d.y) std::fill_n(d.y.get(), n, std::nanf(""));
  if (d.out) std::fill_n(d.out.get(), rows, std::nanf(""));
  if (d.q) std::fill_n(d.q.get(), n, int8_t(-99)), std::fill_n(d.amax.get(), rows, std::nanf(""));
  double result = 0;
  call(p, d, s, &result);
  char msg[256] = "";
  *err = 0;
  if (k == "dot_i8" || k == "hamming_u64") {
    if (result != d.ref[0]) std::snprintf(msg, sizeof msg, "%.0f instead of %.0f", result, d.ref[0]);
  } else if (d.ref_abs.size() == 1) {
    *err = std::fabs(result - d.ref[0]) / std::max(std::fabs(d.ref[0]), 1e-30);
    if (!(std::fabs(result - d.ref[0]) <= 1e-3 * d.ref_abs[0]))
      std::snprintf(msg, sizeof msg, "%.9g instead of %.9g", result, d.ref[0]);
  } else if (d.out) {
    double worst = 0, largest = 0;
    for (int64_t r = 0; r < rows; ++r) {
      const double e = std::fabs(d.out[r] - d.ref[r]);
      if (!(e <= 1e-3 * d.ref_abs[r]))
        return std::snprintf(msg, sizeof msg, "row %lld: %.9g instead of %.9g", (long long)r, d.out[r], d.ref[r]), msg;
      worst = std::max(worst, e), largest = std::max(largest, std::fabs(d.ref[r]));
    }
    *err = worst / largest;
  } else if (d.q) {
    int64_t off = 0;
    for (int64_t r = 0; r < rows && !*msg; ++r)
      if (!(d.amax[r] == d.ref_amax[r]))
        std::snprintf(msg, sizeof msg, "amax[%lld] = %.9g instead of %.9g", (long long)r, d.amax[r], d.ref_amax[r]);
    for (int64_t i = 0; i < n && !*msg; ++i) {
      const double e = std::fabs(d.q[i] - d.ref[i]);
      if (e > 1) std::snprintf(msg, sizeof msg, "q[%lld] = %d instead of %.0f", (long long)i, d.q[i], d.ref[i]);
      off += e != 0;
    }
    *err = static_cast<double>(off);
  } else {
    double worst = 0, largest = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double e = std::fabs(d.y[i] - d.ref[i]);
      worst = std::max(worst, std::isnan(e) ? INFINITY : e), largest = std::max(largest, std::fabs(d.ref[i]));
    }
    *err = worst / largest;
    if (!(*err <= 1e-4)) std::snprintf(msg, sizeof msg, "off by %.3g of the largest |value|", *err);
  }
  return msg;
}

void add_case(const Peer& p, const Shape& s) {
  const std::string name = "rows/" + p.kase + "/" + p.impl + "/" + s.label();
  benchmark::RegisterBenchmark(name.c_str(), [p, s, name](benchmark::State& state) {
    Data& d = data(p.kase, s);
    // Checked at the first entry only (Google Benchmark enters once per repetition and per trial
    // iteration count).
    static std::map<std::string, std::pair<std::string, double>> checked;
    if (!checked.count(name)) {
      double e = 0;
      const std::string w = check(p, d, s, &e);
      checked[name] = {w, e};
    }
    const auto& [wrong, err] = checked[name];
    if (!wrong.empty()) {
      std::fprintf(stderr, "simdgen_bench_rows: WRONG RESULT from %s: %s\n", name.c_str(), wrong.c_str());
      state.SkipWithError(("wrong result: " + wrong).c_str());
      return;
    }
    double result = 0;
    for (auto _ : state) {
      call(p, d, s, &result);
      benchmark::DoNotOptimize(result);
      benchmark::ClobberMemory();
    }
    state.counters[p.kase == "quantize_i8" ? "q_off" : "rel_err"] = err;
    state.counters["working_set_bytes"] = static_cast<double>(d.bytes);
    state.counters["elements_per_ns"] =
        benchmark::Counter(static_cast<double>(s.elements()) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
    state.counters["bytes_per_ns"] =
        benchmark::Counter(static_cast<double>(d.bytes) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  });
}

std::vector<Shape> shapes_of(const std::string& kase) {
  if (kase == "dot_f32" || kase == "l2sq_f32" || kase == "cos_f32" || kase == "dot_i8")
    return {{1, 128, true}, {1, 768, true}, {1, 1536, true}, {1, 1000000, true}};
  if (kase == "hamming_u64") return {{1, 16, true}, {1, 128, true}, {1, 1024, true}, {1, 1 << 20, true}};
  if (kase == "query_dot_f32" || kase == "query_l2sq_f32") return {{10000, 1536, false}};
  return {{1, 4096, false}, {64, 4096, false}, {512, 4096, false}};
}

}  // namespace

void register_rows_benchmarks() {
  for (const auto& [key, value] : context()) benchmark::AddCustomContext(key, value);
  for (const Peer& p : all_peers()) {
    if (!p.supported) {
      std::fprintf(stderr, "simdgen_bench_rows: %s (%s) skipped: this CPU lacks its ISA\n", p.impl.c_str(),
                   p.kase.c_str());
      continue;
    }
    for (const Shape& s : shapes_of(p.kase)) add_case(p, s);
  }
}

}  // namespace simdgen_bench_rows
