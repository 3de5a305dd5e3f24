// SPDX-License-Identifier: Apache-2.0
// The target names a user may type on the command line: the spec spelling ("avx2+fma", features in
// any order) or the variant suffix ("avx2_fma", as in function names and SIMDGEN_VARIANT).
#pragma once

#include <string>

#include "targets/target.h"

namespace simdgen::cli {

// Whether `typed` names target `t`.
bool namesTarget(const std::string& typed, const Target& t);
// Whether `typed` names any target simdgen knows (an ISA with any of its features).
bool knownTarget(const std::string& typed);
// Every target for messages: "scalar, avx2[+avx_vnni][+fma], avx512[+vnni], ...".
std::string validTargets();

}  // namespace simdgen::cli
