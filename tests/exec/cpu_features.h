// Which generated variants ("scalar", "avx2", "avx512_vnni", "avx2_fma", "avx2_avx_vnni", ...)
// the running CPU can execute, from the parts of the variant suffix.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace simdgen_test {

enum class CpuSupport { yes, no, unknown_suffix };

inline bool cpu_has(std::string_view feature) {
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (feature == "avx2") return __builtin_cpu_supports("avx2");
  if (feature == "fma") return __builtin_cpu_supports("fma");
  if (feature == "avx512")
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  if (feature == "avx512vnni") return __builtin_cpu_supports("avx512vnni");
  if (feature == "avxvnni") return __builtin_cpu_supports("avxvnni");
#endif
  (void)feature;
  return false;
}

// Split "avx2_avx_vnni" into required features {avx2, avxvnni}; "dispatch" and "scalar" need none.
inline CpuSupport variant_support(std::string_view suffix) {
  if (suffix == "scalar" || suffix == "dispatch") return CpuSupport::yes;
  std::vector<std::string> parts;
  for (size_t b = 0; b <= suffix.size();) {
    size_t e = suffix.find('_', b);
    if (e == std::string_view::npos) e = suffix.size();
    parts.emplace_back(suffix.substr(b, e - b));
    b = e + 1;
  }
  const std::string isa = parts[0];
  if (isa != "avx2" && isa != "avx512") return CpuSupport::unknown_suffix;
  bool ok = cpu_has(isa);
  for (size_t i = 1; i < parts.size(); ++i) {
    std::string f = parts[i];
    if (f == "avx" && i + 1 < parts.size() && parts[i + 1] == "vnni") f = "avxvnni", ++i;
    if (f == "vnni") f = isa == "avx512" ? "avx512vnni" : "avxvnni";
    if (f != "fma" && f != "avxvnni" && f != "avx512vnni") return CpuSupport::unknown_suffix;
    ok = ok && cpu_has(f);
  }
  return ok ? CpuSupport::yes : CpuSupport::no;
}

}  // namespace simdgen_test
