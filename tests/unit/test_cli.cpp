// SPDX-License-Identifier: Apache-2.0
// The simdgen command line, run as a user would: exit codes, messages, what is (not) written.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace {

struct Result {
  int code;
  std::string output;  // stdout and stderr
};

Result run(const std::string& args) {
  const std::string cmd = std::string(SIMDGEN_BINARY) + " " + args + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

// A fresh directory per test, removed with everything in it when the test ends (pass or fail).
struct ScratchDir : fs::path {
  explicit ScratchDir(const std::string& name)
      : fs::path(fs::temp_directory_path() / ("simdgen_cli_" + name + "_" + std::to_string(::getpid()))) {
    fs::remove_all(*this);
    fs::create_directories(*this);
  }
  ~ScratchDir() {
    std::error_code ignored;
    fs::remove_all(*this, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
};

void write(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }
std::string read(const fs::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

const char* kGood = R"({"simdgen": 1, "name": "good", "kind": "reduce", "op": "max",
  "input": {"dtype": "f32", "shape": ["rows", "cols"]}, "targets": ["avx2", "scalar"]})";
const char* kBad = R"({"simdgen": 1, "name": "bad", "kind": "reduce", "op": "xor",
  "input": {"dtype": "f32", "shape": ["rows", "cols"]}})";

}  // namespace

TEST_CASE("generate writes both files once, then leaves them alone") {
  const ScratchDir d("gen");
  write(d / "good.json", kGood);
  Result r = run("generate " + (d / "good.json").string() + " -o " + (d / "out").string());
  CHECK(r.code == 0);
  CHECK(fs::exists(d / "out" / "good.h"));
  CHECK(fs::exists(d / "out" / "good.cpp"));
  CHECK(read(d / "out" / "good.h").find("void good_avx2(const float* input, int64_t rows, int64_t cols, float* output);") !=
        std::string::npos);
  const auto stamp = fs::last_write_time(d / "out" / "good.cpp");
  r = run("generate " + (d / "good.json").string() + " -o " + (d / "out").string());
  CHECK(r.code == 0);
  CHECK(r.output.find("unchanged") != std::string::npos);
  CHECK(fs::last_write_time(d / "out" / "good.cpp") == stamp);
  for (auto& e : fs::directory_iterator(d / "out")) CHECK(e.path().extension() != ".simdgen-tmp");
}

TEST_CASE("a bad spec stops the whole run: error with position, exit 2, nothing written") {
  const ScratchDir d("bad");
  write(d / "good.json", kGood);
  write(d / "bad.json", kBad);
  Result r = run("generate " + (d / "good.json").string() + " " + (d / "bad.json").string() + " -o " + (d / "out").string());
  CHECK(r.code == 2);
  CHECK(r.output.find("bad.json:1:") != std::string::npos);
  CHECK(r.output.find("/op") != std::string::npos);
  CHECK(!fs::exists(d / "out"));
}

TEST_CASE("an unsupported combination found while planning also writes nothing") {
  const ScratchDir d("plan");
  write(d / "k.json", R"({"simdgen": 1, "name": "k", "kind": "reduce", "op": "add",
    "input": {"dtype": "f32", "shape": [4, 100]}, "tail": "none"})");
  Result r = run("generate " + (d / "k.json").string() + " -o " + (d / "out").string());
  CHECK(r.code == 2);
  CHECK(r.output.find("not a multiple") != std::string::npos);
  CHECK(!fs::exists(d / "out"));
  CHECK(run("validate " + (d / "k.json").string()).code == 2);
}

