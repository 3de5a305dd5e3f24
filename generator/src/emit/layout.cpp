// SPDX-License-Identifier: Apache-2.0
#include "emit/layout.h"

#include <sstream>
#include <vector>

#include "emit/line_breaks.h"

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

// Whether the parenthesis closing at s[close] ends a cast to a type clang-format recognises (a
// builtin or a name ending in _t); after other names, where a '(' follows the '~', it reads
// `(x) ~(y)` and spaces the '~' (before a name it keeps `(__mmask16)~y`).
bool castToKnownType(const std::string& s, size_t close) {
  const size_t open = s.rfind('(', close);
  if (open == std::string::npos) return false;
  const std::string name = s.substr(open + 1, close - open - 1);
  for (const char* builtin : {"int", "unsigned", "long", "short", "char", "float", "double", "bool"})
    if (name == builtin) return true;
  return name.size() > 2 && name.compare(name.size() - 2, 2, "_t") == 0;
}

// Braced initialisers without inner spaces, as clang-format writes them: `{ a, b }` -> `{a, b}`;
// and a space between a cast and '~' before a parenthesis: `(T)~(x)` -> `(T) ~(x)`.
std::string tightBraces(std::string s) {
  for (size_t k = 0; k < s.size(); ++k) {
    if (s[k] == '"' || s[k] == '\'') k = literalEnd(s, k);
    else if (s[k] == '~' && k > 0 && s[k - 1] == ')' && k + 1 < s.size() && s[k + 1] == '(' && !castToKnownType(s, k - 1))
      s.insert(k++, " ");
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

// Writes statement `s` at `indent`, broken where clang-format breaks it when it is longer than
// the column limit (a control statement's body goes under its head).
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
  std::vector<std::string> lines = breakStatement(s, indent);
  if (lines.empty()) lines.push_back(std::string(indent, ' ') + s);  // the search gave up: too long
  out.insert(out.end(), lines.begin(), lines.end());
}

// A preprocessor line; a #define longer than the column limit continues its body on the next
// line, indented 2, as clang-format writes it.
void defineLines(const std::string& line, std::vector<std::string>& out) {
  const size_t params = line.find(") ");
  if (line.size() <= kColumnLimit || !startsWith(line, "#define ") || params == std::string::npos ||
      line.find(' ', 8) < params) {
    out.push_back(line);
    return;
  }
  out.push_back(line.substr(0, params + 1) + " \\");
  out.push_back("  " + line.substr(params + 2));
}

// Blocks whose bodies clang-format does not indent (Google style): namespaces and `extern "C"`
// (NamespaceIndentation None, IndentExternBlock AfterExternBlock with BraceWrapping.AfterExternBlock
// false); it keeps blank lines after their '{'.
bool flatBlock(const std::string& head) { return startsWith(head, "namespace") || startsWith(head, "extern \"C\""); }

// A declaration whose initialiser is adjacent string literals on several lines (`const char* s =
// "a"` then more literal lines, #if lines between them, the last ending in ';'): clang-format
// breaks after '=' (AlwaysBreakBeforeMultilineStrings), keeps one literal a line at the
// continuation indent (4) and splits a literal longer than the column limit after its last space
// that fits (BreakStringLiterals: the space stays with the first piece). Returns the position of
// the opening quote of the first literal, or npos.
size_t stringInitialiserStart(const std::string& body) {
  if (body.empty() || body.back() != '"' || body[0] == '"' || body[0] == '#') return std::string::npos;
  const size_t eq = body.find(" = \"");
  if (eq == std::string::npos || codeOnly(body).find(';') != std::string::npos) return std::string::npos;
  return eq + 3;
}

// The literal `lit` (quotes included, and what follows it, e.g. ';') written at `indent`, split as
// clang-format splits a string literal that does not fit.
void stringPieces(std::string lit, size_t indent, std::vector<std::string>& out) {
  while (indent + lit.size() > kColumnLimit) {
    const size_t close = literalEnd(lit, 0);
    // Content lit[1, close); a piece is `"` + content[0, cut) + `"` and must fit.
    size_t cut = std::string::npos;
    for (size_t k = 1; k < close && indent + (k + 1) + 1 <= kColumnLimit; ++k)
      if (lit[k] == ' ') cut = k + 1;  // split after the space
    if (cut == std::string::npos || cut >= close) break;
    out.push_back(std::string(indent, ' ') + lit.substr(0, cut) + "\"");
    lit = "\"" + lit.substr(cut);
  }
  out.push_back(std::string(indent, ' ') + lit);
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
  // A control statement whose body is another one: the body goes on its own line, 2 deeper.
  for (size_t k = 0; k < raw.size(); ++k) {
    const size_t indent = leadingSpaces(raw[k]);
    const std::string body = raw[k].substr(indent);
    const size_t h = headEnd(body);
    if (h == std::string::npos || h + 1 >= body.size()) continue;
    const std::string rest = body.substr(h + 1);
    if (headEnd(rest) == std::string::npos) continue;
    raw[k] = std::string(indent, ' ') + body.substr(0, h);
    raw.insert(raw.begin() + static_cast<std::ptrdiff_t>(k) + 1, std::string(indent + 2, ' ') + rest);
  }
  std::vector<std::string> out;
  std::vector<Block> blocks;
  int tables = 0;    // open braced initialisers spanning lines (their rows are written laid out)
  size_t blank = 0;  // blank lines seen since the last written line
  size_t literalIndent = std::string::npos;  // inside a string-literal initialiser: its pieces' indent
  for (const std::string& line : raw) {
    if (line.empty()) {
      ++blank;
      continue;
    }
    const size_t rawIndent = leadingSpaces(line);
    const std::string body = line.substr(rawIndent);
    if (literalIndent != std::string::npos && body[0] != '#') {
      stringPieces(body, literalIndent, out);
      if (codeOnly(body).find(';') != std::string::npos) literalIndent = std::string::npos;
      continue;
    }
    // clang-format drops blank lines after a block's '{' (not a namespace's) and before a lone
    // '}' or '};'.
    const bool afterOpen = !out.empty() && out.back().back() == '{' && out.back()[0] != '#' &&
                           !flatBlock(out.back().substr(leadingSpaces(out.back())));
    const bool closes = body == "}" || body == "};";
    // At most one blank line, none at the start of the file or of a block, or before its end.
    if (blank && !out.empty() && !afterOpen && !closes) out.push_back("");
    blank = 0;
    if (body[0] == '#') {  // preprocessor lines stay at column 0
      defineLines(body, out);
      continue;
    }
    if (const size_t lit = stringInitialiserStart(body); lit != std::string::npos) {
      const size_t indent = blocks.empty() ? rawIndent : blocks.back().indent + (blocks.back().indents ? 2 : 0);
      out.push_back(std::string(indent, ' ') + trimRight(body.substr(0, lit)));
      literalIndent = indent + 4;
      stringPieces(body.substr(lit), literalIndent, out);
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
        if (tables > 0) {  // rows come laid out; the last one may close the table
          out.push_back(std::string(indent, ' ') + part);
          if (codeOnly(part).find('}') != std::string::npos) --tables;
          continue;
        }
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
        b.indents = !flatBlock(part);
        blocks.push_back(b);
      }
    }
  }
  std::string result;
  for (const auto& l : out) result += l + "\n";
  return result;
}

}  // namespace simdgen::emit
