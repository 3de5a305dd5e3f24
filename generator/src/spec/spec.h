// SPDX-License-Identifier: Apache-2.0
// The validated kernel spec: what spec/ hands to the plan builders. Only spec/ touches JSON.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/dtype.h"
#include "spec/contraction_spec.h"
#include "spec/extent.h"
#include "spec/map_expr.h"

namespace simdgen {

enum class KernelKind { reduce, arg_reduce, map, transpose, contraction };
enum class NanPolicy { ignore, propagate };
enum class Strategy { automatic, inner_parallel, inner_reduction, vector_accumulator };
// transpose: the x86 tile network (plan/transpose_networks.h): rows loaded whole (unpack) or as
// half rows joined by the loads (half_rows, one shuffle stage less); auto picks by measurement.
enum class TransposeStrategy { automatic, unpack, half_rows };
// transpose: how whole tiles reach the output ("output": {"stores": ...}): non-temporal stores past
// the caches for large aligned outputs (auto), never (cached), or whenever aligned (streaming).
enum class OutputStores { automatic, cached, streaming };
enum class TailPolicy { predicated, scalar, none };
enum class FloatOrder { any, sequential };

// One requested variant: an ISA plus optional features, spelled "avx512+vnni" in the spec.
struct TargetRequest {
  std::string isa;                    // "scalar" | "avx2" | "avx512"
  std::vector<std::string> features;  // avx2: "fma", "avx_vnni"; avx512: "vnni" (sorted, unique)
  std::string spelling() const;       // "avx512+vnni"
};

struct Schedule {
  std::optional<int> accumulators;  // vector accumulators per row (1..16); unset = chosen by the builder
  std::optional<int> unroll;        // extra unrolling of the main loop (1..8); unset = 1
  std::optional<int> rows;          // rows reduced together (1..16); unset = chosen by the builder
  std::optional<int> block;         // arg_reduce: elements per block (64..2^20); unset = 8 KiB worth
};

// kind "map": one output element from the inputs' elements at the same position, or with
// `reduce` one value per row (rank 1: one value), the reduction of the expression over the row.
struct MapOutput {
  std::string name;
  DType dtype = DType::f32;
  std::string exprText;  // as the spec wrote it
  MapExpr expr;
  int inPlace = -1;      // the input this output may be the same array as (-1: none)
  std::optional<ReduceOp> reduce;  // set: a reduction output (one value per row)
  bool mean = false;     // reduce add, then divided by the number of columns (floats): "reduce": "mean"
  bool internal = false; // no array: a value for later outputs' expressions only
  bool columns = false;  // "axis": 0 (rank 2): one value per column, the rows reduced in order
  int stage = 0;         // the pass over the row that computes it: 1 + the latest stage of the row values it reads
};

// kind "map": where an input's (or output's) element [r, c] lives, r * rowStride + c * stride
// elements from its start. Static input strides may be 0 (a broadcast), output strides not; a
// runtime name is an extent parameter, shared with the shape, the kernel's row_stride or another
// tensor's stride when it has the same name.
struct MapInputLayout {
  std::optional<Extent> stride;     // unset: 1 (contiguous columns)
  std::optional<Extent> rowStride;  // unset: the kernel's row stride times `stride`
  bool strided() const { return stride || rowStride; }
};

struct KernelSpec {
  std::filesystem::path file;  // where it came from (for messages and provenance)
  std::string text;            // the spec file's exact bytes (hashed into the provenance header)

  std::string name;  // C identifier; also the output file stem
  std::string description;
  KernelKind kind = KernelKind::reduce;
  ReduceOp op = ReduceOp::add;
  DType input = DType::i8;
  DType output = DType::i32;
  int rank = 2;             // input rank: 1 ([cols]) or 2 ([rows, cols])
  Extent rows{1, ""};       // always 1 for rank 1
  Extent cols;              // the innermost extent
  std::optional<Extent> rowStride;  // elements between row starts; unset = cols (contiguous)
  int axis = 1;             // reduced axis in the normalised [rows, cols] view: 1 = rows sums, 0 = column sums
  std::vector<TargetRequest> targets;
  Strategy strategy = Strategy::automatic;
  FloatOrder order = FloatOrder::any;
  Schedule schedule;
  TailPolicy tail = TailPolicy::predicated;

