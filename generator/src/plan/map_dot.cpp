// SPDX-License-Identifier: Apache-2.0
#include "plan/map_dot.h"

#include <map>
#include <set>

namespace simdgen {

namespace {

using ir::OpKind;

// convert(x, i32) of an input x of 8 or 16 bits that the instructions multiply exactly.
std::optional<DotOperand> widenedInput(const MapExpr& e) {
  if (e.op != MapOp::convert || e.type != DType::i32 || e.args.size() != 1) return std::nullopt;
  const MapExpr& x = e.args[0];
  if (x.op != MapOp::input || (x.type != DType::i8 && x.type != DType::u8 && x.type != DType::i16)) return std::nullopt;
  return DotOperand{x.input, x.type};
}

// The two operands of an output's terms: a product of two widened inputs, or one widened input
// (a sum: its product with ones of its own type).
std::optional<std::pair<DotOperand, DotOperand>> operandsOf(const MapOutput& o) {
  if (o.reduce != ReduceOp::add || o.mean || o.columns || o.dtype != DType::i32) return std::nullopt;
  if (o.expr.op == MapOp::mul && o.expr.args.size() == 2) {
    const auto a = widenedInput(o.expr.args[0]), b = widenedInput(o.expr.args[1]);
    if (a && b) return std::pair{*a, *b};
    return std::nullopt;
  }
  if (const auto a = widenedInput(o.expr)) return std::pair{*a, DotOperand{-1, a->type}};
  return std::nullopt;
}

// x86 vpdpbusd: unsigned bytes first, signed second; one signedness on both sides takes an offset.
// Ones read the same either way: they take the signedness that needs no offset.
DotTerm x86Quads(size_t k, DotOperand a, DotOperand b) {
  if (b.input < 0) b.type = a.type == DType::i8 ? DType::u8 : DType::i8;
  DotTerm t{k, OpKind::DotU8I8, a, b};
  if (a.type == DType::i8 && b.type == DType::u8) std::swap(t.first, t.second);
  if (a.type == b.type) {
    t.offsetSlot = a.type == DType::i8 ? 0 : 1;  // an i8 offset reads unsigned, a u8 one signed
    t.correction = a.type == DType::i8 ? -128 : 128;
  }
  return t;
}

// Arm sdot / udot (one signedness), usdot (unsigned first; i8mm), or sdot with the u8 operand offset.
DotTerm armQuads(size_t k, DotOperand a, DotOperand b, bool usdot) {
  if (a.type == b.type) return DotTerm{k, a.type == DType::i8 ? OpKind::DotI8I8 : OpKind::DotU8U8, a, b};
  if (a.type == DType::i8) std::swap(a, b);  // a: the u8 operand
  if (usdot) return DotTerm{k, OpKind::DotU8I8, a, b};
  return DotTerm{k, OpKind::DotI8I8, a, b, 0, 128};
}

}  // namespace

std::optional<DotRoute> wideningDotRoute(const KernelSpec& spec, const std::vector<size_t>& outputs, const Target& target) {
  if (!target.vectorBits || outputs.empty()) return std::nullopt;
  std::vector<std::pair<DotOperand, DotOperand>> operands;
  bool bytes = true;
  for (size_t k : outputs) {
    const auto ab = operandsOf(spec.mapOutputs[k]);
    if (!ab) return std::nullopt;
    operands.push_back(*ab);
    bytes = bytes && bitsOf(ab->first.type) == 8 && bitsOf(ab->second.type) == 8;
  }
  DotRoute route;
  const bool x86 = target.module == LoweringModule::x86;
  if (x86 && bytes && target.vnniAt(target.vectorBits)) {
    route.group = 4;
    route.instruction = "vpdpbusd";
  } else if (x86) {
    route.group = 2;  // vpmaddwd on every AVX2 and AVX-512 target: bytes widen to i16 first
    route.instruction = target.vnniAt(target.vectorBits) ? "vpdpwssd" : "vpmaddwd";
  } else if (bytes && (target.module == LoweringModule::sve || (target.module == LoweringModule::neon && target.has("dotprod")))) {
    route.group = 4;
  } else {
    return std::nullopt;
  }
  std::set<std::string> names;
  for (size_t q = 0; q < outputs.size(); ++q) {
    const auto [a, b] = operands[q];
    DotTerm t = route.group == 2 ? DotTerm{outputs[q], OpKind::DotI16I16, a, b}
                : x86            ? x86Quads(outputs[q], a, b)
                                 : armQuads(outputs[q], a, b, target.has("i8mm"));
    if (!x86) names.insert(t.op == OpKind::DotU8I8 ? "usdot" : t.op == OpKind::DotI8I8 ? "sdot" : "udot");
    route.terms.push_back(t);
  }
  for (const std::string& n : names) route.instruction += (route.instruction.empty() ? "" : ", ") + n;
  return route;
}

ir::Index dotStepElements(const DotRoute& route, ir::VecType acc) {
  const int64_t n = int64_t(acc.lanes) * route.group;
  return acc.scalable ? ir::Index::vscaled(n) : ir::Index::constant(n);
}

ir::Block dotStep(const DotRoute& route, const KernelSpec& spec, const DotStepNames& names) {
  using ir::VecType;
  ir::Block out;
  const VecType packed{DType::u32, names.accType.lanes, names.accType.scalable};  // a group per u32 lane
  std::map<int, std::string> groups, offsets;  // per input: its u32 view, and that view xor 0x80
  auto groupsOf = [&](int k) -> std::string {
    if (auto it = groups.find(k); it != groups.end()) return it->second;
    const DType t = spec.mapInputs[size_t(k)].dtype;
    const std::string base = names.input(k);
    ir::Stmt load = ir::op(OpKind::Load, base + "_n" + names.suffix, VecType{t, names.accType.lanes * route.group, names.accType.scalable});
    load.declare = true;
    load.tensor = "in" + std::to_string(k);
    load.index = names.address(k);
    out.push_back(load);
    std::string v = load.dst;
    if (route.group == 2 && bitsOf(t) == 8) {  // pairs of i16: bytes widened by their signedness
      ir::Stmt w = ir::op(OpKind::Extend, base + "_i16" + names.suffix, VecType{DType::i16, load.type.lanes, load.type.scalable}, {v});
      w.declare = true;
      out.push_back(w);
      v = w.dst;
    }
    ir::Stmt b = ir::op(OpKind::Bitcast, base + (route.group == 2 ? "_pairs" : "_quads") + names.suffix, packed, {v});
    b.declare = true;
    out.push_back(b);
    return groups[k] = b.dst;
  };
  // Ones: one byte of 1 per quad element, one i16 of 1 per pair element.
  const std::string ones = names.constant(route.group == 2 ? "65537u" : "16843009u", packed);
  auto operand = [&](const DotOperand& o) { return o.input < 0 ? ones : groupsOf(o.input); };
  for (const DotTerm& t : route.terms) {
    std::string first = operand(t.first), second = operand(t.second);
    if (t.offsetSlot >= 0) {
      const DotOperand& o = t.offsetSlot == 0 ? t.first : t.second;
      std::string& slot = t.offsetSlot == 0 ? first : second;
      if (!offsets.count(o.input)) {
        ir::Stmt x = ir::op(OpKind::Binary, names.input(o.input) + "_offset" + names.suffix, packed, {slot, names.constant("2155905152u", packed)});
        x.rop = ReduceOp::bit_xor;  // 0x80 in every byte
        x.declare = true;
        out.push_back(x);
        offsets[o.input] = x.dst;
      }
      slot = offsets[o.input];
      const std::string acc = names.correction(t.output);
      out.push_back(ir::op(t.op, acc, names.accType, t.offsetSlot == 0 ? std::vector<std::string>{acc, ones, second} : std::vector<std::string>{acc, first, ones}));
    }
    const std::string acc = names.accumulator(t.output);
    out.push_back(ir::op(t.op, acc, names.accType, {acc, first, second}));
  }
  return out;
}

ir::Block dotCorrection(const DotTerm& term, const std::string& acc, const std::string& corr, ir::VecType type) {
  ir::Block out;
  if (!term.correction) return out;
  ir::Stmt shift = ir::op(OpKind::ShiftLeft, corr, type, {corr});
  shift.part = 7;  // 128 times the other operand's sum
  out.push_back(shift);
  if (term.correction > 0) {
    ir::Stmt add = ir::op(OpKind::Binary, acc, type, {acc, corr});
    add.rop = ReduceOp::add;
    out.push_back(add);
  } else {
    out.push_back(ir::op(OpKind::Sub, acc, type, {acc, corr}));
  }
  return out;
}

}  // namespace simdgen
