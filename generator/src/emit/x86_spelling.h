// SPDX-License-Identifier: Apache-2.0
// x86 spellings shared by the x86 lowering files: register types, intrinsic prefixes, splats,
// loads, stores, casts and blends (SSE/AVX2/AVX-512).
#pragma once

#include <string>

#include "core/dtype.h"
#include "emit/lowering.h"

namespace simdgen::emit::x86 {

std::string pfx(int bits);                 // "_mm512_", "_mm256_", "_mm_"
std::string si(int bits);                  // "si256"
std::string regType(DType t, int bits);    // "__m256i", "__m512", "__m128d"
std::string epi(DType t);                  // "epi32"
std::string fsfx(DType t);                 // "ps" / "pd"
std::string domain(DType t);               // blends, masked moves and casts: "ps", "pd", "epi8"...
std::string splatExpr(DType t, int bits, const std::string& lit);
std::string loadExpr(DType t, int bits, const std::string& ptr);
std::string storeStmt(DType t, int bits, const std::string& ptr, const std::string& v);
// A non-temporal store of a whole vector (movntps / movntdq): ptr aligned to the vector's bytes.
std::string streamStmt(DType t, int bits, const std::string& ptr, const std::string& v);
// x (a vector of type t at `bits`) reinterpreted as "ps", "pd" or integer ("si").
std::string castTo(const std::string& x, DType t, int bits, const std::string& to);
std::string iota(DType t, int lanes);      // AVX2: lanes 0, 1, 2, ... of width bitsOf(t)
std::string avx2Splat(int w, const std::string& v);
std::string avx2MaskPtr(DType t);          // the pointer cast vpmaskmov takes: "(const int*)"
std::string maskType(int lanes);           // "__mmask16"
bool kmasks(const LowerContext& cx);       // predicates are AVX-512 k-registers
// `yes` where predicate p holds, else `no` (vectors of type t).
std::string blend(DType t, int bits, const std::string& p, const std::string& no, const std::string& yes, LowerContext& cx);

}  // namespace simdgen::emit::x86
