// SPDX-License-Identifier: Apache-2.0
// BLIS 0.9 (Debian's serial build, libblis-serial-dev) through its typed API,
// bli_sgemm with explicit row and column strides: unlike the BLAS/CBLAS
// names, which both OpenBLAS and BLIS export (the first library linked would
// win), bli_* can only resolve to BLIS.
#include <blis.h>

#include "peers_contraction.h"

namespace simdgen_bench {

std::string blis_single_thread() {
  bli_thread_set_num_threads(1);  // the serial build ignores threads; said for clarity
  return std::string("BLIS ") + bli_info_get_version_str() + ", arch " +
         bli_arch_string(bli_arch_query_id());
}

std::vector<Peer> blis_matmul_peers() {
  return {{"blis", [](const Problem& p) {
             return Prepared{[p] {
                               float one = 1.0f, zero = 0.0f;
                               // Row-major: row stride = leading dimension, column stride 1.
                               bli_sgemm(BLIS_NO_TRANSPOSE, BLIS_NO_TRANSPOSE, p.m, p.n, p.k,
                                         &one, const_cast<float*>(p.a), p.k, 1,
                                         const_cast<float*>(p.b), p.n, 1, &zero, p.out, p.n, 1);
                             },
                             [p] { return static_cast<const float*>(p.out); }};
           }}};
}

}  // namespace simdgen_bench
