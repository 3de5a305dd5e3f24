# SPDX-License-Identifier: Apache-2.0
"""Which of a project's loops are kernels of simdgen's families, and how many of those lift.

The lists are judgements written by reading the code (`kernel_loops/PROJECT.json`, the rules in
REAL_PROJECTS.md, "Which loops are kernels"), one entry per kernel loop:
  {"loop": "src/blas.c:179", "family": "map", "form": "Y[i*INCY] += ALPHA*X[i*INCX]", "inner": [...]}
`inner` names the loops inside a nest that is one kernel as a whole. A kernel is lifted when its
own loop is; "in part" when only loops inside it are (one call per row instead of one call).
"""
import collections
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def load(project):
    """The project's kernel list ({'commit', 'kernels': [...]}), or None when it has none."""
    path = os.path.join(HERE, 'kernel_loops', project + '.json')
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def coverage(result, kernels):
    """Counts for one project's lift result against its kernel list."""
    remarks = {}
    for f in result['files']:
        for r in f['remarks']:
            remarks[f'{f["file"]}:{r["line"]}'] = r
    out = {'kernels': 0, 'lifted': 0, 'in_part': 0, 'refused': [], 'unknown': [], 'families': collections.Counter(),
           'stale': bool(kernels.get('commit') and result.get('commit') and
                         not result['commit'].startswith(kernels['commit']))}
    for k in kernels['kernels']:
        r = remarks.get(k['loop'])
        if r is None:
            out['unknown'].append(k['loop'])  # not a loop of this run: another commit, or a typo
            continue
        out['kernels'] += 1
        out['families'][k['family']] += 1
        if r['lifted']:
            out['lifted'] += 1
        elif any(remarks.get(i, {}).get('lifted') for i in k.get('inner', [])):
            out['in_part'] += 1
        else:
            out['refused'].append((k, r['text']))
    return out


def summary_cells(cov):
    """`kernels | lifted | in part | rate` cells of the summary table."""
    if cov is None:
        return '- | - | - | -'
    n = cov['kernels']
    return f'{n} | {cov["lifted"]} | {cov["in_part"]} | {100.0 * cov["lifted"] / n if n else 0:.0f}%'


def section(cov, reason_key, top=25):
    """Markdown lines: the kernel loops lift refuses, grouped by its reason."""
    lines = []
    if cov['stale']:
        lines.append('**The kernel list was written for another commit of this project: its lines may not match.**')
        lines.append('')
    fam = ', '.join(f'{f} {n}' for f, n in cov['families'].most_common())
    lines.append(f'**{cov["kernels"]} loops are kernels of simdgen\'s families** ({fam}): {cov["lifted"]} lifted as '
                 f'written, {cov["in_part"]} in part (loops inside the nest, one call per row), '
                 f'{len(cov["refused"])} refused.')
    lines.append('')
    if cov['unknown']:
        lines.append(f'Listed kernels with no remark in this run (not counted): {", ".join(cov["unknown"])}.')
        lines.append('')
    groups = collections.OrderedDict()
    for k, text in cov['refused']:
        groups.setdefault(reason_key(text), []).append(k)
    if groups:
        lines.append('Kernel loops refused, by reason:')
        lines.append('')
        lines.append('| count | reason | examples |')
        lines.append('| ---: | --- | --- |')
        for key, ks in sorted(groups.items(), key=lambda kv: -len(kv[1]))[:top]:
            ex = '; '.join(f'{k["loop"]} `{k["form"]}`' for k in ks[:2]).replace('|', '\\|')
            lines.append(f'| {len(ks)} | {key.replace("|", chr(92) + "|")} | {ex} |')
        lines.append('')
    return lines
