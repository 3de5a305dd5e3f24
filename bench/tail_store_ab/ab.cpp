// SPDX-License-Identifier: Apache-2.0
// A/B of the AVX2 variants of generated/ at an older revision (old_*) and now, in one process:
// best of 21 interleaved rounds per case (docs/benchmarks.md, "Piecewise AVX2 tail stores").
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <vector>
extern "C" {
#define DECL(ret, name, ...) ret name(__VA_ARGS__); ret old_##name(__VA_ARGS__);
DECL(void, times_two_n_avx2, const float*, int64_t, float*)
DECL(void, map_axpby_fma_f32_avx2_fma, const float*, const float*, int64_t, float, float, float*)
DECL(void, map_u8_to_f32_fma_avx2_fma, const uint8_t*, int64_t, float, float, float*)
DECL(void, map_norm_floor_f32_avx2, const float*, const float*, int64_t, float*, float*)
DECL(void, map_select_f64_avx2, const double*, const double*, int64_t, double*, double*, double*, double*, double*)
DECL(void, map_i64_u64_rows_avx2, const int64_t*, const int64_t*, const uint64_t*, int64_t, int64_t, int64_t*, int64_t*, uint64_t*, double*)
DECL(void, map_absdiff_i16_avx2, const int16_t*, const int16_t*, int64_t, int16_t*)
DECL(void, map_blend_u8_avx2, const uint8_t*, const uint8_t*, int64_t, uint8_t*, uint8_t*, uint8_t*)
DECL(void, map_f32_to_u8_nearest_avx2, const float*, int64_t, float, uint8_t*)
DECL(void, matmul_f32_avx2_fma, const float*, const float*, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, float*)
}
alignas(64) static float fa[1 << 16], fb[1 << 16], fc[1 << 16], fd[1 << 16];
alignas(64) static double da[1 << 14], db[1 << 14], d1[1 << 14], d2[1 << 14], d3[1 << 14], d4[1 << 14], d5[1 << 14];
alignas(64) static int64_t ia[1 << 14], ib[1 << 14], is[1 << 14], im[1 << 14];
alignas(64) static uint64_t iu[1 << 14], iv[1 << 14];
alignas(64) static uint8_t u8[1 << 14], u8b[1 << 14], o1[1 << 14], o2[1 << 14], o3[1 << 14];
alignas(64) static int16_t h1[1 << 14], h2[1 << 14], h3[1 << 14];

static double timeit(const std::function<void()>& f, int reps) {
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < reps; ++r) { f(); asm volatile("" ::: "memory"); }
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / reps;
}
static void ab(const char* name, const std::function<void()>& now, const std::function<void()>& old, int reps) {
  double bn = 1e30, bo = 1e30;
  for (int round = 0; round < 21; ++round) { bo = std::min(bo, timeit(old, reps)); bn = std::min(bn, timeit(now, reps)); }
  printf("%-34s old %8.2f ns  new %8.2f ns  old/new %.2f\n", name, bo, bn, bo / bn);
}
int main() {
  for (int i = 0; i < (1 << 16); ++i) fa[i] = 0.5f + i % 7, fb[i] = 1.0f + i % 5;
  for (int i = 0; i < (1 << 14); ++i) da[i] = i % 11 - 5, db[i] = i % 3, ia[i] = i, ib[i] = 3 * i, iu[i] = i, u8[i] = uint8_t(i), u8b[i] = uint8_t(7 * i), h1[i] = int16_t(5 * i), h2[i] = int16_t(-3 * i);
  char label[64];
  for (int n : {1, 3, 7, 13, 23, 31, 47, 63, 100, 1000}) {
    snprintf(label, sizeof label, "times_two n=%d", n);
    ab(label, [&] { times_two_n_avx2(fa, n, fc); }, [&] { old_times_two_n_avx2(fa, n, fc); }, 20000);
  }
  // n drawn from 1..63 on every call: the pieces' branches mispredict, the masked store does not.
  std::vector<int> sizes(4096);
  unsigned x = 12345;
  for (int& v : sizes) x = x * 1103515245u + 12345u, v = 1 + int((x >> 16) % 63);
  ab("times_two 4096 calls, n in 1..63", [&] { for (int n : sizes) times_two_n_avx2(fa, n, fc); },
     [&] { for (int n : sizes) old_times_two_n_avx2(fa, n, fc); }, 5);
  for (int n : {5, 13, 31, 63, 1000}) {
    snprintf(label, sizeof label, "axpby n=%d", n);
    ab(label, [&] { map_axpby_fma_f32_avx2_fma(fa, fb, n, 2.f, 3.f, fc); }, [&] { old_map_axpby_fma_f32_avx2_fma(fa, fb, n, 2.f, 3.f, fc); }, 20000);
    snprintf(label, sizeof label, "u8_to_f32 n=%d", n);
    ab(label, [&] { map_u8_to_f32_fma_avx2_fma(u8, n, 2.f, 3.f, fc); }, [&] { old_map_u8_to_f32_fma_avx2_fma(u8, n, 2.f, 3.f, fc); }, 20000);
    snprintf(label, sizeof label, "norm_floor n=%d", n);
    ab(label, [&] { map_norm_floor_f32_avx2(fa, fb, n, fc, fd); }, [&] { old_map_norm_floor_f32_avx2(fa, fb, n, fc, fd); }, 20000);
    snprintf(label, sizeof label, "select_f64 n=%d", n);
    ab(label, [&] { map_select_f64_avx2(da, db, n, d1, d2, d3, d4, d5); }, [&] { old_map_select_f64_avx2(da, db, n, d1, d2, d3, d4, d5); }, 20000);
  }
  for (int n : {5, 17, 31, 47, 63, 100, 1000}) {
    snprintf(label, sizeof label, "absdiff_i16 n=%d", n);
    ab(label, [&] { map_absdiff_i16_avx2(h1, h2, n, h3); }, [&] { old_map_absdiff_i16_avx2(h1, h2, n, h3); }, 20000);
    snprintf(label, sizeof label, "blend_u8 n=%d", n);
    ab(label, [&] { map_blend_u8_avx2(u8, u8b, n, o1, o2, o3); }, [&] { old_map_blend_u8_avx2(u8, u8b, n, o1, o2, o3); }, 20000);
    snprintf(label, sizeof label, "f32_to_u8_nearest n=%d", n);
    ab(label, [&] { map_f32_to_u8_nearest_avx2(fa, n, 3.f, o1); }, [&] { old_map_f32_to_u8_nearest_avx2(fa, n, 3.f, o1); }, 20000);
  }
  for (int c : {3, 13, 61}) {
    snprintf(label, sizeof label, "i64_u64_rows 64 x %d", c);
    ab(label, [&] { map_i64_u64_rows_avx2(ia, ib, iu, 64, c, is, im, iv, d1); }, [&] { old_map_i64_u64_rows_avx2(ia, ib, iu, 64, c, is, im, iv, d1); }, 2000);
  }
  for (int s : {13, 37, 70}) {
    snprintf(label, sizeof label, "matmul %d^3", s);
    ab(label, [&] { matmul_f32_avx2_fma(fa, fb, s, s, s, s, s, s, fc); }, [&] { old_matmul_f32_avx2_fma(fa, fb, s, s, s, s, s, s, fc); }, s < 50 ? 2000 : 200);
  }
}
