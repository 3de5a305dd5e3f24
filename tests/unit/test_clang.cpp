// SPDX-License-Identifier: Apache-2.0
// The clang layer: formatting with the generated-code style and in-process compile checks.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "clang/check.h"
#include "clang/format.h"
#include "emit/builtin_templates.h"
#include "emit/layout.h"
#include "spec/spec.h"

#ifndef SIMDGEN_SOURCE_DIR
#define SIMDGEN_SOURCE_DIR "."  // standalone builds run from the source root
#endif

using namespace simdgen::clangtools;

namespace {

std::string projectStyle() {
  std::ifstream in(SIMDGEN_SOURCE_DIR "/templates/.clang-format");
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// "line N: <a's line> | <b's line>" at the first line where a and b differ ("" when equal): what a
// failed formatting check shows instead of two whole files.
std::string firstDifference(const std::string& a, const std::string& b) {
  std::istringstream x(a), y(b);
  std::string l, r;
  for (int line = 1;; ++line) {
    const bool more = static_cast<bool>(std::getline(x, l)), moreToo = static_cast<bool>(std::getline(y, r));
    if (!more && !moreToo) return "";
    if (more != moreToo || l != r) return "line " + std::to_string(line) + ":\n  " + l + "\n  " + r;
  }
}

bool hasDiag(const CheckResult& r, const std::string& needle) {
  for (const Diagnostic& d : r.diagnostics) {
    if (d.message.find(needle) != std::string::npos) return true;
  }
  return false;
}

const char* kAvx512Body = R"(
#include <stdint.h>
#include <immintrin.h>
__m512i add16(__m512i a, __m512i b) { return _mm512_add_epi32(a, b); }
)";

}  // namespace

TEST_CASE("formatCpp applies the project style deterministically") {
  const std::string style = projectStyle();
  // The comment is >100 columns and must survive verbatim (ReflowComments: false).
  const std::string comment =
      "// lanes: | a0+a8 | a1+a9 | a2+a10 | a3+a11 | a4+a12 | a5+a13 | a6+a14 | a7+a15 | "
      "(upper half dropped) |";
  const std::string code =
      "#include <stdint.h>\n#include <immintrin.h>\n" + comment +
      "\nstatic inline int32_t f(const int32_t *p,int n){int s=0;for(int i=0;i<n;++i){s+=p[i];}"
      "return s;}\nvoid g(){}\n";
  const std::string a = formatCpp(code, style, "kernel.h");
  const std::string b = formatCpp(code, style, "kernel.h");
  CHECK(a == b);
  CHECK(formatCpp(a, style, "kernel.h") == a);  // idempotent
  CHECK(a.find(comment + "\n") != std::string::npos);
  CHECK(a.find("const int32_t* p, int n") != std::string::npos);  // PointerAlignment: Left
  CHECK(a.find("\n  int s = 0;\n") != std::string::npos);         // IndentWidth 2
  CHECK(a.find("void g() {}") != std::string::npos);             // empty fn on one line
  // SortIncludes: Never keeps stdint.h before immintrin.h.
  CHECK(a.find("<stdint.h>") < a.find("<immintrin.h>"));
}

TEST_CASE("formatCpp rejects an invalid style") {
  CHECK_THROWS_AS(formatCpp("int x;", "NoSuchOption: 3\n", "a.cpp"), std::runtime_error);
  CHECK_THROWS_AS(formatCpp("int x;", "ColumnLimit: [\n", "a.cpp"), std::runtime_error);
}

TEST_CASE("compileCheck accepts AVX-512 code with a function-level target attribute") {
  const std::string src = std::string(kAvx512Body).insert(
      std::string(kAvx512Body).find("__m512i add16"), "__attribute__((target(\"avx512f\"))) ");
  const CheckResult r = compileCheck(src, "kernel.cpp", "x86_64-linux-gnu", {});
  INFO(formatDiagnostics(r));
  CHECK(r.ok);
  CHECK(r.diagnostics.empty());
}

TEST_CASE("compileCheck rejects AVX-512 code without the target attribute") {
  const CheckResult r = compileCheck(kAvx512Body, "kernel.cpp", "x86_64-linux-gnu", {});
  INFO(formatDiagnostics(r));
  CHECK_FALSE(r.ok);
  CHECK((hasDiag(r, "avx512f") || hasDiag(r, "always_inline")));
}

TEST_CASE("compileCheck reports syntax errors as file:line:col") {
  const CheckResult r =
      compileCheck("int f() {\n  return 1\n}\n", "bad.cpp", "x86_64-linux-gnu", {});
  CHECK_FALSE(r.ok);
  REQUIRE_FALSE(r.diagnostics.empty());
  const Diagnostic& d = r.diagnostics.front();
  CHECK(d.level == "error");
  CHECK(d.file == "bad.cpp");
  CHECK(d.line == 2);
  CHECK(d.column == 11);
  CHECK(formatDiagnostics(r).rfind("bad.cpp:2:11: error: ", 0) == 0);
}

