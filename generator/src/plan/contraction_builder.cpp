// SPDX-License-Identifier: Apache-2.0
// The `contraction` family: out = epilogue(init + sum over the reduction dims of a * b), planned
// as a register tile (seed 002, MLIR reproducing Halide's conv_layer schedule):
//   - the vector dim is the output's innermost dim; a tile holds NR vectors of it (4 x 16 f32 on
//     AVX-512) for MR points of the tile dim (the output's next dim: x in the seed, i in a
//     matmul), MR x NR accumulators in registers (the seed's 5 x 4 = 20);
//   - inside the tile the reduction dims run in the spec's order (the seed's rz, ry, rx); each
//     step loads the NR vectors of the operand that runs along the vector dim, broadcasts one
//     element of the other per tile row and issues MR x NR FMAs;
//   - init (zero, a broadcast bias, or the output itself) and the epilogue (relu, clamp, scale,
//     add) are fused into the tile: each output element is written once (Halide's compute_at);
//   - tails: along the vector dim whole tiles, then one vector at a time, then one predicated
//     partial vector (never outside the arrays), those one-vector columns in taller tiles of 8 rows
//     (default nest); along the tile dim whole tiles of MR rows, then tiles of 4, 2 and 1 rows.
// An operand whose elements along the vector dim are not contiguous (a transposed B, a runtime
// stride) cannot be loaded as vectors; such a contraction is planned one lane wide (still a
// register tile) and the summary says why. Packing such an operand into a panel is future work.
#include "plan/contraction_builder.h"

#include <algorithm>
#include <array>
#include <map>
#include <optional>
#include <stdexcept>

#include "ir/simplify.h"
#include "plan/contraction_schedule.h"
#include "plan/pack_ahead.h"
#include "plan/transpose_networks.h"
#include "sim/lane_sim.h"
#include "plan/reduce_builder.h"  // PlanError

namespace simdgen {

namespace {

using ir::Index;
using ir::OpKind;
using ir::Stmt;
using ir::VecType;

// a * b for indices over symbols (every pair of terms).
Index product(const Index& a, const Index& b) {
  Index out;
  for (const ir::Term& x : a.terms)
    for (const ir::Term& y : b.terms) {
      ir::Term t{x.coef * y.coef, x.symbols};
      t.symbols.insert(t.symbols.end(), y.symbols.begin(), y.symbols.end());
      std::sort(t.symbols.begin(), t.symbols.end());
      out.terms.push_back(t);
    }
  return out.simplified();
}

// The coefficient of `symbol` in an index whose every term has it at most once: the terms that
// contain it, with it removed (e.g. "j*stride + j + 4" -> "stride + 1").
Index coefficientOf(const Index& x, const std::string& symbol) {
  Index out;
  for (const ir::Term& t : x.simplified().terms) {
    auto it = std::find(t.symbols.begin(), t.symbols.end(), symbol);
    if (it == t.symbols.end()) continue;
    ir::Term rest = t;
    rest.symbols.erase(rest.symbols.begin() + (it - t.symbols.begin()));
    out.terms.push_back(rest);
  }
  return out.simplified();
}

// A tensor of the plan: its internal name, the spec's tensor, strides per dimension.
struct PlannedTensor {
  std::string name;  // in0, in1, ... / out
  const ContractionTensor* spec = nullptr;
  std::vector<Index> extents, strides;
  // A copy packed ahead in blocks along the vector dim (ContractionTensor::packBlock): strides
  // within a block; element c of the vector dim sits at c + round_down(c, block) * blockSkip
  // plus the other dims' terms (blockSkip = the product of the other extents - 1).
  int64_t block = 0;
  Index blockSkip{}, blockStride{};
};

class ContractionBuilder {
 public:
  ContractionBuilder(const KernelSpec& s, const Target& t) : spec_(s), c_(s.contraction), target_(t) {
    plan_.kernel = spec_.name;
    plan_.family = "contraction";
    plan_.strategy = "register_tile";
    plan_.target = target_.spelling;
    plan_.vectorBits = target_.vectorBits;
    plan_.scalable = target_.scalable;
    plan_.rop = ReduceOp::add;
    plan_.noCompilerLoopVectorizer = true;  // see ir/plan.h
  }

  ir::Plan build() {
    bindDims();
    declareTensors();
    chooseDims();
    if (const ContractionSchedule* s = scheduleFor(c_, target_.spelling)) {
      applySchedule(*s);
    } else {
      chooseTile();
      defaultNest();
    }
    choosePacking();
    if (!nest_.scheduled) vectorTilesInsideWhenOperandFits();
    plan_.body = strideLets_;
    const ir::Block loops = nestFrom(0, 1, nr_, "");
    plan_.body.insert(plan_.body.end(), loops.begin(), loops.end());
    ir::removeDeadCode(plan_);
    document();
    if (auto problems = plan_.verify(); !problems.empty())
      throw std::logic_error("internal error: contraction plan for " + target_.spelling + " fails verification: " + problems.front());
    return std::move(plan_);
  }

 private:
  // ---- symbols and tensors ----
  // Dim d's extent: the constant kSize<d>, or the parameter size<d> (dims that share a runtime
  // name share the first one's parameter). Generator-owned names: the user's appear in the header.
  void bindDims() {
    for (size_t d = 0; d < c_.dims.size(); ++d) {
      const Extent& e = c_.dims[d].extent;
      if (e.isStatic()) {
        extent_.push_back("kSize" + std::to_string(d));
        plan_.constants.push_back({extent_.back(), *e.value});
        continue;
      }
      std::string shared;
      for (size_t k = 0; k < d; ++k)
        if (!c_.dims[k].extent.isStatic() && c_.dims[k].extent.name == e.name) shared = extent_[k];
      if (!shared.empty()) {
        extent_.push_back(shared);
        continue;
      }
      extent_.push_back("size" + std::to_string(d));
      extents_.push_back({ir::Param::Kind::extent, extent_.back(), e.name, "", "extent of dim " + c_.dims[d].name + " (>= 0)"});
    }
    for (size_t k = 0; k < c_.strideNames.size(); ++k)
      extents_.push_back({ir::Param::Kind::extent, "stride" + std::to_string(k), c_.strideNames[k], "", "elements between consecutive entries of a tensor dimension"});
  }

  Index sym(const std::string& s) const { return Index::symbol(s); }
  Index dimExtent(int d) const { return sym(extent_[size_t(d)]); }

  Index strideOf(const Extent& e) const {
    if (e.isStatic()) return Index::constant(*e.value);
    for (size_t d = 0; d < c_.dims.size(); ++d)
      if (!c_.dims[d].extent.isStatic() && c_.dims[d].extent.name == e.name) return sym(extent_[d]);
    const auto& names = c_.strideNames;
    return sym("stride" + std::to_string(std::find(names.begin(), names.end(), e.name) - names.begin()));
  }

  // Extents (what the indices span: coef * (extent - 1) + constant + 1 per dimension) and strides
  // (given, or dense row-major over those extents).
  PlannedTensor plannedTensor(const std::string& name, const ContractionTensor& t) const {
    PlannedTensor p{name, &t, {}, {}};
    for (const AffineIndex& ix : t.index) {
      Index e = Index::constant(ix.constant + 1);
      for (const AffineIndex::Term& term : ix.terms) e = e + dimExtent(term.dim) * term.coef + Index::constant(-term.coef);
      p.extents.push_back(e.simplified());
    }
    if (t.padded())  // its real extents: the reads outside them are checked (guardedLoads)
      for (size_t q = 0; q < t.extents.size(); ++q) p.extents[q] = strideOf(t.extents[q]);
    p.strides.resize(t.index.size());
    p.block = t.packBlock;
    Index dense = Index::constant(1);
    for (size_t q = t.index.size(); q-- > 0;) {
      p.strides[q] = t.strides.empty() ? dense : strideOf(*t.strides[q]);
      dense = product(dense, p.block && q + 1 == t.index.size() ? Index::constant(p.block) : p.extents[q]);  // a block's width: the vector dim is last
    }
    if (p.block) {
      p.blockStride = dense;
      Index others = Index::constant(1);
      for (size_t q = 0; q + 1 < t.index.size(); ++q) others = product(others, p.extents[q]);
      p.blockSkip = (others - Index::constant(1)).simplified();
    }
    return p;
  }

  // A stride of several terms or symbols (a dense layout's product of extents) becomes a local
  // computed once, so addresses read `p0 * in1_stride0 + ...` instead of expanded products.
  void nameStrides(PlannedTensor& t) {
    if (t.block && !t.blockSkip.constantValue()) {
      strideLets_.push_back(ir::letIndex(t.name + "_block_skip", t.blockSkip));
      t.blockSkip = sym(t.name + "_block_skip");
    }
    for (size_t q = 0; q < t.strides.size(); ++q) {
      const Index& st = t.strides[q];
      if (st.constantValue() || (st.terms.size() == 1 && st.terms[0].coef == 1 && st.terms[0].symbols.size() == 1)) continue;
      const std::string name = t.name + "_stride" + std::to_string(q);
      strideLets_.push_back(ir::letIndex(name, st));
      t.strides[q] = sym(name);
    }
  }

  void declareTensors() {
    std::vector<PlannedTensor> inputs;
    for (const ContractionTensor& t : c_.operands) inputs.push_back(plannedTensor("in" + std::to_string(inputs.size()), t));
    if (c_.init == ContractionInit::operand) {
      init_ = int(inputs.size());
      inputs.push_back(plannedTensor("in" + std::to_string(inputs.size()), c_.initOperand));
    }
    for (const EpilogueStep& s : c_.epilogue)
      if (s.kind == EpilogueStep::Kind::add) inputs.push_back(plannedTensor("in" + std::to_string(inputs.size()), s.operand));
    out_ = plannedTensor("out", c_.output);
    for (const PlannedTensor& t : inputs) {
      plan_.tensors.push_back({t.name, t.spec->bf16 ? DType::u16 : t.spec->narrow.value_or(c_.dtype), false, t.extents, t.strides});
      plan_.tensors.back().block = t.block;
      plan_.tensors.back().blockStride = t.blockStride;
      plan_.params.push_back({ir::Param::Kind::tensor, t.name, t.spec->name, t.name, ""});
    }
    plan_.params.insert(plan_.params.end(), extents_.begin(), extents_.end());
    int scalars = 0;
    for (const EpilogueStep& s : c_.epilogue)
      if ((s.kind == EpilogueStep::Kind::scale || s.kind == EpilogueStep::Kind::div) && !s.param.empty())
        plan_.params.push_back({ir::Param::Kind::scalar, scalarName_.emplace_back("scalar" + std::to_string(scalars++)), s.param, "", "", c_.dtype});
    plan_.tensors.push_back({"out", c_.dtype, true, out_.extents, out_.strides});
    plan_.params.push_back({ir::Param::Kind::tensor, "out", c_.output.name, "out", ""});
    inputs_ = std::move(inputs);
    for (PlannedTensor& t : inputs_) nameStrides(t);
    nameStrides(out_);
  }

  // ---- the plan's shape ----
  // Loop variables: the vector dim's j, the tile dim's i, other parallel dims p<d>, reductions r<d>.
  // A shifted last tile (tail shift_inwards) runs at j_last / i_last.
  std::string loopVar(int d) const {
    if (d == vdim_) return shiftedVec_ ? "j_last" : "j";
    if (d == tdim_) return shiftedRow_ ? "i_last" : "i";
    return (c_.dims[size_t(d)].reduction ? "r" : "p") + std::to_string(d);
  }

  // The element offset of tensor t at the loop variables, tile row `row` and vector `vec` (the
  // vector dim at j + vec * lanes).
  Index address(const PlannedTensor& t, int row, int vec) const {
    Index at;
    for (size_t q = 0; q < t.spec->index.size(); ++q) {
      const AffineIndex& ix = t.spec->index[q];
      Index value = Index::constant(ix.constant);
      for (const AffineIndex::Term& term : ix.terms) {
        Index v = sym(loopVar(term.dim));
        if (auto off = stepOffset_.find(term.dim); off != stepOffset_.end()) v = v + Index::constant(off->second);  // an unrolled copy
        if (term.dim == tdim_) v = v + Index::constant(row);
        if (term.dim == vdim_) v = v + lanesIndex() * vec;
        value = value + v * term.coef;
      }
      at = at + product(value, t.strides[q]);
    }
    if (t.block) at = at + product(sym(blockVar(t, vec)), t.blockSkip);
    return at.simplified();
  }
  // A blocked tensor's vector `vec` of the current tile starts in the block at this local
  // (blockLets): the vector dim's value rounded down to a multiple of the block.
  static std::string blockVar(const PlannedTensor& t, int vec) { return t.name + "_block" + std::to_string(vec); }
  // The block lets of nr vectors of a blocked tensor, where the tile (or panel column) starts. No
  // vector straddles two blocks: each starts at a multiple of the lanes (tails shifted inwards
  // are not blocked: spec_parser.cpp), which divide the block (2048 bits).
  void blockLets(ir::Block& out, const PlannedTensor& t, int nr) const {
    if (!t.block || t.blockSkip.constantValue() == int64_t{0}) return;  // one block row: the dense layout, no block terms
    if (t.block % lanes_.lanes != 0 || (lanes_.scalable && t.block % (lanes_.lanes * kMaxVscale) != 0) || shiftedVec_)
      throw std::logic_error("internal error: vectors of " + toString(lanes_) + " would straddle blocks of " + std::to_string(t.block) + " elements of " + t.spec->name);
    for (int v = 0; v < nr; ++v) out.push_back(ir::letRoundDown(blockVar(t, v), (sym(loopVar(vdim_)) + lanesIndex() * v).simplified(), t.block));
  }
  // Per tile: each tensor's offset at the tile's first element without the reduction terms, in a
  // local (`in1_base`), so that the loads inside the reduction loops read `in1[in1_base + ...]`.
  // A blocked tensor has a base per vector of the tile (`in0_base2`), each in its own block.
  ir::Block tileBases(int nr) {
    ir::Block out;
    bases_.clear();
    auto baseOf = [&](const PlannedTensor& t, int vec) {
      Index base;
      for (const ir::Term& term : address(t, 0, vec).terms) {
        bool reduction = false;
        for (const std::string& s : term.symbols)
          for (size_t d = 0; d < c_.dims.size(); ++d) reduction = reduction || (c_.dims[d].reduction && s == loopVar(int(d)));
        if (!reduction) base.terms.push_back(term);
      }
      return base.simplified();
    };
    auto add = [&](const PlannedTensor& t) {
      if (t.block) {
        blockLets(out, t, nr);
        for (int v = 0; v < nr; ++v) {
          const std::string name = t.name + "_base" + std::to_string(v);
          out.push_back(ir::letIndex(name, baseOf(t, v)));
          bases_[name] = out.back().lo;
        }
        return;
      }
      const Index base = baseOf(t, 0);
      if (base.terms.size() < 2) return;
      out.push_back(ir::letIndex(t.name + "_base", base));
      bases_[t.name + "_base"] = base;
    };
    for (const PlannedTensor& t : inputs_)
      if (!(packing_ && packed_ >= 0 && t.name == inputs_[size_t(packed_)].name)) add(t);  // the panel needs no base
    add(out_);
    return out;
  }
  // The offset of tensor t at (row, vec) in the current tile, through its base when it has one.
  Index tileAddress(const PlannedTensor& t, int row, int vec) const {
    const Index full = address(t, row, vec);
    const std::string name = t.name + "_base" + (t.block ? std::to_string(vec) : "");
    auto it = bases_.find(name);
    return it == bases_.end() ? full : (sym(name) + (full - it->second)).simplified();
  }
  // The element step of tensor t along dim d (0 when t does not depend on d).
  Index stepAlong(const PlannedTensor& t, int d) const { return coefficientOf(address(t, 0, 0), loopVar(d)); }
  bool dependsOn(const PlannedTensor& t, int d) const { return d >= 0 && !stepAlong(t, d).terms.empty(); }

