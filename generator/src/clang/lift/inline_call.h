// SPDX-License-Identifier: Apache-2.0
#pragma once
// The pieces lift needs to read a call of a small helper of the file as its body, written in the
// caller's terms (darknet's `get_pixel(im, x, y, c)` is `im.data[c*im.h*im.w + y*im.w + x]`).
#include <functional>
#include <optional>
#include <string>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Decl.h>
#include <clang/AST/Expr.h>

namespace simdgen::lift {

// The condition of an `assert(cond);` statement as glibc spells it in C (`if (cond) ; else
// __assert_fail(...)` in a statement expression) or C++ (`cond ? void(0) : __assert_fail(...)`),
// else null. With NDEBUG the statement is `(void)0`, which discardedValue() takes.
const clang::Expr* assertedCondition(const clang::Stmt* s);

// `(void)0;`, `(void)param;`: a statement that computes nothing and has no effect.
bool discardedValue(const clang::Stmt* s, const clang::ASTContext& ctx);

// The text of `e` as written, each variable reference for which `replace` gives a text replaced
// by it. Throws std::runtime_error when a reference to replace is spelled inside a macro's body
// (its text is not in the file).
std::string substitutedText(const clang::Expr& e, const clang::ASTContext& ctx,
                            const std::function<std::optional<std::string>(const clang::VarDecl*)>& replace);

// Whether `body` can make a pointer to `v` or to any part of it (`&v`, `&v.f`, `&v.a[k]`, an
// array member decaying to a pointer, a reference bound to it): then a store may change it.
bool partAddressTaken(const clang::VarDecl* v, const clang::Stmt* body);

// Whether `body` assigns `v` or any part of it (`v = ...`, `v.f += ...`, `++v.a[k]`).
bool partAssigned(const clang::VarDecl* v, const clang::Stmt* body);

// Whether the text is a name, a number or a chain of member accesses (no parentheses needed
// where it replaces a name).
bool simpleOperand(const std::string& text);

}  // namespace simdgen::lift
