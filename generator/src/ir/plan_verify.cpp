// SPDX-License-Identifier: Apache-2.0
// Structural checks on a plan: every variable defined before use and declared once per scope,
// operand types consistent with each op's lane rules, loops and counts well formed.
#include <map>
#include <set>
#include <stdexcept>

#include <algorithm>

#include "ir/plan.h"

namespace simdgen::ir {

namespace {

struct Verifier {
  const Plan& plan;
  std::vector<std::string> problems;
  std::vector<std::map<std::string, VecType>> scopes;
  std::set<std::string> symbols;
  std::set<std::string> reserved;  // parameter names: no local may reuse them

  void fail(const std::string& where, const std::string& what) { problems.push_back(where + ": " + what); }

  const VecType* lookup(const std::string& v) const {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
      if (auto f = it->find(v); f != it->end()) return &f->second;
    return nullptr;
  }

  void checkIndex(const std::string& where, const Index& idx) {
    for (const auto& t : idx.terms)
      for (const auto& s : t.symbols)
        if (!symbols.count(s) && !lookup(s)) fail(where, "unknown symbol '" + s + "' in index");
  }

  void checkOp(const Stmt& s) {
    const std::string where = s.dst.empty() ? "store" : s.dst;
    std::vector<VecType> in;
    for (const auto& a : s.args) {
      const VecType* t = lookup(a);
      if (!t) {
        fail(where, "uses undefined variable '" + a + "'");
        return;
      }
      in.push_back(*t);
    }
    auto need = [&](size_t n) {
      if (in.size() != n) fail(where, "expects " + std::to_string(n) + " operands");
      return in.size() == n;
    };
    // The governing predicate: a mask of the op's own lane shape.
    if (!s.pred.empty()) {
      const VecType* p = lookup(s.pred);
      const VecType shape = s.op == OpKind::Store || s.op == OpKind::ScatterRows || s.op == OpKind::ReduceLanes ? (in.empty() ? s.type : in[0]) : s.type;
      if (!p) fail(where, "predicated by undefined variable '" + s.pred + "'");
      else if (!p->predicate || p->lanes != shape.lanes || p->scalable != shape.scalable)
        fail(where, "predicate " + s.pred + " : " + toString(*p) + " does not govern " + toString(shape));
    }
    if (s.type.predicate != (s.op == OpKind::WhileLt || s.op == OpKind::Compare || s.op == OpKind::Not ||
                             (s.op == OpKind::Binary && !in.empty() && in[0].predicate) ||
                             (s.op == OpKind::Select && in.size() > 1 && in[1].predicate)))
      fail(where, s.type.predicate ? "a predicate cannot be made by " + std::string(nameOf(s.op))
                                   : std::string(nameOf(s.op)) + " makes a predicate, not " + toString(s.type));
    auto tensorOf = [&](bool output) -> const Tensor* {
      try {
        return output ? &plan.outputTensor(s.tensor) : &plan.tensor(s.tensor);
      } catch (const std::logic_error& e) {
        fail(where, e.what());
        return nullptr;
      }
    };
    switch (s.op) {
      case OpKind::Splat:
        if (!s.args.empty()) {
          if (!s.literal.empty() || s.args.size() != 1) fail(where, "a splat takes a literal or one value, not both");
          else if (need(1) && !(in[0] == VecType{s.type.elem, 1})) fail(where, "splats " + toString(in[0]) + " as " + toString(s.type) + " (needs a one-lane value of its element type)");
          break;
        }
        if (s.literal.empty()) fail(where, "splat without a value");
        for (const Param& p : plan.params)
          if (p.kind == Param::Kind::scalar && p.name == s.literal && p.dtype != s.type.elem)
            fail(where, "splats scalar parameter " + p.name + " : " + std::string(nameOf(p.dtype)) + " as " + toString(s.type));
        break;
      case OpKind::Load:
      case OpKind::LoadBroadcast:
        checkIndex(where, s.index);
        if (s.inBounds && s.pred.empty()) fail(where, "in_bounds is a promise about inactive lanes: the load needs a predicate");
        if (const Tensor* t = tensorOf(false); t && s.packedElements) {
          if (s.op != OpKind::Load || s.type.lanes != 1 || s.type.scalable || !s.pred.empty() || isFloat(s.type.elem) ||
              bitsOf(s.type.elem) <= bitsOf(t->dtype))
            fail(where, "a packed-elements load reads one unpredicated integer lane wider than the tensor's elements");
        } else if (t && t->dtype != s.type.elem) {
          fail(where, "loads " + toString(s.type) + " from " + std::string(nameOf(t->dtype)) + " tensor " + t->name);
        }
        break;
      case OpKind::Fma:
        if (!need(3)) break;
        for (const auto& t : in)
          if (!(t == s.type)) fail(where, "fma operands must all be " + toString(s.type));
        if (!isFloat(s.type.elem)) fail(where, "fma is defined on floats");
        break;
      case OpKind::DotBf16:
      case OpKind::DotBf16Odd:
        if (!need(3)) break;
        if (s.type.elem != DType::f32 || !(in[0] == s.type) || !(in[1] == VecType{DType::u32, s.type.lanes, s.type.scalable}) || !(in[2] == in[1]))
          fail(where, std::string(nameOf(s.op)) + " adds pairs of u32-packed bf16 to f32 lanes: (f32, u32, u32) of one lane count");
        if (!s.pred.empty()) fail(where, std::string(nameOf(s.op)) + " takes no predicate");
        break;
      case OpKind::DotU8I8:
      case OpKind::DotI8I8:
      case OpKind::DotU8U8:
      case OpKind::DotI16I16:
        if (!need(3)) break;
        if (s.type.elem != DType::i32 || !(in[0] == s.type) || !(in[1] == VecType{DType::u32, s.type.lanes, s.type.scalable}) || !(in[2] == in[1]))
          fail(where, std::string(nameOf(s.op)) + (s.op == OpKind::DotI16I16 ? " adds pairs of u32-packed i16" : " adds quads of u32-packed bytes") +
                          " to i32 lanes: (i32, u32, u32) of one lane count");
        if (!s.pred.empty()) fail(where, std::string(nameOf(s.op)) + " takes no predicate");
        break;
      case OpKind::Select:
        if (!need(3)) break;
        if (!in[0].predicate || in[0].lanes != s.type.lanes || in[0].scalable != s.type.scalable)
          fail(where, "select needs a predicate of its lanes first");
        if (!(in[1] == s.type) || !(in[2] == s.type)) fail(where, "select operands must be " + toString(s.type));
        break;
      case OpKind::Shuffle:
        if (in.empty()) {
          fail(where, "shuffle without sources");
          break;
        }
        for (const auto& t : in)
          if (!(t == s.type)) fail(where, "shuffle sources must be " + toString(s.type));
        if (!s.type.scalable) {
          try {
            for (int m : s.shuffle.laneMap(s.type.lanes, bitsOf(s.type.elem)))
              if (m < 0 || m >= s.type.lanes * int(in.size())) fail(where, "shuffle lane " + std::to_string(m) + " has no source");
          } catch (const std::logic_error& e) {
            fail(where, e.what());
          }
        }
        break;
      case OpKind::WhileLt:
        checkIndex(where, s.lo);
        checkIndex(where, s.hi);
        break;
      case OpKind::Compare:
        if (!need(2)) break;
        if (!(in[0] == in[1]) || in[0].predicate || in[0].lanes != s.type.lanes) fail(where, "compare needs two values of its lane shape");
        break;
      case OpKind::Not:
        if (!need(1)) break;
        if (!(in[0] == s.type)) fail(where, "not needs a predicate of its type");
        break;
      case OpKind::GatherRows:
        checkIndex(where, s.index);
        checkIndex(where, s.stride);
        if (s.readAhead >= 0 && (!s.stride.constantValue() || *s.stride.constantValue() < 1))
          fail(where, "gather_rows read_ahead needs a constant positive stride");
        break;
      case OpKind::LoadHalves:
        checkIndex(where, s.index);
        checkIndex(where, s.stride);
        if (!s.pred.empty() || s.type.scalable || s.type.lanes % 2 != 0) fail(where, "load_halves needs an even fixed lane count and no predicate");
        if (const Tensor* t = tensorOf(false); t && t->dtype != s.type.elem)
          fail(where, "loads " + toString(s.type) + " from " + std::string(nameOf(t->dtype)) + " tensor " + t->name);
        break;
      case OpKind::Extend:
        if (!need(1)) break;
        if (bitsOf(s.type.elem) < bitsOf(in[0].elem)) fail(where, "extend narrows");
        if (s.type.lanes * (s.part + 1) > in[0].lanes) fail(where, "extend part out of range");
        break;
      case OpKind::Binary:
        if (!need(2)) break;
        if (!(in[0] == s.type) || !(in[1] == s.type))
          fail(where, "binary operands " + toString(in[0]) + ", " + toString(in[1]) + " do not match " + toString(s.type));
        if (s.type.predicate ? !isBitwise(s.rop) : !opSupports(s.rop, s.type.elem)) fail(where, "op not defined on " + toString(s.type));
        break;
      case OpKind::Sub:
      case OpKind::Div:
      case OpKind::Neg:
      case OpKind::Abs:
      case OpKind::Sqrt:
      case OpKind::ScaleB:
      case OpKind::GetExp:
      case OpKind::GetMant:
      case OpKind::Round:
      case OpKind::AddSat:
      case OpKind::SubSat:
      case OpKind::AvgRound:
      case OpKind::AbsDiff:
      case OpKind::Popcount: {
        const bool integral = s.op == OpKind::AddSat || s.op == OpKind::SubSat || s.op == OpKind::AvgRound || s.op == OpKind::Popcount;
        const bool binary = s.op == OpKind::Sub || s.op == OpKind::Div || s.op == OpKind::AbsDiff || s.op == OpKind::ScaleB ||
                            (integral && s.op != OpKind::Popcount);
        if (!need(binary ? 2 : 1)) break;
        const bool floatsOnly = s.op == OpKind::Div || s.op == OpKind::Sqrt || s.op == OpKind::Round || s.op == OpKind::ScaleB ||
                                s.op == OpKind::GetExp || s.op == OpKind::GetMant;
        if (floatsOnly && !isFloat(s.type.elem))
          fail(where, std::string(nameOf(s.op)) + " is defined on floats only");
        if (integral && isFloat(s.type.elem)) fail(where, std::string(nameOf(s.op)) + " is defined on integers only");
        if (s.op == OpKind::Round && s.conv != ConvMode::floor && s.conv != ConvMode::ceil && s.conv != ConvMode::trunc &&
            s.conv != ConvMode::nearest)
          fail(where, "round needs a direction: floor, ceil, trunc or nearest");
        for (const auto& t : in)
          if (!(t == s.type) || t.predicate) fail(where, std::string(nameOf(s.op)) + " operands must be " + toString(s.type));
        if (!s.pred.empty()) fail(where, std::string(nameOf(s.op)) + " takes no predicate");
        break;
      }
      case OpKind::ShiftLeft:
      case OpKind::ShiftRight:
        if (!need(1)) break;
        if (!(in[0] == s.type) || s.type.predicate || isFloat(s.type.elem)) fail(where, std::string(nameOf(s.op)) + " needs an integer operand of its own type");
        if (s.part <= 0 || s.part >= bitsOf(s.type.elem)) fail(where, "shift count " + std::to_string(s.part) + " outside (0, bits)");
        if (!s.pred.empty()) fail(where, std::string(nameOf(s.op)) + " takes no predicate");
        break;
      case OpKind::DotAccumulate:
        if (!need(2)) break;
        if (!(in[0] == s.type)) fail(where, "accumulator type mismatch");
        if (in[1].lanes != s.type.lanes * s.group) fail(where, "dot group does not tile the input lanes");
        if (s.rop != ReduceOp::add) fail(where, "dot_accumulate only adds");
        break;
      case OpKind::ReduceLanes:
        if (!need(1)) break;
        if (s.type.lanes != 1 || s.type.elem != in[0].elem) fail(where, "reduce_lanes yields a scalar of the operand type");
        if (in[0].lanes & (in[0].lanes - 1)) fail(where, "reduce_lanes needs a power-of-two lane count");
        break;
      case OpKind::ReduceRows:
        if (static_cast<int>(in.size()) != s.type.lanes || s.network.lanes != s.type.lanes)
          fail(where, "reduce_rows needs as many rows as lanes");
        for (const auto& t : in)
          if (!(t == s.type)) fail(where, "reduce_rows operand type mismatch");
        break;
      case OpKind::Convert:
        if (!need(1)) break;
        if (in[0].lanes != s.type.lanes) fail(where, "convert changes the lane count");
        if ((s.conv == ConvMode::wrap || s.conv == ConvMode::sat) && (isFloat(in[0].elem) || isFloat(s.type.elem)))
          fail(where, "convert " + std::string(nameOf(s.conv)) + " needs integers");
        if (s.conv != ConvMode::plain && s.conv != ConvMode::wrap && s.conv != ConvMode::sat &&
            (!isFloat(in[0].elem) || isFloat(s.type.elem)))
          fail(where, "convert " + std::string(nameOf(s.conv)) + " rounds a float to an integer");
        break;
      case OpKind::Bitcast:
        if (!need(1)) break;
        // Lane by lane, or (another lane count) the vector's bytes in order, as vreinterpretq does.
        if (in[0].lanes * bitsOf(in[0].elem) != s.type.lanes * bitsOf(s.type.elem) || in[0].scalable != s.type.scalable ||
            in[0].predicate || s.type.predicate)
          fail(where, "bitcast keeps the vector's width (lanes x lane bits)");
        if (!s.pred.empty()) fail(where, "bitcast takes no predicate");
        break;
      case OpKind::Store: {
        if (!need(1)) break;
        checkIndex(where, s.index);
        const Tensor* out = tensorOf(true);
        if (out && in[0].elem != out->dtype)
          fail(where, "stores " + toString(in[0]) + " into " + std::string(nameOf(out->dtype)) + " output " + out->name);
        if (s.streaming && (!s.pred.empty() || in[0].lanes < 2 || in[0].scalable))
          fail(where, "a streaming store writes whole fixed-width vectors, unpredicated");
        break;
      }
      case OpKind::ScatterRows: {
        if (!need(1)) break;
        checkIndex(where, s.index);
        checkIndex(where, s.stride);
        const Tensor* out = tensorOf(true);
        if (out && in[0].elem != out->dtype)
          fail(where, "scatters " + toString(in[0]) + " into " + std::string(nameOf(out->dtype)) + " output " + out->name);
        if (in[0].lanes < 2 && !in[0].scalable) fail(where, "a scatter stores a vector (one lane is a store)");
        break;
      }
      case OpKind::Fence:
        if (!s.args.empty() || !s.dst.empty()) fail(where, "a fence has no operands");
        break;
      case OpKind::SetIndex:
        checkIndex(where, s.index);
        if (s.type.lanes != 1 || s.type.elem != DType::i64) fail(where, "a position is an i64 scalar");
        break;
      case OpKind::NaNMask:
        if (!need(1)) break;
        if (!isFloat(in[0].elem) || isFloat(s.type.elem) || bitsOf(s.type.elem) != bitsOf(in[0].elem) ||
            s.type.lanes != in[0].lanes)
          fail(where, "nan_mask maps float lanes to integer lanes of the same width");
        break;
      case OpKind::LocateEqual:
      case OpKind::LocateNaN:
        if (!need(s.op == OpKind::LocateEqual ? 1 : 0)) break;
        checkIndex(where, s.index);
        checkIndex(where, s.lo);
        checkIndex(where, s.hi);
        if (s.type.lanes != 1 || s.type.elem != DType::i64) fail(where, "locate yields an i64 scalar");
        if (const Tensor* t = tensorOf(false); t && !in.empty() && (in[0].lanes != 1 || in[0].elem != t->dtype))
          fail(where, "locate compares with a scalar of the input type");
        break;
    }
    if (s.op == OpKind::Store || s.op == OpKind::ScatterRows || s.op == OpKind::Fence) return;
    if (s.declare) {
      if (scopes.back().count(s.dst)) fail(where, "declared twice in one scope");
      if (symbols.count(s.dst) || lookup(s.dst) || reserved.count(s.dst))
        fail(where, "shadows a parameter, constant, loop variable or outer variable of the same name");
      scopes.back()[s.dst] = s.type;
    } else if (const VecType* t = lookup(s.dst); !t) {
      fail(where, "assigned before it is declared");
    } else if (!(*t == s.type)) {
      fail(where, "reassigned with type " + toString(s.type) + " (declared " + toString(*t) + ")");
    }
  }