  // The vector dim: the output's innermost. It is vectorised when every tensor that depends on
  // it holds consecutive elements along it (a step of exactly 1).
  void chooseDims() {
    vdim_ = c_.output.index.back().plainDim();
    if (c_.output.index.size() >= 2) tdim_ = c_.output.index[c_.output.index.size() - 2].plainDim();
    lanes_ = target_.vector(c_.dtype);
    if (!target_.vectorBits) {
      lanes_ = VecType{c_.dtype, 1};
      return;
    }
    std::vector<const PlannedTensor*> all{&out_};
    for (const PlannedTensor& t : inputs_) all.push_back(&t);
    for (const PlannedTensor* t : all) {
      const Index step = stepAlong(*t, vdim_);
      if (step.terms.empty() || step.constantValue() == int64_t{1}) continue;
      notContiguous_ = "tensor " + t->spec->name + " steps by " + step.str() + " elements along the vector dim " + c_.dims[size_t(vdim_)].name +
                       " (vector loads need consecutive elements)";
      // A matmul's transposed B: packed into the panel element by element, it is read as vectors.
      const int k = t == &inputs_[0] ? 0 : t == &inputs_[1] ? 1 : -1;
      if (k >= 0 && transposed_ < 0 && !lanes_.scalable && packShape(k).empty() && !t->spec->padded()) {
        transposed_ = k;
        continue;
      }
      // An operand no panel can take (scalable vectors, several reduction dims): gathers, one
      // lane per element at its step, instead of a kernel one lane wide.
      if (k >= 0 && transposed_ != k) {
        gathered_[size_t(k)] = true;
        continue;
      }
      lanes_ = VecType{c_.dtype, 1};
      transposed_ = -1;
      gathered_ = {false, false};
      if (!scheduleFor(c_, target_.spelling)) note("one lane wide: " + notContiguous_ + "; a panel would need the packing conditions");
      return;
    }
  }
  // `x` over the kernel's parameters only: each named stride (nameStrides) replaced by its value.
  // A gather's stride is read before the body's lets (its lane offsets are hoisted).
  Index withoutStrideLets(const Index& x) const {
    Index out = x;
    for (const Stmt& let : strideLets_) {
      Index next;
      for (const ir::Term& t : out.terms) {
        auto at = std::find(t.symbols.begin(), t.symbols.end(), let.var);
        if (at == t.symbols.end()) {
          next.terms.push_back(t);
          continue;
        }
        ir::Term rest = t;
        rest.symbols.erase(rest.symbols.begin() + (at - t.symbols.begin()));
        next = next + product(Index{{rest}}, let.lo);
      }
      out = next.simplified();
    }
    return out;
  }
  bool isGathered(const PlannedTensor& t) const {
    for (size_t k = 0; k < 2; ++k)
      if (gathered_[k] && t.name == inputs_[k].name) return true;
    return false;
  }
  // A plan that leaves most of each vector or tile idle (a dot product written as a contraction
  // with an output dim of extent 1 runs a lane in 8 or 16): what to write instead, or "".
  std::string poorPlanWarning(const std::string& reductionDims) const {
    const Extent& v = c_.dims[size_t(vdim_)].extent;
    if (lanes_.lanes > 1 && v.isStatic() && *v.value * 2 <= lanes_.lanes) {
      std::string w = "warning: expected to be slow: the vectors run along " + dimName(vdim_) + ", whose extent is " +
                      std::to_string(*v.value) + ", so " + std::to_string(*v.value) + " of the " + std::to_string(lanes_.lanes) +
                      (lanes_.scalable ? " or more" : "") + " lanes of each " + toString(lanes_) + " do useful work; ";
      if (!reductionDims.empty())
        return w + "a sum over " + reductionDims + " with so few outputs is a map with a reduction output (kind \"map\", " +
               "an output with \"reduce\": \"add\" and \"expr\": \"a * b\"; docs/spec.md, \"Reductions and passes\"), " +
               "which runs its vectors along the sum";
      return w + "give the vector dim a longer extent (a contraction's schedule: \"vectorize\" another dim)";
    }
    if (tdim_ >= 0) {
      const Extent& t = c_.dims[size_t(tdim_)].extent;
      if (t.isStatic() && *t.value * 2 <= mr_)
        return "warning: expected to be slow: the register tile has " + std::to_string(mr_) + " rows along " + dimName(tdim_) +
               ", whose extent is " + std::to_string(*t.value) + "; a schedule with a tile of at most " + std::to_string(*t.value) +
               " rows along it keeps the rest of the registers for other outputs";
    }
    return "";
  }

  Index lanesIndex() const { return lanes_.scalable ? Index::vscaled(lanes_.lanes) : Index::constant(lanes_.lanes); }
  // The elements of one panel row of nr vectors, `per` steps to a row (a multiple of vscale
  // when scalable).
  Index panelRow(int nr, int per = 1) const {
    const int64_t w = int64_t(nr) * lanes_.lanes / per;
    return lanes_.scalable ? Index::vscaled(w) : Index::constant(w);
  }
  bool hasFma() const {
    if (!target_.vectorBits || lanes_.lanes == 1) return false;  // scalar code: the C compiler contracts a * b + c
    if (!isFloat(c_.dtype)) return false;  // i32: multiply and add (compilers fuse them into mla on Arm)
    if (sequential()) return false;        // each product rounded, then added: the plain loop's result
    return target_.module != LoweringModule::x86 || target_.maskRegisters || target_.has("fma");
  }
  // order "sequential" on a float sum: every lane adds its products one by one in the reduction
  // dims' order, each rounded, as the plain loop does (the vector dim is a parallel dim, so lanes
  // never share a sum; blocks of the reduction continue from the sums so far).
  bool sequential() const { return spec_.order == FloatOrder::sequential && isFloat(c_.dtype); }

  // MR x NR: as many accumulators as the registers hold beside NR operand vectors and one
  // broadcast, NR up to 4 (AVX-512 and Arm: 32 registers: 6 x 4 = 24; AVX2: 16: 6 x 2 = 12); a
  // static tile dim picks the MR of 6, 5, 4 that leaves the fewest rows over (the seed's 5 for
  // W = 100), or on 16 registers the fewest tiles (below).
  void chooseTile() {
    const int regs = target_.vectorBits ? target_.registers : 16;
    nr_ = regs >= 32 ? 4 : 2;
    if (lanes_.lanes == 1 && target_.vectorBits) nr_ = 4;
    const Extent& ve = c_.dims[size_t(vdim_)].extent;
    // A static vector dim: no wider than its whole vectors (40 floats on AVX-512: 2 vectors, then
    // a masked one; a tile of 3 would never run, leaving every column to the one-vector tiles).
    if (ve.isStatic() && !lanes_.scalable) nr_ = int(std::clamp<int64_t>(*ve.value / lanes_.lanes, 1, nr_));
    if (tdim_ < 0) {
      mr_ = 1;
      return;
    }
    const int budget = std::min(8, (regs - nr_ - 1 - (hasFma() ? 0 : 1)) / nr_);
    mr_ = budget;
    // The vector dim's last columns run one vector wide: with MR rows that is MR accumulators,
    // too few to cover the FMA latency (two pipes x 4 cycles); taller tiles keep the pipes busy
    // (each FMA needs its own broadcast either way).
    if (nr_ > 1 && lanes_.lanes > 1) columnTailMr_ = std::max(mr_, std::min(kColumnTailRows, regs - 1 - 1 - (hasFma() ? 0 : 1)));
    const Extent& te = c_.dims[size_t(tdim_)].extent;
    if (te.isStatic()) {
      const int64_t t = *te.value;
      if (t <= budget) {
        mr_ = int(t);
      } else if (target_.vectorBits && regs < 32) {
        // 16 registers (AVX2): each tile re-reads the vector dim's operand, and a tile of at most
        // 12 accumulators is short enough that one row fewer costs a fifth more passes; so the
        // fewest tiles, then the fewest rows over (W = 100: 6 rows, 17 tiles; the seed convolution
        // on Zen 3 ran 11% faster than with 5 rows).
        int64_t best = -1;
        for (int m = budget; m >= std::max(4, budget - 2); --m) {
          const int64_t cost = (t + m - 1) / m * t + t % m;  // tiles first, rows over second
          if (best < 0 || cost < best) best = cost, mr_ = m;
        }
      } else {
        int64_t best = -1;
        for (int m = budget; m >= std::max(4, budget - 2); --m)
          if (best < 0 || t % m < best) best = t % m, mr_ = m;
      }
      columnTailMr_ = std::max(mr_, int(std::min<int64_t>(columnTailMr_, t)));
    }
  }

  // ---- the schedule ----
  // The nest without a schedule: tiles of the vector dim outermost, the other parallel dims in
  // the output's order, tiles of the tile dim innermost; the reductions in the spec's order.
  void defaultNest() {
    nest_.vdim = vdim_;
    nest_.tdim = tdim_;
    nest_.nr = nr_;
    nest_.mr = mr_;
    nest_.vectorTail = lanes_.lanes > 1 ? SplitTail::predicate : SplitTail::guard;
    nest_.outer.push_back({NestLoop::Kind::vectorTiles, vdim_, 1, dimName(vdim_)});
    for (const AffineIndex& ix : c_.output.index)
      if (ix.plainDim() != vdim_ && ix.plainDim() != tdim_) nest_.outer.push_back({NestLoop::Kind::dim, ix.plainDim(), 1, dimName(ix.plainDim())});
    if (tdim_ >= 0) nest_.outer.push_back({NestLoop::Kind::tileRows, tdim_, 1, dimName(tdim_)});
    nest_.computeAt = nest_.outer.back().name;
    for (size_t d = 0; d < c_.dims.size(); ++d)
      if (c_.dims[d].reduction) nest_.reductions.push_back(int(d));
  }

  // The default nest runs the vector dim's columns of tiles outermost, so that a column's slice of
  // the operand along it (a convolution's weights for 64 output channels) stays in L2 while the
  // other parallel dims pass. Where that operand fits in L2 whole, the columns go just outside
  // the tile rows instead, as oneDNN's convolutions order them: each point of the other dims (an
  // output row) then reads its input rows from L2 for every column, not once per column from L3
  // (the seed convolution, 576 KiB of weights: 1.017 -> 1.003 of oneDNN's time, packed ahead).
  // Not with a panel, which is packed once per column of tiles.
  void vectorTilesInsideWhenOperandFits() {
    if (packed_ >= 0 || nest_.outer.empty() || nest_.outer.front().kind != NestLoop::Kind::vectorTiles) return;
    const PlannedTensor* along = nullptr;
    for (const PlannedTensor* t : {&inputs_[0], &inputs_[1]})
      if (dependsOn(*t, vdim_)) {
        if (along) return;  // both: nothing to keep
        along = t;
      }
    if (!along) return;
    const ContractionTensor& spec = *along->spec;
    int64_t bytes = spec.bf16 ? 2 : bytesOf(spec.narrow.value_or(c_.dtype));
    for (size_t d = 0; d < c_.dims.size(); ++d) {
      if (!dependsOn(*along, int(d))) continue;
      const Extent& e = c_.dims[d].extent;
      if (!e.isStatic() || (!c_.dims[d].reduction && int(d) != vdim_)) return;  // runtime, or not reused across the other dims
      bytes *= std::max<int64_t>(*e.value, 1);
    }
    if (bytes > kL2Bytes * 3 / 4) return;
    const size_t last = nest_.outer.back().kind == NestLoop::Kind::tileRows ? nest_.outer.size() - 1 : nest_.outer.size();
    if (last <= 1) return;  // no other dims
    std::rotate(nest_.outer.begin(), nest_.outer.begin() + 1, nest_.outer.begin() + long(last));
  }

  // The spec's schedule for this target (plan/contraction_schedule.cpp checks it).
  void applySchedule(const ContractionSchedule& s) {
    // A schedule for every target that vectorizes cannot hold on scalar, the portable fallback.
    const bool vectorizes = std::any_of(s.output.begin(), s.output.end(), [](const ScheduleDirective& d) { return d.kind == ScheduleDirective::Kind::vectorize; });
    if (!target_.vectorBits && vectorizes && s.targets.empty()) {
      note("schedule " + s.pointer + " vectorizes, and " + target_.spelling + " has no vectors: the default nest");
      chooseTile();
      defaultNest();
      return;
    }
    ScheduleTarget t;
    t.name = target_.spelling;
    t.lanes = target_.vectorBits ? target_.lanes(c_.dtype) : 1;
    t.scalable = lanes_.scalable;
    t.registers = target_.vectorBits ? target_.registers : 16;
    t.fma = target_.vectorBits && isFloat(c_.dtype) && !sequential() &&
            (target_.module != LoweringModule::x86 || target_.maskRegisters || target_.has("fma"));
    t.sequential = sequential();
    t.notContiguous = notContiguous_;
    if (transposed_ >= 0) {  // vectorized through a transposing panel, unless the schedule packs nothing
      const bool none = s.packGiven && s.pack.empty();
      t.notContiguous = none ? notContiguous_ + "; packing it (\"pack\": [\"" + c_.operands[size_t(transposed_)].name + "\"]) reads it as vectors" : "";
    }
    nest_ = scheduleContraction(c_, s, t);
    vdim_ = nest_.vdim;
    tdim_ = nest_.tdim;
    if (!nest_.vectorized) lanes_ = VecType{c_.dtype, 1};
    mr_ = nest_.mr;
    nr_ = nest_.nr;
    note("schedule " + s.pointer + (s.targets.empty() ? "" : " (for " + join(s.targets) + ")") + ": " + std::to_string(mr_) + " x " + std::to_string(nr_) +
         " tile computed at " + nest_.computeAt);
    for (const std::string& n : nest_.notes) note(n);
  }
  static std::string join(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& x : v) out += (out.empty() ? "" : ", ") + x;
    return out;
  }

