// SPDX-License-Identifier: Apache-2.0
// A unified diff of two texts, as `diff -u` prints it, for `generate --check --diff`: CI logs show
// what a stale file would become without depending on an external diff program.
#pragma once

#include <string>

namespace simdgen::cli {

// The diff from `before` to `after` by lines with `context` lines around each change; "" when the
// texts are equal. The labels go on the "---" and "+++" lines.
std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& beforeLabel,
                        const std::string& afterLabel, int context = 3);

}  // namespace simdgen::cli
