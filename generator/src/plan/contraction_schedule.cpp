// SPDX-License-Identifier: Apache-2.0
// Replays a contraction's Halide-style schedule (seed 002: split, reorder, vectorize, unroll,
// compute_at, store_at, plus pack) over the output's loops and turns it into the nest the
// register-tile builder emits, refusing with the directive's JSON pointer what it cannot build.
#include "plan/contraction_schedule.h"

#include <algorithm>

#include "plan/reduce_builder.h"  // PlanError

namespace simdgen {

namespace {

std::string inQuotes(const std::string& s) { return "\"" + s + "\""; }

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

const char* tailName(SplitTail t) {
  switch (t) {
    case SplitTail::automatic: return "auto";
    case SplitTail::predicate: return "predicate";
    case SplitTail::guard: return "guard";
    case SplitTail::shift_inwards: return "shift_inwards";
    case SplitTail::round_up: return "round_up";
  }
  return "?";
}

// A loop of the output stage while the directives are replayed.
struct Loop {
  std::string name;
  int dim = 0;
  enum class Part { whole, outer, inner } part = Part::whole;
  int64_t factor = 0, vectors = 0;  // split parts: the split's factor (or vectors)
  SplitTail tail = SplitTail::automatic;
  std::string splitPointer, vectorizePointer, unrollPointer;
  bool vectorized = false, unrolled = false;
  std::optional<int64_t> width;
};

class Scheduler {
 public:
  Scheduler(const ContractionSpec& c, const ContractionSchedule& s, const ScheduleTarget& t) : c_(c), s_(s), t_(t) {}

  ContractionNest run() {
    for (const AffineIndex& ix : c_.output.index) {
      Loop l;
      l.name = c_.dims[size_t(ix.plainDim())].name;
      l.dim = ix.plainDim();
      loops_.push_back(l);
    }
    vdim_ = c_.output.index.back().plainDim();
    for (const ScheduleDirective& d : s_.output) apply(d);
    nest_.scheduled = true;
    nest_.schedulePointer = s_.pointer;
    nest_.vdim = vdim_;
    placeTile();
    outerLoops();
    for (size_t d = 0; d < c_.dims.size(); ++d)
      if (c_.dims[d].reduction) nest_.reductions.push_back(int(d));
    for (const ScheduleDirective& d : s_.init) inner(d, false);
    for (const ScheduleDirective& d : s_.update) inner(d, true);
    packing();
    return nest_;
  }

 private:
  [[noreturn]] void fail(const std::string& at, const std::string& message) const { throw PlanError(message, at); }
  // Target-dependent problems say which target (a schedule may serve several).
  std::string on() const { return "on " + t_.name + ": "; }

  std::vector<std::string> loopNames() const {
    std::vector<std::string> out;
    for (const Loop& l : loops_) out.push_back(l.name);
    return out;
  }
  int dimNamed(const std::string& name) const {
    for (size_t d = 0; d < c_.dims.size(); ++d)
      if (c_.dims[d].name == name) return int(d);
    return -1;
  }
  // The output loop called `name`; a reduction dim or an unknown name is an error.
  size_t find(const std::string& name, const std::string& at) const {
    for (size_t k = 0; k < loops_.size(); ++k)
      if (loops_[k].name == name) return k;
    const int d = dimNamed(name);
    if (d >= 0 && c_.dims[size_t(d)].reduction)
      fail(at, "dim " + inQuotes(name) + " is a reduction dim: every output element needs its whole sum before the epilogue, so reduction loops run "
                   "inside compute_at, scheduled in \"update\"; the output's loops here are: " + joined(loopNames()));
    fail(at, "unknown loop " + inQuotes(name) + (d >= 0 ? " (dim " + inQuotes(name) + " was split)" : "") + "; the output's loops here are: " + joined(loopNames()));
  }

