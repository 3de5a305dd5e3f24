// SPDX-License-Identifier: Apache-2.0
// Differential harness support for tests/lift/run_corpus.py.
//
// run_corpus.py writes one main() per corpus file. It calls the original function (compiled as
// NAME__orig) and the rewritten one (NAME__lifted, which calls the generated kernels) with
// identical arguments and compares what they return and store:
//   - lengths 0..300, 4097 and 100000 (under qemu and for every variant after the first: 0..80,
//     then next to multiples of 16, and 4097)
//     (and -1, -2, -1000 when n is signed), from `min-n` up;
//   - value patterns per element type: random over the whole type, small ranges (ties), all
//     equal, extremes, ascending/descending, extremes at both ends; for floats also NaN at the
//     first/last index, NaN and infinities mixed in, all NaN, -0.0/+0.0 (NaNs are quiet: C leaves
//     signaling NaNs unspecified, and glibc's fmaxf returns NaN for one);
//   - two placements per case: one element past a page-aligned start (misaligned for every
//     vector width), and ending exactly at a PROT_NONE guard page (a read past the end faults);
//   - scalar parameters cycling through interesting values (0, 1, -1, the type's extremes, NaN,
//     infinities, random); output pointers initialised to the same value for both calls.
// Integers compare exactly; floats bit for bit, or both NaN, or both zero (-0.0 == +0.0: the spec
// lets a min/max return either). In tolerance mode (`// diff: tolerance`, reassociated float
// sums and products) |a - b| <= rel * S + tiny with S the sum of |x| over the float inputs and
// float scalar parameters of the case (`// diff: tolerance D`, sums of terms that are products of D
// such values: S * (2M)^(D-1), M the largest of 1 and every |x|, and rel at least 2 n eps: both
// sums' bound), rel 1e-5 for float and 1e-13 for double results; NaN must
// still match NaN and an infinity the same infinity. Tolerance mode avoids the value ranges where
// a reassociated float sum or product may legitimately overflow differently (huge values, +-inf).
// In ULP mode (`// diff: ulp N`, loops calling exp, log, ... lifted with --math-ulp) two finite
// floats match within N units in the last place of the larger one (a subnormal's unit below the
// normal range); NaN, infinities and zeros as above.
// The first mismatch prints the case and exits 1; a memory fault prints the case and exits 3.
#ifndef SIMDGEN_TESTS_LIFT_HARNESS_H
#define SIMDGEN_TESTS_LIFT_HARNESS_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cinttypes>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

