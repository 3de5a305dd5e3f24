// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/transpose_lift.h"

#include <nlohmann/json.hpp>

#include "clang/lift/ast_model.h"
#include "clang/lift/lift_output.h"
#include "clang/lift/matrix_address.h"

namespace simdgen::lift {
namespace {

using namespace clang;

// The one statement of a body (`{ s; }` or `s`), else null.
const Stmt* only(const Stmt* body) {
  if (const auto* block = dyn_cast<CompoundStmt>(body)) return block->size() == 1 ? block->body_front() : nullptr;
  return body;
}

}  // namespace

std::variant<TransposeLift, std::string> modelTranspose(const ForStmt& outer, ASTContext& ctx) {
  try {
    const auto* inner = dyn_cast_or_null<ForStmt>(only(outer.getBody()));
    const auto* store = inner ? dyn_cast_or_null<BinaryOperator>(only(inner->getBody())) : nullptr;
    if (!store || store->getOpcode() != BO_Assign) throw NotLiftable{std::string(kNotANest)};
    const auto* dst = dyn_cast<ArraySubscriptExpr>(store->getLHS()->IgnoreParens());
    const auto* src = dyn_cast<ArraySubscriptExpr>(store->getRHS()->IgnoreParenImpCasts());
    if (!dst || !src) throw NotLiftable{std::string(kNotANest)};
    auto outerHead = loopHeader(outer, ctx);
    if (auto* why = std::get_if<std::string>(&outerHead)) throw NotLiftable{*why};
    auto innerHead = loopHeader(*inner, ctx);
    if (auto* why = std::get_if<std::string>(&innerHead)) throw NotLiftable{"its inner loop: " + *why};
    const LoopHeader& o = std::get<LoopHeader>(outerHead);
    const LoopHeader& in = std::get<LoopHeader>(innerHead);
    for (const Expr* e : {in.start, in.end})
      for (const VarDecl* v : referencedVars(e))
        if (v == o.counter) throw NotLiftable{"the inner loop's range depends on the outer counter (a triangle, not a matrix)"};
    if (canonicalType(dst->getType()) != canonicalType(src->getType()))
      throw NotLiftable{"the copy converts " + canonicalType(src->getType()) + " to " + canonicalType(dst->getType())};
    if (dst->getType().isVolatileQualified() || src->getType().isVolatileQualified()) throw NotLiftable{"volatile elements"};
    TransposeLift t;
    t.type = scalarTypeOf(src->getType(), ctx);
    if (t.type.dtype.empty()) throw NotLiftable{"the elements are " + t.type.spelling};

    const std::map<const VarDecl*, const Expr*> none;
    MatrixAddress a(ctx, o.counter, in.counter, none), b(ctx, o.counter, in.counter, none);
    a.base(src->getBase());
    a.index(src->getIdx(), 1);
    b.base(dst->getBase());
    b.index(dst->getIdx(), 1);
    auto unit = [](const MatrixAddress::Counter& c) { return c.unit == 1 && c.stride.empty(); };
    auto strided = [](const MatrixAddress::Counter& c) { return c.unit == 0 && !c.stride.empty(); };
    if (unit(a.inner) && strided(a.outer) && unit(b.outer) && strided(b.inner)) {
      t.rowLoop = o.model;  // the outer loop runs over the input's rows
      t.colLoop = in.model;
      t.lda = a.outer.stride;
      t.ldb = b.inner.stride;
    } else if (unit(a.outer) && strided(a.inner) && unit(b.inner) && strided(b.outer)) {
      t.rowLoop = in.model;  // the outer loop runs over the output's rows
      t.colLoop = o.model;
      t.lda = a.inner.stride;
      t.ldb = b.outer.stride;
    } else {
      throw NotLiftable{"`" + sourceText(*store, ctx) + "` is not b[c * ldb + r] = a[r * lda + c]"};
    }
    t.input = a.first(o.model.startText, in.model.startText);
    t.output = b.first(o.model.startText, in.model.startText);
    t.loopText = sourceText(outer, ctx);
    t.innerLoop = inner;
    return t;
  } catch (const NotLiftable& n) {
    return n.reason;
  }
}

std::string transposeSpecJson(const TransposeLift& t, const std::string& name, const std::string& description) {
  nlohmann::ordered_json j;
  j["simdgen"] = 1;
  j["name"] = name;
  j["description"] = description;
  j["kind"] = "transpose";
  j["input"] = {{"dtype", t.type.dtype}, {"shape", {"rows", "cols"}}, {"row_stride", "lda"}};
  j["output"] = {{"row_stride", "ldb"}};
  return j.dump(2) + "\n";
}

std::string transposeReplacementCode(const TransposeLift& t, const std::string& name, const std::string& local) {
  const std::string rows = local + "rows", cols = local + "cols", lda = local + "lda", ldb = local + "ldb";
  const std::string in = paren(t.input), out = paren(t.output);
  std::string code = "{\n  // simdgen lift: " + name + " (transpose " + t.type.dtype + ")\n";
  code += "  const int64_t " + rows + " = " + rangeCount(t.rowLoop) + ";\n";
  code += "  const int64_t " + cols + " = " + rangeCount(t.colLoop) + ";\n";
  code += "  const int64_t " + lda + " = (int64_t)" + paren(t.lda) + ", " + ldb + " = (int64_t)" + paren(t.ldb) + ";\n";
  // Whole matrices that do not overlap (checked on the addresses); anything else runs the nest.
  const std::string inEnd = "(uintptr_t)(" + in + " + (" + rows + " - 1) * " + lda + " + " + cols + ")";
  const std::string outEnd = "(uintptr_t)(" + out + " + (" + cols + " - 1) * " + ldb + " + " + rows + ")";
  code += "  if (" + rows + " > 0 && " + cols + " > 0 && " + lda + " >= " + cols + " && " + ldb + " >= " + rows + " && (" + outEnd +
          " <= (uintptr_t)" + in + " || " + inEnd + " <= (uintptr_t)" + out + ")) {\n";
  code += "    " + name + "(" + t.input + ", " + rows + ", " + cols + ", " + lda + ", " + ldb + ", " + t.output + ");\n" + counterFinals({&t.rowLoop, &t.colLoop});
  code += "  } else {\n    " + t.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
