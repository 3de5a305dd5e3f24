// SPDX-License-Identifier: Apache-2.0
// OpenBLAS (Debian's serial build, libopenblas-serial-dev): cblas_sgemm,
// row-major, no transposes, alpha = 1, beta = 0. Its cblas.h comes from the
// openblas-serial include directory (CMakeLists.txt); BLIS ships a cblas.h of
// its own, hence one file per library.
#include <cblas.h>

#include "peers_contraction.h"

namespace simdgen_bench {

// The serial build runs one thread anyway; the call makes it explicit should
// a threaded libopenblas.so.0 be selected through Debian's alternatives.
std::string openblas_single_thread() {
  openblas_set_num_threads(1);
  return std::string(openblas_get_config()) + ", core " + openblas_get_corename() +
         ", " + std::to_string(openblas_get_num_threads()) + " thread(s)";
}

std::vector<Peer> openblas_matmul_peers() {
  return {{"openblas", [](const Problem& p) {
             return Prepared{[p] {
                               cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, p.m, p.n,
                                           p.k, 1.0f, p.a, p.k, p.b, p.n, 0.0f, p.out, p.n);
                             },
                             [p] { return static_cast<const float*>(p.out); }};
           }}};
}

}  // namespace simdgen_bench
