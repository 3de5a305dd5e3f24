// SPDX-License-Identifier: Apache-2.0
// The simdgen subcommands. Each returns the process exit code and prints its own diagnostics.
#pragma once

#include <string>
#include <vector>

namespace simdgen::cli {

struct GenerateOptions {
  std::vector<std::string> specs;
  std::string outDir = ".";
  bool check = false;   // exit 1 and list files that differ, write nothing
  bool diff = false;    // with check: a unified diff per stale file
  bool dryRun = false;  // print what would change, write nothing
  std::string fixCommand;  // printed by check: the command that brings the outputs up to date
  std::string spdx, copyright;  // the user's license and copyright lines in every file ("" = none)
};

int runGenerate(const GenerateOptions& o, const std::string& templatesDir);
int runExplain(const std::string& spec, const std::string& target, bool json, const std::string& templatesDir);
int runValidate(const std::vector<std::string>& specs);
// Exit 2 in a build without clang (-DSIMDGEN_WITH_CLANG=OFF).
int runCheck(const std::vector<std::string>& inputs, const std::string& templatesDir);

// --templates, else $SIMDGEN_TEMPLATES, else "": the templates built into the binary.
std::string findTemplates(const std::string& explicitDir);

}  // namespace simdgen::cli
