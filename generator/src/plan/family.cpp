#include "plan/family.h"

#include <stdexcept>

#include "plan/arg_reduce_builder.h"
#include "plan/reduce_builder.h"

namespace simdgen {

namespace {

constexpr Family kFamilies[] = {
    {KernelKind::reduce, "reduce", &buildReducePlan},
    {KernelKind::arg_reduce, "arg_reduce", &buildArgReducePlan},
};

}  // namespace

const Family& familyOf(KernelKind kind) {
  for (const Family& f : kFamilies)
    if (f.kind == kind) return f;
  throw std::logic_error("no family registered for kind " + std::string(nameOf(kind)));
}

ir::Plan buildPlan(const KernelSpec& spec, const Target& target) { return familyOf(spec.kind).build(spec, target); }

}  // namespace simdgen
