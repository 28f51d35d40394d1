"""Which RELiC-PD windows' gold passages another text of the mirror also holds (issue 28, attribution).

    .venv/bin/python bench/attribution_scan.py [--share 0.8] [--profile pd]

Needs the profile's windows (stage 05_windows). For every window it measures the share of the gold passage's words
that lie in runs of `NGRAM` words found in each other text: the 18 works of `extra/` (16 novels, Dickens's two works
of non-fiction), read from the local mirror (`RELIC_NB_CORPUS`), and the profile's other novels. A gold passage that
another text holds at `--share` or more could be a quotation of that text rather than of the window's novel. It prints
how many windows that is, by the kind of text (the same author's novel, their non-fiction, another author's), and lists
them. It writes nothing.
"""
import argparse, os, sys
from collections import Counter
from pathlib import Path
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from relic_nb.config import paths                                         # noqa: E402
from relic_nb.corpus import load_works, read_text                         # noqa: E402
from relic_nb.relic.dataset_checks import all_windows                    # noqa: E402
from relic_nb.relic.segment import load_sentences                         # noqa: E402
from relic_nb.relic.windows import NGRAM, BookText, novel_share           # noqa: E402


def extra_texts(mirror:Path)->dict[str, tuple[str, str, list[str]]]:
    "slug -> (author, kind, paragraphs) of every work in the mirror's `extra/` folder."
    m = pd.read_csv(mirror/'extra'/'MANIFEST.tsv', sep='\t', dtype=str, keep_default_na=False)
    return {r.slug: (r.author, r.kind,
                     [p for c in read_text((mirror/r.file).read_bytes(), r.slug) for p in c.paragraphs])
            for r in m.itertuples()}


def main(argv=None)->int:
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--share', type=float, default=0.8)
    ap.add_argument('--profile', default='pd')
    a = ap.parse_args(argv)
    mirror = Path(os.environ.get('RELIC_NB_CORPUS') or ROOT.parent/'shared'/'corpus')
    if not (mirror/'extra'/'MANIFEST.tsv').exists():
        sys.exit(f'No extra/MANIFEST.tsv under {mirror}: set RELIC_NB_CORPUS to the local mirror.')
    works = load_works(ROOT/'data'/'works.tsv').set_index('slug')
    author = lambda slug: works.author.get(slug, '')
    win = pd.DataFrame([dict(id=w.id, split=w.split, novel=w.novel, gold=' '.join(w.quote))
                        for w in all_windows(paths(a.profile).processed/'relic')])
    books = {s: (au, kind, BookText(pars)) for s, (au, kind, pars) in extra_texts(mirror).items()}
    for novel in sorted(set(win.novel)):
        books[novel] = (author(novel), 'novel (RELiC-PD)', BookText(load_sentences(a.profile, novel)['sentences']))
    hits = []
    for w in win.itertuples():
        if len(w.gold.split()) < NGRAM: continue
        for slug, (au, kind, book) in books.items():
            if slug == w.novel: continue
            if (s := novel_share(w.gold, book.grams)) >= a.share:
                rel = ('same author, ' if au == author(w.novel) else 'other author, ') + kind
                hits.append(dict(id=w.id, split=w.split, novel=w.novel, other=slug, relation=rel, share=round(s, 3),
                                 gold=w.gold[:90]))
    hits = pd.DataFrame(hits, columns=['id', 'split', 'novel', 'other', 'relation', 'share', 'gold'])
    print(f'{len(win)} windows; {hits.id.nunique()} have a gold passage that another text holds at share >= {a.share}')
    print(pd.Series(Counter(hits.drop_duplicates('id').relation)).to_string() if len(hits) else '')
    print(hits.drop_duplicates('id').groupby('split').size().to_string() if len(hits) else '')
    with pd.option_context('display.width', 200, 'display.max_colwidth', 90, 'display.max_rows', 200):
        print(hits.to_string(index=False))
    return 0


if __name__ == '__main__':
    sys.exit(main())
