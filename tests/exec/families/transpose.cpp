// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `transpose` family (declared in transpose.h). The reference is
// the definition: output element [c, r] must hold exactly the bytes of input element [r, c] (a
// transpose moves bits: NaN payloads, -0.0 and every integer pattern must survive), and every
// other byte of the output's memory (its row padding, before and after it) keeps its sentinel.
// Inputs are random bytes (so floats include NaNs with payloads, infinities and -0.0) with poison
// in the row padding; each matrix sits on its own, misaligned heap memory or against PROT_NONE
// pages.
#include "transpose.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include "runner.h"
#include "sweep.h"
#include "test_rng.h"

namespace simdgen_exec::transpose {
namespace {

struct Request {
  int64_t rows, cols, pad_in, pad_out;
  int misalign;
  int64_t batch = 2, pad_batch = 0;  // batched kernels only
};

using Mem = PlacedBytes;  // one matrix's memory

class TransposeRunner {
 public:
  // The tensors: input [batch?, rows, cols] strides [sa?, lda, 1], output [batch?, cols, rows]
  // strides [sb?, ldo, 1], each entry an expression of constants and extent parameters.
  explicit TransposeRunner(const Kernel& k) : k_(k), in_(k.input()), out_(output_of(k)), variants_(runnable_variants(k, rep_)) {
    size_ = int64_t(std::stoi(in_.dtype.substr(1)) / 8);
    batched_ = in_.extents.size() == 3;
    in_place_ = k.semantic("in_place") == "true";
    if (in_.extents.size() < 2 || in_.extents.size() > 3 || out_.extents.size() != in_.extents.size())
      throw std::logic_error("exec driver: transpose " + k.name + " has tensors of rank " + std::to_string(in_.extents.size()) + " and " +
                             std::to_string(out_.extents.size()));
  }
  // Square kernels (rows and columns one extent, as in-place transposes have) run a request as
  // max(rows, cols) squared.
  bool square() const {
    const size_t d = batched_ ? 1 : 0;
    return in_.extents[d] == in_.extents[d + 1];
  }
  ~TransposeRunner() { CHECK_MESSAGE(runs_ > 0, (k_.name + ": no shape of this case fits the kernel")); }

  // guard: 0 heap, 1 each matrix ends at a PROT_NONE page, 2 starts right after one.
  void run(const Request& q, uint64_t seed, int guard) {
    const size_t d = batched_ ? 1 : 0;  // the first matrix dimension
    Env env = k_.constants;
    // Runtime parameters: extents from the request, then each stride as large as every use of it
    // needs (one parameter may serve both matrices) plus the request's padding.
    std::map<std::string, int64_t> want;
    auto need = [&](const std::string& expr, int64_t v) {
      const std::string p = Expr::symbol(expr);
      if (is_param(p) && !env.count(p)) want[p] = std::max(want.count(p) ? want[p] : 0, v);
    };
    auto bind = [&] {
      for (const auto& [p, v] : want) env[p] = v;
      want.clear();
    };
    if (batched_) need(in_.extents[0], q.batch);
    need(in_.extents[d], q.rows), need(in_.extents[d + 1], q.cols);
    bind();
    const int64_t batch = batched_ ? Expr::eval(in_.extents[0], env) : 1;
    const int64_t rows = Expr::eval(in_.extents[d], env), cols = Expr::eval(in_.extents[d + 1], env);
    need(in_.strides[d], cols + q.pad_in), need(out_.strides[d], rows + q.pad_out);
    bind();
    const int64_t lda = Expr::eval(in_.strides[d], env), ldo = Expr::eval(out_.strides[d], env);
    if (batched_) need(in_.strides[0], rows * lda + q.pad_batch), need(out_.strides[0], cols * ldo + q.pad_batch);
    bind();
    const int64_t sa = batched_ ? Expr::eval(in_.strides[0], env) : 0, sb = batched_ ? Expr::eval(out_.strides[0], env) : 0;
    for (const std::string& p : k_.extent_params)
      if (!env.count(p)) throw std::logic_error("exec driver: parameter " + p + " of " + k_.name + " is no extent or stride of its tensors");
    if (lda < cols || ldo < rows || (batch > 1 && (sa < rows * lda || sb < cols * ldo))) return;  // static strides too short for this shape
    const std::string key = std::to_string(batch) + "," + std::to_string(rows) + "," + std::to_string(cols) + "," + std::to_string(lda) +
                            "," + std::to_string(ldo) + "," + std::to_string(sa) + "," + std::to_string(sb) + "," +
                            std::to_string(q.misalign) + "," + std::to_string(guard);
    if (!seen_.insert(key).second) return;
    runs_ += 1;

    Mem in = place(in_.span(env), q.misalign, guard), out = place(out_.span(env), q.misalign, guard);
    std::memset(in.lo, 0xEE, size_t(in.hi - in.lo));  // poison: padding and beyond
    const View view{batch, rows, cols, lda, ldo, sa, sb};
    by_size([&](auto n) { fill<n()>(in.data, view, seed); });
    const std::string head = k_.name + (batched_ ? " batch=" + std::to_string(batch) + " sa=" + std::to_string(sa) + " sb=" + std::to_string(sb) : "") +
                             " rows=" + std::to_string(rows) + " cols=" + std::to_string(cols) + " lda=" + std::to_string(lda) +
                             " ldo=" + std::to_string(ldo) + " misalign=" + std::to_string(q.misalign) + " seed=" + std::to_string(seed) +
                             (guard == 1 ? " (guard pages after the ends)" : guard == 2 ? " (guard pages before the starts)" : "");
    for (const Variant& v : variants_) {
      // In-place kernels are also called into separate memory, except in the thin sweep (emulated
      // CPUs), which keeps the in-place call: the one that can fail where the other does not.
      if (!in_place_ || !thin_sweep()) call(v, env, view, in, out, head);
      if (in_place_) call_in_place(v, env, view, in, head);
    }
  }

