// SPDX-License-Identifier: Apache-2.0
// `simdgen list`: what this simdgen supports, from the registries (targets, families, dtypes).
#pragma once

namespace simdgen::cli {

int runList(bool json);

}  // namespace simdgen::cli