TEST_CASE("validate reports every independent error of a spec, each placed, then each planning error once") {
  const ScratchDir d("many");
  write(d / "m.json", R"({"simdgen": 1, "name": "m", "kind": "reduce", "op": "sum",
  "input": {"dtype": "f32", "shape": ["r", "c"]}, "axis": 3, "targets": ["avx2", "nen"]})");
  Result r = run("validate " + (d / "m.json").string());
  CHECK(r.code == 2);
  const auto op = r.output.find("m.json:1:53: error: at /op: unknown op \"sum\"");
  const auto axis = r.output.find("m.json:2:59: error: at /axis:");
  const auto target = r.output.find("m.json:2:82: error: at /targets/1: unknown ISA \"nen\"");
  CHECK(op != std::string::npos);
  CHECK(axis != std::string::npos);
  CHECK(target != std::string::npos);
  CHECK((op < axis && axis < target));
  // tail "none" with 100 columns: AVX2's 8 lanes and AVX-512's 16 both fail, each said once.
  write(d / "p.json", R"({"simdgen": 1, "name": "p", "kind": "reduce", "op": "add",
  "input": {"dtype": "f32", "shape": [4, 100]}, "tail": "none", "targets": ["avx2", "avx512", "avx512+vnni"]})");
  r = run("validate " + (d / "p.json").string());
  INFO(r.output);
  CHECK(r.code == 2);
  CHECK(r.output.find("8 f32 lanes of avx2") != std::string::npos);
  CHECK(r.output.find("16 f32 lanes of avx512") != std::string::npos);
}

TEST_CASE("--check fails on stale files and passes on fresh ones and --dry-run writes nothing") {
  const ScratchDir d("check");
  write(d / "good.json", kGood);
  const std::string args = (d / "good.json").string() + " -o " + (d / "out").string();
  CHECK(run("generate --dry-run " + args).code == 0);
  CHECK(!fs::exists(d / "out"));
  Result r = run("generate --check " + args);
  CHECK(r.code == 1);
  CHECK(r.output.find("good.h: missing") != std::string::npos);
  CHECK(r.output.find("good.cpp: missing") != std::string::npos);
  REQUIRE(run("generate " + args).code == 0);
  CHECK(run("generate --check " + args).code == 0);
  write(d / "out" / "good.cpp", read(d / "out" / "good.cpp") + "// edited\n");
  r = run("generate --check " + args);
  CHECK(r.code == 1);
  CHECK(r.output.find("good.cpp: out of date") != std::string::npos);
  CHECK(r.output.find("good.h") == std::string::npos);
}

TEST_CASE("--check is a CI gate: 1 stale or missing, 2 bad specs or usage, 3 tool failure, with --diff and the fix command") {
  const ScratchDir d("gate");
  write(d / "good.json", kGood);
  write(d / "bad.json", kBad);
  const std::string out = (d / "out").string(), spec = (d / "good.json").string();
  REQUIRE(run("generate " + spec + " -o " + out).code == 0);
  std::string text = read(d / "out" / "good.cpp");
  const size_t at = text.find("#include \"good.h\"");
  REQUIRE(at != std::string::npos);
  text.insert(at, "// a local edit\n");
  write(d / "out" / "good.cpp", text);
  fs::remove(d / "out" / "good.h");
  Result r = run("generate --check --diff " + spec + " -o " + out);
  CHECK(r.code == 1);
  CHECK(r.output.find("good.h: missing") != std::string::npos);
  CHECK(r.output.find("good.cpp: out of date with its spec") != std::string::npos);
  // One unified diff hunk taking the edit out, labelled with the file.
  CHECK(r.output.find("--- " + out + "/good.cpp (on disk)\n+++ " + out + "/good.cpp (from the spec)\n@@ -") != std::string::npos);
  CHECK(r.output.find("\n-// a local edit\n") != std::string::npos);
  // The exact command that fixes it, and it does.
  CHECK(r.output.find("1 missing and 1 out-of-date generated file(s); to update them, run:") != std::string::npos);
  CHECK(r.output.find(" generate " + spec + " -o " + out + "\n") != std::string::npos);
  CHECK(run("generate " + spec + " -o " + out).code == 0);
  CHECK(run("generate --check --diff " + spec + " -o " + out).code == 0);
  // A bad spec is not a stale file; neither are unreadable templates.
  CHECK(run("generate --check " + (d / "bad.json").string() + " -o " + out).code == 2);
  CHECK(run("generate --check " + (d / "nope.json").string() + " -o " + out).code == 2);
  CHECK(run("generate --check --templates " + (d / "no_templates").string() + " " + spec + " -o " + out).code == 3);
  r = run("--templates " + (d / "no_templates").string() + " generate " + spec + " -o " + out);
  CHECK(r.code == 3);
  CHECK(r.output.find("cannot read template") != std::string::npos);
  CHECK(run("generate --diff " + spec + " -o " + out).code == 2);  // --diff needs --check
}

