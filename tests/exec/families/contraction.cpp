// SPDX-License-Identifier: Apache-2.0
// The exec driver's module for the `contraction` family (declared in contraction.h). A contraction
// kernel computes, for every point of its parallel dims,
//   out[out.index] = epilogue(init + sum over the reduction dims of a[a.index] * b[b.index]);
// the runner reads that definition from the plan's semantics (dims, dim<d>, dim<d>.kind,
// <tensor>.index, operands, init, epilogue), binds the runtime extents and row strides (every
// stride as small as the dense layout allows plus random padding), places every tensor on its own
// (misaligned heap memory fenced by sentinels, or ending at / starting after a PROT_NONE page),
// and checks each call of each variant and the dispatcher:
//  - every output element against a reference accumulated in a wider type (see Bound below for
//    the tolerance), NaN and infinities exactly, the epilogue's NaN rules included;
//  - every byte of the output's memory that is no output element (row padding, before, after)
//    keeps its value, and the inputs' memory does not change at all.
// Row padding of the inputs holds a quiet NaN, so a kernel that uses padding elements shows.
#include "contraction.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "runner.h"
#include "show.h"
#include "sweep.h"
#include "test_rng.h"

namespace simdgen_exec::contraction {
namespace {

// ---------------------------------------------------------------------------------------------
// The kernel's definition, from its semantics.

std::string trim(const std::string& s) {
  const size_t b = s.find_first_not_of(' '), e = s.find_last_not_of(' ');
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

// "a, b ,c" -> {"a", "b", "c"}; "" -> {}.
std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> v;
  if (trim(s).empty()) return v;
  size_t at = 0;
  for (size_t next; (next = s.find(sep, at)) != std::string::npos; at = next + 1) v.push_back(trim(s.substr(at, next - at)));
  v.push_back(trim(s.substr(at)));
  return v;
}

// "d3", "dim3": a prefix and a number (appended: gcc 12 warns falsely on "d" + std::to_string(n) at -O3).
std::string numbered(const char* prefix, size_t n) {
  std::string s = prefix;
  s += std::to_string(n);
  return s;
}

// A C floating literal ("-1", "0.5f", "1e-3"): its value, or false.
bool literal(const std::string& s, double* v) {
  if (s.empty()) return false;
  if (s == "(-2147483647 - 1)") return *v = -2147483648.0, true;  // how an i32 contraction spells its minimum
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() && (*end == 'f' || *end == 'F')) ++end;
  return end != s.c_str() && *end == '\0';
}

struct Dim {
  std::string name, extent;  // the user's name (messages), the extent expression
  bool reduction = false;
};

struct Step {
  enum class Kind { relu, clamp, scale, add, div } kind = Kind::relu;
  double lo = 0, hi = 0;  // clamp
  double factor = 1;      // scale (div) by a literal ...
  std::string param;      // ... or by this scalar parameter (plan name)
  std::string tensor;     // add
};

// An index expression as an affine function of the dims: constant + sum coef[d] * d<d>.
struct Affine {
  int64_t constant = 0;
  std::vector<int64_t> coef;
};

struct Definition {
  std::vector<Dim> dims;
  std::map<std::string, std::vector<Affine>, std::less<>> index;  // per tensor, per position
  std::string a, b;          // the multiplied tensors
  std::string init = "zero";  // "zero", "output" or an input tensor
  std::string out;           // the output tensor
  std::vector<Step> epilogue;
  bool sequential = false;  // order "sequential": the plain loop's sum, bit for bit (see Run::reference)
  bool relu_last() const { return !epilogue.empty() && epilogue.back().kind == Step::Kind::relu; }
};

[[noreturn]] void bad_definition(const Kernel& k, const std::string& why) {
  throw std::logic_error("exec driver: contraction " + k.name + ": " + why);
}

std::string need(const Kernel& k, const std::string& key) {
  if (!k.has_semantic(key)) bad_definition(k, "its semantics lack \"" + key + "\"");
  return k.semantic(key);
}

// `text` as an affine function of d0..d{D-1} (constants allowed); checked at a second point.
Affine affine(const Kernel& k, const std::string& text, size_t dims) {
  Env env = k.constants;
  auto at = [&](auto value) {
    for (size_t d = 0; d < dims; ++d) env[numbered("d", d)] = value(d);
    return Expr::eval(text, env);
  };
  Affine a;
  a.constant = at([](size_t) { return int64_t{0}; });
  for (size_t d = 0; d < dims; ++d) a.coef.push_back(at([&](size_t e) { return int64_t(e == d); }) - a.constant);
  int64_t want = a.constant;
  for (size_t d = 0; d < dims; ++d) want += a.coef[d] * int64_t(3 + 7 * d);
  if (at([](size_t e) { return int64_t(3 + 7 * e); }) != want) bad_definition(k, "index '" + text + "' is not affine in the dims");
  return a;
}

Step parse_step(const Kernel& k, const std::string& text) {
  const size_t open = text.find('(');
  const std::string op = trim(text.substr(0, open));
  std::vector<std::string> args;
  if (open != std::string::npos) {
    if (text.back() != ')') bad_definition(k, "epilogue step '" + text + "' lacks ')'");
    args = split(text.substr(open + 1, text.size() - open - 2), ',');
  }
  Step s;
  auto arity = [&](size_t n) {
    if (args.size() != n) bad_definition(k, "epilogue step '" + text + "': expected " + std::to_string(n) + " arguments");
  };
  if (op == "relu") {
    s.kind = Step::Kind::relu, arity(0);
  } else if (op == "clamp") {
    s.kind = Step::Kind::clamp, arity(2);
    if (!literal(args[0], &s.lo) || !literal(args[1], &s.hi)) bad_definition(k, "epilogue step '" + text + "': bounds are no literals");
  } else if (op == "scale" || op == "div") {
    s.kind = op == "scale" ? Step::Kind::scale : Step::Kind::div, arity(1);
    if (!literal(args[0], &s.factor)) {
      // A scalar parameter, by its plan name or by the user's name (semantics name.<param>).
      for (const ScalarParam& p : k.scalar_params)
        if (p.name == args[0] || k.semantic("name." + p.name) == args[0]) s.param = p.name;
      if (s.param.empty()) bad_definition(k, "epilogue step '" + text + "': no literal and no scalar parameter");
    }
  } else if (op == "add") {
    s.kind = Step::Kind::add, arity(1);
    s.tensor = args[0];
  } else {
    bad_definition(k, "unknown epilogue step '" + text + "'");
  }
  return s;
}

// The epilogue's steps: separated by ';' as the plan publishes them, or by ',' outside parentheses
// (make_exec_test.cmake passes the semantics through CMake lists, which turn ';' into ", ").
std::vector<std::string> steps(const std::string& text) {
  std::vector<std::string> v;
  std::string cur;
  int depth = 0;
  for (const char c : text) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth == 0 && (c == ';' || c == ',')) v.push_back(trim(cur)), cur.clear();
    else cur += c;
  }
  if (!trim(cur).empty() || !v.empty()) v.push_back(trim(cur));
  return v;
}

bool is_input(const Kernel& k, const std::string& name) {
  for (const Tensor& t : k.tensors)
    if (t.name == name) return !t.output;
  return false;
}

Definition parse(const Kernel& k) {
  Definition def;
  const size_t dims = size_t(std::stoi(need(k, "dims")));
  for (size_t d = 0; d < dims; ++d) {
    const std::string key = numbered("dim", d), kind = need(k, key + ".kind");
    if (kind != "parallel" && kind != "reduction") bad_definition(k, key + ".kind is '" + kind + "'");
    def.dims.push_back({k.semantic(key + ".name", numbered("d", d)), need(k, key), kind == "reduction"});
  }
  for (const Tensor& t : k.tensors) {
    if (t.output) {
      if (!def.out.empty()) bad_definition(k, "more than one output");
      def.out = t.name;
    }
    const std::vector<std::string> index = split(need(k, t.name + ".index"), ',');
    if (index.size() != t.extents.size() || index.size() != t.strides.size())
      bad_definition(k, t.name + ".index has " + std::to_string(index.size()) + " positions, the tensor " + std::to_string(t.extents.size()));
    for (const std::string& e : index) def.index[t.name].push_back(affine(k, e, dims));
  }
  const std::vector<std::string> ops = split(need(k, "operands"), ',');
  if (ops.size() != 2 || !is_input(k, ops[0]) || !is_input(k, ops[1])) bad_definition(k, "operands are not two input tensors");
  def.a = ops[0], def.b = ops[1];
  def.init = k.semantic("init", "zero");
  if (def.init != "zero" && def.init != "output" && !is_input(k, def.init)) bad_definition(k, "init '" + def.init + "'");
  for (const std::string& s : steps(k.semantic("epilogue"))) def.epilogue.push_back(parse_step(k, s));
  def.sequential = k.semantic("order", "any") == "sequential";
  for (const Step& s : def.epilogue)
    if (s.kind == Step::Kind::add && !is_input(k, s.tensor)) bad_definition(k, "add(" + s.tensor + "): no input tensor");
  // The output, the init tensor and added tensors are indexed by parallel dims only.
  for (const auto& [name, index] : def.index)
    if (name != def.a && name != def.b)
      for (const Affine& a : index)
        for (size_t d = 0; d < dims; ++d)
          if (a.coef[d] != 0 && def.dims[d].reduction) bad_definition(k, name + ".index uses reduction dim " + def.dims[d].name);
  return def;
}

