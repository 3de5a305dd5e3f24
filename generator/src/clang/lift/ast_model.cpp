// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/ast_model.h"

#include <cctype>
#include <map>
#include <set>

#include <clang/AST/Expr.h>
#include <clang/AST/ExprCXX.h>
#include <clang/AST/RecursiveASTVisitor.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Lex/Lexer.h>
#include <llvm/ADT/StringExtras.h>

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
    else if (otherWrite.empty()) otherWrite = sourceText(*whole, *ctx);
  }
};

class Evaluator {
 public:
  Evaluator(ASTContext& ctx, const VarDecl* induction, const std::set<const VarDecl*>& written)
      : ctx_(ctx), induction_(induction), written_(written) {}

  using Env = std::map<const VarDecl*, SymPtr>;

  void exec(const Stmt* s, Env& env) {
    if (const auto* block = dyn_cast<CompoundStmt>(s)) {
      for (const Stmt* child : block->body()) exec(child, env);
    } else if (isa<NullStmt>(s)) {
    } else if (const auto* decls = dyn_cast<DeclStmt>(s)) {
      for (const Decl* d : decls->decls()) {
        const auto* v = dyn_cast<VarDecl>(d);
        if (!v || !v->hasInit() || v->isStaticLocal() || v->getType()->isReferenceType())
          throw NotLifted{"the declaration `" + sourceText(*s, ctx_) + "` is not a plain local with a value"};
        checkScalarLocal(v);
        env[v] = eval(v->getInit(), env);
      }
    } else if (const auto* ifs = dyn_cast<IfStmt>(s)) {
      if (ifs->getInit() || ifs->getConditionVariable() || ifs->isConstexpr())
        throw NotLifted{"the `if` declares a variable or is constexpr"};
      SymPtr cond = eval(ifs->getCond(), env);
      Env thenEnv = env, elseEnv = env;
      exec(ifs->getThen(), thenEnv);
      if (ifs->getElse()) exec(ifs->getElse(), elseEnv);
      for (auto& [var, value] : env) {
        const SymPtr& t = thenEnv[var];
        const SymPtr& e = elseEnv[var];
        if (!sameSym(t, e)) value = makeSym(Sym{Sym::Kind::select, t->type, "", "", 0, {cond, t, e}});
        else value = t;
      }
    } else if (const auto* store = dyn_cast<BinaryOperator>(s);
               store && store->getOpcode() == BO_Assign && stores_ && isa<ArraySubscriptExpr>(store->getLHS()->IgnoreParens())) {
      const auto* sub = clang::cast<ArraySubscriptExpr>(store->getLHS()->IgnoreParens());
      SymPtr value = eval(store->getRHS(), env);
      SymPtr at = load(*sub);  // where it goes: the same checks as a load
      if (!at->stride.empty()) throw NotLifted{"the store `" + sourceText(*store, ctx_) + "` is strided"};
      for (const auto& st : *stores_)
        if (st.base == at->name) throw NotLifted{"`" + at->name + "` is written twice in one iteration"};
      stores_->push_back({at->name, at->offset, at->type, value});
      stored_.insert(at->name);
    } else if (const auto* assign = dyn_cast<BinaryOperator>(s); assign && assign->isAssignmentOp()) {
      const VarDecl* v = assignedVar(assign->getLHS());
      SymPtr rhs = eval(assign->getRHS(), env);
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
      if (const auto* call = dyn_cast<CallExpr>(e->IgnoreParenImpCasts()))
        throw NotLifted{"the body calls `" + calleeName(*call) + "`, which may have side effects"};
      throw NotLifted{"the statement `" + sourceText(*s, ctx_) + "` is not an assignment to a local variable"};
    } else {
      throw NotLifted{"the statement `" + sourceText(*s, ctx_) + "` is not one lift understands"};
    }
  }

