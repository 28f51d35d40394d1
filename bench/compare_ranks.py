"""Every row of Table 3 against the same row of another commit: did a change of method move the rankings?

    .venv/bin/python bench/compare_ranks.py REV [--profile pd] [--models all-MiniLM-L6-v2,dense-RELiC]

Reads the per-quote ranks that 12_report gathers (`results/<profile>/retrieval_ranks.csv`) from the working tree and
from commit REV (git show), and for each run (model, L/R context) that both hold compares them on their shared test
quotes with `stats.compare_runs`: recall@1/10/100 and mean rank, now - then, with 95% bootstrap intervals (1,000 seeded
resamples of quotes), sign-flip p-values and Holm's correction over the table. Prints one line per run and metric and
a verdict: "cannot be told apart" when the interval holds 0. Used for issue 15: passage vectors composed from sentence
vectors (`retrieval.passages='composed'`) against whole passages, on every zero-shot and dense-RELiC row.
"""
import argparse, io, subprocess, sys
from pathlib import Path
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('rev', help='the commit to compare with (e.g. the one before the change)')
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--models', default='', help='comma-separated model names to compare (default: every run in both)')
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from relic_nb.stats import compare_runs
    rel = f'results/{a.profile}/retrieval_ranks.csv'
    then = pd.read_csv(io.StringIO(subprocess.run(['git', 'show', f'{a.rev}:{rel}'], cwd=ROOT, check=True, capture_output=True, text=True).stdout))
    now = pd.read_csv(ROOT/rel)
    label = lambda r: f"{r.model} {'' if pd.isna(r.L) else f'{int(r.L)}/{int(r.R)}'}".strip()
    runs = {}
    for when, df in (('now', now), ('then', then)):
        df = df.assign(run=[label(r) for r in df[['model', 'L', 'R']].itertuples()])
        for name, g in df.groupby('run', sort=False): runs[(when, name)] = g[['id', 'rank']]
    names = [n for w, n in runs if w == 'now' and ('then', n) in runs]
    if a.models: names = [n for n in names if n.rsplit(' ', 1)[0] in a.models.split(',')]
    if not names: raise SystemExit(f'No run is in both {a.rev}:{rel} and the working tree{" for " + a.models if a.models else ""}.')
    flat = {f'{w}: {n}': runs[(w, n)] for w, n in runs}
    t = compare_runs(flat, [(f'now: {n}', f'then: {n}') for n in names])
    t.insert(0, 'run', t.pop('a_run').str.removeprefix('now: ')); t = t.drop(columns='b_run').rename(columns=dict(a='now', b='then'))
    pd.set_option('display.width', 200)
    print(f'{a.profile}: the working tree (now) against {a.rev} (then), per-quote ranks of {len(names)} runs, paired on shared quotes\n')
    print(t.drop(columns=['note']).to_string(index=False))
    moved = t[t.verdict != 'cannot be told apart']
    print(f'\n{len(t)} comparisons; every interval holds 0: {moved.empty}' + ('' if moved.empty else f'; moved: {", ".join(moved.run + " " + moved.metric)}'))

if __name__ == '__main__': main()
