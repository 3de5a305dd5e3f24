// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/rows_expr_model.h"

#include <algorithm>
#include <cmath>
#include <regex>
#include <set>

#include "clang/lift/matrix_address.h"

namespace simdgen::lift {

using namespace clang;

namespace {

// `name` as a whole word of `expr` replaced by `to` (an input's name in the map expressions).
std::string renameWord(const std::string& expr, const std::string& name, const std::string& to) {
  return std::regex_replace(expr, std::regex("\\b" + name + "\\b"), to);
}

// The kernel computes each row from nothing: the row's accumulator must start from the op's
// identity (+0 for float sums: -0 + terms would keep a -0 the kernel's +0 start does not).
bool startsFromIdentity(const std::string& op, const Expr* init, const ASTContext& ctx) {
  Expr::EvalResult result;
  if (op != "add" && op != "and" && op != "or" && op != "xor") return false;  // min/max rows: not lifted
  if (!init->EvaluateAsRValue(result, ctx) || result.HasSideEffects) return false;
  const APValue& v = result.Val;
  if (v.isFloat()) return op == "add" && v.getFloat().isPosZero();
  if (!v.isInt()) return false;
  return op == "and" ? v.getInt().isAllOnes() : v.getInt().isZero();
}

}  // namespace

void ExprRows::model(RowsLift& lift, const std::vector<const BinaryOperator*>& stores) const {
  ExprReduceLift& er = *lift.expr;
  MapLift& map = er.map;

  // A scalar the row's loop reads is one value for all rows (a param), or a local of the row loop
  // that reads one element per row (`float m = mean[r];`): an input with stride 0 and row stride 1.
  std::vector<RowsLift::Input> perRow;
  for (auto p = map.params.begin(); p != map.params.end();) {
    if (p->text == rows.model.inductionName) throw NotLiftable{"the row's loop reads the row counter `" + p->text + "` as a value"};
    if (!localByName.count(p->text)) {
      ++p;
      continue;
    }
    const VarDecl* v = localByName.at(p->text);
    const auto* sub = dyn_cast<ArraySubscriptExpr>(locals.at(v)->IgnoreParenImpCasts());
    if (!sub || canonicalType(sub->getType()) != canonicalType(v->getType()))
      throw NotLiftable{"`" + p->text + "` changes from row to row and is not an element of an array read as it is (`float m = mean[r];`)"};
    RowsLift::Input layout;
    layout.first = perRowInput(map, p, *sub, ctx, rows.counter, rows.model.startText, locals);
    layout.perRow = true;
    perRow.push_back(layout);
  }

  // Each input: rows of a matrix (a + r * stride + c) or one row for all (x[c]).
  std::set<std::string> names = {"rows", "cols"};
  for (const auto& in : map.inputs) names.insert(in.name);
  for (const auto& p : map.params) names.insert(p.name);
  for (const auto& out : map.outputs) names.insert(out.name);
  for (auto& in : map.inputs) {
    if (!in.origin) continue;  // a per-row value, above
    const auto* load = static_cast<const Expr*>(in.origin);
    const auto* sub = load ? dyn_cast<ArraySubscriptExpr>(load->IgnoreParens()) : nullptr;
    if (!sub) throw NotLiftable{"the row's element `" + in.base + "` is not read as array[position]"};
    MatrixAddress address(ctx, rows.counter, cols.counter, locals);
    address.base(sub->getBase());
    address.index(sub->getIdx(), 1);
    const auto& o = address.outer;
    const auto& c = address.inner;
    if (c.unit != 1 || !c.stride.empty() || o.unit != 0)
      throw NotLiftable{"`" + sourceText(*sub, ctx) + "` is not element [r][c] of a matrix (a + r * stride + c) or [c] of a row"};
    RowsLift::Input layout;
    layout.first = address.first(rows.model.startText, cols.model.startText);
    layout.stride = o.stride;
    lift.inputs.push_back(layout);
    // Named after its array where the loop names it by a position (`w[i * n + j]`: w, not in0).
    if (in.name != address.array && identifierText(address.array) && !names.count(address.array)) {
      for (auto& out : map.outputs) out.expr = renameWord(out.expr, in.name, address.array);
      er.summary = renameWord(er.summary, in.name, address.array);
      names.erase(in.name);
      in.name = address.array;
      names.insert(in.name);
    }
  }

  lift.inputs.insert(lift.inputs.end(), perRow.begin(), perRow.end());  // after the arrays, as in map.inputs
  if (!perRow.empty()) {  // the summary's count of inputs: "(f32, 1 input)" -> "(f32, 2 inputs)"
    const size_t arrays = map.inputs.size() - perRow.size();
    const std::string before = std::to_string(arrays) + (arrays > 1 ? " inputs)" : " input)");
    if (const auto at = er.summary.rfind(before); at != std::string::npos)
      er.summary.replace(at, before.size(), std::to_string(map.inputs.size()) + " inputs)");
  }

  // The results: out[r + k] = acc, once per accumulator, in the accumulator's own type.
  std::map<std::string, std::string> at;
  for (const BinaryOperator* store : stores) {
    const auto* lhs = cast<ArraySubscriptExpr>(store->getLHS()->IgnoreParens());
    const VarDecl* v = referencedVar(store->getRHS());
    const auto acc = v && isa<DeclRefExpr>(store->getRHS()->IgnoreParenImpCasts())
                         ? std::find_if(er.accumulators.begin(), er.accumulators.end(),
                                        [&](const ExprReduceLift::Accumulator& a) { return a.name == v->getNameAsString(); })
                         : er.accumulators.end();
    if (acc == er.accumulators.end()) throw NotLiftable{"`" + sourceText(*store, ctx) + "` does not store an accumulator of the row"};
    const std::string want = canonicalType(v->getType());
    if (canonicalType(lhs->getType()) != want)
      throw NotLiftable{"`" + sourceText(*store, ctx) + "` converts the result (" + want + " to " + canonicalType(lhs->getType()) + ")"};
    MatrixAddress out(ctx, rows.counter, nullptr, locals);
    out.base(lhs->getBase());
    out.index(lhs->getIdx(), 1);
    if (out.outer.unit != 1 || !out.outer.stride.empty() || out.rowsOfArray)
      throw NotLiftable{"`" + sourceText(*lhs, ctx) + "` is not out[r + k]: one result per row, in order"};
    if (!at.emplace(acc->name, out.first(rows.model.startText, "0")).second) throw NotLiftable{"`" + acc->name + "` is stored twice"};
  }
  for (const auto& acc : er.accumulators) {
    if (!at.count(acc.name)) throw NotLiftable{"the row's `" + acc.name + "` is not stored (out[r] = " + acc.name + ";)"};
    lift.outputs.push_back(at[acc.name]);
    if (!startsFromIdentity(acc.op, locals.at(localByName.at(acc.name)), ctx))
      throw NotLiftable{"`" + acc.name + "` does not start from " + (acc.op == "and" ? "all ones" : acc.type.isFloat ? "+0" : "0") +
                        ", so the row's result is not the kernel's sum alone"};
  }
  // A division or scaling after the sum: only the contraction in order has the epilogue for it
  // (and rounds it as the loop does), so it is taken with --reassociate too.
  if (!lift.post.empty() && er.reassociates) er.sequential = true, er.reassociates = false;
  if (!lift.post.empty() && !er.sequential)
    throw NotLiftable{"`" + lift.post.front().text + "` follows the loop over the row: a division or a scaling only after a float sum of products"};
  if (er.sequential) inOrder(lift);
  lift.recognition.kind = er.sequential ? "contraction" : "map";
  lift.recognition.element = map.inputs.front().type;
  lift.recognition.summary = er.summary + ", over rows";
}

// A float sum without --reassociate keeps the loop's order only as a contraction with order
// "sequential" (one lane per row, each product rounded and added in column order): the sum of one
// product of a matrix element and an element of a row every row reads, y[r] = sum of W[r][c] * x[c].
void ExprRows::inOrder(RowsLift& lift) const {
  const ExprReduceLift& er = *lift.expr;
  const MapLift& map = er.map;
  const auto refuse = [](const std::string& why) {
    return NotLiftable{std::string(kReassociationRefusal) + " (in the loop's order, simdgen lifts y[r] = sum of W[r][c] * x[c]; " + why + ")"};
  };
  if (er.accumulators.size() != 1) throw refuse("this row has " + std::to_string(er.accumulators.size()) + " sums");
  const auto& acc = er.accumulators.front();  // acc -= t sums -(t): its expression below is no product
  if (!map.params.empty() || map.maxUlp > 0 || map.inputs.size() != 2) throw refuse("this term is not a product of two elements");
  const std::string a = map.inputs[0].name, b = map.inputs[1].name;
  if (map.outputs.front().expr != a + " * " + b) throw refuse("this term is " + map.outputs.front().expr);
  for (const auto& in : map.inputs)
    if (in.type.dtype != acc.type.dtype) throw refuse("`" + in.base + "` is " + in.type.spelling + ", the sum " + acc.type.spelling);
  for (const auto& in : lift.inputs)
    if (in.perRow) throw refuse("a value per row takes part");
  if (lift.inputs[0].stride.empty() == lift.inputs[1].stride.empty())
    throw refuse(lift.inputs[0].stride.empty() ? "both elements are the same for every row" : "both elements change with the row");
  std::string then;
  for (const auto& step : lift.post) {
    if (step.accumulator != acc.name) throw refuse("`" + step.text + "` changes another variable than the row's sum");
    then += ", then " + step.text;
  }
  lift.expr->summary = "sum in order of " + a + " * " + b + " (" + acc.type.dtype + ", a contraction)" + then;
}

}  // namespace simdgen::lift
