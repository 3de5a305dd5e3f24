// SPDX-License-Identifier: Apache-2.0
// Arm SVE spellings shared by the SVE lowering: sizeless vector types, svbool_t predicates,
// intrinsic suffixes, all-true predicates, element counts and lane-wise arithmetic with the
// plan's semantics. Vectors are vscale * 128 bits, so every count comes from svcnt*, never a number.
#pragma once

#include <string>

#include "core/dtype.h"
#include "ir/plan.h"

namespace simdgen::emit::sve {

std::string sfx(DType t);                // "s8", "u16", "f32"
std::string usfx(DType t);               // the unsigned suffix of t's width: "u8", "u64"
std::string vecType(DType t);            // "svint8_t", "svfloat32_t"
std::string all(DType t);                // "svptrue_b32()": every lane of a vector of t
std::string count(DType t);              // "svcntw()": lanes of a vector of t (uint64_t)
std::string splat(DType t, const std::string& lit);
std::string reinterpret(const std::string& x, DType from, DType to);
// Arithmetic forms: how an op governed by `pg` treats inactive lanes.
enum class Form { any, merge, zero };  // _x (unspecified: pg is all lanes), _m (keep a), _z (zero)
// rop(a, b) lane-wise with the plan's semantics (min: a < b ? a : b; floats by compare and select,
// so b wins ties and NaN exactly as the plan defines; fmin/fminnm would not).
std::string binary(ReduceOp op, DType t, const std::string& pg, const std::string& a, const std::string& b, Form form);
// Predicate of the lanes (within pg) where a <cmp> b; floats are false for NaN except `ne`.
std::string compare(ir::Cmp cmp, DType t, const std::string& pg, const std::string& a, const std::string& b);

}  // namespace simdgen::emit::sve
