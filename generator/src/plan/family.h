// SPDX-License-Identifier: Apache-2.0
// Kernel families behind one interface, chosen by a registry: the emitter and the CLI build plans
// through here and know no family by name. A new family adds one registry line.
#pragma once

#include <span>
#include <string_view>

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

struct Family {
  KernelKind kind;
  std::string_view name;  // the spec's "kind"
  std::string_view summary;
  std::span<const std::string_view> ops;  // the spec's "op" values
  // The plan for one target: body, tensors, parameters (signature), API docs, resolved strategy.
  ir::Plan (*build)(const KernelSpec& spec, const Target& target);
};

const Family& familyOf(KernelKind kind);
std::span<const Family> families();

// The plan of `spec` for `target`, by its family.
ir::Plan buildPlan(const KernelSpec& spec, const Target& target);

}  // namespace simdgen
