// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/ast_model.h"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <set>

#include <clang/AST/Expr.h>
#include <clang/AST/ParentMapContext.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/StringExtras.h>

#include "clang/lift/inline_call.h"
#include "clang/lift/lift_output.h"

namespace simdgen::lift {
namespace {

using namespace clang;

// Thrown inside the evaluation; becomes the remark's reason.
struct NotLifted {
  std::string reason;
};


// Every variable the body assigns (=, op=, ++, --), and whether it writes anything else.
class WriteCollector : public RecursiveASTVisitor<WriteCollector> {
 public:
  std::set<const VarDecl*> vars;
  std::string otherWrite;  // the first write that is not to a plain variable
  std::vector<const Expr*> memoryWrites;  // every such write's target
  bool VisitBinaryOperator(BinaryOperator* op) {
    if (op->isAssignmentOp()) note(op->getLHS(), op);
    return true;
  }
  bool VisitUnaryOperator(UnaryOperator* op) {
    if (op->isIncrementDecrementOp()) note(op->getSubExpr(), op);
    return true;
  }
  const ASTContext* ctx = nullptr;

 private:
  void note(const Expr* lhs, const Expr* whole) {
    if (const VarDecl* v = referencedVar(lhs); v && isa<DeclRefExpr>(lhs->IgnoreParens())) vars.insert(v);
    else {
      if (otherWrite.empty()) otherWrite = sourceText(*whole, *ctx);
      memoryWrites.push_back(lhs);
    }
  }
};

// The body of the function (or lambda) the statement is in; null at file scope.
const Stmt* enclosingFunctionBody(const Stmt& s, ASTContext& ctx) {
  DynTypedNodeList parents = ctx.getParents(s);
  while (!parents.empty()) {
    const DynTypedNode& p = parents[0];
    if (const auto* f = p.get<FunctionDecl>()) return f->getBody();
    if (const auto* l = p.get<LambdaExpr>()) return l->getBody();
    parents = ctx.getParents(p);
  }
  return nullptr;
}

// The function (or lambda's call operator) the statement is in; null at file scope.
const FunctionDecl* enclosingFunction(const Stmt& s, ASTContext& ctx) {
  auto parents = ctx.getParents(s);
  while (!parents.empty()) {
    const DynTypedNode& p = parents[0];
    if (const auto* f = p.get<FunctionDecl>()) return f;
    if (const auto* l = p.get<LambdaExpr>()) return l->getCallOperator();
    parents = ctx.getParents(p);
  }
  return nullptr;
}

// Whether `&v` appears in `body`, or a reference is bound to v: then a store through a pointer
// may change it.
bool addressTaken(const VarDecl* v, const Stmt* body) {
  if (!body) return true;
  struct Finder : RecursiveASTVisitor<Finder> {
    const VarDecl* v;
    bool found = false;
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->getOpcode() == UO_AddrOf && referencedVar(u->getSubExpr()) == v) found = true;
      return !found;
    }
    bool VisitVarDecl(VarDecl* d) {
      if (d->getType()->isReferenceType() && d->getInit() && referencedVar(d->getInit()) == v) found = true;
      return !found;
    }
    bool VisitLambdaExpr(LambdaExpr* l) {
      for (const LambdaCapture& c : l->captures())
        if (c.capturesVariable() && c.getCaptureKind() == LCK_ByRef && c.getCapturedVar() == v) found = true;
      return !found;
    }
  } finder;
  finder.v = v;
  finder.TraverseStmt(const_cast<Stmt*>(body));
  return finder.found;
}

// The step of `v++`, `++v`, `v--`, `v += C`, `v -= C`, `v = v + C` (C an integer constant) when
// `s` is that update of v; nullopt otherwise.
std::optional<long long> stepOf(const Stmt* s, const VarDecl* v, const ASTContext& ctx) {
  const auto* e = dyn_cast_or_null<Expr>(s);
  if (!e) return std::nullopt;
  e = e->IgnoreParens();
  if (const auto* u = dyn_cast<UnaryOperator>(e); u && u->isIncrementDecrementOp() && referencedVar(u->getSubExpr()) == v &&
                                                 isa<DeclRefExpr>(u->getSubExpr()->IgnoreParens()))
    return u->isIncrementOp() ? 1 : -1;
  const auto* b = dyn_cast<BinaryOperator>(e);
  if (!b || referencedVar(b->getLHS()) != v || !isa<DeclRefExpr>(b->getLHS()->IgnoreParens())) return std::nullopt;
  const Expr* amount = nullptr;
  long long sign = 1;
  if (b->getOpcode() == BO_AddAssign || b->getOpcode() == BO_SubAssign) {
    amount = b->getRHS();
    sign = b->getOpcode() == BO_AddAssign ? 1 : -1;
  } else if (const auto* sum = dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParenImpCasts());
             b->getOpcode() == BO_Assign && sum && sum->getOpcode() == BO_Add && referencedVar(sum->getLHS()) == v) {
    amount = sum->getRHS();
  }
  auto c = amount ? amount->getIntegerConstantExpr(ctx) : std::nullopt;
  if (!c || c->getSignificantBits() > 32 || c->isZero()) return std::nullopt;
  return sign * c->getExtValue();
}

// `v += e` or `v -= e` with e an integer expression that is no constant (BLAS's `ix += incx`,
// speexdsp's `t2 += ido`): e, and -1 for `-=`; null for any other statement.
const Expr* runtimeStepOf(const Stmt* s, const VarDecl* v, const ASTContext& ctx, int& sign) {
  const auto* b = dyn_cast_or_null<BinaryOperator>(s);
  if (!b || (b->getOpcode() != BO_AddAssign && b->getOpcode() != BO_SubAssign) || referencedVar(b->getLHS()) != v ||
      !isa<DeclRefExpr>(b->getLHS()->IgnoreParens()))
    return nullptr;
  const Expr* e = b->getRHS()->IgnoreParenImpCasts();
  if (!e->getType()->isIntegerType() || e->isIntegerConstantExpr(ctx) || e->HasSideEffects(ctx)) return nullptr;
  for (const VarDecl* r : referencedVars(e))
    if (r == v) return nullptr;
  sign = b->getOpcode() == BO_AddAssign ? 1 : -1;
  return b->getRHS();
}

// A value no iteration changes, from its text alone: integer literals, locals and parameters
// declared before the loop that it does not write (nor its counter), fields of such structs, and
// arithmetic of them.
bool fixedValue(const Expr* e, const std::set<const VarDecl*>& written, const VarDecl* counter, const ForStmt& loop, const SourceManager& sm) {
  e = e->IgnoreParenImpCasts();
  auto fixed = [&](const Expr* x) { return fixedValue(x, written, counter, loop, sm); };
  if (isa<IntegerLiteral>(e)) return true;
  if (const auto* r = dyn_cast<DeclRefExpr>(e)) {
    const auto* v = dyn_cast<VarDecl>(r->getDecl());
    return v && v != counter && !written.count(v) && v->hasLocalStorage() && !v->getType().isVolatileQualified() &&
           sm.isBeforeInTranslationUnit(v->getLocation(), loop.getBeginLoc());
  }
  if (const auto* m = dyn_cast<MemberExpr>(e)) return !m->isArrow() && fixed(m->getBase());
  if (const auto* u = dyn_cast<UnaryOperator>(e)) return (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus) && fixed(u->getSubExpr());
  if (const auto* b = dyn_cast<BinaryOperator>(e)) return (b->isAdditiveOp() || b->isMultiplicativeOp()) && fixed(b->getLHS()) && fixed(b->getRHS());
  return false;
}

// `dp = sp;` or `dp = sp + c;`, a statement of the body's own block, where sp walks with the loop:
// from there dp points where sp did plus c, and steps on its own (libpng's `sp += 3; dp = sp;
// *dp = 255 - *(sp++);`).
struct PointerAlias {
  const VarDecl* of = nullptr;
  long long offset = 0;
  const Stmt* statement = nullptr;
  // The body's last use of dp and sp (libpng's `*(--dp) = ...; sp -= 3; dp = sp;`): dp starts
  // every iteration at sp + offset, the first one too (the call tests it).
  bool trailing = false;
};

// `v = w`, `v = w + c`, `v = w - c` (c an integer constant, w a pointer of v's type other than v):
// w and c; nullopt for any other statement.
std::optional<std::pair<const VarDecl*, long long>> aliasAssignment(const Stmt* s, const VarDecl* v, const ASTContext& ctx) {
  const auto* b = dyn_cast_or_null<BinaryOperator>(s);
  if (!b || b->getOpcode() != BO_Assign || referencedVar(b->getLHS()) != v || !isa<DeclRefExpr>(b->getLHS()->IgnoreParens()))
    return std::nullopt;
  const Expr* rhs = b->getRHS()->IgnoreParenImpCasts();
  long long offset = 0;
  if (const auto* sum = dyn_cast<BinaryOperator>(rhs); sum && (sum->getOpcode() == BO_Add || sum->getOpcode() == BO_Sub)) {
    auto c = sum->getRHS()->getIntegerConstantExpr(ctx);
    if (!c || c->getSignificantBits() > 32) return std::nullopt;
    offset = sum->getOpcode() == BO_Add ? c->getExtValue() : -c->getExtValue();
    rhs = sum->getLHS()->IgnoreParenImpCasts();
  }
  const VarDecl* w = isa<DeclRefExpr>(rhs) ? referencedVar(rhs) : nullptr;
  if (!w || w == v || canonicalType(w->getType()) != canonicalType(v->getType())) return std::nullopt;
  return std::make_pair(w, offset);
}

class Evaluator {
 public:
  Evaluator(ASTContext& ctx, const VarDecl* induction, const std::set<const VarDecl*>& written, const ForStmt& loop)
      : ctx_(ctx), induction_(induction), written_(written), loop_(loop), function_(enclosingFunctionBody(loop, ctx)),
        loopFunction_(enclosingFunction(loop, ctx)) {}

  using Env = std::map<const VarDecl*, SymPtr>;

