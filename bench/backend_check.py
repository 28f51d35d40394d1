"""Do the pd profile's ONNX int8 passage vectors rank the RELiC-PD test quotes as today's torch bfloat16 path does? Prints figures.

    .venv/bin/python bench/backend_check.py [--profile pd] [--contexts 4/4 1/1]

Encodes the test split's candidates and queries with all-MiniLM-L6-v2 on the torch path in bfloat16 (the path before
`retrieval.backend='onnx-int8'`; its vectors land in their own cache folder, so a second run is fast), ranks the test
quotes, and compares them quote by quote with the retrieval stage's ranks files (the ONNX int8 path): recall@1/10/100
and mean rank with bootstrap intervals, and the paired difference with its interval and sign-flip p-value
(`relic_nb.stats`). Encoding ~200,000 passages takes ~12 min on 2 quiet cores.
"""
import argparse, time
import pandas as pd
from relic_nb.config import get_profile, paths, pick_device
from relic_nb.relic.retrieval import DenseRetriever
from relic_nb.relic.task import evaluate_retriever, read_ranks, parse_context, KS
from relic_nb.relic.task import load_relic
from relic_nb.stats import ranks_intervals, compare_runs

ap = argparse.ArgumentParser(); ap.add_argument('--profile', default='pd'); ap.add_argument('--contexts', nargs='+', default=['4/4', '1/1'])
a = ap.parse_args()
prof, P = get_profile(a.profile), paths(a.profile)
test = load_relic(prof, 'test')
dr = DenseRetriever('all-MiniLM-L6-v2', cache=P.cache/'embeddings', device=pick_device(prof.device), batch_size=prof.retrieval.batch_size,
                    n_threads=prof.n_threads, precision=prof.precision, backend='torch')
s = prof.report
for ctx in a.contexts:
    L, R = parse_context(ctx)
    t0 = time.time(); torch_ranks = evaluate_retriever(dr, test, L, R, top=0).assign(model='torch bf16', L=L, R=R); t = time.time() - t0
    onnx = read_ranks(prof, 'all-MiniLM-L6-v2', L, R)
    if onnx is None: raise SystemExit(f'no ranks file of all-MiniLM-L6-v2 {ctx}: run 07_retrieval of the {a.profile} profile first')
    onnx = onnx.assign(model=f'{prof.retrieval.backend}')
    print(f'== all-MiniLM-L6-v2 {ctx}: {len(torch_ranks)} test quotes; torch bf16 ranking took {t:.0f} s ({dr.encoded:,} texts encoded so far)')
    iv = ranks_intervals(pd.concat([onnx, torch_ranks]), KS, s.n_boot, s.level, prof.seed)
    print(iv[iv.metric.isin(['recall@1', 'recall@10', 'recall@100', 'mean_rank'])].to_string(index=False))
    cmp = compare_runs({'onnx': onnx, 'torch': torch_ranks}, [('onnx', 'torch')], (1, 10, 100), s.n_boot, s.level, s.n_perm, prof.seed)
    print(cmp.to_string(index=False))
    print(f'   same gold rank on {(onnx.sort_values("id")["rank"].values == torch_ranks.sort_values("id")["rank"].values).mean():.0%} of the quotes')
