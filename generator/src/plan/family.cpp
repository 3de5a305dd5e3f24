// SPDX-License-Identifier: Apache-2.0
#include "plan/family.h"

#include <stdexcept>

#include "plan/arg_reduce_builder.h"
#include "plan/contraction_builder.h"
#include "plan/map_builder.h"
#include "plan/reduce_builder.h"
#include "plan/transpose_builder.h"

namespace simdgen {

namespace {

constexpr std::string_view kReduceOps[] = {"add", "mul", "min", "max", "and", "or", "xor"};
constexpr std::string_view kArgReduceOps[] = {"argmin", "argmax"};
constexpr std::string_view kMapOps[] = {"+",  "-",  "*",  "/",      "fma",    "min",  "max",   "clamp", "relu",  "abs",   "select", "convert",
                                        "&",  "|",  "^",  "~",      "<<",     ">>",   "sqrt",  "floor", "ceil",  "trunc", "nearest",
                                        "exp",  "exp2", "expm1", "log", "log2", "log1p", "recip", "rsqrt", "sin", "cos", "sigmoid", "tanh",
                                        "erf",  "gelu", "gelu_tanh"};
constexpr std::string_view kTransposeOps[] = {"transpose"};
constexpr std::string_view kContractionOps[] = {"contraction"};

constexpr Family kFamilies[] = {
    {KernelKind::reduce, "reduce", "row and column reductions (strategies inner_parallel, inner_reduction, vector_accumulator)",
     kReduceOps, &buildReducePlan},
    {KernelKind::arg_reduce, "arg_reduce", "the extreme of each row and its first or last index", kArgReduceOps,
     &buildArgReducePlan},
    {KernelKind::map, "map", "element-wise expressions over 1-D and 2-D arrays (tails predicated or scalar)", kMapOps,
     &buildMapPlan},
    {KernelKind::transpose, "transpose", "output[c, r] = input[r, c]: shuffle-network tiles, each matrix with its own row stride",
     kTransposeOps, &buildTransposePlan},
    {KernelKind::contraction, "contraction", "out = epilogue(init + sum of a * b over reduction dims): register-tiled FMA loop nests (matmul, convolution)",
     kContractionOps, &buildContractionPlan},
};

}  // namespace

const Family& familyOf(KernelKind kind) {
  for (const Family& f : kFamilies)
    if (f.kind == kind) return f;
  throw std::logic_error("no family registered for kind " + std::string(nameOf(kind)));
}

std::span<const Family> families() { return kFamilies; }

ir::Plan buildPlan(const KernelSpec& spec, const Target& target) { return familyOf(spec.kind).build(spec, target); }

}  // namespace simdgen