  // ---- packing (GEMM's panel of B) ----
  // The operand along the vector dim is packed when it depends on that dim and on the one
  // reduction dim only (a matmul's B, not a convolution's filter with three reduction dims), the
  // other operand is broadcast, and the target has fixed-width vectors: for each column of tiles,
  // KC steps of its NR vectors are copied into a contiguous, 64-byte aligned panel on the stack
  // (kPanelBytes), which the tiles then read in order. Unpacked, B's rows are ldb apart: at ldb = 1024
  // floats every step of k touched another 4 KiB page, and rows of odd length split every vector
  // load over two cache lines (matmul 1024^3 81%, 509 x 517 x 511 88% of the FMA peak). The
  // reduction runs in blocks of KC: the first block starts from init, the later ones from the
  // output, and the epilogue follows the last. A schedule may ask for it ("pack") or refuse it.
  void choosePacking() {
    if (lanes_.lanes == 1) transposed_ = -1;  // scalar code reads it in place
    if (nest_.pack == ContractionNest::Pack::none) return;
    const bool asked = nest_.pack == ContractionNest::Pack::operand;
    std::string why;
    for (int k = 0; k < 2; ++k) {
      if ((asked && k != nest_.packOperand) || (transposed_ >= 0 && k != transposed_)) continue;
      // A copy packed ahead in blocks is a panel already: each tile reads its rows in order.
      if (!asked && inputs_[size_t(k)].block && packShape(k).empty()) {
        note("no panel: " + inputs_[size_t(k)].spec->name + " is packed ahead in blocks of " + std::to_string(inputs_[size_t(k)].block) + " along " + dimName(vdim_) +
             ", which each column of tiles reads in order");
        continue;
      }
      why = packable(k);
      if (why.empty()) {
        packed_ = k;
        break;
      }
    }
    if (asked && packed_ < 0)
      throw PlanError("on " + target_.spelling + ": operand " + operandName(nest_.packOperand) + " cannot be packed: " + why, nest_.packPointer + "/0");
    if (transposed_ >= 0 && packed_ < 0)
      throw PlanError("on " + target_.spelling + ": operand " + operandName(transposed_) + " must be packed to be read as vectors (" +
                          notContiguous_ + "), but cannot be: " + why, nest_.packPointer.empty() ? nest_.schedulePointer : nest_.packPointer);
    if (packed_ < 0) return;
    // A scalable panel is sized for the longest vectors (2048 bits); shorter ones use its start.
    const int64_t columns = int64_t(nr_) * lanes_.lanes * (lanes_.scalable ? kMaxVscale : 1);
    group_ = dotGroup(packed_);
    plan_.noLoopHeaderCopies = group_ != 0;  // see ir/plan.h
    const bool byElement = packed_ == transposed_ && !transposesByNetwork();
    const int64_t bytes = byElement && !group_ ? kTransposedPanelBytes : kPanelBytes;
    if (offsetBytes()) {  // 128 x each panel column's sum over the block, per panel vector
      plan_.tensors.push_back({"panel_sums", DType::i32, true, {Index::constant(columns)}, {Index::constant(1)}});
      plan_.tensors.back().scratch = true;
    }
    const int64_t elementBytes = group_ ? 4 / group_ : bytesOf(c_.dtype);  // a group panel keeps bf16 or bytes
    const int64_t stepBytes = columns * elementBytes * outerSteps_;
    kc_ = std::max<int64_t>(16, bytes / stepBytes);
    if (group_) kc_ -= kc_ % group_;  // blocks of whole groups of steps
    const Extent& e = c_.dims[size_t(kdim_)].extent;
    // A static reduction at most a quarter longer than one block runs as one block in a larger
    // panel: the output tiles are stored once, not reloaded per block (the bf16 seed convolution,
    // 128 channels through a 3 x 3 window: one block in 144 KiB, 28.4 ms, against two blocks of 64
    // in 72 KiB, 30.2 ms; oneDNN 29.6 ms).
    const int64_t g = std::max(group_, 1);
    if (const int64_t whole = e.isStatic() ? (*e.value + g - 1) / g * g : 0; whole > kc_ && whole * stepBytes <= bytes + bytes / 4)
      kc_ = whole;
    // A static reduction longer than one block runs in blocks of equal length (128 channels in
    // two blocks of 64, not 112 and a short 16 whose loops are mostly overhead).
    if (e.isStatic() && *e.value > kc_) {
      const int64_t blocks = (*e.value + kc_ - 1) / kc_;
      kc_ = ((*e.value + blocks - 1) / blocks + g - 1) / g * g;
    }
    if (group_) plan_.tensors.push_back({"panel", DType::u32, true, {Index::constant(kc_ / group_ * columns * outerSteps_)}, {Index::constant(1)}});
    else plan_.tensors.push_back({"panel", c_.dtype, true, {Index::constant(kc_ * columns)}, {Index::constant(1)}});
    plan_.tensors.back().scratch = true;
    note("packing: " + inputs_[size_t(packed_)].spec->name + (byElement ? " (transposed: element by element)" : packed_ == transposed_ ? " (transposed by " + std::to_string(lanes_.lanes) + " x " + std::to_string(lanes_.lanes) + (group_ ? " tiles of groups)" : " tiles)") : "") + " is copied per column of tiles into a " + std::to_string(kc_ * columns * elementBytes * outerSteps_ / 1024) +
         (lanes_.scalable ? " KiB panel (at 2048-bit vectors; shorter ones use its start), " : " KiB panel, ") + std::to_string(kc_) + " steps of " + dimName(kdim_) + " at a time" + windowText() + " (the reduction runs in blocks of " + std::to_string(kc_) + ")" +
         (group_ == 2 ? "; " + pairsName() + ": panel row p holds steps 2p and 2p + 1 of each column as one u32, for " + pairInstruction() : "") +
         (group_ == 4 ? "; byte quads: panel row p holds steps 4p..4p + 3 of each column as one u32, for " +
                            quadInstruction() : ""));
  }
  // The steps one dot-product instruction multiplies into each lane (0: none): 2 through vdpbf16ps
  // (two bf16 products per f32 lane) when both operands are bf16 and the target has it, 4 through
  // vpdpbusd (four u8 x s8 products per i32 lane) when one operand is u8 and the other i8 and the
  // target has AVX512-VNNI or AVX-VNNI (NEON with i8mm: usdot), and through sdot/udot when both are i8 or both u8 on
  // NEON with dot products and on SVE (base SVE has them; its panel is sized for the longest
  // vectors); mixed signs and x86 i8 x i8 / u8 x u8 take an offset (offsetBytes); else on x86,
  // 2 through vpmaddwd when both operands fit i16 (i16 pairs). Either way the vector-dim operand
  // (`packed`) goes through the panel, the broadcast one has consecutive reduction steps (a group
  // is adjacent elements), and no schedule unrolls the reduction.
  // A transposed operand (contiguous along the reduction: a group is one u32 of it) is packed
  // by tiles through the network and group by group (transposedGroupPanel).
  int dotGroup(int packed) const {
    if (packed < 0 || nest_.unroll.count(kdim_)) return 0;
    for (int d : outerK_)
      if (nest_.unroll.count(d)) return 0;
    const PlannedTensor &b = inputs_[size_t(packed)], &a = inputs_[size_t(1 - packed)];
    if (stepAlong(a, kdim_).constantValue() != int64_t{1}) return 0;
    for (size_t p = 0; p < a.spec->index.size(); ++p)  // a group's steps would straddle the padding
      if (readsOutside(c_, *a.spec, p) && a.spec->index[p].uses(kdim_)) return 0;
    if (packed == transposed_ && stepAlong(b, kdim_).constantValue() != int64_t{1}) return 0;
    if (target_.has("bf16") && a.spec->bf16 && b.spec->bf16) return 2;
    const DType na = a.spec->narrow.value_or(DType::i32), nb = b.spec->narrow.value_or(DType::i32);
    const bool u8i8 = (na == DType::u8 && nb == DType::i8) || (na == DType::i8 && nb == DType::u8);
    if (u8i8 && ((target_.has("vnni") && target_.maskRegisters) || target_.has("avx_vnni") || target_.has("i8mm"))) return 4;
    const bool sameBytes = na == nb && (na == DType::i8 || na == DType::u8);  // sdot, udot
    if (sameBytes && target_.module == LoweringModule::neon) return target_.has("dotprod") ? 4 : 0;
    if (sameBytes && target_.module == LoweringModule::sve) return 4;
    const bool x86Quads = (target_.has("vnni") && target_.maskRegisters) || target_.has("avx_vnni");
    if (sameBytes && x86Quads) return 4;  // vpdpbusd with an offset (see offsetBytes)
    if (armOffsetQuads(na, nb)) return 4;  // sdot or udot with an offset
    // vpmaddwd (every AVX2 and AVX-512 target): pairs of i16, exact for operands that fit i16. A
    // transposed byte operand's pair is two bytes, not a u32 of it: it keeps widening.
    auto fitsI16 = [](DType t) { return t == DType::i8 || t == DType::u8 || t == DType::i16; };
    if (target_.module == LoweringModule::x86 && fitsI16(na) && fitsI16(nb) && !(packed == transposed_ && nb != DType::i16)) return 2;
    return 0;
  }
  // Pairs of integers through vpmaddwd (group_ 2 in an i32 contraction; bf16 pairs are f32's).
  bool intPairs() const { return group_ == 2 && c_.dtype == DType::i32; }
  std::string pairsName() const { return intPairs() ? "i16 pairs" : "bf16 pairs"; }
  // vpdpwssd where the vector's width has VNNI (as the x86 lowering of dot_i16i16 chooses).
  std::string pairInstruction() const {
    if (!intPairs()) return target_.module == LoweringModule::x86 ? "vdpbf16ps" : "bfdot";
    return target_.vnniAt(lanes_.bits()) ? "vpdpwssd" : "vpmaddwd";
  }
  // Mixed signs on Arm with sdot/udot but without usdot (i8mm): the broadcast bytes go in offset
  // by 128 to the panel's signedness (see offsetBytes).
  bool armOffsetQuads(DType broadcast, DType panel) const {
    const bool dot = (target_.module == LoweringModule::neon && target_.has("dotprod")) || target_.module == LoweringModule::sve;
    const bool mixed = (broadcast == DType::u8 && panel == DType::i8) || (broadcast == DType::i8 && panel == DType::u8);
    return dot && !target_.has("i8mm") && mixed;
  }
  // The instruction of byte quads: vpdpbusd (x86; i8 x i8 with an offset), usdot (NEON u8 x i8),
  // sdot or udot (NEON and SVE, one signedness).
  std::string quadInstruction() const {
    if (target_.module == LoweringModule::x86) return "vpdpbusd";
    if (offsetBytes()) return *inputs_[size_t(packed_)].spec->narrow == DType::i8 ? "sdot" : "udot";
    const DType a = *inputs_[0].spec->narrow, b = *inputs_[1].spec->narrow;
    return a != b ? "usdot" : a == DType::i8 ? "sdot" : "udot";
  }
  // The element type of a group's parts (bf16 bits or the operand's bytes) and the bits each
  // part takes in its u32.
  DType groupPart(const PlannedTensor& t) const { return group_ == 2 && !intPairs() ? DType::u16 : *t.spec->narrow; }
  int groupPartBits() const { return 32 / group_; }
  // Part h of a group, zero-extended to u32 and moved to its place (bits h * 32 / G up), or-ed
  // into `group` (declared by part 0). `load` reads the part (its dst and type are set here).
  void groupPartInto(ir::Block& out, Stmt load, const std::string& group, int h, VecType part) {
    const std::string name = group + "_" + std::to_string(h);
    const VecType wide{DType::u32, part.lanes, part.scalable}, bytes{DType::u8, part.lanes, part.scalable};
    load.dst = name + "_" + std::string(nameOf(part.elem));
    load.type = part;
    std::string bits = load.dst;
    out.push_back(std::move(load));
    if (intPairs() && part.elem == DType::i8) {  // i16 pairs: the byte's value as 16 bits
      out.push_back(op(part.lanes > 1 ? OpKind::Extend : OpKind::Convert, name + "_i16", VecType{DType::i16, part.lanes, part.scalable}, {bits}));
      bits = name + "_i16";
    }
    if (intPairs() && (part.elem == DType::i8 || part.elem == DType::i16)) {  // its bits, zero-extended below
      out.push_back(op(part.lanes > 1 ? OpKind::Bitcast : OpKind::Convert, name + "_u16", VecType{DType::u16, part.lanes, part.scalable}, {bits}));
      bits = name + "_u16";
    } else if (part.elem == DType::i8) {  // the byte's bits, not its value: zero-extended below
      out.push_back(op(part.lanes > 1 ? OpKind::Bitcast : OpKind::Convert, name + "_u8", bytes, {bits}));
      bits = name + "_u8";
    }
    const std::string widened = h == 0 ? group : name;
    out.push_back(op(part.lanes > 1 ? OpKind::Extend : OpKind::Convert, widened, wide, {bits}));
    if (h == 0) return;
    Stmt up = op(OpKind::ShiftLeft, name + "_high", wide, {name});
    up.part = h * groupPartBits();
    out.push_back(up);
    Stmt join = op(OpKind::Binary, group, wide, {group, name + "_high"}, false);
    join.rop = ReduceOp::bit_or;
    out.push_back(join);
  }
  // Why operand k cannot be packed ("" if it can).
  std::string packable(int k) {
    if (lanes_.lanes == 1) return "the kernel is one lane wide";
    if (inputs_[size_t(k)].spec->padded()) return "it is padded (a panel would copy it without its zeros)";
    if (std::string why = packShape(k, true); !why.empty()) return why;
    if (!outerK_.empty() && !dotGroup(k))
      return "packing needs exactly one reduction dim unless the reduction takes dot-product groups (byte quads, bf16 or i16 pairs; found " +
             std::to_string(outerK_.size() + 1) + ": the panel of every window step would be re-read per block)";
    if (gathered_[size_t(k)]) return "it is read by gathers (" + notContiguous_ + ")";
    const Extent& ve = c_.dims[size_t(vdim_)].extent;
    if (k != transposed_ && ve.isStatic() && *ve.value < int64_t(nr_) * lanes_.lanes) return "the vector dim is narrower than one tile";
    if (nest_.rowTail == SplitTail::shift_inwards) return "tail shift_inwards on the tile dim recomputes rows that a block already added";
    return "";
  }
  // The shape packing needs: fixed-width vectors, one reduction dim, and an operand that runs
  // along the vector dim and that dim only besides the reduction, the other one broadcast.
  // `window`: the reduction dims besides the nest's innermost one (a convolution's window) may
  // have static extents, every step of them in the panel (outerK_); the caller allows that for
  // dot-product groups only (packable).
  std::string packShape(int k, bool window = false) {
    std::vector<int> reductions;
    for (size_t d = 0; d < c_.dims.size(); ++d)
      if (c_.dims[d].reduction) reductions.push_back(int(d)), kdim_ = int(d);
    outerK_.clear();
    outerSteps_ = 1;
    if (reductions.size() != 1 && !(window && !reductions.empty()))
      return "packing needs exactly one reduction dim (the panel holds KC steps of it) unless the reduction takes dot-product groups (byte quads, bf16 or i16 pairs), found " +
             std::to_string(reductions.size());
    if (window && !nest_.reductions.empty()) kdim_ = nest_.reductions.back();
    for (int d : window && !nest_.reductions.empty() ? nest_.reductions : reductions) {
      if (d == kdim_) continue;
      const Extent& e = c_.dims[size_t(d)].extent;
      if (!e.isStatic()) return "the reduction dim " + dimName(d) + " has a runtime extent (the panel holds every step of " + dimName(d) + " for each block of " + dimName(kdim_) + ")";
      outerK_.push_back(d);
      outerSteps_ *= std::max<int64_t>(*e.value, 1);
    }
    const PlannedTensor& b = inputs_[size_t(k)];
    const PlannedTensor& a = inputs_[size_t(1 - k)];
    if (!dependsOn(b, vdim_)) return "it does not run along the vector dim " + dimName(vdim_);
    if (dependsOn(a, vdim_)) return "the other operand runs along the vector dim too";
    for (size_t d = 0; d < c_.dims.size(); ++d)
      if (int(d) != vdim_ && int(d) != kdim_ && !c_.dims[d].reduction && dependsOn(b, int(d)))
        return "it depends on " + dimName(int(d)) + " besides " + dimName(vdim_) + " and the reduction";
    return "";
  }
  // " for each of the 9 steps of rz, ry" when the panel holds a window (outerK_), else "".
  std::string windowText() const {
    std::string dims;
    for (int d : outerK_) dims += (dims.empty() ? "" : ", ") + dimName(d);
    return outerK_.empty() ? "" : " for each of the " + std::to_string(outerSteps_) + " steps of " + dims;
  }
  // The panel's window steps (outerK_) at their loop variables as one number, outermost first.
  // The packing loops name theirs with `prefix` ("w": wr4), apart from the tiles' (r4) that
  // they would shadow.
  Index windowStep(const std::string& prefix) const {
    Index at = Index::constant(0);
    for (int d : outerK_) at = (at * *c_.dims[size_t(d)].extent.value + sym(prefix + loopVar(d))).simplified();
    return at;
  }
  // `body` inside loops over the window's steps (outerK_), outermost first.
  ir::Block windowLoops(ir::Block body, const std::string& prefix) const {
    for (size_t q = outerK_.size(); q-- > 0;) {
      const int d = outerK_[q];
      ir::Block loop;
      loop.push_back(ir::forLoop(prefix + loopVar(d), Index::constant(0), dimExtent(d), 1, std::move(body), false, dimName(d)));
      body = std::move(loop);
    }
    return body;
  }
  // x with the window's loop variables named as the packing loops name them.
  Index packingWindow(Index x) const {
    for (int d : outerK_) x = renamed(x, loopVar(d), "w" + loopVar(d));
    return x;
  }
  // The group panel's element offset of the row holding steps `k`.. (a multiple of G past k0) of
  // the window step being planned, for nr vectors a row.
  Index groupPanelRow(const std::string& k, int nr, const std::string& prefix) const {
    return product(windowStep(prefix) * kc_ + sym(k) - sym("k0"), panelRow(nr, group_)).simplified();
  }
  static std::string inQuotes(const std::string& s) { return "\"" + s + "\""; }
  // Operand k as the user wrote it: an operand packed ahead by the name in the spec, and its copy.
  std::string operandName(int k) const {
    const ContractionTensor& t = c_.operands[size_t(k)];
    return t.packedFrom ? inQuotes(t.packedFrom->name) + " (packed ahead: " + inQuotes(t.name) + ")" : inQuotes(t.name);
  }

