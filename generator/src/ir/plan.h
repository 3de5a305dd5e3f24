// SPDX-License-Identifier: Apache-2.0
// The plan IR: a target-neutral loop nest over typed vector values.
//
// A plan is data (like LLVM's VPlan): builders in plan/ create it, print()/verify() inspect it,
// sim/ executes it on concrete data at any vector length, emit/ lowers it to C++ for one target.
// Values are named mutable variables (accumulators are reassigned inside loops); a value with
// one lane is a plain scalar. Every op's lane semantics is defined here once; the interpreter
// and the lowerings must agree with these comments.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/dtype.h"

namespace simdgen::ir {

// A value's type: `lanes` elements of `elem`. Fixed vectors have exactly `lanes` lanes (f32x16);
// scalable ones (the SVE model) have lanes * vscale, where vscale = vector bits / 128 is known only
// at run time, so `lanes` is the count per 128 bits (f32 x vscale*4). A predicate holds one
// boolean per lane of a vector of `elem` (AVX-512 k-mask, AVX2 all-ones lanes, SVE svbool_t).
struct VecType {
  DType elem = DType::i32;
  int lanes = 1;  // 1 = scalar (never scalable)
  bool scalable = false;
  bool predicate = false;
  bool operator==(const VecType&) const = default;
  int bits() const { return lanes * bitsOf(elem); }  // minimum bits (vscale = 1) when scalable
  int lanesAt(int vscale) const { return scalable ? lanes * vscale : lanes; }
  VecType mask() const { return {elem, lanes, scalable, true}; }  // the predicate for this type
  VecType data() const { return {elem, lanes, scalable, false}; }
};
// "i32x16", "i64" for scalars, "f32 x vscale*4" when scalable, "mask(f32x16)" for predicates.
std::string toString(VecType t);
VecType scalableOf(DType t);  // the SVE vector of t: 128 / bits lanes per vscale

// A sum of products of symbols with integer coefficients: "i*stride + j + 64".
// Symbols are loop variables and the kernel's runtime extents.
struct Term {
  int64_t coef = 1;
  std::vector<std::string> symbols;  // product; empty = constant
};
// The symbol `vscale` (vector bits / 128 on scalable targets) may appear in any index: loop steps and
// offsets of scalable plans are multiples of it.
inline constexpr const char* kVscale = "vscale";
struct Index {
  std::vector<Term> terms;
  static Index vscaled(int64_t lanesPerVscale) { return symbol(kVscale, lanesPerVscale); }
  // The constant value, when the index has no symbols.
  std::optional<int64_t> constantValue() const;
  static Index constant(int64_t c);
  static Index symbol(const std::string& s, int64_t coef = 1);
  Index operator+(const Index& o) const;
  Index operator+(int64_t c) const;
  Index operator-(const Index& o) const;
  Index times(const std::string& s) const;  // multiply every term by a symbol
  Index operator*(int64_t c) const;         // multiply every term by a constant
  Index simplified() const;                 // merges like terms, drops zeros, deterministic order
  std::string str() const;                  // C expression
};

enum class OpKind {
  // Tensor access. `tensor` names one of Plan::tensors (empty: the first input for loads, the first
  // output for stores). A load or store with a predicate (`pred`) touches active lanes only:
  // inactive lanes of a load take `literal` (zero when empty) and are never read, unless the load
  // is `inBounds` (every lane's element exists, so the whole vector may be read: MLIR's in_bounds).
  // A partial vector is a predicated op: a prefix of lanes is whilelt(lo, hi), a suffix
  // not(whilelt(lo, hi)); lowerings recognise these forms (x86 tails, row-end re-reads).
  Splat,         // dst = every lane `literal` (a C literal of dst.elem, or the name of a scalar
                 //   Param of that dtype: a runtime value), or with an operand, every lane args[0]
                 //   (a one-lane value of dst.elem)
  Load,          // dst lane l = pred[l] ? tensor[index + l] : literal
  LoadBroadcast, // dst = every lane tensor[index] (one element read)
  GatherRows,    // dst lane r = pred[r] ? (dst.elem) tensor[index + r*stride] : literal; with
                 //   `readAhead` >= 0 every element from index to index + (lanes + readAhead) *
                 //   stride - 1 exists and may be read (gaps included), so a lowering may load
                 //   whole structures (NEON ld2/ld3/ld4) and keep one member; with a predicate
                 //   too, the span ends after the last active lane's structure plus readAhead
                 //   lanes' (SVE's predicated svld3 reads the active lanes' structures only)
  LoadHalves,    // dst lane l = tensor[index + l] for l < lanes/2, tensor[index + stride + l - lanes/2]
                 //   above: two half-vector loads joined (x86: a 256-bit load, then vinsertf32x8 /
                 //   vinsertf128 of the other half from memory); no predicate
  Store,         // tensor[index + l] = a[l] where pred[l]; `streaming`: a non-temporal store (the
                 //   lanes bypass the caches: x86 movntps), whole vectors only, at an index whose
                 //   address is a multiple of the vector's bytes (the builder guarantees it);
                 //   a Fence after the last one orders them before the kernel returns
  ScatterRows,   // tensor[index + l * stride] = a[l] where pred[l], lane after lane in order (lanes
                 //   that meet at one element leave the highest's value); a map's strided output
  Fence,         // the streaming stores before it are visible before anything after it (x86 sfence)
  // Arithmetic. With a predicate, inactive lanes keep args[0] (merging) or are zero (`zeroing`).
  Extend,        // dst lane l = (dst.elem) a[part * dst.lanes + l]
  Binary,        // dst lane l = rop(a[l], b[l]); min/max: a < b ? a : b (b wins ties and NaN);
                 //   on predicates: and/or/xor of the lanes
  Fma,           // dst lane l = a[l] + b[l] * c[l], rounded once (a is the accumulator)
  DotBf16,       // dst (f32) lane l = a[l] + b'[2l+1] * c'[2l+1] + b'[2l] * c'[2l], in that order, where
                 //   b and c are u32 vectors of dst's lanes, each lane a pair of bf16 bits (the low
                 //   half the even element) and b', c' their values with subnormals read as zero;
                 //   two fused multiply-adds rounded to nearest even, a subnormal a read as zero
                 //   and a subnormal sum flushed (x86 vdpbf16ps: DAZ, FTZ); no predicate
  DotBf16Odd,    // dst (f32) lane l = a[l] + (b'[2l] * c'[2l] + b'[2l+1] * c'[2l+1]), the pair summed
                 //   first: Arm bfdot (BFDotAdd without FEAT_EBF16's FPCR.EBF): each product and
                 //   each addition rounded to odd (a result of 2^128 or more is an infinity),
                 //   subnormal inputs read as zero and subnormal results flushed; no predicate
  DotU8I8,       // dst (i32) lane l = a[l] + sum over h < 4 of (uint8_t)b'[4l+h] * (int8_t)c'[4l+h],
                 //   wrapping, where b and c are u32 vectors of dst's lanes holding four bytes each
                 //   (byte h = bits 8h..8h+7): unsigned bytes times signed bytes (x86 vpdpbusd); no predicate
  DotI8I8,       // the same with both operands' bytes signed (Arm sdot)
  DotU8U8,       // the same with both operands' bytes unsigned (Arm udot)
  DotI16I16,     // dst (i32) lane l = a[l] + (int16_t)b'[2l] * (int16_t)c'[2l] + (int16_t)b'[2l+1] * (int16_t)c'[2l+1],
                 //   wrapping, where b and c are u32 vectors of dst's lanes holding two 16-bit
                 //   halves each (the low one the even element): x86 vpmaddwd + vpaddd; no predicate
  Sub,           // dst lane l = a[l] - b[l]   (integers wrap; floats rounded once; no predicate)
  Neg,           // dst lane l = -a[l]   (integers: 0 - a, wrapping; floats flip the sign bit, NaN
                 //   and zeros included; no predicate)
  Div,           // dst lane l = a[l] / b[l]   (floats only, correctly rounded; no predicate)
  Abs,           // dst lane l = |a[l]|   (signed integers wrap: |MIN| = MIN; unsigned: a[l];
                 //   floats clear the sign bit: |-0.0| = +0.0, NaN stays NaN; no predicate)
  Sqrt,          // dst lane l = sqrt(a[l])   (floats; correctly rounded: IEEE, sqrt(-0.0) = -0.0, below
                 //   zero NaN; no predicate)
  Round,         // dst lane l = a[l] rounded to an integral value of its float type by `conv` (floor,
                 //   ceil, trunc, nearest: ties to even, as convert's nearest: vector instructions
                 //   encode it, scalar code calls rint in the default rounding mode); zeros keep
                 //   their sign, NaN stays NaN; no predicate
  ScaleB,        // dst lane l = a[l] * 2^b[l] for an integral float b[l] of dst's type, rounded once:
                 //   overflow gives an infinity, a result below the normal range is rounded once
                 //   through the subnormals, NaN in gives NaN (IEEE scaleB; x86 vscalefps). Floats
                 //   only, no predicate; builders emit it only where the target has the instruction
  GetExp,        // dst lane l = floor(log2 |a[l]|) as a float of dst's type, exact (subnormals too);
                 //   +-0 gives -inf, +-inf gives +inf, NaN gives NaN (x86 vgetexpps). Floats only, no
                 //   predicate; builders emit it only where the target has the instruction
  GetMant,       // dst lane l = |a[l]| / 2^floor(log2 |a[l]|), in [1, 2), exact, for a finite nonzero
                 //   a[l]; unspecified for 0, infinities and NaN, which the interpreter makes NaN
                 //   (x86 vgetmantps, interval [1, 2), sign cleared). As GetExp otherwise
  AddSat,        // dst lane l = a[l] + b[l] clamped to the element type's range (integers; no
                 //   predicate)
  SubSat,        // dst lane l = a[l] - b[l] clamped likewise (integers; no predicate)
  AvgRound,      // dst lane l = (a[l] + b[l] + 1) >> 1 computed without overflow (integers: the
                 //   mean rounded towards +infinity; no predicate)
  AbsDiff,       // dst lane l = |a[l] - b[l]|: integers exact, modulo 2^bits (the same as
                 //   a > b ? a - b : b - a, wrapping); floats |a - b| (the difference rounded
                 //   once, its sign cleared); no predicate
  Popcount,      // dst lane l = the number of set bits of a[l] (integers: 0..bits; no predicate)
  ShiftLeft,     // dst lane l = a[l] << part   (integers; 0 < part < bits; the bits shifted out
                 //   are dropped: wraps, never undefined; no predicate)
  ShiftRight,    // dst lane l = a[l] >> part   (integers; 0 < part < bits; arithmetic for signed
                 //   element types, logical for unsigned; no predicate)
  Select,        // dst lane l = p[l] ? a[l] : b[l]      (args: p, a, b)
  DotAccumulate, // dst lane l = a[l] + sum_{t<group} (dst.elem) b[l*group + t]   (rop == add)
  ReduceLanes,   // dst (scalar) = fold(a): while lanes > 1: a = rop(lower half, upper half);
                 //   with `pairwise`, adjacent lanes instead: a[l] = rop(a[2l], a[2l + 1]) (the
                 //   tree of Arm's across-vector faddv and faddp); with a predicate, inactive
                 //   lanes count as the identity of rop
  ReduceRows,    // dst lane r = fold(args[perm[r]]) through `network` (see FoldNetwork)
  Convert,       // dst lane l = (dst.elem) a[l]  (same lane count) by `conv`: plain and wrap are C
                 //   casts (integer narrowing wraps, to floats rounds to nearest even); sat clamps
                 //   an integer to dst's range; trunc/nearest/floor/ceil round a float to an
                 //   integer, out of range saturating to dst's min/max and NaN giving 0
  Bitcast,       // dst lane l = the bits of a[l] read as dst.elem (same width and lane count: bf16
                 //   widened to u32 and shifted left 16 is the f32 it stands for; no predicate)
  Shuffle,       // dst lane l = concat(args)[shuffle.laneMap(dst lanes)[l]]  (see Shuffle)
  // Predicates (dst.predicate).
  WhileLt,       // dst lane l = lo + l < hi   (svwhilelt; the first hi - lo lanes)
  Compare,       // dst lane l = a[l] <cmp> b[l]   (floats: false when either is NaN, except ne)
  Not,           // dst lane l = !a[l]
  // Scalars.
  NaNMask,       // dst (integer lanes of a's width) lane l = a[l] is NaN ? all ones : 0
  LocateEqual,   // dst (i64 scalar) = the first (part 0) or last (part 1) c in [lo, hi) with
                 //   tensor[index + c] == a, or -1 (NaN never equals; -0.0 equals +0.0)
  LocateNaN,     // dst (i64 scalar) = the first c in [lo, hi) with tensor[index + c] a NaN, or -1
  SetIndex,      // dst (i64 scalar) = index (a position, e.g. a block's bounds)
};
std::string_view nameOf(OpKind k);  // "load", "fma", ...

// Comparison of two one-lane values, for IfValues, and lane-wise for Compare.
enum class Cmp { lt, le, gt, ge, eq, ne };
std::string_view symbolOf(Cmp c);  // "<", "<=", ...

// A lane permutation: the result lane l takes lane map[l] of the concatenated sources. The map is
// a function of the lane count so that one shuffle describes every vector length (SVE zip/trn);
// named kinds are the instructions lowerings spell, `explicit_map` is MLIR's vector.shuffle. See
// ir/shuffle.h for the constructors and the lane maps.
struct Shuffle {
  enum class Kind {
    explicit_map,  // `map` as given (fixed lane counts only)
    unpack_lo,     // per 128-bit segment: interleave the low halves of a and b at `unitBits`
    unpack_hi,     //   (x86 unpacklo/hi_epi32/epi64/ps/pd)
    shuffle_ps,    // per 128-bit segment: 2 units of a then 2 of b chosen by `imm` (x86 shufps)
    lanes128,      // 128-bit blocks: two from a then two from b chosen by `imm` (shuffle_i32x4);
                   //   on 256-bit vectors one from each, like permute2x128 (imm 0x20 / 0x31)
    concat_halves, // low or high (imm 0 / 1) half of a, then the same half of b (insert of a half)
    zip1, zip2,    // Arm: interleave the low / high halves of a and b at `unitBits` (whole vector)
    uzp1, uzp2,    // Arm: even / odd units of concat(a, b)
    trn1, trn2,    // Arm: even / odd units of a and b, alternating
  };
  Kind kind = Kind::explicit_map;
  int unitBits = 0;  // the element width the instruction moves (0: the value's element width)
  int imm = 0;
  std::vector<int> map;
  // The lane map for a result of `lanes` lanes of `elemBits` bits (sources have the same type).
  std::vector<int> laneMap(int lanes, int elemBits) const;
  std::string str() const;  // "unpack_lo.64", "lanes128 0x88", "explicit [0 16 1 17 ...]"
};

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
  // Pairwise: every stage is rop(uzp1(a, b), uzp2(a, b)), adjacent lanes folded (NEON addp,
  // smaxp: one instruction per pair), instead of the x86 shapes below.
  bool pairwise = false;
  static FoldNetwork make(int lanes, int elemBits, bool pairwise = false);
  // Stage k as a composition: rop(lower(a, b), upper(a, b)) lane-wise, where lower and upper are
  // the named shuffles returned here (shuffle_i32x4 0x44/0xEE or 0x88/0xDD, permute2x128
  // 0x20/0x31, unpacklo/hi_epi64, shuffle_ps 0x88/0xDD). The interpreter, the lane simulator and
  // the x86 lowering all run these.
  std::pair<Shuffle, Shuffle> stage(size_t k) const;
};

