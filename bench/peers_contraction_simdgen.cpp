// SPDX-License-Identifier: Apache-2.0
// The generated contraction kernels, from bench/contraction/specs at build
// time (CMakeLists.txt): the runtime dispatcher ("simdgen") and each x86
// variant by name ("simdgen.avx512", "simdgen.avx2_fma", ...) that this CPU
// runs.
#include <memory>
#include <string>

#include "peers_contraction.h"

#include "bench_matmul_bt_f32.h"
#include "bench_matmul_f32.h"
#include "bench_seed_conv.h"
#include "bench_seed_conv_schedule.h"

namespace simdgen_bench {
namespace {

// Whether to time a variant, by its suffix: this CPU runs it (what the
// generated dispatcher checks; unknown suffixes are left out rather than risk
// SIGILL).
// The scalar variants are left out: seconds per call at these sizes, and no
// peer to compare them with.
bool cpu_runs(const std::string& variant) {
  if (variant == "scalar") return false;
  const bool avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (variant == "avx2" || variant == "avx2_fma") return avx2_fma;
  if (variant == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
           __builtin_cpu_supports("bmi2") && avx2_fma;
  return false;
}

using Matmul = void (*)(const float*, const float*, int64_t, int64_t, int64_t, int64_t, int64_t,
                        int64_t, float*);
using ConvFn = void (*)(const float*, const float*, const float*, float*);

Peer matmul_peer(const std::string& name, Matmul f) {
  return {name, [f](const Problem& p) {
            return Prepared{[f, p] { f(p.a, p.b, p.m, p.n, p.k, p.k, p.n, p.n, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

// The same product from B stored transposed (bt[n][k]): the copy is made once, untimed, as a
// caller holding B^T would have it.
Peer matmul_bt_peer(const std::string& name, Matmul f) {
  return {name, [f](const Problem& p) {
            auto bt = std::make_shared<std::vector<float>>(static_cast<size_t>(p.n * p.k));
            for (int64_t k = 0; k < p.k; ++k)
              for (int64_t j = 0; j < p.n; ++j) (*bt)[static_cast<size_t>(j * p.k + k)] = p.b[k * p.n + j];
            return Prepared{[f, p, bt] { f(p.a, bt->data(), p.m, p.n, p.k, p.k, p.k, p.n, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

Peer conv_peer(const std::string& name, ConvFn f) {
  return {name, [f](const Problem& p) {
            // Generated signature order: filter, input, bias, output.
            return Prepared{[f, p] { f(p.b, p.a, p.bias, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

}  // namespace

std::string simdgen_contraction_info() {
  return std::string("dispatchers run bench_matmul_f32_") + bench_matmul_f32_variant() + ", bench_matmul_bt_f32_" +
         bench_matmul_bt_f32_variant() + ", bench_seed_conv_" + bench_seed_conv_variant() + ", bench_seed_conv_schedule_" +
         bench_seed_conv_schedule_variant();
}

std::vector<Peer> simdgen_matmul_peers() {
  std::vector<Peer> peers;
  peers.push_back(matmul_peer("simdgen", bench_matmul_f32));
#define SIMDGEN_BENCH_VARIANT(v) \
  if (cpu_runs(#v)) peers.push_back(matmul_peer("simdgen." #v, bench_matmul_f32_##v));
  SIMDGEN_bench_matmul_f32_VARIANTS(SIMDGEN_BENCH_VARIANT)
#undef SIMDGEN_BENCH_VARIANT
  peers.push_back(matmul_bt_peer("simdgen_bt", bench_matmul_bt_f32));
  return peers;
}

std::vector<Peer> simdgen_conv_peers() {
  std::vector<Peer> peers;
  peers.push_back(conv_peer("simdgen", bench_seed_conv));
#define SIMDGEN_BENCH_VARIANT(v) \
  if (cpu_runs(#v)) peers.push_back(conv_peer("simdgen." #v, bench_seed_conv_##v));
  SIMDGEN_bench_seed_conv_VARIANTS(SIMDGEN_BENCH_VARIANT)
#undef SIMDGEN_BENCH_VARIANT
  peers.push_back(conv_peer("simdgen_seed_schedule", bench_seed_conv_schedule));
  return peers;
}

}  // namespace simdgen_bench
