// SPDX-License-Identifier: Apache-2.0
// Turns a spec's plans into the C++ text of NAME.h and NAME.cpp through templates/.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen::emit {

struct Templates {
  std::string header, source, clangFormat;
  static Templates load(const std::filesystem::path& dir);  // throws std::runtime_error
};

struct Variant {
  Target target;
  ir::Plan plan;
  std::string body;           // lowered function body
  std::vector<std::string> notes;
};

struct GeneratedKernel {
  std::string name;
  std::string header, source;       // not laid out; the CLI lays them out (emit/layout.h)
  std::vector<Variant> variants;    // what was emitted, best first
  std::vector<std::string> dropped; // variants identical to another one, with the reason
  std::string parallel;             // "parallel": true: how NAME_parallel() splits the work ("" = none)
};

// The user's lines at the top of each generated file (empty = none): an SPDX license expression and
// a copyright holder, written as REUSE/SPDX tags (generate --spdx, --copyright).
struct FileHeader {
  std::string spdx;       // "MIT", "LicenseRef-Proprietary", "Apache-2.0 OR MIT"
  std::string copyright;  // "2026 Example Corp <legal@example.com>"
};

// `specRef` is how the provenance header names the spec (a path relative to the output dir).
GeneratedKernel generate(const KernelSpec& spec, const Templates& templates, const std::string& specRef,
                         const FileHeader& header = {});

// A plan built outside a spec (tests, new families) as one complete C++ function: the file-level
// text it needs (module preambles, helpers; each under its architecture guard) and the function
// itself (attribute, signature from the plan's parameters, lowered body). Unformatted.
struct EmittedFunction {
  std::string guard;                 // architecture guard of the target's module ("" = none)
  std::string preamble;              // the module's headers and workarounds
  std::vector<std::string> helpers;  // file-level helper definitions the function uses
  std::string function;              // guarded, with its target attribute
};
EmittedFunction emitFunction(const ir::Plan& plan, const Target& target, const std::string& name);

// FNV-1a 64-bit of the spec bytes, as 16 hex digits (recorded in the provenance header).
std::string specHash(const std::string& text);

}  // namespace simdgen::emit
