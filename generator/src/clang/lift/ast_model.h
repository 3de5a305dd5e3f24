// SPDX-License-Identifier: Apache-2.0
#pragma once
// Builds a LoopModel from a `for` statement by evaluating its body symbolically (clang side).
#include <map>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include "clang/lift/loop_model.h"

namespace simdgen::lift {

ScalarType scalarTypeOf(clang::QualType type, const clang::ASTContext& ctx);

// The statement's text as written.
std::string sourceText(const clang::Stmt& s, const clang::ASTContext& ctx);
// The variable `e` names, through parentheses and implicit conversions (else null).
const clang::VarDecl* referencedVar(const clang::Expr* e);
// The type as the compiler sees it, without qualifiers: "long", "unsigned char".
std::string canonicalType(clang::QualType t);
// Every variable `s` names (with repeats).
std::vector<const clang::VarDecl*> referencedVars(const clang::Stmt* s);

// A loop's header: `for (T i = start; i < end; ++i)` with end not changed by the body.
struct LoopHeader {
  LoopModel model;  // the header's fields (counter, start, end, inclusive) and loopText
  const clang::VarDecl* counter = nullptr;
  const clang::Expr* start = nullptr;
  const clang::Expr* end = nullptr;
  // C89's other variables of the header: `for (i = 0, sp = dp = row; ...; i++, sp++)`.
  std::string initExtra;  // the other assignments of the init as statements (`sp = dp = row;`)
  std::map<const clang::VarDecl*, long long> incSteps;  // variables the increment steps besides the counter
};
// A nest's loops take no other variables in their headers (only 1-D loops do: modelLoop, modelMap).
std::variant<LoopHeader, std::string> loopHeader(const clang::ForStmt& loop, clang::ASTContext& ctx);
// The assignments a 1-D loop's init makes besides its counter's, as statements to run before the
// kernel call (`sp = dp = row;`); empty when there are none or the header is not one lift takes.
std::string loopInitExtra(const clang::ForStmt& loop, clang::ASTContext& ctx);

// The objects in memory `e` reads (fields, elements, pointees, globals and locals whose address is
// taken), as lvalue texts, skipping those that name a variable in `skip` (the loop's counter and
// what it changes); `unchecked` is set for one without an address (a bit-field, a register).
void memoryObjects(const clang::Expr* e, clang::ASTContext& ctx, const std::set<const clang::VarDecl*>& skip,
                   std::set<std::string>& out, bool& unchecked);

// A nest that stores bytes (a character type, which may alias anything) and whose bounds or
// array positions read objects from memory: the text of one such object (its stores could change
// it between rows), else empty.
std::string byteStoresMayChange(const clang::ForStmt& nest, clang::ASTContext& ctx);

// What the translation unit's floating-point options (or the pragmas in effect) let the compiler do
// with the loop's float arithmetic, so that a kernel may too: its rounding changes no more than
// the user's own compiler may change it.
struct FloatLicence {
  // Reassociate every float `+ - *` (-ffast-math, -Ofast, -fassociative-math with
  // -fno-signed-zeros -fno-trapping-math, `#pragma clang fp reassociate(on)`); false when the loop
  // has no such operator.
  bool reassociate = false;
  // Replace every math call by an approximation (-ffast-math, -Ofast, -fapprox-func: gcc then
  // calls glibc's vector functions, within 4 ULP); false when the loop calls none.
  bool approximateFunctions = false;
};
FloatLicence floatLicence(const clang::Stmt& loop, const clang::ASTContext& ctx);

// An element-wise loop's stores, or why it is not one.
std::variant<MapModel, std::string> modelMap(const clang::ForStmt& loop, clang::ASTContext& ctx);

// The model, or why the loop is not a simple range over an array with carried scalars.
// `alone`: the loop is lifted by itself, not as part of a nest: elements and fields read at a fixed
// address are scalars, accumulators may be in memory (`mean[i] += x[k]`), and a runtime stride
// (`x[i * incx]`) is read as 1 -- each under the run-time test in the model's callGuard.
std::variant<LoopModel, std::string> modelLoop(const clang::ForStmt& loop, clang::ASTContext& ctx, bool alone = false);

}  // namespace simdgen::lift
