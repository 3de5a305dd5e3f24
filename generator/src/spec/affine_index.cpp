// SPDX-License-Identifier: Apache-2.0
#include "spec/affine_index.h"

#include <cctype>
#include <cstdint>

namespace simdgen {

namespace {

constexpr int64_t kMaxCoefficient = int64_t{1} << 20;

class AffineParser {
 public:
  AffineParser(const std::string& text, const std::vector<ContractionDim>& dims) : text_(text), dims_(dims) {}

  AffineIndex parse() {
    AffineIndex out;
    out.text = text_;
    skip();
    if (at_ == text_.size()) throw ExprError(0, "empty index: expected a dim name such as " + example());
    bool negative = false;
    for (;;) {
      term(out, negative);
      skip();
      if (at_ == text_.size()) break;
      if (text_[at_] != '+' && text_[at_] != '-')
        throw ExprError(at_, std::string("unexpected '") + text_[at_] + "': an index is a sum of dims, dims times positive integers, and integers, "
                             "minus integers (e.g. \"y + rz\", \"2*x + ry\", \"y + ky - 1\")");
      negative = text_[at_] == '-';
      ++at_;
    }
    return out;
  }

 private:
  void skip() {
    while (at_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[at_]))) ++at_;
  }
  std::string example() const { return dims_.empty() ? "\"i\"" : "\"" + dims_.front().name + "\""; }

  // integer, name, integer '*' name or name '*' integer; after '-' an integer only ("y + ky - 1":
  // a window that starts before the tensor, which only a padded operand may read).
  void term(AffineIndex& out, bool negative) {
    skip();
    const size_t start = at_;
    if (negative) {
      if (at_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[at_])))
        throw ExprError(at_, "only an integer may be subtracted (\"y + ky - 1\"): dims have positive coefficients");
      out.constant -= integer();
      skip();
      if (at_ < text_.size() && text_[at_] == '*') throw ExprError(at_, "only an integer may be subtracted (\"y + ky - 1\"): dims have positive coefficients");
      return;
    }
    if (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
      const int64_t n = integer();
      skip();
      if (at_ < text_.size() && text_[at_] == '*') {
        ++at_;
        skip();
        addDim(out, name(), n, start);
      } else {
        out.constant += n;
      }
      return;
    }
    const size_t nameAt = at_;
    const std::string dim = name();
    skip();
    int64_t coef = 1;
    if (at_ < text_.size() && text_[at_] == '*') {
      ++at_;
      skip();
      if (at_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[at_])))
        throw ExprError(at_, "expected a positive integer coefficient after '*' (a product of two dims is not affine)");
      coef = integer();
    }
    addDim(out, dim, coef, nameAt);
  }

  int64_t integer() {
    const size_t start = at_;
    int64_t n = 0;
    while (at_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[at_]))) {
      n = n * 10 + (text_[at_++] - '0');
      if (n > kMaxCoefficient) throw ExprError(start, "integer too large: coefficients and offsets go up to 2^20");
    }
    return n;
  }

  std::string name() {
    const size_t start = at_;
    if (at_ >= text_.size() || !(std::isalpha(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_'))
      throw ExprError(at_, at_ < text_.size() && text_[at_] == '-'
                               ? "negative terms are not allowed: an index is a sum of dims with positive coefficients and integers"
                               : "expected a dim name or an integer");
    while (at_ < text_.size() && (std::isalnum(static_cast<unsigned char>(text_[at_])) || text_[at_] == '_')) ++at_;
    return text_.substr(start, at_ - start);
  }

  void addDim(AffineIndex& out, const std::string& dim, int64_t coef, size_t at) {
    int found = -1;
    for (size_t d = 0; d < dims_.size(); ++d)
      if (dims_[d].name == dim) found = int(d);
    if (found < 0) {
      std::string names;
      for (const ContractionDim& d : dims_) names += (names.empty() ? "" : ", ") + d.name;
      throw ExprError(at, "unknown dim \"" + dim + "\"; the dims are: " + names);
    }
    if (coef == 0) throw ExprError(at, "a coefficient of 0 drops the dim: remove the term");
    if (out.uses(found)) throw ExprError(at, "dim \"" + dim + "\" appears twice in one index; write it once with a coefficient");
    out.terms.push_back({found, coef});
  }

  const std::string& text_;
  const std::vector<ContractionDim>& dims_;
  size_t at_ = 0;
};

}  // namespace

AffineIndex parseAffineIndex(const std::string& text, const std::vector<ContractionDim>& dims) {
  return AffineParser(text, dims).parse();
}

}  // namespace simdgen