  void exec(const Stmt* s, Env& env) {
    if (const auto* block = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt* child : block->body()) exec(child, env);
    } else if (isa<NullStmt>(s) || discardedValue(s, ctx_)) {  // `(void)0;`: an assert under NDEBUG
    } else if (const Expr* asserted = assertedCondition(s)) {
      requireEverywhere(asserted, false, "the assertion");
    } else if (const auto* decls = dyn_cast<DeclStmt>(s)) {
      for (const Decl* d : decls->decls()) {
        const auto* v = dyn_cast<VarDecl>(d);
        if (!v || v->isStaticLocal() || v->getType()->isReferenceType() || (!v->hasInit() && !v->getType()->isArithmeticType()))
          throw NotLifted{"the declaration `" + sourceText(*s, ctx_) + "` is not a plain local scalar"};
        checkScalarLocal(v);
        // C89's `float tmp;` before its assignments: reading it on a path that did not assign it is refused.
        if (v->hasInit()) env[v] = eval(v->getInit(), env);
        else env[v] = makeSym(Sym{Sym::Kind::constant, scalarTypeOf(v->getType(), ctx_), "", "?uninitialized", 0, {}, "", true});
      }
    } else if (const auto* ifs = dyn_cast<IfStmt>(s)) {
      if (ifs->getInit() || ifs->getConditionVariable() || ifs->isConstexpr())
        throw NotLifted{"the `if` declares a variable or is constexpr"};
      // In an element-wise loop, a condition the loop does not change (`if (delta)`, `if (mode == 2)`)
      // guards the whole call instead (a NULL check must stay a check); any other condition makes
      // the stores under it conditional: select(cond, value, old).
      // With an `else` a condition that is a value becomes a select (`if (mode) y[i] = a[i]; else
      // y[i] = b[i];`); a pointer test stays a guard.
      const bool hoist = stores_ && hoistable(ifs->getCond());
      SymPtr cond;
      std::string condError;
      try {
        cond = eval(ifs->getCond(), env);
        if (!truthValue(*cond)) cond = nullptr;
      } catch (const NotLifted& n) {
        if (!hoist) throw;
        condError = n.reason;
      }
      if (!cond && condError.empty()) condError = "the condition `" + sourceText(*ifs->getCond(), ctx_) + "` is not a number";
      const bool guard = hoist && (!ifs->getElse() || !cond);
      if (!guard && !cond) throw NotLifted{condError};
      const std::string text = guard ? this->text(*ifs->getCond()) : std::string();
      Env thenEnv = env, elseEnv = env;
      const std::vector<MapStore> before = stores_ ? *stores_ : std::vector<MapStore>();
      if (guard) guards_.push_back(text);
      if (!guard) ++conditional_;  // the branches run for some elements only
      exec(ifs->getThen(), thenEnv);
      if (guard) guards_.pop_back();
      const std::vector<MapStore> thenStores = stores_ ? *stores_ : std::vector<MapStore>();
      if (stores_) *stores_ = before;
      if (ifs->getElse()) {
        if (guard) guards_.push_back("!(" + text + ")");
        exec(ifs->getElse(), elseEnv);
        if (guard) guards_.pop_back();
      }
      if (!guard) --conditional_;
      if (stores_) mergeStores(before, thenStores, guard ? nullptr : cond);
      for (auto& [var, value] : env) {
        const SymPtr& t = thenEnv[var];
        const SymPtr& e = elseEnv[var];
        if (!sameSym(t, e)) {
          if (!cond) throw NotLifted{condError};
          value = makeSym(Sym{Sym::Kind::select, t->type, "", "", 0, {cond, t, e}});
        } else {
          value = t;
        }
      }
    } else if (long long amount = 0; const VarDecl* v = secondaryUpdate(s, amount)) {
      advance_[v] += amount;
    } else if (const auto* assign = dyn_cast<BinaryOperator>(s); assign && assign->getOpcode() == BO_Assign &&
                                                                  aliases_.count(referencedVar(assign->getLHS())) &&
                                                                  aliases_.at(referencedVar(assign->getLHS())).statement == s) {
      // `dp = sp + c`: dp points where sp does now, plus c; its own steps count from here.
      const VarDecl* v = referencedVar(assign->getLHS());
      const PointerAlias& a = aliases_.at(v);
      aliasOffset_[v] = advanceOf(a.of) + a.offset;
      advance_[v] = 0;
    } else if (const auto* chain = dyn_cast<BinaryOperator>(s); chain && chain->getOpcode() == BO_Assign && chain != chained_.first &&
                                                                 innerAssign(chain->getRHS())) {
      // `a = b = e` (darknet's `min[i] = max[i] = v`): b = e, then a takes b's new value as the
      // outer assignment converts it.
      const BinaryOperator* inner = innerAssign(chain->getRHS());
      exec(inner, env);
      SymPtr value = eval(inner->getLHS(), env);
      const ScalarType to = scalarTypeOf(chain->getLHS()->getType(), ctx_);
      if (!(value->type == to)) value = cast(to, value);
      chained_ = {chain, value};
      exec(chain, env);
      chained_ = {};
    } else if (const auto* store = dyn_cast<BinaryOperator>(s);
               store && store->isAssignmentOp() && stores_ &&
               (isa<ArraySubscriptExpr>(store->getLHS()->IgnoreParens()) || walkingDeref(store->getLHS()) || offsetDeref(store->getLHS()))) {
      storeElement(*store, env);
    } else if (const auto* assign = dyn_cast<BinaryOperator>(s); assign && assign->isAssignmentOp()) {
      const VarDecl* v = assignedVar(assign->getLHS());
      SymPtr rhs = rhsOf(*assign, env);
      if (const auto* compound = dyn_cast<CompoundAssignOperator>(assign)) {
        SymPtr old = env.at(v);
        const ScalarType lhsType = scalarTypeOf(compound->getComputationLHSType(), ctx_);
        const ScalarType resultType = scalarTypeOf(compound->getComputationResultType(), ctx_);
        if (!(lhsType == old->type)) old = cast(lhsType, old);
        SymPtr value = makeSym(Sym{Sym::Kind::binary, resultType, BinaryOperator::getOpcodeStr(
                                       BinaryOperator::getOpForCompoundAssignment(compound->getOpcode())).str(), "", 0, {old, rhs}});
        const ScalarType varType = scalarTypeOf(v->getType(), ctx_);
        env[v] = resultType == varType ? value : cast(varType, value);
      } else {
        env[v] = rhs;
      }
    } else if (isa<BreakStmt>(s) || isa<ReturnStmt>(s) || isa<GotoStmt>(s)) {
      throw NotLifted{"`" + sourceText(*s, ctx_) + "` leaves the loop early: its trip count depends on the data"};
    } else if (isa<ContinueStmt>(s)) {
      throw NotLifted{"`continue` skips part of the body (write the condition as an `if`)"};
    } else if (isa<ForStmt>(s) || isa<WhileStmt>(s) || isa<DoStmt>(s) || isa<CXXForRangeStmt>(s)) {
      throw NotLifted{"the body contains a loop (nested loops, such as row-wise reductions, are not lifted yet)"};
    } else if (const auto* u = dyn_cast<UnaryOperator>(s); u && u->isIncrementDecrementOp()) {
      throw NotLifted{"`" + sourceText(*s, ctx_) + "` counts: counting loops are not lifted"};
    } else if (const auto* e = dyn_cast<Expr>(s)) {
      if (const auto* call = dyn_cast<CallExpr>(e->IgnoreParenImpCasts())) {
        if (inlineHelper(*call, env, /*value=*/false)) return;
        throw NotLifted{"the body calls `" + calleeName(*call) + "`, which may have side effects"};
      }
      throw NotLifted{"the statement `" + sourceText(*s, ctx_) + "` is not an assignment to a local variable"};
    } else {
      throw NotLifted{"the statement `" + sourceText(*s, ctx_) + "` is not one lift understands"};
    }
  }

  SymPtr eval(const Expr* e, const Env& env) {
    e = e->IgnoreParens();
    if (const VarDecl* acc = memoryAccumulator(e)) return env.at(acc);
    // A constant expression (QCONST16(.6f, 15), (int16_t)(0.5 + x * 32768), sizeof) is its value,
    // computed as the compiler computes it.
    if (!isa<DeclRefExpr>(e) && !isa<IntegerLiteral>(e) && !isa<FloatingLiteral>(e) && e->getType()->isArithmeticType() &&
        !e->getType()->isBooleanType() && e->isEvaluatable(ctx_))
      return constant(e);
    if (const auto* cleanup = dyn_cast<ExprWithCleanups>(e)) return eval(cleanup->getSubExpr(), env);
    if (const auto* temp = dyn_cast<MaterializeTemporaryExpr>(e)) return eval(temp->getSubExpr(), env);
    if (const auto* c = dyn_cast<CastExpr>(e)) {
      switch (c->getCastKind()) {
        case CK_LValueToRValue:
        case CK_NoOp: return eval(c->getSubExpr(), env);
        case CK_IntegralCast:
        case CK_FloatingCast:
        case CK_IntegralToFloating:
        case CK_FloatingToIntegral:
        case CK_IntegralToBoolean:
        case CK_FloatingToBoolean: return cast(scalarTypeOf(c->getType(), ctx_), eval(c->getSubExpr(), env));
        default: throw NotLifted{"the conversion in `" + sourceText(*e, ctx_) + "` is not one lift understands"};
      }
    }
    if (const auto* ref = dyn_cast<DeclRefExpr>(e)) {
      const auto* v = dyn_cast<VarDecl>(ref->getDecl());
      if (!v) throw NotLifted{"`" + sourceText(*e, ctx_) + "` is not a variable"};
      if (v->getType().isVolatileQualified()) throw NotLifted{"`" + v->getNameAsString() + "` is volatile"};
      if (v == induction_) {
        if (counterStep_ != 1)
          throw NotLifted{"the counter steps by " + std::to_string(counterStep_) + " and the body reads it as a value (positions only)"};
        forward_ = true;  // a value of the counter: the iterations run forward
        return makeSym(Sym{Sym::Kind::induction, scalarTypeOf(v->getType(), ctx_), "", v->getNameAsString(), 0, {}});
      }
      if (walks(v))
        throw NotLifted{"`" + v->getNameAsString() + "` steps with the loop: it is understood as a position (a[" + v->getNameAsString() +
                        "], *" + v->getNameAsString() + "), not as a value"};
      if (auto it = env.find(v); it != env.end()) {
        if (it->second->uninitialized)
          throw NotLifted{"`" + v->getNameAsString() + "` is read where some path through the body has not assigned it"};
        return it->second;
      }
      if (foreign(v)) throw NotLifted{"`" + v->getNameAsString() + "` of an inlined function is not a scalar value"};
      if (frame_ && v->hasGlobalStorage() && shadowedAtLoop(v))
        throw NotLifted{"`" + v->getNameAsString() + "` of an inlined function names another variable where the loop is"};
      if ((stores_ || fixedReads_) && !privateScalar(v)) memoryScalars_.insert(v->getNameAsString());  // a store may reach it
      return makeSym(Sym{Sym::Kind::invariant, scalarTypeOf(v->getType(), ctx_), "", v->getNameAsString(), 0, {}});
    }
    if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CharacterLiteral>(e) || isa<CXXBoolLiteralExpr>(e))
      return constant(e);
    // An element or field the element-wise loop reads at the same place every iteration
    // (`x[r * n + k]` in an axpy over j, `st->gain`): a scalar read once, which no store of the
    // loop may reach (checked on the addresses by the rewrite).
    const auto* deref = dyn_cast<UnaryOperator>(e);
    if ((isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) || (deref && deref->getOpcode() == UO_Deref)) && (stores_ || fixedReads_) && invariant(e) && !e->getType().isVolatileQualified() &&
        !mentionsCounter(e) && !scalarTypeOf(e->getType(), ctx_).dtype.empty()) {
      const std::string text = this->text(*e);
      if (stores_)
        for (const MapStore& st : *stores_)
          if (text.rfind(st.base, 0) == 0) throw NotLifted{"`" + text + "` may be an element the loop body wrote"};
      memoryScalars_.insert(text);
      return makeSym(Sym{Sym::Kind::invariant, scalarTypeOf(e->getType(), ctx_), "", text, 0, {}});
    }
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) return load(*sub);
    if (const auto* bin = dyn_cast<BinaryOperator>(e)) {
      if (bin->isAssignmentOp() || bin->isCommaOp())
        throw NotLifted{"`" + sourceText(*e, ctx_) + "` assigns inside an expression"};
      const std::string op = bin->getOpcodeStr().str();
      const Sym::Kind kind = bin->isComparisonOp() ? Sym::Kind::compare : Sym::Kind::binary;
      SymPtr lhs = eval(bin->getLHS(), env);
      if (bin->isLogicalOp()) ++conditional_;  // `a && b`: b runs for some elements only
      SymPtr rhs = eval(bin->getRHS(), env);
      if (bin->isLogicalOp()) --conditional_;
      return makeSym(Sym{kind, scalarTypeOf(e->getType(), ctx_), op, "", 0, {std::move(lhs), std::move(rhs)}});
    }
    if (const auto* un = dyn_cast<UnaryOperator>(e)) {
      if (un->getOpcode() == UO_LNot)
        return makeSym(Sym{Sym::Kind::logical_not, scalarTypeOf(e->getType(), ctx_), "", "", 0, {eval(un->getSubExpr(), env)}});
      if (un->getOpcode() == UO_Deref) {
        bool pre = false;
        if (const VarDecl* p = referencedVar(un->getSubExpr()); (p && walks(p)) || steppedVar(un->getSubExpr(), pre))
          return element(*un, un->getSubExpr(), nullptr, false);
        const Expr* pointer = nullptr;
        std::vector<const Expr*> terms;
        if (offsetDeref(un, &pointer, &terms)) return element(*un, pointer, nullptr, false, terms);
        throw NotLifted{"`" + sourceText(*e, ctx_) + "` reads through a pointer other than a[i]"};
      }
      if (un->getOpcode() == UO_Minus) {
        if (e->isEvaluatable(ctx_)) return constant(e);
        return makeSym(Sym{Sym::Kind::negate, scalarTypeOf(e->getType(), ctx_), "", "", 0, {eval(un->getSubExpr(), env)}});
      }
      if (un->getOpcode() == UO_Plus) return eval(un->getSubExpr(), env);
      if (un->getOpcode() == UO_Not) {
        if (e->isEvaluatable(ctx_)) return constant(e);
        return makeSym(Sym{Sym::Kind::bit_not, scalarTypeOf(e->getType(), ctx_), "", "", 0, {eval(un->getSubExpr(), env)}});
      }
      throw NotLifted{"the operator in `" + sourceText(*e, ctx_) + "` is not one lift understands"};
    }
    if (const auto* cond = dyn_cast<ConditionalOperator>(e); cond && stores_ && cond->getCond()->getType()->isPointerType() &&
                                                             hoistable(cond->getCond())) {
      // `b ? b[i] : 0` of a pointer the loop does not change (darknet's optional arrays): the call
      // is made when it is not null (its value then is the first branch's), else the loop runs.
      callGuards_.insert(text(*cond->getCond()));
      return eval(cond->getTrueExpr(), env);
    }
    if (const auto* cond = dyn_cast<ConditionalOperator>(e)) {
      SymPtr c = eval(cond->getCond(), env);
      ++conditional_;  // each branch runs for some elements only
      SymPtr a = eval(cond->getTrueExpr(), env), b = eval(cond->getFalseExpr(), env);
      --conditional_;
      return makeSym(Sym{Sym::Kind::select, scalarTypeOf(e->getType(), ctx_), "", "", 0, {std::move(c), std::move(a), std::move(b)}});
    }
    if (const auto* call = dyn_cast<CallExpr>(e)) return callOf(*call, env);
    throw NotLifted{"the expression `" + sourceText(*e, ctx_) + "` is not one lift understands"};
  }

  std::string calleeName(const CallExpr& call) const {
    if (const FunctionDecl* f = call.getDirectCallee()) return f->getQualifiedNameAsString();
    return sourceText(*call.getCallee(), ctx_);
  }

  SymPtr cast(const ScalarType& to, SymPtr value) { return makeSym(Sym{Sym::Kind::cast, to, "", "", 0, {std::move(value)}}); }

  // The variables that step with the loop, by their step (secondaryCounters); loopStart_: the
  // loop's first counter value, as the rewrite writes it.
  // `loopCount`: the trip count's text, for element-wise loops whose arrays all walk back.
  void allowSecondary(std::map<const VarDecl*, long long> steps, std::string loopStart,
                      std::map<const VarDecl*, PointerAlias> aliases = {}, std::string loopCount = "",
                      std::map<const VarDecl*, const Expr*> runtimeSteps = {}) {
    runtimeSteps_ = std::move(runtimeSteps);
    secondary_ = std::move(steps);
    loopStart_ = std::move(loopStart);
    aliases_ = std::move(aliases);
    loopCount_ = std::move(loopCount);
    for (const auto& [v, a] : aliases_)
      if (a.trailing) aliasOffset_[v] = a.offset;  // `dp = sp` ends every iteration: where dp starts
  }
  // The arguments of sqrt calls that set errno (EDOM) when below zero (element-wise loops).
  const std::vector<SymPtr>& domainErrors() const { return domainErrors_; }
  // Positions that walk back (`*(--dp)`), read from the other end; and positions that walk
  // forward or reads of the counter, which must not be beside them.
  bool reversed() const { return reversed_; }
  bool forward() const { return forward_; }
  // A counter that steps by k (LoopModel::iterationCount): the loop's index is the iteration,
  // and the counter `from + k * iteration`, which positions may read (`X[i]`: a stride of k).
  void countIterations(long long k, std::string from) {
    counterStep_ = k;
    counterFrom_ = std::move(from);
  }
  // The value an assignment stores: its right-hand side's, or the inner assignment's of a chain.
  SymPtr rhsOf(const BinaryOperator& assign, const Env& env) {
    return &assign == chained_.first ? chained_.second : eval(assign.getRHS(), env);
  }
  // `b = e` as the right-hand side of `a = b = e` (else null).
  static const BinaryOperator* innerAssign(const Expr* rhs) {
    const auto* b = dyn_cast<BinaryOperator>(rhs->IgnoreParenImpCasts());
    return b && b->getOpcode() == BO_Assign ? b : nullptr;
  }

  // `*(p + k)` or `*(p + i + 1)`, which is p[k], p[i + 1]: the pointer and the terms added to it
  // (false when e is no such dereference).
  static bool offsetDeref(const Expr* e, const Expr** base = nullptr, std::vector<const Expr*>* terms = nullptr) {
    const auto* u = dyn_cast<UnaryOperator>(e->IgnoreParens());
    if (!u || u->getOpcode() != UO_Deref) return false;
    const Expr* p = u->getSubExpr()->IgnoreParens();
    std::vector<const Expr*> added;
    while (const auto* sum = dyn_cast<BinaryOperator>(p)) {
      if (sum->getOpcode() != BO_Add || !sum->getLHS()->getType()->isPointerType()) break;
      added.push_back(sum->getRHS());
      p = sum->getLHS()->IgnoreParens();
    }
    if (added.empty()) return false;
    if (base) *base = p;
    if (terms) *terms = std::move(added);
    return true;
  }
  // `*p` (or `*p++`, `*--p`) of a pointer that walks with the loop (else null).
  const UnaryOperator* walkingDeref(const Expr* e) const {
    const auto* u = dyn_cast<UnaryOperator>(e->IgnoreParens());
    if (!u || u->getOpcode() != UO_Deref) return nullptr;
    bool pre = false;
    const VarDecl* p = referencedVar(u->getSubExpr());
    return (p && walks(p)) || steppedVar(u->getSubExpr(), pre) ? u : nullptr;
  }
  // A variable that steps with the loop, or a pointer assigned from one in the body (an alias).
  bool walks(const VarDecl* v) const { return secondary_.count(v) || aliases_.count(v) || runtimeSteps_.count(v); }
  // The elements `++v`/`v++` (1) or `--v`/`v--` (-1) moves v by.
  static long long stepAmount(const Expr* e) {
    return clang::cast<UnaryOperator>(e->IgnoreParenImpCasts())->isIncrementOp() ? 1 : -1;
  }
  // `v++`, `++v`, `v--` or `--v` of a variable that steps with the loop: v (pre: the step comes first).
  const VarDecl* steppedVar(const Expr* e, bool& pre) const {
    const auto* u = dyn_cast<UnaryOperator>(e->IgnoreParenImpCasts());
    if (!u || !u->isIncrementDecrementOp() || !isa<DeclRefExpr>(u->getSubExpr()->IgnoreParens())) return nullptr;
    const VarDecl* v = referencedVar(u->getSubExpr());
    if (!v || !walks(v)) return nullptr;
    pre = u->isPrefix();
    return v;
  }
  // The statement that steps a secondary counter or an alias (null for any other), and by how much.
  const VarDecl* secondaryUpdate(const Stmt* s, long long& amount) const {
    for (const auto& [v, step] : secondary_)
      if (auto k = stepOf(s, v, ctx_)) return amount = *k, v;
    for (const auto& [v, alias] : aliases_)
      if (auto k = stepOf(s, v, ctx_)) return amount = *k, v;
    for (const auto& [v, e] : runtimeSteps_)
      if (int sign = 1; runtimeStepOf(s, v, ctx_, sign)) return amount = 1, v;  // one runtime step: advanced
    return nullptr;
  }
  // Where an alias points (what `dp = sp + c` assigned, plus dp's own steps since): from sp's
  // position; throws when the body reads dp before it assigns it.
  long long aliasOffset(const VarDecl* v) const {
    auto it = aliasOffset_.find(v);
    if (it == aliasOffset_.end())
      throw NotLifted{"`" + v->getNameAsString() + "` is used before the body assigns it from `" + aliases_.at(v).of->getNameAsString() + "`"};
    return it->second + advanceOf(v);
  }
  long long advanceOf(const VarDecl* v) const {
    auto it = advance_.find(v);
    return it == advance_.end() ? 0 : it->second;
  }

  // Element-wise loops: stores `base[i + k] = value` are recorded here instead of refused.
  void allowStores(std::vector<MapStore>* stores) { stores_ = stores; }
  // Reductions: elements and fields read at a fixed address are scalars (nothing but the memory
  // accumulators below is written, and the rewrite tests those against them), and each memory
  // accumulator, by its text, is the variable standing for it.
  void allowFixedReads(std::map<std::string, const VarDecl*> accumulators) {
    fixedReads_ = true;
    memoryAccumulators_ = std::move(accumulators);
  }
  const std::set<std::string>& memoryScalars() const { return memoryScalars_; }
  const std::set<std::string>& callGuards() const { return callGuards_; }
  // Conditions every iteration meets (asserts, inlined helpers' range tests), the loop's variables
  // marked for fillCounters; and whether an inlined helper reads or writes array elements.
  const std::vector<std::string>& everywhere() const { return everywhere_; }
  bool inlinedElements() const { return inlinedElements_; }
  // The runtime strides the arrays are read (or written) at (`x[i * incx]`): a reduction's call
  // needs each >= 0; an element-wise loop's outputs need theirs >= 1 (map_lift).
  const std::set<std::string>& runtimeStrides() const { return runtimeStrides_; }

 private:
  void checkScalarLocal(const VarDecl* v) {
    if (v->getType().isVolatileQualified()) throw NotLifted{"`" + v->getNameAsString() + "` is volatile"};
  }

  // The variable standing for a memory accumulator `e` names (null if it names none).
  const VarDecl* memoryAccumulator(const Expr* e) const {
    e = e->IgnoreParens();
    if (memoryAccumulators_.empty() || !(isa<ArraySubscriptExpr>(e) || isa<MemberExpr>(e) || isa<UnaryOperator>(e))) return nullptr;
    auto it = memoryAccumulators_.find(sourceText(*e, ctx_));
    return it == memoryAccumulators_.end() ? nullptr : it->second;
  }

  const VarDecl* assignedVar(const Expr* lhs) {
    if (const VarDecl* acc = memoryAccumulator(lhs)) return acc;
    const VarDecl* v = referencedVar(lhs);
    if (!v || !isa<DeclRefExpr>(lhs->IgnoreParens()))
      throw NotLifted{"the loop writes to memory (`" + sourceText(*lhs, ctx_) + "`), which may alias its input; "
                      "accumulate in a local variable and store it after the loop"};
    if (v->getType().isVolatileQualified()) throw NotLifted{"`" + v->getNameAsString() + "` is volatile"};
    if (!v->hasLocalStorage() || v->getType()->isReferenceType())
      throw NotLifted{"`" + v->getNameAsString() + "` is not a local variable (a global, static or reference may alias the input)"};
    return v;
  }

  // A literal or constant expression, by its value: 2.0f is "2", 'a' is "97", 0x10 is "16".
  SymPtr constant(const Expr* e) {
    Expr::EvalResult r;
    std::string text = sourceText(*e, ctx_);
    if (e->EvaluateAsRValue(r, ctx_)) {
      if (r.Val.isInt()) text = llvm::toString(r.Val.getInt(), 10);
      else if (r.Val.isFloat()) {
        llvm::SmallString<32> digits;
        r.Val.getFloat().toString(digits);
        text = digits.str().str();
      }
    }
    return makeSym(Sym{Sym::Kind::constant, scalarTypeOf(e->getType(), ctx_), "", text, 0, {}});
  }

  // base[i + c + e]: base a pointer or array and e an integer, neither changed by the loop (a row
  // pointer `a[r]`, a row offset `r * stride`); the load is (base + e)[i + c].
  struct Index {
    bool ok = true;
    long long counter = 0, constant = 0;
    std::string stride;  // the counter times this (a column of a matrix), instead of the counter alone
    const Expr* strideExpr = nullptr;
    std::vector<const Expr*> strideExprs;  // or the factors of that stride (`j * l.w * l.h`: l.w, l.h)
    bool hoistableStride = true;           // every factor reads no memory (judged where it is written)
    std::vector<const Expr*> factors() const {
      std::vector<const Expr*> all = strideExprs;
      if (strideExpr && all.empty()) all.push_back(strideExpr);
      return all;
    }
    std::vector<std::pair<int, std::string>> terms;  // sign and text of each invariant term
  };

  SymPtr load(const ArraySubscriptExpr& sub, bool stored = false) { return element(sub, sub.getBase(), sub.getIdx(), stored); }

  // base[idx], or *base (idx null): base an array the loop does not change, or a pointer that
  // walks with the loop (`*dp`, `sp[1]` with `dp++; sp++;` in the body), whose element is then
  // (its value before the loop)[i - start], one further once the body has advanced it.
  SymPtr element(const Expr& whole, const Expr* base, const Expr* idx, bool stored, const std::vector<const Expr*>& moreIdx = {}) {
    if (whole.getType().isVolatileQualified()) throw NotLifted{"the elements of `" + sourceText(whole, ctx_) + "` are volatile"};
    Index index;
    bool pre = false;
    const VarDecl* stepped = steppedVar(base, pre);  // *p++, *--p: the element before or after the step
    const VarDecl* walking = stepped ? stepped : referencedVar(base);
    if (walking && (stepped || isa<DeclRefExpr>(base->IgnoreParenImpCasts())) && walks(walking) && walking->getType()->isPointerType()) {
      // More than 1: a strided input (or output) of a 1-D loop; below 0, walking back (below).
      // A runtime step (`p += stride`): a runtime stride (stepWith).
      const long long step = runtimeSteps_.count(walking) ? 1 : secondary_.at(aliases_.count(walking) ? aliases_.at(walking).of : walking);
      if (step != 1 && !((stores_ || fixedReads_) && step > 1) && !(stores_ && step < 0 && !loopCount_.empty()))
        throw NotLifted{"`" + walking->getNameAsString() + "` steps by more than one element"};
      if (stepped && pre) advance_[stepped] += stepAmount(base);
      stepWith(walking, 1, index, true);
      if (stepped && !pre) advance_[stepped] += stepAmount(base);
    } else if (stepped || !invariant(base)) {
      throw NotLifted{"the array `" + sourceText(*base, ctx_) + "` in `" + sourceText(whole, ctx_) + "` changes in the loop or has side effects"};
    }
    if (idx) decompose(idx, 1, index);
    for (const Expr* more : moreIdx) decompose(more, 1, index);
    const std::vector<const Expr*> factors = index.factors();
    const bool constantStride = !factors.empty() && std::all_of(factors.begin(), factors.end(), [&](const Expr* f) { return f->isIntegerConstantExpr(ctx_); });
    if (index.ok && index.counter == 0 && !factors.empty() && !constantStride && !stores_ && fixedReads_) {
      // A runtime stride of a reduction's input (`dot += X[i*INCX] * Y[i*INCY]`): the map
      // family's runtime input stride, whose kernel reads contiguous vectors when it is 1 and
      // gathers otherwise; the call is made only when it is not negative (the spec's strides are
      // not), else the loop runs as written. The loop stores nothing, so a stride read from memory
      // (`st->channels`, invariant) is the same when the call reads it once.
      runtimeStrides_.insert(index.stride);
    } else if (index.ok && index.counter == 0 && !factors.empty() && !constantStride && stores_) {
      // A runtime stride of an element-wise loop (BLAS's `y[i * incy] += alpha * x[i * incx]`,
      // darknet's `delta[index + stride*(offset + i)]`): the spec's runtime stride of that input
      // or output, read once by the call. Each factor is a local the loop does not change, or a
      // field or global the positions read (`in[i*st->channels + ch]`), which the rewrite checks
      // no store of the loop reaches (mapCallChecks, the memory objects of the positions).
      if (!index.hoistableStride && !isa<ArraySubscriptExpr>(whole))
        throw NotLifted{"`" + sourceText(whole, ctx_) + "` is strided by `" + index.stride + "`, which the loop's stores may change"};
      runtimeStrides_.insert(index.stride);
    } else if (index.ok && index.counter == 0 && constantStride) {
      long long value = 1;
      for (const Expr* f : factors) value *= f->getIntegerConstantExpr(ctx_)->getExtValue();
      if (value == 1) index.counter = 1, index.stride.clear();  // `x[i * 1]`
      else index.stride = std::to_string(value);                // by its value
    }
    if (stores_ && index.ok && index.counter < 0 && index.stride.empty() && !loopCount_.empty()) {
      // A pointer (or index) that walks back, libpng's `*(--dp) = (png_byte)(255 - *(--sp));`:
      // an element-wise loop may run its iterations from the other end, where the position of
      // iteration n - 1 - k walks forward from base - s * (n - 1). Every array of the loop must
      // walk back alike (modelMap refuses a mix).
      const long long s = -index.counter;
      index.counter = s;
      index.terms.push_back({-1, (s == 1 ? "(" : std::to_string(s) + " * (") + paren(loopCount_) + " - 1)"});
      reversed_ = true;
    } else if (index.ok && (index.counter > 0 || !index.stride.empty())) {
      forward_ = true;
    }
    if ((stores_ || fixedReads_) && index.ok && index.stride.empty() && index.counter > 1) {
      // A constant stride through a counter or a position that steps by more than one (`x[2 * i]`
      // as i * 2; `sp[k]` with `k += 3`): the map family's input `stride` (1-D loops only).
      index.stride = std::to_string(index.counter);
      index.counter = 0;
    }
    if (!index.ok || !((index.counter == 1 && index.stride.empty()) || (index.counter == 0 && !index.stride.empty())))
      throw NotLifted{"the index `" + (idx ? sourceText(*idx, ctx_) : sourceText(whole, ctx_)) + "` is not `" + induction_->getNameAsString() +
                      " + constant` or plus a value the loop does not change (indirect accesses are not lifted)"};
    std::string pointer = stepped ? stepped->getNameAsString() : text(*base);  // `p`, not `p++`
    if (walking && aliases_.count(walking)) pointer = aliases_.at(walking).of->getNameAsString();  // dp = sp: from sp
    for (const auto& [sign, term] : index.terms) pointer += (sign > 0 ? " + " : " - ") + term;
    if (stores_ && !stored)
      for (const MapStore& st : *stores_)
        if (st.base == pointer) {
          // The element this iteration stored: its new value. Another element of that array: the
          // kernel reads it before the stores of earlier elements (a recurrence), so it is refused,
          // unless both step by one stride and never meet (an interleaved position not stored).
          const bool unit = index.stride.empty() && index.counter == 1 && st.stride == 1;
          const bool strided = st.stride > 1 && index.counter == 0 && index.stride == std::to_string(st.stride);
          if (!st.strideText.empty() && st.strideText == index.stride && st.offset == index.constant) return st.value;
          if ((unit || strided) && st.offset == index.constant) return st.value;
          if (strided && (st.offset - index.constant) % st.stride != 0) continue;
          throw NotLifted{"`" + sourceText(whole, ctx_) + "` reads an array after the loop body wrote it"};
        }
    Sym s{Sym::Kind::load, scalarTypeOf(whole.getType(), ctx_), induction_->getNameAsString(), pointer, index.constant, {}};
    s.stride = index.stride;
    s.origin = frame_ ? nullptr : &whole;  // an inlined helper's element: no place in the loop's own code
    if (frame_) inlinedElements_ = true;
    s.type.spelling = whole.getType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    return makeSym(std::move(s));
  }

  // A variable that steps with the loop (`j++`, `p += 1`, once per iteration): at iteration i it
  // is its value before the loop + step * (i - start), + step more after the body's update.
  // `base`: v is the pointer indexed (its name is the base's text already), not a term of the index.
  void stepWith(const VarDecl* v, int sign, Index& out, bool base = false) {
    if (auto rs = runtimeSteps_.find(v); rs != runtimeSteps_.end()) {
      // `ix += incx`: its value before the loop + incx * (i - start), + incx once stepped; the
      // spec's runtime stride incx (read once: it must not change in the loop).
      const Expr* e = rs->second;
      if (sign < 0 || !out.stride.empty() || !invariant(e) || !hoistable(e)) {  // a local: no store reaches it
        out.ok = false;
        return;
      }
      const std::string f = text(*e), times = simpleOperand(f) ? f : "(" + f + ")";
      out.stride = times;
      out.strideExprs = {e};
      out.hoistableStride = hoistable(e);
      if (!base) out.terms.push_back({1, v->getNameAsString()});
      if (loopStart_ != "0") out.terms.push_back({-1, times + " * (" + loopStart_ + ")"});
      if (advanceOf(v)) out.terms.push_back({1, times});
      return;
    }
    if (aliases_.count(v)) {  // dp = sp + c: sp's position, then c and dp's own steps
      const long long offset = aliasOffset(v);
      stepWith(aliases_.at(v).of, sign, out, base);
      out.constant += sign * (offset - advanceOf(aliases_.at(v).of));
      return;
    }
    const long long step = secondary_.at(v);
    out.counter += sign * step;
    if (!base) out.terms.push_back({sign, v->getNameAsString()});
    const std::string& start = loopStart_;
    if (!start.empty() && start.find_first_not_of("0123456789") == std::string::npos && start.size() < 10)
      out.constant -= sign * step * std::stoll(start);
    else
      out.terms.push_back({-sign, step == 1 ? "(" + start + ")" : std::to_string(step) + " * (" + start + ")"});
    out.constant += sign * advanceOf(v);
  }

  // The argument a parameter of the inlined helper stands for (null for any other variable).
  const Expr* argumentOf(const VarDecl* v) const {
    if (!frame_ || !v) return nullptr;
    auto it = frame_->args.find(v);
    return it == frame_->args.end() ? nullptr : it->second;
  }
  // A local of the inlined helper initialized once and never assigned (darknet's `int n =
  // location / (l.w*l.h);` in `entry_index`): its initializer, in the helper's terms (else null).
  const Expr* frameLocalInit(const VarDecl* v) const {
    if (!frame_ || !v || isa<ParmVarDecl>(v) || !v->hasInit() || !foreign(v) || v->getType().isVolatileQualified() ||
        v->getParentFunctionOrMethod() != static_cast<const DeclContext*>(frame_->def) || partAssigned(v, frame_->def->getBody()) ||
        partAddressTaken(v, frame_->def->getBody()))
      return nullptr;
    return v->getInit();
  }
  // A local or parameter of another function than the loop's (an inlined helper's).
  bool foreign(const VarDecl* v) const {
    return v && v->isLocalVarDeclOrParm() && loopFunction_ && v->getParentFunctionOrMethod() != static_cast<const DeclContext*>(loopFunction_);
  }
  // f() evaluated in the loop's own scope (an argument of the inlined helper).
  template <class F>
  auto inCaller(F f) const {
    struct Restore {
      const Frame*& frame;
      const Frame* saved;
      ~Restore() { frame = saved; }
    } restore{frame_, frame_};
    frame_ = nullptr;
    return f();
  }
  // The text of `e` in the loop's terms: an inlined helper's parameters are their arguments.
  // `marks`: the loop's variables are written \x01name\x02 (fillCounters puts values in).
  std::string text(const Expr& e, bool marks = false) const {
    try {
      return substitutedText(e, ctx_, [&](const VarDecl* v) -> std::optional<std::string> {
        if (const Expr* arg = argumentOf(v)) {
          const std::string t = inCaller([&] { return text(*arg, marks); });
          std::string bare = t;  // simple without the marks
          bare.erase(std::remove_if(bare.begin(), bare.end(), [](char ch) { return ch == '\x01' || ch == '\x02'; }), bare.end());
          return simpleOperand(bare) ? t : "(" + t + ")";
        }
        if (const Expr* init = frameLocalInit(v)) return "(" + text(*init, marks) + ")";
        if (foreign(v))
          throw NotLifted{"`" + v->getNameAsString() + "` is a variable of the inlined `" + frame_->def->getNameAsString() +
                          "` that the call site does not have"};
        if (marks && v->isLocalVarDeclOrParm()) return "\x01" + v->getNameAsString() + "\x02";
        return std::nullopt;
      });
    } catch (const std::runtime_error& err) {
      throw NotLifted{"`" + sourceText(e, ctx_) + "` of an inlined function: " + err.what()};
    }
  }

  bool mentionsCounter(const Expr* e) const {
    for (const VarDecl* v : referencedVars(e)) {
      if (v == induction_) return true;
      if (const Expr* arg = argumentOf(v); arg && inCaller([&] { return mentionsCounter(arg); })) return true;
      if (const Expr* init = frameLocalInit(v); init && mentionsCounter(init)) return true;
    }
    return false;
  }

  bool isCounter(const Expr* e) const {
    e = e->IgnoreParenImpCasts();
    if (const Expr* arg = argumentOf(referencedVar(e)); arg && isa<DeclRefExpr>(e)) return inCaller([&] { return isCounter(arg); });
    return isa<DeclRefExpr>(e) && referencedVar(e) == induction_;
  }

  // No side effects, and no variable the loop changes (nor its counter).
  // Its text is used before the loop by the rewrite, so its variables are declared before it.
  bool invariant(const Expr* e) {
    if (e->HasSideEffects(ctx_)) return false;
    for (const VarDecl* v : referencedVars(e)) {
      if (const Expr* arg = argumentOf(v)) {
        if (!inCaller([&] { return invariant(arg); })) return false;
        continue;
      }
      if (const Expr* init = frameLocalInit(v)) {
        if (!invariant(init)) return false;
        continue;
      }
      if (v == induction_ || written_.count(v) || v->getType().isVolatileQualified() || !declaredBeforeLoop(v)) return false;
    }
    return true;
  }
  bool declaredBeforeLoop(const VarDecl* v) const {
    return !foreign(v) && ctx_.getSourceManager().isBeforeInTranslationUnit(v->getLocation(), loop_.getBeginLoc());
  }

  // A condition that can be tested once before the loop: no memory read, no call, only literals,
  // enumerators and scalar locals or parameters declared before the loop that the loop does not
  // change and whose address is never taken (no store of the loop can change them).
  bool hoistable(const Expr* e) const {
    e = e->IgnoreParens();
    if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CharacterLiteral>(e) || isa<CXXBoolLiteralExpr>(e) ||
        isa<CXXNullPtrLiteralExpr>(e) || isa<GNUNullExpr>(e) || isa<UnaryExprOrTypeTraitExpr>(e))
      return true;
    if (const auto* c = dyn_cast<CastExpr>(e)) return hoistable(c->getSubExpr());
    if (const auto* r = dyn_cast<DeclRefExpr>(e)) {
      if (isa<EnumConstantDecl>(r->getDecl())) return true;
      const auto* v = dyn_cast<VarDecl>(r->getDecl());
      if (const Expr* arg = argumentOf(v)) return inCaller([&] { return hoistable(arg); });
      return v && v != induction_ && !written_.count(v) && privateScalar(v) && declaredBeforeLoop(v);
    }
    if (const auto* m = dyn_cast<MemberExpr>(e); m && !m->isArrow()) return privateAggregate(m->getBase());
    if (const auto* u = dyn_cast<UnaryOperator>(e))
      return (u->getOpcode() == UO_LNot || u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus || u->getOpcode() == UO_Not) &&
             hoistable(u->getSubExpr());
    if (const auto* b = dyn_cast<BinaryOperator>(e)) return !b->isAssignmentOp() && !b->isCommaOp() && hoistable(b->getLHS()) && hoistable(b->getRHS());
    if (const auto* c = dyn_cast<ConditionalOperator>(e))
      return hoistable(c->getCond()) && hoistable(c->getTrueExpr()) && hoistable(c->getFalseExpr());
    return false;
  }
  // Whether the loop's function declares a variable named as the global `v` (which an inlined
  // helper reads): the call site's text would name that variable instead.
  bool shadowedAtLoop(const VarDecl* v) const {
    if (!loopFunction_) return false;
    for (const ParmVarDecl* p : loopFunction_->parameters())
      if (p->getName() == v->getName()) return true;
    struct Names : RecursiveASTVisitor<Names> {
      llvm::StringRef name;
      bool found = false;
      bool VisitVarDecl(VarDecl* d) {
        found = found || d->getName() == name;
        return !found;
      }
    } names;
    names.name = v->getName();
    names.TraverseStmt(const_cast<Stmt*>(function_));
    return names.found;
  }
  // A field chain of a struct held by value in a local or parameter that no pointer can reach and
  // the loop does not change (`im.w` of darknet's `image im`).
  bool privateAggregate(const Expr* e) const {
    e = e->IgnoreParenImpCasts();
    if (const auto* m = dyn_cast<MemberExpr>(e); m && !m->isArrow()) return privateAggregate(m->getBase());
    const auto* r = dyn_cast<DeclRefExpr>(e);
    const auto* v = r ? dyn_cast<VarDecl>(r->getDecl()) : nullptr;
    if (const Expr* arg = argumentOf(v)) return inCaller([&] { return privateAggregate(arg); });
    return v && v->getType()->isRecordType() && v->hasLocalStorage() && !v->isStaticLocal() && !v->getType().isVolatileQualified() &&
           declaredBeforeLoop(v) && !partAddressTaken(v, function_) && !partAssigned(v, loop_.getBody());
  }
  // A local or parameter that no pointer can reach.
  bool privateScalar(const VarDecl* v) const {
    return v->hasLocalStorage() && !v->isStaticLocal() && !v->getType()->isReferenceType() && !v->getType().isVolatileQualified() &&
           !addressTaken(v, function_);
  }

  // A position computed by a helper of the file (darknet's `int entry_index(layer l, int batch, int
  // location, int entry) { int n = location / (l.w*l.h); int loc = location % (l.w*l.h); return
  // batch*l.outputs + n*l.w*l.h*(l.coords+l.classes+1) + entry*l.w*l.h + loc; }`): locals with
  // initializers, then `return position;`, read with the arguments for its parameters (one level).
  void decomposeCall(const CallExpr& call, int sign, Index& out) {
    const FunctionDecl* f = call.getDirectCallee();
    const FunctionDecl* def = nullptr;
    const auto* body = f && f->hasBody(def) && def && !def->isVariadic() && def->getNumParams() == call.getNumArgs()
                           ? dyn_cast_or_null<CompoundStmt>(def->getBody())
                           : nullptr;
    const auto* ret = body && !body->body_empty() ? dyn_cast<ReturnStmt>(body->body_back()) : nullptr;
    if (!ret || !ret->getRetValue() || frame_ || inlineDepth_ > 0 || !def->getReturnType()->isIntegerType()) {
      out.ok = false;
      return;
    }
    for (const Stmt* st : body->body())
      if (st != ret && !isa<DeclStmt>(st)) {
        out.ok = false;
        return;
      }
    Frame frame;
    frame.def = def;
    for (unsigned k = 0; k < def->getNumParams(); ++k) {
      const ParmVarDecl* p = def->getParamDecl(k);
      const Expr* arg = call.getArg(k);
      const QualType t = p->getType();
      const QualType from = arg->IgnoreParenImpCasts()->getType();
      // The argument's text stands for the parameter: not where the call converts it (narrows).
      const bool same = (t->isRecordType() && canonicalType(t) == canonicalType(from)) ||
                        (t->isIntegerType() && from->isIntegerType() && ctx_.getTypeSize(from) <= ctx_.getTypeSize(t) &&
                         (ctx_.getTypeSize(from) < ctx_.getTypeSize(t) || from->isSignedIntegerType() == t->isSignedIntegerType()));
      if (!same || t.isVolatileQualified() || t->isReferenceType() || arg->HasSideEffects(ctx_) || partAssigned(p, body) ||
          partAddressTaken(p, body)) {
        out.ok = false;
        return;
      }
      frame.args[p] = arg;
    }
    frame_ = &frame;
    struct Restore {
      const Frame*& frame;
      ~Restore() { frame = nullptr; }
    } restore{frame_};
    decompose(ret->getRetValue(), sign, out);
    // A stride read from memory in the helper: the rewrite's checks see only the loop's own text.
    if (!out.stride.empty() && !out.hoistableStride) out.ok = false;
  }

  // The index as counter * i + constant + the invariant terms, through + and -.
  void decompose(const Expr* e, int sign, Index& out) {
    e = e->IgnoreParenImpCasts();
    if (const Expr* arg = argumentOf(referencedVar(e)); arg && isa<DeclRefExpr>(e)) {
      inCaller([&] { decompose(arg, sign, out); });
    } else if (referencedVar(e) == induction_ && isa<DeclRefExpr>(e) && counterStep_ != 1) {
      // `X[i]` with `i += 2`: from + k * iteration
      out.counter += sign * counterStep_;
      const std::string& from = counterFrom_;
      if (!from.empty() && from.find_first_not_of("0123456789") == std::string::npos && from.size() < 10) out.constant += sign * std::stoll(from);
      else out.terms.push_back({sign, paren(from)});
    } else if (referencedVar(e) == induction_ && isa<DeclRefExpr>(e)) {
      out.counter += sign;
    } else if (auto c = e->getIntegerConstantExpr(ctx_)) {
      out.constant += sign * c->getExtValue();
    } else if (const auto* bin = dyn_cast<BinaryOperator>(e); bin && (bin->getOpcode() == BO_Add || bin->getOpcode() == BO_Sub)) {
      decompose(bin->getLHS(), sign, out);
      decompose(bin->getRHS(), bin->getOpcode() == BO_Add ? sign : -sign, out);
    } else if (const auto* mul = dyn_cast<BinaryOperator>(e); mul && mul->getOpcode() == BO_Mul &&
               (isCounter(mul->getLHS()) || isCounter(mul->getRHS()))) {
      const Expr* stride = isCounter(mul->getLHS()) ? mul->getRHS() : mul->getLHS();
      if (sign < 0 || !out.stride.empty() || !invariant(stride) || argumentOf(referencedVar(stride)) || counterStep_ != 1) out.ok = false;
      else out.stride = text(*stride), out.strideExpr = stride, out.hoistableStride = hoistable(stride);
    } else if (const auto* mul = dyn_cast<BinaryOperator>(e); mul && mul->getOpcode() == BO_Mul &&
               mentionsCounter(mul->getLHS()) != mentionsCounter(mul->getRHS())) {
      // A position times a value the loop does not change: `j * l.w * l.h` (the counter times
      // `l.w`, then times `l.h`), `stride * (offset + i)` (distributed: `stride * offset` is a
      // term of the base). The counter must end up times one runtime stride and nothing else.
      const bool left = mentionsCounter(mul->getLHS());
      const Expr* factor = left ? mul->getRHS() : mul->getLHS();
      Index inner;
      decompose(left ? mul->getLHS() : mul->getRHS(), 1, inner);
      if (sign < 0 || !out.stride.empty() || !inner.ok || !invariant(factor) || argumentOf(referencedVar(factor)) || factor->HasSideEffects(ctx_) ||
          (inner.stride.empty() ? inner.counter != 1 : inner.counter != 0)) {
        out.ok = false;
        return;
      }
      const std::string f = text(*factor);
      const std::string times = simpleOperand(f) ? f : "(" + f + ")";
      out.stride = inner.stride.empty() ? times : inner.stride + " * " + times;
      out.strideExprs = inner.strideExprs;
      if (inner.strideExpr) out.strideExprs.push_back(inner.strideExpr);
      out.strideExprs.push_back(factor);
      out.hoistableStride = inner.hoistableStride && hoistable(factor);
      if (inner.constant) out.terms.push_back({1, times + " * " + std::to_string(inner.constant)});
      for (const auto& [s, term] : inner.terms) out.terms.push_back({s, times + " * " + term});
    } else if (const VarDecl* v = referencedVar(e); v && isa<DeclRefExpr>(e) && (secondary_.count(v) || runtimeSteps_.count(v)) &&
                                                      !v->getType()->isPointerType()) {
      stepWith(v, sign, out);
    } else if (bool pre = false; steppedVar(e, pre) && !steppedVar(e, pre)->getType()->isPointerType()) {
      // a[k++]: the position before the step (a[++k]: after it), and k has stepped from here on.
      const VarDecl* k = steppedVar(e, pre);
      if (pre) advance_[k] += stepAmount(e);
      stepWith(k, sign, out);
      if (!pre) advance_[k] += stepAmount(e);
    } else if (const VarDecl* v = referencedVar(e); v && isa<DeclRefExpr>(e) && v->hasInit() && !written_.count(v) &&
                                                      !declaredBeforeLoop(v) && !v->getType().isVolatileQualified() &&
                                                      (!foreign(v) || (frame_ && !partAssigned(v, frame_->def->getBody())))) {
      // A local of the body that names a position (`int index = b * n + i;`), never assigned again.
      decompose(v->getInit(), sign, out);
    } else if (const auto* call = dyn_cast<CallExpr>(e); call && mentionsCounter(call)) {
      decomposeCall(*call, sign, out);
    } else if (invariant(e)) {
      std::string text = this->text(*e);
      bool word = true;
      for (char ch : text) word = word && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
      const bool product = isa<BinaryOperator>(e) && clang::cast<BinaryOperator>(e)->isMultiplicativeOp();
      out.terms.push_back({sign, word || product ? text : "(" + text + ")"});
    } else {
      out.ok = false;
    }
  }

  // A condition the map family can test: a comparison, `!`, `&&`, `||`, or a number (not a pointer).
  static bool truthValue(const Sym& s) {
    if (s.kind == Sym::Kind::compare) return true;
    if (s.kind == Sym::Kind::logical_not) return truthValue(*s.args[0]);
    if (s.kind == Sym::Kind::binary && (s.op == "&&" || s.op == "||")) return truthValue(*s.args[0]) && truthValue(*s.args[1]);
    if (s.kind == Sym::Kind::cast && s.type.dtype.empty()) return truthValue(*s.args[0]);  // to bool
    return !s.type.dtype.empty();
  }

  // Never below zero (NaN aside): squares, sums and products of such values, square roots, fabs,
  // unsigned integers, non-negative constants. sqrt of such a value sets no errno.
  static bool nonNegative(const Sym& s) {
    switch (s.kind) {
      case Sym::Kind::constant: return !s.name.empty() && s.name[0] != '-';
      case Sym::Kind::cast: return !s.args[0]->type.dtype.empty() && !s.args[0]->type.isFloat && !s.args[0]->type.isSigned
                                       ? true
                                       : nonNegative(*s.args[0]);
      case Sym::Kind::math: return s.op == "sqrt" || s.op == "abs" || s.op == "popcount";
      case Sym::Kind::load:
      case Sym::Kind::invariant: return !s.type.dtype.empty() && !s.type.isFloat && !s.type.isSigned;
      case Sym::Kind::binary:
        if (s.op == "*" && sameSym(s.args[0], s.args[1])) return true;
        if (s.op == "+" || s.op == "*" || s.op == "/") return nonNegative(*s.args[0]) && nonNegative(*s.args[1]);
        return false;
      case Sym::Kind::fma:
        return (sameSym(s.args[0], s.args[1]) || (nonNegative(*s.args[0]) && nonNegative(*s.args[1]))) && nonNegative(*s.args[2]);
      case Sym::Kind::select: return nonNegative(*s.args[1]) && nonNegative(*s.args[2]);
      default: return false;
    }
  }

  // The map family's name of a C math function with one float argument ("" if it is none): sqrt,
  // floor, ceil, trunc, rint/nearbyint (to nearest, ties to even, in the default rounding mode)
  // as nearest, and the approximated ones (exp, expm1, log, log1p, ...: sym.h). Their float, double and std:: overloads and GCC builtins.
  static std::string mathFunction(const std::string& name) {
    std::string base = name.rfind("std::", 0) == 0 ? name.substr(5) : name.rfind("__builtin_", 0) == 0 ? name.substr(10) : name;
    if (base.size() > 1 && base.back() == 'f' && base != "f") base.pop_back();
    if (base == "sqrt" || base == "floor" || base == "ceil" || base == "trunc") return base;
    if (approximateMathFunction(base)) return base;
    if (base == "fabs") return "abs";
    if (base == "rint" || base == "nearbyint") return "nearest";
    return "";
  }

  SymPtr callOf(const CallExpr& call, const Env& env) {
    const std::string name = calleeName(call);
    static const std::set<std::string> nanIgnoring = {"fmax", "fmaxf", "fmin", "fminf", "std::fmax", "std::fmaxf",
                                                      "std::fmin", "std::fminf", "__builtin_fmax", "__builtin_fmaxf",
                                                      "__builtin_fmin", "__builtin_fminf"};
    if (nanIgnoring.count(name) && call.getNumArgs() == 2) {
      const std::string op = name.find("fmax") != std::string::npos ? "fmax" : "fmin";
      return makeSym(Sym{Sym::Kind::fmax, scalarTypeOf(call.getType(), ctx_), op, "", 0,
                         {eval(call.getArg(0), env), eval(call.getArg(1), env)}});
    }
    static const std::set<std::string> fused = {"fma", "fmaf", "std::fma", "std::fmaf", "__builtin_fma", "__builtin_fmaf"};
    if (fused.count(name) && call.getNumArgs() == 3)
      return makeSym(Sym{Sym::Kind::fma, scalarTypeOf(call.getType(), ctx_), "fma", "", 0,
                         {eval(call.getArg(0), env), eval(call.getArg(1), env), eval(call.getArg(2), env)}});
    if (const std::string fn = mathFunction(name); !fn.empty() && call.getNumArgs() == 1) {
      SymPtr arg = eval(call.getArg(0), env);
      // C's sqrt sets errno (EDOM) below zero unless -fno-math-errno; the kernels do not, but an
      // element-wise loop's call can: the kernel also tells whether any argument was below zero
      // (a reduction output), and the rewrite sets errno then. Only where every iteration calls
      // sqrt (not in a branch: there the condition would decide).
      if (fn == "sqrt" && ctx_.getLangOpts().MathErrno && !nonNegative(*arg)) {
        if (!stores_ || conditional_ > 0)
          throw NotLifted{"`" + name + "` sets errno for a negative argument, which the kernel does not: compile with "
                          "-fno-math-errno (or -ffast-math) if nothing reads errno" +
                          std::string(stores_ ? " (a call in a branch: the kernel cannot tell where errno would be set)" : "")};
        domainErrors_.push_back(arg);
      }
      // exp, exp2 and expm1 set errno (ERANGE) when the result overflows or underflows, log, log2 and
      // log1p (EDOM, ERANGE) below their domain and at its edge, tanh and erf may for tiny arguments;
      // the kernels never do.
      if (approximateMathFunction(fn) && ctx_.getLangOpts().MathErrno)
        throw NotLifted{"`" + name + "` sets errno on range and domain errors, which the kernel does not: compile with "
                        "-fno-math-errno (or -ffast-math) if nothing reads errno"};
      return makeSym(Sym{Sym::Kind::math, scalarTypeOf(call.getType(), ctx_), fn, "", 0, {std::move(arg)}});
    }
    // pow(x, 2) is x * x: gcc and clang fold it so at -O1 and above, -fmath-errno or not.
    static const std::set<std::string> pows = {"pow", "powf", "std::pow", "__builtin_pow", "__builtin_powf"};
    if (pows.count(name) && call.getNumArgs() == 2) {
      Expr::EvalResult two;
      const Expr* exponent = call.getArg(1)->IgnoreParenImpCasts();
      if (!exponent->isValueDependent() && exponent->EvaluateAsRValue(two, ctx_) &&
          ((two.Val.isFloat() && two.Val.getFloat().isExactlyValue(2.0)) || (two.Val.isInt() && two.Val.getInt() == 2))) {
        SymPtr base = eval(call.getArg(0), env);
        return makeSym(Sym{Sym::Kind::binary, scalarTypeOf(call.getType(), ctx_), "*", "", 0, {base, base}});
      }
      throw NotLifted{"`" + name + "` with an exponent other than the constant 2 (pow has no vector form in simdgen yet)"};
    }
    // The set bits of the argument converted to the builtin's unsigned parameter type (the
    // conversion is the argument's implicit cast); std::popcount takes unsigned types only.
    static const std::set<std::string> popcounts = {"__builtin_popcount", "__builtin_popcountl", "__builtin_popcountll", "std::popcount"};
    if (popcounts.count(name) && call.getNumArgs() == 1) {
      SymPtr arg = eval(call.getArg(0), env);
      if (arg->type.dtype.empty() || arg->type.isFloat || arg->type.isSigned)
        throw NotLifted{"`" + name + "` of " + arg->type.spelling + " (simdgen counts the bits of an unsigned integer)"};
      return makeSym(Sym{Sym::Kind::math, scalarTypeOf(call.getType(), ctx_), "popcount", "", 0, {std::move(arg)}});
    }
    if (name == "round" || name == "roundf" || name == "std::round" || name == "__builtin_round" || name == "__builtin_roundf")
      throw NotLifted{"`" + name + "` rounds halfway cases away from zero, which no SIMD rounding instruction does (rint and "
                      "nearbyint round them to even)"};
    if ((name == "std::max" || name == "std::min") && call.getNumArgs() == 2) {
      SymPtr a = eval(call.getArg(0), env), b = eval(call.getArg(1), env);
      const ScalarType t = scalarTypeOf(call.getType().getNonReferenceType(), ctx_);
      const ScalarType boolean = scalarTypeOf(ctx_.BoolTy, ctx_);
      // libstdc++: max(a, b) = (a < b) ? b : a;  min(a, b) = (b < a) ? b : a.
      SymPtr less = name == "std::max" ? makeSym(Sym{Sym::Kind::compare, boolean, "<", "", 0, {a, b}})
                                       : makeSym(Sym{Sym::Kind::compare, boolean, "<", "", 0, {b, a}});
      return makeSym(Sym{Sym::Kind::select, t, "", "", 0, {less, b, a}});
    }
    if (SymPtr inlined = inlineCall(call, env)) return inlined;
    if (SymPtr inlined = inlineHelper(call, env, /*value=*/true)) return inlined;
    throw NotLifted{"the body calls `" + name + "`" +
                    (call.getDirectCallee() && call.getDirectCallee()->isConstexpr() ? "" : ", which may have side effects")};
  }

  // A function of this file whose body is one `return expr;` over its scalar parameters (darknet's
  // `static inline float leaky_activate(float x) { return (x > 0) ? x : .1 * x; }`) is its
  // expression, as a macro would be: evaluated with the arguments' values (each argument is
  // converted to its parameter's type, as the call does).
  SymPtr inlineCall(const CallExpr& call, const Env& env) {
    const FunctionDecl* f = call.getDirectCallee();
    const FunctionDecl* def = nullptr;
    if (!f || !f->hasBody(def) || !def || def->isVariadic() || inlineDepth_ >= 8) return nullptr;
    const auto* body = dyn_cast_or_null<CompoundStmt>(def->getBody());
    if (!body || body->size() != 1) return nullptr;
    const auto* ret = dyn_cast<ReturnStmt>(body->body_front());
    if (!ret || !ret->getRetValue() || def->getNumParams() != call.getNumArgs()) return nullptr;
    Env inner;
    for (unsigned k = 0; k < def->getNumParams(); ++k) {
      const ParmVarDecl* p = def->getParamDecl(k);
      const ScalarType t = scalarTypeOf(p->getType(), ctx_);
      if (t.dtype.empty() || p->getType().isVolatileQualified()) return nullptr;
      inner[p] = eval(call.getArg(k), env);  // the argument as converted by the call (its implicit cast)
    }
    for (const VarDecl* v : referencedVars(ret->getRetValue()))
      if (!inner.count(v) && !(v->hasGlobalStorage() && v->getType().isConstQualified()))
        throw NotLifted{"`" + def->getNameAsString() + "` reads `" + v->getNameAsString() + "`, which is not one of its parameters"};
    ++inlineDepth_;
    SymPtr value = eval(ret->getRetValue(), inner);
    --inlineDepth_;
    const ScalarType result = scalarTypeOf(call.getType(), ctx_);
    return value->type == result || result.dtype.empty() ? value : cast(result, value);
  }

  // A call of a helper of this file with statements or with parameters that are not numbers
  // (darknet's `float get_pixel(image m, int x, int y, int c) { assert(x < m.w && ...); return
  // m.data[c*m.h*m.w + y*m.w + x]; }`, `set_pixel`): its body, read with its parameters standing
  // for the arguments (one level deep: the arguments are the loop's own expressions). Its asserts
  // and its `if (...) return;` tests (void helpers) become conditions every iteration meets:
  // the call is made when they hold at both ends of the range, else the loop runs as written.
  // Null when the function is no such helper; `value`: the call's value is used.
  SymPtr inlineHelper(const CallExpr& call, const Env& env, bool value) {
    const FunctionDecl* f = call.getDirectCallee();
    const FunctionDecl* def = nullptr;
    if (!f || !f->hasBody(def) || !def || def->isVariadic() || def->getNumParams() != call.getNumArgs()) return nullptr;
    const auto* body = dyn_cast_or_null<CompoundStmt>(def->getBody());
    if (!body || body->body_empty() || value == def->getReturnType()->isVoidType()) return nullptr;
    const std::string name = def->getNameAsString();
    if (frame_ || inlineDepth_ > 0) throw NotLifted{"`" + name + "` is called from an inlined function (one level of helpers is inlined)"};
    Frame frame;
    frame.def = def;
    Env inner;
    for (unsigned k = 0; k < def->getNumParams(); ++k) {
      const ParmVarDecl* p = def->getParamDecl(k);
      const Expr* arg = call.getArg(k);
      const QualType t = p->getType();
      if (t.isVolatileQualified() || t->isReferenceType()) return nullptr;
      if (partAddressTaken(p, body)) throw NotLifted{"`" + name + "` takes the address of its parameter `" + p->getNameAsString() + "`"};
      const bool assigned = partAssigned(p, body);
      const bool number = !scalarTypeOf(t, ctx_).dtype.empty();
      if (!number && !t->isRecordType() && !t->isPointerType()) return nullptr;
      if (!number && assigned) throw NotLifted{"`" + name + "` assigns its parameter `" + p->getNameAsString() + "`"};
      if (number) inner[p] = eval(arg, env);  // its value, converted as the call converts it
      // A position or a struct stands for the argument's text where it is not narrowed.
      const QualType from = arg->IgnoreParenImpCasts()->getType();
      const bool narrowed = number && (!t->isIntegerType() || !from->isIntegerType() ||
                                       ctx_.getTypeSize(from) > ctx_.getTypeSize(t) ||
                                       (ctx_.getTypeSize(from) == ctx_.getTypeSize(t) && from->isSignedIntegerType() != t->isSignedIntegerType()));
      if (!assigned && !narrowed && !arg->HasSideEffects(ctx_)) frame.args[p] = arg;
      else if (!number) throw NotLifted{"the argument `" + sourceText(*arg, ctx_) + "` of `" + name + "` has side effects"};
    }
    frame_ = &frame;
    struct Restore {
      const Frame*& frame;
      ~Restore() { frame = nullptr; }
    } restore{frame_};
    SymPtr result;
    for (const Stmt* st : body->body()) {
      if (const auto* ret = dyn_cast<ReturnStmt>(st)) {
        if (st != body->body_back()) throw NotLifted{"`" + name + "` returns from more than one place"};
        if (ret->getRetValue()) result = eval(ret->getRetValue(), inner);
      } else if (const auto* ifs = dyn_cast<IfStmt>(st); ifs && !value && earlyReturn(*ifs)) {
        requireEverywhere(ifs->getCond(), /*negate=*/true, "the test of `" + name + "`");
      } else {
        exec(st, inner);
      }
    }
    if (!value) return makeSym(Sym{Sym::Kind::constant, scalarTypeOf(ctx_.IntTy, ctx_), "", "0", 0, {}});  // no value; not used
    if (!result) throw NotLifted{"`" + name + "` does not end in `return value;`"};
    const ScalarType type = scalarTypeOf(call.getType(), ctx_);
    if (type.dtype.empty()) throw NotLifted{"`" + name + "` returns " + call.getType().getAsString() + ", not a number"};
    return result->type == type ? result : cast(type, result);
  }
  // `if (cond) return;` with nothing else.
  static bool earlyReturn(const IfStmt& s) {
    if (s.getElse() || s.getInit() || s.getConditionVariable()) return false;
    const Stmt* then = s.getThen();
    if (const auto* block = dyn_cast<CompoundStmt>(then); block && block->size() == 1) then = block->body_front();
    const auto* ret = dyn_cast<ReturnStmt>(then);
    return ret && !ret->getRetValue();
  }

  // A condition every iteration must meet (an assert; a helper's `if (out of range) return;`,
  // negated): comparisons of signed integers linear in the counter, joined by && (|| negated), so
  // that it holds over the whole range when it holds at both ends. Kept as text with the loop's
  // variables marked (fillCounters puts in the ends).
  void requireEverywhere(const Expr* c, bool negate, const std::string& what) {
    c = c->IgnoreParenImpCasts();
    if (const auto* u = dyn_cast<UnaryOperator>(c); u && u->getOpcode() == UO_LNot) return requireEverywhere(u->getSubExpr(), !negate, what);
    const auto* b = dyn_cast<BinaryOperator>(c);
    if (b && b->getOpcode() == (negate ? BO_LOr : BO_LAnd)) {
      requireEverywhere(b->getLHS(), negate, what);
      requireEverywhere(b->getRHS(), negate, what);
      return;
    }
    static const std::map<BinaryOperatorKind, std::pair<std::string, std::string>> ops = {
        {BO_LT, {"<", ">="}}, {BO_LE, {"<=", ">"}}, {BO_GT, {">", "<="}}, {BO_GE, {">=", "<"}}, {BO_EQ, {"==", ""}}, {BO_NE, {"", "=="}}};
    const auto op = b ? ops.find(b->getOpcode()) : ops.end();
    const std::string relation = op == ops.end() ? "" : negate ? op->second.second : op->second.first;
    if (relation.empty() || !b->getLHS()->getType()->isSignedIntegerType() || !b->getRHS()->getType()->isSignedIntegerType() ||
        !linear(b->getLHS()) || !linear(b->getRHS()))
      throw NotLifted{what + " `" + sourceText(*c, ctx_) + "` is not a range that holds everywhere when it holds at both ends "
                      "(comparisons of signed integers linear in `" + induction_->getNameAsString() + "`, joined by &&)"};
    const std::string test = text(*b->getLHS(), true) + " " + relation + " " + text(*b->getRHS(), true);
    if (std::find(everywhere_.begin(), everywhere_.end(), test) == everywhere_.end()) everywhere_.push_back(test);
  }
  // A signed integer expression linear in the counter, its coefficients and terms values the loop
  // does not change (tested before it).
  bool linear(const Expr* e) const {
    e = e->IgnoreParens();
    if (const auto* c = dyn_cast<ImplicitCastExpr>(e)) {
      const QualType to = c->getType(), from = c->getSubExpr()->getType();
      if (c->getCastKind() == CK_LValueToRValue || c->getCastKind() == CK_NoOp ||
          (c->getCastKind() == CK_IntegralCast && to->isSignedIntegerType() && from->isSignedIntegerType() &&
           ctx_.getTypeSize(to) >= ctx_.getTypeSize(from)))
        return linear(c->getSubExpr());
      return false;
    }
    if (isCounter(e)) return true;
    if (const Expr* arg = argumentOf(referencedVar(e)); arg && isa<DeclRefExpr>(e)) return inCaller([&] { return linear(arg); });
    auto fixed = [&](const Expr* x) { return !mentionsCounter(x) && hoistable(x); };
    if (const auto* b = dyn_cast<BinaryOperator>(e)) {
      if (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub) return linear(b->getLHS()) && linear(b->getRHS());
      if (b->getOpcode() == BO_Mul) return (linear(b->getLHS()) && fixed(b->getRHS())) || (fixed(b->getLHS()) && linear(b->getRHS()));
    }
    if (const auto* u = dyn_cast<UnaryOperator>(e); u && (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus)) return linear(u->getSubExpr());
    return fixed(e);
  }

  // `a[i + k] = value` or `a[i + k] op= value`: a store of the element-wise loop. stores_ holds
  // each stored element's value so far in this iteration (the element's old value where no path
  // stored it); an `if` merges its branches' values with a select, as it does for locals.
  void storeElement(const BinaryOperator& store, Env& env) {
    SymPtr rhs = rhsOf(store, env);
    const Expr* lhs = store.getLHS()->IgnoreParens();
    // where it goes: the same checks as a load
    const Expr* pointer = nullptr;
    std::vector<const Expr*> terms;
    SymPtr at = isa<ArraySubscriptExpr>(lhs)               ? load(*clang::cast<ArraySubscriptExpr>(lhs), true)
                : offsetDeref(lhs, &pointer, &terms) ? element(*lhs, pointer, nullptr, true, terms)
                                                     : element(*lhs, walkingDeref(lhs)->getSubExpr(), nullptr, true);
    // A constant stride (`p[2 * i] = ...`, `*dp = ...; dp += 4;`) or a runtime one (`y[i * incy]`):
    // the map family's output stride (1-D loops: map_lift refuses it elsewhere).
    long long stride = 1;
    std::string runtime;
    if (!at->stride.empty()) {
      const bool number = at->stride.size() < 6 && std::all_of(at->stride.begin(), at->stride.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
      if (number && std::stoll(at->stride) < 2) throw NotLifted{"the store `" + sourceText(store, ctx_) + "` is strided"};
      if (number) stride = std::stoll(at->stride);
      else stride = 0, runtime = at->stride;
    }
    MapStore* earlier = nullptr;
    for (auto& st : *stores_) {
      if (st.base != at->name) continue;
      // Interleaved positions (`p[2 * i] = a; p[2 * i + 1] = b;`): outputs of their own when both
      // step by one constant stride and never meet (their offsets differ modulo it).
      if (st.offset != at->offset && st.stride == stride && stride > 1 && (st.offset - at->offset) % stride != 0) continue;
      if (st.offset != at->offset || st.stride != stride || st.strideText != runtime)
        throw NotLifted{"`" + at->name + "` is written at two positions in one iteration"};
      if (st.guards != guards_)
        throw NotLifted{"`" + at->name + "` is stored under different loop-invariant conditions in one iteration"};
      earlier = &st;
    }
    const SymPtr old = earlier ? earlier->value : at;  // the element's value before this store
    SymPtr value = rhs;
    if (const auto* compound = dyn_cast<CompoundAssignOperator>(&store)) {
      const ScalarType lhsType = scalarTypeOf(compound->getComputationLHSType(), ctx_);
      const ScalarType resultType = scalarTypeOf(compound->getComputationResultType(), ctx_);
      const std::string op =
          BinaryOperator::getOpcodeStr(BinaryOperator::getOpForCompoundAssignment(compound->getOpcode())).str();
      value = makeSym(Sym{Sym::Kind::binary, resultType, op, "", 0, {old->type == lhsType ? old : cast(lhsType, old), rhs}});
      if (!(value->type == at->type)) value = cast(at->type, value);
    }
    if (earlier) {
      earlier->value = value;
    } else {
      stores_->push_back({at->name, at->offset, at->type, value, guards_, at});
      stores_->back().stride = stride;
      stores_->back().strideText = runtime;
    }
  }

  // After an `if`: each element stored on either path holds select(cond, then-value, else-value),
  // a path that did not store it keeping its value from before. Under a guard (cond null) the
  // call is made only when the guard holds: the then-path's values are the values.
  void mergeStores(const std::vector<MapStore>& before, const std::vector<MapStore>& thenStores, const SymPtr& cond) {
    const std::vector<MapStore> elseStores = *stores_;
    auto find = [](const std::vector<MapStore>& v, const MapStore& key) -> const MapStore* {
      for (const auto& st : v)
        if (st.base == key.base && st.offset == key.offset && st.stride == key.stride && st.strideText == key.strideText) return &st;
      return nullptr;
    };
    std::vector<MapStore> merged = thenStores;
    for (const MapStore& e : elseStores)
      if (!find(merged, e)) {
        // One array written at different positions or strides on the two paths (`if (c) y[2*i]
        // = a; else y[i] = b;`): outputs that could meet, unless interleaved (storeElement).
        for (const MapStore& m : merged)
          if (m.base == e.base && !(m.stride == e.stride && m.stride > 1 && (m.offset - e.offset) % m.stride != 0))
            throw NotLifted{"`" + e.base + "` is written at two positions in one iteration"};
        merged.push_back(e);
      }
    for (MapStore& m : merged) {
      const MapStore* t = find(thenStores, m);
      const MapStore* e = find(elseStores, m);
      const MapStore* b = find(before, m);
      const SymPtr old = b ? b->value : m.element;
      const SymPtr tv = t ? t->value : old, ev = e ? e->value : old;
      if ((t && e && t->guards != e->guards) || (!t && e && b && b->guards != e->guards) || (t && !e && b && b->guards != t->guards))
        throw NotLifted{"`" + m.base + "` is stored under different loop-invariant conditions in one iteration"};
      if (t && !e && !b) m.guards = t->guards;
      if (!t && e && !b) m.guards = e->guards;
      if (sameSym(tv, ev)) {
        m.value = tv;
      } else if (!cond) {
        m.value = e && !t ? ev : tv;  // a guard's else path (`!(guard)`) or its then path
      } else {
        SymPtr a = tv, c = ev;
        if (!(a->type == m.type)) a = cast(m.type, a);
        if (!(c->type == m.type)) c = cast(m.type, c);
        m.value = makeSym(Sym{Sym::Kind::select, m.type, "", "", 0, {cond, a, c}});
      }
    }
    *stores_ = merged;
  }

  ASTContext& ctx_;
  const VarDecl* induction_;
  const std::set<const VarDecl*>& written_;
  const ForStmt& loop_;
  const Stmt* function_;  // the body of the function around the loop
  std::vector<MapStore>* stores_ = nullptr;
  std::vector<std::string> guards_;  // the loop-invariant conditions of the enclosing `if`s, as source text
  std::set<std::string> memoryScalars_;
  bool fixedReads_ = false;
  std::map<std::string, const VarDecl*> memoryAccumulators_;
  std::set<std::string> runtimeStrides_;
  std::pair<const BinaryOperator*, SymPtr> chained_;
  std::set<std::string> callGuards_;  // pointer tests of `?:` the call is made under (element-wise loops)  // the outer assignment of `a = b = e`, and b's new value
  int inlineDepth_ = 0;
  const FunctionDecl* loopFunction_;
  // A helper's call read as its body (one level deep): its parameters that it never assigns stand
  // for the caller's arguments, which are the loop's own expressions.
  struct Frame {
    const FunctionDecl* def = nullptr;
    std::map<const VarDecl*, const Expr*> args;
  };
  mutable const Frame* frame_ = nullptr;
  std::vector<std::string> everywhere_;  // conditions every iteration meets (asserts, a helper's bounds tests): marked text
  bool inlinedElements_ = false;         // an inlined helper reads or writes array elements
  std::map<const VarDecl*, long long> secondary_;
  std::map<const VarDecl*, long long> advance_;  // how far each secondary counter (alias) has stepped so far in the body
  std::map<const VarDecl*, PointerAlias> aliases_;  // pointers assigned from a walking one in the body
  std::map<const VarDecl*, const Expr*> runtimeSteps_;  // variables stepped by `v += e` once per iteration, e not constant
  std::map<const VarDecl*, long long> aliasOffset_;  // where each alias was assigned: from its pointer's start of iteration
  std::string loopCount_;
  mutable bool reversed_ = false, forward_ = false;
  long long counterStep_ = 1;
  std::string counterFrom_;
  int conditional_ = 0;  // inside a branch (`if`, `?:`, `&&`, `||`): what runs there runs for some elements only
  std::vector<SymPtr> domainErrors_;
  std::string loopStart_;
};

