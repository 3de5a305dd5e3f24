# SPDX-License-Identifier: Apache-2.0
# Writes the execution test of one spec from `simdgen explain --json`: the kernel's tensors, their
# C types, its parameters in signature order, semantics, constants and variants, and one doctest
# case per case of its family module (tests/exec/families/<family>.h). Knows no family.
#   cmake -DSIMDGEN=<binary> -DSPEC=<spec.json> -DSPEC_LABEL=specs/x.json -DFAMILIES=<dir> -DOUT=<file.cpp>
#         -P make_exec_test.cmake
foreach(v SIMDGEN SPEC SPEC_LABEL FAMILIES OUT)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "make_exec_test.cmake: -D${v}= is required")
  endif()
endforeach()

execute_process(COMMAND ${SIMDGEN} explain --json ${SPEC}
  OUTPUT_VARIABLE json ERROR_VARIABLE err RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "simdgen explain --json ${SPEC_LABEL} failed (${rc}):\n${err}")
endif()

set(ctypes i8 int8_t u8 uint8_t i16 int16_t u16 uint16_t i32 int32_t u32 uint32_t
    i64 int64_t u64 uint64_t f32 float f64 double)
function(ctype_of dtype out)
  list(FIND ctypes "${dtype}" i)
  if(i LESS 0 OR NOT dtype MATCHES "^[iuf][0-9]+$")
    message(FATAL_ERROR "${SPEC_LABEL}: dtype '${dtype}' has no C type in make_exec_test.cmake")
  endif()
  math(EXPR i "${i} + 1")
  list(GET ctypes ${i} t)
  set(${out} ${t} PARENT_SCOPE)
endfunction()

# A C++ string literal of `text`.
function(quoted text out)
  string(REPLACE "\\" "\\\\" text "${text}")
  string(REPLACE "\"" "\\\"" text "${text}")
  set(${out} "\"${text}\"" PARENT_SCOPE)
endfunction()

# "{"a", "b"}" from the JSON array at <path...>.
function(string_list out)
  string(JSON n LENGTH "${json}" ${ARGN})
  set(items "")
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON item GET "${json}" ${ARGN} ${i})
      quoted("${item}" q)
      list(APPEND items "${q}")
    endforeach()
  endif()
  list(JOIN items ", " items)
  set(${out} "{${items}}" PARENT_SCOPE)
endfunction()

string(JSON NAME GET "${json}" kernel)
string(JSON FAMILY GET "${json}" family)

# Semantics and constants: JSON objects.
foreach(obj semantics constants)
  string(JSON n LENGTH "${json}" ${obj})
  set(items "")
  if(n GREATER 0)
    math(EXPR last "${n} - 1")
    foreach(i RANGE ${last})
      string(JSON key MEMBER "${json}" ${obj} ${i})
      string(JSON value GET "${json}" ${obj} ${key})
      quoted("${key}" qk)
      if(obj STREQUAL "constants")
        list(APPEND items "{${qk}, ${value}}")
      else()
        quoted("${value}" qv)
        list(APPEND items "{${qk}, ${qv}}")
      endif()
    endforeach()
  endif()
  list(JOIN items ", " items)
  string(TOUPPER ${obj} OBJ)
  set(${OBJ} "{${items}}")
endforeach()

# Tensors: the Types members (C types by tensor name) and the driver's table.
string(JSON n LENGTH "${json}" tensors)
math(EXPR last "${n} - 1")
set(TYPES "")
set(tensors "")
foreach(i RANGE ${last})
  string(JSON tname GET "${json}" tensors ${i} name)
  string(JSON dtype GET "${json}" tensors ${i} dtype)
  string(JSON output GET "${json}" tensors ${i} output)
  string_list(extents tensors ${i} extents)
  string_list(strides tensors ${i} strides)
  ctype_of(${dtype} ct)
  string(APPEND TYPES "  using ${tname} = ${ct};\n")
  if(output)
    set(output true)
  else()
    set(output false)
  endif()
  list(APPEND tensors "{\"${tname}\", \"${dtype}\", ${output}, ${extents}, ${strides}}")
  set(ctype_${tname} ${ct})
  set(output_${tname} ${output})
endforeach()
list(JOIN tensors ",\n     " TENSORS)

