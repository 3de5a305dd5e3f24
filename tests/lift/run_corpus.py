#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The `simdgen lift` corpus: remark expectations and differential execution.

For every corpus file (one C or C++ function with `// expect:` lines before its `for` loops, see
tests/lift/README.md):

  a. `simdgen lift FILE -o WORK/NAME/specs [lift-args] -- -std=c11|c++17` on the original file.
     Every remark (`FILE:LINE:COL: remark: lifted: KERNEL (SUMMARY)` or `... not lifted: REASON`)
     must sit on the line after an expectation and match it (kind, and the expectation's text as
     a substring of what follows `lifted: `), COL must point at the `for` keyword, and every
     expectation must get exactly one remark. A lift no expectation asked for is a FALSE LIFT.
  b. When something was lifted: the file is copied to WORK/NAME/rewritten/, rewritten with
     `simdgen lift --rewrite`, the specs are generated with `simdgen generate`, and a harness
     calls the original function (compiled as NAME__orig) and the rewritten one (NAME__lifted,
     linked with the generated kernels) with identical arguments over many lengths, value patterns
     and placements, comparing results (tests/lift/lift_harness.h says exactly how).
  c. The harness runs once per variant of the generated kernels (SIMDGEN_VARIANT=avx512, avx2,
     scalar ... as the kernels' X-macros list them for the target), through --runner if given
     (e.g. qemu-aarch64 for an AArch64 cross build); every variant after the first with fewer
     lengths (SIMDGEN_LIFT_THIN=1: the first already ran n = 100000, nine tenths of a run).

Usage:
  run_corpus.py --simdgen BIN --work DIR --cc CC --cxx CXX [--runner="CMD ARGS"] [--only GLOB]
                [--jobs N] [--variants LIST] [--ldflags=FLAGS] [--remarks-only] CORPUS_FILES...
(--runner and --ldflags take one string, split like a shell does; write them with `=` when the
value starts with `-`.)

The last line is `lift corpus: L lifted of E expected (lift rate X%), F false lifts, M remarks
matched, D differential mismatches`; the exit status is 1 on any failure (a missed or mismatched
remark, a false lift, a tool or build error, a differential mismatch or memory fault).
Python 3 standard library only.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
INT64_MIN = -(1 << 63)

REMARK_RE = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<col>\d+): remark: (?P<kind>not lifted|lifted): ?(?P<text>.*?)\s*$")
EXPECT_RE = re.compile(r"//\s*expect:\s*(?:(?P<neg>not lifted):(?P<negtext>.*)|(?P<pos>lifted)\b(?P<postext>.*)"
                       r"|(?P<part>part of the row lift)\s*)$")
# A `for`, or the use of a loop macro named FOR_EACH... (the loop a macro spells: a #define is no loop)
FOR_RE = re.compile(r"\bfor\s*\(|\bFOR_EACH\w*\s*\(")
IDENT = r"[A-Za-z_]\w*"
KERNEL_NAME_RE = re.compile(r"^(?P<name>" + IDENT + r")\s*(?:\((?P<summary>.*)\))?\s*$")


class CorpusError(Exception):
    """The corpus file breaks the conventions (not the tool's fault)."""


# ----------------------------------------------------------------------------------------------
# Reading a corpus file.
class Expectation:
    def __init__(self, line, kind, text):
        self.line = line  # the line of the `for` (the line after the comment)
        self.kind = kind  # "lifted" or "not lifted"
        self.text = text

    def describe(self):
        return f"{self.kind}{':' if self.kind == 'not lifted' else ''} {self.text}".rstrip()


