// SPDX-License-Identifier: Apache-2.0
// The `transpose` family. Fixed-width targets cut the matrix into square tiles of one vector per
// row (16 x 16 floats on AVX-512, 8 x 8 on AVX2, 4 x 4 on NEON): each tile is loaded row by row,
// turned into its columns by a shuffle network (plan/transpose_networks.h, proven by the lane
// simulator before it is used) and stored column by column as rows of the output. Tiles at the
// matrix's right and bottom edges are partial:
//   tail "predicated": the same network on a partial tile: rows past the end are not loaded (zero
//     lanes), columns past the end are masked off (whilelt), and only the existing columns are
//     stored, each masked to the existing rows. Nothing outside either matrix is read or written;
//   tail "scalar": element by element.
// Scalable targets (SVE) have no fixed tile (a tile row is one vector, whose length is known at run
// time): each output row is a column of the input, gathered vector by vector under a whilelt
// predicate (svld1_gather_index), the last vector partial.
#include "plan/transpose_builder.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <stdexcept>

#include "ir/simplify.h"
#include "ir/shuffle.h"
#include "plan/builder_base.h"
#include "plan/transpose_networks.h"
#include "sim/lane_sim.h"

namespace simdgen {

namespace {

// The network's statements with every variable renamed name + suffix (a second copy of a tile).
TransposeNetwork renamed(TransposeNetwork net, const std::string& suffix) {
  for (auto* names : {&net.rows, &net.cols})
    for (std::string& n : *names) n += suffix;
  for (Stmt& s : net.body) {
    if (s.kind != Stmt::Kind::Op) continue;
    s.dst += suffix;
    for (std::string& a : s.args) a += suffix;
  }
  return net;
}

// The lane tables of a proven network as comments after each stage's statements: which input
// element (row * tile + col) each lane holds. Wide tiles show the first two vectors of a stage.
ir::Block withLaneTables(const TransposeNetwork& net, const sim::TransposeProof& proof) {
  ir::Block out;
  const size_t shown = net.type.lanes <= 16 ? net.rows.size() : 2;
  size_t op = 0, inStage = 0;
  auto flush = [&](size_t first, size_t count) {
    for (size_t k = 0; k < count; ++k)
      if (k < shown) out.push_back(ir::comment("  " + proof.stages[first + k].var + ": " + proof.stages[first + k].text()));
    if (count > shown) out.push_back(ir::comment("  ... (" + std::to_string(count - shown) + " more)"));
  };
  for (const Stmt& s : net.body) {
    if (s.kind == Stmt::Kind::Comment) {
      flush(op - inStage, inStage);
      inStage = 0;
      out.push_back(s);
      continue;
    }
    out.push_back(s);
    ++op, ++inStage;
  }
  flush(op - inStage, inStage);
  // The first stage comment comes before any statement: the empty flush above printed nothing.
  return out;
}

// The loop variables and Lets a block declares (at any depth).
void declaredSymbols(const ir::Block& block, std::vector<std::string>& names) {
  for (const Stmt& s : block) {
    if ((s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::Let) && std::find(names.begin(), names.end(), s.var) == names.end())
      names.push_back(s.var);
    declaredSymbols(s.body, names);
  }
}

// Every index symbol that `block` declares renamed to name + suffix: a second copy of a nest in
// the same function (the plan's index symbols are function-wide).
void renameSymbols(ir::Block& block, const std::string& suffix) {
  std::vector<std::string> names;
  declaredSymbols(block, names);
  std::function<void(ir::Block&)> rename = [&](ir::Block& b) {
    auto fix = [&](std::string& name) {
      if (std::find(names.begin(), names.end(), name) != names.end()) name += suffix;
    };
    for (Stmt& s : b) {
      for (Index* index : {&s.index, &s.stride, &s.lo, &s.hi, &s.cmpLhs, &s.cmpRhs, &s.step})
        for (ir::Term& t : index->terms)
          for (std::string& sym : t.symbols) fix(sym);
      if (s.kind == Stmt::Kind::For || s.kind == Stmt::Kind::Let) fix(s.var);
      rename(s.body);
    }
  };
  rename(block);
}

class TransposeBuilder {
 public:
  TransposeBuilder(const KernelSpec& s, const Target& t) : b_(s, t), spec_(s), target_(t) {
    b_.plan.strategy = std::string(nameOf(spec_.tail)) + "_tail";
    outStride_ = spec_.inPlace ? b_.stride : b_.rows;  // in place: the output is the input
    if (spec_.outputRowStride) {
      const Extent& e = *spec_.outputRowStride;
      const bool shared = !e.isStatic() && spec_.rowStride && !spec_.rowStride->isStatic() && spec_.rowStride->name == e.name;
      outStride_ = shared ? b_.stride
                          : b_.bind(e, "out_stride", "kOutStride", "elements between output row starts (>= rows)");
    }
    b_.plan.tensors.push_back({"output", spec_.input, true, {b_.sym(b_.cols), b_.sym(b_.rows)}, {b_.sym(outStride_), Index::constant(1)}});
    if (spec_.batch) batched();
    b_.plan.params.push_back({ir::Param::Kind::tensor, "output", "output", "output", ""});
  }

  // A leading batch dimension: the extent right after the input pointer, the batch strides after
  // the row strides (a runtime name shared by both matrices is one parameter); every index gains
  // b * its matrix's batch stride.
  void batched() {
    auto& params = b_.plan.params;
    const size_t before = params.size();
    batch_ = b_.bind(*spec_.batch, "batch", "kBatch", "matrices (>= 0)");
    if (params.size() > before) std::rotate(params.begin() + 1, params.end() - 1, params.end());
    inBatch_ = sym(b_.rows).times(b_.stride);
    if (spec_.batchStride)
      inBatch_ = sym(b_.bind(*spec_.batchStride, "batch_stride", "kBatchStride", "elements between input matrices (>= rows * row stride)"));
    outBatch_ = spec_.inPlace ? inBatch_ : sym(b_.cols).times(outStride_);
    if (const auto& e = spec_.outputBatchStride) {
      const bool shared = spec_.batchStride && !e->isStatic() && !spec_.batchStride->isStatic() && spec_.batchStride->name == e->name;
      outBatch_ = shared ? inBatch_ : sym(b_.bind(*e, "out_batch_stride", "kOutBatchStride", "elements between output matrices (>= cols * output row stride)"));
    }
    auto& in = b_.plan.tensors[0];
    auto& out = b_.plan.tensors[1];
    in.extents.insert(in.extents.begin(), sym(batch_));
    in.strides.insert(in.strides.begin(), inBatch_);
    out.extents.insert(out.extents.begin(), sym(batch_));
    out.strides.insert(out.strides.begin(), outBatch_);
  }

  ir::Plan build() {
    const DType t = spec_.input;
    if (spec_.inPlace) {
      inPlace();
    } else if (!target_.vectorBits) {
      b_.plan.body = elementLoops("i", Index::constant(0), false);
      note("one element at a time (scalar target)");
    } else if (target_.scalable) {
      scalableTiles();
    } else {
      const VecType v = tileVector(t);
      const TransposeNetwork plain = proven(plainNetwork(v));
      const std::optional<TransposeNetwork> halves = halfRows(v);
      tables_ = withLaneTables(halves ? *halves : plain, check(halves ? *halves : plain));
      if (lineTilesApply(halves.has_value())) {
        lineTiles(plain);  // streams its whole lines itself where that pays
      } else {
        tiles(halves ? *halves : plain, plain);
        streamLargeOutputs(halves ? *halves : plain, plain);
      }
      smallMatrices(v);
      thinAsCopies(v);
      yieldOnSplit512(halves ? *halves : plain);
    }
    if (spec_.batch) {
      ir::Block matrices;
      matrices.push_back(ir::forLoop("b", Index::constant(0), sym(batch_), 1, std::move(b_.plan.body), false, "matrices of the batch"));
      b_.plan.body = std::move(matrices);
    }
    ir::removeDeadCode(b_.plan);  // static extents: edges that cannot occur
    document();
    if (auto problems = b_.plan.verify(); !problems.empty())
      throw std::logic_error("internal error: transpose plan for " + target_.spelling + " fails verification: " + problems.front());
    return std::move(b_.plan);
  }

 private:
  Index sym(const std::string& s) const { return Index::symbol(s); }
  // Element [r + dr, c] of the input and [c + dc, r] of the output (of matrix b when batched);
  // `step` names the row stride's value when it is not the stride itself (an opaque copy).
  Index inAt(const std::string& r, int dr, const Index& c, const std::string& step = "") const {
    const std::string ld = step.empty() ? b_.stride : step;
    const Index at = sym(r).times(ld) + Index::symbol(ld, dr) + c;
    return spec_.batch ? at + inBatch_.times("b") : at;
  }
  Index outAt(const std::string& cvar, int dc, const std::string& r, const std::string& step = "") const {
    const std::string ld = step.empty() ? outStride_ : step;
    const Index at = sym(cvar).times(ld) + Index::symbol(ld, dc) + sym(r);
    return spec_.batch ? at + outBatch_.times("b") : at;
  }
  // Row k of a tile whose first element is at `base` (a Let), rows `step` apart.
  Index rowOf(const std::string& base, int k, const std::string& step) const {
    return k ? sym(base) + Index::symbol(step, k) : sym(base);
  }
  // A runtime stride's opaque copy, declared in `block` (a static one stays a constant).
  std::string opaqueStride(ir::Block& block, const std::string& stride, const std::string& name) const {
    if (staticValue(stride)) return stride;
    block.push_back(ir::letOpaque(name, sym(stride)));
    return name;
  }
  void note(const std::string& s) { b_.plan.summary.push_back(s); }