// ---------------------------------------------------------------------------------------------
// Requests, shapes and the layout of one run.

enum class Data { random, nan_spot, inf_spot, neg_zero, huge, tiny, specials };
const char* data_name(Data d) {
  static const char* names[] = {"random", "one NaN", "one infinity", "signed zeros", "huge", "tiny", "special values"};
  return names[int(d)];
}

// One run: values of the runtime dim extents (in the order of Runner::dim_params), how the
// strides are padded (0 dense, 1 a few elements, 2 more), placement and data.
struct Request {
  std::vector<int64_t> sizes;
  uint64_t seed = 1;
  int misalign = 0, guard = 0, pad = 0;
  Data data = Data::random;
};

// Where one tensor's elements are: offset = constant + sum coef[d] * d over the dims.
// A tensor packed ahead in blocks (semantics <tensor>.block, .block_stride) adds
// x[block_dim] / block * block_skip to the affine part.
struct Access {
  int64_t constant = 0;
  std::vector<int64_t> coef;
  size_t block_dim = SIZE_MAX;
  int64_t block = 0, block_skip = 0;
  // A padded tensor ("<name>.padding": "zero"): each position's index and extent; a point
  // outside them reads a zero (the kernel's result over a zero-padded copy).
  std::vector<std::pair<Affine, int64_t>> bounds;
  bool inside(const std::vector<int64_t>& x) const {
    for (const auto& [ix, e] : bounds) {
      int64_t v = ix.constant;
      for (size_t d = 0; d < x.size(); ++d) v += ix.coef[d] * x[d];
      if (v < 0 || v >= e) return false;
    }
    return true;
  }
  int64_t at(const std::vector<int64_t>& x) const {
    int64_t o = constant;
    for (size_t d = 0; d < x.size(); ++d) o += coef[d] * x[d];
    return o + (block ? x[block_dim] / block * block_skip : 0);
  }
  // The offsets of points 0..n-1 along dim d past point 0 (the reference's inner loops).
  std::vector<int64_t> along(size_t d, int64_t n) const {
    std::vector<int64_t> v(size_t(std::max<int64_t>(n, 0)));
    for (int64_t j = 0; j < n; ++j) v[size_t(j)] = d == SIZE_MAX ? 0 : coef[d] * j + (block && d == block_dim ? j / block * block_skip : 0);
    return v;
  }
};

// Steps x over the box ext of `dims` (the last fastest): false after the last point.
bool step(std::vector<int64_t>& x, const std::vector<size_t>& dims, const std::vector<int64_t>& ext) {
  for (size_t i = dims.size(); i-- > 0;) {
    if (++x[dims[i]] < ext[dims[i]]) return true;
    x[dims[i]] = 0;
  }
  return false;
}
bool empty_box(const std::vector<size_t>& dims, const std::vector<int64_t>& ext) {
  for (size_t d : dims)
    if (ext[d] <= 0) return true;
  return false;
}

// The memory of one tensor in one run, with its evaluated layout.
struct Mem : PlacedBytes {
  const Tensor* t = nullptr;
  std::vector<int64_t> extents, strides;
  int64_t span = 0;
  Access access;
  // The element at position i of the tensor's extents (a blocked tensor's last position is its
  // block dim, of stride 1: see place).
  int64_t offset(const std::vector<int64_t>& i) const {
    int64_t o = 0;
    for (size_t p = 0; p < i.size(); ++p) o += i[p] * strides[p];
    return o + (access.block ? i.back() / access.block * access.block_skip : 0);
  }
};

// One output element's expectations: the values it may take (usually one with a tolerance; the
// infinities and NaN too where a float partial sum may overflow).
template <class Acc>
struct Want {
  struct Cand {
    Acc v, bound;
  };
  int64_t offset = 0, point = 0;  // element offset in the output; linear index of its parallel point
  bool signed_zero = false;       // the one candidate is exact, a zero's sign included
  Acc magnitude = 0;              // |init| + sum |a * b| over the finite terms
  int n = 0;
  Cand c[6];
  void add(Acc v, Acc bound) {
    for (int i = 0; i < n; ++i)
      if ((c[i].v == v || (std::isnan(c[i].v) && std::isnan(v))) && c[i].bound == bound) return;
    if (n < 6) c[n++] = {v, std::isfinite(v) ? bound : Acc(0)};
  }
};

// Tolerance (the standard error analysis of a dot product, Higham, "Accuracy and Stability of
// Numerical Algorithms", 2nd ed., section 3.1): the kernel sums n = R + 1 terms (R products and
// the init value) in any order, with or without FMAs. Each term goes through at most one product
// rounding and n - 1 addition roundings, so with u = 2^-24 (binary32; 2^-53 for binary64)
//   |got - exact| <= gamma_n * (|init| + sum |a * b|),   gamma_n = n u / (1 - n u).
// The reference itself accumulates in Acc (double for f32), off the exact sum by at most
// gamma_n(u_Acc) times the same magnitude; both go into the bound. Underflow is absolute, not
// relative: each of the at most 2n roundings can lose half the smallest subnormal, so
// n * denorm_min is added. The epilogue then: relu and clamp are 1-Lipschitz (the bound stays);
// scale(X) multiplies the bound by |X| and rounds once (u times the result's magnitude, plus
// denorm_min for underflow); add rounds the sum once. Overflow: when the magnitude times
// (1 + gamma_n) reaches the type's maximum, a partial sum may overflow in the kernel's order but
// not in the reference's, so +-inf and NaN are accepted too (and then pass through the epilogue);
// a result within the bound of the maximum may round to infinity.
template <class T, class Acc>
struct Bound {
  static constexpr Acc u = Acc(std::numeric_limits<T>::epsilon()) / 2;
  static constexpr Acc u_acc = std::numeric_limits<Acc>::epsilon() / 2;
  static constexpr Acc kMax = Acc(std::numeric_limits<T>::max());
  static constexpr Acc kTiny = Acc(std::numeric_limits<T>::denorm_min());
  static Acc gamma(Acc n, Acc unit) { return n * unit >= Acc(0.5) ? std::numeric_limits<Acc>::infinity() : n * unit / (1 - n * unit); }

  // The candidates of a sum of R products with this value and magnitude.
  static void sum(Want<Acc>& w, Acc v, Acc magnitude, int64_t products) {
    const Acc n = Acc(products + 1), g = gamma(n, u);
    w.magnitude = magnitude;
    w.add(v, (g + gamma(n, u_acc)) * magnitude + n * kTiny);
    if (!(magnitude * (1 + g) < kMax)) w.add(std::numeric_limits<Acc>::infinity(), 0), w.add(-std::numeric_limits<Acc>::infinity(), 0),
        w.add(std::numeric_limits<Acc>::quiet_NaN(), 0);
    overflow(w);
  }
  // One epilogue step on every candidate; `x` is the scale factor or the added element.
  static void apply(Want<Acc>& w, const Step& s, Acc x) {
    Want<Acc> next = w;
    next.n = 0;
    for (int i = 0; i < w.n; ++i) {
      const Acc v = w.c[i].v, b = w.c[i].bound;
      switch (s.kind) {
        case Step::Kind::relu: next.add(std::isnan(v) ? Acc(0) : v > 0 ? v : Acc(0), b); break;
        case Step::Kind::clamp:
          next.add(std::isnan(v) ? Acc(T(s.lo)) : std::min(std::max(v, Acc(T(s.lo))), Acc(T(s.hi))), b);
          break;
        case Step::Kind::scale: next.add(v * x, std::fabs(x) * b + u * (std::fabs(v * x) + std::fabs(x) * b) + kTiny); break;
        case Step::Kind::div:  // rounded once, like scale; by zero: the infinity or NaN itself
          if (x == 0) next.add(v / x, 0);
          else next.add(v / x, b / std::fabs(x) + u * (std::fabs(v / x) + b / std::fabs(x)) + kTiny);
          break;
        case Step::Kind::add: next.add(v + x, b + u * (std::fabs(v + x) + b)); break;
      }
    }
    w = next;
    overflow(w);
  }
  // A finite result within its bound of the maximum may round to an infinity.
  static void overflow(Want<Acc>& w) {
    for (int i = 0, n = w.n; i < n; ++i) {
      const Acc v = w.c[i].v, b = w.c[i].bound;
      if (!std::isfinite(v)) continue;
      if (v + b >= kMax) w.add(std::numeric_limits<Acc>::infinity(), 0);
      if (v - b <= -kMax) w.add(-std::numeric_limits<Acc>::infinity(), 0);
    }
  }
  static bool matches(const typename Want<Acc>::Cand& c, Acc got) {
    if (std::isnan(c.v)) return std::isnan(got);
    if (std::isinf(c.v)) return got == c.v;
    return std::isfinite(got) && std::fabs(got - c.v) <= c.bound;
  }
};

