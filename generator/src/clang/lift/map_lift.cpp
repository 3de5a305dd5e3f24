// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/map_lift.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <optional>
#include <set>

#include <nlohmann/json.hpp>

#include "clang/lift/lift_output.h"

namespace simdgen::lift {
namespace {

using Kind = Sym::Kind;

struct NotMap {
  std::string reason;
};

// An integer value that is never negative: an unsigned element or scalar, one zero-extended to a
// wider type, a non-negative literal, and sums, products, shifts right, minima/maxima and selects
// of such values (their wraparound aside: C's int arithmetic of bytes and shorts does not wrap).
bool nonNegativeInteger(const Sym& s) {
  if (s.type.dtype.empty() || s.type.isFloat) return false;
  switch (s.kind) {
    case Sym::Kind::constant: return isDecimal(s.name);
    case Sym::Kind::load:
    case Sym::Kind::invariant: return !s.type.isSigned;
    case Sym::Kind::cast: {
      const Sym& x = *s.args[0];
      return !x.type.dtype.empty() && !x.type.isFloat && x.type.bits < s.type.bits && (!x.type.isSigned || nonNegativeInteger(x));
    }
    case Sym::Kind::binary:
      if (s.type.isSigned && s.type.bits < 32) return false;
      if (s.op == "+" || s.op == "*") {
        // In a signed type only values far below 2^31: unsigned bytes and shorts promoted to int
        // (a sum of two shorts, a product of two bytes or of a short and a constant below 2^15).
        const auto bits = [](const Sym& x) -> int {
          if (x.kind == Sym::Kind::cast && !x.args[0]->type.isSigned) return x.args[0]->type.bits;
          if (x.kind == Sym::Kind::constant && isDecimal(x.name) && x.name.size() < 6 && std::stoll(x.name) < 32768) return 15;
          return 64;
        };
        const int a = bits(*s.args[0]), b = bits(*s.args[1]);
        const bool fits = !s.type.isSigned || (s.op == "+" ? a <= 16 && b <= 16 : a + b <= 30);
        return fits && nonNegativeInteger(*s.args[0]) && nonNegativeInteger(*s.args[1]);
      }
      if (s.op == ">>") return nonNegativeInteger(*s.args[0]);
      if (s.op == "&") return nonNegativeInteger(*s.args[0]) || nonNegativeInteger(*s.args[1]);
      return false;
    case Sym::Kind::select: return nonNegativeInteger(*s.args[1]) && nonNegativeInteger(*s.args[2]);
    default: return false;
  }
}

bool identifier(const std::string& t) {
  return !t.empty() && !std::isdigit(static_cast<unsigned char>(t[0])) &&
         std::all_of(t.begin(), t.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

// A select's comparison with casts and `!` peeled off (each `!` swaps the branches).
struct Selection {
  const Sym* compare;
  const Sym* ifTrue;
  const Sym* ifFalse;
};
Selection selection(const Sym& select) {
  Selection sel{select.args[0].get(), select.args[1].get(), select.args[2].get()};
  while (sel.compare->kind == Kind::cast || sel.compare->kind == Kind::logical_not) {
    if (sel.compare->kind == Kind::logical_not) std::swap(sel.ifTrue, sel.ifFalse);
    sel.compare = sel.compare->args[0].get();
  }
  return sel;
}
// select(a <op> b, t, f) with each operand written by `operand`, called in that order (inputs are
// numbered as they first appear).
template <class Write>
std::string writeSelect(const Sym& select, Write&& operand) {
  const Selection sel = selection(select);
  const std::string lhs = operand(*sel.compare->args[0]);
  const std::string rhs = operand(*sel.compare->args[1]);
  const std::string ifTrue = operand(*sel.ifTrue);
  const std::string ifFalse = operand(*sel.ifFalse);
  return "select(" + lhs + " " + sel.compare->op + " " + rhs + ", " + ifTrue + ", " + ifFalse + ")";
}

class Translator {
 public:
  Translator(MapLift& map, int mathUlp) : map_(map), mathUlp_(mathUlp) {}

  // An element of C's plain char that is only copied: its bits as a u8 lane.
  std::string charInput(const Sym& s) { return input(s, true); }


  std::string expr(const Sym& s) {
    for (const auto& [value, name] : map_.named)
      if (value == &s) return name;
    switch (s.kind) {
      case Kind::load: return input(s);
      case Kind::invariant: return param(s);
      case Kind::constant:
        if (s.name == "+Inf" || s.name == "-Inf" || s.name == "Inf" || s.name == "NaN" || s.name == "+NaN" || s.name == "-NaN")
          throw NotMap{"the constant " + s.name + " (INFINITY, NAN) is not a finite number, and the map family's numbers are"};
        return s.name;
      case Kind::cast: {
        const Sym& inner = *s.args[0];
        if (s.type.dtype.empty()) throw NotMap{"a conversion to " + s.type.spelling};
        if (auto narrow = narrowed(s, s.type)) return *narrow;
        if (auto bounded = narrowedByRange(inner, s.type)) return *bounded;
        // (float)sqrt((double)x) of a float x is sqrtf(x): double (53 bits) holds more than twice
        // float's 24 + 2, so rounding twice gives the correctly rounded float; an integral value
        // of a float is a float. So the C promotion costs nothing here: computed in f32 lanes.
        // So is (float)exp((double)x) at a max_ulp the user accepted: within it of the exact value.
        if (s.type.dtype == "f32" && inner.kind == Kind::math && inner.type.dtype == "f64" && inner.args[0]->kind == Kind::cast &&
            inner.args[0]->args[0]->type.dtype == "f32") {
          if (approximateMathFunction(inner.op)) {
            if (mathUlp_ == 0)
              throw NotMap{"`" + inner.op + "` is computed by the kernel within 1 ULP of the exact result, not bit for bit as the C "
                           "library does: pass --math-ulp 1 (or 4) to accept that (docs/math.md)"};
            map_.maxUlp = mathUlp_;
          }
          return inner.op + "(" + expr(*inner.args[0]->args[0]) + ")";
        }
        if (inner.kind == Kind::constant) {
          if (!s.type.isFloat && inner.type.isFloat) {
            // C truncates toward zero (`short v = 32767.0f` after a clamp): that integer, when the
            // type holds it (else C's conversion is undefined).
            char* end = nullptr;
            const double v = std::strtod(inner.name.c_str(), &end);
            const double t = std::trunc(v);
            const double lo = s.type.isSigned ? -std::ldexp(1.0, s.type.bits - 1) : 0.0;
            const double hi = s.type.isSigned ? std::ldexp(1.0, s.type.bits - 1) : std::ldexp(1.0, s.type.bits);
            if (end == inner.name.c_str() || *end || !(t >= lo && t < hi) || s.type.bits > 32)
              throw NotMap{"the float constant " + inner.name + " converted to " + s.type.spelling + ", which does not hold it"};
            return std::to_string(static_cast<long long>(t));
          }
          return inner.name;  // a number takes its operands' dtype
        }
        if (inner.kind == Kind::compare || inner.kind == Kind::logical_not ||
            (inner.kind == Kind::binary && (inner.op == "&&" || inner.op == "||"))) {
          // (float)(x > 0): a truth value, 1 or 0, converted.
          auto number = [&](const char* v) { return makeSym(Sym{Kind::constant, s.type, "", v, 0, {}}); };
          return selectOf(s.args[0], number("1"), number("0"));
        }
        if (inner.kind == Kind::select) {
          // (float)(x > 0 ? 1 : -1): each branch converted, so that numbers take the select's dtype.
          auto to = [&](const SymPtr& a) { return makeSym(Sym{Kind::cast, s.type, "", "", 0, {a}}); };
          return selectOf(inner.args[0], to(inner.args[1]), to(inner.args[2]));
        }
        if (inner.type.dtype == s.type.dtype) return expr(inner);
        // A float widened and rounded back is itself (C's promotion of a float return value).
        if (s.type.isFloat && inner.kind == Kind::cast && inner.type.isFloat && inner.type.bits > s.type.bits &&
            inner.args[0]->type.dtype == s.type.dtype)
          return expr(*inner.args[0]);
        return "convert(" + expr(inner) + ", " + s.type.dtype + ")";
      }
      case Kind::binary: {
        static const std::set<std::string> ops = {"+", "-", "*", "/", "&", "|", "^", "<<", ">>"};
        if (!ops.count(s.op))
          throw NotMap{"`" + s.op + "` is not in the map family's operations (+ - * / & | ^ << >>, fma, min, max, select, convert, sqrt, "
                       "floor, ceil, trunc, nearest, exp, exp2, log, log2, tanh, erf)"};
        if (s.op == "/" && !s.type.isFloat) {
          // x / 2^k of an x that cannot be negative (libpng's `(a + b) / 2` of bytes) is x >> k:
          // C's division truncates toward zero, which for x >= 0 is the shift.
          const Sym& d = *s.args[1];
          const long long divisor = d.kind == Kind::constant && isDecimal(d.name) && d.name.size() < 12 ? std::stoll(d.name) : 0;
          const int k = divisor > 1 && (divisor & (divisor - 1)) == 0 ? __builtin_ctzll(static_cast<unsigned long long>(divisor)) : 0;
          if (k > 0 && k < s.type.bits && (!s.type.isSigned || nonNegativeInteger(*s.args[0])))
            return "(" + expr(*s.args[0]) + " >> " + std::to_string(k) + ")";
          throw NotMap{"an integer division (the map family divides floats only; an integer that cannot be negative divided by a "
                       "power of two is a shift)"};
        }
        if (s.op == "<<" || s.op == ">>") return "(" + expr(*s.args[0]) + " " + s.op + " " + std::to_string(shiftCount(s)) + ")";
        const std::string lhs = expr(*s.args[0]);  // in order: inputs are numbered as they appear
        const std::string rhs = expr(*s.args[1]);
        return "(" + lhs + " " + s.op + " " + rhs + ")";
      }
      case Kind::negate: return "-" + expr(*s.args[0]);
      case Kind::bit_not: return "~" + expr(*s.args[0]);
      case Kind::math:
        if (s.op == "popcount") {  // popcount(x) has x's unsigned type; the call's int holds 0..64
          const Sym& x = *s.args[0];
          if (s.type.dtype.empty() || s.type.isFloat) throw NotMap{"popcount as " + s.type.spelling};
          const std::string count = "popcount(" + expr(x) + ")";
          if (s.type.dtype == x.type.dtype) return count;
          return "convert(" + count + ", " + s.type.dtype + (s.type.bits < x.type.bits ? ", wrap)" : ")");
        }
        if (!s.type.isFloat) throw NotMap{s.op + " of " + s.type.spelling};
        if (approximateMathFunction(s.op)) {
          // The kernel's exp is within max_ulp of the exact value, libm's within its own bound:
          // the last bits may differ, so the user says which bound is enough.
          if (mathUlp_ == 0)
            throw NotMap{"`" + s.op + "` is computed by the kernel within 1 ULP of the exact result, not bit for bit as the C "
                         "library does: pass --math-ulp 1 (or 4) to accept that (docs/math.md)"};
          map_.maxUlp = mathUlp_;
        }
        return s.op + "(" + expr(*s.args[0]) + ")";
      case Kind::fma: {
        if (!s.type.isFloat) throw NotMap{"an fma of integers"};
        map_.fused = true;
        const std::string a = expr(*s.args[0]);  // in order, as for binary operators
        const std::string b = expr(*s.args[1]);
        const std::string c = expr(*s.args[2]);
        return "fma(" + a + ", " + b + ", " + c + ")";
      }
      case Kind::select: return selectOf(s.args[0], s.args[1], s.args[2]);
      case Kind::induction: throw NotMap{"the value uses the loop index itself"};
      case Kind::fmax: {
        // C's fmax/fmin ignore a NaN operand: select(b != b, a, select(a > b, a, b)) (fmin: <). Either
        // zero may come out of fmax(-0.0, +0.0), as C allows.
        if (!s.type.isFloat) throw NotMap{s.op + " of " + s.type.spelling};
        const std::string a = expr(*s.args[0]);
        const std::string b = expr(*s.args[1]);
        const std::string pick = "select(" + a + (s.op == "fmax" ? " > " : " < ") + b + ", " + a + ", " + b + ")";  // a NaN a: b
        if (stripCasts(*s.args[1]).kind == Kind::constant) return pick;  // a number is never NaN
        return "select(" + b + " != " + b + ", " + a + ", " + pick + ")";
      }
      case Kind::compare:
      case Kind::logical_not:
        // A truth value as a number (`c += x[i] > t`: C's int 1 or 0).
        if (!s.type.dtype.empty() && !s.type.isFloat) {
          auto number = [&](const char* v) { return makeSym(Sym{Kind::constant, s.type, "", v, 0, {}}); };
          return selectOf(makeSym(s), number("1"), number("0"));
        }
        [[fallthrough]];
      default: throw NotMap{"`" + render(s) + "` is not an element-wise expression simdgen has"};
    }
  }

 private:
  // select(cond, t, f) in the family's selects of comparisons: C's `!`, `&&` and `||` become nested
  // selects (both sides are evaluated: the loop reads no element it would not read at another
  // position of the same arrays), any other value is true when it is not zero.
  std::string selectOf(const SymPtr& cond, const SymPtr& t, const SymPtr& f) {
    const Sym& c = *cond;
    auto select = [&](const SymPtr& k, const SymPtr& a, const SymPtr& b) { return makeSym(Sym{Kind::select, a->type, "", "", 0, {k, a, b}}); };
    if (c.kind == Kind::logical_not) return selectOf(c.args[0], f, t);
    if (c.kind == Kind::binary && c.op == "||") return selectOf(c.args[0], t, select(c.args[1], t, f));
    if (c.kind == Kind::binary && c.op == "&&") return selectOf(c.args[0], select(c.args[1], t, f), f);
    // A conversion to bool, or of a truth value (0 or 1) to any integer, keeps the truth.
    if (c.kind == Kind::cast) {
      const Sym& inner = *c.args[0];
      const bool toBool = c.type.dtype.empty() && (c.type.spelling == "bool" || c.type.spelling == "_Bool");
      const bool truth = inner.kind == Kind::compare || inner.kind == Kind::logical_not ||
                         (inner.kind == Kind::binary && (inner.op == "&&" || inner.op == "||"));
      if (toBool || (truth && !c.type.isFloat && !c.type.dtype.empty())) return selectOf(c.args[0], t, f);
    }
    if (auto same = charEquality(c)) {
      const std::string a = expr(*t);
      return "select(" + *same + ", " + a + ", " + expr(*f) + ")";
    }
    if (c.kind == Kind::compare) {
      const std::string lhs = expr(*c.args[0]);  // in order: inputs are numbered as they appear
      const std::string rhs = expr(*c.args[1]);
      const std::string a = expr(*t);
      return "select(" + lhs + " " + c.op + " " + rhs + ", " + a + ", " + expr(*f) + ")";
    }
    if (c.type.dtype.empty()) throw NotMap{"the condition " + render(c) + " is a " + c.type.spelling};
    const std::string value = expr(c);
    const std::string a = expr(*t);
    return "select(" + value + " != 0, " + a + ", " + expr(*f) + ")";
  }

  // `c == '1'`, `c != 0` of a plain char element against a constant 0..127 (ASCII): true for the
  // same bytes whether char is signed (x86) or not (Arm), so the element is read as u8.
  std::optional<std::string> charEquality(const Sym& c) {
    if (c.kind != Kind::compare || (c.op != "==" && c.op != "!=")) return std::nullopt;
    for (int k = 0; k < 2; ++k) {
      const Sym* x = c.args[k].get();
      const Sym& v = *c.args[1 - k];
      if (x->kind == Kind::cast) x = x->args[0].get();
      if (x->kind != Kind::load || !x->type.plainChar || v.kind != Kind::constant || !isDecimal(v.name) || v.name.size() > 3 ||
          std::stoi(v.name) > 127)
        continue;
      return charInput(*x) + " " + c.op + " " + v.name;
    }
    return std::nullopt;
  }

  std::string input(const Sym& s, bool plainChar = false) {
    long long stride = 1;
    std::string runtime;  // a runtime stride's value, as the loop reads it
    if (!s.stride.empty()) {
      // A constant stride (the spec's input `stride`), or a runtime one (`x[i * incx]`: the
      // spec's stride named after it, passed by the call after n).
      const bool number = isDecimal(s.stride) && s.stride.size() < 6;
      if (!map_.stridedInputs || (number && std::stoll(s.stride) < 2) || (!number && !map_.runtimeStrides))
        throw NotMap{"`" + render(s) + "` is strided"};
      if (number) stride = std::stoll(s.stride);
      else stride = 0, runtime = s.stride;
    }
    if (s.type.dtype.empty() && !plainChar) throw NotMap{"the elements of " + s.name + " are " + s.type.spelling};
    for (const auto& in : map_.inputs)
      if (in.base == s.name && in.offset == s.offset && in.stride == stride && in.strideText == runtime) {
        if (in.plainChar != plainChar) throw NotMap{"the elements of " + s.name + " are char, copied and computed with"};
        return in.name;
      }
    MapLift::Array in;
    in.base = s.name;
    in.offset = s.offset;
    in.type = s.type;
    if (plainChar) in.type.dtype = "u8", in.plainChar = true;
    in.origin = s.origin;
    in.stride = stride;
    in.strideText = runtime;
    if (!runtime.empty()) {
      for (const auto& other : map_.inputs)
        if (other.strideText == runtime) in.strideName = other.strideName;  // one parameter per stride
      if (in.strideName.empty()) {
        in.strideName = identifier(runtime) && !used(runtime) ? runtime : "stride" + std::to_string(map_.inputs.size());
        while (used(in.strideName)) in.strideName += "_";
      }
    }
    in.name = identifier(s.name) && s.offset == 0 && stride == 1 && !used(s.name) ? s.name : "in" + std::to_string(map_.inputs.size());
    map_.inputs.push_back(in);
    return in.name;
  }
  std::string param(const Sym& s) {
    if (s.type.dtype.empty()) throw NotMap{"`" + s.name + "` is a " + s.type.spelling};
    for (const auto& p : map_.params)
      if (p.text == s.name) return p.name;
    const std::string name = identifier(s.name) && !used(s.name) ? s.name : "p" + std::to_string(map_.params.size());
    map_.params.push_back({name, s.name, s.type});
    return name;
  }
  bool used(const std::string& name) const {
    for (const auto* arrays : {&map_.inputs, &map_.outputs})
      for (const auto& a : *arrays)
        if (a.name == name || a.strideName == name) return true;
    for (const auto& p : map_.params)
      if (p.name == name) return true;
    return name == "n";
  }

  MapLift& map_;
  int mathUlp_ = 0;

 public:
  // An integer value truncated to `to` (narrower, or as wide) computed in `to` itself, when only
  // + - * and negation lie between the truncation and the loads: their low bits depend only on
  // their operands' low bits. C promotes `uint8_t a + b` to int; truncated back to uint8_t it is a
  // u8 sum modulo 2^8, which runs at u8 lanes (four times i32's) instead of the promoted width.
  std::optional<std::string> narrowed(const Sym& s, const ScalarType& to) {
    if (to.isFloat || to.dtype.empty() || s.type.isFloat || s.type.dtype.empty() || s.type.bits < to.bits) return std::nullopt;
    switch (s.kind) {
      case Kind::load:
      case Kind::invariant: {
        const std::string e = s.kind == Kind::load ? input(s) : param(s);
        return s.type.dtype == to.dtype ? e : "convert(" + e + ", " + to.dtype + ")";
      }
      case Kind::constant: return wrappedConstant(s.name, to);
      case Kind::cast: {
        const Sym& inner = *s.args[0];
        if (inner.type.isFloat || inner.type.dtype.empty()) return std::nullopt;
        if (inner.kind == Kind::constant) return wrappedConstant(inner.name, to);
        // A narrower inner value is extended first: its bits above its own width are not its low bits.
        if (inner.type.bits < to.bits) return inner.type.dtype == to.dtype ? expr(inner) : "convert(" + expr(inner) + ", " + to.dtype + ")";
        return narrowed(inner, to);
      }
      case Kind::binary: {
        if (s.op == "<<" || s.op == ">>") return narrowedShift(s, to);
        // & | ^ too: bitwise, every result bit depends on the operands' bits at its position.
        if (s.op != "+" && s.op != "-" && s.op != "*" && s.op != "&" && s.op != "|" && s.op != "^") return std::nullopt;
        auto lhs = narrowed(*s.args[0], to);
        if (!lhs) return std::nullopt;
        auto rhs = narrowed(*s.args[1], to);
        if (!rhs) return std::nullopt;
        return "(" + *lhs + " " + s.op + " " + *rhs + ")";
      }
      case Kind::negate:
      case Kind::bit_not: {
        auto e = narrowed(*s.args[0], to);
        if (!e) return std::nullopt;
        return (s.kind == Kind::negate ? "-(" : "~(") + *e + ")";  // "-" before a number would be part of the number
      }
      default: return std::nullopt;
    }
  }

  // A narrower integer value whose C computation (in the promoted int) never leaves a 16-bit type's
  // range, computed in that type: `(a[i] + 200) >> 1` stored as uint8_t needs the sum's ninth bit,
  // which i16 lanes hold (twice as many per vector as the promoted i32). What compilers call
  // minimal bit width analysis; every intermediate value is bounded from the operands' types.
  std::optional<std::string> narrowedByRange(const Sym& s, const ScalarType& to) {
    if (to.isFloat || to.dtype.empty() || to.bits > 16 || s.type.isFloat || s.type.bits <= 16) return std::nullopt;
    for (const char* w : {"i16", "u16"}) {
      const bool isSigned = w[0] == 'i';
      const Range limit{isSigned ? -32768 : 0, isSigned ? 32767 : 65535};
      if (!fits(s, limit)) continue;
      std::string e = in16(s, w);
      return std::string(w) == to.dtype ? e : "convert(" + e + ", " + to.dtype + ")";
    }
    return std::nullopt;
  }

 private:
  struct Range {
    long long lo, hi;
  };
  // The values an integer node takes in C (its promoted type), or nullopt when not bounded here.
  std::optional<Range> rangeOf(const Sym& s) const {
    if (s.type.isFloat || s.type.dtype.empty()) return std::nullopt;
    const Range type = typeRange(s.type);
    std::optional<Range> r;
    switch (s.kind) {
      case Kind::load:
      case Kind::invariant: r = type; break;
      case Kind::constant: {
        size_t end = 0;
        try {
          const long long v = std::stoll(s.name, &end, 0);
          if (s.name.find_first_not_of("uUlL", end) == std::string::npos) r = Range{v, v};
        } catch (...) {
        }
        break;
      }
      case Kind::cast: r = rangeOf(*s.args[0]); break;
      case Kind::negate:
      case Kind::bit_not: {
        const auto a = rangeOf(*s.args[0]);
        if (a) r = s.kind == Kind::negate ? Range{-a->hi, -a->lo} : Range{-a->hi - 1, -a->lo - 1};
        break;
      }
      case Kind::select: {
        const auto a = rangeOf(*s.args[1]), b = rangeOf(*s.args[2]);
        if (a && b) r = Range{std::min(a->lo, b->lo), std::max(a->hi, b->hi)};
        break;
      }
      case Kind::binary: {
        // Products and left shifts only of values below 2^31 (no overflow in long long).
        auto small = [](const Range& x) { return x.lo > -(1LL << 31) && x.hi < (1LL << 31); };
        const auto a = rangeOf(*s.args[0]);
        if (!a) break;
        if (s.op == "<<" || s.op == ">>") {
          const int c = shiftCount(s);
          if (s.op == ">>") r = Range{a->lo >> c, a->hi >> c};
          else if (small(*a) && c < 31) r = Range{a->lo * (1LL << c), a->hi * (1LL << c)};
          break;
        }
        const auto b = rangeOf(*s.args[1]);
        if (!b || !small(*a) || !small(*b)) break;
        if (s.op == "+") r = Range{a->lo + b->lo, a->hi + b->hi};
        if (s.op == "-") r = Range{a->lo - b->hi, a->hi - b->lo};
        if (s.op == "*") {
          const long long p[] = {a->lo * b->lo, a->lo * b->hi, a->hi * b->lo, a->hi * b->hi};
          r = Range{*std::min_element(p, p + 4), *std::max_element(p, p + 4)};
        }
        if ((s.op == "&" || s.op == "|" || s.op == "^") && a->lo >= 0 && b->lo >= 0) {
          long long top = 1;
          while (top <= std::max(a->hi, b->hi)) top *= 2;
          r = s.op == "&" ? Range{0, std::min(a->hi, b->hi)} : Range{0, top - 1};
        }
        break;
      }
      default: break;
    }
    // Beyond the node's own type C would have wrapped (or overflowed): not a plain bound.
    if (r && (r->lo < type.lo || r->hi > type.hi)) return std::nullopt;
    return r;
  }
  static Range typeRange(const ScalarType& t) {
    if (t.bits >= 64) return t.isSigned ? Range{-(1LL << 62), (1LL << 62)} : Range{0, 1LL << 62};  // bounds kept small: no overflow
    return t.isSigned ? Range{-(1LL << (t.bits - 1)), (1LL << (t.bits - 1)) - 1} : Range{0, (1LL << t.bits) - 1};
  }
  // Every integer node of s within `limit` (comparisons' operands too: they compare the same values).
  bool fits(const Sym& s, Range limit) const {
    switch (s.kind) {
      case Kind::load:
      case Kind::invariant:
      case Kind::constant:
      case Kind::cast:
      case Kind::negate:
      case Kind::bit_not:
      case Kind::binary:
      case Kind::select: break;
      default: return false;
    }
    const auto r = rangeOf(s);
    if (!r || r->lo < limit.lo || r->hi > limit.hi) return false;
    if (s.kind == Kind::load || s.kind == Kind::invariant || s.kind == Kind::constant) return true;
    if (s.kind == Kind::select) {
      const Selection sel = selection(s);
      if (sel.compare->kind != Kind::compare || !fits(*sel.compare->args[0], limit) || !fits(*sel.compare->args[1], limit)) return false;
      return fits(*sel.ifTrue, limit) && fits(*sel.ifFalse, limit);
    }
    if (s.kind == Kind::binary && (s.op == "<<" || s.op == ">>")) return fits(*s.args[0], limit);
    for (const SymPtr& a : s.args)
      if (!fits(*a, limit)) return false;
    return true;
  }
  // s written in 16-bit dtype w (fits() holds: every value, and so every operation, is the same).
  std::string in16(const Sym& s, const std::string& w) {
    switch (s.kind) {
      case Kind::load:
      case Kind::invariant: {
        const std::string e = s.kind == Kind::load ? input(s) : param(s);
        return s.type.dtype == w ? e : "convert(" + e + ", " + w + ")";
      }
      case Kind::constant: return std::to_string(rangeOf(s)->lo);
      case Kind::cast: return in16(*s.args[0], w);
      case Kind::negate: return "-(" + in16(*s.args[0], w) + ")";
      case Kind::bit_not: return "~(" + in16(*s.args[0], w) + ")";
      case Kind::select: return writeSelect(s, [&](const Sym& x) { return in16(x, w); });
      default: {  // binary
        if (s.op == "<<" || s.op == ">>") return "(" + in16(*s.args[0], w) + " " + s.op + " " + std::to_string(shiftCount(s)) + ")";
        const std::string lhs = in16(*s.args[0], w);
        return "(" + lhs + " " + s.op + " " + in16(*s.args[1], w) + ")";
      }
    }
  }

 public:
  // The count of a shift: a constant below the shifted value's bits (the map family's rule, and
  // what C defines).
  static int shiftCount(const Sym& s) {
    const Sym& c = stripCasts(*s.args[1]);
    size_t end = 0;
    long long v = -1;
    if (c.kind == Kind::constant) {
      try {
        v = std::stoll(c.name, &end, 0);
      } catch (...) {
        v = -1;
      }
      if (c.name.find_first_not_of("uUlL", end) != std::string::npos) v = -1;
    }
    if (c.kind != Kind::constant || v < 0) throw NotMap{"the shift count in `" + render(s) + "` is not a constant"};
    if (v >= static_cast<long long>(s.type.bits)) throw NotMap{"the shift count in `" + render(s) + "` is not below the width of its type"};
    return static_cast<int>(v);
  }

  // x << c in `to`: its low bits depend only on x's low bits (when c < to's bits). x >> c only when
  // x is a value of `to` itself (an element or scalar of that dtype, promoted by C): the promoted
  // shift of its sign- or zero-extension is `to`'s own arithmetic or logical shift.
  std::optional<std::string> narrowedShift(const Sym& s, const ScalarType& to) {
    const int count = shiftCount(s);
    if (count >= static_cast<int>(to.bits)) return std::nullopt;
    if (s.op == "<<") {
      auto e = narrowed(*s.args[0], to);
      if (!e) return std::nullopt;
      return "(" + *e + " << " + std::to_string(count) + ")";
    }
    const Sym& x = stripCasts(*s.args[0]);
    if ((x.kind != Kind::load && x.kind != Kind::invariant) || x.type.dtype != to.dtype) return std::nullopt;
    return "(" + (x.kind == Kind::load ? input(x) : param(x)) + " >> " + std::to_string(count) + ")";
  }

 private:
  // An integer literal's value modulo 2^bits of `to`, written in `to`'s range (a map literal must
  // be representable in its dtype).
  static std::optional<std::string> wrappedConstant(const std::string& text, const ScalarType& to) {
    size_t end = 0;
    unsigned long long v = 0;
    try {
      v = std::stoull(text, &end, 0);
    } catch (...) {
      return std::nullopt;
    }
    if (text.find_first_not_of("uUlL", end) != std::string::npos) return std::nullopt;
    if (to.bits < 64) v &= (1ULL << to.bits) - 1;
    if (to.isSigned && to.bits < 64 && v >= (1ULL << (to.bits - 1))) return std::to_string(static_cast<long long>(v) - (1LL << to.bits));
    if (to.isSigned && to.bits == 64) return std::to_string(static_cast<long long>(v));
    return std::to_string(v);
  }
};

// No parenthesis closes before it opens: "(a) + (b)" is not one parenthesized expression.
bool balanced(const std::string& t) {
  int depth = 0;
  for (char c : t) {
    depth += c == '(' ? 1 : c == ')' ? -1 : 0;
    if (depth < 0) return false;
  }
  return depth == 0;
}

// base + stride * start + offset: the element of the loop's first iteration (`runtime`: a runtime
// stride's value, instead of the constant `stride`).
// Two arrays of one base at one constant stride whose elements never meet (offsets different
// modulo the stride: RGBA's alpha beside its colours): no element of one is the other's.
bool interleaved(const MapLift::Array& a, const MapLift::Array& b) {
  return a.base == b.base && a.stride == b.stride && a.stride > 1 && a.strideText.empty() && b.strideText.empty() &&
         (a.offset - b.offset) % a.stride != 0;
}

std::string pointer(const LoopModel& loop, const std::string& base, long long offset, long long stride = 1,
                    const std::string& runtime = "") {
  std::string p = base;
  const std::string times = !runtime.empty() ? paren(runtime) + " * " : stride == 1 ? "" : std::to_string(stride) + " * ";
  if (loop.startText != "0") p += " + " + times + rangeStart(loop);
  if (offset) p += (offset > 0 ? " + " : " - ") + std::to_string(offset > 0 ? offset : -offset);
  return p;
}

}  // namespace

std::optional<std::string> mapExpression(MapLift& map, const Sym& value, const ScalarType& to, int mathUlp, std::string& why) {
  try {
    Translator t(map, mathUlp);
    // C's conversion to the destination, written out when it changes the dtype (as for a store).
    auto narrow = value.type.dtype == to.dtype ? std::nullopt : t.narrowed(value, to);
    std::string e = narrow ? *narrow : t.expr(value);
    if (e.size() > 1 && e.front() == '(' && e.back() == ')' && balanced(e.substr(1, e.size() - 2))) e = e.substr(1, e.size() - 2);
    return narrow || value.type.dtype == to.dtype ? e : "convert(" + e + ", " + to.dtype + ")";
  } catch (const NotMap& n) {
    why = n.reason;
    return std::nullopt;
  }
}

std::string mapPointer(const LoopModel& loop, const MapLift::Array& a, bool output) {
  const std::string p = pointer(loop, a.base, a.offset, a.stride, a.strideText);
  return a.plainChar ? std::string(output ? "(uint8_t*)(" : "(const uint8_t*)(") + p + ")" : p;
}

nlohmann::ordered_json mapInputJson(const MapLift::Array& in) {
  nlohmann::ordered_json j = {{"name", in.name}, {"dtype", in.type.dtype}};
  if (!in.strideName.empty()) j["stride"] = in.strideName;
  else if (in.stride != 1) j["stride"] = in.stride;
  return j;
}

std::string runtimeStrideArgs(const MapLift& map) {
  std::string args;
  std::set<std::string> seen;
  for (const auto* arrays : {&map.inputs, &map.outputs})  // the spec's order: inputs' names first
    for (const auto& a : *arrays)
      if (!a.strideName.empty() && seen.insert(a.strideName).second) args += ", " + a.strideText;
  return args;
}

std::variant<MapLift, std::string> recognizeMap(const MapModel& model, int mathUlp, bool stridedInputs) {
  try {
    MapLift map;
    map.stridedInputs = map.runtimeStrides = stridedInputs;
    Translator t(map, mathUlp);
    for (const MapStore& st : model.stores) {
      if (st.stride != 1 && !stridedInputs)
        throw NotMap{"`" + st.base + "` is written at a stride of " + (st.strideText.empty() ? std::to_string(st.stride) : "`" + st.strideText + "`") +
                     " (strided outputs are lifted in 1-D loops)"};
      if (st.type.plainChar && st.value->kind == Kind::load && st.value->type.plainChar) {
        // A copy of C's plain char (`dst[j] = src[j]`): bits moved, never computed with, so the
        // target's signedness of char does not matter; u8 lanes.
        MapLift::Array out;
        out.base = st.base;
        out.offset = st.offset;
        out.type = st.type;
        out.type.dtype = "u8";
        out.plainChar = true;
        out.stride = st.stride;
        out.strideText = st.strideText;
        out.expr = t.charInput(*st.value);
        map.outputs.push_back(out);
        continue;
      }
      if (st.type.dtype.empty()) throw NotMap{"the elements of " + st.base + " are " + st.type.spelling};
      MapLift::Array out;
      out.base = st.base;
      out.offset = st.offset;
      out.type = st.type;
      out.stride = st.stride;
      out.strideText = st.strideText;
      const Sym& value = *st.value;
      // The assignment's conversion to the element type, written out when it changes the dtype.
      auto narrow = value.type.dtype == st.type.dtype ? std::nullopt : t.narrowed(value, st.type);
      std::string e = narrow ? *narrow : t.expr(value);
      if (e.size() > 1 && e.front() == '(' && e.back() == ')' && balanced(e.substr(1, e.size() - 2))) e = e.substr(1, e.size() - 2);
      out.expr = narrow || value.type.dtype == st.type.dtype ? e : "convert(" + e + ", " + st.type.dtype + ")";
      map.outputs.push_back(out);
    }
    // errno from sqrt: whether any argument was below zero, as an integer as wide as its lanes.
    for (const SymPtr& arg : model.domainErrors) {
      if (!stridedInputs) throw NotMap{"`sqrt` sets errno for a negative argument, which a kernel over rows does not report"};
      const Sym* x = arg.get();  // sqrt((double)f) of a float: f < 0 in f32 lanes, the same test
      while (x->kind == Kind::cast && x->type.isFloat && x->args[0]->type.isFloat && x->args[0]->type.bits < x->type.bits) x = x->args[0].get();
      map.domainChecks.push_back({"", x->type.bits > 32 ? "i64" : "i32", "select(" + t.expr(*x) + " < 0, 1, 0)"});
    }
    std::set<std::string> names;
    for (const auto& in : map.inputs) names.insert(in.name), names.insert(in.strideName);
    for (const auto& p : map.params) names.insert(p.name);
    // An output's runtime stride: the parameter of an input's of the same value, else its own.
    for (size_t k = 0; k < map.outputs.size(); ++k) {
      auto& out = map.outputs[k];
      if (out.strideText.empty()) continue;
      for (const auto* arrays : {&map.inputs, &map.outputs})
        for (const auto& other : *arrays)
          if (other.strideText == out.strideText && !other.strideName.empty() && out.strideName.empty()) out.strideName = other.strideName;
      if (out.strideName.empty()) {
        out.strideName = identifier(out.strideText) && !names.count(out.strideText) && out.strideText != "n" ? out.strideText
                                                                                                              : "ostride" + std::to_string(k);
        while (names.count(out.strideName)) out.strideName += "_";
      }
      names.insert(out.strideName);
    }
    for (auto& out : map.outputs)
      for (const auto& in : map.inputs)
        if (in.base == out.base && in.offset == out.offset && in.stride == out.stride && in.strideText == out.strideText) out.inPlace = in.name;
    // Another pointer at the same position and stride (`sp = dp = row;` then `*dp++ = 255 -
    // *sp++`): in place when they are one address at run time (mapCallChecks), else apart; an
    // input at most once. 1-D loops only (rows compute their own pointers and checks).
    for (auto& out : map.outputs)
      for (const auto& in : map.inputs)
        if (stridedInputs && out.inPlace.empty() && in.base != out.base && in.offset == out.offset && in.stride == out.stride &&
            in.strideText == out.strideText && in.type.dtype == out.type.dtype && in.plainChar == out.plainChar &&
            std::none_of(map.outputs.begin(), map.outputs.end(), [&](const MapLift::Array& o) { return o.inPlace == in.name; }))
          out.inPlace = in.name, out.inPlaceBase = in.base;
    for (size_t k = 0; k < map.outputs.size(); ++k) {
      auto& out = map.outputs[k];
      out.name = identifier(out.base) && out.offset == 0 && (out.inPlace.empty() || !out.inPlaceBase.empty()) && !names.count(out.base) ? out.base
                                                                                                          : "out" + std::to_string(k);
      while (names.count(out.name)) out.name += "_";
      names.insert(out.name);
    }
    for (size_t k = 0; k < map.domainChecks.size(); ++k) {
      std::string& name = map.domainChecks[k].name;
      for (name = "negative" + std::to_string(k); names.count(name);) name += "_";
      names.insert(name);
    }
    for (const auto& out : map.outputs)
      for (const auto& in : map.inputs)
        if (in.base == out.base && in.offset != out.offset && !interleaved(in, out))
          throw NotMap{"`" + out.base + "` is read and written at different positions (a[i] = a[i + 1]: a shift, not element-wise)"};
    if (map.inputs.empty()) throw NotMap{"the loop only fills arrays (no input array)"};
    if (model.uncheckedObjects)
      for (const auto& out : map.outputs)
        if (out.type.bits == 8) throw NotMap{"its byte stores may change a bit-field or a register variable its bounds or positions read"};
    std::string dtypes;
    for (const auto& in : map.inputs)
      if (dtypes.find(in.type.dtype) == std::string::npos) dtypes += (dtypes.empty() ? "" : ",") + in.type.dtype;
    std::string outTypes;
    for (const auto& out : map.outputs)
      if (outTypes.find(out.type.dtype) == std::string::npos) outTypes += (outTypes.empty() ? "" : ",") + out.type.dtype;
    map.summary = "map " + dtypes + " -> " + outTypes + " (" + std::to_string(map.inputs.size()) + " input" +
                  (map.inputs.size() > 1 ? "s" : "") + ", " + std::to_string(map.outputs.size()) + " output" +
                  (map.outputs.size() > 1 ? "s" : "") + ")";
    return map;
  } catch (const NotMap& n) {
    return n.reason;
  }
}

std::string mapSpecJson(const MapLift& map, const std::string& name, const std::string& description) {
  return mapSpec(map, name, description).dump(2) + "\n";
}

nlohmann::ordered_json mapSpec(const MapLift& map, const std::string& name, const std::string& description) {
  nlohmann::ordered_json j;
  j["simdgen"] = 1;
  j["name"] = name;
  j["description"] = description;
  j["kind"] = "map";
  j["shape"] = {"n"};
  j["inputs"] = nlohmann::json::array();
  for (const auto& in : map.inputs) j["inputs"].push_back(mapInputJson(in));
  if (!map.params.empty()) {
    j["params"] = nlohmann::json::array();
    for (const auto& p : map.params) j["params"].push_back({{"name", p.name}, {"dtype", p.type.dtype}});
  }
  j["outputs"] = nlohmann::json::array();
  if (map.maxUlp > 0) j["max_ulp"] = map.maxUlp;
  if (map.fused) j["targets"] = {"avx512", "avx2+fma", "sve2", "sve", "neon", "scalar"};  // the defaults, AVX2 with FMA3
  for (const auto& out : map.outputs) {
    nlohmann::ordered_json o = {{"name", out.name}, {"dtype", out.type.dtype}, {"expr", out.expr}};
    if (!out.inPlace.empty()) o["in_place"] = out.inPlace;
    if (!out.strideName.empty()) o["stride"] = out.strideName;
    else if (out.stride != 1) o["stride"] = out.stride;
    j["outputs"].push_back(o);
  }
  for (const auto& d : map.domainChecks)
    j["outputs"].push_back({{"name", d.name}, {"dtype", d.dtype}, {"reduce", "max"}, {"expr", d.expr}});
  return j;
}

std::vector<std::string> mapCallChecks(const MapModel& model, const MapLift& map, const std::string& n) {
  const LoopModel& loop = model.loop;
  std::vector<std::string> checks;
  // Runtime strides first (the checks below compute positions with them): not negative for an
  // input (0 repeats one element), at least 1 for an output (0 would store every element into
  // one, where the loop's last store wins; the kernel's order is not the loop's).
  std::set<std::string> tested;
  for (const auto* arrays : {&map.outputs, &map.inputs})
    for (const auto& a : *arrays)
      if (!a.strideText.empty() && tested.insert(a.strideText).second)
        checks.push_back(paren(a.strideText) + (arrays == &map.outputs ? " >= 1" : " >= 0"));
  // The elements n of an array span at a stride (at most that many; `runtime`: a runtime stride,
  // one more for a stride of 0, whose one element is still read).
  auto span = [&](long long stride, const std::string& runtime = "") {
    return !runtime.empty() ? paren(runtime) + " * " + n + " + 1" : stride == 1 ? n : std::to_string(stride) + " * " + n;
  };
  auto apart = [&](const std::string& x, const std::string& xn, const std::string& y, const std::string& yn) {
    return "((uintptr_t)(" + paren(x) + " + " + xn + ") <= (uintptr_t)" + paren(y) + " || (uintptr_t)(" + paren(y) + " + " + yn +
           ") <= (uintptr_t)" + paren(x) + ")";
  };
  // Interleaved arrays of one base (interleaved()) share no element by construction: not tested.
  for (size_t k = 0; k < map.outputs.size(); ++k) {
    const auto& out = map.outputs[k];
    const std::string o = pointer(loop, out.base, out.offset, out.stride, out.strideText), on = span(out.stride, out.strideText);
    for (const auto& in : map.inputs) {
      if ((in.name == out.inPlace && out.inPlaceBase.empty()) || interleaved(in, out)) continue;
      const std::string i = pointer(loop, in.base, in.offset, in.stride, in.strideText);
      // The input of another pointer that is in place, or interleaved with it, when the pointers
      // are one address: `dp == sp` decides, else the arrays must be apart.
      MapLift::Array rebased = in;
      rebased.base = out.base;
      const bool sameWhenEqual = !out.inPlaceBase.empty() && in.base == out.inPlaceBase && (in.name == out.inPlace || interleaved(rebased, out));
      const std::string check = apart(o, on, i, span(in.stride, in.strideText));
      checks.push_back(sameWhenEqual ? "((uintptr_t)" + paren(out.base) + " == (uintptr_t)" + paren(in.base) + " || " + check + ")" : check);
    }
    for (size_t m = k + 1; m < map.outputs.size(); ++m)
      if (!interleaved(out, map.outputs[m])) {
        const auto& other = map.outputs[m];
        checks.push_back(apart(o, on, pointer(loop, other.base, other.offset, other.stride, other.strideText), span(other.stride, other.strideText)));
      }
  }
  // No byte of an object the call reads once (a scalar taken by value; the bounds' and positions'
  // fields and globals, runtime strides among them) may be one of the elements the loop stores:
  // bytes may alias anything in C, an int element an int field, and under -fno-strict-aliasing
  // any element anything.
  auto outside = [&](const std::string& o, const std::string& on, const std::string& v) {
    return "((uintptr_t)(&" + paren(v) + " + 1) <= (uintptr_t)" + paren(o) + " || (uintptr_t)&" + paren(v) + " >= (uintptr_t)(" +
           paren(o) + " + " + on + "))";
  };
  for (const auto& out : map.outputs) {
    const std::string o = pointer(loop, out.base, out.offset, out.stride, out.strideText), on = span(out.stride, out.strideText);
    for (const auto& v : model.memoryScalars)
      for (const auto& p : map.params)
        if (p.text == v) checks.push_back(outside(o, on, v));
    for (const auto& v : model.memoryObjects) checks.push_back(outside(o, on, v));
  }
  return checks;
}

std::string mapReplacementCode(const MapModel& model, const MapLift& map, const std::string& name, const std::string& local) {
  const LoopModel& loop = model.loop;
  const std::string n = local + "n";
  std::string args;
  for (const auto& in : map.inputs) args += mapPointer(loop, in) + ", ";
  args += n + runtimeStrideArgs(map);
  for (const auto& p : map.params) args += ", " + p.text;
  for (const auto& out : map.outputs) args += ", " + mapPointer(loop, out, true);
  // sqrt's errno: the kernel reports a negative argument, and errno is set as the loop would.
  std::string results, errnoSet;
  for (const auto& d : map.domainChecks) {
    const std::string r = local + d.name;
    results += "    " + std::string(d.dtype == "i64" ? "int64_t " : "int32_t ") + r + ";\n";
    args += ", &" + r;
    errnoSet += (errnoSet.empty() ? "" : " || ") + r;
  }
  if (!errnoSet.empty()) errnoSet = "    if (" + errnoSet + ") errno = EDOM;\n";

  std::string code = "{\n  // simdgen lift: " + name + " (" + map.summary + ")\n";
  code += "  const int64_t " + n + " = " + rangeCount(loop) + ";\n";
  // Short runtime ranges keep the loop (kMinRuntimeTrip); a static one is at least kMinStaticTrip.
  std::string cond = loop.tripCount ? n + " > 0" : n + " >= " + std::to_string(kMinRuntimeTrip);
  for (const auto& g : model.guards) cond += " && " + paren(g);  // false: the loop runs as written
  for (const auto& c : mapCallChecks(model, map, n)) cond += " && " + c;
  code += "  if (" + cond + ") {\n" + results + "    " + name + "(" + args + ");\n" + errnoSet + counterFinals({&loop}) + "  } else {\n    " +
          loop.loopText + "\n  }\n";
  return code + "}";
}

}  // namespace simdgen::lift