  // One column of tiles (j fixed) through the panel: blocks of KC steps of the reduction dim,
  // each packed, then the rest of the nest (from `pos`) over it.
  // A column of nr vectors (a tail's one vector, `pred` masking its lanes past the extent).
  ir::Block packedColumn(size_t pos, int mr, int nr, const std::string& pred) {
    const PlannedTensor& b = inputs_[size_t(packed_)];
    const std::string k = loopVar(kdim_);
    const int64_t columns = int64_t(nr) * lanes_.lanes;
    ir::Block block;
    block.push_back(ir::letMin("k_end", sym("k0") + kc_, dimExtent(kdim_)));
    if (group_) {
      const ir::Block groups = packed_ == transposed_ ? transposedGroupPanel(b, nr, pred) : groupPanel(b, nr, pred);
      block.insert(block.end(), groups.begin(), groups.end());
    } else if (packed_ != transposed_) {
      ir::Block copy;
      for (int u = 0; u < nr; ++u) {
        const std::string v = "packed" + std::to_string(u);
        Stmt l = op(OpKind::Load, v, lanes_);
        l.tensor = b.name;
        l.index = renamed(address(b, 0, u), k, "kp");
        if (!pred.empty()) {  // the last columns: lanes past the extent are packed as zeros
          l.pred = pred;
          l.literal = zeroLiteral();
        }
        pushLoad(copy, l);
        Stmt st = op(OpKind::Store, "", lanes_, {v}, false);
        st.tensor = "panel";
        st.index = (product(sym("kp") - sym("k0"), panelRow(nr)) + lanesIndex() * u).simplified();
        copy.push_back(st);
      }
      block.push_back(ir::forLoop("kp", sym("k0"), sym("k_end"), 1, std::move(copy), false, "pack: " + std::to_string(nr) + (nr == 1 ? " vector of " : " vectors of ") + b.spec->name + " per step"));
    } else if (pred.empty() && transposesByNetwork()) {
      const ir::Block tiles = transposedTiles(b, columns);
      block.insert(block.end(), tiles.begin(), tiles.end());
    } else {
      // Transposed: column by column (B^T's rows, contiguous along the reduction), element by
      // element; a partial column packs only the lanes before the extent.
      const VecType one{c_.dtype, 1};
      Stmt l = op(OpKind::Load, "packed", one);
      l.tensor = b.name;
      l.index = (renamed(address(b, 0, 0), k, "kp") + product(sym("col"), stepAlong(b, vdim_))).simplified();
      Stmt st = op(OpKind::Store, "", one, {"packed"}, false);
      st.tensor = "panel";
      st.index = ((sym("kp") - sym("k0")) * columns + sym("col")).simplified();
      ir::Block steps;
      ir::Block step;
      pushLoad(step, l);
      step.push_back(st);
      steps.push_back(ir::forLoop("kp", sym("k0"), sym("k_end"), 1, std::move(step), false, ""));
      const Index width = pred.empty() ? Index::constant(columns) : (dimExtent(vdim_) - sym(loopVar(vdim_))).simplified();
      block.push_back(ir::forLoop("col", Index::constant(0), width, 1, std::move(steps), false,
                                  "pack: " + std::string(pred.empty() ? std::to_string(columns) : "the last") + " columns of " + b.spec->name + ", transposed"));
    }
    packing_ = true;
    panelNr_ = nr;
    ir::Block tiles = nestFrom(pos, mr, nr, pred);
    packing_ = false;
    block.insert(block.end(), tiles.begin(), tiles.end());
    // At least one block: with no steps at all the tiles still store epilogue(init).
    ir::Block out;
    blockLets(out, b, nr);
    out.push_back(ir::letMax("k_blocks_end", dimExtent(kdim_), Index::constant(1)));
    Stmt loop = ir::forLoop("k0", Index::constant(0), sym("k_blocks_end"), kc_, std::move(block), false,
                            "blocks of " + std::to_string(kc_) + " steps of " + dimName(kdim_) + " through the panel");
    loop.coversTail = true;  // the last block may be shorter (k_end)
    out.push_back(std::move(loop));
    return out;
  }

  // The group panel (group_ = G): row (kp - k0) / G holds steps kp..kp + G - 1 of each of the
  // column's nr vectors as one u32 per column (step kp + h in bits h * 32 / G up: what
  // vdpbf16ps and vpdpbusd multiply), each row zero-extended, shifted up and or-ed. The last
  // group, when the block's steps do not divide, has its missing parts zero (a step past the end
  // is not read); lanes past the extent (a partial column) are packed as zeros.
  ir::Block groupPanel(const PlannedTensor& b, int nr, const std::string& pred) {
    const std::string k = loopVar(kdim_);
    const VecType part{groupPart(b), lanes_.lanes, lanes_.scalable}, wide{DType::u32, lanes_.lanes, lanes_.scalable};
    ir::Block out;
    std::string partPred = pred;  // AVX2's predicates are vectors of the element width: the parts' own
    if (!pred.empty() && !target_.maskRegisters) {
      out.push_back(narrowTail("group", part));
      partPred = out.back().dst;
    }
    if (offsetBytes()) startColumnSums(out, nr);  // the column sums of the block, as the tiles take them
    // A window step's offset in b (its terms of the window and the tile's column), in a local.
    Index windowBase;
    if (!outerK_.empty())
      for (const ir::Term& t : packingWindow(renamed(address(b, 0, 0), k, "kp")).terms)
        if (std::find(t.symbols.begin(), t.symbols.end(), "kp") == t.symbols.end()) windowBase.terms.push_back(t);
    windowBase = windowBase.simplified();
    auto rows = [&](bool whole) {
      ir::Block copy;
      for (int u = 0; u < nr; ++u) {
        const std::string v = "group" + std::to_string(u);
        for (int h = 0; h < group_; ++h) {
          Stmt l = op(OpKind::Load, "", part);
          l.tensor = b.name;
          l.index = (packingWindow(renamed(address(b, 0, u), k, "kp")) + stepAlong(b, kdim_) * h - windowBase).simplified();
          if (!outerK_.empty()) l.index = (sym("window_base") + l.index).simplified();
          if (!pred.empty()) {
            l.pred = partPred;
            l.literal = "0";
          }
          ir::Block parts;
          groupPartInto(whole || h == 0 ? copy : parts, l, v, h, part);
          if (!parts.empty()) copy.push_back(ir::ifLess(sym("kp") + h, sym("k_end"), std::move(parts)));
        }
        if (offsetBytes()) {
          const std::string sums = "sums" + std::to_string(u);
          copy.push_back(offsetDot(sums, "bytes80_pack", v));
        }
        Stmt st = op(OpKind::Store, "", wide, {v}, false);
        st.tensor = "panel";
        st.index = (outerK_.empty() ? groupPanelRow("kp", nr, "w") : sym("pack_window") + product(sym("kp"), panelRow(nr, group_))) + lanesIndex() * u;
        st.index = st.index.simplified();
        copy.push_back(st);
      }
      return copy;
    };
    const std::string what = group_ == 2 ? "as " + pairsName() : "as byte quads";
    ir::Block steps;
    if (!outerK_.empty()) {  // the window step's offsets in b and in the panel, in locals
      steps.push_back(ir::letIndex("window_base", windowBase));
      steps.push_back(ir::letIndex("pack_window", product(windowStep("w") * kc_ - sym("k0"), panelRow(nr, group_))));
    }
    steps.push_back(ir::forLoop("kp", sym("k0"), sym("k_end"), group_, rows(true), false,
                                "pack: " + std::to_string(nr) + (nr == 1 ? " vector" : " vectors") + " of " + b.spec->name + " per " + std::to_string(group_) + " steps, " + what));
    steps.push_back(ir::ifLess(sym("kp"), sym("k_end"), rows(false), "the last steps, the missing ones zero"));
    for (Stmt& st : windowLoops(std::move(steps), "w")) out.push_back(std::move(st));
    if (offsetBytes()) storeColumnSums(out, nr);
    return out;
  }
  // The group panel from a transposed operand (B^T, contiguous along the reduction): panel row by
  // panel row, each column's group of G steps one 32-bit load of G adjacent elements (the
  // little-endian u32 the panel holds), the last group of a block part by part with its missing parts zero; a
  // partial column packs only the columns before the extent (the tiles load it masked). The
  // offset's column sums come from the packed panel afterwards, a vector per panel row.
  ir::Block transposedGroupPanel(const PlannedTensor& b, int nr, const std::string& pred) {
    const std::string k = loopVar(kdim_);
    const int64_t columns = int64_t(nr) * lanes_.lanes;
    const VecType u32{DType::u32, 1};
    // Whole columns take L x L tiles of groups through the network first (transposedGroupTiles);
    // the steps after them (fewer than L groups), and partial columns, go group by group.
    ir::Block out;
    const bool tiles = pred.empty() && transposesByNetwork();
    if (tiles) out = transposedGroupTiles(b, columns);
    const std::string step = tiles ? "kr" : "kp";
    const Index at = (renamed(address(b, 0, 0), k, step) + product(sym("col"), stepAlong(b, vdim_))).simplified();
    const Index slot = ((sym(step) - sym("k0")) * (columns / group_) + sym("col")).simplified();
    auto store = [&](const std::string& v) {
      Stmt st = op(OpKind::Store, "", u32, {v}, false);
      st.tensor = "panel";
      st.index = slot;
      return st;
    };
    ir::Block whole;
    Stmt l = op(OpKind::Load, "quad", u32);
    l.tensor = b.name;
    l.index = at;
    l.packedElements = true;
    whole.push_back(l);
    whole.push_back(store("quad"));
    ir::Block last;
    lastGroup(last, b, at, "last_quad", step);
    last.push_back(store("last_quad"));
    // Panel rows in order (its writes contiguous; the columns' reads are ldb apart).
    const Index width = pred.empty() ? Index::constant(columns) : (dimExtent(vdim_) - sym(loopVar(vdim_))).simplified();
    ir::Block rowCopy;
    rowCopy.push_back(ir::forLoop("col", Index::constant(0), width, 1, std::move(whole), false, ""));
    ir::Block lastRow;
    lastRow.push_back(ir::forLoop("col", Index::constant(0), width, 1, std::move(last), false, ""));
    const std::string one = group_ == 2 ? intPairs() ? "i16 pair" : "bf16 pair" : "byte quad";
    out.push_back(ir::forLoop(step, tiles ? sym("kp") : sym("k0"), sym("k_end"), group_, std::move(rowCopy), false,
                              tiles ? "the steps after the last whole tile, one " + one + " at a time"
                                    : "pack: " + std::string(pred.empty() ? std::to_string(columns) : "the last") + " columns of " + b.spec->name +
                                          ", transposed, one " + one + " at a time"));
    out.push_back(ir::ifLess(sym(step), sym("k_end"), std::move(lastRow), "the last steps, the missing ones zero"));
    if (!offsetBytes()) return out;
    // The column sums (see offsetBytes), from the packed rows: one dot product per vector.
    const VecType wide{DType::u32, lanes_.lanes};
    startColumnSums(out, nr);
    ir::Block row;
    for (int u = 0; u < nr; ++u) {
      const std::string v = "packed" + std::to_string(u), sums = "sums" + std::to_string(u);
      Stmt pl = op(OpKind::Load, v, wide);
      pl.tensor = "panel";
      pl.index = ((sym("kq") - sym("k0")) * (columns / group_) + lanesIndex() * u).simplified();
      if (!pred.empty()) {  // the lanes past the extent were not packed
        pl.pred = pred;
        pl.literal = "0";
      }
      row.push_back(pl);
      row.push_back(offsetDot(sums, "bytes80_pack", v));
    }
    Stmt rows = ir::forLoop("kq", sym("k0"), sym("k_end"), group_, std::move(row), false, "the column sums of the packed rows");
    rows.coversTail = true;  // the last, partial group's row too
    out.push_back(std::move(rows));
    storeColumnSums(out, nr);
    return out;
  }
  // The offset's column sums of a panel block (see offsetBytes): the 0x80 bytes and zero sums
  // before the block is packed, the sums stored into panel_sums after it.
  void startColumnSums(ir::Block& out, int nr) const {
    out.push_back(bytes80("bytes80_pack"));
    for (int u = 0; u < nr; ++u) {
      Stmt z = op(OpKind::Splat, "sums" + std::to_string(u), lanes_);
      z.literal = "0";
      out.push_back(z);
    }
  }
  void storeColumnSums(ir::Block& out, int nr) const {
    for (int u = 0; u < nr; ++u) {
      Stmt st = op(OpKind::Store, "", lanes_, {"sums" + std::to_string(u)}, false);
      st.tensor = "panel_sums";
      st.index = (lanesIndex() * u).simplified();
      out.push_back(st);
    }
  }
  // The last, partial group of `t` at `at` (steps `step`.. of the reduction) as one u32 named
  // `group`, part by part, each part past k_end left zero (never read).
  void lastGroup(ir::Block& out, const PlannedTensor& t, const Index& at, const std::string& group, const std::string& step) {
    const VecType one{groupPart(t), 1};
    for (int h = 0; h < group_; ++h) {
      Stmt part = op(OpKind::Load, "", one);
      part.tensor = t.name;
      part.index = (at + h).simplified();
      ir::Block parts;
      groupPartInto(h == 0 ? out : parts, part, group, h, one);
      if (!parts.empty()) out.push_back(ir::ifLess(sym(step) + h, sym("k_end"), std::move(parts)));
    }
  }

  // Quads with the broadcast operand's bytes offset by 128 (xor 0x80), so that the pair fits the
  // instruction's signedness. The xor turns a into o = a + 128 read unsigned (a was i8) or
  // o = a - 128 read signed (a was u8), so each dot product is sum(o * b) = sum(a * b) + c * sum(b)
  // with c = 128 or -128: the panel's packing takes the same dot product with 0x80 bytes in
  // place of o (c * b per column, into panel_sums) and each tile subtracts those sums from its
  // accumulators before its reduction (oneDNN's compensation; exact: everything wraps modulo 2^32).
  // x86 vpdpbusd (first operand's bytes unsigned): i8 x i8 (o unsigned) and u8 x u8 (o signed,
  // the panel's bytes the unsigned ones). Arm without usdot (armOffsetQuads): u8 x i8 panel
  // through sdot (o signed), i8 x u8 panel through udot (o unsigned).
  bool offsetBytes() const {
    if (group_ != 4) return false;
    if (target_.module == LoweringModule::x86) return *inputs_[0].spec->narrow == *inputs_[1].spec->narrow;
    return armOffsetQuads(*inputs_[size_t(1 - packed_)].spec->narrow, *inputs_[size_t(packed_)].spec->narrow);
  }
  // acc += the dot product of offset quads `offset` (the broadcast's, or the 0x80 bytes) and
  // panel quads `panel`, in the op of their signedness (see offsetBytes).
  Stmt offsetDot(const std::string& acc, const std::string& offset, const std::string& panel) const {
    const bool panelSigned = *inputs_[size_t(packed_)].spec->narrow == DType::i8;
    if (target_.module == LoweringModule::x86)  // vpdpbusd: the unsigned bytes first
      return op(OpKind::DotU8I8, acc, lanes_, {acc, panelSigned ? offset : panel, panelSigned ? panel : offset}, false);
    return op(panelSigned ? OpKind::DotI8I8 : OpKind::DotU8U8, acc, lanes_, {acc, offset, panel}, false);
  }
  Stmt bytes80(const std::string& name) const {
    Stmt s = op(OpKind::Splat, name, VecType{DType::u32, lanes_.lanes, lanes_.scalable});
    s.literal = "2155905152u";  // 0x80808080: the interpreter reads decimal literals
    return s;
  }

