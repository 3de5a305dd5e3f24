// SPDX-License-Identifier: Apache-2.0
#include "plan/map_kept.h"

#include <functional>
#include <string>

namespace simdgen {

namespace {

bool callsMath(const MapExpr& e) {
  if (e.op == MapOp::math) return true;
  for (const MapExpr& a : e.args)
    if (callsMath(a)) return true;
  return false;
}

std::string keyOf(const KernelSpec& spec, const MapExpr& e) {
  return toString(e, spec.mapInputs, spec.mapParams) + "|" + std::string(nameOf(e.type));
}

// Every subexpression of e equal to the one whose key is `key`.
void equalParts(const KernelSpec& spec, const MapExpr& e, const std::string& key, std::set<const MapExpr*>& out) {
  if (keyOf(spec, e) == key) {
    out.insert(&e);
    return;
  }
  for (const MapExpr& a : e.args) equalParts(spec, a, key, out);
}

// An output the kernel computes (an internal element-wise output is inlined where it is named).
bool computed(const MapOutput& o) { return o.reduce || !o.internal; }

}  // namespace

void inputsReadOutside(const MapExpr& e, const std::set<const MapExpr*>& skip, std::set<int>& out) {
  if (skip.count(&e)) return;
  if (e.op == MapOp::input) out.insert(e.input);
  for (const MapExpr& a : e.args) inputsReadOutside(a, skip, out);
}

std::vector<KeptTerm> keptTerms(const KernelSpec& spec) {
  std::vector<KeptTerm> out;
  const auto& outputs = spec.mapOutputs;
  std::set<size_t> holders;   // an array holds one kept term
  std::set<std::string> kept;  // and a term is kept once
  for (size_t r = 0; r < outputs.size(); ++r) {
    const MapOutput& red = outputs[r];
    if (!red.reduce || red.columns || !callsMath(red.expr)) continue;
    if (*red.reduce == ReduceOp::add && isFloat(red.dtype) && red.expr.op == MapOp::mul) continue;
    const std::string key = keyOf(spec, red.expr);
    if (kept.count(key)) continue;
    for (size_t y = 0; y < outputs.size(); ++y) {
      const MapOutput& o = outputs[y];
      if (o.reduce || o.internal || o.stage <= red.stage || o.dtype != red.expr.type || holders.count(y)) continue;
      KeptTerm t{r, y, red.stage, o.stage, {}};
      for (const MapOutput& p : outputs)
        if (computed(p) && p.stage > t.from && p.stage <= t.to) equalParts(spec, p.expr, key, t.uses);
      std::set<const MapExpr*> own;
      equalParts(spec, o.expr, key, own);
      if (own.empty()) continue;
      // In place: the array is the input's, overwritten from pass `from` on, so no pass after it
      // may read the input but through the kept term.
      bool clobbers = false;
      if (o.inPlace >= 0)
        for (const MapOutput& p : outputs) {
          if (!computed(p) || p.stage <= t.from || p.stage > t.to) continue;
          std::set<int> read;
          inputsReadOutside(p.expr, t.uses, read);
          clobbers = clobbers || read.count(o.inPlace);
        }
      if (clobbers) continue;
      holders.insert(y);
      kept.insert(key);
      out.push_back(std::move(t));
      break;
    }
  }
  return out;
}

}  // namespace simdgen
