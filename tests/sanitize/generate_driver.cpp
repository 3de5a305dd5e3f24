// SPDX-License-Identifier: Apache-2.0
// `simdgen generate` without the clang layer, for the ASan/UBSan build: parse each spec, plan and
// emit every target, lay out and write NAME.h / NAME.cpp. Exit 1 on a spec or plan error.
#include <filesystem>
#include <fstream>
#include <iostream>

#include "emit/emitter.h"
#include "emit/layout.h"
#include "plan/reduce_builder.h"
#include "spec/spec.h"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: " << argv[0] << " TEMPLATES OUTDIR SPEC...\n";
    return 2;
  }
  const std::filesystem::path out = argv[2];
  std::filesystem::create_directories(out);
  const auto templates = simdgen::emit::Templates::load(argv[1]);
  int failures = 0;
  for (int i = 3; i < argc; ++i) {
    try {
      const simdgen::KernelSpec spec = simdgen::loadSpec(argv[i]);
      const auto g = simdgen::emit::generate(spec, templates, argv[i]);
      std::ofstream(out / (spec.name + ".h")) << simdgen::emit::layoutCpp(g.header);
      std::ofstream(out / (spec.name + ".cpp")) << simdgen::emit::layoutCpp(g.source);
      std::cout << "generated " << spec.name << " (" << g.variants.size() << " variants)\n";
    } catch (const simdgen::SpecError& e) {
      std::cerr << e.what() << "\n";
      ++failures;
    } catch (const simdgen::PlanError& e) {
      std::cerr << argv[i] << ": error: " << e.what() << "\n";
      ++failures;
    }
  }
  return failures ? 1 : 0;
}
