// SPDX-License-Identifier: Apache-2.0
#include "emit/parallel_entry.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "core/dtype.h"
#include "core/text.h"

namespace simdgen {
namespace {

// The symbol an index is, alone and with coefficient 1 (a runtime extent), else "".
std::string plainSymbol(const ir::Index& i) {
  const ir::Index s = i.simplified();
  if (s.terms.size() != 1 || s.terms[0].coef != 1 || s.terms[0].symbols.size() != 1) return "";
  return s.terms[0].symbols[0];
}

std::string paramType(const ir::Plan& plan, const ir::Param& p) {
  if (p.kind == ir::Param::Kind::extent) return "int64_t";
  if (p.kind == ir::Param::Kind::scalar) return std::string(cTypeOf(p.dtype));
  const ir::Tensor& t = plan.tensor(p.tensor);
  return std::string(t.output ? "" : "const ") + std::string(cTypeOf(t.dtype)) + "*";
}

}  // namespace

std::string runnerDeclaration() {
  return "#ifndef SIMDGEN_RUNNER_DEFINED\n"
         "#define SIMDGEN_RUNNER_DEFINED\n"
         "// A task runner for the _parallel() entry points: run(ctx, tasks, task, arg) calls task(arg, i)\n"
         "// exactly once for every i in [0, tasks), in any order, on any threads (the caller's included),\n"
         "// and returns once every call has returned. A kernel never starts threads itself: plug a pool\n"
         "// here (runtime/simdgen_threads.h has one on std::thread; docs/parallel.md shows OpenMP and TBB).\n"
         "typedef struct simdgen_runner {\n"
         "  void (*run)(void* ctx, int64_t tasks, void (*task)(void* arg, int64_t i), void* arg);\n"
         "  void* ctx;\n"
         "} simdgen_runner;\n"
         "#endif";
}

std::variant<ir::Companion, std::string> parallelEntry(const ir::Plan& plan, const std::string& name) {
  // Reductions down columns (axis 0) are not split: splitting their columns is untested here.
  for (const auto& [key, value] : plan.semantics)
    if ((key == "axis" || key.rfind("axis.", 0) == 0) && value == "0")
      return std::string("a reduction down the columns (axis 0) is not split into tasks yet");
  // The extent to split: the outermost one of the first output (the rows of a row reduction,
  // a transpose's output rows, a contraction's batch or i), a runtime extent (a parameter). A
  // kernel whose output is one value (a 1-D sum) has none: its input's, refused below.
  const ir::Tensor* first = nullptr;  // the first input: its bytes per part set the grain
  const ir::Tensor* out = nullptr;
  for (const ir::Tensor& t : plan.tensors) {
    if (!t.output && !t.scratch && !first) first = &t;
    if (t.output && !t.scratch && !out) out = &t;
  }
  const ir::Tensor* by = out && !out->extents.empty() ? out : first;
  if (!first || !by || by->extents.empty()) return std::string("the kernel has no extent to split");
  const std::string split = plainSymbol(by->extents[0]);
  const auto param = std::find_if(plan.params.begin(), plan.params.end(),
                                  [&](const ir::Param& p) { return p.kind == ir::Param::Kind::extent && p.name == split; });
  if (split.empty() || param == plan.params.end()) {
    std::string value = by->extents[0].str();
    for (const auto& [symbol, v] : plan.constants)
      if (symbol == split) value = std::to_string(v);
    if (by == out && value == "1" && out->extents.size() == 1)
      return "the output is one value (a reduction over everything): a split would change its order of operations";
    return "the outermost extent of the " + std::string(by == out ? "output" : "input") + " is static (" + value +
           "): a parallel kernel splits a runtime extent (name it in the shape, \"rows\")";
  }
  const std::string publicSplit = param->publicName;

  // Each tensor's pointer moves by its stride along that extent; every output must run along it
  // (a column reduction, or a 1-D sum, adds up every row into one place: not split).
  std::vector<std::string> offsets(plan.params.size());
  for (size_t k = 0; k < plan.params.size(); ++k) {
    const ir::Param& p = plan.params[k];
    if (p.kind != ir::Param::Kind::tensor) continue;
    const ir::Tensor& t = plan.tensor(p.tensor);
    // A part's call passes its own count for the extent: a stride or another extent computed from
    // it would change with the part (a square matrix's columns, a dense operand's row stride).
    auto mentions = [&](const ir::Index& i) {
      for (const ir::Term& term : i.terms)
        if (std::find(term.symbols.begin(), term.symbols.end(), split) != term.symbols.end()) return true;
      return false;
    };
    for (const ir::Index& stride : t.strides)
      if (mentions(stride))
        return "the layout of " + p.publicName + " depends on " + publicSplit + " itself (a default stride): give it its own runtime row_stride to split " +
               publicSplit;
    size_t d = 0;
    while (d < t.extents.size() && plainSymbol(t.extents[d]) != split) ++d;
    for (size_t e = 0; e < t.extents.size(); ++e)
      if (e != d && mentions(t.extents[e]))
        return "another extent of " + p.publicName + " depends on " + publicSplit + " too: a part's count would change it; give the extents their own names to split " +
               publicSplit;
    if (d == t.extents.size()) {
      if (t.output)
        return "the output " + p.publicName + " does not run along " + publicSplit +
               " (it sums over all of them): a split would change its order of operations";
      continue;  // an input every part reads whole
    }
    const ir::Index stride = t.strides[d].simplified();
    // The pointer of part `first`: + first, + first * 3, + first * stride, + first * (expr).
    const auto c = stride.constantValue();
    if (c == 0) continue;
    offsets[k] = c == 1 ? " + first" : " + first * " + (c || !plainSymbol(stride).empty() ? stride.str() : "(" + stride.str() + ")");
  }

  std::vector<std::string> publicParams, ownParams, ownArgs, members, unpack;
  for (size_t k = 0; k < plan.params.size(); ++k) {
    const ir::Param& p = plan.params[k];
    const std::string type = paramType(plan, p);
    publicParams.push_back(type + " " + p.publicName);
    ownParams.push_back(type + " " + p.name);
    members.push_back("  " + type + " " + p.name + ";");
    unpack.push_back("  const auto " + p.name + " = call." + p.name + ";");
    if (p.name == split) ownArgs.push_back("count");
    else if (offsets[k].empty()) ownArgs.push_back(p.name);
    else ownArgs.push_back(p.name + offsets[k]);
  }
  // Bytes per unit of the split extent that set the grain: the first input's element size times
  // its other extents; for a contraction the output's (an operand may not run along the split, and
  // the work grows with the output). Row kernels split at multiples of 64 rows, where their groups
  // of rows start; a contraction computes each output element by the same chain of steps in any
  // register tile, so it splits anywhere.
  const bool contraction = plan.family == "contraction";
  const ir::Tensor& unitTensor = contraction ? *out : *first;
  const int align = contraction ? 1 : 64;
  std::string unitBytes = std::to_string(bytesOf(unitTensor.dtype));
  for (const ir::Index& e : unitTensor.extents)
    if (plainSymbol(e) != split) unitBytes += " * (" + e.str() + ")";
  // Static extents the expressions above name (the plan binds them as constants).
  auto names = [](const std::string& text, const std::string& symbol) {
    for (size_t at = text.find(symbol); at != std::string::npos; at = text.find(symbol, at + 1)) {
      const bool before = at == 0 || !(std::isalnum(static_cast<unsigned char>(text[at - 1])) || text[at - 1] == '_');
      const size_t end = at + symbol.size();
      const bool after = end == text.size() || !(std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_');
      if (before && after) return true;
    }
    return false;
  };
  std::vector<std::string> taskConstants, entryConstants;
  for (const auto& [symbol, value] : plan.constants) {
    const std::string line = "  const int64_t " + symbol + " = " + std::to_string(value) + ";";
    if (std::any_of(offsets.begin(), offsets.end(), [&](const std::string& o) { return names(o, symbol); })) taskConstants.push_back(line);
    if (names(unitBytes, symbol)) entryConstants.push_back(line);
  }

  std::vector<std::string> args;
  for (const ir::Param& p : plan.params) args.push_back(p.name);
  const std::string call = name + "_parallel_call", task = name + "_parallel_task";
  std::string def;
  def += "#ifndef SIMDGEN_PARALLEL_GRAIN_BYTES\n#define SIMDGEN_PARALLEL_GRAIN_BYTES " + std::to_string(kParallelGrainBytes) + "\n#endif\n";
  def += "static_assert(SIMDGEN_PARALLEL_GRAIN_BYTES >= " + std::to_string(kMinParallelGrainBytes) +
         ", \"a part must hold more than L1 (32 KiB): the kernels choose some paths by their input's size\");\n";
  def += "namespace {\n";
  def += "// The arguments of one " + name + "_parallel() call, shared read-only by its tasks.\n";
  def += "struct " + call + " {\n" + join(members, "\n") + "\n  int64_t per_task, tasks;\n};\n\n";
  def += "// Task i: the kernel on " + split + " [i * per_task, (i + 1) * per_task), the last task to the end.\n";
  def += "void " + task + "(void* arg, int64_t i) {\n";
  def += "  const " + call + "& call = *static_cast<const " + call + "*>(arg);\n";
  def += join(unpack, "\n") + "\n";
  if (!taskConstants.empty()) def += join(taskConstants, "\n") + "\n";
  def += "  const int64_t first = i * call.per_task;\n";
  def += "  const int64_t count = i == call.tasks - 1 ? " + split + " - first : call.per_task;  // the last part takes the rest\n";
  def += "  " + name + "(" + join(ownArgs, ", ") + ");\n";
  def += "}\n}  // namespace\n\n";
  def += "void " + name + "_parallel(" + join(ownParams, ", ") + ", const simdgen_runner* runner) {\n";
  if (!entryConstants.empty()) def += join(entryConstants, "\n") + "\n";
  if (align > 1) {
    def += "  // Parts of whole multiples of " + std::to_string(align) + " (each starts where the serial kernel's groups do) and at\n";
    def += "  // least the grain's bytes (a kernel that chooses its path by its input's size, such as a\n";
    def += "  // reduction by whether it fits in L1, then chooses in every part as for the whole).\n";
  } else {
    def += "  // Parts of at least the grain's bytes of output (every output element is computed alike in any part).\n";
  }
  def += "  const int64_t unit_bytes = " + unitBytes + " > 0 ? " + unitBytes + " : 1;\n";
  def += "  int64_t per_task = ((int64_t)SIMDGEN_PARALLEL_GRAIN_BYTES + unit_bytes - 1) / unit_bytes;\n";
  if (align > 1) def += "  per_task = (per_task + " + std::to_string(align - 1) + ") / " + std::to_string(align) + " * " + std::to_string(align) + ";\n";
  def += "  const int64_t tasks = " + split + " / per_task;\n";
  def += "  if (runner == nullptr || runner->run == nullptr || tasks < 2) {\n";
  def += "    " + name + "(" + join(args, ", ") + ");\n";
  def += "    return;\n  }\n";
  def += "  const " + call + " call = {" + join(args, ", ") + ", per_task, tasks};\n";
  def += "  runner->run(runner->ctx, tasks, " + task + ", const_cast<" + call + "*>(&call));\n";
  def += "}";

  // The runner's name in the header: apart from the user's names (a runtime extent may be `runner`).
  std::string runnerName = "runner";
  while (std::any_of(plan.params.begin(), plan.params.end(), [&](const ir::Param& p) { return p.publicName == runnerName; }))
    runnerName += "_";
  ir::Companion c;
  c.section = "// ---- parallel: the kernel over parts of " + publicSplit + ", run by the caller's task runner.";
  c.doc = {"/// " + name + "_parallel: the same as " + name + "(), its " + publicSplit + " split into tasks that `" + runnerName + "` runs",
           "///   (in any order, on any threads): parts of " + (align > 1 ? "whole multiples of 64 " + publicSplit + " with " : publicSplit + " with ") + "at least",
           "///   SIMDGEN_PARALLEL_GRAIN_BYTES (" + std::to_string(kParallelGrainBytes / 1024) + " KiB) of " + (contraction ? "output" : "input") + " each, the last one longer. Each",
           "///   part runs the serial kernel's code, so the results are " + name + "()'s bit for bit for any",
           "///   runner. A null runner, or less work than two tasks, runs " + name + "() on the calling thread."};
  c.declaration = "void " + name + "_parallel(" + join(publicParams, ", ") + ", const simdgen_runner* " + runnerName + ")";
  c.definition = def;
  return c;
}

std::string parallelSummary(const ir::Plan& plan, const std::string& name) {
  std::string split = "its outermost extent";
  for (const ir::Tensor& t : plan.tensors)  // as parallelEntry chooses: the first output's outermost extent
    if (t.output && !t.scratch && !t.extents.empty()) {
      for (const ir::Param& p : plan.params)
        if (p.kind == ir::Param::Kind::extent && p.name == plainSymbol(t.extents[0])) split = p.publicName;
      break;
    }
  const bool contraction = plan.family == "contraction";
  return "parallel: " + name + "_parallel() runs this kernel on parts of " + split + " (" + (contraction ? "" : "whole multiples of 64, ") +
         "at least " + std::to_string(kParallelGrainBytes / 1024) + " KiB of " + (contraction ? "output" : "input") + " each: tasks = " + split +
         " / part, the last part longer; fewer than 2 tasks: one call on the caller's thread), bit for bit the serial results";
}

}  // namespace simdgen