  // The reduction through the group panel (group_ = G): G steps per instruction, then the last
  // steps when the block's do not divide (the missing parts zero on both sides).
  ir::Block dotReduction(int mr, int nr, const std::string& pred) {
    const std::string k = loopVar(kdim_), n = std::to_string(group_);
    const std::string ins = group_ == 2 ? pairInstruction() : quadInstruction();
    ir::Block out;
    if (!outerK_.empty()) {  // per window step: its offsets in the panel and in the broadcast operand, in locals
      const PlannedTensor& a = inputs_[size_t(1 - packed_)];
      out.push_back(ir::letIndex("panel_window", product(windowStep("") * kc_ - sym("k0"), panelRow(panelNr_, group_))));
      Index window;
      for (const ir::Term& t : tileAddress(a, 0, 0).terms)
        if (std::find(t.symbols.begin(), t.symbols.end(), k) == t.symbols.end()) window.terms.push_back(t);
      broadcastWindow_ = window.simplified();
      out.push_back(ir::letIndex(a.name + "_window", broadcastWindow_));
    }
    out.push_back(ir::forLoop(k, sym("k0"), sym("k_end"), group_, dotStep(mr, nr, pred, true), false, dimName(kdim_) + ", " + n + " steps per " + ins));
    out.push_back(ir::ifLess(sym(k), sym("k_end"), dotStep(mr, nr, pred, false), "the last steps of " + dimName(kdim_)));
    broadcastWindow_ = Index();
    return windowLoops(std::move(out), "");
  }
  // One group of steps (or the last, partial one: its parts past k_end are zero): the panel's
  // group vectors, then per row the broadcast operand's group (G adjacent elements as one u32,
  // the first in the low bits: one 32-bit load of a whole group), splat, and the row's dot
  // products.
  ir::Block dotStep(int mr, int nr, const std::string& pred, bool whole) {
    const PlannedTensor& a = inputs_[size_t(1 - packed_)];
    const VecType wide{DType::u32, lanes_.lanes, lanes_.scalable};
    const std::string k = loopVar(kdim_), tag = whole ? "" : "_last";
    ir::Block body;
    for (int u = 0; u < nr; ++u) {
      Stmt s = op(OpKind::Load, "panel_v" + std::to_string(u) + tag, wide);
      s.tensor = "panel";
      s.index = (outerK_.empty() ? groupPanelRow(k, panelNr_, "") : sym("panel_window") + product(sym(k), panelRow(panelNr_, group_))) + lanesIndex() * u;
      s.index = s.index.simplified();
      if (!pred.empty()) {  // a partial column: the lanes past the extent were not packed
        s.pred = pred;
        s.literal = "0";
      }
      body.push_back(s);
    }
    // vpdpbusd multiplies unsigned bytes (its first operand) by signed ones; sdot and udot bytes of
    // one signedness.
    const bool broadcastUnsigned = group_ == 4 && a.spec->narrow == DType::u8;
    const OpKind bytesOp = group_ != 4 || a.spec->narrow != inputs_[size_t(packed_)].spec->narrow ? OpKind::DotU8I8
                           : a.spec->narrow == DType::i8                                          ? OpKind::DotI8I8
                                                                                                  : OpKind::DotU8U8;
    const bool bytePairs = whole && intPairs() && a.spec->narrow != DType::i16;  // built by vectors, not one u32 load
    // Row r's group of the broadcast operand, from the window step's local when there is one.
    auto groupAt = [&](int r) {
      const Index full = tileAddress(a, r, 0);
      return outerK_.empty() ? full : (sym(a.name + "_window") + (full - broadcastWindow_)).simplified();
    };
    for (int r = 0; r < mr; ++r) {
      const std::string x = a.name + "_r" + std::to_string(r) + tag;
      if (bytePairs) {
        // Two bytes as one u16, splat over half the width (vpbroadcastw), read as bytes b0 b1 b0 b1
        // ..., each widened to 16 bits (vpmovsxbw/vpmovzxbw): every u32 lane is the pair.
        const int L = lanes_.lanes;
        Stmt l = op(OpKind::Load, x + "_bytes2", VecType{DType::u16, 1});
        l.tensor = a.name;
        l.index = groupAt(r);
        l.packedElements = true;
        pushChecked(body, a, r, l);
        body.push_back(op(OpKind::Splat, x + "_halves", VecType{DType::u16, L}, {x + "_bytes2"}));
        body.push_back(op(OpKind::Bitcast, x + "_pairs", VecType{*a.spec->narrow, 2 * L}, {x + "_halves"}));
        body.push_back(op(OpKind::Extend, x + "_i16", VecType{DType::i16, 2 * L}, {x + "_pairs"}));
        body.push_back(op(OpKind::Bitcast, x, wide, {x + "_i16"}));
      } else if (whole) {  // the group's G adjacent elements, in order, are its u32: one load
        Stmt l = op(OpKind::Load, x + "_group", VecType{DType::u32, 1});
        l.tensor = a.name;
        l.index = groupAt(r);
        l.packedElements = true;
        pushChecked(body, a, r, l);
      }
      if (!whole) {  // its parts past k_end zero
        ir::Block parts;
        lastGroup(parts, a, groupAt(r), x + "_group", k);
        if (checks(a)) guardedLoads(body, a, r, x + "_group", VecType{DType::u32, 1}, std::move(parts));
        else body.insert(body.end(), parts.begin(), parts.end());
      }
      if (!bytePairs) body.push_back(op(OpKind::Splat, x, wide, {x + "_group"}));
      if (offsetBytes()) {  // a + 128 as unsigned bytes (bytes80)
        Stmt o = op(OpKind::Binary, x + "_offset", wide, {x, "bytes80"});
        o.rop = ReduceOp::bit_xor;
        body.push_back(o);
      }
      for (int u = 0; u < nr; ++u) {
        const std::string panel = "panel_v" + std::to_string(u) + tag;
        if (offsetBytes()) body.push_back(offsetDot(accName(r, u), x + "_offset", panel));
        else if (intPairs()) body.push_back(op(OpKind::DotI16I16, accName(r, u), lanes_, {accName(r, u), x, panel}, false));
        else if (group_ == 2) body.push_back(op(target_.module == LoweringModule::x86 ? OpKind::DotBf16 : OpKind::DotBf16Odd, accName(r, u), lanes_, {accName(r, u), panel, x}, false));
        else if (bytesOp != OpKind::DotU8I8) body.push_back(op(bytesOp, accName(r, u), lanes_, {accName(r, u), x, panel}, false));
        else body.push_back(op(OpKind::DotU8I8, accName(r, u), lanes_, {accName(r, u), broadcastUnsigned ? x : panel, broadcastUnsigned ? panel : x}, false));
      }
    }
    return body;
  }

  // Whether whole columns of a transposed operand go into the panel through the target's
  // transpose network: its rows must be contiguous along the reduction (a vector load reads L
  // steps of it) and the target must have a network (fixed-width vectors of 2 lanes or more).
  bool transposesByNetwork() const {
    if (lanes_.lanes < 2 || lanes_.scalable) return false;
    return stepAlong(inputs_[size_t(transposed_)], kdim_).constantValue() == int64_t{1};
  }
  // The panel's `columns` columns from a transposed operand, L x L tiles at a time (L = lanes):
  // L of its rows (panel columns cb..cb+L), L steps of the reduction each, loaded as L vectors,
  // turned by the network into L vectors along the columns, stored as L panel rows; the steps
  // left after the last whole tile one element at a time. The network is proven first.
  ir::Block transposedTiles(const PlannedTensor& b, int64_t columns) {
    const int L = lanes_.lanes;
    const TransposeNetwork net = squareTransposeNetwork(target_, lanes_);
    if (const sim::TransposeProof proof = sim::proveTranspose(net.body, net.rows, net.cols); !proof.ok)
      throw std::logic_error("internal error: the transpose network for the panel on " + target_.spelling + " is not a transpose: " + proof.message);
    const Index row = renamed(address(b, 0, 0), loopVar(kdim_), "kp");  // b's row j + col at step kp
    const Index colStep = stepAlong(b, vdim_);
    ir::Block tile;
    for (int r = 0; r < L; ++r) {
      Stmt l = op(OpKind::Load, net.rows[size_t(r)], lanes_);
      l.tensor = b.name;
      l.index = (row + product(sym("cb"), colStep) + colStep * r).simplified();
      pushLoad(tile, l);
    }
    tile.insert(tile.end(), net.body.begin(), net.body.end());
    for (int c = 0; c < L; ++c) {
      Stmt st = op(OpKind::Store, "", lanes_, {net.cols[size_t(c)]}, false);
      st.tensor = "panel";
      st.index = ((sym("kp") - sym("k0") + c) * columns + sym("cb")).simplified();
      tile.push_back(st);
    }
    const VecType one{c_.dtype, 1};
    Stmt l = op(OpKind::Load, "packed", one);
    l.tensor = b.name;
    l.index = (renamed(row, "kp", "kq") + product(sym("col"), colStep)).simplified();
    Stmt st = op(OpKind::Store, "", one, {"packed"}, false);
    st.tensor = "panel";
    st.index = ((sym("kq") - sym("k0")) * columns + sym("col")).simplified();
    ir::Block step;
    pushLoad(step, l);
    step.push_back(st);
    ir::Block rest;
    rest.push_back(ir::forLoop("kq", sym("kp"), sym("k_end"), 1, std::move(step), false, ""));
    ir::Block perTile;
    perTile.push_back(ir::forLoop("kp", sym("k0"), sym("k_end"), L, std::move(tile), false,
                                  std::to_string(L) + " x " + std::to_string(L) + " tiles: " + std::to_string(L) + " rows of " + b.spec->name + ", transposed by the network"));
    perTile.push_back(ir::forLoop("col", sym("cb"), sym("cb") + L, 1, std::move(rest), false, "the steps after the last whole tile, one element at a time"));
    ir::Block out;
    out.push_back(ir::forLoop("cb", Index::constant(0), Index::constant(columns), L, std::move(perTile), false,
                              "pack: " + std::to_string(columns) + " columns of " + b.spec->name + ", transposed"));
    return out;
  }

  // The group panel's whole L x L tiles from a transposed operand (L = lanes, G = group_): L of
  // its rows (panel columns cb..cb+L), L groups of G steps each, loaded as G x L parts and read
  // as L u32 (the little-endian groups the panel holds), turned by the u32 network into L panel
  // rows. The network is proven first. Leaves kp at the first step after the last whole tile.
  ir::Block transposedGroupTiles(const PlannedTensor& b, int64_t columns) {
    const int L = lanes_.lanes;
    const VecType wide{DType::u32, L}, parts{groupPart(b), L * group_};
    const TransposeNetwork net = squareTransposeNetwork(target_, wide);
    if (const sim::TransposeProof proof = sim::proveTranspose(net.body, net.rows, net.cols); !proof.ok || !net.halfRows.empty())
      throw std::logic_error("internal error: the u32 transpose network for the group panel on " + target_.spelling + " is not a transpose of whole rows: " + proof.message);
    const Index row = renamed(address(b, 0, 0), loopVar(kdim_), "kp");  // b's row j + col at step kp
    const Index colStep = stepAlong(b, vdim_);
    ir::Block tile;
    for (int r = 0; r < L; ++r) {
      Stmt l = op(OpKind::Load, net.rows[size_t(r)] + "_parts", parts);
      l.tensor = b.name;
      l.index = (row + product(sym("cb"), colStep) + colStep * r).simplified();
      tile.push_back(l);  // the parts as they are: no widening (pushLoad)
      tile.push_back(op(OpKind::Bitcast, net.rows[size_t(r)], wide, {l.dst}));
    }
    tile.insert(tile.end(), net.body.begin(), net.body.end());
    for (int c = 0; c < L; ++c) {
      Stmt st = op(OpKind::Store, "", wide, {net.cols[size_t(c)]}, false);
      st.tensor = "panel";
      st.index = ((sym("kp") - sym("k0") + group_ * c) * (columns / group_) + sym("cb")).simplified();
      tile.push_back(st);
    }
    ir::Block perRow;
    perRow.push_back(ir::forLoop("cb", Index::constant(0), Index::constant(columns), L, std::move(tile), false, ""));
    ir::Block out;
    out.push_back(ir::forLoop("kp", sym("k0"), sym("k_end"), int64_t(group_) * L, std::move(perRow), false,
                              "pack: " + std::to_string(columns) + " columns of " + b.spec->name + ", transposed by " + std::to_string(L) + " x " +
                                  std::to_string(L) + " tiles of " + (group_ == 2 ? pairsName() : "byte quads") + " (" + std::to_string(L) + " panel rows at a time)"));
    return out;
  }

  static Index renamed(const Index& x, const std::string& from, const std::string& to) {
    Index out = x;
    for (ir::Term& t : out.terms)
      for (std::string& s : t.symbols)
        if (s == from) s = to;
    return out.simplified();
  }

  // ---- loops ----
  // The nest from loop `pos` of nest_.outer inward, around tiles of mr x nr vectors (`pred`: the
  // mask of a partial vector).
  ir::Block nestFrom(size_t pos, int mr, int nr, const std::string& pred) {
    if (pos == nest_.outer.size()) return tile(mr, nr, pred);
    const NestLoop& loop = nest_.outer[pos];
    switch (loop.kind) {
      case NestLoop::Kind::vectorTiles: return vectorTiles(pos, mr);
      case NestLoop::Kind::tileRows: return tileRows(pos, nr, pred);
      case NestLoop::Kind::dim: {
        ir::Block out;
        out.push_back(ir::forLoop(loopVar(loop.dim), Index::constant(0), dimExtent(loop.dim), 1, nestFrom(pos + 1, mr, nr, pred), false, loop.name));
        return out;
      }
      case NestLoop::Kind::blockOuter: {
        ir::Block out;
        Stmt l = ir::forLoop(loopVar(loop.dim) + "o", Index::constant(0), dimExtent(loop.dim), loop.factor, nestFrom(pos + 1, mr, nr, pred), false,
                             loop.name + ": blocks of " + std::to_string(loop.factor) + " " + dimName(loop.dim));
        l.coversTail = true;  // the last block may be shorter
        out.push_back(std::move(l));
        return out;
      }
      case NestLoop::Kind::blockInner: {
        const std::string v = loopVar(loop.dim);
        ir::Block out;
        out.push_back(ir::letMin(v + "_end", sym(v + "o") + loop.factor, dimExtent(loop.dim)));
        out.push_back(ir::forLoop(v, sym(v + "o"), sym(v + "_end"), 1, nestFrom(pos + 1, mr, nr, pred), false, loop.name));
        return out;
      }
    }
    return {};
  }

  // "along x", or "xo (along x)" for a schedule's loop of another name.
  std::string along(const NestLoop& loop) const {
    return loop.name == dimName(loop.dim) ? "along " + loop.name : loop.name + " (along " + dimName(loop.dim) + ")";
  }

