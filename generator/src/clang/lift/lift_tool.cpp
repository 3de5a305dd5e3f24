// SPDX-License-Identifier: Apache-2.0
// Drives the lift: parses the files with LibTooling, finds `for` loops with AST matchers, models
// and recognises each, and turns the rewrites into clang::tooling::Replacements.
#include "clang/lift/lift_tool.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

#include <clang/AST/ASTContext.h>
#include <clang/AST/Attr.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Format/Format.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Core/Replacement.h>
#include <clang/Tooling/Tooling.h>
#include <clang/Tooling/Transformer/SourceCode.h>

#include "clang/lift/ast_model.h"
#include "clang/lift/lift_output.h"
#include "clang/lift/map_lift.h"
#include "clang/lift/recognize.h"
#include "clang/lift/rows_model.h"
#include "clang/lift/transpose_lift.h"

#ifndef SIMDGEN_CLANG_RESOURCE_DIR
#error "SIMDGEN_CLANG_RESOURCE_DIR must point at clang's resource dir"
#endif

namespace simdgen::lift {
namespace {

using namespace clang;
using namespace clang::ast_matchers;

bool annotatedForSimdgen(const FunctionDecl& f) {
  for (const auto* a : f.specific_attrs<AnnotateAttr>())
    if (a->getAnnotation() == "simdgen") return true;
  return false;
}

// The functions lift looks at, in source order.
std::vector<const FunctionDecl*> selectedFunctions(ASTContext& ctx, const LiftRequest& request) {
  std::vector<const FunctionDecl*> all;
  for (const auto& m : match(functionDecl(isDefinition(), isExpansionInMainFile(), unless(isImplicit()), unless(isTemplateInstantiation())).bind("fn"), ctx))
    all.push_back(m.getNodeAs<FunctionDecl>("fn"));
  const SourceManager& sm = ctx.getSourceManager();
  std::sort(all.begin(), all.end(), [&](auto* a, auto* b) { return sm.isBeforeInTranslationUnit(a->getBeginLoc(), b->getBeginLoc()); });
  std::vector<const FunctionDecl*> chosen;
  const bool anyAnnotated = std::any_of(all.begin(), all.end(), [](auto* f) { return annotatedForSimdgen(*f); });
  for (const FunctionDecl* f : all) {
    if (!request.functions.empty()) {
      if (std::find(request.functions.begin(), request.functions.end(), f->getNameAsString()) == request.functions.end() &&
          std::find(request.functions.begin(), request.functions.end(), f->getQualifiedNameAsString()) == request.functions.end())
        continue;
    } else if (anyAnnotated && !annotatedForSimdgen(*f)) {
      continue;
    }
    chosen.push_back(f);
  }
  return chosen;
}

std::vector<const ForStmt*> loopsOf(const FunctionDecl& f, ASTContext& ctx) {
  std::vector<const ForStmt*> loops;
  for (const auto& m : match(stmt(forEachDescendant(forStmt().bind("loop"))), *f.getBody(), ctx))
    loops.push_back(m.getNodeAs<ForStmt>("loop"));
  const SourceManager& sm = ctx.getSourceManager();
  std::sort(loops.begin(), loops.end(), [&](auto* a, auto* b) { return sm.isBeforeInTranslationUnit(a->getBeginLoc(), b->getBeginLoc()); });
  loops.erase(std::unique(loops.begin(), loops.end()), loops.end());
  return loops;
}

// A prefix for the replacement's own variables that the function's text does not contain.
std::string localPrefix(const FunctionDecl& f, const ASTContext& ctx) {
  const std::string text = Lexer::getSourceText(CharSourceRange::getTokenRange(f.getSourceRange()), ctx.getSourceManager(),
                                                ctx.getLangOpts()).str();
  std::string prefix = "simdgen_";
  for (int k = 1; text.find(prefix) != std::string::npos; ++k) prefix = "simdgen" + std::to_string(k) + "_";
  return prefix;
}

std::string uniqueName(const std::string& base, std::set<std::string>& used) {
  std::string name = base;
  for (int k = 2; used.count(name); ++k) name = base + "_" + std::to_string(k);
  used.insert(name);
  return name;
}

// The file as the user named it on the command line.
std::string givenName(const std::string& path, const std::vector<std::string>& files) {
  for (const auto& f : files) {
    std::error_code ec;
    if (std::filesystem::equivalent(f, path, ec)) return f;
  }
  return path;
}

// The loop with the `;` that ends a body without braces (not part of the statement's range).
CharSourceRange loopRange(const ForStmt& loop, ASTContext& ctx) {
  return tooling::maybeExtendRange(CharSourceRange::getTokenRange(loop.getSourceRange()), tok::semi, ctx);
}

// Where the kernels' #include lines go: after the last #include at the top of the file, so that
// the user's own include lines stay as they are.
unsigned includeOffset(const std::string& code) {
  unsigned offset = 0;
  size_t p = 0;
  while (p < code.size()) {
    size_t e = code.find('\n', p);
    if (e == std::string::npos) e = code.size();
    std::string line = code.substr(p, e - p);
    size_t k = line.find_first_not_of(" \t");
    const std::string trimmed = k == std::string::npos ? "" : line.substr(k);
    if (trimmed.rfind("#include", 0) == 0 || trimmed.rfind("# include", 0) == 0) offset = static_cast<unsigned>(std::min(e + 1, code.size()));
    else if (!trimmed.empty() && trimmed[0] != '#' && trimmed.rfind("//", 0) != 0 && trimmed.rfind("/*", 0) != 0 && trimmed[0] != '*')
      break;  // code: includes further down belong to it
    p = e + 1;
  }
  return offset;
}

std::string rewriteFile(const std::string& path, const std::string& code, const tooling::Replacements& edits,
                        const tooling::Replacement& includes, std::vector<std::string>& errors) {
  llvm::Expected<format::FormatStyle> style = format::getStyle("file", path, "LLVM", code);
  format::FormatStyle s = style ? *style : format::getLLVMStyle();
  if (!style) llvm::consumeError(style.takeError());
  s.SortIncludes = format::FormatStyle::SI_Never;  // the user's include lines are not ours to move
  auto formatted = format::formatReplacements(code, edits, s);  // only the touched lines
  if (!formatted) {
    errors.push_back(path + ": error: cannot format the rewrite: " + llvm::toString(formatted.takeError()));
    return code;
  }
  if (llvm::Error e = formatted->add(includes)) {  // unformatted: the lines after it are the user's
    errors.push_back(path + ": error: cannot add the #include lines: " + llvm::toString(std::move(e)));
    return code;
  }
  auto result = tooling::applyAllReplacements(code, *formatted);
  if (!result) {
    errors.push_back(path + ": error: cannot apply the rewrite: " + llvm::toString(result.takeError()));
    return code;
  }
  return *result;
}

}  // namespace

LiftResult runLift(const LiftRequest& request) {
  LiftResult result;
  std::unique_ptr<tooling::CompilationDatabase> db;
  std::string why;
  if (!request.buildDir.empty()) {
    db = tooling::CompilationDatabase::loadFromDirectory(request.buildDir, why);
    if (!db) {
      result.errors.push_back(request.buildDir + ": error: " + why);
      return result;
    }
  } else {
    db = std::make_unique<tooling::FixedCompilationDatabase>(".", request.compilerArgs);
  }
  tooling::ClangTool tool(*db, request.files);
  tool.appendArgumentsAdjuster(tooling::getInsertArgumentAdjuster("-resource-dir=" SIMDGEN_CLANG_RESOURCE_DIR,
                                                                  tooling::ArgumentInsertPosition::END));
  std::vector<std::unique_ptr<ASTUnit>> asts;
  const int status = tool.buildASTs(asts);
  result.parsed = status == 0 && asts.size() == request.files.size() &&
                  std::none_of(asts.begin(), asts.end(), [](const auto& a) { return a->getDiagnostics().hasErrorOccurred(); });
  if (!result.parsed) return result;

  std::set<std::string> usedNames;
  for (auto& ast : asts) {
    ASTContext& ctx = ast->getASTContext();
    const SourceManager& sm = ctx.getSourceManager();
    const std::string path = ast->getMainFileName().str();
    const std::string file = givenName(path, request.files);
    tooling::Replacements edits;
    std::set<std::string> includes;
    std::set<const ForStmt*> seen;  // a lambda's loops are also its enclosing function's
    for (const FunctionDecl* f : selectedFunctions(ctx, request)) {
      const std::string local = localPrefix(*f, ctx);
      for (const ForStmt* loop : loopsOf(*f, ctx)) {
        if (!seen.insert(loop).second) continue;
        Remark remark;
        remark.file = file;
        const PresumedLoc at = sm.getPresumedLoc(sm.getExpansionLoc(loop->getBeginLoc()));
        remark.line = at.getLine();
        remark.column = at.getColumn();
        auto reject = [&](const std::string& reason) {
          remark.text = "not lifted: " + reason;
          result.remarks.push_back(remark);
        };
        if (loop->getBeginLoc().isMacroID() || loop->getEndLoc().isMacroID()) {
          reject("the loop comes from a macro expansion");
          continue;
        }
        if (f->isDependentContext()) {
          reject("the loop is in a template, whose types are not known until it is instantiated");
          continue;
        }
        Options options;
        options.allowReassociation = request.allowReassociation;
        auto accept = [&](const std::string& summary, const std::function<std::string(const std::string&)>& spec,
                          const std::function<std::string(const std::string&)>& code) {
          std::set<std::string> tentative = usedNames;
          const std::string name = uniqueName(f->getNameAsString() + "_lifted", tentative);
          const std::string json = spec(name);
          if (request.validate) {
            if (auto error = request.validate(json)) {
              reject("simdgen cannot build its spec: " + *error);
              return false;
            }
          }
          usedNames.insert(name);
          result.specs.push_back({name, json});
          remark.text = "lifted: " + name + " (" + summary + ")";
          result.remarks.push_back(remark);
          if (request.rewrite) {
            llvm::Error e = edits.add(tooling::Replacement(sm, loopRange(*loop, ctx), code(name), ctx.getLangOpts()));
            if (e) result.errors.push_back(file + ": error: " + llvm::toString(std::move(e)));
            includes.insert(name);
          }
          return true;
        };
        const std::string description = "Lifted by simdgen lift from " + file + ":" + std::to_string(remark.line) + ":" +
                                        std::to_string(remark.column) + " (function " + f->getQualifiedNameAsString() + ").";
        if (hasInnerLoop(*loop)) {
          // A loop over rows: one kernel for the matrix, or a remark (the inner loop may still lift).
          const ForStmt* inner = nullptr;
          auto rows = modelRows(*loop, ctx, options, inner);
          if (auto* reason = std::get_if<std::string>(&rows)) {
            auto transpose = modelTranspose(*loop, ctx);
            if (auto* why = std::get_if<std::string>(&transpose)) {
              reject(why->rfind(kNotANest, 0) == 0 ? "as a row-wise reduction: " + *reason : "as a transpose: " + *why);
              continue;
            }
            TransposeLift& t = std::get<TransposeLift>(transpose);
            t.loopText = tooling::getText(loopRange(*loop, ctx), ctx).str();
            if (accept("transpose " + t.type.dtype, [&](const std::string& name) { return transposeSpecJson(t, name, description); },
                       [&](const std::string& name) { return transposeReplacementCode(t, name, local); }))
              seen.insert(t.innerLoop);
            continue;
          }
          RowsLift& lift = std::get<RowsLift>(rows);
          const unsigned elementBytes = lift.recognition.element.bits / 8;
          if (auto cols = staticTripCount(lift.inner); !lift.columns && cols && *cols * elementBytes < kMinRowBytes) {
            reject("as a row-wise reduction: rows of " + std::to_string(*cols) + " elements (" + std::to_string(*cols * elementBytes) +
                   " bytes) are shorter than one " + std::to_string(kMinRowBytes) + "-byte vector: the loop costs less than a kernel call per row");
            continue;
          }
          lift.outer.loopText = tooling::getText(loopRange(*loop, ctx), ctx).str();
          if (accept(lift.recognition.summary, [&](const std::string& name) { return rowsSpecJson(lift, name, description); },
                     [&](const std::string& name) { return rowsReplacementCode(lift, name, local); }))
            seen.insert(inner);  // part of this lift
          continue;
        }
        auto model = modelLoop(*loop, ctx);
        if (auto* reason = std::get_if<std::string>(&model)) {
          if (reason->rfind("the loop writes to memory", 0) != 0) {
            reject(*reason);
            continue;
          }
          // It writes arrays: an element-wise loop?
          auto mapModel = modelMap(*loop, ctx);
          if (auto* why = std::get_if<std::string>(&mapModel)) {
            reject(*reason + "; as an element-wise loop: " + *why);
            continue;
          }
          MapModel& mm = std::get<MapModel>(mapModel);
          if (auto count = staticTripCount(mm.loop); count && *count < kMinStaticTrip) {
            reject("a loop of " + std::to_string(*count) + " elements: a kernel call (about 10-30 ns) costs more than it saves");
            continue;
          }
          mm.loop.loopText = tooling::getText(loopRange(*loop, ctx), ctx).str();
          auto map = recognizeMap(mm);
          if (auto* why = std::get_if<std::string>(&map)) {
            reject("as an element-wise loop: " + *why);
            continue;
          }
          const MapLift& ml = std::get<MapLift>(map);
          accept(ml.summary, [&](const std::string& name) { return mapSpecJson(ml, name, description); },
                 [&](const std::string& name) { return mapReplacementCode(mm, ml, name, local); });
          continue;
        }
        LoopModel& m = std::get<LoopModel>(model);
        if (auto count = staticTripCount(m); count && *count < kMinStaticTrip) {
          reject("a loop of " + std::to_string(*count) + " elements: a kernel call (about 10-30 ns) costs more than it saves");
          continue;
        }
        m.loopText = tooling::getText(loopRange(*loop, ctx), ctx).str();
        m.function = f->getNameAsString();
        auto recognized = recognize(m, options);
        if (auto* reason = std::get_if<std::string>(&recognized)) {
          reject(*reason);
          continue;
        }
        const Recognition& r = std::get<Recognition>(recognized);
        accept(r.summary, [&](const std::string& name) { return specJson(r, name, description); },
               [&](const std::string& name) { return replacementCode(m, r, name, local); });
      }
    }
    if (request.rewrite && !edits.empty()) {
      const std::string code = sm.getBufferData(sm.getMainFileID()).str();
      std::string lines;
      for (const auto& name : includes) lines += "#include \"" + name + ".h\"\n";
      const tooling::Replacement include(edits.begin()->getFilePath(), includeOffset(code), 0, lines);
      const std::string rewritten = rewriteFile(path, code, edits, include, result.errors);
      result.rewrites.push_back({file, code, rewritten});
    }
  }
  return result;
}

}  // namespace simdgen::lift
