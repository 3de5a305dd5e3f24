// SPDX-License-Identifier: Apache-2.0
// The scalar reference of the `map` family's reductions and passes, written from docs/spec.md (not
// from the generator). An output with "reduce" is one value per row: its expression reduced over
// the row's columns (add, min, max, and, or, xor; mean = the sum divided by the column count).
// Later outputs may name it (a row value) or an earlier element-wise output (its expression).
//
// Integer reductions are exact (wrapping like the element type). Float min/max ignore NaN terms (an
// empty or all-NaN row gives the identity, +inf / -inf). A float sum may be reassociated in any
// order, so docs/spec.md promises it within (n + 1) eps sum(|t|) of the exact sum of the terms t
// (the exactly rounded values of the expression, n of them; a term with a math function is
// itself within max_ulp + 1 ULP of its exact value, which widens the bound by that many ULPs of
// each term). The reference computes the exact sum (long double), its bound, and so an interval;
// an output that reads a row value is evaluated at the ends and the middle of that value's interval
// (every combination when it reads several) and must lie between the results: no result of the
// kernel is ever used here.
//
// An output with "axis": 0 reduces over the rows instead: one value per column, its terms added in
// row order with each step rounded (docs/spec.md: the plain loop's result), so where the terms are
// exact the expected value is that fold bit for bit (fold_column); it reads no row value.
#pragma once

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "map_reference.h"

namespace simdgen_ref::map {

struct OutputDef {
  std::string name;
  DType dt;
  std::string op;  // "" element-wise; add, min, max, and, or, xor, mean
  Expression expr;
  // A sum of products the kernel adds with fused multiply-adds: a product that overflows only
  // when rounded (an infinite term of finite factors) is finite there, so such a row may give
  // anything from -inf to +inf or NaN.
  bool fused = false;
  bool columns = false;  // "axis": 0: one value per column (see fold_column)
};

// One expected value: NaN required, or a value in [lo, hi] (NaN too when nan_ok). Integers: lo == hi.
struct Expect {
  bool nan = false, nan_ok = false;
  Value lo, hi;
  bool exact = true;  // lo == hi and no row value with an interval went into it
};

class RowReference {
 public:
  RowReference(std::vector<OutputDef> outs, double max_ulp) : outs_(std::move(outs)), max_ulp_(max_ulp) {
    for (size_t k = 0; k < outs_.size(); ++k) index_[outs_[k].name] = k;
    for (size_t k = 0; k < outs_.size(); ++k) reads_.push_back(row_values_read(k));
  }
  const std::vector<OutputDef>& outputs() const { return outs_; }

  // Evaluates one row of `cols` columns; `element(name, c)` is an input's value at column c or a
  // scalar parameter's value.
  void run(int64_t cols, const std::function<Value(const std::string&, int64_t)>& element) {
    element_ = &element;
    cols_ = cols;
    expect_.assign(outs_.size(), {});
    rv_.assign(outs_.size(), {});
    for (size_t k = 0; k < outs_.size(); ++k) {
      if (outs_[k].op.empty() || outs_[k].columns) {  // a column reduction: this row's terms
        for (int64_t c = 0; c < cols; ++c) expect_[k].push_back(element_expect(k, c));
      } else {
        expect_[k].push_back(reduction(k));
        const Expect& e = expect_[k].back();
        // The row value's interval for later outputs: its ends, its middle, and NaN where the
        // kernel's value may be NaN.
        Value mid = e.lo, nan;
        nan.f = NAN;
        if (outs_[k].dt.is_float() && !e.nan) mid.f = round_to(outs_[k].dt, mid_exact_);
        rv_[k] = {e.lo, mid, e.hi, nan};
      }
    }
  }
  // Element c of element-wise output k (a column reduction: its term at column c), or (c = 0) the
  // row value of reduction k.
  const Expect& at(size_t k, int64_t c) const { return expect_[k][size_t(c)]; }