  void split(size_t k, const std::string& outer, const std::string& inner, int64_t factor, int64_t vectors, SplitTail tail, const std::string& at) {
    Loop& l = loops_[k];
    if (l.part != Loop::Part::whole)
      fail(at, "loop " + inQuotes(l.name) + " is part of the split at " + l.splitPointer + "; each dim is split at most once");
    for (const std::string& name : {outer, inner}) {
      const int d = dimNamed(name);
      const bool taken = std::any_of(loops_.begin(), loops_.end(), [&](const Loop& o) { return o.name == name && &o != &l; });
      if (taken || (d >= 0 && d != l.dim)) fail(at, "loop name " + inQuotes(name) + " is already the name of a " + (taken ? "loop" : "dim") + "; choose another");
    }
    Loop o = l, i = l;
    o.name = outer, o.part = Loop::Part::outer;
    i.name = inner, i.part = Loop::Part::inner;
    o.factor = i.factor = factor, o.vectors = i.vectors = vectors, o.tail = i.tail = tail;
    o.splitPointer = i.splitPointer = at;
    loops_[k] = o;
    loops_.insert(loops_.begin() + long(k) + 1, i);
  }

  void apply(const ScheduleDirective& d) {
    using K = ScheduleDirective::Kind;
    switch (d.kind) {
      case K::split: split(find(d.loop, d.pointer + "/split"), d.outer, d.inner, d.factor, d.vectors, d.tail, d.pointer); break;
      case K::reorder: {
        std::vector<size_t> at;
        for (size_t k = 0; k < d.order.size(); ++k) at.push_back(find(d.order[k], d.pointer + "/reorder/" + std::to_string(k)));
        std::vector<Loop> moved;
        for (size_t k = d.order.size(); k-- > 0;) moved.push_back(loops_[at[k]]);  // outermost first
        std::sort(at.begin(), at.end());
        for (size_t k = 0; k < at.size(); ++k) loops_[at[k]] = moved[k];
        break;
      }
      case K::vectorize: {
        if (const int dd = dimNamed(d.loop); dd >= 0 && c_.dims[size_t(dd)].reduction) vectorizeReduction(d);
        size_t k = find(d.loop, d.pointer + "/vectorize");
        for (const Loop& l : loops_)
          if (l.vectorized) fail(d.pointer + "/vectorize", "loop " + inQuotes(l.name) + " is already vectorized (" + l.vectorizePointer + "); one loop is");
        if (loops_[k].part == Loop::Part::whole) {  // Halide: vectorize(x, n) splits x by n
          split(k, d.loop, d.loop + "_vi", d.width.value_or(0), d.width ? 0 : 1, SplitTail::automatic, d.pointer);
          ++k;
        } else if (loops_[k].part == Loop::Part::outer) {
          fail(d.pointer + "/vectorize", "loop " + inQuotes(d.loop) + " is the outer loop of a split: vectorize its inner loop");
        }
        loops_[k].vectorized = true;
        loops_[k].width = d.width;
        loops_[k].vectorizePointer = d.pointer;
        break;
      }
      case K::unroll: {
        size_t k = find(d.loop, d.pointer + "/unroll");
        if (d.factor) {  // Halide: unroll(x, n) splits x by n and unrolls the inner loop
          if (loops_[k].part != Loop::Part::whole)
            fail(d.pointer + "/factor", "loop " + inQuotes(d.loop) + " is already split: unroll its inner loop without a factor");
          split(k, d.loop, d.loop + "_ui", d.factor, 0, SplitTail::automatic, d.pointer);
          ++k;
        } else if (loops_[k].part != Loop::Part::inner) {
          fail(d.pointer + "/unroll", "loop " + inQuotes(d.loop) + " is not the inner loop of a split: unroll that, or give a factor ({\"unroll\": \"" + d.loop + "\", \"factor\": 4})");
        }
        loops_[k].unrolled = true;
        loops_[k].unrollPointer = d.pointer;
        break;
      }
    }
  }

  [[noreturn]] void vectorizeReduction(const ScheduleDirective& d) const {
    fail(d.pointer + "/vectorize", "vectorizing the reduction dim " + inQuotes(d.loop) +
                                       " needs a reduction strategy (partial sums across lanes, combined at the end), which contraction does not offer: "
                                       "each sum lives in one lane of the register tile; vectorize the output's innermost dim " + inQuotes(c_.dims[size_t(vdim_)].name));
  }