class Param:
    def __init__(self, text):
        self.text = " ".join(text.replace("*", " * ").split())
        m = re.match(r"^(.*?)\s*(" + IDENT + r")$", self.text)
        if not m or not m.group(1):
            raise CorpusError(f"cannot read parameter '{text.strip()}' (write 'TYPE NAME')")
        type_text, self.name = m.group(1), m.group(2)
        tokens = type_text.split()
        self.pointer = "*" in tokens
        if self.pointer:
            star = tokens.index("*")
            if tokens.count("*") > 1:
                raise CorpusError(f"parameter '{self.text}': pointers to pointers are not in the corpus style")
            before, after = tokens[:star], tokens[star + 1:]
        else:
            before, after = tokens, []
        self.const = "const" in before
        self.base = " ".join(t for t in before if t not in ("const", "volatile"))
        if not self.base:
            raise CorpusError(f"parameter '{self.text}': no type")
        # The declaration as the C++ harness spells it (restrict is a C keyword only).
        cxx_after = ["__restrict" if t in ("restrict", "__restrict", "__restrict__") else t for t in after]
        self.decl = " ".join(before + (["*"] if self.pointer else []) + cxx_after + [self.name]).replace(" *", "*")

    @property
    def role(self):
        if self.pointer:
            return "input" if self.const else "output"
        return "length" if self.name == "n" else "scalar"


def is_unsigned(base):
    return base.startswith("unsigned") or base.startswith("uint") or base in ("size_t", "uintptr_t", "bool", "_Bool")


class Signature:
    def __init__(self, name, ret, params, extern_c):
        self.name, self.ret, self.params, self.extern_c = name, ret, params, extern_c

    def check_style(self):
        """Whether the harness can call it; returns a reason or None."""
        if any("&" in p.text for p in self.params):
            return "a reference parameter"
        lengths = [p for p in self.params if p.role == "length"]
        if len(lengths) != 1:
            return "no integer length parameter named n"
        if not [p for p in self.params if p.role == "input"]:
            return "no `const T*` input array"
        if "*" in self.ret:
            return "returns a pointer"
        return None


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


FUNC_RE = re.compile(r"^(?P<extern>extern\s+\"C\"\s+)?(?P<ret>[A-Za-z_][\w\s\*]*?)\s*\b(?P<name>" + IDENT +
                     r")\s*\((?P<params>[^()]*)\)\s*(?P<brace>\{.*)?$")


def parse_signature(text):
    lines = strip_comments(text).split("\n")
    found = []
    for k, line in enumerate(lines):
        if not line or line[0].isspace() or line.startswith("#") or ";" in line:
            continue
        m = FUNC_RE.match(line.rstrip())
        if not m or m.group("ret").split()[0] in ("return", "if", "for", "while", "switch", "typedef", "static", "namespace"):
            continue
        brace = m.group("brace") is not None
        if not brace:
            rest = [x for x in lines[k + 1:] if x.strip()]
            brace = bool(rest) and rest[0].lstrip().startswith("{")
        if brace:
            found.append(m)
    if len(found) != 1:
        raise CorpusError(f"expected one function definition with its signature on one line, found {len(found)}")
    m = found[0]
    params_text = m.group("params").strip()
    params = [] if params_text in ("", "void") else [Param(p) for p in params_text.split(",")]
    ret = " ".join(m.group("ret").replace("*", " * ").split()).replace(" *", "*")
    return Signature(m.group("name"), ret, params, bool(m.group("extern")))