// The step by one of counter `i` that `inc` is: +1 (`++i`, `i++`, `i += 1`), -1 (`--i`, `i--`,
// `i -= 1`), 0 for anything else.
int unitStepOf(const Expr* inc, const VarDecl* i, const ASTContext& ctx) {
  inc = inc->IgnoreParens();
  if (const auto* u = dyn_cast<UnaryOperator>(inc))
    return u->isIncrementDecrementOp() && referencedVar(u->getSubExpr()) == i ? (u->isIncrementOp() ? 1 : -1) : 0;
  if (const auto* c = dyn_cast<CompoundAssignOperator>(inc)) {
    auto step = c->getRHS()->getIntegerConstantExpr(ctx);
    if (referencedVar(c->getLHS()) != i || !step || *step != 1) return 0;
    return c->getOpcode() == BO_AddAssign ? 1 : c->getOpcode() == BO_SubAssign ? -1 : 0;
  }
  return 0;
}
bool isUnitStep(const Expr* inc, const VarDecl* i, const ASTContext& ctx) { return unitStepOf(inc, i, ctx) == 1; }

}  // namespace

ScalarType scalarTypeOf(QualType type, const ASTContext& ctx) {
  ScalarType t;
  t.spelling = type.getUnqualifiedType().getAsString(ctx.getPrintingPolicy());
  const auto* builtin = type.getCanonicalType()->getAs<BuiltinType>();
  if (!builtin) return t;
  switch (builtin->getKind()) {
    case BuiltinType::Float: t.isFloat = true; t.bits = 32; t.isSigned = true; t.dtype = "f32"; return t;
    case BuiltinType::Double: t.isFloat = true; t.bits = 64; t.isSigned = true; t.dtype = "f64"; return t;
    case BuiltinType::SChar: case BuiltinType::UChar:
    case BuiltinType::Short: case BuiltinType::UShort:
    case BuiltinType::Int: case BuiltinType::UInt:
    case BuiltinType::Long: case BuiltinType::ULong:
    case BuiltinType::LongLong: case BuiltinType::ULongLong: {
      t.bits = static_cast<unsigned>(ctx.getTypeSize(type));
      t.isSigned = type->isSignedIntegerType();
      t.dtype = (t.isSigned ? "i" : "u") + std::to_string(t.bits);
      return t;
    }
    case BuiltinType::Char_S:
    case BuiltinType::Char_U: t.bits = 8; t.plainChar = true; return t;  // no dtype: its signedness is the target's
    default: return t;  // bool, wchar_t, long double, _Float16, __int128: no dtype
  }
}

