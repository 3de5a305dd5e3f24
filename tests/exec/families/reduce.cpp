// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `reduce` family (declared in reduce.h): its test cases
// (exec.NAME/random, /extremes, /guard_pages), input data patterns and the check of each output
// against tests/reference. The kernel's facts come from `explain --json`: semantics
// op/axis/order, tensors input and output. Compiled once for every dtype (dispatched on the
// tensors' dtypes at run time), not instantiated in each spec's test.
#include "reduce.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "dtypes.h"
#include "reduce/check.h"
#include "reduce/data.h"
#include "reduce/shapes.h"
#include "reduce_reference.h"
#include "runner.h"
#include "sweep.h"

namespace simdgen_exec::reduce {
namespace {

using simdgen_test::Expected;
using simdgen_test::Filler;
using simdgen_test::Op;
using simdgen_test::Pattern;

Op op_of(const Kernel& k) {
  const std::string op = k.semantic("op");
  constexpr std::pair<std::string_view, Op> kOps[] = {{"add", Op::add},     {"mul", Op::mul},       {"min", Op::min},
                                                      {"max", Op::max},     {"and", Op::bit_and},   {"or", Op::bit_or},
                                                      {"xor", Op::bit_xor}};
  for (const auto& [name, o] : kOps)
    if (op == name) return o;
  throw std::logic_error(k.name + ": reduce op '" + op + "' unknown to tests/exec/families/reduce.cpp");
}

// Whether a reduce over In may produce Out: In or a wider type of its kind (the spec parser
// allows no other).
template <class In, class Out>
constexpr bool kOutputOf = std::is_floating_point_v<Out> == std::is_floating_point_v<In> &&
                           std::is_signed_v<Out> == std::is_signed_v<In> && sizeof(Out) >= sizeof(In);

// Calls f(Out{}) for the C type of dtype `out`, an output type of In.
template <class In, class F>
void with_output(const std::string& out, F f) {
  bool done = false;
  with_type(out, [&](auto o) {
    if constexpr (kOutputOf<In, decltype(o)>) f(o), done = true;
  });
  if (!done) throw std::logic_error(std::string("exec driver: a reduce of ") + dtype_name<In>() + " into " + out);
}

// The kernel seen by this module: In is the C type of tensor input; the output's is chosen per
// check (with_output), so that only the input's type multiplies the runner's code.
template <class In>
struct Reduce {
  const Kernel& k;
  std::string out_dtype = k.tensor("output").dtype;
  Op op = op_of(k);
  int axis = std::stoi(k.semantic("axis", "1"));
  bool sequential = k.semantic("order") == "sequential";

  int64_t outputs(const Shape& s) const { return axis == 1 ? s.rows : s.cols; }
  int64_t reduced(const Shape& s) const { return axis == 1 ? s.cols : s.rows; }
  simdgen_test::Extents grid(const Runner<In>& r) const {
    const Extents& e = r.extents();
    return {axis, e.rows, e.cols, e.stride};
  }

  // Fills the reduction lines of `s` from `f`; every other element keeps the poison.
  void fill(Filler<In>& f, In* in, const Shape& s) const {
    const int64_t lines = outputs(s), n = reduced(s);
    for (int64_t l = 0; l < lines; ++l)
      for (int64_t p = 0; p < n; ++p) in[axis == 1 ? l * s.stride + p : p * s.stride + l] = f.value(l, p, n);
  }

