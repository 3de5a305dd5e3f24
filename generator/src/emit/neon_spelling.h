// SPDX-License-Identifier: Apache-2.0
// Arm NEON (AdvSIMD) spellings shared by the NEON lowering files: 128-bit vector and mask types,
// intrinsic suffixes, splats, loads, stores, reinterpretations, compares and selects. A predicate
// is a mask vector of the element width whose active lanes are all ones (what vceqq returns).
#pragma once

#include <string>

#include "core/dtype.h"
#include "emit/lowering.h"

namespace simdgen::emit::neon {

std::string sfx(DType t);                   // "s8", "u16", "f32"
std::string usfx(DType t);                  // the unsigned suffix of t's width: "u8", "u64"
std::string vecType(DType t, int lanes);    // "int8x16_t", "float32x2_t"
std::string maskType(DType t);              // "uint32x4_t": a predicate over lanes of t
std::string splat(DType t, const std::string& lit);
std::string load(DType t, const std::string& ptr);
std::string store(DType t, const std::string& ptr, const std::string& v);  // a statement
// x (a vector of `from` lanes) seen as a vector of `to` lanes of any width.
std::string reinterpret(const std::string& x, DType from, DType to);
std::string select(DType t, const std::string& mask, const std::string& yes, const std::string& no);
std::string compare(ir::Cmp cmp, DType t, const std::string& a, const std::string& b);
std::string notMask(DType t, const std::string& m);
// rop(a, b) lane-wise with the plan's semantics (min: a < b ? a : b, so b wins ties and NaN).
std::string binary(ReduceOp op, DType t, const std::string& a, const std::string& b, LowerContext& cx);
// A vector of lanes 0, 1, 2, ... of the unsigned type of t's width (a file-level table).
std::string iota(DType t, LowerContext& cx);
// The unsigned integer type of t's width ("uint8_t"): the active-lane count's type in compares.
std::string ucount(DType t);

}  // namespace simdgen::emit::neon
