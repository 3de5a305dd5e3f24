// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `map` family (declared in map.h): its runner is typeless (the
// spec's expression is evaluated by tests/reference/map_reference.h on runtime dtypes), so it is
// compiled once and linked into every test, not instantiated in each. Every input and output is
// placed on its own (misaligned, sentinel-fenced heap memory, or ending at / starting after a
// PROT_NONE page); each output element is compared with the reference evaluating the spec's
// expression text (from `explain --json` semantics expr.outK, name.inK), and every byte of an
// output's memory that is not an element of the shape (row padding, before, after) must keep its
// sentinel. Reductions ("reduce" outputs: one value per row) and the outputs that read their row
// values are checked against tests/reference/map_rows_reference.h: exact for integers, within the
// bound docs/spec.md states for float sums.
#include "map.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "map/values.h"
#include "map_reference.h"
#include "map_rows_reference.h"
#include "runner.h"
#include "sweep.h"

namespace simdgen_exec::map {
namespace {

// Memory of one tensor for one call: its elements at `data`, fenced by [lo, hi).
struct Mem : PlacedBytes {
  const Tensor* t = nullptr;
  DType dt;
  int64_t row_stride = 0, col_stride = 1;  // element [r, c] is at data + (r * row_stride + c * col_stride) * size
};

class MapRunner {
 public:
  // Outputs are laid out as the Shape says; inputs may have strides of their own.
  explicit MapRunner(const Kernel& k)
      : k_(k), shape_(shape_of(k)), layout_(k, shape_), variants_(runnable_variants(k, rep_)), rows_ref_(outputs_of(k), std::stod(k.semantic("max_ulp", "1"))) {
    for (size_t j = 0; j < rows_ref_.outputs().size(); ++j) out_index_["out" + std::to_string(j)] = j;
  }
  ~MapRunner() { CHECK_MESSAGE(runs_ > 0, (k_.name + ": no shape of this case fits the kernel")); }

  const Extents& extents() const { return layout_.extents(); }

