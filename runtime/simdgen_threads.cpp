// SPDX-License-Identifier: Apache-2.0
// The pool behind simdgen_threads.h: workers sleep on a condition variable until a run publishes
// a job (a new generation), then claim task indices from one atomic counter, as does the caller;
// the run returns once every task has finished, and the next run publishes its job only when every
// worker has left the previous one. No allocation per run.
#include "simdgen_threads.h"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>
#include <thread>
#include <vector>

struct simdgen_threads {
  std::vector<std::thread> workers;
  std::mutex runs;  // one run at a time
  std::mutex m;
  std::condition_variable wake, finished;
  uint64_t generation = 0;  // bumped by every run (under m)
  bool stopping = false;
  int active = 0;           // workers inside the current job (under m)
  // The current job: written under m before the generation moves, read by the workers after.
  void (*task)(void*, int64_t) = nullptr;
  void* arg = nullptr;
  int64_t tasks = 0;
  std::atomic<int64_t> next{0}, done{0};
};

namespace {

thread_local const simdgen_threads* current_pool = nullptr;  // the pool whose task this thread runs

// Claims and runs tasks of the current job until none is left.
void drain(simdgen_threads& p) {
  for (int64_t i = p.next.fetch_add(1, std::memory_order_relaxed); i < p.tasks; i = p.next.fetch_add(1, std::memory_order_relaxed)) {
    p.task(p.arg, i);
    if (p.done.fetch_add(1, std::memory_order_acq_rel) + 1 == p.tasks) {
      std::lock_guard<std::mutex> lock(p.m);
      p.finished.notify_all();
    }
  }
}

void work(simdgen_threads* p) {
  current_pool = p;
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(p->m);
  for (;;) {
    p->wake.wait(lock, [&] { return p->stopping || p->generation != seen; });
    if (p->stopping) return;
    seen = p->generation;
    ++p->active;
    lock.unlock();
    drain(*p);
    lock.lock();
    if (--p->active == 0) p->finished.notify_all();
  }
}

void run(void* ctx, int64_t tasks, void (*task)(void* arg, int64_t i), void* arg) {
  auto* p = static_cast<simdgen_threads*>(ctx);
  if (tasks <= 0) return;
  if (current_pool == p || p->workers.empty() || tasks == 1) {  // nested in a task, or nothing to share
    for (int64_t i = 0; i < tasks; ++i) task(arg, i);
    return;
  }
  std::lock_guard<std::mutex> one(p->runs);
  {
    // A worker that woke late for the previous job may still be in it (finding nothing left to
    // claim): the job's fields change only once every worker has left.
    std::unique_lock<std::mutex> lock(p->m);
    p->finished.wait(lock, [&] { return p->active == 0; });
    p->task = task;
    p->arg = arg;
    p->tasks = tasks;
    p->next.store(0, std::memory_order_relaxed);
    p->done.store(0, std::memory_order_relaxed);
    ++p->generation;
  }
  p->wake.notify_all();
  const simdgen_threads* outer = current_pool;
  current_pool = p;
  drain(*p);
  current_pool = outer;
  std::unique_lock<std::mutex> lock(p->m);
  p->finished.wait(lock, [&] { return p->done.load(std::memory_order_acquire) == p->tasks && p->active == 0; });
}

}  // namespace

extern "C" {

simdgen_threads* simdgen_threads_create(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::thread::hardware_concurrency());
  if (threads <= 0) threads = 1;
  auto* p = new (std::nothrow) simdgen_threads;
  if (!p) return nullptr;
  try {
    for (int k = 1; k < threads; ++k) p->workers.emplace_back(work, p);
  } catch (...) {  // fewer threads than asked: run with those that started
  }
  return p;
}

void simdgen_threads_destroy(simdgen_threads* p) {
  if (!p) return;
  {
    std::lock_guard<std::mutex> lock(p->m);
    p->stopping = true;
  }
  p->wake.notify_all();
  for (std::thread& t : p->workers) t.join();
  delete p;
}

int simdgen_threads_count(const simdgen_threads* p) { return p ? static_cast<int>(p->workers.size()) + 1 : 0; }

simdgen_runner simdgen_threads_runner(simdgen_threads* p) {
  simdgen_runner r;
  r.run = run;
  r.ctx = p;
  return r;
}

}  // extern "C"
