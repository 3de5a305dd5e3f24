// SPDX-License-Identifier: Apache-2.0
#pragma once
// What a recognised loop becomes: its spec (JSON text) and the code that replaces the loop.
#include <initializer_list>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "clang/lift/loop_model.h"
#include "clang/lift/recognize.h"

namespace simdgen::lift {

// The keys every reduce/arg_reduce spec of a lift starts with (name to nan).
nlohmann::ordered_json specHead(const Recognition& r, const std::string& name, const std::string& description,
                                const std::string& indexType);
std::string specJson(const Recognition& r, const std::string& name, const std::string& description);

// A block that calls kernel `name` over the loop's range and combines its result with the
// accumulators' values before the loop, exactly as the loop would have. `local` prefixes the
// block's own variables (a prefix the function does not use).
std::string replacementCode(const LoopModel& loop, const Recognition& r, const std::string& name, const std::string& local);

// `code` (a block that starts with its `// simdgen lift:` line) made only when the loop's
// accumulators in memory share no byte with what it reads (loop.callGuard), else the loop as
// written; `code` itself when it has none.
std::string callGuarded(const LoopModel& loop, const std::string& code);

// A C identifier for a spec's tensor named after `text`: itself, or for an accumulator in memory
// the field (`st->energy`: energy) or the array (`mean[i]`, `*sum`: mean, sum) it names.
std::string identifierFor(const std::string& text);

// Whether t is a non-empty run of decimal digits (a non-negative integer literal's text).
bool isDecimal(const std::string& t);

// `t`, parenthesized unless it is an identifier or a number.
std::string paren(const std::string& t);

// The run-time test that the ranges [a, aEnd) and [b, bEnd) of two arrays share no byte.
std::string disjointRanges(const std::string& a, const std::string& aEnd, const std::string& b, const std::string& bEnd);

// The loop's first counter value, and its trip count as an int64_t expression (0 when empty).
std::string rangeStart(const LoopModel& loop);
std::string rangeCount(const LoopModel& loop);
// `text` with each mark of a loop variable (\x01name\x02, as the conditions tested at the ends of a
// range are kept) replaced by its value in `values`, parenthesized, or by the name itself.
std::string fillCounters(const std::string& text, const std::map<std::string, std::string>& values);

// The test that conditions linear in the counter (its mentions marked as fillCounters reads them)
// hold over the whole range: they hold at its first and last value, or the range is empty.
std::string everywhereGuard(const std::vector<std::string>& conditions, const LoopModel& loop);

// After a kernel call over non-empty ranges: the counters declared before their loops get the
// values the loops would have left (`    i = (int)(n);\n` lines; empty when there are none).
std::string counterFinals(std::initializer_list<const LoopModel*> loops);

// The C type of a dtype: i8 -> int8_t, f64 -> double.
std::string cType(const std::string& dtype);

}  // namespace simdgen::lift
