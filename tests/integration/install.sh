#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# cmake --install of the main build into $WORK/prefix (the fixture used by example_package.sh):
# the layout, and an installed simdgen that needs no templates beside it.
source "$(dirname "$0")/lib.sh"
: "${MAIN_BUILD_DIR:?}"
start
p=$WORK/prefix
cmake --install "$MAIN_BUILD_DIR" --prefix "$p" > "$WORK/install.log" 2>&1 || { cat "$WORK/install.log" >&2; fail "install failed"; }
for f in bin/simdgen share/simdgen/templates/kernel.h.mustache share/simdgen/templates/kernel.cpp.mustache \
    share/simdgen/templates/.clang-format share/simdgen/spec.schema.json lib/cmake/simdgen/simdgenConfig.cmake \
    lib/cmake/simdgen/simdgenConfigVersion.cmake lib/cmake/simdgen/simdgenTargets.cmake \
    lib/cmake/simdgen/SimdgenGenerate.cmake; do
  [ -e "$p/$f" ] || fail "not installed: $f"
done
diff -r "$SIMDGEN_SOURCE_DIR/templates" "$p/share/simdgen/templates" >&2 || fail "installed templates differ"

# No --templates, no SIMDGEN_TEMPLATES: the installed simdgen uses the templates built into it and
# needs no file beside it (a copy with no share/ next to it), giving the same files as the source
# templates (vendored copy layout keeps the spec paths identical); the installed templates (for
# simdgen_add_kernels) give them too.
mkdir -p "$WORK/x/specs" "$WORK/lone/bin"
cp "$example"/specs/*.json "$WORK/x/specs/"
cp "$p/bin/simdgen" "$WORK/lone/bin/"
(unset SIMDGEN_TEMPLATES; "$WORK/lone/bin/simdgen" generate "$WORK"/x/specs/*.json -o "$WORK/x/out" > /dev/null) ||
  fail "the installed simdgen failed without templates beside it"
"$SIMDGEN_BIN" --templates "$SIMDGEN_SOURCE_DIR/templates" generate --check "$WORK"/x/specs/*.json -o "$WORK/x/out" ||
  fail "the installed simdgen generated different code"
"$p/bin/simdgen" --templates "$p/share/simdgen/templates" generate --check "$WORK"/x/specs/*.json -o "$WORK/x/out" ||
  fail "the installed templates generate different code"
echo "ok install: $(cd "$p" && find . -type f | sort | tr '\n' ' ')"
