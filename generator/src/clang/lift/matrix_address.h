// SPDX-License-Identifier: Apache-2.0
#pragma once
// A position in a matrix as written in a loop nest (a[r * stride + c], a row pointer declared in
// the outer loop, g[r][c]): which counter steps along a row, which by a stride (clang side).
#include <map>
#include <string>
#include <vector>

#include <algorithm>
#include <cctype>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Expr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/Basic/SourceManager.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <llvm/ADT/StringExtras.h>

#include "clang/lift/ast_model.h"
#include "clang/lift/lift_output.h"
#include "clang/lift/map_lift.h"

namespace simdgen::lift {

// Thrown by the analysis; the reason becomes a remark.
struct NotLiftable {
  std::string reason;
};

namespace matrix_detail {
using namespace clang;

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

  // Adds the terms of an integer expression, with their sign, times `scale` (a fixed value's text;
  // empty: 1): `(b * n + i) * size + j` is b * n * size + i * size + j.
  void index(const Expr* e, int sign, const std::string& scale = "") {
    e = e->IgnoreParenImpCasts();
    auto scaled = [&](const std::string& t) { return scale.empty() ? t : paren(t) + " * " + paren(scale); };
    if (isCounter(e, inner_) || isCounter(e, outer_)) {
      Counter& c = isCounter(e, inner_) ? inner : outer;
      if (scale.empty()) {
        c.unit += sign;
      } else {
        if (sign < 0 || !c.stride.empty()) throw NotLiftable{"the position does not advance by one stride per row"};
        c.stride = scale;
      }
    } else if (auto c = e->getIntegerConstantExpr(ctx_)) {
      if (scale.empty()) constant += sign * c->getExtValue();
      else if (c->getExtValue() != 0) terms.push_back((sign > 0 ? " + " : " - ") + scaled(llvm::toString(*c, 10)));
    } else if (const auto* bin = dyn_cast<BinaryOperator>(e); bin && (bin->getOpcode() == BO_Add || bin->getOpcode() == BO_Sub)) {
      index(bin->getLHS(), sign, scale);
      index(bin->getRHS(), bin->getOpcode() == BO_Add ? sign : -sign, scale);
    } else if (bin && bin->getOpcode() == BO_Mul && (counterOf(bin->getLHS()) || counterOf(bin->getRHS()))) {
      const bool left = counterOf(bin->getLHS()) != nullptr;
      const Expr* stride = left ? bin->getRHS() : bin->getLHS();
      if (!fixed(stride)) throw NotLiftable{"the stride `" + sourceText(*stride, ctx_) + "` changes inside the loops"};
      Counter& c = counterOf(left ? bin->getLHS() : bin->getRHS()) == outer_ ? outer : inner;
      if (sign < 0 || !c.stride.empty()) throw NotLiftable{"the position does not advance by one stride per row"};
      c.stride = scaled(sourceText(*stride, ctx_));
    } else if (bin && bin->getOpcode() == BO_Mul && !fixed(e) && (fixed(bin->getLHS()) || fixed(bin->getRHS()))) {
      // (a sum with a counter) * a fixed value: each term times it
      const bool left = fixed(bin->getLHS());
      index(left ? bin->getRHS() : bin->getLHS(), sign, scaled(sourceText(*(left ? bin->getLHS() : bin->getRHS()), ctx_)));
    } else if (const VarDecl* v = referencedVar(e); v && isa<DeclRefExpr>(e) && !locals_.count(v) && declaredInNest(v, e)) {
      // a local of the loops' bodies that names a position (`int index = b * n + i;`), never
      // assigned again: its value, not its name (which the rewrite outside the loops cannot see)
      if (!v->hasInit() || assignedInNest(v, e)) throw NotLiftable{"the position `" + sourceText(*e, ctx_) + "` changes inside the loops"};
      index(v->getInit(), sign, scale);
    } else if (fixed(e)) {
      terms.push_back((sign > 0 ? " + " : " - ") + scaled(sourceText(*e, ctx_)));
    } else {
      throw NotLiftable{"the position `" + sourceText(*e, ctx_) + "` is not a row times a stride plus a column"};
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
      if (!rowType || !fixed(sub->getBase())) throw NotLiftable{"`" + sourceText(*sub, ctx_) + "` is not a row of a 2-D array"};
      array = sourceText(*sub->getBase(), ctx_);
      rowsOfArray = true;
      if (!outer.stride.empty()) throw NotLiftable{"the position does not advance by one stride per row"};
      outer.stride = std::to_string(rowType->getSize().getZExtValue());
    } else if (fixed(e)) {
      array = sourceText(*e, ctx_);
    } else {
      throw NotLiftable{"the array `" + sourceText(*e, ctx_) + "` is not a fixed pointer, a row pointer or a row of a 2-D array"};
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
      if (!sub) throw NotLiftable{"the row pointer `" + sourceText(*e, ctx_) + "` is not &array[position]"};
      base(sub->getBase());
      index(sub->getIdx(), 1);
    } else if (const auto* bin = dyn_cast<BinaryOperator>(e); bin && bin->getOpcode() == BO_Add && bin->getLHS()->getType()->isPointerType()) {
      pointer(bin->getLHS());
      index(bin->getRHS(), 1);
    } else {
      base(e);
    }
  }
  // Side-effect free, and naming neither counter nor a variable declared inside the loops (the
  // outer loop's own, or one of the inner body, which may shadow a variable of the same name).
  bool fixed(const Expr* e) const {
    if (e->HasSideEffects(ctx_)) return false;
    for (const VarDecl* v : referencedVars(e))
      if (v == outer_ || v == inner_ || locals_.count(v) || v->getType().isVolatileQualified() || declaredInNest(v, e)) return false;
    return true;
  }
  // The nest around `use`: the nearest `for` whose condition reads the outer counter (null if none).
  const ForStmt* nestOf(const Stmt* use) const {
    DynTypedNodeList parents = ctx_.getParents(*use);
    while (!parents.empty()) {
      if (const auto* f = parents[0].get<ForStmt>(); f && f->getCond())
        for (const VarDecl* v : referencedVars(f->getCond()))
          if (v == outer_) return f;
      parents = ctx_.getParents(parents[0]);
    }
    return nullptr;
  }
  // Whether v is declared inside the loops (conservatively true when the nest is not found).
  bool declaredInNest(const VarDecl* v, const Stmt* use) const {
    if (v == outer_ || v == inner_ || !v->isLocalVarDecl() || v->isStaticLocal()) return false;
    const ForStmt* nest = nestOf(use);
    if (!nest) return true;
    const SourceManager& sm = ctx_.getSourceManager();
    const SourceLocation at = sm.getExpansionLoc(v->getLocation());
    return !sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(nest->getBeginLoc())) &&
           sm.isBeforeInTranslationUnit(at, sm.getExpansionLoc(nest->getEndLoc()));
  }
  // Whether the nest around `use` assigns v (=, op=, ++, --) after its declaration.
  bool assignedInNest(const VarDecl* v, const Stmt* use) const {
    const ForStmt* nest = nestOf(use);
    if (!nest) return true;
    struct Writes : RecursiveASTVisitor<Writes> {
      const VarDecl* v;
      bool found = false;
      bool VisitBinaryOperator(BinaryOperator* b) {
        if (b->isAssignmentOp() && referencedVar(b->getLHS()) == v) found = true;
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator* u) {
        if ((u->isIncrementDecrementOp() || u->getOpcode() == UO_AddrOf) && referencedVar(u->getSubExpr()) == v) found = true;
        return true;
      }
    } w;
    w.v = v;
    w.TraverseStmt(const_cast<ForStmt*>(nest));
    return w.found;
  }