  // The tile's vector: at most half the target's registers as rows (the rows and one stage's
  // results are live together; a 64 x 64 byte tile on AVX-512 would spill), at least 128 bits.
  // AVX-512: 16 x 16 for 8-, 16- and 32-bit elements (xmm, ymm, zmm), 8 x 8 for 64-bit; AVX2:
  // 16 x 16 bytes, 8 x 8 for 16 and 32 bits, 4 x 4 for 64; NEON: one 128-bit vector per row.
  VecType tileVector(DType t) const {
    VecType v = target_.vector(t);
    const int minimum = 128 / bitsOf(t);
    v.lanes = std::max(minimum, std::min(v.lanes, target_.registers / 2));
    return v;
  }

  // The network of an n x n tile of v's lanes on this target whose inputs are whole rows.
  TransposeNetwork plainNetwork(VecType v) const { return squareTransposeNetwork(target_, v); }

  // The half-row network for whole tiles when the strategy asks for it and the tile vector has a
  // 128-bit block stage for the loads to do (x86, 256 or 512 bits). "auto" keeps whole rows:
  // docs/design.md ("Which tile network") has the measurements.
  std::optional<TransposeNetwork> halfRows(VecType v) {
    if (spec_.transposeStrategy != TransposeStrategy::half_rows) return std::nullopt;
    if (target_.module != LoweringModule::x86 || (v.bits() != 256 && v.bits() != 512)) {
      note("strategy half_rows does not apply to " + std::to_string(v.bits()) + "-bit tile rows on " + target_.spelling +
           ": whole rows are loaded");
      return std::nullopt;
    }
    return proven(transposeHalfRowsX86(v));
  }

  // Refuses a network that is not exactly the transpose (the first wrong lane in the message).
  sim::TransposeProof check(const TransposeNetwork& net, int vscale = 1) const {
    std::vector<std::string> inputs = net.rows;
    ir::Block body = net.body;
    if (!net.halfRows.empty()) {
      // Prove what the loads and the network do together: inputs joined from whole rows.
      inputs.clear();
      ir::Block joined;
      const int n = int(net.rows.size());
      for (int r = 0; r < n; ++r) inputs.push_back("whole_row" + std::to_string(r));
      for (int k = 0; k < n; ++k) {
        const auto [first, half] = net.halfRows[size_t(2 * k)];
        joined.push_back(ir::shuffles::shuffleOp(net.rows[size_t(k)], net.type, {inputs[size_t(first)], inputs[size_t(net.halfRows[size_t(2 * k + 1)].first)]},
                                                 ir::shuffles::concatHalves(half == 1)));
      }
      body.insert(body.begin(), joined.begin(), joined.end());
    }
    sim::TransposeProof proof = sim::proveTranspose(body, inputs, net.cols, vscale);
    if (!net.halfRows.empty())  // the lane tables are the network's own statements'
      proof.stages.erase(proof.stages.begin(), proof.stages.begin() + std::min(proof.stages.size(), net.rows.size()));
    if (!proof.ok)
      throw std::logic_error("internal error: the " + std::to_string(net.rows.size()) + "x" + std::to_string(net.rows.size()) +
                             " transpose network for " + target_.spelling + " is not a transpose: " + proof.message);
    return proof;
  }
  TransposeNetwork proven(TransposeNetwork net) const {
    check(net);
    return net;
  }

  // for r in [from, rows): for c in [0, cols): output[c, r] = input[r, c]. `continues`: r keeps its
  // value (the rows after the whole tiles).
  ir::Block elementLoops(const std::string& r, Index from, bool continues) {
    const VecType one{spec_.input, 1};
    ir::Block body;
    body.push_back(b_.load("x", one, inAt(r, 0, sym("j"))));
    body.push_back(b_.store("x", one, outAt("j", 0, r)));
    ir::Block inner;
    inner.push_back(ir::forLoop("j", Index::constant(0), sym(b_.cols), 1, std::move(body), false, "columns"));
    ir::Block out;
    out.push_back(ir::forLoop(r, std::move(from), sym(b_.rows), 1, std::move(inner), continues, "rows, one element at a time"));
    return out;
  }

