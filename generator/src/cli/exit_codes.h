// SPDX-License-Identifier: Apache-2.0
// The exit status of every subcommand, so that scripts and CI tell "regenerate" apart from "fix
// the spec or the command line" and from "simdgen itself failed" (documented in --help).
#pragma once

namespace simdgen::cli {

enum Exit : int {
  kOk = 0,
  kStale = 1,        // generate --check: outputs missing or out of date; check: a compile check failed
  kBadInput = 2,     // usage errors, unreadable or invalid specs, unknown targets
  kToolFailure = 3,  // simdgen could not do its job: templates unreadable, outputs unwritable, internal errors
};

}  // namespace simdgen::cli
