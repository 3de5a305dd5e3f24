/* SPDX-License-Identifier: Apache-2.0 */
/* A small thread pool for the generated _parallel() entry points (docs/parallel.md). Outside the
   kernel files on purpose: a kernel never starts threads; a program brings its own runner (this
   one, OpenMP, TBB, the pool it already has) through the simdgen_runner struct. C linkage. */
#ifndef SIMDGEN_THREADS_H
#define SIMDGEN_THREADS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef SIMDGEN_RUNNER_DEFINED
#define SIMDGEN_RUNNER_DEFINED
// A task runner for the _parallel() entry points: run(ctx, tasks, task, arg) calls task(arg, i)
// exactly once for every i in [0, tasks), in any order, on any threads (the caller's included),
// and returns once every call has returned. A kernel never starts threads itself: plug a pool
// here (runtime/simdgen_threads.h has one on std::thread; docs/parallel.md shows OpenMP and TBB).
typedef struct simdgen_runner {
  void (*run)(void* ctx, int64_t tasks, void (*task)(void* arg, int64_t i), void* arg);
  void* ctx;
} simdgen_runner;
#endif

typedef struct simdgen_threads simdgen_threads;

/* A pool that runs tasks on `threads` threads: threads - 1 workers it starts now, and the thread
   that calls run(). threads <= 0: one per hardware thread. Returns NULL if no thread can start. */
simdgen_threads* simdgen_threads_create(int threads);
/* Stops and joins the workers. No run() may be in progress. */
void simdgen_threads_destroy(simdgen_threads* pool);
/* The number of threads a run uses (the caller's included). */
int simdgen_threads_count(const simdgen_threads* pool);
/* A runner for the pool. Runs from several threads at once take turns; a run from inside one of
   the pool's own tasks (a parallel kernel called by a task) runs its tasks on that thread. */
simdgen_runner simdgen_threads_runner(simdgen_threads* pool);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
