// SPDX-License-Identifier: Apache-2.0
#include "cli/lift_command.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <iostream>

#include "cli/exit_codes.h"
#include "cli/unified_diff.h"
#include "cli/verbosity.h"
#if SIMDGEN_WITH_CLANG
#include "clang/lift/lift_tool.h"
#endif
#include "plan/family.h"
#include "plan/reduce_builder.h"
#include "spec/spec.h"

namespace fs = std::filesystem;

namespace simdgen::cli {

#if !SIMDGEN_WITH_CLANG
int runLift(const LiftOptions&) {
  std::cerr << "simdgen: error: `lift` needs the clang build of simdgen; this one was configured with "
               "-DSIMDGEN_WITH_CLANG=OFF\n";
  return kBadInput;
}
#else
namespace {

// Never half-written: a sibling temp file renamed over the target.
bool writeFile(const fs::path& p, const std::string& content) {
  fs::path tmp = p;
  tmp += ".simdgen-tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f || !(f << content) || !f.flush()) {
      std::cerr << tmp.string() << ": error: cannot write file\n";
      return false;
    }
  }
  std::error_code ec;
  fs::rename(tmp, p, ec);
  if (ec) std::cerr << p.string() << ": error: cannot write file: " << ec.message() << "\n";
  return !ec;
}

// The spec as `generate` would take it: parsed, and planned for every target.
std::optional<std::string> specProblem(const std::string& json) {
  try {
    KernelSpec spec = parseSpecText(json, "lifted.json");
    for (const auto& t : spec.targets) buildPlan(spec, makeTarget(t));
    return std::nullopt;
  } catch (const std::exception& e) {
    return std::string(e.what());
  }
}

}  // namespace

int runLift(const LiftOptions& o) {
  for (const auto& f : o.files) {
    if (!std::ifstream(f)) {
      std::cerr << f << ": error: cannot read file\n";
      return kBadInput;
    }
  }
  lift::LiftRequest request;
  request.files = o.files;
  request.compilerArgs = o.compilerArgs;
  request.buildDir = o.buildDir;
  request.functions = o.functions;
  request.allowReassociation = o.reassociate;
  request.mathUlp = o.mathUlp;
  request.rewrite = o.rewrite || o.diff;
  request.validate = specProblem;
  // A spec in the output directory that was lifted from another file keeps its name (run.c and
  // runq.c both have a `forward`): the description says where a spec comes from.
  request.nameTaken = [&o](const std::string& name, const std::string& file) {
    std::ifstream in(fs::path(o.outDir) / (name + ".json"));
    if (!in) return false;
    std::stringstream text;
    text << in.rdbuf();
    const std::string from = "Lifted by simdgen lift from " + file + ":";
    return text.str().find(from) == std::string::npos;
  };
  lift::LiftResult result = lift::runLift(request);
  for (const auto& e : result.errors) std::cerr << e << "\n";
  if (!result.parsed) {
    std::cerr << "simdgen lift: error: the files do not compile (see the diagnostics above); nothing was written\n";
    return kBadInput;
  }
  if (!result.errors.empty()) return kToolFailure;
  if (!result.unknownFunctions.empty()) {
    for (const auto& name : result.unknownFunctions)
      std::cerr << "simdgen lift: error: --functions " << name << ": no function of that name is defined in the files given\n";
    std::cerr << "simdgen lift: nothing was written\n";
    return kBadInput;
  }
  for (const auto& r : result.remarks)
    std::cerr << r.file << ":" << r.line << ":" << r.column << ": remark: " << r.text << "\n";

  std::error_code ec;
  if (!result.specs.empty()) fs::create_directories(o.outDir, ec);
  if (ec) {
    std::cerr << o.outDir << ": error: cannot create directory: " << ec.message() << "\n";
    return kToolFailure;
  }
  bool ok = true;
  for (const auto& s : result.specs) ok = writeFile(fs::path(o.outDir) / (s.name + ".json"), s.json) && ok;
  for (const auto& r : result.rewrites) {
    if (o.diff) std::cout << unifiedDiff(r.original, r.rewritten, "a/" + r.file, "b/" + r.file);
    else ok = writeFile(r.file, r.rewritten) && ok;
  }
  if (!quiet()) {
    size_t lifted = result.specs.size();
    std::cerr << "simdgen lift: " << lifted << " of " << result.remarks.size() << " loops lifted"
              << (lifted ? " (specs in " + o.outDir + ")" : std::string()) << "\n";
  }
  return ok ? kOk : kToolFailure;
}
#endif

}  // namespace simdgen::cli