 private:
  static constexpr unsigned char kSentinel = 0xA5;
  static constexpr int64_t kSlack = 64;

  struct View {
    int64_t batch, rows, cols, lda, ldo, sa, sb;
  };

  static const Tensor& output_of(const Kernel& k) {
    for (const Tensor& t : k.tensors)
      if (t.output) return t;
    throw std::logic_error("exec driver: kernel " + k.name + " has no output");
  }
  bool is_param(const std::string& p) const {
    return !p.empty() && std::find(k_.extent_params.begin(), k_.extent_params.end(), p) != k_.extent_params.end();
  }

  Mem place(int64_t elements, int misalign, int guard) const { return place_bytes(elements, size_, misalign, guard, kSlack); }

  void call(const Variant& v, const Env& env, const View& s, const Mem& in, const Mem& out, const std::string& shape) {
    const std::string head = "[" + v.suffix + "] " + shape;
    CrashContext::set(head);
    std::fill(out.lo, out.hi, kSentinel);
    const std::vector<unsigned char> before(in.lo, in.hi);
    v.call(Binding(env, {{in_.name, in.data}, {out_.name, out.data}}));
    const std::vector<unsigned char> sentinels(size_t(out.hi - out.lo), kSentinel);
    check(head, s, out, in.data, sentinels.data(), "output", "input");
    if (!std::equal(before.begin(), before.end(), in.lo)) rep_.fail(head + ": the input's memory changed");
  }

  // An in-place kernel called with output = input: the matrix must become its transpose and every
  // other byte (row padding, around it) keep its value.
  void call_in_place(const Variant& v, const Env& env, const View& s, const Mem& m, const std::string& shape) {
    const std::string head = "[" + v.suffix + "] in place " + shape;
    CrashContext::set(head);
    const std::vector<unsigned char> before(m.lo, m.hi);
    v.call(Binding(env, {{in_.name, m.data}, {out_.name, m.data}}));
    const unsigned char* old = before.data() + (m.data - m.lo);
    check(head, s, m, old, before.data(), "element", "the old element");
  }

