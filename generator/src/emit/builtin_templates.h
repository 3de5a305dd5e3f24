// SPDX-License-Identifier: Apache-2.0
// The templates compiled into simdgen (from templates/ at build time, by
// cmake/embed_templates.cmake): the binary works without the source tree or an install prefix.
#pragma once

#include "emit/emitter.h"

namespace simdgen::emit {

Templates builtinTemplates();

}  // namespace simdgen::emit
