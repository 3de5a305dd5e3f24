// SPDX-License-Identifier: Apache-2.0
#include "emit/layout.h"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace simdgen::emit {
namespace {

constexpr size_t kColumnLimit = 100;

std::string trimRight(const std::string& s) {
  const size_t end = s.find_last_not_of(" \t\r");
  return end == std::string::npos ? "" : s.substr(0, end + 1);
}
size_t leadingSpaces(const std::string& s) {
  const size_t at = s.find_first_not_of(' ');
  return at == std::string::npos ? s.size() : at;
}
bool startsWith(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

// Code without its string and character literals and trailing // comment (braces inside those
// do not count).
std::string codeOnly(const std::string& s) {
  std::string out;
  char quote = 0;
  for (size_t k = 0; k < s.size(); ++k) {
    const char c = s[k];
    if (quote) {
      if (c == '\\') ++k;
      else if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') quote = c;
    else if (c == '/' && k + 1 < s.size() && s[k + 1] == '/') break;
    else out += c;
  }
  return out;
}

// Where a literal starting at s[k] ends (the index of its closing quote).
size_t literalEnd(const std::string& s, size_t k) {
  const char quote = s[k];
  for (++k; k < s.size() && s[k] != quote; ++k)
    if (s[k] == '\\') ++k;
  return k;
}

// A '{' opening a block (not a braced initialiser): what precedes it ends a statement head.
bool opensBlock(const std::string& code, size_t at) {
  const size_t prev = code.find_last_not_of(' ', at == 0 ? 0 : at - 1);
  if (at == 0 || prev == std::string::npos) return true;
  const char c = code[prev];
  if (c == '=' || c == ',' || c == '(' || c == '{' || c == '[') return false;
  return !(prev >= 5 && code.compare(prev - 5, 6, "return") == 0);
}

// Braced initialisers without inner spaces, as clang-format writes them: `{ a, b }` -> `{a, b}`.
std::string tightBraces(std::string s) {
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == '"' || s[k] == '\'') k = literalEnd(s, k);
    else if (s[k] == '{' && !opensBlock(s, k))
      while (k + 1 < s.size() && s[k + 1] == ' ') s.erase(k + 1, 1);
    else if (s[k] == '}' && k > 0 && s[k - 1] == ' ' && s.find_last_not_of(' ', k - 1) != std::string::npos &&
             s.rfind('{', k) != std::string::npos && !opensBlock(s, s.rfind('{', k)))
      while (k > 0 && s[k - 1] == ' ') s.erase(--k, 1);
  }
  return s;
}

// Splits a statement written on one line with its block (`if (x) { a; b; }`, `void f() { g(); }`)
// into the lines clang-format gives it: head and '{', one statement a line, '}'. Other lines are
// returned whole.
std::vector<std::string> splitBlocks(const std::string& line) {
  const std::string code = codeOnly(line);
  if (code.size() != line.size()) return {tightBraces(line)};  // literals or a comment: one line
  std::vector<std::string> parts;
  std::string cur;
  int parens = 0, initBraces = 0;
  for (size_t k = 0; k < line.size(); ++k) {
    const char c = line[k];
    if (c == '(') ++parens;
    if (c == ')') --parens;
    if (c == '{' && parens == 0 && initBraces == 0 && opensBlock(line, k) && k + 1 < line.size()) {
      parts.push_back(trimRight(cur) + " {");
      cur.clear();
      continue;
    }
    if (c == '{' && parens == 0 && !opensBlock(line, k)) ++initBraces;
    if (c == '}' && parens == 0 && initBraces > 0) --initBraces;
    else if (c == '}' && parens == 0 && !parts.empty()) {
      if (cur.find_first_not_of(' ') != std::string::npos) parts.push_back(cur);
      cur = "}";
      continue;
    }
    cur += c;
    if (c == ';' && parens == 0 && initBraces == 0 && !parts.empty()) {
      parts.push_back(cur);
      cur.clear();
    }
  }
  if (cur.find_first_not_of(' ') != std::string::npos) parts.push_back(cur);
  for (auto& p : parts) p = tightBraces(trimRight(p.substr(leadingSpaces(p))));
  return parts;
}


// The end of the head of a control statement `if (...)`, `for (...)`, `while (...)` opening `s`,
// or npos.
size_t headEnd(const std::string& s) {
  for (const char* kw : {"if (", "for (", "while ("}) {
    if (!startsWith(s, kw)) continue;
    int depth = 0;
    for (size_t k = s.find('('); k < s.size(); ++k) {
      if (s[k] == '"' || s[k] == '\'') k = literalEnd(s, k);
      else if (s[k] == '(') ++depth;
      else if (s[k] == ')' && --depth == 0) return k + 1;
    }
  }
  return std::string::npos;
}

// The end of the argument starting at s[k]: just after its ',' or at the ')' closing its list
// (k itself when s[k] closes it), or the end of s.
size_t argumentEnd(const std::string& s, size_t k) {
  int depth = 0;
  for (; k < s.size(); ++k) {
    const char c = s[k];
    if (c == '"' || c == '\'') k = literalEnd(s, k);
    else if (c == '(' || c == '[' || c == '{') ++depth;
    else if ((c == ')' || c == ']' || c == '}') && --depth < 0) return k;
    else if (c == ',' && depth == 0) return k + 1;
    else if (depth == 0 && (s.compare(k, 4, " && ") == 0 || s.compare(k, 4, " || ") == 0)) return k + 3;
  }
  return s.size();
}

// The end of the segment starting at s[k]: just after the next ',', call '(' or " = ", whose kind
// goes to `kind` (0: the end of s).
size_t segmentEnd(const std::string& s, size_t k, char& kind) {
  kind = 0;
  for (size_t end = k; end < s.size(); ++end) {
    const char c = s[end];
    if (c == '"' || c == '\'') {
      end = literalEnd(s, end);
      continue;
    }
    const bool call = c == '(' && end > 0 && (std::isalnum(static_cast<unsigned char>(s[end - 1])) || s[end - 1] == '_');
    const bool assign = c == '=' && end > 0 && s[end - 1] == ' ' && end + 1 < s.size() && s[end + 1] == ' ';
    if (c == ',' || call || assign) {
      kind = assign ? '=' : c;
      return end + 1;
    }
    if (s.compare(end, 4, " && ") == 0 || s.compare(end, 4, " || ") == 0) {
      kind = ',';
      return end + 3;
    }
  }
  return s.size();
}

// Writes statement `s` at `indent`, wrapping it within the column limit when it is longer: a
// control statement's body goes under its head, else lines break greedily after commas
// (continuing after the innermost open parenthesis), open parentheses and assignments
// (continuing 4 columns in). Readable, but not clang-format's penalty-based choice.
void wrap(const std::string& s, size_t indent, std::vector<std::string>& out) {
  if (indent + s.size() <= kColumnLimit || startsWith(s, "//")) {
    out.push_back(std::string(indent, ' ') + s);
    return;
  }
  if (const size_t h = headEnd(s); h != std::string::npos && h + 1 < s.size() && s[h + 1] != '{') {
    wrap(s.substr(0, h), indent, out);
    wrap(s.substr(h + 1), indent + 2, out);
    return;
  }
  std::string line(indent, ' ');
  std::vector<size_t> parens;  // output columns just after each open '('
  std::vector<bool> brokeInside;  // per open '(': a line broke inside one of its arguments
  size_t lineIndent = indent, k = 0;
  char pending = 0;  // the break opportunity that ended the text placed last: ',' '(' '=' or none
  while (k < s.size()) {
    // Preferably a whole argument (up to its ',' or the ')' closing its list), else a segment up
    // to the next opportunity.
    size_t end = argumentEnd(s, k);
    // After an argument's ',' or an operand's && and ||, lines continue after the open parenthesis.
    char kind = end > k && (s[end - 1] == ',' || s[end - 1] == '&' || s[end - 1] == '|') ? ',' : 0;
    const auto placed = [&](size_t e) {
      const size_t first = s.find_first_not_of(' ', k);
      return e > first ? e - first : 0;
    };
    const size_t col = pending == ',' && !parens.empty() && parens.back() + placed(end) <= kColumnLimit
                           ? parens.back()
                           : lineIndent + 4;
    // What must stay on the line with the argument: the closers and text up to the next opportunity.
    char ignored = 0;
    const size_t tail = end < s.size() && s[end] == ')' ? segmentEnd(s, end, ignored) : end;
    // After an argument that broke inside, each argument starts its own line.
    bool breakHere = pending == ',' && !brokeInside.empty() && brokeInside.back();
    if (breakHere) {
    } else if (end == k || line.size() + (tail - k) > kColumnLimit) {
      if (pending && end > k && col + placed(tail) <= kColumnLimit) {
        breakHere = true;
      } else if (pending == ',' && end > k && col < line.size() && line.find_first_not_of(' ') < line.size()) {
        breakHere = true;  // an argument that breaks inside starts its own line
        end = segmentEnd(s, k, kind);
      } else {
        end = segmentEnd(s, k, kind);
        breakHere = pending && line.find_first_not_of(' ') != std::string::npos && line.size() + (end - k) > kColumnLimit;
      }
    }
    if (breakHere) {
      for (size_t p = 0; p + 1 < brokeInside.size(); ++p) brokeInside[p] = true;
      out.push_back(trimRight(line));
      const size_t c = pending == ',' && !parens.empty() && parens.back() + placed(end) <= kColumnLimit
                           ? parens.back()
                           : lineIndent + 4;
      line = std::string(c, ' ');
      lineIndent = c;
      k = s.find_first_not_of(' ', k);
    }
    for (; k < end; ++k) {
      line += s[k];
      if (s[k] == '(') {
        parens.push_back(line.size());
        brokeInside.push_back(false);
      }
      if (s[k] == ')' && !parens.empty()) {
        parens.pop_back();
        brokeInside.pop_back();
      }
    }
    pending = kind;
  }
  out.push_back(trimRight(line));
}

// An open block: its indentation in the output, the raw indentation of the line that opened it,
// and how much deeper the raw text indents its body (0: lowered bodies, 2: pre-indented text).
struct Block {
  size_t indent, rawIndent;
  int rawStep = -1;  // unknown until the first line of the body
  bool indents = true;  // namespace bodies are not indented
};

}  // namespace

