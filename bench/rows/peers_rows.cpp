// SPDX-License-Identifier: Apache-2.0
// The row-kernel benchmark's list of peers (peers_rows.h), from each library's table, and the
// context its results depend on. Compiled with the project's default flags (no -march): it only
// takes addresses and asks the CPU.
#include "peers_rows.h"

#include <immintrin.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

namespace simdgen_bench_rows {

namespace {

// What a table entry's `feature` asks of the CPU: the generated variants' names (their
// dispatchers' checks) and SimSIMD's targets in the same words.
bool cpu_supports(const std::string& feature) {
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("bmi2") && __builtin_cpu_supports("fma");
  if (feature.empty() || feature == "scalar") return true;
  if (feature == "avx512") return avx512;
  if (feature == "avx512_vnni") return avx512 && __builtin_cpu_supports("avx512vnni");
  if (feature == "avx512_vpopcnt")
    return avx512 && __builtin_cpu_supports("avx512vpopcntdq") && __builtin_cpu_supports("avx512bitalg");
  if (feature == "avx2_fma") return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (feature == "avx2") return __builtin_cpu_supports("avx2");
  if (feature == "avx2_avx_vnni") return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("avxvnni");
  std::fprintf(stderr, "simdgen_bench_rows: unknown feature '%s': treated as unsupported\n", feature.c_str());
  return false;
}

std::vector<Peer> make_peers() {
  std::vector<Peer> v;
  auto add = [&](std::span<const RowsFn> table, const std::string& impl_if_unnamed) {
    for (const RowsFn& f : table) {
      const std::string impl = *f.impl ? f.impl : impl_if_unnamed;
      v.push_back({f.kase, impl, impl.substr(0, impl.find('.')), f.call, cpu_supports(f.feature), f.note});
    }
  };
  // simdgen: the dispatchers, and the other vector variants (not the scalar one, nor the one the
  // dispatcher runs: the same code; except for the vector cases, where its direct call shows what
  // the dispatcher's indirect call costs at n = 128).
  const auto dispatch = simdgen_dispatch();
  for (const RowsFn& f : simdgen_rows_functions()) {
    const std::string feature = f.feature, kase = f.kase;
    if (feature == "scalar") continue;
    bool chosen = false;
    for (const auto& [k, variant] : dispatch) chosen |= k == kase && variant == feature;
    const bool vector =
        kase == "dot_f32" || kase == "l2sq_f32" || kase == "cos_f32" || kase == "dot_i8" || kase == "hamming_u64";
    if (!chosen || vector) add(std::span<const RowsFn>(&f, 1), "");
  }
  add(plain_rows_functions_clang19(), "plain.clang19");
  add(plain_rows_functions_gcc12(), "plain.gcc12");
  add(plain_rows_functions_clang19_fastmath(), "plain.clang19_fastmath");
  add(plain_rows_functions_gcc12_fastmath(), "plain.gcc12_fastmath");
  add(eigen_rows_functions(), "eigen");
#if SIMDGEN_BENCH_ROWS_HIGHWAY
  add(highway_rows_functions(), "hwy");
#endif
#if SIMDGEN_BENCH_ROWS_OPENBLAS
  add(openblas_rows_functions(), "openblas");
#endif
#if SIMDGEN_BENCH_ROWS_ONEDNN
  add(onednn_rows_functions(), "onednn");
#endif
#if SIMDGEN_BENCH_ROWS_SIMSIMD
  add(simsimd_rows_functions(), "simsimd");
#endif
  return v;
}

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

std::string cpuinfo(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.compare(0, key.size(), key) != 0) continue;
    const size_t colon = line.find(':');
    if (colon != std::string::npos && line.find_first_not_of(" \t", key.size()) == colon)
      return line.substr(line.find_first_not_of(' ', colon + 1));
  }
  return "?";
}

// The sizes Linux reports for core 0's caches ("32K"), as bytes: sysfs, since sysconf reports the
// host's L3 in this KVM guest.
std::string cache_bytes(int index) {
  const std::string s = first_line("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
  if (s.empty()) return "?";
  long long v = std::atoll(s.c_str());
  if (s.back() == 'K') v <<= 10;
  if (s.back() == 'M') v <<= 20;
  return std::to_string(v);
}

}  // namespace

const std::vector<Peer>& all_peers() {
  static const std::vector<Peer> peers = make_peers();
  return peers;
}

std::vector<std::pair<std::string, std::string>> context() {
  char mxcsr[16];
  // The control bits only: 0x1f80 is the default (no flush-to-zero, no denormals-are-zero).
  std::snprintf(mxcsr, sizeof mxcsr, "0x%04x", _mm_getcsr() & ~0x3fu);
  const char* omp = std::getenv("OMP_NUM_THREADS");
  std::vector<std::pair<std::string, std::string>> c = {
      {"cpu_model_name", cpuinfo("model name")},
      {"cpu_family", cpuinfo("cpu family")},
      {"cpu_model", cpuinfo("model")},
      {"l1d_bytes", cache_bytes(0)},
      {"l2_bytes", cache_bytes(2)},
      {"l3_bytes", cache_bytes(3)},
#if SIMDGEN_BENCH_ROWS_HIGHWAY
      {"highway_static_target", highway_target()},
#else
      {"highway_static_target", "(not built: hwy/contrib/dot missing)"},
#endif
#if SIMDGEN_BENCH_ROWS_OPENBLAS
      {"openblas", openblas_config()},
#else
      {"openblas", "(not built: libopenblas-serial-dev missing)"},
#endif
#if SIMDGEN_BENCH_ROWS_ONEDNN
      {"onednn", onednn_config()},
#else
      {"onednn", "(not built: libdnnl-dev missing)"},
#endif
#if SIMDGEN_BENCH_ROWS_SIMSIMD
      {"simsimd", SIMDGEN_BENCH_ROWS_SIMSIMD_VERSION},
#else
      {"simsimd", "(not built: npm pack simsimd@6 unavailable)"},
#endif
      {"omp_num_threads_env", omp ? omp : "(unset)"},
      {"mxcsr", mxcsr},
  };
  for (const auto& [kase, variant] : simdgen_dispatch()) c.push_back({"simdgen_dispatch_" + kase, variant});
  return c;
}

}  // namespace simdgen_bench_rows
