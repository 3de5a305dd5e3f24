// SPDX-License-Identifier: Apache-2.0
// Plan text: one line per statement, indented by nesting. Tested on its own (like VPlan's print).
#include <sstream>
#include <stdexcept>

#include "ir/plan.h"

namespace simdgen::ir {

namespace {

std::string args(const Stmt& s) {
  std::string r;
  for (size_t k = 0; k < s.args.size(); ++k) r += (k ? ", " : "") + s.args[k];
  return r;
}

std::string opName(const Plan& plan, const Stmt& s) {
  auto tensor = [&](bool output) {
    if (!s.tensor.empty()) return s.tensor;
    try {
      return output ? plan.outputTensor("").name : plan.tensor("").name;
    } catch (const std::logic_error&) {
      return std::string("?");
    }
  };
  const std::string in = tensor(false);
  const std::string pred = s.pred.empty() ? "" : std::string(" if ") + s.pred + (s.zeroing ? " (zeroing)" : "");
  switch (s.op) {
    case OpKind::Splat: return "splat " + (s.args.empty() ? s.literal : s.args[0]);
    case OpKind::Load:
      return "load " + in + "[" + s.index.str() + "]" + pred + (s.pred.empty() || s.literal.empty() ? "" : " fill " + s.literal) +
             (s.inBounds ? " in_bounds" : "");
    case OpKind::LoadBroadcast: return "load_broadcast " + in + "[" + s.index.str() + "]";
    case OpKind::GatherRows:
      return "gather_rows " + in + "[" + s.index.str() + " + lane * " + s.stride.str() + "]" + pred +
             (s.pred.empty() || s.literal.empty() ? "" : " fill " + s.literal) +
             (s.readAhead >= 0 ? " read_ahead " + std::to_string(s.readAhead) : "");
    case OpKind::LoadHalves:
      return "load_halves " + in + "[" + s.index.str() + "], " + in + "[" + s.index.str() + " + " + s.stride.str() + "]";
    case OpKind::Extend: return "extend part " + std::to_string(s.part) + " of " + s.args[0];
    case OpKind::Binary: return std::string(nameOf(s.rop)) + " " + args(s) + pred;
    case OpKind::Fma: return "fma " + args(s) + pred;
    case OpKind::DotBf16: return "dot_bf16 " + args(s);
    case OpKind::DotBf16Odd: return "dot_bf16_odd " + args(s);
    case OpKind::DotU8I8: return "dot_u8i8 " + args(s);
    case OpKind::DotI8I8: return "dot_i8i8 " + args(s);
    case OpKind::DotU8U8: return "dot_u8u8 " + args(s);
    case OpKind::DotI16I16: return "dot_i16i16 " + args(s);
    case OpKind::Sub: return "sub " + args(s);
    case OpKind::Neg: return "neg " + args(s);
    case OpKind::Div: return "div " + args(s);
    case OpKind::Abs: return "abs " + args(s);
    case OpKind::Sqrt: return "sqrt " + args(s);
    case OpKind::ScaleB: return "scale_b " + args(s);
    case OpKind::GetExp: return "get_exp " + args(s);
    case OpKind::GetMant: return "get_mant " + args(s);
    case OpKind::Round: return "round " + args(s) + " " + std::string(nameOf(s.conv));
    case OpKind::AddSat:
    case OpKind::SubSat:
    case OpKind::AvgRound:
    case OpKind::AbsDiff:
    case OpKind::Popcount: return std::string(nameOf(s.op)) + " " + args(s);
    case OpKind::ShiftLeft: return "shift_left " + args(s) + " by " + std::to_string(s.part);
    case OpKind::ShiftRight: return "shift_right " + args(s) + " by " + std::to_string(s.part);
    case OpKind::Select: return "select " + args(s);
    case OpKind::DotAccumulate:
      return "dot_accumulate<" + std::to_string(s.group) + "> " + s.args[0] + ", " + s.args[1];
    case OpKind::ReduceLanes:
      return std::string(s.pairwise ? "reduce_lanes_pairwise " : "reduce_lanes ") + std::string(nameOf(s.rop)) + " " + s.args[0] + pred;
    case OpKind::ReduceRows: return "reduce_rows " + std::string(nameOf(s.rop)) + " [" + args(s) + "]";
    case OpKind::Convert: return "convert " + s.args[0] + (s.conv == ConvMode::plain ? "" : " " + std::string(nameOf(s.conv)));
    case OpKind::Bitcast: return "bitcast " + s.args[0];
    case OpKind::Shuffle: return "shuffle " + s.shuffle.str() + " " + args(s);
    case OpKind::WhileLt: return "whilelt(" + s.lo.str() + ", " + s.hi.str() + ")" + (s.partialOnly ? " partial" : "");
    case OpKind::Compare: return "compare " + s.args[0] + " " + std::string(symbolOf(s.cmp)) + " " + s.args[1];
    case OpKind::Not: return "not " + s.args[0];
    case OpKind::Store:
      return std::string(s.streaming ? "store_streaming " : "store ") + tensor(true) + "[" + s.index.str() + "] = " + s.args[0] + pred;
    case OpKind::ScatterRows:
      return "scatter_rows " + tensor(true) + "[" + s.index.str() + " + lane * " + s.stride.str() + "] = " + s.args[0] + pred;
    case OpKind::Fence: return "fence (the streaming stores)";
    case OpKind::NaNMask: return "nan_mask " + s.args[0];
    case OpKind::SetIndex: return "position " + s.index.str();
    case OpKind::LocateEqual:
      return std::string(s.part ? "locate_last" : "locate_first") + " " + in + "[" + s.index.str() + " + c] == " + s.args[0] +
             " for c in [" + s.lo.str() + ", " + s.hi.str() + ")";
    case OpKind::LocateNaN:
      return "locate_first_nan " + in + "[" + s.index.str() + " + c] for c in [" + s.lo.str() + ", " + s.hi.str() + ")";
  }
  return "?";
}

void printBlock(std::ostringstream& os, const Plan& plan, const Block& b, int depth) {
  const std::string pad(2 * depth, ' ');
  for (const Stmt& s : b) {
    switch (s.kind) {
      case Stmt::Kind::Comment: os << pad << "# " << s.text << "\n"; break;
      case Stmt::Kind::For:
        os << pad << "for " << s.var << " in [" << (s.continues ? s.var : s.lo.str()) << ", "
           << s.hi.str() << ") step " << s.step.str() << (s.coversTail ? " covering the tail" : "")
           << (s.text.empty() ? "" : "   # " + s.text)
           << "\n";
        printBlock(os, plan, s.body, depth + 1);
        break;
      case Stmt::Kind::Let:
        os << pad << "let " << s.var << " = " << (s.letMin ? "min(" + s.lo.str() + ", " + s.hi.str() + ")" : s.letMax ? "max(" + s.lo.str() + ", " + s.hi.str() + ")" : s.opaque ? "opaque(" + s.lo.str() + ")"
                                           : !s.cpuTrait.empty() ? "cpu_" + s.cpuTrait + "() ? " + s.lo.str() + " : " + s.hi.str()
                                           : s.roundDownTo ? "round_down(" + s.lo.str() + ", " + std::to_string(s.roundDownTo) + ")"
                                           : s.alignBytes ? "aligned(" + s.tensor + (s.lo.constantValue() == 0 ? "" : " + " + s.lo.str()) + ", " + std::to_string(s.alignBytes) + " bytes)"
                                                          : s.lo.str())
           << "\n";
        break;
      case Stmt::Kind::IfValues:
        os << pad << "if " << s.args[0] << " " << symbolOf(s.cmp) << " " << s.args[1]
           << (s.text.empty() ? "" : "   # " + s.text) << "\n";
        printBlock(os, plan, s.body, depth + 1);
        break;
      case Stmt::Kind::If:
        os << pad << "if " << s.cmpLhs.str() << " " << symbolOf(s.cmp) << " " << s.cmpRhs.str()
           << (s.text.empty() ? "" : "   # " + s.text) << "\n";
        printBlock(os, plan, s.body, depth + 1);
        break;
      case Stmt::Kind::Op:
        os << pad;
        if (s.op != OpKind::Store && s.op != OpKind::ScatterRows) os << s.dst << (s.declare ? " : " + toString(s.type) : "") << " = ";
        os << opName(plan, s) << "\n";
        break;
    }
  }
}

}  // namespace

std::string Plan::print() const {
  std::ostringstream os;
  os << "plan " << kernel << " for " << target;
  if (scalable) os << " (vector-length agnostic, " << vectorBits << " bits per vscale)";
  else if (vectorBits) os << " (" << vectorBits << "-bit vectors)";
  os << (family.empty() ? "" : ": " + family) << (strategy.empty() ? "" : ", " + strategy) << "\n";
  for (const Tensor& t : tensors) {
    os << "  " << (t.scratch ? "tmp " : t.output ? "out " : "in  ") << t.name << " : " << nameOf(t.dtype) << "[";
    for (size_t k = 0; k < t.extents.size(); ++k) os << (k ? ", " : "") << t.extents[k].str();
    os << "]";
    if (t.strides.size() > 1) {
      os << " strides [";
      for (size_t k = 0; k < t.strides.size(); ++k) os << (k ? ", " : "") << t.strides[k].str();
      os << "]";
    }
    if (t.block) os << " in blocks of " << t.block << " along the last, " << t.blockStride.str() << " apart";
    os << "\n";
  }
  std::vector<std::string> extents;
  for (const Param& p : params)
    if (p.kind == Param::Kind::extent) extents.push_back(p.name == p.publicName ? p.name : p.name + " (" + p.publicName + ")");
    else if (p.kind == Param::Kind::scalar) extents.push_back(p.name + " : " + std::string(nameOf(p.dtype)));
  if (!extents.empty()) {
    os << "  params:";
    for (const auto& e : extents) os << " " << e;
    os << "\n";
  }
  for (const auto& [name, value] : constants) os << "  const " << name << " = " << value << "\n";
  for (const auto& line : summary) os << "  # " << line << "\n";
  printBlock(os, *this, body, 1);
  return os.str();
}

}  // namespace simdgen::ir
