// SPDX-License-Identifier: Apache-2.0
#pragma once
// What lift knows about one `for` loop once its body has been evaluated symbolically: the
// trip range, and the new value of every variable the body changes. No clang headers.
#include <optional>
#include <string>
#include <vector>

#include "clang/lift/sym.h"

namespace simdgen::lift {

struct CarriedVar {
  std::string name;
  ScalarType type;
  SymPtr next;  // its value after one iteration
};

struct LoopModel {
  std::string function;
  std::string inductionName;
  ScalarType inductionType;
  std::string startText, endText;  // i runs over [start, end), or [start, end] when inclusive
  bool inclusive = false;
  std::optional<long long> tripCount;  // when start and end are compile-time constants
  std::vector<CarriedVar> carried;  // only the variables the body changes
  std::string loopText;             // the loop's source, kept by rewrites that need a fallback
  // A counter declared before the loop (`int i; for (i = 0; ...)`): what it holds after a
  // non-empty range, e.g. `i = (int)(n)`; empty when the counter is the `for`'s own.
  std::string counterFinal;
  bool secondaryCounters = false;  // variables that step with the loop (`j++`, `dp++`): final values in counterFinal
  // `for (i = hi; i >= lo; i--)`: the range [lo, hi] above, which the loop runs from its top (only
  // element-wise loops, whose order does not matter, take it).
  bool descending = false;
  // `for (i = s; i < e; i += k)` whose body never reads i: [0, endText) counts its iterations,
  // endText the count itself (ceil((e - s) / k), never negative).
  bool iterationCount = false;
  std::string counterFrom;  // ... and the counter is counterFrom + counterStep * iteration (positions may read it)
  long long counterStep = 1;
  // The run-time test the rewrite makes before the call (else the loop runs as written): that
  // the accumulators in memory (`mean[i] += x[k]`, carried under their text) share no byte with
  // what the loop reads, and that runtime strides are not negative (`x[i * incx]`). Empty when none.
  std::string callGuard;
};

// An element-wise loop: `out[i + k] = expr;` for each output, no carried variables.
struct MapStore {
  std::string base;  // the output array, as written
  long long offset = 0;
  ScalarType type;   // the stored element's type
  SymPtr value;      // converted to `type` when the assignment converts
  std::vector<std::string> guards;  // the loop-invariant conditions it is stored under (source text)
  SymPtr element;                   // the element's value before the loop body stores it
  // Elements between consecutive iterations' elements (`p[2 * i + 1] = ...`, a pointer stepping
  // by 4): a 1-D loop's strided output; several positions of one array at the same stride that
  // never meet (offsets different modulo it) are interleaved outputs.
  long long stride = 1;
  std::string strideText;  // a runtime stride instead (`y[i * incy]`: stride 0), as the loop reads it
};

struct MapModel {
  LoopModel loop;  // its `carried`: accumulators the loop also changes (`sum += x[i]` beside the stores)
  std::vector<MapStore> stores;  // in source order
  std::vector<std::string> guards;  // every store's loop-invariant conditions: the call is made only when they hold
  // Conditions every iteration meets (asserts, inlined helpers' range tests), linear in the
  // counters, the loop's variables marked (fillCounters): one of `guards` tests them at the ends.
  std::vector<std::string> everywhere;
  bool runtimeStrides = false;  // an array read or written at a runtime stride (`x[i * incx]`)
  bool reversed = false;  // every position walks back: read from the other end (positions hold the count)
  // Arguments of the loop's sqrt calls, which set errno to EDOM when below zero (-fmath-errno,
  // C's default): the kernel reports whether any was, and the rewrite sets errno then.
  std::vector<SymPtr> domainErrors;
  std::vector<std::string> memoryScalars;  // scalars the loop reads from memory a store might reach (globals, ...)
  // The objects in memory its bounds and array positions read (`st->len`, `png_ptr->row_buf`, a
  // global): a store of bytes may change them (C lets a character type alias anything), so the
  // call is made only when no byte output covers them. Empty when some cannot be checked.
  std::vector<std::string> memoryObjects;
  bool uncheckedObjects = false;  // a bit-field or a register variable: no address to check
};

}  // namespace simdgen::lift
