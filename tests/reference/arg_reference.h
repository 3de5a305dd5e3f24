// SPDX-License-Identifier: Apache-2.0
// Independent scalar reference for arg_reduce kernels (argmin/argmax and the index of the
// extreme), written from the spec semantics, not from generated code: the plain scalar loop.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace simdgen_ref {

enum class ArgOp { argmax, argmin };

inline const char* arg_op_name(ArgOp op) { return op == ArgOp::argmax ? "argmax" : "argmin"; }

// The semantic fields of one arg_reduce spec.
template <class T>
struct ArgSpec {
  ArgOp op = ArgOp::argmax;
  bool last = false;           // index: "last" (ties move the index) rather than "first"
  bool nan_propagate = false;  // nan: "propagate" (floats only): the first NaN wins
  bool has_initial = false;    // initial: {value, index}
  T initial_value{};
  int64_t initial_index = 0;
};

template <class T>
struct ArgResult {
  T value;
  int64_t index;  // computed in 64 bits; an i32 index_type stores it truncated
};

// The starting best value without `initial`: loses (or ties) against every non-NaN element.
template <class T>
T arg_identity(ArgOp op) {
  using L = std::numeric_limits<T>;
  if constexpr (std::is_floating_point_v<T>)
    return op == ArgOp::argmax ? -L::infinity() : L::infinity();
  else
    return op == ArgOp::argmax ? L::lowest() : L::max();
}

// Whether x replaces best in the scalar loop (every comparison with NaN is false).
template <class T>
bool arg_beats(const ArgSpec<T>& s, T x, T best) {
  if (s.op == ArgOp::argmax) return s.last ? x >= best : x > best;
  return s.last ? x <= best : x < best;
}

// One row of n elements.
template <class T>
ArgResult<T> arg_reduce_row(const ArgSpec<T>& s, const T* row, int64_t n) {
  if constexpr (std::is_floating_point_v<T>) {
    if (s.nan_propagate)
      for (int64_t j = 0; j < n; ++j)
        if (std::isnan(row[j])) return {row[j], j};
  }
  ArgResult<T> r = s.has_initial ? ArgResult<T>{s.initial_value, s.initial_index}
                                 : ArgResult<T>{arg_identity<T>(s.op), -1};
  for (int64_t j = 0; j < n; ++j)
    if (arg_beats(s, row[j], r.value)) r = {row[j], j};
  // "first" without `initial`: nothing beat the identity, so it is the first element equal to it.
  if (!s.has_initial && !s.last && r.index == -1)
    for (int64_t j = 0; j < n; ++j)
      if (row[j] == r.value) {
        r.index = j;
        break;
      }
  return r;
}

// Row-wise: row i is input[i * stride + j], j < cols; one (value, index) per row.
template <class T, class Idx>
void arg_reduce(const ArgSpec<T>& s, const T* input, int64_t rows, int64_t cols, int64_t stride,
                T* values, Idx* indices) {
  for (int64_t i = 0; i < rows; ++i) {
    const ArgResult<T> r = arg_reduce_row(s, input + i * stride, cols);
    values[i] = r.value;
    indices[i] = static_cast<Idx>(r.index);
  }
}

}  // namespace simdgen_ref
