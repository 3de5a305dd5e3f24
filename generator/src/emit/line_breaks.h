// SPDX-License-Identifier: Apache-2.0
// Where clang-format breaks a statement longer than the column limit (100), reproduced without
// clang: its best-first search over "break or not before each token", with its penalties (20
// per nesting level plus the token's own, 15 for the first break of each level, 1000000 per
// column beyond the limit) and its rules (aligned arguments, continuation indents, an argument
// that broke inside ends the packing, no breaks inside an operand that follows its ',' or
// operator on the same line), reduced to the statements simdgen writes.
#pragma once

#include <string>
#include <vector>

namespace simdgen::emit {

// The lines of `statement` (one line of code, no comment) written from column `indent`, or {}
// when the search gives up.
std::vector<std::string> breakStatement(const std::string& statement, size_t indent);

}  // namespace simdgen::emit
