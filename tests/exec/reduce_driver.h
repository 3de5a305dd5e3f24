// Runs every variant of one generated reduce kernel (that the CPU supports) plus its dispatcher
// against tests/reference, over shapes, data patterns and memory placements.
#pragma once

#include <doctest/doctest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cpu_features.h"
#include "crash_context.h"
#include "reduce_check.h"
#include "reduce_data.h"
#include "reduce_reference.h"
#include "reduce_shapes.h"

namespace simdgen_test {

template <class Fn>
struct Variant {
  const char* name;  // suffix: "scalar", "avx512_vnni", ...; "dispatch" for NAME itself
  Fn fn;
};

// Everything the test needs to know about one kernel; filled in by the generated test .cpp.
template <class In, class Out, class Fn>
struct Kernel {
  using InT = In;
  using OutT = Out;
  const char* name;
  Op op;
  bool sequential;  // order: "sequential"
  Extents extents;
  std::vector<Variant<Fn>> variants;
  void (*call)(Fn, const In*, const Shape&, Out*);  // passes the runtime extents in spec order

  int axis() const { return extents.axis; }
  int64_t outputs(const Shape& s) const { return axis() == 1 ? s.rows : s.cols; }
  int64_t reduced(const Shape& s) const { return axis() == 1 ? s.cols : s.rows; }
  static int64_t span(const Shape& s) { return s.rows > 0 ? (s.rows - 1) * s.stride + s.cols : 0; }
};

// Collects failures; prints the first few in full so a broken kernel does not flood the log.
struct Report {
  int failures = 0;
  static constexpr int kPrinted = 12;
  void fail(const std::string& msg) {
    if (failures++ < kPrinted) FAIL_CHECK(msg);
  }
  ~Report() {
    if (failures > kPrinted) FAIL_CHECK((std::to_string(failures - kPrinted) + " further failures not shown"));
  }
};

inline std::string describe(const char* kernel, const char* variant, const Shape& s, const char* where) {
  return std::string(kernel) + " [" + variant + "] rows=" + std::to_string(s.rows) +
         " cols=" + std::to_string(s.cols) + " stride=" + std::to_string(s.stride) +
         " misalign=" + std::to_string(s.misalign) + " " + where;
}

// The variants to run: those the CPU supports (unknown suffixes are failures), then the dispatcher.
template <class K>
auto runnable_variants(const K& k, Report& rep) {
  std::vector<std::remove_cvref_t<decltype(k.variants[0])>> out;
  std::string skipped;
  bool has_scalar = false;
  for (const auto& v : k.variants) {
    has_scalar |= std::string(v.name) == "scalar";
    switch (variant_support(v.name)) {
      case CpuSupport::yes: out.push_back(v); break;
      case CpuSupport::no: skipped += std::string(" ") + v.name; break;
      case CpuSupport::unknown_suffix:
        rep.fail(std::string(k.name) + ": variant suffix '" + v.name + "' unknown to tests/exec/cpu_features.h");
    }
  }
  if (!has_scalar) rep.fail(std::string(k.name) + ": the variant X-macro lists no 'scalar' variant");
  if (!skipped.empty()) MESSAGE(k.name << ": CPU lacks features for" << skipped << " (not run)");
  return out;
}

// Fills the reduction lines of shape s at `in` from `f`; every other element stays as it was.
template <class K, class In>
void fill(const K& k, Filler<In>& f, In* in, const Shape& s) {
  const int64_t lines = k.outputs(s), n = k.reduced(s);
  for (int64_t l = 0; l < lines; ++l)
    for (int64_t p = 0; p < n; ++p) in[k.axis() == 1 ? l * s.stride + p : p * s.stride + l] = f.value(l, p, n);
}

template <class K>
auto expected(const K& k, const typename K::InT* in, const Shape& s) {
  using Out = typename K::OutT;
  const int64_t lines = k.outputs(s), n = k.reduced(s);
  std::vector<Expected<Out>> e(size_t(lines > 0 ? lines : 0));
  std::vector<Out> exact(e.size());
  simdgen_ref::reduce<Out>(k.op, k.axis(), in, s.rows, s.cols, s.stride, exact.data());
  const bool wide = std::is_floating_point_v<Out> && !k.sequential && (k.op == Op::add || k.op == Op::mul);
  for (int64_t l = 0; l < lines; ++l) {
    e[l] = {k.op, exact[l], {}, wide, n};
    if (wide)
      e[l].wide = k.axis() == 1 ? simdgen_ref::reduce_line_wide(k.op, in + l * s.stride, n, 1)
                                : simdgen_ref::reduce_line_wide(k.op, in + l, n, s.stride);
  }
  return e;
}

// Fill pattern for output memory: anything a kernel forgets to write (or writes out of range) shows.
inline constexpr unsigned char kOutSentinel = 0xA5;

// Calls one variant, then checks every output and that [lo, hi) outside the outputs is untouched.
template <class K, class V>
void run_variant(const K& k, const V& v, const typename K::InT* in, const Shape& s, typename K::OutT* out,
                 unsigned char* lo, unsigned char* hi, const std::vector<Expected<typename K::OutT>>& e,
                 const std::string& where, Report& rep) {
  using Out = typename K::OutT;
  CrashContext::set(describe(k.name, v.name, s, where.c_str()));
  std::memset(lo, kOutSentinel, size_t(hi - lo));
  k.call(v.fn, in, s, out);
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < int64_t(e.size()); ++i)
    if (!matches(e[i], out[i])) bad += 1, first = first < 0 ? i : first;
  if (bad) {
    rep.fail(describe(k.name, v.name, s, where.c_str()) + ": output[" + std::to_string(first) + "] of " +
             std::to_string(e.size()) + " (reduced extent " + std::to_string(k.reduced(s)) + "): got " +
             show(out[first]) + " expected " + show_expected(e[first]) + "; " +
             std::to_string(bad) + " mismatching outputs");
  }
  const auto* ob = reinterpret_cast<unsigned char*>(out);
  const auto* oe = reinterpret_cast<unsigned char*>(out + e.size());
  for (const unsigned char* p = lo; p < hi; ++p)
    if ((p < ob || p >= oe) && *p != kOutSentinel) {
      rep.fail(describe(k.name, v.name, s, where.c_str()) + ": wrote outside the outputs, byte offset " +
               std::to_string(p - ob) + " from output[0] (" + std::to_string(e.size()) + " outputs of " +
               std::to_string(sizeof(Out)) + " bytes)");
      break;
    }
}

