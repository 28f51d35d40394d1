"""What a learned filter of RELiC-PD's windows would buy (issue 28): precision against the windows it keeps, measured on
fresh samples it never saw.

    .venv/bin/python bench/window_filter.py [--profile pd] [--held fresh4 fresh5] [--keep 1 .9 .8 .7 .6 .5]

The rules of 05 keep a window or drop it; a fresh sample read strictly says how many of those they keep are `ok`.
Could a classifier over the windows the readings hold, in the place of more rules, lift that? For each held-out
sample, a logistic regression is trained on every other window a strict reading holds (`ok` against any other label;
06's `strict_verdicts.csv`: `ok` only if every reading says so), then ranks the held-out sample's windows by the chance
it gives them of being `ok`. Printed per sample: the ranking's AUC, and the share `ok` among the best-ranked `keep`
share of its windows, with its Wilson interval. Last, what keeping that share of the windows no reading holds yet would
leave of the test split (at least 400 quotes, the paper's comparison) and of the whole dataset.

The features read only the window and its novel, never a retriever's ranking (a filter that dropped the windows BM25
finds would bias Table 3 against it):
  * the quotation's words and sentences, each side's sentences and words;
  * quotation marks in the contexts per 100 characters (another quotation inside the critic's prose);
  * the gold's words the contexts repeat: how many, and their summed IDF over the novel's sentences (leakage);
  * capitalised words of the gold the contexts repeat (a name only the gold has);
  * digits, and headings or page references ("chapter", "vol.", "p. "), in the contexts (notes, apparatus);
  * LEFT starting in lower case, a side whose far sentence has fewer than 5 words (fragments);
  * the gold opening with a quotation mark (dialogue).
"""
from __future__ import annotations
import argparse, math, re, sys
from collections import Counter
from pathlib import Path
import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from relic_nb.relic.dataset_checks import all_windows, read_verdicts, wilson          # noqa: E402
from relic_nb.relic.task import load_relic, relic_file                                # noqa: E402

WORD = re.compile(r'[a-z]+')
QMARK = re.compile(r'["“”‘’\']')
CAPS = re.compile(r'\b[A-Z][a-z]+')
APPARATUS = re.compile(r'chapter|vol\.|page|p\. ', re.I)
COMMON_CAPS = {'I', 'The', 'He', 'She', 'It', 'But', 'And', 'In', 'A'}


def novel_df(profile:str)->dict[str, tuple[Counter, int]]:
    "Per novel title: in how many of its sentences each word occurs, and its number of sentences."
    out = {}
    for split in ('train', 'val', 'test'):
        for title, b in load_relic(profile, split).items():
            c = Counter()
            for s in b['sentences']: c.update(set(WORD.findall(s.lower())))
            out[title] = (c, len(b['sentences']))
    return out


def features(w, df:tuple[Counter, int])->dict:
    "The filter's features of one window (`ReadWindow`), from its text and its novel's sentence frequencies."
    c, n = df
    words = lambda xs: WORD.findall(' '.join(xs).lower())
    gold, ctx = set(words(w.quote)), w.left + w.right
    shared = gold & set(words(ctx)); text = ' '.join(ctx)
    far = lambda side, i: bool(side) and len(WORD.findall(side[i].lower())) < 5
    return dict(quote_words=len(words(w.quote)), quote_sentences=w.n, left_sentences=len(w.left),
                right_sentences=len(w.right), left_words=len(words(w.left)), right_words=len(words(w.right)),
                quote_marks=100 * len(QMARK.findall(text)) / (1 + len(text)), shared_words=len(shared),
                shared_idf=sum(math.log(n / (1 + c.get(x, 0))) for x in shared),
                shared_caps=len((set(CAPS.findall(' '.join(w.quote))) & set(CAPS.findall(text))) - COMMON_CAPS),
                digits=len(re.findall(r'\d', text)), apparatus=int(bool(APPARATUS.search(text))),
                left_lower=int(bool(w.left) and w.left[0][:1].islower()), left_fragment=int(far(w.left, 0)),
                right_fragment=int(far(w.right, -1)), dialogue=int(bool(QMARK.match(w.quote[0].lstrip()))))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--held', nargs='+', default=['fresh4', 'fresh5'])
    ap.add_argument('--keep', nargs='+', type=float, default=[1.0, 0.9, 0.8, 0.7, 0.6, 0.5])
    ap.add_argument('--C', type=float, default=0.1, help='inverse L2 strength of the logistic regression')
    a = ap.parse_args()
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import roc_auc_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    windows = all_windows(relic_file(a.profile, 'test').parent)   # the files novel_df reads
    dfs = novel_df(a.profile)
    X = pd.DataFrame([features(w, dfs[w.title]) for w in windows], index=[w.id for w in windows])
    split = pd.Series({w.id: w.split for w in windows})
    v = read_verdicts(a.profile)
    if v is None: sys.exit(f'No strict readings for {a.profile}: run `make reproduce PROFILE={a.profile}` first.')
    v = v.set_index('id')
    y = (v.label == 'ok').astype(int)
    first = v['sample'].str.split('+').str[0]      # the sample that read a window first
    print(f'{len(windows)} windows; {len(v)} held by a strict reading ({int(y.sum())} ok); '
          f'{X.shape[1]} features, logistic regression C={a.C}')
    model = lambda: make_pipeline(StandardScaler(), LogisticRegression(C=a.C, max_iter=1000))
    rows = []
    for held in a.held:
        te = first.index[first == held]; tr = first.index[first != held]
        if not len(te): print(f'{held}: no window of it holds its reading; skipped'); continue
        m = model().fit(X.loc[tr], y[tr])
        p = pd.Series(m.predict_proba(X.loc[te])[:, 1], index=te).sort_values(ascending=False, kind='stable')
        auc = roc_auc_score(y[te], p[te]) if y[te].nunique() == 2 else float('nan')
        for keep in a.keep:
            k = max(1, round(keep * len(p))); ok = int(y[p.index[:k]].sum()); lo, hi = wilson(ok, k)
            rows.append(dict(held=held, n=len(te), auc=round(auc, 3), keep=keep, kept=k, ok=ok,
                             precision=round(100 * ok / k, 1), lo95=round(100 * lo, 1), hi95=round(100 * hi, 1)))
    print(pd.DataFrame(rows).to_string(index=False))

    # what the filter, trained on every reading, would leave if it kept that share of the unread windows
    unread = X.index.difference(v.index)
    if not len(unread):
        print('\nEvery window is held by a strict reading: the filter would only matter for windows not read yet.')
        return
    m = model().fit(X.loc[v.index], y)
    p = pd.Series(m.predict_proba(X.loc[unread])[:, 1], index=unread).sort_values(ascending=False, kind='stable')
    read_ok = set(y.index[y == 1])
    n_test = int((split[unread] == 'test').sum())
    print(f'\nUnread windows: {len(unread)} ({n_test} test). Keeping the best-ranked share of them, beside every '
          f'window read `ok` ({len(read_ok)}; the windows read otherwise dropped):')
    out = []
    for keep in a.keep:
        kept = set(p.index[:round(keep * len(p))]) | read_ok
        out.append(dict(keep=keep, windows=len(kept), test=int((split[list(kept)] == 'test').sum()),
                        test_novels=len({i.split('.')[0] for i in kept if split[i] == 'test'})))
    print(pd.DataFrame(out).to_string(index=False))


if __name__ == '__main__':
    main()
