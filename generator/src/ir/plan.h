// The plan IR: a target-neutral loop nest over typed vector values.
//
// A plan is data (like LLVM's VPlan): builders in plan/ create it, print()/verify() inspect it,
// sim/ executes it on concrete data at any vector length, emit/ lowers it to C++ for one target.
// Values are named mutable variables (accumulators are reassigned inside loops); a value with
// one lane is a plain scalar. Every op's lane semantics is defined here once; the interpreter
// and the lowerings must agree with these comments.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype.h"

namespace simdgen::ir {

struct VecType {
  DType elem = DType::i32;
  int lanes = 1;  // 1 = scalar
  bool operator==(const VecType&) const = default;
  int bits() const { return lanes * bitsOf(elem); }
};
std::string toString(VecType t);  // "i32x16", "i64" for scalars

// A sum of products of symbols with integer coefficients: "i*stride + j + 64".
// Symbols are loop variables and the kernel's runtime extents.
struct Term {
  int64_t coef = 1;
  std::vector<std::string> symbols;  // product; empty = constant
};
struct Index {
  std::vector<Term> terms;
  static Index constant(int64_t c);
  static Index symbol(const std::string& s, int64_t coef = 1);
  Index operator+(const Index& o) const;
  Index operator+(int64_t c) const;
  Index operator-(const Index& o) const;
  Index times(const std::string& s) const;  // multiply every term by a symbol
  Index simplified() const;                 // merges like terms, drops zeros, deterministic order
  std::string str() const;                  // C expression
};

enum class OpKind {
  Splat,         // dst = every lane `literal` (a C literal of dst.elem)
  Load,          // dst = input[index + l] for l < lanes
  LoadPartial,   // dst lane l = l < count ? input[index + l] : literal      (0 < count < lanes)
  LoadRowEnd,    // dst lane l = l >= lanes - count ? input[index + count - lanes + l] : literal
                 //   (0 < count < lanes): the whole vector ending at index + count is read, so the
                 //   builder only uses it where that vector lies inside the row
  GatherRows,    // dst lane r = r < count ? (dst.elem) input[index + r*rowStride] : literal
                 //   (count == lanes when `count` is empty). rowStride = the symbol "stride".
  Extend,        // dst lane l = (dst.elem) a[part * dst.lanes + l]
  Binary,        // dst lane l = rop(a[l], b[l]); min/max: a < b ? a : b (b wins ties and NaN)
  DotAccumulate, // dst lane l = a[l] + sum_{t<group} (dst.elem) b[l*group + t]   (rop == add)
  ReduceLanes,   // dst (scalar) = fold(a): while lanes > 1: a = rop(lower half, upper half)
  ReduceRows,    // dst lane r = fold(args[perm[r]]) through `network` (see FoldNetwork)
  Convert,       // dst lane l = (dst.elem) a[l]  (same lane count; integer narrowing wraps)
  Store,         // <out>[index + l] = a[l] for l < (count empty ? lanes : count); <out> = `var`
                 //   (empty: "output"), one of Plan::outputs
  NaNMask,       // dst (integer lanes of a's width) lane l = a[l] is NaN ? all ones : 0
  LocateEqual,   // dst (i64 scalar) = the first (part 0) or last (part 1) c in [lo, hi) with
                 //   input[index + c] == a, or -1 (NaN never equals; -0.0 equals +0.0)
  LocateNaN,     // dst (i64 scalar) = the first c in [lo, hi) with input[index + c] a NaN, or -1
  SetIndex,      // dst (i64 scalar) = index (a position, e.g. a block's bounds)
};

// Comparison of two one-lane values, for IfValues.
enum class Cmp { lt, le, gt, ge, eq, ne };
std::string_view symbolOf(Cmp c);  // "<", "<=", ...

// The multi-row final reduction ("8x16 -> 8"): lanes vectors of lanes elements, folded pairwise
// in log2(lanes) stages. Stage s halves the block size B (lanes) starting at B = lanes. For a pair
// (a, b) each segment (the whole vector while B spans more than 128 bits, otherwise each 128-bit
// lane) of the result is concat(foldBlocks(a.segment, B), foldBlocks(b.segment, B)), where
// foldBlocks folds each B-lane block to B/2 lanes as rop(lower half, upper half). This is what
// shuffle_i32x4 (0x44/0xEE, 0x88/0xDD), permute2x128, unpack*_epi64 and shuffle_ps(0x88/0xDD)
// compute on x86, so the interpreter and the generated code reassociate identically.
struct FoldNetwork {
  int lanes = 0;       // vectors in = lanes per vector
  int elemBits = 32;
  std::vector<int> blockLanes;  // B per stage
  // inputOrder[r] = which row feeds input vector r, chosen so that result lane r holds row r.
  std::vector<int> inputOrder;
  static FoldNetwork make(int lanes, int elemBits);
};

struct Stmt;
using Block = std::vector<Stmt>;

struct Stmt {
  enum class Kind { Op, For, If, IfValues, Comment };
  Kind kind = Kind::Op;

