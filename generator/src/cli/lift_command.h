// SPDX-License-Identifier: Apache-2.0
// `simdgen lift`: scalar loops of C/C++ files -> specs (and, with --rewrite, calls to the kernels).
#pragma once

#include <string>
#include <vector>

namespace simdgen::cli {

struct LiftOptions {
  std::vector<std::string> files;
  std::vector<std::string> compilerArgs;  // after `--`
  std::string buildDir;                   // -p
  std::string outDir;                     // -o: one NAME.json per lifted loop
  std::vector<std::string> functions;
  bool reassociate = false, rewrite = false, diff = false;
  int mathUlp = 0;  // --math-ulp
};

// Exit 2 in a build without clang, on unreadable files or files that do not compile.
int runLift(const LiftOptions& options);

}  // namespace simdgen::cli
