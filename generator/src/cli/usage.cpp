// SPDX-License-Identifier: Apache-2.0
#include "cli/usage.h"

#include <iostream>
#include <string>
#include <vector>

#include "cli/exit_codes.h"

namespace simdgen::cli {

namespace {

std::string commandList(const CLI::App& app) {
  std::string s;
  for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
    s += (s.empty() ? "" : ", ") + sub->get_name();
  return s;
}

// The option name of an argument ("--output=x" -> "--output"); "" for a word or "-"/"--".
std::string optionName(const std::string& arg) {
  if (arg.size() < 2 || arg[0] != '-' || arg == "--") return "";
  return arg.substr(0, arg.find('='));
}

// Whether the top-level option `name` takes a value (so that the next argument is not a command).
bool takesValue(const CLI::App& app, const std::string& name) {
  const CLI::Option* o = app.get_option_no_throw(name);
  return o && o->get_type_size() != 0;  // flags have no value
}

}  // namespace

int reportParseError(CLI::App& app, const CLI::ParseError& e, int argc, char** argv) {
  if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
  const std::vector<std::string> args(argv + 1, argv + argc);
  // The command word: the first argument that is neither an option nor a top-level option's value.
  size_t at = args.size();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string name = optionName(args[i]);
    if (args[i] == "--") break;
    if (name.empty()) {
      at = i;
      break;
    }
    if (args[i].find('=') == std::string::npos && takesValue(app, name)) ++i;
  }
  const std::string prog = app.get_name().empty() ? "simdgen" : app.get_name();
  if (at == args.size()) {
    std::cerr << prog << ": error: no command given (commands: " << commandList(app) << ")\n"
              << "Run '" << prog << " --help' for usage.\n";
    return kBadInput;
  }
  CLI::App* sub = nullptr;
  for (CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    if (s->get_name() == args[at]) sub = s;
  if (!sub) {
    std::cerr << prog << ": error: unknown command '" << args[at] << "' (commands: " << commandList(app) << ")\n"
              << "Run '" << prog << " --help' for usage.\n";
    return kBadInput;
  }
  const std::string where = prog + " " + sub->get_name();
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string name = optionName(args[i]);
    if (name.empty() || i == at) continue;
    const bool top = app.get_option_no_throw(name) != nullptr, mine = sub->get_option_no_throw(name) != nullptr;
    if ((top && (i > at || !mine)) || (mine && i > at)) continue;  // in its place
    if (mine && i < at) {
      std::cerr << prog << ": error: option " << name << " belongs after the command: " << where << " " << name << " ...\n";
    } else {
      std::string owners;
      for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
        if (s != sub && s->get_option_no_throw(name)) owners += (owners.empty() ? "'" : "', '") + prog + " " + s->get_name();
      std::cerr << where << ": error: unknown option " << name;
      if (!owners.empty()) std::cerr << " (it is an option of " << owners << "')";
      std::cerr << "\n";
    }
    std::cerr << "Run '" << where << " --help' for usage.\n";
    return kBadInput;
  }
  std::cerr << where << ": error: " << e.what() << "\nRun '" << where << " --help' for usage.\n";
  return kBadInput;
}

}  // namespace simdgen::cli
