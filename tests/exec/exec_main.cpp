// SPDX-License-Identifier: Apache-2.0
// doctest's main(), compiled once for all exec test executables.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