class CorpusFile:
    def __init__(self, path):
        self.path = path
        self.text = Path(path).read_text()
        self.lines = self.text.split("\n")
        self.is_cpp = Path(path).suffix in (".cpp", ".cc", ".cxx", ".C")
        self.lift_args, self.tolerance, self.min_n, self.ulps, self.cflags = [], False, None, 0, []
        self.degree = 1  # `// diff: tolerance D`: the summed terms are products of D values
        for line in self.lines:  # the leading comment block holds the directives
            s = line.strip()
            if not s:
                continue
            if not s.startswith("//"):
                break
            body = s[2:].strip()
            if body.startswith("lift-args:"):
                self.lift_args += shlex.split(body[len("lift-args:"):])
            elif body.startswith("cflags:"):
                self.cflags += shlex.split(body[len("cflags:"):])
            elif body.startswith("diff:"):
                mode = body[len("diff:"):].split()
                if mode == ["tolerance"]:
                    self.tolerance = True
                elif len(mode) == 2 and mode[0] == "tolerance" and mode[1].isdigit() and int(mode[1]) >= 1:
                    self.tolerance, self.degree = True, int(mode[1])
                elif len(mode) == 2 and mode[0] == "ulp" and mode[1].isdigit():
                    self.ulps = int(mode[1])
                else:
                    raise CorpusError(f"unknown `// diff:` mode '{' '.join(mode)}' (only 'tolerance', 'tolerance D' or 'ulp N')")
            elif body.startswith("min-n:"):
                self.min_n = int(body[len("min-n:"):].strip())
        self.expectations = {}
        for k, line in enumerate(self.lines, start=1):
            if "expect:" not in line or "//" not in line:
                continue
            m = EXPECT_RE.search(line)
            if not m:
                raise CorpusError(f"{path}:{k}: cannot read the expectation (write `// expect: lifted SUMMARY` or "
                                  f"`// expect: not lifted: REASON`)")
            if k >= len(self.lines) or not FOR_RE.search(self.lines[k]):
                raise CorpusError(f"{path}:{k}: an expectation must be the line immediately before a `for`")
            if m.group("part"):  # the inner loop of a row-wise lift: no remark of its own
                self.expectations[k + 1] = Expectation(k + 1, "part", "")
            elif m.group("neg"):
                self.expectations[k + 1] = Expectation(k + 1, "not lifted", m.group("negtext").strip())
            else:
                self.expectations[k + 1] = Expectation(k + 1, "lifted", m.group("postext").strip())
        code_lines = strip_comments(self.text).split("\n")
        for k, line in enumerate(code_lines, start=1):
            if FOR_RE.search(line) and not line.lstrip().startswith("#") and k not in self.expectations:
                raise CorpusError(f"{path}:{k}: a `for` without an `// expect:` line before it")
        # Only the harness needs the signature: a negative may be written any way.
        try:
            self.signature, self.signature_error = parse_signature(self.text), None
        except CorpusError as e:
            self.signature, self.signature_error = None, str(e)

    @property
    def std(self):
        return "-std=c++17" if self.is_cpp else "-std=c11"


# ----------------------------------------------------------------------------------------------
# Running things.
def run(cmd, timeout=600, env=None, cwd=None):
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env, cwd=cwd)
        return r.returncode, r.stdout, r.stderr
    except subprocess.TimeoutExpired as e:
        def text(x):
            return x.decode(errors="replace") if isinstance(x, bytes) else (x or "")
        return -9, text(e.stdout), text(e.stderr) + f"\n(timed out after {timeout} s)"
    except OSError as e:
        return -1, "", f"cannot run {cmd[0]}: {e}"


def quote(cmd):
    return " ".join(shlex.quote(str(c)) for c in cmd)


def indent(text, prefix="    "):
    return "".join(prefix + line + "\n" for line in text.rstrip("\n").split("\n")) if text.strip() else ""


def parse_remarks(stderr):
    remarks = []
    for line in stderr.split("\n"):
        m = REMARK_RE.match(line)
        if m:
            remarks.append({"file": m.group("file"), "line": int(m.group("line")), "col": int(m.group("col")),
                            "kind": m.group("kind"), "text": m.group("text"), "raw": line})
    return remarks


class Result:
    def __init__(self, path):
        self.path = path
        self.log = []
        self.failures = []  # short reasons
        self.expected_lifted = 0
        self.lifted_as_expected = 0
        self.false_lifts = 0
        self.matched = 0
        self.remarks = 0
        self.mismatch = False
        self.warnings = 0
        self.seconds = 0.0
        self.cases = ""

    def fail(self, reason, detail=""):
        self.failures.append(reason)
        self.log.append(f"  FAIL: {reason}")
        if detail:
            self.log.append(indent(detail).rstrip("\n"))


