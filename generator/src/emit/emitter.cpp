#include "emit/emitter.h"

#include <kainjow/mustache.hpp>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "emit/lowering.h"
#include "plan/arg_reduce_builder.h"
#include "plan/reduce_builder.h"
#include "sim/lane_sim.h"

namespace simdgen::emit {

namespace mst = kainjow::mustache;

namespace {

std::string readFile(const std::filesystem::path& p) {
  std::ifstream f(p, std::ios::binary);
  if (!f) throw std::runtime_error(p.string() + ": cannot read template");
  std::ostringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

// Walks the plan and writes C++ statements.
struct BodyWriter {
  LowerContext& cx;
  std::vector<std::string> lines;

  void block(const ir::Block& b) {
    for (const ir::Stmt& s : b) {
      switch (s.kind) {
        case ir::Stmt::Kind::Comment: lines.push_back("// " + s.text); break;
        case ir::Stmt::Kind::Op:
          for (auto& l : lowerOp(s, cx)) lines.push_back(l);
          if (s.op == ir::OpKind::ReduceRows) {
            std::vector<std::string> table = sim::foldLaneTable(s.network);
            lines.push_back("// Lane table (row in each lane of the first vector after each stage):");
            for (const auto& t : table) lines.push_back("//   " + t);
          }
          break;
        case ir::Stmt::Kind::For: {
          if (!s.text.empty()) lines.push_back("// " + s.text);
          if (!s.continues) lines.push_back("int64_t " + s.var + " = " + s.lo.str() + ";");
          const std::string step = s.step == 1 ? "++" + s.var : s.var + " += " + std::to_string(s.step);
          const std::string cond = s.step == 1 ? s.var + " < " + s.hi.str() : s.var + " + " + std::to_string(s.step) + " <= " + s.hi.str();
          lines.push_back("for (; " + cond + "; " + step + ") {");
          block(s.body);
          lines.push_back("}");
          break;
        }
        case ir::Stmt::Kind::IfValues:
          if (!s.text.empty()) lines.push_back("// " + s.text);
          lines.push_back("if (" + s.args[0] + " " + std::string(ir::symbolOf(s.cmp)) + " " + s.args[1] + ") {");
          block(s.body);
          lines.push_back("}");
          break;
        case ir::Stmt::Kind::If:
          if (!s.text.empty()) lines.push_back("// " + s.text);
          lines.push_back("if (" + s.cmpLhs.str() + " < " + s.cmpRhs.str() + ") {");
          block(s.body);
          lines.push_back("}");
          break;
      }
    }
  }
};

std::string join(const std::vector<std::string>& v, const std::string& sep) {
  std::string r;
  for (size_t k = 0; k < v.size(); ++k) r += (k ? sep : "") + v[k];
  return r;
}

std::string params(const KernelSpec& spec) {
  std::string p = "const " + std::string(cTypeOf(spec.input)) + "* input";
  for (const Extent* e : {&spec.rows, &spec.cols})
    if (!e->isStatic() && !(spec.rank == 1 && e == &spec.rows)) p += ", int64_t " + e->name;
  if (spec.rowStride && !spec.rowStride->isStatic()) p += ", int64_t " + spec.rowStride->name;
  if (spec.kind == KernelKind::arg_reduce)
    return p + ", " + std::string(cTypeOf(spec.input)) + "* values, " + std::string(cTypeOf(spec.indexType)) + "* indices";
  return p + ", " + std::string(cTypeOf(spec.output)) + "* output";
}

std::string args(const KernelSpec& spec) {
  std::string a = "input";
  for (const Extent* e : {&spec.rows, &spec.cols})
    if (!e->isStatic() && !(spec.rank == 1 && e == &spec.rows)) a += ", " + e->name;
  if (spec.rowStride && !spec.rowStride->isStatic()) a += ", " + spec.rowStride->name;
  return a + (spec.kind == KernelKind::arg_reduce ? ", values, indices" : ", output");
}

std::string extentText(const Extent& e) { return e.isStatic() ? std::to_string(*e.value) : e.name; }

std::string opFormula(const KernelSpec& s) {
  const std::string op(nameOf(s.op));
  const std::string stride = s.rowStride ? extentText(*s.rowStride) : extentText(s.cols);
  if (s.rank == 1) return "output[0] = " + op + " over j < " + extentText(s.cols) + " of input[j]";
  if (s.axis == 1)
    return "output[i] = " + op + " over j < " + extentText(s.cols) + " of input[i * " + stride + " + j], for i < " + extentText(s.rows);
  return "output[j] = " + op + " over i < " + extentText(s.rows) + " of input[i * " + stride + " + j], for j < " + extentText(s.cols);
}

std::string argApiDoc(const KernelSpec& s) {
  const bool max = s.op == ReduceOp::max;
  const std::string stride = s.rowStride ? extentText(*s.rowStride) : extentText(s.cols);
  const std::string idx(nameOf(s.indexType));
  std::vector<std::string> d;
  d.push_back("/// " + s.name + ": for each row i < " + extentText(s.rows) + ", the " + (max ? "maximum" : "minimum") + " of input[i * " +
              stride + " + j], j < " + extentText(s.cols) + ", and its " + (s.lastIndex ? "last" : "first") + " index j.");
  if (!s.description.empty()) d.push_back("/// " + s.description);
  d.push_back("///");
  d.push_back(std::string("/// Exactly the scalar loop `if (x ") + (max ? (s.lastIndex ? ">=" : ">") : (s.lastIndex ? "<=" : "<")) +
              " best) { best = x; index = j; }` over the row, starting from " +
              (s.initialValue ? "best = " + *s.initialValue + ", index = " + std::to_string(*s.initialIndex) +
                                    " (returned when no element beats it)"
                              : std::string(s.lastIndex ? "best = the identity (" + identityLiteral(s.op, s.input) + "), index = -1"
                                                        : "the first element equal to the extreme (NumPy's arg" + std::string(max ? "max" : "min") + ")") +
                                    "; an empty row gives (" + identityLiteral(s.op, s.input) + ", -1)"));
  if (isFloat(s.input)) {
    d.push_back(s.nan == NanPolicy::propagate ? "/// NaN: the first NaN of a row wins (value NaN, its index), like NumPy."
                                              : "/// NaN: ignored (never beats); a row of only NaNs gives (" + identityLiteral(s.op, s.input) + ", -1).");
    d.push_back("/// -0.0 and +0.0 compare equal; infinities are ordinary values.");
  }
  d.push_back("/// values: one " + std::string(nameOf(s.input)) + " per row; indices: one " + idx + " per row (column within the row).");
  d.push_back(s.indexType == DType::i64 ? "/// Indices are computed in 64 bits: any row length is handled."
                                        : "/// Indices are computed in 64 bits and stored as i32: rows longer than 2^31 - 1 elements "
                                          "would wrap the stored index (use index_type i64).");
  d.push_back("/// No alignment is required. Thread-safe; picks the best variant for this CPU once.");
  return join(d, "\n");
}

std::string apiDoc(const KernelSpec& s) {
  if (s.kind == KernelKind::arg_reduce) return argApiDoc(s);
  std::vector<std::string> d;
  d.push_back("/// " + s.name + ": " + opFormula(s) + ".");
  if (!s.description.empty()) d.push_back("/// " + s.description);
  d.push_back("///");
  d.push_back("/// input:  " + std::string(nameOf(s.input)) + " elements, row-major" +
              (s.rank == 2 ? std::string(", row i starting at input + i * ") + (s.rowStride ? extentText(*s.rowStride) : extentText(s.cols)) : "") +
              ". No alignment is required.");
  for (const Extent* e : {&s.rows, &s.cols})
    if (!e->isStatic() && !(s.rank == 1 && e == &s.rows))
      d.push_back("/// " + e->name + ": " + (e == &s.rows ? "rows" : "columns") + " (>= 0).");
  if (s.rowStride && !s.rowStride->isStatic())
    d.push_back("/// " + s.rowStride->name + ": elements between row starts (>= columns).");
  d.push_back("/// output: " + std::string(s.rank == 1 ? "1 element" : s.axis == 1 ? "one element per row" : "one element per column") +
              " of " + std::string(nameOf(s.output)) + "; must not overlap input.");
  if (!isFloat(s.output) && (s.op == ReduceOp::add || s.op == ReduceOp::mul))
    d.push_back("/// Integer " + std::string(nameOf(s.op)) + " wraps modulo 2^" + std::to_string(bitsOf(s.output)) + " (the output type).");
  if (isFloat(s.input) && (s.op == ReduceOp::min || s.op == ReduceOp::max))
    d.push_back("/// NaN elements are ignored; -0.0 and +0.0 compare equal (either may be returned).");
  if (isFloat(s.input) && (s.op == ReduceOp::add || s.op == ReduceOp::mul))
    d.push_back(s.order == FloatOrder::sequential || s.axis == 0 || resolveStrategy(s) == Strategy::inner_parallel
                    ? "/// Floating point: each result is bit-identical to a left-to-right loop."
                    : "/// Floating point: the reduction is reassociated (vector accumulators); results may differ from a left-to-right loop in the last bits.");
  d.push_back("/// An empty reduction yields the identity of " + std::string(nameOf(s.op)) + " in the input type (" +
              identityLiteral(s.op, s.input) + "), converted to the output type.");
  d.push_back("/// Thread-safe: picks the best variant for this CPU once (variants are also callable by name).");
  return join(d, "\n");
}

}  // namespace

Templates Templates::load(const std::filesystem::path& dir) {
  return {readFile(dir / "kernel.h.mustache"), readFile(dir / "kernel.cpp.mustache"), readFile(dir / ".clang-format")};
}

std::string specHash(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

GeneratedKernel generate(const KernelSpec& spec, const Templates& templates, const std::string& specRef) {
  GeneratedKernel g;
  g.name = spec.name;
  std::vector<Target> targets;
  for (const auto& req : spec.targets) targets.push_back(makeTarget(req));
  std::stable_sort(targets.begin(), targets.end(), [](const Target& a, const Target& b) { return a.priority > b.priority; });

  bool laneMask = false, tailKeep = false;
  for (const Target& t : targets) {
    Variant v{t, buildPlan(spec, t), "", {}};
    LowerContext cx{t, v.plan};
    BodyWriter w{cx, {}};
    for (const auto& [name, value] : v.plan.constants) w.lines.push_back("constexpr int64_t " + name + " = " + std::to_string(value) + ";");
    const size_t bodyStart = w.lines.size();
    w.block(v.plan.body);
    std::vector<std::string> pre;
    if (!cx.scalarFallbackCall.empty()) {
      pre.push_back("// Gathers use 32-bit row offsets: larger strides take the scalar variant.");
      pre.push_back(cx.scalarFallbackCall + " {");
      pre.push_back(spec.name + "_scalar(" + args(spec) + ");");
      pre.push_back("return;");
      pre.push_back("}");
    }
    pre.insert(pre.end(), cx.prelude.begin(), cx.prelude.end());
    w.lines.insert(w.lines.begin() + bodyStart, pre.begin(), pre.end());
    v.body = join(w.lines, "\n");
    laneMask = laneMask || cx.usesLaneMask;
    tailKeep = tailKeep || cx.usesTailKeepTable;
    v.notes = v.plan.summary;
    for (const auto& i : cx.instructions) v.notes.push_back("uses " + i);
    // A feature variant whose code equals a plainer variant's adds nothing but a CPU requirement:
    // targets come best first, so keep the later (plainer) one in the earlier one's place.
    auto same = std::find_if(g.variants.begin(), g.variants.end(), [&](const Variant& o) { return o.body == v.body; });
    if (same != g.variants.end()) {
      g.dropped.push_back(same->target.spelling + ": identical to " + t.spelling + " for this kernel, not emitted");
      *same = std::move(v);
    } else {
      g.variants.push_back(std::move(v));
    }
  }

  mst::data data;
  const std::string provenance =
      "// Generated by simdgen " SIMDGEN_VERSION " from " + specRef + " (spec fnv1a64 " + specHash(spec.text) + ").\n"
      "// Do not edit: regenerate with `simdgen generate " + specRef + " -o <this directory>`.";
  data.set("provenance", provenance);
  data.set("name", spec.name);
  data.set("params", params(spec));
  data.set("args", args(spec));
  data.set("api_doc", apiDoc(spec));
  data.set("lane_mask_helper", mst::data(laneMask));
  data.set("tail_keep_table", mst::data(tailKeep));
  mst::data x86list{mst::data::type::list}, variants{mst::data::type::list};
  std::vector<std::string> summary{"Plan summary (`simdgen explain` prints the full plans):"};
  if (spec.kind == KernelKind::reduce)
    summary.push_back("  " + opFormula(spec) + "; " + std::string(nameOf(spec.input)) + " -> " + std::string(nameOf(spec.output)));
  for (const auto& d : g.dropped) summary.push_back("  " + d);
  for (const Variant& v : g.variants) {
    mst::data item;
    item.set("suffix", v.target.suffix);
    item.set("attribute", v.target.attribute);
    item.set("x86", mst::data(v.target.isa != "scalar"));
    item.set("body", v.body);
    std::string comment = "// ---- " + v.target.spelling + (v.target.vectorBits ? " (" + std::to_string(v.target.vectorBits) + "-bit vectors)" : " (portable C++)") + "\n";
    for (const auto& n : v.notes) comment += "// " + n + "\n";
    item.set("comment", comment);
    item.set("cpu_check", v.target.cpuCheck);
    variants.push_back(item);
    if (v.target.isa != "scalar") {
      mst::data s;
      s.set("suffix", v.target.suffix);
      s.set("cpu_check", v.target.cpuCheck);
      x86list.push_back(s);
    }
  }
  data.set("plan_summary", "// " + join(summary, "\n// "));
  data.set("variants", variants);
  data.set("x86_variants", x86list);

  for (auto [text, out] : {std::pair{&templates.header, &g.header}, std::pair{&templates.source, &g.source}}) {
    mst::mustache tmpl(*text);
    if (!tmpl.is_valid()) throw std::runtime_error("template error: " + tmpl.error_message());
    *out = tmpl.render(data);
  }
  return g;
}

}  // namespace simdgen::emit