  // The tile nest, blocked for the caches: blocks of k x k tiles, within a block one tile column
  // after another (its output rows stay the same lines while the tiles go down the column).
  // Measured on this machine (f32, 16x16 tiles, hand-written first): 1024 x 1024 (4 KiB rows: a
  // tile's 16 rows share one L1 set) 516 -> 237 us, 1000 x 1000 187 -> 131 us against row-major
  // tile order. k: the largest power of two whose block of one matrix takes at most 32 KiB (the
  // input's and the output's blocks then about fill the 48 KiB L1): f32 on AVX-512 64 x 64
  // elements (4 tiles; 8 tiles measured 1000 x 1000 127 -> 108 us with 4, 1024 x 1024 level),
  // f32 on AVX2 64 x 64 (8 tiles; 4 was 1.1-1.8x slower), bytes 128 x 128, 16-bit 128 x 128.
  // The partial tiles at the right and bottom edges are done inside the last blocks.
  int blockTiles(int n) const {
    int k = 1;
    while (k < 16 && int64_t(2 * k * n) * (2 * k * n) * bytesOf(spec_.input) <= 32 * 1024) k *= 2;
    return k;
  }
  // With streaming stores the output bypasses the caches, and the input's block can fill half the
  // L2 instead: 512 rows of 1 KiB (f32 1024 x 1024 on AVX-512, 16 x 16 tiles: 64 x 64 blocks
  // 192 us, 128 x 128 150, 512 x 256 114-124, 1024 x 1024 179; docs/design.md).
  // Tiles whose rows are whole 64-byte lines (f32 16 x 16 and f64 8 x 8 on AVX-512) stream in
  // short row blocks: 64 rows of 8 KiB. On the Intel Xeon host (2026-11-26, one process, this
  // kernel hand-edited) 32 rows were best (1024 x 1024: 1.00-1.09 of memcpy, 512 rows 0.79-0.85,
  // 64 rows 0.97-1.07, 16 rows 0.75-0.83), but on the Zen 5 host (2026-11-27) 32 rows ran at
  // 0.15 of memcpy (16 rows 0.13, 64 rows 0.52-0.57, 256-512 rows 0.53-0.82, all noisy): 64 rows
  // is the shape measured well on both (docs/benchmarks.md, "Streaming block shapes"). On AMD
  // CPUs the same 512 rows of 1 KiB as the other tiles measured best after all (Zen 4, 2026-11-29,
  // the benchmark binary: 2048 x 2048 1.07-1.17 of memcpy against 0.54-0.71 for 64 rows; Zen 5's
  // multi-copy A/B pointed the same way), while the Intel host lost a fifth with them: whole-line
  // tiles take their block shape from the CPU's vendor at run time.
  // Other tiles, which stream only when the spec asks for "streaming", keep 512-row blocks. (AVX2's
  // tiles store half lines: on the Intel host streaming them lost to the caches at all block
  // shapes, 1024 x 1024 0.16-0.23 of memcpy against 0.48 cached, and on Zen 3 at every size from
  // 1024 x 1024; see streamTest.)
  static constexpr int kStreamBlockRows = 512, kStreamBlockRowBytes = 1024;
  static constexpr int kStreamBlockRowsWholeLines = 64, kStreamBlockRowBytesWholeLines = 8192;  // not AMD
  static bool wholeLines(const TransposeNetwork& net) { return net.type.bits() / 8 == 64; }
  // Cached whole-line tiles on CPUs other than AMD's go in bands one tile high and 4 KiB of input
  // wide where the output's rows are not whole 64-byte lines apart (every tile row then splits
  // two output lines) and a matrix holds kBandMatrixBytes or more (input and output together
  // about 3/4 of a 2 MiB L2). On the Intel Xeon host (2026-12-03, one process, the generated
  // kernel hand-edited, fractions of memcpy, 64 x 64 blocks / bands): f32 1000 x 1000 0.11 /
  // 0.16-0.17, 700 x 700 0.27-0.29 / 0.40-0.43, 500 x 500 0.27-0.35 / 0.29-0.39, 3000 x 3000
  // 0.19 / 0.25; f64 700 x 700 0.10-0.13 / 0.15-0.23, 1500 x 1500 0.19 / 0.21; below the size
  // level or worse (f32 300 x 300 0.42-0.46 / 0.45-0.49, 100 x 100 0.42 / 0.38, f64 300 x 300
  // 0.47-0.50 / 0.39-0.45), and with aligned rows 64 x 64 wins (f32 1000 x 1000 with 1008-element
  // rows 0.49 / 0.28, 400 x 400 0.63-0.79 / 0.56-0.59; f64 1000 x 1000 0.22 / 0.18). On the Zen 5
  // host 64 x 64 blocks ran 1000 x 1000 f32 1.4x faster than row-major tiles (blockTiles), so AMD
  // CPUs keep the blocks (docs/design.md, "Bands for cached whole-line tiles").
  static constexpr int kBandRowBytes = 4096;
  static constexpr int64_t kBandMatrixBytes = int64_t(768) << 10;
  static constexpr int kLineBytes = 64;
  // Pushes the lets that end in `use_bands` (1 where the bands apply at run time, else 0) onto
  // `body`; false, with nothing pushed, where the target or static shapes rule them out.
  bool bandLets(const TransposeNetwork& net, ir::Block& body) const {
    if (target_.module != LoweringModule::x86 || !wholeLines(net)) return false;
    const int bytes = bytesOf(spec_.input);
    const Index rowStride = sym(outStride_);
    std::optional<int64_t> stride = rowStride.constantValue();
    if (!stride && rowStride.terms.size() == 1 && rowStride.terms[0].symbols.size() == 1) stride = staticValue(rowStride.terms[0].symbols[0]);
    if (stride && *stride * bytes % kLineBytes == 0) return false;  // whole lines apart
    const auto rows = staticValue(b_.rows), cols = staticValue(b_.cols);
    const int64_t least = kBandMatrixBytes / bytes;
    if (rows && cols && *rows * *cols < least) return false;  // a small static matrix
    body.push_back(ir::comment("bands one tile high on CPUs other than AMD's where the output's rows split 64-byte lines and the matrix is large"));
    body.push_back(ir::letRoundDown("out_stride_lines", rowStride, kLineBytes / bytes));
    body.push_back(ir::letMin("out_rows_split", rowStride - sym("out_stride_lines"), Index::constant(1)));
    body.push_back(ir::letRoundDown("matrix_rounded", sym(b_.rows).times(b_.cols), least));
    body.push_back(ir::letMin("matrix_large", sym("matrix_rounded"), Index::constant(1)));
    body.push_back(ir::letByCpu("use_bands", "is_amd", Index::constant(0), sym("out_rows_split").times("matrix_large")));
    return true;
  }
  // The rows [rowStart, rowEnd) x columns [colStart, colEnd) of the matrix a tile nest covers.
  struct Region {
    Index rowStart, rowEnd, colStart, colEnd;
  };
  Region wholeMatrix() const { return {Index::constant(0), sym(b_.rows), Index::constant(0), sym(b_.cols)}; }
  // `net` transposes whole tiles, `plain` (whole rows: masked loads work on it) the edge tiles;
  // `streaming`: whole tiles leave through non-temporal stores (then a fence). `region`: the part
  // of the matrix to cover (edge tiles still mask by the matrix's extents); `noted`: the plan
  // summary describes the nest.
  void tiles(const TransposeNetwork& net, const TransposeNetwork& plain, bool streaming = false) {
    tiles(net, plain, streaming, wholeMatrix(), true);
  }
  void tiles(const TransposeNetwork& net, const TransposeNetwork& plain, bool streaming, const Region& region, bool noted) {
    const int n = int(net.rows.size()), blockTiles = this->blockTiles(n);
    // Block rows and columns (in elements, whole tiles): constants, or for streamed whole-line
    // tiles the lets block_rows and block_cols, which depend on the CPU's vendor (above).
    auto tilesIn = [&](int rows, int rowBytes) {
      return std::pair{std::max(n, rows / n * n), std::max(n, rowBytes / bytesOf(spec_.input) / n * n)};
    };
    const auto [streamRows, streamCols] = tilesIn(kStreamBlockRows, kStreamBlockRowBytes);  // AMD's, for whole lines
    const int rows = streaming ? streamRows : blockTiles * n, cols = streaming ? streamCols : blockTiles * n;
    Index blockRows = Index::constant(rows), blockCols = Index::constant(cols);
    std::string blockShape = std::to_string(rows) + " x " + std::to_string(cols) + " elements";
    if (streaming && wholeLines(net)) {
      const auto [rowsOther, colsOther] = tilesIn(kStreamBlockRowsWholeLines, kStreamBlockRowBytesWholeLines);
      b_.plan.body.push_back(ir::letByCpu("block_rows", "is_amd", blockRows, Index::constant(rowsOther)));
      b_.plan.body.push_back(ir::letByCpu("block_cols", "is_amd", blockCols, Index::constant(colsOther)));
      blockRows = sym("block_rows"), blockCols = sym("block_cols");
      blockShape += " on AMD CPUs, else " + std::to_string(rowsOther) + " x " + std::to_string(colsOther);
    }
    std::string bandNote;
    if (!streaming && bandLets(net, b_.plan.body)) {
      const int bandCols = std::max(n, kBandRowBytes / bytesOf(spec_.input) / n * n);
      b_.plan.body.push_back(ir::letIndex("block_rows", blockRows + Index::symbol("use_bands", n - rows)));
      b_.plan.body.push_back(ir::letIndex("block_cols", blockCols + Index::symbol("use_bands", bandCols - cols)));
      blockRows = sym("block_rows"), blockCols = sym("block_cols");
      bandNote = std::to_string(n) + " x " + std::to_string(bandCols) + " elements";
      blockShape += " (cache blocking), or with use_bands bands of " + bandNote;
    }
    const VecType v = net.type;
    const bool predicated = spec_.tail == TailPolicy::predicated;
    ir::Block full;
    // Runtime row strides are re-read per tile through simdgen_opaque: GCC would otherwise hoist
    // the 2n row offsets out of the loops and spill them (16x16 f32 tile 27.6 -> 8.5 ns, 1000 x
    // 1000 143 -> 98 us with g++-12; clang-19 is as fast either way).
    const std::string inStride = opaqueStride(full, b_.stride, "in_step"), outStride = opaqueStride(full, outStride_, "out_step");
    // The tile's first element in each matrix, named once: the rows are offsets from it.
    full.push_back(ir::letIndex("tile_in", inAt("i", 0, sym("j"), inStride)));
    full.push_back(ir::letIndex("tile_out", outAt("j", 0, "i", outStride)));
    for (int k = 0; k < n; ++k) {
      if (net.halfRows.empty()) {
        full.push_back(b_.load(net.rows[size_t(k)], v, rowOf("tile_in", k, inStride)));
        continue;
      }
      const auto [row, half] = net.halfRows[size_t(2 * k)];
      Stmt load = b_.load(net.rows[size_t(k)], v, rowOf("tile_in", row, inStride) + half * (n / 2));
      load.op = OpKind::LoadHalves;
      load.stride = Index::symbol(inStride, net.halfRows[size_t(2 * k + 1)].first - row);
      full.push_back(std::move(load));
    }
    full.insert(full.end(), tables_.begin(), tables_.end());
    for (int k = 0; k < n; ++k) {
      full.push_back(b_.store(net.cols[size_t(k)], v, rowOf("tile_out", k, outStride)));
      full.back().streaming = streaming;
    }

    ir::Block column;  // one tile column of the block: whole tiles, then the last rows
    column.push_back(ir::letIndex("i", sym("ib")));
    column.push_back(ir::forLoop("i", Index::constant(0), sym("i_end"), n, std::move(full), true, "whole tiles down the column"));
    column.push_back(ir::ifLess(sym("i"), sym("i_end"),
                                predicated ? edgeTile(plain, "_r") : edgeElements(sym("i_end"), sym("j") + n),
                                "the last rows of the matrix: a partial tile"));
    ir::Block blockBody;
    blockBody.push_back(ir::letMin("j_end", sym("jb") + blockCols, region.colEnd));
    blockBody.push_back(ir::letIndex("j", sym("jb")));
    blockBody.push_back(ir::forLoop("j", Index::constant(0), sym("j_end"), n, std::move(column), true, "tile columns of the block"));
    ir::Block lastColumns;
    if (predicated) {
      Stmt down = ir::forLoop("i", sym("ib"), sym("i_end"), n, edgeTile(plain, "_c"), false, "partial tiles down the column");
      down.coversTail = true;  // the corner tile lacks rows too
      lastColumns.push_back(std::move(down));
    } else {
      lastColumns = edgeElements(sym("i_end"), sym("j_end"), "ib");
    }
    blockBody.push_back(ir::ifLess(sym("j"), sym("j_end"), std::move(lastColumns), "the last columns of the matrix: partial tiles"));
    ir::Block rowBlock;
    rowBlock.push_back(ir::letMin("i_end", sym("ib") + blockRows, region.rowEnd));
    Stmt columnBlocks = ir::forLoop("jb", region.colStart, region.colEnd, blockCols, std::move(blockBody), false, "column blocks");
    columnBlocks.coversTail = true;
    rowBlock.push_back(std::move(columnBlocks));
    Stmt rowBlocks = ir::forLoop("ib", region.rowStart, region.rowEnd, blockRows, std::move(rowBlock), false,
                                 "row blocks of " + blockShape + (bandNote.empty() ? " (cache blocking)" : ""));
    rowBlocks.coversTail = true;
    b_.plan.body.push_back(std::move(rowBlocks));
    if (streaming) {
      b_.plan.body.push_back(ir::comment("the streaming stores reach memory before the kernel returns"));
      b_.plan.body.push_back(ir::op(OpKind::Fence, "", {}));
      return;
    }
    if (!noted) return;
    note("tiles of " + std::to_string(n) + " x " + std::to_string(n) + " through a " + std::to_string(countOps(net)) + "-shuffle network" +
         (net.halfRows.empty() ? "" : " on half rows joined by the loads (strategy half_rows)") + ", in blocks of " + std::to_string(blockTiles) + " x " + std::to_string(blockTiles) + " tiles" +
         (bandNote.empty() ? "" : " (on CPUs other than AMD's, where the output's rows are not whole 64-byte lines apart and a matrix holds " +
                                      std::to_string(kBandMatrixBytes >> 10) + " KiB or more: bands of " + bandNote + ")") + "; " +
         (predicated ? "edge tiles run the same network on masked rows and columns" : "edge rows and columns one element at a time"));
  }