  // A reduction over the rows of one column, its terms (at()) in row order. Integers: exact,
  // wrapping. Floats: where the terms are exact, the plain loop's fold bit for bit (each addition
  // rounded; min/max keep the value so far on ties and NaN terms; a mean's sum divided once);
  // with a math function in the terms, within the bound of any order (bound_of).
  static Expect fold_column(const OutputDef& o, const std::vector<Expect>& terms, double max_ulp) {
    const DType t = o.dt;
    Expect e;
    if (!t.is_float()) {
      uint64_t acc = identity_int(o.op, t);
      for (const Expect& x : terms) acc = combine_int(o.op, t, acc, x.lo.u);
      e.lo.u = e.hi.u = wrap(t, acc);
      return e;
    }
    const double nan = NAN;
    if (o.expr.approximate()) {
      std::vector<double> v;
      for (const Expect& x : terms) v.push_back(x.nan ? nan : x.lo.f);
      const Bound b = bound_of(o.op, t, v, true, false, max_ulp);
      e.exact = false;
      e.nan = b.nan, e.nan_ok = b.nan_ok;
      if (e.nan) {
        e.lo.f = e.hi.f = nan;
      } else {
        e.lo.f = down(t, b.lo);
        e.hi.f = up(t, b.hi);
      }
      return e;
    }
    const bool f32 = t.bits == 32, mx = o.op == "max", mn = o.op == "min";
    double acc = mx ? -double(INFINITY) : mn ? double(INFINITY) : 0.0;
    for (const Expect& x : terms) {
      const double v = x.nan ? nan : x.lo.f;
      if (mx || mn) {
        if (mx ? v > acc : v < acc) acc = v;  // a NaN term compares false: the value so far stays
      } else {
        acc = f32 ? double(float(acc) + float(v)) : acc + v;
      }
    }
    if (o.op == "mean") acc = f32 ? double(float(acc) / float(terms.size())) : acc / double(terms.size());
    e.lo.f = e.hi.f = acc;
    e.nan = acc != acc;
    return e;
  }

 private:
  // The reductions whose row values output k reads (through element-wise outputs too).
  std::set<size_t> row_values_read(size_t k) const {
    std::set<size_t> out;
    for (const std::string& name : outs_[k].expr.slots())
      if (auto it = index_.find(name); it != index_.end()) {
        if (!outs_[it->second].op.empty()) out.insert(it->second);
        else for (size_t j : row_values_read(it->second)) out.insert(j);
      }
    return out;
  }

  // Output k's expression at column c, each row value at end corner[j] (0 low, 1 middle, 2 high) of its interval.
  Value eval(size_t k, int64_t c, const std::map<size_t, int>& corner) const {
    return outs_[k].expr.eval([&](const std::string& name) -> Value {
      auto it = index_.find(name);
      if (it == index_.end()) return (*element_)(name, c);
      if (outs_[it->second].op.empty()) return eval(it->second, c, corner);
      return rv_[it->second][size_t(corner.at(it->second))];
    });
  }

  // Every assignment of {low, middle, high} (and NaN where it may be NaN) to the row values output
  // k reads; the middle one first.
  std::vector<std::map<size_t, int>> corners(size_t k) const {
    std::vector<std::map<size_t, int>> out(1);
    for (size_t j : reads_[k]) out[0][j] = 1;
    for (size_t j : reads_[k]) {
      const size_t n = out.size();
      const bool nan = expect_[j][0].nan_ok && !expect_[j][0].nan;
      for (size_t i = 0; i < n; ++i)
        for (int end : {0, 2, 3}) {
          if (end == 3 && !nan) continue;
          auto more = out[i];
          more[j] = end;
          out.push_back(more);
        }
    }
    return out;
  }

  static bool less(DType t, Value a, Value b) {
    if (t.is_float()) return a.f < b.f;
    return t.kind == 'i' ? int64_t(a.u) < int64_t(b.u) : a.u < b.u;
  }

  Expect element_expect(size_t k, int64_t c) const {
    const DType t = outs_[k].dt;
    // NaN is required where every corner gives NaN, allowed where one does.
    Expect e;
    bool first = true;
    for (const auto& corner : corners(k)) {
      const Value v = eval(k, c, corner);
      if (t.is_float() && v.f != v.f) {
        e.nan_ok = true;
        continue;
      }
      if (first || less(t, v, e.lo)) e.lo = v;
      if (first || less(t, e.hi, v)) e.hi = v;
      first = false;
    }
    if (first) e.nan = true;
    e.exact = reads_[k].empty();
    return e;
  }

