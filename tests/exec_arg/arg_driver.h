// Runs every variant of one generated arg_reduce kernel (that the CPU supports) plus its
// dispatcher on one shape and data pattern, in heap or guard-page placement, and checks each row's
// (value, index) against tests/reference/arg_reference.h and that nothing else was written.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <system_error>
#include <type_traits>
#include <vector>

#include "arg_reference.h"
#include "arg_shapes.h"
#include "arg_values.h"
#include "crash_context.h"
#include "reduce_driver.h"  // Variant, Report, runnable_variants, AlignedBuffer, GuardedPages, show

namespace simdgen_arg_test {

using simdgen_test::CrashContext;
using simdgen_test::show;

// Everything the test needs to know about one kernel; filled in by the generated test .cpp.
template <class T, class Idx, class Fn>
struct Kernel {
  using ValueT = T;
  using IndexT = Idx;
  using FnT = Fn;
  const char* name;
  ArgOp op;
  bool last, nan_propagate, has_initial;
  const char* initial_value;  // JSON number texts (unused without `initial`)
  const char* initial_index;
  Extents extents;
  int64_t block;  // elements per block
  std::vector<simdgen_test::Variant<Fn>> variants;
  void (*call)(Fn, const T*, const Shape&, T*, Idx*);  // passes the runtime extents in spec order
};

// Parses a JSON number into T; false when it is malformed or out of T's range.
template <class T>
bool parse_number(const std::string& text, T& out) {
  const char *b = text.data(), *e = b + text.size();
  if constexpr (std::is_floating_point_v<T>) {
    double d = 0;
    auto [p, ec] = std::from_chars(b, e, d);
    out = T(d);
    return ec == std::errc() && p == e && std::isfinite(out);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    W w = 0;
    auto [p, ec] = std::from_chars(b, e, w);
    out = static_cast<T>(w);
    return ec == std::errc() && p == e && W(out) == w;
  }
}

template <class K>
simdgen_ref::ArgSpec<typename K::ValueT> reference_spec(const K& k) {
  simdgen_ref::ArgSpec<typename K::ValueT> s{k.op, k.last, k.nan_propagate, k.has_initial, {}, 0};
  if (k.has_initial) {
    REQUIRE_MESSAGE(parse_number(k.initial_value, s.initial_value),
                    (std::string(k.name) + ": initial.value " + k.initial_value + " does not fit the input dtype"));
    REQUIRE_MESSAGE(parse_number(k.initial_index, s.initial_index),
                    (std::string(k.name) + ": initial.index " + k.initial_index + " is not a 64-bit integer"));
  }
  return s;
}

enum class Placement { heap, guard_after_end, guard_before_start };

// Fills row r (n elements) of the input.
template <class T>
using RowFill = std::function<void(T* row, int64_t n, int64_t r, Rng& rng)>;

inline constexpr unsigned char kOutSentinel = 0xA5;

template <class K>
class Runner {
 public:
  using T = typename K::ValueT;
  using Idx = typename K::IndexT;

  explicit Runner(const K& k)
      : k_(k), spec_(reference_spec(k)), values_{k.op}, variants_(simdgen_test::runnable_variants(k, rep_)) {}

  ~Runner() { CHECK_MESSAGE(runs_ > 0, (std::string(k_.name) + ": no shape of this case fits the kernel")); }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const simdgen_ref::ArgSpec<T>& spec() const { return spec_; }
  const Values<T>& values() const { return values_; }
  bool rank2() const { return k_.extents.rows != 1; }

  // `rows` x `cols` (fitted to the static extents) with row padding rotating through 0, 1, 13.
  void run(const std::string& pattern, int64_t rows, int64_t cols, const RowFill<T>& fill) {
    constexpr int64_t kPads[] = {0, 1, 13};
    run_shape(pattern, rows, cols, kPads[turn_++ % 3], 0, Placement::heap, fill);
  }

  // One shape and pattern; each (shape, pattern, placement) runs once (static shapes repeat).
  void run_shape(const std::string& pattern, int64_t rows, int64_t cols, int64_t pad, int misalign,
                 Placement where, const RowFill<T>& fill) {
    const auto fitted = fit(k_.extents, rows, cols, pad, misalign);
    if (!fitted) return;
    const Shape s = *fitted;
    const std::string what = describe_shape(s) + " pattern=" + pattern + placement_name(where);
    if (!seen_.insert(what).second) return;
    runs_ += 1;
    if (where == Placement::heap) run_heap(s, what, fill);
    else run_guarded(s, where == Placement::guard_after_end, what, fill);
  }

 private:
  static constexpr int64_t kSlack = 16;  // poisoned input elements and sentinel outputs around

  // Padding and slack hold the value that would beat everything: reading it shows.
  T poison() const {
    if constexpr (std::is_floating_point_v<T>)
      if (spec_.nan_propagate) return std::numeric_limits<T>::quiet_NaN();
    return values_.top();
  }

  static std::string describe_shape(const Shape& s) {
    return "rows=" + std::to_string(s.rows) + " cols=" + std::to_string(s.cols) +
           " stride=" + std::to_string(s.stride) + " misalign=" + std::to_string(s.misalign);
  }
  static const char* placement_name(Placement p) {
    return p == Placement::heap ? "" : p == Placement::guard_after_end ? " (guard page after the last element)"
                                                                       : " (guard page before the first element)";
  }

  void fill_rows(T* in, const Shape& s, const RowFill<T>& fill) {
    Rng rng(seed_++);
    for (int64_t r = 0; r < s.rows; ++r) fill(in + r * s.stride, s.cols, r, rng);
  }

