# SPDX-License-Identifier: Apache-2.0
"""The JSON Schema (docs/spec.schema.json) and the parser (`simdgen validate`) must agree.

Every good spec of the repository must pass both; every file in tests/schema/bad/ is one distinct
mistake and must fail both, and the parser's error must carry FILE:LINE:COL and a JSON pointer
that the schema's errors lead to (one is a prefix of the other). The only exceptions are the
mistakes in SCHEMA_BLIND below: checks a JSON Schema cannot express, each with its reason. A
blind entry that the schema starts catching fails the test too, so that the list stays honest.

The schema also passes `ajv compile --spec=draft2020 --strict=true` (checked by hand with ajv-cli 5,
which then agrees with this test except on integers beyond 2^53: JavaScript cannot tell 2^63 from
2^63 - 1, so ajv accepts initial values and indices just past the int64/u64 range).

Usage: schema_agree.py --simdgen BIN --root REPOSITORY
"""
import argparse
import glob
import json
import os
import re
import subprocess
import sys

import jsonschema

# Mistakes a JSON Schema cannot see, so only the parser rejects them: file -> why.
SCHEMA_BLIND = {
    "map_axis_rank1.json": "whether the shape has rank 2 (its length) decides if axis is allowed: beyond this schema's structure",
    "map_axis_named_later.json": "names inside expression strings are beyond JSON Schema",
    "map_axis_reads_row_value.json": "names inside expression strings are beyond JSON Schema",
    "duplicate_key.json": "the schema sees the parsed object, in which the last duplicate already won",
    "nested_duplicate_key.json": "the schema sees the parsed object, in which the last duplicate already won",
    "version_float.json": "JSON Schema's integer admits 1.0 (a number with no fraction); the parser keeps "
                          "JSON's lexical type (docs/spec.md: 4.0 is not an integer)",
    "shape_float_integral.json": "JSON Schema's integer admits 64.0; the parser does not",
    "shape_same_names.json": "comparing two values of the instance is beyond JSON Schema",
    "row_stride_same_name.json": "comparing two values of the instance is beyond JSON Schema",
    "row_stride_smaller.json": "comparing two values (row_stride >= cols) is beyond JSON Schema",
    "transpose_output_row_stride_smaller.json": "comparing two values (output row_stride >= rows) is beyond JSON Schema",
    "transpose_output_row_stride_shape_name.json": "comparing two values of the instance is beyond JSON Schema",
    "transpose_batch_stride_smaller.json": "a product of values (rows * row_stride) is beyond JSON Schema",
    "transpose_in_place_not_square.json": "comparing two values (rows and cols the same extent) is beyond JSON Schema",
    "input_too_many_bytes.json": "a product of values (rows * row_stride * element size) is beyond JSON Schema",
    "extent_named_like_function.json": "the name NAME_<target> is built from two values",
    "targets_same_features_reordered.json": "uniqueItems compares spellings, not feature sets",
    "map_expr_syntax.json": "expression grammar",
    "map_expr_unknown_name.json": "expression names refer to other values (the inputs)",
    "map_expr_int_literal_range.json": "expression literals are typed by the expression",
    "map_duplicate_tensor_names.json": "comparing two values of the instance is beyond JSON Schema",
    "map_tensor_named_like_kernel.json": "comparing two values of the instance is beyond JSON Schema",
    "map_in_place_unknown_input.json": "in_place refers to another value (an input's name)",
    "map_in_place_strided_input.json": "in_place refers to another value (an input with a stride)",
    "map_input_stride_name_taken.json": "comparing two values of the instance is beyond JSON Schema",
    "map_mixed_widths.json": "an expression's dtype (f32) must equal its output's (f64): typing the expression string",
    "map_convert_unknown_dtype.json": "convert()'s dtype is inside the expression string",
    "map_convert_unknown_mode.json": "convert()'s mode is inside the expression string",
    "map_convert_mode_not_allowed.json": "which modes apply depends on the operand's dtype (expression typing)",
    "tail_none_not_multiple.json": "divisibility by each target's lane count is a planning result",
    "contraction_unknown_dim.json": "index expressions refer to other values (the dims' names)",
    "contraction_padding_extents_count.json": "one extent per index entry: comparing two arrays' lengths is beyond JSON Schema",
    "contraction_padding_extent_name.json": "whether a name is one of the dims' extents (other values) is beyond JSON Schema",
    "contraction_padding_vector_dim.json": "which dim is the output's innermost (another value) is beyond JSON Schema",
    "contraction_parallel_not_in_output.json": "which dims the output's index names is beyond JSON Schema",
    "contraction_clamp_min_above_max.json": "comparing two values (min <= max) is beyond JSON Schema",
    "contraction_operand_i8_in_f32.json": "which operand dtypes are allowed depends on the contraction's dtype (another value)",
    "contraction_clamp_fraction_i32.json": "whether a bound must be an integer depends on the contraction's dtype (another value)",
    "contraction_schedule_vectorize_reduction.json": "which dims are reductions is another value of the instance (dims)",
    "contraction_schedule_register_budget.json": "a tile's register count depends on the target's vector registers (planning)",
    "contraction_schedule_reorder_breaks_tile.json": "which dims form the register tile follows from the output's directives (replaying them)",
    "contraction_schedule_unknown_loop.json": "loop names are made by earlier directives and the dims (replaying them)",
    "contraction_schedule_unknown_target.json": "a schedule's targets must be among the spec's own targets (another value)",
    "contraction_pack_affine_index.json": "whether an index names one dim or an expression of several depends on the dims (another value)",
    "contraction_pack_without_vector_dim.json": "which dim is the output's innermost is another value of the instance",
    "map_reduce_mean_integer.json": "whether mean applies depends on the output's dtype (another value)",
    "map_reduce_bitwise_float.json": "whether a bitwise reduction applies depends on the output's dtype (another value)",
    "map_reduce_mul_float.json": "whether mul applies depends on the output's dtype (another value)",
    "map_internal_unused.json": "whether a later expression names the output is inside the expression strings",
    "map_output_forward_reference.json": "expression names refer to other values (the outputs listed before)",
    "map_in_place_read_by_later_pass.json": "which pass reads an input follows from the expression strings",
    "contraction_pack_name_taken.json": "comparing two values (a name + \"_packed\" against the other names) is beyond JSON Schema",
}

