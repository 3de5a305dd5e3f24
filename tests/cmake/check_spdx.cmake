# SPDX-License-Identifier: Apache-2.0
# Every source file of the repository names its license in its first lines. Generated kernels
# (generated/, the vendored example's kernels) are the user's output and carry none.
# Usage: cmake -DROOT=<repository> -P check_spdx.cmake
set(patterns
  "generator/*.cpp" "generator/*.h" "tests/*.cpp" "tests/*.h" "tests/*.cmake" "tests/*.sh" "tests/*.py"
  "bench/*.cpp" "bench/*.h" "bench/*.py" "bench/*.sh" "cmake/*.cmake" "cmake/*.in"
  "templates/*.mustache" ".ci/*" "CMakeLists.txt" "*/CMakeLists.txt")
set(files "")
foreach(p IN LISTS patterns)
  file(GLOB_RECURSE found RELATIVE ${ROOT} ${ROOT}/${p})
  list(APPEND files ${found})
endforeach()
list(REMOVE_DUPLICATES files)
list(FILTER files EXCLUDE REGEX "^(build|generated)[^/]*/|/build[^/]*/|^examples/rowstats/vendored/.*\\.(h|cpp)$")
set(missing "")
foreach(f IN LISTS files)
  file(STRINGS ${ROOT}/${f} head LIMIT_COUNT 3)
  if(NOT head MATCHES "SPDX-License-Identifier: Apache-2.0")
    list(APPEND missing ${f})
  endif()
endforeach()
list(LENGTH files checked)
if(missing)
  list(JOIN missing "\n  " lines)
  message(FATAL_ERROR "no SPDX-License-Identifier line in the first 3 lines of:\n  ${lines}")
endif()
message(STATUS "${checked} source files carry SPDX-License-Identifier: Apache-2.0")
