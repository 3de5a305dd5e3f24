#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`simdgen lift` on real C projects nobody here wrote: loop counts, refusal reasons, and a
differential run of each project's own programs, original against rewritten.

    bench/lift/real_projects.py                          # the projects of bench/lift/real_projects.json
    bench/lift/real_projects.py --rewrite --out /tmp/real_projects.md
    bench/lift/real_projects.py --rewrite --only darknet --bisect

The recipe (JSON, bench/lift/real_projects.json by default) gives per project its checkout (a
directory: it is copied, never modified), the C files to lift, the compiler flags, the config
headers to generate, and optionally how to build and run its programs. See
bench/lift/REAL_PROJECTS.md. Only the Python standard library; needs gcc-12/g++-12 for --rewrite.

In every string of a recipe, {src} is the project's copy (the original one, or the rewritten one
when building that side), {cfg} the directory of the generated config headers, {bench} the
directory of this script (where the drivers are), {work} the project's work directory, {inputs} the directory where the
`prepare` commands run and write the inputs, {gen} the generated kernels (rewritten side only; empty
for the original). A source path that is not absolute after the substitution is relative to {src}. The `setup`
commands run in {cfg} (against the original copy) before anything is lifted.
"""
import argparse
import collections
import concurrent.futures
import datetime
import fnmatch
import glob
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

import kernel_loops  # noqa: E402 (this directory)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

REMARK_RE = re.compile(r'^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): remark: '
                       r'(?P<kind>lifted|not lifted): (?P<text>.*)$')
SUMMARY_RE = re.compile(r'^simdgen lift: (\d+) of (\d+) loops lifted')


# --------------------------------------------------------------------------------------------
# small helpers

def log(*a):
    print(*a, file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, stdin=None, timeout=600):
    """Runs cmd; returns (rc, stdout+stderr text)."""
    p = subprocess.run(cmd, cwd=cwd, env=env, stdin=stdin, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout.decode('utf-8', 'replace')


def subst(s, vars_):
    if isinstance(s, list):
        return [subst(x, vars_) for x in s]
    for k, v in vars_.items():
        s = s.replace('{' + k + '}', v)
    return s


def copy_checkout(src, dst):
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns('.git'))


def expand_files(patterns, base, exclude=()):
    out = []
    for pat in patterns:
        hits = sorted(glob.glob(os.path.join(base, pat)))
        if not hits:
            raise SystemExit(f'recipe: no file matches {pat} under {base}')
        for h in hits:
            rel = os.path.relpath(h, base)
            if rel not in out and not any(fnmatch.fnmatch(rel, e) for e in exclude):
                out.append(rel)
    return out


def git_head(path):
    try:
        rc, out = run(['git', '-C', path, 'log', '-1', '--format=%H %cs'], timeout=30)
        return out.strip() if rc == 0 else ''
    except Exception:
        return ''


def cpu_model():
    try:
        rc, out = run(['lscpu'], timeout=30)
        for line in out.splitlines():
            if line.startswith('Model name:'):
                return line.split(':', 1)[1].strip()
    except Exception:
        pass
    return platform.processor() or 'unknown'


# --------------------------------------------------------------------------------------------
# remarks

def parse_remarks(text):
    """The remarks of one `simdgen lift` run: a list of dicts (file, line, col, lifted, text).
    A remark that quotes a statement spanning lines goes on over the following lines (its
    backticks are unbalanced until the closing one)."""
    remarks = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        m = REMARK_RE.match(lines[i])
        i += 1
        if not m:
            continue
        body = m.group('text')
        while body.count('`') % 2 == 1 and i < len(lines) and not REMARK_RE.match(lines[i]) \
                and not SUMMARY_RE.match(lines[i]):
            body += '\n' + lines[i]
            i += 1
        remarks.append({'file': m.group('file'), 'line': int(m.group('line')),
                        'col': int(m.group('col')), 'lifted': m.group('kind') == 'lifted',
                        'text': body})
    return remarks


TAG_RE = re.compile(r'^(as an? [a-z -]+?|its loop over the row): ')


def reason_key(text):
    """The leading phrase of a refusal: the recogniser tags ("as an element-wise loop: ") kept,
    code in backticks and parenthesised details elided, cut at the first ':' or ';' after."""
    tags = []
    t = text
    while True:
        m = TAG_RE.match(t)
        if not m:
            break
        tags.append(m.group(1))
        t = t[m.end():]
    t = re.sub(r'`[^`]*`', '`…`', t, flags=re.S)
    prev = None
    while prev != t:   # innermost first; the placeholder has no parentheses, so nesting unwinds
        prev = t
        t = re.sub(r'\([^()]*\)', '\x00', t)
    t = t.replace('\x00', '(…)')
    t = re.sub(r'\b\d+ elements', 'N elements', t)
    t = re.split(r'; |: ', t, maxsplit=1)[0].strip()
    return ': '.join(tags + [t])


def called_function(text):
    m = re.search(r'the body calls `([^`]*)`', text)
    return m.group(1) if m else None


def lifted_kind(text):
    m = re.search(r'\((.*)\)\s*$', text)
    if not m:
        return text
    k = m.group(1)
    k = re.sub(r'\s*\(\d+ inputs?, \d+ outputs?\)', '', k)
    return k


# --------------------------------------------------------------------------------------------
# the work on one project

class Project:
    def __init__(self, recipe, args, simdgen):
        self.r = recipe
        self.args = args
        self.simdgen = simdgen
        self.name = recipe['name']
        self.work = os.path.join(args.work, self.name)
        self.checkout = recipe['checkout']
        self.result = {'name': self.name, 'kernels': recipe.get('kernels', self.name), 'checkout': self.checkout,
                       'commit': git_head(self.checkout), 'description': recipe.get('description', ''),
                       'files': [], 'tool_errors': [], 'runs': [], 'false_lifts': [],
                       'build_errors': [], 'notes': []}

    # -- paths and variables
    def vars(self, src, gen=''):
        return {'src': src, 'cfg': os.path.join(self.work, 'cfg'), 'bench': HERE,
                'work': self.work, 'inputs': os.path.join(self.work, 'inputs'), 'gen': gen}

    def flags(self, src, gen=''):
        return subst(self.r.get('cflags', []), self.vars(src, gen))

    def lift_args(self):
        return list(self.r.get('lift_args', [])) + list(self.args.lift_arg or [])

    def setup(self):
        if os.path.exists(self.work):
            shutil.rmtree(self.work)
        os.makedirs(self.work)
        self.orig = os.path.join(self.work, 'orig')
        copy_checkout(self.checkout, self.orig)
        cfg = os.path.join(self.work, 'cfg')
        os.makedirs(cfg)
        for name, content in self.r.get('config_files', {}).items():
            if isinstance(content, list):
                content = '\n'.join(content) + '\n'
            path = os.path.join(cfg, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w') as f:
                f.write(content)
        for cmd in self.r.get('setup', []):
            cmd = subst(cmd, self.vars(self.orig))
            rc, out = run(cmd, cwd=cfg, timeout=600)
            if rc != 0:
                raise SystemExit(f'{self.name}: setup step failed: {" ".join(cmd)}\n{out}')
        self.files = expand_files(self.r['lift'], self.orig, self.r.get('lift_exclude', []))

    @staticmethod
    def spec_key(rel):
        return rel.replace('/', '__').replace('.', '_')

    # -- lift (analysis)
    def lift_file(self, src, rel, specdir, extra=()):
        cmd = [self.simdgen, 'lift', *extra, *self.lift_args(), rel, '-o', specdir, '--', *self.flags(src)]
        t0 = time.perf_counter()
        rc, out = run(cmd, cwd=src, timeout=600)
        dt = time.perf_counter() - t0
        return rc, out, cmd, dt

    def analyse(self):
        total_time = 0.0
        for rel in self.files:
            specdir = os.path.join(self.work, 'specs', self.spec_key(rel))
            rc, out, cmd, dt = self.lift_file(self.orig, rel, specdir)
            total_time += dt
            rems = parse_remarks(out)
            entry = {'file': rel, 'rc': rc, 'remarks': rems, 'loops': len(rems),
                     'lifted': sum(r['lifted'] for r in rems),
                     'refused': sum(not r['lifted'] for r in rems), 'seconds': dt}
            m = None
            for line in out.splitlines():
                m = SUMMARY_RE.match(line) or m
            if m and (int(m.group(1)), int(m.group(2))) != (entry['lifted'], entry['loops']):
                self.tool_error(f'{rel}: the summary says {m.group(1)} of {m.group(2)} but '
                                f'{entry["lifted"]} of {entry["loops"]} remarks were parsed', cmd, '')
            if rc != 0:
                errs = [l for l in out.splitlines() if ': error:' in l or 'simdgen lift:' in l][:6]
                what = 'does not compile (exit 2)' if rc == 2 else f'exit status {rc}'
                self.tool_error(f'{rel}: simdgen lift {what}', cmd, '\n'.join(errs) or out[-2000:])
            for r in rems:
                if not r['lifted'] and r['text'].startswith('simdgen cannot build its spec'):
                    self.tool_error(f'{rel}:{r["line"]}: lift wrote a spec that simdgen rejects',
                                    cmd, r['text'].split('\n')[0])
            self.result['files'].append(entry)
        self.result['lift_seconds'] = total_time

    def tool_error(self, what, cmd, detail):
        self.result['tool_errors'].append({'what': what, 'cmd': ' '.join(cmd), 'detail': detail})

    # -- rewrite, generate, build
    def rewrite(self, dst, only_file=None, functions=None, tag='lifted'):
        """Copies the checkout to dst and rewrites the lifted files (or one file, only the given
        functions); returns the directory holding all the specs."""
        if only_file and os.path.isdir(dst):
            for rel in self.files:   # a bisection step: undo the previous step's rewrite only
                shutil.copy2(os.path.join(self.orig, rel), os.path.join(dst, rel))
        else:
            copy_checkout(self.checkout, dst)
        specroot = os.path.join(self.work, f'specs-{tag}')
        if os.path.exists(specroot):
            shutil.rmtree(specroot)
        files = [only_file] if only_file else self.built_files()
        for rel in files:
            specdir = os.path.join(specroot, self.spec_key(rel))
            extra = ['--rewrite'] + (['--functions', ','.join(functions)] if functions else [])
            rc, out, cmd, _ = self.lift_file(dst, rel, specdir, extra)
            if rc != 0:
                sig = f' (signal {-rc})' if rc < 0 else ''
                self.tool_error(f'{rel}: simdgen lift --rewrite exit status {rc}{sig}: the file is not rewritten',
                                cmd, out[-2000:] if rc > 0 else '')
                if not functions:
                    self.result.setdefault('rewrite_failed', []).append(rel)
                continue
            if not functions:
                before = [(r['line'], r['lifted']) for e in self.result['files'] if e['file'] == rel
                          for r in e['remarks']]
                after = [(r['line'], r['lifted']) for r in parse_remarks(out)]
                if before != after:
                    self.tool_error(f'{rel}: --rewrite gave other remarks than the analysis', cmd, '')
        return specroot

    def built_files(self):
        """The lifted files that the recipe's programs compile (the others, say a variant of
        the program that no run builds, are lifted for the counts only)."""
        b = self.r.get('build', {})
        built = set()
        for key in ['common'] + list(b.get('programs', {}).values()):
            for p in self.sources(key, self.orig):
                built.add(os.path.relpath(p, self.orig))
        return [f for f in self.files if f in built]

    def generate(self, specroot, gen):
        if os.path.exists(gen):
            shutil.rmtree(gen)
        specs = sorted(glob.glob(os.path.join(specroot, '*', '*.json')))
        flat = os.path.join(specroot, '_all')
        os.makedirs(flat, exist_ok=True)
        seen = {}
        for s in specs:
            b = os.path.basename(s)
            if b in seen:
                with open(s) as f1, open(os.path.join(flat, b)) as f2:
                    j1, j2 = json.load(f1), json.load(f2)
                j1.pop('description', None)
                j2.pop('description', None)
                if j1 == j2:
                    continue
                self.tool_error(f'two lifted files give the kernel name {b[:-5]} ({seen[b]} and '
                                f'{os.path.basename(os.path.dirname(s))}): their kernels collide',
                                [], '')
                continue
            seen[b] = os.path.basename(os.path.dirname(s))
            shutil.copy(s, os.path.join(flat, b))
        os.makedirs(gen)
        flat_specs = sorted(glob.glob(os.path.join(flat, '*.json')))
        if not flat_specs:
            return True
        cmd = [self.simdgen, 'generate', *flat_specs, '-o', gen]
        rc, out = run(cmd, timeout=1200)
        if rc != 0:
            self.tool_error(f'simdgen generate exit status {rc}', cmd[:3] + ['...'], out[-3000:])
            return False
        return True

    def sources(self, key, src, gen=''):
        b = self.r['build']
        v = self.vars(src, gen)
        out = []
        for pat in b.get(key, []) if isinstance(key, str) else key:
            p = subst(pat, v)
            if not os.path.isabs(p):
                p = os.path.join(src, p)
            hits = sorted(glob.glob(p))
            if not hits:
                raise SystemExit(f'recipe {self.name}: no source matches {pat}')
            for h in hits:
                if not any(fnmatch.fnmatch(os.path.relpath(h, src), e) for e in b.get('exclude', [])):
                    out.append(h)
        return out

    def compile_all(self, jobs_list):
        """jobs_list: (cmd, obj); compiles in parallel (--jobs); returns the failures."""
        fails = []

        def one(job):
            cmd, obj = job
            if os.path.exists(obj):
                return None
            rc, out = run(cmd, timeout=1200)
            return None if rc == 0 else (cmd, out)

        with concurrent.futures.ThreadPoolExecutor(max_workers=self.args.jobs) as ex:
            for res in ex.map(one, jobs_list):
                if res:
                    fails.append(res)
        return fails

    def build(self, side, src, gen, objcache=None, extra=()):
        """Builds every program of the recipe from src into WORK/build-SIDE; gen='' for the
        original. objcache: {source path relative to src: object} reused as is (bisection).
        Returns {program: path} or None (the errors are in the result)."""
        b = self.r['build']
        bdir = os.path.join(self.work, f'build-{side}')
        if os.path.exists(bdir):
            shutil.rmtree(bdir)
        os.makedirs(bdir)
        cc = b.get('cc', 'gcc-12')
        cxx = b.get('cxx', 'g++-12')
        copt = b.get('copt', ['-O2'])
        flags = self.flags(src, gen) + (['-I', gen] if gen else [])
        jobs = []
        objmap = {}

        def obj_for(path):
            if path in objmap:
                return objmap[path]
            rel = os.path.relpath(path, src)
            name = rel.replace('/', '__').replace('..', 'up')
            if objcache and rel in objcache:
                objmap[path] = objcache[rel]
                return objmap[path]
            obj = os.path.join(bdir, name + '.o')
            objmap[path] = obj
            is_cxx = path.endswith(('.cpp', '.cc', '.cxx'))
            if is_cxx:
                cmd = [cxx, *copt, *extra, *flags, '-c', path, '-o', obj]
            else:
                cmd = [cc, *copt, *extra, *b.get('std', []), *flags, '-c', path, '-o', obj]
            jobs.append((cmd, obj))
            return obj

        common = [obj_for(p) for p in self.sources('common', src, gen)]
        progs = {}
        for prog, srcs in b['programs'].items():
            progs[prog] = [obj_for(p) for p in self.sources(srcs, src, gen)]
        kernels = []
        if gen:
            for k in sorted(glob.glob(os.path.join(gen, '*.cpp'))):
                obj = os.path.join(bdir, 'kernel__' + os.path.basename(k)[:-4] + '.o')
                jobs.append(([cxx, '-O2', '-std=c++17', '-I', gen, '-c', k, '-o', obj], obj))
                kernels.append(obj)
        fails = self.compile_all(jobs)
        if fails:
            for cmd, out in fails[:5]:
                errs = [l for l in out.splitlines() if 'error' in l][:8]
                self.result['build_errors'].append({'side': side, 'cmd': ' '.join(cmd),
                                                    'detail': '\n'.join(errs) or out[-1500:]})
            return None
        out = {}
        for prog, objs in progs.items():
            exe = os.path.join(bdir, prog)
            cmd = [cxx, *extra, *objs, *common, *kernels, '-o', exe, *b.get('libs', [])]
            rc, text = run(cmd, timeout=600)
            if rc != 0:
                self.result['build_errors'].append({'side': side, 'cmd': ' '.join(cmd[:3]) + ' ... ',
                                                    'detail': text[-2000:]})
                return None
            out[prog] = exe
        self.objmap = {os.path.relpath(p, src): o for p, o in objmap.items()}
        return out

    # -- inputs and runs
    def prepare(self):
        inputs = os.path.join(self.work, 'inputs')
        os.makedirs(inputs, exist_ok=True)
        for cmd in self.r.get('prepare', []):
            cmd = subst(cmd, self.vars(self.orig))
            rc, out = run(cmd, cwd=inputs, timeout=1200)
            if rc != 0:
                raise SystemExit(f'{self.name}: prepare step failed: {" ".join(cmd)}\n{out}')

    def execute(self, exe, spec, src, rundir, variant=None, timed=False):
        """Runs one program once; returns (seconds, {output name: bytes path}, rc)."""
        if os.path.exists(rundir):
            shutil.rmtree(rundir)
        os.makedirs(rundir)
        v = self.vars(src)
        cmd = [exe]
        for a in subst(spec.get('args', []), v):
            hits = sorted(glob.glob(a)) if ('*' in a or '?' in a) else []
            cmd += hits or [a]   # a pattern is expanded, as a shell would
        env = dict(os.environ)
        env.pop('SIMDGEN_VARIANT', None)
        if variant and variant != 'auto':
            env['SIMDGEN_VARIANT'] = variant
        stdin = subst(spec['stdin'], v) if spec.get('stdin') else os.devnull
        out_path = os.path.join(rundir, 'stdout')
        err_path = os.path.join(rundir, 'stderr')
        with open(stdin, 'rb') as fi, open(out_path, 'wb') as fo, open(err_path, 'wb') as fe:
            t0 = time.perf_counter()
            p = subprocess.run(cmd, cwd=rundir, stdin=fi, stdout=fo, stderr=fe, env=env,
                               timeout=spec.get('timeout', 900))
            dt = time.perf_counter() - t0
        outs = {}
        for name in spec.get('outputs', ['stdout']):
            outs[name] = os.path.join(rundir, name)
        return dt, outs, p.returncode

    @staticmethod
    def first_difference(a, b):
        with open(a, 'rb') as f:
            da = f.read()
        with open(b, 'rb') as f:
            db = f.read()
        if da == db:
            return None
        n = min(len(da), len(db))
        i = next((k for k in range(n) if da[k] != db[k]), n)
        line = da[:i].count(b'\n') + 1
        la = da.split(b'\n')[line - 1][:200] if line - 1 < len(da.split(b'\n')) else b''
        lb = db.split(b'\n')[line - 1][:200] if line - 1 < len(db.split(b'\n')) else b''
        return {'offset': i, 'sizes': (len(da), len(db)), 'line': line,
                'orig': la.decode('utf-8', 'replace'), 'lifted': lb.decode('utf-8', 'replace')}

    def compare_run(self, spec, orig_exe, lifted_exe, lifted_src, tag, variant='auto'):
        """Runs one recipe run on both sides; returns None when equal, else the difference."""
        d0 = os.path.join(self.work, 'run', 'orig', spec['name'])
        d1 = os.path.join(self.work, 'run', tag, spec['name'] + '.' + variant)
        # both sides read the same inputs: {src} in a run's arguments is the original copy
        _, o0, rc0 = self.execute(orig_exe, spec, self.orig, d0)
        _, o1, rc1 = self.execute(lifted_exe, spec, self.orig, d1, variant)
        if rc0 != rc1:
            return {'what': f'exit status {rc0} (original) vs {rc1} (rewritten)'}
        for name in o0:
            if not os.path.exists(o0[name]) or not os.path.exists(o1[name]):
                return {'what': f'output {name} missing'}
            d = self.first_difference(o0[name], o1[name])
            if d:
                d['what'] = f'{name} differs'
                return d
        return None

    def differential(self):
        if 'build' not in self.r or not self.args.rewrite:
            return
        lifted = os.path.join(self.work, 'lifted')
        specroot = self.rewrite(lifted)
        gen = os.path.join(self.work, 'gen')
        if not self.generate(specroot, gen):
            return
        self.n_kernels = len(glob.glob(os.path.join(gen, '*.cpp')))
        log(f'[{self.name}] building the original and the rewritten programs')
        exes0 = self.build('orig', self.orig, '')
        self.orig_objs = getattr(self, 'objmap', {})
        exes1 = self.build('lifted', lifted, gen)
        if not exes0 or not exes1:
            return
        self.exes0 = exes0
        self.prepare()
        variants = [v for v in self.args.variants.split(',') if v]
        any_diff = False
        for spec in self.r.get('runs', []):
            log(f'[{self.name}] run {spec["name"]}')
            prog = spec['program']
            entry = {'name': spec['name'], 'program': prog, 'describe': spec.get('describe', ''),
                     'variants': {}, 'timing': None}
            for variant in variants:
                d = self.compare_run(spec, exes0[prog], exes1[prog], lifted, 'lifted', variant)
                entry['variants'][variant] = d
                any_diff = any_diff or d is not None
            if spec.get('time', True) and self.args.runs > 0:
                tspec = dict(spec)
                if 'time_args' in spec:
                    tspec['args'] = spec['time_args']
                t0, t1 = [], []
                for k in range(self.args.runs + 1):   # interleaved; the first pair warms up
                    a = self.execute(exes0[prog], tspec, self.orig, os.path.join(self.work, 'time', 'orig'))[0]
                    b = self.execute(exes1[prog], tspec, self.orig, os.path.join(self.work, 'time', 'lifted'))[0]
                    if k:
                        t0.append(a)
                        t1.append(b)
                entry['timing'] = {'orig': statistics.median(t0), 'lifted': statistics.median(t1),
                                   'args': ' '.join(tspec.get('args', []))}
            self.result['runs'].append(entry)
        if self.args.coverage:
            self.coverage(lifted, gen)
        if any_diff and self.args.bisect:
            self.bisect()

    def coverage(self, lifted, gen):
        """Which lifted loops the runs call the kernel for: the rewritten side built with
        --coverage, every run once, then gcov's count of each kernel call's line."""
        log(f'[{self.name}] coverage of the kernel calls')
        exes = self.build('cover', lifted, gen, extra=['--coverage'])
        if not exes:
            return
        for spec in self.r.get('runs', []):
            self.execute(exes[spec['program']], spec, self.orig, os.path.join(self.work, 'run', 'cover', spec['name']))
        cover = []
        bdir = os.path.join(self.work, 'build-cover')
        for rel in self.built_files():
            e = next(x for x in self.result['files'] if x['file'] == rel)
            names = [(r['text'].split(' ', 1)[0], r['line']) for r in e['remarks'] if r['lifted']]
            if not names:
                continue
            obj = self.objmap.get(rel)
            counts = {}
            gcda = obj[:-2] + '.gcda' if obj else ''
            if gcda and os.path.exists(gcda):
                rc, out = run(['gcov-12', '-t', gcda], cwd=bdir, timeout=300)
                for line in out.splitlines():
                    parts = line.split(':', 2)
                    if len(parts) < 3 or '//' in parts[2].split('(')[0]:
                        continue
                    for name, _ in names:
                        if re.search(r'\b' + re.escape(name) + r'\(', parts[2]):
                            c = parts[0].strip()
                            counts[name] = 0 if c.startswith('#') or c == '-' else int(c.rstrip('*'))
            for name, line in names:
                cover.append({'file': rel, 'line': line, 'kernel': name, 'calls': counts.get(name)})
        self.result['coverage'] = cover

    # -- bisection of a difference down to functions, then loops
    def lifted_functions(self):
        """(file, function, [(kernel name, line)]) for every function with a lifted loop."""
        out = collections.OrderedDict()
        for e in self.result['files']:
            for r in e['remarks']:
                if not r['lifted']:
                    continue
                name = r['text'].split(' ', 1)[0]
                specs = glob.glob(os.path.join(self.work, 'specs', self.spec_key(e['file']), name + '.json'))
                fn = None
                if specs:
                    with open(specs[0]) as f:
                        desc = json.load(f).get('description', '')
                    m = re.search(r'\(function ([^)]+)\)', desc)
                    fn = m.group(1) if m else None
                if fn:
                    out.setdefault((e['file'], fn), []).append((name, r['line'], r['text']))
        return out

    @staticmethod
    def disable_blocks(path, keep):
        """In a rewritten file, makes every lifted block but `keep` run its original loop: the
        first `if (` after the block's `// simdgen lift: NAME (` comment becomes `if (0 && `."""
        with open(path) as f:
            text = f.read()
        out, pos, n = [], 0, 0
        for m in re.finditer(r'// simdgen lift: (\S+) \(', text):
            if m.group(1) == keep:
                continue
            j = text.find('if (', m.end())
            if j < 0:
                continue
            out.append(text[pos:j + 4])
            out.append('0 && ')
            pos = j + 4
            n += 1
        out.append(text[pos:])
        with open(path, 'w') as f:
            f.write(''.join(out))
        return n

    def bisect(self):
        log(f'[{self.name}] bisecting the differences by function')
        diff_runs = [s for s in self.r.get('runs', [])
                     if any(v is not None for e in self.result['runs'] if e['name'] == s['name']
                            for v in e['variants'].values())]
        variants = [v for v in self.args.variants.split(',') if v]
        bdir = os.path.join(self.work, 'bisect')
        funcs = [(k, v) for k, v in self.lifted_functions().items() if k[0] in self.built_files()]
        for n, ((rel, fn), loops) in enumerate(funcs):
            log(f'[{self.name}]   {n + 1}/{len(funcs)}: {rel} {fn}')
            copy_dir = os.path.join(bdir, 'src')
            specroot = self.rewrite(copy_dir, only_file=rel, functions=[fn], tag='bisect')
            gen = os.path.join(bdir, 'gen')
            if not self.generate(specroot, gen):
                continue
            cache = {k: v for k, v in self.orig_objs.items() if k != rel}
            exes = self.build('bisect', copy_dir, gen, objcache=cache)
            if not exes:
                continue
            hits = []
            for spec in diff_runs:
                for variant in variants:
                    d = self.compare_run(spec, self.exes0[spec['program']], exes[spec['program']],
                                         copy_dir, 'bisect', variant)
                    if d:
                        hits.append((spec['name'], variant, d))
            if not hits:
                continue
            log(f'[{self.name}]   {rel}: {fn} changes the output; bisecting its {len(loops)} loop(s)')
            # one loop at a time
            with open(os.path.join(copy_dir, rel)) as f:
                rewritten = f.read()
            culprits = []
            for name, line, text in loops:
                with open(os.path.join(copy_dir, rel), 'w') as f:
                    f.write(rewritten)
                if len(loops) > 1:
                    self.disable_blocks(os.path.join(copy_dir, rel), name)
                exes = self.build('bisect', copy_dir, gen, objcache=cache)
                if not exes:
                    continue
                loop_hits = []
                for spec in diff_runs:
                    for variant in variants:
                        d = self.compare_run(spec, self.exes0[spec['program']], exes[spec['program']],
                                             copy_dir, 'bisect', variant)
                        if d:
                            loop_hits.append((spec['name'], variant, d))
                if loop_hits:
                    culprits.append((name, line, text, loop_hits))
            if not culprits:
                culprits = [(None, None, None, hits)]
            for name, line, text, h in culprits:
                spec_text = ''
                if name:
                    sp = os.path.join(self.work, 'specs', self.spec_key(rel), name + '.json')
                    if os.path.exists(sp):
                        with open(sp) as f:
                            spec_text = f.read()
                src_lines = ''
                if line:
                    with open(os.path.join(self.orig, rel), errors='replace') as f:
                        lines = f.read().splitlines()
                    src_lines = '\n'.join(lines[line - 1:line + 7])
                self.result['false_lifts'].append({
                    'file': rel, 'function': fn, 'kernel': name, 'line': line, 'remark': text,
                    'source': src_lines, 'spec': spec_text,
                    'runs': [(r, v, d) for r, v, d in h]})


