// SPDX-License-Identifier: Apache-2.0
//
// Driver for instruction counts under qemu (bench/arm_icount/run.py).
//
//   icount_main KERNEL POLICY NMAX every|sampled count|check
//
// count: calls one variant for every n of a list (0 first), with icount_mark(n) before each call
// and icount_mark(-1) after the last one, then exits. run.py traces this with
// `qemu-aarch64 -singlestep -d exec,nochain` (one "Trace" line per executed instruction) and
// counts the lines between consecutive markers; the n = 0 segment is the call overhead, which
// it subtracts.
// check: the same calls without markers, each result checked against a plain reference (run.py
// runs this untraced first, so a wrong kernel is never reported, and the slow traced run
// executes only the counted calls).
//
// stdout: "sve_vl_bits B", "ns 0 1 2 ..." (the order of the calls), then "ok" (exit 0) or a
// mismatch (exit 1).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <sys/auxv.h>
#include <sys/prctl.h>

#include "hand_acle.h"
#include "rowsum_f32_pred.h"
#include "rowsum_f32_scal.h"
#include "rowsum_i8_pred.h"
#include "rowsum_i8_scal.h"
#include "f32_to_u8_pred.h"
#include "f32_to_u8_scal.h"
#include "strided3_pred.h"
#include "strided3_scal.h"
#include "times_two_pred.h"
#include "times_two_scal.h"
#include "u8_to_f32_pred.h"
#include "u8_to_f32_scal.h"

// The marker: never inlined, so its first instruction (a `ret`) has one address that run.py
// finds with nm. The asm keeps the call (and its argument) from being dropped.
extern "C" __attribute__((noinline)) void icount_mark(long n) { __asm__ volatile("" : : "r"(n) : "memory"); }

