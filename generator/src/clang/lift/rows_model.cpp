// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/rows_model.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <optional>

#include <clang/AST/Expr.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>

#include "clang/lift/ast_model.h"
#include "clang/lift/matrix_address.h"
#include "clang/lift/rows_expr_model.h"
#include "clang/lift/lift_output.h"

namespace simdgen::lift {
namespace {

using namespace clang;

using NotRows = NotLiftable;

// The C type a kernel's pointer parameter has for a dtype (stdint.h on LP64 Linux), canonical.
std::string kernelCType(const std::string& dtype) {
  static const std::map<std::string, std::string> types = {
      {"i8", "signed char"}, {"u8", "unsigned char"}, {"i16", "short"}, {"u16", "unsigned short"},
      {"i32", "int"},        {"u32", "unsigned int"},  {"i64", "long"}, {"u64", "unsigned long"},
      {"f32", "float"},      {"f64", "double"}};
  return types.at(dtype);
}


std::optional<APValue> constantValue(const Expr* e, const ASTContext& ctx) {
  Expr::EvalResult result;
  if (!e->EvaluateAsRValue(result, ctx) || result.HasSideEffects) return std::nullopt;
  return result.Val;
}

double numeric(const APValue& v) {
  if (v.isInt()) return v.getInt().isSigned() ? static_cast<double>(v.getInt().getExtValue()) : static_cast<double>(v.getInt().getZExtValue());
  if (v.isFloat()) return v.getFloat().convertToDouble();
  return NAN;
}

// Reduce: the accumulator must start from a value the row's elements always replace, so that
// each row's result is the kernel's.
std::optional<std::string> notIdentity(const Recognition& r, const APValue& v) {
  const ScalarType& e = r.element;
  const double x = numeric(v);
  if (std::isnan(x)) return std::string("NaN");
  const double lo = e.isFloat ? -INFINITY : e.isSigned ? -std::ldexp(1.0, int(e.bits) - 1) : 0.0;
  const double hi = e.isFloat ? INFINITY : e.isSigned ? std::ldexp(1.0, int(e.bits) - 1) - 1 : std::ldexp(1.0, int(e.bits)) - 1;
  bool ok = false;
  if (r.op == "add" || r.op == "or" || r.op == "xor") ok = x == 0;
  else if (r.op == "mul") ok = x == 1;
  else if (r.op == "and") ok = v.isInt() && v.getInt().isAllOnes();
  else if (r.op == "max") ok = x <= lo;
  else if (r.op == "min") ok = x >= hi;
  if (ok) return std::nullopt;
  return std::string(v.isInt() ? llvm::toString(v.getInt(), 10) : std::to_string(x));
}

// A value every row computes alike: numbers, variables declared outside the row loop (not
// volatile), casts, arithmetic and sqrt/sqrtf of those; no memory read, nothing the rows change.
bool sameForEveryRow(const Expr* e, const VarDecl* counter, const std::map<const VarDecl*, const Expr*>& locals) {
  e = e->IgnoreParens();
  if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e)) return true;
  if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(ref->getDecl());
    return v && v != counter && !locals.count(v) && !v->getType().isVolatileQualified() && v->getType()->isArithmeticType();
  }
  if (const auto* c = dyn_cast<CastExpr>(e)) {
    if (c->getCastKind() == CK_LValueToRValue || c->getCastKind() == CK_IntegralCast || c->getCastKind() == CK_IntegralToFloating ||
        c->getCastKind() == CK_FloatingCast || c->getCastKind() == CK_NoOp)
      return sameForEveryRow(c->getSubExpr(), counter, locals);
    return false;
  }
  if (const auto* b = dyn_cast<BinaryOperator>(e))
    return (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub || b->getOpcode() == BO_Mul || b->getOpcode() == BO_Div) &&
           sameForEveryRow(b->getLHS(), counter, locals) && sameForEveryRow(b->getRHS(), counter, locals);
  if (const auto* u = dyn_cast<UnaryOperator>(e))
    return (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus) && sameForEveryRow(u->getSubExpr(), counter, locals);
  if (const auto* call = dyn_cast<CallExpr>(e)) {
    const FunctionDecl* f = call->getDirectCallee();
    const std::string name = f ? f->getNameAsString() : "";
    return (name == "sqrtf" || name == "sqrt") && call->getNumArgs() == 1 && sameForEveryRow(call->getArg(0), counter, locals);
  }
  return false;
}