  // ---- whole-line tiles for bytes (AVX-512) -----------------------------------------------------
  // Bytes on AVX-512 go in 64 x 64 tiles (rows of one 64-byte line) of two passes through a 4 KiB
  // scratch tile (lineTileX86), so that every line of both matrices is read and written whole by
  // one tile; the rows and columns past the last whole tile take the 16 x 16 nest. Measured on Zen 4 (2026-11-29, the benchmark binary): 1024 x 1024 u8
  // 75 -> 52 us, 1000 x 1000 65-81 -> 53-56 us (docs/benchmarks.md). Bytes only: 16-bit
  // elements in 32 x 32 tiles measured 1024 x 1024 121 -> 109-119 us but 1000 x 1000 81 -> 86-87
  // (their 16 x 16 ymm tiles already store half lines), so they keep 16 x 16 tiles.
  static constexpr int kLineBlockTiles = 4;  // blocks of 4 x 4 tiles (256 bytes a side)
  bool lineTilesApply(bool halfRowsAsked) const {
    return target_.module == LoweringModule::x86 && target_.vectorBits == 512 && bitsOf(spec_.input) == 8 && !halfRowsAsked;
  }
  // Where the output is large and its rows 64-byte aligned (the same test as other tiles'), pass
  // 2's lines leave through non-temporal stores (Zen 4, u8: 4096 x 4096 4273 -> 1978 us, 2048 x
  // 2048 384 -> 356, 1024 x 1024 (below the threshold) 54 -> 64).
  void lineTiles(const TransposeNetwork& plain) {
    const LineTile tile = lineTileX86(spec_.input);
    check(lineTileComposite(tile));  // both passes together: every element lands in its place
    const int size = 4 * tile.group;
    const std::string side = std::to_string(size), n = std::to_string(plain.rows.size());
    b_.plan.tensors.push_back({"tile_buf", spec_.input, true, {Index::constant(size * size)}, {Index::constant(1)}});
    b_.plan.tensors.back().scratch = true;
    ir::Block& body = b_.plan.body;
    body.push_back(ir::letRoundDown("rows_whole", sym(b_.rows), size));
    body.push_back(ir::letRoundDown("cols_whole", sym(b_.cols), size));
    ir::Block cached = lineTileNest(tile, false);
    std::string streamNote;
    if (std::optional<StreamTest> test = streamTest(64)) {
      streamNote = "; outputs of " + test->bytes + " whose rows are 64-byte aligned: the whole tiles' lines through streaming (non-temporal) stores, then a store fence";
      ir::Block streamed = lineTileNest(tile, true);
      renameSymbols(streamed, "_nt");
      const ir::Block chosen = chooseStreamed(std::move(*test), std::move(streamed), std::move(cached), "the whole tiles' lines");
      body.insert(body.end(), chosen.begin(), chosen.end());
    } else {
      body.insert(body.end(), cached.begin(), cached.end());
    }
    // The rest through the nest of the plain tiles: the columns past the whole tiles' (their
    // rows), then the rows past them (every column).
    struct Strip {
      Region region;
      const char* suffix;
      std::string what;
    };
    for (const Strip& st : {Strip{{Index::constant(0), sym("rows_whole"), sym("cols_whole"), sym(b_.cols)}, "_right", "the columns past the last whole " + side + " (their rows)"},
                            Strip{{sym("rows_whole"), sym(b_.rows), Index::constant(0), sym(b_.cols)}, "_bottom", "the rows past the last whole " + side + " (every column)"}}) {
      ir::Block outer = std::move(body);
      body.clear();
      tiles(plain, plain, false, st.region, false);
      ir::Block strip = std::move(body);
      renameSymbols(strip, st.suffix);
      body = std::move(outer);
      body.push_back(ir::comment(st.what + " in " + n + " x " + n + " tiles"));
      body.insert(body.end(), strip.begin(), strip.end());
    }
    const std::string sStr = std::to_string(tile.group);
    note("tiles of " + side + " x " + side + " (64-byte rows) in two passes through a " + std::to_string(size * size * bytesOf(spec_.input) / 1024) +
         " KiB scratch tile (4 x " + std::to_string(countOps(tile.rows)) + " unpack shuffles on groups of " + sStr + " rows, " + sStr +
         " x 8 shuffle_i32x4 on 128-bit blocks: whole lines read and written), in blocks of " + std::to_string(kLineBlockTiles) + " x " +
         std::to_string(kLineBlockTiles) + " tiles; the rows and columns past the last whole " + side + " in tiles of " + n + " x " + n + " through a " +
         std::to_string(countOps(plain)) + "-shuffle network, " +
         (spec_.tail == TailPolicy::predicated ? "edge tiles on masked rows and columns" : "edge rows and columns one element at a time") + streamNote);
  }
  // The blocked nest of whole tiles over [0, rows_whole) x [0, cols_whole); `streaming`: pass 2's
  // stores are non-temporal, and a fence follows the nest.
  ir::Block lineTileNest(const LineTile& tile, bool streaming) {
    const VecType v = tile.rows.type;
    const int s = tile.group, size = 4 * s, block = kLineBlockTiles * size;
    const std::string side = std::to_string(size), sStr = std::to_string(s);
    ir::Block group;  // pass 1 for the rows [s g, s g + s) of the tile
    const std::string inStride = opaqueStride(group, b_.stride, "in_step_w");
    group.push_back(ir::letIndex("group_in", sym("tile_in_w") + sym("g").times(inStride) * s));
    for (int r = 0; r < s; ++r) group.push_back(b_.load(tile.rows.rows[size_t(r)], v, rowOf("group_in", r, inStride)));
    const ir::Block rowsPass = lineRowsWithTables(tile);
    group.insert(group.end(), rowsPass.begin(), rowsPass.end());
    for (int c = 0; c < s; ++c) {
      group.push_back(b_.store(tile.rows.cols[size_t(c)], v, sym("g") * (s * size) + Index::constant(size * c)));
      group.back().tensor = "tile_buf";
    }
    ir::Block column;  // pass 2 for column c of each group of s columns: whole output lines
    const std::string outStride = opaqueStride(column, outStride_, "out_step_w");
    for (int g = 0; g < 4; ++g) {
      column.push_back(b_.load(tile.blocks.rows[size_t(g)], v, sym("c") * size + Index::constant(s * size * g)));
      column.back().tensor = "tile_buf";
    }
    const ir::Block blocksPass = lineBlocksWithTables(tile);
    column.insert(column.end(), blocksPass.begin(), blocksPass.end());
    for (int k = 0; k < 4; ++k) {
      column.push_back(b_.store(tile.blocks.cols[size_t(k)], v, sym("tile_out_w") + sym("c").times(outStride) + Index::symbol(outStride, s * k)));
      column.back().streaming = streaming;
    }

    ir::Block whole;
    whole.push_back(ir::letIndex("tile_in_w", inAt("i_w", 0, sym("j_w"))));
    whole.push_back(ir::letIndex("tile_out_w", outAt("j_w", 0, "i_w")));
    whole.push_back(ir::comment("pass 1: each group of " + sStr + " rows as four " + sStr + " x " + sStr + " tiles, one per 128-bit segment, into tile_buf"));
    whole.push_back(ir::forLoop("g", Index::constant(0), Index::constant(4), 1, std::move(group), false, "groups of " + sStr + " rows"));
    whole.push_back(ir::comment("pass 2: output rows c, c + " + sStr + ", c + " + std::to_string(2 * s) + ", c + " + std::to_string(3 * s) +
                                " from the four groups' 128-bit blocks"));
    whole.push_back(ir::forLoop("c", Index::constant(0), Index::constant(s), 1, std::move(column), false, "columns of the " + sStr + " x " + sStr + " tiles"));

    ir::Block down;
    down.push_back(ir::letIndex("i_w", sym("ib_w")));
    down.push_back(ir::forLoop("i_w", Index::constant(0), sym("i_end_w"), size, std::move(whole), true, "whole " + side + " x " + side + " tiles down the column"));
    ir::Block blockBody;
    blockBody.push_back(ir::letMin("j_end_w", sym("jb_w") + block, sym("cols_whole")));
    blockBody.push_back(ir::letIndex("j_w", sym("jb_w")));
    blockBody.push_back(ir::forLoop("j_w", Index::constant(0), sym("j_end_w"), size, std::move(down), true, "tile columns of the block"));
    ir::Block rowBlock;
    rowBlock.push_back(ir::letMin("i_end_w", sym("ib_w") + block, sym("rows_whole")));
    Stmt columnBlocks = ir::forLoop("jb_w", Index::constant(0), sym("cols_whole"), block, std::move(blockBody), false, "column blocks");
    columnBlocks.coversTail = true;
    rowBlock.push_back(std::move(columnBlocks));
    Stmt rowBlocks = ir::forLoop("ib_w", Index::constant(0), sym("rows_whole"), block, std::move(rowBlock), false,
                                 "row blocks of " + std::to_string(block) + " x " + std::to_string(block) + " elements (cache blocking)");
    rowBlocks.coversTail = true;
    ir::Block out;
    out.push_back(std::move(rowBlocks));
    if (streaming) {
      out.push_back(ir::comment("the streaming stores reach memory before the kernel returns"));
      out.push_back(ir::op(OpKind::Fence, "", {}));
    }
    return out;
  }
  // The rows pass with the lane tables of segment 0 (the other segments are tiles of their own):
  // lane l of row r is tagged r * s + l within its segment, as in the s x s tables.
  ir::Block lineRowsWithTables(const LineTile& tile) const {
    const int s = tile.group;
    const TransposeNetwork& rows = tile.rows;
    std::map<std::string, std::vector<int>> tags;
    for (int r = 0; r < s; ++r)
      for (int l = 0; l < rows.type.lanes; ++l) tags[rows.rows[size_t(r)]].push_back(r * s + l % s + s * s * (l / s));
    sim::TransposeProof shown;
    shown.ok = true;
    shown.stages = sim::runSymbolic(rows.body, tags).stages;
    for (sim::LaneStage& st : shown.stages) st.lanes.resize(size_t(s));
    TransposeNetwork narrow = rows;
    narrow.type.lanes = s;  // every vector of each stage in the tables
    ir::Block out{ir::comment("lane tables: 128-bit segment 0 (columns 0-" + std::to_string(s - 1) + "); segments 1-3 hold columns " +
                              std::to_string(s) + "-" + std::to_string(4 * s - 1) + " alike")};
    const ir::Block body = withLaneTables(narrow, shown);
    out.insert(out.end(), body.begin(), body.end());
    for (Stmt& st : out)
      if (st.kind == Stmt::Kind::Op) st.type = rows.type;
    return out;
  }
  // The blocks pass with its tables in 128-bit blocks: "gK.S" is segment S of group K's part.
  ir::Block lineBlocksWithTables(const LineTile& tile) const {
    const TransposeNetwork& blocks = tile.blocks;
    const int s = tile.group, lanesPerBlock = blocks.type.lanes / 4;
    std::map<std::string, std::vector<int>> tags;
    for (int g = 0; g < 4; ++g)
      for (int l = 0; l < blocks.type.lanes; ++l) tags[blocks.rows[size_t(g)]].push_back(4 * g + l / lanesPerBlock);
    const sim::SymbolicRun run = sim::runSymbolic(blocks.body, tags);
    const std::string sStr = std::to_string(s);
    ir::Block out{ir::comment("lane tables in 128-bit blocks: gK.S is segment S of group K's part (rows " + sStr + " K to " + sStr + " K + " +
                              std::to_string(s - 1) + " of column " + sStr + " S + c)")};
    size_t op = 0;
    for (const Stmt& st : blocks.body) {
      out.push_back(st);
      if (st.kind != Stmt::Kind::Op) continue;
      const sim::LaneStage& stage = run.stages[op++];
      std::string text;
      for (int b = 0; b < 4; ++b) {
        const int tag = stage.lanes[size_t(lanesPerBlock * b)].front();
        text += " g" + std::to_string(tag / 4) + "." + std::to_string(tag % 4);
      }
      out.push_back(ir::comment("  " + stage.var + ":" + text));
    }
    return out;
  }