struct Stmt;
using Block = std::vector<Stmt>;

struct Stmt {
  enum class Kind { Op, For, If, IfValues, Let, Comment };
  Kind kind = Kind::Op;

  // Op
  OpKind op = OpKind::Splat;
  std::string dst;                // variable assigned (empty for Store)
  bool declare = false;           // first assignment declares the variable
  VecType type;                   // dst type (Store: the stored value's type)
  std::vector<std::string> args;  // operand variables
  ReduceOp rop = ReduceOp::add;
  std::string tensor;             // Load*/Gather/Store/Locate*: which tensor (see OpKind)
  std::string pred;               // predicate variable governing the op (empty: all lanes)
  bool zeroing = false;           // predicated arithmetic: inactive lanes 0 instead of args[0]
  bool inBounds = false;          // predicated Load: inactive lanes may be read (see OpKind)
  // One-lane Load of a type wider than the tensor's: the consecutive elements at index that fill
  // it, as one little-endian value (four adjacent u8 as one u32); no predicate.
  bool packedElements = false;
  // WhileLt: the builder guarantees 0 < hi - lo < lanes (a tail, neither empty nor full), so
  // lowerings need not clamp the count; the interpreter checks the promise.
  bool partialOnly = false;
  bool streaming = false;         // Store: non-temporal (see OpKind::Store)
  bool pairwise = false;          // ReduceLanes: fold adjacent lanes first (see OpKind::ReduceLanes)
  int readAhead = -1;             // GatherRows: lanes past the last whose span may be read (see OpKind)
  Index index;                    // Load*/Gather/Store element offset
  // GatherRows, ScatterRows: elements between lanes, over the kernel's parameters and constants only (no
  // loop variable or let: lowerings hoist the lane offsets to the top of the variant).
  Index stride;
  std::string literal;            // Splat value, predicated Load/GatherRows fill
  int part = 0;                   // Extend; ShiftLeft/ShiftRight: the count
  ConvMode conv = ConvMode::plain;  // Convert; Round: the direction
  // Convert, float to integer (x86 k-mask targets): the value saturates to this narrower integer
  // type's range instead of the result type's (a NaN lane is any value whose low bits of that
  // width are 0), and the next step narrows it wrapping: one clamp in the float domain where the
  // result type's saturation took compares and blends.
  std::optional<DType> saturateTo;
  int group = 1;                  // DotAccumulate
  FoldNetwork network;            // ReduceRows
  Shuffle shuffle;                // Shuffle

