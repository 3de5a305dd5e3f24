// SPDX-License-Identifier: Apache-2.0
#include "clang/check.h"

#include <memory>
#include <mutex>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/FileManager.h>
#include <clang/Basic/SourceManager.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Tooling/Tooling.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/VirtualFileSystem.h>

#ifndef SIMDGEN_CLANG_RESOURCE_DIR
#error "SIMDGEN_CLANG_RESOURCE_DIR must point at clang's resource dir (immintrin.h, arm_sve.h, ...)"
#endif

namespace simdgen::clangtools {
namespace {

// Absolute, so quoted includes resolve beside the main file; unlikely to exist on disk.
constexpr const char* kVirtualDir = "/simdgen-check/";

const char* levelName(clang::DiagnosticsEngine::Level level) {
  switch (level) {
    case clang::DiagnosticsEngine::Ignored: return "ignored";
    case clang::DiagnosticsEngine::Note: return "note";
    case clang::DiagnosticsEngine::Remark: return "remark";
    case clang::DiagnosticsEngine::Warning: return "warning";
    case clang::DiagnosticsEngine::Error: return "error";
    case clang::DiagnosticsEngine::Fatal: return "fatal error";
  }
  return "unknown";
}

// Records diagnostics instead of printing them. Must not throw: it is called from inside
// clang, which is built without exceptions.
class RecordingConsumer : public clang::DiagnosticConsumer {
 public:
  explicit RecordingConsumer(std::vector<Diagnostic>& out) : out_(out) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);  // keeps error/warning counts
    try {
      Diagnostic d;
      d.level = levelName(level);
      llvm::SmallString<256> text;
      info.FormatDiagnostic(text);
      d.message = text.str().str();
      if (info.getLocation().isValid() && info.hasSourceManager()) {
        clang::PresumedLoc loc = info.getSourceManager().getPresumedLoc(info.getLocation());
        if (loc.isValid()) {
          llvm::StringRef file = loc.getFilename();
          file.consume_front(kVirtualDir);
          d.file = file.str();
          d.line = loc.getLine();
          d.column = loc.getColumn();
        }
      }
      out_.push_back(std::move(d));
    } catch (...) {
      // Out of memory while recording: the error count above still fails the check.
    }
  }

 private:
  std::vector<Diagnostic>& out_;
};

void initializeTargetsOnce() {
  static std::once_flag once;
  std::call_once(once, [] {
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
  });
}

}  // namespace

CheckResult compileCheck(const std::string& mainSource, const std::string& mainFileName,
                         const std::string& triple,
                         const std::vector<std::pair<std::string, std::string>>& extraFiles,
                         const std::vector<std::string>& extraArgs) {
  initializeTargetsOnce();

  // In-memory files over the real FS: the real FS supplies the clang resource headers.
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> memFs(
      new llvm::vfs::InMemoryFileSystem);
  const std::string mainPath = kVirtualDir + mainFileName;
  memFs->addFile(mainPath, 0, llvm::MemoryBuffer::getMemBufferCopy(mainSource, mainPath));
  for (const auto& [name, content] : extraFiles) {
    const std::string path = kVirtualDir + name;
    memFs->addFile(path, 0, llvm::MemoryBuffer::getMemBufferCopy(content, path));
  }
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fs(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  fs->pushOverlay(memFs);
  llvm::IntrusiveRefCntPtr<clang::FileManager> files(
      new clang::FileManager(clang::FileSystemOptions(), fs));

  // -ffreestanding -nostdlibinc: only the resource dir headers (stdint.h, immintrin.h,
  // arm_neon.h, arm_sve.h) are visible, so results do not depend on the host's libc.
  std::vector<std::string> args = {"clang++",
                                   "-std=c++17",
                                   "-O1",
                                   "-Wall",
                                   "-Wextra",
                                   "--target=" + triple,
                                   "-ffreestanding",
                                   "-nostdlibinc",
                                   "-resource-dir=" SIMDGEN_CLANG_RESOURCE_DIR,
                                   // Also silences the "N errors generated." line on stderr.
                                   "-fno-caret-diagnostics",
                                   "-c"};
  args.insert(args.end(), extraArgs.begin(), extraArgs.end());
  args.push_back(mainPath);

  CheckResult result;
  RecordingConsumer consumer(result.diagnostics);
  clang::tooling::ToolInvocation invocation(std::move(args),
                                            std::make_unique<clang::EmitLLVMOnlyAction>(),
                                            files.get());
  invocation.setDiagnosticConsumer(&consumer);
  const bool ran = invocation.run();
  result.ok = ran && consumer.getNumErrors() == 0;
  return result;
}

std::string formatDiagnostics(const CheckResult& result) {
  std::string out;
  for (const Diagnostic& d : result.diagnostics) {
    if (!d.file.empty()) {
      out += d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": ";
    }
    out += d.level + ": " + d.message + "\n";
  }
  return out;
}

}  // namespace simdgen::clangtools
