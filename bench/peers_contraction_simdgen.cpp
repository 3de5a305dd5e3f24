// SPDX-License-Identifier: Apache-2.0
// The generated contraction kernels, from bench/contraction/specs at build
// time (CMakeLists.txt): the runtime dispatcher ("simdgen") and each x86
// variant by name ("simdgen.avx512", "simdgen.avx2_fma", ...) that this CPU
// runs.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "peers_contraction.h"

#include "bench_matmul_bf16.h"
#include "bench_matmul_bt_f32.h"
#include "bench_matmul_bt_u8i8.h"
#include "bench_matmul_bt_packed_f32.h"
#include "bench_matmul_f32.h"
#include "bench_matmul_i16i16.h"
#include "bench_matmul_i8i8.h"
#include "bench_matmul_u8u8.h"
#include "bench_matmul_u8i8.h"
#include "bench_seed_conv.h"
#include "bench_seed_conv_bf16.h"
#include "bench_seed_conv_packed.h"
#include "bench_seed_conv_same.h"
#include "bench_seed_conv_same_packed.h"
#include "bench_seed_conv_schedule.h"
#include "bench_seed_conv_u8i8.h"

namespace simdgen_bench {
namespace {

// Whether to time a variant, by its suffix: this CPU runs it (what the
// generated dispatcher checks; unknown suffixes are left out rather than risk
// SIGILL).
// The scalar variants are left out: seconds per call at these sizes, and no
// peer to compare them with.
bool cpu_runs(const std::string& variant) {
  if (variant == "scalar") return false;
  const bool avx2_fma = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (variant == "avx2" || variant == "avx2_fma") return avx2_fma;
  const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("bmi2") && avx2_fma;
  if (variant == "avx512") return avx512;
  if (variant == "avx512_bf16") return avx512 && __builtin_cpu_supports("avx512bf16");
  if (variant == "avx512_vnni") return avx512 && __builtin_cpu_supports("avx512vnni");
  if (variant == "avx2_avx_vnni") return avx2_fma && __builtin_cpu_supports("avxvnni");
  return false;
}

// A copy of an operand made once, untimed, 64-byte aligned like the harness's own buffers
// (std::vector's 16-byte alignment splits a cache line on every other 512-bit load: 1.3x
// slower convolution).
std::shared_ptr<float> aligned_floats(int64_t n) {
  const size_t bytes = (static_cast<size_t>(n) * sizeof(float) + 63) / 64 * 64;
  return std::shared_ptr<float>(static_cast<float*>(std::aligned_alloc(64, bytes)), std::free);
}

using Matmul = void (*)(const float*, const float*, int64_t, int64_t, int64_t, int64_t, int64_t,
                        int64_t, float*);
using ConvFn = void (*)(const float*, const float*, const float*, float*);

Peer matmul_peer(const std::string& name, Matmul f) {
  return {name, [f](const Problem& p) {
            return Prepared{[f, p] { f(p.a, p.b, p.m, p.n, p.k, p.k, p.n, p.n, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

// The same product from B stored transposed (bt[n][k]): the copy is made once, untimed, as a
// caller holding B^T would have it.
Peer matmul_bt_peer(const std::string& name, Matmul f) {
  return {name, [f](const Problem& p) {
            std::shared_ptr<float> bt = aligned_floats(p.n * p.k);
            for (int64_t k = 0; k < p.k; ++k)
              for (int64_t j = 0; j < p.n; ++j) bt.get()[j * p.k + k] = p.b[k * p.n + j];
            return Prepared{[f, p, bt] { f(p.a, bt.get(), p.m, p.n, p.k, p.k, p.k, p.n, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

// The same product with B^T packed ahead ("pack": "ahead"): the generated pack function copies
// bt[n][k] into bt_packed[k][n] once, untimed, as a caller holding a linear layer's weights would.
Peer matmul_bt_packed_peer(const std::string& name) {
  return {name, [](const Problem& p) {
            std::shared_ptr<float> bt = aligned_floats(p.n * p.k);
            for (int64_t k = 0; k < p.k; ++k)
              for (int64_t j = 0; j < p.n; ++j) bt.get()[j * p.k + k] = p.b[k * p.n + j];
            std::shared_ptr<float> packed = aligned_floats(bench_matmul_bt_packed_f32_bt_packed_elements(p.n, p.k));
            bench_matmul_bt_packed_f32_pack_bt(bt.get(), p.n, p.k, p.k, packed.get());
            return Prepared{[p, packed] { bench_matmul_bt_packed_f32(p.a, packed.get(), p.m, p.n, p.k, p.k, p.n, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

// The bits of x, a float a bfloat16 represents exactly (the benchmark's bf16 inputs): its upper half.
std::shared_ptr<uint16_t> bf16_bits(const float* x, int64_t n) {
  const size_t bytes = (static_cast<size_t>(n) * 2 + 63) / 64 * 64;
  std::shared_ptr<uint16_t> bits(static_cast<uint16_t*>(std::aligned_alloc(64, bytes)), std::free);
  for (int64_t i = 0; i < n; ++i) {
    uint32_t u;
    std::memcpy(&u, &x[i], 4);
    if (u & 0xffffu) throw std::runtime_error("bf16 input holds a value bfloat16 cannot represent");
    bits.get()[i] = static_cast<uint16_t>(u >> 16);
  }
  return bits;
}

using MatmulBf16 = void (*)(const uint16_t*, const uint16_t*, int64_t, int64_t, int64_t, int64_t, int64_t,
                            int64_t, float*);
Peer matmul_bf16_peer(const std::string& name, MatmulBf16 f) {
  return {name, [f](const Problem& p) {
            std::shared_ptr<uint16_t> a = bf16_bits(p.a, p.m * p.k), b = bf16_bits(p.b, p.k * p.n);
            return Prepared{[f, p, a, b] { f(a.get(), b.get(), p.m, p.n, p.k, p.k, p.n, p.n, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

// The benchmark's int8 inputs (floats holding integers in the type's range) as the type itself.
template <class T>
std::shared_ptr<T> integers(const float* x, int64_t n) {
  const size_t bytes = (static_cast<size_t>(n) * sizeof(T) + 63) / 64 * 64;
  std::shared_ptr<T> v(static_cast<T*>(std::aligned_alloc(64, bytes)), std::free);
  for (int64_t i = 0; i < n; ++i) {
    if (x[i] != static_cast<float>(static_cast<T>(x[i]))) throw std::runtime_error("int8 input holds a value its type cannot");
    v.get()[i] = static_cast<T>(x[i]);
  }
  return v;
}

template <class A, class B>
using MatmulInt8 = void (*)(const A*, const B*, int64_t, int64_t, int64_t, int64_t, int64_t, int64_t, int32_t*);
// A (u8, i8 or i16) a, B (i8, u8 or i16) b converted once (untimed); the i32 result converted to floats
// outside the timing.
template <class A, class B = int8_t>
Peer matmul_int8_peer(const std::string& name, MatmulInt8<A, B> f, bool transposed = false) {
  return {name, [f, transposed](const Problem& p) {
            std::shared_ptr<A> a = integers<A>(p.a, p.m * p.k);
            std::shared_ptr<B> b = integers<B>(p.b, p.k * p.n);
            if (transposed) {  // weights stored as bt[n][k] (a linear layer's), copied once, untimed
              std::shared_ptr<B> bt = integers<B>(p.b, p.k * p.n);
              for (int64_t k = 0; k < p.k; ++k)
                for (int64_t j = 0; j < p.n; ++j) bt.get()[j * p.k + k] = b.get()[k * p.n + j];
              b = bt;
            }
            const int64_t ldb = transposed ? p.k : p.n;
            std::shared_ptr<int32_t> c(static_cast<int32_t*>(std::aligned_alloc(64, static_cast<size_t>((p.m * p.n * 4 + 63) / 64 * 64))), std::free);
            return Prepared{[f, p, a, b, c, ldb] { f(a.get(), b.get(), p.m, p.n, p.k, p.k, ldb, p.n, c.get()); },
                            [p, c] {
                              for (int64_t i = 0; i < p.m * p.n; ++i) p.out[i] = static_cast<float>(c.get()[i]);
                              return static_cast<const float*>(p.out);
                            }};
          }};
}

Peer conv_peer(const std::string& name, ConvFn f) {
  return {name, [f](const Problem& p) {
            // Generated signature order: filter, input, bias, output.
            return Prepared{[f, p] { f(p.b, p.a, p.bias, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}

// The convolution with its filter packed ahead ("pack": "ahead"): the generated pack function
// copies the seed's filter[rx][rz][ry][co] into filter_packed[rz][ry][rx][co] once, untimed, as
// oneDNN reorders its weights outside the timing ("simdgen_packed"); "simdgen_packed_each_call"
// packs inside the timing, before every call: what the packing costs.
Peer conv_packed_peer(const std::string& name, bool pack_each_call) {
  return {name, [pack_each_call](const Problem& p) {
            std::shared_ptr<float> packed = aligned_floats(bench_seed_conv_packed_filter_packed_elements());
            bench_seed_conv_packed_pack_filter(p.b, packed.get());
            return Prepared{[p, packed, pack_each_call] {
                              if (pack_each_call) bench_seed_conv_packed_pack_filter(p.b, packed.get());
                              bench_seed_conv_packed(packed.get(), p.a, p.bias, p.out);
                            },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}
// The quantized seed convolution (bench_seed_conv_u8i8): u8 input, i8 filter and i32 bias copied
// once from the benchmark's integer-valued floats (untimed), the i32 output converted to floats
// outside the timing.
using ConvU8I8 = void (*)(const int8_t*, const uint8_t*, const int32_t*, int32_t*);
Peer conv_u8i8_peer(const std::string& name, ConvU8I8 f) {
  return {name, [f](const Problem& p) {
            std::shared_ptr<int8_t> filter = integers<int8_t>(p.b, SeedConv::kFilter);
            std::shared_ptr<uint8_t> input = integers<uint8_t>(p.a, SeedConv::kInput);
            std::shared_ptr<int32_t> bias = integers<int32_t>(p.bias, SeedConv::CO);
            std::shared_ptr<int32_t> out(static_cast<int32_t*>(std::aligned_alloc(64, static_cast<size_t>(SeedConv::kOutput) * 4)), std::free);
            return Prepared{[f, filter, input, bias, out] { f(filter.get(), input.get(), bias.get(), out.get()); },
                            [p, out] {
                              for (int64_t i = 0; i < SeedConv::kOutput; ++i) p.out[i] = static_cast<float>(out.get()[i]);
                              return static_cast<const float*>(p.out);
                            }};
          }};
}
// The seed convolution on bf16 operands (bench_seed_conv_bf16): the bits of input and filter
// taken once (untimed), f32 bias and output as they are.
using ConvBf16 = void (*)(const uint16_t*, const uint16_t*, const float*, float*);
Peer conv_bf16_peer(const std::string& name, ConvBf16 f) {
  return {name, [f](const Problem& p) {
            std::shared_ptr<uint16_t> filter = bf16_bits(p.b, SeedConv::kFilter), input = bf16_bits(p.a, SeedConv::kInput);
            return Prepared{[f, p, filter, input] { f(filter.get(), input.get(), p.bias, p.out); },
                            [p] { return static_cast<const float*>(p.out); }};
          }};
}
}  // namespace

std::string simdgen_contraction_info() {
  return std::string("dispatchers run bench_matmul_f32_") + bench_matmul_f32_variant() + ", bench_matmul_bf16_" +
         bench_matmul_bf16_variant() + ", bench_matmul_bt_f32_" +
         bench_matmul_bt_f32_variant() + ", bench_seed_conv_" + bench_seed_conv_variant() + ", bench_seed_conv_schedule_" +
         bench_seed_conv_schedule_variant() + ", bench_seed_conv_packed_" + bench_seed_conv_packed_variant() +
         ", bench_seed_conv_u8i8_" + bench_seed_conv_u8i8_variant() + ", bench_seed_conv_bf16_" + bench_seed_conv_bf16_variant();
}

// A kernel's peers: "simdgen" (the dispatcher) and each variant the CPU runs, made by `make`.
template <class Fn>
std::vector<Peer> dispatched_peers(Peer (*make)(const std::string&, Fn), Fn dispatch,
                                   std::initializer_list<std::pair<const char*, Fn>> variants) {
  std::vector<Peer> peers;
  peers.push_back(make("simdgen", dispatch));
  for (const auto& [name, f] : variants)
    if (cpu_runs(name)) peers.push_back(make(std::string("simdgen.") + name, f));
  return peers;
}
#define SIMDGEN_VARIANT_ENTRY(kernel, v) {#v, kernel##_##v},

std::vector<Peer> simdgen_matmul_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_matmul_f32, v)
  std::vector<Peer> peers = dispatched_peers<Matmul>(matmul_peer, bench_matmul_f32, {SIMDGEN_bench_matmul_f32_VARIANTS(ENTRY)});
#undef ENTRY
  peers.push_back(matmul_bt_peer("simdgen_bt", bench_matmul_bt_f32));
  peers.push_back(matmul_bt_packed_peer("simdgen_bt_packed"));
  return peers;
}


std::vector<Peer> simdgen_bf16_matmul_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_matmul_bf16, v)
  std::vector<Peer> peers = dispatched_peers<MatmulBf16>(matmul_bf16_peer, bench_matmul_bf16, {SIMDGEN_bench_matmul_bf16_VARIANTS(ENTRY)});
#undef ENTRY
  peers.push_back(matmul_peer("simdgen_f32", bench_matmul_f32));
  return peers;
}

// An integer matmul's peers: "simdgen" (the dispatcher), each variant the CPU runs, "simdgen_bt"
// when given (the same kernel on transposed weights), and "simdgen_f32" (the f32 kernel on the
// same values).
template <class A, class B>
std::vector<Peer> int_matmul_peers(MatmulInt8<A, B> dispatch, std::initializer_list<std::pair<const char*, MatmulInt8<A, B>>> variants,
                                   MatmulInt8<A, B> transposed = nullptr) {
  std::vector<Peer> peers = dispatched_peers<MatmulInt8<A, B>>(
      [](const std::string& name, MatmulInt8<A, B> f) { return matmul_int8_peer<A, B>(name, f); }, dispatch, variants);
  if (transposed) peers.push_back(matmul_int8_peer<A, B>("simdgen_bt", transposed, true));
  peers.push_back(matmul_peer("simdgen_f32", bench_matmul_f32));
  return peers;
}

std::vector<Peer> simdgen_u8i8_matmul_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_matmul_u8i8, v)
  return int_matmul_peers<uint8_t, int8_t>(bench_matmul_u8i8, {SIMDGEN_bench_matmul_u8i8_VARIANTS(ENTRY)}, bench_matmul_bt_u8i8);
#undef ENTRY
}

std::vector<Peer> simdgen_u8u8_matmul_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_matmul_u8u8, v)
  return int_matmul_peers<uint8_t, uint8_t>(bench_matmul_u8u8, {SIMDGEN_bench_matmul_u8u8_VARIANTS(ENTRY)});
#undef ENTRY
}

std::vector<Peer> simdgen_i16i16_matmul_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_matmul_i16i16, v)
  return int_matmul_peers<int16_t, int16_t>(bench_matmul_i16i16, {SIMDGEN_bench_matmul_i16i16_VARIANTS(ENTRY)});
#undef ENTRY
}

std::vector<Peer> simdgen_i8i8_matmul_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_matmul_i8i8, v)
  return int_matmul_peers<int8_t, int8_t>(bench_matmul_i8i8, {SIMDGEN_bench_matmul_i8i8_VARIANTS(ENTRY)});
#undef ENTRY
}

std::vector<Peer> simdgen_conv_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_seed_conv, v)
  std::vector<Peer> peers = dispatched_peers<ConvFn>(conv_peer, bench_seed_conv, {SIMDGEN_bench_seed_conv_VARIANTS(ENTRY)});
#undef ENTRY
  peers.push_back(conv_peer("simdgen_seed_schedule", bench_seed_conv_schedule));
  peers.push_back(conv_packed_peer("simdgen_packed", false));
  peers.push_back(conv_packed_peer("simdgen_packed_each_call", true));
  return peers;
}

// "Same" padding: the padded kernel reading the H x W image as it is ("simdgen" and its variants;
// "simdgen_packed" with the filter packed ahead), and what a user without padding support runs: the image copied into the middle of a zeroed
// (H + 2) x (W + 2) buffer on every call (its border zeroed once, untimed), then the seed kernel
// ("simdgen_padded_copy").
std::vector<Peer> simdgen_conv_same_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_seed_conv_same, v)
  std::vector<Peer> peers = dispatched_peers<ConvFn>(conv_peer, bench_seed_conv_same, {SIMDGEN_bench_seed_conv_same_VARIANTS(ENTRY)});
#undef ENTRY
  peers.push_back({"simdgen_packed", [](const Problem& p) {  // the filter packed ahead, untimed (as oneDNN's reorder)
                     std::shared_ptr<float> packed = aligned_floats(bench_seed_conv_same_packed_filter_packed_elements());
                     bench_seed_conv_same_packed_pack_filter(p.b, packed.get());
                     return Prepared{[p, packed] { bench_seed_conv_same_packed(packed.get(), p.a, p.bias, p.out); },
                                     [p] { return static_cast<const float*>(p.out); }};
                   }});
  peers.push_back({"simdgen_padded_copy", [](const Problem& p) {
                     using C = SeedConv;
                     std::shared_ptr<float> padded = aligned_floats(C::kInput);
                     std::fill(padded.get(), padded.get() + C::kInput, 0.0f);
                     return Prepared{[p, padded] {
                                       for (int64_t n = 0; n < C::N; ++n)
                                         for (int64_t y = 0; y < C::H; ++y)
                                           std::memcpy(padded.get() + ((n * (C::H + 2) + y + 1) * (C::W + 2) + 1) * C::CI,
                                                       p.a + (n * C::H + y) * C::W * C::CI, size_t(C::W * C::CI) * sizeof(float));
                                       bench_seed_conv(p.b, padded.get(), p.bias, p.out);
                                     },
                                     [p] { return static_cast<const float*>(p.out); }};
                   }});
  return peers;
}

// A convolution of narrow operands: its dispatched peers, then "simdgen_f32" (the f32 kernel on
// the same values).
template <class Fn>
std::vector<Peer> narrow_conv_peers(Peer (*make)(const std::string&, Fn), Fn dispatch, std::initializer_list<std::pair<const char*, Fn>> variants) {
  std::vector<Peer> peers = dispatched_peers<Fn>(make, dispatch, variants);
  peers.push_back(conv_peer("simdgen_f32", bench_seed_conv));
  return peers;
}

std::vector<Peer> simdgen_conv_u8i8_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_seed_conv_u8i8, v)
  return narrow_conv_peers<ConvU8I8>(conv_u8i8_peer, bench_seed_conv_u8i8, {SIMDGEN_bench_seed_conv_u8i8_VARIANTS(ENTRY)});
#undef ENTRY
}

std::vector<Peer> simdgen_conv_bf16_peers() {
#define ENTRY(v) SIMDGEN_VARIANT_ENTRY(bench_seed_conv_bf16, v)
  return narrow_conv_peers<ConvBf16>(conv_bf16_peer, bench_seed_conv_bf16, {SIMDGEN_bench_seed_conv_bf16_VARIANTS(ENTRY)});
#undef ENTRY
}

}  // namespace simdgen_bench
