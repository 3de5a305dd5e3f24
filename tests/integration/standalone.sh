#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The simdgen binary alone, copied away from its build: built-in templates, no path of the build
# machine needed. Run from a scratch directory on copies of the specs, it must reproduce
# generated/ byte for byte. Where the source tree can be hidden (unshare + tmpfs, as root), it is.
source "$(dirname "$0")/lib.sh"
start
# Outside the source tree (the build directory, and so WORK, may be inside it).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/run/specs"
cp "$SIMDGEN_BIN" "$tmp/bin/simdgen"
cp "$SIMDGEN_SOURCE_DIR"/specs/*.json "$tmp/run/specs/"
run() { (cd "$tmp/run" && env -u SIMDGEN_TEMPLATES "$tmp/bin/simdgen" "$@"); }
hidden=no
if [[ $tmp != "$SIMDGEN_SOURCE_DIR"/* ]] && unshare -m true 2> /dev/null; then
  hidden=yes
  run() {
    unshare -m bash -c 'mount -t tmpfs none "$0" && cd "$1/run" && exec env -u SIMDGEN_TEMPLATES "$1/bin/simdgen" "${@:2}"' \
      "$SIMDGEN_SOURCE_DIR" "$tmp" "$@"
  }
fi
specs=$(cd "$tmp/run" && echo specs/*.json)
# shellcheck disable=SC2086  # the spec names have no spaces
run generate $specs -o generated > "$WORK/generate.log" || { cat "$WORK/generate.log" >&2; fail "generate failed"; }
diff -r "$SIMDGEN_SOURCE_DIR/generated" "$tmp/run/generated" > "$WORK/diff.txt" ||
  { head -40 "$WORK/diff.txt" >&2; fail "the copied binary's output differs from generated/"; }
# --templates still overrides the built-in templates.
mkdir -p "$WORK/tpl"
cp "$SIMDGEN_SOURCE_DIR"/templates/*.mustache "$SIMDGEN_SOURCE_DIR"/templates/.clang-format "$WORK/tpl/"
sed -i 's|^#pragma once$|#pragma once\n// custom template|' "$WORK/tpl/kernel.h.mustache"
(cd "$tmp/run" && "$tmp/bin/simdgen" --templates "$WORK/tpl" generate specs/sum_u64.json -o custom > /dev/null)
grep -q "^// custom template$" "$tmp/run/custom/sum_u64.h" || fail "--templates did not override the built-in templates"
# No absolute path of this checkout is compiled in.
if grep -q -a -F "$SIMDGEN_SOURCE_DIR" "$tmp/bin/simdgen"; then
  fail "the binary contains the source path $SIMDGEN_SOURCE_DIR"
fi
echo "ok standalone binary reproduces generated/ (source tree hidden: $hidden)"