  // Op
  OpKind op = OpKind::Splat;
  std::string dst;                // variable assigned (empty for Store)
  bool declare = false;           // first assignment declares the variable
  VecType type;                   // dst type (Store: the stored value's type)
  std::vector<std::string> args;  // operand variables
  ReduceOp rop = ReduceOp::add;
  Index index;                    // Load*/Gather/Store element offset
  Index count;                    // LoadPartial/GatherRows/Store lane count (empty = all lanes)
  std::string literal;            // Splat value, LoadPartial/GatherRows fill
  int part = 0;                   // Extend
  int group = 1;                  // DotAccumulate
  FoldNetwork network;            // ReduceRows

  // For: `var` runs from lo while var + step <= hi (step > 0), var += step. `var` is declared by
  // the loop unless `continues` (then it keeps running from its current value, like a cleanup
  // loop after a main loop). After the loop var holds the first index not processed.
  // If: body runs when cmpLhs < cmpRhs. IfValues: body runs when args[0] <cmp> args[1] (scalars).
  std::string var;
  bool continues = false;
  Index lo, hi, cmpLhs, cmpRhs;
  int64_t step = 1;
  Block body;

  Cmp cmp = Cmp::lt;
  std::string text;  // Comment (and an optional note on loops)
};

// Convenience constructors used by builders and tests.
Stmt comment(std::string text);
Stmt forLoop(std::string var, Index lo, Index hi, int64_t step, Block body, bool continues = false,
             std::string note = "");
Stmt ifLess(Index lhs, Index rhs, Block body, std::string note = "");
Stmt op(OpKind k, std::string dst, VecType type, std::vector<std::string> args = {});
Stmt ifValues(std::string a, Cmp cmp, std::string b, Block body, std::string note = "");

// Kernel-level information shared by all targets.
struct Param {
  std::string name;  // runtime extent or stride
};

struct Plan {
  std::string kernel;      // spec name
  std::string target;      // "avx512+vnni", "scalar", "generic512" ...
  int vectorBits = 0;      // 0 for scalar
  DType input = DType::i8, output = DType::i32;
  // Named output arrays; empty means one array "output" of type `output`.
  std::vector<std::pair<std::string, DType>> outputs;
  DType outputType(const std::string& name) const;
  ReduceOp rop = ReduceOp::add;
  std::string rowStride;  // the symbol GatherRows steps by (elements between row starts)
  std::vector<std::string> symbols;  // runtime parameters in signature order ("rows", "cols", "stride")
  // Static extents are bound as symbols too, so plans read the same either way.
  std::vector<std::pair<std::string, int64_t>> constants;
  std::vector<std::string> summary;  // human-readable decisions: strategy, why, instructions
  std::vector<std::string> usedInstructions;  // filled by the target lowering (emit)
  Block body;

  std::string print() const;
  // Returns problems found (empty = valid): undefined or redeclared variables, type mismatches,
  // lane-count rules per op, loop steps, counts on ops that need them.
  std::vector<std::string> verify() const;
};

}  // namespace simdgen::ir
