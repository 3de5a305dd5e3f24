// SPDX-License-Identifier: Apache-2.0
// The layout of simdgen's output, without clang: templates and lowering modules write one
// statement or brace per line, unindented; this pass gives the text the layout clang-format gives
// it with templates/.clang-format (Google based, ColumnLimit 100): indentation by blocks
// (namespaces flat, preprocessor lines at column 0), one statement a line, blank-line rules, and
// statements longer than 100 columns broken where clang-format breaks them (its best-first search
// over line breaks with its penalties, for the constructs simdgen writes). A test runs
// clang::format over the checked-in output and expects no change; a new construct that breaks
// differently shows up there.
#pragma once

#include <string>

namespace simdgen::emit {

std::string layoutCpp(const std::string& text);

}  // namespace simdgen::emit