namespace lh {

// ---------------------------------------------------------------------------------------------
// Random numbers (splitmix64: reproducible everywhere, no <random> distribution differences).
struct Rng {
  uint64_t s;
  explicit Rng(uint64_t seed) : s(seed) {}
  uint64_t next() {
    uint64_t z = (s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t below(uint64_t k) { return k ? next() % k : 0; }
  double unit() { return (double)(next() >> 11) * (1.0 / 9007199254740992.0); }  // [0, 1)
};

inline uint64_t mix(uint64_t a, uint64_t b) {
  Rng r(a * 0x100000001b3ull ^ (b + 0x51ed27ull));
  return r.next();
}

// ---------------------------------------------------------------------------------------------
// The case being run, for messages (also from the fault handler).
struct Context {
  const char* file = "";
  const char* function = "";
  const char* variant = "";
  int64_t n = 0;
  int pattern = 0;
  const char* placement = "";
  uint64_t case_no = 0;
  bool tolerance = false;
  int ulps = 0;        // > 0: ULP mode
  double abs_sum = 0;  // S of the tolerance formula
  double abs_max = 1;  // M: the largest of 1 and every |x| of the case
  int degree = 1;      // D
  char scalars[1024] = {0};
};
inline Context g_ctx;

inline void append(char* buf, size_t cap, const char* text) {
  size_t len = strlen(buf);
  if (len + 1 < cap) snprintf(buf + len, cap - len, "%s", text);
}

inline void print_case(FILE* f) {
  fprintf(f, "  file %s, function %s, SIMDGEN_VARIANT=%s\n", g_ctx.file, g_ctx.function,
          g_ctx.variant[0] ? g_ctx.variant : "(unset: best variant)");
  fprintf(f, "  case %" PRIu64 ": n = %" PRId64 ", pattern #%d, placement %s\n", g_ctx.case_no, g_ctx.n,
          g_ctx.pattern, g_ctx.placement);
  if (g_ctx.scalars[0]) fprintf(f, "  scalar arguments: %s\n", g_ctx.scalars);
}

extern "C" inline void on_fault(int sig) {
  // Not async-signal-safe, but the process is about to die anyway and this is a test.
  fprintf(stderr, "MEMORY FAULT (signal %d): a read outside the arrays (past the end of an array "
                  "that ends at a guard page?)\n", sig);
  print_case(stderr);
  fflush(stderr);
  _exit(3);
}

// ---------------------------------------------------------------------------------------------
// Formatting values.
template <class T> void format_value(char* buf, size_t cap, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    if constexpr (sizeof(T) == 4) {
      uint32_t bits;
      memcpy(&bits, &v, 4);
      snprintf(buf, cap, "%.9g [0x%08" PRIx32 "]", (double)v, bits);
    } else {
      uint64_t bits;
      memcpy(&bits, &v, 8);
      snprintf(buf, cap, "%.17g [0x%016" PRIx64 "]", (double)v, bits);
    }
  } else if constexpr (std::is_signed_v<T>) {
    snprintf(buf, cap, "%lld", (long long)v);
  } else {
    snprintf(buf, cap, "%llu", (unsigned long long)v);
  }
}

template <class T> void format_short(char* buf, size_t cap, T v) {
  if constexpr (std::is_floating_point_v<T>) {
    snprintf(buf, cap, "%.9g", (double)v);
  } else {
    format_value(buf, cap, v);
  }
}

// ---------------------------------------------------------------------------------------------
// Value patterns.
constexpr int kIntPatterns = 11;
constexpr int kFloatPatterns = 17;
constexpr int kToleranceFloatPatterns = 8;

inline const char* int_pattern_name(int p) {
  static const char* names[kIntPatterns] = {
      "random (whole type)", "small range (ties)", "all equal", "extremes mixed", "all minimum",
      "all maximum",         "ascending",          "descending", "extremes at both ends",
      "repeated extremes",   "random with sparse maximum"};
  return names[p];
}
inline const char* float_pattern_name(int p) {
  static const char* names[kFloatPatterns] = {
      "random finite",        "small range (ties)", "all equal",        "extremes (max, denormals, inf, -0)",
      "random bits",          "NaN first",          "NaN last",         "NaN mixed in",
      "all NaN",              "infinities mixed in", "-0.0/+0.0 mixed", "ascending",
      "descending",           "all -inf",           "all +inf",         "extremes at both ends",
      "NaN first and last"};
  return names[p];
}
inline const char* tolerance_pattern_name(int p) {
  static const char* names[kToleranceFloatPatterns] = {
      "random in [-2, 2]", "small range (ties)", "all equal (powers of two)", "-0.0/+0.0 mixed",
      "NaN first",         "NaN last",           "NaN mixed in",              "all NaN"};
  return names[p];
}

template <class T> int pattern_count(bool tolerance) {
  if constexpr (std::is_floating_point_v<T>) {
    return tolerance ? kToleranceFloatPatterns : kFloatPatterns;
  } else {
    return kIntPatterns;
  }
}

template <class T> const char* pattern_name(int p, bool tolerance) {
  if constexpr (std::is_floating_point_v<T>) {
    return tolerance ? tolerance_pattern_name(p) : float_pattern_name(p);
  } else {
    return int_pattern_name(p);
  }
}

template <class T> T from_bits(uint64_t bits) {
  T v;
  if constexpr (sizeof(T) == 8) {
    memcpy(&v, &bits, 8);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t b = (uint32_t)bits;
    memcpy(&v, &b, 4);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t b = (uint16_t)bits;
    memcpy(&v, &b, 2);
  } else {
    uint8_t b = (uint8_t)bits;
    memcpy(&v, &b, 1);
  }
  return v;
}

// Integers of any width by wrapping (the harness is C++17: conversions to signed types wrap on
// every compiler we use).
template <class T> T wrap(uint64_t v) { return from_bits<T>(v); }

template <class T> void fill_int(T* a, int64_t n, int p, Rng& r) {
  using L = std::numeric_limits<T>;
  const T lo = L::min(), hi = L::max();
  const bool sgn = std::is_signed_v<T>;
  auto small = [&]() -> T { return sgn ? (T)((int)r.below(5) - 2) : (T)r.below(4); };
  auto extreme = [&]() -> T {
    switch (r.below(sgn ? 7 : 6)) {
      case 0: return lo;
      case 1: return hi;
      case 2: return (T)0;
      case 3: return (T)1;
      case 4: return (T)(lo + 1);
      case 5: return (T)(hi - 1);
      default: return (T)-1;
    }
  };
  switch (p) {
    case 0:
      for (int64_t i = 0; i < n; ++i) a[i] = wrap<T>(r.next());
      break;
    case 1:
      for (int64_t i = 0; i < n; ++i) a[i] = small();
      break;
    case 2: {
      T e;
      switch (r.below(5)) {
        case 0: e = lo; break;
        case 1: e = hi; break;
        case 2: e = (T)0; break;
        case 3: e = (T)1; break;
        default: e = wrap<T>(r.next());
      }
      for (int64_t i = 0; i < n; ++i) a[i] = e;
      break;
    }
    case 3:
      for (int64_t i = 0; i < n; ++i) a[i] = extreme();
      break;
    case 4:
      for (int64_t i = 0; i < n; ++i) a[i] = lo;
      break;
    case 5:
      for (int64_t i = 0; i < n; ++i) a[i] = hi;
      break;
    case 6:
      for (int64_t i = 0; i < n; ++i) a[i] = wrap<T>((uint64_t)(int64_t)lo + (uint64_t)i);
      break;
    case 7:
      for (int64_t i = 0; i < n; ++i) a[i] = wrap<T>((uint64_t)hi - (uint64_t)i);
      break;
    case 8:  // ties between the two ends: first and last index differ
      for (int64_t i = 0; i < n; ++i) a[i] = small();
      if (n > 0) a[0] = a[n - 1] = hi;
      if (n > 2) a[1] = a[n - 2] = lo;
      break;
    case 9: {  // the extremes, each at a few random places (far apart in long arrays)
      for (int64_t i = 0; i < n; ++i) a[i] = wrap<T>(r.next());
      for (int k = 0; k < 3 && n > 0; ++k) {
        a[r.below((uint64_t)n)] = hi;
        a[r.below((uint64_t)n)] = lo;
      }
      break;
    }
    default:  // mostly equal values, a maximum somewhere late
      for (int64_t i = 0; i < n; ++i) a[i] = small();
      if (n > 0) a[n - 1 - (int64_t)r.below((uint64_t)(n < 8 ? n : 8))] = (T)(hi - 1);
      break;
  }
}

template <class T> T random_finite(Rng& r) {
  // sign * [1, 2) * 2^e, e in [-20, 20]
  double m = 1.0 + r.unit();
  int e = (int)r.below(41) - 20;
  double v = std::ldexp(m, e);
  return (T)((r.next() & 1) ? -v : v);
}

template <class T> T small_float(Rng& r) { return (T)(((int)r.below(7) - 3) * 0.5); }

template <class T> void fill_float(T* a, int64_t n, int p, Rng& r, bool tolerance) {
  using L = std::numeric_limits<T>;
  const T nan = L::quiet_NaN(), inf = L::infinity();
  if (tolerance) {
    switch (p) {
      case 0:
        for (int64_t i = 0; i < n; ++i) a[i] = (T)(r.unit() * 4.0 - 2.0);
        break;
      case 1:
        for (int64_t i = 0; i < n; ++i) a[i] = small_float<T>(r);
        break;
      case 2: {
        static const double choices[] = {1.0, -1.0, 0.5, 2.0, 0.0, -0.0, -0.5};
        const T e = (T)choices[r.below(7)];
        for (int64_t i = 0; i < n; ++i) a[i] = e;
        break;
      }
      case 3:
        for (int64_t i = 0; i < n; ++i) {
          uint64_t k = r.below(10);
          a[i] = k < 4 ? (T)0.0 : k < 8 ? (T)-0.0 : k == 8 ? (T)1.0 : (T)-1.0;
        }
        break;
      case 4:
      case 5:
        for (int64_t i = 0; i < n; ++i) a[i] = (T)(r.unit() * 4.0 - 2.0);
        if (n > 0) a[p == 4 ? 0 : n - 1] = nan;
        break;
      case 6:
        for (int64_t i = 0; i < n; ++i) a[i] = r.below(10) == 0 ? nan : small_float<T>(r);
        break;
      default:
        for (int64_t i = 0; i < n; ++i) a[i] = nan;
        break;
    }
    return;
  }
  switch (p) {
    case 0:
      for (int64_t i = 0; i < n; ++i) a[i] = random_finite<T>(r);
      break;
    case 1:
      for (int64_t i = 0; i < n; ++i) a[i] = small_float<T>(r);
      break;
    case 2: {
      static const double choices[] = {0.0, -0.0, 1.5, -2.25};
      const uint64_t k = r.below(8);
      const T e = k < 4 ? (T)choices[k] : k == 4 ? inf : k == 5 ? -inf : k == 6 ? L::max() : random_finite<T>(r);
      for (int64_t i = 0; i < n; ++i) a[i] = e;
      break;
    }
    case 3: {
      const T choices[] = {L::max(), L::lowest(), L::min(), (T)-L::min(), L::denorm_min(), (T)-L::denorm_min(),
                           inf,      -inf,        (T)0.0,   (T)-0.0,      (T)1.0,            (T)-1.0};
      for (int64_t i = 0; i < n; ++i) a[i] = choices[r.below(12)];
      break;
    }
    case 4:  // NaNs made quiet: C leaves signaling NaNs unspecified (fmaxf returns NaN for one)
      for (int64_t i = 0; i < n; ++i) {
        uint64_t bits = r.next();
        if (std::isnan(from_bits<T>(bits))) bits |= sizeof(T) == 4 ? (1ull << 22) : (1ull << 51);
        a[i] = from_bits<T>(bits);
      }
      break;
    case 5:
    case 6:
      for (int64_t i = 0; i < n; ++i) a[i] = small_float<T>(r);
      if (n > 0) a[p == 5 ? 0 : n - 1] = (r.next() & 1) ? nan : -nan;
      break;
    case 7:
      for (int64_t i = 0; i < n; ++i) {
        uint64_t k = r.below(10);
        a[i] = k == 0 ? nan : k == 1 ? -nan : random_finite<T>(r);
      }
      break;
    case 8:
      for (int64_t i = 0; i < n; ++i) a[i] = nan;
      break;
    case 9:
      for (int64_t i = 0; i < n; ++i) {
        uint64_t k = r.below(20);
        a[i] = k == 0 ? inf : k == 1 ? -inf : small_float<T>(r);
      }
      if (n > 0) a[0] = -inf;
      if (n > 1) a[n - 1] = inf;
      break;
    case 10:
      for (int64_t i = 0; i < n; ++i) {
        uint64_t k = r.below(10);
        a[i] = k < 4 ? (T)0.0 : k < 8 ? (T)-0.0 : k == 8 ? (T)1.0 : (T)-1.0;
      }
      break;
    case 11:
      for (int64_t i = 0; i < n; ++i) a[i] = (T)(0.5 * (double)i - 0.25 * (double)n);
      break;
    case 12:
      for (int64_t i = 0; i < n; ++i) a[i] = (T)(0.25 * (double)n - 0.5 * (double)i);
      break;
    case 13:
      for (int64_t i = 0; i < n; ++i) a[i] = -inf;
      break;
    case 14:
      for (int64_t i = 0; i < n; ++i) a[i] = inf;
      break;
    case 15:
      for (int64_t i = 0; i < n; ++i) a[i] = small_float<T>(r);
      if (n > 0) a[0] = a[n - 1] = (T)100.0;
      if (n > 2) a[1] = a[n - 2] = (T)-100.0;
      break;
    default:
      for (int64_t i = 0; i < n; ++i) a[i] = random_finite<T>(r);
      if (n > 0) a[0] = nan;
      if (n > 1) a[n - 1] = nan;
      break;
  }
}

// ---------------------------------------------------------------------------------------------
// Scalar parameters and initial output values.
template <class T> T scalar_value(uint64_t key, bool tolerance) {
  Rng r(key);
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>) {
    if (tolerance) {
      static const double choices[] = {0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -1.5};
      const uint64_t k = r.below(9);
      if (k < 7) return (T)choices[k];
      if (k == 7) return L::quiet_NaN();
      return (T)(r.unit() * 4.0 - 2.0);
    }
    switch (r.below(14)) {
      case 0: return (T)0.0;
      case 1: return (T)-0.0;
      case 2: return (T)1.0;
      case 3: return (T)-1.0;
      case 4: return L::quiet_NaN();
      case 5: return L::infinity();
      case 6: return -L::infinity();
      case 7: return L::max();
      case 8: return L::lowest();
      case 9: return (T)100.0;
      case 10: return (T)-100.0;
      case 11: return (T)0.5;
      default: return random_finite<T>(r);
    }
  } else {
    switch (r.below(std::is_signed_v<T> ? 12 : 9)) {
      case 0: return (T)0;
      case 1: return (T)1;
      case 2: return L::min();
      case 3: return L::max();
      case 4: return (T)(L::min() + 1);
      case 5: return (T)(L::max() - 1);
      case 6: return (T)7;
      case 7: return (T)r.below(4);
      case 8: return wrap<T>(r.next());
      case 9: return (T)-1;
      case 10: return (T)-100;
      default: return (T)((int)r.below(7) - 3);
    }
  }
}

template <class T> T output_initial(uint64_t key) {
  Rng r(key ^ 0x7f3ull);
  if constexpr (std::is_floating_point_v<T>) {
    return random_finite<T>(r);
  } else {
    return wrap<T>(r.next());
  }
}

// ---------------------------------------------------------------------------------------------
// Guarded memory: [guard page][data pages][guard page].
struct Arena {
  char* data = nullptr;
  size_t bytes = 0;
  size_t page = 4096;
  explicit Arena(size_t need) {
    page = (size_t)sysconf(_SC_PAGESIZE);
    bytes = (need + page - 1) / page * page + page;  // at least one spare page
    char* base = (char*)mmap(nullptr, bytes + 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == (char*)MAP_FAILED) {
      perror("mmap");
      exit(2);
    }
    if (mprotect(base, page, PROT_NONE) != 0 || mprotect(base + page + bytes, page, PROT_NONE) != 0) {
      perror("mprotect");
      exit(2);
    }
    data = base + page;
  }
  // placement 0: one element past a page-aligned start; 1: ending at the trailing guard page.
  void* place(int placement, size_t elem, int64_t n) {
    const size_t len = n > 0 ? (size_t)n * elem : 0;
    if (placement == 0) return data + elem;
    return data + bytes - len;
  }
};

inline const char* placement_name(int placement) {
  return placement == 0 ? "misaligned (one element past an aligned start)" : "ends at a guard page";
}

// ---------------------------------------------------------------------------------------------
struct InputBase {
  const char* name;
  explicit InputBase(const char* nm) : name(nm) {}
  virtual ~InputBase() = default;
  virtual void describe(FILE* f) const = 0;
  virtual int patterns() const = 0;
};

template <class T> struct Input : InputBase {
  Arena arena;
  T* ptr = nullptr;
  int64_t n = 0;
  int pattern = 0;
  int index;
  Input(const char* nm, int idx, int64_t max_n) : InputBase(nm), arena((size_t)(max_n + 1) * sizeof(T)), index(idx) {}
  int patterns() const override { return pattern_count<T>(g_ctx.tolerance); }
  T* fill(int64_t length, int p, int placement) {
    n = length > 0 ? length : 0;
    pattern = p % patterns();
    ptr = (T*)arena.place(placement, sizeof(T), n);
    Rng r(mix(mix((uint64_t)n, (uint64_t)p), (uint64_t)index * 7919u + 1u));
    if constexpr (std::is_floating_point_v<T>) {
      fill_float<T>(ptr, n, pattern, r, g_ctx.tolerance);
      for (int64_t i = 0; i < n; ++i)
        if (std::isfinite(ptr[i])) g_ctx.abs_sum += std::fabs((double)ptr[i]), g_ctx.abs_max = std::max(g_ctx.abs_max, std::fabs((double)ptr[i]));
    } else {
      fill_int<T>(ptr, n, pattern, r);
    }
    return ptr;
  }
  void describe(FILE* f) const override {
    char buf[96];
    fprintf(f, "  input %s: %" PRId64 " elements at %p, pattern \"%s\"\n    [", name, n, (const void*)ptr,
            pattern_name<T>(pattern, g_ctx.tolerance));
    const int64_t head = n <= 24 ? n : 16;
    for (int64_t i = 0; i < head; ++i) {
      format_short(buf, sizeof buf, ptr[i]);
      fprintf(f, "%s%s", i ? ", " : "", buf);
    }
    if (head < n) {
      fprintf(f, ", ... ");
      for (int64_t i = n - 4; i < n; ++i) {
        format_short(buf, sizeof buf, ptr[i]);
        fprintf(f, ", %s", buf);
      }
    }
    fprintf(f, "]\n");
    if (n == 0) return;
    // where the extremes are (first and last), the NaN count for floats
    int64_t first_max = -1, last_max = -1, first_min = -1, last_min = -1, nans = 0;
    for (int64_t i = 0; i < n; ++i) {
      const T x = ptr[i];
      if constexpr (std::is_floating_point_v<T>) {
        if (std::isnan(x)) {
          ++nans;
          continue;
        }
      }
      if (first_max < 0 || x > ptr[first_max]) first_max = i;
      if (last_max < 0 || x >= ptr[last_max]) last_max = i;
      if (first_min < 0 || x < ptr[first_min]) first_min = i;
      if (last_min < 0 || x <= ptr[last_min]) last_min = i;
    }
    if (first_max >= 0) {
      char lo[96], hi[96];
      format_short(hi, sizeof hi, ptr[first_max]);
      format_short(lo, sizeof lo, ptr[first_min]);
      fprintf(f, "    maximum %s at %" PRId64 " (first) .. %" PRId64 " (last); minimum %s at %" PRId64
                 " (first) .. %" PRId64 " (last)",
              hi, first_max, last_max, lo, first_min, last_min);
    }
    if (std::is_floating_point_v<T>) fprintf(f, "%sNaN elements: %" PRId64, first_max >= 0 ? "; " : "    ", nans);
    fprintf(f, "\n");
  }
};

// ---------------------------------------------------------------------------------------------
struct Run {
  std::vector<InputBase*> inputs;
  std::vector<int64_t> lengths;
  uint64_t cases = 0;
  bool failed = false;
  char report[4096] = {0};