  // The vector dim: whole tiles of NR vectors (a packed column each when packing), then its tail
  // as the schedule says: predicate (single vectors, then one partial vector, masked), guard
  // (single vectors, then single lanes), shift_inwards (one whole tile ending at the extent) or
  // round_up (nothing: the extent is a multiple of the tile).
  ir::Block vectorTiles(size_t pos, int mr) {
    const NestLoop& loop = nest_.outer[pos];
    const Index V = dimExtent(vdim_);
    const Index W = lanesIndex() * nr_;
    auto tiles = [&]() { return packed_ >= 0 ? packedColumn(pos + 1, mr, nr_, "") : nestFrom(pos + 1, mr, nr_, ""); };
    ir::Block out;
    out.push_back(ir::letIndex("j", Index::constant(0)));
    out.push_back(ir::forLoop("j", Index::constant(0), V, W, tiles(), true,
                              along(loop) + ": tiles of " + std::to_string(nr_) + (lanes_.lanes > 1 ? " vectors" : " elements")));
    if (nest_.vectorTail == SplitTail::round_up) return out;
    if (nest_.vectorTail == SplitTail::shift_inwards && nr_ * lanes_.lanes > 1) {
      ir::Block last;
      last.push_back(ir::letIndex("j_last", (V - W).simplified()));
      shiftedVec_ = true;
      ir::Block t = tiles();
      shiftedVec_ = false;
      last.insert(last.end(), t.begin(), t.end());
      ir::Block rest;
      rest.push_back(ir::ifLess(sym("j"), V, std::move(last), "the rest: one whole tile ending at " + dimName(vdim_) + "'s extent (shift_inwards)"));
      out.push_back(ir::ifIndex(W, ir::Cmp::le, V, std::move(rest), "at least one whole tile"));
      out.push_back(ir::ifLess(V, W, vectorRest(pos, mr), "narrower than a tile"));
      return out;
    }
    ir::Block rest = vectorRest(pos, mr);
    out.insert(out.end(), rest.begin(), rest.end());
    return out;
  }
  // After the whole tiles: single vectors, then a partial vector (predicate) or single lanes.
  ir::Block vectorRest(size_t pos, int mr) {
    ir::Block out;
    const Index V = dimExtent(vdim_);
    // The tails read the packed operand through a panel too: unpacked, a column of single
    // vectors reloads B's rows (ldb apart) for every tile of rows, from L2 (matmul 509 x 517 x 511
    // lost about 5% of the peak in its 5 last columns); a transposed operand needs it anyway.
    auto column = [&](const std::string& pred) { return packed_ >= 0 ? packedColumn(pos + 1, mr, 1, pred) : nestFrom(pos + 1, mr, 1, pred); };
    if (nr_ > 1 && lanes_.lanes > 1) out.push_back(ir::forLoop("j", Index::constant(0), V, lanesIndex(), column(""), true, "one vector at a time"));
    if (lanes_.lanes == 1) {
      if (nr_ > 1) out.push_back(ir::forLoop("j", Index::constant(0), V, 1, nestFrom(pos + 1, mr, 1, ""), true, "one element at a time"));
      return out;
    }
    if (nest_.vectorTail == SplitTail::guard) {  // single lanes, no masks
      const VecType vector = lanes_;
      lanes_ = VecType{c_.dtype, 1};
      out.push_back(ir::forLoop("j", Index::constant(0), V, 1, nestFrom(pos + 1, mr, 1, ""), true, "the rest: one lane at a time (tail guard)"));
      lanes_ = vector;
      return out;
    }
    ir::Block tail;
    Stmt w = ir::op(OpKind::WhileLt, "tail_lanes", lanes_.mask());
    w.declare = true;
    w.lo = sym("j");
    w.hi = V;
    w.partialOnly = true;
    tailLo_ = w.lo;
    tailHi_ = w.hi;
    tail.push_back(w);
    ir::Block rest = column("tail_lanes");
    tail.insert(tail.end(), rest.begin(), rest.end());
    out.push_back(ir::ifLess(sym("j"), V, std::move(tail), "the rest of " + dimName(vdim_) + ": one partial vector, its loads and stores masked"));
    return out;
  }

  // The tile dim: tiles of MR rows, then the tail: guard (tiles of 4, 2, 1 rows, each such loop
  // running at most once), shift_inwards (one whole tile ending at the extent) or round_up.
  ir::Block tileRows(size_t pos, int nr, const std::string& pred) {
    const NestLoop& loop = nest_.outer[pos];
    ir::Block out;
    const Index T = dimExtent(tdim_);
    const int mr = nr < nr_ && columnTailMr_ > 0 ? columnTailMr_ : mr_;
    out.push_back(ir::letIndex("i", Index::constant(0)));
    out.push_back(ir::forLoop("i", Index::constant(0), T, mr, nestFrom(pos + 1, mr, nr, pred), true,
                              along(loop) + ": tiles of " + std::to_string(mr) + " x " + std::to_string(nr) + (lanes_.lanes > 1 ? " vectors" : " elements")));
    if (nest_.rowTail == SplitTail::round_up) return out;
    auto smaller = [&]() {
      ir::Block rows;
      for (int r = 4; r >= 1; r /= 2)
        if (r < mr) rows.push_back(ir::forLoop("i", Index::constant(0), T, r, nestFrom(pos + 1, r, nr, pred), true, "the rest: " + std::to_string(r) + " row" + (r > 1 ? "s" : "")));
      return rows;
    };
    if (nest_.rowTail == SplitTail::shift_inwards && mr_ > 1) {
      ir::Block last;
      last.push_back(ir::letIndex("i_last", (T - Index::constant(mr_)).simplified()));
      shiftedRow_ = true;
      ir::Block t = nestFrom(pos + 1, mr_, nr, pred);
      shiftedRow_ = false;
      last.insert(last.end(), t.begin(), t.end());
      ir::Block rest;
      rest.push_back(ir::ifLess(sym("i"), T, std::move(last), "the rest: one whole tile ending at " + dimName(tdim_) + "'s extent (shift_inwards)"));
      out.push_back(ir::ifIndex(Index::constant(mr_), ir::Cmp::le, T, std::move(rest), "at least one whole tile"));
      out.push_back(ir::ifLess(T, Index::constant(mr_), smaller(), "fewer rows than a tile"));
      return out;
    }
    ir::Block rows = smaller();
    out.insert(out.end(), rows.begin(), rows.end());
    return out;
  }

  std::string accName(int r, int u) const { return "acc" + std::to_string(r) + "_" + std::to_string(u); }

  // One register tile: init, the reduction loops with the FMAs, the epilogue, the stores.
  ir::Block tile(int mr, int nr, const std::string& pred) {
    ir::Block out = tileBases(nr);
    for (int r = 0; r < mr; ++r)
      for (int u = 0; u < nr; ++u) {
        const std::string acc = accName(r, u);
        if (c_.init == ContractionInit::zero) {
          Stmt z = op(OpKind::Splat, acc, lanes_);
          z.literal = zeroLiteral();
          out.push_back(z);
        } else {
          const PlannedTensor& from = c_.init == ContractionInit::output ? out_ : inputs_[size_t(init_)];
          out.push_back(loadOf(from, acc, r, u, pred));
        }
      }
    if (packing_ && c_.init != ContractionInit::output) {  // later blocks continue the output's sums
      ir::Block later;
      for (int r = 0; r < mr; ++r)
        for (int u = 0; u < nr; ++u) {
          Stmt l = loadOf(out_, accName(r, u), r, u, pred);
          l.declare = false;
          later.push_back(l);
        }
      out.push_back(ir::ifIndex(sym("k0"), ir::Cmp::gt, Index::constant(0), std::move(later), "a later block: the sums so far"));
    }
    if (group_ && packing_ && offsetBytes()) {  // the panel's 128 x column sums, taken once (bytes80)
      out.push_back(bytes80("bytes80"));
      for (int u = 0; u < nr; ++u) {
        Stmt l = op(OpKind::Load, "panel_sums_v" + std::to_string(u), lanes_);
        l.tensor = "panel_sums";
        l.index = (lanesIndex() * u).simplified();
        out.push_back(l);
        for (int r = 0; r < mr; ++r) out.push_back(op(OpKind::Sub, accName(r, u), lanes_, {accName(r, u), "panel_sums_v" + std::to_string(u)}, false));
      }
    }
    ir::Block body = reductionBody(mr, nr, pred);
    out.insert(out.end(), body.begin(), body.end());
    if (packing_ && !c_.epilogue.empty()) {
      ir::Block last;
      epilogue(last, mr, nr, pred);
      out.push_back(ir::ifIndex(sym("k_end"), ir::Cmp::eq, dimExtent(kdim_), std::move(last), "the last block: the epilogue"));
    } else {
      epilogue(out, mr, nr, pred);
    }
    for (int r = 0; r < mr; ++r)
      for (int u = 0; u < nr; ++u) {
        Stmt s = op(OpKind::Store, "", lanes_, {accName(r, u)}, false);
        s.tensor = "out";
        s.index = tileAddress(out_, r, u);
        s.pred = pred;
        out.push_back(s);
      }
    return out;
  }

  // ---- padded operands ----
  // A tile whose reads all fall inside the padded operands' extents (pad_slack >= 0: the interior
  // of a "same" convolution) runs the plain reduction; the others (its border) run it again with
  // each read of a padded operand checked: a zero outside the extents, as over a zero-padded copy.
  bool hasPadding() const { return c_.operands[0].padded() || c_.operands[1].padded(); }
  ir::Block reductionBody(int mr, int nr, const std::string& pred) {
    auto reduction = [&]() { return group_ && packing_ ? dotReduction(mr, nr, pred) : reductionLoops(0, mr, nr, pred); };
    if (!hasPadding()) return reduction();
    ir::Block out = slackLets(mr);
    ir::Block inside = reduction();
    checkPadding_ = true;
    ir::Block border = reduction();
    checkPadding_ = false;
    out.push_back(ir::ifIndex(sym("pad_slack"), ir::Cmp::ge, Index::constant(0), std::move(inside), "the tile reads inside the padded operands' extents"));
    out.push_back(ir::ifLess(sym("pad_slack"), Index::constant(0), std::move(border), "the tile reads padding: each read checked, zero outside the extents"));
    return out;
  }
  // Position p of operand t at the loop variables (tile row `row`; a reduction dim at its loop
  // variable, or with `reductionLast` set at its first (false) or last (true) step).
  Index positionIndex(const PlannedTensor& t, size_t p, int row, std::optional<bool> reductionLast = std::nullopt) const {
    const AffineIndex& ix = t.spec->index[p];
    Index value = Index::constant(ix.constant);
    for (const AffineIndex::Term& term : ix.terms) {
      Index v = sym(loopVar(term.dim));
      if (c_.dims[size_t(term.dim)].reduction && reductionLast) v = *reductionLast ? dimExtent(term.dim) - Index::constant(1) : Index::constant(0);
      else if (auto off = stepOffset_.find(term.dim); off != stepOffset_.end()) v = v + Index::constant(off->second);
      if (term.dim == tdim_) v = v + Index::constant(row);
      value = value + v * term.coef;
    }
    return value.simplified();
  }
  // pad_slack: the least distance, over the tile's rows and every reduction step, between a
  // padded read and the edge of its extent (negative: some read falls outside).
  ir::Block slackLets(int mr) const {
    std::vector<Index> terms;
    for (const PlannedTensor& t : inputs_)
      for (size_t p = 0; p < t.spec->index.size(); ++p) {
        if (&t - inputs_.data() >= 2 || !readsOutside(c_, *t.spec, p)) continue;
        if (t.spec->index[p].constant < 0) terms.push_back(positionIndex(t, p, 0, false));
        terms.push_back((t.extents[p] - Index::constant(1) - positionIndex(t, p, mr - 1, true)).simplified());
      }
    ir::Block out;
    for (size_t k = 0; k < terms.size(); ++k) {
      const std::string name = k + 1 == terms.size() ? "pad_slack" : "pad_slack" + std::to_string(k);
      out.push_back(k == 0 ? ir::letIndex(name, terms[0]) : ir::letMin(name, sym(out.back().var), terms[k]));
    }
    return out;
  }
  // `loads` (which assign dst, of type `type`) run only where row `row`'s reads of t fall inside
  // its extents; elsewhere dst is zero.
  void guardedLoads(ir::Block& out, const PlannedTensor& t, int row, const std::string& dst, VecType type, ir::Block loads) const {
    Stmt zero = op(OpKind::Splat, dst, type);
    zero.literal = type.elem == c_.dtype ? zeroLiteral() : "0";
    out.push_back(zero);
    for (Stmt& s : loads)
      if (s.dst == dst) s.declare = false;
    for (size_t p = t.spec->index.size(); p-- > 0;) {
      if (!readsOutside(c_, *t.spec, p)) continue;
      const Index at = positionIndex(t, p, row);
      ir::Block inside;
      inside.push_back(ir::ifLess(at, t.extents[p], std::move(loads)));
      loads = std::move(inside);
      if (!surelyNonNegative(at)) {
        ir::Block above;
        above.push_back(ir::ifIndex(at, ir::Cmp::ge, Index::constant(0), std::move(loads)));
        loads = std::move(above);
      }
    }
    out.insert(out.end(), loads.begin(), loads.end());
  }
  // The one-load block `load` of row `row` of t, checked when t's padding is (checks).
  void pushChecked(ir::Block& out, const PlannedTensor& t, int row, const Stmt& load) const {
    if (!checks(t)) return out.push_back(load);
    guardedLoads(out, t, row, load.dst, load.type, ir::Block{load});
  }
  // Loop variables and extents are never negative: an index of them with positive coefficients
  // and a constant of at least 0 is not either.
  static bool surelyNonNegative(const Index& x) {
    for (const ir::Term& t : x.terms)
      if (t.coef < 0) return false;
    return true;
  }
  bool checks(const PlannedTensor& t) const { return checkPadding_ && t.spec->padded() && &t - inputs_.data() < 2; }

  // The reduction loops from nest_.reductions[level] inward (outermost first); an unrolled one
  // (the update's "unroll") runs copies of its body at step offsets 0..u-1, then single steps.
  ir::Block reductionLoops(size_t level, int mr, int nr, const std::string& pred) {
    if (level == nest_.reductions.size()) return reductionStep(mr, nr, pred);
    const int d = nest_.reductions[level];
    const bool block = packing_ && d == kdim_;  // this block's steps
    const Index lo = block ? sym("k0") : Index::constant(0), hi = block ? sym("k_end") : dimExtent(d);
    const std::string v = loopVar(d);
    ir::Block out;
    auto it = nest_.unroll.find(d);
    if (it == nest_.unroll.end()) {
      out.push_back(ir::forLoop(v, lo, hi, 1, reductionLoops(level + 1, mr, nr, pred), false, dimName(d)));
      return out;
    }
    const int64_t u = it->second;
    ir::Block copies;
    for (int64_t k = 0; k < u; ++k) {
      stepOffset_[d] = k;
      ir::Block c = reductionLoops(level + 1, mr, nr, pred);
      copies.insert(copies.end(), c.begin(), c.end());
    }
    stepOffset_.erase(d);
    out.push_back(ir::forLoop(v, lo, hi, u, std::move(copies), false, dimName(d) + ", unrolled by " + std::to_string(u)));
    out.push_back(ir::forLoop(v, lo, hi, 1, reductionLoops(level + 1, mr, nr, pred), true, "the rest of " + dimName(d)));
    return out;
  }