namespace {

enum class Kind { times_two, rowsum_i8, rowsum_f32, u8_to_f32, f32_to_u8, strided3 };

// Every kernel has the shape f(const T* in, int64_t n, U* out); AAPCS64 passes the three
// arguments in x0, x1, x2 whatever the pointee types, so one pointer type calls them all.
using AnyFn = void (*)(const void*, int64_t, void*);

struct Entry {
  const char* kernel;
  const char* policy;
  Kind kind;
  AnyFn fn;
};

template <typename F>
AnyFn any(F* f) {
  return reinterpret_cast<AnyFn>(f);
}

constexpr int64_t kSlack = 256;  // poisoned elements after the n written ones
constexpr int64_t kSlackBytes = 256;

const Entry kEntries[] = {
    {"times_two", "sve_predicated", Kind::times_two, any(times_two_pred_sve)},
    {"times_two", "sve_cleanup", Kind::times_two, any(times_two_scal_sve)},
    {"times_two", "neon_predicated", Kind::times_two, any(times_two_pred_neon)},
    {"times_two", "neon_cleanup", Kind::times_two, any(times_two_scal_neon)},
    {"times_two", "acle_sve_predicated", Kind::times_two, any(acle_sve_predicated)},
    {"times_two", "acle_sve_cleanup", Kind::times_two, any(acle_sve_cleanup)},
    {"times_two", "acle_neon_cleanup", Kind::times_two, any(acle_neon_cleanup)},
    {"rowsum_i8", "sve_predicated", Kind::rowsum_i8, any(rowsum_i8_pred_sve)},
    {"rowsum_i8", "sve_cleanup", Kind::rowsum_i8, any(rowsum_i8_scal_sve)},
    {"rowsum_i8", "neon_predicated", Kind::rowsum_i8, any(rowsum_i8_pred_neon)},
    {"rowsum_i8", "neon_cleanup", Kind::rowsum_i8, any(rowsum_i8_scal_neon)},
    {"rowsum_i8", "neon_dotprod_predicated", Kind::rowsum_i8, any(rowsum_i8_pred_neon_dotprod)},
    {"rowsum_i8", "neon_dotprod_cleanup", Kind::rowsum_i8, any(rowsum_i8_scal_neon_dotprod)},
    {"rowsum_f32", "sve_predicated", Kind::rowsum_f32, any(rowsum_f32_pred_sve)},
    {"rowsum_f32", "sve_cleanup", Kind::rowsum_f32, any(rowsum_f32_scal_sve)},
    {"rowsum_f32", "neon_predicated", Kind::rowsum_f32, any(rowsum_f32_pred_neon)},
    {"rowsum_f32", "neon_cleanup", Kind::rowsum_f32, any(rowsum_f32_scal_neon)},
    // Element widths differ: SVE (bytes unpacked in 32-bit containers), NEON (fractional vectors)
    // and the one-element code both ran before (the scalar variant).
    {"strided3", "sve_predicated", Kind::strided3, any(strided3_pred_sve)},
    {"strided3", "sve_cleanup", Kind::strided3, any(strided3_scal_sve)},
    {"strided3", "neon_predicated", Kind::strided3, any(strided3_pred_neon)},
    {"strided3", "neon_cleanup", Kind::strided3, any(strided3_scal_neon)},
    {"u8_to_f32", "sve_predicated", Kind::u8_to_f32, any(u8_to_f32_pred_sve)},
    {"u8_to_f32", "sve_cleanup", Kind::u8_to_f32, any(u8_to_f32_scal_sve)},
    {"f32_to_u8", "sve_predicated", Kind::f32_to_u8, any(f32_to_u8_pred_sve)},
    {"f32_to_u8", "sve_cleanup", Kind::f32_to_u8, any(f32_to_u8_scal_sve)},
    {"u8_to_f32", "neon_predicated", Kind::u8_to_f32, any(u8_to_f32_pred_neon)},
    {"u8_to_f32", "neon_cleanup", Kind::u8_to_f32, any(u8_to_f32_scal_neon)},
    {"u8_to_f32", "neon_one_element", Kind::u8_to_f32, any(u8_to_f32_pred_scalar)},
    {"f32_to_u8", "neon_predicated", Kind::f32_to_u8, any(f32_to_u8_pred_neon)},
    {"f32_to_u8", "neon_cleanup", Kind::f32_to_u8, any(f32_to_u8_scal_neon)},
    {"f32_to_u8", "neon_one_element", Kind::f32_to_u8, any(f32_to_u8_pred_scalar)},
};

// The bytes past the n elements of `bytes_per` bytes still hold the NaN poison's bytes.
bool untouched(const void* out, int64_t n, int bytes_per) {
  static const float poison = NAN;
  const uint8_t* o = static_cast<const uint8_t*>(out);
  for (int64_t k = n * bytes_per; k < n * bytes_per + kSlackBytes; ++k)
    if (o[k] != reinterpret_cast<const uint8_t*>(&poison)[k % 4])
      return std::printf("n=%lld: byte %lld written past the end\n", (long long)n, (long long)k), false;
  return true;
}


bool check(const Entry& e, const void* in, int64_t n, const void* out) {
  switch (e.kind) {
    case Kind::times_two: {
      const float* a = static_cast<const float*>(in);
      const float* b = static_cast<const float*>(out);
      for (int64_t i = 0; i < n; ++i)
        if (b[i] != a[i] * 2.0f) return std::printf("n=%lld: B[%lld] = %g, want %g\n", (long long)n, (long long)i, b[i], a[i] * 2.0f), false;
      for (int64_t i = n; i < n + kSlack; ++i)
        if (!std::isnan(b[i])) return std::printf("n=%lld: B[%lld] written past the end\n", (long long)n, (long long)i), false;
      return true;
    }
    case Kind::strided3: {
      const uint8_t* a = static_cast<const uint8_t*>(in);
      const uint8_t* b = static_cast<const uint8_t*>(out);
      for (int64_t i = 0; i < n; ++i)
        if (b[i] != uint8_t(a[3 * i] + 1)) return std::printf("n=%lld: y[%lld] = %d, want %d\n", (long long)n, (long long)i, b[i], uint8_t(a[3 * i] + 1)), false;
      return untouched(out, n, 1);
    }
    case Kind::rowsum_i8: {
      const int8_t* a = static_cast<const int8_t*>(in);
      int32_t want = 0;
      for (int64_t i = 0; i < n; ++i) want += a[i];
      int32_t got = *static_cast<const int32_t*>(out);
      if (got != want) return std::printf("n=%lld: sum %d, want %d\n", (long long)n, got, want), false;
      return true;
    }
    case Kind::rowsum_f32: {
      const float* a = static_cast<const float*>(in);
      double want = 0, mag = 0;
      for (int64_t i = 0; i < n; ++i) want += a[i], mag += std::fabs(a[i]);
      float got = *static_cast<const float*>(out);
      if (!(std::fabs(got - want) <= 1e-5 * mag + 1e-30)) return std::printf("n=%lld: sum %g, want %g\n", (long long)n, got, want), false;
      return true;
    }
    case Kind::u8_to_f32: {
      const uint8_t* a = static_cast<const uint8_t*>(in);
      const float* y = static_cast<const float*>(out);
      for (int64_t i = 0; i < n; ++i) {
        const float want = std::fma(static_cast<float>(a[i]), 0.00390625f, -0.5f);
        if (y[i] != want) return std::printf("n=%lld: y[%lld] = %g, want %g\n", (long long)n, (long long)i, y[i], want), false;
      }
      return untouched(out, n, 4);
    }
    case Kind::f32_to_u8: {
      const float* a = static_cast<const float*>(in);
      const uint8_t* q = static_cast<const uint8_t*>(out);
      for (int64_t i = 0; i < n; ++i) {
        const float v = std::nearbyint(a[i] * 64.0f);
        const uint8_t want = v < 0.0f ? 0 : v > 255.0f ? 255 : static_cast<uint8_t>(v);
        if (q[i] != want) return std::printf("n=%lld: q[%lld] = %d, want %d\n", (long long)n, (long long)i, q[i], want), false;
      }
      return untouched(out, n, 1);
    }
  }
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::fprintf(stderr, "usage: %s KERNEL POLICY NMAX every|sampled count|check\n  entries:\n", argv[0]);
    for (const Entry& e : kEntries) std::fprintf(stderr, "    %s %s\n", e.kernel, e.policy);
    return 2;
  }
  const Entry* entry = nullptr;
  for (const Entry& e : kEntries)
    if (std::strcmp(e.kernel, argv[1]) == 0 && std::strcmp(e.policy, argv[2]) == 0) entry = &e;
  if (!entry) return std::fprintf(stderr, "unknown kernel/policy %s %s\n", argv[1], argv[2]), 2;
  const int64_t nmax = std::atoll(argv[3]);
  const bool sampled = std::strcmp(argv[4], "sampled") == 0;
  const bool count = std::strcmp(argv[5], "count") == 0;

