// SPDX-License-Identifier: Apache-2.0
// The generator's own layout of its output, without clang: the templates and lowering modules
// write one statement or brace per line with no indentation; this pass indents it in the style of
// templates/.clang-format (Google based, IndentWidth 2, no namespace indentation, preprocessor
// lines at column 0), splits one-line blocks and normalises blank lines.
//
// Not yet done: clang-format's penalty-based wrapping of statements longer than 100 columns and
// its column layout of braced tables, so the light build's output differs from the clang build's
// on those lines (see docs/building.md).
#pragma once

#include <string>

namespace simdgen::emit {

std::string layoutCpp(const std::string& text);

}  // namespace simdgen::emit
