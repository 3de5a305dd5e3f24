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
  // A braced initialiser breaks after its '{' (160 for a break after the '=' before it).
  const std::string q(49, 'q');
  CHECK(layoutCpp("void g() {\n" + q + "_choice forced = { " + q + "_scalar, \"scalar\"};\n}\n") ==
        "void g() {\n  " + q + "_choice forced = {\n      " + q + "_scalar, \"scalar\"};\n}\n");
  // A loop whose body is an if: the body on its own line.
  CHECK(layoutCpp("void g() {\nfor (int k = 0; k < n; ++k) if (x[k] == best) { at = k; break; }\n}\n") ==
        "void g() {\n  for (int k = 0; k < n; ++k)\n    if (x[k] == best) {\n      at = k;\n      break;\n    }\n}\n");
}

TEST_CASE("layoutCpp leaves extern \"C\" bodies unindented, as namespaces") {
  const std::string header =
      "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\nvoid f(int n);\n\n#ifdef __cplusplus\n}  // extern \"C\"\n#endif\n";
  CHECK(layoutCpp(header) == header);
  CHECK(layoutCpp("extern \"C\" {\n\n__attribute__((weak)) int flag = 0;\n}\n") ==
        "extern \"C\" {\n\n__attribute__((weak)) int flag = 0;\n}\n");
}

TEST_CASE("layoutCpp writes a string-literal initialiser one literal a line, split at the column limit") {
  const std::string raw =
      "bool known(const char* requested) {\nconst char* names = \" scalar\"\n#if defined(__x86_64__)\n"
      "                      \" avx2 avx2_avx_vnni avx2+avx_vnni avx2_fma avx2+fma avx2_avx_vnni_fma "
      "avx2+avx_vnni+fma avx512 avx512_vnni avx512+vnni\"\n#endif\n                      \" \";\nreturn true;\n}\n";
  CHECK(layoutCpp(raw) ==
        "bool known(const char* requested) {\n  const char* names =\n      \" scalar\"\n#if defined(__x86_64__)\n"
        "      \" avx2 avx2_avx_vnni avx2+avx_vnni avx2_fma avx2+fma avx2_avx_vnni_fma avx2+avx_vnni+fma \"\n"
        "      \"avx512 avx512_vnni avx512+vnni\"\n#endif\n      \" \";\n  return true;\n}\n");
}
