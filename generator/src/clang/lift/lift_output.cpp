// SPDX-License-Identifier: Apache-2.0
#include "clang/lift/lift_output.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <nlohmann/json.hpp>

namespace simdgen::lift {

std::string cType(const std::string& dtype) {
  if (dtype == "f32") return "float";
  if (dtype == "f64") return "double";
  return (dtype[0] == 'u' ? "uint" : "int") + dtype.substr(1) + "_t";
}

nlohmann::ordered_json specHead(const Recognition& r, const std::string& name, const std::string& description,
                                const std::string& indexType) {
  nlohmann::ordered_json j;
  j["simdgen"] = 1;
  j["name"] = name;
  j["description"] = description;
  j["kind"] = r.kind;
  j["op"] = r.op;
  if (r.kind == "arg_reduce") {
    j["index"] = r.lastIndex ? "last" : "first";
    j["index_type"] = indexType;
    if (r.element.isFloat) j["nan"] = "ignore";
  }
  return j;
}

std::string specJson(const Recognition& r, const std::string& name, const std::string& description) {
  nlohmann::ordered_json j = specHead(r, name, description, "i64");
  j["input"] = {{"dtype", r.element.dtype}, {"shape", {"n"}}};
  if (r.kind == "reduce") j["output"] = {{"dtype", r.outDtype}};
  return j.dump(2) + "\n";
}

namespace {

bool isWord(const std::string& t) {  // an identifier or a number: needs no parentheses
  if (t.empty()) return false;
  for (char c : t)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}
}  // namespace

bool isDecimal(const std::string& t) {
  return !t.empty() && std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

std::string counterFinals(std::initializer_list<const LoopModel*> loops) {
  std::string code;
  for (const LoopModel* loop : loops)
    if (!loop->counterFinal.empty()) code += "    " + loop->counterFinal + "\n";
  return code;
}

std::string paren(const std::string& t) { return isWord(t) ? t : "(" + t + ")"; }

std::string disjointRanges(const std::string& a, const std::string& aEnd, const std::string& b, const std::string& bEnd) {
  return "((uintptr_t)(" + aEnd + ") <= (uintptr_t)" + paren(b) + " || (uintptr_t)(" + bEnd + ") <= (uintptr_t)" + paren(a) + ")";
}

std::string identifierFor(const std::string& text) {
  auto word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  size_t end = text.size();
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == ')')) --end;
  size_t begin = end;
  while (begin > 0 && word(text[begin - 1])) --begin;
  const bool member = begin >= 1 && (text[begin - 1] == '.' || (begin >= 2 && text.compare(begin - 2, 2, "->") == 0));
  if (!member) {  // the first identifier: the array or pointer
    begin = 0;
    while (begin < text.size() && !(word(text[begin]) && !std::isdigit(static_cast<unsigned char>(text[begin])))) ++begin;
    end = begin;
    while (end < text.size() && word(text[end])) ++end;
  }
  const std::string name = text.substr(begin, end - begin);
  return name.empty() || std::isdigit(static_cast<unsigned char>(name[0])) ? "acc" : name;
}

std::string callGuarded(const LoopModel& loop, const std::string& code) {
  if (loop.callGuard.empty()) return code;
  // "{\n  // simdgen lift: ...\n" + body + "}": the mark stays the block's first line (earlierLift).
  const size_t head = code.find('\n', 2) + 1, close = code.rfind('}');
  std::string body;
  for (size_t p = head; p < close;) {
    const size_t e = std::min(code.find('\n', p), close - 1);  // a last line without its newline ends at `}`
    body += "  " + code.substr(p, e + 1 - p);
    p = e + 1;
  }
  if (!body.empty() && body.back() != '\n') body += "\n";
  return code.substr(0, head) + "  if (" + loop.callGuard + ") {\n" + body + "  } else {\n    " + loop.loopText + "\n  }\n}";
}

std::string rangeStart(const LoopModel& loop) {
  // A small literal start compares with the bound as the counter would; anything else is
  // converted to the counter's type first, as `T i = start` does.
  return isDecimal(loop.startText) && loop.startText.size() < 10 ? loop.startText
                                                                 : "(" + loop.inductionType.spelling + ")" + paren(loop.startText);
}

std::string rangeCount(const LoopModel& loop) {
  if (loop.iterationCount) return loop.endText;
  const std::string start = rangeStart(loop), end = paren(loop.endText);
  if (isDecimal(loop.startText) && isDecimal(loop.endText) && loop.startText.size() < 10 && loop.endText.size() < 10) {
    const long long c = std::stoll(loop.endText) - std::stoll(loop.startText) + (loop.inclusive ? 1 : 0);
    return std::to_string(c > 0 ? c : 0);
  }
  if (loop.startText == "0" && !loop.inclusive) return end + " > 0 ? (int64_t)" + end + " : 0";
  return start + (loop.inclusive ? " <= " : " < ") + end + " ? (int64_t)(" + end + " - " + start + ")" + (loop.inclusive ? " + 1" : "") +
         " : 0";
}

std::string fillCounters(const std::string& text, const std::map<std::string, std::string>& values) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    const size_t open = text.find('\x01', at);
    if (open == std::string::npos) {
      out += text.substr(at);
      break;
    }
    const size_t close = text.find('\x02', open);
    if (close == std::string::npos) throw std::logic_error("fillCounters: an unclosed mark in " + text);
    out += text.substr(at, open - at);
    const std::string name = text.substr(open + 1, close - open - 1);
    const auto value = values.find(name);
    out += value == values.end() ? name : "(" + value->second + ")";
    at = close + 1;
  }
  return out;
}

