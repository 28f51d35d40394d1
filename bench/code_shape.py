"""The shape of the code, as a reader meets it: long lines, long export cells and functions, sibling imports inside
functions, import cycles, and repeated runs of lines.

    python bench/code_shape.py                  # the working tree
    python bench/code_shape.py --ref 03dfd36    # a commit (read with git, nothing is checked out)
    python bench/code_shape.py --before 03dfd36 # both, side by side
    python bench/code_shape.py --details        # also list every sibling import inside a function and every repeat

Targets (issue 27): no line over 120 characters, no export cell over 40 lines, no function over 60 lines, every
sibling import inside a function with its reason, no import cycle (counting those imports), and few repeats.
"""
from __future__ import annotations
import argparse, ast, hashlib, json, re, subprocess, sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PKG = 'relic_nb'
MAX_LINE, MAX_CELL, MAX_FUNC, MIN_REPEAT = 120, 40, 60, 6


class Tree:
    "The files of the working tree, or of a commit read through git."
    def __init__(self, ref:str|None=None): self.ref = ref
    def files(self, folder:str, suffix:str)->list[str]:
        if self.ref is None:
            return sorted(str(p.relative_to(ROOT)) for p in (ROOT/folder).rglob(f'*{suffix}') if '.ipynb_checkpoints' not in str(p))
        out = subprocess.run(['git', 'ls-tree', '-r', '--name-only', self.ref, folder], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout.split()
        return sorted(f for f in out if f.endswith(suffix))
    def read(self, path:str)->str:
        if self.ref is None: return (ROOT/path).read_text(encoding='utf-8')
        return subprocess.run(['git', 'show', f'{self.ref}:{path}'], cwd=ROOT, capture_output=True, text=True, check=True).stdout


def modules(tree:Tree)->dict[str, str]:
    "Module name -> source of every package module but nbdev's index."
    return {p[:-3].replace('/', '.').removesuffix('.__init__'): tree.read(p)
            for p in tree.files(PKG, '.py') if not p.endswith('_modidx.py')}


def long_lines(mods:dict[str, str])->dict:
    "Lines over MAX_LINE characters (nbdev's own `__all__` line counted apart): count, share of all lines, the longest."
    ls = [l for s in mods.values() for l in s.splitlines()]
    long = [l for l in ls if len(l) > MAX_LINE and not l.startswith('__all__ = ')]
    return {'lines': len(ls), f'lines over {MAX_LINE}': len(long),
            '... and nbdev __all__ lines': sum(len(l) > MAX_LINE and l.startswith('__all__ = ') for l in ls),
            'share over (%)': round(100 * len(long) / max(len(ls), 1), 1),
            'longest line': max((len(l) for l in ls if not l.startswith('__all__ = ')), default=0)}


def export_cells(tree:Tree)->list[tuple[int, str]]:
    "(lines, notebook) of every export cell of nbs/."
    out = []
    for p in tree.files('nbs', '.ipynb'):
        for c in json.loads(tree.read(p))['cells']:
            s = ''.join(c['source'])
            if c['cell_type'] == 'code' and re.match(r'#\|\s*export', s): out.append((len(s.splitlines()), Path(p).stem))
    return out


def functions(mods:dict[str, str])->list[tuple[int, str]]:
    "(lines, module.function) of every function and method."
    out = []
    for m, s in mods.items():
        for n in ast.walk(ast.parse(s)):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)): out.append((n.end_lineno - n.lineno + 1, f'{m}.{n.name}'))
    return out


def _target(mod:str, node:ast.ImportFrom|ast.Import, is_pkg:bool)->list[str]:
    "The package modules an import statement names."
    if isinstance(node, ast.Import): return [a.name for a in node.names if a.name.split('.')[0] == PKG]
    if node.level:
        base = mod.split('.') if is_pkg else mod.split('.')[:-1]
        base = base[:len(base) - node.level + 1]
        name = '.'.join(base + ([node.module] if node.module else []))
    else: name = node.module or ''
    if name.split('.')[0] != PKG: return []
    return [name] if node.module else [f'{name}.{a.name}' for a in node.names]


