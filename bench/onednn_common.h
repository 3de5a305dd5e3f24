// SPDX-License-Identifier: Apache-2.0
// What every oneDNN peer of the benchmarks needs: the CPU engine, and a user array wrapped as a
// oneDNN memory object (oneDNN takes a non-const pointer even for sources it only reads).
#pragma once
#include <oneapi/dnnl/dnnl.hpp>

namespace simdgen_bench_onednn {

inline dnnl::engine& cpu() {
  static dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  return engine;
}

inline dnnl::memory wrap(const dnnl::memory::desc& md, const void* p) { return dnnl::memory(md, cpu(), const_cast<void*>(p)); }

}  // namespace simdgen_bench_onednn
