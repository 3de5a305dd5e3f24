// SPDX-License-Identifier: Apache-2.0
#include "emit/scalar_lowering.h"

#include <stdexcept>

#include "emit/c_scalar.h"

namespace simdgen::emit {

using ir::OpKind;

namespace {

// Whether some statement of `b` (at any depth) computes `name` by a fused multiply-add.
bool definedByFma(const ir::Block& b, const std::string& name) {
  for (const ir::Stmt& s : b)
    if ((s.kind == ir::Stmt::Kind::Op && s.op == OpKind::Fma && s.dst == name) || definedByFma(s.body, name)) return true;
  return false;
}

class ScalarLowering final : public IsaLowering {
 public:
  std::string typeName(ir::VecType t, const LowerContext& cx) const override {
    if (t.lanes != 1) throw std::logic_error("the scalar module lowers one-lane values, not " + ir::toString(t));
    return t.predicate ? "bool" : c::carrier(t.elem, cx.plan.rop);
  }

  void lower(OpWriter& w) const override {
    const ir::Stmt& s = w.s;
    const DType t = s.type.elem;
    const ReduceOp rop = w.cx.plan.rop;
    // A value of the real C type, cast to the carrier when the carrier differs.
    auto carry = [&](const std::string& v) {
      return c::carriedUnsigned(t, rop) ? "(" + c::carrier(t, rop) + ")" + v : v;
    };
    // Predicated: the op's result where the predicate holds, else `otherwise`.
    auto governed = [&](const std::string& value, const std::string& otherwise) {
      return s.pred.empty() ? value : "(" + s.pred + " ? " + value + " : " + otherwise + ")";
    };
    const std::string zero = carry("(" + c::ctype(t) + ")0");
    auto real = [&](const std::string& v) { return c::carriedUnsigned(t, rop) ? "(" + c::ctype(t) + ")" + v : v; };
    switch (s.op) {
      case OpKind::Splat: return w.assign(carry("(" + c::ctype(t) + ")(" + (s.args.empty() ? s.literal : s.args[0]) + ")"));
      case OpKind::Load:
      case OpKind::LoadBroadcast:
        if (s.packedElements) {  // adjacent narrow elements as one value: an unaligned load
          if (s.declare) w.out.push_back(c::ctype(t) + " " + s.dst + ";");
          return w.out.push_back("__builtin_memcpy(&" + s.dst + ", " + w.in(s.index) + ", sizeof " + s.dst + ");");
        }
        return w.assign(governed(carry(w.src() + "[" + s.index.str() + "]"),
                                 s.literal.empty() ? zero : carry("(" + c::ctype(t) + ")(" + s.literal + ")")));
      case OpKind::GatherRows:
        return w.assign(carry("(" + c::ctype(t) + ")" + w.src() + "[" + s.index.str() + "]"));
      case OpKind::ScatterRows:  // a vector op (plan_verify): one lane is a Store
        throw std::logic_error("no scalar lowering for scatter_rows (one lane is a store)");
      case OpKind::Convert: {
        if (s.saturateTo)  // set only on vector steps (map_builder's convertSteps)
          throw std::logic_error("internal error: a one-lane conversion saturating to a narrower type");
        const std::vector<std::string> lines = c::convertLines(w.decl(), s.dst, s.args[0], w.typeOf(s.args[0]).elem, t, rop, s.conv);
        w.out.insert(w.out.end(), lines.begin(), lines.end());
        return;
      }
      case OpKind::Bitcast: {
        const DType in = w.typeOf(s.args[0]).elem;
        const std::string a = c::carriedUnsigned(in, rop) ? "(" + c::ctype(in) + ")" + s.args[0] : s.args[0];
        return w.assign(carry("__builtin_bit_cast(" + c::ctype(t) + ", " + a + ")"));
      }
      case OpKind::Binary: {
        if (s.type.predicate) {
          const char* sym = s.rop == ReduceOp::bit_and ? " && " : s.rop == ReduceOp::bit_or ? " || " : " != ";
          return w.assign("(" + s.args[0] + sym + s.args[1] + ")");
        }
        // min/max compare in the real type: a signed value carried unsigned must not compare as unsigned.
        if ((s.rop == ReduceOp::min || s.rop == ReduceOp::max) && c::carriedUnsigned(t, rop))
          return w.assign(governed(carry(c::binary(s.rop, t, real(s.args[0]), real(s.args[1]))), s.zeroing ? zero : s.args[0]));
        return w.assign(governed(c::binary(s.rop, t, s.args[0], s.args[1]), s.zeroing ? zero : s.args[0]));
      }
      case OpKind::Sub: return w.assign(c::sub(t, s.args[0], s.args[1], rop));
      case OpKind::Abs: return w.assign(c::abs(t, s.args[0], rop));
      case OpKind::Popcount: return w.assign(c::popcount(t, s.args[0], rop));
      case OpKind::Sqrt: return w.assign(c::sqrt(t, s.args[0]));
      case OpKind::Round: return w.assign(c::round(t, s.args[0], s.conv));
      case OpKind::AddSat:
      case OpKind::SubSat:
      case OpKind::AvgRound: {
        const std::string a = real(s.args[0]), b = real(s.args[1]);
        if (s.op == OpKind::AvgRound) return w.assign(carry(c::avgRound(t, a, b)));
        const std::string cast = c::carriedUnsigned(t, rop) ? "(" + c::carrier(t, rop) + ")" : "";
        const std::vector<std::string> lines = c::addSubSatLines(s.op == OpKind::AddSat, w.decl(), cast, s.dst, t, a, b);
        w.out.insert(w.out.end(), lines.begin(), lines.end());
        return;
      }
      case OpKind::AbsDiff:
        if (s.args[0] == s.args[1] && !isFloat(t)) {  // |x - x| = 0, written without a self-comparison
          w.out.push_back("(void)" + s.args[0] + ";  // its distance to itself");
          return w.assign(zero);
        }
        if (isFloat(t)) return w.assign(c::abs(t, c::sub(t, s.args[0], s.args[1], rop), rop));
        // The larger minus the smaller, wrapping, compared in the real type. Both differences
        // first: one short ?: between names (clang-format-clean at any length).
        w.out.push_back("const " + c::carrier(t, rop) + " " + s.dst + "_ab = " + c::sub(t, s.args[0], s.args[1], rop) + ";");
        w.out.push_back("const " + c::carrier(t, rop) + " " + s.dst + "_ba = " + c::sub(t, s.args[1], s.args[0], rop) + ";");
        return w.assign("(" + real(s.args[0]) + " > " + real(s.args[1]) + " ? " + s.dst + "_ab : " + s.dst + "_ba)");
      case OpKind::ShiftLeft:
      case OpKind::ShiftRight: return w.assign(c::shift(s.op == OpKind::ShiftLeft, t, s.args[0], s.part, rop));
      case OpKind::Neg:
        if (isFloat(t) && definedByFma(w.cx.plan.body, s.args[0])) {  // kept from becoming fnmadd (fileHelper "kept_f32")
          const std::string f = t == DType::f32 ? "f32" : "f64";
          w.cx.helpers.insert("kept_" + f);
          return w.assign("(-simdgen_kept_" + f + "(" + s.args[0] + "))");
        }
        return w.assign(isFloat(t) ? "(-" + s.args[0] + ")" : c::sub(t, "0", s.args[0], rop));
      case OpKind::Div: return w.assign("(" + s.args[0] + " / " + s.args[1] + ")");
      case OpKind::Fma: {
        const std::string f = t == DType::f32 ? "__builtin_fmaf" : "__builtin_fma";
        return w.assign(governed(c::call(f, {s.args[1], s.args[2], s.args[0]}), s.zeroing ? zero : s.args[0]));
      }
      case OpKind::Select: return w.assign("(" + s.args[0] + " ? " + s.args[1] + " : " + s.args[2] + ")");
      case OpKind::Compare: {
        // Compare in the real type: a signed value carried unsigned must not compare as unsigned.
        const DType in = w.typeOf(s.args[0]).elem;
        auto real = [&](const std::string& v) { return c::carriedUnsigned(in, rop) ? "(" + c::ctype(in) + ")" + v : v; };
        if (s.args[0] == s.args[1] && !isFloat(in)) {  // an integer against itself: known (and a -Wtautological-compare warning if written)
          const bool holds = s.cmp == ir::Cmp::le || s.cmp == ir::Cmp::ge || s.cmp == ir::Cmp::eq;
          // The value may be read by nothing else (an input loaded for this comparison only).
          w.out.push_back("(void)" + s.args[0] + ";  // compared with itself");
          return w.assign(holds ? "true" : "false");
        }
        return w.assign("(" + real(s.args[0]) + " " + std::string(ir::symbolOf(s.cmp)) + " " + real(s.args[1]) + ")");
      }
      case OpKind::Not: return w.assign("!" + s.args[0]);
      case OpKind::WhileLt: return w.assign("(" + s.lo.str() + " < " + s.hi.str() + ")");
      case OpKind::SetIndex: return w.assign(s.index.str());
      case OpKind::NaNMask: {
        const std::string x = s.args[0], ct = c::ctype(t);
        return w.assign("(" + ct + ")-(" + ct + ")(" + x + " != " + x + ")");
      }
      case OpKind::ScaleB:  // AVX-512 only (builders ask for them there)
      case OpKind::GetExp:
      case OpKind::GetMant:
        throw std::logic_error("no " + std::string(nameOf(s.op)) + " on " + w.cx.target.spelling);
      case OpKind::Fence:  // only x86 plans stream their stores
        throw std::logic_error("no fence on " + w.cx.target.spelling);
      case OpKind::Store: {
        if (s.streaming) throw std::logic_error("no streaming store on " + w.cx.target.spelling);
        const ir::VecType v = w.typeOf(s.args[0]);
        const std::string value = c::carriedUnsigned(v.elem, rop) ? "(" + c::ctype(v.elem) + ")" + s.args[0] : s.args[0];
        const std::string line = w.cx.plan.outputTensor(s.tensor).name + "[" + s.index.str() + "] = " + value + ";";
        return w.out.push_back(s.pred.empty() ? line : "if (" + s.pred + ") " + line);
      }
      case OpKind::LocateEqual: return writeLocateEqual(w, std::nullopt);
      case OpKind::LocateNaN: {
        const std::string x = w.src() + "[" + s.index.str() + " + k]";
        w.out.push_back(w.decl() + " = -1;");
        w.out.push_back("for (int64_t k = " + s.lo.str() + "; k < " + s.hi.str() + "; ++k) if (" + x + " != " + x +
                        ") { " + s.dst + " = k; break; }");
        return;
      }
      case OpKind::Extend:
      case OpKind::DotI8I8:  // NEON sdot/udot: only neon+dotprod plans use them
      case OpKind::DotU8U8:
      case OpKind::DotU8I8:  // an x86 instruction: only avx512+vnni plans use it
      case OpKind::DotBf16:  // an x86 instruction: only avx512+bf16 plans use it
      case OpKind::DotBf16Odd:  // Arm bfdot: only neon+bf16, sve+bf16 and sve2+bf16 plans use it
      case OpKind::DotI16I16:  // an x86 instruction (vpmaddwd): only AVX2 and AVX-512 plans use it
      case OpKind::DotAccumulate:
      case OpKind::ReduceLanes:
      case OpKind::ReduceRows:
      case OpKind::Shuffle:
      case OpKind::LoadHalves:
        break;
    }
    throw std::logic_error(std::string(ir::nameOf(s.op)) + " has no one-lane lowering");
  }
};

}  // namespace

const IsaLowering& scalarLowering() {
  static const ScalarLowering module;
  return module;
}

void writeLocateEqual(OpWriter& w, const std::optional<VectorSearch>& search) {
  const ir::Stmt& s = w.s;
  const bool last = s.part == 1;
  const std::string lo = s.lo.str(), hi = s.hi.str();
  w.out.push_back(w.decl() + " = -1;");
  w.out.push_back("{");
  if (search) w.out.insert(w.out.end(), search->lines.begin(), search->lines.end());
  const std::string cond = w.src() + "[" + s.index.str() + " + k] == " + s.args[0];
  w.out.push_back("if (" + s.dst + " < 0) {");
  if (!last)
    w.out.push_back("for (int64_t k = " + (search ? search->resume : lo) + "; k < " + hi + "; ++k) if (" + cond + ") { " +
                    s.dst + " = k; break; }");
  else
    w.out.push_back("for (int64_t k = " + (search ? search->resume : hi) + " - 1; k >= " + lo + "; --k) if (" + cond +
                    ") { " + s.dst + " = k; break; }");
  w.out.push_back("}");
  w.out.push_back("}");
}

}  // namespace simdgen::emit
