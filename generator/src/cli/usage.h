// SPDX-License-Identifier: Apache-2.0
// Command-line mistakes reported the way git or clang report them: what is wrong in words (the
// unknown command with the list of commands, the option given to the wrong command or before it),
// where to read more, and exit status 2.
#pragma once

#include <CLI/CLI.hpp>

namespace simdgen::cli {

// For a CLI11 parse failure: --help and --version print and return 0; anything else is a usage
// error, explained on stderr, returning kBadInput.
int reportParseError(CLI::App& app, const CLI::ParseError& e, int argc, char** argv);

}  // namespace simdgen::cli
