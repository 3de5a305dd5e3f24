// Plan text: one line per statement, indented by nesting. Tested on its own (like VPlan's print).
#include <sstream>

#include "ir/plan.h"

namespace simdgen::ir {

namespace {

std::string opName(const Stmt& s) {
  switch (s.op) {
    case OpKind::Splat: return "splat " + s.literal;
    case OpKind::Load: return "load input[" + s.index.str() + "]";
    case OpKind::LoadPartial:
      return "load_partial input[" + s.index.str() + "] count " + s.count.str() + " fill " +
             s.literal;
    case OpKind::LoadRowEnd:
      return "load_row_end input[" + s.index.str() + "] count " + s.count.str() + " fill " + s.literal;
    case OpKind::GatherRows:
      return "gather_rows input[" + s.index.str() + " + r * stride]" +
             (s.count.terms.empty() ? "" : " count " + s.count.str() + " fill " + s.literal);
    case OpKind::Extend: return "extend part " + std::to_string(s.part) + " of " + s.args[0];
    case OpKind::Binary: return std::string(nameOf(s.rop)) + " " + s.args[0] + ", " + s.args[1];
    case OpKind::DotAccumulate:
      return "dot_accumulate<" + std::to_string(s.group) + "> " + s.args[0] + ", " + s.args[1];
    case OpKind::ReduceLanes: return "reduce_lanes " + std::string(nameOf(s.rop)) + " " + s.args[0];
    case OpKind::ReduceRows: {
      std::string r = "reduce_rows " + std::string(nameOf(s.rop)) + " [";
      for (size_t k = 0; k < s.args.size(); ++k) r += (k ? ", " : "") + s.args[k];
      return r + "]";
    }
    case OpKind::Convert: return "convert " + s.args[0];
    case OpKind::Store:
      return "store " + (s.var.empty() ? std::string("output") : s.var) + "[" + s.index.str() + "] = " + s.args[0] +
             (s.count.terms.empty() ? "" : " count " + s.count.str());
    case OpKind::NaNMask: return "nan_mask " + s.args[0];
    case OpKind::SetIndex: return "position " + s.index.str();
    case OpKind::LocateEqual:
      return std::string(s.part ? "locate_last" : "locate_first") + " input[" + s.index.str() + " + c] == " + s.args[0] +
             " for c in [" + s.lo.str() + ", " + s.hi.str() + ")";
    case OpKind::LocateNaN:
      return "locate_first_nan input[" + s.index.str() + " + c] for c in [" + s.lo.str() + ", " + s.hi.str() + ")";
  }
  return "?";
}

void printBlock(std::ostringstream& os, const Block& b, int depth) {
  const std::string pad(2 * depth, ' ');
  for (const Stmt& s : b) {
    switch (s.kind) {
      case Stmt::Kind::Comment: os << pad << "# " << s.text << "\n"; break;
      case Stmt::Kind::For:
        os << pad << "for " << s.var << " in [" << (s.continues ? s.var : s.lo.str()) << ", "
           << s.hi.str() << ") step " << s.step << (s.text.empty() ? "" : "   # " + s.text)
           << "\n";
        printBlock(os, s.body, depth + 1);
        break;
      case Stmt::Kind::IfValues:
        os << pad << "if " << s.args[0] << " " << symbolOf(s.cmp) << " " << s.args[1]
           << (s.text.empty() ? "" : "   # " + s.text) << "\n";
        printBlock(os, s.body, depth + 1);
        break;
      case Stmt::Kind::If:
        os << pad << "if " << s.cmpLhs.str() << " < " << s.cmpRhs.str()
           << (s.text.empty() ? "" : "   # " + s.text) << "\n";
        printBlock(os, s.body, depth + 1);
        break;
      case Stmt::Kind::Op:
        os << pad;
        if (s.op != OpKind::Store) os << s.dst << (s.declare ? " : " + toString(s.type) : "") << " = ";
        os << opName(s) << "\n";
        break;
    }
  }
}

}  // namespace

std::string Plan::print() const {
  std::ostringstream os;
  os << "plan " << kernel << " for " << target;
  if (vectorBits) os << " (" << vectorBits << "-bit vectors)";
  os << ": " << nameOf(input) << " -> " << nameOf(output) << ", " << nameOf(rop) << "\n";
  if (!symbols.empty()) {
    os << "  params:";
    for (const auto& s : symbols) os << " " << s;
    os << "\n";
  }
  for (const auto& [name, value] : constants) os << "  const " << name << " = " << value << "\n";
  for (const auto& line : summary) os << "  # " << line << "\n";
  printBlock(os, body, 1);
  return os.str();
}

}  // namespace simdgen::ir
