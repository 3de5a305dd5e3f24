// SPDX-License-Identifier: Apache-2.0
// The execution-test driver, for every family: binds a shape of the kernel's input to its
// parameters, places the tensors (aligned heap with poisoned padding, or against PROT_NONE
// pages), runs every variant the CPU supports plus the dispatcher, and checks each call's outputs
// with the family's reference and that nothing outside the outputs was written. A family module
// supplies shapes, input data and the check of the outputs (families/<family>.h).
#pragma once

#include <doctest/doctest.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "crash_context.h"
#include "kernel.h"
#include "simdgen_cpu_checks.h"  // generated from `simdgen list --json` (the ISA registry)
#include "sweep.h"

namespace simdgen_exec {

using simdgen_test::CrashContext;

// Collects failures; prints the first few in full so a broken kernel does not flood the log.
struct Report {
  int failures = 0;
  static constexpr int kPrinted = 12;
  void fail(const std::string& msg) {
    if (failures++ < kPrinted) FAIL_CHECK(msg);
  }
  ~Report() {
    if (failures > kPrinted) FAIL_CHECK((std::to_string(failures - kPrinted) + " further failures not shown"));
  }
};

// The input seen as rows x cols with a row stride (rank 1: one row), placed `misalign` elements
// off a 64-byte boundary (the outputs likewise).
struct Shape {
  int64_t rows, cols, stride;
  int misalign;
  int64_t span() const { return rows > 0 && cols > 0 ? (rows - 1) * stride + cols : 0; }  // elements read
};

// What the kernel fixes of that view: a static value, or -1 for a runtime extent; stride -2 = cols.
struct Extents {
  int64_t rows, cols, stride;
};

enum class Placement { heap, guard_after_end, guard_before_start };

template <class T>
struct AlignedBuffer {
  std::unique_ptr<T, decltype(&std::free)> p{nullptr, &std::free};
  explicit AlignedBuffer(int64_t n) {
    p.reset(static_cast<T*>(std::aligned_alloc(64, size_t((n * int64_t(sizeof(T)) + 63) / 64 * 64 + 64))));
    REQUIRE_MESSAGE(p, "the test could not allocate " << n << " elements (a shape too large for this machine)");
  }
  T* get() const { return p.get(); }
};

// Readable pages between two PROT_NONE pages: any access just outside [lo, hi) faults.
struct GuardedPages {
  unsigned char *map = nullptr, *lo = nullptr, *hi = nullptr;
  size_t size = 0;
  explicit GuardedPages(size_t bytes) {
    const size_t page = size_t(sysconf(_SC_PAGESIZE));
    const size_t data = (bytes + page - 1) / page * page + page;
    size = data + 2 * page;
    void* m = mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    REQUIRE(m != MAP_FAILED);
    map = static_cast<unsigned char*>(m);
    REQUIRE(mprotect(map, page, PROT_NONE) == 0);
    REQUIRE(mprotect(map + page + data, page, PROT_NONE) == 0);
    lo = map + page, hi = lo + data;
  }
  ~GuardedPages() { munmap(map, size); }
  GuardedPages(const GuardedPages&) = delete;
  GuardedPages& operator=(const GuardedPages&) = delete;
};

// Memory for `elements` elements of `size` bytes: aligned heap memory with `slack` elements of
// room on each side, the elements `misalign` elements past a 64-byte boundary (guard 0), or ending
// at (guard 1) / starting right after (guard 2) a PROT_NONE page. The elements are [data, ...),
// the whole memory [lo, hi) (for sentinels and poison).
struct PlacedBytes {
  unsigned char *data = nullptr, *lo = nullptr, *hi = nullptr;
  std::unique_ptr<AlignedBuffer<unsigned char>> heap;
  std::unique_ptr<GuardedPages> pages;
};
inline PlacedBytes place_bytes(int64_t elements, int64_t size, int misalign, int guard, int64_t slack = 64) {
  PlacedBytes m;
  const int64_t bytes = elements * size;
  if (guard == 0) {
    const int64_t total = (2 * slack + misalign) * size + bytes;
    m.heap = std::make_unique<AlignedBuffer<unsigned char>>(total);
    m.lo = m.heap->get(), m.hi = m.lo + total;
    m.data = m.lo + (slack + misalign) * size;
  } else {
    m.pages = std::make_unique<GuardedPages>(size_t(bytes));
    m.lo = m.pages->lo, m.hi = m.pages->hi;
    m.data = guard == 1 ? m.hi - bytes : m.lo;
  }
  return m;
}

// The outputs of one call, by tensor name.
struct Outputs {
  std::map<std::string, void*, std::less<>> at;
  template <class T>
  T* get(std::string_view name) const {
    return static_cast<T*>(at.find(name)->second);
  }
};

// Checks one call's outputs: "" when right, else what is wrong (first mismatch, count).
using Check = std::function<std::string(const Outputs&)>;

// How one tensor of the kernel (its input; for map, its first output) maps onto Shape, and its
// static extents.
class Layout {
 public:
  explicit Layout(const Kernel& k) : Layout(k, k.input()) {}
  Layout(const Kernel& k, const Tensor& t) : k_(k), in_(t) {
    if (in_.extents.size() != 1 && in_.extents.size() != 2)
      throw std::logic_error("exec driver: input of rank " + std::to_string(in_.extents.size()) +
                             " (the driver's shapes are 1-D or 2-D)");
    const bool rank2 = in_.extents.size() == 2;
    rows_expr_ = rank2 ? in_.extents[0] : "1";
    cols_expr_ = in_.extents.back();
    stride_expr_ = rank2 ? in_.strides[0] : cols_expr_;
    extents_ = {fixed(rows_expr_), fixed(cols_expr_), -2};
    if (stride_expr_ != cols_expr_) extents_.stride = fixed(stride_expr_);
  }
  const Extents& extents() const { return extents_; }