// `acc /= v;`, `acc *= v;`, `acc = acc / v;` or `acc = acc * v;` on a local of the row loop, v the
// same for every row and the operation done in acc's own type (C's computation type: a double v
// would divide in double and round once more).
std::optional<RowsLift::PostStep> postStep(const Stmt* s, ASTContext& ctx, const VarDecl* counter,
                                           const std::map<const VarDecl*, const Expr*>& locals) {
  const auto* b = dyn_cast<BinaryOperator>(s);
  if (!b) return std::nullopt;
  const auto* lhs = dyn_cast<DeclRefExpr>(b->getLHS()->IgnoreParens());
  const auto* acc = lhs ? dyn_cast<VarDecl>(lhs->getDecl()) : nullptr;
  if (!acc || !locals.count(acc) || !acc->getType()->isRealFloatingType()) return std::nullopt;
  const Expr* value = nullptr;
  BinaryOperatorKind op = BO_Comma;
  QualType computation;
  if (const auto* c = dyn_cast<CompoundAssignOperator>(b)) {
    op = c->getOpcode() == BO_DivAssign ? BO_Div : c->getOpcode() == BO_MulAssign ? BO_Mul : BO_Comma;
    value = c->getRHS();
    computation = c->getComputationResultType();
  } else if (b->getOpcode() == BO_Assign) {
    const auto* rhs = dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParenImpCasts());
    const auto* self = rhs ? dyn_cast<DeclRefExpr>(rhs->getLHS()->IgnoreParenImpCasts()) : nullptr;
    if (!rhs || !self || self->getDecl() != acc) return std::nullopt;
    op = rhs->getOpcode();
    value = rhs->getRHS();
    computation = rhs->getType();
  }
  if ((op != BO_Div && op != BO_Mul) || !value) return std::nullopt;
  if (ctx.getCanonicalType(computation) != ctx.getCanonicalType(acc->getType())) return std::nullopt;
  if (!sameForEveryRow(value, counter, locals)) return std::nullopt;
  return RowsLift::PostStep{acc->getNameAsString(), op == BO_Div ? "div" : "scale", sourceText(*value, ctx), sourceText(*s, ctx)};
}

}  // namespace

bool hasInnerLoop(const ForStmt& loop) {
  const auto* body = dyn_cast<CompoundStmt>(loop.getBody());
  if (!body) return isa<ForStmt>(loop.getBody());
  return std::any_of(body->body_begin(), body->body_end(), [](const Stmt* s) { return isa<ForStmt>(s); });
}

