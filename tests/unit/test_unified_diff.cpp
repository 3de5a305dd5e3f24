// SPDX-License-Identifier: Apache-2.0
// The unified diff of `generate --check --diff`: GNU diff -u's format on small cases, and on random
// texts the hunks, applied to the old text, give the new one.
#include <doctest/doctest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "cli/unified_diff.h"

using simdgen::cli::unifiedDiff;

namespace {

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> l;
  std::istringstream in(s);
  for (std::string x; std::getline(in, x);) l.push_back(x);
  return l;
}

// Applies a diff of texts whose last line ends with '\n'; checks each context and deleted line.
std::string apply(const std::string& before, const std::string& diff) {
  const std::vector<std::string> a = lines(before), d = lines(diff);
  std::string out;
  size_t next = 0;  // next line of `a` not yet copied
  for (size_t i = 2; i < d.size(); ++i) {
    REQUIRE(d[i].rfind("@@ -", 0) == 0);
    size_t start = std::stoul(d[i].substr(4));
    const size_t comma = d[i].find(','), space = d[i].find(' ', 4);
    if (comma == std::string::npos || comma > space || std::stoul(d[i].substr(comma + 1)) != 0) start -= 1;
    REQUIRE(start >= next);
    for (; next < start; ++next) out += a[next] + "\n";
    for (++i; i < d.size() && d[i].rfind("@@", 0) != 0; ++i) {
      if (d[i][0] == '+') {
        out += d[i].substr(1) + "\n";
        continue;
      }
      REQUIRE(next < a.size());
      CHECK(a[next] == d[i].substr(1));
      if (d[i][0] == ' ') out += a[next] + "\n";
      ++next;
    }
    --i;
  }
  for (; next < a.size(); ++next) out += a[next] + "\n";
  return out;
}

}  // namespace

TEST_CASE("unified diff: equal texts give nothing, changes give GNU diff -u hunks") {
  CHECK(unifiedDiff("a\nb\n", "a\nb\n", "old", "new").empty());
  CHECK(unifiedDiff("a\nb\nc\n", "a\nB\nc\n", "old", "new") == "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
  CHECK(unifiedDiff("", "x\ny\n", "old", "new") == "--- old\n+++ new\n@@ -0,0 +1,2 @@\n+x\n+y\n");
  CHECK(unifiedDiff("x\n", "", "old", "new") == "--- old\n+++ new\n@@ -1 +0,0 @@\n-x\n");
  CHECK(unifiedDiff("x", "x\n", "old", "new") == "--- old\n+++ new\n@@ -1 +1 @@\n-x\n\\ No newline at end of file\n+x\n");
  // Changes more than 2 * 3 unchanged lines apart are separate hunks; closer ones share one.
  std::string a, b;
  for (int i = 1; i <= 20; ++i) a += std::to_string(i) + "\n";
  b = a;
  b.replace(b.find("2\n"), 2, "two\n");
  b.replace(b.find("18\n"), 3, "eighteen\n");
  CHECK(unifiedDiff(a, b, "old", "new") ==
        "--- old\n+++ new\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -15,6 +15,6 @@\n 15\n 16\n 17\n-18\n+eighteen\n 19\n 20\n");
  std::string c = a;
  c.replace(c.find("2\n"), 2, "two\n");
  c.replace(c.find("9\n"), 2, "nine\n");
  CHECK(lines(unifiedDiff(a, c, "old", "new"))[2] == "@@ -1,12 +1,12 @@");
}

TEST_CASE("unified diff: applying the hunks to random texts reproduces the new text") {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::string a, b;
    const int n = static_cast<int>(rng() % 40), alphabet = 1 + static_cast<int>(rng() % 6);
    for (int i = 0; i < n; ++i) a += std::string(1, static_cast<char>('a' + rng() % alphabet)) + "\n";
    for (const std::string& l : lines(a)) {
      const unsigned r = rng() % 10;
      if (r == 0) continue;                                            // delete
      if (r == 1) b += std::string(1, static_cast<char>('A' + rng() % 3)) + "\n";  // insert
      b += l + "\n";
    }
    if (rng() % 2) b += "tail\n";
    const std::string d = unifiedDiff(a, b, "old", "new");
    CHECK((d.empty() == (a == b)));
    if (!d.empty()) CHECK(apply(a, d) == b);
  }
}

TEST_CASE("unified diff: texts with nothing in common fall back to one replacing hunk") {
  std::string a, b;
  for (int i = 0; i < 3000; ++i) a += "a" + std::to_string(i) + "\n", b += "b" + std::to_string(i) + "\n";
  const std::string d = unifiedDiff("same\n" + a + "end\n", "same\n" + b + "end\n", "old", "new");
  CHECK(lines(d)[2] == "@@ -1,3002 +1,3002 @@");
  CHECK(apply("same\n" + a + "end\n", d) == "same\n" + b + "end\n");
}