  // Calls f(std::integral_constant<int64_t, element size>): the per-element loops get a constant
  // size (a memcpy of a runtime size is a library call per element, slow under qemu).
  template <class F>
  void by_size(F f) const {
    switch (size_) {
      case 1: return f(std::integral_constant<int64_t, 1>{});
      case 2: return f(std::integral_constant<int64_t, 2>{});
      case 4: return f(std::integral_constant<int64_t, 4>{});
      case 8: return f(std::integral_constant<int64_t, 8>{});
      default: throw std::logic_error("exec driver: transpose of " + std::to_string(size_) + "-byte elements");
    }
  }

  // Random bits in every element of the input view.
  template <int64_t N>
  static void fill(unsigned char* data, const View& s, uint64_t seed) {
    TestRng rng(seed);
    for (int64_t b = 0; b < s.batch; ++b)
      for (int64_t r = 0; r < s.rows; ++r)
        for (int64_t c = 0; c < s.cols; ++c) {
          const uint64_t v = rng();
          std::memcpy(data + (b * s.sa + r * s.lda + c) * N, &v, size_t(N));
        }
  }

  // The bytes out's memory must hold: `kept` (the memory's bytes before the call, from out.lo)
  // with src's element [r, c] at output element [c, r].
  template <int64_t N>
  static std::vector<unsigned char> expected(const View& s, const Mem& out, const unsigned char* src, const unsigned char* kept) {
    std::vector<unsigned char> want(kept, kept + (out.hi - out.lo));
    unsigned char* data = want.data() + (out.data - out.lo);
    for (int64_t b = 0; b < s.batch; ++b)
      for (int64_t r = 0; r < s.rows; ++r)
        for (int64_t c = 0; c < s.cols; ++c)
          std::memcpy(data + (b * s.sb + c * s.ldo + r) * N, src + (b * s.sa + r * s.lda + c) * N, size_t(N));
    return want;
  }

  // out's element [c, r] must hold the bytes of src's [r, c]; every other byte of out's memory
  // must still hold `kept` (its bytes before the call, from out.lo). The whole memory is compared
  // at once; a difference is then explained element by element.
  void check(const std::string& head, const View& s, const Mem& out, const unsigned char* src, const unsigned char* kept,
             const char* outName, const char* srcName) {
    std::vector<unsigned char> want;
    by_size([&](auto n) { want = expected<n()>(s, out, src, kept); });
    if (std::memcmp(want.data(), out.lo, want.size()) == 0) return;
    explain(head, s, out, src, kept, outName, srcName);
  }

  void explain(const std::string& head, const View& s, const Mem& out, const unsigned char* src, const unsigned char* kept,
               const char* outName, const char* srcName) {
    int64_t bad = 0;
    std::string first;
    std::vector<bool> element(size_t(out.hi - out.data) / size_t(size_) + 1, false);
    auto at = [&](int64_t b, int64_t x, int64_t y) {
      std::string t = "[";
      if (batched_) t += std::to_string(b) + ", ";
      t += std::to_string(x) + ", " + std::to_string(y);
      return t + "]";
    };
    for (int64_t b = 0; b < s.batch; ++b)
      for (int64_t c = 0; c < s.cols; ++c)
        for (int64_t r = 0; r < s.rows; ++r) {
          const int64_t o = b * s.sb + c * s.ldo + r, i = b * s.sa + r * s.lda + c;
          element[size_t(o)] = true;
          if (std::memcmp(out.data + o * size_, src + i * size_, size_t(size_)) != 0 && bad++ == 0)
            first = std::string(outName) + at(b, c, r) + " is not " + srcName + at(b, r, c) + " (" + bytes_at(out.data + o * size_) +
                    " instead of " + bytes_at(src + i * size_) + ")";
        }
    if (bad) rep_.fail(head + ": " + first + "; " + std::to_string(bad) + " wrong elements");
    for (const unsigned char* p = out.lo; p < out.hi; ++p) {
      const int64_t off = p - out.data;
      if (!(off >= 0 && element[size_t(off / size_)]) && *p != kept[p - out.lo]) {
        rep_.fail(head + ": wrote outside the output's elements, byte offset " + std::to_string(off));
        break;
      }
    }
  }

  std::string bytes_at(const unsigned char* p) const {
    static const char* hex = "0123456789abcdef";
    std::string t = "0x";
    for (int64_t b = size_ - 1; b >= 0; --b) t += hex[p[b] >> 4], t += hex[p[b] & 15];
    return t;
  }

