// SPDX-License-Identifier: Apache-2.0
// A contraction's loop nest for one target: what the spec's schedule (or the default) asks the
// builder to emit. scheduleContraction replays the spec's Halide directives (seed 002) and checks
// that they describe a nest the register-tile builder can emit: a tile of MR x NR vector
// accumulators inside `compute_at`, every loop outside it in the order the schedule gives.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "spec/contraction_spec.h"

namespace simdgen {

// A loop around the register tile.
struct NestLoop {
  enum class Kind {
    vectorTiles,  // the vector dim in steps of NR vectors (its tails: SplitTail)
    tileRows,     // the tile dim in steps of MR rows (its tails: SplitTail)
    dim,          // a parallel dim, one point at a time
    blockOuter,   // a split outside the tile: blocks of `factor` points...
    blockInner,   // ...and the points of one block (guarded at the extent)
  };
  Kind kind = Kind::dim;
  int dim = 0;
  int64_t factor = 1;  // block loops
  std::string name;    // the schedule's name of the loop (the printed nest)
};

struct ContractionNest {
  bool scheduled = false;  // from the spec's schedule (else the builder's default)
  int vdim = -1, tdim = -1;
  bool vectorized = true;  // false: one lane wide (scalar code on a vector target)
  int nr = 1, mr = 1;      // tile: MR rows of NR hardware vectors
  SplitTail vectorTail = SplitTail::predicate, rowTail = SplitTail::guard;
  std::vector<NestLoop> outer;  // outermost first
  std::vector<int> reductions;  // outermost first
  std::map<int, int64_t> unroll;  // reduction dim -> unroll factor (> 1)
  enum class Pack { automatic, none, operand } pack = Pack::automatic;
  int packOperand = -1;
  std::string packPointer;
  std::string schedulePointer;     // the schedule's own pointer ("" for the default nest)
  std::string computeAt;           // the loop holding the tile ("" for the default nest)
  std::vector<std::string> notes;  // directives without effect, for the plan summary
};

// What the schedule's checks need of the target.
struct ScheduleTarget {
  std::string name;  // "avx512", as spelled in the spec
  int lanes = 1;     // lanes of the dtype per vector (per vscale when scalable); 1 = scalar
  bool scalable = false;
  int registers = 16;
  bool fma = true;
  bool sequential = false;  // order "sequential": the reduction loops keep the spec's order
  std::string notContiguous;  // why the vector dim cannot be loaded as vectors ("" if it can)
};

// The schedule that applies to `target` (first match), or nullptr.
const ContractionSchedule* scheduleFor(const ContractionSpec& c, const std::string& target);

// Throws PlanError (with the directive's JSON pointer) for a schedule the builder cannot emit.
ContractionNest scheduleContraction(const ContractionSpec& c, const ContractionSchedule& s, const ScheduleTarget& t);

// The registers a tile needs: accumulators, the NR operand vectors, one broadcast (a product too
// without FMA).
inline int tileRegisters(int mr, int nr, bool fma) { return mr * nr + nr + 1 + (fma ? 0 : 1); }

}  // namespace simdgen
