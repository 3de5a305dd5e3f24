// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/inline_call.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>
#include <tuple>
#include <vector>

#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/AST/Stmt.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>

#include "clang/lift/ast_model.h"

namespace simdgen::lift {

using namespace clang;

namespace {

// A call of glibc's (__assert_fail, __assert_perror_fail, __assert), BSD's (__assert_rtn) or
// MSVC's (_assert) assertion failure.
bool assertFailure(const Expr* e) {
  const auto* call = e ? dyn_cast<CallExpr>(e->IgnoreParenImpCasts()) : nullptr;
  const FunctionDecl* f = call ? call->getDirectCallee() : nullptr;
  if (!f || !f->getIdentifier()) return false;
  const llvm::StringRef name = f->getName();
  return name.starts_with("__assert") || name == "_assert";
}

// cond without the conversions the macro wraps it in (`static_cast<bool>(cond)`).
const Expr* bare(const Expr* cond) {
  cond = cond->IgnoreParenImpCasts();
  if (const auto* c = dyn_cast<ExplicitCastExpr>(cond); c && c->getType()->isBooleanType()) return c->getSubExpr()->IgnoreParenImpCasts();
  return cond;
}

// The variable under member accesses and subscripts of arrays held by value (`s.f.a[k]` is s).
const VarDecl* rootVar(const Expr* e) {
  for (;;) {
    e = e->IgnoreParenImpCasts();
    if (const auto* m = dyn_cast<MemberExpr>(e); m && !m->isArrow()) {
      e = m->getBase();
    } else if (const auto* a = dyn_cast<ArraySubscriptExpr>(e); a && a->getBase()->IgnoreParenImpCasts()->getType()->isArrayType()) {
      e = a->getBase();
    } else {
      const auto* r = dyn_cast<DeclRefExpr>(e);
      return r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
    }
  }
}

}  // namespace

const Expr* assertedCondition(const Stmt* s) {
  const auto* e = dyn_cast_or_null<Expr>(s);
  if (!e) return nullptr;
  e = e->IgnoreParenImpCasts();
  if (const auto* c = dyn_cast<ConditionalOperator>(e); c && assertFailure(c->getFalseExpr())) return bare(c->getCond());
  // ((void) sizeof ((cond) ? 1 : 0), __extension__ ({ if (cond) ; else __assert_fail (...); }))
  const auto* comma = dyn_cast<BinaryOperator>(e);
  if (!comma || !comma->isCommaOp()) return nullptr;
  const auto* discard = dyn_cast<CStyleCastExpr>(comma->getLHS()->IgnoreParens());
  if (!discard || !discard->getType()->isVoidType() || !isa<UnaryExprOrTypeTraitExpr>(discard->getSubExpr()->IgnoreParens()))
    return nullptr;
  const Expr* rhs = comma->getRHS()->IgnoreParens();
  if (const auto* ext = dyn_cast<UnaryOperator>(rhs); ext && ext->getOpcode() == UO_Extension) rhs = ext->getSubExpr()->IgnoreParens();
  const auto* block = dyn_cast<StmtExpr>(rhs);
  if (!block || block->getSubStmt()->size() != 1) return nullptr;
  const auto* test = dyn_cast<IfStmt>(block->getSubStmt()->body_front());
  if (!test || test->getInit() || test->getConditionVariable() || !isa<NullStmt>(test->getThen()) ||
      !assertFailure(dyn_cast_or_null<Expr>(test->getElse())))
    return nullptr;
  return bare(test->getCond());
}

bool discardedValue(const Stmt* s, const ASTContext& ctx) {
  const auto* e = dyn_cast_or_null<Expr>(s);
  if (!e) return false;
  const auto* c = dyn_cast<ExplicitCastExpr>(e->IgnoreParens());
  return c && c->getType()->isVoidType() && !c->getSubExpr()->HasSideEffects(ctx);
}

std::string substitutedText(const Expr& e, const ASTContext& ctx, const std::function<std::optional<std::string>(const VarDecl*)>& replace) {
  const SourceManager& sm = ctx.getSourceManager();
  const LangOptions& lo = ctx.getLangOpts();
  struct Refs : RecursiveASTVisitor<Refs> {
    std::vector<const DeclRefExpr*> refs;
    bool VisitDeclRefExpr(DeclRefExpr* r) {
      refs.push_back(r);
      return true;
    }
  } collect;
  collect.TraverseStmt(const_cast<Expr*>(&e));
  const CharSourceRange whole = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(e.getSourceRange()), sm, lo);
  std::vector<std::tuple<unsigned, unsigned, std::string>> cuts;  // offset in the text, length, replacement
  for (const DeclRefExpr* r : collect.refs) {
    const auto* v = dyn_cast<VarDecl>(r->getDecl());
    std::optional<std::string> by = v ? replace(v) : std::nullopt;
    if (!by) continue;
    const CharSourceRange at = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(r->getSourceRange()), sm, lo);
    if (whole.isInvalid() || at.isInvalid() || sm.getFileID(at.getBegin()) != sm.getFileID(whole.getBegin()))
      throw std::runtime_error("`" + v->getNameAsString() + "` is spelled inside a macro");
    const unsigned first = sm.getFileOffset(whole.getBegin()), from = sm.getFileOffset(at.getBegin()), to = sm.getFileOffset(at.getEnd());
    if (from < first || to < from) throw std::runtime_error("`" + v->getNameAsString() + "` is spelled inside a macro");
    cuts.emplace_back(from - first, to - from, std::move(*by));
  }
  if (cuts.empty()) return sourceText(e, ctx);
  std::string text = Lexer::getSourceText(whole, sm, lo).str();
  std::sort(cuts.begin(), cuts.end(), [](const auto& a, const auto& b) { return std::get<0>(a) > std::get<0>(b); });
  size_t limit = text.size();
  for (const auto& [at, length, by] : cuts) {
    if (at + length > limit) throw std::runtime_error("overlapping references in `" + text + "`");
    text.replace(at, length, by);
    limit = at;
  }
  return text;
}