TEST_CASE("compileCheck compiles SVE code for aarch64") {
  const char* src = R"(
#include <stdint.h>
#include <arm_sve.h>
__attribute__((target("+sve"))) int64_t sum(const int32_t* p) {
  return svaddv_s32(svptrue_b32(), svld1_s32(svptrue_b32(), p));
}
)";
  const CheckResult r = compileCheck(src, "sve.cpp", "aarch64-linux-gnu", {});
  INFO(formatDiagnostics(r));
  CHECK(r.ok);
}

TEST_CASE("compileCheck sees extra files beside the main file") {
  const std::string header = std::string("#pragma once\n") + kAvx512Body;
  const char* src = R"(#include "gen/kernel.h"
__attribute__((target("avx512f"))) __m512i twice(__m512i a) { return add16(a, a); }
)";
  SUBCASE("header without target attribute fails, located in the header") {
    const CheckResult r =
        compileCheck(src, "gen_test.cpp", "x86_64-linux-gnu", {{"gen/kernel.h", header}});
    CHECK_FALSE(r.ok);
    CHECK(formatDiagnostics(r).find("gen/kernel.h:") != std::string::npos);
  }
  SUBCASE("fixed header passes") {
    std::string fixed = header;
    fixed.insert(fixed.find("__m512i add16"), "__attribute__((target(\"avx512f\"))) ");
    const CheckResult r =
        compileCheck(src, "gen_test.cpp", "x86_64-linux-gnu", {{"gen/kernel.h", fixed}});
    INFO(formatDiagnostics(r));
    CHECK(r.ok);
  }
  SUBCASE("missing header is a fatal error") {
    const CheckResult r = compileCheck(src, "gen_test.cpp", "x86_64-linux-gnu", {});
    CHECK_FALSE(r.ok);
    CHECK(hasDiag(r, "gen/kernel.h"));
  }
}

TEST_CASE("compileCheck passes extra args through") {
  const char* src = "int f(int x) { int unused; return x; }\n";
  CHECK(compileCheck(src, "w.cpp", "x86_64-linux-gnu", {}).ok);
  const CheckResult r = compileCheck(src, "w.cpp", "x86_64-linux-gnu", {}, {"-Werror"});
  CHECK_FALSE(r.ok);
  CHECK(hasDiag(r, "unused"));
}

// What simdgen writes is already in its style: clang::format changes no checked-in output.
TEST_CASE("clang-format changes nothing in the generated and vendored kernels") {
  namespace fs = std::filesystem;
  const std::string style = projectStyle();
  int files = 0;
  for (const char* dir : {"/generated", "/examples/rowstats/vendored"}) {
    for (const auto& e : fs::directory_iterator(std::string(SIMDGEN_SOURCE_DIR) + dir)) {
      const std::string ext = e.path().extension().string();
      if (ext != ".h" && ext != ".cpp") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      INFO(e.path().string());
      CHECK(firstDifference(ss.str(), formatCpp(ss.str(), style, e.path().filename().string())) == "");
      ++files;
    }
  }
  CHECK(files > 100);
}

// The same beyond the checked-in files: every spec under a one-letter and a 49-letter kernel name
// moves the line breaks of signatures, dispatchers and macros.
TEST_CASE("clang-format changes nothing in kernels with short and long names") {
  namespace fs = std::filesystem;
  const std::string style = projectStyle();
  const simdgen::emit::Templates templates = simdgen::emit::builtinTemplates();
  int files = 0;
  std::vector<fs::path> specs;
  for (const auto& e : fs::directory_iterator(std::string(SIMDGEN_SOURCE_DIR) + "/specs")) specs.push_back(e.path());
  std::sort(specs.begin(), specs.end());
  for (size_t k = 0; k < specs.size(); ++k) {  // each spec under one of the two names, alternately
    const fs::directory_entry e(specs[k]);
    for (const std::string name : {k % 2 ? std::string("k") : std::string(49, 'q')}) {
      simdgen::KernelSpec spec = simdgen::loadSpec(e.path());
      spec.name = name;
      const simdgen::emit::GeneratedKernel g = simdgen::emit::generate(spec, templates, "spec.json");
      for (const auto& [text, file] : {std::pair{g.header, name + ".h"}, std::pair{g.source, name + ".cpp"}}) {
        const std::string laidOut = simdgen::emit::layoutCpp(text);
        INFO(e.path().string() << " as " << file);
        CHECK(firstDifference(laidOut, formatCpp(laidOut, style, file)) == "");
        ++files;
      }
    }
  }
  CHECK(files > 100);
}