std::string everywhereGuard(const std::vector<std::string>& conditions, const LoopModel& loop) {
  const std::string first = rangeStart(loop), end = paren(loop.endText);
  const std::string last = "(" + loop.inductionType.spelling + ")" + end + (loop.inclusive ? "" : " - 1");
  std::string ends;
  for (const std::string& c : conditions) {
    const std::string atFirst = fillCounters(c, {{loop.inductionName, first}}), atLast = fillCounters(c, {{loop.inductionName, last}});
    ends += (ends.empty() ? "" : " && ") + atFirst + (atLast == atFirst ? "" : " && " + atLast);
  }
  return "(!(" + first + (loop.inclusive ? " <= " : " < ") + end + ") || (" + ends + "))";
}

std::string replacementCode(const LoopModel& loop, const Recognition& r, const std::string& name, const std::string& local) {
  const std::string n = local + "n", res = local + "r", idx = local + "i";
  const std::string& indT = loop.inductionType.spelling;
  const bool zeroStart = loop.startText == "0";
  const std::string start = rangeStart(loop);
  const long long firstOffset = r.offset;
  // The first element read: base (+ row offset, in baseText) + start + the constant offset.
  std::string pointer = r.baseText;
  if (!zeroStart) pointer += " + " + start;
  if (firstOffset != 0) pointer += (firstOffset > 0 ? " + " : " - ") + std::to_string(firstOffset > 0 ? firstOffset : -firstOffset);
  const std::string count = rangeCount(loop);

  std::string code = "{\n  // simdgen lift: " + name + " (" + r.summary + ")\n";
  code += "  const int64_t " + n + " = " + count + ";\n";
  std::string body;
  if (r.kind == "arg_reduce") {
    body += "  " + cType(r.element.dtype) + " " + res + ";\n";
    body += "  int64_t " + idx + ";\n";
    body += "  " + name + "(" + pointer + ", " + n + ", &" + res + ", &" + idx + ");\n";
    body += "  if (" + idx + " >= 0 && " + res + " " + r.combineRel + " " + r.accName + ") {\n";
    body += "    " + r.accName + " = " + res + ";\n";
    body += "    " + r.indexName + " = (" + indT + ")" + (zeroStart ? idx : "(" + start + " + " + idx + ")") + ";\n";
    body += "  }\n";
  } else if (r.chunk) {
    // Each chunk's sum fits the kernel's output; the chunks add up in the accumulator's width.
    const std::string k = local + "k", u = r.accType.bits > 32 ? "(uint64_t)" : "(uint32_t)", c = std::to_string(r.chunk);
    body += "  for (int64_t " + k + " = 0; " + k + " < " + n + "; " + k + " += " + c + ") {\n";
    body += "    " + cType(r.outDtype) + " " + res + ";\n";
    body += "    " + name + "(" + paren(pointer) + " + " + k + ", " + n + " - " + k + " < " + c + " ? " + n + " - " + k + " : " + c +
            ", &" + res + ");\n";
    body += "    " + r.accName + " = (" + r.accType.spelling + ")(" + u + r.accName + " + " + u + res + ");\n";
    body += "  }\n";
  } else {
    body += "  " + cType(r.outDtype) + " " + res + ";\n";
    body += "  " + name + "(" + pointer + ", " + n + ", &" + res + ");\n";
    if (r.combineOp.empty()) {
      body += "  if (" + res + " " + r.combineRel + " " + r.accName + ") " + r.accName + " = " + res + ";\n";
    } else if (r.accType.isFloat) {
      body += "  " + r.accName + " = " + r.accName + " " + r.combineOp + " " + res + ";\n";
    } else {
      // In unsigned arithmetic: it wraps like the loop's accumulator, without signed overflow.
      const std::string u = r.accType.bits > 32 ? "(uint64_t)" : "(uint32_t)";
      body += "  " + r.accName + " = (" + r.accType.spelling + ")(" + u + r.accName + " " + r.combineOp + " " + u + res + ");\n";
    }
  }
  if (!loop.counterFinal.empty()) body += "  " + loop.counterFinal + "\n";
  std::string indented;
  for (size_t p = 0; p < body.size();) {
    size_t e = body.find('\n', p);
    indented += "  " + body.substr(p, e + 1 - p);
    p = e + 1;
  }
  // Short runtime ranges keep the loop (a kernel call costs more than a few steps; kMinRuntimeTrip);
  // a static range is at least kMinStaticTrip long.
  const std::string enough = loop.tripCount ? n + " > 0" : n + " >= " + std::to_string(kMinRuntimeTrip);
  if (r.nanIgnoringCall) {
    // fmax/fmin replace a NaN accumulator by the first non-NaN element: that rare case keeps the loop.
    code += "  if (" + r.accName + " != " + r.accName + " || " + n + " < " + std::to_string(kMinRuntimeTrip) + ") {\n    " + loop.loopText +
            "\n  } else {\n" + indented + "  }\n";
  } else if (loop.tripCount) {
    code += "  if (" + enough + ") {\n" + indented + "  }\n";
  } else {
    code += "  if (" + enough + ") {\n" + indented + "  } else {\n    " + loop.loopText + "\n  }\n";
  }
  return code + "}";
}

}  // namespace simdgen::lift
