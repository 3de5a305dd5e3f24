// SPDX-License-Identifier: Apache-2.0
// --quiet / --verbose for every subcommand: quiet keeps errors (and what a command exists to print:
// plans, lists, diffs), verbose adds what simdgen used and decided.
#pragma once

namespace simdgen::cli {

enum class Verbosity { quiet, normal, verbose };

// Set once by main() from the command line.
inline Verbosity verbosity = Verbosity::normal;
inline bool quiet() { return verbosity == Verbosity::quiet; }
inline bool verbose() { return verbosity == Verbosity::verbose; }

}  // namespace simdgen::cli