  Run(const char* file, const char* function, bool tolerance, int64_t min_n, bool signed_n, int ulps = 0, int degree = 1) {
    g_ctx.degree = degree;
    g_ctx.file = file;
    g_ctx.function = function;
    g_ctx.tolerance = tolerance;
    g_ctx.ulps = ulps;
    const char* v = getenv("SIMDGEN_VARIANT");
    g_ctx.variant = v ? v : "";
    if (signed_n)
      for (int64_t n : {-1000, -2, -1})
        if (n >= min_n) lengths.push_back(n);
    // Under emulation (SIMDGEN_EXEC_EMULATED=1, set by the qemu tests) and for every variant but
    // the first run_corpus.py runs (SIMDGEN_LIFT_THIN=1) lengths 0..80, then only those next to
    // multiples of 16 (every vector and unroll boundary of every element width), and no 100000
    // (nine tenths of a native run; 4097 still crosses every block and tail).
    const char* emulated = getenv("SIMDGEN_EXEC_EMULATED");
    const char* later_variant = getenv("SIMDGEN_LIFT_THIN");
    const bool thin = (emulated && emulated[0] == '1') || (later_variant && later_variant[0] == '1');
    for (int64_t n = 0; n <= 300; ++n)
      if (n >= min_n && (!thin || n <= 80 || n % 16 <= 1 || n % 16 == 15)) lengths.push_back(n);
    lengths.push_back(4097);
    if (!thin) lengths.push_back(100000);
    signal(SIGSEGV, on_fault);
    signal(SIGBUS, on_fault);
  }
  static int64_t max_length() { return 100000; }

