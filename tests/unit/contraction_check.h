// SPDX-License-Identifier: Apache-2.0
// The contraction unit tests' spec text helper and plan checker (contraction_check.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace simdgen::testing {

// A contraction spec of dtype f32 around `body` (dims, operands, output, ...).
inline std::string contractionSpec(const std::string& body, const std::string& name = "k") {
  return "{\n  \"simdgen\": 1,\n  \"name\": \"" + name + "\",\n  \"kind\": \"contraction\",\n  \"dtype\": \"f32\",\n" + body + "\n}\n";
}

// `body` with "dtype": "bf16" given to the tensors named `names` (each written `{"name": "x", ...`).
std::string withBf16Operands(std::string body, const std::vector<std::string>& names);

// Runs every plan of `text` (generic targets at 128..2048 bits, each real target, SVE at several
// vector lengths) in the interpreter for the given runtime extents and checks every output element
// against the definition computed in double, within a rounding bound; nothing outside the output
// may be written.
void checkPlans(const std::string& text, const std::map<std::string, int64_t>& sizes, uint64_t seed);

}  // namespace simdgen::testing