  // arg_reduce only: op is min (argmin) or max (argmax); the result is the extreme value (input
  // dtype) and its index. `lastIndex` picks the non-strict compare (last index of the extreme).
  bool lastIndex = false;
  DType indexType = DType::i64;
  NanPolicy nan = NanPolicy::ignore;
  std::optional<std::string> initialValue;  // C literal of the input dtype
  std::optional<std::string> initialText;   // the same value as the spec wrote it (JSON number text)
  std::optional<int64_t> initialIndex;

  // map only: the inputs (name, dtype) and outputs in signature order; every tensor has the shape
  // rows x cols (rank 1: cols); tensors without a layout of their own have contiguous columns and,
  // for rank 2, the row stride `rowStride`.
  std::vector<MapInputName> mapInputs;
  std::vector<MapInputLayout> mapInputLayouts;  // one per input
  std::vector<MapInputLayout> mapOutputLayouts; // one per output (unset for reductions and internal outputs)
  std::vector<std::string> mapStrideNames;      // runtime names the layouts declare, in order of appearance
  std::vector<MapInputName> mapParams;  // runtime scalars, passed by value
  std::vector<MapOutput> mapOutputs;
  // The math functions' accuracy tier (exp, log, ...: docs/math.md): the largest error of one
  // function's result, in units in the last place of the output's dtype (1 or 4).
  int maxUlp = 1;

  // transpose only: output[c, r] = input[r, c]; the output is cols x rows with this row stride
  // (unset: rows, contiguous). A runtime name equal to the input's row_stride is the same parameter.
  std::optional<Extent> outputRowStride;
  // transpose only: a leading batch dimension (shape [batch, rows, cols]) and the elements between
  // consecutive matrices of the input (unset: rows * row_stride) and of the output (unset:
  // cols * output row stride). A runtime name equal to the other matrix's is the same parameter.
  std::optional<Extent> batch, batchStride, outputBatchStride;
  TransposeStrategy transposeStrategy = TransposeStrategy::automatic;
  // transpose only ("output": {"in_place": true}): rows and cols are one extent, the output has the
  // input's strides, and output may be the input itself (tiles are read in pairs before either is
  // written).
  bool inPlace = false;
  OutputStores outputStores = OutputStores::automatic;

  // reduce, arg_reduce, map, transpose: the header also declares NAME_parallel(), which splits the
  // outermost runtime extent into tasks for a caller's runner (emit/parallel_entry.h).
  bool parallel = false;

  // contraction only: dims, operands, init, output and epilogue (spec/contraction_spec.h).
  ContractionSpec contraction;
};

// Every spec problem is reported as one of these: where (file:line:col and the JSON pointer),
// what was found, and what is allowed.
struct SpecError : std::runtime_error {
  std::string file;
  std::string pointer;  // JSON pointer, "" for the whole document
  int line = 0, column = 0;  // 1-based; 0 when unknown
  // The spec's other independent errors, in the order found (a check that depends on a failed one
  // is not run); what() is the first one's message only.
  std::vector<SpecError> more;
  SpecError(std::string file, std::string pointer, int line, int column, const std::string& message);
};

// Every error of `e` (the first, then `more`), one per line, as the CLI prints them.
std::string allErrors(const SpecError& e);

// An error found after parsing (while planning), placed at `pointer` in the spec's own text.
SpecError specErrorAt(const KernelSpec& spec, const std::string& pointer, const std::string& message);

// Parse and validate one spec. Throws SpecError.
KernelSpec parseSpecText(const std::string& text, const std::filesystem::path& file);
KernelSpec loadSpec(const std::filesystem::path& file);

std::string_view nameOf(Strategy s);
std::string_view nameOf(TransposeStrategy s);
std::string_view nameOf(OutputStores s);
std::string_view nameOf(TailPolicy t);
std::string_view nameOf(FloatOrder o);
std::string_view nameOf(KernelKind k);

}  // namespace simdgen