std::variant<RowsLift, std::string> modelRows(const ForStmt& outer, ASTContext& ctx, const Options& options, int mathUlp,
                                              const ForStmt*& innerLoop) {
  try {
    auto head = loopHeader(outer, ctx);
    if (auto* why = std::get_if<std::string>(&head)) return *why;
    const LoopHeader& rows = std::get<LoopHeader>(head);
    RowsLift lift;
    lift.outer = rows.model;

    // { declarations; for (...) {...} stores of the results }
    const auto* body = dyn_cast<CompoundStmt>(outer.getBody());
    if (!body) throw NotRows{"the row loop's body is only its inner loop: nothing stores the rows' results"};
    std::map<const VarDecl*, const Expr*> locals;
    const ForStmt* inner = nullptr;
    std::vector<const BinaryOperator*> stores;
    for (const Stmt* s : body->body()) {
      if (!inner) {
        if (const auto* decls = dyn_cast<DeclStmt>(s)) {
          addRowLocals(*decls, ctx, locals);
          continue;
        }
        if ((inner = dyn_cast<ForStmt>(s))) continue;
        throw NotRows{"`" + sourceText(*s, ctx) + "` comes before the loop over the row (only declarations may)"};
      }
      if (stores.empty())
        if (auto step = postStep(s, ctx, rows.counter, locals)) {
          lift.post.push_back(*step);
          continue;
        }
      const auto* store = dyn_cast<BinaryOperator>(s);
      if (!store || store->getOpcode() != BO_Assign || !isa<ArraySubscriptExpr>(store->getLHS()->IgnoreParens()))
        throw NotRows{"`" + sourceText(*s, ctx) + "` follows the loop over the row (only stores of its results, out[r] = acc, may)"};
      stores.push_back(store);
    }
    if (!inner) throw NotRows{"no loop over the row"};

    auto innerHead = loopHeader(*inner, ctx);
    if (auto* why = std::get_if<std::string>(&innerHead)) throw NotRows{"its loop over the row: " + *why};
    const LoopHeader& cols = std::get<LoopHeader>(innerHead);
    checkRowLength(cols.start, cols.end, rows.counter, locals);
    auto innerModel = modelLoop(*inner, ctx);
    if (auto* why = std::get_if<std::string>(&innerModel)) throw NotRows{"its loop over the row: " + *why};
    lift.inner = std::get<LoopModel>(innerModel);
    if (lift.inner.secondaryCounters) throw NotRows{"its loop over the row steps other variables with its counter"};
    // Down columns, a float sum keeps the loop's order exactly (one lane per column): decided below.
    Options anyOrder = options;
    anyOrder.allowReassociation = true;
    anyOrder.allowStridedLoads = true;
    std::map<std::string, const VarDecl*> localByName;
    for (const auto& [v, init] : locals) localByName[v->getNameAsString()] = v;
    for (const auto& c : lift.inner.carried)
      if (!localByName.count(c.name)) throw NotRows{"the row's accumulator `" + c.name + "` is not declared in the row loop"};
    auto recognized = recognize(lift.inner, anyOrder);
    if (!lift.post.empty() && std::holds_alternative<Recognition>(recognized))
      throw NotRows{"`" + lift.post.front().text + "` follows the loop over the row (only stores of its results, out[r] = acc, may; a division "
                    "or a scaling only after a sum of products in order)"};
    if (auto* why = std::get_if<std::string>(&recognized)) {
      // Not one array's reduction: a sum of an expression of several (a matrix-vector row)?
      auto expr = recognizeExprReduce(lift.inner, options, mathUlp, nullptr, /*inOrder=*/true);
      if (auto* no = std::get_if<std::string>(&expr)) throw NotRows{"its loop over the row: " + exprReduceRefusal(*why, *no)};
      lift.expr = std::move(std::get<ExprReduceLift>(expr));
      ExprRows{ctx, rows, cols, locals, localByName}.model(lift, stores);
      innerLoop = inner;
      return lift;
    }
    Recognition& r = lift.recognition = std::get<Recognition>(recognized);
    if (r.chunk) throw NotRows{"a 64-bit sum of bytes per row is not lifted row by row yet"};
    if (r.kind == "arg_reduce" && lift.inner.startText != "0")
      throw NotRows{"the row's index counts from " + lift.inner.startText + ", the kernel's from the first column it reads"};

    // Where the row's elements are: the same load everywhere in the inner loop (recognize checked).
    using namespace clang::ast_matchers;
    const auto found = match(findAll(arraySubscriptExpr().bind("load")), *inner->getBody(), ctx);
    const ArraySubscriptExpr* load = nullptr;
    for (const auto& m : found) {
      const auto* sub = m.getNodeAs<ArraySubscriptExpr>("load");
      for (const VarDecl* v : referencedVars(sub->getIdx()))
        if (v == cols.counter) load = load ? load : sub;
    }
    if (!load) throw NotRows{"the loop over the row reads no element of it"};
    MatrixAddress address(ctx, rows.counter, cols.counter, locals);
    address.base(load->getBase());
    address.index(load->getIdx(), 1);
    const auto& o = address.outer;
    const auto& in = address.inner;
    if (in.unit == 1 && in.stride.empty() && o.unit == 0 && !o.stride.empty()) {
      lift.stride = o.stride;  // rows: the inner loop runs along a row
    } else if (o.unit == 1 && o.stride.empty() && in.unit == 0 && !in.stride.empty()) {
      lift.columns = true;  // columns: the inner loop runs down a column
      lift.stride = in.stride;
    } else {
      throw NotRows{"`" + sourceText(*load, ctx) + "` is not element [r][c] of a matrix, a + r * stride + c, with one loop "
                    "over r and the other over c"};
    }
    if (lift.columns && r.kind == "arg_reduce") throw NotRows{"argmin/argmax down columns: simdgen's arg_reduce runs along rows"};
    if (r.reassociates && !lift.columns && !options.allowReassociation)
      throw NotRows{"a float " + r.op + " along rows would be reassociated across vector lanes, which changes its rounding; "
                    "pass --reassociate to accept that"};
    if (r.reassociates && lift.columns) {
      lift.sequential = true;
      r.reassociates = false;
    }
    r.summary += lift.columns ? ", over columns" : ", over rows";
    lift.matrix = address.first(lift.outer.startText, lift.inner.startText);

    // The results: out[r + k] = acc, once per accumulator, without conversion.
    std::map<std::string, std::string> outputs;
    for (const BinaryOperator* store : stores) {
      const auto* lhs = cast<ArraySubscriptExpr>(store->getLHS()->IgnoreParens());
      const VarDecl* v = referencedVar(store->getRHS());
      if (!v || !isa<DeclRefExpr>(store->getRHS()->IgnoreParenImpCasts()) ||
          std::none_of(lift.inner.carried.begin(), lift.inner.carried.end(), [&](const CarriedVar& c) { return c.name == v->getNameAsString(); }))
        throw NotRows{"`" + sourceText(*store, ctx) + "` does not store an accumulator of the row"};
      if (canonicalType(lhs->getType()) != canonicalType(v->getType()))
        throw NotRows{"`" + sourceText(*store, ctx) + "` converts the result (" + canonicalType(v->getType()) + " to " + canonicalType(lhs->getType()) + ")"};
      MatrixAddress out(ctx, rows.counter, nullptr, locals);
      out.base(lhs->getBase());
      out.index(lhs->getIdx(), 1);
      if (out.outer.unit != 1 || !out.outer.stride.empty() || out.rowsOfArray)
        throw NotRows{"`" + sourceText(*lhs, ctx) + "` is not out[r + k]: one result per row, in order"};
      if (!outputs.emplace(v->getNameAsString(), out.first(lift.outer.startText, "0")).second)
        throw NotRows{"`" + v->getNameAsString() + "` is stored twice"};
      const std::string want = v->getNameAsString() == r.accName ? kernelCType(r.kind == "reduce" ? r.outDtype : r.element.dtype)
                                                                   : canonicalType(lhs->getType());
      if (canonicalType(lhs->getType()) != want)
        throw NotRows{"`" + sourceText(*lhs, ctx) + "` is " + canonicalType(lhs->getType()) + ", the kernel writes " + want};
      if (v->getNameAsString() == r.indexName) {
        const std::string t = canonicalType(lhs->getType());
        lift.indexDtype = t == "long" ? "i64" : t == "int" ? "i32" : "";
        if (lift.indexDtype.empty()) throw NotRows{"the row's index is stored as " + t + " (the kernel writes int32_t or int64_t)"};
      }
    }
    if (!outputs.count(r.accName) || (!r.indexName.empty() && !outputs.count(r.indexName)))
      throw NotRows{"not every result of the row is stored (out[r] = acc;)"};
    lift.values = outputs[r.accName];
    if (!r.indexName.empty()) lift.indices = outputs[r.indexName];

    // Where each row's accumulators start.
    const auto init = constantValue(locals.at(localByName.at(r.accName)), ctx);
    if (!init) throw NotRows{"`" + r.accName + "` starts from a value that is not a constant"};
    if (r.kind == "reduce") {
      if (auto bad = notIdentity(r, *init))
        throw NotRows{"`" + r.accName + "` starts from " + *bad + ", which the row's elements do not always replace"};
    } else {
      const auto index = constantValue(locals.at(localByName.at(r.indexName)), ctx);
      if (!index || !index->isInt()) throw NotRows{"`" + r.indexName + "` starts from a value that is not a constant"};
      const double x = numeric(*init);
      if (!std::isfinite(x)) throw NotRows{"`" + r.accName + "` starts from an infinity or NaN (a spec's initial value is finite)"};
      lift.initialValue = init->isInt() ? llvm::toString(init->getInt(), 10) : std::to_string(x);
      if (init->isFloat()) {
        llvm::SmallString<32> text;
        init->getFloat().toString(text, 17, 0);
        lift.initialValue = text.str().str();
      }
      lift.initialIndex = llvm::toString(index->getInt(), 10);
    }
    innerLoop = inner;
    return lift;
  } catch (const NotRows& n) {
    return n.reason;
  }
}

}  // namespace simdgen::lift