TEST_CASE("usage errors exit 2 and say what is wrong, like git and clang") {
  Result r = run("frobnicate");
  CHECK(r.code == 2);
  CHECK(r.output.find("unknown command 'frobnicate' (commands: generate, explain, validate, list, check, lift)") != std::string::npos);
  r = run("");
  CHECK(r.code == 2);
  CHECK(r.output.find("no command given") != std::string::npos);
  r = run("generate /nonexistent/k.json -o /tmp");
  CHECK(r.code == 2);
  CHECK(r.output.find("/nonexistent/k.json: error: cannot read file: No such file or directory") != std::string::npos);
  r = run("validate /tmp");
  CHECK(r.code == 2);
  CHECK(r.output.find("/tmp: error: cannot read file: Is a directory") != std::string::npos);
  CHECK(run("explain /nonexistent/k.json").output.find("cannot read file: No such file") != std::string::npos);
  r = run("--check generate a.json -o out");
  CHECK(r.code == 2);
  CHECK(r.output.find("option --check belongs after the command: simdgen generate --check") != std::string::npos);
  r = run("list --check");
  CHECK(r.code == 2);
  CHECK(r.output.find("simdgen list: error: unknown option --check (it is an option of 'simdgen generate')") != std::string::npos);
  r = run("generate --frobnicate a.json -o out");
  CHECK(r.code == 2);
  CHECK(r.output.find("simdgen generate: error: unknown option --frobnicate") != std::string::npos);
  r = run("generate a.json");
  CHECK(r.code == 2);
  CHECK(r.output.find("--output is required") != std::string::npos);
  CHECK(r.output.find("Run 'simdgen generate --help' for usage.") != std::string::npos);
}

TEST_CASE("explain --target takes spec spellings and variant suffixes and lists the valid targets") {
  const ScratchDir d("target");
  write(d / "good.json", kGood);
  const std::string spec = (d / "good.json").string();
  Result r = run("explain --target avx9 " + spec);
  CHECK(r.code == 2);
  CHECK(r.output.find("unknown target 'avx9' (targets: scalar, avx2[+avx_vnni][+fma][+gfni], avx512[+vnni][+gfni]") != std::string::npos);
  r = run("explain --target avx512 " + spec);  // a target, but not one of this spec's
  CHECK(r.code == 2);
  CHECK(r.output.find("no emitted variant for target 'avx512' (emitted: avx2 scalar)") != std::string::npos);
  write(d / "fma.json", R"({"simdgen": 1, "name": "fma", "kind": "reduce", "op": "add",
    "input": {"dtype": "f32", "shape": ["rows", "cols"]}, "targets": ["avx2+fma", "scalar"]})");
  for (const char* t : {"avx2+fma", "avx2_fma"}) {
    r = run(std::string("explain --target ") + t + " " + (d / "fma.json").string());
    CHECK(r.code == 0);
    CHECK(r.output.find("plan fma for avx2+fma") != std::string::npos);
    CHECK(r.output.find("for scalar") == std::string::npos);
  }
}

TEST_CASE("--quiet prints errors only and --verbose what was used, before or after the command") {
  const ScratchDir d("quiet");
  write(d / "good.json", kGood);
  const std::string args = (d / "good.json").string() + " -o " + (d / "out").string();
  REQUIRE(run("generate " + args).code == 0);
  CHECK(run("generate --quiet " + args).output.empty());
  CHECK(run("-q generate " + args).output.empty());
  CHECK(run("validate -q " + (d / "good.json").string()).output.empty());
  Result r = run("generate -v " + args);
  CHECK(r.output.find("templates: ") != std::string::npos);
  CHECK(r.output.find("good: variants avx2 scalar") != std::string::npos);
  CHECK(run("-q -v list").code == 2);  // one or the other
  // Errors still show when quiet.
  r = run("generate -q " + (d / "nope.json").string() + " -o " + (d / "out").string());
  CHECK(r.code == 2);
  CHECK(r.output.find("cannot read file") != std::string::npos);
}