  // n = 0 first (the overhead); sampled: every n up to 256, then every 8, plus the table's
  // sizes and nmax.
  std::vector<int64_t> ns;
  for (int64_t n = 0; n <= nmax; ++n)
    if (!sampled || n <= 256 || n % 8 == 0 || n == 17 || n == 100 || n == 1000 || n == nmax) ns.push_back(n);

  // Inputs: small values (i8 sums cannot overflow, f32 products and sums are exact enough).
  std::vector<int8_t> in_i8(3 * nmax + kSlack);  // strided3 reads every third byte
  std::vector<float> in_f32(nmax + kSlack);
  for (int64_t i = 0; i < 3 * nmax + kSlack; ++i) in_i8[i] = (int8_t)((i * 37 + 11) % 255 - 127);
  for (int64_t i = 0; i < nmax + kSlack; ++i) in_f32[i] = (float)((i * 13 + 5) % 97 - 48) / 16.0f;
  std::vector<float> out(nmax + kSlack);
  const bool bytes_in = entry->kind == Kind::rowsum_i8 || entry->kind == Kind::u8_to_f32 || entry->kind == Kind::strided3;
  const void* in = bytes_in ? (const void*)in_i8.data() : (const void*)in_f32.data();
  void* outp = out.data();

  // The SVE vector length qemu gives this process (0: no SVE), for run.py to check.
  long vl_bytes = 0;
#ifdef HWCAP_SVE
  if (getauxval(AT_HWCAP) & HWCAP_SVE) vl_bytes = prctl(PR_SVE_GET_VL) & 0xffff;  // PR_SVE_VL_LEN_MASK
#endif
  std::printf("sve_vl_bits %ld\n", vl_bytes * 8);
  std::printf("ns");
  for (int64_t n : ns) std::printf(" %lld", (long long)n);
  std::printf("\n");
  std::fflush(stdout);

  // Counted phase: marker, call, marker, call, ..., final marker. The loop body is the same
  // for every n, so the n = 0 segment is exactly the overhead of the others.
  AnyFn volatile fn_slot = entry->fn;
  AnyFn fn = fn_slot;
  if (count) {
    for (int64_t n : ns) {
      icount_mark((long)n);
      fn(in, n, outp);
    }
    icount_mark(-1);
    std::printf("ok\n");
    return 0;
  }

  for (int64_t n : ns) {
    for (float& x : out) x = NAN;
    fn(in, n, outp);
    if (!check(*entry, in, n, outp)) return 1;
  }
  std::printf("ok\n");
  return 0;
}