std::string layoutCpp(const std::string& text) {
  std::vector<std::string> raw;
  {
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) raw.push_back(trimRight(l));
  }
  // A function's attribute line joins its signature, as clang-format puts them.
  for (size_t k = 0; k + 1 < raw.size(); ++k) {
    if (startsWith(raw[k], "__attribute__((") && raw[k].back() == ')' && startsWith(raw[k + 1], "void ")) {
      raw[k] += " " + raw[k + 1];
      raw.erase(raw.begin() + static_cast<std::ptrdiff_t>(k) + 1);
    }
  }
  std::vector<std::string> out;
  std::vector<Block> blocks;
  int tables = 0;    // open braced initialisers spanning lines (their rows are written laid out)
  size_t blank = 0;  // blank lines seen since the last written line
  for (const std::string& line : raw) {
    if (line.empty()) {
      ++blank;
      continue;
    }
    const size_t rawIndent = leadingSpaces(line);
    const std::string body = line.substr(rawIndent);
    // clang-format drops blank lines after a block's '{' (not a namespace's) and before a lone
    // '}' or '};'.
    const bool afterOpen = !out.empty() && out.back().back() == '{' && out.back()[0] != '#' &&
                           !startsWith(out.back(), "namespace");
    const bool closes = body == "}" || body == "};";
    // At most one blank line, none at the start of the file or of a block, or before its end.
    if (blank && !out.empty() && !afterOpen && !closes) out.push_back("");
    blank = 0;
    if (body[0] == '#') {  // preprocessor lines stay at column 0
      out.push_back(body);
      continue;
    }
    for (const std::string& part : splitBlocks(body)) {
      size_t partIndent = 0;
      const bool close = part[0] == '}';
      if (close && tables > 0) {
        --tables;
        out.push_back(std::string(blocks.empty() ? 0 : blocks.back().indent + 2, ' ') + part);
        continue;
      }
      if (close && !blocks.empty()) {
        partIndent = blocks.back().indent;
        out.push_back(std::string(blocks.back().indent, ' ') + part);
        blocks.pop_back();
      } else {
        size_t indent = 0;
        if (!blocks.empty()) {
          Block& b = blocks.back();
          if (b.rawStep < 0) b.rawStep = rawIndent > b.rawIndent ? static_cast<int>(rawIndent - b.rawIndent) : 0;
          const size_t extra = rawIndent > b.rawIndent + b.rawStep ? rawIndent - b.rawIndent - b.rawStep : 0;
          indent = b.indent + (b.indents ? 2 : 0) + extra;
        } else {
          indent = rawIndent;
        }
        partIndent = indent;
        if (tables > 0) out.push_back(std::string(indent, ' ') + part);  // rows come laid out
        else wrap(part, indent, out);
      }
      const std::string code = codeOnly(part);
      const size_t open = code.find_last_of('{');
      if (open == std::string::npos || code.find('}', open) != std::string::npos ||
          code.find_last_not_of(' ') != open)
        continue;
      if (!opensBlock(code, open)) {
        ++tables;
      } else {
        Block b{partIndent, rawIndent};
        b.indents = !startsWith(part, "namespace");
        blocks.push_back(b);
      }
    }
  }
  std::string result;
  for (const auto& l : out) result += l + "\n";
  return result;
}

}  // namespace simdgen::emit