def check_remarks(cf, path_arg, remarks, res):
    """Step a: compare the remarks with the expectations."""
    by_line = {}
    for r in remarks:
        res.remarks += 1
        if r["file"] != path_arg:
            res.fail(f"remark names file '{r['file']}', expected '{path_arg}' (as given on the command line)", r["raw"])
            continue
        by_line.setdefault(r["line"], []).append(r)
    for line, rs in sorted(by_line.items()):
        exp = cf.expectations.get(line)
        if len(rs) > 1:
            res.fail(f"line {line}: {len(rs)} remarks for one loop", "\n".join(r["raw"] for r in rs))
        r = rs[0]
        src = cf.lines[line - 1] if line - 1 < len(cf.lines) else ""
        col_ok = src[r["col"] - 1:].startswith(("for", "FOR_EACH"))
        if exp is None:
            if r["kind"] == "lifted":
                res.false_lifts += 1
                res.fail(f"FALSE LIFT at line {line}: no loop was expected there", r["raw"])
            else:
                res.fail(f"line {line}: a remark without an expectation", r["raw"])
            continue
        if not col_ok:
            res.fail(f"line {line}: column {r['col']} is not the `for` keyword", r["raw"] + "\n" + src)
        if exp.kind == "part":
            res.fail(f"line {line}: a remark for a loop that is part of a row-wise lift", r["raw"])
            continue
        if exp.kind == "lifted" and r["kind"] == "lifted":
            res.lifted_as_expected += 1
        if r["kind"] == "lifted" and exp.kind == "not lifted":
            res.false_lifts += 1
            res.fail(f"FALSE LIFT at line {line}: expected `{exp.describe()}`", r["raw"])
        elif r["kind"] != exp.kind:
            res.fail(f"line {line}: not lifted, expected `{exp.describe()}`", r["raw"])
        elif exp.text not in r["text"]:
            res.fail(f"line {line}: remark text does not contain '{exp.text}'", r["raw"])
        else:
            res.matched += 1
        if r["kind"] == "lifted":
            m = KERNEL_NAME_RE.match(r["text"])
            want = (cf.signature.name if cf.signature else IDENT) + "_lifted"
            # A loop of a static helper (called by the file's function) is named after the helper.
            helper = m and re.fullmatch(r"(\w+?)_lifted(_\d+)?", m.group("name"))
            in_helper = helper and re.search(r"^static\b[^;{=]*\b" + re.escape(helper.group(1)) + r"\s*\(", cf.text, re.M)
            if not m or not (in_helper or re.fullmatch((re.escape(want) if cf.signature else want) + r"(_\d+)?", m.group("name"))):
                res.fail(f"line {line}: kernel name should be {want}, {want}_2, ... (or a static helper's)", r["raw"])
    for line, exp in sorted(cf.expectations.items()):
        if exp.kind == "lifted":
            res.expected_lifted += 1
        if line not in by_line and exp.kind != "part":
            res.fail(f"line {line}: no remark, expected `{exp.describe()}`")


def lifted_names(remarks):
    out = []
    for r in remarks:
        if r["kind"] == "lifted":
            m = KERNEL_NAME_RE.match(r["text"])
            if m:
                out.append(m.group("name"))
    return out