template <class T>
struct AlignedBuffer {
  std::unique_ptr<T, decltype(&std::free)> p{nullptr, &std::free};
  explicit AlignedBuffer(int64_t n) {
    p.reset(static_cast<T*>(std::aligned_alloc(64, size_t((n * int64_t(sizeof(T)) + 63) / 64 * 64 + 64))));
  }
  T* get() const { return p.get(); }
};

// One shape and data pattern, in 64-byte aligned heap buffers (+misalignment), poisoned padding.
template <class K, class V>
void run_heap(const K& k, const std::vector<V>& variants, const Shape& s, Pattern pat, uint64_t seed,
              Report& rep) {
  using In = typename K::InT;
  using Out = typename K::OutT;
  constexpr int64_t kSlack = 64;  // poisoned elements after the last one, and canary outputs
  const int64_t len = s.misalign + K::span(s) + kSlack;
  AlignedBuffer<In> ibuf(len);
  for (int64_t i = 0; i < len; ++i) ibuf.get()[i] = poison<In>(k.op);
  In* in = ibuf.get() + s.misalign;
  Filler<In> f(k.op, pat, seed);
  fill(k, f, in, s);
  const auto e = expected(k, in, s);
  const int64_t olen = int64_t(e.size()) + 2 * kSlack;
  AlignedBuffer<Out> obuf(olen);
  auto* lo = reinterpret_cast<unsigned char*>(obuf.get());
  const std::string where = std::string("pattern=") + pattern_name(pat) + " seed=" + std::to_string(seed);
  for (const auto& v : variants)
    run_variant(k, v, in, s, obuf.get() + kSlack + s.misalign, lo, lo + olen * sizeof(Out), e, where, rep);
}

