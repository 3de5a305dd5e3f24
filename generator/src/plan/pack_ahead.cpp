// SPDX-License-Identifier: Apache-2.0
#include "plan/pack_ahead.h"

#include <algorithm>
#include <string>

#include "core/dtype.h"
#include "core/text.h"

namespace simdgen {
namespace {

std::string bracketed(const std::vector<AffineIndex>& index) {
  std::string out;
  for (const AffineIndex& ix : index) out += "[" + ix.text + "]";
  return out;
}

// One operand's pair of functions. Public names (the spec's extents and strides) appear only in
// the declarations; the definitions use their own (src, dst, e<k>, s<k>, i<k>).
class PackWriter {
 public:
  PackWriter(const KernelSpec& spec, const ContractionTensor& t) : spec_(spec), c_(spec.contraction), t_(t), src_(*t.packedFrom) {
    // Runtime extents of the source's dims, in the order of the dims (as the kernel's), then its
    // runtime strides that are no extent, in the order written.
    // A stride may name any dim's extent: that extent is then a parameter of the pack function
    // too, not of the size function (which needs the copy's extents only).
    for (const ContractionDim& d : c_.dims) {
      if (d.extent.isStatic()) continue;
      if (usesDim(d)) addParam(d.extent.name, sizeExtents_);
      if (usesDim(d) || stridesName(d.extent.name)) addParam(d.extent.name, extentNames_);
    }
    for (const std::optional<Extent>& s : src_.strides)
      if (s && !s->isStatic() && !isExtent(s->name)) addParam(s->name, strideNames_);
  }

  std::vector<ir::Companion> write() const {
    const std::string type(t_.bf16 ? "uint16_t" : cTypeOf(t_.narrow.value_or(c_.dtype)));  // bf16 is copied as its bits, narrow integers as they are
    const std::string pack = spec_.name + "_pack_" + src_.name, elements = spec_.name + "_" + src_.name + "_packed_elements";
    std::vector<std::string> publicExtents, ownExtents, publicSize, ownSize;
    for (const std::string& e : extentNames_) {
      publicExtents.push_back("int64_t " + e);
      ownExtents.push_back("int64_t " + own(e));
    }
    for (size_t k = 0; k < sizeExtents_.size(); ++k) {
      publicSize.push_back("int64_t " + sizeExtents_[k]);
      ownSize.push_back("int64_t e" + std::to_string(k));
    }
    std::vector<std::string> publicPack{"const " + type + "* " + src_.name}, ownPack{"const " + type + "* src"};
    publicPack.insert(publicPack.end(), publicExtents.begin(), publicExtents.end());
    ownPack.insert(ownPack.end(), ownExtents.begin(), ownExtents.end());
    for (const std::string& s : strideNames_) {
      publicPack.push_back("int64_t " + s);
      ownPack.push_back("int64_t " + own(s));
    }
    publicPack.push_back(type + "* " + t_.name);
    ownPack.push_back(type + "* dst");

    std::vector<std::string> loops;  // "i < extent" per packed dim
    for (const AffineIndex& ix : t_.index) loops.push_back(ix.text + " < " + extentText(c_.dims[size_t(ix.plainDim())], false));
    ir::Companion packFn;
    packFn.doc = {"/// " + pack + ": copies " + src_.name + bracketed(src_.index) + " into " + t_.name + bracketed(t_.index) + ", the layout " +
                      spec_.name + "() reads,",
                  "///   for " + join(loops, ", ") + ". Call it once per " + src_.name + ", ahead of the kernel's calls.",
                  "/// " + t_.name + " is dense and holds " + elements + "() elements; " + src_.name + " is read as the spec lays it out" +
                      (src_.strides.empty() ? " (dense)" : " (with its strides)") + ". The two must not overlap."};
    if (t_.packBlock)
      packFn.doc.insert(packFn.doc.begin() + 1, "///   in blocks of " + std::to_string(t_.packBlock) + " along " + vectorDim().name + ": " + t_.name + "[" + vectorDim().name + " / " +
                                                    std::to_string(t_.packBlock) + "]" + bracketed({t_.index.begin(), t_.index.end() - 1}) + "[" + vectorDim().name + " % " +
                                                    std::to_string(t_.packBlock) + "], the last block padded with zeros;");
    packFn.declaration = "void " + pack + "(" + join(publicPack, ", ") + ")";
    packFn.definition = "void " + pack + "(" + join(ownPack, ", ") + ") {\n" + copyBody() + "}";

    ir::Companion sizeFn;
    sizeFn.doc = {"/// " + elements + ": the number of elements of " + t_.name + " (" + sizeText(false) + "); 0 when any extent is 0."};
    sizeFn.declaration = "int64_t " + elements + "(" + (publicSize.empty() ? "void" : join(publicSize, ", ")) + ")";
    sizeFn.definition = "int64_t " + elements + "(" + (ownSize.empty() ? "void" : join(ownSize, ", ")) + ") {\nreturn " + sizeText(true) + ";\n}";
    return {sizeFn, packFn};
  }

