// SPDX-License-Identifier: Apache-2.0
// The inputs of the math benchmark (bench_math.cpp) and of the accuracy tool's random f64 inputs
// (math_accuracy_main.cpp), per function: one place, so that every peer of a function gets the same
// arrays and the notes (bench/notes/math.md) can name them.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace simdgen_bench_math {

// Uniform in [lo, hi] (lo excluded when open_lo), or with log2_scale 2^u, u uniform in [lo, hi].
struct Range {
  double lo, hi;
  bool log2_scale = false;
  bool open_lo = false;
};

struct Inputs {
  const char* fn;
  // Timed: what a kernel meets in practice, every result normal.
  Range bench_f32, bench_f64;
  // Accuracy, f64 (half of the random inputs; the other half are uniform bit patterns): the
  // function's interesting range, overflow and underflow included. log1p's magnitudes below 1 get
  // a random sign (mirror_below_1).
  Range accuracy_f64;
  bool mirror_below_1 = false;
};

// sin and cos over [-100, 100]: angles and phases as kernels meet them. simdgen's reduction costs
// the same for every |x| (a select chain over exponent bands, no branch); implementations that
// branch on |x| (glibc's scalar sinf/cosf reduce large arguments on a slower path) run their fast
// path on these inputs, so large arguments are left to the accuracy tool. log1p over (-1, 100]: the
// domain's near end and ordinary magnitudes. tanh and sigmoid over [-10, 10]: tanh is +-1 in f32
// beyond |x| = 9.01, sigmoid 1 above 16.6. erf and gelu over [-5, 5]: erf is +-1 beyond 3.92.
inline const Inputs kInputs[] = {
    {"exp", {-80, 80}, {-700, 700}, {-750, 712}},
    {"exp2", {-120, 120}, {-1000, 1000}, {-1080, 1030}},
    {"expm1", {-10, 10}, {-10, 10}, {-40, 712}},
    {"log", {-100, 100, true}, {-100, 100, true}, {-1080, 1030, true}},
    {"log2", {-100, 100, true}, {-100, 100, true}, {-1080, 1030, true}},
    {"log1p", {-1, 100, false, true}, {-1, 100, false, true}, {-1080, 1030, true}, true},
    {"tanh", {-10, 10}, {-10, 10}, {-25, 25}},
    {"sigmoid", {-10, 10}, {-10, 10}, {-750, 40}},
    {"sin", {-100, 100}, {-100, 100}, {-1e6, 1e6}},
    {"cos", {-100, 100}, {-100, 100}, {-1e6, 1e6}},
    {"erf", {-5, 5}, {-5, 5}, {-30, 30}},
    {"gelu", {-5, 5}, {-5, 5}, {-40, 40}},
};

inline const Inputs& inputs_of(const std::string& fn) {
  for (const Inputs& i : kInputs)
    if (fn == i.fn) return i;
  std::fprintf(stderr, "bench/math: no inputs for %s (math_inputs.h)\n", fn.c_str());
  std::abort();
}

// One value of a range from u uniform in [0, 1).
inline double draw(const Range& r, double u) {
  const double t = r.lo + u * (r.hi - r.lo);
  return r.log2_scale ? std::exp2(t) : t;
}

}  // namespace simdgen_bench_math
