// SPDX-License-Identifier: Apache-2.0
// The _parallel() entry points against their serial kernels, bit for bit: every test spec of
// tests/parallel/specs, shapes from empty to 65 tasks, and runners that run the tasks in order,
// in reverse, interleaved, shuffled, and on simdgen_threads pools of 2, 3 and 8 threads. Each
// runner also checks that every task index is asked for exactly once. The kernels are compiled
// with the smallest grain, SIMDGEN_PARALLEL_GRAIN_BYTES=65536 (run.sh): 100 f32 columns make parts
// of 192 rows, so the shapes below give 1 (serial), 2, 3, 8 and 64 tasks. A runner that skips a
// task must make the comparison fail (checked for every shape that has tasks).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "p_argmax_i16.h"
#include "p_conv_seed_f32.h"
#include "p_matmul_f32.h"
#include "p_map_1d.h"
#include "p_map_rows.h"
#include "p_rowsum_f32.h"
#include "p_transpose_u16.h"
#include "simdgen_threads.h"

namespace {

int failures = 0;

// A runner that calls the tasks in the order `order(tasks)` gives, on the calling thread, and
// counts how often each index is asked for.
struct OrderedRunner {
  std::function<std::vector<int64_t>(int64_t)> order;
  bool skipLast = false;  // a broken runner: the comparison must notice
  std::vector<int> seen;
  int64_t lastTasks = 0;
  static void run(void* ctx, int64_t tasks, void (*task)(void*, int64_t), void* arg) {
    auto* self = static_cast<OrderedRunner*>(ctx);
    self->lastTasks = tasks;
    self->seen.assign(size_t(tasks), 0);
    for (int64_t i : self->order(tasks)) {
      if (self->skipLast && i == tasks - 1) continue;
      ++self->seen[size_t(i)];
      task(arg, i);
    }
  }
  simdgen_runner runner() { return {run, this}; }
  bool eachOnce() const {
    return std::all_of(seen.begin(), seen.end(), [](int c) { return c == 1; });
  }
};

// A pool's runner behind a counting wrapper (the counts are atomic: tasks run on several threads).
struct PoolRunner {
  simdgen_runner inner;
  std::vector<std::atomic<int>> seen = std::vector<std::atomic<int>>(100000);
  int64_t lastTasks = 0;
  struct Wrapped {
    PoolRunner* self;
    void (*task)(void*, int64_t);
    void* arg;
  };
  static void count(void* w, int64_t i) {
    auto* wrapped = static_cast<Wrapped*>(w);
    wrapped->self->seen[size_t(i)].fetch_add(1, std::memory_order_relaxed);
    wrapped->task(wrapped->arg, i);
  }
  static void run(void* ctx, int64_t tasks, void (*task)(void*, int64_t), void* arg) {
    auto* self = static_cast<PoolRunner*>(ctx);
    self->lastTasks = tasks;
    for (int64_t i = 0; i < tasks; ++i) self->seen[size_t(i)].store(0);
    Wrapped w{self, task, arg};
    self->inner.run(self->inner.ctx, tasks, count, &w);
  }
  simdgen_runner runner() { return {run, this}; }
  bool eachOnce() const {
    for (int64_t i = 0; i < lastTasks; ++i)
      if (seen[size_t(i)].load() != 1) return false;
    return true;
  }
};

std::vector<int64_t> inOrder(int64_t n) {
  std::vector<int64_t> v(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[size_t(i)] = i;
  return v;
}
std::vector<int64_t> reversed(int64_t n) {
  auto v = inOrder(n);
  std::reverse(v.begin(), v.end());
  return v;
}
std::vector<int64_t> interleaved(int64_t n) {  // the odd ones, then the even ones
  std::vector<int64_t> v;
  for (int64_t i = 1; i < n; i += 2) v.push_back(i);
  for (int64_t i = 0; i < n; i += 2) v.push_back(i);
  return v;
}
std::vector<int64_t> shuffled(int64_t n) {
  auto v = inOrder(n);
  std::mt19937_64 g(uint64_t(n) * 7919u + 1);
  std::shuffle(v.begin(), v.end(), g);
  return v;
}

template <class T> void fill(std::vector<T>& v, std::mt19937_64& g) {
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      const uint64_t r = g();
      x = (r % 97 == 0) ? T(NAN) : (r % 89 == 0) ? T(-INFINITY) : T(double(int64_t(r % 20001) - 10000) / 997.0);
    } else {
      x = T(g());
    }
  }
}

