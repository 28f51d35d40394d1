"""The sources of the docs site, laid out as in the repository so that every relative link still holds.

    python docs/pages.py [--profile pd] [--out _docs_src]

- `index.md`: the README, with the sidebar's tables of contents after it;
- `nbs/*.ipynb`: the stage notebooks as the profile's run executed them (`results/<profile>/notebooks/`), the other
  notebooks as source; nbdev's directives are applied, not shown;
- `results/<profile>/REPORT.md` and the datasheets;
- `api/*.md`: one page per module of the package (Sphinx autodoc);
- every file that a page links to (figures, tables), copied to the same path.

`sphinx-build -c docs <out> _docs` then builds the site (`make docs`).
"""
from __future__ import annotations
import argparse, itertools, json, re, shutil, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from relic_nb.runner import cell_directives   # nbdev's directives, as the runner reads them
LINK = re.compile(r'\]\(([^)\s]+)')
HIDDEN = {'hide', 'default_exp'}   # nbdev keeps these cells out of its pages


def page_cell(cell:dict)->dict|None:
    """The cell as the site shows it, or None when nbdev's pages leave it out: hidden cells, `show_doc` calls (the API
    pages document every function) and cells with nothing left. Directive lines are removed; `echo: false` hides the
    code and keeps the output."""
    source = ''.join(cell['source'])
    if cell['cell_type'] != 'code': return dict(cell, source=source) if source.strip() else None
    found = cell_directives(source)
    code = '\n'.join(itertools.dropwhile(lambda l: l.startswith('#|'), source.splitlines())).strip('\n')
    if HIDDEN & set(found) or not code.strip() or re.fullmatch(r'(show_doc\(.*\)\s*)+', code, re.S): return None
    tags = list(cell.get('metadata', {}).get('tags', []))
    if found.get('echo') == 'false': tags.append('remove-input')
    return dict(cell, source=code, metadata=dict(cell.get('metadata', {}), tags=tags))


def page_notebook(src:Path, dst:Path, note:str|None=None)->str:
    "Writes notebook `src` as a page at `dst` (with `note` under its title); returns the page's title."
    nb = json.loads(src.read_text(encoding='utf-8'))
    cells = [c for c in map(page_cell, nb['cells']) if c is not None]
    if note:
        first = cells[0] if cells and cells[0]['cell_type'] == 'markdown' else None
        cells.insert(1 if first else 0, dict(cell_type='markdown', id='site-note', metadata={}, source=f'*{note}*'))
    nb['cells'] = cells
    dst.parent.mkdir(parents=True, exist_ok=True)
    dst.write_text(json.dumps(nb, indent=1, ensure_ascii=False), encoding='utf-8')
    return title_of(cells, src.stem)


def title_of(cells:list[dict], default:str)->str:
    "The first `# heading` of a page's markdown cells (`default` when there is none)."
    for c in cells:
        m = re.search(r'^# (.+)$', ''.join(c['source']), re.M) if c['cell_type'] == 'markdown' else None
        if m: return m[1].strip()
    return default


def linked_files(text:str, base:Path)->list[Path]:
    "The repository's files that markdown `text`, found at `base`, links to (not web addresses or anchors)."
    out = []
    for target in LINK.findall(text):
        if re.match(r'[a-z]+:', target) or target.startswith('#'): continue
        path = (base/target.split('#')[0]).resolve()
        if path.is_file() and ROOT in path.parents: out.append(path)
    return out


def page_texts(page:Path)->list[str]:
    "The markdown of a page: its markdown cells and markdown outputs for a notebook, the file for a .md page."
    if page.suffix != '.ipynb': return [page.read_text(encoding='utf-8')]
    cells = json.loads(page.read_text(encoding='utf-8'))['cells']
    return ([''.join(c['source']) for c in cells if c['cell_type'] == 'markdown'] +
            [''.join(o['data']['text/markdown']) for c in cells for o in c.get('outputs', [])
             if 'text/markdown' in o.get('data', {})])


def copy_linked(out:Path)->int:
    "Copies every file that a page in `out` links to into `out`, at its path in the repository; returns how many."
    copied = set()
    for page in [*out.rglob('*.md'), *out.rglob('*.ipynb')]:
        base = ROOT/page.parent.relative_to(out)
        for f in (f for text in page_texts(page) for f in linked_files(text, base)):
            dst = out/f.relative_to(ROOT)
            if not dst.exists():
                dst.parent.mkdir(parents=True, exist_ok=True); shutil.copy2(f, dst)
            copied.add(dst)
    return len(copied)


