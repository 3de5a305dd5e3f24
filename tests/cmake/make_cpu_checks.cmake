# SPDX-License-Identifier: Apache-2.0
# Writes simdgen_cpu_checks.h from `simdgen list --json` (the ISA registry): which generated
# variant suffixes ("avx2", "avx512_vnni", "avx2_avx_vnni_fma", ...) the running CPU can execute.
# Every test that picks variants reads this header, so the tests keep no ISA list of their own.
#   cmake -DSIMDGEN=<binary> -DOUT=<header> -P make_cpu_checks.cmake
foreach(v SIMDGEN OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "make_cpu_checks.cmake: -D${v}= is required")
  endif()
endforeach()

execute_process(COMMAND ${SIMDGEN} list --json OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simdgen list --json failed (${rc}):\n${err}")
endif()

# A checking function: `init` then `return <check>;` under the ISA's architecture guard.
function(check_function fname guard init check out)
  if(check STREQUAL "")
    set(check "true")
  endif()
  if(guard STREQUAL "")
    set(${out} "inline bool ${fname}() { return ${check}; }\n" PARENT_SCOPE)
  else()
    set(${out} "#if ${guard}\ninline bool ${fname}() {\n  ${init}\n  return ${check};\n}\n#else\ninline bool ${fname}() { return false; }\n#endif\n" PARENT_SCOPE)
  endif()
endfunction()

set(functions "")
set(cpu_support "")
set(isa_rows "")
string(JSON n LENGTH "${json}" targets)
math(EXPR last "${n} - 1")
foreach(i RANGE ${last})
  string(JSON isa GET "${json}" targets ${i} isa)
  string(JSON guard GET "${json}" targets ${i} arch_guard)
  string(JSON init GET "${json}" targets ${i} cpu_init)
  string(JSON check GET "${json}" targets ${i} cpu_check)
  # What the checks call (headers, a feature-bit reader), once per architecture module.
  string(JSON support GET "${json}" targets ${i} cpu_support)
  string(FIND "${cpu_support}" "${support}" seen)
  if(NOT support STREQUAL "" AND seen EQUAL -1)
    string(APPEND cpu_support "#if ${guard}\n${support}\n#endif\n")
  endif()
  check_function(isa_${isa} "${guard}" "${init}" "${check}" f)
  string(APPEND functions "${f}")
  if(guard STREQUAL "")
    string(APPEND functions "inline constexpr bool on_this_arch_${isa} = true;\n")
  else()
    string(APPEND functions "#if ${guard}\ninline constexpr bool on_this_arch_${isa} = true;\n#else\ninline constexpr bool on_this_arch_${isa} = false;\n#endif\n")
  endif()
  set(feature_rows "")
  string(JSON nf LENGTH "${json}" targets ${i} features)
  if(nf GREATER 0)
    math(EXPR lastf "${nf} - 1")
    foreach(k RANGE ${lastf})
      string(JSON fname GET "${json}" targets ${i} features ${k} name)
      string(JSON fcheck GET "${json}" targets ${i} features ${k} cpu_check)
      check_function(feature_${isa}_${fname} "${guard}" "${init}" "${fcheck}" f)
      string(APPEND functions "${f}")
      list(APPEND feature_rows "{\"${fname}\", &feature_${isa}_${fname}}")
    endforeach()
  endif()
  list(JOIN feature_rows ", " feature_rows)
  string(APPEND isa_rows "    {\"${isa}\", &isa_${isa}, on_this_arch_${isa}, {${feature_rows}}},\n")
endforeach()

set(text "// Generated at build time by tests/cmake/make_cpu_checks.cmake from `simdgen list --json` (the ISA
// registry): do not edit. Which variant suffixes the running CPU can execute.
#pragma once

#include <string_view>
#include <vector>

${cpu_support}
namespace simdgen_test {

enum class CpuSupport { yes, no, unknown_suffix };

namespace cpu_checks {

${functions}
struct Feature {
  std::string_view name;  // as in the suffix: \"avx_vnni\"
  bool (*supported)();
};
struct Isa {
  std::string_view name;
  bool (*supported)();
  bool on_this_arch;  // its arch_guard holds here: the headers declare its variants on this architecture
  std::vector<Feature> features;
};

inline const std::vector<Isa>& isas() {
  static const std::vector<Isa> table{
${isa_rows}  };
  return table;
}

}  // namespace cpu_checks

// A variant suffix is an ISA name followed by \"_feature\" parts (\"avx2_avx_vnni_fma\"): its ISA,
// or null.
inline const cpu_checks::Isa* isa_of(std::string_view suffix) {
  const cpu_checks::Isa* isa = nullptr;
  for (const auto& i : cpu_checks::isas())
    if (suffix.substr(0, i.name.size()) == i.name && (suffix.size() == i.name.size() || suffix[i.name.size()] == '_') &&
        (!isa || i.name.size() > isa->name.size()))
      isa = &i;
  return isa;
}

// Whether generated headers declare this variant on the architecture compiled for (`explain
// --json` plans the variants of every architecture). Unknown suffixes count as here, so that they
// are reported.
inline bool variant_on_this_arch(std::string_view suffix) {
  const cpu_checks::Isa* isa = isa_of(suffix);
  return !isa || isa->on_this_arch;
}

// \"dispatch\" (the kernel's own name) always runs.
inline CpuSupport variant_support(std::string_view suffix) {
  if (suffix == \"dispatch\") return CpuSupport::yes;
  const cpu_checks::Isa* isa = isa_of(suffix);
  if (!isa) return CpuSupport::unknown_suffix;
  bool ok = isa->supported();
  std::string_view rest = suffix.substr(isa->name.size());
  while (!rest.empty()) {
    rest.remove_prefix(1);  // '_'
    const cpu_checks::Feature* f = nullptr;
    for (const auto& x : isa->features)
      if (rest.substr(0, x.name.size()) == x.name && (rest.size() == x.name.size() || rest[x.name.size()] == '_') &&
          (!f || x.name.size() > f->name.size()))
        f = &x;
    if (!f) return CpuSupport::unknown_suffix;
    ok = ok && f->supported();
    rest.remove_prefix(f->name.size());
  }
  return ok ? CpuSupport::yes : CpuSupport::no;
}

}  // namespace simdgen_test
")

set(tmp "${OUT}.tmp")
file(WRITE "${tmp}" "${text}")
file(COPY_FILE "${tmp}" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${tmp}")