  // The symbols of one run: constants, `more` (extents the family binds itself), plus the runtime
  // extents from `s`. Every runtime extent parameter must be bound.
  Env bind(const Shape& s, const Env& more = {}, bool complete = true) const {
    Env env = k_.constants;
    env.insert(more.begin(), more.end());
    auto set = [&](const std::string& expr, int64_t v) {
      const std::string sym = Expr::symbol(expr);
      if (is_param(sym)) env[sym] = v;
    };
    set(rows_expr_, s.rows), set(cols_expr_, s.cols), set(stride_expr_, s.stride);
    for (const std::string& p : k_.extent_params)
      if (complete && !env.count(p))
        throw std::logic_error("exec driver: parameter " + p + " of " + k_.name +
                               " is not an extent or row stride of its input; its family module must bind it");
    return env;
  }

  // The runtime extent parameters `bind` sets from a Shape.
  std::vector<std::string> shape_params() const {
    std::vector<std::string> v;
    for (const std::string* e : {&rows_expr_, &cols_expr_, &stride_expr_})
      if (is_param(Expr::symbol(*e))) v.push_back(Expr::symbol(*e));
    return v;
  }

 private:
  bool is_param(const std::string& sym) const {
    return std::find(k_.extent_params.begin(), k_.extent_params.end(), sym) != k_.extent_params.end();
  }
  int64_t fixed(const std::string& expr) const { return is_param(Expr::symbol(expr)) ? -1 : Expr::eval(expr, k_.constants); }

