// SPDX-License-Identifier: Apache-2.0
#include "clang/format.h"

#include <stdexcept>

#include <clang/Basic/SourceManager.h>
#include <clang/Format/Format.h>
#include <clang/Tooling/Core/Replacement.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/SourceMgr.h>

namespace simdgen::clangtools {
namespace {
// Collects YAML parser messages (otherwise printed to stderr) for the exception text.
void collectYamlDiag(const llvm::SMDiagnostic& d, void* ctx) {
  auto& out = *static_cast<std::string*>(ctx);
  out += "\n  line " + std::to_string(d.getLineNo()) + ":" + std::to_string(d.getColumnNo() + 1) +
         ": " + d.getMessage().str();
}
}  // namespace

std::string formatCpp(const std::string& code, const std::string& styleYaml,
                      const std::string& fileName) {
  clang::format::FormatStyle style = clang::format::getLLVMStyle();
  // Must be set before parsing: it picks which language section of the YAML applies.
  style.Language = clang::format::FormatStyle::LK_Cpp;
  std::string yamlDiags;
  if (std::error_code ec = clang::format::parseConfiguration(
          llvm::MemoryBufferRef(styleYaml, ".clang-format"), &style,
          /*AllowUnknownOptions=*/false, collectYamlDiag, &yamlDiags)) {
    throw std::runtime_error("invalid clang-format style: " + ec.message() + yamlDiags);
  }

  const clang::tooling::Range whole(0, static_cast<unsigned>(code.size()));
  clang::format::FormattingAttemptStatus status;
  clang::tooling::Replacements repls =
      clang::format::reformat(style, code, {whole}, fileName, &status);
  if (!status.FormatComplete) {
    throw std::runtime_error("clang-format could not format " + fileName + " (unbalanced code near line " +
                             std::to_string(status.Line) + ")");
  }
  llvm::Expected<std::string> out = clang::tooling::applyAllReplacements(code, repls);
  if (!out) {
    throw std::runtime_error("clang-format replacements failed for " + fileName + ": " +
                             llvm::toString(out.takeError()));
  }
  return *out;
}

}  // namespace simdgen::clangtools