  // For: `var` runs from lo while var + step <= hi (step > 0), var += step; with `coversTail` it
  // runs while var < hi, so the last iteration may be partial and its ops must be predicated (the
  // SVE loop of seed 001). `var` is declared by the loop unless `continues` (then it keeps running
  // from its current value, like a cleanup loop after a main loop). After the loop var holds the
  // first index not processed (with coversTail: the first multiple of step at or past hi).
  // If: body runs when cmpLhs <cmp> cmpRhs (indices). IfValues: body runs when args[0] <cmp> args[1] (scalars).
  // Let: declares the loop variable `var` = lo (with `letMin`: min(lo, hi)), for loops that continue
  // it (inside an If, say) or as a loop bound (a block's end clamped to the matrix).
  // WhileLt uses lo and hi.
  std::string var;
  bool continues = false;
  bool coversTail = false;
  bool letMin = false;
  bool letMax = false;            // Let: var = max(lo, hi)
  // Let: the value hidden from the C compiler's optimiser (simdgen_opaque): address arithmetic
  // that uses it is recomputed where it is used instead of hoisted out of the loops (GCC hoists
  // a tile's 16 row offsets and spills them; docs/design.md, the transpose builder).
  bool opaque = false;
  // Let with alignBytes > 0: var = 1 when the address of element `lo` of `tensor` is a multiple of
  // alignBytes, else 0 (the interpreter places every tensor's element 0 at such an address).
  int alignBytes = 0;
  // Let with cpuTrait set: var = lo on a CPU with that trait, else hi. Traits: "is_amd" (an AMD CPU:
  // the transpose's streamed blocks measure best on its caches) and "splits_512" (512-bit
  // operations run as two halves, AMD Zen 4: the in-place transpose's narrower tiles). The
  // interpreter and the simplifier take neither for granted: the interpreter runs hi.
  std::string cpuTrait;
  // Let with roundDownTo > 0: var = lo rounded down to a multiple of roundDownTo (lo >= 0): the
  // end of a matrix's whole tiles.
  int64_t roundDownTo = 0;
  Index lo, hi, cmpLhs, cmpRhs;
  Index step = Index::constant(1);
  Block body;