  // A C block: values and index variables declared in it end with it.
  void nested(const Block& b) {
    const std::set<std::string> outer = symbols;
    scopes.emplace_back();
    block(b);
    scopes.pop_back();
    symbols = outer;
  }

  void block(const Block& b) {
    for (const Stmt& s : b) {
      switch (s.kind) {
        case Stmt::Kind::Comment: break;
        case Stmt::Kind::Op: checkOp(s); break;
        case Stmt::Kind::For:
          if (auto c = s.step.constantValue(); c && *c <= 0) fail("for " + s.var, "step must be positive");
          checkIndex("for " + s.var, s.step);
          if (!s.continues && (lookup(s.var) || reserved.count(s.var))) fail("for " + s.var, "loop variable shadows a value or parameter");
          checkIndex("for " + s.var, s.lo);
          checkIndex("for " + s.var, s.hi);
          if (s.continues && !symbols.count(s.var)) fail("for " + s.var, "continues a loop variable that does not exist");
          symbols.insert(s.var);  // declared in the enclosing block (the emitter writes it before the loop)
          nested(s.body);
          break;
        case Stmt::Kind::Let:
          if (lookup(s.var) || reserved.count(s.var) || symbols.count(s.var)) fail("let " + s.var, "loop variable shadows a value, parameter or loop variable");
          checkIndex("let " + s.var, s.lo);
          if (s.letMin || s.letMax || !s.cpuTrait.empty()) checkIndex("let " + s.var, s.hi);
          if (!s.cpuTrait.empty() && s.cpuTrait != "is_amd" && s.cpuTrait != "splits_512")
            fail("let " + s.var, "CPU trait '" + s.cpuTrait + "': expected is_amd or splits_512 (the ones lowerings test for)");
          if (s.alignBytes && (s.alignBytes & (s.alignBytes - 1)) != 0) fail("let " + s.var, "alignment must be a power of two");
          if (s.roundDownTo < 0 || (s.roundDownTo && (s.letMin || s.letMax || s.opaque || s.alignBytes || !s.cpuTrait.empty())))
            fail("let " + s.var, "round_down takes a positive multiple and no other let kind");
          if (s.alignBytes && std::none_of(plan.tensors.begin(), plan.tensors.end(), [&](const Tensor& t) { return t.name == s.tensor; }))
            fail("let " + s.var, "aligned() of an unknown tensor " + s.tensor);
          symbols.insert(s.var);
          break;
        case Stmt::Kind::IfValues: {
          const VecType *a = lookup(s.args[0]), *b2 = lookup(s.args[1]);
          if (!a || !b2) fail("if", "compares an undefined value");
          else if (!(*a == *b2) || a->lanes != 1) fail("if", "compares values of different types or vectors");
          nested(s.body);
          break;
        }
        case Stmt::Kind::If:
          checkIndex("if", s.cmpLhs);
          checkIndex("if", s.cmpRhs);
          nested(s.body);
          break;
      }
    }
  }
};

}  // namespace

std::vector<std::string> Plan::verify() const {
  Verifier v{*this, {}, {{}}, {}, {}};
  for (const auto& s : runtimeSymbols()) v.symbols.insert(s);
  for (const auto& c : constants) v.symbols.insert(c.first);
  if (scalable) v.symbols.insert(kVscale);
  std::set<std::string> names;
  for (const Param& p : params) {
    if (!names.insert(p.name).second) v.fail("signature", "parameter '" + p.name + "' appears twice");
    v.reserved.insert(p.name);
    if (p.kind == Param::Kind::tensor) {
      try {
        (void)tensor(p.tensor);
      } catch (const std::logic_error& e) {
        v.fail("signature", e.what());
      }
    }
  }
  v.block(body);
  return v.problems;
}

}  // namespace simdgen::ir
