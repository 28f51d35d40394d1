"""Evaluation of the evidence search on claims with known evidence: prints hit@1, hit@5, hit@10 and MRR per ranker.

    .venv/bin/python bench/search_eval.py [--claims data/annotations/search_claims.tsv] [--half report|tune|all]
    .venv/bin/python bench/search_eval.py --windows [--profile pd]

Each claim of `data/annotations/search_claims.tsv` (how it was made: `data/annotations/search_claims.md`) names the
sentence ranges (1-based, as `relic_nb.search` numbers a novel's sentences) a scholar would cite. A result hits when
its passage shares a sentence with one of them. Every ranker searches passages of 1-5 sentences, distinct (the
search's defaults), top 10; MRR counts the first hit in the top 10 (0 beyond). Intervals: 95% percentile bootstrap
over claims (relic_nb.stats.bootstrap_ci, seeded). The default ranker (`hybrid`) is compared with each other ranker,
paired over the same claims (sign-flip p). `earlier` is the search's default before this claim set (`rrf`, the
dense query masked, no gap); the target asks `hybrid` to beat it by 20 points, and to beat BM25 alone and dense alone.

`--windows`: beside the claims, the profile's RELiC test windows (4/4, as `make reproduce` up to 05_windows writes
them) typed as claims (the critic's words around the masked quotation), each searched in its novel's index. Per
ranker, two views of where the gold passage lands: as the search shows it (passages of 1-5 sentences, distinct, top
100; a result hits when it shares a sentence with the gold, as for the claims), and as RELiC ranks it (among the
passages of the gold's own length, `window_ranks`; for BM25 these are the retrieval stage's ranks with rank_bm25's
default k1 and b) with recall@1/10/100 and the median rank.
"""
import argparse, sys
from pathlib import Path
import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
K = 10


def gold_sets(gold:str)->set[int]:
    "The sentence numbers of a gold field such as `1203-1205;1410`."
    out = set()
    for part in str(gold).split(';'):
        a, _, b = part.strip().partition('-')
        out |= set(range(int(a), int(b or a) + 1))
    return out


def first_hit(res:pd.DataFrame, gold:set[int])->int:
    "Rank (1-based) of the first result sharing a sentence with the gold, or 0 when none of them does."
    for r in res.itertuples():
        if gold & set(range(r.start, r.start + r.n)): return int(r.rank)
    return 0


def earlier_default(idx, claim:str):
    "The search's results as its default ranked them before the claim set: `rrf`, the dense query masked, no gap."
    from relic_nb import search as S
    typed = S.claim_query
    S.claim_query = lambda c, masked=True: typed(c, True)
    try: return idx.search(claim, K, ranker='rrf', gap=0)
    finally: S.claim_query = typed


def window_figures(profile:str, model:str='auto'):
    "Where the search puts each RELiC test window's gold passage, per ranker, with the window typed as the claim."
    from relic_nb.corpus import Corpus
    from relic_nb.search import RANKERS, EvidenceIndex, window_ranks
    from relic_nb.relic.task import load_relic, quotes_table, relic_file
    if not relic_file(profile, 'test').exists():
        print(f'no test windows for {profile} ({relic_file(profile, "test")}): run `make reproduce PROFILE={profile}` '
              'up to 05_windows first'); return None
    data, slugs = load_relic(profile, 'test'), {w.title: w.slug for w in Corpus.for_profile(profile).works.itertuples()}
    rows = []
    for book in sorted(data):
        idx = EvidenceIndex.build(slugs[book], profile, model, progress='lines')
        assert idx.sentences == data[book]['sentences'], f'{book}: the index\'s sentences are not the dataset\'s'
        same = window_ranks(idx, data, book, 4, 4, RANKERS).set_index('id')
        for q in quotes_table({book: data[book]}, 4, 4).itertuples():
            gold = set(range(q.start + 1, q.start + q.n + 1))
            rows.append(dict(id=q.id, book=book, n=q.n, **{f'{r} search': first_hit(idx.search(q.query, 100, ranker=r),
                                                                                    gold) for r in RANKERS},
                             **{f'{r} same length': int(same.loc[q.id, r]) for r in RANKERS}))
    ranks = pd.DataFrame(rows)
    print(f'== {len(ranks)} RELiC test windows ({profile}, 4/4) of {ranks.book.nunique()} novels typed as claims, '
          f'dense encoder {idx.encoder.name}')
    out = []
    for r in RANKERS:
        s, l = ranks[f'{r} search'], ranks[f'{r} same length']
        out.append({'ranker': r, **{f'search hit@{k}': 100 * s.between(1, k).mean() for k in (1, 5, 10, 100)},
                    'search MRR': 100 * np.where(s > 0, 1 / s.clip(lower=1), 0).mean(),
                    **{f'same length R@{k}': 100 * (l <= k).mean() for k in (1, 10, 100)}, 'median rank': l.median()})
    print(pd.DataFrame(out).round(1).to_string(index=False))
    return ranks


