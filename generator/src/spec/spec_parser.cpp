// SPDX-License-Identifier: Apache-2.0
// JSON spec -> KernelSpec. All validation lives here so later layers can trust the KernelSpec;
// every problem becomes a SpecError pointing at the offending value in the file.
#include <algorithm>
#include <cctype>
#include <cstring>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <set>
#include <span>
#include <sstream>

#include "core/isa.h"
#include "spec/affine_index.h"
#include "spec/float_literal.h"
#include "spec/json_locate.h"
#include "spec/spec.h"
#include "spec/system_macros.h"

namespace simdgen {

using nlohmann::json;

namespace {

using Names = std::span<const std::string_view>;

constexpr int kFormatVersion = 1;
constexpr int64_t kMaxExtent = int64_t{1} << 40;
constexpr std::size_t kMaxNameLength = 64;
// Generated code indexes the input with int64_t byte offsets; keep well inside that range.
constexpr int64_t kMaxInputBytes = int64_t{1} << 62;

constexpr std::string_view kTopKeys[] = {"$schema",  "simdgen", "name",     "description", "kind",
                                         "op",       "input",   "output",   "axis",        "targets",
                                         "strategy", "order",   "schedule", "tail",        "index",
                                         "index_type", "nan",   "initial", "shape", "row_stride",
                                         "inputs", "outputs", "params", "dtype", "dims", "operands",
                                         "init", "epilogue", "max_ulp", "parallel"};
// Keys that belong to one kind only.
constexpr std::string_view kReduceOnlyKeys[] = {"output", "strategy"};
constexpr std::string_view kOrderKey[] = {"order"};  // kinds reduce and contraction
constexpr std::string_view kArgReduceOnlyKeys[] = {"index", "index_type", "nan", "initial"};
constexpr std::string_view kMapKeys[] = {"$schema", "simdgen", "name",    "description", "kind", "shape",
                                         "row_stride", "inputs", "outputs", "params",   "targets", "tail", "max_ulp",
                                         "parallel"};
constexpr std::string_view kMapOnlyKeys[] = {"shape", "row_stride", "inputs", "outputs", "params", "max_ulp"};
// The accuracy tiers of the math functions (plan/math/): the largest error allowed, in ULPs.
constexpr int kMaxUlpTiers[] = {1, 4};
constexpr std::string_view kMapInputKeys[] = {"name", "dtype", "stride", "row_stride"};
constexpr std::string_view kMapParamKeys[] = {"name", "dtype"};
constexpr std::string_view kMapOutputKeys[] = {"name", "dtype", "expr", "in_place", "reduce", "internal", "axis", "stride", "row_stride"};
// A map output's "reduce": the ops of kind reduce, and mean (a sum divided by the column count).
constexpr std::string_view kMapReduceNames[] = {"add", "mul", "min", "max", "and", "or", "xor", "mean"};
constexpr std::string_view kMapTailNames[] = {"predicated", "scalar"};
constexpr std::string_view kTransposeKeys[] = {"$schema", "simdgen", "name", "description", "kind",
                                               "input",   "output",  "targets", "tail",   "strategy", "parallel"};
constexpr std::string_view kTransposeStrategyNames[] = {"auto", "unpack", "half_rows"};
constexpr std::string_view kTransposeOutputKeys[] = {"row_stride", "batch_stride", "in_place", "stores"};
constexpr std::string_view kOutputStoresNames[] = {"auto", "cached", "streaming"};
constexpr std::string_view kArgOps[] = {"argmin", "argmax"};
constexpr std::string_view kIndexNames[] = {"first", "last"};
constexpr std::string_view kIndexTypes[] = {"i32", "i64"};
constexpr std::string_view kNanNames[] = {"ignore", "propagate"};
constexpr std::string_view kInitialKeys[] = {"value", "index"};
constexpr std::string_view kInputKeys[] = {"dtype", "shape", "row_stride"};
constexpr std::string_view kBatchedInputKeys[] = {"dtype", "shape", "row_stride", "batch_stride"};
constexpr std::string_view kOutputKeys[] = {"dtype"};
constexpr std::string_view kScheduleKeys[] = {"accumulators", "unroll", "rows", "block"};

constexpr std::string_view kKindNames[] = {"reduce", "arg_reduce", "map", "transpose", "contraction"};
constexpr std::string_view kContractionKeys[] = {"$schema", "simdgen", "name", "description", "kind", "dtype",
                                                 "dims", "operands", "init", "output", "epilogue", "targets", "schedule", "parallel",
                                                 "order"};
constexpr std::string_view kContractionOnlyKeys[] = {"dtype", "dims", "operands", "init", "epilogue"};
constexpr std::string_view kContractionDTypes[] = {"f32", "f64", "i32"};
// Operand storage of an i32 contraction: narrower integers, widened exactly (C's conversion).
constexpr std::string_view kNarrowOperandDTypes[] = {"i8", "u8", "i16", "u16"};
constexpr std::string_view kDimKeys[] = {"name", "extent", "kind"};
constexpr std::string_view kDimKinds[] = {"parallel", "reduction"};
constexpr std::string_view kTensorKeys[] = {"name", "index", "strides", "pack", "dtype", "padding", "extents"};
constexpr std::string_view kPackNames[] = {"ahead"};
constexpr std::string_view kPaddingNames[] = {"zero"};
constexpr std::string_view kAddedTensorKeys[] = {"op", "name", "strides"};
constexpr std::string_view kInitNames[] = {"zero", "output"};
constexpr std::string_view kContractionScheduleKeys[] = {"targets", "output", "init", "update", "compute_at", "store_at", "pack"};
constexpr std::string_view kDirectiveNames[] = {"split", "reorder", "vectorize", "unroll"};
constexpr std::string_view kSplitKeys[] = {"split", "into", "factor", "vectors", "tail"};
constexpr std::string_view kReorderKeys[] = {"reorder"};
constexpr std::string_view kVectorizeKeys[] = {"vectorize", "width"};
constexpr std::string_view kUnrollKeys[] = {"unroll", "factor"};
constexpr std::string_view kSplitTailNames[] = {"auto", "predicate", "guard", "shift_inwards", "round_up"};
constexpr std::string_view kEpilogueOps[] = {"relu", "clamp", "scale", "add", "div"};
constexpr std::string_view kStrategyNames[] = {"auto", "inner_parallel", "inner_reduction",
                                               "vector_accumulator"};
constexpr std::string_view kTailNames[] = {"predicated", "scalar", "none"};
constexpr std::string_view kOrderNames[] = {"any", "sequential"};

// Allowed targets come from the ISA registry (core/isa.h).
std::vector<std::string_view> featureNames(const IsaInfo& isa) {
  std::vector<std::string_view> names;
  for (const IsaFeature& f : isa.features) names.push_back(f.name);
  return names;
}

// Names that would not compile as (or would clash inside) the generated C++.
constexpr std::string_view kCppKeywords[] = {
    "alignas",     "alignof",   "and",        "and_eq",    "asm",      "auto",         "bitand",
    "bitor",       "bool",      "break",      "case",      "catch",    "char",         "char8_t",
    "char16_t",    "char32_t",  "class",      "compl",     "concept",  "const",        "consteval",
    "constexpr",   "constinit", "const_cast", "continue",  "co_await", "co_return",    "co_yield",
    "decltype",    "default",   "delete",     "do",        "double",   "dynamic_cast", "else",
    "enum",        "explicit",  "export",     "extern",    "false",    "float",        "for",
    "friend",      "goto",      "if",         "inline",    "int",      "long",         "mutable",
    "namespace",   "new",       "noexcept",   "not",       "not_eq",   "nullptr",      "operator",
    "or",          "or_eq",     "private",    "protected", "public",   "register",     "reinterpret_cast",
    "requires",    "return",    "short",      "signed",    "sizeof",   "static",       "static_assert",
    "static_cast", "struct",    "switch",     "template",  "this",     "thread_local", "throw",
    "true",        "try",       "typedef",    "typeid",    "typename", "union",        "unsigned",
    "using",       "virtual",   "void",       "volatile",  "wchar_t",  "while",        "xor",
    "xor_eq"};
constexpr std::string_view kReservedNames[] = {"main",      "int8_t",   "uint8_t",  "int16_t",  "uint16_t",
                                               "int32_t",   "uint32_t", "int64_t",  "uint64_t", "size_t",
                                               "ptrdiff_t", "NULL",     "INFINITY", "NAN"};

// The header declares the array parameters under these names next to the runtime extents, so an
// extent may not take them. (Inside the .cpp every parameter has a generator-owned name: no other
// name a user picks can capture or shadow a generated one.)
constexpr std::string_view kLocalNames[] = {"input", "output", "values", "indices"};

bool contains(Names names, std::string_view s) {
  return std::find(names.begin(), names.end(), s) != names.end();
}

std::string join(Names names) {
  std::string out;
  for (std::string_view n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

std::string inQuotes(std::string_view s) { return "\"" + std::string(s) + "\""; }

// Optimal-string-alignment distance (a swap of neighbours costs 1), ignoring case.
std::size_t editDistance(std::string_view a, std::string_view b) {
  auto lower = [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); };
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) && lower(a[i - 2]) == lower(b[j - 1]))
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// " (did you mean "x"?)" for the closest allowed name within distance 2, else "".
std::string suggestion(std::string_view value, Names allowed) {
  std::string_view best;
  std::size_t bestDistance = 3;
  for (std::string_view name : allowed) {
    std::size_t d = editDistance(value, name);
    if (d < bestDistance) best = name, bestDistance = d;
  }
  return best.empty() ? "" : " (did you mean " + inQuotes(best) + "?)";
}

// A shape extent as the spec wrote it: its size or its runtime name (quoted).
std::string extentText(const Extent& e) { return e.isStatic() ? std::to_string(*e.value) : "\"" + e.name + "\""; }

// What a JSON value is, for "expected X, found Y" messages.
std::string describe(const json& j) {
  switch (j.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return j.get<bool>() ? "boolean true" : "boolean false";
    case json::value_t::string: {
      std::string s = j.dump();
      return "string " + (s.size() > 40 ? s.substr(0, 36) + "...\"" : s);
    }
    case json::value_t::array:
      return "an array of " + std::to_string(j.size()) + (j.size() == 1 ? " element" : " elements");
    case json::value_t::object:
      return "an object";
    default:
      return "number " + j.dump();
  }
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  });
}

std::string displayName(const std::filesystem::path& file) { return file.empty() ? "<spec>" : file.string(); }