  static double eps(DType t) { return t.bits == 32 ? std::ldexp(1.0, -24) : std::ldexp(1.0, -53); }
  static double largest(DType t) { return t.bits == 32 ? double(FLT_MAX) : DBL_MAX; }
  // x rounded down / up to a value of t.
  static double down(DType t, long double x) {
    const double d = double(x);
    double r = t.bits == 32 ? double(float(d)) : d;
    if (r > x) r = t.bits == 32 ? double(std::nextafter(float(r), -INFINITY)) : std::nextafter(r, -INFINITY);
    return r;
  }
  static double up(DType t, long double x) {
    const double d = double(x);
    double r = t.bits == 32 ? double(float(d)) : d;
    if (r < x) r = t.bits == 32 ? double(std::nextafter(float(r), INFINITY)) : std::nextafter(r, INFINITY);
    return r;
  }

  Expect reduction(size_t k) {
    const OutputDef& o = outs_[k];
    const DType t = o.dt;
    Expect e;
    if (!t.is_float()) {  // exact, wrapping; the middle corner (integers read no inexact row value... or the same at every corner)
      bool first = true;
      for (const auto& corner : corners(k)) {
        uint64_t acc = identity_int(o.op, t);
        for (int64_t c = 0; c < cols_; ++c) acc = combine_int(o.op, t, acc, eval(k, c, corner).u);
        Value v;
        v.u = wrap(t, acc);
        if (first || less(t, v, e.lo)) e.lo = v;
        if (first || less(t, e.hi, v)) e.hi = v;
        first = false;
      }
      e.exact = reads_[k].empty();
      return e;
    }
    const bool approx = o.expr.approximate() || term_reads_approximate(k);
    long double lo = INFINITY, hi = -INFINITY;
    bool first = true, nan_any = false, nan_all = true;  // NaN required where every corner gives NaN
    for (const auto& corner : corners(k)) {
      const Bound b = fold_float(k, corner, approx);
      nan_all = nan_all && b.nan;
      if (b.nan || b.nan_ok) nan_any = true;
      if (!b.nan) lo = std::min(lo, b.lo), hi = std::max(hi, b.hi);
      if (first) mid_exact_ = double(b.mid);
      first = false;
    }
    e.nan = nan_all;
    e.nan_ok = nan_any;
    if (e.nan) {
      e.lo.f = e.hi.f = NAN;
    } else {
      e.lo.f = down(t, lo);
      e.hi.f = up(t, hi);
    }
    e.exact = false;
    return e;
  }

  bool term_reads_approximate(size_t k) const {
    for (const std::string& name : outs_[k].expr.slots())
      if (auto it = index_.find(name); it != index_.end() && outs_[it->second].op.empty() &&
                                       (outs_[it->second].expr.approximate() || term_reads_approximate(it->second)))
        return true;
    return false;
  }

  struct Bound {
    bool nan = false, nan_ok = false;
    long double lo = 0, hi = 0, mid = 0;
  };

  // The float reduction of output k's terms at one corner: its exact value and the interval the
  // kernel's result must lie in.
  Bound fold_float(size_t k, const std::map<size_t, int>& corner, bool approx) const {
    const OutputDef& o = outs_[k];
    std::vector<double> terms;
    for (int64_t c = 0; c < cols_; ++c) terms.push_back(eval(k, c, corner).f);
    return bound_of(o.op, o.dt, terms, approx, o.fused, max_ulp_);
  }

