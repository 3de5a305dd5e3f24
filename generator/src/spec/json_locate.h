// SPDX-License-Identifier: Apache-2.0
// Source positions for JSON values. nlohmann/json keeps no positions, so spec errors re-scan
// the raw text with this small tokenizer to say where a value (found by JSON pointer) starts.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace simdgen {

struct TextPos {
  int line = 0, column = 0;  // 1-based; 0 = unknown
};

// Line and column of a byte offset. Columns count UTF-8 code points (what editors show);
// a leading UTF-8 byte-order mark is not counted. Offsets past the end clamp to the end.
TextPos positionAt(std::string_view text, std::size_t offset);

struct JsonLocation {
  std::size_t offset = 0;                // byte offset where the located value starts
  std::optional<std::size_t> keyOffset;  // the opening quote of its key, when it is an object member
  bool exact = false;  // false: the pointer's target is missing; offset is its deepest existing ancestor
};

// Where the value named by an RFC 6901 pointer ("" = the whole document, "/input/shape/0")
// starts. For duplicate keys the last one wins, as in nlohmann/json. nullopt when the text
// is not a JSON value at all.
std::optional<JsonLocation> locatePointer(std::string_view text, std::string_view pointer);

// Position of a pointer's value (or of its deepest existing ancestor); {0, 0} if unknown.
TextPos positionOf(std::string_view text, std::string_view pointer);

// The first object key that repeats within its object (nlohmann/json would silently keep
// the last value): the repeated member's pointer and the offset of its key.
struct DuplicateKey {
  std::string key;
  std::string pointer;
  std::size_t keyOffset = 0;
};
std::optional<DuplicateKey> findDuplicateKey(std::string_view text);

// The first number too large for a double (nlohmann/json rejects it without a position): its
// pointer, the offset where it starts and its text.
struct NumberAt {
  std::string pointer;
  std::size_t offset = 0;
  std::string token;
};
std::optional<NumberAt> findOverflowingNumber(std::string_view text);

// RFC 6901 escaping of one reference token: "~" -> "~0", "/" -> "~1".
std::string escapePointerToken(std::string_view key);

}  // namespace simdgen
