// SPDX-License-Identifier: Apache-2.0
// Integer sums of widened products in a map pass (`convert(a, i32) * convert(b, i32)` summed, or
// a widened sum `convert(a, i32)`) as the targets' dot-product instructions: vpdpbusd / sdot /
// udot / usdot add 4 byte products per i32 lane, vpmaddwd / vpdpwssd 2 i16 products. The map
// builder runs them over whole vectors of the narrow inputs and leaves the rest of the row to its
// ordinary loops, which add into the same accumulators.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "spec/spec.h"
#include "targets/target.h"

namespace simdgen {

// One operand of a dot instruction: an input's narrow elements, or a vector of ones (input -1).
struct DotOperand {
  int input = -1;
  DType type = DType::i8;  // the input's type (ones: whichever signedness the instruction wants)
};

// acc += op(first, second) per group of elements. Where the instruction's signedness does not fit
// the inputs (x86 vpdpbusd takes unsigned bytes first; Arm without usdot one signedness), the
// operand in slot `offsetSlot` has its bytes xor 0x80 (x + 128 read unsigned for an i8, x - 128
// read signed for a u8) and a second accumulator sums the other operand through the same
// instruction against ones: the sum is acc + correction * that sum, exact modulo 2^32 (oneDNN's
// compensation).
struct DotTerm {
  size_t output = 0;
  ir::OpKind op = ir::OpKind::DotI16I16;
  DotOperand first, second;
  int offsetSlot = -1;  // 0 or 1: the operand offset by 0x80 (-1: none)
  int correction = 0;   // -128 (an offset i8) or 128 (an offset u8)
};

struct DotRoute {
  int group = 0;            // elements per i32 lane per instruction: 2 (i16 pairs) or 4 (byte quads)
  std::vector<DotTerm> terms;  // one per output of the pass
  std::string instruction;  // for the plan summary
};

// The route for the pass computing `outputs` (indices into spec.mapOutputs), or nothing when an
// output is not such a sum or the target has no instruction for its operands.
std::optional<DotRoute> wideningDotRoute(const KernelSpec& spec, const std::vector<size_t>& outputs, const Target& target);

// What one copy of the dot loop's body needs from the builder: names and addresses.
struct DotStepNames {
  ir::VecType accType;                                // the accumulators' type (i32, the pass's lanes)
  std::function<std::string(int input)> input;        // an input's name, the prefix of its vectors' names
  std::function<ir::Index(int input)> address;        // where this step's elements of an input start
  std::function<std::string(const std::string& literal, ir::VecType)> constant;  // a splat's name
  std::function<std::string(size_t output)> accumulator, correction;  // this copy's accumulators
  std::string suffix;                                 // ends the names this copy declares
};

// Elements of the narrow inputs per instruction and per step: acc lanes x group.
ir::Index dotStepElements(const DotRoute& route, ir::VecType acc);
// One step: each input's elements loaded once (bytes widened to i16 for pairs), each term's
// instruction (and its correction's).
ir::Block dotStep(const DotRoute& route, const KernelSpec& spec, const DotStepNames& names);
// After the accumulators of every copy are added up: acc += correction * corr (a shift and an add).
ir::Block dotCorrection(const DotTerm& term, const std::string& acc, const std::string& corr, ir::VecType type);

}  // namespace simdgen