// One kernel case: `call(runner)` runs the kernel (nullptr: the serial entry) into fresh output
// buffers and returns their bytes.
using Case = std::function<std::vector<unsigned char>(const simdgen_runner*)>;

void check(const std::string& what, const Case& run, std::vector<simdgen_threads*>& pools) {
  const std::vector<unsigned char> serial = run(nullptr);
  struct Named {
    const char* name;
    std::vector<int64_t> (*order)(int64_t);
  };
  for (const Named& o : {Named{"in order", inOrder}, Named{"reversed", reversed}, Named{"interleaved", interleaved},
                         Named{"shuffled", shuffled}}) {
    OrderedRunner r{o.order, false, {}, 0};
    const simdgen_runner runner = r.runner();
    if (run(&runner) != serial || !r.eachOnce()) {
      std::printf("FAIL %s: runner %s (%lld tasks)\n", what.c_str(), o.name, (long long)r.lastTasks);
      ++failures;
    }
    // A runner that skips a task leaves some result unwritten: the comparison must see it.
    OrderedRunner broken{o.order, true, {}, 0};
    const simdgen_runner brokenRunner = broken.runner();
    if (broken.lastTasks = 0, run(&brokenRunner) == serial && broken.lastTasks > 1) {
      std::printf("FAIL %s: a runner that skipped the last of %lld tasks was not noticed\n", what.c_str(), (long long)broken.lastTasks);
      ++failures;
    }
  }
  for (simdgen_threads* pool : pools) {
    PoolRunner r;
    r.inner = simdgen_threads_runner(pool);
    const simdgen_runner runner = r.runner();
    if (run(&runner) != serial || !r.eachOnce()) {
      std::printf("FAIL %s: simdgen_threads pool of %d (%lld tasks)\n", what.c_str(), simdgen_threads_count(pool), (long long)r.lastTasks);
      ++failures;
    }
  }
}

template <class T> std::vector<unsigned char> bytes(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}
template <class... V> std::vector<unsigned char> concat(const V&... v) {
  std::vector<unsigned char> out;
  (out.insert(out.end(), v.begin(), v.end()), ...);
  return out;
}

}  // namespace