TEST_CASE("--help of every command lists its options, the global ones and the exit status") {
  for (const char* sub : {"generate", "explain", "validate", "list", "check"}) {
    const Result r = run(std::string(sub) + " --help");
    CHECK(r.code == 0);
    CHECK(r.output.find(std::string("Usage: simdgen ") + sub) != std::string::npos);
    CHECK(r.output.find("--templates DIR, -q/--quiet, -v/--verbose") != std::string::npos);
    CHECK(r.output.find("Exit status: 0 success; 1 ") != std::string::npos);
  }
  const Result g = run("generate --help");
  for (const char* opt : {"--output", "--check", "--diff", "--dry-run"}) CHECK(g.output.find(opt) != std::string::npos);
  CHECK(run("explain --help").output.find("--target") != std::string::npos);
  CHECK(run("--help").output.find("Run 'simdgen COMMAND --help'") != std::string::npos);
}

TEST_CASE("list prints the registries: targets with features, families with ops, dtypes") {
  const Result r = run("list");
  CHECK(r.code == 0);
  CHECK(r.output.find("avx512  512-bit vectors  features: +vnni") != std::string::npos);
  CHECK(r.output.find("arg_reduce:") != std::string::npos);
  CHECK(r.output.find("argmin argmax") != std::string::npos);
  const Result j = run("list --json");
  CHECK(j.code == 0);
  CHECK(j.output.find("\"cpu_check\": \"__builtin_cpu_supports(\\\"avx2\\\")\"") != std::string::npos);
  CHECK(j.output.find("\"default_targets\"") != std::string::npos);
  // What tests need to check a CPU for an ISA (tests/cmake/make_cpu_checks.cmake reads these).
  CHECK(j.output.find("\"arch_guard\": \"defined(__x86_64__)\"") != std::string::npos);
  CHECK(j.output.find("\"cpu_init\": \"__builtin_cpu_init();\"") != std::string::npos);
}

TEST_CASE("explain prints the plan per target and validate, --version and --help work") {
  const ScratchDir d("explain");
  write(d / "good.json", kGood);
  Result r = run("explain " + (d / "good.json").string());
  CHECK(r.code == 0);
  CHECK(r.output.find("plan good for avx2 (256-bit vectors): reduce, vector_accumulator") != std::string::npos);
  CHECK(r.output.find("in  input : f32[rows, cols]") != std::string::npos);
  // --json: the same plans for tools, parameters with both names.
  const Result j = run("explain --json " + (d / "good.json").string());
  CHECK(j.code == 0);
  CHECK(j.output.find("\"family\": \"reduce\"") != std::string::npos);
  CHECK(j.output.find("\"public_name\": \"rows\"") != std::string::npos);
  CHECK(j.output.find("\"suffix\": \"avx2\"") != std::string::npos);
  CHECK(j.output.find("\"extents\": [") != std::string::npos);
  // Semantics and CPU checks for the execution-test driver (tests/exec/make_exec_test.cmake).
  CHECK(j.output.find("\"semantics\": {") != std::string::npos);
  CHECK(j.output.find("\"op\": \"max\"") != std::string::npos);
  CHECK(j.output.find("\"cpu_check\": \"__builtin_cpu_supports(\\\"avx2\\\")\"") != std::string::npos);
  CHECK(run("explain --json --target avx2 " + (d / "good.json").string()).output.find("\"suffix\": \"scalar\"") == std::string::npos);
  CHECK(r.output.find("out output : f32[rows]") != std::string::npos);
  CHECK(r.output.find("plan good for scalar") != std::string::npos);
  CHECK(r.output.find("fold network lane table") != std::string::npos);
  CHECK(run("explain --target avx2 " + (d / "good.json").string()).output.find("for scalar") == std::string::npos);
  CHECK(run("validate " + (d / "good.json").string()).code == 0);
  CHECK(run("--version").output.find("simdgen 0.") != std::string::npos);
}

