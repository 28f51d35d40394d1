"""Benchmark of BM25 engines on the RELiC test split: rank_bm25 against relic_nb's FastBM25 (prints figures).

Run after the pd dataset is built (`make reproduce`, or at least stage 05_windows):

    .venv/bin/python bench/retrieval_bench.py [--profile pd] [--contexts 1/1,4/4] [--k1 1.5 --b 0.75]

This is the retrieval stage's BM25 work on the test split, done by each engine in turn: one index per
candidate set (book, quote length) that a test quote uses, then every test quote scored against its
set, for each context size. k1 and b are those the stage chose on val for each context size
(the cards of its BM25 runs, results/<profile>/ranks/bm25_*.json) when it has run, else rank_bm25's defaults
(or --k1/--b).
It prints the time of each part for both engines (index building; scoring, with the time per query),
the speed-ups, and checks that both engines give every quote the same gold rank and the same top-100
list, in every context size (exit status 1 if not).
"""
import argparse, time
import numpy as np
from relic_nb.config import get_profile
from relic_nb.relic.task import load_relic
from relic_nb.relic.retrieval import BM25Retriever
from relic_nb.relic.task import (CandidateSet, Run, TOP, card_path, gold_ranks, parse_context, quotes_table,
                                 read_card, top_k)

STAGE_CONTEXTS = '1/1,4/4,0/1,0/4,1/0,4/0'


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--split', default='test')
    ap.add_argument('--contexts', default=STAGE_CONTEXTS, help=f'L/R context sizes, comma-separated (default: the stage\'s, {STAGE_CONTEXTS})')
    ap.add_argument('--k1', type=float); ap.add_argument('--b', type=float)
    a = ap.parse_args()
    prof = get_profile(a.profile)
    contexts = [parse_context(c) for c in a.contexts.split(',')]
    bm25 = {lr: Run('BM25', *lr) for lr in contexts}
    cards = {lr: read_card(prof, r)['config'] for lr, r in bm25.items() if card_path(prof, r).exists()}
    best = {lr: (c['k1'], c['b']) for lr, c in cards.items()}
    params = {lr: (a.k1 if a.k1 is not None else best.get(lr, (1.5, 0.75))[0], a.b if a.b is not None else best.get(lr, (1.5, 0.75))[1])
              for lr in contexts}

    data = load_relic(prof, a.split)
    tables = {lr: quotes_table(data, *lr) for lr in contexts}
    q0 = tables[contexts[0]]
    sets = {(book, int(n)): CandidateSet(book, int(n), data[book]['sentences'], data[book]['candidates'][f'{n}_sentence'])
            for (book, n), _ in q0.groupby(['book', 'n'], sort=True)}
    print(f'{prof.name} {a.split}: {len(data)} books, {len(q0)} quotes, {len(sets)} candidate sets, '
          f'{sum(map(len, sets.values())):,} candidates')
    for lr in contexts:
        print(f'  {lr[0]}/{lr[1]}: k1={params[lr][0]:g} b={params[lr][1]:g} ({"tuned on val" if lr in best and a.k1 is None and a.b is None else "given/default"}), '
              f'queries of {tables[lr].context.str.split().str.len().mean():.0f} words on average')

    res = {}
    for engine in ('fast', 'rank_bm25'):
        r = BM25Retriever(engine=engine)
        t0 = time.perf_counter()
        for cs in sets.values(): r.index(cs)
        t_index, t_score, out = time.perf_counter() - t0, {}, {}
        for lr in contexts:
            r.k1, r.b = params[lr]
            groups = list(tables[lr].groupby(['book', 'n'], sort=True))
            t0 = time.perf_counter()
            scores = [r(sets[(book, int(n))], g) for (book, n), g in groups]
            t_score[lr] = time.perf_counter() - t0
            out[lr] = (np.concatenate([gold_ranks(S, g.gold.values) for S, (_, g) in zip(scores, groups)]),
                       [t.tolist() for S in scores for t in top_k(S, TOP)], scores)
        res[engine] = dict(index=t_index, score=t_score, out=out)
        n_q = sum(len(tables[lr]) for lr in contexts)
        print(f'{engine:>10}: index {t_index:7.3f} s; scoring {sum(t_score.values()):8.3f} s for {n_q} queries '
              f'({1000 * sum(t_score.values()) / n_q:7.2f} ms/query); total {t_index + sum(t_score.values()):8.3f} s', flush=True)

    f, s = res['fast'], res['rank_bm25']
    ok = True
    print(f'\n{"L/R":>5} {"rank_bm25 s":>12} {"fast s":>8} {"speed-up":>9}  same ranks  same top-{TOP}  max |diff|  recall@1  recall@100  mean rank')
    for lr in contexts:
        (rf, tf, sf), (rs, ts, ss) = f['out'][lr], s['out'][lr]
        same_r, same_t = bool((rf == rs).all()), tf == ts
        diff = max(float(np.max(np.abs(x - y))) for x, y in zip(sf, ss))
        ok &= same_r and same_t
        print(f'{lr[0]}/{lr[1]:<3} {s["score"][lr]:12.3f} {f["score"][lr]:8.3f} {s["score"][lr] / f["score"][lr]:8.0f}x  {str(same_r):>10}  {str(same_t):>11}  '
              f'{diff:10.1e}  {100 * (rf <= 1).mean():8.2f}  {100 * (rf <= 100).mean():10.2f}  {rf.mean():9.1f}')
    t_s, t_f = s['index'] + sum(s['score'].values()), f['index'] + sum(f['score'].values())
    print(f'\nspeed-up, scoring only: {sum(s["score"].values()) / sum(f["score"].values()):,.0f}x; index building: {s["index"] / f["index"]:,.0f}x; '
          f'whole BM25 evaluation (index + scoring): {t_s / t_f:,.0f}x ({t_s:.1f} s -> {t_f:.2f} s)')
    print(f'identical gold ranks and top-{TOP} lists in every context size: {ok}')
    if not ok: raise SystemExit(1)


if __name__ == '__main__':
    main()