  // One step of the reductions: the values that serve every row (the operand along the vector
  // dim), then row by row the values of that row (a broadcast) and the row's FMAs, so that a
  // row's values die before the next row's load: with AVX2's 16 registers, all broadcasts first
  // made GCC spill accumulators. Each tensor is loaded once per distinct (row, vector) it depends
  // on. Values of an unrolled copy carry its offsets ("_u1").
  ir::Block reductionStep(int mr, int nr, const std::string& pred) {
    std::string copy;
    for (const auto& [d, k] : stepOffset_)
      if (k) copy += "_u" + std::to_string(k);
    ir::Block body;
    std::vector<std::vector<std::vector<std::string>>> value(2);  // [operand][row][vec]
    auto loadRow = [&](int k, int r) {  // r = -1: the operand's values that no row depends on
      const PlannedTensor& t = inputs_[size_t(k)];
      const bool byRow = dependsOn(t, tdim_), byVec = dependsOn(t, vdim_);
      if (byRow != (r >= 0)) return;
      for (int u = 0; u < (byVec ? nr : 1); ++u) {
        std::string name = t.name;
        if (byRow) name += "_r" + std::to_string(r);
        if (byVec) name += "_v" + std::to_string(u);
        if (!byRow && !byVec) name += "_elem";  // one element for the whole tile
        name += copy;
        if (checks(t)) {
          ir::Block loads;
          pushLoad(loads, loadOf(t, name, std::max(r, 0), u, pred));
          guardedLoads(body, t, std::max(r, 0), name, lanes_, std::move(loads));
        } else {
          pushLoad(body, loadOf(t, name, std::max(r, 0), u, pred));
        }
        for (int rr = 0; rr < mr; ++rr)
          for (int uu = 0; uu < nr; ++uu)
            if ((!byRow || rr == r) && (!byVec || uu == u)) value[size_t(k)][size_t(rr)][size_t(uu)] = name;
      }
    };
    for (int k = 0; k < 2; ++k) {
      value[size_t(k)].assign(size_t(mr), std::vector<std::string>(size_t(nr)));
      loadRow(k, -1);
    }
    for (int r = 0; r < mr; ++r) {
      for (int k = 0; k < 2; ++k) loadRow(k, r);
      for (int u = 0; u < nr; ++u) {
        const std::string& a = value[0][size_t(r)][size_t(u)];
        const std::string& b = value[1][size_t(r)][size_t(u)];
        if (hasFma()) {
          body.push_back(op(OpKind::Fma, accName(r, u), lanes_, {accName(r, u), a, b}, false));
        } else {
          const std::string p = "product" + std::to_string(r) + "_" + std::to_string(u) + copy;
          body.push_back(binary(ReduceOp::mul, p, a, b, true));
          body.push_back(binary(ReduceOp::add, accName(r, u), accName(r, u), p, false));
        }
      }
    }
    return body;
  }

  void epilogue(ir::Block& out, int mr, int nr, const std::string& pred) {
    int added = init_ >= 0 ? init_ + 1 : 2, scalars = 0;
    for (size_t k = 0; k < c_.epilogue.size(); ++k) {
      const EpilogueStep& step = c_.epilogue[k];
      const std::string tag = "_e" + std::to_string(k);
      auto splat = [&](const std::string& name, const std::string& literal) {
        Stmt s = op(OpKind::Splat, name, lanes_);
        s.literal = literal;
        out.push_back(s);
      };
      if (step.kind == EpilogueStep::Kind::relu) splat("zero" + tag, zeroLiteral());
      if (step.kind == EpilogueStep::Kind::clamp) splat("lo" + tag, step.lo), splat("hi" + tag, step.hi);
      if (step.kind == EpilogueStep::Kind::scale || step.kind == EpilogueStep::Kind::div)
        splat("factor" + tag, step.param.empty() ? step.factor : scalarName_[size_t(scalars++)]);
      const PlannedTensor* addend = step.kind == EpilogueStep::Kind::add ? &inputs_[size_t(added++)] : nullptr;
      for (int r = 0; r < mr; ++r)
        for (int u = 0; u < nr; ++u) {
          const std::string acc = accName(r, u);
          switch (step.kind) {
            case EpilogueStep::Kind::relu: out.push_back(binary(ReduceOp::max, acc, acc, "zero" + tag, false)); break;
            case EpilogueStep::Kind::clamp:
              out.push_back(binary(ReduceOp::max, acc, acc, "lo" + tag, false));
              out.push_back(binary(ReduceOp::min, acc, acc, "hi" + tag, false));
              break;
            case EpilogueStep::Kind::scale: out.push_back(binary(ReduceOp::mul, acc, acc, "factor" + tag, false)); break;
            case EpilogueStep::Kind::div: out.push_back(op(OpKind::Div, acc, lanes_, {acc, "factor" + tag}, false)); break;
            case EpilogueStep::Kind::add: {
              const std::string v = addend->name + "_r" + std::to_string(r) + "_v" + std::to_string(u);
              out.push_back(loadOf(*addend, v, r, u, pred));
              out.push_back(binary(ReduceOp::add, acc, acc, v, false));
              break;
            }
          }
        }
    }
  }

  // Pushes `load` (a load of an operand into dst's type, the contraction's). An operand stored
  // narrower is read as its own lanes and widened exactly: bf16 bits become the upper half of a
  // u32 (zero-extend, shift left by 16), read as f32; i8/u8/i16/u16 extend to i32 by their
  // signedness. A broadcast widens its one element, then splats it. A predicated load's lanes are
  // counted again in the narrow lanes where predicates have the element width (AVX2, NEON masks;
  // k-masks and SVE's govern lanes of any width).
  void pushLoad(ir::Block& out, Stmt load) {
    const auto it = std::find_if(inputs_.begin(), inputs_.end(), [&](const PlannedTensor& t) { return t.name == load.tensor; });
    if (it == inputs_.end() || (!it->spec->bf16 && !it->spec->narrow)) return out.push_back(std::move(load));
    if (load.op == OpKind::LoadBroadcast) {  // the element as a one-lane load, then the splat
      Stmt splat = op(OpKind::Splat, load.dst, load.type, {load.dst + "_elem"}, load.declare);
      load.op = OpKind::Load;
      load.type = VecType{load.type.elem, 1};
      load.dst += "_elem";
      load.declare = true;
      pushLoad(out, std::move(load));
      return out.push_back(std::move(splat));
    }
    const VecType f32 = load.type, bits{it->spec->narrow.value_or(DType::u16), f32.lanes, f32.scalable}, wide{DType::u32, f32.lanes, f32.scalable};
    const std::string dst = load.dst;
    const bool declare = load.declare;
    load.dst = dst + (it->spec->narrow ? "_" + std::string(nameOf(bits.elem)) : "_bf16");
    load.type = bits;
    load.declare = true;
    if (!load.literal.empty()) load.literal = "0";  // +0.0f, or the integer 0
    if (!load.pred.empty() && f32.lanes > 1 && !target_.maskRegisters && !f32.scalable) {
      out.push_back(narrowTail(dst, bits));
      load.pred = out.back().dst;
    }
    const std::string narrowValue = load.dst;
    out.push_back(std::move(load));
    if (it->spec->narrow)  // i32 = the narrow integer, extended by its signedness
      return out.push_back(op(f32.lanes > 1 ? OpKind::Extend : OpKind::Convert, dst, f32, {narrowValue}, declare));
    Stmt widen = op(f32.lanes > 1 ? OpKind::Extend : OpKind::Convert, dst + "_u32", wide, {dst + "_bf16"});
    out.push_back(widen);
    Stmt shift = op(OpKind::ShiftLeft, dst + "_f32bits", wide, {dst + "_u32"});
    shift.part = 16;
    out.push_back(shift);
    out.push_back(op(OpKind::Bitcast, dst, f32, {dst + "_f32bits"}, declare));
  }

  // The partial vector's lanes (tailLo_ + l < tailHi_) as a predicate of `narrow`'s element width,
  // `<prefix>_lanes<bits>`: where predicates are vectors of the element width (AVX2, NEON) a load of
  // narrower elements needs its own.
  Stmt narrowTail(const std::string& prefix, VecType narrow) const {
    Stmt live = op(OpKind::WhileLt, prefix + "_lanes" + std::to_string(bitsOf(narrow.elem)), narrow.mask());
    live.lo = tailLo_;
    live.hi = tailHi_;
    live.partialOnly = true;
    return live;
  }

  // dst = t at (row, vec): a vector when t runs along the vector dim, else one element broadcast.
  Stmt loadOf(const PlannedTensor& t, const std::string& dst, int row, int vec, const std::string& pred) {
    const bool byVec = lanes_.lanes > 1 && dependsOn(t, vdim_);
    if (packing_ && packed_ >= 0 && t.name == inputs_[size_t(packed_)].name) {  // the panel, in order
      Stmt s = op(OpKind::Load, dst, lanes_);
      s.tensor = "panel";
      auto off = stepOffset_.find(kdim_);
      const Index k = sym(loopVar(kdim_)) + Index::constant(off == stepOffset_.end() ? 0 : off->second);
      s.index = (product(k - sym("k0"), panelRow(panelNr_)) + lanesIndex() * vec).simplified();
      if (!pred.empty()) {  // a partial column: the lanes past the extent were not packed
        s.pred = pred;
        s.literal = zeroLiteral();
      }
      return s;
    }
    const bool gathered = byVec && isGathered(t);
    Stmt s = op(gathered ? OpKind::GatherRows : byVec || lanes_.lanes == 1 ? OpKind::Load : OpKind::LoadBroadcast, dst, lanes_);
    s.tensor = t.name;
    s.index = tileAddress(t, row, vec);
    if (gathered) s.stride = withoutStrideLets(stepAlong(t, vdim_));
    if (byVec && !pred.empty()) {
      s.pred = pred;
      s.literal = zeroLiteral();
    }
    return s;
  }

  Stmt op(OpKind k, const std::string& dst, VecType t, std::vector<std::string> args = {}, bool declare = true) const {
    Stmt s = ir::op(k, dst, t, std::move(args));
    s.declare = declare;
    s.rop = ReduceOp::add;
    return s;
  }
  // dst = rop(a, b); min/max: b wins ties and NaN (plan.h), so max(acc, 0) maps NaN to 0.
  Stmt binary(ReduceOp rop, const std::string& dst, const std::string& a, const std::string& b, bool declare) const {
    Stmt s = op(OpKind::Binary, dst, lanes_, {a, b}, declare);
    s.rop = rop;
    return s;
  }
  std::string zeroLiteral() const { return c_.dtype == DType::f32 ? "0.0f" : c_.dtype == DType::f64 ? "0.0" : "0"; }
  std::string dimName(int d) const { return c_.dims[size_t(d)].name; }
  void note(const std::string& s) { plan_.summary.push_back(s); }

  // ---- documentation ----
  // The layout "pack": "ahead" would give `t` ("[k][j]"), when `t` could be packed ahead and is not
  // already laid out so (plain dims, one per dimension, the vector dim among them); else "".
  std::string packedOrderIfDifferent(const ContractionTensor& t) const {
    if (t.packedFrom || vdim_ < 0) return "";
    std::vector<int> dims;
    for (const AffineIndex& ix : t.index) {
      const int d = ix.plainDim();
      if (d < 0 || std::find(dims.begin(), dims.end(), d) != dims.end()) return "";
      dims.push_back(d);
    }
    if (std::find(dims.begin(), dims.end(), vdim_) == dims.end()) return "";
    std::vector<int> packed;
    for (bool reduction : {false, true})
      for (size_t d = 0; d < c_.dims.size(); ++d)
        if (c_.dims[d].reduction == reduction && int(d) != vdim_ && std::find(dims.begin(), dims.end(), int(d)) != dims.end()) packed.push_back(int(d));
    packed.push_back(vdim_);
    if (packed == dims) return "";
    std::string text;
    for (int d : packed) text += "[" + c_.dims[size_t(d)].name + "]";
    return text;
  }
  std::string indexText(const ContractionTensor& t) const { return indexText(t.index); }
  static std::string extentsText(const ContractionTensor& t) {
    std::string s;
    for (const Extent& e : t.extents) s += "[" + (e.isStatic() ? std::to_string(*e.value) : e.name) + "]";
    return s;
  }
  static std::string indexText(const std::vector<AffineIndex>& index) {
    std::string s;
    for (const AffineIndex& ix : index) s += "[" + ix.text + "]";
    return s;
  }
  // The same index over d0, d1, ... (the exec driver's reference reads it).
  std::string semanticIndex(const ContractionTensor& t) const {
    std::string s;
    for (const AffineIndex& ix : t.index) {
      std::string e;
      for (const AffineIndex::Term& term : ix.terms)
        e += (e.empty() ? "" : " + ") + (term.coef != 1 ? std::to_string(term.coef) + " * " : "") + "d" + std::to_string(term.dim);
      if (ix.constant || e.empty()) e += (e.empty() ? "" : " + ") + std::to_string(ix.constant);
      s += (s.empty() ? "" : ",") + e;
    }
    return s;
  }

