// SPDX-License-Identifier: Apache-2.0
#include "emit/line_breaks.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <queue>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

namespace simdgen::emit {
namespace {

constexpr int kColumnLimit = 100;

// Where a literal starting at s[k] ends (the index of its closing quote).
size_t literalEnd(const std::string& s, size_t k) {
  const char quote = s[k];
  for (++k; k < s.size() && s[k] != quote; ++k)
    if (s[k] == '\\') ++k;
  return k;
}

struct Tok {
  std::string text;
  bool space = false;    // a space before it when on the same line
  int depth = 0;         // open brackets before it
  int breakPenalty = -1; // < 0: no break before it
  char kind = 0;         // what a break before it follows: ',' '(' '=' '&' (&& ||) 'b' (binary) ':' 'N' (name)
  bool opens = false, closes = false;
  bool twoOperands = false;  // after the only ',' of two arguments or the only '&&' of two operands
  bool firstOfSeveral = false;  // the first argument of a call with several
  int precedence = 0;           // of a binary operator (clang's prec levels), else 0
};

// clang-format's precedence levels of the binary operators simdgen writes (spaced on both sides).
int binaryPrecedence(const std::string& op) {
  if (op == "*" || op == "/" || op == "%") return 14;
  if (op == "+" || op == "-") return 13;
  if (op == "<<" || op == ">>") return 12;
  if (op == "<" || op == ">" || op == "<=" || op == ">=") return 10;
  if (op == "==" || op == "!=") return 9;
  if (op == "&") return 8;
  if (op == "^") return 7;
  if (op == "|") return 6;
  return 0;
}

bool identChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.'; }

std::vector<Tok> tokenize(const std::string& s) {
  static const char* ops[] = {"<<=", ">>=", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+=", "-=", "*=",
                              "/=", "|=", "&=", "^=", "->", "++", "--", "::"};
  std::vector<Tok> t;
  bool space = false;
  for (size_t k = 0; k < s.size();) {
    if (s[k] == ' ') {
      space = true;
      ++k;
      continue;
    }
    size_t e = k + 1;
    if (s[k] == '"' || s[k] == '\'') e = literalEnd(s, k) + 1;
    else if (s.compare(k, 2, "/*") == 0) e = s.find("*/", k) == std::string::npos ? s.size() : s.find("*/", k) + 2;
    else if (identChar(s[k])) while (e < s.size() && identChar(s[e])) ++e;
    else
      for (const char* op : ops)
        if (s.compare(k, std::strlen(op), op) == 0) {
          e = k + std::strlen(op);
          break;
        }
    Tok tok;
    tok.text = s.substr(k, e - k);
    tok.space = space;
    t.push_back(tok);
    space = false;
    k = e;
  }
  return t;
}

bool isKeyword(const std::string& w) {
  return w == "if" || w == "for" || w == "while" || w == "switch" || w == "return" || w == "sizeof";
}

// How many operators like t[op] (',' or '&&'/'||') separate the operands of its list: those at its
// depth between the enclosing brackets (for '&&', also between the commas).
int operatorsAround(const std::vector<Tok>& t, size_t op) {
  const std::string& x = t[op].text;
  const auto stops = [&](const Tok& k) { return k.text == ";" || (x != "," && k.text == ","); };
  int n = 0;
  for (size_t j = op, d = 0; j-- > 0;) {
    if (t[j].closes) ++d;
    else if (t[j].opens && d-- == 0) break;
    else if (d == 0 && stops(t[j])) break;
    else if (d == 0 && (t[j].text == x || (x != "," && (t[j].text == "&&" || t[j].text == "||")))) ++n;
  }
  for (size_t j = op, d = 0; j < t.size(); ++j) {
    if (j > op && t[j].opens) ++d;
    else if (t[j].closes && d-- == 0) break;
    else if (d == 0 && j > op && stops(t[j])) break;
    else if (d == 0 && (t[j].text == x || (x != "," && (t[j].text == "&&" || t[j].text == "||")))) ++n;
  }
  return n;
}

// How many operators of t[op]'s precedence its chain has: those at its depth, up to the
// delimiters of the expression.
int samePrecedenceAround(const std::vector<Tok>& t, size_t op) {
  const auto delimits = [](const Tok& k) {
    return k.text == "," || k.text == ";" || k.text == "=" || k.text == "&&" || k.text == "||" || k.text == "?" ||
           k.text == ":";
  };
  const int prec = t[op].precedence;
  int n = 0;
  for (size_t j = op + 1, d = 0; j-- > 0;) {
    if (t[j].closes) ++d;
    else if (t[j].opens && d-- == 0) break;
    else if (d == 0 && delimits(t[j])) break;
    else if (d == 0 && t[j].precedence > 0 && t[j].precedence < prec) break;
    else if (d == 0 && t[j].precedence == prec) ++n;
  }
  for (size_t j = op + 1, d = 0; j < t.size(); ++j) {
    if (t[j].opens) ++d;
    else if (t[j].closes && d-- == 0) break;
    else if (d == 0 && delimits(t[j])) break;
    else if (d == 0 && t[j].precedence > 0 && t[j].precedence < prec) break;
    else if (d == 0 && t[j].precedence == prec) ++n;
  }
  return n;
}

// Whether the binary operator t[op] binds an operand of a looser binary operator at its depth
// (the `*` of `a * b + c`).
bool insideLooserChain(const std::vector<Tok>& t, size_t op) {
  const int prec = t[op].precedence;
  const auto ends = [](const Tok& k) { return k.text == "," || k.text == ";" || k.text == "=" || k.text == "?" || k.text == ":"; };
  for (size_t j = op + 1, d = 0; j-- > 0;) {
    if (t[j].closes) ++d;
    else if (t[j].opens && d-- == 0) break;
    else if (d == 0 && ends(t[j])) break;
    else if (d == 0 && t[j].precedence > 0 && t[j].precedence < prec) return true;
  }
  for (size_t j = op + 1, d = 0; j < t.size(); ++j) {
    if (t[j].opens) ++d;
    else if (t[j].closes && d-- == 0) break;
    else if (d == 0 && ends(t[j])) break;
    else if (d == 0 && t[j].precedence > 0 && t[j].precedence < prec) return true;
  }
  return false;
}

// Which tokens a line may break before and at what penalty: clang-format's split penalty,
// 20 per binding level plus the token's own (after '(' 1 with several arguments, else 19, 100
// in a declaration, the same after a braced initialiser's '{'; before a declared name 200; after
// ',' 1, '=' 2 (160 before a '{'), '||' 4, '&&' 5 and other binary operators their precedence;
// before a conditional's ':' 3).
void annotate(std::vector<Tok>& t, bool declaration, bool usingAlias) {
  int depth = 0;
  for (size_t i = 0; i < t.size(); ++i) {
    const std::string& x = t[i].text;
    t[i].closes = x == ")" || x == "]" || x == "}";
    if (t[i].closes) --depth;
    t[i].depth = depth;
    t[i].opens = x == "(" || x == "[" || x == "{";
    if (t[i].opens) ++depth;
  }
  for (size_t i = 1; i + 1 < t.size(); ++i)
    if (t[i].space && t[i + 1].space) t[i].precedence = binaryPrecedence(t[i].text);
  for (size_t i = 1; i < t.size(); ++i) {
    const std::string& p = t[i - 1].text;
    const int base = 20 * (1 + t[i].depth);
    if (t[i].closes || t[i].text == ";" || t[i].text == ",") continue;
    bool inSquare = false;  // no breaks inside [...]
    {
      int d = 0;
      for (size_t j = i; j-- > 0;) {
        if (t[j].closes) ++d;
        else if (t[j].opens && d-- == 0) {
          inSquare = t[j].text == "[";
          break;
        }
      }
    }
    if (inSquare) continue;
    const bool afterType = identChar(p.back()) || p == "*" || p == "&";
    if (declaration && t[i].depth == 0 && i + 1 < t.size() && t[i + 1].text == "(" && identChar(t[i].text[0]) &&
        t[i].text != "__attribute__" && !usingAlias && afterType) {
      t[i].breakPenalty = base + 200;  // the return type on its own line
      t[i].kind = 'N';
    } else if (p == ",") {
      t[i].twoOperands = operatorsAround(t, i - 1) == 1;
      t[i].breakPenalty = base + 1;
      t[i].kind = ',';
    } else if (p == "(" && i >= 2 &&
               (identChar(t[i - 2].text.back()) || (i >= 4 && t[i - 2].text == ")" && t[i - 3].text == "*" && t[i - 4].text == "(") ||
                (i >= 4 && t[i - 2].text == ")" && t[i - 3].text == "(" && identChar(t[i - 4].text.back()))) &&  // f()(args)
               !isKeyword(t[i - 2].text) && t[i - 2].text != "__attribute__") {
      int args = 1;
      for (size_t j = i, d = 0; j < t.size(); ++j) {
        if (t[j].opens) ++d;
        else if (t[j].closes && d-- == 0) break;
        else if (d == 0 && t[j].text == ",") ++args;
      }
      t[i].breakPenalty = base + (declaration ? 100 : args > 1 ? 1 : 19);
      t[i].firstOfSeveral = args > 1;
      t[i].kind = '(';
    } else if (p == "(" && i >= 3 && t[i - 2].text == "(" && t[i - 3].text == "__attribute__") {
      // Inside __attribute__((...)): a target string too long for the signature's line breaks here,
      // as clang-format does (the attribute's own parentheses, one level above target(...)'s).
      t[i].breakPenalty = base + (declaration ? 100 : 19);
      t[i].kind = '(';
    } else if (p == "{" && i >= 2 && t[i - 2].text == "=") {
      // A braced initialiser (Cpp11BracedListStyle) breaks after its '{' as a call after its '('.
      int args = 1;
      for (size_t j = i, d = 0; j < t.size(); ++j) {
        if (t[j].opens) ++d;
        else if (t[j].closes && d-- == 0) break;
        else if (d == 0 && t[j].text == ",") ++args;
      }
      t[i].breakPenalty = base + (args > 1 ? 1 : 19);
      t[i].firstOfSeveral = args > 1;
      t[i].kind = '(';
    } else if ((p == "=" || (p.size() == 2 && p[1] == '=' && p != "==" && p != "!=" && p != "<=" && p != ">=")) &&
               t[i - 1].depth == 0) {
      // A function type alias counts as a function declaration: 110 after its '='; before a braced
      // initialiser 160.
      t[i].breakPenalty = base + (usingAlias ? 110 : t[i].text == "{" ? 160 : 2);
      t[i].kind = '=';
    } else if (p == "&&" || p == "||") {
      t[i].twoOperands = operatorsAround(t, i - 1) == 1;
      t[i].breakPenalty = base + (p == "&&" ? 5 : 4);
      t[i].kind = '&';
    } else if (t[i - 1].precedence > 0) {  // after a binary operator, under the first operand
      // Inside an operand of a looser operator (a product in a sum), clang-format's fake parentheses
      // make the break cost more than one at the sum's own operators.
      t[i].breakPenalty = base + t[i - 1].precedence + (insideLooserChain(t, i - 1) ? 40 : 0);
      t[i].kind = 'b';
      t[i].twoOperands = t[i - 1].precedence == 10 || samePrecedenceAround(t, i - 1) == 1;
    } else if (t[i].text == ":") {  // before a conditional's ':', under its '?'
      t[i].breakPenalty = base + 3;
      t[i].kind = t[i].text[0];
    }
  }
}

// One open bracket (the statement itself at the bottom), as clang-format's ParenState.
struct Level {
  int align;     // where arguments continue after a ',' break: after the '(' (AlignAfterOpenBracket),
                 // or where the line broken right after the '(' began
  int indent;    // where a break right after the '(' continues: argStart + 4 (ContinuationIndentWidth)
  int argStart;  // where the current argument began (clang-format's LastSpace)
  int question = -1;  // column of a conditional's '?'
  int exprStart = 0;  // where the current operand chain began (binary operators continue under it)
  bool several = false;   // a call with several arguments: operands continue 4 further (clang-format)
  bool broke = false;     // a line broke inside a nested level: each argument starts a line
  // Whether a line broke on this level after its '(' and between its arguments and operands:
  // clang-format charges 15 more for the first break of each (fake) parenthesis level.
  bool brokeOpen = false, brokeList = false, brokeLogic = false;
  // An argument or operand placed after its ',' or '&&' on the same line stays on that line.
  bool noBreakInOperand = false, noBreak = false;
  bool operator==(const Level&) const = default;
};

// A partial layout: tokens before `next` placed, the last ending at `column`. Its open levels are
// levels[first, first + depth) of the search's pool (one allocation for all states, not one each).
struct State {
  size_t next;
  int column, startLevel, lowest;  // levels of the line's first token and the lowest on the line
  size_t first, depth;
  long long penalty;
  int parent;     // index of the state it came from
  bool newline;   // whether token next-1 began a line
};

// Room for `n` more levels and one pushed by `place`, growing geometrically.
void reserveOneMore(std::vector<Level>& pool, size_t n) {
  if (pool.capacity() < pool.size() + n + 1) pool.reserve(std::max(pool.size() + n + 1, 2 * pool.capacity()));
}

// Copies state `from` with its levels at the end of the pool (where `place` may push one more).
State copyToEnd(const State& from, std::vector<Level>& pool) {
  State s = from;
  s.first = pool.size();
  reserveOneMore(pool, from.depth);
  for (size_t l = 0; l < from.depth; ++l) pool.push_back(pool[from.first + l]);
  return s;
}

// Places token i of t on the state's line or a new one; false if that is not allowed. The state's
// levels end the pool.
bool place(const std::vector<Tok>& t, State& s, std::vector<Level>& pool, bool newline) {
  const Tok& tok = t[s.next];
  Level& top = pool[s.first + s.depth - 1];
  if (newline) {
    if (tok.breakPenalty < 0 || top.noBreak) return false;
    // No break after an opening bracket on a line that left the level it started at (canBreak).
    if (s.next >= 1 && t[s.next - 1].opens && s.lowest < s.startLevel && s.lowest < tok.depth) return false;
    int col = top.align;
    if (tok.kind == '(') col = top.indent;
    if (tok.kind == ':' && top.question >= 0) col = top.question;
    if (tok.kind == 'N') col = pool[s.first].argStart;  // a function's name starts the line
    if (tok.kind == 'b') col = top.exprStart + (top.several ? 4 : 0);
    s.column = col;
    bool& first = tok.kind == ',' ? top.brokeList
                  : tok.kind == '&' || tok.kind == 'b' || tok.kind == ':' ? top.brokeLogic
                                                                          : top.brokeOpen;
    s.penalty += tok.breakPenalty + (first ? 0 : 15);
    first = true;
    for (size_t l = 0; l + 1 < s.depth; ++l) pool[s.first + l].broke = true;
    // This line starts the next argument: later ones may pack again; a break inside an argument
    // (at a binary operator: clang-format's fake parenthesis around the operands) puts the
    // arguments after it on lines of their own.
    top.broke = tok.kind == 'b';
    if (tok.kind == '(') top.align = col;
    top.argStart = col;
    s.startLevel = s.lowest = tok.depth;
  } else {
    // A parameter after one that broke inside starts its own line.
    if ((tok.kind == ',' || tok.kind == '&') && top.broke) return false;
    // Nested calls indent from where this argument starts, and from the first argument of a call
    // with several.
    if (tok.kind == ',' || tok.kind == '&' || tok.firstOfSeveral) top.argStart = s.column + (tok.space ? 1 : 0);
    s.column += tok.space ? 1 : 0;
  }
  if (tok.kind == ',' || tok.kind == '&' || tok.kind == 'b') top.noBreakInOperand = !newline && !tok.twoOperands;
  const bool startsOperand = tok.kind == ',' || tok.kind == '=' || (s.next >= 1 && t[s.next - 1].opens);
  if (startsOperand) top.exprStart = s.column;
  if (tok.kind == ',') top.brokeLogic = false;  // a new argument: its operators are a new level
  if (tok.text == "?") top.question = s.column;
  s.column += static_cast<int>(tok.text.size());
  if (s.column > kColumnLimit) s.penalty += 1000000LL * (s.column - kColumnLimit);
  s.lowest = std::min(s.lowest, tok.depth);
  if (tok.opens) {
    // A break after '(' continues 4 columns after where the enclosing argument began; the first
    // argument on the same line keeps that start (clang-format's LastSpace).
    Level inner{s.column, top.argStart + 4, top.argStart};
    inner.noBreak = top.noBreak || top.noBreakInOperand;
    inner.several = s.next + 1 < t.size() && t[s.next + 1].firstOfSeveral;
    pool.push_back(inner);  // reserved by copyToEnd: `top` stays valid
    ++s.depth;
  }
  if (tok.closes && s.depth > 1) {
    --s.depth;
    pool.pop_back();
  }
  s.newline = newline;
  ++s.next;
  return true;
}

// Two states alike in where they stand and in their open levels lay out the rest of the statement
// alike, so the search expands only the cheaper (first) one.
struct SameSpot {
  const std::vector<State>& states;
  const std::vector<Level>& pool;
  size_t operator()(int k) const {
    const State& s = states[static_cast<size_t>(k)];
    size_t h = s.next * 1000003u ^ static_cast<size_t>(s.column) * 8191u ^ static_cast<size_t>(s.startLevel) * 131u ^
               static_cast<size_t>(s.lowest) ^ s.depth * 0x9E3779B9u;
    for (size_t l = 0; l < s.depth; ++l) {
      const Level& v = pool[s.first + l];
      h = h * 31 + static_cast<size_t>(v.align * 7 + v.indent * 13 + v.argStart * 17 + v.question * 19 + v.exprStart * 23);
      h = h * 31 + (v.several | v.broke << 1 | v.brokeOpen << 2 | v.brokeList << 3 | v.brokeLogic << 4 |
                    v.noBreakInOperand << 5 | v.noBreak << 6);
    }
    return h;
  }
  bool operator()(int a, int b) const {
    const State& x = states[static_cast<size_t>(a)];
    const State& y = states[static_cast<size_t>(b)];
    return x.next == y.next && x.column == y.column && x.startLevel == y.startLevel && x.lowest == y.lowest &&
           x.depth == y.depth &&
           std::equal(pool.begin() + static_cast<std::ptrdiff_t>(x.first),
                      pool.begin() + static_cast<std::ptrdiff_t>(x.first + x.depth),
                      pool.begin() + static_cast<std::ptrdiff_t>(y.first));
  }
};

std::vector<std::string> search(const std::string& s, size_t indent) {
  std::vector<Tok> t = tokenize(s);
  if (t.empty() || t.size() > 400) return {};
  const bool usingAlias = t[0].text == "using";
  // A function's declaration or definition: `T name(...);` or `T name(...) {` with no '=' outside
  // brackets (clang-format charges more for breaks in its parameter list).
  bool assigns = false;
  for (const Tok& k : t) assigns = assigns || (k.depth == 0 && k.text == "=");
  const bool control = isKeyword(t[0].text) || t[0].text == "else" || t[0].text == "do";
  const bool declaration = usingAlias || (!assigns && !control && (s.back() == '{' || s.back() == ';') &&
                                          (s.back() == '{' || t[0].text == "void" || t[0].text == "const"));
  annotate(t, declaration, usingAlias);
  std::vector<State> states;
  std::vector<Level> pool;
  Level statement{static_cast<int>(indent) + 4, static_cast<int>(indent) + 4, static_cast<int>(indent)};
  statement.exprStart = static_cast<int>(indent);
  pool.reserve(2);
  pool.push_back(statement);
  State first{0, static_cast<int>(indent), 0, 0, 0, 1, 0, -1, false};
  place(t, first, pool, false);
  first.column = static_cast<int>(indent + t[0].text.size());
  states.push_back(first);
  // Best first, as clang-format's OptimizingLineFormatter: the cheapest state, ties to the one
  // queued first (staying on the line is queued before breaking); a state already expanded more
  // cheaply is skipped. The first complete layout wins.
  using Item = std::tuple<long long, long long, int>;  // penalty, order, state
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue;
  queue.push({0, 0, 0});
  long long order = 1;
  const SameSpot sameSpot{states, pool};
  std::unordered_set<int, SameSpot, SameSpot> seen(1024, sameSpot, sameSpot);
  while (!queue.empty() && order < 200000) {
    const int at = std::get<2>(queue.top());
    queue.pop();
    if (states[static_cast<size_t>(at)].next == t.size()) {
      std::vector<bool> breaks(t.size(), false);
      for (int k = at; k >= 0 && states[static_cast<size_t>(k)].parent >= 0; k = states[static_cast<size_t>(k)].parent)
        breaks[states[static_cast<size_t>(k)].next - 1] = states[static_cast<size_t>(k)].newline;
      // Replay to get the columns.
      State r = copyToEnd(first, pool);
      std::vector<std::string> lines{std::string(indent, ' ') + t[0].text};
      for (size_t i = 1; i < t.size(); ++i) {
        reserveOneMore(pool, 0);
        place(t, r, pool, breaks[i]);
        if (breaks[i]) lines.push_back(std::string(static_cast<size_t>(r.column) - t[i].text.size(), ' ') + t[i].text);
        else lines.back() += (t[i].space ? " " : "") + t[i].text;
      }
      return lines;
    }
    if (!seen.insert(at).second) continue;
    for (bool newline : {false, true}) {
      State n = copyToEnd(states[static_cast<size_t>(at)], pool);
      n.parent = at;
      if (!place(t, n, pool, newline)) {
        pool.resize(n.first);
        continue;
      }
      const long long penalty = n.penalty;
      states.push_back(std::move(n));
      queue.push({penalty, order++, static_cast<int>(states.size() - 1)});
    }
  }
  return {};
}

}  // namespace

std::vector<std::string> breakStatement(const std::string& s, size_t indent) {
  // A generated file repeats many statements (each variant of a kernel, the header and the
  // source): the search runs once per statement and indent in a process.
  thread_local std::unordered_map<std::string, std::vector<std::string>> done;
  std::string key = std::to_string(indent) + ' ' + s;
  if (const auto it = done.find(key); it != done.end()) return it->second;
  if (done.size() > 100000) done.clear();
  std::vector<std::string> lines = search(s, indent);
  done.emplace(std::move(key), lines);
  return lines;
}

}  // namespace simdgen::emit
