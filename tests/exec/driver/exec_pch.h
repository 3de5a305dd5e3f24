// SPDX-License-Identifier: Apache-2.0
// The precompiled header of the exec tests (native and aarch64): what every spec's generated test
// parses before its own lines (doctest and the driver's kernel description, with their standard
// headers). Parsing it took about 0.7 s of each test's 1.9 s; it is now parsed once per build.
#pragma once

#include <doctest/doctest.h>

#include "kernel.h"
