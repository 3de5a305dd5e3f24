// SPDX-License-Identifier: Apache-2.0
#pragma once
// The value of a loop-carried variable after one iteration, as a small expression tree over the
// loop's element load, its induction variable and the carried variables' old values. Built from
// the Clang AST (loop_model.cpp), read without Clang (recognize.cpp), so no clang headers here.
#include <memory>
#include <string>
#include <vector>

namespace simdgen::lift {

// A C scalar type as the spec sees it: "i8".."u64", "f32", "f64"; `spelling` is the source's
// name for it (int, int64_t, size_t, ...), used when the rewrite declares or casts.
struct ScalarType {
  std::string dtype;  // empty: not a type a spec can hold (bool, plain char, long double, ...)
  std::string spelling;
  unsigned bits = 0;
  bool isSigned = false, isFloat = false;
  bool plainChar = false;  // C's `char`, signed or not as the target says: only copied, never computed with
  bool operator==(const ScalarType& o) const { return dtype == o.dtype; }
};

// Every value of `from` is a value of `to` (int8 -> int, uint8 -> int, float -> double).
bool preservesValues(const ScalarType& from, const ScalarType& to);

// The C math functions (by their map-expression names) the kernels compute within a ULP bound
// rather than bit for bit as libm (docs/math.md); C's versions set errno on range or domain errors.
inline bool approximateMathFunction(const std::string& name) {
  return name == "exp" || name == "exp2" || name == "expm1" || name == "log" || name == "log2" || name == "log1p" ||
         name == "tanh" || name == "erf" || name == "sin" || name == "cos";
}

struct Sym;
using SymPtr = std::shared_ptr<const Sym>;

struct Sym {
  enum class Kind {
    load,       // base[i + offset]: the element of this iteration
    induction,  // the loop counter (`name`)
    carried,    // a carried variable's value before this iteration (`name`)
    invariant,  // a value the loop does not change (`name`: its source text)
    constant,   // a literal (`name`: its source text)
    cast,       // conversion of args[0] to `type`
    binary,     // args[0] op args[1], op one of + - * / % & | ^ << >> && ||
    compare,    // args[0] op args[1], op one of < <= > >= == !=
    logical_not,
    select,     // args[0] ? args[1] : args[2]
    fmax,       // fmax/fmaxf/fmin/fminf (op "fmax" or "fmin"): NaN operands are ignored
    negate,     // -args[0]
    bit_not,    // ~args[0]
    fma,        // fma/fmaf: args[0] * args[1] + args[2], rounded once
    math,       // sqrt/floor/ceil/trunc/rint (op: the map family's name: sqrt, floor, ceil, trunc,
                //   nearest) of args[0], in the call's float type; or op "popcount": the set bits of
                //   args[0] (an unsigned integer: the builtin's parameter type), as the call's int
  };
  Kind kind;
  ScalarType type;
  std::string op;    // binary, compare, fmax; load: the loop counter's name (for remarks)
  std::string name;  // carried, invariant, constant; load: the base's source text
  long long offset = 0;  // load
  std::vector<SymPtr> args;
  std::string stride;  // load: empty for base[i + offset], else base[i * stride + offset]
  bool uninitialized = false;  // the value of a variable declared without one, or built from it
  const void* origin = nullptr;  // load: the clang::Expr it reads (the clang side's row-wise analysis)
};

SymPtr makeSym(Sym s);
bool sameSym(const SymPtr& a, const SymPtr& b);
// Peels conversions: the value the casts start from.
const Sym& stripCasts(const Sym& s);
// Whether s has a node of `kind` (named `name`, when given) anywhere in it.
bool uses(const Sym& s, Sym::Kind kind, const std::string& name = "");
// Whether s is the old value of carried variable `name`, converted or not.
bool isCarried(const Sym& s, const std::string& name);
// A readable rendering for remarks: (acc + (int)a[i]).
std::string render(const Sym& s);
// Each conversion on the way from the element to `s` keeps every value (no narrowing, no
// signed -> unsigned reinterpretation).
bool chainPreservesValues(const Sym& s);
// a rel b <=> b flipRelation(rel) a; !(a rel b) <=> a negateRelation(rel) b (for integers).
std::string flipRelation(const std::string& rel);
std::string negateRelation(const std::string& rel);
// A select with the `!`s peeled off its condition (the branches swapped for each) and a
// comparison's 0/1 converted to bool or int (C's `bool b = x > m;`) read as the comparison.
struct Select {
  const Sym* cond;
  const Sym* ifTrue;
  const Sym* ifFalse;
};
Select normalizedSelect(const Sym& s);

}  // namespace simdgen::lift