def card_as_text(text:str)->str:
    """A markdown page with its YAML header (a dataset card's metadata) moved to a `yaml` block at its end, so that
    the site shows it rather than reading it as the page's settings."""
    m = re.match(r'---\n(.*?\n)---\n', text, re.S)
    if not m: return text
    return text[m.end():].rstrip('\n') + f'\n\n## Card metadata\n\n```yaml\n{m[1]}```\n'


def modules()->list[str]:
    "The package's modules, in the order of their names (`_modidx` aside)."
    pkg = ROOT/'relic_nb'
    names = ['.'.join(('relic_nb',) + p.relative_to(pkg).with_suffix('').parts) for p in pkg.rglob('*.py')]
    return sorted(n.removesuffix('.__init__') for n in names if not n.endswith('_modidx'))


def module_notebooks()->dict[str, str]:
    "Module name -> the notebook that exports it (its `#| default_exp`)."
    out = {}
    for nb in sorted((ROOT/'nbs').glob('*.ipynb')):
        for c in json.loads(nb.read_text(encoding='utf-8'))['cells']:
            exp = cell_directives(''.join(c['source'])).get('default_exp')
            if exp: out[f'relic_nb.{exp}'] = nb.stem
    return out


def api_pages(out:Path)->list[str]:
    "Writes `api/<module>.md` for every module that a notebook exports; returns the pages' names."
    made, where = [], module_notebooks()
    for name in modules():
        if name not in where: continue
        page = out/'api'/f'{name}.md'
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(f'# `{name}`\n\nExported from [{where[name]}](../nbs/{where[name]}.ipynb).\n\n'
                        f'```{{eval-rst}}\n.. automodule:: {name}\n   :members:\n```\n', encoding='utf-8')
        made.append(f'api/{name}')
    return made


def toctree(caption:str, entries:list[str])->str:
    "A hidden MyST table of contents: one group of the sidebar."
    return '\n'.join(['```{toctree}', f':caption: {caption}', ':hidden:', ':maxdepth: 1', '', *entries, '```', ''])


def notebook_groups(profile:str)->dict[str, list[Path]]:
    "The sidebar's two groups of notebooks: the profile's stages in pipeline order, then the others by number."
    from relic_nb.config import stages_for
    stages = stages_for(profile)
    nbs = sorted((ROOT/'nbs').glob('[0-9]*.ipynb'))
    return {'stages': [ROOT/'nbs'/f'{s}.ipynb' for s in stages], 'other': [p for p in nbs if p.stem not in stages]}


def build(profile:str='pd', out:Path=ROOT/'_docs_src')->Path:
    "Writes the site's sources into `out` (emptied first); returns `out`."
    if out.exists(): shutil.rmtree(out)
    (out/'nbs').mkdir(parents=True)
    results, groups, toc = ROOT/'results'/profile, notebook_groups(profile), []
    executed = results/'notebooks'
    stages = []
    for nb in groups['stages']:
        ran = executed/nb.name
        note = None if ran.exists() else f'Shown as source: the {profile} run has not executed this notebook yet.'
        page_notebook(ran if ran.exists() else nb, out/'nbs'/nb.name, note)
        stages.append(f'nbs/{nb.stem}')
    for nb in groups['other']:
        page_notebook(nb, out/'nbs'/nb.name, f'Shown as source, with its tests: not a stage of the {profile} run.')
    toc.append(toctree(f'Pipeline: the {profile} run', stages))
    toc.append(toctree('Library and tools', [f'nbs/{nb.stem}' for nb in groups['other']]))
    papers = []
    for md in [results/'REPORT.md', *sorted((results/'datasheets').glob('*.md'))]:
        if md.exists():
            dst = out/md.relative_to(ROOT); dst.parent.mkdir(parents=True, exist_ok=True)
            dst.write_text(card_as_text(md.read_text(encoding='utf-8')), encoding='utf-8')
            papers.append(str(md.relative_to(ROOT).with_suffix('')))
    toc.append(toctree('Results and datasets', papers))
    toc.append(toctree('API reference', api_pages(out)))
    readme = (ROOT/'README.md').read_text(encoding='utf-8')
    (out/'index.md').write_text(readme.rstrip('\n') + '\n\n' + '\n'.join(toc), encoding='utf-8')
    copy_linked(out)
    return out


if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--profile', default='pd', help='whose executed notebooks and report the site shows')
    ap.add_argument('--out', type=Path, default=ROOT/'_docs_src', help='where the sources go (emptied first)')
    a = ap.parse_args()
    if not (ROOT/'results'/a.profile).is_dir():
        sys.exit(f"results/{a.profile}/ does not exist: run `make reproduce PROFILE={a.profile}` first, "
                 f"or choose a profile that has run (--profile)")
    print(f'docs sources in {build(a.profile, a.out)}')