  const Kernel& k_;
  const Tensor& in_;
  std::string rows_expr_, cols_expr_, stride_expr_;
  Extents extents_{};
};

// The shape actually run for a request of rows x cols with stride cols + pad: static extents win.
// None when a static row stride is shorter than cols.
inline std::optional<Shape> fit(const Extents& e, int64_t rows, int64_t cols, int64_t pad, int misalign) {
  if (e.rows >= 0) rows = e.rows;
  if (e.cols >= 0) cols = e.cols;
  int64_t stride = cols + pad;
  if (e.stride == -2) stride = cols;
  else if (e.stride >= 0) stride = e.stride;
  if (stride < cols) return std::nullopt;
  return Shape{rows, cols, stride, misalign};
}

// The variants to run: those the CPU supports, then the dispatcher. The header's X-macro must list
// exactly the variants `explain --json` plans for this architecture; unknown suffixes are failures.
inline std::vector<Variant> runnable_variants(const Kernel& k, Report& rep) {
  std::vector<Variant> out;
  std::vector<std::string> listed;
  std::string skipped, fixedWidth;
  for (const Variant& v : k.variants) {
    if (v.suffix != "dispatch") listed.push_back(v.suffix);
    if ((scalable_variants_only() && v.suffix != "dispatch" && v.suffix.rfind("sve", 0) != 0) ||
        (dotprod_variants_only() && v.suffix != "dispatch" && !arm_dot_variant(v.suffix))) {
      fixedWidth += " " + v.suffix;
      continue;
    }
    switch (simdgen_test::variant_support(v.suffix)) {
      case simdgen_test::CpuSupport::yes: out.push_back(v); break;
      case simdgen_test::CpuSupport::no: skipped += " " + v.suffix; break;
      case simdgen_test::CpuSupport::unknown_suffix:
        rep.fail(k.name + ": variant suffix '" + v.suffix + "' names no ISA of the registry (simdgen list)");
    }
  }
  std::vector<std::string> planned;
  for (const std::string& s : k.planned_variants)
    if (simdgen_test::variant_on_this_arch(s)) planned.push_back(s);
  if (listed != planned) {
    std::string a, b;
    for (const auto& s : listed) a += " " + s;
    for (const auto& s : planned) b += " " + s;
    rep.fail(k.name + ": generated/" + k.name + ".h lists the variants" + a +
             " but the generator plans for this architecture" + b + " (regenerate generated/)");
  }
  if (std::find(listed.begin(), listed.end(), "scalar") == listed.end())
    rep.fail(k.name + ": the variant X-macro lists no 'scalar' variant");
  if (!skipped.empty()) MESSAGE(k.name << ": CPU lacks features for" << skipped << " (not run)");
  if (!fixedWidth.empty()) MESSAGE(k.name << ": fixed-width variants" << fixedWidth << " not run at this vector length (SIMDGEN_EXEC_VARIANTS)");
  // The dispatcher calls one of the variants run here by name: spared when asked, if one runs.
  const bool another = std::any_of(out.begin(), out.end(), [](const Variant& v) { return v.suffix != "dispatch"; });
  if (dispatcher_spared() && another) {
    out.erase(std::remove_if(out.begin(), out.end(), [](const Variant& v) { return v.suffix == "dispatch"; }), out.end());
    MESSAGE(k.name << ": the dispatcher not run on this CPU (SIMDGEN_EXEC_VARIANTS: it calls a variant run here)");
  }
  return out;
}

inline constexpr unsigned char kOutSentinel = 0xA5;  // output memory before a call: stray writes show

// Runs shapes of one kernel whose input elements are of type In.
template <class In>
class Runner {
 public:
  Runner(const Kernel& k, In poison) : k_(k), layout_(k), poison_(poison), variants_(runnable_variants(k, rep_)) {}
  ~Runner() { CHECK_MESSAGE(runs_ > 0, (k_.name + ": no shape of this case fits the kernel")); }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const Kernel& kernel() const { return k_; }
  const Extents& extents() const { return layout_.extents(); }
  Report& report() { return rep_; }

  // One shape: `fill` writes the elements of the view (padding keeps the poison), `expect` computes
  // the reference from them and returns the check of each call's outputs. Each (shape, what,
  // placement) runs once: static shapes repeat.
  void run(const Shape& s, Placement where, const std::string& what, const std::function<void(In*)>& fill,
           const std::function<Check(const In*)>& expect) {
    const std::string head = describe(s) + " " + what + placement_name(where);
    if (!seen_.insert(head).second) return;
    runs_ += 1;
    const Env env = layout_.bind(s);
    if (where == Placement::heap) run_heap(s, env, head, fill, expect);
    else run_guarded(s, env, where == Placement::guard_after_end, head, fill, expect);
  }

 private:
  static constexpr int64_t kSlack = 64;  // poisoned input elements, and sentinel bytes around outputs

  static std::string describe(const Shape& s) {
    return "rows=" + std::to_string(s.rows) + " cols=" + std::to_string(s.cols) + " stride=" +
           std::to_string(s.stride) + " misalign=" + std::to_string(s.misalign);
  }
  static const char* placement_name(Placement p) {
    return p == Placement::heap ? "" : p == Placement::guard_after_end ? " (guard page after the last element)"
                                                                       : " (guard page before the first element)";
  }