  SymPtr eval(const Expr* e, const Env& env) {
    e = e->IgnoreParens();
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
      if (v == induction_) return makeSym(Sym{Sym::Kind::induction, scalarTypeOf(v->getType(), ctx_), "", v->getNameAsString(), 0, {}});
      if (auto it = env.find(v); it != env.end()) return it->second;
      return makeSym(Sym{Sym::Kind::invariant, scalarTypeOf(v->getType(), ctx_), "", v->getNameAsString(), 0, {}});
    }
    if (isa<IntegerLiteral>(e) || isa<FloatingLiteral>(e) || isa<CharacterLiteral>(e) || isa<CXXBoolLiteralExpr>(e))
      return constant(e);
    if (const auto* sub = dyn_cast<ArraySubscriptExpr>(e)) return load(*sub);
    if (const auto* bin = dyn_cast<BinaryOperator>(e)) {
      if (bin->isAssignmentOp() || bin->isCommaOp())
        throw NotLifted{"`" + sourceText(*e, ctx_) + "` assigns inside an expression"};
      const std::string op = bin->getOpcodeStr().str();
      const Sym::Kind kind = bin->isComparisonOp() ? Sym::Kind::compare : Sym::Kind::binary;
      return makeSym(Sym{kind, scalarTypeOf(e->getType(), ctx_), op, "", 0, {eval(bin->getLHS(), env), eval(bin->getRHS(), env)}});
    }
    if (const auto* un = dyn_cast<UnaryOperator>(e)) {
      if (un->getOpcode() == UO_LNot)
        return makeSym(Sym{Sym::Kind::logical_not, scalarTypeOf(e->getType(), ctx_), "", "", 0, {eval(un->getSubExpr(), env)}});
      if (un->getOpcode() == UO_Deref) throw NotLifted{"`" + sourceText(*e, ctx_) + "` reads through a pointer other than a[i]"};
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
    if (const auto* cond = dyn_cast<ConditionalOperator>(e))
      return makeSym(Sym{Sym::Kind::select, scalarTypeOf(e->getType(), ctx_), "", "", 0,
                         {eval(cond->getCond(), env), eval(cond->getTrueExpr(), env), eval(cond->getFalseExpr(), env)}});
    if (const auto* call = dyn_cast<CallExpr>(e)) return callOf(*call, env);
    throw NotLifted{"the expression `" + sourceText(*e, ctx_) + "` is not one lift understands"};
  }

  std::string calleeName(const CallExpr& call) const {
    if (const FunctionDecl* f = call.getDirectCallee()) return f->getQualifiedNameAsString();
    return sourceText(*call.getCallee(), ctx_);
  }

  SymPtr cast(const ScalarType& to, SymPtr value) { return makeSym(Sym{Sym::Kind::cast, to, "", "", 0, {std::move(value)}}); }

  // Element-wise loops: stores `base[i + k] = value` are recorded here instead of refused.
  void allowStores(std::vector<MapStore>* stores) { stores_ = stores; }

 private:
  void checkScalarLocal(const VarDecl* v) {
    if (v->getType().isVolatileQualified()) throw NotLifted{"`" + v->getNameAsString() + "` is volatile"};
  }