#if SIMDGEN_WITH_CLANG
TEST_CASE("check compiles generated code in-process for x86-64 and aarch64") {
  const ScratchDir d("clang");
  write(d / "good.json", kGood);
  Result r = run("check " + (d / "good.json").string());
  CHECK(r.code == 0);
  CHECK(r.output.find("ok   good.cpp (x86_64-linux-gnu)") != std::string::npos);
  CHECK(r.output.find("ok   good.cpp (aarch64-linux-gnu)") != std::string::npos);
  // A variant without its target attribute must be caught (IR generation checks features).
  REQUIRE(run("generate " + (d / "good.json").string() + " -o " + (d / "out").string()).code == 0);
  std::string src = read(d / "out" / "good.cpp");
  const std::string attr = "__attribute__((target(\"avx2\")))";
  REQUIRE(src.find(attr) != std::string::npos);
  src.erase(src.find(attr), attr.size());
  write(d / "out" / "good.cpp", src);
  r = run("check " + (d / "out" / "good.cpp").string());
  CHECK(r.code == 1);
  CHECK(r.output.find("requires target feature") != std::string::npos);
}

TEST_CASE("lift: remarks per loop, specs for the lifted ones, --diff changes nothing, a file that does not compile writes nothing") {
  const ScratchDir d("lift");
  const std::string source =
      "#include <stdint.h>\n"
      "int32_t sum(const int8_t* a, int n) {\n"
      "  int32_t s = 0;\n"
      "  for (int i = 0; i < n; ++i) s += a[i];\n"
      "  return s;\n"
      "}\n"
      "void scale(float* a, int n) {\n"
      "  for (int i = 0; i < n; ++i) a[i] *= 2;\n"
      "}\n"
      "void total(int* out, const int* a, int n) {\n"
      "  for (int i = 0; i < n; ++i) out[i & 1] += a[i];\n"
      "}\n";
  write(d / "k.c", source);
  Result r = run("lift " + (d / "k.c").string() + " -o " + (d / "specs").string() + " -- -std=c11");
  CHECK(r.code == 0);
  CHECK(r.output.find("k.c:4:3: remark: lifted: sum_lifted (reduce add i8 -> i32)") != std::string::npos);
  CHECK(r.output.find("k.c:8:3: remark: lifted: scale_lifted (map f32 -> f32 (1 input, 1 output))") != std::string::npos);
  CHECK(r.output.find("k.c:11:3: remark: not lifted: the loop writes to memory (`out[i & 1] += a[i]`)") != std::string::npos);
  CHECK(read(d / "specs" / "sum_lifted.json").find("\"kind\": \"reduce\"") != std::string::npos);
  CHECK(read(d / "specs" / "scale_lifted.json").find("\"in_place\": \"a\"") != std::string::npos);
  CHECK(!fs::exists(d / "specs" / "total_lifted.json"));

  r = run("-q lift --diff " + (d / "k.c").string() + " -o " + (d / "specs").string() + " -- -std=c11");
  CHECK(r.code == 0);
  CHECK(r.output.find("+#include \"sum_lifted.h\"") != std::string::npos);
  CHECK(r.output.find("sum_lifted(a, simdgen_n, &simdgen_r);") != std::string::npos);
  CHECK(read(d / "k.c") == source);

  write(d / "broken.c", "int f(const int* a, int n) { int s = 0; for (int i = 0; i < n; ++i) s += a[i] return s; }\n");
  r = run("lift " + (d / "broken.c").string() + " -o " + (d / "out2").string() + " -- -std=c11");
  CHECK(r.code == 2);
  CHECK(r.output.find("expected ';'") != std::string::npos);
  CHECK(r.output.find("nothing was written") != std::string::npos);
  CHECK(!fs::exists(d / "out2"));

  // The touched lines follow the file's .clang-format (here 8-space indents) from where the loop was.
  write(d / ".clang-format", "BasedOnStyle: LLVM\nIndentWidth: 8\n");
  r = run("-q lift --diff " + (d / "k.c").string() + " -o " + (d / "specs").string() + " -- -std=c11");
  CHECK(r.output.find("\n+  {\n+          // simdgen lift: sum_lifted") != std::string::npos);
  CHECK(r.output.find("\n+                  int32_t simdgen_r;") != std::string::npos);
  fs::remove(d / ".clang-format");

  r = run("lift " + (d / "missing.c").string() + " -o " + (d / "out3").string());
  CHECK(r.code == 2);
  CHECK(r.output.find("missing.c: error: cannot read file") != std::string::npos);
}

