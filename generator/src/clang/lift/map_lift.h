// SPDX-License-Identifier: Apache-2.0
#pragma once
// Element-wise loops (`out[i] = expr(a[i], b[i], scalars)`) as `map` specs: the expression in the
// map family's syntax with every C conversion written out, and the call that replaces the loop.
// No clang headers.
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "clang/lift/loop_model.h"

namespace simdgen::lift {

struct MapLift {
  struct Array {
    std::string name;  // in the spec and the kernel's signature
    std::string base;  // as written in the loop
    long long offset = 0;
    ScalarType type;
    std::string expr, inPlace;  // outputs only
    // An output in place of an input of another pointer at the same position and stride (libpng's
    // `*dp = 255 - *sp` after `sp = dp = row`): that input's base. The call is made when the two
    // are the same address or the arrays apart.
    std::string inPlaceBase;
    const void* origin = nullptr;  // inputs: the first clang::Expr that reads it (Sym::origin)
    bool plainChar = false;  // C's `char`, copied as u8 lanes: the call casts its pointer
    long long stride = 1;    // elements between consecutive elements read or written (`x[2 * i]`)
    // read or written at a runtime stride (`x[i * incx]`, 1-D loops): its name in the spec and
    // the kernel's signature, and its value as the loop reads it (`stride` is then 0)
    std::string strideName, strideText;
  };
  std::vector<Array> inputs, outputs;
  struct Param {
    std::string name;  // in the spec and the kernel's signature
    std::string text;  // the value, as the loop reads it: a variable, or an element the loop does not change
    ScalarType type;
  };
  std::vector<Param> params;  // scalars the loop reads
  // Values an element-wise output stores (MapStore::value), written as that output's name when a
  // later expression reads them (`sum += x[i]` after `x[i] = exp(...)`: `y` rather than its exp).
  std::vector<std::pair<const Sym*, std::string>> named;
  std::string summary;                                      // "map i16 -> f32 (2 inputs, 1 output)"
  bool fused = false;  // an fma(): AVX2 only with FMA3 (the spec's targets say avx2+fma)
  // Inputs may be read at a constant stride (`ft[2 * i - 1]`, the spec's input `stride`): only
  // where the call's pointers are mapPointer's (1-D loops; rows compute their own).
  bool stridedInputs = false;
  // ... and at a runtime stride (`x[i * incx]`, outputs too: the spec's runtime stride, passed
  // after n by the caller, which tests it: not negative, and at least 1 for an output).
  bool runtimeStrides = false;
  int maxUlp = 0;      // > 0: the expression calls exp, log, ... (the spec's max_ulp)
  // sqrt calls that set errno when their argument is below zero (MapModel::domainErrors): one
  // reduction output each, the maximum of `select(arg < 0, 1, 0)`, after the element-wise ones;
  // the rewrite sets errno = EDOM when any is 1.
  struct DomainCheck {
    std::string name, dtype, expr;
  };
  std::vector<DomainCheck> domainChecks;
};

// `mathUlp`: the accuracy the user accepts for exp, log, tanh, ... (--math-ulp: 1 or 4; 0: none,
// so a loop calling them stays, as the kernels' results are not libm's bit for bit).
std::variant<MapLift, std::string> recognizeMap(const MapModel& model, int mathUlp = 0, bool stridedInputs = false);
// An input of the spec: {"name", "dtype", "stride" when not 1 (a number, or a runtime name)}.
// The runtime strides' values (inputs', then outputs'), in the order of the kernel's parameters
// after n (", incx").
std::string runtimeStrideArgs(const MapLift& map);
nlohmann::ordered_json mapInputJson(const MapLift::Array& in);
std::string mapSpecJson(const MapLift& map, const std::string& name, const std::string& description);
nlohmann::ordered_json mapSpec(const MapLift& map, const std::string& name, const std::string& description);
// `value` in the map family's expression language, converted to `to` as C converts it, adding
// the arrays and scalars it reads to `map` (inputs, params); or nullopt with the reason in `why`.
std::optional<std::string> mapExpression(MapLift& map, const Sym& value, const ScalarType& to, int mathUlp, std::string& why);
// The first element an array of the loop reads or writes: base + start + offset (converted to
// the kernel's `const uint8_t*` / `uint8_t*` for C's plain `char`).
std::string mapPointer(const LoopModel& loop, const MapLift::Array& a, bool output = false);
// The run-time conditions of a call over `n` elements (a variable of the block): no output overlaps
// another array (except its own input, element for element) or a scalar the kernel takes by value.
std::vector<std::string> mapCallChecks(const MapModel& model, const MapLift& map, const std::string& n);
// Calls the kernel when no output overlaps another array (an output may be its own input, element
// for element); otherwise, and for an empty range, the block runs the original loop.
std::string mapReplacementCode(const MapModel& model, const MapLift& map, const std::string& name, const std::string& local);

}  // namespace simdgen::lift