  // Large outputs on x86: the tile nest twice, one storing whole tiles with non-temporal stores
  // (when the output's first element, its row stride and its batch stride keep every tile row
  // aligned to the vector, and it holds at least kStreamBytes), the other through the caches.
  // Streaming saves the read for ownership of every output line and leaves the caches to the
  // input: f32 on AVX-512 (one run, hand-edited generated kernels) 1024 x 1024 208 -> 118 us,
  // 2048 x 2048 1361 -> 601 us; below about twice the L2 the caches win (512 x 512 26 -> 44 us).
  static constexpr int64_t kStreamBytes = int64_t(2) << 20;
  // Rows a multiple of this many bytes apart share a few L1 sets (64 sets of 64-byte lines: a
  // tile's rows then fall into one or two of them).
  static constexpr int64_t kSetAliasBytes = 2048;
  // On AMD CPUs the caches win up to about 6 MiB when the output's rows do not alias in L1 (the
  // stride not a multiple of kSetAliasBytes; Zen 4, f32 on AVX-512, fractions of memcpy cached /
  // streamed: 1008 x 1008 0.73-0.74 / 0.56-0.59, 1200 x 1200 0.69-0.77 / 0.64-0.67, 1280 x 1280
  // 0.60-0.67 / 0.68-0.74, 1408 x 1408 0.49-0.54 / 0.71-0.78): its L3 keeps a cached transpose
  // of that size, where streaming stores go to DRAM. Aliasing rows (1024 x 1024) stream from
  // kStreamBytes there too.
  static constexpr int64_t kStreamBytesAmdUnaliased = int64_t(6) << 20;

  // A static matrix of at most kL1Bytes through 512-bit tiles: in L1 the network is bound by its
  // shuffles and stores, which CPUs that split 512-bit operations (AMD Zen 4) run at half the
  // rate of 256-bit ones, so there the dispatcher takes the 256-bit variant (Zen 4, one run:
  // 16 x 16 f32 14.1 -> 9.9 ns, the tile's memcpy speed; 37 x 70 f64 426 -> 300 ns). Runtime
  // shapes keep 512 bits: from 128 x 128 f32 up (L2 and beyond) they measure faster there too.
  static constexpr int64_t kL1Bytes = 32 << 10;
  void yieldOnSplit512(const TransposeNetwork& net) {
    if (target_.module != LoweringModule::x86 || net.type.bits() != 512) return;
    const bool has256 = std::any_of(spec_.targets.begin(), spec_.targets.end(), [](const TargetRequest& r) {
      const Target t = makeTarget(r);
      return t.module == LoweringModule::x86 && t.vectorBits == 256;
    });
    if (!has256) return;  // nothing narrower to take
    const auto rows = staticValue(b_.rows), cols = staticValue(b_.cols);
    const auto batch = spec_.batch ? staticValue(batch_) : std::optional<int64_t>(1);
    if (!rows || !cols || !batch || *rows * *cols * *batch * bytesOf(spec_.input) > kL1Bytes) return;
    b_.plan.yieldsOnSplit512 = true;
    note("a static matrix that fits in L1: on CPUs that run 512-bit operations as two halves (AMD Zen 4) the dispatcher takes the 256-bit variant instead");
  }
  // When whole tiles of `vbytes`-byte rows may stream: the test (an index compared with
  // `threshold`) and the lets it reads; none when the spec or the target rules it out, or a
  // stride known statically misaligns tile rows, or a static output is below the threshold.
  struct StreamTest {
    ir::Block lets;
    Index size;
    Index threshold;
    std::string bytes;  // "2 MiB or more", "any size"
  };
  std::optional<StreamTest> streamTest(int vbytes) {
    if (spec_.outputStores == OutputStores::cached) return std::nullopt;
    if (target_.module != LoweringModule::x86) {
      if (spec_.outputStores == OutputStores::streaming) note("stores \"streaming\": x86 only; here every store goes through the caches");
      return std::nullopt;
    }
    const bool always = spec_.outputStores == OutputStores::streaming;
    // Under "auto" only tiles whose rows are whole 64-byte lines stream. A tile of shorter rows
    // fills its n output lines at once, 64 / vbytes tiles in a row completing each, and the write-
    // combining buffers flush partial lines: u16 on AVX-512 (16 rows of 32 bytes) 1024 x 1024
    // 136 -> 234 us streamed (Zen 5); on the CPUs that run the AVX2 variant, f32 8 x 8 (8 rows of
    // 32 bytes) 0.47 -> 0.26 of memcpy and u16 8 x 8 (16-byte rows) 0.38 -> 0.09 (Zen 3), and 0.48
    // -> 0.16-0.23 on an Intel host. (Zen 5 gained, 460 -> 272 us, but it runs AVX-512.)
    if (!always && vbytes < 64) return std::nullopt;
    // Strides known to misalign a tile row, or a static output below the threshold: no copy.
    const Index rowStride = sym(outStride_);
    for (const Index* stride : {&rowStride, spec_.batch ? static_cast<const Index*>(&outBatch_) : nullptr}) {
      if (!stride) continue;
      std::optional<int64_t> known = stride->constantValue();
      if (!known && stride->terms.size() == 1 && stride->terms[0].symbols.size() == 1) known = staticValue(stride->terms[0].symbols[0]);
      if (known && *known * bytesOf(spec_.input) % vbytes != 0) {
        note("the output's stride keeps tile rows off " + std::to_string(vbytes) + "-byte boundaries: no streaming stores");
        return std::nullopt;
      }
    }
    StreamTest test;
    test.size = sym(b_.rows).times(b_.cols);
    if (spec_.batch) test.size = test.size.times(batch_);
    const int64_t least = always ? 1 : kStreamBytes / bytesOf(spec_.input);
    const auto rows = staticValue(b_.rows), cols = staticValue(b_.cols);
    const auto batch = spec_.batch ? staticValue(batch_) : std::optional<int64_t>(1);
    if (rows && cols && batch && *rows * *cols * *batch < least) return std::nullopt;  // a small static output
    test.threshold = Index::constant(least);
    test.lets.push_back(ir::comment("streaming stores need every tile row of the output on a " + std::to_string(vbytes) + "-byte boundary"));
    test.lets.push_back(ir::letAligned("out_aligned", "output", Index::constant(0), vbytes));
    test.lets.push_back(ir::letAligned("out_rows_aligned", "output", sym(outStride_), vbytes));
    test.size = test.size.times("out_aligned").times("out_rows_aligned");
    if (spec_.batch) {
      test.lets.push_back(ir::letAligned("out_batch_aligned", "output", outBatch_, vbytes));
      test.size = test.size.times("out_batch_aligned");
    }
    test.bytes = always ? "any size" : std::to_string(kStreamBytes >> 20) + " MiB or more";
    if (!always) {  // later on AMD CPUs where rows do not alias
      const int64_t alias = kSetAliasBytes / bytesOf(spec_.input);
      test.lets.push_back(ir::letRoundDown("out_stride_aliased", sym(outStride_), alias));
      test.lets.push_back(ir::letMin("out_rows_unaliased", sym(outStride_) - sym("out_stride_aliased"), Index::constant(1)));
      test.lets.push_back(ir::letByCpu("stream_later", "is_amd", sym("out_rows_unaliased"), Index::constant(0)));
      test.threshold = test.threshold + Index::symbol("stream_later", (kStreamBytesAmdUnaliased - kStreamBytes) / bytesOf(spec_.input));
      test.bytes += " (" + std::to_string(kStreamBytesAmdUnaliased >> 20) + " MiB on AMD CPUs unless rows are a multiple of " +
                    std::to_string(kSetAliasBytes) + " bytes apart)";
    }
    return test;
  }
  // `streamed` where the test holds, `cached` elsewhere.
  static ir::Block chooseStreamed(StreamTest test, ir::Block streamed, ir::Block cached, const std::string& what) {
    ir::Block body = std::move(test.lets);
    body.push_back(ir::ifIndex(test.size, ir::Cmp::ge, test.threshold, std::move(streamed),
                               "an aligned output of " + test.bytes + ": " + what + " stored past the caches"));
    body.push_back(ir::ifIndex(test.size, ir::Cmp::lt, test.threshold, std::move(cached), "otherwise through the caches"));
    return body;
  }
  void streamLargeOutputs(const TransposeNetwork& net, const TransposeNetwork& plain) {
    const int vbytes = net.type.bits() / 8, n = int(net.rows.size());
    std::optional<StreamTest> test = streamTest(vbytes);
    if (!test) return;
    const std::string bytes = test->bytes;
    ir::Block cached = std::move(b_.plan.body);
    b_.plan.body.clear();
    tiles(net, plain, true);
    ir::Block streamed = std::move(b_.plan.body);
    renameSymbols(streamed, "_nt");
    b_.plan.body = chooseStreamed(std::move(*test), std::move(streamed), std::move(cached), "whole tiles");
    note("outputs of " + bytes + " whose tile rows are " + std::to_string(vbytes) + "-byte aligned: whole tiles through streaming (non-temporal) stores, in blocks of " +
         std::to_string(std::max(n, kStreamBlockRows / n * n)) + " rows" +
         (wholeLines(net) ? " on AMD CPUs, else " + std::to_string(std::max(n, kStreamBlockRowsWholeLines / n * n)) : "") + ", then a store fence");
  }