  // One shape: inputs from Values (share `special` of extremes); `guard` 0 heap, 1 end at a guard
  // page, 2 start after one; `inPlace`: the output that is called with its input's pointer.
  void run(const Shape& s, uint64_t seed, double special, int guard, const std::string& inPlace = "") {
    runs_ += 1;
    const Env more = input_strides(s, seed);
    const Env env = layout_.bind(s, more);
    std::vector<Mem> mems;
    for (const Tensor& t : k_.tensors) mems.push_back(place(t, env, s.misalign, guard));
    // Inputs: values at the shape's elements, poison (extremes too) in row padding. Scalar
    // parameters: one value of the same kind per call.
    std::map<std::string, const Mem*> inputs;
    std::map<std::string, Value> scalars;              // by the user's name, for the reference
    std::map<std::string, uint64_t, std::less<>> bits;  // by the plan's name, for the call
    uint64_t salt = 0;
    for (const ScalarParam& p : k_.scalar_params) {
      const DType dt = DType::parse(p.dtype);
      Values vals(dt, seed + 104729 * ++salt, special);
      const Value x = vals.next();
      uint64_t b = 0;
      simdgen_ref::map::write(dt, &b, 0, x);
      scalars[k_.semantic("name." + p.name)] = simdgen_ref::map::read(dt, &b, 0);
      bits[p.name] = b;
    }
    for (Mem& m : mems) {
      if (m.t->output) continue;
      // Values for the tensor's elements and kSlack beyond; the rest of the readable memory after
      // it (up to two pages when the tensor starts after a guard page) repeats them.
      Values vals(m.dt, seed + 7919 * ++salt, special);
      const int64_t size = m.dt.bits / 8, room = (m.hi - m.data) / size, fresh = std::min(room, m.t->span(env) + kSlack);
      for (int64_t e = 0; e < fresh; ++e) simdgen_ref::map::write(m.dt, m.data, e, vals.next());
      for (unsigned char* p = m.data + fresh * size; fresh > 0 && p < m.hi; p += fresh * size)
        std::memcpy(p, m.data, size_t(std::min<int64_t>(fresh * size, m.hi - p)));
      inputs[k_.semantic("name." + m.t->name)] = &m;
    }
    // The expected outputs, from the inputs before any call: per output tensor, element [r, c] at
    // r * cols + c (a reduction per row: row r at r; over the rows: column c at c, from its terms).
    std::map<std::string, std::vector<simdgen_ref::map::Expect>> expected;
    std::map<std::string, std::vector<std::vector<simdgen_ref::map::Expect>>> column_terms;  // per column, in row order
    for (const Mem& m : mems)
      if (m.t->output && columns(out_index_.at(m.t->name))) column_terms[m.t->name].resize(size_t(s.cols));
    for (int64_t r = 0; r < s.rows; ++r) {
      rows_ref_.run(s.cols, [&](const std::string& name, int64_t c) -> Value {
        if (const auto it = scalars.find(name); it != scalars.end()) return it->second;
        const Mem* in = inputs.at(name);
        return simdgen_ref::map::read(in->dt, in->data, r * in->row_stride + c * in->col_stride);
      });
      for (const Mem& m : mems) {
        if (!m.t->output) continue;
        const size_t j = out_index_.at(m.t->name);
        auto& e = expected[m.t->name];
        if (columns(j)) for (int64_t c = 0; c < s.cols; ++c) column_terms[m.t->name][size_t(c)].push_back(rows_ref_.at(j, c));
        else if (reduces(j)) e.push_back(rows_ref_.at(j, 0));
        else for (int64_t c = 0; c < s.cols; ++c) e.push_back(rows_ref_.at(j, c));
      }
    }
    const double max_ulp = std::stod(k_.semantic("max_ulp", "1"));
    for (const auto& [name, per_column] : column_terms) {
      auto& e = expected[name];
      for (const auto& terms : per_column)
        e.push_back(simdgen_ref::map::RowReference::fold_column(rows_ref_.outputs()[out_index_.at(name)], terms, max_ulp));
    }
    const std::string head = "rows=" + std::to_string(s.rows) + " cols=" + std::to_string(s.cols) + " stride=" + std::to_string(s.stride) +
                             " misalign=" + std::to_string(s.misalign) + " seed=" + std::to_string(seed) +
                             (guard == 1 ? " (guard page after the end)" : guard == 2 ? " (guard page before the start)" : "") +
                             (inPlace.empty() ? "" : " in place: " + inPlace) + describe(more);
    for (const Variant& v : variants_) call(v, env, s, mems, bits, expected, head, inPlace);
  }

 private:
  static constexpr unsigned char kSentinel = 0xA5;
  static constexpr int64_t kSlack = 64;

  // The shape every input and element-wise output has (rows x cols, row stride): from the plan's
  // semantics, as a kernel may have only reduction outputs.
  static Tensor shape_of(const Kernel& k) {
    if (k.has_semantic("layout.rows")) return Tensor{"", "u8", true, {k.semantic("layout.rows"), k.semantic("layout.cols")}, {k.semantic("layout.row_stride"), "1"}};
    return Tensor{"", "u8", true, {k.semantic("layout.cols")}, {"1"}};
  }
  // Every output in spec order (out0, out1, ...: internal ones have no tensor), each expression over
  // the inputs, the params and the outputs before it.
  static std::vector<simdgen_ref::map::OutputDef> outputs_of(const Kernel& k) {
    std::map<std::string, DType> names;
    for (const Tensor& t : k.tensors)
      if (!t.output) names[k.semantic("name." + t.name)] = DType::parse(t.dtype);
    for (const ScalarParam& p : k.scalar_params) names[k.semantic("name." + p.name)] = DType::parse(p.dtype);
    std::vector<simdgen_ref::map::OutputDef> outs;
    for (int j = 0; k.has_semantic("name.out" + std::to_string(j)); ++j) {
      const std::string o = "out" + std::to_string(j);
      std::string dtype = k.semantic("internal." + o);
      for (const Tensor& t : k.tensors)
        if (t.name == o) dtype = t.dtype;
      const DType dt = DType::parse(dtype);
      outs.push_back({k.semantic("name." + o), dt, k.semantic("reduce." + o), simdgen_ref::map::Expression(k.semantic("expr." + o), names, dt),
                      k.has_semantic("fused." + o), k.has_semantic("axis." + o)});
      names[outs.back().name] = dt;
    }
    return outs;
  }

