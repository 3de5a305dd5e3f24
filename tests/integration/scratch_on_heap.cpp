// SPDX-License-Identifier: Apache-2.0
// Kernels with a packed panel (up to 160 KiB of scratch) built with SIMDGEN_SCRATCH_ON_HEAP and
// called on a thread whose stack is 64 KiB: the panel must come from the heap (on the stack the
// call overflows), and the results must equal independent scalar references. The variant is the
// dispatcher's (SIMDGEN_VARIANT set by scratch_on_heap.sh).
#include <pthread.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "matmul_f32.h"
#include "matmul_u8i8_i32.h"

namespace {

int failures = 0;

void check(bool ok, const char* what, int64_t i, int64_t j) {
  if (!ok && failures++ < 5) std::fprintf(stderr, "FAIL: %s differs at [%lld][%lld]\n", what, (long long)i, (long long)j);
}

// Shapes with several panel blocks along k and tails in every dimension.
void* run(void*) {
  const int64_t m = 37, n = 45, k = 1100;
  std::vector<float> a(m * k), b(k * n), c(m * n, -1.0f);
  for (int64_t x = 0; x < m * k; ++x) a[x] = static_cast<float>((x * 7) % 13) - 6.0f;
  for (int64_t x = 0; x < k * n; ++x) b[x] = static_cast<float>((x * 5) % 11) - 5.0f;
  matmul_f32(a.data(), b.data(), m, n, k, k, n, n, c.data());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double sum = 0;  // small integers: every order of the sum is exact
      for (int64_t p = 0; p < k; ++p) sum += static_cast<double>(a[i * k + p]) * b[p * n + j];
      check(c[i * n + j] == static_cast<float>(sum), "matmul_f32", i, j);
    }
  std::vector<uint8_t> qa(m * k);
  std::vector<int8_t> qb(k * n);
  std::vector<int32_t> bias(n), qc(m * n, -1);
  for (int64_t x = 0; x < m * k; ++x) qa[x] = static_cast<uint8_t>((x * 37) % 256);
  for (int64_t x = 0; x < k * n; ++x) qb[x] = static_cast<int8_t>((x * 91) % 256 - 128);
  for (int64_t j = 0; j < n; ++j) bias[j] = static_cast<int32_t>(j * 1000 - 20000);
  matmul_u8i8_i32(qa.data(), qb.data(), bias.data(), m, n, k, k, n, n, qc.data());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      int64_t sum = bias[j];
      for (int64_t p = 0; p < k; ++p) sum += static_cast<int64_t>(qa[i * k + p]) * qb[p * n + j];
      const int64_t want = sum > 1000000 ? 1000000 : sum;  // the spec's clamp (sums stay far from 2^31)
      check(qc[i * n + j] == want, "matmul_u8i8_i32", i, j);
    }
  return nullptr;
}

}  // namespace

int main() {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_attr_setstacksize(&attr, 64 * 1024) != 0) return 2;
  pthread_t thread;
  if (pthread_create(&thread, &attr, run, nullptr) != 0) return 2;
  pthread_join(thread, nullptr);
  if (failures) return 1;
  std::printf("ok %s / %s on a 64 KiB stack\n", matmul_f32_variant(), matmul_u8i8_i32_variant());
  return 0;
}