# ----------------------------------------------------------------------------------------------
# The harness main() for one corpus file.
def harness_main(cf, display_path, kernels):
    sig = cf.signature
    params = sig.params
    n_param = next(p for p in params if p.role == "length")
    signed_n = not is_unsigned(n_param.base)
    if cf.min_n is not None:
        min_n = str(cf.min_n)
    elif signed_n:
        min_n = "INT64_MIN"
    else:
        min_n = "0"
    decl_params = ", ".join(p.decl for p in params)
    out = ["// Generated by tests/lift/run_corpus.py: the differential harness of " + display_path,
           '#include "lift_harness.h"']
    out += [f'#include "{k}.h"' for k in kernels]
    out.append("")
    if not cf.is_cpp or sig.extern_c:
        out.append('extern "C" {')
    for suffix in ("__orig", "__lifted"):
        out.append(f"{sig.ret} {sig.name}{suffix}({decl_params});")
    if not cf.is_cpp or sig.extern_c:
        out.append("}")
    out += ["", "static void list_variants() {", "#define LH_VARIANT(v) puts(#v);"]
    out += [f"  SIMDGEN_{k}_VARIANTS(LH_VARIANT)" for k in kernels]
    out += ["#undef LH_VARIANT", "}", "",
            "int main(int argc, char** argv) {",
            '  if (argc > 1 && strcmp(argv[1], "--variants") == 0) {',
            "    list_variants();",
            "    return 0;",
            "  }",
            f"  lh::Run run({cxx_string(display_path)}, {cxx_string(sig.name)}, {'true' if cf.tolerance else 'false'}, "
            f"{min_n}, {'true' if signed_n else 'false'}, {cf.ulps}, {cf.degree});"]
    inputs = [p for p in params if p.role == "input"]
    for k, p in enumerate(inputs):
        out.append(f"  lh::Input<{p.base}> in{k}({cxx_string(p.name)}, {k}, lh::Run::max_length());")
        out.append(f"  run.inputs.push_back(&in{k});")
    out += ["  const int patterns = run.patterns();",
            "  for (int64_t n : run.lengths) {",
            "    for (int p = 0; p < patterns; ++p) {",
            "      for (int place = 0; place < 2; ++place) {",
            "        run.start(n, p, place);"]
    args, outs = [], []
    scalar_k = out_k = in_k = 0
    for p in params:
        if p.role == "input":
            out.append(f"        {p.base}* a{in_k} = in{in_k}.fill(n, p, place);")
            args.append((f"a{in_k}", f"a{in_k}"))
            in_k += 1
        elif p.role == "length":
            args.append((f"({p.base})n", f"({p.base})n"))
        elif p.role == "scalar":
            out.append(f"        const {p.base} s{scalar_k} = run.scalar<{p.base}>({scalar_k}, {cxx_string(p.name)});")
            args.append((f"s{scalar_k}", f"s{scalar_k}"))
            scalar_k += 1
        else:
            out.append(f"        {p.base} o{out_k}_orig = run.output_init<{p.base}>({out_k}), o{out_k}_lifted = o{out_k}_orig;")
            args.append((f"&o{out_k}_orig", f"&o{out_k}_lifted"))
            outs.append((p.name, f"o{out_k}"))
            out_k += 1
    call_orig = f"{sig.name}__orig({', '.join(a for a, _ in args)})"
    call_lifted = f"{sig.name}__lifted({', '.join(b for _, b in args)})"
    if sig.ret == "void":
        out += [f"        {call_orig};", f"        {call_lifted};", "        bool ok = true;"]
    else:
        out += [f"        const {sig.ret} r_orig = {call_orig};",
                f"        const {sig.ret} r_lifted = {call_lifted};",
                '        bool ok = run.same("return value", r_orig, r_lifted);']
    for name, var in outs:
        out.append(f'        ok = run.same({cxx_string("*" + name)}, {var}_orig, {var}_lifted) && ok;')
    out += ["        if (!ok) return run.fail();",
            "      }", "    }", "  }"]
    ran = " ".join(f"{k}=%s" for k in kernels)
    out.append(f'  printf("ok: %llu cases; kernels ran: {ran}\\n", (unsigned long long)run.cases'
               + "".join(f", {k}_variant()" for k in kernels) + ");")
    out += ["  return 0;", "}", ""]
    return "\n".join(out)


def cxx_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


# ----------------------------------------------------------------------------------------------
# Compilers, precompiled headers and the object cache.
GEN_FLAGS = ["-std=c++17", "-O2", "-Wall", "-Wextra"]
HARNESS_FLAGS = ["-std=c++17", "-O0"]
SYSTEM_HEADERS = ["stddef.h", "stdint.h", "stdio.h", "stdlib.h", "string.h"]
ISA_HEADERS = {"x86-64": ["immintrin.h"], "aarch64": ["arm_sve.h", "arm_neon.h"]}