  const VarDecl* assignedVar(const Expr* lhs) {
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
  SymPtr load(const ArraySubscriptExpr& sub) {
    if (sub.getType().isVolatileQualified()) throw NotLifted{"the elements of `" + sourceText(sub, ctx_) + "` are volatile"};
    const Expr* base = sub.getBase();
    if (!invariant(base))
      throw NotLifted{"the array `" + sourceText(*base, ctx_) + "` in `" + sourceText(sub, ctx_) + "` changes in the loop or has side effects"};
    Index index;
    decompose(sub.getIdx(), 1, index);
    if (!index.ok || !((index.counter == 1 && index.stride.empty()) || (index.counter == 0 && !index.stride.empty())))
      throw NotLifted{"the index `" + sourceText(*sub.getIdx(), ctx_) + "` is not `" + induction_->getNameAsString() +
                      " + constant` or plus a value the loop does not change (indirect accesses are not lifted)"};
    std::string pointer = sourceText(*base, ctx_);
    for (const auto& [sign, term] : index.terms) pointer += (sign > 0 ? " + " : " - ") + term;
    if (stored_.count(pointer)) throw NotLifted{"`" + sourceText(sub, ctx_) + "` reads an array after the loop body wrote it"};
    Sym s{Sym::Kind::load, scalarTypeOf(sub.getType(), ctx_), "", pointer, index.constant, {}};
    s.stride = index.stride;
    s.type.spelling = sub.getType().getUnqualifiedType().getAsString(ctx_.getPrintingPolicy());
    return makeSym(std::move(s));
  }

  bool isCounter(const Expr* e) const {
    e = e->IgnoreParenImpCasts();
    return isa<DeclRefExpr>(e) && referencedVar(e) == induction_;
  }

  // No side effects, and no variable the loop changes (nor its counter).
  bool invariant(const Expr* e) {
    if (e->HasSideEffects(ctx_)) return false;
    for (const VarDecl* v : referencedVars(e))
      if (v == induction_ || written_.count(v) || v->getType().isVolatileQualified()) return false;
    return true;
  }

  struct Index {
    bool ok = true;
    long long counter = 0, constant = 0;
    std::string stride;  // the counter times this (a column of a matrix), instead of the counter alone
    std::vector<std::pair<int, std::string>> terms;  // sign and text of each invariant term
  };
  // The index as counter * i + constant + the invariant terms, through + and -.
  void decompose(const Expr* e, int sign, Index& out) {
    e = e->IgnoreParenImpCasts();
    if (referencedVar(e) == induction_ && isa<DeclRefExpr>(e)) {
      out.counter += sign;
    } else if (auto c = e->getIntegerConstantExpr(ctx_)) {
      out.constant += sign * c->getExtValue();
    } else if (const auto* bin = dyn_cast<BinaryOperator>(e); bin && (bin->getOpcode() == BO_Add || bin->getOpcode() == BO_Sub)) {
      decompose(bin->getLHS(), sign, out);
      decompose(bin->getRHS(), bin->getOpcode() == BO_Add ? sign : -sign, out);
    } else if (const auto* mul = dyn_cast<BinaryOperator>(e); mul && mul->getOpcode() == BO_Mul &&
               (isCounter(mul->getLHS()) || isCounter(mul->getRHS()))) {
      const Expr* stride = isCounter(mul->getLHS()) ? mul->getRHS() : mul->getLHS();
      if (sign < 0 || !out.stride.empty() || !invariant(stride)) out.ok = false;
      else out.stride = sourceText(*stride, ctx_);
    } else if (invariant(e)) {
      std::string text = sourceText(*e, ctx_);
      bool word = true;
      for (char ch : text) word = word && (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_');
      const bool product = isa<BinaryOperator>(e) && clang::cast<BinaryOperator>(e)->isMultiplicativeOp();
      out.terms.push_back({sign, word || product ? text : "(" + text + ")"});
    } else {
      out.ok = false;
    }
  }

  // The map family's name of a C math function with one float argument ("" if it is none): sqrt,
  // floor, ceil, trunc, and rint/nearbyint (to nearest, ties to even, in the default rounding mode)
  // as nearest. Their float, double and std:: overloads and GCC builtins.
  static std::string mathFunction(const std::string& name) {
    std::string base = name.rfind("std::", 0) == 0 ? name.substr(5) : name.rfind("__builtin_", 0) == 0 ? name.substr(10) : name;
    if (base.size() > 1 && base.back() == 'f' && base != "f") base.pop_back();
    if (base == "sqrt" || base == "floor" || base == "ceil" || base == "trunc") return base;
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
    if (const std::string fn = mathFunction(name); !fn.empty() && call.getNumArgs() == 1)
      return makeSym(Sym{Sym::Kind::math, scalarTypeOf(call.getType(), ctx_), fn, "", 0, {eval(call.getArg(0), env)}});
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
    throw NotLifted{"the body calls `" + name + "`" +
                    (call.getDirectCallee() && call.getDirectCallee()->isConstexpr() ? "" : ", which may have side effects")};
  }

  ASTContext& ctx_;
  const VarDecl* induction_;
  const std::set<const VarDecl*>& written_;
  std::vector<MapStore>* stores_ = nullptr;
  std::set<std::string> stored_;
};

bool isUnitStep(const Expr* inc, const VarDecl* i, const ASTContext& ctx) {
  inc = inc->IgnoreParens();
  if (const auto* u = dyn_cast<UnaryOperator>(inc)) return u->isIncrementOp() && referencedVar(u->getSubExpr()) == i;
  if (const auto* c = dyn_cast<CompoundAssignOperator>(inc)) {
    auto step = c->getRHS()->getIntegerConstantExpr(ctx);
    return c->getOpcode() == BO_AddAssign && referencedVar(c->getLHS()) == i && step && *step == 1;
  }
  return false;
}

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
    default: return t;  // bool, plain char, wchar_t, long double, _Float16, __int128: no dtype
  }
}

