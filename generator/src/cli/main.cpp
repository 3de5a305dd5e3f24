// SPDX-License-Identifier: Apache-2.0
// simdgen: JSON kernel specs -> readable, self-contained C++ with SIMD intrinsics.
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/list.h"

int main(int argc, char** argv) {
  using namespace simdgen::cli;
  CLI::App app{"simdgen: generates readable C++ SIMD kernels (AVX2, AVX-512, scalar) from JSON specs"};
  app.set_version_flag("--version", std::string("simdgen ") + SIMDGEN_VERSION);
  app.require_subcommand(1);
  std::string templates;
  app.add_option("--templates", templates, "Template directory (default: $SIMDGEN_TEMPLATES, else the built-in templates)");

  GenerateOptions gen;
  CLI::App* generate = app.add_subcommand("generate", "Write NAME.h and NAME.cpp for each spec (only files whose content changes)");
  generate->add_option("specs", gen.specs, "Spec files (JSON)")->required()->check(CLI::ExistingFile);
  generate->add_option("-o,--output", gen.outDir, "Output directory")->required();
  generate->add_flag("--check", gen.check, "Write nothing; exit 1 listing files that are missing or out of date");
  generate->add_flag("--dry-run", gen.dryRun, "Write nothing; print what would be written");

  std::string explainSpec, explainTarget;
  bool explainJson = false;
  CLI::App* explain = app.add_subcommand("explain", "Print the plan of a spec for each target: loops, accumulators, stages, masks");
  explain->add_option("spec", explainSpec, "Spec file (JSON)")->required()->check(CLI::ExistingFile);
  explain->add_option("--target", explainTarget, "Only this target (e.g. avx512+vnni, avx2, scalar)");
  explain->add_flag("--json", explainJson, "The plans as JSON: tensors, parameters, constants, variants (for tools)");

  std::vector<std::string> validateSpecs;
  CLI::App* validate = app.add_subcommand("validate", "Check specs only");
  validate->add_option("specs", validateSpecs, "Spec files (JSON)")->required()->check(CLI::ExistingFile);

  bool listJson = false;
  CLI::App* list = app.add_subcommand("list", "Print the supported targets (ISAs, features), families, ops and dtypes");
  list->add_flag("--json", listJson, "As JSON (with each target's function attribute and CPU check)");

  std::vector<std::string> checkInputs;
  CLI::App* check = app.add_subcommand(
      "check", "Compile generated code in-process with Clang to LLVM IR for every target it contains (x86-64 and aarch64)");
  check->add_option("inputs", checkInputs, "Spec files (.json) or generated sources (.cpp)")->required()->check(CLI::ExistingFile);

  CLI11_PARSE(app, argc, argv);

  if (*generate) return runGenerate(gen, findTemplates(templates));
  if (*explain) return runExplain(explainSpec, explainTarget, explainJson, findTemplates(templates));
  if (*validate) return runValidate(validateSpecs);
  if (*list) return runList(listJson);
  if (*check) return runCheck(checkInputs, findTemplates(templates));
  return 2;
}