namespace {

// The `for` statement's own parts: for (T i = start; i < end; ++i), end fixed by the body.
// The operands of a chain of commas, in order (`a, b, c`); the expression itself if it is none.
void commaParts(const Expr* e, std::vector<const Expr*>& out) {
  e = e->IgnoreParens();
  if (const auto* b = dyn_cast<BinaryOperator>(e); b && b->isCommaOp()) {
    commaParts(b->getLHS(), out);
    commaParts(b->getRHS(), out);
  } else {
    out.push_back(e);
  }
}

void stepIterations(const ForStmt& loop, const VarDecl* i, LoopModel& m, long long k, bool outside);

LoopHeader header(const ForStmt& loop, ASTContext& ctx, const std::set<const VarDecl*>& written, bool allowExtra = false,
                  bool allowDescending = false) {
  LoopHeader h;
  LoopModel& m = h.model;
  // for (T i = start; ...), the counter the loop's own; or C89's `T i; ... for (i = start; ...)` and
  // `for (; i < end; ...)` (from i's value), whose counter the rewrite leaves as the loop would.
  const VarDecl* i = nullptr;
  const Expr* start = nullptr;
  bool outside = false;
  // C89 headers that set and step other variables too: `for (i = 0, sp = dp = row; ...; i++, sp++)`.
  std::vector<const Expr*> initParts, incParts;
  if (const auto* e = dyn_cast_or_null<Expr>(loop.getInit())) commaParts(e, initParts);
  if (loop.getInc()) commaParts(loop.getInc(), incParts);
  const BinaryOperator* counterInit = nullptr;
  // `for (lp = row + 1; i < n; i++, lp++)` (libpng's filters): the init sets only other variables,
  // and the counter the condition tests and the increment steps goes on from its value.
  const VarDecl* continuing = nullptr;
  const Expr* continuingFrom = nullptr;
  if (!initParts.empty() && isa<Expr>(loop.getInit()) && !incParts.empty()) {
    if (const auto* c = dyn_cast_or_null<BinaryOperator>(loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr);
        c && (c->getOpcode() == BO_LT || c->getOpcode() == BO_LE) && isa<DeclRefExpr>(c->getLHS()->IgnoreParenImpCasts())) {
      const VarDecl* v = referencedVar(c->getLHS());
      bool initSets = false;
      for (const Expr* part : initParts)
        for (const Expr* e = part; const auto* a = dyn_cast<BinaryOperator>(e->IgnoreParens()); e = a->getRHS()) {
          if (a->getOpcode() != BO_Assign) break;
          if (referencedVar(a->getLHS()) == v) initSets = true;
        }
      if (v && v->getType()->isIntegerType() && !initSets &&
          std::any_of(incParts.begin(), incParts.end(), [&](const Expr* step) { return isUnitStep(step, v, ctx); }))
        continuing = v, continuingFrom = c->getLHS();
    }
  }
  if (initParts.size() > 1 || continuing) {
    // The counter: the integer an assignment of the init starts, the condition tests and the
    // increment steps by one (`i` of `for (i = 0, dp = row; i < n; i++, dp++)`).
    const std::vector<const VarDecl*> tested = loop.getCond() ? referencedVars(loop.getCond()) : std::vector<const VarDecl*>();
    int candidates = 0, stepping = 0;
    const BinaryOperator* steppingInit = nullptr;
    for (const Expr* part : initParts)
      if (const auto* a = dyn_cast<BinaryOperator>(part); a && a->getOpcode() == BO_Assign && isa<DeclRefExpr>(a->getLHS()->IgnoreParens())) {
        const VarDecl* v = referencedVar(a->getLHS());
        if (!v->getType()->isIntegerType() || std::find(tested.begin(), tested.end(), v) == tested.end()) continue;
        if (std::any_of(incParts.begin(), incParts.end(), [&](const Expr* step) { return isUnitStep(step, v, ctx); })) ++candidates, counterInit = a;
      }
    // None steps by one: the tested integer that steps by k (speexdsp's `for (i=1,j=1; i<N-1;
    // i+=2, j++)`), counted in iterations (stepIterations).
    for (const Expr* part : initParts)
      if (const auto* a = dyn_cast<BinaryOperator>(part);
          allowExtra && !counterInit && a && a->getOpcode() == BO_Assign && isa<DeclRefExpr>(a->getLHS()->IgnoreParens())) {
        const VarDecl* v = referencedVar(a->getLHS());
        if (!v->getType()->isIntegerType() || std::find(tested.begin(), tested.end(), v) == tested.end()) continue;
        if (std::any_of(incParts.begin(), incParts.end(), [&](const Expr* step) {
              const auto k = stepOf(step, v, ctx);
              return k && *k >= 2 && *k <= 4096;
            }))
          ++stepping, steppingInit = a;
      }
    if (candidates == 0 && stepping == 1) candidates = 1, counterInit = steppingInit;
    if (continuing) candidates = 0, counterInit = nullptr;
    if (candidates != 1 && !continuing) throw NotLifted{"the loop's start `" + sourceText(*loop.getInit(), ctx) + "` is not `counter = value`"};
    // The others run again before the kernel call: they must give the same values each time (no
    // side effects, no variable the init assigns on their right-hand sides).
    std::set<const VarDecl*> assigned;
    std::vector<const Expr*> values;
    for (const Expr* part : initParts) {
      const Expr* e = part;
      while (const auto* a = dyn_cast<BinaryOperator>(e->IgnoreParens())) {
        if (a->getOpcode() != BO_Assign || !isa<DeclRefExpr>(a->getLHS()->IgnoreParens())) break;
        assigned.insert(referencedVar(a->getLHS()));
        e = a->getRHS();
      }
      if (part == counterInit) continue;
      if (e == part || e->HasSideEffects(ctx))
        throw NotLifted{"the loop's start `" + sourceText(*part, ctx) + "` is not an assignment of a value without side effects"};
      values.push_back(e);
      h.initExtra += sourceText(*part, ctx) + "; ";
    }
    if (counterInit) values.push_back(counterInit->getRHS());  // which runs after them in the rewrite
    for (const Expr* e : values)
      for (const VarDecl* v : referencedVars(e))
        if (assigned.count(v))
          throw NotLifted{"the loop's start assigns `" + v->getNameAsString() + "` and reads it (`" + sourceText(*e, ctx) + "`)"};
  }
  if (counterInit) {
    i = referencedVar(counterInit->getLHS());
    start = counterInit->getRHS();
    outside = true;
  } else if (continuing) {
    i = continuing;
    start = continuingFrom;
    outside = true;
  } else if (const auto* init = dyn_cast_or_null<DeclStmt>(loop.getInit())) {
    i = init->isSingleDecl() ? dyn_cast<VarDecl>(init->getSingleDecl()) : nullptr;
    if (!i || !i->hasInit()) throw NotLifted{"the `for` declares more than its counter, or a counter with no start value"};
    start = i->getInit();
  } else if (const auto* assign = dyn_cast_or_null<BinaryOperator>(loop.getInit())) {
    if (assign->getOpcode() != BO_Assign || !isa<DeclRefExpr>(assign->getLHS()->IgnoreParens()))
      throw NotLifted{"the loop's start `" + sourceText(*assign, ctx) + "` is not `counter = value`"};
    i = referencedVar(assign->getLHS());
    start = assign->getRHS();
    outside = true;
  } else if (loop.getInit()) {
    throw NotLifted{"the loop's start `" + sourceText(*loop.getInit(), ctx) + "` is not `counter = value`"};
  } else if (const auto* c = dyn_cast_or_null<BinaryOperator>(loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr)) {
    // for (; i < end; ++i): from i's current value (a loop that finishes another's range)
    const Expr* side = c->getOpcode() == BO_LT || c->getOpcode() == BO_LE ? c->getLHS() : c->getRHS();
    if (isa<DeclRefExpr>(side->IgnoreParenImpCasts())) {
      i = referencedVar(side);
      start = side;
      outside = true;
    }
  }
  if (!i) throw NotLifted{"the loop has no counter"};
  h.counter = i;
  m.inductionName = i->getNameAsString();
  m.inductionType = scalarTypeOf(i->getType(), ctx);
  if (m.inductionType.dtype.empty() || m.inductionType.isFloat)
    throw NotLifted{"the loop counter `" + m.inductionName + "` is not an integer"};
  if (outside) {
    if (!i->hasLocalStorage() || i->isStaticLocal() || i->getType()->isReferenceType())
      throw NotLifted{"the loop counter `" + m.inductionName + "` is not a local variable (a global, static or reference is seen by other code)"};
    if (i->getType().isVolatileQualified()) throw NotLifted{"the loop counter `" + m.inductionName + "` is volatile"};
    if (addressTaken(i, enclosingFunctionBody(loop, ctx)))
      throw NotLifted{"the address of the loop counter `" + m.inductionName + "` is taken (a store may change it)"};
  }
  if (start->HasSideEffects(ctx)) throw NotLifted{"the counter's start value has side effects"};
  h.start = start;
  m.startText = sourceText(*start, ctx);
  if (written.count(i)) throw NotLifted{"the body changes the loop counter `" + m.inductionName + "`"};

  // for (i = hi; i >= lo; i--) (or i > lo): the elements lo..hi, from the top. A signed counter
  // (an unsigned one wraps below 0), and a bound the loop does not change.
  if (allowDescending && initParts.size() <= 1 && incParts.size() == 1 && unitStepOf(incParts[0], i, ctx) == -1) {
    const auto* c = dyn_cast_or_null<BinaryOperator>(loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr);
    auto counter = [&](const Expr* x) { return isa<DeclRefExpr>(x->IgnoreParenImpCasts()) && referencedVar(x) == i; };
    const Expr* lo = nullptr;
    bool exclusive = false;
    if (c && (c->getOpcode() == BO_GE || c->getOpcode() == BO_GT) && counter(c->getLHS())) lo = c->getRHS(), exclusive = c->getOpcode() == BO_GT;
    else if (c && (c->getOpcode() == BO_LE || c->getOpcode() == BO_LT) && counter(c->getRHS())) lo = c->getLHS(), exclusive = c->getOpcode() == BO_LT;
    if (!lo) throw NotLifted{"the loop counts down to a bound that is not `" + m.inductionName + " >= lo` or `" + m.inductionName + " > lo`"};
    if (!m.inductionType.isSigned) throw NotLifted{"the loop counts an unsigned `" + m.inductionName + "` down (it wraps below 0)"};
    if (lo->HasSideEffects(ctx) || isa<CallExpr>(lo->IgnoreParenImpCasts())) throw NotLifted{"the loop's lower bound is a call or has side effects"};
    for (const VarDecl* v : referencedVars(lo))
      if (v == i || written.count(v) || v->getType().isVolatileQualified())
        throw NotLifted{"the loop's bound `" + sourceText(*lo, ctx) + "` changes inside the loop"};
    auto low = lo->getIntegerConstantExpr(ctx);
    if (exclusive && (!low || low->getSignificantBits() > 31)) throw NotLifted{"the loop counts down to `> " + sourceText(*lo, ctx) + "`, not a small constant"};
    m.descending = true;
    m.startText = exclusive ? std::to_string(low->getExtValue() + 1) : sourceText(*lo, ctx);
    m.endText = sourceText(*start, ctx);
    m.inclusive = true;
    h.start = lo;
    h.end = start;
    Expr::EvalResult top;
    if (low && start->EvaluateAsInt(top, ctx)) {
      const long long n = top.Val.getInt().getExtValue() - std::stoll(m.startText) + 1;
      m.tripCount = n > 0 ? n : 0;
    }
    m.loopText = sourceText(loop, ctx);
    if (outside)  // what the counter holds after a non-empty range: one below the range
      m.counterFinal = m.inductionName + " = (" + m.inductionType.spelling + ")(" + paren(m.startText) + " - 1);";
    return h;
  }

  // i < end, i <= end (or end > i, end >= i), with end unchanged by the loop.
  // Also i + k < end (k a positive constant), as i < end - k in exact arithmetic: C's i + k does
  // not wrap for the counter values the loop reaches when the comparison is signed (overflow would
  // be undefined) or, unsigned, when the counter starts at a small constant.
  const auto* cond = dyn_cast_or_null<BinaryOperator>(loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr);
  auto counterPlus = [&](const Expr* side) -> std::optional<long long> {
    auto isCounter = [&](const Expr* x) { return isa<DeclRefExpr>(x->IgnoreParenImpCasts()) && referencedVar(x) == i; };
    if (isCounter(side)) return 0;
    const auto* b = dyn_cast<BinaryOperator>(side->IgnoreParenImpCasts());
    if (!b || b->getOpcode() != BO_Add) return std::nullopt;
    const Expr* c = isCounter(b->getLHS()) ? b->getRHS() : isCounter(b->getRHS()) ? b->getLHS() : nullptr;
    auto k = c ? c->getIntegerConstantExpr(ctx) : std::nullopt;
    if (!k || !k->isStrictlyPositive() || k->getExtValue() >= (1 << 20)) return std::nullopt;
    return k->getExtValue();
  };
  const Expr* end = nullptr;
  long long past = 0;  // the k of i + k < end
  if (cond && (cond->getOpcode() == BO_LT || cond->getOpcode() == BO_LE) && counterPlus(cond->getLHS())) {
    end = cond->getRHS();
    past = *counterPlus(cond->getLHS());
    m.inclusive = cond->getOpcode() == BO_LE;
  } else if (cond && (cond->getOpcode() == BO_GT || cond->getOpcode() == BO_GE) && counterPlus(cond->getRHS())) {
    end = cond->getLHS();
    past = *counterPlus(cond->getRHS());
    m.inclusive = cond->getOpcode() == BO_GE;
  }
  if (end && past > 0 && !cond->getLHS()->getType()->isSignedIntegerType()) {
    Expr::EvalResult s0;
    if (!(start->EvaluateAsInt(s0, ctx) && s0.Val.getInt().isNonNegative() && s0.Val.getInt().getActiveBits() < 32))
      end = nullptr;  // an unsigned i + k that may wrap
  }
  if (!end)
    throw NotLifted{"the condition `" + (loop.getCond() ? sourceText(*loop.getCond(), ctx) : std::string()) + "` is not `" +
                    m.inductionName + " < end`: the trip count depends on the data or is not a simple range"};
  if (end->HasSideEffects(ctx)) throw NotLifted{"the loop's bound `" + sourceText(*end, ctx) + "` has side effects"};
  for (const VarDecl* v : referencedVars(end)) {
    if (v == i || written.count(v)) throw NotLifted{"the loop's bound `" + sourceText(*end, ctx) + "` changes inside the loop"};
    if (v->getType().isVolatileQualified()) throw NotLifted{"the loop's bound reads the volatile `" + v->getNameAsString() + "`"};
  }
  if (isa<CallExpr>(end->IgnoreParenImpCasts()) || isa<CXXMemberCallExpr>(end->IgnoreParenImpCasts()))
    throw NotLifted{"the loop's bound is a call (`" + sourceText(*end, ctx) + "`): store it in a variable first"};
  h.end = end;
  m.endText = past ? "(int64_t)" + paren(sourceText(*end, ctx)) + " - " + std::to_string(past) : sourceText(*end, ctx);
  Expr::EvalResult first, last;
  if (h.start->EvaluateAsInt(first, ctx) && end->EvaluateAsInt(last, ctx)) {
    const long long n = last.Val.getInt().getExtValue() - past - first.Val.getInt().getExtValue() + (m.inclusive ? 1 : 0);
    m.tripCount = n > 0 ? n : 0;
  }
  // The increment: the counter's step by one, and constant steps of other variables (`sp++`,
  // `dp += 2`), which act after the body as a step at its end would.
  int counterSteps = 0;
  long long counterStep = 1;  // `i += k` (1-D loops whose body never reads i): the iterations, below
  for (const Expr* part : incParts) {
    if (isUnitStep(part, i, ctx)) {
      ++counterSteps;
      continue;
    }
    if (const auto k = allowExtra ? stepOf(part, i, ctx) : std::nullopt; k && *k >= 2 && *k <= 4096) {
      ++counterSteps;
      counterStep = *k;
      continue;
    }
    const auto* u = dyn_cast<UnaryOperator>(part);
    const auto* b = dyn_cast<BinaryOperator>(part);
    const Expr* target = u ? u->getSubExpr() : b ? b->getLHS() : nullptr;
    const VarDecl* v = target && isa<DeclRefExpr>(target->IgnoreParens()) ? referencedVar(target) : nullptr;
    const auto step = v && v != i ? stepOf(part, v, ctx) : std::nullopt;
    if (!step || h.incSteps.count(v)) {
      counterSteps = 0;
      break;
    }
    h.incSteps[v] = *step;
  }
  if (counterSteps != 1)
    throw NotLifted{"the counter does not step by 1 (`" + (loop.getInc() ? sourceText(*loop.getInc(), ctx) : std::string()) +
                    "`): strided loops are not lifted yet"};
  if (!allowExtra && (!h.initExtra.empty() || !h.incSteps.empty()))
    throw NotLifted{"the `for` also sets or steps other variables than its counter (`" +
                    (loop.getInit() ? sourceText(*loop.getInit(), ctx) : std::string()) + "; ...; " + sourceText(*loop.getInc(), ctx) +
                    "`): only a loop without a nest is lifted with those"};
  m.loopText = sourceText(loop, ctx);
  if (outside) {
    // What the counter holds after a non-empty range: the bound (one past it for <=).
    const std::string bound = paren(m.endText);
    m.counterFinal = m.inductionName + " = (" + m.inductionType.spelling + ")" + (m.inclusive ? "(" + bound + " + 1)" : bound) + ";";
  }
  if (counterStep > 1) stepIterations(loop, i, m, counterStep, outside);
  return h;
}

// A counter that steps by k (`for (i = 0; i < istop; i += 2)` over pixels a pointer walks): the
// body must not read it, so only the number of iterations matters, ceil((end - start) / k) (one
// more at <=); the model then counts iterations from 0 and the rewrite sets the counter to
// start + k * iterations after them. A counter of fewer than 64 bits that is unsigned could wrap
// where the original loops forever: refused.
void stepIterations(const ForStmt& loop, const VarDecl* i, LoopModel& m, long long k, bool outside) {
  (void)loop;  // the body may read i in positions only (the Evaluator: countIterations)
  if (!m.inductionType.isSigned && m.inductionType.bits < 64)
    throw NotLifted{"the unsigned counter `" + m.inductionName + "` steps by " + std::to_string(k) + " and may wrap past its bound"};
  const std::string start = rangeStart(m), end = paren(m.endText), K = std::to_string(k);
  const std::string span = "(int64_t)" + end + " - (int64_t)" + paren(start);
  const std::string count = m.inclusive ? "(" + start + " <= " + end + " ? (" + span + ") / " + K + " + 1 : 0)"
                                        : "(" + start + " < " + end + " ? (" + span + " + " + std::to_string(k - 1) + ") / " + K + " : 0)";
  if (m.tripCount) m.tripCount = (*m.tripCount + k - 1) / k;
  if (outside) m.counterFinal = m.inductionName + " = (" + m.inductionType.spelling + ")(" + paren(start) + " + " + K + " * " + count + ");";
  m.counterFrom = start;
  m.counterStep = k;
  m.startText = "0";
  m.endText = count;
  m.inclusive = false;
  m.iterationCount = true;
}

// `v++`, `++v`, `v--`, `--v` inside the statement `s` of the body's own block (`*dp++ = *sp++ + 1;`,
// `a[t4++] += s * b[t8++];`, `T x = *sp++;`), evaluated once whenever `s` runs: not in a branch of
// `?:`, `&&` or `||`, and `v` named nowhere else in `s` (C leaves such a read unsequenced). Its step.
std::optional<long long> stepInside(const Stmt* s, const VarDecl* v) {
  if (!isa<Expr>(s) && !isa<DeclStmt>(s)) return std::nullopt;
  int names = 0;
  std::optional<long long> step;
  bool conditional = false;
  std::function<void(const Stmt*, bool)> walk = [&](const Stmt* x, bool branch) {
    if (!x) return;
    if (isa<UnaryExprOrTypeTraitExpr>(x)) branch = true;  // sizeof(*p++) does not step p
    if (const auto* r = dyn_cast<DeclRefExpr>(x); r && r->getDecl() == v) ++names;
    if (const auto* u = dyn_cast<UnaryOperator>(x); u && u->isIncrementDecrementOp() && isa<DeclRefExpr>(u->getSubExpr()->IgnoreParens()) &&
                                                   referencedVar(u->getSubExpr()) == v) {
      step = u->isIncrementOp() ? 1 : -1;
      conditional = conditional || branch;
    }
    if (const auto* c = dyn_cast<AbstractConditionalOperator>(x)) {
      walk(c->getCond(), branch);
      walk(c->getTrueExpr(), true);
      walk(c->getFalseExpr(), true);
      return;
    }
    if (const auto* b = dyn_cast<BinaryOperator>(x); b && b->isLogicalOp()) {
      walk(b->getLHS(), branch);
      walk(b->getRHS(), true);
      return;
    }
    if (const auto* d = dyn_cast<DeclStmt>(x)) {
      for (const Decl* decl : d->decls())
        if (const auto* var = dyn_cast<VarDecl>(decl); var && var->hasInit()) walk(var->getInit(), branch);
      return;
    }
    for (const Stmt* child : x->children()) walk(child, branch);
  };
  walk(s, false);
  if (!step || conditional || names != 1) return std::nullopt;
  return step;
}

// Variables declared before the loop that step with it: each write a statement of the body's own
// block (never under a condition) that adds a constant (`j++`, `dp++`, `k += 2`) or one inside
// such a statement (`*dp++ = *sp++;`), several adding up; integers or pointers no pointer
// reaches. With `aliases`, also pointers assigned from such a pointer (PointerAlias). The model
// gets their final values.
std::map<const VarDecl*, long long> secondaryCounters(const ForStmt& loop, ASTContext& ctx, const std::set<const VarDecl*>& written,
                                                       const VarDecl* counter, LoopModel& m,
                                                       const std::map<const VarDecl*, long long>& incSteps = {},
                                                       std::map<const VarDecl*, PointerAlias>* aliases = nullptr,
                                                       std::map<const VarDecl*, const Expr*>* runtimeSteps = nullptr) {
  std::map<const VarDecl*, long long> steps;
  // The body's own statements: a block's, or the one statement of a brace-less body.
  std::vector<const Stmt*> statements;
  if (const auto* block = dyn_cast<CompoundStmt>(loop.getBody())) statements.assign(block->body_begin(), block->body_end());
  else statements.push_back(loop.getBody());
  // The step of v in each statement (0 where it does not step), or nullopt when a write of v is
  // no constant step of a statement of its own (or in one, once: stepInside).
  auto stepsOf = [&](const VarDecl* v, int writes, std::optional<size_t> except = std::nullopt) -> std::optional<std::vector<long long>> {
    std::vector<long long> amounts(statements.size(), 0);
    int found = 0;
    for (size_t k = 0; k < statements.size(); ++k) {
      if (except && k == *except) continue;
      std::optional<long long> step = stepOf(statements[k], v, ctx);
      if (!step) step = stepInside(statements[k], v);
      if (step) amounts[k] = *step, ++found;
    }
    if (found != writes) return std::nullopt;
    return amounts;
  };
  auto sum = [](const std::vector<long long>& amounts, size_t end) {
    long long total = 0;
    for (size_t k = 0; k < end && k < amounts.size(); ++k) total += amounts[k];
    return total;
  };
  const SourceManager& sm = ctx.getSourceManager();
  const Stmt* function = enclosingFunctionBody(loop, ctx);
  std::string finals;
  struct Candidate {
    const VarDecl* of;
    long long offset;
    size_t at;
    long long ownSteps;  // after the alias
    bool trailing;       // used before it: the body's last use of both
  };
  std::map<const VarDecl*, Candidate> candidates;
  std::map<const VarDecl*, std::vector<long long>> amountsOf;
  for (const VarDecl* v : written) {
    if (v == counter || !sm.isBeforeInTranslationUnit(v->getLocation(), loop.getBeginLoc())) continue;
    const ScalarType t = scalarTypeOf(v->getType(), ctx);
    const bool pointer = v->getType()->isPointerType() && !v->getType()->getPointeeType()->isVoidType();
    const auto inHeader = incSteps.find(v);  // stepped by the `for`'s increment, after the body
    if ((!pointer && (t.dtype.empty() || t.isFloat)) || !v->hasLocalStorage() || v->isStaticLocal() || v->getType()->isReferenceType() ||
        v->getType().isVolatileQualified() || addressTaken(v, function)) {
      if (inHeader != incSteps.end())
        throw NotLifted{"the `for` steps `" + v->getNameAsString() + "`, which is not a local integer or pointer whose address is never taken"};
      continue;
    }
    struct Writes : RecursiveASTVisitor<Writes> {
      const VarDecl* v;
      int count = 0;
      bool VisitBinaryOperator(BinaryOperator* b) {
        if (b->isAssignmentOp() && referencedVar(b->getLHS()) == v) ++count;
        return true;
      }
      bool VisitUnaryOperator(UnaryOperator* u) {
        if (u->isIncrementDecrementOp() && referencedVar(u->getSubExpr()) == v) ++count;
        return true;
      }
    } w;
    w.v = v;
    w.TraverseStmt(const_cast<Stmt*>(loop.getBody()));
    if (inHeader != incSteps.end() && w.count != 0)
      throw NotLifted{"the `for` steps `" + v->getNameAsString() + "`, which its body changes too"};
    if (inHeader == incSteps.end() && w.count == 0) continue;
    long long step = 0;
    if (inHeader != incSteps.end()) {
      step = inHeader->second;
    } else {
      // Each write a constant step (several add up: libpng's `*(dp++) = *(sp++); *(dp++) = ...;`
      // moves both by 2 per iteration), or one `v = w + c` before any other use of v (an alias).
      std::optional<size_t> aliasAt;
      std::pair<const VarDecl*, long long> alias;
      for (size_t k = 0; k < statements.size() && aliases; ++k)
        if (auto a = aliasAssignment(statements[k], v, ctx)) aliasAt = k, alias = *a;
      auto amounts = stepsOf(v, w.count - (aliasAt ? 1 : 0), aliasAt);
      if (!amounts && runtimeSteps && w.count == 1 && !aliasAt) {
        // One `v += e` per iteration, e a value the loop does not change (the Evaluator checks):
        // a position at the runtime stride e (a 1-D element-wise loop or reduction).
        for (const Stmt* st : statements) {
          int sign = 1;
          if (const Expr* e = runtimeStepOf(st, v, ctx, sign); e && sign > 0 && fixedValue(e, written, counter, loop, sm)) {
            (*runtimeSteps)[v] = e;
            const std::string name = v->getNameAsString(), times = "(" + sourceText(*e, ctx) + ") * (" + rangeCount(m) + ")";
            finals += pointer ? name + " += " + times + "; " : name + " = (" + t.spelling + ")(" + name + " + " + times + "); ";
          }
        }
        continue;
      }
      if (!amounts) continue;
      if (aliasAt) {
        bool usedBefore = false, usedAfter = false;
        for (size_t k = 0; k < statements.size(); ++k)
          for (const VarDecl* r : referencedVars(statements[k])) {
            if (k < *aliasAt) usedBefore = usedBefore || r == v;
            if (k > *aliasAt) usedAfter = usedAfter || r == v || r == alias.first;
          }
        const long long own = sum(*amounts, amounts->size()) - sum(*amounts, *aliasAt + 1);  // v's steps after the alias
        if (pointer && (!usedBefore || !usedAfter)) candidates[v] = {alias.first, alias.second, *aliasAt, own, usedBefore};
        continue;
      }
      step = sum(*amounts, amounts->size());
      if (step == 0) continue;  // back where it started: no walk
      amountsOf[v] = *amounts;
    }
    steps[v] = step;
    const std::string name = v->getNameAsString(), count = "(" + rangeCount(m) + ")";
    const std::string amount = step == 1 ? count : std::to_string(step) + " * " + count;
    finals += pointer ? name + " += " + amount + "; " : name + " = (" + t.spelling + ")(" + name + " + " + amount + "); ";
  }
  // Aliases of pointers that walk: after the loop, where the last iteration left them.
  for (const auto& [v, c] : candidates) {
    auto of = steps.find(c.of);
    if (of == steps.end() || !amountsOf.count(c.of)) continue;
    (*aliases)[v] = {c.of, c.offset, statements[c.at], c.trailing};
    const long long back = sum(amountsOf.at(c.of), c.at) + c.offset + c.ownSteps - of->second;  // from w's final value
    finals += v->getNameAsString() + " = " + c.of->getNameAsString() + (back == 0 ? "" : back > 0 ? " + " + std::to_string(back) : " - " + std::to_string(-back)) + "; ";
  }
  if (!steps.empty() || (runtimeSteps && !runtimeSteps->empty())) {
    m.counterFinal = finals + m.counterFinal;  // before the counter's own: the count may read it
    m.secondaryCounters = true;
  }
  return steps;
}

}  // namespace