  // A float reduction of `terms` in any order: its exact value and the interval the kernel's
  // result must lie in (the terms exactly rounded, or within max_ulp + 1 ULP where `approx`).
  static Bound bound_of(const std::string& op, DType t, const std::vector<double>& terms, bool approx, bool fused, double max_ulp) {
    const double inf = INFINITY;
    Bound b;
    if (op == "min" || op == "max") {  // NaN terms ignored; exact unless the terms are approximate
      const bool mx = op == "max";
      long double m = mx ? -inf : inf;
      for (const double v : terms) {
        if (v != v) continue;
        m = mx ? std::max<long double>(m, v) : std::min<long double>(m, v);
      }
      b.lo = b.hi = b.mid = m;
      if (approx && std::isfinite(double(m))) {
        const long double w = (max_ulp + 1) * 2 * eps(t) * std::fabs(m) + 4 * tiny(t);
        b.lo -= w, b.hi += w;
      }
      return b;
    }
    // add and mean.
    long double sum = 0, mag = 0;
    bool pos_inf = false, neg_inf = false;
    for (const double v : terms) {
      if (v != v) b.nan = true;
      else if (v == inf) pos_inf = true;
      else if (v == -inf) neg_inf = true;
      else sum += v, mag += std::fabs(v);
    }
    const double n = double(terms.size());
    const long double err = (n + 1 + (approx ? 2 * (max_ulp + 1) : 0)) * eps(t) * mag + (n + 1) * tiny(t);
    const bool may_overflow = mag + err >= largest(t);
    if (fused && (pos_inf || neg_inf) && !b.nan) {
      b.nan_ok = true;
      b.lo = -inf, b.hi = inf;
      b.mid = pos_inf && neg_inf ? NAN : pos_inf ? inf : -inf;  // what the rounded terms give (the middle corner)
      return b;
    }
    if (b.nan || (pos_inf && neg_inf)) {
      b.nan = true;
      return b;
    }
    if (pos_inf || neg_inf) {
      b.lo = b.hi = b.mid = pos_inf ? inf : -inf;
      b.nan_ok = may_overflow;  // finite terms overflowing the other way first: inf - inf
    } else {
      b.mid = sum;
      b.lo = sum - err, b.hi = sum + err;
      if (b.hi >= largest(t)) b.hi = inf;  // the sum may round or overflow to an infinity
      if (b.lo <= -largest(t)) b.lo = -inf;
      b.nan_ok = b.hi == inf && b.lo == -inf;
    }
    if (op == "mean") {
      if (terms.empty()) {  // 0 / 0
        b.nan = true;
        return b;
      }
      // One more rounding: the division.
      b.mid /= n;
      b.lo = b.lo / n * (b.lo < 0 ? 1 + 2 * eps(t) : 1 - 2 * eps(t)) - tiny(t);
      b.hi = b.hi / n * (b.hi < 0 ? 1 - 2 * eps(t) : 1 + 2 * eps(t)) + tiny(t);
    }
    return b;
  }
  static double tiny(DType t) { return t.bits == 32 ? double(FLT_TRUE_MIN) : DBL_TRUE_MIN; }

  static uint64_t identity_int(const std::string& op, DType t) {
    if (op == "add" || op == "or" || op == "xor") return 0;
    if (op == "and") return ~uint64_t{0};
    const bool s = t.kind == 'i';
    const uint64_t top = t.bits == 64 ? ~uint64_t{0} : (uint64_t{1} << t.bits) - 1;
    if (op == "min") return s ? wrap(t, top >> 1) : top;  // the largest value
    return s ? wrap(t, (top >> 1) + 1) : 0;               // max: the smallest
  }
  static uint64_t combine_int(const std::string& op, DType t, uint64_t a, uint64_t b) {
    if (op == "add") return a + b;
    if (op == "and") return a & b;
    if (op == "or") return a | b;
    if (op == "xor") return a ^ b;
    Value x, y;
    x.u = wrap(t, a), y.u = wrap(t, b);
    const bool b_less = less(t, y, x);
    return op == "min" ? (b_less ? b : a) : (less(t, x, y) ? b : a);
  }

  std::vector<OutputDef> outs_;
  double max_ulp_;
  std::map<std::string, size_t> index_;
  std::vector<std::set<size_t>> reads_;
  const std::function<Value(const std::string&, int64_t)>* element_ = nullptr;
  int64_t cols_ = 0;
  std::vector<std::vector<Expect>> expect_;
  std::vector<std::vector<Value>> rv_;  // per reduction: low, middle, high
  double mid_exact_ = 0;
};

}  // namespace simdgen_ref::map
