#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The examples of README.md and docs/*.md still hold (issue 72: docs that agree).

- every ```json block parses, and one that is a spec (has "simdgen") passes `simdgen validate`;
- every repository path a ```sh line names (bench/..., specs/..., .ci/...) exists;
- every `simdgen` command line names a command whose --help lists each option the line uses;
- the `simdgen` lines of the README and of docs/lift.md and docs/vendoring.md are run, in order, in a
  scratch workspace (a copy of specs/, the files the docs call kernels/specs and src/stats.c):
  exit 0, or 1 for `generate --check` (documented: files missing or stale);
- the remarks docs/lift.md prints for src/stats.c are what `simdgen lift` prints for
  tests/docs/stats.c, and its rewritten `hottest` is what --rewrite writes.

Usage: check_docs.py --simdgen BIN --root REPO [--work DIR]
"""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

REPO_PATH = re.compile(r"^(\.ci|bench|tests|generator|docs|specs|examples|runtime|cmake|templates)/[^*?{}$<>\[\]]+$")
RUN_DOCS = ("README.md", "docs/lift.md", "docs/vendoring.md")


def blocks(path):
    """(language, line of the opening fence, lines) of each fenced block."""
    out, lang, start, body = [], None, 0, []
    for n, line in enumerate(open(path, encoding="utf-8").read().split("\n"), 1):
        if line.startswith("```"):
            if lang is None:
                lang, start, body = line[3:].strip(), n, []
            else:
                out.append((lang, start, body))
                lang = None
        elif lang is not None:
            body.append((n, line))
    return out


def commands(body):
    """(line, tokens) of each shell command of a block: continuations joined, comments dropped."""
    out, pending, first = [], "", 0
    for n, line in body:
        if not pending:
            first = n
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1] + " "
            continue
        text = pending + line
        pending = ""
        try:
            tokens = shlex.split(text, comments=True)
        except ValueError:
            tokens = text.split()
        if tokens:
            out.append((first, tokens))
    return out


def simdgen_call(tokens):
    """The arguments after `simdgen` when the command runs simdgen (any path to it), else None."""
    if tokens and os.path.basename(tokens[0]) == "simdgen":
        return tokens[1:]
    return None


class Checker:
    def __init__(self, simdgen, root, work):
        self.simdgen, self.root, self.work = simdgen, root, work
        self.failures, self.checked = [], 0
        self.helps = {}

    def fail(self, where, message):
        self.failures.append(f"{where}: {message}")

    def run(self, args, cwd, **kw):
        return subprocess.run([self.simdgen] + args, cwd=cwd, capture_output=True, text=True, **kw)

    def help_of(self, command):
        if command not in self.helps:
            r = self.run([command, "--help"], self.root)
            self.helps[command] = r.stdout + r.stderr if r.returncode == 0 else None
        return self.helps[command]

    def check_json(self, where, body):
        text = "\n".join(line for _, line in body)
        try:
            spec = json.loads(text)
        except json.JSONDecodeError as e:
            return self.fail(where, f"the json block does not parse: {e}")
        if not isinstance(spec, dict) or "simdgen" not in spec:
            return
        path = os.path.join(self.work, "doc_spec.json")
        with open(path, "w") as f:
            f.write(text)
        r = self.run(["validate", path], self.root)
        self.checked += 1
        if r.returncode != 0:
            self.fail(where, "the spec does not validate:\n" + r.stderr)

    def check_command(self, where, tokens):
        for t in tokens:
            if REPO_PATH.match(t) and not os.path.exists(os.path.join(self.root, t.rstrip(":,"))):
                self.fail(where, f"names {t}, which is not in the repository")
        args = simdgen_call(tokens)
        if args is None:
            return
        words = [a for a in args if not a.startswith("-")]
        if not words:
            return
        command = words[0]
        usage = self.help_of(command)
        if usage is None:
            return self.fail(where, f"`simdgen {command}` is not a command (its --help fails)")
        for a in args:
            if a == "--":
                break
            option = a.split("=")[0]
            if option.startswith("-") and not re.search(r"(^|[\s,\[])" + re.escape(option) + r"\b", usage):
                self.fail(where, f"`simdgen {command}` has no option {option} (not in its --help)")
        self.checked += 1

    def workspace(self, name):
        ws = os.path.join(self.work, name.replace("/", "_"))
        shutil.rmtree(ws, ignore_errors=True)
        os.makedirs(os.path.join(ws, "kernels", "specs"))
        shutil.copytree(os.path.join(self.root, "specs"), os.path.join(ws, "specs"))
        for spec in ("rowsum_i8", "rowsum_f32", "rowmax_f32"):
            shutil.copy(os.path.join(self.root, "specs", spec + ".json"), os.path.join(ws, "kernels", "specs"))
        os.makedirs(os.path.join(ws, "src"))
        os.makedirs(os.path.join(ws, "include"))
        os.makedirs(os.path.join(ws, "build"))
        shutil.copy(os.path.join(self.root, "tests", "docs", "stats.c"), os.path.join(ws, "src", "stats.c"))
        with open(os.path.join(ws, "build", "compile_commands.json"), "w") as f:
            json.dump([{"directory": ws, "file": "src/stats.c", "command": "cc -std=c11 -Iinclude -c src/stats.c"}], f)
        return ws

    def run_commands(self, doc, cmds, has_clang):
        ws = self.workspace(doc)
        outputs = []
        for where, tokens in cmds:
            args = simdgen_call(tokens)
            if args is None:
                continue
            if not has_clang and args and args[0] in ("lift", "check"):
                continue
            expanded = []
            for a in args:
                matches = sorted(glob.glob(os.path.join(ws, a))) if any(c in a for c in "*?[") else []
                expanded += [os.path.relpath(m, ws) for m in matches] or [a]
            r = self.run(expanded, ws, timeout=600)
            allowed = (0, 1) if "--check" in args else (0,)
            self.checked += 1
            if r.returncode not in allowed:
                self.fail(where, f"`simdgen {' '.join(args)}` exited {r.returncode}:\n{r.stdout}{r.stderr}")
            outputs.append((args, r.stdout + r.stderr))
        return ws, outputs

    def check_lift_doc(self, doc, ws, outputs):
        """docs/lift.md: the remarks it shows and the rewritten function it shows."""
        text_blocks = blocks(os.path.join(self.root, doc))
        first_lift = next((out for args, out in outputs if args and args[0] == "lift"), None)
        if first_lift is None:
            return self.fail(doc, "no `simdgen lift` command was run")
        for lang, start, body in text_blocks:
            for n, line in body:
                if line.startswith("src/stats.c:") and " remark: " in line:
                    self.checked += 1
                    if line not in first_lift.split("\n"):
                        self.fail(f"{doc}:{n}", f"simdgen lift does not print this remark; it prints:\n{first_lift}")
        rewritten = open(os.path.join(ws, "src", "stats.c")).read()
        for lang, start, body in text_blocks:
            code = "\n".join(line for _, line in body)
            if lang == "c" and code.startswith("long hottest("):
                self.checked += 1
                if code not in rewritten:
                    self.fail(f"{doc}:{start}", "lift --rewrite writes another `hottest`:\n" + rewritten)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--simdgen", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--work", default=None)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    work = a.work or tempfile.mkdtemp(prefix="simdgen_docs_")
    os.makedirs(work, exist_ok=True)
    c = Checker(os.path.abspath(a.simdgen), root, os.path.abspath(work))
    has_clang = c.run(["lift", "--help"], root).returncode == 0
    docs = ["README.md"] + sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "docs", "*.md")))
    for doc in docs:
        runnable = []
        for lang, start, body in blocks(os.path.join(root, doc)):
            if lang == "json":
                c.check_json(f"{doc}:{start}", body)
            if lang in ("sh", "bash"):
                for line, tokens in commands(body):
                    c.check_command(f"{doc}:{line}", tokens)
                    runnable.append((f"{doc}:{line}", tokens))
        if doc in RUN_DOCS:
            ws, outputs = c.run_commands(doc, runnable, has_clang)
            if doc == "docs/lift.md" and has_clang:
                c.check_lift_doc(doc, ws, outputs)
    for f in c.failures:
        print("FAIL " + f)
    print(f"{c.checked} documented examples and commands checked, {len(c.failures)} failures")
    return 1 if c.failures else 0


if __name__ == "__main__":
    sys.exit(main())
