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
#include "clang/lift/lift_output.h"

namespace simdgen::lift {
namespace {

using namespace clang;

struct NotRows {
  std::string reason;
};

// The C type a kernel's pointer parameter has for a dtype (stdint.h on LP64 Linux), canonical.
std::string kernelCType(const std::string& dtype) {
  static const std::map<std::string, std::string> types = {
      {"i8", "signed char"}, {"u8", "unsigned char"}, {"i16", "short"}, {"u16", "unsigned short"},
      {"i32", "int"},        {"u32", "unsigned int"},  {"i64", "long"}, {"u64", "unsigned long"},
      {"f32", "float"},      {"f64", "double"}};
  return types.at(dtype);
}

std::string canonical(QualType t) { return t.getCanonicalType().getUnqualifiedType().getAsString(); }

// A position in the matrix as pointer + terms: each counter (the outer loop's, the inner loop's)
// appears alone (a unit step) or times a stride the loops do not change; the rest are constants
// and values the loops do not change.
class MatrixAddress {
 public:
  MatrixAddress(ASTContext& ctx, const VarDecl* outer, const VarDecl* inner, const std::map<const VarDecl*, const Expr*>& locals)
      : ctx_(ctx), outer_(outer), inner_(inner), locals_(locals) {}

  struct Counter {
    int unit = 0;        // how often the counter appears alone
    std::string stride;  // the stride it is multiplied by, if it is
  };
  Counter outer, inner;
  long long constant = 0;
  std::string array;  // the pointer (or g[first row] of a 2-D array)
  std::vector<std::string> terms;
  bool rowsOfArray = false;

  // Adds the terms of an integer expression, with their sign.
  void index(const Expr* e, int sign) {
    e = e->IgnoreParenImpCasts();
    if (isCounter(e, inner_)) {
      inner.unit += sign;
    } else if (isCounter(e, outer_)) {
      outer.unit += sign;
    } else if (auto c = e->getIntegerConstantExpr(ctx_)) {
      constant += sign * c->getExtValue();
    } else if (const auto* bin = dyn_cast<BinaryOperator>(e); bin && (bin->getOpcode() == BO_Add || bin->getOpcode() == BO_Sub)) {
      index(bin->getLHS(), sign);
      index(bin->getRHS(), bin->getOpcode() == BO_Add ? sign : -sign);
    } else if (bin && bin->getOpcode() == BO_Mul && (counterOf(bin->getLHS()) || counterOf(bin->getRHS()))) {
      const bool left = counterOf(bin->getLHS()) != nullptr;
      const Expr* stride = left ? bin->getRHS() : bin->getLHS();
      if (!fixed(stride)) throw NotRows{"the stride `" + sourceText(*stride, ctx_) + "` changes inside the loops"};
      Counter& c = counterOf(left ? bin->getLHS() : bin->getRHS()) == outer_ ? outer : inner;
      if (sign < 0 || !c.stride.empty()) throw NotRows{"the position does not advance by one stride per row"};
      c.stride = sourceText(*stride, ctx_);
    } else if (fixed(e)) {
      terms.push_back((sign > 0 ? " + " : " - ") + paren(sourceText(*e, ctx_)));
    } else {
      throw NotRows{"the position `" + sourceText(*e, ctx_) + "` is not a row times a stride plus a column"};
    }
  }

  // The array the elements are read from: a fixed pointer, a row pointer declared in the outer
  // loop (`const T* row = a + r * stride;`), or a row of a 2-D array (`g[r]`).
  void base(const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const VarDecl* v = referencedVar(e); v && isa<DeclRefExpr>(e) && locals_.count(v)) {
      pointer(locals_.at(v));
    } else if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e); sub && isCounter(sub->getIdx()->IgnoreParenImpCasts(), outer_)) {
      const auto* rowType = ctx_.getAsConstantArrayType(sub->getType());
      if (!rowType || !fixed(sub->getBase())) throw NotRows{"`" + sourceText(*sub, ctx_) + "` is not a row of a 2-D array"};
      array = sourceText(*sub->getBase(), ctx_);
      rowsOfArray = true;
      if (!outer.stride.empty()) throw NotRows{"the position does not advance by one stride per row"};
      outer.stride = std::to_string(rowType->getSize().getZExtValue());
    } else if (fixed(e)) {
      array = sourceText(*e, ctx_);
    } else {
      throw NotRows{"the array `" + sourceText(*e, ctx_) + "` is not a fixed pointer, a row pointer or a row of a 2-D array"};
    }
  }

  // The address where both counters are at their first values.
  std::string first(const std::string& outerStart, const std::string& innerStart) const {
    std::string p = rowsOfArray ? array + "[" + outerStart + "]" : array;
    long long k = constant;
    auto add = [&](const Counter& c, const std::string& start, bool done) {
      if (done || start == "0" || (c.unit == 0 && c.stride.empty())) return;
      const std::string step = c.stride.empty() ? "" : c.stride;
      if (isDecimal(start) && (step.empty() || isDecimal(step))) {
        k += std::stoll(start) * (step.empty() ? 1 : std::stoll(step));
      } else {
        p += " + " + paren(start) + (step.empty() ? "" : " * " + paren(step));
      }
    };
    add(outer, outerStart, rowsOfArray);
    add(inner, innerStart, false);
    for (const auto& t : terms) p += t;
    if (k) p += (k > 0 ? " + " : " - ") + std::to_string(k > 0 ? k : -k);
    return p;
  }

 private:
  static bool isDecimal(const std::string& t) {
    return !t.empty() && t.size() < 10 && std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  }
  bool isCounter(const Expr* e, const VarDecl* counter) const {
    return counter && isa<DeclRefExpr>(e) && referencedVar(e) == counter;
  }
  const VarDecl* counterOf(const Expr* e) const {
    e = e->IgnoreParenImpCasts();
    return isCounter(e, outer_) ? outer_ : isCounter(e, inner_) ? inner_ : nullptr;
  }
  // A row pointer's value: p + terms, or &p[index].
  void pointer(const Expr* e) {
    e = e->IgnoreParenImpCasts();
    if (const auto* addr = dyn_cast<UnaryOperator>(e); addr && addr->getOpcode() == UO_AddrOf) {
      const auto* sub = dyn_cast<ArraySubscriptExpr>(addr->getSubExpr()->IgnoreParens());
      if (!sub) throw NotRows{"the row pointer `" + sourceText(*e, ctx_) + "` is not &array[position]"};
      base(sub->getBase());
      index(sub->getIdx(), 1);
    } else if (const auto* bin = dyn_cast<BinaryOperator>(e); bin && bin->getOpcode() == BO_Add && bin->getLHS()->getType()->isPointerType()) {
      pointer(bin->getLHS());
      index(bin->getRHS(), 1);
    } else {
      base(e);
    }
  }
  // Side-effect free, and naming neither counter nor the outer loop's own variables.
  bool fixed(const Expr* e) const {
    if (e->HasSideEffects(ctx_)) return false;
    for (const VarDecl* v : referencedVars(e))
      if (v == outer_ || v == inner_ || locals_.count(v) || v->getType().isVolatileQualified()) return false;
    return true;
  }

  ASTContext& ctx_;
  const VarDecl* outer_;
  const VarDecl* inner_;
  const std::map<const VarDecl*, const Expr*>& locals_;
};

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

}  // namespace