class Toolchain:
    """The C/C++ compilers, the target architecture, and precompiled headers for the two kinds of
    C++ translation units every corpus file has (generated kernels: <immintrin.h> or <arm_sve.h>
    and <arm_neon.h>; the harness: lift_harness.h). Parsing those headers is about a third of
    each compile; precompiled once, the corpus builds much faster. A precompiled header a compiler
    rejects is only slower (the headers are included again as text)."""

    def __init__(self, args, work):
        self.cc = shlex.split(args.cc)
        self.cxx = shlex.split(args.cxx)
        rc, so, _ = run([*self.cxx, "-dumpmachine"], timeout=60)
        machine = so.strip() if rc == 0 else ""
        self.arch = "aarch64" if machine.startswith("aarch64") else "x86-64" if machine.startswith("x86_64") else "other"
        rc, so, _ = run([*self.cxx, "--version"], timeout=60)
        self.clang = "clang" in so.lower()
        self.cache = work / ".objcache"
        self.cache.mkdir(parents=True, exist_ok=True)
        self.notes = []
        pch_dir = work / ".pch"
        pch_dir.mkdir(parents=True, exist_ok=True)
        gen_headers = SYSTEM_HEADERS + ISA_HEADERS.get(self.arch, [])
        if self.arch == "aarch64" and not self.clang:
            # GCC 12's <arm_sve.h> (`#pragma GCC aarch64 "arm_sve.h"`) fails after any precompiled
            # header has been loaded (errors, then an internal compiler error).
            self.gen_pch = []
        else:
            self.gen_pch = self.precompile(pch_dir, "gen_pch", "".join(f"#include <{h}>\n" for h in gen_headers),
                                           GEN_FLAGS)
        self.harness_pch = self.precompile(pch_dir, "harness_pch", f'#include "{HERE / "lift_harness.h"}"\n', HARNESS_FLAGS)

    def precompile(self, pch_dir, name, text, flags):
        header = pch_dir / f"{name}.h"
        header.write_text(text)
        target = pch_dir / (f"{name}.pch" if self.clang else f"{name}.h.gch")
        rc, so, se = run([*self.cxx, *flags, "-x", "c++-header", str(header), "-o", str(target)])
        if rc != 0:
            self.notes.append(f"note: precompiling {name} failed (compiling without it):\n" + indent(so + se))
            return []
        return ["-include-pch", str(target)] if self.clang else ["-include", str(header)]

    def compile_cached(self, cmd, source, extra_inputs, obj):
        """Compile through the object cache (WORK/.objcache): a rerun after a change of the tool
        rebuilds only the kernels and harnesses whose text changed."""
        h = hashlib.sha256()
        h.update("\0".join(cmd).encode())
        for f in [source, *extra_inputs]:
            h.update(b"\0" + Path(f).read_bytes())
        key = h.hexdigest()[:32]
        cached, log = self.cache / f"{key}.o", self.cache / f"{key}.log"
        if cached.is_file() and log.is_file():
            shutil.copyfile(cached, obj)
            return 0, "", log.read_text()
        rc, so, se = run([*cmd, "-c", str(source), "-o", str(obj)])
        if rc == 0:
            tmp = self.cache / f"{key}.{os.getpid()}.{threading.get_ident()}.tmp"
            shutil.copyfile(obj, tmp)
            os.replace(tmp, cached)
            log.write_text(se)
        return rc, so, se


