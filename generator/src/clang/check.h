// SPDX-License-Identifier: Apache-2.0
#pragma once
// In-process compile check of generated code. No clang/llvm headers here so callers compile fast.
#include <string>
#include <utility>
#include <vector>

namespace simdgen::clangtools {

struct Diagnostic {
  std::string level;  // "error", "fatal error", "warning", "note", "remark"
  std::string file;   // as named by the caller (virtual dir stripped); empty if no location
  unsigned line = 0, column = 0;
  std::string message;
};

struct CheckResult {
  bool ok = false;  // compiled to IR without errors (warnings do not fail unless -Werror)
  std::vector<Diagnostic> diagnostics;
};

// Compiles `mainSource` (named mainFileName) in-process to LLVM IR for `triple`
// ("x86_64-linux-gnu" or "aarch64-linux-gnu"), with `extraFiles` (name -> content, e.g. the
// generated header the .cpp includes) visible beside it in an in-memory file system.
// Generating IR (not just -fsyntax-only) is what catches a missing target("avx512f") attribute.
// No -m/-march flags are passed: code must carry function-level __attribute__((target(...))).
CheckResult compileCheck(const std::string& mainSource, const std::string& mainFileName,
                         const std::string& triple,
                         const std::vector<std::pair<std::string, std::string>>& extraFiles,
                         const std::vector<std::string>& extraArgs = {});

// One "file:line:col: level: message" line per diagnostic.
std::string formatDiagnostics(const CheckResult&);

}  // namespace simdgen::clangtools