  const Kernel& k_;
  const Tensor& in_;
  const Tensor& out_;
  CrashContext crash_;
  Report rep_;
  std::vector<Variant> variants_;
  int64_t size_ = 1;
  bool batched_ = false;
  bool in_place_ = false;  // "output": {"in_place": true}: also called with output = input
  std::set<std::string> seen_;
  int64_t runs_ = 0;
};

// Extents 0..70 (every tile edge of 2..64-element tiles; batches of 0 to 3 matrices); the thin sweep (emulated CPUs) takes
// those around multiples of the tile sizes.
std::vector<int64_t> extents() {
  if (thin_sweep()) return thin_lengths(70, {});
  std::vector<int64_t> v;
  for (int64_t n = 0; n <= 70; ++n) v.push_back(n);
  return v;
}

}  // namespace

void run_sizes(const Kernel& kernel) {
  TransposeRunner r(kernel);
  uint64_t seed = 1;
  for (int64_t rows : extents())
    for (int64_t cols : extents()) {
      // Padding and misalignment vary with the shape so every combination appears many times.
      const int64_t k = rows * 71 + cols;
      r.run({rows, cols, k % 3 == 0 ? 0 : k % 7, k % 5 == 0 ? 0 : k % 11, int(k % 2), k % 4, k % 13 == 0 ? 0 : k % 6}, seed++, 0);
    }
}

void run_large(const Kernel& kernel) {
  TransposeRunner r(kernel);
  uint64_t seed = 100001;
  const std::vector<Request> big = {{1000, 1000, 0, 0, 0, 1}, {1024, 1024, 0, 0, 0, 1}, {1024, 1024, 0, 0, 1, 1}, {1, 4096, 0, 0, 0},
                                    {4096, 1, 0, 0, 0},        {1023, 1025, 3, 1, 1, 1}, {257, 129, 1024 - 129, 4096 - 257, 0},
                                    {100, 100, 0, 0, 0, 7, 0},  {1100, 1030, 0, 4, 0, 1},
                                    // output rows 703 apart (off 64-byte lines): on CPUs other than
                                    // AMD's, 16-row bands of 512-bit tiles, partial at the bottom
                                    // (700 rows) and at the right (2100 columns: 1024 + 1024 + 52)
                                    {700, 2100, 5, 3, 0, 1},
                                    // 2.3 MB of bytes (streamed), output rows 1664 apart: past the last
                                    // whole 64 x 64 tile by 30 rows and 56 columns
                                    {1630, 1400, 0, 34, 0, 1}};
  // Under emulation (SIMDGEN_EXEC_EMULATED=1: the qemu runs, where a 1024 x 1024 transpose and its
  // check take seconds) and in the thin sweep: the matrices up to 1024 x 1024, and that one aligned
  // only (the misaligned copy is there for x86's streaming stores; qemu's CPUs have none).
  const char* emulated = std::getenv("SIMDGEN_EXEC_EMULATED");
  const bool fewer = thin_sweep() || (emulated && std::string(emulated) == "1");
  // A square kernel skips the single rows and columns: squared, {1, 4096} is a 4096 x 4096
  // matrix (128 MiB of f64 in a batch of two), most of the test's time for the same loops that
  // 1100 x 1100 runs.
  auto skipped = [&](const Request& q) {
    return (fewer && (q.rows * q.cols > 1024 * 1024 || (q.rows == 1024 && q.misalign))) ||
           (r.square() && std::max(q.rows, q.cols) > 4 * std::min(q.rows, q.cols));
  };
  for (const Request& q : big)
    if (!skipped(q)) r.run(q, seed++, 0);
    else ++seed;  // the next requests keep their seeds
}

void run_guard_pages(const Kernel& kernel) {
  TransposeRunner r(kernel);
  uint64_t seed = 200001;
  for (int64_t rows : {1, 3, 15, 16, 17, 33, 64, 65})
    for (int64_t cols : {1, 2, 7, 16, 17, 31, 64, 67})
      for (int guard : {1, 2}) r.run({rows, cols, 0, 0, 0, 2, 0}, seed++, guard);
}

}  // namespace simdgen_exec::transpose
