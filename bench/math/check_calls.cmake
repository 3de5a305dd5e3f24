# SPDX-License-Identifier: Apache-2.0
# Fails unless each named function of the object file calls the named symbol: a plain-loop peer of
# the math benchmark (bench/math/CMakeLists.txt) must measure what its name says (libmvec's vector
# entry point for that very function, or the C library's scalar function), not whatever the
# compiler happened to make of the loop.
# Usage: cmake -DOBJDUMP=objdump -DOBJECT=file.o -DEXPECT=fn1=sym1,fn2=sym2 -P check_calls.cmake
# where fnK is a function's name as written in the source (matched inside the mangled name,
# followed by its end: "plain_exp_f32" is not "plain_expm1_f32") and symK a symbol it must call.
execute_process(COMMAND ${OBJDUMP} -dr ${OBJECT} OUTPUT_VARIABLE dump RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "${OBJDUMP} -dr ${OBJECT} failed (${rc})")
endif()
# The function labels ("0000000000000040 <_ZN...plain_exp_f32EPKflPf>:") and the call relocations
# ("R_X86_64_PLT32	expf-0x4") in order: "function|symbol" for every call.
string(REGEX MATCHALL "\n[0-9a-f]+ <[^>\n]+>:|R_X86_64_PLT32[ \t]+[^ \t\n]+" items "${dump}")
set(calls "")
set(current "")
foreach(item IN LISTS items)
  if(item MATCHES "^\n[0-9a-f]+ <([^>\n]+)>:$")
    set(current "${CMAKE_MATCH_1}")
  elseif(item MATCHES "R_X86_64_PLT32[ \t]+([^ \t\n]+)-0x[0-9a-f]+$")
    list(APPEND calls "${current}|${CMAKE_MATCH_1}")
  endif()
endforeach()
string(REPLACE "," ";" expected "${EXPECT}")
set(missing "")
foreach(pair IN LISTS expected)
  string(REPLACE "=" ";" pair "${pair}")
  list(GET pair 0 fn)
  list(GET pair 1 sym)
  # A C++ function's mangled name has its length before it and its parameters (starting with an
  # upper-case letter: E, P, ...) after it.
  set(found FALSE)
  foreach(call IN LISTS calls)
    if(call MATCHES "[0-9]${fn}[A-Z][^|]*\\|${sym}$")
      set(found TRUE)
      break()
    endif()
  endforeach()
  if(NOT found)
    list(APPEND missing "${fn} -> ${sym}")
  endif()
endforeach()
if(missing)
  string(REPLACE ";" ", " missing "${missing}")
  message(FATAL_ERROR "${OBJECT}: these loops do not call what they should: ${missing}")
endif()