// Readable pages between two PROT_NONE pages: any access just outside [lo, hi) faults.
struct GuardedPages {
  unsigned char *map = nullptr, *lo = nullptr, *hi = nullptr;
  size_t size = 0;
  explicit GuardedPages(size_t bytes) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const size_t data = (bytes + page - 1) / page * page + page;
    size = data + 2 * page;
    void* m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(m != MAP_FAILED);
    map = static_cast<unsigned char*>(m);
    REQUIRE(mprotect(map, page, PROT_NONE) == 0);
    REQUIRE(mprotect(map + page + data, page, PROT_NONE) == 0);
    lo = map + page, hi = lo + data;
  }
  ~GuardedPages() { munmap(map, size); }
  GuardedPages(const GuardedPages&) = delete;
  GuardedPages& operator=(const GuardedPages&) = delete;
};

// The input ends exactly at a PROT_NONE page (reads past the last element fault), or starts right
// after one; the outputs likewise. A fault crashes the test; doctest then prints the INFO context.
template <class K, class V>
void run_guarded(const K& k, const std::vector<V>& variants, const Shape& s, bool at_end, uint64_t seed,
                 Report& rep) {
  using In = typename K::InT;
  using Out = typename K::OutT;
  const size_t ibytes = size_t(K::span(s)) * sizeof(In), obytes = size_t(k.outputs(s)) * sizeof(Out);
  GuardedPages ipages(ibytes), opages(obytes);
  for (In* p = reinterpret_cast<In*>(ipages.lo); p < reinterpret_cast<In*>(ipages.hi); ++p) *p = poison<In>(k.op);
  In* in = reinterpret_cast<In*>(at_end ? ipages.hi - ibytes : ipages.lo);
  Out* out = reinterpret_cast<Out*>(at_end ? opages.hi - obytes : opages.lo);
  Filler<In> f(k.op, Pattern::random, seed);
  fill(k, f, in, s);
  const auto e = expected(k, in, s);
  const std::string where = std::string("guard page ") + (at_end ? "after the last" : "before the first") +
                            " element, seed=" + std::to_string(seed);
  for (const auto& v : variants) run_variant(k, v, in, s, out, opages.lo, opages.hi, e, where, rep);
}

// ---- The test cases --------------------------------------------------------------------------

inline int64_t total_elements(const std::vector<Shape>& shapes) {
  int64_t n = 1;
  for (const Shape& s : shapes) n += s.rows * s.stride;
  return n;
}

// Random data over the main shape grid; small grids (static or rank-1 shapes) get more seeds.
template <class K>
void test_random(const K& k) {
  CrashContext crash_context;
  Report rep;
  const auto variants = runnable_variants(k, rep);
  const auto shapes = main_shapes(k.extents);
  CHECK_MESSAGE(!shapes.empty(), k.name << ": no test shape fits the static extents");
  const int64_t seeds = std::clamp<int64_t>(4'000'000 / total_elements(shapes), 1, 64);
  uint64_t seed = 1;
  for (const Shape& s : shapes)
    for (int64_t r = 0; r < seeds; ++r) run_heap(k, variants, s, Pattern::random, seed++, rep);
}

// Extreme-value patterns over a sample of the main grid (all of a small one, several seeds).
template <class K>
void test_extremes(const K& k) {
  CrashContext crash_context;
  Report rep;
  const auto variants = runnable_variants(k, rep);
  const auto shapes = main_shapes(k.extents);
  const auto patterns = extreme_patterns<typename K::InT>();
  const int64_t total = total_elements(shapes);
  const size_t step = size_t(std::clamp<int64_t>(total / 2'000'000, 1, 100));
  const int64_t seeds = std::clamp<int64_t>(2'000'000 / total, 1, 12);  // seeds move the special elements
  uint64_t seed = 1000003;
  for (size_t i = 0; i < shapes.size(); i += step)
    for (Pattern p : patterns)
      for (int64_t r = 0; r < seeds; ++r) run_heap(k, variants, shapes[i], p, seed++, rep);
}

// Inputs/outputs touching PROT_NONE pages, at several tail lengths.
template <class K>
void test_guard_pages(const K& k) {
  CrashContext crash_context;
  Report rep;
  const auto variants = runnable_variants(k, rep);
  uint64_t seed = 7000001;
  const auto shapes = guard_shapes(k.extents);
  CHECK_MESSAGE(!shapes.empty(), k.name << ": no test shape fits the static extents");
  for (const Shape& s : shapes)
    for (bool at_end : {true, false}) run_guarded(k, variants, s, at_end, seed++, rep);
}

}  // namespace simdgen_test
