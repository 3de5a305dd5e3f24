// SPDX-License-Identifier: Apache-2.0
// kind "contraction": the validated spec of a computation over named dims (Halide's Func with an
// RDom, MLIR's linalg.generic): for every point of the parallel dims,
//   output[out index] = epilogue(init + sum over the reduction dims of a[a index] * b[b index]).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "spec/contraction_schedule.h"
#include "spec/extent.h"

namespace simdgen {

struct ContractionDim {
  std::string name;  // the user's name (messages and comments only: never a C identifier)
  Extent extent;
  bool reduction = false;
};

// One tensor dimension's index: constant + sum of coef * dim ("y + rz", "2*x + ry").
struct AffineIndex {
  struct Term {
    int dim = 0;  // position in ContractionSpec::dims
    int64_t coef = 1;
  };
  std::vector<Term> terms;  // one per dim at most, in the order written
  int64_t constant = 0;
  std::string text;  // as the spec wrote it
  // The dim when the index is exactly one dim with coefficient 1 and no constant, else -1.
  int plainDim() const { return terms.size() == 1 && terms[0].coef == 1 && constant == 0 ? terms[0].dim : -1; }
  bool uses(int dim) const {
    for (const Term& t : terms)
      if (t.dim == dim) return true;
    return false;
  }
};

// A tensor of the contraction: its name (the user's, printed in the header only) and, per
// dimension (outermost first), its index and stride in elements. Unset strides are dense
// row-major over the extents the indices span.
struct ContractionTensor {
  std::string name;
  std::string pointer;  // JSON pointer of the tensor's object (for errors found while planning)
  std::vector<AffineIndex> index;
  std::vector<std::optional<Extent>> strides;  // empty = dense; else one per dimension
  // An operand with "pack": "ahead": the kernel reads a dense copy (`name`, `index` above: the
  // caller's name + "_packed", its dims reordered so that the vector dim is innermost and the
  // reduction dims come in the spec's order) which the generated <kernel>_pack_<source name>()
  // makes once, ahead of the calls (plan/pack_ahead.h). This is the caller's tensor.
  struct Source {
    std::string name;
    std::vector<AffineIndex> index;
    std::vector<std::optional<Extent>> strides;
  };
  std::optional<Source> packedFrom;
  // A copy packed ahead in blocks of packBlock elements along the vector dim (0: one dense copy):
  // [vector dim / packBlock][the other dims as above][vector dim % packBlock], the last block
  // padded with zeros, so that a register tile's vectors read whole 256-byte rows step after step
  // (oneDNN's weight blocks). Chosen by the parser (spec_parser.cpp, packAhead).
  int64_t packBlock = 0;
  // Operands only ("dtype": "bf16" in an f32 contraction): the elements are bfloat16, passed as
  // their bits (uint16_t: the upper half of the f32 they stand for), widened exactly to f32 where
  // they are read; products and sums stay f32. A copy packed ahead keeps them bf16.
  bool bf16 = false;
  // Operands of an i32 contraction only ("dtype": "i8", "u8", "i16" or "u16"): the elements are
  // stored so and widened exactly (C's conversion) where they are read; products and sums are i32,
  // wrapping. A copy packed ahead keeps them narrow.
  std::optional<DType> narrow;
  // Operands only ("padding": "zero" with "extents"): the tensor's real extent per dimension; an
  // index outside [0, extent) reads a zero (the kernel computes as over a zero-padded copy). Empty:
  // the extents the indices span, which every index stays inside.
  std::vector<Extent> extents;
  bool padded() const { return !extents.empty(); }
};

struct EpilogueStep {
  enum class Kind { relu, clamp, scale, add, div };  // the order of kEpilogueOps (spec_parser.cpp)
  Kind kind = Kind::relu;
  std::string lo, hi;      // clamp: C literals of the dtype (lo <= hi)
  std::string factor;      // scale, div: a C literal, or empty when `param` is set
  std::string param;       // scale, div: the name of a runtime scalar of the dtype (the user's)
  ContractionTensor operand;  // add: the tensor added at the output's index
};

enum class ContractionInit { zero, output, operand };

struct ContractionSpec {
  DType dtype = DType::f32;
  std::vector<ContractionDim> dims;
  std::vector<ContractionTensor> operands;  // the two multiplied tensors
  ContractionInit init = ContractionInit::zero;
  ContractionTensor initOperand;  // init "operand": a tensor indexed by parallel dims (a bias)
  ContractionTensor output;       // indexed by every parallel dim exactly once
  std::vector<EpilogueStep> epilogue;
  // Runtime stride names that are not dim extents, in order of first appearance (one parameter each).
  std::vector<std::string> strideNames;
  // "schedule": per target, the first entry that lists it (or lists no targets) applies; a target
  // no entry covers gets the default (plan/contraction_builder.cpp).
  std::vector<ContractionSchedule> schedules;
};

// Whether position p of operand t may be read outside its extent (a padded operand's position,
// except a plain dim indexed over that dim's own extent): the kernel checks those reads.
inline bool readsOutside(const ContractionSpec& c, const ContractionTensor& t, std::size_t p) {
  if (!t.padded()) return false;
  const int d = t.index[p].plainDim();
  if (d < 0) return true;
  const Extent& dim = c.dims[size_t(d)].extent;
  const Extent& own = t.extents[p];
  return !(dim.isStatic() ? own.isStatic() && *own.value >= *dim.value : !own.isStatic() && own.name == dim.name);
}

}  // namespace simdgen