  int patterns() const {
    int p = 1;
    for (const InputBase* in : inputs) p = in->patterns() > p ? in->patterns() : p;
    return p;
  }

  void start(int64_t n, int pattern, int placement) {
    ++cases;
    g_ctx.case_no = cases;
    g_ctx.n = n;
    g_ctx.pattern = pattern;
    g_ctx.placement = placement_name(placement);
    g_ctx.abs_sum = 0;
    g_ctx.abs_max = 1;
    g_ctx.scalars[0] = 0;
    report[0] = 0;
  }

  template <class T> T scalar(int index, const char* name) {
    const T v = scalar_value<T>(mix(g_ctx.case_no * 31u + 17u, (uint64_t)index), g_ctx.tolerance);
    char buf[128], item[192];
    format_value(buf, sizeof buf, v);
    snprintf(item, sizeof item, "%s%s = %s", g_ctx.scalars[0] ? ", " : "", name, buf);
    append(g_ctx.scalars, sizeof g_ctx.scalars, item);
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isfinite(v)) g_ctx.abs_sum += std::fabs((double)v), g_ctx.abs_max = std::max(g_ctx.abs_max, std::fabs((double)v));
    }
    return v;
  }

  template <class T> T output_init(int index) { return output_initial<T>(mix(g_ctx.case_no, (uint64_t)index + 101u)); }

  template <class T> bool equal(T a, T b) const {
    if constexpr (std::is_floating_point_v<T>) {
      if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
      if (a == b) return true;  // the same value, or -0.0 and +0.0
      if (g_ctx.ulps > 0 && !std::isinf(a) && !std::isinf(b)) {
        const T big = std::fabs(a) > std::fabs(b) ? std::fabs(a) : std::fabs(b);
        const int e = big < std::numeric_limits<T>::min() ? std::numeric_limits<T>::min_exponent - 1 : std::ilogb(big);
        const double ulp = std::ldexp(1.0, e - (std::numeric_limits<T>::digits - 1));
        return std::fabs((double)a - (double)b) <= g_ctx.ulps * ulp;
      }
      if (!g_ctx.tolerance || std::isinf(a) || std::isinf(b)) return false;
      const double rel = sizeof(T) == 4 ? 1e-5 : 1e-13;
      const double tiny = (double)std::numeric_limits<T>::min() * 16;
      // Products: each term rounds on its own, and the loop's own sum drifts by up to n units of
      // rounding of the terms (ties patterns round one way), so the bound of both sums, 2 n eps.
      const double eps = std::numeric_limits<T>::epsilon() / 2;
      const double r = g_ctx.degree > 1 ? std::max(rel, 2 * (double)g_ctx.n * eps) : rel;
      return std::fabs((double)a - (double)b) <= r * g_ctx.abs_sum * std::pow(2 * g_ctx.abs_max, g_ctx.degree - 1) + tiny;
    } else {
      return a == b;
    }
  }

  // Compare one result; remember a description of a mismatch.
  template <class T> bool same(const char* what, T original, T lifted) {
    if (equal(original, lifted)) return true;
    char a[128], b[128], line[512];
    format_value(a, sizeof a, original);
    format_value(b, sizeof b, lifted);
    snprintf(line, sizeof line, "  %s: original %s, lifted %s%s\n", what, a, b,
             (g_ctx.tolerance || g_ctx.ulps) && std::is_floating_point_v<T> ? " (beyond the tolerance)" : "");
    append(report, sizeof report, line);
    return false;
  }

  int fail() {
    fprintf(stderr, "DIFFERENTIAL MISMATCH (original vs rewritten with the lifted kernels)\n");
    print_case(stderr);
    for (const InputBase* in : inputs) in->describe(stderr);
    if (g_ctx.tolerance) fprintf(stderr, "  tolerance: S = sum |x| = %.17g, M = %.17g, D = %d\n", g_ctx.abs_sum, g_ctx.abs_max, g_ctx.degree);
    fputs(report, stderr);
    fflush(stderr);
    return 1;
  }
};

}  // namespace lh

#endif  // SIMDGEN_TESTS_LIFT_HARNESS_H