  Cmp cmp = Cmp::lt;
  std::string text;  // Comment (and an optional note on loops)
};

// Convenience constructors used by builders and tests.
Stmt comment(std::string text);
Stmt forLoop(std::string var, Index lo, Index hi, int64_t step, Block body, bool continues = false,
             std::string note = "");
Stmt forLoop(std::string var, Index lo, Index hi, Index step, Block body, bool continues = false,
             std::string note = "");
Stmt ifLess(Index lhs, Index rhs, Block body, std::string note = "");
Stmt ifIndex(Index lhs, Cmp cmp, Index rhs, Block body, std::string note = "");
bool holds(Cmp cmp, int64_t a, int64_t b);  // a <cmp> b
Stmt letIndex(std::string var, Index value);
Stmt letMin(std::string var, Index a, Index b);  // var = min(a, b)
Stmt letMax(std::string var, Index a, Index b);  // var = max(a, b)
Stmt letOpaque(std::string var, Index value);    // var = value, hidden from the C optimiser
Stmt letAligned(std::string var, std::string tensor, Index element, int bytes);  // var = 1 if aligned, else 0
Stmt letByCpu(std::string var, std::string trait, Index withTrait, Index otherwise);  // see Stmt::cpuTrait
Stmt letRoundDown(std::string var, Index value, int64_t multiple);  // var = value / multiple * multiple (value >= 0)
Stmt op(OpKind k, std::string dst, VecType type, std::vector<std::string> args = {});
Stmt ifValues(std::string a, Cmp cmp, std::string b, Block body, std::string note = "");

