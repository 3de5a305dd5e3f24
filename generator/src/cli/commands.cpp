// SPDX-License-Identifier: Apache-2.0
#include "cli/commands.h"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli/exit_codes.h"
#include "cli/explain_json.h"
#include "cli/target_names.h"
#include "cli/unified_diff.h"
#include "cli/verbosity.h"
#if SIMDGEN_WITH_CLANG
#include "clang/check.h"
#endif
#include "emit/builtin_templates.h"
#include "emit/emitter.h"
#include "emit/layout.h"
#include "emit/parallel_entry.h"
#include "plan/family.h"
#include "plan/reduce_builder.h"
#include "sim/lane_sim.h"
#include "spec/spec.h"

#if SIMDGEN_WITH_CLANG
#include "clang/check.h"
#endif

namespace fs = std::filesystem;

namespace simdgen::cli {

namespace {

std::optional<std::string> readIfExists(const fs::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) return std::nullopt;
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Never half-written: write a sibling temp file, then rename over the target.
void writeAtomically(const fs::path& p, const std::string& content) {
  fs::path tmp = p;
  tmp += ".simdgen-tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    if (!f || !(f << content) || !(f.flush())) throw std::runtime_error(tmp.string() + ": cannot write");
  }
  fs::rename(tmp, p);
}

struct Output {
  fs::path path;
  std::string content;
};

// `FILE: error: cannot read file: <why>` (as compilers say it) for a missing or unreadable input.
bool readable(const std::string& file) {
  std::error_code ec;
  const char* why = nullptr;
  if (fs::is_directory(file, ec)) why = std::strerror(EISDIR);
  else if (!std::ifstream(file, std::ios::binary)) why = std::strerror(errno);
  if (why) std::cerr << file << ": error: cannot read file: " << why << "\n";
  return !why;
}

// Loads every spec first so that one bad spec stops the run before anything is written.
bool loadSpecs(const std::vector<std::string>& files, std::vector<KernelSpec>& specs) {
  bool ok = true;
  std::map<std::string, std::string> names;
  for (const auto& f : files) {
    if (!readable(f)) {
      ok = false;
      continue;
    }
    try {
      KernelSpec s = loadSpec(f);
      if (auto [it, fresh] = names.emplace(s.name, f); !fresh) {
        std::cerr << f << ": error: kernel name \"" << s.name << "\" is already used by " << it->second << "\n";
        ok = false;
        continue;
      }
      specs.push_back(std::move(s));
    } catch (const SpecError& e) {
      std::cerr << allErrors(e) << "\n";
      ok = false;
    }
  }
  return ok;
}

std::string specRef(const KernelSpec& s, const fs::path& outDir) {
  return fs::absolute(s.file).lexically_normal().lexically_relative(fs::absolute(outDir).lexically_normal()).generic_string();
}

// "" = the templates compiled into the binary.
emit::Templates loadTemplates(const std::string& dir) {
  return dir.empty() ? emit::builtinTemplates() : emit::Templates::load(dir);
}

// Renders both files of a spec and lays them out in the style of templates/.clang-format (the
// same bytes in every build; a test checks that clang-format would change nothing). Throws on
// plan errors.
std::vector<Output> render(const KernelSpec& spec, const emit::Templates& t, const fs::path& outDir,
                           const emit::FileHeader& header = {}) {
  emit::GeneratedKernel g = emit::generate(spec, t, specRef(spec, outDir), header);
  if (verbose()) {
    std::cerr << spec.file.string() << ": " << spec.name << ": variants";
    for (const auto& v : g.variants) std::cerr << " " << v.target.suffix;
    std::cerr << "\n";
    for (const auto& d : g.dropped) std::cerr << "  " << d << "\n";
  }
  return {{outDir / (spec.name + ".h"), emit::layoutCpp(g.header)},
          {outDir / (spec.name + ".cpp"), emit::layoutCpp(g.source)}};
}

// Plan errors are the spec's (kBadInput); the templates throw std::runtime_error (kToolFailure).
bool renderAll(const std::vector<KernelSpec>& specs, const std::string& templatesDir, const fs::path& outDir,
               const emit::FileHeader& header, std::vector<Output>& outputs) {
  emit::Templates t = loadTemplates(templatesDir);
  if (verbose()) std::cerr << "templates: " << (templatesDir.empty() ? "built in" : templatesDir) << "\n";
  bool ok = true;
  for (const auto& s : specs) {
    try {
      for (auto& o : render(s, t, outDir, header)) outputs.push_back(std::move(o));
    } catch (const PlanError& e) {
      std::cerr << specErrorAt(s, e.pointer, e.what()).what() << "\n";
      ok = false;
    }
  }
  return ok;
}

// --spdx and --copyright become one comment line each: no line breaks, no trailing backslash
// (which would splice the next line into the comment), an SPDX expression's characters only.
bool validHeader(const GenerateOptions& o) {
  auto bad = [](const std::string& v, const char* option, const char* why) {
    std::cerr << "simdgen generate: error: " << option << " '" << v << "': " << why << "\n";
    return false;
  };
  for (const auto& [v, option] : {std::pair{&o.spdx, "--spdx"}, std::pair{&o.copyright, "--copyright"}}) {
    if (v->find_first_of("\n\r") != std::string::npos) return bad(*v, option, "must be one line");
    if (!v->empty() && v->back() == '\\') return bad(*v, option, "must not end with a backslash");
  }
  if (o.spdx.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789.-+:() ") != std::string::npos)
    return bad(o.spdx, "--spdx", "not an SPDX license expression (e.g. MIT, Apache-2.0 OR MIT, LicenseRef-Proprietary)");
  return true;
}

// generate --check: what differs, as a CI log should show it.
int reportCheck(const GenerateOptions& o, const std::vector<Output>& outputs) {
  int missing = 0, stale = 0;
  for (const auto& out : outputs) {
    const std::optional<std::string> old = readIfExists(out.path);
    if (old == out.content) continue;
    if (!old) {
      std::cout << out.path.string() << ": missing\n";
      ++missing;
      continue;
    }
    std::cout << out.path.string() << ": out of date with its spec\n";
    ++stale;
    if (o.diff) std::cout << unifiedDiff(*old, out.content, out.path.string() + " (on disk)", out.path.string() + " (from the spec)");
  }
  if (!missing && !stale) {
    if (verbose()) std::cerr << outputs.size() << " generated file(s) up to date\n";
    return kOk;
  }
  std::cerr << missing << " missing and " << stale << " out-of-date generated file(s); to update them, run:\n  "
            << o.fixCommand << "\n";
  return kStale;
}

}  // namespace

std::string findTemplates(const std::string& explicitDir) {
  if (!explicitDir.empty()) return explicitDir;
  if (const char* env = std::getenv("SIMDGEN_TEMPLATES"); env && *env) return env;
  return "";
}

int runGenerate(const GenerateOptions& o, const std::string& templatesDir) {
  std::vector<KernelSpec> specs;
  if (!validHeader(o) || !loadSpecs(o.specs, specs)) return kBadInput;
  try {
    std::vector<Output> outputs;
    if (!renderAll(specs, templatesDir, o.outDir, {o.spdx, o.copyright}, outputs)) return kBadInput;
    if (o.check) return reportCheck(o, outputs);
    for (const auto& out : outputs) {
      if (readIfExists(out.path) == out.content) {
        if (!quiet()) std::cout << "unchanged " << out.path.string() << "\n";
      } else if (o.dryRun) {
        std::cout << "would write " << out.path.string() << "\n";
      } else {
        fs::create_directories(out.path.parent_path());
        writeAtomically(out.path, out.content);
        if (!quiet()) std::cout << "wrote " << out.path.string() << "\n";
      }
    }
    return kOk;
  } catch (const std::exception& e) {
    std::cerr << "simdgen: error: " << e.what() << "\n";
    return kToolFailure;
  }
}

int runExplain(const std::string& specFile, const std::string& typedTarget, bool json, const std::string& templatesDir) {
  if (!typedTarget.empty() && !knownTarget(typedTarget)) {
    std::cerr << "simdgen explain: error: unknown target '" << typedTarget << "' (targets: " << validTargets()
              << "; a variant suffix such as avx2_fma works too)\n";
    return kBadInput;
  }
  std::vector<KernelSpec> specs;
  if (!loadSpecs({specFile}, specs)) return kBadInput;
  try {
    emit::GeneratedKernel g = emit::generate(specs[0], loadTemplates(templatesDir), specFile);
    // The spelling explainJson and the plans go by ("avx2+fma"), whichever way it was typed.
    std::string target;
    for (const auto& v : g.variants)
      if (namesTarget(typedTarget, v.target)) target = v.target.spelling;
    if (!typedTarget.empty() && target.empty()) {
      std::cerr << specFile << ": error: no emitted variant for target '" << typedTarget << "' (emitted:";
      for (const auto& v : g.variants) std::cerr << " " << v.target.spelling;
      std::cerr << ")\n";
      for (const auto& d : g.dropped) std::cerr << "  " << d << "\n";
      return kBadInput;
    }
    if (json) {
      std::cout << explainJson(g, target);
      return kOk;
    }
    for (const auto& v : g.variants) {
      if (!target.empty() && v.target.spelling != target) continue;
      std::cout << v.plan.print();
      for (const auto& n : v.notes)
        if (n.rfind("uses ", 0) == 0) std::cout << "  # " << n << "\n";
      std::function<void(const ir::Block&)> tables = [&](const ir::Block& b) {
        for (const auto& s : b) {
          if (s.kind == ir::Stmt::Kind::Op && s.op == ir::OpKind::ReduceRows) {
            std::cout << "  fold network lane table (rows per lane of the first vector):\n";
            for (const auto& l : sim::foldLaneTable(s.network)) std::cout << "    " << l << "\n";
          }
          tables(s.body);
        }
      };
      tables(v.plan.body);
      std::cout << "\n";
    }
    for (const auto& d : g.dropped) std::cout << "# " << d << "\n";
    if (!g.parallel.empty()) std::cout << "# " << g.parallel << "\n";
    return kOk;
  } catch (const PlanError& e) {
    std::cerr << specErrorAt(specs[0], e.pointer, e.what()).what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "simdgen: error: " << e.what() << "\n";
    return kToolFailure;
  }
}

int runValidate(const std::vector<std::string>& files) {
  std::vector<KernelSpec> specs;
  if (!loadSpecs(files, specs)) return kBadInput;
  // Planning for each target finds unsupported combinations the schema cannot express.
  bool ok = true;
  for (const auto& s : specs) {
    // Each target is planned: a combination one target lacks is reported once per place and message.
    std::vector<std::string> planErrors;
    for (const auto& t : s.targets) {
      try {
        buildPlan(s, makeTarget(t));
      } catch (const PlanError& e) {
        const std::string message = specErrorAt(s, e.pointer, e.what()).what();
        if (std::find(planErrors.begin(), planErrors.end(), message) == planErrors.end()) planErrors.push_back(message);
      }
    }
    for (const auto& m : planErrors) std::cerr << m << "\n";
    if (!planErrors.empty()) {
      ok = false;
      continue;
    }
    try {
      if (s.parallel && !s.targets.empty()) {  // the split is checked on a plan, as generate does
        const auto entry = parallelEntry(buildPlan(s, makeTarget(s.targets.back())), s.name);
        if (const auto* why = std::get_if<std::string>(&entry)) {
          std::cerr << specErrorAt(s, "/parallel", "parallel: " + *why).what() << "\n";
          ok = false;
          continue;
        }
      }
      if (!quiet()) std::cout << s.file.string() << ": ok\n";
    } catch (const PlanError& e) {
      std::cerr << specErrorAt(s, e.pointer, e.what()).what() << "\n";
      ok = false;
    }
  }
  return ok ? kOk : kBadInput;
}

#if !SIMDGEN_WITH_CLANG
int runCheck(const std::vector<std::string>&, const std::string&) {
  std::cerr << "simdgen: error: `check` needs the clang build of simdgen; this one was configured with "
               "-DSIMDGEN_WITH_CLANG=OFF\n";
  return kBadInput;  // a command this build does not have, as a usage error
}
#else
int runCheck(const std::vector<std::string>& inputs, const std::string& templatesDir) {
  bool ok = true;
  for (const auto& in : inputs) {
    if (!readable(in)) return kBadInput;
    std::string mainName, source;
    std::vector<std::pair<std::string, std::string>> extra;
    try {
      if (fs::path(in).extension() == ".json") {
        std::vector<KernelSpec> specs;
        if (!loadSpecs({in}, specs)) return kBadInput;
        std::vector<Output> outs = render(specs[0], loadTemplates(templatesDir), ".");
        extra.push_back({outs[0].path.filename().string(), outs[0].content});
        mainName = outs[1].path.filename().string();
        source = outs[1].content;
      } else {
        mainName = fs::path(in).filename().string();
        source = readIfExists(in).value_or("");
        for (const auto& e : fs::directory_iterator(fs::path(in).parent_path().empty() ? "." : fs::path(in).parent_path()))
          if (e.path().extension() == ".h") extra.push_back({e.path().filename().string(), *readIfExists(e.path())});
      }
    } catch (const std::exception& e) {
      std::cerr << in << ": error: " << e.what() << "\n";
      ok = false;
      continue;
    }
    for (const char* triple : {"x86_64-linux-gnu", "aarch64-linux-gnu"}) {
      clangtools::CheckResult r = clangtools::compileCheck(source, mainName, triple, extra, {"-Werror"});
      if (!r.diagnostics.empty()) std::cerr << clangtools::formatDiagnostics(r);
      if (!r.ok || !quiet()) std::cout << (r.ok ? "ok   " : "FAIL ") << mainName << " (" << triple << ")\n";
      ok = ok && r.ok;
    }
  }
  return ok ? kOk : kStale;
}
#endif

}  // namespace simdgen::cli