  // The register tile: the loops inside compute_at, all vectorized or unrolled, over the vector
  // dim and at most one other dim.
  void placeTile() {
    const std::string at = s_.pointer + "/output";
    int vec = -1;
    for (size_t k = 0; k < loops_.size(); ++k)
      if (loops_[k].vectorized) vec = int(k);
    if (vec >= 0) {
      const Loop& v = loops_[size_t(vec)];
      if (v.dim != vdim_)
        fail(v.vectorizePointer + "/vectorize", "vectorize " + inQuotes(v.name) + ": the vectorized loop must run along the output's innermost dim " +
                                                   inQuotes(c_.dims[size_t(vdim_)].name) + ", along which the output is contiguous");
      if (!t_.notContiguous.empty()) fail(v.vectorizePointer + "/vectorize", "vectorize " + inQuotes(v.name) + ": " + t_.notContiguous);
      if (vec + 1 != int(loops_.size()))
        fail(v.vectorizePointer + "/vectorize", "the vectorized loop " + inQuotes(v.name) + " must be innermost; reorder it first (inside it now: " + loops_.back().name + ")");
    }
    // compute_at: given, or just outside the innermost vectorized / unrolled loops.
    int ca = int(loops_.size()) - 1;
    if (!s_.computeAt.empty()) {
      ca = int(find(s_.computeAt, s_.computeAtPointer));
    } else {
      while (ca >= 0 && (loops_[size_t(ca)].vectorized || loops_[size_t(ca)].unrolled)) --ca;
    }
    if (ca < 0) fail(at, "the register tile would hold every output element: keep at least one loop outside it (compute_at)");
    if (!s_.storeAt.empty() && s_.storeAt != loops_[size_t(ca)].name) {
      find(s_.storeAt, s_.storeAtPointer);
      fail(s_.storeAtPointer, "store_at " + inQuotes(s_.storeAt) + " would keep the sums of several register tiles in memory; simdgen keeps a tile's sums in registers, "
                                                                  "so they are stored where they are computed: store_at must be compute_at's loop " + inQuotes(loops_[size_t(ca)].name));
    }
    nest_.computeAt = loops_[size_t(ca)].name;
    ca_ = size_t(ca);
    for (size_t k = 0; k < loops_.size(); ++k) {
      const Loop& l = loops_[k];
      if (k > ca_ && !l.vectorized && !l.unrolled)
        fail(s_.computeAt.empty() ? at : s_.computeAtPointer,
             "loop " + inQuotes(l.name) + " is inside compute_at " + inQuotes(nest_.computeAt) + " but neither vectorized nor unrolled: the loops inside compute_at "
             "form the register tile; unroll it, or compute at a loop inside it");
      if (k <= ca_ && l.unrolled)
        fail(l.unrollPointer + "/unroll", "unroll " + inQuotes(l.name) + ": it runs outside compute_at " + inQuotes(nest_.computeAt) +
                                              "; only the register tile's loops (inside compute_at) and the update's reduction loops are unrolled");
    }
    // The tile's loops: one per dim (a dim is split once), the vector dim's and one more.
    const Loop* vtile = nullptr;
    const Loop* ttile = nullptr;
    for (size_t k = ca_ + 1; k < loops_.size(); ++k) {
      const Loop& l = loops_[k];
      if (l.dim == vdim_) {
        vtile = &l;
      } else if (!ttile) {
        ttile = &l;
      } else {
        fail(l.unrollPointer + "/unroll", "the register tile would span " + inQuotes(ttile->name) + ", " + inQuotes(l.name) +
                                              (vtile ? " and " + inQuotes(vtile->name) : "") + ": a tile runs along the vector dim and at most one other dim");
      }
    }
    if (!vtile)
      for (size_t k = 0; k <= ca_; ++k)
        if (loops_[k].dim == vdim_ && loops_[k].part != Loop::Part::whole)
          fail(loops_[k].splitPointer, "the output's innermost dim " + inQuotes(c_.dims[size_t(vdim_)].name) + " is split outside the register tile; "
                                       "split it for the tile (its inner loop vectorized or unrolled inside compute_at) or not at all");
    // Lanes and NR.
    const bool vectorized = vtile && vtile->vectorized;
    nest_.vectorized = vectorized && t_.lanes > 1;
    int64_t perVector = 1;  // hardware vectors per schedule vector
    if (vectorized && t_.lanes > 1) {
      if (vtile->width && t_.scalable)
        fail(vtile->vectorizePointer + "/width", on() + "vectors are scalable (their length is known at run time): the width must be \"native\"");
      if (vtile->width && *vtile->width % t_.lanes != 0)
        fail(vtile->vectorizePointer + "/width", on() + "a width of " + std::to_string(*vtile->width) + " lanes is not a multiple of the target's " +
                                                     std::to_string(t_.lanes) + " lanes: vectors narrower than the target's are not supported");
      perVector = vtile->width ? *vtile->width / t_.lanes : 1;
    }
    const int lanes = nest_.vectorized ? t_.lanes : 1;
    if (vtile) {
      if (vtile->vectors && !vectorized) fail(vtile->splitPointer + "/vectors", "a split in \"vectors\" needs its inner loop vectorized; give a \"factor\" instead");
      if (vtile->vectors) {
        nest_.nr = int(vtile->vectors * perVector);
      } else if (t_.scalable && vectorized) {
        fail(vtile->splitPointer + "/factor", on() + "the vector length is known at run time: split " + inQuotes(c_.dims[size_t(vdim_)].name) +
                                                  " in \"vectors\" (of the native width), not in elements");
      } else {
        if (vtile->factor % (lanes * perVector) != 0)
          fail(vtile->splitPointer + "/factor", on() + "the factor " + std::to_string(vtile->factor) + " of the vectorized split is not a multiple of the vector width (" +
                                                    std::to_string(lanes * perVector) + " lanes)");
        nest_.nr = int(vtile->factor / lanes);
      }
      nest_.vectorTail = tailOf(*vtile, true);
    } else {
      nest_.vectorTail = nest_.vectorized ? SplitTail::predicate : SplitTail::guard;
    }
    if (ttile) {
      if (ttile->vectors) fail(ttile->splitPointer + "/vectors", "only the vectorized loop's split is counted in vectors; give a \"factor\"");
      nest_.tdim = ttile->dim;
      nest_.mr = int(ttile->factor);
      nest_.rowTail = tailOf(*ttile, false);
    }
    if (nest_.mr * nest_.nr > 64)
      fail(at, "the register tile " + std::to_string(nest_.mr) + " x " + std::to_string(nest_.nr) + " has more than 64 accumulators");
    const int need = tileRegisters(nest_.mr, nest_.nr, t_.fma);
    if (need > t_.registers)
      fail(at, on() + "the register tile of " + std::to_string(nest_.mr) + " x " + std::to_string(nest_.nr) + " vectors needs " + std::to_string(nest_.mr * nest_.nr) +
                   " accumulators + " + std::to_string(nest_.nr) + " operand vectors + 1 broadcast" + (t_.fma ? "" : " + 1 product") + " = " + std::to_string(need) +
                   " vector registers; the target has " + std::to_string(t_.registers) + ": split into a smaller tile");
  }

