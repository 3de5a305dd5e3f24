// SPDX-License-Identifier: Apache-2.0
#include "plan/api_docs.h"

namespace simdgen {

namespace {

std::string extentText(const Extent& e) { return e.isStatic() ? std::to_string(*e.value) : e.name; }

}  // namespace


std::string reduceFormula(const KernelSpec& s) {
  const std::string op(nameOf(s.op));
  const std::string stride = s.rowStride ? extentText(*s.rowStride) : extentText(s.cols);
  if (s.rank == 1) return "output[0] = " + op + " over j < " + extentText(s.cols) + " of input[j]";
  if (s.axis == 1)
    return "output[i] = " + op + " over j < " + extentText(s.cols) + " of input[i * " + stride + " + j], for i < " + extentText(s.rows);
  return "output[j] = " + op + " over i < " + extentText(s.rows) + " of input[i * " + stride + " + j], for j < " + extentText(s.cols);
}

std::vector<std::string> argReduceApiDoc(const KernelSpec& s) {
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
  return d;
}

std::vector<std::string> reduceApiDoc(const KernelSpec& s, Strategy strategy) {
  std::vector<std::string> d;
  d.push_back("/// " + s.name + ": " + reduceFormula(s) + ".");
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
    d.push_back(s.order == FloatOrder::sequential || s.axis == 0 || strategy == Strategy::inner_parallel
                    ? "/// Floating point: each result is bit-identical to a left-to-right loop."
                    : "/// Floating point: the reduction is reassociated (vector accumulators); results may differ from a left-to-right loop in the last bits.");
  d.push_back("/// An empty reduction yields the identity of " + std::string(nameOf(s.op)) + " in the input type (" +
              identityLiteral(s.op, s.input) + "), converted to the output type.");
  d.push_back("/// Thread-safe: picks the best variant for this CPU once (variants are also callable by name).");
  return d;
}

}  // namespace simdgen