  // Values of the runtime strides of the tensors' own layouts (the shape binds the others): element
  // strides cycle through kElementStrides with the seed (0 repeats one element: inputs only, an
  // output's element has its own place), every one 1 on every fourth seed (the kernel's contiguous
  // version); a row stride leaves room for its row plus a little padding.
  Env input_strides(const Shape& s, uint64_t seed) const {
    static constexpr int64_t kElementStrides[] = {2, 3, 0, 1, 7, 16, 5};
    const std::vector<std::string> bound = layout_.shape_params();
    Env more;
    auto unbound = [&](const std::string& expr) {
      const std::string p = Expr::symbol(expr);
      const bool param = std::find(k_.extent_params.begin(), k_.extent_params.end(), p) != k_.extent_params.end();
      return param && std::find(bound.begin(), bound.end(), p) == bound.end() && !more.count(p) ? p : std::string();
    };
    std::set<std::string> written;  // strides of outputs
    for (const Tensor& t : k_.tensors)
      if (t.output)
        for (const std::string& e : t.strides) written.insert(Expr::symbol(e));
    uint64_t k = 0;
    for (const Tensor& t : k_.tensors)
      if (const std::string p = unbound(t.strides.back()); !p.empty()) {
        int64_t v = seed % 4 == 0 ? 1 : kElementStrides[(seed + k++) % 7];
        if (v == 0 && written.count(p)) v = 2;
        more[p] = v;
      }
    for (const Tensor& t : k_.tensors)
      if (const std::string p = t.strides.size() < 2 ? "" : unbound(t.strides[0]); !p.empty()) {
        const int64_t col = Expr::eval(t.strides.back(), layout_.bind(s, more, false));
        more[p] = s.cols * std::max<int64_t>(col, 1) + int64_t(seed % 3);
      }
    // An output whose rows interleave (a row stride below its row's span, e.g. 1: written column by
    // column) gets an element stride past all its rows, so that no two elements meet.
    for (const Tensor& t : k_.tensors) {
      if (!t.output || t.strides.size() < 2 || !more.count(Expr::symbol(t.strides.back()))) continue;
      const Env env = layout_.bind(s, more, false);
      const int64_t row = Expr::eval(t.strides[0], env), col = Expr::eval(t.strides.back(), env);
      if (row >= 1 && s.cols > 1 && row < (s.cols - 1) * col + 1) more[Expr::symbol(t.strides.back())] = std::max(col, s.rows * row);
    }
    return more;
  }
  static std::string describe(const Env& more) {
    std::string d;
    for (const auto& [name, v] : more) d += " " + name + "=" + std::to_string(v);
    return d;
  }

  Mem place(const Tensor& t, const Env& env, int misalign, int guard) {
    Mem m;
    m.t = &t;
    m.dt = DType::parse(t.dtype);
    m.col_stride = Expr::eval(t.strides.back(), env);
    m.row_stride = t.strides.size() == 2 ? Expr::eval(t.strides[0], env) : 0;
    static_cast<PlacedBytes&>(m) = place_bytes(t.span(env), m.dt.bits / 8, misalign, guard, kSlack);
    return m;
  }