# Parameters in signature order: the call's arguments and the runtime extents.
string(JSON n LENGTH "${json}" params)
math(EXPR last "${n} - 1")
set(args "")
set(extent_params "")
set(scalar_params "")
foreach(i RANGE ${last})
  string(JSON kind GET "${json}" params ${i} kind)
  string(JSON pname GET "${json}" params ${i} name)
  if(kind STREQUAL "tensor")
    string(JSON ptensor GET "${json}" params ${i} tensor)
    set(const "const ")
    if(output_${ptensor})
      set(const "")
    endif()
    list(APPEND args "b.tensor<${const}${ctype_${ptensor}}>(\"${ptensor}\")")
  elseif(kind STREQUAL "scalar")
    string(JSON pdtype GET "${json}" params ${i} dtype)
    ctype_of(${pdtype} pct)
    list(APPEND args "b.scalar<${pct}>(\"${pname}\")")
    list(APPEND scalar_params "{\"${pname}\", \"${pdtype}\"}")
  else()
    list(APPEND args "b.extent(\"${pname}\")")
    list(APPEND extent_params "\"${pname}\"")
  endif()
endforeach()
list(JOIN args ", " ARGS)
list(JOIN extent_params ", " EXTENT_PARAMS)
list(JOIN scalar_params ", " SCALAR_PARAMS)

# The variants the generator plans, best first.
string(JSON n LENGTH "${json}" variants)
math(EXPR last "${n} - 1")
set(planned "")
foreach(i RANGE ${last})
  string(JSON suffix GET "${json}" variants ${i} suffix)
  list(APPEND planned "\"${suffix}\"")
endforeach()
list(JOIN planned ", " PLANNED)

if(EXISTS ${FAMILIES}/${FAMILY}.h)
  set(FAMILY_INCLUDE "#include \"${FAMILY}.h\"  // tests/exec/families: the family's cases, data and reference")
else()
  set(FAMILY_INCLUDE "#error \"no exec-test module for family '${FAMILY}': add tests/exec/families/${FAMILY}.h\"")
endif()

set(text "// Generated at build time by tests/exec/make_exec_test.cmake from `simdgen explain --json ${SPEC_LABEL}`:
// do not edit.
#include \"${NAME}.h\"

${FAMILY_INCLUDE}
#include \"kernel.h\"

#ifndef SIMDGEN_${NAME}_VARIANTS
#error \"generated/${NAME}.h must define SIMDGEN_${NAME}_VARIANTS(X), listing its variant suffixes\"
#endif

namespace {

// The C types of the kernel's tensors, by tensor name.
struct Types {
${TYPES}};

using Fn = decltype(&${NAME});

// One call: the plan's parameters in signature order.
void call(Fn fn, [[maybe_unused]] const simdgen_exec::Binding& b) { fn(${ARGS}); }

#define SIMDGEN_EXEC_VARIANT(suffix) \\
  simdgen_exec::Variant{#suffix, [](const simdgen_exec::Binding& b) { call(&${NAME}_##suffix, b); }},

const simdgen_exec::Kernel kKernel{
    \"${NAME}\",
    \"${FAMILY}\",
    ${SEMANTICS},
    ${CONSTANTS},
    {${TENSORS}},
    {${EXTENT_PARAMS}},
    {${SCALAR_PARAMS}},
    {${PLANNED}},
    {SIMDGEN_${NAME}_VARIANTS(SIMDGEN_EXEC_VARIANT)
     simdgen_exec::Variant{\"dispatch\", [](const simdgen_exec::Binding& b) { call(&${NAME}, b); }}}};

}  // namespace

// One doctest case per case of the family that applies to this kernel (the others are not listed).
#define SIMDGEN_EXEC_CASE(c)                                                               \\
  TEST_CASE(\"${NAME}/\" #c * doctest::skip(!simdgen_exec::${FAMILY}::applies(#c, kKernel))) { \\
    simdgen_exec::${FAMILY}::test_##c<Types>(kKernel);                                     \\
  }
SIMDGEN_EXEC_FAMILY_CASES(SIMDGEN_EXEC_CASE)
")

# Rewrite only on change, so that a rebuilt generator recompiles no unchanged test.
set(tmp "${OUT}.tmp")
file(WRITE "${tmp}" "${text}")
file(COPY_FILE "${tmp}" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${tmp}")