// Keeps nlohmann's description ("syntax error while parsing value - ...") but drops its
// "[json.exception...] parse error at line L, column C: " prefix: we report our own position.
std::string parseErrorDetail(const std::string& what) {
  auto at = what.find("parse error");
  auto colon = at == std::string::npos ? std::string::npos : what.find(": ", at);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

class Parser {
 public:
  Parser(const std::string& text, const std::filesystem::path& file) : text_(text), file_(file) {}

  // Every independent error of the spec, in the order found (as a compiler reports them): the
  // first is thrown with the others in SpecError::more.
  KernelSpec parse() {
    KernelSpec spec;
    try {
      spec = parseAll();
    } catch (const SpecError& e) {
      errors_.push_back(e);
    } catch (const Stop&) {
    }
    if (!errors_.empty()) {
      // In the order of the text, as a compiler lists them (errors without a position first).
      std::stable_sort(errors_.begin(), errors_.end(), [](const SpecError& a, const SpecError& b) {
        return std::pair(a.line, a.column) < std::pair(b.line, b.column);
      });
      SpecError first = errors_.front();
      first.more.assign(errors_.begin() + 1, errors_.end());
      throw first;
    }
    return spec;
  }

 private:
  // ---- reporting more than the first error ----
  // Thrown when a later check depends on one that failed: the errors so far are the report.
  struct Stop {};
  // Runs a check whose failure later checks do not depend on: its error is kept and parsing goes on.
  template <class Check>
  bool attempt(Check&& check) const {
    try {
      check();
      return true;
    } catch (const SpecError& e) {
      // One error per place: a key that two checks find unknown (the kind's keys are a subset) once.
      if (std::none_of(errors_.begin(), errors_.end(), [&](const SpecError& k) { return k.pointer == e.pointer && !e.pointer.empty(); }))
        errors_.push_back(e);
      return false;
    }
  }
  bool failed() const { return !errors_.empty(); }
  // Before checks that read what an earlier, failed check would have set.
  void stopIfFailed() const {
    if (failed()) throw Stop{};
  }

  KernelSpec parseAll() {
    json root = parseJson();
    if (auto dup = findDuplicateKey(text_))
      attempt([&] {
        failAtOffset(dup->pointer, dup->keyOffset,
                     "duplicate key " + inQuotes(dup->key) + "; JSON keeps only the last value, so remove one of them");
      });
    if (!root.is_object()) fail("", "expected an object (the kernel spec), found " + describe(root));
    checkKeys(root, "", kTopKeys);

    KernelSpec spec;
    spec.file = file_;
    spec.text = text_;
    attempt([&] {
      if (const json* schema = member(root, "$schema")) getString(*schema, "/$schema");  // editor hint only
    });
    attempt([&] { readVersion(required(root, "", "simdgen")); });
    attempt([&] {
      spec.name = getString(required(root, "", "name"), "/name");
      checkIdentifier(spec.name, "/name", "name");
    });
    attempt([&] {
      if (const json* d = member(root, "description")) spec.description = getString(*d, "/description");
    });
    attempt([&] {
      if (const json* p = member(root, "parallel")) {
        if (!p->is_boolean()) fail("/parallel", "expected true or false, found " + describe(*p));
        spec.parallel = p->get<bool>();
      }
    });
    spec.kind = static_cast<KernelKind>(choose(required(root, "", "kind"), "/kind", "kind", kKindNames));
    if (spec.kind == KernelKind::contraction) return parseContraction(root, spec);
    auto foreignKeys = [&](Names keys, const char* owner) {
      for (std::string_view key : keys)
        if (member(root, std::string(key).c_str()))
          attempt([&] {
            failAtKey("/" + std::string(key), "key " + inQuotes(key) + " does not apply to kind " + inQuotes(nameOf(spec.kind)) +
                                                  "; it belongs to kind " + owner);
          });
    };
    foreignKeys(kContractionOnlyKeys, "\"contraction\"");
    if (spec.kind == KernelKind::map) return parseMap(root, spec);
    if (spec.kind == KernelKind::transpose) return parseTranspose(root, spec);
    foreignKeys(kMapOnlyKeys, "\"map\"");
    const bool arg = spec.kind == KernelKind::arg_reduce;
    if (arg) {
      foreignKeys(kReduceOnlyKeys, "\"reduce\"");
      foreignKeys(kOrderKey, "\"reduce\" and \"contraction\"");
    } else {
      foreignKeys(kArgReduceOnlyKeys, "\"arg_reduce\"");
    }
    if (arg) return parseArgReduce(root, spec);

    std::string opName;
    const bool opRead = attempt([&] {
      opName = getString(required(root, "", "op"), "/op");
      auto op = parseReduceOp(opName);
      if (!op)
        fail("/op", "unknown op " + inQuotes(opName) + suggestion(opName, opNames()) + "; allowed: " + join(opNames()));
      spec.op = *op;
    });
    const bool inputRead = attempt([&] { readInput(required(root, "", "input"), spec); });
    if (opRead && inputRead && !opSupports(spec.op, spec.input)) {
      std::vector<std::string_view> ok;
      for (ReduceOp o : kAllReduceOps)
        if (opSupports(o, spec.input)) ok.push_back(nameOf(o));
      attempt([&] {
        fail("/op", "op " + inQuotes(opName) + " is bitwise and needs an integer input, but the input is " +
                        std::string(nameOf(spec.input)) + "; allowed ops for " + std::string(nameOf(spec.input)) + ": " + join(ok));
      });
    }
    if (inputRead) {  // the output and the axis are checked against the input
      attempt([&] { readOutput(member(root, "output"), spec); });
      attempt([&] { readAxis(member(root, "axis"), spec); });
    }
    attempt([&] { readTargets(member(root, "targets"), spec); });
    if (inputRead) attempt([&] { readStrategyAndOrder(root, spec); });
    attempt([&] { readSchedule(member(root, "schedule"), spec); });
    stopIfFailed();
    checkNameClashes(spec);
    readTail(member(root, "tail"), spec);
    return spec;
  }

  // kind "arg_reduce": argmin/argmax with the first or last index, row-wise or over a 1-D array.
  KernelSpec parseArgReduce(const json& root, KernelSpec& spec) const {
    attempt([&] { spec.op = choose(required(root, "", "op"), "/op", "op", kArgOps) == 0 ? ReduceOp::min : ReduceOp::max; });
    const bool inputRead = attempt([&] { readInput(required(root, "", "input"), spec); });
    spec.output = spec.input;
    if (inputRead)
      attempt([&] {
        readAxis(member(root, "axis"), spec);
        if (spec.axis != 1) fail("/axis", "arg_reduce reduces along the last axis (one result per row); allowed: 1");
      });
    attempt([&] {
      if (const json* j = member(root, "index")) spec.lastIndex = choose(*j, "/index", "index", kIndexNames) == 1;
    });
    const bool indexTypeRead = attempt([&] {
      if (const json* j = member(root, "index_type"))
        spec.indexType = choose(*j, "/index_type", "index_type", kIndexTypes) == 0 ? DType::i32 : DType::i64;
    });
    if (inputRead)
      attempt([&] {
        if (const json* j = member(root, "nan")) {
          spec.nan = static_cast<NanPolicy>(choose(*j, "/nan", "nan", kNanNames));
          if (!isFloat(spec.input))
            fail("/nan", "a NaN policy applies to float inputs only, but the input is " + std::string(nameOf(spec.input)));
        }
      });
    if (inputRead && indexTypeRead)  // the initial pair must fit the input's dtype and the index type
      attempt([&] {
        if (const json* j = member(root, "initial")) readInitial(*j, spec);
      });
    attempt([&] { readTargets(member(root, "targets"), spec); });
    attempt([&] {
      readSchedule(member(root, "schedule"), spec);
      if (spec.schedule.rows || spec.schedule.unroll)
        fail("/schedule", "arg_reduce takes schedule keys accumulators and block; allowed: accumulators, block");
    });
    stopIfFailed();
    checkNameClashes(spec);
    readTail(member(root, "tail"), spec);
    return spec;
  }

  // kind "transpose": output[c, r] = input[r, c], the output cols x rows with a row stride of its own.
  KernelSpec parseTranspose(const json& root, KernelSpec& spec) const {
    for (std::string_view key : kTopKeys)
      if (!contains(kTransposeKeys, key) && member(root, std::string(key).c_str()))
        attempt([&] {
          failAtKey("/" + std::string(key), "key " + inQuotes(key) + " does not apply to kind \"transpose\"; allowed keys: " +
                                                join(kTransposeKeys));
        });
    checkKeys(root, "", kTransposeKeys);
    attempt([&] {
      if (const json* j = member(root, "strategy"))
        spec.transposeStrategy = static_cast<TransposeStrategy>(choose(*j, "/strategy", "strategy", kTransposeStrategyNames));
    });
    attempt([&] { readTargets(member(root, "targets"), spec); });
    readInput(required(root, "", "input"), spec, true);  // the output is checked against it
    spec.output = spec.input;
    attempt([&] { readTransposeOutput(root, spec); });
    stopIfFailed();
    if (spec.batchStride && spec.rowStride && !spec.batchStride->isStatic() && !spec.rowStride->isStatic() &&
        spec.batchStride->name == spec.rowStride->name)
      fail("/input/batch_stride", "runtime batch_stride " + inQuotes(spec.batchStride->name) + " has the same name as the row_stride");
    checkNameClashes(spec);
    if (spec.outputRowStride) checkNameClash(spec, *spec.outputRowStride, "/output/row_stride");
    if (spec.batch) checkNameClash(spec, *spec.batch, "/input/shape/0");
    if (spec.batchStride) checkNameClash(spec, *spec.batchStride, "/input/batch_stride");
    if (spec.outputBatchStride) checkNameClash(spec, *spec.outputBatchStride, "/output/batch_stride");
    if (const json* j = member(root, "tail"))
      spec.tail = choose(*j, "/tail", "tail", kMapTailNames) == 0 ? TailPolicy::predicated : TailPolicy::scalar;
    return spec;
  }

  // A transpose's "output": in place, its stores, its row and batch strides.
  void readTransposeOutput(const json& root, KernelSpec& spec) const {
    if (const json* j = member(root, "output")) {
      if (j->is_object() && member(*j, "dtype"))
        failAtKey("/output/dtype", "a transpose's output has the input's dtype (" + std::string(nameOf(spec.input)) +
                                       "): remove \"dtype\"; allowed keys: " + join(kTransposeOutputKeys));
      const json& output = getObject(*j, "/output", kTransposeOutputKeys);
      if (const json* inPlace = member(output, "in_place")) {
        if (!inPlace->is_boolean()) fail("/output/in_place", "expected true or false, found " + describe(*inPlace));
        spec.inPlace = inPlace->get<bool>();
        const bool square = spec.rows.isStatic() == spec.cols.isStatic() &&
                            (spec.rows.isStatic() ? *spec.rows.value == *spec.cols.value : spec.rows.name == spec.cols.name);
        if (spec.inPlace && !square)
          fail("/output/in_place", "in_place needs a square matrix: rows (" + extentText(spec.rows) + ") and cols (" + extentText(spec.cols) +
                                       ") are not the same extent; give both the same runtime name or the same size");
        for (const char* key : {"row_stride", "batch_stride"})
          if (spec.inPlace && member(output, key))
            failAtKey(std::string("/output/") + key, std::string("in_place: the output is the input, with its ") + key + ": remove " + key);
      }
      if (const json* stores = member(output, "stores")) {
        spec.outputStores = static_cast<OutputStores>(choose(*stores, "/output/stores", "stores", kOutputStoresNames));
        if (spec.inPlace && spec.outputStores == OutputStores::streaming)
          fail("/output/stores", "stores \"streaming\" does not apply in place (each tile pair is read back where it is written); use \"auto\" or \"cached\"");
      }
      if (const json* stride = member(output, "row_stride")) {
        Extent s = readExtent(*stride, "/output/row_stride");
        if (s.isStatic() && spec.rows.isStatic() && *s.value < *spec.rows.value)
          fail("/output/row_stride", "row_stride " + std::to_string(*s.value) +
                                         " is smaller than the output's row length (rows = " + std::to_string(*spec.rows.value) +
                                         "), so its rows would overlap");
        for (const Extent* d : {&spec.rows, &spec.cols, spec.batch ? &*spec.batch : nullptr})
          if (d && !s.isStatic() && !d->isStatic() && s.name == d->name)
            fail("/output/row_stride", "runtime row_stride " + inQuotes(s.name) +
                                           " has the same name as a shape extent; use a different name, or omit "
                                           "row_stride for contiguous rows (rows elements apart)");
        if (s.isStatic() && spec.cols.isStatic() && *s.value > 0 && *spec.cols.value > kMaxInputBytes / (*s.value * bytesOf(spec.input)))
          fail("/output/row_stride", "the output would span more than 2^62 bytes");
        spec.outputRowStride = s;
      }
      if (const json* stride = member(output, "batch_stride")) {
        if (!spec.batch) fail("/output/batch_stride", "batch_stride applies only to a batched input (shape [batch, rows, cols]); remove it");
        std::vector<Extent> names{*spec.batch, spec.rows, spec.cols};
        if (spec.rowStride) names.push_back(*spec.rowStride);
        if (spec.outputRowStride) names.push_back(*spec.outputRowStride);
        spec.outputBatchStride = readBatchStride(*stride, "/output/batch_stride", spec, spec.cols,
                                                 spec.outputRowStride ? *spec.outputRowStride : spec.rows, names);
      }
    }
  }

  // kind "contraction": output[out index] = epilogue(init + sum over the reduction dims of the
  // product of the two operands), over named dims (spec/contraction_spec.h).
  KernelSpec parseContraction(const json& root, KernelSpec& spec) const {
    checkKeys(root, "", kContractionKeys);
    ContractionSpec& c = spec.contraction;
    const bool dtypeRead = attempt([&] {
      c.dtype = getDType(required(root, "", "dtype"), "/dtype");
      if (!contains(kContractionDTypes, nameOf(c.dtype)))
        fail("/dtype", "contraction supports f32, f64 and (exact, wrapping) i32 sums: allowed: " + join(kContractionDTypes) + "; found " + inQuotes(nameOf(c.dtype)));
    });
    attempt([&] { readTargets(member(root, "targets"), spec); });
    attempt([&] {
      if (const json* j = member(root, "order")) spec.order = static_cast<FloatOrder>(choose(*j, "/order", "order", kOrderNames));
    });
    if (!dtypeRead) throw Stop{};  // the tensors' dtypes are checked against it
    spec.input = spec.output = c.dtype;
    std::vector<std::string> taken;  // public names: extents, strides, tensors, scalars
    readDims(required(root, "", "dims"), c, taken);
    auto claim = [&](const std::string& name, const std::string& pointer, const char* what) {
      claimName(taken, spec, name, pointer, what, "an extent, stride, tensor or scalar");
    };
    const json& operands = required(root, "", "operands");
    if (!operands.is_array() || operands.size() != 2)
      fail("/operands", "expected an array of the two multiplied tensors ({\"name\", \"index\"}), found " + describe(operands));
    for (std::size_t k = 0; k < 2; ++k) {
      const std::string at = "/operands/" + std::to_string(k);
      attempt([&] { c.operands.push_back(readContractionTensor(operands[k], at, c, claim, false, true)); });
    }
    attempt([&] { c.output = readContractionTensor(required(root, "", "output"), "/output", c, claim, true); });
    stopIfFailed();  // the checks below read the operands and the output
    for (const ContractionTensor& t : c.operands)
      if (t.bf16 && spec.order == FloatOrder::sequential)
        fail("/order", "order \"sequential\" needs each product rounded and added on its own, and bf16 operand " + inQuotes(t.name) +
                           " is read by the bf16 dot-product instructions, which add products in pairs; store it as f32 or use order \"any\"");
    std::vector<int> seen(c.dims.size(), 0);
    for (std::size_t p = 0; p < c.output.index.size(); ++p) {
      const AffineIndex& ix = c.output.index[p];
      const std::string at = "/output/index/" + std::to_string(p);
      const int d = ix.plainDim();
      if (d < 0) fail(at, "the output is indexed by plain dims, one per dimension; found " + inQuotes(ix.text));
      if (c.dims[size_t(d)].reduction)
        fail(at, "dim " + inQuotes(c.dims[size_t(d)].name) + " is a reduction dim: it is summed over and cannot index the output; make it \"parallel\" or remove it from the output's index");
      if (seen[size_t(d)]++) fail(at, "dim " + inQuotes(c.dims[size_t(d)].name) + " indexes the output twice");
    }
    checkPaddedPositions(c);
    for (std::size_t d = 0; d < c.dims.size(); ++d) {
      const std::string at = "/dims/" + std::to_string(d);
      if (!c.dims[d].reduction && !seen[d])
        fail(at, "parallel dim " + inQuotes(c.dims[d].name) + " does not index the output; a dim that is summed over is a reduction: add \"kind\": \"reduction\"");
      bool used = false;
      for (const ContractionTensor& t : c.operands)
        for (const AffineIndex& ix : t.index) used = used || ix.uses(int(d));
      if (c.dims[d].reduction && !used)
        fail(at, "reduction dim " + inQuotes(c.dims[d].name) + " indexes neither operand: the sum would repeat the same product; remove it");
    }
    if (const json* init = member(root, "init")) attempt([&] {
      if (init->is_string()) {
        c.init = choose(*init, "/init", "init", kInitNames) == 0 ? ContractionInit::zero : ContractionInit::output;
      } else {
        if (!init->is_object())
          fail("/init", "expected \"zero\", \"output\" (accumulate into the output's contents) or a tensor {\"name\", \"index\"} (a bias), found " + describe(*init));
        c.init = ContractionInit::operand;
        c.initOperand = readContractionTensor(*init, "/init", c, claim, false);
        checkParallelIndex(c.initOperand, "/init", c);
      }
    });
    if (const json* epilogue = member(root, "epilogue")) attempt([&] {
      if (!epilogue->is_array())
        fail("/epilogue", "expected an array of steps ({\"op\": \"relu\"}, ...), found " + describe(*epilogue));
      for (std::size_t k = 0; k < epilogue->size(); ++k)
        attempt([&] { c.epilogue.push_back(readEpilogueStep((*epilogue)[k], "/epilogue/" + std::to_string(k), c, claim)); });
    });
    stopIfFailed();
    if (const json* schedule = member(root, "schedule")) {
      if (schedule->is_array()) {
        for (std::size_t k = 0; k < schedule->size(); ++k)
          c.schedules.push_back(readContractionSchedule((*schedule)[k], "/schedule/" + std::to_string(k), spec, c));
      } else {
        c.schedules.push_back(readContractionSchedule(*schedule, "/schedule", spec, c));
      }
      for (std::size_t k = 0; k + 1 < c.schedules.size(); ++k)
        if (c.schedules[k].targets.empty())
          fail(c.schedules[k + 1].pointer, "this schedule is never used: the one before it lists no \"targets\" and so applies to every target; "
                                           "give that one \"targets\" or move it last");
    }
    packAhead(c, taken, claim);
    std::vector<std::string> functions{spec.name};
    for (const ContractionTensor& t : c.operands)
      if (t.packedFrom) {
        functions.push_back(spec.name + "_pack_" + t.packedFrom->name);
        functions.push_back(spec.name + "_" + t.packedFrom->name + "_packed_elements");
      }
    for (const TargetRequest& t : spec.targets) {
      std::string f = spec.name + "_" + t.spelling();
      std::replace(f.begin(), f.end(), '+', '_');
      functions.push_back(f);
    }
    for (const std::string& name : taken)
      if (std::find(functions.begin() + 1, functions.end(), name) != functions.end())
        fail("/name", "parameter " + inQuotes(name) + " has the name of the generated function " + name);
    for (auto f = functions.begin(); f != functions.end(); ++f)
      if (std::find(f + 1, functions.end(), *f) != functions.end())
        fail("/operands", "two generated functions would both be named " + *f + "; rename an operand packed ahead");
    return spec;
  }

  // A public name (a parameter of the header) the spec gives: a usable identifier, not taken by
  // another parameter (`users` says by what) nor the kernel's name; then taken.
  void claimName(std::vector<std::string>& taken, const KernelSpec& spec, const std::string& name, const std::string& pointer,
                 const char* what, const char* users) const {
    checkIdentifier(name, pointer, what);
    if (std::find(taken.begin(), taken.end(), name) != taken.end())
      fail(pointer, "name " + inQuotes(name) + " is already used (by " + users + "); every parameter needs its own name");
    if (name == spec.name) fail(pointer, "name " + inQuotes(name) + " is the kernel's name");
    taken.push_back(name);
  }

  // A contraction's "schedule" object (spec/contraction_schedule.h): its form only; what the
  // directives mean for a target is checked when planning (plan/contraction_schedule.cpp).
  ContractionSchedule readContractionSchedule(const json& j, const std::string& at, const KernelSpec& spec, const ContractionSpec& c) const {
    ContractionSchedule out;
    out.pointer = at;
    getObject(j, at, kContractionScheduleKeys);
    if (const json* targets = member(j, "targets")) {
      std::vector<std::string> known;
      for (const TargetRequest& t : spec.targets) known.push_back(t.spelling());
      if (!targets->is_array() || targets->empty())
        fail(at + "/targets", "expected a non-empty array of the spec's targets, found " + describe(*targets));
      for (std::size_t k = 0; k < targets->size(); ++k) {
        const std::string where = at + "/targets/" + std::to_string(k);
        const std::string t = getString((*targets)[k], where);
        if (std::find(known.begin(), known.end(), t) == known.end()) {
          std::vector<std::string_view> names(known.begin(), known.end());
          fail(where, "target " + inQuotes(t) + " is not one of the spec's targets" + suggestion(t, names) + "; allowed: " + join(names));
        }
        out.targets.push_back(t);
      }
    }
    auto stage = [&](const char* key, std::vector<ScheduleDirective>& into, Names allowed) {
      const json* list = member(j, key);
      if (!list) return;
      const std::string where = at + "/" + key;
      if (!list->is_array()) fail(where, "expected an array of directives ({\"split\": ...}, {\"reorder\": [...]}, ...), found " + describe(*list));
      for (std::size_t k = 0; k < list->size(); ++k) into.push_back(readDirective((*list)[k], where + "/" + std::to_string(k), key, allowed));
    };
    stage("output", out.output, kDirectiveNames);
    // The initialisation and the update run inside the output's register tile (compute_at): their
    // loops are the spec's dims, which they may vectorize, unroll or (the update) reorder.
    static constexpr std::string_view kInitDirectives[] = {"vectorize", "unroll"};
    static constexpr std::string_view kUpdateDirectives[] = {"reorder", "vectorize", "unroll"};
    stage("init", out.init, kInitDirectives);
    stage("update", out.update, kUpdateDirectives);
    if (const json* v = member(j, "compute_at")) out.computeAt = getString(*v, out.computeAtPointer = at + "/compute_at");
    if (const json* v = member(j, "store_at")) out.storeAt = getString(*v, out.storeAtPointer = at + "/store_at");
    if (const json* pack = member(j, "pack")) {
      out.packGiven = true;
      out.packPointer = at + "/pack";
      if (!pack->is_array()) fail(out.packPointer, "expected an array of operand names (empty: pack nothing), found " + describe(*pack));
      std::vector<std::string_view> names{c.operands[0].name, c.operands[1].name};
      for (std::size_t k = 0; k < pack->size(); ++k) {
        const std::string where = out.packPointer + "/" + std::to_string(k);
        out.pack.push_back(getString((*pack)[k], where));
        if (!contains(names, out.pack.back()))
          fail(where, "unknown operand " + inQuotes(out.pack.back()) + suggestion(out.pack.back(), names) + "; allowed: " + join(names));
      }
    }
    return out;
  }

  // {"split": "x", "into": ["xo", "xi"], "factor": 5 | "vectors": 4, "tail": ...}, {"reorder": [...]},
  // {"vectorize": "ci", "width": 16 | "native"}, {"unroll": "xi", "factor": 2}.
  ScheduleDirective readDirective(const json& j, const std::string& at, const char* stage, Names allowed) const {
    if (!j.is_object()) fail(at, "expected a directive object ({\"split\": ...}, {\"reorder\": [...]}, {\"vectorize\": ...}, {\"unroll\": ...}), found " + describe(j));
    ScheduleDirective d;
    d.pointer = at;
    std::string kind;
    for (const auto& [key, value] : j.items())
      if (contains(kDirectiveNames, key)) {
        if (!kind.empty()) failAtKey(at + "/" + key, "one directive per object: found both " + inQuotes(kind) + " and " + inQuotes(key));
        kind = key;
      }
    if (kind.empty()) fail(at, "expected one of the keys " + join(allowed) + " (the directive)");
    if (!contains(allowed, kind))
      failAtKey(at + "/" + kind, "directive " + inQuotes(kind) + " does not apply to " + inQuotes(stage) +
                                     (std::string(stage) == "output" ? "" : ", which runs inside the output's register tile over the spec's dims; split the output's loops instead") +
                                     "; allowed: " + join(allowed));
    auto loopName = [&](const char* key) {
      std::string name = getString(j.at(key), at + "/" + key);
      checkIdentifier(name, at + "/" + key, "loop name");
      return name;
    };
    if (kind == "split") {
      checkKeys(j, at, kSplitKeys);
      d.kind = ScheduleDirective::Kind::split;
      d.loop = loopName("split");
      const json& into = required(j, at, "into");
      if (!into.is_array() || into.size() != 2)
        fail(at + "/into", "expected the names of the two loops the split makes, [outer, inner], found " + describe(into));
      for (std::size_t k = 0; k < 2; ++k) {
        (k ? d.inner : d.outer) = getString(into[k], at + "/into/" + std::to_string(k));
        checkIdentifier(k ? d.inner : d.outer, at + "/into/" + std::to_string(k), "loop name");
      }
      if (d.outer == d.inner) fail(at + "/into/1", "the outer and inner loops need different names; both are " + inQuotes(d.inner));
      const json* factor = member(j, "factor");
      const json* vectors = member(j, "vectors");
      if (factor && vectors) failAtKey(at + "/vectors", "give either \"factor\" (elements) or \"vectors\" (vectors of the vectorized width), not both");
      if (!factor && !vectors) fail(at + "/factor", "missing required key \"factor\" (the inner loop's extent in elements; or \"vectors\")");
      if (factor) d.factor = getInt(*factor, at + "/factor", 1, int64_t{1} << 20);
      if (vectors) d.vectors = getInt(*vectors, at + "/vectors", 1, 16);
      if (const json* tail = member(j, "tail")) d.tail = static_cast<SplitTail>(choose(*tail, at + "/tail", "tail", kSplitTailNames));
    } else if (kind == "reorder") {
      checkKeys(j, at, kReorderKeys);
      d.kind = ScheduleDirective::Kind::reorder;
      const json& order = j.at("reorder");
      if (!order.is_array() || order.size() < 2)
        fail(at + "/reorder", "expected an array of at least two loop names, innermost first (as in Halide), found " + describe(order));
      for (std::size_t k = 0; k < order.size(); ++k) {
        const std::string where = at + "/reorder/" + std::to_string(k);
        d.order.push_back(getString(order[k], where));
        if (std::find(d.order.begin(), d.order.end() - 1, d.order.back()) != d.order.end() - 1)
          fail(where, "loop " + inQuotes(d.order.back()) + " is listed twice");
      }
    } else if (kind == "vectorize") {
      checkKeys(j, at, kVectorizeKeys);
      d.kind = ScheduleDirective::Kind::vectorize;
      d.loop = loopName("vectorize");
      if (const json* width = member(j, "width"))
        if (!(width->is_string() && width->get<std::string>() == "native")) {
          if (width->is_string()) fail(at + "/width", "expected a number of lanes or \"native\" (the target's vector, scalable on SVE), found " + describe(*width));
          d.width = getInt(*width, at + "/width", 1, 1024);
        }
    } else {
      checkKeys(j, at, kUnrollKeys);
      d.kind = ScheduleDirective::Kind::unroll;
      d.loop = loopName("unroll");
      if (const json* factor = member(j, "factor")) d.factor = getInt(*factor, at + "/factor", 2, 64);
    }
    return d;
  }

  // "dims": [{"name": "i", "extent": 64 | "m", "kind": "parallel" | "reduction"}, ...]
  void readDims(const json& dims, ContractionSpec& c, std::vector<std::string>& taken) const {
    if (!dims.is_array() || dims.empty())
      fail("/dims", "expected a non-empty array of dims ({\"name\": \"i\", \"extent\": 64 or \"m\"}), found " + describe(dims));
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const std::string at = "/dims/" + std::to_string(d);
      const json& dim = getObject(dims[d], at, kDimKeys);
      ContractionDim out;
      out.name = getString(required(dim, at, "name"), at + "/name");
      checkIdentifier(out.name, at + "/name", "dim name");
      for (const ContractionDim& other : c.dims)
        if (other.name == out.name) fail(at + "/name", "dim " + inQuotes(out.name) + " is declared twice");
      out.extent = readExtent(required(dim, at, "extent"), at + "/extent");
      if (!out.extent.isStatic() && std::find(taken.begin(), taken.end(), out.extent.name) == taken.end())
        taken.push_back(out.extent.name);  // dims may share a runtime extent (a square matrix)
      if (const json* kind = member(dim, "kind")) out.reduction = choose(*kind, at + "/kind", "dim kind", kDimKinds) == 1;
      c.dims.push_back(out);
    }
    if (c.dims.size() > 8) fail("/dims", "at most 8 dims are supported, found " + std::to_string(c.dims.size()));
  }

  bool isExtentName(const ContractionSpec& c, const std::string& name) const {
    for (const ContractionDim& d : c.dims)
      if (!d.extent.isStatic() && d.extent.name == name) return true;
    return false;
  }

  // {"name", "index": [...], "strides": [...]}; `output`: the output (plain dims, checked by the caller).
  template <class Claim>
  ContractionTensor readContractionTensor(const json& j, const std::string& at, ContractionSpec& c, Claim& claim, bool output,
                                          bool operand = false) const {
    const json& obj = getObject(j, at, kTensorKeys);
    ContractionTensor t;
    t.pointer = at;
    t.name = getString(required(obj, at, "name"), at + "/name");
    claim(t.name, at + "/name", output ? "output name" : "tensor name");
    const json& index = required(obj, at, "index");
    if (output && index.is_array() && index.empty())
      fail(at + "/index", "a contraction's output has at least one dimension (a parallel dim); a reduction to one value, such as a "
                          "dot product, is kind \"map\" with a reduction output: {\"name\": \"dot\", \"dtype\": \"f32\", \"reduce\": "
                          "\"add\", \"expr\": \"a * b\"} (docs/spec.md, \"Reductions and passes\")");
    if (!index.is_array() || index.empty())
      fail(at + "/index", "expected a non-empty array of index expressions, one per dimension (e.g. [\"i\", \"k\"]), found " + describe(index));
    for (std::size_t p = 0; p < index.size(); ++p) {
      const std::string ip = at + "/index/" + std::to_string(p);
      const std::string text = getString(index[p], ip);
      try {
        t.index.push_back(parseAffineIndex(text, c.dims));
      } catch (const ExprError& e) {
        failInString(ip, text, e.offset, e.what());
      }
    }
    if (const json* strides = member(obj, "strides")) t.strides = readStrides(*strides, at + "/strides", index.size(), c, claim);
    if (const json* pack = member(obj, "pack")) {
      if (!operand)
        fail(at + "/pack", "only an operand (\"operands\") can be packed ahead: the kernel reads the output and the init tensor as the caller lays them out");
      choose(*pack, at + "/pack", "pack", kPackNames);
      t.packedFrom = ContractionTensor::Source{};
    }
    if (const json* dtype = member(obj, "dtype")) {
      if (!operand)
        fail(at + "/dtype", "only an operand (\"operands\") can have a dtype of its own: the output, the init tensor and added tensors have the contraction's dtype " +
                                inQuotes(nameOf(c.dtype)) + "; drop \"dtype\"");
      const std::string name = getString(*dtype, at + "/dtype");
      const bool same = name == nameOf(c.dtype), bf16 = name == "bf16" && c.dtype == DType::f32;
      const bool narrow = c.dtype == DType::i32 && contains(kNarrowOperandDTypes, name);
      if (!same && !bf16 && !narrow)
        fail(at + "/dtype", "an operand's dtype is the contraction's (" + inQuotes(nameOf(c.dtype)) +
                                "), in an f32 contraction \"bf16\" (stored as bfloat16, computed in f32), in an i32 contraction one of " +
                                join(kNarrowOperandDTypes) + " (widened exactly, computed in i32); found " + inQuotes(name));
      t.bf16 = bf16;
      if (narrow) t.narrow = *parseDType(name);
    }
    readPadding(obj, at, t, c, operand);
    return t;
  }

  // "padding": "zero" with "extents" (operands only): reads outside the extents are zeros. An
  // index with a negative offset ("y + ky - 1") needs it.
  void readPadding(const json& obj, const std::string& at, ContractionTensor& t, const ContractionSpec& c, bool operand) const {
    const json* padding = member(obj, "padding");
    const json* extents = member(obj, "extents");
    if (padding || extents) {
      const std::string where = at + (padding ? "/padding" : "/extents");
      if (!operand)
        fail(where, "only an operand (\"operands\") can be padded: the kernel reads the init and added tensors and writes the output inside their extents");
      if (!padding)
        fail(at + "/extents", "\"extents\" gives a padded operand's real size: add \"padding\": \"zero\" (reads outside the extents are zeros), or drop "
                              "\"extents\" (the tensor then spans what its indices reach)");
      choose(*padding, at + "/padding", "padding", kPaddingNames);
      if (!extents)
        fail(at + "/padding", "a padded operand needs \"extents\", its real extent per dimension (numbers or dims' extent names, e.g. [\"batch\", "
                              "\"height\", \"width\", \"in_channels\"]): the kernel reads zeros outside them");
      if (member(obj, "pack"))
        fail(at + "/pack", "a padded operand cannot be packed ahead (the copy would hold its zeros): drop \"pack\" or the padding");
      if (!extents->is_array() || extents->size() != t.index.size())
        fail(at + "/extents", "expected one extent per index entry (" + std::to_string(t.index.size()) + "), each a number or a dim's extent name, found " + describe(*extents));
      for (std::size_t p = 0; p < extents->size(); ++p) {
        const std::string ep = at + "/extents/" + std::to_string(p);
        const json& e = (*extents)[p];
        if (auto v = asInt(e)) {
          if (*v < 0 || *v > kMaxExtent) fail(ep, "a static extent must be from 0 to 2^40 elements, found " + describe(e));
          t.extents.push_back(Extent{*v, ""});
          continue;
        }
        if (!e.is_string()) fail(ep, "expected a number of elements (0 to 2^40) or a dim's extent name, found " + describe(e));
        const Extent x = readExtent(e, ep);
        if (!isExtentName(c, x.name)) {
          std::string names;
          for (const ContractionDim& d : c.dims)
            if (!d.extent.isStatic() && names.find(inQuotes(d.extent.name)) == std::string::npos) names += (names.empty() ? "" : ", ") + inQuotes(d.extent.name);
          fail(ep, inQuotes(x.name) + " is no dim's extent; a padded operand's extents are numbers or the dims' runtime extents (" +
                       (names.empty() ? std::string("this spec has none") : names) + ")");
        }
        t.extents.push_back(x);
      }
    }
    for (std::size_t p = 0; p < t.index.size(); ++p)
      if (t.index[p].constant < 0 && !t.padded())
        fail(at + "/index/" + std::to_string(p),
             "the index " + inQuotes(t.index[p].text) + " reads before the tensor's first element (a window that starts outside it, as \"same\" "
             "padding does): make the operand padded, \"padding\": \"zero\" with its real \"extents\", and the kernel reads zeros "
             "outside them" + (operand ? "" : " (operands only)"));
  }

  // Operands with "pack": "ahead" (spec/contraction_spec.h): checked, then rewritten into the
  // dense copy the kernel reads (vector dim innermost, reduction dims in the spec's order after
  // the other parallel dims); the caller's tensor is kept as its source. Runtime strides only the
  // sources use are no parameters of the kernel (the pack function takes them).
  template <class Claim>
  void packAhead(ContractionSpec& c, const std::vector<std::string>& taken, Claim& claim) const {
    const int vdim = c.output.index.back().plainDim();
    for (ContractionTensor& t : c.operands) {
      if (!t.packedFrom) continue;
      std::vector<int> seen(c.dims.size(), 0);
      for (std::size_t p = 0; p < t.index.size(); ++p) {
        const int d = t.index[p].plainDim();
        const std::string ip = t.pointer + "/index/" + std::to_string(p);
        if (d < 0)
          fail(ip, "an operand packed ahead is indexed by plain dims, one per dimension (the copy is laid out by dim); found " + inQuotes(t.index[p].text) +
                       "; drop \"pack\" or pack the other operand");
        if (seen[size_t(d)]++) fail(ip, "dim " + inQuotes(c.dims[size_t(d)].name) + " indexes the operand twice; an operand packed ahead needs one dim per dimension");
      }
      if (!seen[size_t(vdim)])
        fail(t.pointer + "/pack", "packing ahead lays " + inQuotes(t.name) + " out with the output's innermost dim " + inQuotes(c.dims[size_t(vdim)].name) +
                                      " innermost, so that the kernel reads it as vectors; " + inQuotes(t.name) + " does not depend on " +
                                      inQuotes(c.dims[size_t(vdim)].name) + ": there is nothing to gain; drop \"pack\"");
      t.packedFrom->name = t.name;
      t.packedFrom->index = std::move(t.index);
      t.packedFrom->strides = std::move(t.strides);
      t.index.clear();
      t.strides.clear();
      auto place = [&](bool reduction) {
        for (std::size_t d = 0; d < c.dims.size(); ++d)
          if (seen[d] && c.dims[d].reduction == reduction && int(d) != vdim) {
            AffineIndex ix;
            ix.terms.push_back({int(d), 1});
            ix.text = c.dims[d].name;
            t.index.push_back(ix);
          }
      };
      place(false);
      place(true);
      AffineIndex last;
      last.terms.push_back({vdim, 1});
      last.text = c.dims[size_t(vdim)].name;
      t.index.push_back(last);
      t.packBlock = packBlockOf(c, t, vdim);
      t.name = t.packedFrom->name + "_packed";
      if (std::find(taken.begin(), taken.end(), t.name) != taken.end())
        fail(t.pointer + "/name", "the kernel's parameter for " + inQuotes(t.packedFrom->name) + " packed ahead is named " + inQuotes(t.name) +
                                      ", which another parameter has; rename one of them");
      claim(t.name, t.pointer + "/name", "packed operand's name (the tensor's name + \"_packed\")");
      for (ContractionSchedule& s : c.schedules)
        for (std::string& name : s.pack)
          if (name == t.packedFrom->name) name = t.name;
    }
    // Runtime stride names the kernel still reads, in their order of first appearance.
    std::vector<std::string> used;
    auto keep = [&](const ContractionTensor& t) {
      for (const std::optional<Extent>& e : t.strides)
        if (e && !e->isStatic() && std::find(used.begin(), used.end(), e->name) == used.end()) used.push_back(e->name);
    };
    for (const ContractionTensor& t : c.operands) keep(t);
    keep(c.output);
    if (c.init == ContractionInit::operand) keep(c.initOperand);
    for (const EpilogueStep& s : c.epilogue)
      if (s.kind == EpilogueStep::Kind::add) keep(s.operand);
    std::vector<std::string> names;
    for (const std::string& n : c.strideNames)
      if (std::find(used.begin(), used.end(), n) != used.end()) names.push_back(n);
    c.strideNames = std::move(names);
  }

  // The block of a copy packed ahead (ContractionTensor::packBlock): 2048 bits of elements (64
  // f32), a multiple of every vector length (SVE's are powers of two up to 2048 bits), so that no
  // vector straddles two blocks; 0 (one dense copy) for bf16 and narrow copies (read in groups of
  // steps, not by this addressing) and where a schedule shifts the vector dim's last tile inwards
  // (shift_inwards: that tile starts between vectors).
  static int64_t packBlockOf(const ContractionSpec& c, const ContractionTensor& t, int vdim) {
    if (t.bf16 || t.narrow) return 0;
    for (const ContractionSchedule& s : c.schedules) {
      std::vector<std::string> vectorLoops{c.dims[size_t(vdim)].name};  // the vector dim and loops split from it
      for (const std::vector<ScheduleDirective>* list : {&s.output, &s.init, &s.update})
        for (const ScheduleDirective& d : *list) {
          if (d.kind != ScheduleDirective::Kind::split || std::find(vectorLoops.begin(), vectorLoops.end(), d.loop) == vectorLoops.end()) continue;
          if (d.tail == SplitTail::shift_inwards) return 0;
          vectorLoops.push_back(d.outer);
          vectorLoops.push_back(d.inner);
        }
    }
    return 2048 / 8 / bytesOf(c.dtype);
  }

  // "strides": one per dimension, each a number of elements or a runtime name: a dim's extent name
  // is that parameter; any other name is a stride parameter of its own (shared where repeated).
  template <class Claim>
  std::vector<std::optional<Extent>> readStrides(const json& strides, const std::string& at, std::size_t count, ContractionSpec& c,
                                                 Claim& claim) const {
    if (!strides.is_array() || strides.size() != count)
      fail(at, "expected one stride per index entry (" + std::to_string(count) + "), each a number of elements or a runtime name, found " + describe(strides));
    std::vector<std::optional<Extent>> out;
    for (std::size_t p = 0; p < count; ++p) {
      const std::string sp = at + "/" + std::to_string(p);
      const json& s = strides[p];
      if (auto v = asInt(s)) {
        if (*v < 0 || *v > kMaxExtent) fail(sp, "a static stride must be from 0 to 2^40 elements, found " + describe(s));
        out.push_back(Extent{*v, ""});
        continue;
      }
      if (!s.is_string()) fail(sp, "expected a number of elements (0 to 2^40) or a C identifier string (a runtime stride), found " + describe(s));
      Extent e = readExtent(s, sp);
      if (!isExtentName(c, e.name) && std::find(c.strideNames.begin(), c.strideNames.end(), e.name) == c.strideNames.end()) {
        claim(e.name, sp, "runtime stride name");
        c.strideNames.push_back(e.name);
      }
      out.push_back(e);
    }
    return out;
  }

  // A padded operand's positions whose index may leave the extent are checked per tile row; the
  // output's innermost dim (the vector dim: lanes of one vector) may not index them, so that a
  // vector's lanes are all inside or all outside.
  void checkPaddedPositions(const ContractionSpec& c) const {
    const int vdim = c.output.index.back().plainDim();
    for (const ContractionTensor& t : c.operands)
      for (std::size_t p = 0; p < t.extents.size(); ++p)
        if (readsOutside(c, t, p) && t.index[p].uses(vdim))
          fail(t.pointer + "/index/" + std::to_string(p),
               "the padded index " + inQuotes(t.index[p].text) + " uses " + inQuotes(c.dims[size_t(vdim)].name) +
                   ", the output's innermost dim (the kernel's vectors run along it): padding along it is not supported; lay the output out "
                   "with another dim innermost (NHWC's channels), or give this position the dim's own extent and no offset");
  }

  // An init operand (a bias) is indexed by plain parallel dims, each at most once.
  void checkParallelIndex(const ContractionTensor& t, const std::string& at, const ContractionSpec& c) const {
    std::vector<int> seen(c.dims.size(), 0);
    for (std::size_t p = 0; p < t.index.size(); ++p) {
      const int d = t.index[p].plainDim();
      const std::string ip = at + "/index/" + std::to_string(p);
      if (d < 0 || c.dims[size_t(d)].reduction)
        fail(ip, "the init tensor is broadcast along the output: index it by parallel dims, one per dimension; found " + inQuotes(t.index[p].text));
      if (seen[size_t(d)]++) fail(ip, "dim " + inQuotes(c.dims[size_t(d)].name) + " indexes the init tensor twice");
    }
  }

  // A literal of the contraction's dtype from a JSON number: floats as written, i32 an integer in range.
  std::string floatLiteral(const json& j, const std::string& at, DType t) const {
    if (t == DType::i32) {
      const bool inRange = j.is_number_unsigned() ? j.get<uint64_t>() <= uint64_t(INT32_MAX)
                                                  : j.is_number_integer() && j.get<int64_t>() >= INT32_MIN && j.get<int64_t>() <= INT32_MAX;
      if (!inRange)
        fail(at, "expected an integer from " + std::to_string(INT32_MIN) + " to " + std::to_string(INT32_MAX) + " (an i32 contraction), found " + describe(j));
      return j.get<int64_t>() == INT32_MIN ? "(-2147483647 - 1)" : std::to_string(j.get<int64_t>());  // -2147483648 is a long
    }
    if (!j.is_number()) fail(at, "expected a number, found " + describe(j));
    return roundedFloat(j, at, t);
  }

  // The number at `pointer` as the spec's text spells it (nlohmann/json keeps only a double: its
  // re-rounding to f32 could differ from the decimal's own).
  std::string numberText(const json& j, const std::string& pointer) const {
    if (const auto loc = locatePointer(text_, pointer); loc && loc->exact) {
      std::size_t end = loc->offset;
      while (end < text_.size() && (std::isdigit(static_cast<unsigned char>(text_[end])) || std::strchr("+-.eE", text_[end]))) ++end;
      if (end > loc->offset) return text_.substr(loc->offset, end - loc->offset);
    }
    return j.dump();
  }

  // A JSON number as a C literal of float dtype `t`: its decimal rounded as C's strtof / strtod
  // round it (subnormals and zero included), an error if that is infinity.
  std::string roundedFloat(const json& j, const std::string& pointer, DType t) const {
    const std::string text = numberText(j, pointer);
    const std::optional<double> v = roundDecimal(text, t);
    if (!v)
      fail(pointer, "number " + text + " is out of range for " + std::string(nameOf(t)) + ": it rounds to " + (text[0] == '-' ? "-" : "") +
                        "infinity (the largest finite " + std::string(nameOf(t)) + " is " + std::string(largestFiniteText(t)) + ")");
    return cFloatLiteral(*v, t);
  }

  template <class Claim>
  EpilogueStep readEpilogueStep(const json& j, const std::string& at, ContractionSpec& c, Claim& claim) const {
    if (!j.is_object()) fail(at, "expected a step object such as {\"op\": \"relu\"}, found " + describe(j));
    EpilogueStep step;
    const std::size_t op = choose(required(j, at, "op"), at + "/op", "epilogue op", kEpilogueOps);
    step.kind = static_cast<EpilogueStep::Kind>(op);
    switch (step.kind) {
      case EpilogueStep::Kind::relu: {
        constexpr std::string_view keys[] = {"op"};
        checkKeys(j, at, keys);
        break;
      }
      case EpilogueStep::Kind::clamp: {
        constexpr std::string_view keys[] = {"op", "min", "max"};
        checkKeys(j, at, keys);
        const json& lo = required(j, at, "min");
        const json& hi = required(j, at, "max");
        step.lo = floatLiteral(lo, at + "/min", c.dtype);
        step.hi = floatLiteral(hi, at + "/max", c.dtype);
        if (lo.get<double>() > hi.get<double>()) fail(at + "/max", "max " + describe(hi) + " is below min " + describe(lo));
        break;
      }
      case EpilogueStep::Kind::div:
        if (c.dtype == DType::i32) fail(at + "/op", "div divides floats (rounded once, as C's x / by); an i32 contraction has relu, clamp, scale and add");
        [[fallthrough]];
      case EpilogueStep::Kind::scale: {
        constexpr std::string_view keys[] = {"op", "by"};
        checkKeys(j, at, keys);
        const json& by = required(j, at, "by");
        if (by.is_string()) {
          step.param = getString(by, at + "/by");
          claim(step.param, at + "/by", "scalar parameter name");
          if (isExtentName(c, step.param)) fail(at + "/by", "name " + inQuotes(step.param) + " is a dim extent");
        } else {
          step.factor = floatLiteral(by, at + "/by", c.dtype);
        }
        break;
      }
      case EpilogueStep::Kind::add: {
        checkKeys(j, at, kAddedTensorKeys);
        step.operand.pointer = at;
        step.operand.name = getString(required(j, at, "name"), at + "/name");
        claim(step.operand.name, at + "/name", "tensor name");
        step.operand.index = c.output.index;  // added at the output's element
        if (const json* strides = member(j, "strides")) step.operand.strides = readStrides(*strides, at + "/strides", c.output.index.size(), c, claim);
        break;
      }
    }
    return step;
  }

  // kind "map": inputs and outputs of one shape, each output an expression of the inputs.
  KernelSpec parseMap(const json& root, KernelSpec& spec) const {
    checkKeys(root, "", kMapKeys);
    readShape(required(root, "", "shape"), member(root, "row_stride"), spec);
    std::vector<std::string> taken;  // public names in the header: extents, inputs, outputs
    for (const Extent* e : {&spec.rows, &spec.cols, spec.rowStride ? &*spec.rowStride : nullptr})
      if (e && !e->isStatic()) taken.push_back(e->name);
    auto claim = [&](const std::string& name, const std::string& pointer, const char* what = "tensor name") {
      claimName(taken, spec, name, pointer, what, "an extent, input, param or output");
    };
    const json& inputs = required(root, "", "inputs");
    if (!inputs.is_array() || inputs.empty())
      fail("/inputs", "expected a non-empty array of inputs ({\"name\": ..., \"dtype\": ...}), found " + describe(inputs));
    // Names whose declaration failed: an expression naming one is not checked (it would fail too).
    std::set<std::string> failedNames;
    auto nameIn = [](const json& item) { return item.is_object() && item.contains("name") && item["name"].is_string() ? item["name"].get<std::string>() : ""; };
    for (std::size_t i = 0; i < inputs.size(); ++i) attempt([&] {
      const std::string at = "/inputs/" + std::to_string(i);
      failedNames.insert(nameIn(inputs[i]));
      const json& in = getObject(inputs[i], at, kMapInputKeys);
      const std::string name = getString(required(in, at, "name"), at + "/name");
      claim(name, at + "/name");
      spec.mapInputs.push_back({name, getDType(required(in, at, "dtype"), at + "/dtype")});
      MapInputLayout layout;
      if (const json* j = member(in, "stride")) layout.stride = readInputStride(*j, at + "/stride", spec, taken);
      if (const json* j = member(in, "row_stride")) {
        if (spec.rank != 2) fail(at + "/row_stride", "row_stride applies only to a rank-2 shape ([rows, cols]); remove it");
        layout.rowStride = readInputStride(*j, at + "/row_stride", spec, taken);
      }
      spec.mapInputLayouts.push_back(layout);
      failedNames.erase(nameIn(inputs[i]));
    });
    if (const json* params = member(root, "params")) {
      if (!params->is_array())
        fail("/params", "expected an array of scalar parameters ({\"name\": ..., \"dtype\": ...}), found " + describe(*params));
      for (std::size_t i = 0; i < params->size(); ++i) attempt([&] {
        const std::string at = "/params/" + std::to_string(i);
        failedNames.insert(nameIn((*params)[i]));
        const json& p = getObject((*params)[i], at, kMapParamKeys);
        const std::string name = getString(required(p, at, "name"), at + "/name");
        claim(name, at + "/name", "parameter name");
        spec.mapParams.push_back({name, getDType(required(p, at, "dtype"), at + "/dtype")});
        failedNames.erase(name);
      });
    }
    const json& outputs = required(root, "", "outputs");
    if (!outputs.is_array() || outputs.empty())
      fail("/outputs", "expected a non-empty array of outputs ({\"name\", \"dtype\", \"expr\"}), found " + describe(outputs));
    if (spec.mapInputs.empty()) throw Stop{};  // no input was read: the outputs' dtypes and layouts come from them
    for (std::size_t i = 0; i < outputs.size(); ++i) attempt([&] {
      const std::string at = "/outputs/" + std::to_string(i);
      failedNames.insert(nameIn(outputs[i]));
      if (outputs[i].is_object() && outputs[i].contains("expr") && outputs[i]["expr"].is_string()) {
        const std::set<std::string> named = namesIn(outputs[i]["expr"].get<std::string>());
        if (std::any_of(failedNames.begin(), failedNames.end(), [&](const std::string& n) { return !n.empty() && named.count(n) && n != nameIn(outputs[i]); }))
          return;  // it names an input, param or output whose error is reported
      }
      const json& out = getObject(outputs[i], at, kMapOutputKeys);
      MapOutput o;
      o.name = getString(required(out, at, "name"), at + "/name");
      claim(o.name, at + "/name");
      o.dtype = getDType(required(out, at, "dtype"), at + "/dtype");
      o.exprText = getString(required(out, at, "expr"), at + "/expr");
      if (const json* r = member(out, "reduce")) {
        const std::size_t op = choose(*r, at + "/reduce", "reduce", kMapReduceNames);
        o.mean = kMapReduceNames[op] == "mean";
        o.reduce = o.mean ? ReduceOp::add : *parseReduceOp(kMapReduceNames[op]);
        if (o.mean && !isFloat(o.dtype))
          fail(at + "/reduce", "\"mean\" divides a sum by the column count: it needs a float output (f32, f64), found " +
                                   std::string(nameOf(o.dtype)) + "; use \"add\" for integers");
        if (*o.reduce == ReduceOp::mul && isFloat(o.dtype))
          fail(at + "/reduce", "reduce \"mul\" of floats is not offered for expressions (kind \"reduce\" has it for a plain input; "
                               "a product of an expression is usually better as the sum of its logs: \"reduce\": \"add\" over log(...))");
        if (!opSupports(*o.reduce, o.dtype))
          fail(at + "/reduce", "reduce " + inQuotes(std::string(kMapReduceNames[op])) + " needs an integer output, found " +
                                   std::string(nameOf(o.dtype)));
      }
      if (const json* j = member(out, "internal")) {
        if (!j->is_boolean()) fail(at + "/internal", "expected true or false, found " + describe(*j));
        o.internal = j->get<bool>();
      }
      if (const json* j = member(out, "axis")) {
        if (!o.reduce) failAtKey(at + "/axis", "\"axis\" applies to a reduction output (one with \"reduce\")");
        if (spec.rank != 2)
          fail(at + "/axis", "a rank-1 map reduces over all of its elements; \"axis\" chooses rows or columns of a rank-2 shape");
        const auto v = asInt(*j);
        if (!v || (*v != 0 && *v != 1))
          fail(at + "/axis", "expected 1 (one value per row: the columns reduced, the default) or 0 (one value per column: the rows "
                             "reduced), found " + describe(*j));
        o.columns = *v == 0;
        if (o.columns && o.internal)
          fail(at + "/internal", "a reduction over the rows (axis 0) has one value per column, which no expression can name: it cannot be internal");
      }
      // A column reduction is not a row value: no later expression can name it.
      for (const MapOutput& e : spec.mapOutputs)
        if (e.columns && namesIn(o.exprText).count(e.name))
          fail(at + "/expr", "output " + inQuotes(e.name) + " reduces over the rows (axis 0): it has one value per column, which "
                                 "an expression cannot name (name a reduction per row, or repeat its expression)");
      // Earlier outputs by name: a reduction is its row's value, an element-wise output its expression.
      std::vector<MapValueName> earlier;
      for (std::size_t k = 0; k < spec.mapOutputs.size(); ++k) {
        const MapOutput& e = spec.mapOutputs[k];
        earlier.push_back({e.name, e.dtype, int(k), e.reduce ? nullptr : &e.expr});
      }
      try {
        o.expr = parseMapExpr(o.exprText, spec.mapInputs, spec.mapParams, o.dtype, earlier);
      } catch (const ExprError& e) {
        std::string message = e.what();
        for (std::size_t later = i + 1; later < outputs.size(); ++later)
          if (outputs[later].is_object() && outputs[later].contains("name") && outputs[later]["name"].is_string() &&
              message.rfind("unknown name '" + outputs[later]["name"].get<std::string>() + "'", 0) == 0)
            message += " (an expression may name only the outputs listed before it: move this output after " +
                       inQuotes(outputs[later]["name"].get<std::string>()) + ")";
        failInString(at + "/expr", o.exprText, e.offset, message);
      }
      o.stage = stageOf(o.expr, spec.mapOutputs);
      if (o.columns && o.stage > 0)
        fail(at + "/expr", "a reduction over the rows (axis 0) cannot read a row's value (a reduction per row): not offered yet");
      // An element-wise output's own layout (strided stores): every element its own place.
      MapInputLayout layout;
      for (const char* key : {"stride", "row_stride"}) {
        const json* j = member(out, key);
        if (!j) continue;
        if (o.reduce || o.internal)
          failAtKey(at + "/" + key, "key " + inQuotes(key) + " applies to element-wise outputs: " +
                                        (o.reduce ? "a reduction has one value per row (or column), stored contiguously"
                                                  : "an internal output has no array"));
        if (std::string(key) == "row_stride" && spec.rank != 2)
          fail(at + "/row_stride", "row_stride applies only to a rank-2 shape ([rows, cols]); remove it");
        Extent e = readInputStride(*j, at + "/" + key, spec, taken);
        if (e.isStatic() && *e.value == 0 && (std::string(key) == "stride" || !(spec.rows.isStatic() && *spec.rows.value <= 1)))
          fail(at + "/" + key, std::string("an output's ") + key + " of 0 would write every " + (std::string(key) == "stride" ? "column of a row" : "row") +
                                   " to the same elements; expected 1 or more (inputs may repeat elements, outputs may not)");
        (std::string(key) == "stride" ? layout.stride : layout.rowStride) = e;
      }
      if (o.reduce && member(out, "in_place"))
        failAtKey(at + "/in_place", "a reduction output (\"reduce\") has one value per row: it cannot share memory with an input");
      if (const json* alias = member(out, "in_place")) {
        const std::string name = getString(*alias, at + "/in_place");
        for (std::size_t k = 0; k < spec.mapInputs.size(); ++k)
          if (spec.mapInputs[k].name == name) o.inPlace = int(k);
        if (o.inPlace < 0 && failedNames.count(name)) return;  // that input's error is reported
        if (o.inPlace < 0) {
          std::vector<std::string_view> names;
          for (const auto& in : spec.mapInputs) names.push_back(in.name);
          fail(at + "/in_place", "unknown input " + inQuotes(name) + suggestion(name, names) + "; allowed: " + join(names));
        }
        if (spec.mapInputs[size_t(o.inPlace)].dtype != o.dtype)
          fail(at + "/in_place", "output " + inQuotes(o.name) + " (" + std::string(nameOf(o.dtype)) + ") cannot share memory with input " +
                                     inQuotes(name) + " (" + std::string(nameOf(spec.mapInputs[size_t(o.inPlace)].dtype)) +
                                     "): in-place needs the same dtype");
        if (!sameLayout(spec.mapInputLayouts[size_t(o.inPlace)], layout))
          fail(at + "/in_place", "input " + inQuotes(name) + " is laid out as " + layoutText(spec.mapInputLayouts[size_t(o.inPlace)]) + " and output " +
                                     inQuotes(o.name) + " as " + layoutText(layout) +
                                     "; an output shares memory only with an input of the same layout (give both the same stride and row_stride)");
        for (const MapOutput& other : spec.mapOutputs)
          if (other.inPlace == o.inPlace)
            fail(at + "/in_place", "input " + inQuotes(name) + " is already shared with output " + inQuotes(other.name) +
                                       "; two outputs cannot be the same array");
      }
      failedNames.erase(o.name);
      spec.mapOutputLayouts.push_back(layout);
      spec.mapOutputs.push_back(std::move(o));
    });
    attempt([&] { readTargets(member(root, "targets"), spec); });
    attempt([&] {
      if (const json* j = member(root, "tail"))
        spec.tail = choose(*j, "/tail", "tail", kMapTailNames) == 0 ? TailPolicy::predicated : TailPolicy::scalar;
    });
    attempt([&] {
      if (const json* j = member(root, "max_ulp")) {
        const auto v = asInt(*j);
        if (!v || std::find(std::begin(kMaxUlpTiers), std::end(kMaxUlpTiers), *v) == std::end(kMaxUlpTiers))
          fail("/max_ulp", "expected the accuracy tier of the math functions (exp, log, tanh, ...): 1 (at most 1 ULP from the exact "
                           "result) or 4 (at most 4 ULP, faster), found " + describe(*j));
        spec.maxUlp = int(*v);
      }
    });
    stopIfFailed();
    checkStages(spec);
    spec.input = spec.mapInputs[0].dtype;
    spec.output = spec.mapOutputs[0].dtype;
    // Without a targets list, an fma() picks AVX2 with FMA among the defaults: plain AVX2 has no
    // fused multiply-add (a listed "avx2" is the user's choice, and the plan's error says what to write).
    const std::function<bool(const MapExpr&)> usesFma = [&](const MapExpr& e) {
      return e.op == MapOp::fma || std::any_of(e.args.begin(), e.args.end(), usesFma);
    };
    if (!member(root, "targets") && std::any_of(spec.mapOutputs.begin(), spec.mapOutputs.end(), [&](const MapOutput& o) { return usesFma(o.expr); }))
      for (TargetRequest& t : spec.targets)
        if (t.spelling() == "avx2") t = parseTarget("avx2+fma", "/targets");
    checkNameClashes(spec);
    for (const std::string& name : taken) {
      std::vector<std::string> functions{spec.name};
      for (const TargetRequest& t : spec.targets) {
        std::string f = spec.name + "_" + t.spelling();
        std::replace(f.begin(), f.end(), '+', '_');
        if (f == name) fail("/name", "tensor " + inQuotes(name) + " has the name of the generated function " + f);
      }
    }
    for (std::size_t i = 0; i < spec.mapOutputs.size(); ++i)
      if (const std::string why = mathTierUnavailable(spec.mapOutputs[i].expr, spec.maxUlp); !why.empty())
        fail("/outputs/" + std::to_string(i) + "/expr", why);
    return spec;
  }

  // The pass over the row an expression is computed in: after every reduction whose row value it reads.
  static int stageOf(const MapExpr& e, const std::vector<MapOutput>& outputs) {
    int stage = 0;
    if (e.op == MapOp::row_value) stage = outputs[size_t(e.input)].stage + 1;
    for (const MapExpr& a : e.args) stage = std::max(stage, stageOf(a, outputs));
    return stage;
  }
  // The identifiers of an expression's text (names and function names).
  static std::set<std::string> namesIn(const std::string& text) {
    std::set<std::string> out;
    for (std::size_t i = 0; i < text.size();) {
      const auto c = static_cast<unsigned char>(text[i]);
      if (std::isalpha(c) || c == '_') {
        std::size_t j = i;
        while (j < text.size() && (std::isalnum(static_cast<unsigned char>(text[j])) || text[j] == '_')) ++j;
        out.insert(text.substr(i, j - i));
        i = j;
      } else if (std::isdigit(c) || c == '.') {  // a number, with its exponent or suffix
        while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '.')) ++i;
      } else {
        ++i;
      }
    }
    return out;
  }
  static void inputsRead(const MapExpr& e, std::vector<bool>& out) {
    if (e.op == MapOp::input) out[size_t(e.input)] = true;
    for (const MapExpr& a : e.args) inputsRead(a, out);
  }
  static bool readsRowValue(const MapExpr& e, int output) {
    if (e.op == MapOp::row_value && e.input == output) return true;
    return std::any_of(e.args.begin(), e.args.end(), [&](const MapExpr& a) { return readsRowValue(a, output); });
  }

  // Outputs over several passes (stages): every internal output is used, something is written, and
  // an in-place output does not overwrite an input that a later pass reads again.
  void checkStages(const KernelSpec& spec) const {
    const auto& outs = spec.mapOutputs;
    if (std::all_of(outs.begin(), outs.end(), [](const MapOutput& o) { return o.internal; }))
      fail("/outputs", "every output is \"internal\": at least one must be written to an array");
    for (std::size_t k = 0; k < outs.size(); ++k) {
      const std::string at = "/outputs/" + std::to_string(k);
      if (outs[k].internal) {
        bool used = false;
        for (std::size_t l = k + 1; l < outs.size(); ++l) used = used || namesIn(outs[l].exprText).count(outs[k].name);
        if (!used) fail(at + "/internal", "internal output " + inQuotes(outs[k].name) + " is not named by any later output's expression; remove it");
      }
      if (outs[k].inPlace < 0) continue;
      for (std::size_t l = 0; l < outs.size(); ++l) {
        std::vector<bool> reads(spec.mapInputs.size(), false);
        inputsRead(outs[l].expr, reads);
        if (outs[l].stage > outs[k].stage && reads[size_t(outs[k].inPlace)])
          fail(at + "/in_place", "output " + inQuotes(outs[k].name) + " overwrites input " + inQuotes(spec.mapInputs[size_t(outs[k].inPlace)].name) +
                                     " in pass " + std::to_string(outs[k].stage + 1) + ", but output " + inQuotes(outs[l].name) +
                                     " reads it again in pass " + std::to_string(outs[l].stage + 1) +
                                     " (after the row values it uses): drop in_place or compute it in the last pass");
      }
    }
  }

  // Two layouts that place every element at the same offset: the same keys, numbers and names.
  static bool sameLayout(const MapInputLayout& a, const MapInputLayout& b) {
    auto same = [](const std::optional<Extent>& x, const std::optional<Extent>& y) {
      if (!x || !y) return !x && !y;
      return x->value == y->value && x->name == y->name;
    };
    const Extent one{1, ""};  // no stride is a stride of 1
    return same(a.stride ? a.stride : one, b.stride ? b.stride : one) && same(a.rowStride, b.rowStride);
  }
  static std::string layoutText(const MapInputLayout& l) {
    if (!l.strided()) return "the kernel's (no stride or row_stride of its own)";
    auto text = [](const Extent& e) { return e.isStatic() ? std::to_string(*e.value) : inQuotes(e.name); };
    std::string s;
    if (l.stride) s += "stride " + text(*l.stride);
    if (l.rowStride) s += (s.empty() ? "" : ", ") + std::string("row_stride ") + text(*l.rowStride);
    return s;
  }

  // An input's "stride" or "row_stride": a static number of elements (0 repeats one element or
  // row), or a runtime name, which is the same parameter as an extent or another input's stride of
  // that name, or else a new extent parameter after the shape's.
  Extent readInputStride(const json& j, const std::string& pointer, KernelSpec& spec, std::vector<std::string>& taken) const {
    if (auto v = asInt(j)) {
      if (*v < 0 || *v > kMaxExtent)
        fail(pointer, "a static stride must be from 0 to 2^40 (" + std::to_string(kMaxExtent) + ") elements, found " + describe(j));
      return Extent{*v, ""};
    }
    if (!j.is_string())
      fail(pointer, "expected a number of elements (0 to 2^40) or a C identifier string (a runtime stride), found " + describe(j));
    Extent e = readExtent(j, pointer);
    std::vector<std::string> extents = spec.mapStrideNames;
    for (const Extent* d : {&spec.rows, &spec.cols, spec.rowStride ? &*spec.rowStride : nullptr})
      if (d && !d->isStatic()) extents.push_back(d->name);
    if (std::find(extents.begin(), extents.end(), e.name) != extents.end()) return e;
    if (std::find(taken.begin(), taken.end(), e.name) != taken.end())
      fail(pointer, "name " + inQuotes(e.name) + " is already used by an input, param or output; a runtime stride needs its own name or an extent's");
    if (e.name == spec.name) fail(pointer, "name " + inQuotes(e.name) + " is the kernel's name");
    taken.push_back(e.name);
    spec.mapStrideNames.push_back(e.name);
    return e;
  }

  // An error at character `index` of the string value at `pointer`: the column is that character's,
  // and the message repeats the expression with a caret under it.
  [[noreturn]] void failInString(const std::string& pointer, const std::string& value, std::size_t index,
                                 const std::string& message) const {
    const std::string shown = message + "\n    " + value + "\n    " + std::string(index, ' ') + "^";
    auto loc = locatePointer(text_, pointer);
    if (!loc || !loc->exact) fail(pointer, shown);
    // Walk the raw JSON string: escapes take more bytes than the characters they stand for.
    std::size_t raw = loc->offset + 1;
    for (std::size_t k = 0; k < index && raw < text_.size() && text_[raw] != '"'; ++k)
      raw += text_[raw] != '\\' ? 1 : text_[raw + 1] == 'u' ? 6 : 2;
    failAtOffset(pointer, raw, shown);
  }

  // "shape": [cols] or [rows, cols]; "row_stride" (rank 2): elements between row starts.
  void readShape(const json& shape, const json* stride, KernelSpec& spec) const {
    if (!shape.is_array() || shape.empty() || shape.size() > 2)
      fail("/shape", "expected an array of 1 or 2 extents ([cols] or [rows, cols]), found " + describe(shape));
    std::vector<Extent> dims;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      const std::string pointer = "/shape/" + std::to_string(i);
      dims.push_back(readExtent(shape[i], pointer));
      if (i == 1 && !dims[0].isStatic() && !dims[1].isStatic() && dims[0].name == dims[1].name)
        fail(pointer, "runtime extent name " + inQuotes(dims[1].name) + " is already used by /shape/0; names must differ");
    }
    spec.rank = int(dims.size());
    spec.rows = spec.rank == 2 ? dims[0] : Extent{1, ""};
    spec.cols = dims.back();
    if (!stride) return;
    if (spec.rank != 2) fail("/row_stride", "row_stride applies only to a rank-2 shape ([rows, cols]); remove it");
    Extent s = readExtent(*stride, "/row_stride");
    if (s.isStatic() && spec.cols.isStatic() && *s.value < *spec.cols.value)
      fail("/row_stride", "row_stride " + std::to_string(*s.value) + " is smaller than the row length (cols = " +
                              std::to_string(*spec.cols.value) + "), so rows would overlap");
    for (const Extent& d : dims)
      if (!s.isStatic() && !d.isStatic() && s.name == d.name)
        fail("/row_stride", "runtime row_stride " + inQuotes(s.name) + " has the same name as a shape extent");
    spec.rowStride = s;
  }

  // "initial": {"value": V, "index": I}: the seed's initial pair; V must fit the input dtype.
  void readInitial(const json& j, KernelSpec& spec) const {
    const json& init = getObject(j, "/initial", kInitialKeys);
    const json& value = required(init, "/initial", "value");
    if (!value.is_number())
      fail("/initial/value", "expected a number of the input dtype " + std::string(nameOf(spec.input)) +
                                 ", found " + describe(value));
    spec.initialText = numberText(value, "/initial/value");
    if (isFloat(spec.input)) {
      // A literal that rounds to infinity would silently be infinity in the generated code.
      spec.initialValue = roundedFloat(value, "/initial/value", spec.input);
    } else {
      // The value range of the input dtype, in a type wide enough for u64 and i64 alike.
      const int bits = bitsOf(spec.input);
      const __int128 lo = isSigned(spec.input) ? -(__int128{1} << (bits - 1)) : 0;
      const __int128 hi = (__int128{1} << (isSigned(spec.input) ? bits - 1 : bits)) - 1;
      const __int128 v = value.is_number_unsigned() ? __int128(value.get<uint64_t>())
                         : value.is_number_integer() ? __int128(value.get<int64_t>())
                                                     : hi + 1;  // not an integer
      const bool ok = v >= lo && v <= hi;
      if (!ok)
        fail("/initial/value", "value " + value.dump() + " is not representable in " + std::string(nameOf(spec.input)));
      // INT64_MIN has no literal of its own (the minus applies to a too-large constant).
      spec.initialValue = v == lo && bits == 64 && isSigned(spec.input) ? "(-9223372036854775807ll - 1)"
                                                                       : value.dump() + (isSigned(spec.input) ? "ll" : "ull");
    }
    spec.initialIndex = getInt(required(init, "/initial", "index"), "/initial/index", INT64_MIN, INT64_MAX);
    if (spec.indexType == DType::i32 && (*spec.initialIndex < INT32_MIN || *spec.initialIndex > INT32_MAX))
      fail("/initial/index", "index " + std::to_string(*spec.initialIndex) + " does not fit index_type i32");
  }

  // ---- error reporting ----
  [[noreturn]] void failAtOffset(const std::string& pointer, std::size_t offset,
                                 const std::string& message) const {
    TextPos p = positionAt(text_, offset);
    throw SpecError(displayName(file_), pointer, p.line, p.column, message);
  }
  [[noreturn]] void fail(const std::string& pointer, const std::string& message) const {
    TextPos p = positionOf(text_, pointer);
    throw SpecError(displayName(file_), pointer, p.line, p.column, message);
  }
  // Unknown and duplicate keys are reported at the key itself rather than at its value.
  [[noreturn]] void failAtKey(const std::string& pointer, const std::string& message) const {
    auto loc = locatePointer(text_, pointer);
    if (loc && loc->keyOffset) failAtOffset(pointer, *loc->keyOffset, message);
    fail(pointer, message);
  }

  json parseJson() const {
    try {
      return json::parse(text_);
    } catch (const json::parse_error& e) {
      std::string message = "invalid JSON: " + parseErrorDetail(e.what());
      if (e.byte == 0) throw SpecError(displayName(file_), "", 0, 0, message);
      failAtOffset("", e.byte - 1, message);  // e.byte is the 1-based offset of the offending byte
    } catch (const json::exception& e) {  // a number too large for a double: nlohmann gives no position
      if (auto big = findOverflowingNumber(text_))
        failAtOffset(big->pointer, big->offset,
                     "number " + big->token + " is too large for a double (beyond 1.8e308)");
      throw SpecError(displayName(file_), "", 0, 0, "invalid JSON: " + parseErrorDetail(e.what()));
    }
  }

  // ---- typed access ----
  static const json* member(const json& object, const char* key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }
  const json& required(const json& object, const std::string& pointer, const char* key) const {
    const json* v = member(object, key);
    // Named by the missing member's pointer; placed at the enclosing object (its deepest existing ancestor).
    if (!v) fail(pointer + "/" + escapePointerToken(key), "missing required key " + inQuotes(key));
    return *v;
  }
  const json& getObject(const json& j, const std::string& pointer, Names keys) const {
    if (!j.is_object()) fail(pointer, "expected an object, found " + describe(j));
    checkKeys(j, pointer, keys);
    return j;
  }
  std::string getString(const json& j, const std::string& pointer) const {
    if (!j.is_string()) fail(pointer, "expected a string, found " + describe(j));
    return j.get<std::string>();
  }
  std::optional<int64_t> asInt(const json& j) const {
    if (j.is_number_unsigned()) {
      auto u = j.get<uint64_t>();
      return u > static_cast<uint64_t>(INT64_MAX) ? std::nullopt
                                                  : std::optional<int64_t>(static_cast<int64_t>(u));
    }
    if (j.is_number_integer()) return j.get<int64_t>();
    return std::nullopt;
  }
  int64_t getInt(const json& j, const std::string& pointer, int64_t lo, int64_t hi) const {
    auto v = asInt(j);
    if (!v || *v < lo || *v > hi)
      fail(pointer, "expected an integer from " + std::to_string(lo) + " to " + std::to_string(hi) +
                        ", found " + describe(j));
    return *v;
  }
  // Index of the string value in `allowed`.
  std::size_t choose(const json& j, const std::string& pointer, const std::string& what,
                     Names allowed) const {
    std::string s = getString(j, pointer);
    auto it = std::find(allowed.begin(), allowed.end(), s);
    if (it == allowed.end())
      fail(pointer,
           "unknown " + what + " " + inQuotes(s) + suggestion(s, allowed) + "; allowed: " + join(allowed));
    return static_cast<std::size_t>(it - allowed.begin());
  }
  void checkKeys(const json& object, const std::string& pointer, Names allowed) const {
    for (const auto& [key, value] : object.items())
      if (!contains(allowed, key))
        attempt([&] {  // an unknown key is ignored by every later check
          failAtKey(
            pointer + "/" + escapePointerToken(key),
            "unknown key " + inQuotes(key) + suggestion(key, allowed) + "; allowed keys: " + join(allowed));
        });
  }
  void checkIdentifier(const std::string& s, const std::string& pointer, const std::string& what) const {
    if (!isIdentifier(s))
      fail(pointer, what + " " + inQuotes(s) +
                        " is not a C identifier (letters, digits and '_', not starting with a digit)");
    if (s.size() > kMaxNameLength)
      fail(pointer, what + " is " + std::to_string(s.size()) + " characters long; at most " +
                        std::to_string(kMaxNameLength) + " are allowed");
    if (contains(kCppKeywords, s)) fail(pointer, what + " " + inQuotes(s) + " is a C++ keyword");
    if (contains(kReservedNames, s))
      fail(pointer, what + " " + inQuotes(s) + " would clash with a name the generated code uses");
    if (contains(kSystemMacros, s))
      fail(pointer, what + " " + inQuotes(s) +
                        " is a macro of a system header the generated code includes (stdint.h, stdio.h, stdlib.h, "
                        "string.h, immintrin.h, arm_neon.h, arm_sve.h); the preprocessor would replace it");
    if (s.starts_with("__") ||
        (s.size() > 1 && s[0] == '_' && std::isupper(static_cast<unsigned char>(s[1]))))
      fail(pointer, what + " " + inQuotes(s) +
                        " is reserved for the C++ implementation (it starts with \"__\" or \"_\" and an "
                        "uppercase letter)");
  }
  static Names opNames() {
    static const auto names = [] {
      std::vector<std::string_view> v;
      for (ReduceOp op : kAllReduceOps) v.push_back(nameOf(op));
      return v;
    }();
    return names;
  }
  static Names dtypeNames() {
    static const auto names = [] {
      std::vector<std::string_view> v;
      for (DType t : kAllDTypes) v.push_back(nameOf(t));
      return v;
    }();
    return names;
  }
  DType getDType(const json& j, const std::string& pointer) const {
    return kAllDTypes[choose(j, pointer, "dtype", dtypeNames())];
  }

  // ---- fields ----
  void readVersion(const json& j) const {
    auto v = asInt(j);
    if (!v)
      fail("/simdgen", "expected the integer " + std::to_string(kFormatVersion) +
                           " (the spec format version), found " + describe(j));
    if (*v != kFormatVersion)
      fail("/simdgen", "unsupported spec format version " + std::to_string(*v) +
                           "; this simdgen reads version " + std::to_string(kFormatVersion));
  }

  Extent readExtent(const json& j, const std::string& pointer) const {
    if (auto v = asInt(j)) {
      if (*v < 1 || *v > kMaxExtent)
        fail(pointer, "a static extent must be from 1 to 2^40 (" + std::to_string(kMaxExtent) + "), found " +
                          describe(j));
      return Extent{*v, ""};
    }
    if (j.is_string()) {
      std::string name = j.get<std::string>();
      checkIdentifier(name, pointer, "runtime extent name");
      if (contains(kLocalNames, name))
        fail(pointer, "runtime extent name " + inQuotes(name) +
                          " is the name of an array parameter of the generated kernel; avoid: " + join(kLocalNames));
      return Extent{std::nullopt, name};
    }
    fail(pointer,
         "expected a positive integer (a static extent) or a C identifier string (a runtime extent), found " +
             describe(j));
  }

  // `batched` (kind transpose): the shape may also be [batch, rows, cols], with a batch_stride.
  void readInput(const json& j, KernelSpec& spec, bool batched = false) const {
    const json& input = batched ? getObject(j, "/input", kBatchedInputKeys) : getObject(j, "/input", kInputKeys);
    spec.input = getDType(required(input, "/input", "dtype"), "/input/dtype");
    const json& shape = required(input, "/input", "shape");
    if (batched && (!shape.is_array() || shape.size() < 2 || shape.size() > 3))
      fail("/input/shape", "expected an array of 2 or 3 extents ([rows, cols] or [batch, rows, cols]), found " + describe(shape));
    if (!shape.is_array() || shape.empty() || shape.size() > (batched ? 3u : 2u))
      fail("/input/shape",
           "expected an array of 1 or 2 extents ([cols] or [rows, cols]), found " + describe(shape));
    std::vector<Extent> dims;
    for (std::size_t i = 0; i < shape.size(); ++i) {
      std::string pointer = "/input/shape/" + std::to_string(i);
      dims.push_back(readExtent(shape[i], pointer));
      for (std::size_t k = 0; k < i; ++k)
        // A transpose's rows and cols may share a name: a square matrix, one parameter.
        if (!dims[i].isStatic() && dims[i].name == dims[k].name && !(batched && i == shape.size() - 1 && k + 2 == shape.size()))
          fail(pointer, "runtime extent name " + inQuotes(dims[i].name) +
                            " is already used by /input/shape/" + std::to_string(k) +
                            "; each runtime extent is its own parameter, so names must differ");
    }
    if (dims.size() == 3) spec.batch = dims[0];
    spec.rank = static_cast<int>(dims.size()) - (dims.size() == 3);
    spec.rows = spec.rank == 2 ? dims[dims.size() - 2] : Extent{1, ""};
    spec.cols = dims.back();

    if (const json* stride = member(input, "row_stride")) {
      if (spec.rank != 2)
        fail("/input/row_stride",
             "row_stride applies only to a rank-2 input (shape [rows, cols]); remove it");
      Extent s = readExtent(*stride, "/input/row_stride");
      if (s.isStatic() && spec.cols.isStatic() && *s.value < *spec.cols.value)
        fail("/input/row_stride", "row_stride " + std::to_string(*s.value) +
                                      " is smaller than the row length (cols = " +
                                      std::to_string(*spec.cols.value) + "), so rows would overlap");
      for (const Extent& d : dims)
        if (!s.isStatic() && !d.isStatic() && s.name == d.name)
          fail("/input/row_stride", "runtime row_stride " + inQuotes(s.name) +
                                        " has the same name as a shape extent; use a different name, or omit "
                                        "row_stride for contiguous rows");
      spec.rowStride = s;
    }

    const Extent& span = spec.rowStride ? *spec.rowStride : spec.cols;
    if (spec.rows.isStatic() && span.isStatic() &&
        *spec.rows.value > kMaxInputBytes / (*span.value * bytesOf(spec.input)))
      fail("/input/shape", "the input would span more than 2^62 bytes");
    if (const json* stride = member(input, "batch_stride")) {
      if (!spec.batch) fail("/input/batch_stride", "batch_stride applies only to a batched input (shape [batch, rows, cols]); remove it");
      spec.batchStride = readBatchStride(*stride, "/input/batch_stride", spec, spec.rows, span, dims);
    }
  }

  // A batch_stride: elements between the starts of consecutive matrices of a batch, at least one
  // matrix (`rows` rows `rowStride` apart) when both are static; a runtime name of its own.
  Extent readBatchStride(const json& j, const std::string& pointer, const KernelSpec& spec, const Extent& rows,
                         const Extent& rowStride, const std::vector<Extent>& names) const {
    Extent s = readExtent(j, pointer);
    if (s.isStatic() && rows.isStatic() && rowStride.isStatic() && *rows.value > 0 &&
        *s.value / *rows.value < *rowStride.value)
      fail(pointer, "batch_stride " + std::to_string(*s.value) + " is smaller than one matrix (" + std::to_string(*rows.value) +
                        " rows " + std::to_string(*rowStride.value) + " elements apart), so matrices would overlap");
    for (const Extent& d : names)
      if (!s.isStatic() && !d.isStatic() && s.name == d.name)
        fail(pointer, "runtime batch_stride " + inQuotes(s.name) + " has the same name as a shape extent; use a different name");
    if (s.isStatic() && spec.batch && spec.batch->isStatic() && *s.value > 0 &&
        *spec.batch->value > kMaxInputBytes / (*s.value * bytesOf(spec.input)))
      fail(pointer, "the batch would span more than 2^62 bytes");
    return s;
  }

  // A runtime extent named like a generated function (the dispatcher or a variant) would shadow it.
  void checkNameClash(const KernelSpec& spec, const Extent& e, const std::string& pointer) const {
    std::vector<std::string> functions{spec.name};
    for (const TargetRequest& t : spec.targets) {
      std::string f = spec.name + "_" + t.spelling();
      std::replace(f.begin(), f.end(), '+', '_');
      functions.push_back(f);
    }
    if (!e.isStatic() && std::find(functions.begin(), functions.end(), e.name) != functions.end())
      fail(pointer, "runtime name " + inQuotes(e.name) + " clashes with the generated function of the same name");
  }

  void checkNameClashes(const KernelSpec& spec) const {
    auto check = [&](const Extent& e, const std::string& pointer) { checkNameClash(spec, e, pointer); };
    if (spec.rank == 2) check(spec.rows, "/input/shape/0");
    check(spec.cols, "/input/shape/" + std::to_string(spec.rank - 1));
    if (spec.rowStride) check(*spec.rowStride, "/input/row_stride");
  }

  void readOutput(const json* j, KernelSpec& spec) const {
    spec.output = defaultOutput(spec.input, spec.op);
    if (!j) return;
    const json& output = getObject(*j, "/output", kOutputKeys);
    const json* dtype = member(output, "dtype");
    if (!dtype) return;
    DType out = getDType(*dtype, "/output/dtype");
    auto allowed = allowedOutputs(spec.input);
    if (std::find(allowed.begin(), allowed.end(), out) == allowed.end()) {
      std::vector<std::string_view> names;
      for (DType t : allowed) names.push_back(nameOf(t));
      fail("/output/dtype",
           "output dtype " + std::string(nameOf(out)) + " is not allowed for " +
               std::string(nameOf(spec.input)) +
               " input (the input type or a wider type of the same family); allowed: " + join(names));
    }
    spec.output = out;
  }

  void readAxis(const json* j, KernelSpec& spec) const {
    // A rank-1 input is one row of the normalised [rows, cols] view: its axis 0 is that view's axis 1.
    spec.axis = 1;
    if (!j) return;
    auto v = asInt(*j);
    if (spec.rank == 1) {
      if (!v || *v != 0) fail("/axis", "a rank-1 input has only axis 0; allowed: 0; found " + describe(*j));
      return;
    }
    if (!v || (*v != 0 && *v != 1))
      fail("/axis",
           "a rank-2 input has axes 0 (column reductions) and 1 (row reductions); allowed: 0, 1; found " +
               describe(*j));
    spec.axis = static_cast<int>(*v);
  }

  TargetRequest parseTarget(const std::string& s, const std::string& pointer) const {
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
      std::size_t plus = s.find('+', start);
      parts.push_back(s.substr(start, plus - start));
      if (plus == std::string::npos) break;
      start = plus + 1;
    }
    const std::vector<std::string_view> isaList = isaNames();
    const IsaInfo* isa = findIsa(parts[0]);
    if (!isa)
      fail(pointer, "unknown ISA " + inQuotes(parts[0]) + suggestion(parts[0], isaList) +
                        "; allowed ISAs: " + join(isaList) +
                        " (optionally with +features, e.g. \"avx512+vnni\")");
    const std::string name(isa->name);
    const std::vector<std::string_view> features = featureNames(*isa);
    TargetRequest target{name, {}};
    for (std::size_t i = 1; i < parts.size(); ++i) {
      const std::string& f = parts[i];
      if (features.empty()) fail(pointer, inQuotes(name) + " takes no features");
      if (f.empty())
        fail(pointer, "empty feature name after '+'; allowed features for " + name + ": " + join(features));
      if (name == "avx512" && (f == "f" || f == "bw" || f == "dq" || f == "vl"))
        fail(pointer, std::string(isa->impliedNote) + "; allowed features for avx512: " + join(features));
      if (!contains(features, f))
        fail(pointer, "unknown " + name + " feature " + inQuotes(f) + suggestion(f, features) +
                          "; allowed features for " + name + ": " + join(features));
      if (std::find(target.features.begin(), target.features.end(), f) != target.features.end())
        fail(pointer, "feature " + inQuotes(f) + " is listed twice");
      target.features.push_back(f);
    }
    std::sort(target.features.begin(), target.features.end());
    return target;
  }

  void readTargets(const json* j, KernelSpec& spec) const {
    if (!j) {
      for (std::string_view t : defaultTargets())
        spec.targets.push_back(parseTarget(std::string(t), "/targets"));
      return;
    }
    if (!j->is_array()) fail("/targets", "expected an array of target strings, found " + describe(*j));
    if (j->empty())
      fail("/targets",
           "expected at least one target (\"scalar\" is added automatically when missing); allowed ISAs: " +
               join(isaNames()));
    for (std::size_t i = 0; i < j->size(); ++i) {
      std::string pointer = "/targets/" + std::to_string(i);
      TargetRequest t = parseTarget(getString((*j)[i], pointer), pointer);
      for (std::size_t k = 0; k < spec.targets.size(); ++k)
        if (spec.targets[k].spelling() == t.spelling())
          fail(pointer, "duplicate target " + inQuotes(t.spelling()) + " (same as /targets/" +
                            std::to_string(k) + ")");
      spec.targets.push_back(std::move(t));
    }
    // The dispatcher always needs a variant that runs everywhere.
    bool hasScalar = std::any_of(spec.targets.begin(), spec.targets.end(),
                                 [](const TargetRequest& t) { return t.isa == "scalar"; });
    if (!hasScalar) spec.targets.push_back(TargetRequest{"scalar", {}});
  }

  void readStrategyAndOrder(const json& root, KernelSpec& spec) const {
    if (const json* j = member(root, "strategy")) {
      spec.strategy = static_cast<Strategy>(choose(*j, "/strategy", "strategy", kStrategyNames));
      if (spec.axis == 0 && spec.strategy != Strategy::automatic)
        fail("/strategy", "strategy " + inQuotes(nameOf(spec.strategy)) +
                              " does not apply to column reductions (axis 0): they already keep one lane per "
                              "column; allowed: auto");
    }
    if (const json* j = member(root, "order"))
      spec.order = static_cast<FloatOrder>(choose(*j, "/order", "order", kOrderNames));
    if (spec.order == FloatOrder::sequential && isFloat(spec.input) &&
        (spec.strategy == Strategy::inner_reduction || spec.strategy == Strategy::vector_accumulator))
      fail("/order", "order \"sequential\" conflicts with strategy " + inQuotes(nameOf(spec.strategy)) +
                         " on " + std::string(nameOf(spec.input)) +
                         " input: only inner_parallel keeps the order; use strategy inner_parallel or auto");
  }

  void readSchedule(const json* j, KernelSpec& spec) const {
    if (!j) return;
    const json& s = getObject(*j, "/schedule", kScheduleKeys);
    if (const json* v = member(s, "accumulators"))
      spec.schedule.accumulators = static_cast<int>(getInt(*v, "/schedule/accumulators", 1, 16));
    if (const json* v = member(s, "unroll"))
      spec.schedule.unroll = static_cast<int>(getInt(*v, "/schedule/unroll", 1, 8));
    if (const json* v = member(s, "rows"))
      spec.schedule.rows = static_cast<int>(getInt(*v, "/schedule/rows", 1, 16));
    if (const json* v = member(s, "block")) {
      if (spec.kind != KernelKind::arg_reduce) fail("/schedule/block", "block applies to kind arg_reduce only");
      spec.schedule.block = static_cast<int>(getInt(*v, "/schedule/block", 64, 1 << 20));
    }
  }

  void readTail(const json* j, KernelSpec& spec) const {
    if (!j) return;
    spec.tail = static_cast<TailPolicy>(choose(*j, "/tail", "tail", kTailNames));
    // Vector lanes run along cols for both axes, so cols is the extent the tail handles.
    if (spec.tail == TailPolicy::none && !spec.cols.isStatic())
      fail("/tail",
           "tail \"none\" promises that cols is a multiple of the vector width, which cannot be checked for "
           "the runtime extent " +
               inQuotes(spec.cols.name) + "; allowed here: predicated, scalar");
  }

  const std::string& text_;
  const std::filesystem::path& file_;
  mutable std::vector<SpecError> errors_;  // the independent errors found so far
};

