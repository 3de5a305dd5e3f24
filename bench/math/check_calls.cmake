# SPDX-License-Identifier: Apache-2.0
# Fails unless the object file calls every named function: a plain-loop peer of the math benchmark
# (bench/math/CMakeLists.txt) must measure what its name says (libmvec's vector entry points, or
# the C library's scalar functions), not whatever the compiler happened to make of the loop.
# Usage: cmake -DOBJDUMP=objdump -DOBJECT=file.o -DEXPECT=sym1,sym2 -P check_calls.cmake
execute_process(COMMAND ${OBJDUMP} -dr ${OBJECT} OUTPUT_VARIABLE dump RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -dr ${OBJECT} failed (${rc})")
endif()
string(REPLACE "," ";" symbols "${EXPECT}")
set(missing "")
foreach(sym IN LISTS symbols)
  # A call's relocation: "R_X86_64_PLT32	expf-0x4".
  if(NOT dump MATCHES "R_X86_64_PLT32[ \t]+${sym}-")
    list(APPEND missing ${sym})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "${OBJECT} does not call: ${missing}")
endif()