def main(argv=None):
    sys.path.insert(0, str(ROOT))
    from relic_nb.search import RANKERS, EvidenceIndex
    from relic_nb.stats import bootstrap_ci, paired_difference
    ap = argparse.ArgumentParser()
    ap.add_argument('--claims', default=str(ROOT/'data'/'annotations'/'search_claims.tsv'))
    ap.add_argument('--half', default='report', choices=('report', 'tune', 'all'))
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--model', default='auto', help="the dense encoder (`dense_ranker`): 'auto', 'dense-RELiC', a name")
    ap.add_argument('--windows', action='store_true', help='the RELiC test windows as claims (after the claims)')
    a = ap.parse_args(argv)
    claims = pd.read_csv(a.claims, sep='\t', dtype=str, keep_default_na=False)
    if a.half != 'all': claims = claims[claims.half == a.half]
    rows = []
    for novel, g in claims.groupby('novel', sort=True):
        idx = EvidenceIndex.build(novel, a.profile, a.model)
        for c in g.itertuples():
            gold = gold_sets(c.gold)
            assert max(gold) <= len(idx), f'{c.id}: gold {c.gold} beyond the {len(idx)} sentences of {novel}'
            hits = {r: first_hit(idx.search(c.claim, K, ranker=r), gold) for r in RANKERS}
            hits['earlier'] = first_hit(earlier_default(idx, c.claim), gold)
            rows.append(dict(id=c.id, novel=novel, kind=c.kind, **hits))
    ranks = pd.DataFrame(rows)
    print(f'== {len(ranks)} claims ({a.half} half) over {ranks.novel.nunique()} novels, profile {a.profile}, '
          f'dense encoder {idx.encoder.name}, '
          f'passages of 1-5 sentences, top {K}')
    table, rankers = [], (*RANKERS, 'earlier')
    for r in rankers:
        v = pd.DataFrame({'hit@1': ranks[r].between(1, 1), 'hit@5': ranks[r].between(1, 5),
                          'hit@10': ranks[r].between(1, 10),
                          'MRR': np.where(ranks[r] > 0, 1 / ranks[r].clip(lower=1), 0)})
        ci = bootstrap_ci(v.astype(float))
        table.append({'ranker': r, **{m: f'{100 * x.value:.1f} [{100 * x.lo:.1f}, {100 * x.hi:.1f}]'
                                       for m, x in ci.iterrows()}})
    print(pd.DataFrame(table).to_string(index=False))
    hit5 = {r: ranks[r].between(1, 5).astype(float) for r in rankers}
    for r in rankers:
        if r == 'hybrid': continue
        d = paired_difference(hit5['hybrid'], hit5[r]).iloc[0]
        print(f'hit@5 hybrid - {r}: {100 * d["diff"]:+.1f} points [{100 * d.lo:+.1f}, {100 * d.hi:+.1f}], '
              f'p = {d.p:.3f}')
    print('per kind, hit@5:', ranks.assign(**{r: hit5[r] for r in rankers}).groupby('kind')[list(rankers)].mean()
          .round(2).to_dict('index'))
    if a.windows: window_figures(a.profile, a.model)
    return ranks


if __name__ == '__main__': main()