int main() {
  std::vector<simdgen_threads*> pools;
  for (int t : {2, 3, 8}) pools.push_back(simdgen_threads_create(t));
  std::mt19937_64 g(42);
  int cases = 0;
  const int64_t rowCounts[] = {0, 1, 65, 383, 384, 577, 1536, 1601, 12288 + 7};
  const int64_t colCounts[] = {1, 17, 64, 100};
  for (int64_t rows : rowCounts) {
    for (int64_t cols : colCounts) {
      const int64_t ld = cols + 3;
      const std::string shape = std::to_string(rows) + " x " + std::to_string(cols);
      std::vector<float> x(static_cast<size_t>(rows * ld + 1)), q(static_cast<size_t>(cols)), s(static_cast<size_t>(rows + 1));
      fill(x, g), fill(q, g), fill(s, g);
      std::vector<int16_t> h(static_cast<size_t>(rows * cols + 1));
      fill(h, g);
      std::vector<uint16_t> u(static_cast<size_t>(rows * ld + 1));
      fill(u, g);

      check("p_rowsum_f32 " + shape, [&](const simdgen_runner* r) {
        std::vector<float> out(size_t(rows + 2), -7.0f);
        if (r) p_rowsum_f32_parallel(x.data(), rows, cols, ld, out.data(), r);
        else p_rowsum_f32(x.data(), rows, cols, ld, out.data());
        return bytes(out);
      }, pools);
      check("p_argmax_i16 " + shape, [&](const simdgen_runner* r) {
        std::vector<int16_t> values(size_t(rows + 2), 99);
        std::vector<int64_t> indices(size_t(rows + 2), -5);
        if (r) p_argmax_i16_parallel(h.data(), rows, cols, values.data(), indices.data(), r);
        else p_argmax_i16(h.data(), rows, cols, values.data(), indices.data());
        return concat(bytes(values), bytes(indices));
      }, pools);
      check("p_map_rows " + shape, [&](const simdgen_runner* r) {
        std::vector<float> y(size_t(rows * ld + 1), 3.0f), dist(size_t(rows + 1), 4.0f), mx(size_t(rows + 1), 5.0f),
            centered(size_t(rows * ld + 1), 6.0f);
        if (r) p_map_rows_parallel(x.data(), q.data(), s.data(), rows, cols, ld, 0.75f, y.data(), dist.data(), mx.data(), centered.data(), r);
        else p_map_rows(x.data(), q.data(), s.data(), rows, cols, ld, 0.75f, y.data(), dist.data(), mx.data(), centered.data());
        return concat(bytes(y), bytes(dist), bytes(mx), bytes(centered));
      }, pools);
      const int64_t ldo = rows + 2;
      check("p_transpose_u16 " + shape, [&](const simdgen_runner* r) {
        std::vector<uint16_t> out(size_t(cols * ldo + 1), 0xBEEF);
        if (r) p_transpose_u16_parallel(u.data(), rows, cols, ld, ldo, out.data(), r);
        else p_transpose_u16(u.data(), rows, cols, ld, ldo, out.data());
        return bytes(out);
      }, pools);
      cases += 4;
    }
  }
  for (int64_t n : {0, 1, 65, 131072 + 63, 196608 + 5, 64 * 65536 + 1}) {
    std::vector<uint8_t> a(static_cast<size_t>(n + 1));
    std::vector<int16_t> b(static_cast<size_t>(n + 1));
    fill(a, g), fill(b, g);
    check("p_map_1d n = " + std::to_string(n), [&](const simdgen_runner* r) {
      std::vector<int32_t> out(size_t(n + 1), 11);
      std::vector<int16_t> inPlace = b;  // b2 overwrites its input
      if (r) p_map_1d_parallel(a.data(), inPlace.data(), n, out.data(), inPlace.data(), r);
      else p_map_1d(a.data(), inPlace.data(), n, out.data(), inPlace.data());
      return concat(bytes(out), bytes(inPlace));
    }, pools);
    ++cases;
  }
  // Contractions split the output's outermost dim anywhere (no multiple of 64): a matmul's rows,
  // the seed convolution's batch (with the seed's schedule on AVX-512).
  for (int64_t m : {0, 1, 150, 700, 1001}) {
    const int64_t n = 100, k = 37, lda = k + 1, ldb = n + 3, ldc = n + 2;
    std::vector<float> a(static_cast<size_t>(m * lda + 1)), b(static_cast<size_t>(k * ldb + 1));
    fill(a, g), fill(b, g);
    check("p_matmul_f32 m = " + std::to_string(m), [&](const simdgen_runner* r) {
      std::vector<float> c(size_t(m * ldc + 1), 2.5f);
      if (r) p_matmul_f32_parallel(a.data(), b.data(), m, n, k, lda, ldb, ldc, c.data(), r);
      else p_matmul_f32(a.data(), b.data(), m, n, k, lda, ldb, ldc, c.data());
      return bytes(c);
    }, pools);
    ++cases;
  }
  for (int64_t batch : {0, 1, 41, 83, 130}) {
    const int64_t height = 5, width = 6, outChannels = 16, inChannels = 7;
    std::vector<float> filter(static_cast<size_t>(inChannels * 9 * outChannels)), bias(static_cast<size_t>(outChannels)),
        input(static_cast<size_t>(batch * (height + 2) * (width + 2) * inChannels + 1));
    fill(filter, g), fill(bias, g), fill(input, g);
    check("p_conv_seed_f32 batch = " + std::to_string(batch), [&](const simdgen_runner* r) {
      std::vector<float> out(size_t(batch * height * width * outChannels + 1), -1.5f);
      if (r) p_conv_seed_f32_parallel(filter.data(), input.data(), bias.data(), batch, height, width, outChannels, inChannels, out.data(), r);
      else p_conv_seed_f32(filter.data(), input.data(), bias.data(), batch, height, width, outChannels, inChannels, out.data());
      return bytes(out);
    }, pools);
    ++cases;
  }
  for (simdgen_threads* pool : pools) simdgen_threads_destroy(pool);
  std::printf("%s: %d cases, %d failures (kernels: %s %s %s %s %s %s %s)\n", failures ? "FAIL" : "ok", cases, failures, p_rowsum_f32_variant(),
              p_argmax_i16_variant(), p_map_rows_variant(), p_transpose_u16_variant(), p_map_1d_variant(), p_matmul_f32_variant(),
              p_conv_seed_f32_variant());
  return failures ? 1 : 0;
}
