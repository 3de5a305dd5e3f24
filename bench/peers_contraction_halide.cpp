// SPDX-License-Identifier: Apache-2.0
// Halide 14 (Debian's libhalide14-0-dev), JIT-compiled for the host once, when
// the peer is prepared: the seed convolution with the schedule the seed quotes
// (MLIR transform tutorial chapter H, from Halide's apps/conv_layer) minus its
// three .parallel() calls, so that it runs on one thread like every peer.
// The seed leaves `vec`, `tile_w` and `tile_h` to apps/conv_layer, which picks
// them per target: natural vector width, and a 4 x 5 tile of accumulators
// with AVX-512 (32 registers), 3 x 4 otherwise. As in apps/conv_layer, the
// buffers' sizes and strides are constants of the compiled code (the
// generated kernel is static too).
#include <Halide.h>

#include <string>

#include "peers_contraction.h"

namespace simdgen_bench {
namespace {

using Halide::Buffer;
using Halide::Func;
using Halide::ImageParam;
using Halide::RDom;
using Halide::Target;
using Halide::Var;

// The seed's sizes as the 32-bit ints Halide expressions take.
constexpr int N = int(SeedConv::N), CI = int(SeedConv::CI), CO = int(SeedConv::CO),
              W = int(SeedConv::W), H = int(SeedConv::H);

// The compiled pipeline and its inputs; one per process (it is the same
// problem for every run).
struct Conv {
  ImageParam input{Halide::Float(32), 4, "input"};
  ImageParam filter{Halide::Float(32), 4, "filter"};
  ImageParam bias{Halide::Float(32), 1, "bias"};
  Func relu{"relu"};
  Target target = Halide::get_jit_target_from_environment();  // the host, unless HL_JIT_TARGET
  std::string schedule;  // the parameters picked for the target, for the benchmark label

  Conv() {
    // THE ALGORITHM (the seed's). Halide lists dimensions innermost
    // first: input(ci, x, y, n) is the C++ input[n][y][x][ci].
    Var x("x"), y("y"), c("c"), n("n");
    Func conv("conv");
    RDom r(0, CI, 0, 3, 0, 3);
    conv(c, x, y, n) = bias(c);
    conv(c, x, y, n) += filter(c, r.y, r.z, r.x) * input(r.x, x + r.y, y + r.z, n);
    relu(c, x, y, n) = Halide::max(0, conv(c, x, y, n));

    // Constant sizes and strides, as apps/conv_layer declares them.
    relu.bound(c, 0, CO).bound(x, 0, W).bound(y, 0, H).bound(n, 0, N);
    relu.output_buffer()
        .dim(0).set_bounds(0, CO).set_stride(1)
        .dim(1).set_bounds(0, W).set_stride(CO)
        .dim(2).set_bounds(0, H).set_stride(CO * W)
        .dim(3).set_bounds(0, N).set_stride(CO * W * H);
    input.dim(0).set_bounds(0, CI).set_stride(1)
        .dim(1).set_bounds(0, W + 2).set_stride(CI)
        .dim(2).set_bounds(0, H + 2).set_stride(CI * (W + 2))
        .dim(3).set_bounds(0, N).set_stride(CI * (W + 2) * (H + 2));
    filter.dim(0).set_bounds(0, CO).set_stride(1)
        .dim(1).set_bounds(0, 3).set_stride(CO)
        .dim(2).set_bounds(0, 3).set_stride(CO * 3)
        .dim(3).set_bounds(0, CI).set_stride(CO * 3 * 3);
    bias.dim(0).set_bounds(0, CO).set_stride(1);

    // THE SCHEDULE (the seed's, without .parallel(y), .parallel(n), .parallel(co)).
    const int vec = target.natural_vector_size<float>();
    const bool avx512 = target.has_feature(Target::AVX512_Skylake);
    const int tile_w = avx512 ? 4 : 3, tile_h = avx512 ? 5 : 4;
    schedule = "vec " + std::to_string(vec) + ", tile_w " + std::to_string(tile_w) + ", tile_h " +
               std::to_string(tile_h);
    Var co("co"), ci("ci"), xo("xo"), xi("xi");
    relu.split(c, co, ci, vec * tile_w)
        .split(x, xo, xi, tile_h)
        .reorder(ci, xi, xo, y, n, co)
        .vectorize(ci, vec)
        .unroll(ci)
        .unroll(xi);
    conv.compute_at(relu, xo)
        .vectorize(c, vec)
        .unroll(c)
        .unroll(x)
        .unroll(y)
        .update()
        .reorder(c, x, y, r.x, r.y, r.z, n)
        .vectorize(c, vec)
        .unroll(c)
        .unroll(x)
        .unroll(y)
        .unroll(r.x, 2);
    relu.compile_jit(target);
  }
};

Conv& compiled() {
  static Conv conv;  // compiled on first use: only when a Halide row runs
  return conv;
}

Prepared prepare(const Problem& p) {
  Conv& conv = compiled();
  // Halide buffers over the benchmark's own memory (no copies).
  Buffer<float> in(const_cast<float*>(p.a), {CI, W + 2, H + 2, N});
  Buffer<float> w(const_cast<float*>(p.b), {CO, 3, 3, CI});
  Buffer<float> b(const_cast<float*>(p.bias), {CO});
  Buffer<float> out(p.out, {CO, W, H, N});
  return {[&conv, in, w, b, out]() mutable {
            conv.input.set(in);
            conv.filter.set(w);
            conv.bias.set(b);
            conv.relu.realize(out, conv.target);
          },
          [p] { return static_cast<const float*>(p.out); },
          conv.schedule};
}

}  // namespace

std::string halide_target() { return Halide::get_jit_target_from_environment().to_string(); }

std::vector<Peer> halide_conv_peers() { return {{"halide", prepare}}; }

}  // namespace simdgen_bench