  void call(const Variant& v, const Env& env, const Shape& s, std::vector<Mem>& mems,
            const std::map<std::string, uint64_t, std::less<>>& scalars, const std::map<std::string, std::vector<simdgen_ref::map::Expect>>& expected, const std::string& shape, const std::string& inPlace) {
    const std::string head = k_.name + " [" + v.suffix + "] " + shape;
    CrashContext::set(head);
    std::map<std::string, void*, std::less<>> args;
    // In place: the output gets a private copy of its input, which it is then called with twice.
    std::vector<unsigned char> copy;
    const std::string shared = inPlace.empty() ? "" : k_.semantic("in_place." + inPlace);
    for (Mem& m : mems) {
      if (m.t->output) std::fill(m.lo, m.hi, kSentinel);
      args[m.t->name] = m.data;
    }
    std::vector<unsigned char> saved;
    Mem* out = nullptr;
    if (!shared.empty()) {
      const Mem* in = nullptr;
      for (Mem& m : mems) {
        if (m.t->name == shared) in = &m;
        if (m.t->name == inPlace) out = &m;
      }
      // The output's memory holds the input's values (and sentinel-free padding, like the input).
      saved.assign(out->lo, out->hi);
      std::copy(in->data, in->data + (in->hi - in->data < out->hi - out->data ? in->hi - in->data : out->hi - out->data), out->data);
      args[shared] = out->data;
    }
    v.call(Binding(env, std::move(args), scalars));
    for (const Mem& m : mems) {
      if (!m.t->output) continue;
      const auto& e = expected.at(m.t->name);
      const int64_t size = m.dt.bits / 8;
      const size_t j = out_index_.at(m.t->name);
      // A function computed to the spec's ULP bound: that bound, plus one for the correctly
      // rounded reference's own half and what one later rounding adds (docs/math.md).
      const double tolerance = rows_ref_.outputs()[j].expr.approximate() ? std::stod(k_.semantic("max_ulp", "1")) + 1 : 0;
      int64_t bad = 0;
      std::string first;
      const bool column_values = columns(j), row_values = reduces(j) && !column_values;
      // A reduction over the rows has one value per column, written even when there are no rows.
      // Element [r, c] of an element-wise output: its own layout (the shape's unless strided).
      std::vector<bool> element_at;  // by element offset from m.data: an element of the shape
      for (int64_t r = 0; r < (column_values ? 1 : s.rows); ++r)
        for (int64_t c = 0; c < (row_values ? 1 : s.cols); ++c) {
          const int64_t at = column_values ? c : row_values ? r : r * m.row_stride + c * m.col_stride;
          if (size_t(at) >= element_at.size()) element_at.resize(size_t(at) + 1, false);
          element_at[size_t(at)] = true;
          const Value got = simdgen_ref::map::read(m.dt, m.data, at);
          const simdgen_ref::map::Expect& want = e[size_t(column_values ? c : row_values ? r : r * s.cols + c)];
          if (!accept(m.dt, got, want, tolerance) && bad++ == 0)
            first = m.t->name + "[" + (column_values ? "column " + std::to_string(c) : std::to_string(r) + (row_values ? "" : ", " + std::to_string(c))) +
                    "] = " + show(m.dt, got) + ", expected " + describe(m.dt, want);
        }
      if (bad) rep_.fail(head + ": " + first + " (" + std::to_string(bad) + " mismatching elements)");
      if (&m == out) continue;  // its padding holds the input's bytes
      // Every byte that is not an element of the shape keeps the sentinel.
      for (const unsigned char* p = m.lo; p < m.hi; ++p) {
        const int64_t off = (p - m.data) / size;
        const bool element = p >= m.data && size_t(off) < element_at.size() && element_at[size_t(off)];
        if (!element && *p != kSentinel) {
          rep_.fail(head + ": wrote outside the elements of " + m.t->name + ", byte offset " + std::to_string(p - m.data));
          break;
        }
      }
    }
    if (out) std::copy(saved.begin(), saved.end(), out->lo);
  }

  bool reduces(size_t j) const { return !rows_ref_.outputs()[j].op.empty(); }
  bool columns(size_t j) const { return rows_ref_.outputs()[j].columns; }