  ASTContext& ctx_;
  const VarDecl* outer_;
  const VarDecl* inner_;
  const std::map<const VarDecl*, const Expr*>& locals_;
};

// A declaration before the loop over a row: each variable a plain local with a value (no static,
// reference or volatile), recorded in `locals` with its initial value.
inline void addRowLocals(const DeclStmt& decls, ASTContext& ctx, std::map<const VarDecl*, const Expr*>& locals) {
  for (const Decl* d : decls.decls()) {
    const auto* v = dyn_cast<VarDecl>(d);
    if (!v || !v->hasInit() || !v->hasLocalStorage() || v->getType()->isReferenceType() || v->getType().isVolatileQualified())
      throw NotLiftable{"`" + sourceText(decls, ctx) + "` is not a plain local with a value"};
    locals[v] = v->getInit();
  }
}

// The loop over a row runs the same columns in every row: its bounds read neither the row counter
// nor the row loop's locals.
inline void checkRowLength(const Expr* start, const Expr* end, const VarDecl* rowCounter, const std::map<const VarDecl*, const Expr*>& locals) {
  for (const Expr* e : {start, end})
    for (const VarDecl* v : referencedVars(e))
      if (v == rowCounter || locals.count(v)) throw NotLiftable{"the row's length depends on the row"};
}

// A param of a row's map that is one element per row (`b[r]`, `float m = mean[r];`): it becomes
// an input (stride 0, row stride 1, appended to map.inputs and erased from its params); returns its
// element at the first row. Throws unless the element is [r + k] of an array.
inline std::string perRowInput(MapLift& map, std::vector<MapLift::Param>::iterator& param, const ArraySubscriptExpr& element,
                               ASTContext& ctx, const VarDecl* rowCounter, const std::string& rowStart,
                               const std::map<const VarDecl*, const Expr*>& locals) {
  MatrixAddress address(ctx, rowCounter, nullptr, locals);
  address.base(element.getBase());
  address.index(element.getIdx(), 1);
  if (address.outer.unit != 1 || !address.outer.stride.empty() || address.rowsOfArray)
    throw NotLiftable{"`" + sourceText(element, ctx) + "` is not element [r + k] of an array: one value per row, in order"};
  MapLift::Array in;
  in.name = param->name;
  in.base = param->text;
  in.type = param->type;
  map.inputs.push_back(in);
  param = map.params.erase(param);
  return address.first(rowStart, "0");
}

}  // namespace matrix_detail
using matrix_detail::MatrixAddress;
using matrix_detail::perRowInput;
using matrix_detail::addRowLocals;
using matrix_detail::checkRowLength;

// `t` is a C identifier (an array named by a plain variable can name a spec's tensor).
inline bool identifierText(const std::string& t) {
  if (t.empty() || std::isdigit(static_cast<unsigned char>(t[0]))) return false;
  return std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

}  // namespace simdgen::lift
