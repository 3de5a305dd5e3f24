// SPDX-License-Identifier: Apache-2.0
#include "sim/lane_sim.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "ir/shuffle.h"

namespace simdgen::sim {

std::vector<std::string> foldLaneTable(const ir::FoldNetwork& n) {
  // The network as the composition it is (FoldNetwork::stage): per stage and pair of vectors,
  // the lower and upper shuffles and their combination, run on lanes tagged with their row.
  const ir::VecType type{n.elemBits == 64 ? DType::i64 : DType::i32, n.lanes};
  std::map<std::string, std::vector<int>> inputs;
  std::vector<std::string> vecs;
  for (int m = 0; m < n.lanes; ++m) {
    vecs.push_back("in" + std::to_string(m));
    inputs[vecs.back()] = std::vector<int>(n.lanes, n.inputOrder[m]);  // vector m carries one row
  }
  ir::Block block;
  std::vector<std::string> firstOfStage;
  for (size_t k = 0; k < n.blockLanes.size(); ++k) {
    const auto [lower, upper] = n.stage(k);
    std::vector<std::string> next;
    for (size_t m = 0; m + 1 < vecs.size(); m += 2) {
      const std::string name = "s" + std::to_string(k) + "_" + std::to_string(m / 2);
      block.push_back(ir::shuffles::shuffleOp(name + "_lo", type, {vecs[m], vecs[m + 1]}, lower));
      block.push_back(ir::shuffles::shuffleOp(name + "_hi", type, {vecs[m], vecs[m + 1]}, upper));
      ir::Stmt fold = ir::op(ir::OpKind::Binary, name, type, {name + "_lo", name + "_hi"});
      fold.declare = true;
      block.push_back(fold);
      next.push_back(name);
    }
    firstOfStage.push_back(next.front());
    vecs = std::move(next);
  }
  const SymbolicRun run = runSymbolic(block, inputs);
  std::vector<std::string> lines;
  for (size_t k = 0; k < firstOfStage.size(); ++k) {
    std::string line = "stage " + std::to_string(k + 1) + ", " + std::to_string(n.blockLanes[k]) + "-lane blocks:";
    for (const TagSet& rows : run.values.at(firstOfStage[k])) {
      if (rows.size() != 1)
        throw std::logic_error("fold network combines rows " + std::to_string(rows.front()) + " and " + std::to_string(rows.back()));
      line += " r" + std::to_string(rows.front());
    }
    lines.push_back(line);
  }
  for (const auto& [name, lanes] : run.values)
    for (const TagSet& rows : lanes)
      if (rows.size() != 1)
        throw std::logic_error("fold network combines rows " + std::to_string(rows.front()) + " and " + std::to_string(rows.back()));
  const TagLanes& result = run.values.at(vecs.front());
  for (int lane = 0; lane < n.lanes; ++lane)
    if (result[lane].front() != lane)
      throw std::logic_error("fold network leaves row " + std::to_string(result[lane].front()) + " in lane " + std::to_string(lane));
  return lines;
}

// ---- shuffle networks ---------------------------------------------------------------------------

std::string laneText(const TagLanes& lanes) {
  std::string s;
  for (size_t l = 0; l < lanes.size(); ++l) {
    if (l) s += ' ';
    const TagSet& tags = lanes[l];
    if (tags.size() == 1) {
      s += std::to_string(tags.front());
      continue;
    }
    s += '{';
    for (size_t k = 0; k < tags.size(); ++k) s += (k ? "," : "") + std::to_string(tags[k]);
    s += '}';
  }
  return s;
}

namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (size_t k = 0; k < names.size(); ++k) s += (k ? ", " : "") + names[k];
  return s;
}

// Runs one statement at a time over the variables defined so far.
class SymbolicRunner {
 public:
  SymbolicRunner(const std::map<std::string, std::vector<int>>& inputs, int vscale) : vscale_(vscale) {
    for (const auto& [name, tags] : inputs) {
      TagLanes& lanes = run_.values[name];
      for (int t : tags) lanes.push_back({t});
    }
  }

  void block(const ir::Block& b) {
    for (const ir::Stmt& s : b) statement(s);
  }

  SymbolicRun result() && { return std::move(run_); }

 private:
  void statement(const ir::Stmt& s) {
    if (s.kind == ir::Stmt::Kind::Comment) return;
    if (s.kind != ir::Stmt::Kind::Op)
      throw std::logic_error("lane simulator: only straight-line shuffle networks are simulated, not loops or branches");
    if (!s.pred.empty())
      throw std::logic_error("lane simulator: predicated " + std::string(ir::nameOf(s.op)) + " (" + s.dst + ") is not modelled");
    const int lanes = s.type.lanesAt(vscale_);
    TagLanes out;
    std::string op;
    switch (s.op) {
      case ir::OpKind::Shuffle:
        out = shuffle(s, lanes);
        op = "shuffle " + s.shuffle.str() + " " + joined(s.args);
        break;
      case ir::OpKind::Binary:
        out = binary(s, lanes);
        op = std::string(nameOf(s.rop)) + " " + joined(s.args);
        break;
      default:
        throw std::logic_error("lane simulator: op " + std::string(ir::nameOf(s.op)) + " (" + s.dst +
                               ") is not a shuffle or binary op");
    }
    run_.stages.push_back({s.dst, op, out});
    run_.values[s.dst] = std::move(out);
  }

