// SPDX-License-Identifier: Apache-2.0
// The contraction benchmark's peers (bench_contraction.cpp, issue 10): every
// implementation of the seed convolution and of the f32 matmul that is not a
// plain loop (peers_contraction_plain.h) or Eigen (peers_contraction_eigen.h,
// built apart with -march=native). One .cpp per library:
//   peers_contraction_openblas.cpp, peers_contraction_blis.cpp (their cblas.h
//   headers clash), peers_contraction_onednn.cpp, peers_contraction_halide.cpp,
//   peers_contraction_simdgen.cpp (the generated kernels, when they exist).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace simdgen_bench {

// The seed convolution's sizes (MLIR transform tutorial chapter H, Halide's
// apps/conv_layer): input[N][H+2][W+2][CI], filter[CI][3][3][CO] read as
// filter[rx][rz][ry][co], bias[CO], output[N][H][W][CO].
struct SeedConv {
  static constexpr int64_t N = 5, CI = 128, CO = 128, W = 100, H = 80;
  static constexpr int64_t kInput = N * (H + 2) * (W + 2) * CI;
  static constexpr int64_t kInputSame = N * H * W * CI;  // "same" padding: the unpadded image
  static constexpr int64_t kFilter = CI * 3 * 3 * CO;
  static constexpr int64_t kOutput = N * H * W * CO;
  static constexpr double kFlops = 2.0 * N * H * W * CO * CI * 9;  // one FMA = 2 flops
};

// An implementation made ready for one problem: setup (layout reorders, JIT
// compilation, primitive creation) happened when it was built, outside any
// timing. run() is what is timed. result() (called outside the timing) returns
// the output in the benchmark's plain row-major layout, reordering it first if
// the library wrote another one.
struct Prepared {
  std::function<void()> run;
  std::function<const float*()> result;
  std::string label = "";  // what ran, if the library says (e.g. oneDNN's implementation)
};

// Buffers one problem reads and writes (row-major, contiguous): the matmul is
// c[m][n] = a[m][k] * b[k][n]; the convolution uses the SeedConv layouts with
// a = input, b = filter.
struct Problem {
  const float* a;
  const float* b;
  const float* bias;  // convolution only
  float* out;         // plain row-major output, owned by the caller
  int64_t m, n, k;    // matmul only
};

// A peer that a library or the generator provides, under its row name.
struct Peer {
  std::string name;
  std::function<Prepared(const Problem&)> prepare;
};

// Holds each library to one thread and describes it for the benchmark
// context (version, kernel selection, threads). Called once, before any run.
std::string openblas_single_thread();
std::string blis_single_thread();
std::string onednn_single_thread();  // oneDNN's OpenMP runtime
std::string halide_target();         // the JIT target (the host's, unless HL_JIT_TARGET)
std::string simdgen_contraction_info();  // which variant the dispatchers run, or why none

std::vector<Peer> openblas_matmul_peers();  // "openblas": cblas_sgemm
std::vector<Peer> blis_matmul_peers();      // "blis": bli_sgemm (BLIS's typed API)
std::vector<Peer> onednn_matmul_peers();    // "onednn": the matmul primitive, plain layouts
// bf16 matmuls (a and b hold values a bfloat16 represents exactly; f32 output): "onednn" (plain
// bf16 layouts), "onednn.packed" (weights in oneDNN's preferred layout, reordered once).
std::vector<Peer> onednn_bf16_matmul_peers();
// int8 matmuls (a holds integers 0..255, b -128..127; i32 output, compared as floats): "onednn"
// (u8 x s8 -> s32, plain layouts), "onednn.packed" (weights reordered once to its layout).
std::vector<Peer> onednn_u8i8_matmul_peers();
std::vector<Peer> onednn_i8i8_matmul_peers();  // the same with s8 a (-128..127)
std::vector<Peer> onednn_conv_same_peers();  // the same with padding 1 (oneDNN's padded convolution)
std::vector<Peer> onednn_conv_peers();      // "onednn" (preferred layouts), "onednn.nhwc"
std::vector<Peer> onednn_conv_u8i8_peers();  // the same in u8 x s8 -> s32 (bias s32, ReLU)
std::vector<Peer> onednn_conv_bf16_peers();  // the same in bf16 x bf16 -> f32 (bias f32, ReLU)
std::vector<Peer> halide_conv_peers();      // "halide": JIT, the seed's schedule minus parallel

// The generated kernels (dispatcher "simdgen" and each variant "simdgen.<isa>"
// the CPU runs); empty when the bench was configured without them.
std::vector<Peer> simdgen_matmul_peers();
// bf16 matmuls: "simdgen" (specs' matmul_bf16 on the bits of a and b, converted once, untimed),
// its variants, and "simdgen_f32" (the f32 kernel on the same values).
std::vector<Peer> simdgen_bf16_matmul_peers();
// int8 matmuls: "simdgen" (bench_matmul_u8i8 on u8 and i8 copies, made once, untimed), its
// variants, and "simdgen_f32" (the f32 kernel on the same values).
std::vector<Peer> simdgen_u8i8_matmul_peers();
std::vector<Peer> simdgen_i8i8_matmul_peers();  // the same with bench_matmul_i8i8 (i8 a)
std::vector<Peer> simdgen_u8u8_matmul_peers();  // the same with bench_matmul_u8u8 (u8 a and b)
std::vector<Peer> simdgen_i16i16_matmul_peers();  // the same with bench_matmul_i16i16 (i16 a and b, int8 values)
std::vector<Peer> simdgen_conv_peers();
std::vector<Peer> simdgen_conv_same_peers();  // "same" padding: the padded kernel, and a padded copy + the seed kernel
// The quantized seed convolution (u8 input 0..255, i8 filter, integer bias; i32 output compared as
// floats): "simdgen" (bench_seed_conv_u8i8), its variants, "simdgen_f32" (the f32 kernel on the
// same values).
std::vector<Peer> simdgen_conv_u8i8_peers();
// The seed convolution on bf16 operands (values bf16 represents exactly; f32 output): "simdgen"
// (bench_seed_conv_bf16 on their bits), its variants, "simdgen_f32" (the f32 kernel).
std::vector<Peer> simdgen_conv_bf16_peers();

}  // namespace simdgen_bench