template <class T>
std::string show_acc(T v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*Lg", std::numeric_limits<T>::max_digits10 + 2, (long double)v);
  return buf;
}

// ---------------------------------------------------------------------------------------------
// The runner.

class Runner {
 public:
  explicit Runner(const Kernel& k) : k_(k), def_(parse(k)), variants_(runnable_variants(k, rep_)) {
    for (const Dim& d : def_.dims) {
      const std::string p = Expr::symbol(d.extent);
      if (is_param(p)) {
        if (std::find(dim_params_.begin(), dim_params_.end(), p) == dim_params_.end()) dim_params_.push_back(p);
        param_reduction_[p] = d.reduction;
      }
    }
    // Operands stored as bf16 (semantics <tensor>.storage) are u16 tensors of bits in an f32 kernel;
    // operands of an i32 kernel may be narrower integers (widened exactly).
    const bool narrow_ok = k.tensor(def_.out).dtype == "i32";
    for (const Tensor& t : k.tensors) {
      if (narrow_ok && (t.name == def_.a || t.name == def_.b) && (t.dtype == "i8" || t.dtype == "u8" || t.dtype == "i16" || t.dtype == "u16")) {
        continue;
      } else if (k.has_semantic(t.name + ".storage")) {
        if (k.semantic(t.name + ".storage") != "bf16" || t.dtype != "u16" || k.tensor(def_.out).dtype != "f32" || (t.name != def_.a && t.name != def_.b))
          bad_definition(k, t.name + ".storage " + k.semantic(t.name + ".storage") + " on a " + t.dtype + " tensor (the runner takes bf16 operands as u16 bits of an f32 kernel)");
        bf16_.insert(t.name);
      } else if (t.dtype != k.tensor(def_.out).dtype) {
        bad_definition(k, "tensors of dtypes " + t.dtype + " and " + k.tensor(def_.out).dtype + " (the runner takes one dtype)");
      }
    }
    dtype_ = k.tensor(def_.out).dtype;
    if (dtype_ != "f32" && dtype_ != "f64" && dtype_ != "i32") bad_definition(k, "dtype " + dtype_ + " (the runner takes f32, f64 and i32)");
  }
  ~Runner() { CHECK_MESSAGE(runs_ > 0, (k_.name + ": no shape of this case fits the kernel")); }
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;

  const Kernel& kernel() const { return k_; }
  const Definition& definition() const { return def_; }
  // The runtime extents of the dims, in dim order: what Request::sizes gives values to.
  const std::vector<std::string>& dim_params() const { return dim_params_; }
  bool reduction_param(const std::string& p) const { return param_reduction_.at(p); }
  int variants() const { return int(variants_.size()); }

  // Multiply-adds of one call (every dim's extent multiplied).
  int64_t macs(const Request& q) const {
    const Env env = bind_dims(q);
    int64_t n = 1;
    for (const Dim& d : def_.dims) n *= Expr::eval(d.extent, env);
    return n;
  }

  // Runs every variant on one request; false when the kernel's static strides do not fit it.
  bool run(const Request& q) {
    TestRng rng(q.seed);
    const Env env = bind_strides(bind_dims(q), q.pad, rng);
    if (!output_fits(env)) return false;
    if (!seen_.insert(key(q, env)).second) return true;
    runs_ += 1;
    std::vector<Mem> mems;
    for (const Tensor& t : k_.tensors) mems.push_back(place(t, env, q));
    const std::string head = describe(q, env);
    if (dtype_ == "f32") execute<float, double>(q, env, mems, rng, head);
    else if (dtype_ == "f64") execute<double, long double>(q, env, mems, rng, head);
    else execute_int(q, env, mems, rng, head);
    return true;
  }

 private:
  static constexpr unsigned char kSentinel = 0xA5;
  static constexpr int64_t kSlack = 64;

  bool is_param(const std::string& p) const {
    return !p.empty() && std::find(k_.extent_params.begin(), k_.extent_params.end(), p) != k_.extent_params.end();
  }

  Env bind_dims(const Request& q) const {
    Env env = k_.constants;
    for (size_t i = 0; i < dim_params_.size(); ++i) env[dim_params_[i]] = q.sizes.at(i);
    return env;
  }

  // Every runtime stride (an extent parameter that is no dim) as small as the tensors using it
  // allow plus padding: a stride parameter at a tensor position must step over the elements the
  // positions with known strides span. Positions are bound innermost (last) first, in rounds, as
  // one stride may depend on another (or serve several tensors).
  Env bind_strides(Env env, int pad, TestRng& rng) const {
    for (bool progress = true; progress;) {
      progress = false;
      std::map<std::string, int64_t> want;
      for (const Tensor& t : k_.tensors) {
        int64_t span = 1;
        std::string inner;
        for (size_t p = t.strides.size(); p-- > 0;) {
          const int64_t e = std::max<int64_t>(Expr::eval(t.extents[p], env) - 1, 0);
          if (const auto s = evaluated(t.strides[p], env)) span += e * std::abs(*s);
          else if (const std::string sym = Expr::symbol(t.strides[p]); inner.empty() && is_param(sym)) inner = sym;
        }
        if (!inner.empty()) want[inner] = std::max(want.count(inner) ? want[inner] : 0, span);
      }
      for (const auto& [p, v] : want) env[p] = v + padding(pad, rng), progress = true;
    }
    for (const std::string& p : k_.extent_params)
      if (!env.count(p)) bad_definition(k_, "parameter " + p + " is no dim extent and no stride the runner can bind");
    return env;
  }
  static std::optional<int64_t> evaluated(const std::string& expr, const Env& env) {
    try {
      return Expr::eval(expr, env);
    } catch (const std::runtime_error&) {
      return std::nullopt;
    }
  }
  static int64_t padding(int pad, TestRng& rng) {
    if (pad == 0) return 0;
    return pad == 1 ? int64_t(1 + rng() % 7) : int64_t(16 + rng() % 50);
  }