// A tensor the kernel reads or writes: dtype, extents and strides (in elements) per dimension,
// outermost first. Extents and strides are indices over the plan's symbols.
struct Tensor {
  std::string name;  // identifier in the generated code ("input", "output", "values", ...)
  DType dtype = DType::f32;
  bool output = false;
  std::vector<Index> extents;
  std::vector<Index> strides;
  // A local array of the kernel, not a parameter (a packed panel): one static extent, read and
  // written (listed after the real outputs, so "" still names the first of those); the emitter
  // declares it 64-byte aligned, the interpreter fills it with NaN bytes before the run.
  bool scratch = false;
  // block > 0: the last dimension runs in blocks of `block` elements, blockStride apart, the
  // strides above laying out one block (a contraction's operand packed ahead): element
  // (..., c) sits at c % block + c / block * blockStride + the other dimensions' terms.
  int64_t block = 0;
  Index blockStride{};
};

// One parameter of the kernel's signature, in order. The generated .cpp uses `name`, owned by
// the generator; the header declares `publicName`, the user's (a spec's runtime extent). The two
// never meet, so no user name can capture or shadow a generated one (hygiene by construction).
struct Param {
  // scalar: a runtime value of `dtype` passed by value (map's "params"), read by splats.
  enum class Kind { tensor, extent, scalar };
  Kind kind = Kind::extent;
  std::string name;
  std::string publicName;
  std::string tensor;  // Kind::tensor: which Plan::tensors entry
  std::string doc;     // one line of API documentation, in public names
  DType dtype = DType::i64;  // Kind::scalar: its type
};