std::string sourceText(const Stmt& s, const ASTContext& ctx) {
  const SourceManager& sm = ctx.getSourceManager();
  // Macro arguments and whole macro uses map back to the file's text; a part of a macro's own
  // body has none, and is printed as the compiler sees it.
  const CharSourceRange file = Lexer::makeFileCharRange(CharSourceRange::getTokenRange(s.getSourceRange()), sm, ctx.getLangOpts());
  if (file.isValid()) return Lexer::getSourceText(file, sm, ctx.getLangOpts()).str();
  std::string text;
  llvm::raw_string_ostream os(text);
  s.printPretty(os, nullptr, ctx.getPrintingPolicy());
  return os.str();
}

const VarDecl* referencedVar(const Expr* e) {
  if (const auto* ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts())) return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

std::string canonicalType(QualType t) { return t.getCanonicalType().getUnqualifiedType().getAsString(); }

std::vector<const VarDecl*> referencedVars(const Stmt* s) {
  struct Refs : RecursiveASTVisitor<Refs> {
    std::vector<const VarDecl*> vars;
    bool VisitDeclRefExpr(DeclRefExpr* r) {
      if (const auto* v = dyn_cast<VarDecl>(r->getDecl())) vars.push_back(v);
      return true;
    }
  } refs;
  refs.TraverseStmt(const_cast<Stmt*>(s));
  return refs.vars;
}

