// Lowers plan ops to C++ statements for one target: intrinsics for x86 vectors, plain C for
// one-lane values. The only place that knows intrinsic names.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "ir/plan.h"
#include "targets/target.h"

namespace simdgen::emit {

struct LowerContext {
  const Target& target;
  const ir::Plan& plan;
  std::map<std::string, ir::VecType> types;  // variables seen so far
  std::vector<std::string> prelude;          // statements hoisted to the top of the variant
  std::set<std::string> instructions;        // "vpdpbusd", ... for the generated comment
  bool usesLaneMask = false;                 // needs the file-level simdgen_lanes_below helper
  bool usesTailKeepTable = false;            // needs the file-level simdgen_tail_keep table
  std::string scalarFallbackCall;            // call of the scalar variant (gather range guard)

  void hoist(const std::string& line);
};

// C++ type of a plan value: "int32_t" for scalars, "__m512i"/"__m256"/... for vectors.
std::string cppType(ir::VecType t);

// C++ statements implementing one Op statement.
std::vector<std::string> lowerOp(const ir::Stmt& s, LowerContext& cx);

}  // namespace simdgen::emit