std::string formatError(const std::string& file, const std::string& pointer, int line, int column,
                        const std::string& message) {
  std::string out = file + ":";
  if (line > 0) out += std::to_string(line) + ":" + std::to_string(column) + ":";
  out += " error: ";
  if (!pointer.empty()) out += "at " + pointer + ": ";
  return out + message;
}

}  // namespace

SpecError::SpecError(std::string file_, std::string pointer_, int line_, int column_,
                     const std::string& message)
    : std::runtime_error(formatError(file_, pointer_, line_, column_, message)),
      file(std::move(file_)),
      pointer(std::move(pointer_)),
      line(line_),
      column(column_) {}

std::string allErrors(const SpecError& e) {
  std::string out = e.what();
  for (const SpecError& m : e.more) out += std::string("\n") + m.what();
  return out;
}

SpecError specErrorAt(const KernelSpec& spec, const std::string& pointer, const std::string& message) {
  TextPos p = positionOf(spec.text, pointer);
  return SpecError(displayName(spec.file), pointer, p.line, p.column, message);
}

std::string_view nameOf(KernelKind k) { return kKindNames[static_cast<int>(k)]; }

std::string TargetRequest::spelling() const {
  std::string s = isa;
  for (const std::string& f : features) s += "+" + f;
  return s;
}

KernelSpec parseSpecText(const std::string& text, const std::filesystem::path& file) {
  return Parser(text, file).parse();
}

KernelSpec loadSpec(const std::filesystem::path& file) {
  std::error_code ec;
  std::ifstream in(file, std::ios::binary);
  if (!in || std::filesystem::is_directory(file, ec))
    throw SpecError(displayName(file), "", 0, 0, "cannot read file");
  std::ostringstream buffer;
  buffer << in.rdbuf();
  if (in.bad()) throw SpecError(displayName(file), "", 0, 0, "cannot read file");
  return parseSpecText(buffer.str(), file);
}

std::string_view nameOf(Strategy s) { return kStrategyNames[static_cast<int>(s)]; }
std::string_view nameOf(TransposeStrategy s) { return kTransposeStrategyNames[static_cast<int>(s)]; }
std::string_view nameOf(OutputStores s) { return kOutputStoresNames[static_cast<int>(s)]; }
std::string_view nameOf(TailPolicy t) { return kTailNames[static_cast<int>(t)]; }
std::string_view nameOf(FloatOrder o) { return kOrderNames[static_cast<int>(o)]; }

}  // namespace simdgen
