// SPDX-License-Identifier: Apache-2.0
#include "spec/json_locate.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <vector>

namespace simdgen {

namespace {

constexpr std::string_view kBom = "\xEF\xBB\xBF";
// Deeper nesting than any spec needs; the limit keeps the recursive scanner off the stack's edge.
constexpr int kMaxDepth = 256;

void appendUtf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// A forgiving JSON tokenizer: it only has to walk text that nlohmann/json already accepted,
// so on anything malformed it just reports failure.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {
    if (text_.substr(0, kBom.size()) == kBom) pos_ = kBom.size();
  }

  std::size_t pos() const { return pos_; }
  std::string_view text() const { return text_; }
  void seek(std::size_t p) { pos_ = p; }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }

  void skipWs() {
    while (pos_ < text_.size() &&
           (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r'))
      ++pos_;
  }

  // Reads the string token at pos (an opening quote), decoding escapes so keys compare by value.
  std::optional<std::string> readString() {
    if (peek() != '"') return std::nullopt;
    ++pos_;
    std::string out;
    while (pos_ < text_.size()) {
      char c = text_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= text_.size()) return std::nullopt;
      char e = text_[pos_++];
      switch (e) {
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          auto cp = readHex4();
          if (!cp) return std::nullopt;
          unsigned code = *cp;
          // A high surrogate followed by an escaped low surrogate encodes one code point.
          if (code >= 0xD800 && code < 0xDC00 && text_.substr(pos_, 2) == "\\u") {
            pos_ += 2;
            auto low = readHex4();
            if (!low) return std::nullopt;
            code = 0x10000 + ((code - 0xD800) << 10) + (*low - 0xDC00);
          }
          appendUtf8(out, code);
          break;
        }
        default:
          out += e;
          break;  // '"', '\\', '/'
      }
    }
    return std::nullopt;
  }

  // Calls onMember(key, keyOffset) with pos at each member's value; it must consume the value.
  template <class F>
  bool forEachMember(F&& onMember) {
    ++pos_;  // '{'
    skipWs();
    if (peek() == '}') return ++pos_, true;
    for (;;) {
      skipWs();
      std::size_t keyOffset = pos_;
      auto key = readString();
      if (!key) return false;
      skipWs();
      if (peek() != ':') return false;
      ++pos_;
      skipWs();
      if (!onMember(*key, keyOffset)) return false;
      skipWs();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == '}') return ++pos_, true;
      return false;
    }
  }

  // Calls onElement(index) with pos at each element; it must consume the element.
  template <class F>
  bool forEachElement(F&& onElement) {
    ++pos_;  // '['
    skipWs();
    if (peek() == ']') return ++pos_, true;
    for (std::size_t i = 0;; ++i) {
      skipWs();
      if (!onElement(i)) return false;
      skipWs();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      if (peek() == ']') return ++pos_, true;
      return false;
    }
  }

  bool skipValue(int depth = 0) {
    if (depth > kMaxDepth) return false;
    skipWs();
    char c = peek();
    if (c == '"') return readString().has_value();
    if (c == '{') return forEachMember([&](const std::string&, std::size_t) { return skipValue(depth + 1); });
    if (c == '[') return forEachElement([&](std::size_t) { return skipValue(depth + 1); });
    // Numbers and the literals true/false/null: a run of token characters.
    std::size_t start = pos_;
    while (pos_ < text_.size() && isScalarChar(text_[pos_])) ++pos_;
    return pos_ > start;
  }

 private:
  static bool isScalarChar(char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-' ||
           c == '+' || c == '.';
  }

  std::optional<unsigned> readHex4() {
    if (pos_ + 4 > text_.size()) return std::nullopt;
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char h = text_[pos_++];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        v |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        v |= static_cast<unsigned>(h - 'A' + 10);
      else
        return std::nullopt;
    }
    return v;
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

// Splits "/a/b~1c" into {"a", "b/c"}; nullopt for a non-empty pointer not starting with '/'.
std::optional<std::vector<std::string>> splitPointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer[0] != '/') return std::nullopt;
  std::string cur;
  for (std::size_t i = 1; i <= pointer.size(); ++i) {
    if (i == pointer.size() || pointer[i] == '/') {
      tokens.push_back(cur);
      cur.clear();
    } else if (pointer[i] == '~' && i + 1 < pointer.size() &&
               (pointer[i + 1] == '0' || pointer[i + 1] == '1')) {
      cur += pointer[++i] == '0' ? '~' : '/';
    } else {
      cur += pointer[i];
    }
  }
  return tokens;
}

std::optional<std::size_t> parseIndex(const std::string& token) {
  if (token.empty() || token.size() > 18 || (token.size() > 1 && token[0] == '0')) return std::nullopt;
  std::size_t v = 0;
  for (char c : token) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<std::size_t>(c - '0');
  }
  return v;
}