  SplitTail tailOf(const Loop& l, bool vectorDim) const {
    const std::string at = l.splitPointer + "/tail";
    SplitTail tail = l.tail;
    if (tail == SplitTail::automatic) return vectorDim && nest_.vectorized ? SplitTail::predicate : SplitTail::guard;
    if (tail == SplitTail::predicate && !(vectorDim && l.vectorized))
      fail(at, "tail predicate masks the lanes of the vectorized loop; " + inQuotes(l.name) + " is not vectorized: use guard, shift_inwards or round_up");
    if (tail == SplitTail::predicate && !nest_.vectorized) return SplitTail::guard;  // one lane: nothing to mask
    if (tail == SplitTail::round_up) checkRoundUp(l);
    if (tail == SplitTail::shift_inwards && c_.init == ContractionInit::output)
      fail(at, "shift_inwards recomputes the outputs where the last tile overlaps the one before, and init \"output\" (C +=) would add their sums twice: use guard or predicate");
    return tail;
  }

  void checkRoundUp(const Loop& l) const {
    const int64_t factor = l.vectors ? l.vectors * std::max(1, t_.lanes) : l.factor;
    const Extent& e = c_.dims[size_t(l.dim)].extent;
    const std::string at = l.splitPointer + "/tail";
    if (l.vectors && t_.scalable) fail(at, on() + "round_up needs whole tiles, but the tile's width depends on the vector length (known at run time): use predicate");
    if (!e.isStatic())
      fail(at, "round_up computes whole tiles only, but dim " + inQuotes(c_.dims[size_t(l.dim)].name) + " has the runtime extent " + inQuotes(e.name) +
                   ": use guard (or predicate on the vectorized dim)");
    if (*e.value % factor != 0)
      fail(at, (l.vectors ? on() : std::string()) + "round_up computes whole tiles only, but the extent " + std::to_string(*e.value) + " of " + inQuotes(c_.dims[size_t(l.dim)].name) +
                   " is not a multiple of " + std::to_string(factor) + ": use guard, or a factor that divides it");
  }