  // x86: a matrix that fits a tile of half the width (at most 8 x 8 f32 on AVX-512) goes through
  // that tile's network: a 16 x 16 edge tile costs more than twice an 8 x 8 one (8 x 8 f32, g++-12:
  // the AVX-512 variant 34.6 ns, the AVX2 one 12.4; 4 x 4 30.2 vs 14.3). Wraps the plan's body as
  // the case of larger matrices.
  void smallMatrices(VecType v) {
    VecType half = v;
    half.lanes /= 2;
    if (target_.module != LoweringModule::x86 || half.bits() < 128 || half.lanes < 4) return;
    const auto rows = staticValue(b_.rows), cols = staticValue(b_.cols);
    if (rows && cols && std::max(*rows, *cols) > half.lanes) return;  // a static matrix larger than that
    ir::Block large = std::move(b_.plan.body);
    b_.plan.body.clear();
    const ir::Block bigTables = std::move(tables_);
    const TransposeNetwork net = proven(plainNetwork(half));
    tables_ = withLaneTables(net, check(net));
    const std::string n = std::to_string(half.lanes);
    note("matrices of at most " + n + " rows and " + n + " columns:");
    tiles(net, net);
    tables_ = bigTables;
    ir::Block small = std::move(b_.plan.body);
    renameSymbols(small, "_small");
    ir::Block& body = b_.plan.body;
    body.clear();
    body.push_back(ir::letMax("longer_side", sym(b_.rows), sym(b_.cols)));
    body.push_back(ir::ifIndex(sym("longer_side"), ir::Cmp::le, Index::constant(half.lanes), std::move(small),
                               "at most " + n + " x " + n + ": one tile of half the width"));
    body.push_back(ir::ifIndex(sym("longer_side"), ir::Cmp::gt, Index::constant(half.lanes), std::move(large)));
  }
  std::optional<int64_t> staticValue(const std::string& name) const {
    for (const auto& [constant, value] : b_.plan.constants)
      if (constant == name) return value;
    return std::nullopt;
  }

  // A matrix of one column or one row is a copy, contiguous or strided on one side: vector loops
  // instead of tiles that are all edge (4096 x 1 f32 through edge tiles: 690 cycles per 256
  // elements; Eigen copies in 130). Wraps the tile nest as the case of two rows and columns or more.
  void thinAsCopies(VecType v) {
    ir::Block tiles = std::move(b_.plan.body);
    // One column: output[0, r] = input[r, 0], the input's elements a row stride apart.
    ir::Block column;
    column.push_back(ir::ifIndex(sym(b_.stride), ir::Cmp::eq, Index::constant(1), copyLoop(v, "", false), "contiguous: a copy"));
    column.push_back(ir::ifIndex(sym(b_.stride), ir::Cmp::ne, Index::constant(1), copyLoop(v, b_.stride, false), "strided: gathered"));
    // One row: output[c, 0] = input[0, c], the output's elements a row stride apart.
    ir::Block row;
    row.push_back(ir::ifIndex(sym(outStride_), ir::Cmp::eq, Index::constant(1), copyLoop(v, "", true), "contiguous: a copy"));
    Stmt strided = ir::forLoop("c", Index::constant(0), sym(b_.cols), 1, {}, false, "strided output: one element at a time");
    strided.body.push_back(b_.load("x", {spec_.input, 1}, inAt("i0", 0, sym("c"))));
    strided.body.push_back(b_.store("x", {spec_.input, 1}, outAt("c", 0, "i0")));  // i0 = 0: the only row
    row.push_back(ir::ifIndex(sym(outStride_), ir::Cmp::ne, Index::constant(1), {ir::letIndex("i0", Index::constant(0)), std::move(strided)}));
    ir::Block wide;
    wide.push_back(ir::ifIndex(sym(b_.rows), ir::Cmp::eq, Index::constant(1), std::move(row), "one row"));
    wide.push_back(ir::ifIndex(sym(b_.rows), ir::Cmp::ne, Index::constant(1), std::move(tiles)));
    ir::Block& body = b_.plan.body;
    body.push_back(ir::ifIndex(sym(b_.cols), ir::Cmp::eq, Index::constant(1), std::move(column), "one column"));
    body.push_back(ir::ifIndex(sym(b_.cols), ir::Cmp::ne, Index::constant(1), std::move(wide)));
    note("a matrix of one row or one column is copied by vector loops (gathered when its elements are strided)");
  }

  // k < n elements (n = rows for a column, cols for a row) from input element k (a stride apart
  // when `gatherStride` is set) to output element k: whole vectors, then the rest as the tail
  // policy says.
  ir::Block copyLoop(VecType v, const std::string& gatherStride, bool alongRow) {
    const std::string n = alongRow ? b_.cols : b_.rows;
    const Index inBase = spec_.batch ? inBatch_.times("b") : Index::constant(0);
    const Index outBase = spec_.batch ? outBatch_.times("b") : Index::constant(0);
    auto body = [&](VecType t, const std::string& pred, const std::string& suffix) {
      ir::Block out;
      Stmt load = b_.load("v" + suffix, t, (gatherStride.empty() ? sym("k") : sym("k").times(gatherStride)) + inBase);
      if (!gatherStride.empty() && t.lanes > 1) {
        load.op = OpKind::GatherRows;
        load.stride = sym(gatherStride);
      }
      if (!pred.empty()) load.pred = pred, load.literal = "0";
      out.push_back(load);
      out.push_back(b_.store("v" + suffix, t, sym("k") + outBase, pred));
      return out;
    };
    ir::Block out;
    if (gatherStride.empty()) {
      // Contiguous on both sides: four vectors a step first, as compilers unroll a copy loop (1 x
      // 4096 f32 on AVX-512: one vector a step 127 ns, clang-19's 4-store loop 107).
      ir::Block four;
      for (int u = 0; u < 4; ++u) {
        four.push_back(b_.load("v" + std::to_string(u), v, sym("k") + u * v.lanes + inBase));
        four.push_back(b_.store("v" + std::to_string(u), v, sym("k") + u * v.lanes + outBase));
      }
      out.push_back(ir::forLoop("k", Index::constant(0), sym(n), 4 * v.lanes, std::move(four), false, "four whole vectors a step"));
      out.push_back(ir::forLoop("k", Index::constant(0), sym(n), v.lanes, body(v, "", ""), true, "whole vectors"));
    } else {
      out.push_back(ir::forLoop("k", Index::constant(0), sym(n), v.lanes, body(v, "", ""), false, "whole vectors"));
    }
    if (spec_.tail == TailPolicy::predicated) {
      ir::Block tail;
      tail.push_back(b_.whileLt("rest", v, sym("k"), sym(n), true));
      ir::Block rest = body(v, "rest", "_tail");
      tail.insert(tail.end(), rest.begin(), rest.end());
      out.push_back(ir::ifLess(sym("k"), sym(n), std::move(tail), "the rest: one partial vector"));
    } else {
      out.push_back(ir::forLoop("k", Index::constant(0), sym(n), 1, body({spec_.input, 1}, "", "_one"), true, "the rest, one element at a time"));
    }
    return out;
  }

