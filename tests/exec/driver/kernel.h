// SPDX-License-Identifier: Apache-2.0
// What the execution-test driver knows about one generated kernel, for any family: the facts of
// `simdgen explain --json` (tensors with extent and stride expressions, parameters, constants,
// semantics) and one call per variant. Filled in by the test .cpp that make_exec_test.cmake
// writes; nothing here names a family.
#pragma once

#include <cctype>
#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace simdgen_exec {

// Values of the plan's symbols in one run: constants (kRows, ...) and runtime extents (rows, n, ...).
using Env = std::map<std::string, int64_t, std::less<>>;

// Evaluates an index expression as `explain --json` prints it ("stride", "kCols", "1", "rows * 4 + 2"):
// integers, symbols of `env`, + - * and parentheses. Throws std::runtime_error on anything else.
class Expr {
 public:
  static int64_t eval(std::string_view text, const Env& env) {
    Expr e{text, env};
    const int64_t v = e.sum();
    e.skip();
    if (e.at_ < text.size()) e.fail("unexpected text");
    return v;
  }
  // The symbol when the expression is a bare name, else "".
  static std::string symbol(std::string_view text) {
    size_t b = 0, e = text.size();
    while (b < e && text[b] == ' ') ++b;
    while (e > b && text[e - 1] == ' ') --e;
    if (b == e || !(std::isalpha(static_cast<unsigned char>(text[b])) || text[b] == '_')) return "";
    for (size_t i = b; i < e; ++i)
      if (!(std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '_')) return "";
    return std::string(text.substr(b, e - b));
  }

 private:
  Expr(std::string_view t, const Env& e) : text_(t), env_(e) {}
  void skip() {
    while (at_ < text_.size() && text_[at_] == ' ') ++at_;
  }
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("index expression '" + std::string(text_) + "': " + why + " at offset " +
                             std::to_string(at_));
  }
  int64_t sum() {
    int64_t v = product();
    for (skip(); at_ < text_.size() && (text_[at_] == '+' || text_[at_] == '-'); skip()) {
      const char op = text_[at_++];
      const int64_t r = product();
      v = op == '+' ? v + r : v - r;
    }
    return v;
  }
  int64_t product() {
    int64_t v = atom();
    for (skip(); at_ < text_.size() && text_[at_] == '*'; skip()) {
      ++at_;
      v *= atom();
    }
    return v;
  }
  int64_t atom() {
    skip();
    if (at_ >= text_.size()) fail("expected a number, a name or '('");
    const char c = text_[at_];
    if (c == '(') {
      ++at_;
      const int64_t v = sum();
      skip();
      if (at_ >= text_.size() || text_[at_] != ')') fail("expected ')'");
      ++at_;
      return v;
    }
    if (c == '-') {
      ++at_;
      return -atom();
    }
    const size_t b = at_;
    if (std::isdigit(static_cast<unsigned char>(c))) {
      while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) ++at_;
      return std::stoll(std::string(text_.substr(b, at_ - b)));
    }
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    if (at_ == b) fail("unexpected character");
    const auto it = env_.find(text_.substr(b, at_ - b));
    if (it == env_.end()) fail("unbound symbol '" + std::string(text_.substr(b, at_ - b)) + "'");
    return it->second;
  }

  std::string_view text_;
  const Env& env_;
  size_t at_ = 0;
};

// One tensor of the plan: element type (the spec's dtype name) and its layout as expressions.
struct Tensor {
  std::string name, dtype;
  bool output;
  std::vector<std::string> extents, strides;

  // Elements from the first to one past the last (0 when any extent is 0).
  int64_t span(const Env& env) const {
    int64_t last = 0;
    for (size_t d = 0; d < extents.size(); ++d) {
      const int64_t e = Expr::eval(extents[d], env);
      if (e <= 0) return 0;
      last += (e - 1) * Expr::eval(strides[d], env);
    }
    return last + 1;
  }
};

// The arguments of one call: runtime extents by parameter name, tensors by name, scalar
// parameters by name (the bytes of the value, little endian).
class Binding {
 public:
  Binding(const Env& env, std::map<std::string, void*, std::less<>> tensors,
          std::map<std::string, uint64_t, std::less<>> scalars = {})
      : env_(env), tensors_(std::move(tensors)), scalars_(std::move(scalars)) {}
  int64_t extent(std::string_view name) const {
    const auto it = env_.find(name);
    if (it == env_.end()) throw std::logic_error("exec driver: no value bound for parameter " + std::string(name));
    return it->second;
  }
  template <class T>
  T* tensor(std::string_view name) const {
    const auto it = tensors_.find(name);
    if (it == tensors_.end()) throw std::logic_error("exec driver: no buffer bound for tensor " + std::string(name));
    return static_cast<T*>(it->second);
  }
  template <class T>
  T scalar(std::string_view name) const {
    const auto it = scalars_.find(name);
    if (it == scalars_.end()) throw std::logic_error("exec driver: no value bound for scalar parameter " + std::string(name));
    T v;
    std::memcpy(&v, &it->second, sizeof v);
    return v;
  }

 private:
  const Env& env_;
  std::map<std::string, void*, std::less<>> tensors_;
  std::map<std::string, uint64_t, std::less<>> scalars_;
};

// A runtime scalar parameter: its name in the plan and its dtype (the spec's name).
struct ScalarParam {
  std::string name, dtype;
};

struct Variant {
  std::string suffix;  // "avx512_vnni", ..., "scalar"; "dispatch" for the kernel's own name
  std::function<void(const Binding&)> call;
};

struct Kernel {
  std::string name, family;
  std::map<std::string, std::string, std::less<>> semantics;  // the plan's semantics ("op", "axis", ...)
  Env constants;                                               // static extents (kRows, kCols, ...)
  std::vector<Tensor> tensors;                                 // inputs and outputs, signature order
  std::vector<std::string> extent_params;                      // runtime extents, signature order
  std::vector<ScalarParam> scalar_params;                      // runtime scalars, signature order
  std::vector<std::string> planned_variants;                   // suffixes `explain --json` lists
  std::vector<Variant> variants;                               // what the header's X-macro lists, + dispatch

  const Tensor& tensor(std::string_view name) const {
    for (const Tensor& t : tensors)
      if (t.name == name) return t;
    throw std::logic_error("exec driver: kernel " + this->name + " has no tensor " + std::string(name));
  }
  const Tensor& input() const {
    for (const Tensor& t : tensors)
      if (!t.output) return t;
    throw std::logic_error("exec driver: kernel " + name + " has no input");
  }
  std::string semantic(std::string_view key, std::string fallback = "") const {
    const auto it = semantics.find(key);
    return it == semantics.end() ? fallback : it->second;
  }
  bool has_semantic(std::string_view key) const { return semantics.count(key) != 0; }
};

}  // namespace simdgen_exec