  // The reference for input `in`, and the check of the output tensor against it.
  Check expect(const In* in, const Shape& s) const {
    Check c;
    with_output<In>(out_dtype, [&](auto o) { c = expect_as<decltype(o)>(in, s); });
    return c;
  }
  template <class Out>
  Check expect_as(const In* in, const Shape& s) const {
    const int64_t lines = outputs(s), n = reduced(s);
    std::vector<Expected<Out>> e(size_t(lines > 0 ? lines : 0));
    std::vector<Out> exact(e.size());
    const bool wide = std::is_floating_point_v<Out> && !sequential && (op == Op::add || op == Op::mul);
    if (!wide) simdgen_ref::reduce<Out>(op, axis, in, s.rows, s.cols, s.stride, exact.data());  // else unused
    for (int64_t l = 0; l < lines; ++l) {
      e[size_t(l)] = {op, exact[size_t(l)], {}, wide, n};
      if (wide)
        e[size_t(l)].wide = axis == 1 ? simdgen_ref::reduce_line_wide(op, in + l * s.stride, n, 1)
                                      : simdgen_ref::reduce_line_wide(op, in + l, n, s.stride);
    }
    return [e = std::move(e), n](const Outputs& o) -> std::string {
      const Out* out = o.get<Out>("output");
      int64_t bad = 0, first = -1;
      for (int64_t i = 0; i < int64_t(e.size()); ++i)
        if (!simdgen_test::matches(e[size_t(i)], out[i])) bad += 1, first = first < 0 ? i : first;
      if (!bad) return "";
      return "output[" + std::to_string(first) + "] of " + std::to_string(e.size()) + " (reduced extent " +
             std::to_string(n) + "): got " + simdgen_test::show(out[first]) + " expected " +
             simdgen_test::show_expected(e[size_t(first)]) + "; " + std::to_string(bad) + " mismatching outputs";
    };
  }

  void run(Runner<In>& r, const Shape& s, Placement where, Pattern pat, uint64_t seed) const {
    const std::string what = std::string("pattern=") + simdgen_test::pattern_name(pat) + " seed=" + std::to_string(seed);
    r.run(
        s, where, what,
        [&](In* in) {
          Filler<In> f(op, pat, seed);
          fill(f, in, s);
        },
        [&](const In* in) { return expect(in, s); });
  }
};

inline int64_t total_elements(const std::vector<Shape>& shapes) {
  int64_t n = 1;
  for (const Shape& s : shapes) n += s.rows * s.stride;
  return n;
}

// Random data over the main shape grid; small grids (static or rank-1 shapes) get more seeds.
template <class In>
void random_case(const Kernel& kernel) {
  const Reduce<In> k{kernel};
  Runner<In> r(kernel, simdgen_test::poison<In>(k.op));
  const auto shapes = simdgen_test::main_shapes(k.grid(r));
  const int64_t seeds = std::clamp<int64_t>(4'000'000 / total_elements(shapes), 1, thin_sweep() ? 2 : 64);
  uint64_t seed = 1;
  for (const Shape& s : shapes)
    for (int64_t i = 0; i < seeds; ++i) k.run(r, s, Placement::heap, Pattern::random, seed++);
}

// Extreme-value patterns over a sample of the main grid (all of a small one, several seeds).
template <class In>
void extremes_case(const Kernel& kernel) {
  const Reduce<In> k{kernel};
  Runner<In> r(kernel, simdgen_test::poison<In>(k.op));
  const auto shapes = simdgen_test::main_shapes(k.grid(r));
  // About `budget` elements per pattern: a sample of a large grid, several seeds (which move the
  // special elements) on a small one.
  const int64_t budget = thin_sweep() ? 500'000 : 2'000'000, total = total_elements(shapes);
  const size_t step = size_t(std::clamp<int64_t>(total / budget, 1, 100));
  const int64_t seeds = std::clamp<int64_t>(budget / total, 1, 12);
  uint64_t seed = 1000003;
  for (size_t i = 0; i < shapes.size(); i += step)
    for (Pattern p : simdgen_test::extreme_patterns<In>())
      for (int64_t j = 0; j < seeds; ++j) k.run(r, shapes[i], Placement::heap, p, seed++);
}

// Inputs/outputs touching PROT_NONE pages, at several tail lengths.
template <class In>
void guard_pages_case(const Kernel& kernel) {
  const Reduce<In> k{kernel};
  Runner<In> r(kernel, simdgen_test::poison<In>(k.op));
  uint64_t seed = 7000001;
  for (const Shape& s : simdgen_test::guard_shapes(k.grid(r)))
    for (Placement p : {Placement::guard_after_end, Placement::guard_before_start})
      k.run(r, s, p, Pattern::random, seed++);
}

}  // namespace

void run_random(const Kernel& k) {
  with_type(k.input().dtype, [&](auto in) { random_case<decltype(in)>(k); });
}
void run_extremes(const Kernel& k) {
  with_type(k.input().dtype, [&](auto in) { extremes_case<decltype(in)>(k); });
}
void run_guard_pages(const Kernel& k) {
  with_type(k.input().dtype, [&](auto in) { guard_pages_case<decltype(in)>(k); });
}

}  // namespace simdgen_exec::reduce
