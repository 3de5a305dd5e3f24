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
#include <clang/AST/ParentMapContext.h>
#include <clang/ASTMatchers/ASTMatchFinder.h>
#include <clang/ASTMatchers/ASTMatchers.h>
#include <clang/Format/Format.h>
#include <clang/Frontend/ASTUnit.h>
#include <clang/Lex/Lexer.h>
#include <clang/Tooling/CompilationDatabase.h>
#include <clang/Tooling/Core/Replacement.h>
#include <clang/Tooling/Tooling.h>
#include <clang/Tooling/Transformer/SourceCode.h>
#include <llvm/Support/Path.h>

#include "clang/lift/ast_model.h"
#include "clang/lift/lift_output.h"
#include "clang/lift/map_lift.h"
#include "clang/lift/map_sums_lift.h"
#include "clang/lift/recognize.h"
#include "clang/lift/reduce_expr_lift.h"
#include "clang/lift/accumulate_lift.h"
#include "clang/lift/rows_map_model.h"
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

// Whitespace runs that hold a line break as one space: a remark is one line.
std::string oneLine(const std::string& text) {
  std::string out;
  for (size_t k = 0; k < text.size();) {
    size_t e = text.find_first_not_of(" \t\r\n", k);
    if (e == k) {
      out += text[k++];
      continue;
    }
    if (e == std::string::npos) e = text.size();
    const std::string gap = text.substr(k, e - k);
    out += gap.find_first_of("\r\n") == std::string::npos ? gap : " ";
    k = e;
  }
  return out;
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
// A body that ends in a macro (`for (...) y[i] = SQR(x[i]);`) ends where the macro's use ends.
CharSourceRange loopRange(const ForStmt& loop, ASTContext& ctx) {
  const CharSourceRange file =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(loop.getSourceRange()), ctx.getSourceManager(), ctx.getLangOpts());
  return tooling::maybeExtendRange(file, tok::semi, ctx);
}

// Where the kernels' #include lines go: after the last #include at the top of the file, outside
// every #if (after the #endif of a conditional block that includes something: `#if defined _WIN32
// #include <windows.h> #else ... #endif`), so that the user's own include lines stay as they are.
// An include guard (#ifndef X / #define X first) is the file's own level.
unsigned includeOffset(const std::string& code) {
  unsigned offset = 0;
  int depth = 0, base = 0;
  bool pending = false;  // an #include inside the current conditional block
  std::vector<std::string> directives;
  size_t p = 0;
  while (p < code.size()) {
    size_t e = code.find('\n', p);
    if (e == std::string::npos) e = code.size();
    const unsigned next = static_cast<unsigned>(std::min(e + 1, code.size()));
    std::string line = code.substr(p, e - p);
    size_t k = line.find_first_not_of(" \t");
    const std::string trimmed = k == std::string::npos ? "" : line.substr(k);
    p = e + 1;
    if (trimmed.empty() || trimmed.rfind("//", 0) == 0 || trimmed.rfind("/*", 0) == 0 || trimmed[0] == '*') continue;
    if (trimmed[0] != '#') break;  // code: includes further down belong to it
    size_t w = trimmed.find_first_not_of(" \t", 1);
    const std::string directive = w == std::string::npos ? "" : trimmed.substr(w, trimmed.find_first_of(" \t(<\"", w) - w);
    directives.push_back(directive);
    if (directive == "if" || directive == "ifdef" || directive == "ifndef") {
      ++depth;
    } else if (directive == "define" && directives.size() == 2 && directives[0] == "ifndef") {
      base = 1;  // an include guard
    } else if (directive == "endif") {
      depth = std::max(0, depth - 1);
      if (depth <= base && pending) {
        offset = next;
        pending = false;
      }
    } else if (directive == "include") {
      if (depth <= base) offset = next;
      else pending = true;
    }
  }
  return offset;
}