namespace {
WriteCollector writesOf(const ForStmt& loop, const ASTContext& ctx) {
  WriteCollector writes;
  writes.ctx = &ctx;
  writes.TraverseStmt(const_cast<Stmt*>(loop.getBody()));
  return writes;
}
}  // namespace

std::variant<LoopHeader, std::string> loopHeader(const ForStmt& loop, ASTContext& ctx) {
  try {
    return header(loop, ctx, writesOf(loop, ctx).vars);
  } catch (const NotLifted& n) {
    return n.reason;
  }
}

std::string loopInitExtra(const ForStmt& loop, ASTContext& ctx) {
  try {
    return header(loop, ctx, writesOf(loop, ctx).vars, /*allowExtra=*/true).initExtra;
  } catch (const NotLifted&) {
    return "";
  }
}

namespace {
// Whether the address `e` computes is the same at every iteration and reads no memory: private
// locals (parameters too) the loop does not write, their `.` fields, literals and arithmetic.
bool fixedAddressPart(const Expr* e, ASTContext& ctx, const std::set<const VarDecl*>& written, const ForStmt& loop, const Stmt* function) {
  e = e->IgnoreParenImpCasts();
  if (isa<IntegerLiteral>(e) || isa<CharacterLiteral>(e) || isa<UnaryExprOrTypeTraitExpr>(e)) return true;
  if (const auto* r = dyn_cast<DeclRefExpr>(e)) {
    if (isa<EnumConstantDecl>(r->getDecl())) return true;
    const auto* v = dyn_cast<VarDecl>(r->getDecl());
    return v && !written.count(v) && v->hasLocalStorage() && !v->isStaticLocal() && !v->getType()->isReferenceType() &&
           !v->getType().isVolatileQualified() && !addressTaken(v, function) &&
           ctx.getSourceManager().isBeforeInTranslationUnit(v->getLocation(), loop.getBeginLoc());
  }
  if (const auto* m = dyn_cast<MemberExpr>(e))
    return !m->isArrow() && !m->getType().isVolatileQualified() && fixedAddressPart(m->getBase(), ctx, written, loop, function);
  if (const auto* b = dyn_cast<BinaryOperator>(e))
    return (b->isAdditiveOp() || b->isMultiplicativeOp() || b->isShiftOp()) && fixedAddressPart(b->getLHS(), ctx, written, loop, function) &&
           fixedAddressPart(b->getRHS(), ctx, written, loop, function);
  if (const auto* u = dyn_cast<UnaryOperator>(e))
    return (u->getOpcode() == UO_Minus || u->getOpcode() == UO_Plus) && fixedAddressPart(u->getSubExpr(), ctx, written, loop, function);
  return false;
}

// The loop's writes to memory as accumulators at fixed addresses (`mean[i] += x[index]`, `*sum +=
// a[k]`, `st->energy += e`): one element or field per text, at an address the loop does not change
// and whose computation reads no memory (so no store of the loop moves it), an integer or float
// scalar. Each gets a variable that stands for it (its value before the loop, carried through
// the body as a local would be), by its text; refused (the usual reason) when some write is not one.
std::map<std::string, const VarDecl*> memoryAccumulators(const WriteCollector& writes, const ForStmt& loop, ASTContext& ctx,
                                                          const std::set<const VarDecl*>& written) {
  const Stmt* function = enclosingFunctionBody(loop, ctx);
  std::map<std::string, const VarDecl*> out;
  for (const Expr* lhs : writes.memoryWrites) {
    const Expr* e = lhs->IgnoreParens();
    bool fixed = !scalarTypeOf(e->getType(), ctx).dtype.empty() && !e->getType().isVolatileQualified() && !e->HasSideEffects(ctx);
    if (fixed) {
      if (const auto* a = dyn_cast<ArraySubscriptExpr>(e))
        fixed = fixedAddressPart(a->getBase(), ctx, written, loop, function) && fixedAddressPart(a->getIdx(), ctx, written, loop, function);
      else if (const auto* m = dyn_cast<MemberExpr>(e)) {
        const auto* field = dyn_cast<FieldDecl>(m->getMemberDecl());
        fixed = field && !field->isBitField() && fixedAddressPart(m->getBase(), ctx, written, loop, function);
      } else if (const auto* u = dyn_cast<UnaryOperator>(e))
        fixed = u->getOpcode() == UO_Deref && fixedAddressPart(u->getSubExpr(), ctx, written, loop, function);
      else
        fixed = false;
    }
    if (!fixed || out.size() > 4)
      throw NotLifted{"the loop writes to memory (`" + writes.otherWrite + "`), which may alias its input; "
                      "accumulate in a local variable and store it after the loop"};
    const std::string text = sourceText(*e, ctx);
    if (out.count(text)) continue;
    IdentifierInfo& id = ctx.Idents.get("simdgen_memory_accumulator_" + std::to_string(out.size()));
    out[text] = VarDecl::Create(ctx, ctx.getTranslationUnitDecl(), e->getBeginLoc(), e->getBeginLoc(), &id, e->getType().getUnqualifiedType(),
                                nullptr, SC_Auto);
  }
  return out;
}

// Every element address `value` reads through the loop's counter, as (pointer at the counter's
// start, whether it is strided) pairs; and whether it reads any.
void loadsOf(const Sym& value, std::set<std::pair<std::string, long long>>& loads, bool& strided) {
  if (value.kind == Sym::Kind::load) {
    if (!value.stride.empty()) strided = true;
    loads.insert({value.name, value.offset});
  }
  for (const SymPtr& a : value.args) loadsOf(*a, loads, strided);
}
}  // namespace

