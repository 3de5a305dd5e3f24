// SPDX-License-Identifier: Apache-2.0
// The contraction unit tests' spec text helper and plan checker (contraction_check.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "spec/contraction_spec.h"
#include "targets/target.h"

namespace simdgen::testing {

// Where a tensor's elements are in the test's memory: dense unless the spec gives strides (a
// runtime stride gets a little padding), span elements in all.
struct TensorLayout {
  std::vector<int64_t> extents, strides;
  int64_t span = 1;
  int64_t blockStride = 0;  // an operand packed ahead in blocks (ContractionTensor::packBlock)
  // The element of t at a point of the contraction's dims.
  int64_t offset(const ContractionTensor& t, const std::vector<int64_t>& point) const;
  // Whether every position of t at the point lies inside its extents (a padded operand reads a
  // zero where one does not; others always do).
  bool inside(const ContractionTensor& t, const std::vector<int64_t>& point) const;
};
// t's layout for the dims' extents `ext`; runtime strides are chosen once into `runtime`.
TensorLayout layoutOf(const ContractionTensor& t, const std::vector<int64_t>& ext, std::map<std::string, int64_t>& runtime, std::mt19937_64& rng);
// The tensors in the plan's order: operands, init operand, added tensors, output.
std::vector<const ContractionTensor*> planTensors(const ContractionSpec& c);
// The targets every plan runs on: generic at 128..2048 bits, each real one (avx2 with and without
// FMA; avx512+bf16 when an operand is bf16, avx512+vnni, avx2+avx_vnni, neon+dotprod and neon+i8mm when both are bytes).
std::vector<Target> checkTargets(const ContractionSpec& c);

// A contraction spec of `dtype` (f32 unless given) around `body` (dims, operands, output, ...).
inline std::string contractionSpec(const std::string& body, const std::string& name = "k", const std::string& dtype = "f32") {
  return "{\n  \"simdgen\": 1,\n  \"name\": \"" + name + "\",\n  \"kind\": \"contraction\",\n  \"dtype\": \"" + dtype + "\",\n" + body + "\n}\n";
}

// `body` with "dtype": "bf16" given to the tensors named `names` (each written `{"name": "x", ...`).
std::string withBf16Operands(std::string body, const std::vector<std::string>& names);

// Runs every plan of `text` (generic targets at 128..2048 bits, each real target, SVE at several
// vector lengths) in the interpreter for the given runtime extents and checks every output element
// against the definition computed in double, within a rounding bound; nothing outside the output
// may be written.
void checkPlans(const std::string& text, const std::map<std::string, int64_t>& sizes, uint64_t seed);

// The same for an i32 contraction (contraction_int_check.cpp): operands of their own integer
// dtypes over their whole range, so products and sums wrap; every element must equal the
// definition computed exactly modulo 2^32.
void checkIntPlans(const std::string& text, const std::map<std::string, int64_t>& sizes, uint64_t seed);

}  // namespace simdgen::testing
