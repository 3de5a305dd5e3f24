// SPDX-License-Identifier: Apache-2.0
#include "cli/commands.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "cli/explain_json.h"
#include "clang/check.h"
#include "clang/format.h"
#include "emit/emitter.h"
#include "plan/family.h"
#include "plan/reduce_builder.h"
#include "sim/lane_sim.h"
#include "spec/spec.h"

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

// Loads every spec first so that one bad spec stops the run before anything is written.
bool loadSpecs(const std::vector<std::string>& files, std::vector<KernelSpec>& specs) {
  bool ok = true;
  std::map<std::string, std::string> names;
  for (const auto& f : files) {
    try {
      KernelSpec s = loadSpec(f);
      if (auto [it, fresh] = names.emplace(s.name, f); !fresh) {
        std::cerr << f << ": error: kernel name \"" << s.name << "\" is already used by " << it->second << "\n";
        ok = false;
        continue;
      }
      specs.push_back(std::move(s));
    } catch (const SpecError& e) {
      std::cerr << e.what() << "\n";
      ok = false;
    }
  }
  return ok;
}

std::string specRef(const KernelSpec& s, const fs::path& outDir) {
  return fs::absolute(s.file).lexically_normal().lexically_relative(fs::absolute(outDir).lexically_normal()).generic_string();
}

// Renders and formats both files of a spec. Throws on plan errors.
std::vector<Output> render(const KernelSpec& spec, const emit::Templates& t, const fs::path& outDir) {
  emit::GeneratedKernel g = emit::generate(spec, t, specRef(spec, outDir));
  return {{outDir / (spec.name + ".h"), clangtools::formatCpp(g.header, t.clangFormat, spec.name + ".h")},
          {outDir / (spec.name + ".cpp"), clangtools::formatCpp(g.source, t.clangFormat, spec.name + ".cpp")}};
}

bool renderAll(const std::vector<KernelSpec>& specs, const std::string& templatesDir, const fs::path& outDir,
               std::vector<Output>& outputs) {
  emit::Templates t = emit::Templates::load(templatesDir);
  bool ok = true;
  for (const auto& s : specs) {
    try {
      for (auto& o : render(s, t, outDir)) outputs.push_back(std::move(o));
    } catch (const PlanError& e) {
      std::cerr << specErrorAt(s, e.pointer, e.what()).what() << "\n";
      ok = false;
    }
  }
  return ok;
}

}  // namespace

std::string findTemplates(const std::string& explicitDir, const char* argv0) {
  if (!explicitDir.empty()) return explicitDir;
  if (const char* env = std::getenv("SIMDGEN_TEMPLATES")) return env;
  std::error_code ec;
  fs::path exe = fs::canonical("/proc/self/exe", ec);
  if (ec) exe = fs::absolute(argv0);
  fs::path installed = exe.parent_path().parent_path() / "share" / "simdgen" / "templates";
  if (fs::exists(installed / "kernel.h.mustache")) return installed.string();
  return SIMDGEN_SOURCE_TEMPLATES;
}

int runGenerate(const GenerateOptions& o, const std::string& templatesDir) {
  try {
    std::vector<KernelSpec> specs;
    std::vector<Output> outputs;
    if (!loadSpecs(o.specs, specs) || !renderAll(specs, templatesDir, o.outDir, outputs)) return 1;
    int stale = 0;
    for (const auto& out : outputs) {
      const bool same = readIfExists(out.path) == out.content;
      if (same) {
        if (!o.check) std::cout << "unchanged " << out.path.string() << "\n";
        continue;
      }
      if (o.check) {
        std::cout << out.path.string() << ": out of date with its spec\n";
        ++stale;
      } else if (o.dryRun) {
        std::cout << "would write " << out.path.string() << "\n";
      } else {
        fs::create_directories(out.path.parent_path());
        writeAtomically(out.path, out.content);
        std::cout << "wrote " << out.path.string() << "\n";
      }
    }
    if (o.check && stale) {
      std::cerr << stale << " generated file(s) are stale; run simdgen generate to update them\n";
      return 1;
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "simdgen: error: " << e.what() << "\n";
    return 1;
  }
}

int runExplain(const std::string& specFile, const std::string& target, bool json, const std::string& templatesDir) {
  std::vector<KernelSpec> specs;
  try {
    if (!loadSpecs({specFile}, specs)) return 1;
    emit::GeneratedKernel g = emit::generate(specs[0], emit::Templates::load(templatesDir), specFile);
    const bool known = target.empty() || std::any_of(g.variants.begin(), g.variants.end(),
                                                     [&](const emit::Variant& v) { return v.target.spelling == target; });
    if (json && known) {
      std::cout << explainJson(g, target);
      return 0;
    }
    bool any = false;
    for (const auto& v : g.variants) {
      if (!target.empty() && v.target.spelling != target) continue;
      any = true;
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
    if (!any && !target.empty()) {
      std::cerr << specFile << ": error: no emitted variant for target '" << target << "'\n";
      return 1;
    }
    return 0;
  } catch (const PlanError& e) {
    std::cerr << specErrorAt(specs[0], e.pointer, e.what()).what() << "\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "simdgen: error: " << e.what() << "\n";
    return 1;
  }
}

int runValidate(const std::vector<std::string>& files) {
  std::vector<KernelSpec> specs;
  if (!loadSpecs(files, specs)) return 1;
  // Planning for each target finds unsupported combinations the schema cannot express.
  bool ok = true;
  for (const auto& s : specs) {
    try {
      for (const auto& t : s.targets) buildPlan(s, makeTarget(t));
      std::cout << s.file.string() << ": ok\n";
    } catch (const PlanError& e) {
      std::cerr << specErrorAt(s, e.pointer, e.what()).what() << "\n";
      ok = false;
    }
  }
  return ok ? 0 : 1;
}

int runCheck(const std::vector<std::string>& inputs, const std::string& templatesDir) {
  bool ok = true;
  for (const auto& in : inputs) {
    std::string mainName, source;
    std::vector<std::pair<std::string, std::string>> extra;
    try {
      if (fs::path(in).extension() == ".json") {
        std::vector<KernelSpec> specs;
        if (!loadSpecs({in}, specs)) {
          ok = false;
          continue;
        }
        std::vector<Output> outs = render(specs[0], emit::Templates::load(templatesDir), ".");
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
      std::cout << (r.ok ? "ok   " : "FAIL ") << mainName << " (" << triple << ")\n";
      ok = ok && r.ok;
    }
  }
  return ok ? 0 : 1;
}

}  // namespace simdgen::cli
