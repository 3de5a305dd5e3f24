// SPDX-License-Identifier: Apache-2.0
// simdgen: JSON kernel specs -> readable, self-contained C++ with SIMD intrinsics.
#include <CLI/CLI.hpp>

#include "cli/commands.h"
#include "cli/lift_command.h"
#include "cli/exit_codes.h"
#include "cli/list.h"
#include "cli/usage.h"
#include "cli/verbosity.h"

namespace {

constexpr const char* kExitCodes =
    "Exit status: 0 success; 1 generate --check found missing or stale files (check: a compile check failed);\n"
    "2 usage error, unreadable or invalid spec, unknown target, check in a build without clang; 3 simdgen itself\n"
    "failed (templates unreadable, outputs unwritable).\n";
// Printed by each command's --help, which lists only the command's own options.
constexpr const char* kGlobalOptions =
    "Options of every command, before or after it: --templates DIR, -q/--quiet, -v/--verbose (simdgen --help).\n";

// Shell-quoted when needed, so that the printed fix command can be pasted as is.
std::string shellQuoted(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+=./,:@%") == std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

}  // namespace

int main(int argc, char** argv) {
  using namespace simdgen::cli;
  CLI::App app{"simdgen: generates readable C++ SIMD kernels (AVX-512, AVX2, NEON, SVE, scalar) from JSON specs", "simdgen"};
  app.set_version_flag("--version", std::string("simdgen ") + SIMDGEN_VERSION);
  app.require_subcommand(1);
  app.footer(std::string("Run 'simdgen COMMAND --help' for a command's options.\n") + kExitCodes);
  std::string templates;
  app.add_option("--templates", templates, "Template directory (default: $SIMDGEN_TEMPLATES, else the built-in templates)");
  bool quietFlag = false, verboseFlag = false;
  CLI::Option* q = app.add_flag("-q,--quiet", quietFlag, "Print errors only (and what the command is for: plans, lists, diffs)");
  app.add_flag("-v,--verbose", verboseFlag, "Also print the templates used and each kernel's variants")->excludes(q);
  app.fallthrough();  // the options above also work after the command (inherited by the subcommands)

  // No ExistingFile checks: the commands report `FILE: error: cannot read file: <why>` themselves.
  GenerateOptions gen;
  CLI::App* generate = app.add_subcommand("generate", "Write NAME.h and NAME.cpp for each spec (only files whose content changes)");
  generate->add_option("specs", gen.specs, "Spec files (JSON)")->required();
  generate->add_option("-o,--output", gen.outDir, "Output directory")->required();
  generate->add_flag("--check", gen.check,
                     "Write nothing; list the files that are missing or out of date and exit 1 if any (a CI gate)");
  generate->add_flag("--diff", gen.diff, "With --check: print a unified diff per out-of-date file")->needs("--check");
  generate->add_flag("--dry-run", gen.dryRun, "Write nothing; print what would be written")->excludes("--check");
  generate->add_option("--spdx", gen.spdx,
                       "SPDX license expression for the generated files' header (e.g. MIT): '// SPDX-License-Identifier: ID'");
  generate->add_option("--copyright", gen.copyright,
                       "Copyright holder for the header (e.g. \"2026 Example Corp\"): '// SPDX-FileCopyrightText: HOLDER'");
  generate->footer("Example: simdgen generate specs/*.json -o generated\n"
                   "         simdgen generate --check --diff specs/*.json -o generated   # in CI\n" +
                   std::string(kGlobalOptions) + kExitCodes);

  std::string explainSpec, explainTarget;
  bool explainJson = false;
  CLI::App* explain = app.add_subcommand("explain", "Print the plan of a spec for each target: loops, accumulators, stages, masks");
  explain->add_option("spec", explainSpec, "Spec file (JSON)")->required();
  explain->add_option("--target", explainTarget,
                      "Only this target, as spelled in specs (avx2+fma) or as a variant suffix (avx2_fma)");
  explain->add_flag("--json", explainJson, "The plans as JSON: tensors, parameters, constants, variants (for tools)");
  explain->footer("Example: simdgen explain specs/rowsum_i8.json --target avx512+vnni\n" + std::string(kGlobalOptions) +
                  kExitCodes);

  std::vector<std::string> validateSpecs;
  CLI::App* validate = app.add_subcommand("validate", "Check specs (and that every target can plan them); write nothing");
  validate->add_option("specs", validateSpecs, "Spec files (JSON)")->required();
  validate->footer(std::string(kGlobalOptions) + kExitCodes);

  bool listJson = false;
  CLI::App* list = app.add_subcommand("list", "Print the supported targets (ISAs, features), families, ops and dtypes");
  list->add_flag("--json", listJson, "As JSON (with each target's function attribute and CPU check)");
  list->footer(std::string(kGlobalOptions) + kExitCodes);

  std::vector<std::string> checkInputs;
  CLI::App* check = app.add_subcommand(
      "check", "Compile generated code in-process with Clang to LLVM IR for every target it contains (x86-64 and aarch64)");
  check->add_option("inputs", checkInputs, "Spec files (.json) or generated sources (.cpp)")->required();
  check->footer(std::string(kGlobalOptions) + kExitCodes);

  LiftOptions liftOptions;
  CLI::App* lift = app.add_subcommand(
      "lift", "Find scalar loops in C/C++ files (Clang) that are simdgen kernels; write their specs, optionally rewrite the loops");
  lift->add_option("files", liftOptions.files, "C or C++ source files")->required();
  lift->add_option("-o,--output", liftOptions.outDir, "Directory for the specs (NAME.json per lifted loop)")->required();
  lift->add_option("-p", liftOptions.buildDir, "Build directory with compile_commands.json (else the compiler arguments after --)");
  lift->add_option("--functions", liftOptions.functions,
                   "Only these functions, comma-separated or repeated (default: those marked [[clang::annotate(\"simdgen\")]], else all)")
      ->expected(1)
      ->delimiter(',')
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
  lift->add_flag("--reassociate", liftOptions.reassociate,
                 "Also lift float sums and products (summed across vector lanes: the last bits may differ)");
  lift->add_option("--math-ulp", liftOptions.mathUlp,
                   "Also lift loops calling exp, exp2, log, log2, tanh, erf (expf, ...): computed within this many ULP (1 or 4), "
                   "not bit for bit as the C library (docs/math.md)")
      ->check(CLI::IsMember({1, 4}));
  lift->add_flag("--rewrite", liftOptions.rewrite, "Replace each lifted loop in place by a call to its kernel (and #include it)");
  lift->add_flag("--diff", liftOptions.diff, "Print the rewrite as a unified diff instead of applying it");
  lift->footer("Example: simdgen lift src/stats.c -o specs -- -std=c11 -Iinclude\n"
               "         simdgen lift --rewrite src/stats.c -o specs -p build && simdgen generate specs/*.json -o generated\n"
               "Prints `file:line:col: remark: lifted: NAME (...)` or `... remark: not lifted: <reason>` per loop.\n" +
               std::string(kGlobalOptions) + kExitCodes);

  // Everything after `--` is the compiler's (lift), not simdgen's.
  for (int k = 1; k < argc; ++k) {
    if (std::string(argv[k]) == "--") {
      liftOptions.compilerArgs.assign(argv + k + 1, argv + argc);
      argc = k;
      break;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return reportParseError(app, e, argc, argv);
  }
  verbosity = quietFlag ? Verbosity::quiet : verboseFlag ? Verbosity::verbose : Verbosity::normal;

  if (*generate) {
    // What to run to bring the outputs up to date: this command without --check/--diff.
    gen.fixCommand = shellQuoted(argv[0]) + (templates.empty() ? "" : " --templates " + shellQuoted(templates)) + " generate";
    if (!gen.spdx.empty()) gen.fixCommand += " --spdx " + shellQuoted(gen.spdx);
    if (!gen.copyright.empty()) gen.fixCommand += " --copyright " + shellQuoted(gen.copyright);
    for (const auto& s : gen.specs) gen.fixCommand += " " + shellQuoted(s);
    gen.fixCommand += " -o " + shellQuoted(gen.outDir);
    return runGenerate(gen, findTemplates(templates));
  }
  if (*explain) return runExplain(explainSpec, explainTarget, explainJson, findTemplates(templates));
  if (*validate) return runValidate(validateSpecs);
  if (*list) return runList(listJson);
  if (*check) return runCheck(checkInputs, findTemplates(templates));
  if (*lift) return runLift(liftOptions);
  return kBadInput;
}
