# SPDX-License-Identifier: Apache-2.0
# simdgen_add_kernels(<target> SPECS <spec.json>... [OUTPUT_DIR <dir>] [SPDX <license expression>]
#                     [COPYRIGHT <holder>])
#
# Generates NAME.h / NAME.cpp for each spec at build time, adds the .cpp files to <target> and the
# output directory to its include path. One custom command per spec, so editing one spec regenerates
# and recompiles only that kernel. SPDX and COPYRIGHT put your license and copyright tags at the top of
# every generated file (simdgen generate --spdx/--copyright). Works in the three ways simdgen can be
# consumed:
#   - add_subdirectory / FetchContent of the source tree: the executable is the `simdgen` target;
#   - find_package(simdgen CONFIG): the executable is the imported target `simdgen::simdgen`;
#   - override: -DSIMDGEN_EXECUTABLE=/path/to/simdgen (a prebuilt binary, e.g. in tests).
# The template directory is SIMDGEN_TEMPLATES_DIR if set, else the one recorded on the imported
# target by the package, else the source tree's templates/ next to this file.
include_guard(GLOBAL)

# Resolves the executable (a target name or a path) and the template directory for one call.
function(_simdgen_resolve out_exe out_templates)
  if(SIMDGEN_EXECUTABLE)
    set(exe "${SIMDGEN_EXECUTABLE}")
  elseif(TARGET simdgen::simdgen)
    set(exe simdgen::simdgen)
  elseif(TARGET simdgen)
    set(exe simdgen)
  else()
    message(FATAL_ERROR "simdgen_add_kernels: no simdgen executable; use find_package(simdgen CONFIG), "
                        "add_subdirectory(<simdgen source>) or set SIMDGEN_EXECUTABLE")
  endif()

  set(templates "${SIMDGEN_TEMPLATES_DIR}")
  if(NOT templates AND TARGET simdgen::simdgen)
    get_target_property(templates simdgen::simdgen SIMDGEN_TEMPLATES_DIR)
  endif()
  if(NOT templates)
    # CMAKE_CURRENT_FUNCTION_LIST_DIR, not a variable set at include time: when simdgen is a
    # subproject, its directory variables are invisible to the caller, but this path is not.
    get_filename_component(templates "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/../templates" ABSOLUTE)
  endif()
  if(NOT EXISTS "${templates}/kernel.h.mustache")
    message(FATAL_ERROR "simdgen_add_kernels: no simdgen templates in '${templates}' (set SIMDGEN_TEMPLATES_DIR)")
  endif()
  set(${out_exe} "${exe}" PARENT_SCOPE)
  set(${out_templates} "${templates}" PARENT_SCOPE)
endfunction()

function(simdgen_add_kernels target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT_DIR;SPDX;COPYRIGHT" "SPECS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "simdgen_add_kernels: unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SPECS)
    message(FATAL_ERROR "simdgen_add_kernels(${target}): SPECS is required")
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/simdgen")
  endif()
  get_filename_component(out_dir "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")
  _simdgen_resolve(exe templates)
  set(header_options "")
  if(ARG_SPDX)
    list(APPEND header_options --spdx "${ARG_SPDX}")
  endif()
  if(ARG_COPYRIGHT)
    list(APPEND header_options --copyright "${ARG_COPYRIGHT}")
  endif()
  # Every template is an input of every kernel. The directory itself is a configure dependency so
  # that an added template is picked up (cheaper than a CONFIGURE_DEPENDS glob checked every build).
  file(GLOB template_files "${templates}/*.mustache")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${templates}")
  if(EXISTS "${templates}/.clang-format")
    list(APPEND template_files "${templates}/.clang-format")
  endif()

  set(sources "")
  foreach(spec IN LISTS ARG_SPECS)
    get_filename_component(spec "${spec}" ABSOLUTE)
    # The outputs are named after the spec's "name", so a renamed kernel must reconfigure.
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")
    file(READ "${spec}" json)
    string(JSON name ERROR_VARIABLE err GET "${json}" name)
    if(err)
      message(FATAL_ERROR "simdgen_add_kernels: ${spec}: cannot read \"name\": ${err}")
    endif()
    set(h "${out_dir}/${name}.h")
    set(cpp "${out_dir}/${name}.cpp")
    # Two specs naming the same kernel would write the same files: say so here, in simdgen's words,
    # rather than CMake's "already has a custom rule" (within one call or across calls).
    get_property(owner GLOBAL PROPERTY "_simdgen_writer_of:${h}")
    if(owner)
      message(FATAL_ERROR "simdgen_add_kernels(${target}): kernel name \"${name}\" of ${spec} is already used by "
                          "${owner}: both would write ${out_dir}/${name}.h/.cpp. Give one kernel another \"name\" "
                          "or generate it into another OUTPUT_DIR.")
    endif()
    set_property(GLOBAL PROPERTY "_simdgen_writer_of:${h}" "${spec} (simdgen_add_kernels(${target}))")
    # simdgen rewrites only files whose content changes; Ninja's restat then skips recompiling
    # when, e.g., a touched template produces identical code. Other generators have no restat:
    # an untouched output would stay older than its inputs and regenerate on every build.
    set(touch "")
    if(NOT CMAKE_GENERATOR MATCHES "Ninja")
      set(touch COMMAND "${CMAKE_COMMAND}" -E touch_nocreate "${h}" "${cpp}")
    endif()
    add_custom_command(
      OUTPUT "${h}" "${cpp}"
      COMMAND "${exe}" --templates "${templates}" -q generate ${header_options} "${spec}" -o "${out_dir}"
      ${touch}
      DEPENDS "${spec}" "${exe}" ${template_files}
      COMMENT "simdgen: ${name}.h/.cpp from ${spec}"
      VERBATIM)
    set_source_files_properties("${h}" "${cpp}" PROPERTIES GENERATED TRUE)
    list(APPEND sources "${h}" "${cpp}")
  endforeach()

  target_sources(${target} PRIVATE ${sources})
  # PUBLIC: code linking <target> calls the kernels through their headers.
  get_target_property(type ${target} TYPE)
  if(type STREQUAL "EXECUTABLE")
    target_include_directories(${target} PRIVATE "${out_dir}")
  else()
    target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${out_dir}>")
  endif()
endfunction()
