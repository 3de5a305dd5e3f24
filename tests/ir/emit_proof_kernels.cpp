// SPDX-License-Identifier: Apache-2.0
// Writes the proof plans (tests/ir/proof_plans.h) lowered for avx512, avx2+fma, neon, sve (the
// scalable plans) and scalar as one C++ file, each under its architecture guard: times_two_<variant>, gemm_<variant>, threshold_<dtype>_<variant>, lane_sum_<dtype>_<order>_<variant>, the seed-004
// 16x16 (avx512, also its half-row form transpose16h_), dot_bf16_<variant> (avx512_bf16, neon_bf16, sve_bf16), and 8x8 (avx2) transpose networks
// transpose16_/transpose8_<dtype>_<variant>, and the generic networks of every element type
// (addTransposeNetworks). The execution test
// (proof_exec_test.cpp) runs them against scalar references: the new IR ops (whilelt, compare,
// not/and, select, predicated loads, stores and reductions, fma, broadcast loads) through each
// lowering module.
#include <fstream>
#include <iostream>
#include <set>
#include <stdexcept>

#include "emit/emitter.h"
#include "proof_plans.h"
#include "targets/target.h"

using namespace simdgen;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: emit_proof_kernels OUT.cpp\n";
    return 2;
  }
  struct Variant {
    const char* suffix;
    TargetRequest request;
    int bits;  // vector bits; 0: scalable (SVE), -1: one lane of each element type (scalar)
  };
  const Variant variants[] = {{"avx512", {"avx512", {}}, 512}, {"avx2", {"avx2", {"fma"}}, 256}, {"neon", {"neon", {}}, 128},
                              {"sve", {"sve", {}}, 0},        {"scalar", {"scalar", {}}, -1}};
  auto bitsFor = [](const Variant& v, DType t) { return v.bits < 0 ? bitsOf(t) : v.bits; };
  struct Threshold {
    DType t;
    const char* limit;
  };
  const Threshold thresholds[] = {{DType::i32, "10"}, {DType::u8, "200"}, {DType::i16, "-5"}, {DType::u64, "7"}, {DType::f64, "10.0"}, {DType::f32, "10.0f"}};
  std::vector<std::string> fileTexts, functions;
  std::set<std::string> seen;
  auto add = [&](const ir::Plan& plan, const Target& target, const std::string& name) {
    if (auto problems = plan.verify(); !problems.empty()) throw std::logic_error(name + ": " + problems.front());
    const emit::EmittedFunction f = emit::emitFunction(plan, target, name);
    std::vector<std::string> texts{f.preamble};
    texts.insert(texts.end(), f.helpers.begin(), f.helpers.end());
    for (const std::string& t : texts)
      if (!t.empty() && seen.insert(f.guard + "\n" + t).second) fileTexts.push_back(f.guard.empty() ? t : "#if " + f.guard + "\n" + t + "\n#endif");
    functions.push_back(f.function);
  };
  // The generic networks at every element type: x86 at each vector width up to the target's,
  // NEON's zip and trn, SVE's zip at vscale 1..16 (each kernel runs only at its vector length)
  // and trn at vscale 1. Names: transpose_x86_<bits>_ (half-row networks: transpose_x86h_<bits>_), transpose_zip_, transpose_trn_<dtype>_
  // (SVE zip: _vs<vscale>) then the variant.
  auto addTransposeNetworks = [&](const std::string& suffix, int bits, const Target& target) {
    for (DType t : kAllDTypes) {
      const std::string dtype(nameOf(t));
      const int w = bitsOf(t), n = 128 / w;
      if (bits == 256 || bits == 512)
        for (int b = 128; b <= bits; b *= 2) {
          add(proof_plans::transposeTile(transposeNetworkX86({t, b / w})), target,
              "transpose_x86_" + std::to_string(b) + "_" + dtype + "_" + suffix);
          if (b >= 256)
            add(proof_plans::transposeTile(transposeHalfRowsX86({t, b / w})), target,
                "transpose_x86h_" + std::to_string(b) + "_" + dtype + "_" + suffix);
        }
      if (bits == 128) {
        add(proof_plans::transposeTile(transposeZip({t, n}, n)), target, "transpose_zip_" + dtype + "_" + suffix);
        add(proof_plans::transposeTile(transposeTrn({t, n}, n)), target, "transpose_trn_" + dtype + "_" + suffix);
      }
      if (bits == 0) {
        for (int vscale = 1; vscale <= 16; vscale *= 2)
          add(proof_plans::transposeTile(transposeZip(ir::scalableOf(t), n * vscale)), target,
              "transpose_zip_" + dtype + "_vs" + std::to_string(vscale) + "_" + suffix);
        add(proof_plans::transposeTile(transposeTrn(ir::scalableOf(t), n)), target, "transpose_trn_" + dtype + "_" + suffix);
      }
    }
  };
  try {
    for (const Variant& v : variants) {
      const Target target = makeTarget(v.request);
      add(proof_plans::timesTwo(bitsFor(v, DType::f32)), target, std::string("times_two_") + v.suffix);
      add(proof_plans::gemm(bitsFor(v, DType::f32)), target, std::string("gemm_") + v.suffix);
      // Shuffle networks (a one-lane target has nothing to shuffle).
      if (v.bits == 512)
        for (DType t : {DType::f32, DType::i32}) {
          add(proof_plans::transposeTile(transpose16x16Avx512(t)), target, "transpose16_" + std::string(nameOf(t)) + "_" + v.suffix);
          add(proof_plans::transposeTile(transpose16x16Avx512HalfRows(t)), target,
              "transpose16h_" + std::string(nameOf(t)) + "_" + v.suffix);
        }
      if (v.bits == 256)
        for (DType t : {DType::f32, DType::u32})
          add(proof_plans::transposeTile(transpose8x8Avx2(t)), target, "transpose8_" + std::string(nameOf(t)) + "_" + v.suffix);
      addTransposeNetworks(v.suffix, v.bits, target);
      for (const Threshold& th : thresholds)
        add(proof_plans::threshold(th.t, bitsFor(v, th.t), th.limit), target,
            "threshold_" + std::string(nameOf(th.t)) + "_" + v.suffix);
      // Float sums of one vector in each order the target lowers: lane_sum_<dtype>_<halves|pairwise>_<variant>.
      if (v.bits >= 0)
        for (DType t : {DType::f32, DType::f64})
          for (bool pairwise : {false, true})
            if (!pairwise || target.pairwiseLaneSums())
              add(proof_plans::laneSum(t, v.bits, pairwise), target,
                  "lane_sum_" + std::string(nameOf(t)) + (pairwise ? "_pairwise_" : "_halves_") + v.suffix);
    }
    // The bf16 pair dot products on the targets that have them: dot_bf16_<variant>.
    const Variant bf16[] = {{"avx512_bf16", {"avx512", {"bf16"}}, 512}, {"neon_bf16", {"neon", {"bf16"}}, 128}, {"sve_bf16", {"sve", {"bf16"}}, 0}};
    for (const Variant& v : bf16)
      add(proof_plans::dotBf16(v.bits, std::string(v.suffix) != "avx512_bf16"), makeTarget(v.request), std::string("dot_bf16_") + v.suffix);
  } catch (const std::exception& e) {
    std::cerr << "emit_proof_kernels: " << e.what() << "\n";
    return 1;
  }
  std::ofstream out(argv[1]);
  out << "// Generated by tests/ir/emit_proof_kernels from tests/ir/proof_plans.h: do not edit.\n"
         "#include <stddef.h>\n#include <stdint.h>\n\n";
  for (const auto& t : fileTexts) out << t << "\n\n";
  for (const auto& f : functions) out << f << "\n";
  return out ? 0 : 1;
}
