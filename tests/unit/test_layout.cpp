// SPDX-License-Identifier: Apache-2.0
// The generator's own layout pass (emit/layout.h), used by builds without clang.
#include <doctest/doctest.h>

#include "emit/layout.h"

using simdgen::emit::layoutCpp;

TEST_CASE("layoutCpp indents blocks, keeps preprocessor lines at column 0 and namespaces flat") {
  const std::string raw =
      "namespace {\n\n\nvoid f(int n) {\n\nint s = 0;\nfor (int i = 0; i < n; ++i) {\n#if X\ns += i;\n#endif\n"
      "}\n\n}\n}  // namespace\n";
  CHECK(layoutCpp(raw) ==
        "namespace {\n\nvoid f(int n) {\n  int s = 0;\n  for (int i = 0; i < n; ++i) {\n#if X\n    s += i;\n"
        "#endif\n  }\n}\n}  // namespace\n");
}

TEST_CASE("layoutCpp splits one-line blocks and keeps braced initialisers and pre-indented text") {
  CHECK(layoutCpp("void g() {\nif (hit) { at = k; break; }\nreturn {a, \"b\"};\n}\n") ==
        "void g() {\n  if (hit) {\n    at = k;\n    break;\n  }\n  return {a, \"b\"};\n}\n");
  const std::string table = "static const int t[4] = {\n    0, 1,\n    2, 3};\n";
  CHECK(layoutCpp(table) == table);
  const std::string helper = "static inline int h(int a) {\n  return a;\n}\n";
  CHECK(layoutCpp(helper) == helper);
}

TEST_CASE("layoutCpp breaks long statements where clang-format does") {
  // Arguments packed after the '(' while they fit, then aligned under the first one.
  CHECK(layoutCpp("void f() {\nacc_r0 = _mm512_dpbusd_epi32(acc_r0, ones_u8, _mm512_loadu_si512((const void*)(input + i "
                  "* stride + j)));\n}\n") ==
        "void f() {\n  acc_r0 = _mm512_dpbusd_epi32(acc_r0, ones_u8,\n"
        "                               _mm512_loadu_si512((const void*)(input + i * stride + j)));\n}\n");
  // A declaration breaks after its '(' when the parameters then fit on one line.
  CHECK(layoutCpp("__attribute__((target(\"avx512f,avx512bw,avx512dq,avx512vl\")))\nvoid rowxor_u32_avx512(const "
                  "uint32_t* input, int64_t rows, int64_t cols, int64_t stride, uint32_t* output) {\n}\n") ==
        "__attribute__((target(\"avx512f,avx512bw,avx512dq,avx512vl\"))) void rowxor_u32_avx512(\n"
        "    const uint32_t* input, int64_t rows, int64_t cols, int64_t stride, uint32_t* output) {\n}\n");
  // A loop whose body is an if: the body on its own line.
  CHECK(layoutCpp("void g() {\nfor (int k = 0; k < n; ++k) if (x[k] == best) { at = k; break; }\n}\n") ==
        "void g() {\n  for (int k = 0; k < n; ++k)\n    if (x[k] == best) {\n      at = k;\n      break;\n    }\n}\n");
}