  void document() {
    auto& sem = plan_.semantics;
    sem.push_back({"dims", std::to_string(c_.dims.size())});
    for (size_t d = 0; d < c_.dims.size(); ++d) {
      sem.push_back({"dim" + std::to_string(d), extent_[d]});
      sem.push_back({"dim" + std::to_string(d) + ".kind", c_.dims[d].reduction ? "reduction" : "parallel"});
      sem.push_back({"dim" + std::to_string(d) + ".name", c_.dims[d].name});
    }
    for (const PlannedTensor& t : inputs_) sem.push_back({t.name + ".index", semanticIndex(*t.spec)});
    for (const PlannedTensor& t : inputs_)
      if (t.spec->bf16) sem.push_back({t.name + ".storage", "bf16"});
    for (const PlannedTensor& t : inputs_)
      if (t.spec->padded()) sem.push_back({t.name + ".padding", "zero"});
    for (const PlannedTensor& t : inputs_)
      if (t.block) {  // the exec driver's reference reads the blocked copy (see PlannedTensor)
        sem.push_back({t.name + ".block", std::to_string(t.block)});
        sem.push_back({t.name + ".block_stride", t.blockStride.str()});
      }
    sem.push_back({"out.index", semanticIndex(c_.output)});
    sem.push_back({"operands", "in0,in1"});
    sem.push_back({"init", c_.init == ContractionInit::zero ? "zero" : c_.init == ContractionInit::output ? "output" : "in" + std::to_string(init_)});
    std::string steps;
    int added = init_ >= 0 ? init_ + 1 : 2, scalars = 0;
    std::string formula = "init";
    for (const EpilogueStep& s : c_.epilogue) {
      std::string step;
      switch (s.kind) {
        case EpilogueStep::Kind::relu: step = "relu"; formula = "max(" + formula + ", 0)"; break;
        case EpilogueStep::Kind::clamp: step = "clamp(" + s.lo + "," + s.hi + ")"; formula = "clamp(" + formula + ", " + s.lo + ", " + s.hi + ")"; break;
        case EpilogueStep::Kind::scale:
          step = "scale(" + (s.param.empty() ? s.factor : scalarName_[size_t(scalars++)]) + ")";
          formula = (s.param.empty() ? s.factor : s.param) + " * (" + formula + ")";
          break;
        case EpilogueStep::Kind::div:
          step = "div(" + (s.param.empty() ? s.factor : scalarName_[size_t(scalars++)]) + ")";
          formula = "(" + formula + ") / " + (s.param.empty() ? s.factor : s.param);
          break;
        case EpilogueStep::Kind::add:
          step = "add(in" + std::to_string(added++) + ")";
          formula = formula + " + " + s.operand.name + indexText(c_.output);
          break;
      }
      steps += (steps.empty() ? "" : ", ") + step;  // commas outside parentheses: CMake lists split at ";"
    }
    sem.push_back({"epilogue", steps});
    if (sequential()) sem.push_back({"order", "sequential"});

    std::string parallel, reduction;
    for (const ContractionDim& d : c_.dims) {
      const std::string e = d.name + " < " + (d.extent.isStatic() ? std::to_string(*d.extent.value) : d.extent.name);
      (d.reduction ? reduction : parallel) += ((d.reduction ? reduction : parallel).empty() ? "" : ", ") + e;
    }
    const std::string init = c_.init == ContractionInit::zero     ? "0"
                             : c_.init == ContractionInit::output ? c_.output.name + indexText(c_.output)
                                                                  : c_.initOperand.name + indexText(c_.initOperand);
    const std::string sum = "sum over " + (reduction.empty() ? std::string("nothing") : reduction) + " of " + c_.operands[0].name +
                            indexText(c_.operands[0]) + " * " + c_.operands[1].name + indexText(c_.operands[1]);
    std::string expr = formula;
    expr.replace(expr.find("init"), 4, "(" + init + " + " + sum + ")");
    plan_.overview = "contraction: " + c_.output.name + indexText(c_.output) + " = " + expr;
    auto& doc = plan_.apiDoc;
    doc.push_back("/// " + spec_.name + ": " + c_.output.name + indexText(c_.output) + " = " + expr);
    doc.push_back("///   for " + parallel + "   (" + std::string(nameOf(c_.dtype)) + ")");
    if (!spec_.description.empty()) doc.push_back("/// " + spec_.description);
    doc.push_back("///");
    doc.push_back("/// Tensors are indexed [outermost]...[innermost], dense row-major unless the spec gives strides.");
    if (sequential())
      doc.push_back("/// order sequential: each sum adds its products one by one in the order of the reduction dims, each product and sum rounded (no fused multiply-add): bit for bit the plain C loop compiled without floating-point contraction.");
    else if (isFloat(c_.dtype))
      doc.push_back("/// Sums may be reassociated and use fused multiply-adds: results match a double-precision sum to a few ulps times the length.");
    else
      doc.push_back("/// Products and sums are exact modulo 2^32 (they wrap like uint32_t arithmetic), so the order of the sum does not matter.");
    if (!c_.epilogue.empty() && isFloat(c_.dtype)) doc.push_back("/// NaN: relu(NaN) = +0; clamp(NaN) = its min (like max(x, lo) then min(x, hi) with the bound winning).");
    doc.push_back("/// No alignment is required. The output must not overlap any input" +
                  std::string(c_.init == ContractionInit::output ? " (it is read once, before it is written)." : "."));
    for (const ContractionTensor& t : c_.operands)
      if (t.bf16)
        doc.push_back("/// " + t.name + " holds bfloat16 values as their bits (uint16_t: the upper half of the float each stands for); they are widened exactly, products and sums are f32.");
      else if (t.narrow)
        doc.push_back("/// " + t.name + " holds " + std::string(nameOf(*t.narrow)) + " values, widened exactly to i32 where they are read.");
    for (const ContractionTensor& t : c_.operands)
      if (t.padded())
        doc.push_back("/// " + t.name + " is padded: its extents are " + extentsText(t) + ", and an index outside them reads a zero (the result is the kernel's over a zero-padded copy).");
    for (const ContractionTensor& t : c_.operands)
      if (t.packedFrom)
        doc.push_back("/// " + t.name + " is " + t.packedFrom->name + indexText(t.packedFrom->index) + " packed ahead (\"pack\": \"ahead\") by " + spec_.name +
                      "_pack_" + t.packedFrom->name + "(), below: made once, read by every call.");
    plan_.companions = packAheadFunctions(spec_);
    for (const ContractionTensor& t : c_.operands)
      if (const std::string order = packedOrderIfDifferent(t); !order.empty())
        note("hint: " + t.name + indexText(t) + " is not laid out in the order the kernel reads it; weights used by many calls can be packed ahead (\"pack\": \"ahead\") into " +
             t.name + "_packed" + order + ", read in order");
    for (const ContractionTensor& t : c_.operands)
      if (t.packedFrom)
        note("packed ahead: " + t.name + indexText(t) + " is " + t.packedFrom->name + indexText(t.packedFrom->index) + " copied once by " + spec_.name + "_pack_" +
             t.packedFrom->name + "() (" +
             (t.packBlock ? "in blocks of " + std::to_string(t.packBlock) + " along " + dimName(vdim_) + ", each dense" : "dense") + ", the vector dim innermost)");

    note("register tile: " + std::to_string(mr_) + " x " + std::to_string(nr_) + " vectors of " + toString(lanes_) + " (" +
         std::to_string(mr_ * nr_) + " accumulators) along " + (tdim_ >= 0 ? dimName(tdim_) + " x " : "") + dimName(vdim_));
    std::string red;
    for (const ContractionDim& d : c_.dims)
      if (d.reduction) red += (red.empty() ? "" : ", ") + d.name;
    if (const std::string poor = poorPlanWarning(red); !poor.empty()) note(poor);
    if (group_ == 4)
      note("per four steps of " + dimName(kdim_) + ": " +
           quadInstruction() + " (four " + (inputs_[0].spec->narrow == inputs_[1].spec->narrow ? std::string(nameOf(*inputs_[0].spec->narrow)) + " x " + std::string(nameOf(*inputs_[0].spec->narrow)) : std::string("u8 x i8")) +
           " products per i32 lane, wrapping), the broadcast operand's quad as one u32" +
           offsetNote());
    else if (intPairs())
      note("per two steps of " + dimName(kdim_) + ": " + pairInstruction() + " (two exact i16 x i16 products per i32 lane, the operands' values as 16 bits, wrapping), the broadcast operand's pair as one u32" +
           (inputs_[size_t(1 - packed_)].spec->narrow == DType::i16 ? "" : " (its two bytes splat as a u16, each byte widened to 16 bits)"));
    else if (group_ == 2)
      note("per two steps of " + dimName(kdim_) + ": " + pairInstruction() + " (two bf16 products per f32 lane" +
           (target_.module == LoweringModule::x86 ? "" : ", the pair summed first, each step rounded to odd") +
           "; subnormal inputs and sums flushed to zero), the broadcast operand's pair as one u32");
    else note("per step of " + (red.empty() ? std::string("the tile") : red) + ": " + (hasFma() ? "fused multiply-adds" : "multiplies and adds") +
         "; init and epilogue fused into the tile (each output element is written once)");
    for (const ContractionTensor& t : c_.operands)
      if (t.padded())
        note("padding: " + t.name + indexText(t) + " reads zeros outside its extents " + extentsText(t) +
             "; a tile whose reads all fall inside runs unchecked, the others (the border) check each read of " + t.name);
    note("tails: " + dimName(vdim_) + ": " + vectorTailText() + (tdim_ >= 0 ? "; " + dimName(tdim_) + ": " + rowTailText() : ""));
    printNest();
  }

  // The explain note of offset quads (see offsetBytes), empty without them.
  std::string offsetNote() const {
    if (!offsetBytes()) return "";
    const DType broadcast = *inputs_[size_t(1 - packed_)].spec->narrow, panel = *inputs_[size_t(packed_)].spec->narrow;
    const bool plus = broadcast == DType::i8, x86 = target_.module == LoweringModule::x86;
    return "; " + std::string(nameOf(broadcast)) + " x " + std::string(nameOf(panel)) + (x86 ? "" : " without usdot") +
           ": the broadcast bytes xor 0x80 (each " + (plus ? "+ 128, read unsigned" : "- 128, read signed") +
           (x86 && !plus ? "; the panel's bytes are vpdpbusd's unsigned ones" : "") + "), and " + (plus ? "128" : "-128") +
           " x each panel column's sum over the block (" + quadInstruction() +
           " of 0x80 bytes, while packing) taken from the accumulators at each tile's start";
  }

  std::string vectorTailText() const {
    if (lanes_.lanes == 1) return nr_ > 1 && nest_.vectorTail != SplitTail::round_up ? "one element at a time" : "none";
    switch (nest_.vectorTail) {
      case SplitTail::guard: return std::string(nr_ > 1 ? "single vectors" + columnTailRowsText() + ", then " : "") + "one lane at a time (guard)";
      case SplitTail::shift_inwards: return "one whole tile ending at the extent (shift_inwards; narrower: single vectors, then one masked partial vector)";
      case SplitTail::round_up: return "none (round_up: whole tiles)";
      default: return std::string(nr_ > 1 ? "single vectors, then " : "") + "one masked partial vector" + columnTailRowsText();
    }
  }
  std::string columnTailRowsText() const {
    return columnTailMr_ > mr_ ? " (in tiles of " + std::to_string(columnTailMr_) + " x 1 vectors)" : "";
  }
  std::string rowTailText() const {
    switch (nest_.rowTail) {
      case SplitTail::shift_inwards: return "one whole tile ending at the extent (shift_inwards; fewer rows: tiles of 4, 2, 1 rows)";
      case SplitTail::round_up: return "none (round_up: whole tiles)";
      default: return mr_ > 1 ? "tiles of 4, 2, 1 rows" : "none";
    }
  }

  // The loop nest after scheduling, like the seed's pseudo-code (summary lines).
  void printNest() {
    note("loop nest (tails left out):");
    std::string pad = "  ";
    auto line = [&](const std::string& s) { note(pad + s); };
    const std::string lanes = lanes_.lanes > 1 ? toString(lanes_) : "1 lane";
    for (const NestLoop& l : nest_.outer) {
      switch (l.kind) {
        case NestLoop::Kind::vectorTiles:
          line("for " + l.name + ": tiles of " + std::to_string(nr_) + " x " + lanes + " along " + dimName(l.dim));
          if (packed_ >= 0) {
            pad += "  ";
            line("for blocks of " + std::to_string(kc_) + " steps of " + dimName(kdim_) + ": pack " + inputs_[size_t(packed_)].spec->name + " into the panel");
          }
          break;
        case NestLoop::Kind::tileRows: line("for " + l.name + ": tiles of " + std::to_string(mr_) + " rows along " + dimName(l.dim)); break;
        case NestLoop::Kind::dim: line("for " + l.name); break;
        case NestLoop::Kind::blockOuter: line("for " + l.name + ": blocks of " + std::to_string(l.factor) + " along " + dimName(l.dim)); break;
        case NestLoop::Kind::blockInner: line("for " + l.name + " in the block"); break;
      }
      pad += "  ";
    }
    const std::string tileName = "sums[" + std::to_string(mr_) + "][" + std::to_string(nr_) + "]";
    const std::string init = c_.init == ContractionInit::zero ? "0" : c_.init == ContractionInit::output ? c_.output.name + indexText(c_.output)
                                                                                                        : c_.initOperand.name + indexText(c_.initOperand);
    line(tileName + " = " + init + (nest_.computeAt.empty() ? "" : "   (compute_at " + nest_.computeAt + ": in registers)"));
    // Dot-product tiles take a group of steps per instruction (dotReduction).
    const std::string groupSteps = std::to_string(group_) + " steps";
    const std::string dotIns = group_ == 2 ? pairInstruction() : group_ == 4 ? quadInstruction() : "";
    for (int d : nest_.reductions) {
      auto u = nest_.unroll.find(d);
      line("for " + dimName(d) + (u == nest_.unroll.end() ? "" : ", unrolled by " + std::to_string(u->second)) +
           (group_ && d == kdim_ ? ", " + groupSteps + " at a time" : ""));
      pad += "  ";
    }
    int vectorLoads = 0, gathers = 0, broadcasts = 0;
    for (int k = 0; k < 2; ++k) {  // one load per distinct (row, vector) an operand depends on (reductionStep)
      const PlannedTensor& t = inputs_[size_t(k)];
      const bool byRow = dependsOn(t, tdim_), byVec = dependsOn(t, vdim_);
      const int loads = (byVec ? nr_ : 1) * (byRow ? mr_ : 1);
      (byVec && lanes_.lanes > 1 ? isGathered(t) ? gathers : vectorLoads : broadcasts) += loads;
    }
    const std::string loads = lanes_.lanes == 1 ? std::to_string(broadcasts) + " loads, "  // one lane: every value is one element
                                                : (vectorLoads || !gathers ? std::to_string(vectorLoads) + " vector loads, " : "") +
                                                      (gathers ? std::to_string(gathers) + " gathers (strided lanes), " : "") + std::to_string(broadcasts) + " broadcasts, ";
    line(tileName + " += " + c_.operands[0].name + indexText(c_.operands[0]) + " * " + c_.operands[1].name + indexText(c_.operands[1]) + ": " + loads +
         std::to_string(mr_ * nr_) + (group_ ? " " + dotIns + " (" + groupSteps + " each)" : hasFma() ? " FMAs" : " multiply-adds"));
    pad.resize(pad.size() - 2 * nest_.reductions.size());
    std::string result = "sums";
    for (const EpilogueStep& e : c_.epilogue)
      result = std::string(e.kind == EpilogueStep::Kind::relu    ? "relu"
                           : e.kind == EpilogueStep::Kind::clamp ? "clamp"
                           : e.kind == EpilogueStep::Kind::scale ? "scale"
                           : e.kind == EpilogueStep::Kind::div   ? "div"
                                                                 : "add") +
               "(" + result + ")";
    line(c_.output.name + indexText(c_.output) + " = " + result);
  }

  const KernelSpec& spec_;
  const ContractionSpec& c_;
  const Target& target_;
  ir::Plan plan_;
  std::vector<std::string> extent_;       // dim d's extent symbol
  std::vector<ir::Param> extents_;        // runtime extent and stride parameters, in signature order
  std::vector<std::string> scalarName_;   // scale parameters' internal names
  std::vector<PlannedTensor> inputs_;     // operands, init operand, added tensors
  ir::Block strideLets_;                  // the named strides (nameStrides)
  PlannedTensor out_;
  std::map<std::string, Index> bases_;  // the current tile's tensor bases (tileBases)
  int init_ = -1;  // index of the init operand in inputs_
  int vdim_ = -1, tdim_ = -1;
  VecType lanes_;
  int mr_ = 1, nr_ = 1;
  // Rows per tile in the vector dim's one-vector tail columns (0: mr_; only the default nest).
  static constexpr int kColumnTailRows = 8;
  int columnTailMr_ = 0;
  int packed_ = -1;       // the operand packed into the panel (choosePacking), -1: none
  int kdim_ = -1;         // the reduction dim a panel blocks (the nest's innermost)
  std::vector<int> outerK_;  // the other reduction dims (a window: static extents), every step of them in the panel
  int64_t outerSteps_ = 1;   // their steps' product
  Index broadcastWindow_;    // while planning a windowed dot reduction: the broadcast operand's window offset (its local <name>_window)
  int64_t kc_ = 0;        // steps of it per panel
  bool packing_ = false;  // while planning the tiles of a packed column
  int panelNr_ = 0;  // the panel's vectors per step while packing_
  int transposed_ = -1;   // an operand read through a transposing panel (its vector dim strided)
  std::array<bool, 2> gathered_{false, false};  // operands read with gathers (strided, no panel)
  ContractionNest nest_;  // the loops around the tile (the schedule's, or defaultNest)
  Index tailLo_, tailHi_;       // the vector dim's partial vector: lanes tailLo_ + l < tailHi_
  int group_ = 0;               // steps per dot-product instruction: 2 bf16 or i16 pairs, 4 byte quads (dotGroup)
  std::string notContiguous_;  // why the vector dim is one lane wide ("" if it is not)
  bool shiftedVec_ = false, shiftedRow_ = false;  // planning a shifted last tile (j_last, i_last)
  std::map<int, int64_t> stepOffset_;  // reduction dim -> offset of the unrolled copy being planned
  bool checkPadding_ = false;  // planning a border tile: reads of padded operands are checked
  // 128 KiB (Eigen's limit for stack temporaries), not an L1-sized 32: the panel streams well from
  // L2, and every block of KC steps reloads and stores the output's tiles once more (1024^3 1.2x
  // faster; measurements in docs/design.md). A transposing copy writes its panel one lane at a
  // time, which pays only while the panel stays in L1.
  static constexpr int64_t kPanelBytes = 128 * 1024;
  static constexpr int64_t kL2Bytes = 1 << 20;  // a common L2 (Zen 4, Neoverse N2 / V1; Intel's are 1.25-2 MiB)
  static constexpr int64_t kMaxVscale = 16;  // SVE's longest vectors: 2048 bits
  static constexpr int64_t kTransposedPanelBytes = 32 * 1024;
};

}  // namespace

ir::Plan buildContractionPlan(const KernelSpec& spec, const Target& target) { return ContractionBuilder(spec, target).build(); }

}  // namespace simdgen
