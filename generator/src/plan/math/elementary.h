// SPDX-License-Identifier: Apache-2.0
// The functions of plan/math/ one by one (functions.h dispatches to them), each returning the
// variable that holds f(x) within `maxUlp` ULP, with C's special values.
#pragma once

#include <string>

#include "plan/math/math_ops.h"

namespace simdgen::math {

std::string expOf(MathOps& o, const std::string& x, int maxUlp);   // exp_log.cpp
std::string exp2Of(MathOps& o, const std::string& x, int maxUlp);  // exp_log.cpp
std::string logOf(MathOps& o, const std::string& x, int maxUlp, bool base2);  // exp_log.cpp: log or log2
std::string expm1Of(MathOps& o, const std::string& x, int maxUlp);  // exp_log.cpp
std::string log1pOf(MathOps& o, const std::string& x, int maxUlp);  // exp_log.cpp
// y with x's sign bit, for a y >= +0 or one that has x's sign already (keeps -0): exp_log.cpp.
std::string withSignOf(MathOps& o, const std::string& y, const std::string& x);
std::string sigmoidOf(MathOps& o, const std::string& x, int maxUlp);  // activations.cpp
std::string tanhOf(MathOps& o, const std::string& x, int maxUlp);     // activations.cpp
std::string recipOf(MathOps& o, const std::string& x);                // reciprocals.cpp
std::string rsqrtOf(MathOps& o, const std::string& x, int maxUlp);    // reciprocals.cpp
// trig.cpp: f64 arithmetic only (f32 results computed in f64).
std::string sinOf(MathOps& o, const std::string& x, int maxUlp);
std::string cosOf(MathOps& o, const std::string& x, int maxUlp);
// gaussian.cpp: f64 arithmetic only (f32 results computed in f64).
std::string erfOf(MathOps& o, const std::string& x);
std::string geluOf(MathOps& o, const std::string& x);
std::string geluTanhOf(MathOps& o, const std::string& x);

}  // namespace simdgen::math
