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
