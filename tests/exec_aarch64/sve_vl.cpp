// SPDX-License-Identifier: Apache-2.0
// `sve_vl BYTES`: fails unless the SVE vector length this process gets is BYTES (0: no SVE), so
// that each qemu -cpu configuration of the aarch64 exec tests runs the vector length it names.
#include <sys/prctl.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s EXPECTED_SVE_VL_BYTES\n", argv[0]);
    return 2;
  }
  const int vl = prctl(PR_SVE_GET_VL);  // -1 (EINVAL) without SVE
  const int got = vl < 0 ? 0 : (vl & PR_SVE_VL_LEN_MASK), want = std::atoi(argv[1]);
  std::printf("SVE vector length %d bytes, expected %d\n", got, want);
  return got == want ? 0 : 1;
}
