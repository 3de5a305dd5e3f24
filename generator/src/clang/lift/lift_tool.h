// SPDX-License-Identifier: Apache-2.0
#pragma once
// `simdgen lift`: finds the loops of C/C++ files that are simdgen kernels (Clang LibTooling),
// and returns their specs, remarks for the loops it did not lift, and the rewritten sources.
// No clang headers here: the CLI includes this.
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace simdgen::lift {

struct LiftRequest {
  std::vector<std::string> files;
  std::vector<std::string> compilerArgs;  // after `--` (used when buildDir is empty)
  std::string buildDir;                   // -p: a directory with compile_commands.json
  std::vector<std::string> functions;     // only these (else [[clang::annotate("simdgen")]] ones, else all)
  bool allowReassociation = false;
  int mathUlp = 0;  // --math-ulp: the bound accepted for exp, log, tanh, ... (1 or 4; 0: those loops stay)
  bool rewrite = false;
  // The spec's error if simdgen cannot build it (the lift then becomes a remark), else nullopt.
  std::function<std::optional<std::string>(const std::string& specJson)> validate;
  // Whether kernel name `name` belongs to another source file than `file` (a spec of that name
  // in the spec directory lifted from elsewhere): lift then takes the next free name.
  std::function<bool(const std::string& name, const std::string& file)> nameTaken;
};

struct Remark {
  std::string file;
  unsigned line = 0, column = 0;
  std::string text;  // "lifted: NAME (SUMMARY)" or "not lifted: REASON"
};

struct LiftedSpec {
  std::string name, json;
};

struct RewrittenFile {
  std::string file, original, rewritten;
};

struct LiftResult {
  bool parsed = false;          // every file parsed without errors
  std::vector<std::string> errors;  // compiler diagnostics, "file:line:col: error: ..."
  std::vector<Remark> remarks;  // in file and line order
  std::vector<LiftedSpec> specs;
  std::vector<RewrittenFile> rewrites;  // with rewrite: each file that changed
  std::vector<std::string> unknownFunctions;  // names of --functions that no file defines
};

LiftResult runLift(const LiftRequest& request);

}  // namespace simdgen::lift
