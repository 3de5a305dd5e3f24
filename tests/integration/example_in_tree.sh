#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# examples/rowstats built inside the main build by simdgen_add_kernels, with the `simdgen` target
# as the generator (the add_subdirectory case without a second build of simdgen).
source "$(dirname "$0")/lib.sh"
start
check_rowstats "in-tree build" "$1"