# ----------------------------------------------------------------------------------------------
def process(path_arg, args, tc):
    res = Result(path_arg)
    t0 = time.time()
    try:
        cf = CorpusFile(path_arg)
    except (CorpusError, OSError, ValueError) as e:
        res.fail(f"corpus error: {e}")
        return res
    stem = Path(path_arg).name.replace(".", "_")
    wd = Path(args.work).resolve() / stem
    shutil.rmtree(wd, ignore_errors=True)
    specs, gen, build, rw = wd / "specs", wd / "gen", wd / "build", wd / "rewritten"
    for d in (specs, gen, build, rw):
        d.mkdir(parents=True)
    simdgen = args.simdgen

    # a. remarks of the original file
    cmd = [simdgen, "lift", path_arg, "-o", str(specs), *cf.lift_args, "--", cf.std, *cf.cflags]
    rc, so, se = run(cmd, timeout=300)
    if rc != 0:
        res.fail(f"simdgen lift exited with {rc} (expected 0)", quote(cmd) + "\n" + so + se)
    remarks = parse_remarks(se)
    check_remarks(cf, path_arg, remarks, res)
    names = lifted_names([r for r in remarks if r["file"] == path_arg])
    for name in names:
        if not (specs / f"{name}.json").is_file():
            res.fail(f"no spec {specs / (name + '.json')} for the lifted kernel {name}")
    res.log.append(f"  remarks: {res.remarks}, matched {res.matched}; lifted {res.lifted_as_expected} of "
                   f"{res.expected_lifted} expected; false lifts {res.false_lifts}")
    if not names or args.remarks_only or rc != 0:
        res.seconds = time.time() - t0
        return res

    # b. rewrite a copy, generate, build the harness
    reason = cf.signature.check_style() if cf.signature else cf.signature_error
    if reason:
        res.fail(f"cannot build a differential harness: {reason} (see the corpus style in tests/lift/README.md)")
        res.seconds = time.time() - t0
        return res
    copy = rw / Path(path_arg).name
    shutil.copyfile(path_arg, copy)
    shutil.rmtree(specs)
    specs.mkdir()
    cmd = [simdgen, "lift", "--rewrite", str(copy), "-o", str(specs), *cf.lift_args, "--", cf.std, *cf.cflags]
    rc, so, se = run(cmd, timeout=300)
    if rc != 0:
        res.fail(f"simdgen lift --rewrite exited with {rc}", quote(cmd) + "\n" + so + se)
        return finish(res, t0)
    names2 = lifted_names([r for r in parse_remarks(se) if r["file"] == str(copy)])
    if sorted(names2) != sorted(names):
        res.fail(f"the --rewrite run lifted {sorted(names2)}, the first run {sorted(names)}", se)
        return finish(res, t0)
    rewritten = copy.read_text()
    for name in names:
        if f'#include "{name}.h"' not in rewritten or not re.search(r"\b" + re.escape(name) + r"\s*\(", rewritten):
            res.fail(f"the rewritten file does not include \"{name}.h\" and call {name}(...)", rewritten)
            return finish(res, t0)
    spec_files = sorted(str(p) for p in specs.glob("*.json"))
    cmd = [simdgen, "generate", *spec_files, "-o", str(gen)]
    rc, so, se = run(cmd, timeout=300)
    if rc != 0:
        res.fail(f"simdgen generate exited with {rc}", quote(cmd) + "\n" + so + se)
        return finish(res, t0)

    cc = tc.cxx if cf.is_cpp else tc.cc
    warn = ["-Wall", "-Wextra"]
    fn = cf.signature.name
    main_cpp = build / "harness_main.cpp"
    main_cpp.write_text(harness_main(cf, path_arg, names))
    # (what, command without -c/-o, source, files the object depends on besides the source, object)
    compiles = [
        ("original", [*cc, cf.std, *cf.cflags, "-O2", *warn, "-fwrapv", "-ffp-contract=off", f"-D{fn}={fn}__orig"], Path(path_arg), None,
         build / "original.o"),
        ("rewritten", [*cc, cf.std, *cf.cflags, "-O2", *warn, "-fwrapv", "-ffp-contract=off", f"-D{fn}={fn}__lifted", "-I", str(gen)], copy, None,
         build / "rewritten.o"),
    ]
    for k, g in enumerate(sorted(gen.glob("*.cpp"))):
        compiles.append((f"generated {g.name}", [*tc.cxx, *tc.gen_pch, *GEN_FLAGS], g, [g.with_suffix(".h")],
                         build / f"gen{k}.o"))
    compiles.append(("harness", [*tc.cxx, *tc.harness_pch, *HARNESS_FLAGS, "-I", str(HERE), "-I", str(gen)], main_cpp,
                     [HERE / "lift_harness.h", *[gen / f"{k}.h" for k in names]], build / "harness_main.o"))
    for what, cmd, source, deps, obj in compiles:
        if deps is None:
            rc, so, se = run([*cmd, "-c", str(source), "-o", str(obj)])
        else:
            rc, so, se = tc.compile_cached(cmd, source, deps, obj)
        if rc != 0:
            res.fail(f"compiling the {what} failed", quote([*cmd, "-c", source, "-o", obj]) + "\n" + so + se)
            return finish(res, t0)
        if "warning:" in se:
            res.warnings += se.count("warning:")
            res.log.append(f"  warnings compiling the {what}:")
            res.log.append(indent(se).rstrip("\n"))
    exe = build / "harness"
    cmd = [*tc.cxx, *[str(c[4]) for c in compiles], "-o", str(exe), "-lm", *shlex.split(args.ldflags)]
    rc, so, se = run(cmd)
    if rc != 0:
        res.fail("linking the harness failed", quote(cmd) + "\n" + so + se)
        return finish(res, t0)

    # c. run it, once per variant
    runner = shlex.split(args.runner) if args.runner else []
    if args.variants:
        variants = [v for v in args.variants.split(",") if v]
    else:
        rc, so, se = run([*runner, str(exe), "--variants"], timeout=120)
        if rc != 0:
            res.fail("the harness could not list the variants", so + se)
            return finish(res, t0)
        variants = []
        for v in so.split():
            if v not in variants:
                variants.append(v)
    ran = []
    for k, v in enumerate(variants):
        env = dict(os.environ)
        if k > 0:  # the first variant takes every length, the others skip most above 80 (lift_harness.h)
            env["SIMDGEN_LIFT_THIN"] = "1"
        if v != "default":
            env["SIMDGEN_VARIANT"] = v
        else:
            env.pop("SIMDGEN_VARIANT", None)
        cmd = [*runner, str(exe)]
        rc, so, se = run(cmd, timeout=900, env=env)
        if rc != 0:
            res.mismatch = True
            what = {1: "differential mismatch", 3: "memory fault"}.get(rc, f"harness exit status {rc}")
            res.fail(f"{what} (SIMDGEN_VARIANT={v})",
                     f"reproduce: SIMDGEN_VARIANT={shlex.quote(v)} {quote(cmd)}\n{so}{se}")
            break
        m = re.search(r"ok: (\d+) cases; kernels ran: (.*)", so)
        if m:
            ran.append(m.group(2).strip())
            res.cases = m.group(1)
    if ran and not res.mismatch:
        res.log.append(f"  differential: {res.cases} cases per variant, identical results; kernels ran: " + "; ".join(ran))
    return finish(res, t0)


