// SPDX-License-Identifier: Apache-2.0
#pragma once
// Transposes: `for r { for c { b[c * ldb + r] = a[r * lda + c]; } }` (either loop order) as a
// `transpose` spec, and the call that replaces the nest (clang side for the model).
#include <string>
#include <variant>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Stmt.h>

#include "clang/lift/loop_model.h"

namespace simdgen::lift {

struct TransposeLift {
  ScalarType type;
  std::string input, output;  // the first elements, as pointer expressions
  std::string lda, ldb;       // row strides as written
  LoopModel rowLoop, colLoop;  // the loops over the input's rows and columns
  std::string loopText;        // the nest, kept for what the kernel does not take
  const clang::ForStmt* innerLoop = nullptr;
};

// Reasons that start with kNotANest mean the loops are not a copy nest at all.
inline constexpr const char* kNotANest = "not a copy nest";
std::variant<TransposeLift, std::string> modelTranspose(const clang::ForStmt& outer, clang::ASTContext& ctx);
std::string transposeSpecJson(const TransposeLift& t, const std::string& name, const std::string& description);
std::string transposeReplacementCode(const TransposeLift& t, const std::string& name, const std::string& local);

}  // namespace simdgen::lift