// C89's scratch variable (`float r, g, b;` at the top of the function, assigned in the loop's
// body): a local declared without a value, of a number type, whose address is never taken and
// which nothing but the loop names. The loop carries nothing in it: it is the body's own local,
// and a path that reads it before assigning it is refused (as for a local of the body).
bool scratchOfLoop(const VarDecl* v, const ForStmt& loop, ASTContext& ctx) {
  if (v->hasInit() || !v->hasLocalStorage() || v->isStaticLocal() || isa<ParmVarDecl>(v) || !v->getType()->isArithmeticType() ||
      v->getType().isVolatileQualified())
    return false;
  const Stmt* function = enclosingFunctionBody(loop, ctx);
  if (!function || addressTaken(v, function)) return false;
  const SourceManager& sm = ctx.getSourceManager();
  const SourceRange range = loop.getSourceRange();
  struct Uses : RecursiveASTVisitor<Uses> {
    const VarDecl* v;
    std::vector<SourceLocation> at;
    bool VisitDeclRefExpr(DeclRefExpr* r) {
      if (r->getDecl() == v) at.push_back(r->getBeginLoc());
      return true;
    }
  } uses;
  uses.v = v;
  uses.TraverseStmt(const_cast<Stmt*>(function));
  for (SourceLocation l : uses.at) {
    const SourceLocation f = sm.getFileLoc(l);
    if (sm.isBeforeInTranslationUnit(f, sm.getFileLoc(range.getBegin())) || sm.isBeforeInTranslationUnit(sm.getFileLoc(range.getEnd()), f))
      return false;
  }
  return true;
}