  // The elements of rows [first row, rowEnd) x columns [j, colEnd), one at a time; the first row
  // is i (the bottom edge of a tile column) or `fromRow` (the right edge strip of a block).
  ir::Block edgeElements(const Index& rowEnd, const Index& colEnd, const std::string& fromRow = "i") {
    const VecType one{spec_.input, 1};
    ir::Block element;
    element.push_back(b_.load("x", one, inAt("r", 0, sym("c"))));
    element.push_back(b_.store("x", one, outAt("c", 0, "r")));
    ir::Block row;
    row.push_back(ir::forLoop("c", sym("j"), colEnd, 1, std::move(element), false, "columns"));
    ir::Block out;
    out.push_back(ir::forLoop("r", sym(fromRow), rowEnd, 1, std::move(row), false, "rows, one element at a time"));
    return out;
  }

  static int countOps(const TransposeNetwork& net) {
    int k = 0;
    for (const Stmt& s : net.body) k += s.kind == Stmt::Kind::Op;
    return k;
  }

  // A tile at (i, j) that may lack rows (i + k >= rows) and columns (j + k >= cols).
  ir::Block edgeTile(const TransposeNetwork& plain, const std::string& suffix) {
    const TransposeNetwork net = renamed(plain, suffix);
    const int n = int(net.rows.size());
    const VecType v = net.type;
    ir::Block out;
    const std::string cols = "in_cols" + suffix, rows = "in_rows" + suffix, in = "edge_in" + suffix, at = "edge_out" + suffix;
    out.push_back(ir::letIndex(in, inAt("i", 0, sym("j"))));
    out.push_back(ir::letIndex(at, outAt("j", 0, "i")));
    out.push_back(b_.whileLt(cols, v, sym("j"), sym(b_.cols), false));
    for (int k = 0; k < n; ++k) {
      Stmt zero = b_.make(OpKind::Splat, net.rows[size_t(k)], v);
      zero.literal = "0";
      out.push_back(zero);
      Stmt load = b_.load(net.rows[size_t(k)], v, rowOf(in, k, b_.stride));
      load.declare = false;
      load.pred = cols;
      load.literal = "0";
      out.push_back(ir::ifLess(sym("i") + k, sym(b_.rows), {load}));
    }
    out.insert(out.end(), net.body.begin(), net.body.end());
    out.push_back(b_.whileLt(rows, v, sym("i"), sym(b_.rows), false));
    for (int k = 0; k < n; ++k)
      out.push_back(ir::ifLess(sym("j") + k, sym(b_.cols), {b_.store(net.cols[size_t(k)], v, rowOf(at, k, outStride_), rows)}));
    return out;
  }

  // ---- in place --------------------------------------------------------------------------------
  // A square matrix transposed in place: tile (i, j) and its mirror (j, i) are both loaded before
  // either is stored, so output may be input. Tiles as out of place (half the registers as rows:
  // two tiles spill a few registers, but rows of whole cache lines matter more: 1024 x 1024 f32
  // on AVX-512 with 8 x 8 tiles 860 us, with 16 x 16 273 us). The strip right of the last whole
  // tile and the bottom-right corner swap element pairs. SVE branches on vscale like the
  // out-of-place plan; other lengths and the scalar target swap element pairs.
  void inPlace() {
    if (spec_.transposeStrategy == TransposeStrategy::half_rows) note("strategy half_rows does not apply in place: whole rows are loaded");
    if (!target_.vectorBits) {
      b_.plan.body = swapCorner(Index::constant(0));
      note("in place, one element pair at a time (scalar target)");
      return;
    }
    VecType v = target_.vector(spec_.input);
    if (!target_.scalable) {
      v.lanes = std::max(128 / bitsOf(v.elem), std::min(v.lanes, target_.registers / 2));
      const TransposeNetwork net = proven(plainNetwork(v));
      tables_ = withLaneTables(net, check(net));
      b_.plan.body = pairedTiles(net);
      halfWidthOnSplit512(v);
      return;
    }
    const std::string lengths = perVectorLength(v, swapCorner(Index::constant(0)), [&](const TransposeNetwork& net, int vscale) {
      return std::make_pair(pairedTiles(net), std::to_string(128 * vscale) + "-bit vectors");
    });
    note("other vector lengths" + (lengths.empty() ? "" : " than " + lengths + " bits") + ": in place, one element pair at a time");
  }

  // In place through 512-bit tiles (32- and 64-bit elements on AVX-512): on CPUs that split
  // 512-bit operations the tiles of half the width run faster, a pair of tiles being bound by its
  // shuffles and stores at every size (Zen 4, f32: 96 x 96 0.73 -> 0.52 us, 1000 x 1000 117 ->
  // 82 us, 2000 x 2000 543 -> 396 us; f64 1.12-1.29x), except where the row stride is a multiple
  // of kSetAliasBytes: a half-width tile's rows, half lines, then share one or two L1 sets and
  // each line is fetched twice (f32 1024 x 1024 277 -> 818 us, 1536 x 1536 395 -> 929 us).
  // So the body branches at run time on the CPU and the stride; the interpreter runs the wide nest.
  void halfWidthOnSplit512(VecType v) {
    if (target_.module != LoweringModule::x86 || v.bits() != 512) return;
    const int64_t aliasElements = kSetAliasBytes / bytesOf(v.elem);
    if (const auto stride = staticValue(b_.stride); stride && *stride % aliasElements == 0) return;
    ir::Block wide = std::move(b_.plan.body);
    const ir::Block wideTables = std::move(tables_);
    VecType half = v;
    half.lanes /= 2;
    const TransposeNetwork net = proven(plainNetwork(half));
    tables_ = withLaneTables(net, check(net));
    ir::Block narrow = pairedTiles(net);
    tables_ = wideTables;
    renameSymbols(narrow, "_half");
    const std::string bytes = std::to_string(kSetAliasBytes);
    note("of the two nests above, the second (half-width tiles) runs on CPUs that split 512-bit operations (AMD Zen 4) unless the row stride is a multiple of " + bytes + " bytes");
    ir::Block& body = b_.plan.body;
    body.clear();
    body.push_back(ir::letRoundDown("stride_aliased", sym(b_.stride), aliasElements));
    body.push_back(ir::letByCpu("half_width", "splits_512", sym(b_.stride) - sym("stride_aliased"), Index::constant(0)));
    body.push_back(ir::ifIndex(sym("half_width"), ir::Cmp::ne, Index::constant(0), std::move(narrow),
                               "a CPU that splits 512-bit operations, rows not a multiple of " + bytes + " bytes apart: half-width tiles"));
    body.push_back(ir::ifIndex(sym("half_width"), ir::Cmp::eq, Index::constant(0), std::move(wide)));
  }

  // SVE: the plan's body becomes one branch per vscale at which an n x n tile (n = v's lanes at
  // that length) fits in half the registers, each the nest that `nest(net, vscale)` builds around
  // the zip network proven there (with its label), then `fallback` for every other length.
  // Returns the lengths with a branch ("128, 256" bits).
  template <class Nest>
  std::string perVectorLength(VecType v, ir::Block fallback, Nest nest) {
    std::string lengths;
    ir::Block branches;
    for (int vscale = 1; v.lanes * vscale <= target_.registers / 2; vscale *= 2) {
      const TransposeNetwork net = transposeZip(v, v.lanes * vscale);
      tables_ = withLaneTables(net, check(net, vscale));
      auto [body, label] = nest(net, vscale);
      renameSymbols(body, "_vs" + std::to_string(vscale));
      fallback = {ir::ifIndex(sym(ir::kVscale), ir::Cmp::ne, Index::constant(vscale), std::move(fallback))};
      branches.push_back(ir::ifIndex(sym(ir::kVscale), ir::Cmp::eq, Index::constant(vscale), std::move(body), label));
      lengths += (lengths.empty() ? "" : ", ") + std::to_string(128 * vscale);
    }
    b_.plan.body = std::move(branches);
    for (Stmt& s : fallback) b_.plan.body.push_back(std::move(s));
    return lengths;
  }