// A public function the kernel's files carry beside the kernel (contraction's pack functions,
// plan/pack_ahead.h): its header documentation and declaration in public names, and its
// definition in the .cpp's own names (one statement or brace per line; the layout pass indents).
struct Companion {
  std::vector<std::string> doc;
  std::string declaration;
  std::string definition;
  std::string section;  // a comment line that opens a group of companions in the .cpp ("" = none)
};

struct Plan {
  std::string kernel;      // spec name
  std::string family;      // "reduce", "arg_reduce", ...
  std::string strategy;    // the resolved strategy ("vector_accumulator", ...)
  std::string target;      // "avx512+vnni", "scalar", "generic512" ...
  int vectorBits = 0;      // 0 for scalar; the minimum (128) when scalable
  bool scalable = false;   // vector lengths are multiples of vscale (one plan for every length)
  std::vector<Tensor> tensors;
  std::vector<Param> params;  // signature order
  ReduceOp rop = ReduceOp::add;  // the kernel's reduction (decides how one-lane integers are carried)
  // Static extents are bound as constants, so plans read the same either way.
  std::vector<std::pair<std::string, int64_t>> constants;
  std::vector<std::string> summary;  // human-readable decisions: strategy, why, instructions
  std::vector<std::string> apiDoc;   // the header's documentation of the kernel (public names)
  std::vector<Companion> companions;  // public functions beside the kernel, target-independent
  std::string overview;              // one line for the generated plan summary ("" = none)
  // The C compiler's own loop vectorizer stays off for the file (GCC only): GCC 12 -O2 turns the
  // grouped scalar loads of a one-lane register tile into vector loads that read past the last
  // row of an operand (a crash at a guard page, found by the contraction exec tests).
  bool noCompilerLoopVectorizer = false;
  // GCC's loop header copying stays off for the file (GCC only): on register tiles of dot-product
  // instructions (vpdpbusd, sdot: the accumulator is both source and destination) GCC 12 -O2
  // otherwise copies every accumulator twice per step and spills some when the loop's trip count
  // is known (a static reduction: the quantized seed convolution ran at half its speed).
  bool noLoopHeaderCopies = false;
  // The dispatcher passes over this (512-bit) variant on CPUs that run 512-bit operations as two
  // 256-bit halves (AMD Zen 4, family 19h: a 512-bit store takes two cycles, a lane-crossing
  // 512-bit shuffle one, where 256-bit ones issue two per cycle) and takes the next one it runs:
  // set by builders for work bound by shuffles and stores in L1, where the 256-bit variant
  // measures faster on those CPUs. Forcing the variant (SIMDGEN_VARIANT) still picks it.
  bool yieldsOnSplit512 = false;
  // What the kernel computes beyond its tensors, as the family defines it ("op" = "add", "axis",
  // "index" = "last", ...): read by the test driver's references through `explain --json`.
  std::vector<std::pair<std::string, std::string>> semantics;
  Block body;

  const Tensor& tensor(const std::string& name) const;  // "" = the first input
  const Tensor& outputTensor(const std::string& name) const;  // "" = the first output
  std::vector<std::string> runtimeSymbols() const;  // extent parameters, in signature order

  std::string print() const;
  // Returns problems found (empty = valid): undefined or redeclared variables, type mismatches,
  // lane-count rules per op, loop steps, counts on ops that need them.
  std::vector<std::string> verify() const;
};

}  // namespace simdgen::ir
