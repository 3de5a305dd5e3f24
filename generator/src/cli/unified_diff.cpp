// SPDX-License-Identifier: Apache-2.0
// Myers' O((N+M)D) shortest edit script over lines, then hunks with context as GNU diff -u writes
// them (so `patch` and reviewers read them as usual).
#include "cli/unified_diff.h"

#include <algorithm>
#include <string_view>
#include <vector>

namespace simdgen::cli {

namespace {

struct Lines {
  std::vector<std::string_view> text;  // without their '\n'
  bool lastHasNewline = true;
  // A last line without '\n' differs from the same text with one (diff -u shows both).
  bool unterminated(int i) const { return !lastHasNewline && i + 1 == static_cast<int>(text.size()); }
};

bool same(const Lines& a, int i, const Lines& b, int j) {
  return a.text[static_cast<size_t>(i)] == b.text[static_cast<size_t>(j)] && a.unterminated(i) == b.unterminated(j);
}

Lines split(const std::string& s) {
  Lines l;
  size_t start = 0;
  while (start < s.size()) {
    const size_t end = s.find('\n', start);
    if (end == std::string::npos) {
      l.text.emplace_back(s.data() + start, s.size() - start);
      l.lastHasNewline = false;
      break;
    }
    l.text.emplace_back(s.data() + start, end - start);
    start = end + 1;
  }
  return l;
}

enum class Kind { same, del, ins };
struct Edit {
  Kind kind;
  int a, b;  // line indices before and after (the one not involved is where it would be)
};

// Beyond this many edits the trace (O(D^2) ints) gets large: the files are essentially different,
// so one change replacing everything between the common prefix and suffix says as much.
constexpr int kMaxEdits = 2000;

std::vector<Edit> wholesale(const Lines& a, const Lines& b) {
  const int n = static_cast<int>(a.text.size()), m = static_cast<int>(b.text.size());
  int pre = 0, suf = 0;
  while (pre < n && pre < m && same(a, pre, b, pre)) ++pre;
  while (suf < n - pre && suf < m - pre && same(a, n - 1 - suf, b, m - 1 - suf)) ++suf;
  std::vector<Edit> e;
  for (int i = 0; i < pre; ++i) e.push_back({Kind::same, i, i});
  for (int i = pre; i < n - suf; ++i) e.push_back({Kind::del, i, pre});
  for (int j = pre; j < m - suf; ++j) e.push_back({Kind::ins, n - suf, j});
  for (int i = 0; i < suf; ++i) e.push_back({Kind::same, n - suf + i, m - suf + i});
  return e;
}

std::vector<Edit> editScript(const Lines& a, const Lines& b) {
  const int n = static_cast<int>(a.text.size()), m = static_cast<int>(b.text.size());
  const int max = n + m;
  std::vector<int> v(2 * static_cast<size_t>(max) + 3, 0);
  auto at = [&](int k) -> int& { return v[static_cast<size_t>(k + max + 1)]; };
  std::vector<std::vector<int>> trace;  // trace[d][k + d]: furthest x on diagonal k after d edits
  for (int d = 0; d <= max; ++d) {
    if (d > kMaxEdits) return wholesale(a, b);
    bool done = false;
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? at(k + 1) : at(k - 1) + 1;
      int y = x - k;
      while (x < n && y < m && same(a, x, b, y)) ++x, ++y;
      at(k) = x;
      done = done || (x >= n && y >= m);
    }
    trace.emplace_back(v.begin() + (max + 1 - d), v.begin() + (max + 1 + d + 1));
    if (done) break;
  }
  // Walk back from (n, m): each step is a snake preceded by one insertion or deletion.
  std::vector<Edit> e;
  int x = n, y = m;
  for (int d = static_cast<int>(trace.size()) - 1; d >= 0; --d) {
    int px = 0, py = 0;
    bool insertion = false;
    if (d > 0) {
      const std::vector<int>& prev = trace[static_cast<size_t>(d - 1)];  // k in [-(d-1), d-1]
      auto pv = [&](int k) { return prev[static_cast<size_t>(k + d - 1)]; };
      const int k = x - y;
      insertion = k == -d || (k != d && pv(k - 1) < pv(k + 1));
      const int pk = insertion ? k + 1 : k - 1;
      px = pv(pk);
      py = px - pk;
    }
    const int sx = d > 0 ? (insertion ? px : px + 1) : 0, sy = d > 0 ? (insertion ? py + 1 : py) : 0;
    while (x > sx && y > sy) --x, --y, e.push_back({Kind::same, x, y});
    if (d > 0) e.push_back(insertion ? Edit{Kind::ins, px, py} : Edit{Kind::del, px, py});
    x = px, y = py;
  }
  std::reverse(e.begin(), e.end());
  return e;
}

// "@@ -start,count" in GNU form: the count is left out when 1; an empty range names the line before.
// (Appended piecewise: GCC 12 warns falsely on `"literal" + std::string`, bug 105329.)
std::string range(int first, int count) {
  std::string r = std::to_string(count ? first + 1 : first);
  if (count != 1) r.append(",").append(std::to_string(count));
  return r;
}

}  // namespace

std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& beforeLabel,
                        const std::string& afterLabel, int context) {
  if (before == after) return "";
  const Lines a = split(before), b = split(after);
  const std::vector<Edit> e = editScript(a, b);
  const int total = static_cast<int>(e.size());
  std::string out;
  out.append("--- ").append(beforeLabel).append("\n+++ ").append(afterLabel).append("\n");
  auto line = [&](char mark, const Lines& l, int i) {
    out.append(1, mark).append(l.text[static_cast<size_t>(i)]).append("\n");
    if (i + 1 == static_cast<int>(l.text.size()) && !l.lastHasNewline) out += "\\ No newline at end of file\n";
  };
  for (int i = 0; i < total;) {
    if (e[static_cast<size_t>(i)].kind == Kind::same) {
      ++i;
      continue;
    }
    // A hunk: from `context` lines before this change to `context` lines after the last change
    // that is at most 2 * context unchanged lines from the next.
    const int begin = std::max(0, i - context);
    int end = i;
    for (int j = i; j < total; ++j) {
      if (e[static_cast<size_t>(j)].kind != Kind::same) end = j + 1;
      else if (j - end >= 2 * context) break;
    }
    end = std::min(total, end + context);
    int countA = 0, countB = 0;
    for (int j = begin; j < end; ++j) {
      countA += e[static_cast<size_t>(j)].kind != Kind::ins;
      countB += e[static_cast<size_t>(j)].kind != Kind::del;
    }
    const Edit& first = e[static_cast<size_t>(begin)];
    out.append("@@ -").append(range(first.a, countA)).append(" +").append(range(first.b, countB)).append(" @@\n");
    for (int j = begin; j < end; ++j) {
      const Edit& x = e[static_cast<size_t>(j)];
      if (x.kind == Kind::same) line(' ', a, x.a);
      else if (x.kind == Kind::del) line('-', a, x.a);
      else line('+', b, x.b);
    }
    i = end;
  }
  return out;
}

}  // namespace simdgen::cli
