// SPDX-License-Identifier: Apache-2.0
// PEER(name) is name_<PEER_SUFFIX>: each build of a plain-loop peer file (one per
// compiler and flag set, see simdgen_plain_peer in CMakeLists.txt) defines its
// functions under distinct symbols, so every build links into one binary.
#pragma once

#ifndef PEER_SUFFIX
#error "compile with -DPEER_SUFFIX=<build name>"
#endif
#define SIMDGEN_CAT2(a, b) a##_##b
#define SIMDGEN_CAT(a, b) SIMDGEN_CAT2(a, b)
#define PEER(name) SIMDGEN_CAT(name, PEER_SUFFIX)