  // The loops outside the tile, outermost first.
  void outerLoops() {
    for (size_t k = 0; k <= ca_; ++k) {
      const Loop& l = loops_[k];
      NestLoop n;
      n.dim = l.dim;
      n.name = l.name;
      const bool tileOuter = l.part == Loop::Part::outer && (l.dim == vdim_ || l.dim == nest_.tdim) && splitInTile(l);
      if (l.dim == vdim_ && (tileOuter || l.part == Loop::Part::whole)) {
        n.kind = NestLoop::Kind::vectorTiles;
      } else if (tileOuter) {
        n.kind = NestLoop::Kind::tileRows;
      } else if (l.part == Loop::Part::whole) {
        n.kind = NestLoop::Kind::dim;
      } else {
        n.kind = l.part == Loop::Part::outer ? NestLoop::Kind::blockOuter : NestLoop::Kind::blockInner;
        n.factor = l.factor;
        if (l.vectors) fail(l.splitPointer + "/vectors", "only the vectorized loop's split is counted in vectors; give a \"factor\"");
        if (l.tail == SplitTail::predicate || l.tail == SplitTail::shift_inwards)
          fail(l.splitPointer + "/tail", "tail " + std::string(tailName(l.tail)) + " applies to the register tile's splits; a split outside it (" + inQuotes(l.name) +
                                             ") takes guard or round_up");
        if (l.tail == SplitTail::round_up) checkRoundUp(l);
        if (l.part == Loop::Part::inner && !seenOuter(l, k))
          fail(l.splitPointer, "loop " + inQuotes(l.name) + " runs outside " + inQuotes(partner(l)) + ": the inner loop of a split must stay inside its outer loop");
      }
      nest_.outer.push_back(n);
    }
  }
  bool splitInTile(const Loop& outer) const {
    for (size_t k = ca_ + 1; k < loops_.size(); ++k)
      if (loops_[k].dim == outer.dim) return true;
    return false;
  }
  bool seenOuter(const Loop& inner, size_t k) const {
    for (size_t q = 0; q < k; ++q)
      if (loops_[q].dim == inner.dim && loops_[q].part == Loop::Part::outer) return true;
    return false;
  }
  std::string partner(const Loop& l) const {
    for (const Loop& o : loops_)
      if (o.dim == l.dim && &o != &l) return o.name;
    return "";
  }