  // The nest of tile pairs for network `net` (n x n tiles).
  ir::Block pairedTiles(const TransposeNetwork& net) {
    const int n = int(net.rows.size());
    const VecType v = net.type;
    const TransposeNetwork a = renamed(net, "_a"), b = renamed(net, "_b");
    // The input's and the output's strides are the same, so one Let names a tile's first element
    // in both (tile (r, c) of either matrix).
    auto load = [&](ir::Block& out, const TransposeNetwork& t, const std::string& at, const std::string& step) {
      for (int k = 0; k < n; ++k) out.push_back(b_.load(t.rows[size_t(k)], v, rowOf(at, k, step)));
    };
    auto store = [&](ir::Block& out, const TransposeNetwork& t, const std::string& at, const std::string& step) {
      for (int k = 0; k < n; ++k) out.push_back(b_.store(t.cols[size_t(k)], v, rowOf(at, k, step)));
    };
    ir::Block row;  // tile row i: the diagonal tile, the pairs right of it, the strip after them
    row.push_back(ir::comment("the diagonal tile"));
    const std::string stepD = opaqueStride(row, b_.stride, "diag_step");
    row.push_back(ir::letIndex("diag_at", inAt("i", 0, sym("i"), stepD)));
    load(row, net, "diag_at", stepD);
    row.insert(row.end(), tables_.begin(), tables_.end());
    store(row, net, "diag_at", stepD);
    ir::Block pair;
    const std::string step = opaqueStride(pair, b_.stride, "pair_step");
    pair.push_back(ir::letIndex("a_at", inAt("i", 0, sym("j"), step)));  // tile (i, j)
    pair.push_back(ir::letIndex("b_at", inAt("j", 0, sym("i"), step)));  // tile (j, i)
    load(pair, a, "a_at", step);
    load(pair, b, "b_at", step);
    pair.push_back(ir::comment("tile (i, j) to (j, i), then tile (j, i) to (i, j): both are loaded already"));
    pair.insert(pair.end(), a.body.begin(), a.body.end());
    store(pair, a, "b_at", step);
    pair.insert(pair.end(), b.body.begin(), b.body.end());
    store(pair, b, "a_at", step);

    row.push_back(ir::letIndex("j", sym("i") + n));
    row.push_back(ir::forLoop("j", Index::constant(0), sym(b_.cols), n, std::move(pair), true, "tile pairs (i, j) and (j, i)"));
    ir::Block strip;
    strip.push_back(ir::forLoop("r", sym("i"), sym("i") + n, 1, swapRow("r", sym("j")), false, "rows of the tile row"));
    row.push_back(ir::ifLess(sym("j"), sym(b_.cols), std::move(strip), "the last columns: element pairs"));
    ir::Block out;
    out.push_back(ir::letIndex("i", Index::constant(0)));
    out.push_back(ir::forLoop("i", Index::constant(0), sym(b_.rows), n, std::move(row), true, "tile rows"));
    ir::Block corner = swapCorner(sym("i"));
    out.push_back(ir::ifLess(sym("i"), sym(b_.rows), std::move(corner), "the bottom-right corner: element pairs"));
    note("in place: tiles of " + std::to_string(n) + " x " + std::to_string(n) + " through a " + std::to_string(countOps(net)) +
         "-shuffle network, each tile and its mirror loaded before either is stored; the edges swap element pairs");
    return out;
  }

  // Row r from column `from` on: element [r, c] and its mirror [c, r] exchanged (out[c, r] = in[r,
  // c] and out[r, c] = in[c, r], both read first).
  ir::Block swapRow(const std::string& r, const Index& from) {
    const VecType one{spec_.input, 1};
    ir::Block body;
    body.push_back(b_.load("x", one, inAt(r, 0, sym("c"))));
    body.push_back(b_.load("y", one, inAt("c", 0, sym(r))));
    body.push_back(b_.store("x", one, outAt("c", 0, r)));
    body.push_back(b_.store("y", one, outAt(r, 0, "c")));
    ir::Block out;
    out.push_back(ir::forLoop("c", from, sym(b_.cols), 1, std::move(body), false, "columns"));
    return out;
  }

  // Rows [first, rows), each from its diagonal element on (the diagonal is copied to itself, which
  // an out-of-place call needs).
  ir::Block swapCorner(const Index& first) {
    ir::Block out;
    out.push_back(ir::forLoop("r", first, sym(b_.rows), 1, swapRow("r", sym("r")), false, "rows, one element pair at a time"));
    return out;
  }

  // SVE: a tile row is one vector of vscale * 128 bits, known only at run time, and a network's
  // statement count depends on it. So the plan branches on vscale: at each power of two where a
  // tile of n = VL / w rows fits in half the registers (n <= 16: f32 up to 512 bits, f64 up to
  // 1024, 16-bit up to 256, bytes at 128) the tile nest runs the zip network proven at that
  // length; any other length (longer vectors, or not a power of two) gathers columns.
  void scalableTiles() {
    gatheredColumns();
    ir::Block gathered = std::move(b_.plan.body);
    const std::string lengths = perVectorLength(target_.vector(spec_.input), std::move(gathered), [&](const TransposeNetwork& net, int vscale) {
      const std::string n = std::to_string(net.rows.size());
      note("at " + std::to_string(128 * vscale) + "-bit vectors (vscale " + std::to_string(vscale) + "):");
      b_.plan.body.clear();
      tiles(net, net);
      return std::make_pair(std::move(b_.plan.body), std::to_string(128 * vscale) + "-bit vectors: " + n + " x " + n + " tiles");
    });
    note("other vector lengths" + (lengths.empty() ? "" : " than " + lengths + " bits") +
         ": each output row gathered from an input column (svld1_gather_index), a vector per step under whilelt");
  }

  // SVE: output row j is input column j, gathered a vector at a time.
  void gatheredColumns() {
    const VecType v = target_.vector(spec_.input);
    const Index step = v.scalable ? Index::vscaled(v.lanes) : Index::constant(v.lanes);
    ir::Block body;
    body.push_back(b_.whileLt("active", v, sym("i"), sym(b_.rows), false));
    Stmt gather = b_.make(OpKind::GatherRows, "column", v);
    gather.index = inAt("i", 0, sym("j"));
    gather.stride = sym(b_.stride);
    gather.pred = "active";
    gather.literal = "0";
    body.push_back(gather);
    body.push_back(b_.store("column", v, outAt("j", 0, "i"), "active"));
    Stmt loop = ir::forLoop("i", Index::constant(0), sym(b_.rows), step, std::move(body), false,
                            "one loop governed by whilelt: the last vector is partial");
    loop.coversTail = true;
    ir::Block perColumn{std::move(loop)};
    b_.plan.body.push_back(ir::forLoop("j", Index::constant(0), sym(b_.cols), 1, std::move(perColumn), false, "output rows (input columns)"));
  }

  void document() {
    auto text = [](const Extent& e) { return e.isStatic() ? std::to_string(*e.value) : e.name; };
    const std::string rows = text(spec_.rows), cols = text(spec_.cols);
    const std::string inStride = text(spec_.rowStride ? *spec_.rowStride : spec_.cols);
    const std::string outStride = text(spec_.outputRowStride ? *spec_.outputRowStride : spec_.rows);
    b_.plan.overview = "transpose: output[c, r] = input[r, c] (" + (spec_.batch ? text(*spec_.batch) + " x " : "") + rows + " x " +
                       cols + " " + std::string(nameOf(spec_.input)) + ")";
    b_.plan.semantics.push_back({"tail", std::string(nameOf(spec_.tail))});
    if (spec_.inPlace) b_.plan.semantics.push_back({"in_place", "true"});
    auto& d = b_.plan.apiDoc;
    if (spec_.batch) {
      const std::string inBatch = spec_.batchStride ? text(*spec_.batchStride) : rows + " * " + inStride;
      const std::string outBatch = spec_.outputBatchStride ? text(*spec_.outputBatchStride) : cols + " * " + outStride;
      d.push_back("/// " + spec_.name + ": output[b * " + outBatch + " + c * " + outStride + " + r] = input[b * " + inBatch + " + r * " +
                  inStride + " + c]");
      d.push_back("///   for b < " + text(*spec_.batch) + ", r < " + rows + ", c < " + cols + "   (" + std::string(nameOf(spec_.input)) + ")");
    } else {
      d.push_back("/// " + spec_.name + ": output[c * " + outStride + " + r] = input[r * " + inStride + " + c] for r < " + rows +
                  ", c < " + cols + "   (" + std::string(nameOf(spec_.input)) + ")");
    }
    if (!spec_.description.empty()) d.push_back("/// " + spec_.description);
    d.push_back("///");
    d.push_back("/// Elements are moved bit for bit (NaN payloads and -0.0 are kept).");
    d.push_back("/// No alignment is required. Nothing outside the matrices is read or written; an empty shape writes nothing.");
    d.push_back(spec_.inPlace ? "/// Aliasing: output may be input itself (in place); otherwise the two must not overlap."
                              : "/// Aliasing: output must not overlap input.");
  }

  Builder b_;
  const KernelSpec& spec_;
  const Target& target_;
  std::string outStride_, batch_;
  Index inBatch_, outBatch_;  // elements between the matrices of a batch
  ir::Block tables_;  // the proven network with its lane tables
};

}  // namespace

ir::Plan buildTransposePlan(const KernelSpec& spec, const Target& target) { return TransposeBuilder(spec, target).build(); }

}  // namespace simdgen