bool findDuplicate(Scanner& s, std::string& pointer, std::optional<DuplicateKey>& found, int depth) {
  if (depth > kMaxDepth) return false;
  s.skipWs();
  if (s.peek() == '{') {
    std::set<std::string> seen;
    return s.forEachMember([&](const std::string& key, std::size_t keyOffset) {
      std::size_t mark = pointer.size();
      pointer += '/';  // appended separately: "/" + string trips a GCC 12 -Wrestrict false positive
      pointer += escapePointerToken(key);
      if (!seen.insert(key).second) {
        found = DuplicateKey{key, pointer, keyOffset};
        return false;
      }
      bool ok = findDuplicate(s, pointer, found, depth + 1);
      pointer.resize(mark);
      return ok;
    });
  }
  if (s.peek() == '[') {
    return s.forEachElement([&](std::size_t i) {
      std::size_t mark = pointer.size();
      pointer += '/';
      pointer += std::to_string(i);
      bool ok = findDuplicate(s, pointer, found, depth + 1);
      pointer.resize(mark);
      return ok;
    });
  }
  return s.skipValue(depth);
}

bool overflows(std::string_view token) {
  if (token.empty() || !(token[0] == '-' || (token[0] >= '0' && token[0] <= '9'))) return false;
  const std::string s(token);
  return std::isinf(std::strtod(s.c_str(), nullptr));
}

// Walks every value in document order, keeping its pointer, until `found` is set.
bool findNumber(Scanner& s, std::string& pointer, std::optional<NumberAt>& found, int depth) {
  if (depth > kMaxDepth) return false;
  s.skipWs();
  auto descend = [&](const std::string& token) {
    const std::size_t mark = pointer.size();
    pointer += '/';
    pointer += token;
    const bool ok = findNumber(s, pointer, found, depth + 1);
    pointer.resize(mark);
    return ok && !found;
  };
  if (s.peek() == '{')
    return s.forEachMember([&](const std::string& key, std::size_t) { return descend(escapePointerToken(key)); });
  if (s.peek() == '[') return s.forEachElement([&](std::size_t i) { return descend(std::to_string(i)); });
  const std::size_t start = s.pos();
  if (!s.skipValue(depth)) return false;
  const std::string_view token = s.text().substr(start, s.pos() - start);
  if (overflows(token)) found = NumberAt{pointer, start, std::string(token)};
  return true;
}

}  // namespace

TextPos positionAt(std::string_view text, std::size_t offset) {
  std::size_t i = text.substr(0, kBom.size()) == kBom ? kBom.size() : 0;
  if (offset > text.size()) offset = text.size();
  TextPos p{1, 1};
  for (; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((c & 0xC0) != 0x80) {  // UTF-8 continuation bytes do not start a column
      ++p.column;
    }
  }
  return p;
}

std::optional<JsonLocation> locatePointer(std::string_view text, std::string_view pointer) {
  Scanner s(text);
  s.skipWs();
  if (s.pos() >= text.size()) return std::nullopt;
  JsonLocation loc{s.pos(), std::nullopt, true};
  auto tokens = splitPointer(pointer);
  if (!tokens) {
    loc.exact = false;
    return loc;
  }
  for (const std::string& token : *tokens) {
    std::optional<std::size_t> valueAt, keyAt;
    if (s.peek() == '{') {
      s.forEachMember([&](const std::string& key, std::size_t keyOffset) {
        if (key == token) valueAt = s.pos(), keyAt = keyOffset;  // keep scanning: the last duplicate wins
        return s.skipValue();
      });
    } else if (s.peek() == '[') {
      if (auto index = parseIndex(token)) {
        s.forEachElement([&](std::size_t i) {
          if (i == *index) {
            valueAt = s.pos();
            return false;  // found; stop early
          }
          return s.skipValue();
        });
      }
    }
    if (!valueAt) {
      loc.exact = false;
      return loc;
    }
    loc = JsonLocation{*valueAt, keyAt, true};
    s.seek(*valueAt);
  }
  return loc;
}

TextPos positionOf(std::string_view text, std::string_view pointer) {
  auto loc = locatePointer(text, pointer);
  return loc ? positionAt(text, loc->offset) : TextPos{};
}

std::optional<DuplicateKey> findDuplicateKey(std::string_view text) {
  Scanner s(text);
  std::string pointer;
  std::optional<DuplicateKey> found;
  findDuplicate(s, pointer, found, 0);
  return found;
}

std::optional<NumberAt> findOverflowingNumber(std::string_view text) {
  Scanner s(text);
  std::string pointer;
  std::optional<NumberAt> found;
  findNumber(s, pointer, found, 0);
  return found;
}

std::string escapePointerToken(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace simdgen