ERROR_LINE = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<col>\d+): error: (?:at (?P<ptr>/\S*|): )?")


def spec_files(root):
    # tests/hygiene/specs/ are templates (@NAME@ placeholders), not specs.
    patterns = ["specs/*.json", "examples/*/specs/*.json", "bench/*/specs/*.json", "tests/schema/good/*.json"]
    return sorted(f for p in patterns for f in glob.glob(os.path.join(root, p)))


def load(path):
    with open(path, "rb") as f:
        return json.loads(f.read().decode("utf-8-sig"))


def pointer(path):
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def all_errors(errors):
    for e in errors:
        yield e
        yield from all_errors(e.context)


def schema_errors(validator, path):
    try:
        instance = load(path)
    except ValueError as e:
        return ["", "not JSON: %s" % e], None
    errs = list(validator.iter_errors(instance))
    return errs, instance


def run_parser(simdgen, paths):
    """{path: (failed, first error line)}. One process for many files (each start loads LLVM); a file
    with no verdict is run alone: validate plans no spec once any spec fails to parse."""
    r = subprocess.run([simdgen, "validate"] + paths, capture_output=True, text=True)
    verdicts = {}
    for line in r.stdout.splitlines():
        for p in paths:
            if line == p + ": ok":
                verdicts[p] = (False, "")
    for line in r.stderr.splitlines():
        for p in paths:
            if line.startswith(p + ":") and p not in verdicts:
                verdicts[p] = (True, line)
    for p in paths:
        if p not in verdicts:
            r = subprocess.run([simdgen, "validate", p], capture_output=True, text=True)
            verdicts[p] = (r.returncode != 0, r.stderr.strip().split("\n")[0])
    return verdicts


def related(a, b):
    return a == b or a.startswith(b + "/") or b.startswith(a + "/") or a == "" or b == ""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--simdgen", required=True)
    ap.add_argument("--root", required=True)
    args = ap.parse_args()
    schema = load(os.path.join(args.root, "docs", "spec.schema.json"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    problems = []

    good = spec_files(args.root)
    verdicts = run_parser(args.simdgen, good)
    for f in good:
        errs, _ = schema_errors(validator, f)
        rc, out = verdicts[f]
        if errs:
            problems.append("%s: good spec rejected by the schema: %s" % (f, "; ".join(
                "%s: %s" % (pointer(e.absolute_path), e.message) for e in errs if hasattr(e, "message"))))
        if rc:
            problems.append("%s: good spec rejected by the parser: %s" % (f, out))

    bad = sorted(glob.glob(os.path.join(args.root, "tests", "schema", "bad", "*.json")))
    names = {os.path.basename(f) for f in bad}
    for stale in sorted(set(SCHEMA_BLIND) - names):
        problems.append("SCHEMA_BLIND names %s, which is not in tests/schema/bad/" % stale)
    verdicts = run_parser(args.simdgen, bad)
    for f in bad:
        base = os.path.basename(f)
        errs, instance = schema_errors(validator, f)
        rc, out = verdicts[f]
        if not rc:
            problems.append("%s: the parser accepts this bad spec" % f)
            continue
        m = ERROR_LINE.match(out)
        if not m:
            problems.append("%s: parser error without FILE:LINE:COL: %s" % (f, out))
            continue
        document_level = instance is None or not isinstance(instance, dict)
        if m.group("ptr") is None and not document_level:
            problems.append("%s: parser error without a JSON pointer: %s" % (f, out))
        if base in SCHEMA_BLIND:
            if errs:
                problems.append("%s: listed as schema-blind (%s) but the schema rejects it: remove it from "
                                "SCHEMA_BLIND" % (f, SCHEMA_BLIND[base]))
            continue
        if not errs:
            problems.append("%s: the schema accepts what the parser rejects: %s" % (f, out))
            continue
        if instance is not None and m.group("ptr"):
            paths = {pointer(e.absolute_path) for e in all_errors(errs)}
            if not any(related(m.group("ptr"), p) for p in paths):
                problems.append("%s: the parser points at %s, the schema at %s" % (f, m.group("ptr"), sorted(paths)))

    for p in problems:
        print(p)
    print("%d good and %d bad specs through the schema and the parser: %d disagreements (%d schema-blind "
          "mistakes skipped)" % (len(good), len(bad), len(problems), len(SCHEMA_BLIND)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