# --------------------------------------------------------------------------------------------
# the report

def md_escape(s):
    return s.replace('|', '\\|').replace('\n', ' ')


def render(results, args, simdgen_info):
    out = []
    w = out.append
    w('# `simdgen lift` on real C projects')
    w('')
    w(f'{datetime.date.today().isoformat()}, {cpu_model()}, {os.cpu_count()} CPUs; '
      f'{simdgen_info}; `bench/lift/real_projects.py{" --rewrite" if args.rewrite else ""}` '
      f'(recipe `{os.path.relpath(args.recipe, ROOT) if args.recipe.startswith(ROOT) else args.recipe}`).')
    w('')
    w('| project | files | loops | lifted | refused | lift rate | kernel loops | lifted | in part | kernel lift rate '
      '| differential | speed (orig/rewritten) |')
    w('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- |')
    covs = {}
    for r in results:
        listed = kernel_loops.load(r.get('kernels', r['name']))  # a project built two ways shares one list
        covs[r['name']] = kernel_loops.coverage(r, listed) if listed else None
    for r in results:
        loops = sum(f['loops'] for f in r['files'])
        lifted = sum(f['lifted'] for f in r['files'])
        diff = '-'
        speed = '-'
        if r['runs']:
            bad = sum(1 for e in r['runs'] for v in e['variants'].values() if v is not None)
            tot = sum(len(e['variants']) for e in r['runs'])
            diff = f'{tot - bad}/{tot} identical' + (f', **{bad} differ**' if bad else '')
            sp = [f'{e["timing"]["orig"] / e["timing"]["lifted"]:.2f}x' for e in r['runs'] if e['timing']]
            speed = ', '.join(sp) or '-'
        elif r['build_errors']:
            diff = '**build failed**'
        if r.get('rewrite_failed'):
            diff += f' (**{len(r["rewrite_failed"])} files not rewritten: simdgen crashed**)'
        w(f'| {r["name"]} | {len(r["files"])} | {loops} | {lifted} | {loops - lifted} | '
          f'{100.0 * lifted / loops if loops else 0:.0f}% | {kernel_loops.summary_cells(covs[r["name"]])} | '
          f'{diff} | {speed} |')
    w('')
    for r in results:
        w(f'## {r["name"]}')
        w('')
        if r['description']:
            w(r['description'])
            w('')
        w(f'Checkout `{r["checkout"]}`' + (f' at {r["commit"]}' if r['commit'] else '') + '.')
        w('')
        loops = sum(f['loops'] for f in r['files'])
        lifted = sum(f['lifted'] for f in r['files'])
        w(f'**{loops} loops, {lifted} lifted as written, {loops - lifted} refused** '
          f'(lift took {r.get("lift_seconds", 0):.1f} s for {len(r["files"])} files).')
        w('')
        if covs[r['name']]:
            out.extend(kernel_loops.section(covs[r['name']], reason_key, args.top))
        nested = sum(1 for f in r['files'] for rm in f['remarks'] if not rm['lifted']
                     and re.match(r'as a (row-wise reduction|transpose|column reduction)', rm['text']))
        if nested:
            w(f'{nested} of the refused loops are the outer loop of a nest (their remark is the row-wise '
              f'or transpose recogniser\'s); the inner loops have remarks of their own.')
            w('')
        if r.get('rewrite_failed'):
            w(f'**`simdgen lift --rewrite` failed on {len(r["rewrite_failed"])} file(s), which the rewritten '
              f'build therefore compiles as they were**: ' + ', '.join(r['rewrite_failed']) + '.')
            w('')
        w('| file | loops | lifted | refused |')
        w('| --- | ---: | ---: | ---: |')
        shown = r['files']
        if len(shown) > 40:   # long projects: the files with lifted loops or errors, then the rest summed
            shown = [f for f in r['files'] if f['lifted'] or f['rc'] != 0]
        for f in shown:
            note = '' if f['rc'] == 0 else f' (exit {f["rc"]})'
            w(f'| {f["file"]}{note} | {f["loops"]} | {f["lifted"]} | {f["refused"]} |')
        rest = [f for f in r['files'] if f not in shown]
        if rest:
            w(f'| the other {len(rest)} files | {sum(f["loops"] for f in rest)} | 0 | '
              f'{sum(f["refused"] for f in rest)} |')
        w('')
        kinds = collections.Counter()
        for f in r['files']:
            for rm in f['remarks']:
                if rm['lifted']:
                    kinds[lifted_kind(rm['text'])] += 1
        if kinds:
            w('Lifted, by kind: ' + ', '.join(f'{k} ({n})' for k, n in kinds.most_common()) + '.')
            w('')
        reasons = collections.OrderedDict()
        calls = collections.Counter()
        for f in r['files']:
            for rm in f['remarks']:
                if rm['lifted']:
                    continue
                k = reason_key(rm['text'])
                reasons.setdefault(k, []).append(f'{f["file"]}:{rm["line"]}')
                c = called_function(rm['text'])
                if c:
                    calls[c] += 1
        top = sorted(reasons.items(), key=lambda kv: -len(kv[1]))[:args.top]
        if top:
            w(f'Refusals by leading phrase (top {len(top)} of {len(reasons)}):')
            w('')
            w('| count | reason | example |')
            w('| ---: | --- | --- |')
            for k, where in top:
                w(f'| {len(where)} | {md_escape(k)} | {where[0]} |')
            w('')
        if calls:
            w('Functions called in refused loops: ' + ', '.join(f'`{c}` ({n})' for c, n in calls.most_common(20)) + '.')
            w('')
        if r['runs']:
            w('Differential runs (the original and the rewritten program, gcc-12 -O2; the kernels '
              'g++-12 -O2 -std=c++17; `SIMDGEN_VARIANT` selects the kernels\' variant; times are the '
              f'median of {args.runs} runs, wall clock):')
            w('')
            w('| run | ' + ' | '.join(f'variant {v}' for v in args.variants.split(',') if v) +
              ' | original | rewritten | speed |')
            w('| --- | ' + ' | '.join('---' for v in args.variants.split(',') if v) + ' | ---: | ---: | ---: |')
            for e in r['runs']:
                cells = []
                for v, d in e['variants'].items():
                    cells.append('identical' if d is None else f'**{md_escape(d["what"])}**')
                t = e['timing']
                tc = (f'{t["orig"] * 1000:.1f} ms | {t["lifted"] * 1000:.1f} ms | '
                      f'{t["orig"] / t["lifted"]:.2f}x') if t else '- | - | -'
                w(f'| {e["name"]}: {md_escape(e["describe"])} | ' + ' | '.join(cells) + f' | {tc} |')
            w('')
            for e in r['runs']:
                for v, d in e['variants'].items():
                    if d and 'offset' in d:
                        w(f'- {e["name"]} ({v}): first difference at byte {d["offset"]} (line {d["line"]}; '
                          f'sizes {d["sizes"][0]} vs {d["sizes"][1]}): original `{d["orig"][:120]}`, '
                          f'rewritten `{d["lifted"][:120]}`')
            w('')
        cov = r.get('coverage')
        if cov:
            called = [c for c in cov if c['calls']]
            w(f'Coverage: the runs call the kernel of {len(called)} of the {len(cov)} lifted loops of the '
              f'files they build (gcov on the rewritten build; a loop below the 32-element threshold, or '
              f'whose arrays overlap, runs its original code).')
            never = [c for c in cov if not c['calls']]
            if never:
                w('')
                w('Never called: ' + ', '.join(f'{c["file"]}:{c["line"]} ({c["kernel"]})' for c in never) + '.')
            w('')
        for fl in r['false_lifts']:
            w(f'### False lift candidate: {fl["file"]}:{fl["line"]} ({fl["function"]}, {fl["kernel"]})')
            w('')
            if args.lift_arg:
                w(f'(lifted with `{" ".join(args.lift_arg)}`: with `--reassociate` a float sum or product '
                  f'summed across lanes is expected to differ in the last bits.)')
                w('')
            if fl['remark']:
                w(f'Remark: `lifted: {fl["remark"]}`')
                w('')
            if fl['source']:
                w('```c')
                w(fl['source'])
                w('```')
                w('')
            if fl['spec']:
                w('```json')
                w(fl['spec'].strip())
                w('```')
                w('')
            for run_name, v, d in fl['runs']:
                w(f'- run {run_name}, variant {v}: {d.get("what")}' +
                  (f', first difference at line {d["line"]}: `{d["orig"][:100]}` vs `{d["lifted"][:100]}`'
                   if 'line' in d else ''))
            w('')
        if r['build_errors']:
            w('Build errors:')
            w('')
            for b in r['build_errors']:
                w(f'- {b["side"]}: `{b["cmd"][:300]}`')
                w('```')
                w(b['detail'])
                w('```')
            w('')
        if r['tool_errors']:
            w('simdgen errors:')
            w('')
            for t in r['tool_errors']:
                w(f'- {t["what"]}' + (f' — `{t["detail"][:300]}`' if t['detail'] else ''))
            w('')
    return '\n'.join(out) + '\n'


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--recipe', default=os.path.join(HERE, 'real_projects.json'))
    ap.add_argument('--simdgen', default=os.path.join(ROOT, 'build', 'generator', 'simdgen'))
    ap.add_argument('--simdgen-copy', default='/tmp/simdgen-real/simdgen',
                    help='the binary is copied here first, so that a rebuild does not disturb the run')
    ap.add_argument('--work', default='/tmp/simdgen-real-projects')
    ap.add_argument('--only', help='comma-separated project names')
    ap.add_argument('--checkout', action='append', default=[], metavar='NAME=DIR',
                    help='use DIR as the checkout of project NAME')
    ap.add_argument('--rewrite', action='store_true', help='rewrite, build and run the differential recipes')
    ap.add_argument('--bisect', action='store_true', help='on a difference, find the function and loop')
    ap.add_argument('--variants', default='auto,avx2,scalar',
                    help='SIMDGEN_VARIANT values for the rewritten programs (auto: the best one)')
    ap.add_argument('--no-coverage', dest='coverage', action='store_false',
                    help='with --rewrite, skip the coverage build (which lifted loops the runs call kernels for)')
    ap.add_argument('--runs', type=int, default=3, help='timed runs per side (median); 0: no timing')
    ap.add_argument('--jobs', type=int, default=2)
    ap.add_argument('--top', type=int, default=25)
    ap.add_argument('--lift-arg', action='append', help='an extra argument for simdgen lift (--reassociate)')
    ap.add_argument('--out', help='also write the Markdown report here')
    ap.add_argument('--json', help='write the raw results here')
    ap.add_argument('--from-json', help='only render the report of a --json file (no run)')
    args = ap.parse_args()

    if args.from_json:
        with open(args.from_json) as f:
            saved = json.load(f)
        if isinstance(saved, list):
            saved = {'meta': {'simdgen': 'simdgen ?'}, 'projects': saved}
        report = render(saved['projects'], args, saved['meta']['simdgen'])
        print(report)
        if args.out:
            with open(args.out, 'w') as f:
                f.write(report)
        return

    for _ in range(10):
        try:
            os.makedirs(os.path.dirname(args.simdgen_copy), exist_ok=True)
            shutil.copy2(args.simdgen, args.simdgen_copy + '.tmp')
            os.replace(args.simdgen_copy + '.tmp', args.simdgen_copy)
            rc, out = run([args.simdgen_copy, '--version'], timeout=60)
            if rc == 0:
                break
        except (OSError, subprocess.SubprocessError) as e:
            out = str(e)
        log(f'simdgen not usable yet ({out.strip()[:200]}); retrying in a minute')
        time.sleep(60)
    else:
        raise SystemExit(f'no usable simdgen at {args.simdgen}')
    simdgen_info = out.strip().splitlines()[0] if out.strip() else '?'
    with open(args.recipe) as f:
        recipe = json.load(f)
    overrides = dict(c.split('=', 1) for c in args.checkout)
    only = set(args.only.split(',')) if args.only else None
    results = []
    for pr in recipe['projects']:
        if only and pr['name'] not in only:
            continue
        pr = dict(pr)
        pr['checkout'] = overrides.get(pr['name'], pr['checkout'])
        if not os.path.isdir(pr['checkout']):
            log(f'[{pr["name"]}] no checkout at {pr["checkout"]}: skipped')
            continue
        p = Project(pr, args, args.simdgen_copy)
        log(f'[{p.name}] lifting {pr["checkout"]}')
        p.setup()
        p.analyse()
        p.differential()
        results.append(p.result)
    report = render(results, args, simdgen_info)
    print(report)
    if args.out:
        with open(args.out, 'w') as f:
            f.write(report)
    if args.json:
        with open(args.json, 'w') as f:
            json.dump({'meta': {'simdgen': simdgen_info, 'date': datetime.date.today().isoformat(),
                                'cpu': cpu_model(), 'argv': sys.argv[1:]},
                       'projects': results}, f, indent=1, default=str)


if __name__ == '__main__':
    main()
