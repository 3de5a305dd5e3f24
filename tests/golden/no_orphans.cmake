# SPDX-License-Identifier: Apache-2.0
file(GLOB generated RELATIVE ${GENERATED_DIR} ${GENERATED_DIR}/*)
foreach(f ${generated})
  get_filename_component(stem ${f} NAME_WE)
  if(NOT EXISTS ${SPECS_DIR}/${stem}.json)
    message(FATAL_ERROR "generated/${f} has no spec specs/${stem}.json")
  endif()
endforeach()
