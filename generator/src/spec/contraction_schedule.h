// SPDX-License-Identifier: Apache-2.0
// A contraction's "schedule" as the spec writes it: Halide's directives (seed 002) on the three
// stages of the computation, before they are checked against a target. The parser checks their
// form; plan/contraction_schedule.cpp replays them per target and rejects what cannot be built.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace simdgen {

// What a split does when its factor does not divide the extent (Halide's TailStrategy).
enum class SplitTail {
  automatic,      // predicate on the vectorized dim, guard on the others
  predicate,      // the vectorized dim only: one masked partial vector
  guard,          // smaller pieces: single vectors then single lanes, or tiles of 4, 2, 1 rows
  shift_inwards,  // the last tile moves back to end at the extent (recomputes a few outputs)
  round_up,       // whole tiles only: the extent must be a static multiple of the factor
};

struct ScheduleDirective {
  enum class Kind { split, reorder, vectorize, unroll };
  Kind kind = Kind::split;
  std::string pointer;             // JSON pointer of the directive (errors)
  std::string loop;                // split, vectorize, unroll: the loop named
  std::string outer, inner;        // split: the two loops it makes
  int64_t factor = 0;              // split: elements; unroll: 0 = the whole (static) extent
  int64_t vectors = 0;             // split: the factor in vectors of the vectorized width instead
  SplitTail tail = SplitTail::automatic;
  std::vector<std::string> order;  // reorder: innermost first, as in Halide
  std::optional<int64_t> width;    // vectorize: lanes; unset = the target's native (scalable) width
};

// One schedule: the directives of the output (the pure stage, Halide's `relu`), of the
// initialisation and of the update (the sums, Halide's `conv` and `conv.update()`), where the sums
// are computed and stored (`compute_at` / `store_at`: a loop of the output), and which operands
// are packed. `targets` restricts it to some of the spec's targets (empty: all).
struct ContractionSchedule {
  std::string pointer;
  std::vector<std::string> targets;  // spelled as in the spec's "targets"
  std::vector<ScheduleDirective> output, init, update;
  std::string computeAt, storeAt;    // empty: the loop just outside the register tile
  std::string computeAtPointer, storeAtPointer;
  bool packGiven = false;            // "pack" present: exactly these operands (none when empty)
  std::vector<std::string> pack;
  std::string packPointer;
};

}  // namespace simdgen