def finish(res, t0):
    res.seconds = time.time() - t0
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("--simdgen", required=True, help="the simdgen binary")
    ap.add_argument("--work", required=True, help="work directory (WORK/NAME/{specs,gen,build,rewritten} per file)")
    ap.add_argument("--cc", default="cc", help="C compiler for .c corpus files (may include flags)")
    ap.add_argument("--cxx", default="c++", help="C++ compiler for .cpp corpus files, generated kernels, harness")
    ap.add_argument("--runner", default="", help='command that runs the harness, e.g. "qemu-aarch64 -L /usr/aarch64-linux-gnu -cpu max"')
    ap.add_argument("--ldflags", default="", help="extra link flags (e.g. -static)")
    ap.add_argument("--only", default="", help="only corpus files whose name (or path) matches this glob")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2, help="files processed in parallel")
    ap.add_argument("--variants", default="",
                    help="comma-separated SIMDGEN_VARIANT values to run (\"default\" = unset); default: every variant "
                         "the generated kernels have on the target")
    ap.add_argument("--remarks-only", action="store_true", help="check the remarks only (no rewrite, no harness)")
    ap.add_argument("files", nargs="+", metavar="CORPUS_FILES")
    args = ap.parse_args()

    files = [f for f in args.files
             if not args.only or fnmatch.fnmatch(Path(f).name, args.only) or fnmatch.fnmatch(f, args.only)]
    if not files:
        print("run_corpus.py: no corpus file selected", file=sys.stderr)
        return 2
    work = Path(args.work).resolve()
    work.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    tc = None if args.remarks_only else Toolchain(args, work)
    for note in tc.notes if tc else []:
        print(note)
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(process, f, args, tc) for f in files]
        for fut in futures:
            r = fut.result()
            results.append(r)
            status = "FAIL" if r.failures else "ok  "
            print(f"{status} {r.path} ({r.seconds:.1f} s)")
            for line in r.log:
                if line:
                    print(line)
            sys.stdout.flush()

    E = sum(r.expected_lifted for r in results)
    L = sum(r.lifted_as_expected for r in results)
    F = sum(r.false_lifts for r in results)
    M = sum(r.matched for r in results)
    R = sum(r.remarks for r in results)
    D = sum(1 for r in results if r.mismatch)
    W = sum(r.warnings for r in results)
    failed = [r for r in results if r.failures]
    print()
    print(f"{len(results)} files, {R} remarks, {W} compiler warnings, {time.time() - t0:.1f} s")
    if F:
        print(f"FALSE LIFTS: {F} (loops that must not be lifted were lifted)")
    for r in failed:
        print(f"FAILED {r.path}: " + "; ".join(r.failures))
    rate = 100.0 * L / E if E else 0.0
    print(f"lift corpus: {L} lifted of {E} expected (lift rate {rate:.1f}%), {F} false lifts, {M} remarks matched, "
          f"{D} differential mismatches")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
