// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/rows_map_model.h"

#include <algorithm>
#include <map>
#include <set>

#include <clang/AST/RecursiveASTVisitor.h>

#include "clang/lift/ast_model.h"
#include "clang/lift/lift_output.h"
#include "clang/lift/matrix_address.h"
#include "clang/lift/recognize.h"

namespace simdgen::lift {
namespace {

using namespace clang;

// Whether `text` names `word` as a whole identifier.
bool namesWord(const std::string& text, const std::string& word) {
  for (size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
    if ((at == 0 || !ident(text[at - 1])) && (at + word.size() == text.size() || !ident(text[at + word.size()]))) return true;
  }
  return false;
}

// The element `text` of the inner loop's body that reads the same place in every column (a param
// of its map), or null.
const ArraySubscriptExpr* elementRead(const Stmt* body, const std::string& text, const ASTContext& ctx) {
  struct Finder : RecursiveASTVisitor<Finder> {
    const ASTContext* ctx;
    std::string text;
    const ArraySubscriptExpr* found = nullptr;
    bool VisitArraySubscriptExpr(ArraySubscriptExpr* e) {
      if (!found && sourceText(*e, *ctx) == text) found = e;
      return true;
    }
  } f;
  f.ctx = &ctx;
  f.text = text;
  f.TraverseStmt(const_cast<Stmt*>(body));
  return f.found;
}

}  // namespace

std::variant<RowsMapLift, std::string> modelRowsMap(const ForStmt& outer, ASTContext& ctx, int mathUlp, const ForStmt*& innerLoop,
                                                    bool& innerIsMap) {
  innerIsMap = false;
  try {
    auto head = loopHeader(outer, ctx);
    if (auto* why = std::get_if<std::string>(&head)) return *why;
    const LoopHeader& rows = std::get<LoopHeader>(head);
    RowsMapLift lift;
    lift.outer = rows.model;

    // { row locals; for (...) {...} } or the inner loop alone
    std::map<const VarDecl*, const Expr*> locals;
    const ForStmt* inner = dyn_cast<ForStmt>(outer.getBody());
    if (const auto* body = dyn_cast<CompoundStmt>(outer.getBody())) {
      for (const Stmt* s : body->body()) {
        if (inner) throw NotLiftable{"`" + sourceText(*s, ctx) + "` follows the loop over the row"};
        if (const auto* decls = dyn_cast<DeclStmt>(s)) addRowLocals(*decls, ctx, locals);
        else if (!(inner = dyn_cast<ForStmt>(s))) throw NotLiftable{"`" + sourceText(*s, ctx) + "` comes before the loop over the row (only declarations may)"};
      }
    }
    if (!inner) throw NotLiftable{"no loop over the row"};
    auto innerHead = loopHeader(*inner, ctx);
    if (auto* why = std::get_if<std::string>(&innerHead)) throw NotLiftable{"its loop over the row: " + *why};
    const LoopHeader& cols = std::get<LoopHeader>(innerHead);
    checkRowLength(cols.start, cols.end, rows.counter, locals);
    auto model = modelMap(*inner, ctx);
    if (auto* why = std::get_if<std::string>(&model)) throw NotLiftable{"its loop over the row: " + *why};
    const MapModel& mm = std::get<MapModel>(model);
    if (mm.runtimeStrides) throw NotLiftable{"its loop over the row reads or writes elements a stride apart"};
    if (mm.reversed) throw NotLiftable{"its loop over the row walks back"};
    auto recognized = recognizeMap(mm, mathUlp);
    if (auto* why = std::get_if<std::string>(&recognized)) throw NotLiftable{"its loop over the row: " + *why};
    innerIsMap = true;
    for (const auto& a : std::get<MapLift>(recognized).outputs)
      if (a.plainChar) throw NotLiftable{"the rows copy plain `char` (a copy per row is lifted)"};
    if (!mm.loop.carried.empty()) throw NotLiftable{"the loop over the row also accumulates"};
    if (!mm.guards.empty()) throw NotLiftable{"the loop over the row stores under conditions it tests once (a row's may differ)"};
    if (mm.loop.secondaryCounters) throw NotLiftable{"the loop over the row steps other variables with its counter"};
    lift.inner = mm.loop;
    MapLift& map = lift.map = std::get<MapLift>(recognized);
    // Byte outputs may alias anything (C's character types): then the nest's bounds and row
    // positions must read no object in memory, which the rows' stores could change.
    if (std::any_of(map.outputs.begin(), map.outputs.end(), [](const MapLift::Array& a) { return a.type.bits == 8; })) {
      std::set<std::string> objects(mm.memoryObjects.begin(), mm.memoryObjects.end());
      bool unchecked = mm.uncheckedObjects;
      const std::set<const VarDecl*> counters = {rows.counter, cols.counter};
      memoryObjects(rows.start, ctx, counters, objects, unchecked);
      memoryObjects(rows.end, ctx, counters, objects, unchecked);
      for (const auto& [v, init] : locals) memoryObjects(init, ctx, counters, objects, unchecked);
      if (!objects.empty() || unchecked)
        throw NotLiftable{"its rows store bytes, which may change what its bounds or row positions read from memory (`" +
                          (objects.empty() ? std::string("?") : *objects.begin()) + "`)"};
    }
    const std::string rowName = rows.model.inductionName;

    // Scalars of the row's loop: one value for every row (a param), or one per row read from an
    // array (`b[r]`, or a row local `float s = scale[r];`): an input with stride 0 and row stride 1.
    std::map<std::string, const VarDecl*> localByName;
    for (const auto& [v, init] : locals) localByName[v->getNameAsString()] = v;
    std::vector<RowsMapLift::Layout> perRow;
    for (auto p = map.params.begin(); p != map.params.end();) {
      const ArraySubscriptExpr* element = nullptr;
      if (localByName.count(p->text)) {
        const VarDecl* v = localByName.at(p->text);
        element = dyn_cast<ArraySubscriptExpr>(locals.at(v)->IgnoreParenImpCasts());
        if (!element || canonicalType(element->getType()) != canonicalType(v->getType()))
          throw NotLiftable{"`" + p->text + "` changes from row to row and is not an element of an array read as it is (`float s = scale[r];`)"};
      } else if (namesWord(p->text, rowName)) {
        element = elementRead(inner->getBody(), p->text, ctx);
        if (!element) throw NotLiftable{"the row's loop reads `" + p->text + "`, a value of the row counter"};
      } else {
        bool perRowLocal = false;
        for (const auto& [name, v] : localByName) perRowLocal = perRowLocal || namesWord(p->text, name);
        if (perRowLocal) throw NotLiftable{"the row's loop reads `" + p->text + "`, which changes from row to row"};
        if (std::find(mm.memoryScalars.begin(), mm.memoryScalars.end(), p->text) != mm.memoryScalars.end())
          lift.scalarsFromMemory.push_back(p->text);
        ++p;
        continue;
      }
      RowsMapLift::Layout layout;
      layout.first = perRowInput(map, p, *element, ctx, rows.counter, rows.model.startText, locals);
      layout.perRow = true;
      perRow.push_back(layout);
    }

    // Where a matrix element of the nest is: [r * stride + c] (a row every row reads: [c]).
    auto layoutOf = [&](const Expr* origin, bool output) {
      const auto* sub = origin ? dyn_cast<ArraySubscriptExpr>(static_cast<const Expr*>(origin)->IgnoreParens()) : nullptr;
      if (!sub) throw NotLiftable{"an element of the row is not read or written as array[position]"};
      MatrixAddress address(ctx, rows.counter, cols.counter, locals);
      address.base(sub->getBase());
      address.index(sub->getIdx(), 1);
      const auto& o = address.outer;
      const auto& c = address.inner;
      if (output && c.unit == 1 && c.stride.empty() && o.unit == 0 && o.stride.empty())
        throw NotLiftable{"`" + sourceText(*sub, ctx) + "` is the same element in every row (the rows add up in it: not element-wise)"};
      if (c.unit != 1 || !c.stride.empty() || o.unit != 0 || (output && o.stride.empty()))
        throw NotLiftable{"`" + sourceText(*sub, ctx) + "` is not element [r][c] of a matrix (a + r * stride + c)" +
                          (output ? "" : " or [c] of a row")};
      return RowsMapLift::Layout{address.first(rows.model.startText, cols.model.startText), o.stride, false};
    };
    for (const auto& in : map.inputs)
      if (in.origin) lift.inputs.push_back(layoutOf(static_cast<const Expr*>(in.origin), false));
    lift.inputs.insert(lift.inputs.end(), perRow.begin(), perRow.end());  // after the arrays, as in map.inputs
    for (const auto& out : map.outputs) {
      const auto st = std::find_if(mm.stores.begin(), mm.stores.end(), [&](const MapStore& s) { return s.base == out.base && s.offset == out.offset; });
      if (st == mm.stores.end()) throw NotLiftable{"an output of the row is not one of its stores"};
      const RowsMapLift::Layout layout = layoutOf(static_cast<const Expr*>(st->element->origin), true);
      if (lift.outputs.empty()) lift.outStride = layout.stride;
      else if (layout.stride != lift.outStride)
        throw NotLiftable{"the outputs' rows are `" + lift.outStride + "` and `" + layout.stride + "` apart (one row stride for all outputs)"};
      lift.outputs.push_back(layout.first);
      if (!out.inPlace.empty()) {  // read and written element for element: the same layout
        const auto in = std::find_if(map.inputs.begin(), map.inputs.end(), [&](const MapLift::Array& a) { return a.name == out.inPlace; });
        const RowsMapLift::Layout& l = lift.inputs[size_t(in - map.inputs.begin())];
        if (l.perRow || l.first != layout.first || l.stride != layout.stride)
          throw NotLiftable{"`" + out.base + "` is read and written at different places of its rows"};
      }
    }
    const size_t arrays = map.inputs.size() - perRow.size();
    lift.summary = map.summary + ", over rows";
    if (!perRow.empty()) {  // the summary's count of inputs: "(1 input," -> "(2 inputs,"
      const std::string before = std::to_string(arrays) + (arrays > 1 ? " inputs," : " input,");
      if (const auto at = lift.summary.find(before); at != std::string::npos)
        lift.summary.replace(at, before.size(), std::to_string(map.inputs.size()) + " inputs,");
    }
    if (const auto cols = staticTripCount(lift.inner); cols && *cols < lift.minCols())
      throw NotLiftable{"rows of " + std::to_string(*cols) + " elements are shorter than one " + std::to_string(kMinRowBytes) +
                        "-byte vector: the loop costs less than the kernel's work per row"};
    innerLoop = inner;
    return lift;
  } catch (const NotLiftable& n) {
    return n.reason;
  }
}

}  // namespace simdgen::lift