def imports(mods:dict[str, str])->tuple[dict[str, set], list[tuple[str, int, str]]]:
    "The import graph between package modules (imports inside functions too), and the sibling imports inside functions."
    graph, inner = defaultdict(set), []
    for m, s in mods.items():
        tree, lines = ast.parse(s), s.splitlines()
        in_func = set()
        for f in ast.walk(tree):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                in_func |= {id(n) for n in ast.walk(f) if isinstance(n, (ast.Import, ast.ImportFrom))}
        for n in ast.walk(tree):
            if not isinstance(n, (ast.Import, ast.ImportFrom)): continue
            for t in _target(m, n, is_pkg=m == PKG or f'{m}.__init__' in mods):
                t = t if t in mods else t.rsplit('.', 1)[0]      # `from pkg import module` or `from module import name`
                if t in mods and t != m: graph[m].add(t)
            if id(n) in in_func and _target(m, n, False):
                line, above = lines[n.lineno - 1], lines[n.lineno - 2].strip() if n.lineno > 1 else ''
                why = line.split('#', 1)[1].strip() if '#' in line else above[1:].strip() if above.startswith('#') else ''
                inner.append((m, n.lineno, why))
    return graph, inner


def cycles(graph:dict[str, set])->list[list[str]]:
    "The strongly connected components of more than one module (Tarjan)."
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    def visit(v):
        index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in index: visit(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop(); on.discard(w); comp.append(w)
                if w == v: break
            if len(comp) > 1: out.append(sorted(comp))
    for v in sorted(set(graph) | {w for ws in graph.values() for w in ws}):
        if v not in index: visit(v)
    return out


_SKIP = re.compile(r'^\s*(?:$|#|import |from \S+ import |[\]\)\}\[\(\{,:]+$)')

def repeats(mods:dict[str, str], n:int=MIN_REPEAT)->list[tuple[str, int, str, int]]:
    "Places where `n` or more code lines (blank lines, comments and imports left out, white space folded) stand twice."
    seen, out, claimed = {}, [], set()
    for m, s in sorted(mods.items()):
        code = [(k + 1, ' '.join(l.split())) for k, l in enumerate(s.splitlines()) if not _SKIP.match(l)]
        for j in range(len(code) - n + 1):
            key = hashlib.sha1('\n'.join(t for _, t in code[j:j + n]).encode()).hexdigest()
            here = (m, code[j][0])
            if key in seen and (seen[key][0], m) not in claimed:
                out.append((*seen[key], *here)); claimed.add((seen[key][0], m))
            else: seen.setdefault(key, here)
    return out


def shape(ref:str|None=None)->tuple[dict, dict]:
    "The figures of the tree (or commit `ref`), and the lists behind them."
    tree = Tree(ref); mods = modules(tree)
    cells, funcs = export_cells(tree), functions(mods)
    graph, inner = imports(mods)
    cyc, rep = cycles(graph), repeats(mods)
    figs = {**long_lines(mods),
            'export cells': len(cells), f'export cells over {MAX_CELL} lines': sum(c > MAX_CELL for c, _ in cells),
            'longest export cell': max(cells, default=(0, ''))[0],
            'functions': len(funcs), f'functions over {MAX_FUNC} lines': sum(f > MAX_FUNC for f, _ in funcs),
            'longest function': max(funcs, default=(0, ''))[0],
            'sibling imports inside functions': len(inner), '... without a reason': sum(not r for *_, r in inner),
            'import cycles': len(cyc), f'places sharing {MIN_REPEAT}+ lines': len(rep)}
    return figs, dict(cells=sorted(cells, reverse=True), funcs=sorted(funcs, reverse=True), inner=inner, cycles=cyc,
                      repeats=rep)


def main(argv=None)->int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ref', help='a commit to measure instead of the working tree')
    ap.add_argument('--before', help='a commit to print beside the working tree (or --ref)')
    ap.add_argument('--details', action='store_true', help='list the longest cells and functions, inner imports, cycles, repeats')
    a = ap.parse_args(argv)
    now, lists = shape(a.ref)
    cols = {f'{a.before} (before)': shape(a.before)[0]} if a.before else {}
    cols[a.ref or 'working tree'] = now
    w = max(map(len, now)) + 2
    print(f"{'':{w}}" + ''.join(f'{c:>24}' for c in cols))
    for k in now: print(f'{k:{w}}' + ''.join(f'{str(v.get(k, "")):>24}' for v in cols.values()))
    if a.details:
        print('\nlongest export cells:', ', '.join(f'{nb} ({n})' for n, nb in lists['cells'][:8]))
        print('longest functions:', ', '.join(f'{f} ({n})' for n, f in lists['funcs'][:8]))
        print('\nsibling imports inside functions (module:line: reason):')
        for m, ln, why in lists['inner']: print(f'  {m}:{ln}: {why or "(no reason given)"}')
        print('\nimport cycles:', lists['cycles'] or 'none')
        print(f'\nplaces sharing {MIN_REPEAT}+ lines:')
        for m1, l1, m2, l2 in lists['repeats']: print(f'  {m1}:{l1} ~ {m2}:{l2}')
    return 0


if __name__ == '__main__': sys.exit(main())
