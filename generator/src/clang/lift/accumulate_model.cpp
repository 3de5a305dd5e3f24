// SPDX-License-Identifier: Apache-2.0
#include <map>
#include <optional>
#include <set>
#include <algorithm>
#include <cctype>

#include <clang/AST/Expr.h>

#include "clang/lift/accumulate_lift.h"
#include "clang/lift/ast_model.h"
#include "clang/lift/matrix_address.h"

namespace simdgen::lift {
namespace {

using namespace clang;

struct Nest {
  ASTContext& ctx;
  const LoopHeader& rows;
  const LoopHeader& cols;
  const std::map<const VarDecl*, const Expr*>& locals;

  // The factor that is one element per row: w[r + k], directly or through `float a = w[r];`.
  std::optional<AccumulateLift::Operand> weight(const Expr* e) const {
    e = e->IgnoreParenImpCasts();
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
      const auto* v = dyn_cast<VarDecl>(ref->getDecl());
      if (!v || !locals.count(v)) return std::nullopt;
      e = locals.at(v)->IgnoreParenImpCasts();
      if (ctx.getCanonicalType(e->getType()).getUnqualifiedType() != ctx.getCanonicalType(v->getType()).getUnqualifiedType()) return std::nullopt;
    }
    const auto* sub = dyn_cast<ArraySubscriptExpr>(e);
    if (!sub) return std::nullopt;
    try {  // a probe: a position that is not [r + k] (it reads the column counter, say) is no weight
      MatrixAddress address(ctx, rows.counter, nullptr, locals);
      address.base(sub->getBase());
      address.index(sub->getIdx(), 1);
      if (address.outer.unit != 1 || !address.outer.stride.empty() || address.rowsOfArray) return std::nullopt;
      return AccumulateLift::Operand{address.array, address.first(rows.model.startText, "0"), ""};
    } catch (const NotLiftable&) {
      return std::nullopt;
    }
  }
  // The factor that is element [r][c] of a matrix (m[r * stride + c], a row pointer's v[c]).
  std::optional<AccumulateLift::Operand> matrixElement(const Expr* e) const {
    const auto* sub = dyn_cast<ArraySubscriptExpr>(e->IgnoreParenImpCasts());
    if (!sub) return std::nullopt;
    try {  // a probe, as weight()
      MatrixAddress address(ctx, rows.counter, cols.counter, locals);
      address.base(sub->getBase());
      address.index(sub->getIdx(), 1);
      if (address.inner.unit != 1 || !address.inner.stride.empty() || address.outer.unit != 0 || address.outer.stride.empty())
        return std::nullopt;
      return AccumulateLift::Operand{address.array, address.first(rows.model.startText, cols.model.startText), address.outer.stride};
    } catch (const NotLiftable&) {
      return std::nullopt;
    }
  }
};

}  // namespace

