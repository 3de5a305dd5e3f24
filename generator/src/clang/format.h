// SPDX-License-Identifier: Apache-2.0
#pragma once
// clang-format wrapper. No clang/llvm headers here so callers compile fast.
#include <string>

namespace simdgen::clangtools {

// Formats `code` with the style given as the YAML text of a .clang-format file (unset keys
// fall back to LLVM style; BasedOnStyle is honored). `fileName` selects the language
// (e.g. "kernel.h" -> C++). Throws std::runtime_error on an invalid style or failed format.
std::string formatCpp(const std::string& code, const std::string& styleYaml,
                      const std::string& fileName);

}  // namespace simdgen::clangtools
