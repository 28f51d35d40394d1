"""How the rehearsal's quick steps grow from 10% to 100% of the paper's size (issue 16), timed best of `--repeats` in one process.

    .venv/bin/python bench/rehearsal_growth.py [--scales 0.1 1.0] [--repeats 3]

`make rehearse` times every step once, in the order of a real run: a step of well under a second then also pays for
the first touch of the memory it allocates (page faults grow with the size of the process), so its single timing
at full size can look faster than linear. Here the release of each scale is written to a temporary folder and the
same code as `rehearsal.rehearse` (reading and validation, candidate sets, scoring, the submission round trip, BM25
on the 4/4 contexts with fixed k1 and b) runs `--repeats` times; the best time of each is printed with its items, the
time per item, and the ratio of the per-item times of the largest scale to the smallest (1.0 = linear growth).
"""
import argparse, json, sys, tempfile, time
from pathlib import Path
import pandas as pd

def main(argv=None):
    from relic_nb.config import SEED
    from relic_nb.rehearsal import make_release
    from relic_nb.relic.task import read_relic, validate_relic
    from relic_nb.relic.retrieval import BM25Retriever, RandomRetriever
    from relic_nb.relic.task import (CandidateSet, evaluate_retriever, quotes_table, relic_key, to_submission,
                                     validate_submission)
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--scales', type=float, nargs='+', default=[0.1, 1.0]); ap.add_argument('--repeats', type=int, default=3)
    a = ap.parse_args(argv)
    rows, tmp = [], Path(tempfile.mkdtemp())
    for scale in a.scales:
        d = tmp/f'{scale:g}'; make_release(d, scale, SEED, 'pd')
        def step(name, fn, unit):
            best, items = float('inf'), None
            for _ in range(a.repeats):
                t = time.perf_counter(); items = fn(); best = min(best, time.perf_counter() - t)
            rows.append(dict(scale=scale, step=name, seconds=round(best, 4), items=items, unit=unit, us_per_item=round(1e6 * best / items, 3)))
            print(f'{scale:g}: {name}: {best:.3f} s, {items:,} {unit}', file=sys.stderr, flush=True)
        data = {}
        def read():
            for s in ('train', 'val', 'test'): data[s] = read_relic(d/f'{s}.json'); validate_relic(data[s])
            return sum(len(v['quotes']) for x in data.values() for v in x.values())
        step('reading + validation (3 splits)', read, 'quotes')
        test = data['test']; qs = quotes_table(test)
        step('candidates: test passages', lambda: sum(len(CandidateSet(b, k, test[b]['sentences'], test[b]['candidates'][f'{k}_sentence']).texts)
                                                     for b, k in qs[['book', 'n']].drop_duplicates().itertuples(index=False)), 'passages')
        out = {}
        def score(): out['pq'] = evaluate_retriever(RandomRetriever(SEED), test, quotes=qs); return int(out['pq'].candidates.sum())
        step('scoring: gold rank and top 100 (random scores)', score, 'quote-candidate scores')
        def submit():
            f = tmp/'submission.json'; f.write_text(json.dumps(to_submission(out['pq'])))
            validate_submission(json.loads(f.read_text()), relic_key(test)); return len(out['pq'])
        step('submissions: write, read back, validate', submit, 'quotes')
        step('BM25 4/4 (k1 1.2, b 0.75): index and score', lambda: int(evaluate_retriever(BM25Retriever(1.2, 0.75), test, quotes=qs).candidates.sum()),
             'quote-candidate scores')
        del data, test, qs, out
    t = pd.DataFrame(rows)
    lo, hi = min(a.scales), max(a.scales)
    g = t.pivot(index='step', columns='scale', values='us_per_item')
    t['per-item ratio (largest / smallest scale)'] = t.step.map((g[hi] / g[lo]).round(2)).where(t.scale == hi, '')
    print(t.to_string(index=False))
    return 0

if __name__ == '__main__': sys.exit(main())