TEST_CASE("lift --rewrite: the #include lines go outside every #if, and a second run changes nothing") {
  const ScratchDir d("lift_idempotent");
  const std::string source =
      "#if defined _WIN32\n"
      "#include <windows.h>\n"
      "#else\n"
      "#include <unistd.h>\n"
      "#endif\n"
      "#include <stdint.h>\n"
      "#ifdef HAVE_NOTHING\n"
      "#include <nothing.h>\n"
      "#endif\n"
      "\n"
      "int32_t sum(const int8_t* a, int n) {\n"
      "  int32_t s = 0;\n"
      "  for (int i = 0; i < n; ++i) s += a[i];\n"
      "  return s;\n"
      "}\n";
  write(d / "k.c", source);
  const std::string file = (d / "k.c").string(), specs = (d / "specs").string(), gen = (d / "gen").string();
  REQUIRE(run("-q lift --rewrite " + file + " -o " + specs + " -- -std=c11").code == 0);
  const std::string once = read(d / "k.c");
  CHECK(once.find("#include <nothing.h>\n#endif\n#include \"sum_lifted.h\"\n") != std::string::npos);
  REQUIRE(run("-q generate " + specs + "/sum_lifted.json -o " + gen).code == 0);
  fs::remove_all(d / "specs");
  const Result r = run("lift --rewrite " + file + " -o " + specs + " -- -std=c11 -I" + gen);
  CHECK(r.code == 0);
  CHECK(r.output.find("lifted: sum_lifted (reduce add i8 -> i32), already rewritten") != std::string::npos);
  CHECK(read(d / "k.c") == once);
  CHECK(fs::exists(d / "specs" / "sum_lifted.json"));  // the spec again, under its name
}

TEST_CASE("lift: a loop written in an included file is refused at its #include, and names of other files' specs stay theirs") {
  const ScratchDir d("lift_include");
  write(d / "body.h", "  for (int i = 0; i < n; i++) y[i] += alpha * x[i];\n");
  write(d / "axpy.c", "void saxpy(float* y, const float* x, float alpha, int n) {\n#include \"body.h\"\n}\n");
  const std::string specs = (d / "specs").string();
  Result r = run("lift --rewrite " + (d / "axpy.c").string() + " -o " + specs + " -- -std=c11");
  CHECK(r.code == 0);
  CHECK(r.output.find("axpy.c:2:10: remark: not lifted: the loop is written in the included file") != std::string::npos);
  CHECK(read(d / "axpy.c") == "void saxpy(float* y, const float* x, float alpha, int n) {\n#include \"body.h\"\n}\n");

  // Two programs with a `forward` each, lifted one at a time into one spec directory.
  write(d / "run.c", "float forward(const float* a, int n) { float s = 0; for (int i = 0; i < n; i++) if (a[i] > s) s = a[i]; return s; }\n");
  write(d / "runq.c", "int forward(const int* a, int n) { int s = 0; for (int i = 0; i < n; i++) s += a[i]; return s; }\n");
  CHECK(run("lift " + (d / "run.c").string() + " -o " + specs + " -- -std=c11").output.find("lifted: forward_lifted (reduce max") !=
        std::string::npos);
  CHECK(run("lift " + (d / "runq.c").string() + " -o " + specs + " -- -std=c11").output.find("lifted: forward_lifted_2 (reduce add") !=
        std::string::npos);
  CHECK(run("lift " + (d / "run.c").string() + " -o " + specs + " -- -std=c11").output.find("lifted: forward_lifted (reduce max") !=
        std::string::npos);
  CHECK(read(d / "specs" / "forward_lifted.json").find("\"op\": \"max\"") != std::string::npos);
}