  // The output's elements must not overlap: sorted by stride, each stride must step over what the
  // smaller ones span (static strides may be too short for a shape).
  bool output_fits(const Env& env) const {
    const Tensor& t = k_.tensor(def_.out);
    std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, extent)
    for (size_t p = 0; p < t.strides.size(); ++p) {
      const int64_t e = Expr::eval(t.extents[p], env);
      if (e == 0) return true;
      if (e > 1) dims.push_back({std::abs(Expr::eval(t.strides[p], env)), e});
    }
    std::sort(dims.begin(), dims.end());
    int64_t span = 1;
    for (const auto& [s, e] : dims) {
      if (s < span) return false;
      span += (e - 1) * s;
    }
    return true;
  }

  std::string key(const Request& q, const Env& env) const {
    std::string s;
    for (const auto& [name, v] : env) s += std::to_string(v) + ",";
    s += std::to_string(q.misalign) + "," + std::to_string(q.guard) + "," + data_name(q.data);
    if (q.data != Data::random) s += "," + std::to_string(q.seed);  // spots and specials differ per seed
    return s;
  }

  std::string describe(const Request& q, const Env& env) const {
    std::string s;
    for (const Dim& d : def_.dims) s += d.name + "=" + std::to_string(Expr::eval(d.extent, env)) + " ";
    for (const std::string& p : k_.extent_params)
      if (std::find(dim_params_.begin(), dim_params_.end(), p) == dim_params_.end()) s += p + "=" + std::to_string(env.at(p)) + " ";
    // i32 kernels have no NaN, infinities or signed zeros: those runs take whole-range integers.
    const bool whole_range = dtype_ == "i32" && q.data != Data::huge && q.data != Data::specials;
    s += "misalign=" + std::to_string(q.misalign) + " seed=" + std::to_string(q.seed) +
         " data=" + (whole_range ? "integers over their whole range" : data_name(q.data));
    if (q.guard) s += q.guard == 1 ? " (guard pages after the ends)" : " (guard pages before the starts)";
    return s;
  }

  Mem place(const Tensor& t, const Env& env, const Request& q) const {
    Mem m;
    m.t = &t;
    for (size_t p = 0; p < t.extents.size(); ++p) {
      m.extents.push_back(Expr::eval(t.extents[p], env));
      m.strides.push_back(Expr::eval(t.strides[p], env));
    }
    m.span = t.span(env);
    m.access.constant = 0;
    m.access.coef.assign(def_.dims.size(), 0);
    const std::vector<Affine>& index = def_.index.at(t.name);
    for (size_t p = 0; p < index.size(); ++p) {
      m.access.constant += m.strides[p] * index[p].constant;
      for (size_t d = 0; d < def_.dims.size(); ++d) m.access.coef[d] += m.strides[p] * index[p].coef[d];
    }
    if (k_.has_semantic(t.name + ".block")) {  // a copy packed ahead in blocks along its last position, a plain dim
      const int64_t block = std::stoll(k_.semantic(t.name + ".block"));
      const int64_t block_stride = Expr::eval(k_.semantic(t.name + ".block_stride"), env);
      const Affine& last = index.back();
      for (size_t d = 0; d < last.coef.size(); ++d)
        if (last.coef[d] == 1) m.access.block_dim = d;
      if (block <= 0 || m.access.block_dim == SIZE_MAX || last.constant != 0 || m.strides.back() != 1)
        bad_definition(k_, t.name + ".block: the last position must be a plain dim of stride 1");
      m.access.block = block;
      m.access.block_skip = block_stride - block;
      const int64_t e = m.extents.back();
      m.span = m.span == 0 ? 0 : (e + block - 1) / block * block_stride;  // whole blocks
    }
    if (k_.semantic(t.name + ".padding", "") == "zero") {
      for (size_t p = 0; p < index.size(); ++p) m.access.bounds.push_back({index[p], m.extents[p]});
    } else {
      check_in_bounds(m, env);
    }
    static_cast<PlacedBytes&>(m) = place_bytes(m.span, element_bytes(t), q.misalign, q.guard, kSlack);
    return m;
  }

  // The index must address elements of the tensor's extents only (else the plan's description,
  // not the kernel, is wrong).
  void check_in_bounds(const Mem& m, const Env& env) const {
    const std::vector<Affine>& index = def_.index.at(m.t->name);
    std::vector<int64_t> ext;
    for (const Dim& d : def_.dims) ext.push_back(Expr::eval(d.extent, env));
    for (size_t p = 0; p < index.size(); ++p) {
      int64_t lo = index[p].constant, hi = lo;
      for (size_t d = 0; d < ext.size(); ++d) {
        if (ext[d] == 0 && index[p].coef[d] != 0) return;  // no points
        const int64_t c = index[p].coef[d] * (ext[d] - 1);
        (c < 0 ? lo : hi) += c;
      }
      if (lo < 0 || hi >= std::max<int64_t>(m.extents[p], 1))
        bad_definition(k_, m.t->name + ".index position " + std::to_string(p) + " spans " + std::to_string(lo) + ".." + std::to_string(hi) +
                               " outside its extent " + std::to_string(m.extents[p]));
    }
  }

  int64_t element_bytes(const Tensor& t) const {
    if (bf16_.count(t.name) || t.dtype == "i16" || t.dtype == "u16") return 2;
    return t.dtype == "i8" || t.dtype == "u8" ? 1 : t.dtype == "f64" ? 8 : 4;
  }

  template <class T, class Acc>
  void execute(const Request& q, const Env& env, std::vector<Mem>& mems, TestRng& rng, const std::string& shape);
  void execute_int(const Request& q, const Env& env, std::vector<Mem>& mems, TestRng& rng, const std::string& shape);

  const Kernel& k_;
  CrashContext crash_;
  Report rep_;
  Definition def_;
  std::vector<Variant> variants_;
  std::vector<std::string> dim_params_;
  std::map<std::string, bool> param_reduction_;
  std::string dtype_;
  std::set<std::string, std::less<>> bf16_;  // operands stored as bf16 bits
  std::set<std::string> seen_;
  int64_t runs_ = 0;

  friend class RunBase;
  template <class T, class Acc>
  friend class Run;
  friend class IntRun;
};