  // init and update directives name the spec's dims; they run inside the tile.
  void inner(const ScheduleDirective& d, bool update) {
    using K = ScheduleDirective::Kind;
    const char* stage = update ? "update" : "init";
    auto dimOf = [&](const std::string& name, const std::string& at) {
      const int dd = dimNamed(name);
      if (dd < 0) {
        std::vector<std::string> names;
        for (const ContractionDim& x : c_.dims)
          if (update || !x.reduction) names.push_back(x.name);
        fail(at, "unknown dim " + inQuotes(name) + "; the " + stage + "'s loops are the spec's dims: " + joined(names));
      }
      if (!update && c_.dims[size_t(dd)].reduction)
        fail(at, "dim " + inQuotes(name) + " is a reduction dim; the initialisation runs before the sum and has none");
      return dd;
    };
    const std::string vname = c_.dims[size_t(vdim_)].name;
    switch (d.kind) {
      case K::split: break;  // refused by the parser
      case K::vectorize: {
        const int dd = dimOf(d.loop, d.pointer + "/vectorize");
        if (c_.dims[size_t(dd)].reduction) vectorizeReduction(d);
        const Loop* v = nullptr;
        for (const Loop& l : loops_)
          if (l.vectorized) v = &l;
        if (dd != vdim_ || !v || d.width != v->width)
          fail(d.pointer + "/vectorize", std::string("the ") + stage + " runs in the output's register tile, whose vectorized loop is " +
                                             (v ? inQuotes(v->name) + " (dim " + inQuotes(vname) + ", " + (v->width ? std::to_string(*v->width) + " lanes" : "native width") + ")"
                                                : std::string("none")) + ": vectorize that dim with that width here, or leave it out");
        break;
      }
      case K::unroll: {
        const int dd = dimOf(d.loop, d.pointer + "/unroll");
        if (!c_.dims[size_t(dd)].reduction) {
          if (dd != vdim_ && dd != nest_.tdim) nest_.notes.push_back(std::string(stage) + ": unroll " + d.loop + " has no effect (one point of it per register tile)");
          break;
        }
        const Extent& e = c_.dims[size_t(dd)].extent;
        int64_t factor = d.factor;
        if (!factor && !e.isStatic())
          fail(d.pointer + "/unroll", "reduction dim " + inQuotes(d.loop) + " has the runtime extent " + inQuotes(e.name) + ": give an unroll factor");
        if (!factor) factor = *e.value;
        if (factor > 64) fail(d.pointer + "/unroll", "unrolling " + inQuotes(d.loop) + " fully would copy its body " + std::to_string(factor) + " times; give a factor up to 64");
        if (factor > 1) nest_.unroll[dd] = factor;
        break;
      }
      case K::reorder: {
        std::vector<int> dims;
        for (size_t k = 0; k < d.order.size(); ++k) dims.push_back(dimOf(d.order[k], d.pointer + "/reorder/" + std::to_string(k)));
        // Innermost first: a tile dim listed after a reduction dim would run outside it.
        int firstReduction = -1;
        for (size_t k = 0; k < dims.size(); ++k) {
          const bool red = c_.dims[size_t(dims[k])].reduction;
          if (red && firstReduction < 0) firstReduction = int(k);
          if (!red && firstReduction >= 0 && (dims[k] == vdim_ || dims[k] == nest_.tdim))
            fail(d.pointer + "/reorder/" + std::to_string(k),
                 "the update's reorder puts " + inQuotes(d.order[size_t(firstReduction)]) + " inside " + inQuotes(d.order[k]) + ", a dim of the register tile: its " +
                     "accumulators carry the sums across every reduction step, so the tile's dims stay innermost (list them first)");
        }
        std::vector<size_t> at;
        std::vector<int> listed;
        for (int dd : dims)
          if (c_.dims[size_t(dd)].reduction) {
            listed.insert(listed.begin(), dd);  // outermost first
            at.push_back(size_t(std::find(nest_.reductions.begin(), nest_.reductions.end(), dd) - nest_.reductions.begin()));
          }
        std::sort(at.begin(), at.end());
        for (size_t k = 0; k < at.size(); ++k) nest_.reductions[at[k]] = listed[k];
        if (t_.sequential && !std::is_sorted(nest_.reductions.begin(), nest_.reductions.end()))
          fail(d.pointer + "/reorder", "order \"sequential\" adds the products in the order the reduction dims are written, and this reorder "
                                       "changes the order of the reduction loops; keep them in the spec's order or use order \"any\"");
        break;
      }
    }
  }

  void packing() {
    if (!s_.packGiven) return;
    nest_.packPointer = s_.packPointer;
    if (s_.pack.empty()) {
      nest_.pack = ContractionNest::Pack::none;
      return;
    }
    if (s_.pack.size() > 1) fail(s_.packPointer + "/1", "at most one operand is packed (the one loaded as vectors)");
    nest_.pack = ContractionNest::Pack::operand;
    nest_.packOperand = c_.operands[0].name == s_.pack[0] ? 0 : 1;
    if (nest_.rowTail == SplitTail::shift_inwards)
      fail(s_.packPointer, "packing runs the reduction in blocks, each added to the output's sums, and tail shift_inwards on the tile dim recomputes rows the "
                           "block before already added: use tail guard, or no packing (\"pack\": [])");
  }

  const ContractionSpec& c_;
  const ContractionSchedule& s_;
  const ScheduleTarget& t_;
  std::vector<Loop> loops_;  // the output's loops, outermost first
  int vdim_ = -1;
  size_t ca_ = 0;  // position of compute_at's loop
  ContractionNest nest_;
};

}  // namespace

const ContractionSchedule* scheduleFor(const ContractionSpec& c, const std::string& target) {
  for (const ContractionSchedule& s : c.schedules)
    if (s.targets.empty() || std::find(s.targets.begin(), s.targets.end(), target) != s.targets.end()) return &s;
  return nullptr;
}

ContractionNest scheduleContraction(const ContractionSpec& c, const ContractionSchedule& s, const ScheduleTarget& t) { return Scheduler(c, s, t).run(); }

}  // namespace simdgen