  // Where one output lives: the elements, inside sentinel-filled memory [lo, hi).
  struct OutMem {
    const Tensor* t;
    unsigned char *data, *lo, *hi;
    int64_t bytes;
  };

  void run_heap(const Shape& s, const Env& env, const std::string& head, const std::function<void(In*)>& fill,
                const std::function<Check(const In*)>& expect) {
    const int64_t len = s.misalign + s.span() + kSlack;
    AlignedBuffer<In> ibuf(len);
    std::fill(ibuf.get(), ibuf.get() + len, poison_);
    In* in = ibuf.get() + s.misalign;
    fill(in);
    const Check check = expect(in);
    std::vector<AlignedBuffer<unsigned char>> bufs;
    std::vector<OutMem> outs;
    for (const Tensor& t : k_.tensors) {
      if (!t.output) continue;
      const int64_t size = dtype_bytes(t), bytes = t.span(env) * size;
      const int64_t total = (2 * kSlack + s.misalign) * size + bytes;
      bufs.emplace_back(total);
      unsigned char* lo = bufs.back().get();
      outs.push_back({&t, lo + (kSlack + s.misalign) * size, lo, lo + total, bytes});
    }
    for (const Variant& v : variants_) call(v, env, in, outs, check, head);
  }

  // The input ends exactly at a PROT_NONE page or starts right after one; each output likewise.
  void run_guarded(const Shape& s, const Env& env, bool at_end, const std::string& head,
                   const std::function<void(In*)>& fill, const std::function<Check(const In*)>& expect) {
    const size_t ib = size_t(s.span()) * sizeof(In);
    GuardedPages ipages(ib);
    std::fill(reinterpret_cast<In*>(ipages.lo), reinterpret_cast<In*>(ipages.hi), poison_);
    In* in = reinterpret_cast<In*>(at_end ? ipages.hi - ib : ipages.lo);
    fill(in);
    const Check check = expect(in);
    std::vector<std::unique_ptr<GuardedPages>> pages;
    std::vector<OutMem> outs;
    for (const Tensor& t : k_.tensors) {
      if (!t.output) continue;
      const int64_t bytes = t.span(env) * dtype_bytes(t);
      pages.push_back(std::make_unique<GuardedPages>(size_t(bytes)));
      GuardedPages& g = *pages.back();
      outs.push_back({&t, at_end ? g.hi - bytes : g.lo, g.lo, g.hi, bytes});
    }
    for (const Variant& v : variants_) call(v, env, in, outs, check, head);
  }

  void call(const Variant& v, const Env& env, In* in, const std::vector<OutMem>& outs, const Check& check,
            const std::string& shape) {
    const std::string head = k_.name + " [" + v.suffix + "] " + shape;
    CrashContext::set(head);
    std::map<std::string, void*, std::less<>> args{{k_.input().name, in}};
    Outputs o;
    for (const OutMem& m : outs) {
      std::memset(m.lo, kOutSentinel, size_t(m.hi - m.lo));
      args[m.t->name] = m.data;
      o.at[m.t->name] = m.data;
    }
    v.call(Binding(env, std::move(args)));
    if (const std::string bad = check(o); !bad.empty()) rep_.fail(head + ": " + bad);
    for (const OutMem& m : outs)
      for (const unsigned char* p = m.lo; p < m.hi; ++p)
        if ((p < m.data || p >= m.data + m.bytes) && *p != kOutSentinel) {
          rep_.fail(head + ": wrote outside the " + m.t->name + ", byte offset " + std::to_string(p - m.data) +
                    " from " + m.t->name + "[0] (" + std::to_string(m.bytes) + " bytes of outputs)");
          break;
        }
  }

  static int64_t dtype_bytes(const Tensor& t) {
    const std::string& d = t.dtype;
    const int bits = std::atoi(d.c_str() + 1);
    if ((d[0] != 'i' && d[0] != 'u' && d[0] != 'f') || bits % 8 || bits <= 0)
      throw std::logic_error("exec driver: unknown dtype " + d + " of tensor " + t.name);
    return bits / 8;
  }

  const Kernel& k_;
  CrashContext crash_;
  Report rep_;
  Layout layout_;
  In poison_;
  std::vector<Variant> variants_;
  std::set<std::string> seen_;
  int64_t runs_ = 0;
};

}  // namespace simdgen_exec