TEST_CASE("lift looks at the functions named by --functions, else at the annotated ones, else at all") {
  const ScratchDir d("lift_select");
  write(d / "k.cpp",
        "#include <cstdint>\n"
        "int32_t a_sum(const int8_t* a, int n) { int32_t s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }\n"
        "[[clang::annotate(\"simdgen\")]] int32_t b_sum(const int8_t* a, int n) { int32_t s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }\n"
        "int32_t c_sum(const int8_t* a, int n) { int32_t s = 0; for (int i = 0; i < n; ++i) s += a[i]; return s; }\n");
  const std::string file = (d / "k.cpp").string(), out = " -o " + (d / "specs").string() + " -- -std=c++17";
  Result r = run("lift " + file + out);
  CHECK(r.code == 0);
  CHECK(r.output.find("lifted: b_sum_lifted") != std::string::npos);
  CHECK(r.output.find("a_sum") == std::string::npos);
  CHECK(r.output.find("c_sum") == std::string::npos);
  r = run("lift --functions a_sum,c_sum " + file + out);
  CHECK(r.code == 0);
  CHECK(r.output.find("lifted: a_sum_lifted") != std::string::npos);
  CHECK(r.output.find("lifted: c_sum_lifted") != std::string::npos);
  CHECK(r.output.find("b_sum") == std::string::npos);
  fs::remove_all(d / "specs");
  r = run("lift --functions a_sum,d_sum " + file + out);  // a name no file defines: an error, nothing written
  CHECK(r.code == 2);
  CHECK(r.output.find("--functions d_sum: no function of that name is defined") != std::string::npos);
  CHECK(!fs::exists(d / "specs"));
}
#else
TEST_CASE("check says that a build without clang lacks it") {
  const Result r = run("check x.json");
  CHECK(r.code == 2);
  CHECK(r.output.find("-DSIMDGEN_WITH_CLANG=OFF") != std::string::npos);
}
#endif

TEST_CASE("--spdx and --copyright put the user's SPDX tags at the top of both files") {
  const ScratchDir d("spdx");
  write(d / "good.json", kGood);
  const std::string spec = (d / "good.json").string(), out = (d / "out").string();
  const std::string opts = "--spdx 'MIT OR Apache-2.0' --copyright \"2026 Example Corp <legal@example.com>\" ";
  REQUIRE(run("generate " + opts + spec + " -o " + out).code == 0);
  for (const char* f : {"good.h", "good.cpp"}) {
    const std::string text = read(d / "out" / f);
    CHECK(text.rfind("// SPDX-License-Identifier: MIT OR Apache-2.0\n"
                     "// SPDX-FileCopyrightText: 2026 Example Corp <legal@example.com>\n"
                     "// Generated by simdgen ", 0) == 0);
    // The regenerate line repeats the options, so that it reproduces the file.
    CHECK(text.find("regenerate with `simdgen generate --spdx 'MIT OR Apache-2.0' --copyright '2026 Example Corp "
                    "<legal@example.com>' ") != std::string::npos);
    CHECK(text.find("does not cover this output: it is yours") != std::string::npos);
  }
  CHECK(run("generate --check " + opts + spec + " -o " + out).code == 0);
  const Result r = run("generate --check " + spec + " -o " + out);  // without them: stale
  CHECK(r.code == 1);
  CHECK(r.output.find("good.h: out of date") != std::string::npos);
  // Values that would break the comment line, or are no SPDX expression, are usage errors.
  CHECK(run("generate --spdx 'MIT; rm -rf' " + spec + " -o " + out).code == 2);
  CHECK(run("generate --copyright 'ACME \\' " + spec + " -o " + out).output.find("must not end with a backslash") !=
        std::string::npos);
  CHECK(run("generate --copyright \"$(printf 'a\\nb')\" " + spec + " -o " + out).output.find("must be one line") !=
        std::string::npos);
}