std::variant<AccumulateLift, std::string> modelAccumulate(const ForStmt& outer, ASTContext& ctx, const ForStmt*& innerLoop) {
  try {
    auto head = loopHeader(outer, ctx);
    if (auto* why = std::get_if<std::string>(&head)) return *why;
    const LoopHeader& rows = std::get<LoopHeader>(head);
    std::map<const VarDecl*, const Expr*> locals;
    const ForStmt* inner = dyn_cast<ForStmt>(outer.getBody());
    if (const auto* body = dyn_cast<CompoundStmt>(outer.getBody())) {
      for (const Stmt* s : body->body()) {
        if (inner) throw NotLiftable{"`" + sourceText(*s, ctx) + "` follows the loop over the row"};
        if ((inner = dyn_cast<ForStmt>(s))) continue;
        const auto* decls = dyn_cast<DeclStmt>(s);
        if (!decls) throw NotLiftable{"`" + sourceText(*s, ctx) + "` comes before the loop over the row (only declarations may)"};
        addRowLocals(*decls, ctx, locals);
      }
    }
    if (!inner) throw NotLiftable{"no loop over the row"};
    auto innerHead = loopHeader(*inner, ctx);
    if (auto* why = std::get_if<std::string>(&innerHead)) throw NotLiftable{"its loop over the row: " + *why};
    const LoopHeader& cols = std::get<LoopHeader>(innerHead);
    checkRowLength(cols.start, cols.end, rows.counter, locals);

    // The one statement: out[c] += x * y, or out[c] = out[c] + x * y.
    const Stmt* only = inner->getBody();
    if (const auto* block = dyn_cast<CompoundStmt>(only)) only = block->size() == 1 ? block->body_front() : nullptr;
    const auto* stmt = only ? dyn_cast<BinaryOperator>(only) : nullptr;
    if (!stmt) throw NotLiftable{"the loop over the row is not one statement out[c] += a * m[r][c]"};
    const Expr* term = nullptr;
    const auto* lhs = dyn_cast<ArraySubscriptExpr>(stmt->getLHS()->IgnoreParens());
    if (const auto* compound = dyn_cast<CompoundAssignOperator>(stmt); compound && compound->getOpcode() == BO_AddAssign) {
      if (ctx.getCanonicalType(compound->getComputationResultType()) != ctx.getCanonicalType(stmt->getLHS()->getType()))
        throw NotLiftable{"`" + sourceText(*stmt, ctx) + "` adds in another type than its element's"};
      term = compound->getRHS();
    } else if (stmt->getOpcode() == BO_Assign && lhs) {
      const auto* sum = dyn_cast<BinaryOperator>(stmt->getRHS()->IgnoreParens());
      if (sum && sum->getOpcode() == BO_Add && ctx.getCanonicalType(sum->getType()) == ctx.getCanonicalType(lhs->getType())) {
        const auto* again = dyn_cast<ArraySubscriptExpr>(sum->getLHS()->IgnoreParenImpCasts());
        if (again && sourceText(*again, ctx) == sourceText(*lhs, ctx)) term = sum->getRHS();
      }
    }
    if (!lhs || !term) throw NotLiftable{"the loop over the row is not out[c] += a * m[r][c]"};
    const QualType element = ctx.getCanonicalType(lhs->getType());
    if (!element->isSpecificBuiltinType(BuiltinType::Float) && !element->isSpecificBuiltinType(BuiltinType::Double))
      throw NotLiftable{"`" + sourceText(*lhs, ctx) + "` is not a float or a double"};
    const auto* product = dyn_cast<BinaryOperator>(term->IgnoreParens());
    if (!product || product->getOpcode() != BO_Mul || ctx.getCanonicalType(product->getType()) != element)
      throw NotLiftable{"the term `" + sourceText(*term, ctx) + "` is not a product of two elements of its type"};
    for (const Expr* factor : {product->getLHS(), product->getRHS()})
      if (ctx.getCanonicalType(factor->IgnoreParens()->getType()) != element ||
          (isa<ImplicitCastExpr>(factor->IgnoreParens()) && cast<ImplicitCastExpr>(factor->IgnoreParens())->getCastKind() != CK_LValueToRValue))
        throw NotLiftable{"the factor `" + sourceText(*factor, ctx) + "` is converted"};

    Nest nest{ctx, rows, cols, locals};
    AccumulateLift lift;
    lift.outer = rows.model;
    lift.inner = cols.model;
    lift.dtype = element->isSpecificBuiltinType(BuiltinType::Float) ? "f32" : "f64";
    auto w = nest.weight(product->getLHS());
    auto m = nest.matrixElement(product->getRHS());
    lift.weightsFirst = w && m;
    if (!lift.weightsFirst) w = nest.weight(product->getRHS()), m = nest.matrixElement(product->getLHS());
    if (!w || !m)
      throw NotLiftable{"the term `" + sourceText(*term, ctx) + "` is not a value per row (w[r]) times an element of a row (m[r][c])"};
    lift.weights = *w;
    lift.matrix = *m;
    MatrixAddress out(ctx, rows.counter, cols.counter, locals);
    out.base(lhs->getBase());
    out.index(lhs->getIdx(), 1);
    if (out.inner.unit != 1 || !out.inner.stride.empty() || out.outer.unit != 0 || !out.outer.stride.empty() || out.rowsOfArray)
      throw NotLiftable{"`" + sourceText(*lhs, ctx) + "` is not out[c]: the same element in every row"};
    lift.out = out.first(rows.model.startText, cols.model.startText);
    // Spec names: the arrays', where they are identifiers and differ.
    std::set<std::string> taken = {"rows", "cols", "stride"};
    auto name = [&](const std::string& array, const std::string& fallback) {
      std::string n = identifierText(array) && !taken.count(array) ? array : fallback;
      taken.insert(n);
      return n;
    };
    lift.weights.name = name(lift.weights.name, "w");
    lift.matrix.name = name(lift.matrix.name, "m");
    lift.outName = name(out.array, "out");
    lift.summary = "accumulate in order " + lift.outName + "[c] += " + (lift.weightsFirst ? lift.weights.name + " * " + lift.matrix.name
                                                                                           : lift.matrix.name + " * " + lift.weights.name) +
                   " (" + lift.dtype + ", a contraction), over rows";
    innerLoop = inner;
    return lift;
  } catch (const NotLiftable& n) {
    return n.reason;
  }
}

}  // namespace simdgen::lift