// Outside the output's elements (element[e]: output element e is one; out_bytes each) nothing
// changes; the inputs do not change at all. `before` holds each tensor's memory before the call.
void check_unchanged(Report& rep, const std::string& head, const std::vector<Mem>& mems,
                     const std::vector<std::vector<unsigned char>>& before, const std::vector<bool>& element, int64_t out_bytes) {
  for (size_t i = 0; i < mems.size(); ++i) {
    const Mem& m = mems[i];
    const std::vector<unsigned char>& old = before[i];
    if (std::equal(old.begin(), old.end(), m.lo)) continue;
    for (const unsigned char* p = m.lo; p < m.hi; ++p) {
      const int64_t off = p - m.data, e = off >= 0 ? off / out_bytes : -1;
      const bool is_element = m.t->output && e >= 0 && e < m.span && element[size_t(e)];
      if (!is_element && *p != old[size_t(p - m.lo)]) {
        rep.fail(head + ": " + (m.t->output ? "wrote outside the elements of " : "changed the input ") + m.t->name + ", byte offset " +
                 std::to_string(off) + " from " + m.t->name + "[0] (" + std::to_string(m.span) + " elements span)");
        break;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// One request in element type T: data, reference, calls and checks.

template <class T>
T random_value(Data data, TestRng& rng) {
  using L = std::numeric_limits<T>;
  const uint64_t r = rng();
  const T unit = T(double(r >> 11) * 0x1p-53 * 2 - 1);  // [-1, 1)
  const T sign = (r & 1) ? T(-1) : T(1);
  switch (data) {
    case Data::neg_zero: return sign * T(0);
    case Data::huge: return unit * std::sqrt(L::max()) * T(4);  // products near or past the maximum
    case Data::tiny:                                          // products near and below the smallest normal
      return (r >> 5) % 4 == 0 ? sign * L::denorm_min() * T(1 + (r >> 8) % 5) : unit * std::sqrt(L::min()) * T(2);
    case Data::specials:
      if ((r >> 4) % 40 == 0) {
        const T s[] = {L::quiet_NaN(), L::infinity(), -L::infinity(), -T(0), L::max(), L::min(), L::denorm_min()};
        return s[(r >> 10) % 7];
      }
      break;
    default: break;
  }
  // Mostly uniform in [-1, 1); a few exact small integers and zeros.
  switch ((r >> 4) % 16) {
    case 0: return T(0);
    case 1:
    case 2: return T(int((r >> 12) % 7) - 3);
    default: return unit;
  }
}

// What the float and the integer runs share: the request, its buffers, its extents split into
// parallel and reduction dims, the scalar arguments' bits, the output elements the reference
// computes, and a variant's call on the buffers as they were filled.
class RunBase {
 protected:
  RunBase(Runner& r, const Request& q, const Env& env, std::vector<Mem>& mems, TestRng& rng, std::string shape)
      : r_(r), def_(r.def_), q_(q), env_(env), mems_(mems), rng_(rng), shape_(std::move(shape)) {
    for (const Dim& d : def_.dims) ext_.push_back(Expr::eval(d.extent, env));
    for (size_t d = 0; d < def_.dims.size(); ++d) (def_.dims[d].reduction ? red_ : par_).push_back(d);
  }

  Mem& mem(const std::string& name) const {  // mems_ is a reference: its elements stay writable
    for (Mem& m : mems_)
      if (m.t->name == name) return m;
    throw std::logic_error("exec driver: no tensor " + name);
  }
  template <class S>
  void set_scalar(const std::string& name, S x) {
    uint64_t b = 0;
    std::memcpy(&b, &x, sizeof x);
    scalar_bits_[name] = b;
  }
  // Every buffer's bytes as filled, and the output elements the reference computes (each once:
  // two output points on one element is a definition the runner cannot check).
  void snapshot(const std::vector<int64_t>& computed) {
    for (const Mem& m : mems_) before_.emplace_back(m.lo, m.hi);
    element_.assign(size_t(mem(def_.out).span), false);
    for (int64_t o : computed) {
      if (element_[size_t(o)]) bad_definition(r_.k_, "two output points share element " + std::to_string(o));
      element_[size_t(o)] = true;
    }
  }
  // Calls v on the buffers as they were filled (the output's bytes restored); returns the head of
  // its failure messages.
  std::string call_as_filled(const Variant& v) {
    const std::string head = r_.k_.name + " [" + v.suffix + "] " + shape_;
    CrashContext::set(head);
    std::map<std::string, void*, std::less<>> args;
    for (size_t i = 0; i < mems_.size(); ++i) {
      if (mems_[i].t->output) std::copy(before_[i].begin(), before_[i].end(), mems_[i].lo);
      args[mems_[i].t->name] = mems_[i].data;
    }
    v.call(Binding(env_, std::move(args), scalar_bits_));
    return head;
  }
  // The bytes besides the computed elements, unchanged.
  void check_memory(const std::string& head, int64_t element_bytes) {
    check_unchanged(r_.rep_, head, mems_, before_, element_, element_bytes);
  }

  Runner& r_;
  const Definition& def_;
  const Request& q_;
  const Env& env_;
  std::vector<Mem>& mems_;
  TestRng& rng_;
  std::string shape_;
  std::vector<int64_t> ext_;
  std::vector<size_t> par_, red_;
  std::map<std::string, uint64_t, std::less<>> scalar_bits_;
  std::vector<std::vector<unsigned char>> before_;
  std::vector<bool> element_;
};

template <class T, class Acc>
class Run : RunBase {
 public:
  Run(Runner& r, const Request& q, const Env& env, std::vector<Mem>& mems, TestRng& rng, std::string shape)
      : RunBase(r, q, env, mems, rng, std::move(shape)) {}

  void go() {
    fill();
    widen();
    reference();
    std::vector<int64_t> computed;
    for (const Want<Acc>& w : wants_) computed.push_back(w.offset);
    snapshot(computed);
    for (const Variant& v : r_.variants_) call(v);
  }

 private:
  T* elems(const std::string& name) { return reinterpret_cast<T*>(mem(name).data); }
  bool bf16(const std::string& name) const { return r_.bf16_.count(name) > 0; }
  // The values of an input's elements: its own, or those its bf16 bits stand for (widen()).
  const T* values(const std::string& name) {
    const auto it = widened_.find(name);
    return it == widened_.end() ? elems(name) : it->second.data();
  }
  void widen() {
    for (const std::string& name : r_.bf16_) {
      const Mem& m = mem(name);
      const uint16_t* bits = reinterpret_cast<const uint16_t*>(m.data);
      std::vector<T>& v = widened_[name];
      v.resize(size_t(m.span));
      for (size_t e = 0; e < v.size(); ++e) v[e] = bf16_value(bits[e]);
    }
  }
  // x rounded to the nearest bf16 (ties to even; NaN stays a quiet NaN), as its bits.
  static uint16_t bf16_bits(float x) {
    uint32_t u;
    std::memcpy(&u, &x, 4);
    if (std::isnan(x)) return uint16_t((u >> 16) | 0x40);
    return uint16_t((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
  }
  static float bf16_value(uint16_t bits) {
    const uint32_t u = uint32_t(bits) << 16;
    float x;
    std::memcpy(&x, &u, 4);
    return x;
  }
  // Writes x at element o of tensor m (rounded to bf16 for an operand stored so).
  void put(Mem& m, int64_t o, T x) {
    if (bf16(m.t->name)) reinterpret_cast<uint16_t*>(m.data)[o] = bf16_bits(float(x));
    else reinterpret_cast<T*>(m.data)[o] = x;
  }

  // Inputs: poison (a quiet NaN with a payload) everywhere, then values at the tensor's elements;
  // the output: sentinel bytes, and values at its elements when it is the init. Scalars: a factor
  // that keeps the results around 1.
  void fill() {
    T poison;
    const uint64_t bits = sizeof(T) == 4 ? 0x7fe5a5a5u : 0x7ffca5a5a5a5a5a5u;
    std::memcpy(&poison, &bits, sizeof poison);
    for (Mem& m : mems_) {
      if (m.t->output) std::fill(m.lo, m.hi, Runner::kSentinel);
      else if (bf16(m.t->name)) std::fill(reinterpret_cast<uint16_t*>(m.lo), reinterpret_cast<uint16_t*>(m.hi), bf16_bits(float(poison)));
      else std::fill(reinterpret_cast<T*>(m.lo), reinterpret_cast<T*>(m.hi), poison);
      if (!m.t->output || def_.init == "output") fill_elements(m);
    }
    if (q_.data == Data::nan_spot || q_.data == Data::inf_spot) plant_spot();
    for (const ScalarParam& p : r_.k_.scalar_params) {
      const T x = scalar_value();
      scalars_[p.name] = x;
      set_scalar(p.name, x);
    }
  }
  void fill_elements(Mem& m) {
    std::vector<size_t> all(m.extents.size());
    for (size_t p = 0; p < all.size(); ++p) all[p] = p;
    std::vector<int64_t> i(all.size(), 0);
    if (empty_box(all, m.extents)) return;
    do put(m, m.offset(i), random_value<T>(q_.data, rng_));
    while (step(i, all, m.extents));
  }
  // One NaN or infinity at a random element of an operand or the init (the rest stays finite).
  void plant_spot() {
    std::vector<Mem*> where{&mem(def_.a), &mem(def_.b)};
    if (def_.init != "zero") where.push_back(&mem(def_.init == "output" ? def_.out : def_.init));
    Mem& m = *where[rng_() % where.size()];
    if (m.span == 0) return;
    std::vector<int64_t> i;
    for (size_t p = 0; p < m.extents.size(); ++p) i.push_back(int64_t(rng_() % uint64_t(m.extents[p])));
    const int64_t o = m.offset(i);
    const T x = q_.data == Data::nan_spot ? std::numeric_limits<T>::quiet_NaN()
                                          : (rng_() & 1 ? -1 : 1) * std::numeric_limits<T>::infinity();
    put(m, o, x);
    shape_ += " (" + simdgen_test::show(x) + " at " + m.t->name + "[";
    for (size_t p = 0; p < i.size(); ++p) shape_ += (p ? ", " : "") + std::to_string(i[p]);
    shape_ += "])";
  }
  T scalar_value() {
    const uint64_t r = rng_();
    if (q_.data != Data::random && r % 4 == 0) return T(r % 8 == 0 ? 0 : 1);
    int64_t products = 1;
    for (size_t d : red_) products *= std::max<int64_t>(ext_[d], 1);
    const T x = T((0.5 + double(r >> 11) * 0x1p-53) * 2 / std::sqrt(double(products)));
    return (r >> 2) & 1 ? -x : x;
  }

  // -- The reference: per output element, init + products in the definition's order in Acc.
  //    Loop order: the other parallel dims, the reduction dims, then the parallel dim the output
  //    is most contiguous in, with one accumulator per element of it (cache-friendly and the same
  //    order of additions for each element).
  size_t inner_dim() const {
    const Access& o = mem(def_.out).access;
    size_t best = SIZE_MAX;
    for (size_t d : par_)
      if (o.coef[d] != 0 && (best == SIZE_MAX || std::abs(o.coef[d]) < std::abs(o.coef[best]))) best = d;
    return best == SIZE_MAX && !par_.empty() ? par_.back() : best;
  }

  Acc init_value(const std::vector<int64_t>& x) {
    if (def_.init == "zero") return 0;
    const std::string& t = def_.init == "output" ? def_.out : def_.init;
    return Acc(elems(t)[mem(t).access.at(x)]);
  }

  void reference() {
    if (empty_box(par_, ext_)) return;
    const size_t inner = inner_dim();
    std::vector<size_t> outer;
    for (size_t d : par_)
      if (d != inner) outer.push_back(d);
    const int64_t n = inner == SIZE_MAX ? 1 : ext_[inner];
    int64_t products = 1;
    for (size_t d : red_) products *= ext_[d];
    const Access &a = mem(def_.a).access, &b = mem(def_.b).access;
    const std::vector<int64_t> ja = a.along(inner, n), jb = b.along(inner, n);
    const T *pa = values(def_.a), *pb = values(def_.b);
    const size_t count = size_t(n);
    std::vector<Acc> acc(count), mag(count), flush(count);
    // order "sequential": the sum as the plain loop computes it in T, init first, then each
    // product rounded to T and added, in the reduction dims' order (step() runs the last one
    // innermost, as the spec's order); the product goes through a volatile so that no compiler
    // contracts the two roundings into an FMA (aarch64 gcc does under its default -ffp-contract=fast).
    std::vector<T> seq(def_.sequential ? count : 0);
    std::vector<char> daz_inf(count);
    const bool bf16_dot = !r_.bf16_.empty();
    std::vector<int64_t> x(ext_.size(), 0);
    do {
      for (int64_t j = 0; j < n; ++j) {
        if (inner != SIZE_MAX) x[inner] = j;
        acc[size_t(j)] = init_value(x);
        if (def_.sequential) seq[size_t(j)] = T(acc[size_t(j)]);
        mag[size_t(j)] = finite_abs(acc[size_t(j)]);
        flush[size_t(j)] = 0, daz_inf[size_t(j)] = 0;
      }
      if (inner != SIZE_MAX) x[inner] = 0;
      // Operand m's element at (x, inner = j): a zero where a padded operand's index leaves it.
      auto element = [&](const Access& m, const T* base, int64_t off, const std::vector<int64_t>& along, int64_t j) {
        if (!m.bounds.empty()) {
          if (inner != SIZE_MAX) x[inner] = j;
          const bool in = m.inside(x);
          if (inner != SIZE_MAX) x[inner] = 0;
          if (!in) return T(0);
        }
        return base[off + along[size_t(j)]];
      };
      if (!empty_box(red_, ext_)) do {
          const int64_t oa = a.at(x), ob = b.at(x);
          auto ea = [&](int64_t j) { return element(a, pa, oa, ja, j); };
          auto eb = [&](int64_t j) { return element(b, pb, ob, jb, j); };
          if (def_.sequential) {
            for (int64_t j = 0; j < n; ++j) {
              volatile T p = ea(j) * eb(j);
              seq[size_t(j)] = T(seq[size_t(j)] + p);
            }
          } else if (!bf16_dot) {
            for (int64_t j = 0; j < n; ++j) {
              const Acc p = Acc(ea(j)) * Acc(eb(j));
              acc[size_t(j)] += p;
              mag[size_t(j)] += finite_abs(p);
            }
          } else {  // and what vdpbf16ps may flush to zero (see expect)
            for (int64_t j = 0; j < n; ++j) {
              const T xa = ea(j), xb = eb(j);
              const Acc p = Acc(xa) * Acc(xb);
              acc[size_t(j)] += p;
              mag[size_t(j)] += finite_abs(p);
              const bool sub = std::fpclassify(xa) == FP_SUBNORMAL || std::fpclassify(xb) == FP_SUBNORMAL;
              if (sub || std::fabs(p) < Acc(std::numeric_limits<T>::min())) flush[size_t(j)] += finite_abs(p);
              if (sub && (std::isinf(xa) || std::isinf(xb))) daz_inf[size_t(j)] = 1;
            }
          }
        } while (step(x, red_, ext_));
      for (int64_t j = 0; j < n; ++j) {
        if (inner != SIZE_MAX) x[inner] = j;
        if (def_.sequential) wants_.push_back(expect(x, Acc(seq[size_t(j)]), 0, products, 0, false, true));
        else wants_.push_back(expect(x, acc[size_t(j)], mag[size_t(j)], products, flush[size_t(j)], daz_inf[size_t(j)]));
      }
      if (inner != SIZE_MAX) x[inner] = 0;
    } while (step(x, outer, ext_));
  }
  static Acc finite_abs(Acc v) {
    const Acc m = std::fabs(v);
    return m <= std::numeric_limits<Acc>::max() ? m : Acc(0);  // NaN and infinities: not in the magnitude
  }

  // With bf16 operands the kernel may use vdpbf16ps, which reads subnormal inputs as zero and
  // flushes subnormal partial sums: each product with a subnormal factor or below the smallest
  // normal may be lost (`flush`, the sum of their magnitudes), and each of the products + 1
  // additions may lose up to the smallest normal; a subnormal times an infinity may give NaN.
  // `exact`: `sum` is the kernel's sum itself (order "sequential"), no tolerance before the epilogue.
  Want<Acc> expect(const std::vector<int64_t>& x, Acc sum, Acc magnitude, int64_t products, Acc flush = 0, bool daz_inf = false,
                   bool exact = false) {
    Want<Acc> w;
    w.offset = mem(def_.out).access.at(x);
    for (size_t d : par_) w.point = w.point * ext_[d] + x[d];
    if (exact) return exactly(w, x, T(sum));
    Bound<T, Acc>::sum(w, sum, magnitude, products);
    if (!r_.bf16_.empty()) {
      for (int i = 0; i < w.n; ++i)
        if (std::isfinite(w.c[i].v)) w.c[i].bound += flush + Acc(products + 1) * Acc(std::numeric_limits<T>::min());
      if (daz_inf) w.add(std::numeric_limits<Acc>::quiet_NaN(), 0);
    }
    for (const Step& s : def_.epilogue) {
      Acc factor = 0;
      if (s.kind == Step::Kind::scale || s.kind == Step::Kind::div) factor = s.param.empty() ? Acc(T(s.factor)) : Acc(scalars_.at(s.param));
      if (s.kind == Step::Kind::add) factor = Acc(elems(s.tensor)[mem(s.tensor).access.at(x)]);
      Bound<T, Acc>::apply(w, s, factor);
    }
    return w;
  }

  // Order "sequential": the epilogue in T as the kernel applies it, each step rounded (through a
  // volatile, so that no compiler fuses a scale and an add), so one exact candidate; a zero's sign
  // is checked where no relu or clamp (max/min, which may return either zero) comes last.
  Want<Acc> exactly(Want<Acc>& w, const std::vector<int64_t>& x, T v) {
    auto rounded = [](T r) {
      volatile T k = r;
      return T(k);
    };
    bool zeroSign = true;
    for (const Step& s : def_.epilogue) {
      const T f = s.kind == Step::Kind::scale || s.kind == Step::Kind::div ? (s.param.empty() ? T(s.factor) : scalars_.at(s.param)) : T(0);
      switch (s.kind) {
        case Step::Kind::relu: v = std::isnan(v) || !(v > 0) ? T(0) : v, zeroSign = false; break;
        case Step::Kind::clamp: v = std::isnan(v) ? T(s.lo) : std::min(std::max(v, T(s.lo)), T(s.hi)), zeroSign = false; break;
        case Step::Kind::scale: v = rounded(v * f), zeroSign = true; break;
        case Step::Kind::div: v = rounded(v / f), zeroSign = true; break;
        case Step::Kind::add: v = rounded(v + elems(s.tensor)[mem(s.tensor).access.at(x)]), zeroSign = true; break;
      }
    }
    w.add(Acc(v), 0);
    w.signed_zero = zeroSign;
    return w;
  }

  // -- Calls and checks.
  void call(const Variant& v) {
    const std::string head = call_as_filled(v);
    check_values(head);
    check_memory(head, int64_t(sizeof(T)));
  }

  void check_values(const std::string& head) {
    const T* out = elems(def_.out);
    int64_t bad = 0;
    for (const Want<Acc>& w : wants_) {
      const T got = out[w.offset];
      bool ok = false;
      for (int i = 0; i < w.n && !ok; ++i) ok = Bound<T, Acc>::matches(w.c[i], Acc(got));
      if (w.signed_zero && got == 0 && std::signbit(got) != std::signbit(w.c[0].v)) ok = false;
      if (def_.relu_last() && std::signbit(got)) ok = false;  // relu's results are +0.0 or positive
      if (!ok && bad++ == 0) r_.rep_.fail(head + ": " + mismatch(w, got));
    }
    if (bad > 1) r_.rep_.fail(head + ": " + std::to_string(bad) + " of " + std::to_string(wants_.size()) + " output elements wrong");
  }

  std::string mismatch(const Want<Acc>& w, T got) const {
    std::string at = mem(def_.out).t->name + "[";
    int64_t rest = w.point;
    std::vector<int64_t> x(ext_.size(), 0);
    for (size_t i = par_.size(); i-- > 0;) x[par_[i]] = rest % ext_[par_[i]], rest /= ext_[par_[i]];
    for (size_t i = 0; i < par_.size(); ++i) at += (i ? ", " : "") + def_.dims[par_[i]].name + "=" + std::to_string(x[par_[i]]);
    std::string want;
    for (int i = 0; i < w.n; ++i) {
      want += i ? " or " : "";
      want += show_acc(w.c[i].v);
      if (std::isfinite(w.c[i].v)) want += " +- " + show_acc(w.c[i].bound);
    }
    int64_t products = 1;
    for (size_t d : red_) products *= ext_[d];
    if (def_.sequential) return at + "] = " + simdgen_test::show(got) + ", expected " + want + " (order sequential: the plain loop's sum over " + std::to_string(products) + " products, bit for bit)";
    return at + "] = " + simdgen_test::show(got) + ", expected " + want + (def_.relu_last() ? " (relu: never negative or -0.0)" : "") +
           " (bound from |init| + sum |a*b| = " + show_acc(w.magnitude) + " over " + std::to_string(products) + " products)";
  }

  std::map<std::string, std::vector<T>, std::less<>> widened_;  // bf16 operands' values, element by element
  std::map<std::string, T> scalars_;
  std::vector<Want<Acc>> wants_;
};

template <class T, class Acc>
void Runner::execute(const Request& q, const Env& env, std::vector<Mem>& mems, TestRng& rng, const std::string& shape) {
  Run<T, Acc>(*this, q, env, mems, rng, shape).go();
}

// ---------------------------------------------------------------------------------------------
// One request of an i32 kernel: operands of i8, u8, i16, u16 or i32, the rest i32. The sums are
// exact modulo 2^32, so the reference is exact: uint32_t arithmetic (which wraps as the kernel's
// does) over the values widened as C widens them, and the epilogue in int32_t.

class IntRun : RunBase {
 public:
  IntRun(Runner& r, const Request& q, const Env& env, std::vector<Mem>& mems, TestRng& rng, std::string shape)
      : RunBase(r, q, env, mems, rng, std::move(shape)) {}

  void go() {
    fill();
    reference();
    std::vector<int64_t> computed;
    for (const auto& [o, v] : wants_) computed.push_back(o);
    snapshot(computed);
    for (const Variant& v : r_.variants_) call(v);
  }

 private:
  // Element o of m as C widens it to int64_t, and the store of v (truncated to the element type).
  static int64_t get(const Mem& m, int64_t o) {
    const std::string& t = m.t->dtype;
    if (t == "i8") return reinterpret_cast<const int8_t*>(m.data)[o];
    if (t == "u8") return reinterpret_cast<const uint8_t*>(m.data)[o];
    if (t == "i16") return reinterpret_cast<const int16_t*>(m.data)[o];
    if (t == "u16") return reinterpret_cast<const uint16_t*>(m.data)[o];
    return reinterpret_cast<const int32_t*>(m.data)[o];
  }
  static void put(Mem& m, int64_t o, int64_t v) {
    const std::string& t = m.t->dtype;
    const int bytes = t == "i8" || t == "u8" ? 1 : t == "i16" || t == "u16" ? 2 : 4;
    std::memcpy(m.data + o * bytes, &v, size_t(bytes));  // the low bytes: little-endian truncation
  }
  // A value of `type`: the type's extremes and their neighbours ("huge" and "special values"
  // data: products and sums that wrap), else a third small values, the rest over the whole range.
  int64_t value(const std::string& type) {
    const int bits = type == "i8" || type == "u8" ? 8 : type == "i16" || type == "u16" ? 16 : 32;
    const bool is_signed = type[0] == 'i';
    const int64_t lo = is_signed ? -(int64_t(1) << (bits - 1)) : 0, hi = is_signed ? (int64_t(1) << (bits - 1)) - 1 : (int64_t(1) << bits) - 1;
    const uint64_t r = rng_();
    if ((q_.data == Data::huge || q_.data == Data::specials) && r % 2 == 0) {
      const int64_t edge[] = {lo, lo + 1, hi, hi - 1, 0, is_signed ? -1 : 1};
      return edge[(r >> 8) % 6];
    }
    if ((r >> 4) % 3 == 0) return std::clamp<int64_t>(int64_t((r >> 12) % 9) - 4, lo, hi);
    return lo + int64_t((r >> 12) % uint64_t(hi - lo + 1));
  }

  // Inputs: a byte pattern everywhere, then values at the tensor's elements; the output: sentinel
  // bytes, and values at its elements when it is the init.
  void fill() {
    for (Mem& m : mems_) {
      std::fill(m.lo, m.hi, m.t->output ? Runner::kSentinel : (unsigned char)0x5A);
      if (m.t->output && def_.init != "output") continue;
      std::vector<size_t> all(m.extents.size());
      for (size_t p = 0; p < all.size(); ++p) all[p] = p;
      std::vector<int64_t> i(all.size(), 0);
      if (empty_box(all, m.extents)) continue;
      do put(m, m.offset(i), value(m.t->dtype));
      while (step(i, all, m.extents));
    }
    for (const ScalarParam& p : r_.k_.scalar_params) {
      const int32_t x = int32_t(value("i32"));
      scalars_[p.name] = x;
      set_scalar(p.name, x);
    }
  }

  void reference() {
    if (empty_box(par_, ext_)) return;
    const Mem &a = mem(def_.a), &b = mem(def_.b), &out = mem(def_.out);
    std::vector<int64_t> x(ext_.size(), 0);
    do {
      uint32_t acc = 0;
      if (def_.init != "zero") {
        const Mem& t = mem(def_.init == "output" ? def_.out : def_.init);
        acc = uint32_t(get(t, t.access.at(x)));
      }
      if (!empty_box(red_, ext_)) do
          if (a.access.inside(x) && b.access.inside(x))  // a padded operand's zeros add nothing
            acc += uint32_t(uint64_t(get(a, a.access.at(x)) * get(b, b.access.at(x))));  // |product| < 2^62
        while (step(x, red_, ext_));
      int32_t v = int32_t(acc);
      for (const Step& s : def_.epilogue) {
        switch (s.kind) {
          case Step::Kind::relu: v = std::max(v, 0); break;
          case Step::Kind::clamp: v = std::min(std::max(v, int32_t(s.lo)), int32_t(s.hi)); break;
          case Step::Kind::scale: v = int32_t(uint32_t(v) * uint32_t(s.param.empty() ? int32_t(s.factor) : scalars_.at(s.param))); break;
          case Step::Kind::div: break;  // floats only (the spec refuses it on i32)
          case Step::Kind::add: {
            const Mem& t = mem(s.tensor);
            v = int32_t(uint32_t(v) + uint32_t(get(t, t.access.at(x))));
            break;
          }
        }
      }
      wants_.push_back({out.access.at(x), v});
    } while (step(x, par_, ext_));
  }

  void call(const Variant& v) {
    const std::string head = call_as_filled(v);
    const Mem& out = mem(def_.out);
    int64_t bad = 0;
    for (const auto& [o, want] : wants_) {
      const int32_t got = int32_t(get(out, o));
      if (got != want && bad++ == 0)
        r_.rep_.fail(head + ": " + out.t->name + " element " + std::to_string(o) + " = " + std::to_string(got) + ", expected " + std::to_string(want) + " (exact)");
    }
    if (bad > 1) r_.rep_.fail(head + ": " + std::to_string(bad) + " of " + std::to_string(wants_.size()) + " output elements wrong");
    check_memory(head, 4);
  }

  std::map<std::string, int32_t> scalars_;
  std::vector<std::pair<int64_t, int32_t>> wants_;  // (output element, its value)
};

void Runner::execute_int(const Request& q, const Env& env, std::vector<Mem>& mems, TestRng& rng, const std::string& shape) {
  IntRun(*this, q, env, mems, rng, shape).go();
}

// ---------------------------------------------------------------------------------------------
// The cases' shapes.

// Extents around vector lengths (4..16 lanes), unroll factors and tiles (up to 64).
const std::vector<int64_t> kSweep = {0, 1, 2, 3, 5, 7, 8, 9, 11, 13, 15, 16, 17, 23, 31, 32, 33, 47, 48, 49, 63, 64, 65, 70};
// The two output dims a kernel tiles, crossed: every edge of 1..16-lane vectors and 2..4-vector tiles.
const std::vector<int64_t> kTile = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 15, 16, 17, 24, 31, 32, 33, 47, 48, 49, 64, 65};
const std::vector<int64_t> kTileThin = {1, 2, 3, 5, 7, 8, 9, 15, 16, 17, 31, 33, 48, 65};
// The thin sweep's register-tile rows (the outer of the two tiled dims): default tiles are at most
// 8 rows high (the specs' schedules 5 or 6), so these cover every row tail of such a tile.
const std::vector<int64_t> kTileRowsThin = {1, 2, 3, 5, 7, 9, 17, 33};
// Other extents while one or two are swept: reductions through unroll tails, batches small.
const std::vector<int64_t> kReductionBase = {1, 2, 3, 8, 9, 17, 31};
const std::vector<int64_t> kParallelBase = {1, 2, 3};

constexpr int64_t kSizesMacs = 400'000;  // per shape in /sizes: 70^3 (a few ms per variant natively)

// The params of the parallel dims the output's two innermost positions use (the tiled ones).
std::vector<size_t> tiled_params(const Runner& r) {
  const Definition& def = r.definition();
  const std::vector<Affine>& out = def.index.at(def.out);
  std::vector<size_t> v;
  for (size_t p = out.size() >= 2 ? out.size() - 2 : 0; p < out.size(); ++p)
    for (size_t d = 0; d < def.dims.size(); ++d) {
      const auto& ps = r.dim_params();
      const auto it = std::find(ps.begin(), ps.end(), Expr::symbol(def.dims[d].extent));
      if (out[p].coef[d] != 0 && it != ps.end() && std::find(v.begin(), v.end(), size_t(it - ps.begin())) == v.end())
        v.push_back(size_t(it - ps.begin()));
    }
  return v;
}

// A request with the swept sizes at `fixed` kept; the others halved, largest first, until one call
// stays under the budget.
Request within(const Runner& r, Request q, const std::vector<size_t>& fixed, int64_t budget) {
  while (r.macs(q) > budget) {
    size_t big = SIZE_MAX;
    for (size_t i = 0; i < q.sizes.size(); ++i)
      if (std::find(fixed.begin(), fixed.end(), i) == fixed.end() && q.sizes[i] > 1 && (big == SIZE_MAX || q.sizes[i] > q.sizes[big])) big = i;
    if (big == SIZE_MAX) break;
    q.sizes[big] /= 2;
  }
  return q;
}

// The base value of param i in the n-th shape of a sweep.
int64_t base(const Runner& r, size_t i, uint64_t n) {
  const std::vector<int64_t>& v = r.reduction_param(r.dim_params()[i]) ? kReductionBase : kParallelBase;
  return v[(n + 3 * i) % v.size()];
}

// Placement and padding vary with the shape: every combination appears many times.
Request request(std::vector<int64_t> sizes, uint64_t seed) {
  Request q;
  q.sizes = std::move(sizes), q.seed = seed, q.misalign = int(seed % 3), q.pad = int((seed / 3) % 3);
  return q;
}

}  // namespace

bool applies(std::string_view c, const Kernel& k) {
  if (c != "large") return true;
  for (size_t d = 0; k.has_semantic(numbered("dim", d)); ++d) {
    const std::string p = Expr::symbol(k.semantic(numbered("dim", d)));
    if (std::find(k.extent_params.begin(), k.extent_params.end(), p) != k.extent_params.end()) return true;
  }
  return false;
}

// The tiled pair crossed over kTile (the others at base values), each runtime extent alone over
// kSweep (0 and 70 included), then random combinations of kSweep values; static kernels run once.
void run_sizes(const Kernel& kernel) {
  Runner r(kernel);
  const size_t n = r.dim_params().size();
  uint64_t seed = 1;
  if (n == 0) {
    r.run(request({}, seed));
    return;
  }
  const std::vector<size_t> tiled = tiled_params(r);
  const std::vector<int64_t>& tile = thin_sweep() ? kTileThin : kTile;
  // Emulated SVE (the scalable-only runs) is the slowest: the same shapes, shrunk to a quarter of
  // the multiply-adds (an eighth in the thin sweep; the swept extents keep their values, the
  // others get smaller).
  const int64_t macs = few_emulated_variants() ? kSizesMacs / (thin_sweep() ? 8 : 4) : kSizesMacs;
  auto sizes = [&](uint64_t k) {
    std::vector<int64_t> s;
    for (size_t i = 0; i < n; ++i) s.push_back(base(r, i, k));
    return s;
  };
  const std::vector<int64_t>& rows = thin_sweep() && tiled.size() > 1 ? kTileRowsThin : tile;
  for (int64_t v0 : tiled.empty() ? std::vector<int64_t>{} : rows)
    for (int64_t v1 : tiled.size() > 1 ? tile : std::vector<int64_t>{0}) {
      std::vector<int64_t> s = sizes(seed);
      s[tiled[0]] = v0;
      if (tiled.size() > 1) s[tiled[1]] = v1;
      r.run(within(r, request(s, seed++), tiled, macs));
    }
  for (size_t i = 0; i < n; ++i)
    for (int64_t v : kSweep) {
      std::vector<int64_t> s = sizes(seed);
      s[i] = v;
      r.run(within(r, request(s, seed++), {i}, macs));
    }
  TestRng rng(7);
  for (int c = 0, combos = thin_sweep() ? 12 : 48; c < combos; ++c) {
    std::vector<int64_t> s;
    for (size_t i = 0; i < n; ++i) s.push_back(kSweep[rng() % kSweep.size()]);
    r.run(within(r, request(s, seed++), {}, macs));
  }
}

// One big shape of odd extents (509, 517, 511, ...: every loop has tails) and one of powers of
// two, each shrunk to a fixed budget of multiply-adds: 150 M natively (509 x 517 x 511 fits), 6 M
// under emulation (SIMDGEN_EXEC_EMULATED=1, set by the qemu tests: 150 M took 10 s there, and at
// 18 M this test was most of the NEON-only CPU's contraction time, 134 s of CI) and in the thin
// sweep (shrunk, the shapes keep tails in every loop: 509 x 517 x 511 becomes about 180^3), 3 M
// for the SVE-only runs' thin sweeps. Fixed, not timed: a test runs the same shapes on every run.
void run_large(const Kernel& kernel) {
  Runner r(kernel);
  const char* emulated = std::getenv("SIMDGEN_EXEC_EMULATED");
  const bool small = thin_sweep() || (emulated && std::string(emulated) == "1");
  // Emulated SVE runs several times slower than emulated NEON: its thin runs (the scalable
  // variants only) take half the budget, the same shapes shrunk further.
  const int64_t budget = !small ? 150'000'000 : few_emulated_variants() && thin_sweep() ? 3'000'000 : 6'000'000;
  const size_t n = r.dim_params().size();
  std::vector<int64_t> odd, even;
  for (size_t i = 0; i < n; ++i) {
    odd.push_back(r.reduction_param(r.dim_params()[i]) ? 511 - 4 * int64_t(i) : 509 + 8 * int64_t(i));
    even.push_back(512);
  }
  uint64_t seed = 100001;
  for (const std::vector<int64_t>& sizes : {odd, even}) r.run(within(r, request(sizes, seed++), {}, budget));
  // A long reduction: packed kernels run it in several blocks of the panel (512 steps on AVX-512,
  // 2048 on AVX2 and NEON) and a shorter last one. The vector dim is 94 wide: a whole tile, single
  // vectors and a partial one on every target (64 + 16 + 14 lanes on AVX-512, 80 + 8 + 6 on AVX2,
  // 80 + 3 x 4 + 2 on NEON). The last runtime reduction (the nest's innermost, which the panel
  // blocks) and the vector dim are kept, the rest shrinks; other runtime reductions take 3 steps
  // (all of them at 4100 would be 4100^2 steps or more per output element, and as many elements
  // of an operand they all index).
  const std::vector<size_t> tiled = tiled_params(r);
  size_t longest = SIZE_MAX;
  for (size_t i = 0; i < n; ++i)
    if (r.reduction_param(r.dim_params()[i])) longest = i;
  std::vector<int64_t> lengths;
  std::vector<size_t> kept;
  for (size_t i = 0; i < n; ++i) {
    const bool reduction = r.reduction_param(r.dim_params()[i]);
    const bool vector = !tiled.empty() && i == tiled.back();
    lengths.push_back(i == longest ? 4100 + int64_t(i) : reduction ? 3 : vector ? 94 : 7);
    if (i == longest || vector) kept.push_back(i);
  }
  r.run(within(r, request(lengths, seed++), kept, budget / 16));
}

// Special values (one NaN or infinity at a random element, signed zeros, huge and tiny values,
// a mix of specials) on small shapes around tile edges, then every tensor against PROT_NONE pages.
void run_edges(const Kernel& kernel) {
  Runner r(kernel);
  const size_t n = r.dim_params().size();
  const int64_t macs = few_emulated_variants() ? kSizesMacs / (thin_sweep() ? 8 : 4) : kSizesMacs;  // as in run_sizes
  const std::vector<int64_t> small = {1, 3, 8, 17, 33, 9, 2, 16};
  uint64_t seed = 200001;
  auto shape = [&](uint64_t k, const std::vector<int64_t>& values) {
    std::vector<int64_t> s;
    for (size_t i = 0; i < n; ++i) s.push_back(values[(k + 3 * i) % values.size()]);
    return s;
  };
  for (Data d : {Data::nan_spot, Data::inf_spot, Data::neg_zero, Data::huge, Data::tiny, Data::specials})
    for (uint64_t k = 0, shapes = d == Data::nan_spot || d == Data::inf_spot ? 12 : 6; k < shapes; ++k) {
      Request q = within(r, request(shape(k, small), seed++), {}, macs);
      q.data = d;
      r.run(q);
    }
  const std::vector<int64_t> edges = {1, 2, 7, 8, 9, 15, 16, 17, 31, 33, 64, 65};
  for (uint64_t k = 0; k < (thin_sweep() ? 8 : 16); ++k)
    for (int guard : {1, 2}) {
      Request q = within(r, request(shape(k, edges), seed++), {}, macs);
      q.guard = guard, q.misalign = 0;  // against the page: no room to misalign
      r.run(q);
    }
}

}  // namespace simdgen_exec::contraction
