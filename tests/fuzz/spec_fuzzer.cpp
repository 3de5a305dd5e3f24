// SPDX-License-Identifier: Apache-2.0
// libFuzzer target for the spec parser: any bytes must give a KernelSpec or a SpecError, never a
// crash, undefined behaviour (built with ASan/UBSan) or another exception (libFuzzer reports an
// uncaught one as a crash).
#include <cstddef>
#include <cstdint>
#include <string>

#include "spec/json_locate.h"
#include "spec/spec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  try {
    simdgen::KernelSpec spec = simdgen::parseSpecText(text, "fuzz.json");
    (void)spec;
  } catch (const simdgen::SpecError& e) {
    // Every error is placed: the pointer must lead somewhere in the text (or be the document).
    (void)simdgen::positionOf(text, e.pointer);
  }
  return 0;
}