bool hasInnerLoop(const ForStmt& loop) {
  const auto* body = dyn_cast<CompoundStmt>(loop.getBody());
  if (!body) return isa<ForStmt>(loop.getBody());
  return std::any_of(body->body_begin(), body->body_end(), [](const Stmt* s) { return isa<ForStmt>(s); });
}

std::variant<RowsLift, std::string> modelRows(const ForStmt& outer, ASTContext& ctx, const Options& options,
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
          for (const Decl* d : decls->decls()) {
            const auto* v = dyn_cast<VarDecl>(d);
            if (!v || !v->hasInit() || !v->hasLocalStorage() || v->getType()->isReferenceType() || v->getType().isVolatileQualified())
              throw NotRows{"`" + sourceText(*s, ctx) + "` is not a plain local with a value"};
            locals[v] = v->getInit();
          }
          continue;
        }
        if ((inner = dyn_cast<ForStmt>(s))) continue;
        throw NotRows{"`" + sourceText(*s, ctx) + "` comes before the loop over the row (only declarations may)"};
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
    for (const Expr* e : {cols.start, cols.end})
      for (const VarDecl* v : referencedVars(e))
        if (v == rows.counter || locals.count(v)) throw NotRows{"the row's length depends on the row"};
    auto innerModel = modelLoop(*inner, ctx);
    if (auto* why = std::get_if<std::string>(&innerModel)) throw NotRows{"its loop over the row: " + *why};
    lift.inner = std::get<LoopModel>(innerModel);
    // Down columns, a float sum keeps the loop's order exactly (one lane per column): decided below.
    Options anyOrder = options;
    anyOrder.allowReassociation = true;
    anyOrder.allowStridedLoads = true;
    auto recognized = recognize(lift.inner, anyOrder);
    if (auto* why = std::get_if<std::string>(&recognized)) throw NotRows{"its loop over the row: " + *why};
    Recognition& r = lift.recognition = std::get<Recognition>(recognized);
    if (r.chunk) throw NotRows{"a 64-bit sum of bytes per row is not lifted row by row yet"};
    if (r.kind == "arg_reduce" && lift.inner.startText != "0")
      throw NotRows{"the row's index counts from " + lift.inner.startText + ", the kernel's from the first column it reads"};
    std::map<std::string, const VarDecl*> localByName;
    for (const auto& [v, init] : locals) localByName[v->getNameAsString()] = v;
    for (const auto& c : lift.inner.carried)
      if (!localByName.count(c.name)) throw NotRows{"the row's accumulator `" + c.name + "` is not declared in the row loop"};

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
      if (canonical(lhs->getType()) != canonical(v->getType()))
        throw NotRows{"`" + sourceText(*store, ctx) + "` converts the result (" + canonical(v->getType()) + " to " + canonical(lhs->getType()) + ")"};
      MatrixAddress out(ctx, rows.counter, nullptr, locals);
      out.base(lhs->getBase());
      out.index(lhs->getIdx(), 1);
      if (out.outer.unit != 1 || !out.outer.stride.empty() || out.rowsOfArray)
        throw NotRows{"`" + sourceText(*lhs, ctx) + "` is not out[r + k]: one result per row, in order"};
      if (!outputs.emplace(v->getNameAsString(), out.first(lift.outer.startText, "0")).second)
        throw NotRows{"`" + v->getNameAsString() + "` is stored twice"};
      const std::string want = v->getNameAsString() == r.accName ? kernelCType(r.kind == "reduce" ? r.outDtype : r.element.dtype)
                                                                   : canonical(lhs->getType());
      if (canonical(lhs->getType()) != want)
        throw NotRows{"`" + sourceText(*lhs, ctx) + "` is " + canonical(lhs->getType()) + ", the kernel writes " + want};
      if (v->getNameAsString() == r.indexName) {
        const std::string t = canonical(lhs->getType());
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