 private:
  bool usesDim(const ContractionDim& d) const {
    for (const AffineIndex& ix : src_.index)
      if (&c_.dims[size_t(ix.plainDim())] == &d) return true;
    return false;
  }
  bool stridesName(const std::string& name) const {
    return std::any_of(src_.strides.begin(), src_.strides.end(), [&](const std::optional<Extent>& s) { return s && !s->isStatic() && s->name == name; });
  }
  bool isExtent(const std::string& name) const {
    return std::any_of(c_.dims.begin(), c_.dims.end(), [&](const ContractionDim& d) { return !d.extent.isStatic() && d.extent.name == name; });
  }
  static void addParam(const std::string& name, std::vector<std::string>& to) {
    if (std::find(to.begin(), to.end(), name) == to.end()) to.push_back(name);
  }
  std::string own(const std::string& publicName) const {
    for (size_t k = 0; k < extentNames_.size(); ++k)
      if (extentNames_[k] == publicName) return "e" + std::to_string(k);
    for (size_t k = 0; k < strideNames_.size(); ++k)
      if (strideNames_[k] == publicName) return "s" + std::to_string(k);
    throw std::logic_error("pack_ahead: no parameter " + publicName);
  }
  std::string extentText(const ContractionDim& d, bool ownNames) const {
    return d.extent.isStatic() ? std::to_string(*d.extent.value) : ownNames ? own(d.extent.name) : d.extent.name;
  }
  const ContractionDim& vectorDim() const { return c_.dims[size_t(t_.index.back().plainDim())]; }
  // The copy's element count: the product of its dims' extents, static ones folded (in the size
  // function's own names, e<k> over sizeExtents_, or in public names); a blocked copy's vector
  // dim rounded up to whole blocks.
  std::string sizeText(bool ownNames) const {
    int64_t constant = 1;
    std::vector<std::string> factors;
    for (const AffineIndex& ix : t_.index) {
      const ContractionDim& d = c_.dims[size_t(ix.plainDim())];
      const bool blocked = t_.packBlock && &d == &vectorDim();
      if (d.extent.isStatic()) {
        constant *= blocked ? (*d.extent.value + t_.packBlock - 1) / t_.packBlock * t_.packBlock : *d.extent.value;
        continue;
      }
      std::string e = d.extent.name;
      if (ownNames) e = "e" + std::to_string(std::find(sizeExtents_.begin(), sizeExtents_.end(), d.extent.name) - sizeExtents_.begin());
      const std::string b = std::to_string(t_.packBlock);
      factors.push_back(blocked ? "((" + e + " + " + std::to_string(t_.packBlock - 1) + ") / " + b + " * " + b + ")" : e);
    }
    if (constant != 1 || factors.empty()) factors.insert(factors.begin(), std::to_string(constant));
    return join(factors, " * ");
  }
  // Loops over the copy's dims in its order (so it is written front to back), each element read
  // from the source at its strides: the spec's, or dense over the source's extents.
  std::string copyBody() const {
    std::vector<std::string> lines;
    const size_t n = src_.index.size();
    std::vector<std::string> stride(n);
    for (size_t p = n; p-- > 0;) {  // innermost first: a dense stride is the next one's times its extent
      const std::optional<Extent>& s = src_.strides.empty() ? std::nullopt : src_.strides[p];
      if (s)
        stride[p] = s->isStatic() ? std::to_string(*s->value) : own(s->name);
      else if (p + 1 == n)
        stride[p] = "1";
      else
        stride[p] = "src_stride" + std::to_string(p + 1) + " * " + extentText(c_.dims[size_t(src_.index[p + 1].plainDim())], true);
      lines.push_back("const int64_t src_stride" + std::to_string(p) + " = " + stride[p] + ";");
    }
    // The loop variable of each dim, and the source offset as a sum over them.
    std::vector<std::string> terms;
    for (size_t p = 0; p < n; ++p) terms.push_back(loopVar(src_.index[p].plainDim()) + " * src_stride" + std::to_string(p));
    lines.push_back("int64_t at = 0;");
    // Blocked: the vector dim's blocks outermost, its elements innermost (past the extent: 0).
    const int vdim = t_.index.back().plainDim();
    const std::string vdimExtent = extentText(c_.dims[size_t(vdim)], true), block = "b" + std::to_string(vdim);
    const std::string blockEnd = block + " + " + std::to_string(t_.packBlock), end = "e" + block;
    if (t_.packBlock) {
      lines.push_back("for (int64_t " + block + " = 0; " + block + " < " + vdimExtent + "; " + block + " += " + std::to_string(t_.packBlock) + ") {");
      lines.push_back("const int64_t " + end + " = " + blockEnd + " < " + vdimExtent + " ? " + blockEnd + " : " + vdimExtent + ";");
    }
    for (const AffineIndex& ix : t_.index) {
      const std::string v = loopVar(ix.plainDim());
      if (t_.packBlock && ix.plainDim() == vdim)
        lines.push_back("for (int64_t " + v + " = " + block + "; " + v + " < " + end + "; ++" + v + ") {");
      else
        lines.push_back("for (int64_t " + v + " = 0; " + v + " < " + extentText(c_.dims[size_t(ix.plainDim())], true) + "; ++" + v + ") {");
    }
    lines.push_back("dst[at] = src[" + join(terms, " + ") + "];");
    lines.push_back("++at;");
    lines.push_back("}");
    if (t_.packBlock) {  // the last block's columns past the extent
      lines.push_back("for (int64_t pad = " + end + "; pad < " + blockEnd + "; ++pad) {");
      lines.push_back("dst[at] = 0;");
      lines.push_back("++at;");
      lines.push_back("}");
    }
    for (size_t k = 1; k < t_.index.size() + (t_.packBlock ? 1 : 0); ++k) lines.push_back("}");
    return join(lines, "\n") + "\n";
  }
  static std::string loopVar(int dim) { return "i" + std::to_string(dim); }

  const KernelSpec& spec_;
  const ContractionSpec& c_;
  const ContractionTensor& t_;
  const ContractionTensor::Source& src_;
  std::vector<std::string> extentNames_, strideNames_;  // the pack function's runtime parameters
  std::vector<std::string> sizeExtents_;                // the size function's
};

}  // namespace

std::vector<ir::Companion> packAheadFunctions(const KernelSpec& spec) {
  std::vector<ir::Companion> out;
  for (const ContractionTensor& t : spec.contraction.operands)
    if (t.packedFrom)
      for (ir::Companion& f : PackWriter(spec, t).write()) out.push_back(std::move(f));
  if (!out.empty()) out.front().section = "// ---- packing ahead: the layout the variants above read, made once from the caller's tensor.";
  return out;
}

}  // namespace simdgen