  const TagLanes& operand(const ir::Stmt& s, const std::string& name, int lanes) const {
    const auto it = run_.values.find(name);
    if (it == run_.values.end()) throw std::logic_error("lane simulator: " + s.dst + " reads undefined " + name);
    if (int(it->second.size()) != lanes)
      throw std::logic_error("lane simulator: " + s.dst + " has " + std::to_string(lanes) + " lanes but its operand " +
                             name + " has " + std::to_string(it->second.size()));
    return it->second;
  }

  TagLanes shuffle(const ir::Stmt& s, int lanes) const {
    TagLanes all;  // concat(args)
    for (const auto& a : s.args) {
      const TagLanes& src = operand(s, a, lanes);
      all.insert(all.end(), src.begin(), src.end());
    }
    TagLanes out;
    for (int m : s.shuffle.laneMap(lanes, bitsOf(s.type.elem))) {
      if (m < 0 || m >= int(all.size()))
        throw std::logic_error("lane simulator: " + s.dst + " takes lane " + std::to_string(m) + " of " +
                               std::to_string(all.size()) + " source lanes");
      out.push_back(all[size_t(m)]);
    }
    return out;
  }

  TagLanes binary(const ir::Stmt& s, int lanes) const {
    if (s.args.size() != 2) throw std::logic_error("lane simulator: binary " + s.dst + " needs two operands");
    const TagLanes &a = operand(s, s.args[0], lanes), &b = operand(s, s.args[1], lanes);
    TagLanes out(static_cast<size_t>(lanes));
    for (size_t l = 0; l < out.size(); ++l)
      std::set_union(a[l].begin(), a[l].end(), b[l].begin(), b[l].end(), std::back_inserter(out[l]));
    return out;
  }

  int vscale_;
  SymbolicRun run_;
};

// "row 3, col 4 (tag 52)" for a tag of an R x C tile.
std::string cell(int tag, int cols) {
  return "row " + std::to_string(tag / cols) + ", col " + std::to_string(tag % cols) + " (tag " + std::to_string(tag) + ")";
}

std::string found(const TagSet& tags, int cols) {
  if (tags.size() == 1) return cell(tags.front(), cols);
  std::string s = "the combination {";
  for (size_t k = 0; k < tags.size(); ++k) s += (k ? "; " : "") + cell(tags[k], cols);
  return s + "}";
}

// The first wrong lane of output vector c (column c of an R-row tile), or "" when it is right.
std::string checkColumn(const SymbolicRun& run, const std::string& name, int c, int rows, int cols) {
  const auto it = run.values.find(name);
  if (it == run.values.end()) return "output " + name + " is never defined";
  const TagLanes& lanes = it->second;
  if (int(lanes.size()) != rows)
    return "output " + name + " has " + std::to_string(lanes.size()) + " lanes, expected " + std::to_string(rows);
  for (int r = 0; r < rows; ++r) {
    const int want = r * cols + c;
    if (lanes[size_t(r)] != TagSet{want})
      return name + " lane " + std::to_string(r) + " holds " + found(lanes[size_t(r)], cols) + "; expected " +
             cell(want, cols);
  }
  return "";
}

}  // namespace

SymbolicRun runSymbolic(const ir::Block& block, const std::map<std::string, std::vector<int>>& inputs, int vscale) {
  SymbolicRunner runner(inputs, vscale);
  runner.block(block);
  return std::move(runner).result();
}

std::vector<std::string> TransposeProof::table() const {
  std::vector<std::string> lines;
  for (const LaneStage& s : stages) lines.push_back(s.line());
  return lines;
}

TransposeProof proveTranspose(const ir::Block& block, const std::vector<std::string>& inputs,
                              const std::vector<std::string>& outputs, int vscale) {
  const int rows = int(inputs.size()), cols = int(outputs.size());
  std::map<std::string, std::vector<int>> tagged;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) tagged[inputs[size_t(r)]].push_back(r * cols + c);
  SymbolicRun run = runSymbolic(block, tagged, vscale);
  TransposeProof proof;
  proof.stages = std::move(run.stages);
  for (int c = 0; c < cols && proof.message.empty(); ++c)
    proof.message = checkColumn(run, outputs[size_t(c)], c, rows, cols);
  proof.ok = proof.message.empty();
  return proof;
}

}  // namespace simdgen::sim