  std::vector<simdgen_ref::ArgResult<T>> expected(const T* in, const Shape& s) const {
    std::vector<simdgen_ref::ArgResult<T>> e;
    for (int64_t r = 0; r < s.rows; ++r) e.push_back(simdgen_ref::arg_reduce_row(spec_, in + r * s.stride, s.cols));
    return e;
  }

  void run_heap(const Shape& s, const std::string& what, const RowFill<T>& fill) {
    const int64_t len = s.misalign + s.span() + kSlack;
    simdgen_test::AlignedBuffer<T> ibuf(len);
    std::fill(ibuf.get(), ibuf.get() + len, poison());
    T* in = ibuf.get() + s.misalign;
    fill_rows(in, s, fill);
    const auto e = expected(in, s);
    const int64_t olen = s.misalign + s.rows + 2 * kSlack;
    simdgen_test::AlignedBuffer<T> vbuf(olen);
    simdgen_test::AlignedBuffer<Idx> xbuf(olen);
    const Out out{vbuf.get() + kSlack + s.misalign, xbuf.get() + kSlack + s.misalign, bytes(vbuf.get(), olen),
                  bytes(xbuf.get(), olen)};
    for (const auto& v : variants_) check_variant(v, in, s, out, e, what);
  }

  // The input ends exactly at a PROT_NONE page or starts right after one; the outputs likewise.
  void run_guarded(const Shape& s, bool at_end, const std::string& what, const RowFill<T>& fill) {
    const size_t ib = size_t(s.span()) * sizeof(T), vb = size_t(s.rows) * sizeof(T), xb = size_t(s.rows) * sizeof(Idx);
    simdgen_test::GuardedPages ipages(ib), vpages(vb), xpages(xb);
    std::fill(reinterpret_cast<T*>(ipages.lo), reinterpret_cast<T*>(ipages.hi), poison());
    T* in = reinterpret_cast<T*>(at_end ? ipages.hi - ib : ipages.lo);
    fill_rows(in, s, fill);
    const auto e = expected(in, s);
    const Out out{reinterpret_cast<T*>(at_end ? vpages.hi - vb : vpages.lo),
                  reinterpret_cast<Idx*>(at_end ? xpages.hi - xb : xpages.lo), {vpages.lo, vpages.hi},
                  {xpages.lo, xpages.hi}};
    for (const auto& v : variants_) check_variant(v, in, s, out, e, what);
  }

  struct Bytes {
    unsigned char *lo, *hi;
  };
  template <class U>
  static Bytes bytes(U* p, int64_t n) {
    auto* b = reinterpret_cast<unsigned char*>(p);
    return {b, b + n * int64_t(sizeof(U))};
  }
  // Where one call writes: the outputs inside sentinel-filled memory.
  struct Out {
    T* values;
    Idx* indices;
    Bytes vmem, xmem;
  };

  static bool same_value(T got, T want) {
    if constexpr (std::is_floating_point_v<T>)
      if (std::isnan(want) || std::isnan(got)) return std::isnan(want) && std::isnan(got);
    return got == want;  // -0.0 == +0.0
  }

  template <class V>
  void check_variant(const V& v, const T* in, const Shape& s, const Out& out,
                     const std::vector<simdgen_ref::ArgResult<T>>& e, const std::string& what) {
    const std::string head = std::string(k_.name) + " [" + v.name + "] " + what;
    CrashContext::set(head);
    std::memset(out.vmem.lo, kOutSentinel, size_t(out.vmem.hi - out.vmem.lo));
    std::memset(out.xmem.lo, kOutSentinel, size_t(out.xmem.hi - out.xmem.lo));
    k_.call(v.fn, in, s, out.values, out.indices);
    int64_t bad = 0, first = -1;
    for (int64_t r = 0; r < s.rows; ++r)
      if (!same_value(out.values[r], e[r].value) || out.indices[r] != static_cast<Idx>(e[r].index))
        bad += 1, first = first < 0 ? r : first;
    if (bad) {
      const T* row = in + first * s.stride;
      auto element = [&](int64_t j) {
        return j >= 0 && j < s.cols ? " (row[" + std::to_string(j) + "] = " + show(row[j]) + ")" : std::string();
      };
      rep_.fail(head + ": row " + std::to_string(first) + " of " + std::to_string(s.rows) + ": got value " +
                show(out.values[first]) + " index " + std::to_string(int64_t(out.indices[first])) +
                element(int64_t(out.indices[first])) + ", expected value " + show(e[first].value) + " index " +
                std::to_string(int64_t(static_cast<Idx>(e[first].index))) + element(e[first].index) + "; " +
                std::to_string(bad) + " mismatching rows");
    }
    untouched(head, "values", out.vmem, out.values, s.rows);
    untouched(head, "indices", out.xmem, out.indices, s.rows);
  }

  template <class U>
  void untouched(const std::string& head, const char* what, Bytes mem, const U* out, int64_t n) {
    const auto *ob = reinterpret_cast<const unsigned char*>(out), *oe = ob + n * int64_t(sizeof(U));
    for (const unsigned char* p = mem.lo; p < mem.hi; ++p)
      if ((p < ob || p >= oe) && *p != kOutSentinel) {
        rep_.fail(head + ": wrote outside the " + what + ", byte offset " + std::to_string(p - ob) + " from " +
                  what + "[0] (" + std::to_string(n) + " outputs of " + std::to_string(sizeof(U)) + " bytes)");
        return;
      }
  }

  const K& k_;
  CrashContext crash_;
  simdgen_test::Report rep_;
  simdgen_ref::ArgSpec<T> spec_;
  Values<T> values_;
  std::vector<simdgen_test::Variant<typename K::FnT>> variants_;
  std::set<std::string> seen_;
  uint64_t seed_ = 1;
  unsigned turn_ = 0;
  int64_t runs_ = 0;
};

}  // namespace simdgen_arg_test