namespace {

// The `for` statement's own parts: for (T i = start; i < end; ++i), end fixed by the body.
LoopHeader header(const ForStmt& loop, ASTContext& ctx, const std::set<const VarDecl*>& written) {
  LoopHeader h;
  LoopModel& m = h.model;
  // for (T i = start; ...): the counter is the loop's own, so nothing reads it afterwards.
  const auto* init = dyn_cast_or_null<DeclStmt>(loop.getInit());
  const VarDecl* i = init && init->isSingleDecl() ? dyn_cast<VarDecl>(init->getSingleDecl()) : nullptr;
  if (!i || !i->hasInit())
    throw NotLifted{loop.getInit() ? "the loop counter is declared before the loop (declare it in the `for`, so that nothing reads it afterwards)"
                                   : "the loop has no counter"};
  h.counter = i;
  m.inductionName = i->getNameAsString();
  m.inductionType = scalarTypeOf(i->getType(), ctx);
  if (m.inductionType.dtype.empty() || m.inductionType.isFloat)
    throw NotLifted{"the loop counter `" + m.inductionName + "` is not an integer"};
  if (i->getInit()->HasSideEffects(ctx)) throw NotLifted{"the counter's start value has side effects"};
  h.start = i->getInit();
  m.startText = sourceText(*i->getInit(), ctx);
  if (written.count(i)) throw NotLifted{"the body changes the loop counter `" + m.inductionName + "`"};

  // i < end, i <= end (or end > i, end >= i), with end unchanged by the loop.
  const auto* cond = dyn_cast_or_null<BinaryOperator>(loop.getCond() ? loop.getCond()->IgnoreParenImpCasts() : nullptr);
  const Expr* end = nullptr;
  if (cond && referencedVar(cond->getLHS()) == i && (cond->getOpcode() == BO_LT || cond->getOpcode() == BO_LE)) {
    end = cond->getRHS();
    m.inclusive = cond->getOpcode() == BO_LE;
  } else if (cond && referencedVar(cond->getRHS()) == i && (cond->getOpcode() == BO_GT || cond->getOpcode() == BO_GE)) {
    end = cond->getLHS();
    m.inclusive = cond->getOpcode() == BO_GE;
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
  m.endText = sourceText(*end, ctx);
  Expr::EvalResult first, last;
  if (h.start->EvaluateAsInt(first, ctx) && end->EvaluateAsInt(last, ctx)) {
    const long long n = last.Val.getInt().getExtValue() - first.Val.getInt().getExtValue() + (m.inclusive ? 1 : 0);
    m.tripCount = n > 0 ? n : 0;
  }
  if (!loop.getInc() || !isUnitStep(loop.getInc(), i, ctx))
    throw NotLifted{"the counter does not step by 1 (`" + (loop.getInc() ? sourceText(*loop.getInc(), ctx) : std::string()) +
                    "`): strided loops are not lifted yet"};
  m.loopText = sourceText(loop, ctx);
  return h;
}

}  // namespace

std::string sourceText(const Stmt& s, const ASTContext& ctx) {
  return Lexer::getSourceText(CharSourceRange::getTokenRange(s.getSourceRange()), ctx.getSourceManager(), ctx.getLangOpts()).str();
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

std::variant<LoopModel, std::string> modelLoop(const ForStmt& loop, ASTContext& ctx) {
  try {
    const WriteCollector writes = writesOf(loop, ctx);
    LoopHeader h = header(loop, ctx, writes.vars);
    LoopModel& m = h.model;
    const VarDecl* i = h.counter;
    if (!writes.otherWrite.empty())
      throw NotLifted{"the loop writes to memory (`" + writes.otherWrite + "`), which may alias its input; "
                      "accumulate in a local variable and store it after the loop"};

    // The body, evaluated once with every variable it writes standing for its old value.
    Evaluator eval(ctx, i, writes.vars);
    Evaluator::Env env;
    const SourceManager& sm = ctx.getSourceManager();
    for (const VarDecl* v : writes.vars) {
      if (!sm.isBeforeInTranslationUnit(v->getLocation(), loop.getBeginLoc())) continue;  // the body's own
      if (v->getType().isVolatileQualified()) throw NotLifted{"`" + v->getNameAsString() + "` is volatile"};
      env[v] = makeSym(Sym{Sym::Kind::carried, scalarTypeOf(v->getType(), ctx), "", v->getNameAsString(), 0, {}});
    }
    const Evaluator::Env before = env;
    eval.exec(loop.getBody(), env);
    for (const auto& [v, value] : env) {
      auto old = before.find(v);
      if (old == before.end()) continue;  // a local of the body
      if (sameSym(value, old->second)) continue;
      if (!v->hasLocalStorage() || v->getType()->isReferenceType())
        throw NotLifted{"`" + v->getNameAsString() + "` is not a local variable (a global, static or reference may alias the input)"};
      m.carried.push_back({v->getNameAsString(), scalarTypeOf(v->getType(), ctx), value});
    }
    // By name, so that the order does not depend on pointer values.
    std::sort(m.carried.begin(), m.carried.end(), [](const CarriedVar& a, const CarriedVar& b) { return a.name < b.name; });
    return m;
  } catch (const NotLifted& n) {
    return n.reason;
  }
}

std::variant<MapModel, std::string> modelMap(const ForStmt& loop, ASTContext& ctx) {
  try {
    const WriteCollector writes = writesOf(loop, ctx);
    LoopHeader h = header(loop, ctx, writes.vars);
    MapModel m;
    m.loop = h.model;
    Evaluator eval(ctx, h.counter, writes.vars);
    eval.allowStores(&m.stores);
    Evaluator::Env env;
    const SourceManager& sm = ctx.getSourceManager();
    for (const VarDecl* v : writes.vars)
      if (sm.isBeforeInTranslationUnit(v->getLocation(), loop.getBeginLoc()))
        throw NotLifted{"the loop changes `" + v->getNameAsString() + "`, declared before it (an element-wise loop only writes arrays)"};
    eval.exec(loop.getBody(), env);
    if (m.stores.empty()) throw NotLifted{"the loop writes no array element"};
    return m;
  } catch (const NotLifted& n) {
    return n.reason;
  }
}

}  // namespace simdgen::lift