bool partAddressTaken(const VarDecl* v, const Stmt* body) {
  if (!body) return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl* v;
    bool found = false;
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->getOpcode() == UO_AddrOf && rootVar(u->getSubExpr()) == v) found = true;
      return !found;
    }
    bool VisitImplicitCastExpr(ImplicitCastExpr* c) {
      if (c->getCastKind() == CK_ArrayToPointerDecay && rootVar(c->getSubExpr()) == v &&
          !isa<DeclRefExpr>(c->getSubExpr()->IgnoreParens()))  // a member array, not v itself (v is no array)
        found = true;
      return !found;
    }
    bool VisitVarDecl(VarDecl* d) {
      if (d->getType()->isReferenceType() && d->getInit() && rootVar(d->getInit()) == v) found = true;
      return !found;
    }
    bool VisitCallExpr(CallExpr* c) {  // C++: a reference parameter binds to it
      if (const FunctionDecl* f = c->getDirectCallee())
        for (unsigned k = 0; k < c->getNumArgs() && k < f->getNumParams(); ++k)
          if (f->getParamDecl(k)->getType()->isReferenceType() && rootVar(c->getArg(k)) == v) found = true;
      return !found;
    }
  } finder;
  finder.v = v;
  finder.TraverseStmt(const_cast<Stmt*>(body));
  return finder.found;
}

bool partAssigned(const VarDecl* v, const Stmt* body) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl* v;
    bool found = false;
    bool VisitBinaryOperator(BinaryOperator* b) {
      if (b->isAssignmentOp() && rootVar(b->getLHS()) == v) found = true;
      return !found;
    }
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->isIncrementDecrementOp() && rootVar(u->getSubExpr()) == v) found = true;
      return !found;
    }
  } finder;
  finder.v = v;
  finder.TraverseStmt(const_cast<Stmt*>(body));
  return finder.found;
}

bool simpleOperand(const std::string& text) {
  if (text.empty()) return false;
  for (size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.') continue;
    if (c == '-' && k + 1 < text.size() && text[k + 1] == '>' && k > 0) {
      ++k;
      continue;
    }
    return false;
  }
  return true;
}

}  // namespace simdgen::lift