  // got is `want`: bit for bit where it is exact (NaN matches NaN), else within its interval,
  // widened by `ulps` units in the last place (a math function's bound) and by one where a row value's
  // interval went into it.
  static bool accept(DType dt, Value got, const simdgen_ref::map::Expect& want, double ulps) {
    if (want.exact && want.lo.u == want.hi.u && want.lo.f == want.hi.f && !want.nan && !want.nan_ok)
      return ulps > 0 ? close(dt, got, want.lo, ulps) : same(dt, got, want.lo);
    if (!dt.is_float()) {
      const bool s = dt.kind == 'i';
      return s ? int64_t(want.lo.u) <= int64_t(got.u) && int64_t(got.u) <= int64_t(want.hi.u) : want.lo.u <= got.u && got.u <= want.hi.u;
    }
    if (want.nan) return got.f != got.f;
    if (got.f != got.f) return want.nan_ok;
    const double slack = ulps + (want.exact ? 0 : 1);
    auto widen = [&](double x, double dir) {
      for (int k = 0; k < int(std::ceil(slack)) && std::isfinite(x); ++k)
        x = dt.bits == 32 ? double(std::nextafter(float(x), float(dir))) : std::nextafter(x, dir);
      return x;
    };
    return widen(want.lo.f, -INFINITY) <= got.f && got.f <= widen(want.hi.f, INFINITY);
  }
  static std::string describe(DType dt, const simdgen_ref::map::Expect& want) {
    if (want.nan) return "NaN";
    std::string s = show(dt, want.lo);
    if (!(want.lo.u == want.hi.u && want.lo.f == want.hi.f)) s = "a value in [" + s + ", " + show(dt, want.hi) + "]";
    return s + (want.nan_ok ? " or NaN" : "");
  }

  const Kernel& k_;
  CrashContext crash_;
  Report rep_;
  Tensor shape_;
  Layout layout_;
  std::vector<Variant> variants_;
  simdgen_ref::map::RowReference rows_ref_;
  std::map<std::string, size_t> out_index_;  // tensor name -> output number
  int64_t runs_ = 0;
};

// Column counts: every count through 70 (below, at and around each multiple of 4..64 lanes), then
// around 128 and 256, and 1021: several iterations of every loop of a byte dot product (4 x 64
// bytes per iteration, then 64, 16, the tail; SVE 2048: 256-byte steps); the thin sweep takes fewer.
std::vector<int64_t> column_counts() {
  if (thin_sweep()) return thin_lengths(130, {1021});
  std::vector<int64_t> v;
  for (int64_t c = 0; c <= 70; ++c) v.push_back(c);
  for (int64_t c : {127, 128, 129, 255, 256, 257, 1021}) v.push_back(c);
  return v;
}

// Shapes the kernel accepts (static extents win): 1 and 3 rows, contiguous and padded rows,
// aligned and misaligned by one element.
std::vector<Shape> shapes(const Extents& e) {
  std::vector<Shape> out;
  std::vector<std::string> seen;
  for (int64_t rows : {int64_t{1}, int64_t{3}})
    for (int64_t cols : column_counts())
      for (int64_t pad : {int64_t{0}, int64_t{5}})
        for (int misalign : {0, 1})
          if (auto s = fit(e, rows, cols, pad, misalign)) {
            const std::string key = std::to_string(s->rows) + "," + std::to_string(s->cols) + "," + std::to_string(s->stride) + "," +
                                    std::to_string(misalign);
            if (std::find(seen.begin(), seen.end(), key) == seen.end()) seen.push_back(key), out.push_back(*s);
          }
  return out;
}

}  // namespace

void run_sizes(const Kernel& kernel) {
  MapRunner r(kernel);
  uint64_t seed = 1;
  for (const Shape& s : shapes(r.extents())) r.run(s, seed++, 0.0, 0);
}

void run_extremes(const Kernel& kernel) {
  MapRunner r(kernel);
  uint64_t seed = 100001;
  for (const Shape& s : shapes(r.extents()))
    if (s.misalign == 0) r.run(s, seed++, 0.5, 0);
}

void run_guard_pages(const Kernel& kernel) {
  MapRunner r(kernel);
  uint64_t seed = 200001;
  for (const Shape& s : shapes(r.extents()))
    if (s.misalign == 0 && (r.extents().cols >= 0 || s.cols < 20 || s.cols % 16 <= 1 || s.cols % 16 == 15))
      for (int guard : {1, 2}) r.run(s, seed++, 0.25, guard);
}

void run_in_place(const Kernel& kernel) {
  MapRunner r(kernel);
  uint64_t seed = 300001;
  for (const Tensor& t : kernel.tensors)
    if (kernel.has_semantic("in_place." + t.name))
      for (const Shape& s : shapes(r.extents())) r.run(s, seed++, 0.25, 0, t.name);
}

}  // namespace simdgen_exec::map