// The kernel a loop already calls: the loop is the fallback of a block an earlier `lift --rewrite`
// wrote (`{ // simdgen lift: NAME (...) ... else { LOOP } }`); empty otherwise.
std::string earlierLift(const ForStmt& loop, ASTContext& ctx) {
  const SourceManager& sm = ctx.getSourceManager();
  DynTypedNodeList parents = ctx.getParents(loop);
  for (int level = 0; level < 6 && !parents.empty(); ++level) {  // callGuarded's fallback is 5 deep
    if (const auto* block = parents[0].get<CompoundStmt>()) {
      const SourceLocation at = sm.getExpansionLoc(block->getLBracLoc());
      const llvm::StringRef text = sm.getBufferData(sm.getFileID(at)).substr(sm.getFileOffset(at) + 1).ltrim();
      const llvm::StringRef mark = "// simdgen lift: ";
      if (text.starts_with(mark)) return text.substr(mark.size()).take_until([](char c) { return c == ' ' || c == '\n'; }).str();
    }
    parents = ctx.getParents(parents[0]);
  }
  return "";
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

  // Kernel names: those of blocks an earlier --rewrite left in the files are taken.
  std::set<std::string> usedNames;
  for (auto& ast : asts) {
    const SourceManager& sm = ast->getASTContext().getSourceManager();
    const std::string code = sm.getBufferData(sm.getMainFileID()).str();
    const std::string mark = "// simdgen lift: ";
    for (size_t m = code.find(mark); m != std::string::npos; m = code.find(mark, m + 1)) {
      const size_t from = m + mark.size();
      usedNames.insert(code.substr(from, code.find_first_of(" \n", from) - from));
    }
  }
  std::set<std::string> named;  // the functions of --functions found
  for (auto& ast : asts) {
    ASTContext& ctx = ast->getASTContext();
    const SourceManager& sm = ctx.getSourceManager();
    const std::string path = ast->getMainFileName().str();
    const std::string file = givenName(path, request.files);
    tooling::Replacements edits;
    std::set<std::string> includes;
    std::set<const ForStmt*> seen;  // a lambda's loops are also its enclosing function's
    for (const FunctionDecl* f : selectedFunctions(ctx, request)) {
      named.insert(f->getNameAsString());
      named.insert(f->getQualifiedNameAsString());
      const std::string local = localPrefix(*f, ctx);
      for (const ForStmt* loop : loopsOf(*f, ctx)) {
        if (!seen.insert(loop).second) continue;
        Remark remark;
        remark.file = file;
        const PresumedLoc at = sm.getPresumedLoc(sm.getExpansionLoc(loop->getBeginLoc()));
        remark.line = at.getLine();
        remark.column = at.getColumn();
        auto reject = [&](const std::string& reason) {
          remark.text = "not lifted: " + oneLine(reason);
          result.remarks.push_back(remark);
        };
        // A loop an #include brings into the function (`#include "source_axpy_r.h"` in a body)
        // is the header's text, shared with every file that includes it: never rewritten here.
        if (!sm.isInMainFile(sm.getExpansionLoc(loop->getBeginLoc()))) {
          const PresumedLoc in = sm.getPresumedLoc(sm.getExpansionLoc(loop->getBeginLoc()));
          const PresumedLoc use = sm.getPresumedLoc(in.getIncludeLoc());
          if (use.isValid()) {  // the remark points at the #include in the file lifted
            remark.line = use.getLine();
            remark.column = use.getColumn();
          }
          reject("the loop is written in the included file " + (in.isValid() ? llvm::sys::path::filename(in.getFilename()).str() : "?") +
                 ", which other code includes too");
          continue;
        }
        // Judged by the loop's own tokens: a `for` a macro spells stays (its text is the macro's);
        // macros used in its header or body are lifted as what they expand to.
        if (loop->getBeginLoc().isMacroID() ||
            Lexer::makeFileCharRange(CharSourceRange::getTokenRange(loop->getSourceRange()), sm, ctx.getLangOpts()).isInvalid()) {
          reject("the loop comes from a macro expansion");
          continue;
        }
        if (f->isDependentContext()) {
          reject("the loop is in a template, whose types are not known until it is instantiated");
          continue;
        }
        Options options;
        const FloatLicence licence = floatLicence(*loop, ctx);
        options.allowReassociation = request.allowReassociation || licence.reassociate;
        // --math-ulp, else glibc's vector functions' bound where the flags accept approximations.
        const int mathUlp = request.mathUlp ? request.mathUlp : licence.approximateFunctions ? 4 : 0;
        Options alone = options;  // a 1-D loop's: the call's pointers are mapPointer's, strided inputs too
        alone.stridedInputs = true;
        // Rewritten by an earlier run: the spec again (same name), the call already there.
        const std::string earlier = earlierLift(*loop, ctx);
        auto accept = [&](const std::string& summary, const std::function<std::string(const std::string&)>& spec,
                          const std::function<std::string(const std::string&)>& code) {
          std::set<std::string> tentative = usedNames;
          if (request.nameTaken)  // by a spec that another file's loop left in the spec directory
            for (int k = 1; k <= 64; ++k) {
              const std::string candidate = f->getNameAsString() + "_lifted" + (k == 1 ? "" : "_" + std::to_string(k));
              if (!tentative.count(candidate) && request.nameTaken(candidate, file)) tentative.insert(candidate);
            }
          const std::string name = earlier.empty() ? uniqueName(f->getNameAsString() + "_lifted", tentative) : earlier;
          const std::string json = spec(name);
          if (request.validate) {
            if (auto error = request.validate(json)) {
              reject("simdgen cannot build its spec: " + error->substr(0, error->find('\n')));  // one line per remark
              return false;
            }
          }
          usedNames.insert(name);
          result.specs.push_back({name, json});
          remark.text = "lifted: " + name + " (" + summary + ")" + (earlier.empty() ? "" : ", already rewritten");
          result.remarks.push_back(remark);
          if (request.rewrite && earlier.empty()) {
            // The other assignments of a C89 header (`for (i = 0, sp = row; ...)`) run first: the
            // call reads those variables; the loop, if it runs, makes them again.
            std::string replacement = code(name);
            if (const std::string extra = loopInitExtra(*loop, ctx); !extra.empty()) replacement = "{\n" + extra + "\n" + replacement + "\n}";
            llvm::Error e = edits.add(tooling::Replacement(sm, loopRange(*loop, ctx), replacement, ctx.getLangOpts()));
            if (e) result.errors.push_back(file + ": error: " + llvm::toString(std::move(e)));
            includes.insert(name);
          }
          return true;
        };
        const std::string description = "Lifted by simdgen lift from " + file + ":" + std::to_string(remark.line) + ":" +
                                        std::to_string(remark.column) + " (function " + f->getQualifiedNameAsString() + ").";
        if (hasInnerLoop(*loop)) {
          // Stores of bytes may change what the nest reads from memory for its bounds and rows, which
          // one call reads once: such a nest stays (its inner loop is lifted with the checks of one).
          if (const std::string object = byteStoresMayChange(*loop, ctx); !object.empty()) {
            reject("as a nest: it stores bytes, which may change `" + object + "`, read for its bounds or positions");
            continue;
          }
          // A loop over rows: one kernel for the matrix, or a remark (the inner loop may still lift).
          const ForStmt* inner = nullptr;
          auto rows = modelRows(*loop, ctx, options, mathUlp, inner);
          if (auto* reason = std::get_if<std::string>(&rows)) {
            // Rows added into one vector in order (out[c] += w[r] * m[r][c])?
            const ForStmt* accumulated = nullptr;
            auto acc = modelAccumulate(*loop, ctx, accumulated);
            if (auto* a = std::get_if<AccumulateLift>(&acc)) {
              a->outer.loopText = tooling::getText(loopRange(*loop, ctx), ctx).str();
              if (accept(a->summary, [&](const std::string& name) { return accumulateSpecJson(*a, name, description); },
                         [&](const std::string& name) { return accumulateReplacementCode(*a, name, local); }))
                seen.insert(accumulated);
              continue;
            }
            // Element-wise over the rows of matrices (out[r * ld + c] = f(a[r * lda + c], ...))?
            const ForStmt* mapped = nullptr;
            bool innerIsMap = false;
            auto rowsMap = modelRowsMap(*loop, ctx, mathUlp, mapped, innerIsMap);
            if (auto* m = std::get_if<RowsMapLift>(&rowsMap)) {
              m->outer.loopText = tooling::getText(loopRange(*loop, ctx), ctx).str();
              if (accept(m->summary, [&](const std::string& name) { return rowsMapSpecJson(*m, name, description); },
                         [&](const std::string& name) { return rowsMapReplacementCode(*m, name, local); }))
                seen.insert(mapped);
              continue;
            }
            auto transpose = modelTranspose(*loop, ctx);
            if (auto* why = std::get_if<std::string>(&transpose)) {
              // The nest's inner loop is element-wise: say why the nest is not one element-wise call.
              reject(innerIsMap                    ? "as an element-wise nest: " + std::get<std::string>(rowsMap)
                     : why->rfind(kNotANest, 0) != 0 ? "as a transpose: " + *why
                                                     : "as a row-wise reduction: " + *reason);
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
        auto model = modelLoop(*loop, ctx, /*alone=*/true);
        if (auto* reason = std::get_if<std::string>(&model)) {
          if (reason->rfind("the loop writes to memory", 0) != 0) {
            reject(*reason);
            continue;
          }
          // It writes arrays: an element-wise loop?
          auto mapModel = modelMap(*loop, ctx);
          if (auto* why = std::get_if<std::string>(&mapModel)) {
            // A store at another element than a[i + k] (`out[0] += a[i]`): a reduction kept in memory.
            const bool elsewhere = why->find("is not `") != std::string::npos && why->find("+ constant`") != std::string::npos;
            reject(elsewhere ? *reason + "; as an element-wise loop: " + *why : "as an element-wise loop: " + *why);
            continue;
          }
          MapModel& mm = std::get<MapModel>(mapModel);
          if (auto count = staticTripCount(mm.loop); count && *count < kMinStaticTrip) {
            reject("a loop of " + std::to_string(*count) + " elements: a kernel call (about 10-30 ns) costs more than it saves");
            continue;
          }
          mm.loop.loopText = tooling::getText(loopRange(*loop, ctx), ctx).str();
          if (!mm.loop.carried.empty()) {
            // It stores arrays and accumulates: one map with reduction outputs (softmax's exp and sum)?
            auto sums = recognizeMapSums(mm, alone, mathUlp);
            if (auto* why = std::get_if<std::string>(&sums)) {
              std::string names;
              for (const auto& c : mm.loop.carried) names += (names.empty() ? "`" : ", `") + c.name + "`";
              reject("the loop changes " + names + ", declared before it, beside its stores: " + *why);
              continue;
            }
            const MapSumsLift& ms = std::get<MapSumsLift>(sums);
            accept(ms.summary, [&](const std::string& name) { return mapSumsSpecJson(ms, name, description); },
                   [&](const std::string& name) { return mapSumsReplacementCode(mm, ms, name, local); });
            continue;
          }
          auto map = recognizeMap(mm, mathUlp, /*stridedInputs=*/true);
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
        auto recognized = recognize(m, alone);
        if (auto* reason = std::get_if<std::string>(&recognized)) {
          // Not a reduction of one array's elements: of an expression of several (a dot product),
          // or several accumulators at once?
          auto expr = recognizeExprReduce(m, alone, mathUlp);
          if (auto* why = std::get_if<std::string>(&expr)) {
            reject(exprReduceRefusal(*reason, *why));
            continue;
          }
          const ExprReduceLift& er = std::get<ExprReduceLift>(expr);
          accept(er.summary, [&](const std::string& name) { return exprReduceSpecJson(er, name, description); },
                 [&](const std::string& name) { return callGuarded(m, exprReduceReplacementCode(m, er, name, local)); });
          continue;
        }
        const Recognition& r = std::get<Recognition>(recognized);
        accept(r.summary, [&](const std::string& name) { return specJson(r, name, description); },
               [&](const std::string& name) { return callGuarded(m, replacementCode(m, r, name, local)); });
      }
    }
    if (request.rewrite && !edits.empty()) {
      const std::string code = sm.getBufferData(sm.getMainFileID()).str();
      std::string lines;
      // A kernel call that sets errno as the loop's sqrt would (mapReplacementCode) needs its macro.
      bool setsErrno = false;
      for (const auto& edit : edits) setsErrno = setsErrno || edit.getReplacementText().contains("errno = EDOM;");
      if (setsErrno) lines += "#include <errno.h>\n";
      for (const auto& name : includes) lines += "#include \"" + name + ".h\"\n";
      const tooling::Replacement include(edits.begin()->getFilePath(), includeOffset(code), 0, lines);
      const std::string rewritten = rewriteFile(path, code, edits, include, result.errors);
      result.rewrites.push_back({file, code, rewritten});
    }
  }
  for (const auto& want : request.functions)
    if (!named.count(want)) result.unknownFunctions.push_back(want);
  return result;
}

}  // namespace simdgen::lift
