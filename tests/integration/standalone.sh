#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The simdgen binary alone, copied away from its build: built-in templates, no path of the build
# machine needed. Run from a scratch directory on copies of the specs, it must reproduce
# generated/ byte for byte. Where the source tree can be hidden (unshare + tmpfs, as root), it is.
source "$(dirname "$0")/lib.sh"
start
mkdir -p "$WORK/bin" "$WORK/run/specs"
cp "$SIMDGEN_BIN" "$WORK/bin/simdgen"
cp "$SIMDGEN_SOURCE_DIR"/specs/*.json "$WORK/run/specs/"
# Hides the source tree (and this script) behind an empty tmpfs when the kernel lets us.
run() { (cd "$WORK/run" && env -u SIMDGEN_TEMPLATES "$WORK/bin/simdgen" "$@"); }
hidden=no
if unshare -m true 2> /dev/null; then
  hidden=yes
  run() {
    unshare -m bash -c 'mount -t tmpfs none "$0" && cd "$1/run" && exec env -u SIMDGEN_TEMPLATES "$1/bin/simdgen" "${@:2}"' \
      "$SIMDGEN_SOURCE_DIR" "$WORK" "$@"
  }
fi
run generate specs/*.json -o generated > "$WORK/generate.log" || { cat "$WORK/generate.log" >&2; fail "generate failed"; }
diff -r "$SIMDGEN_SOURCE_DIR/generated" "$WORK/run/generated" > "$WORK/diff.txt" ||
  { head -40 "$WORK/diff.txt" >&2; fail "the copied binary's output differs from generated/"; }
# --templates still overrides the built-in templates.
mkdir -p "$WORK/tpl"
cp "$SIMDGEN_SOURCE_DIR"/templates/*.mustache "$WORK/tpl/"
sed -i 's|^#pragma once$|#pragma once\n// custom template|' "$WORK/tpl/kernel.h.mustache"
(cd "$WORK/run" && "$WORK/bin/simdgen" --templates "$WORK/tpl" generate specs/sum_u64.json -o custom > /dev/null)
grep -q "^// custom template$" "$WORK/run/custom/sum_u64.h" || fail "--templates did not override the built-in templates"
# No absolute path of this checkout is compiled in.
if grep -q -a -F "$SIMDGEN_SOURCE_DIR" "$WORK/bin/simdgen"; then
  fail "the binary contains the source path $SIMDGEN_SOURCE_DIR"
fi
echo "ok standalone binary reproduces generated/ (source tree hidden: $hidden)"