std::variant<LoopModel, std::string> modelLoop(const ForStmt& loop, ASTContext& ctx, bool alone) {
  try {
    const WriteCollector writes = writesOf(loop, ctx);
    LoopHeader h = header(loop, ctx, writes.vars, /*allowExtra=*/true, /*allowDescending=*/true);
    LoopModel& m = h.model;
    const VarDecl* i = h.counter;
    std::set<const VarDecl*> written = writes.vars;  // and those the `for`'s increment steps
    for (const auto& [v, step] : h.incSteps) written.insert(v);
    std::set<const VarDecl*> moving = written;  // what an accumulator's address may not read
    moving.insert(i);
    const std::map<std::string, const VarDecl*> accumulators =
        writes.otherWrite.empty() || !alone ? std::map<std::string, const VarDecl*>{} : memoryAccumulators(writes, loop, ctx, moving);
    if (!writes.otherWrite.empty() && !alone)
      throw NotLifted{"the loop writes to memory (`" + writes.otherWrite + "`), which may alias its input; "
                      "accumulate in a local variable and store it after the loop"};
    // Counting down, a reduction meets its elements in the other order (which one an arg-min
    // keeps, how a float sum rounds): only element-wise loops (modelMap) take such a range.
    if (m.descending) throw NotLifted{"the loop counts down and accumulates: its order matters"};

    // The body, evaluated once with every variable it writes standing for its old value.
    Evaluator eval(ctx, i, written, loop);
    if (m.iterationCount) eval.countIterations(m.counterStep, m.counterFrom);
    std::map<const VarDecl*, const Expr*> runtimeSteps;
    const auto steps = secondaryCounters(loop, ctx, written, i, m, h.incSteps, nullptr, alone ? &runtimeSteps : nullptr);
    eval.allowSecondary(steps, rangeStart(m), {}, "", runtimeSteps);
    if (alone) eval.allowFixedReads(accumulators);
    Evaluator::Env env;
    std::map<const VarDecl*, std::string> accumulatorText;
    for (const auto& [text, v] : accumulators) {
      env[v] = makeSym(Sym{Sym::Kind::carried, scalarTypeOf(v->getType(), ctx), "", text, 0, {}});
      accumulatorText[v] = text;
    }
    const SourceManager& sm = ctx.getSourceManager();
    std::set<const VarDecl*> scratch;
    for (const VarDecl* v : written) {
      if (!sm.isBeforeInTranslationUnit(v->getLocation(), loop.getBeginLoc()) || steps.count(v) || runtimeSteps.count(v)) continue;  // the body's own
      if (v->getType().isVolatileQualified()) throw NotLifted{"`" + v->getNameAsString() + "` is volatile"};
      if (scratchOfLoop(v, loop, ctx)) {
        scratch.insert(v);
        continue;
      }
      env[v] = makeSym(Sym{Sym::Kind::carried, scalarTypeOf(v->getType(), ctx), "", v->getNameAsString(), 0, {}});
    }
    for (const VarDecl* v : scratch)
      env[v] = makeSym(Sym{Sym::Kind::constant, scalarTypeOf(v->getType(), ctx), "", "?uninitialized", 0, {}, "", true});
    const Evaluator::Env before = env;
    eval.exec(loop.getBody(), env);
    for (const auto& [v, value] : env) {
      auto old = before.find(v);
      if (old == before.end() || scratch.count(v)) continue;  // a local of the body
      if (sameSym(value, old->second)) continue;
      if (auto acc = accumulatorText.find(v); acc != accumulatorText.end()) {
        m.carried.push_back({acc->second, scalarTypeOf(v->getType(), ctx), value});
        continue;
      }
      if (!v->hasLocalStorage() || v->getType()->isReferenceType())
        throw NotLifted{"`" + v->getNameAsString() + "` is not a local variable (a global, static or reference may alias the input)"};
      m.carried.push_back({v->getNameAsString(), scalarTypeOf(v->getType(), ctx), value});
    }
    // The memory accumulators are kept in registers by the kernel: the call is made only when no
    // element or scalar the loop reads, and no other accumulator, shares a byte with one.
    if (!accumulators.empty()) {
      std::set<std::pair<std::string, long long>> loads;
      bool strided = false;
      for (const CarriedVar& c : m.carried) loadsOf(*c.next, loads, strided);
      if (strided) throw NotLifted{"the loop accumulates into memory and reads a strided array"};
      const std::string start = rangeStart(m), count = rangeCount(m);
      std::vector<std::string> tests;
      for (auto a = accumulators.begin(); a != accumulators.end(); ++a) {
        const std::string at = "&(" + a->first + ")", end = at + " + 1";
        for (const auto& [pointer, offset] : loads) {
          std::string first = paren(pointer) + " + " + start;
          if (offset) first += (offset > 0 ? " + " : " - ") + std::to_string(offset > 0 ? offset : -offset);
          tests.push_back(disjointRanges(at, end, first, "(" + first + ") + " + paren(count)));
        }
        for (const std::string& scalar : eval.memoryScalars())
          if (!accumulators.count(scalar)) tests.push_back(disjointRanges(at, end, "&(" + scalar + ")", "&(" + scalar + ") + 1"));
        for (auto b = std::next(a); b != accumulators.end(); ++b)
          tests.push_back(disjointRanges(at, end, "&(" + b->first + ")", "&(" + b->first + ") + 1"));
      }
      for (const std::string& t : tests) m.callGuard += (m.callGuard.empty() ? "" : " && ") + t;
    }
    if (!eval.everywhere().empty())
      m.callGuard = everywhereGuard(eval.everywhere(), m) + (m.callGuard.empty() ? "" : " && " + m.callGuard);
    if (eval.inlinedElements() && !accumulators.empty())
      throw NotLifted{"the loop accumulates into memory and an inlined function reads elements"};
    for (const std::string& stride : eval.runtimeStrides())
      m.callGuard = paren(stride) + " >= 0" + (m.callGuard.empty() ? "" : " && " + m.callGuard);
    // By name, so that the order does not depend on pointer values.
    std::sort(m.carried.begin(), m.carried.end(), [](const CarriedVar& a, const CarriedVar& b) { return a.name < b.name; });
    return m;
  } catch (const NotLifted& n) {
    return n.reason;
  }
}

FloatLicence floatLicence(const Stmt& loop, const ASTContext& ctx) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    const LangOptions* lang;
    int floatOps = 0, calls = 0;
    bool strict = false, exact = false;
    bool VisitBinaryOperator(BinaryOperator* b) {  // compound assignments too
      const BinaryOperatorKind k = b->isCompoundAssignmentOp() ? BinaryOperator::getOpForCompoundAssignment(b->getOpcode()) : b->getOpcode();
      if ((k == BO_Add || k == BO_Sub || k == BO_Mul) && b->getType()->isRealFloatingType()) {
        ++floatOps;
        if (!b->getFPFeaturesInEffect(*lang).getAllowFPReassociate()) strict = true;
      }
      return true;
    }
    bool VisitCallExpr(CallExpr* c) {
      ++calls;
      if (!c->getFPFeaturesInEffect(*lang).getAllowApproxFunc()) exact = true;
      return true;
    }
  } visitor;
  visitor.lang = &ctx.getLangOpts();
  visitor.TraverseStmt(const_cast<Stmt*>(&loop));
  return {visitor.floatOps > 0 && !visitor.strict, visitor.calls > 0 && !visitor.exact};
}

void memoryObjects(const Expr* e, ASTContext& ctx, const std::set<const VarDecl*>& skip, std::set<std::string>& out, bool& unchecked) {
  if (!e) return;
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext* ctx;
    const std::set<const VarDecl*>* skip;
    std::set<std::string>* out;
    bool* unchecked;
    const Stmt* function = nullptr;
    bool steady(const Expr* x) const {
      for (const VarDecl* v : referencedVars(x))
        if (skip->count(v)) return false;
      return true;
    }
    // An array's name, field or row is its address, not a read of memory.
    bool VisitMemberExpr(MemberExpr* m) {
      if (!steady(m) || m->getType()->isArrayType()) return true;
      if (const auto* f = dyn_cast<FieldDecl>(m->getMemberDecl()); f && f->isBitField()) *unchecked = true;
      else out->insert(sourceText(*m, *ctx));
      return true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr* a) {
      if (steady(a) && !a->getType()->isArrayType()) out->insert(sourceText(*a, *ctx));
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->getOpcode() == UO_Deref && steady(u) && !u->getType()->isArrayType()) out->insert(sourceText(*u, *ctx));
      return true;
    }
    bool VisitDeclRefExpr(DeclRefExpr* r) {
      const auto* v = dyn_cast<VarDecl>(r->getDecl());
      if (!v || skip->count(v) || v->getType()->isArrayType()) return true;
      if (v->getStorageClass() == SC_Register) *unchecked = true;
      else if (v->hasGlobalStorage() || v->getType()->isReferenceType() || addressTaken(v, function)) out->insert(v->getNameAsString());
      return true;
    }
  } visitor;
  visitor.ctx = &ctx;
  visitor.skip = &skip;
  visitor.out = &out;
  visitor.unchecked = &unchecked;
  visitor.function = enclosingFunctionBody(*e, ctx);
  visitor.TraverseStmt(const_cast<Expr*>(e));
}

std::string byteStoresMayChange(const ForStmt& nest, ASTContext& ctx) {
  struct Visitor : RecursiveASTVisitor<Visitor> {
    ASTContext* ctx;
    bool bytes = false;
    std::set<const VarDecl*> changing;  // the nest's counters and what it assigns
    std::vector<const Expr*> read;      // bounds, starts, array bases and indices
    bool VisitForStmt(ForStmt* f) {
      if (f->getCond()) read.push_back(f->getCond());
      if (const auto* e = dyn_cast_or_null<Expr>(f->getInit())) read.push_back(e);
      if (const auto* d = dyn_cast_or_null<DeclStmt>(f->getInit()))
        for (const Decl* x : d->decls())
          if (const auto* v = dyn_cast<VarDecl>(x)) changing.insert(v);
      return true;
    }
    void assigned(const Expr* lhs) {
      if (const VarDecl* v = referencedVar(lhs); v && isa<DeclRefExpr>(lhs->IgnoreParens())) changing.insert(v);
      else if (ctx->getTypeSize(lhs->getType()) == 8) bytes = true;
    }
    bool VisitBinaryOperator(BinaryOperator* b) {
      if (b->isAssignmentOp()) assigned(b->getLHS());
      return true;
    }
    bool VisitUnaryOperator(UnaryOperator* u) {
      if (u->isIncrementDecrementOp()) assigned(u->getSubExpr());
      return true;
    }
    bool VisitVarDecl(VarDecl* v) {
      changing.insert(v);  // the nest's own locals
      return true;
    }
    bool VisitArraySubscriptExpr(ArraySubscriptExpr* a) {
      read.push_back(a->getBase());
      read.push_back(a->getIdx());
      return true;
    }
  } visitor;
  visitor.ctx = &ctx;
  visitor.TraverseStmt(const_cast<ForStmt*>(&nest));
  if (!visitor.bytes) return "";
  std::set<std::string> objects;
  bool unchecked = false;
  for (const Expr* e : visitor.read) memoryObjects(e, ctx, visitor.changing, objects, unchecked);
  if (!objects.empty()) return *objects.begin();
  return unchecked ? "a bit-field" : "";
}

std::variant<MapModel, std::string> modelMap(const ForStmt& loop, ASTContext& ctx) {
  try {
    const WriteCollector writes = writesOf(loop, ctx);
    LoopHeader h = header(loop, ctx, writes.vars, /*allowExtra=*/true, /*allowDescending=*/true);
    MapModel m;
    m.loop = h.model;
    std::set<const VarDecl*> written = writes.vars;  // and those the `for`'s increment steps
    for (const auto& [v, step] : h.incSteps) written.insert(v);
    Evaluator eval(ctx, h.counter, written, loop);
    if (m.loop.iterationCount) eval.countIterations(m.loop.counterStep, m.loop.counterFrom);
    eval.allowStores(&m.stores);
    std::map<const VarDecl*, PointerAlias> aliases;
    std::map<const VarDecl*, const Expr*> runtimeSteps;
    const auto steps = secondaryCounters(loop, ctx, written, h.counter, m.loop, h.incSteps, &aliases, &runtimeSteps);
    eval.allowSecondary(steps, rangeStart(m.loop), aliases, rangeCount(m.loop), runtimeSteps);
    // Variables declared before the loop that it changes: accumulators beside the stores
    // (`x[i] = e; sum += x[i];`), for map_sums to recognise.
    Evaluator::Env env;
    const SourceManager& sm = ctx.getSourceManager();
    std::set<const VarDecl*> scratch;
    for (const VarDecl* v : writes.vars) {
      if (!sm.isBeforeInTranslationUnit(v->getLocation(), loop.getBeginLoc()) || steps.count(v) || aliases.count(v) || runtimeSteps.count(v)) continue;
      if (v->getType().isVolatileQualified()) throw NotLifted{"`" + v->getNameAsString() + "` is volatile"};
      if (scratchOfLoop(v, loop, ctx)) {  // C89's `float r, g, b;` at the top, only the loop's
        scratch.insert(v);
        env[v] = makeSym(Sym{Sym::Kind::constant, scalarTypeOf(v->getType(), ctx), "", "?uninitialized", 0, {}, "", true});
        continue;
      }
      // The stores must not reach it: a local whose address is never taken.
      if (!v->hasLocalStorage() || v->getType()->isReferenceType() || v->isStaticLocal() || addressTaken(v, enclosingFunctionBody(loop, ctx)))
        throw NotLifted{"the loop changes `" + v->getNameAsString() + "`, declared before it, which its stores may reach (not a local "
                        "whose address is never taken)"};
      env[v] = makeSym(Sym{Sym::Kind::carried, scalarTypeOf(v->getType(), ctx), "", v->getNameAsString(), 0, {}});
    }
    const Evaluator::Env before = env;
    eval.exec(loop.getBody(), env);
    for (const auto& [v, value] : env)
      if (auto old = before.find(v); old != before.end() && !scratch.count(v) && !sameSym(value, old->second))
        m.loop.carried.push_back({v->getNameAsString(), scalarTypeOf(v->getType(), ctx), value});
    std::sort(m.loop.carried.begin(), m.loop.carried.end(), [](const CarriedVar& a, const CarriedVar& b) { return a.name < b.name; });
    if (m.stores.empty()) throw NotLifted{"the loop writes no array element"};
    if (eval.reversed() && eval.forward())
      throw NotLifted{"some positions walk back and others forward (or the counter is read): not element for element from either end"};
    if (eval.reversed() && !m.loop.carried.empty()) throw NotLifted{"its positions walk back and it accumulates: the order would change"};
    m.reversed = eval.reversed();
    m.domainErrors = eval.domainErrors();
    // `dp = sp` ending every iteration: the first one must start there too.
    for (const auto& [v, a] : aliases)
      if (a.trailing)
        m.guards.push_back(v->getNameAsString() + " == " + a.of->getNameAsString() +
                           (a.offset == 0 ? "" : a.offset > 0 ? " + " + std::to_string(a.offset) : " - " + std::to_string(-a.offset)));
    // Counting down, only stores of elements of this iteration: their order does not matter.
    if (m.loop.descending && (!m.loop.carried.empty() || !steps.empty()))
      throw NotLifted{"the loop counts down and accumulates or steps other variables: its order matters"};
    // One call stores every output: it is made when every store's loop-invariant guards hold
    // (`if (da) da[i] += ...; if (db) db[i] += ...;`: da && db), else the loop runs as written.
    for (const MapStore& st : m.stores)
      for (const std::string& g : st.guards)
        if (std::find(m.guards.begin(), m.guards.end(), g) == m.guards.end()) m.guards.push_back(g);
    for (const std::string& g : eval.callGuards())
      if (std::find(m.guards.begin(), m.guards.end(), g) == m.guards.end()) m.guards.push_back(g);
    if (!eval.everywhere().empty()) {  // asserts and helpers' range tests: at both ends of the range
      m.everywhere = eval.everywhere();
      m.guards.push_back(everywhereGuard(m.everywhere, m.loop));
    }
    // An inlined helper's elements are not in the loop's own text, which the check below reads.
    if (eval.inlinedElements()) m.uncheckedObjects = true;
    m.memoryScalars.assign(eval.memoryScalars().begin(), eval.memoryScalars().end());
    // What the bounds and the arrays' positions read from memory (a byte store may change it).
    std::set<const VarDecl*> changing = written;
    changing.insert(h.counter);
    std::set<std::string> objects;
    memoryObjects(h.start, ctx, changing, objects, m.uncheckedObjects);
    memoryObjects(h.end, ctx, changing, objects, m.uncheckedObjects);
    struct Positions : RecursiveASTVisitor<Positions> {
      std::vector<const Expr*> exprs;
      bool VisitArraySubscriptExpr(ArraySubscriptExpr* a) {
        exprs.push_back(a->getBase());
        exprs.push_back(a->getIdx());
        return true;
      }
    } positions;
    positions.TraverseStmt(const_cast<Stmt*>(loop.getBody()));
    for (const Expr* e : positions.exprs) memoryObjects(e, ctx, changing, objects, m.uncheckedObjects);
    for (const std::string& v : m.memoryScalars) objects.erase(v);  // checked as scalars already
    m.memoryObjects.assign(objects.begin(), objects.end());
    m.runtimeStrides = !eval.runtimeStrides().empty();
    return m;
  } catch (const NotLifted& n) {
    return n.reason;
  }
}

}  // namespace simdgen::lift
