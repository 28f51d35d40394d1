"""Passage-encoder benchmark (issue 15 §2): passages/s of all-MiniLM-L6-v2 on this machine's CPU, each path against today's.

    .venv/bin/python bench/encoder_bench.py [--passages 2000] [--threads 2] [--rounds 2] [--skip-speed] [--skip-ranking]
                                            [--candidate-sets [--blocks 6] [--block 300]]
                                            [--ranking-books "Persuasion,Pride and Prejudice"] [--ranking-lengths 1]

Needs the pd sentences (stage 03_segment) and, for the ranking check, the pd RELiC test split (stage 05_windows).

1. Speed. Passages of 1-5 consecutive sentences drawn (seeded) from the pd test novels' segmented text, the same
   passages for every path, in chunks of 300; every path encodes each chunk in turn (a rotating order), `--rounds`
   times, and a path's time is the sum over chunks of its best round (so that other work on the machine, which shares
   its 2 cores, hits all paths alike); after one small warm-up batch:
   - today's path: sentence-transformers encode(), bfloat16 autocast, batch 16 (the pd profile's retrieval settings);
     encode() already sorts the texts by length before batching;
   - the same with larger batches, and with our own bucketing by token count instead of character count;
   - float32 (the reference of the cosines);
   - torch dynamic int8 quantisation of the Linear layers (torch.ao.quantization.quantize_dynamic);
   - ONNX Runtime, float32 and int8 weights (`relic_nb.relic.retrieval.export_onnx`, `OnnxEncoder`: the graph
     DenseRetriever's backend='onnx' / 'onnx-int8' runs), batch 16 and 64.
   Prints passages/s, CPU seconds per 1,000 passages, the speed-up against today's path, and the cosine of each
   path's vectors with float32 (mean, min).
2. Candidate sets (`--candidate-sets`): what the retrieval stage encodes, in small: `--blocks` blocks of `--block`
   consecutive sentences drawn (seeded) from the pd test novels, and every passage of 1-5 sentences inside each block.
   Three paths through `DenseRetriever` (no cache), each block in turn in a rotating order, the best of `--rounds`:
   today's (torch bf16, batch 16, whole passages), ONNX int8 whole passages (`backend='onnx-int8'`), and ONNX int8
   composed from the block's sentences (`passages='composed'`, the pd profile's: each sentence encoded once, a
   passage's vector the token-weighted mean of its sentences'). Prints candidate passages/s and the speed-up against
   today's path; how the composed vectors rank is measured by bench/composed_passages.py and bench/compare_ranks.py.
3. Rankings (the fastest ONNX path against today's): every test quote of `--ranking-lengths` sentences in
   `--ranking-books`, against all candidates of its length (whole candidate sets: the stage's task), both paths
   through DenseRetriever (no cache); recall@1/10/100 and mean rank with 95% bootstrap intervals (1,000 seeded
   resamples of quotes) for each path, and the paired difference (fast - today) with its interval.
"""
import argparse, os, re, resource, sys, tempfile, time
from pathlib import Path
import numpy as np
import pandas as pd

SEED = 0

def cpu_flags()->str:
    "The CPU model and the flags that matter for these paths (AVX-512, VNNI, BF16, AMX)."
    info = Path('/proc/cpuinfo').read_text() if Path('/proc/cpuinfo').exists() else ''
    model = (re.search(r'model name\s*:\s*(.*)', info) or [None, 'unknown'])[1]
    flags = set((re.search(r'flags\s*:\s*(.*)', info) or [None, ''])[1].split())
    keep = sorted(f for f in flags if f.startswith(('avx512', 'amx')) or f in ('avx2', 'avx_vnni', 'fma'))
    return f'{model}; {os.cpu_count()} CPUs; flags: {" ".join(keep)}; AMX: {"yes" if any(f.startswith("amx") for f in flags) else "no"}'

def draw_passages(n:int, seed:int=SEED)->list[str]:
    "`n` passages of 1-5 consecutive sentences from the pd test novels (segmented text), drawn with `seed`."
    from relic_nb.relic.task import load_relic
    books = load_relic('pd', 'test')
    rng = np.random.default_rng(seed)
    names = sorted(books)
    out = []
    for b, k in zip(rng.choice(len(names), n), rng.integers(1, 6, n)):
        s = books[names[b]]['sentences']
        i = int(rng.integers(0, len(s) - k + 1)); out.append(' '.join(s[i:i + k]))
    return out

def cos(a, b): return (a * b).sum(1) / np.maximum(np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1), 1e-12)

def speed(texts:list[str], threads:int, rounds:int, folder:Path, chunk:int=300):
    import torch
    from sentence_transformers import SentenceTransformer
    from relic_nb.config import autocast       # the autocast DenseRetriever uses
    from relic_nb.relic.retrieval import OnnxEncoder, export_onnx, model_path
    torch.set_num_threads(threads)
    path = model_path('all-MiniLM-L6-v2')
    st = SentenceTransformer(path, device='cpu')
    q8 = torch.ao.quantization.quantize_dynamic(SentenceTransformer(path, device='cpu'), {torch.nn.Linear}, dtype=torch.qint8)
    t0 = time.time()
    onnx_files = {b: export_onnx('all-MiniLM-L6-v2', folder/f'{b}.onnx', quantize=b == 'onnx-int8') for b in ('onnx', 'onnx-int8')}
    print(f'ONNX export + fusion + quantisation of both graphs: {time.time() - t0:.1f} s', flush=True)
    ort = {b: OnnxEncoder('all-MiniLM-L6-v2', f, threads) for b, f in onnx_files.items()}

    def st_encode(model, precision, bs):
        def f(tx):
            with autocast(precision):
                return model.encode(tx, batch_size=bs, convert_to_tensor=True, show_progress_bar=False).float().numpy()
        return f
    def token_buckets(precision, bs):      # our own bucketing: sort by token count (encode() sorts by characters)
        def f(tx):
            n = [len(x) for x in st.tokenizer(tx, truncation=True, max_length=st.max_seq_length)['input_ids']]
            order, E = np.argsort(n, kind='stable')[::-1], np.zeros((len(tx), 384), np.float32)
            with autocast(precision):
                for i in range(0, len(tx), bs):
                    idx = order[i:i + bs]
                    E[idx] = st.encode([tx[j] for j in idx], batch_size=bs, convert_to_tensor=True, show_progress_bar=False).float().numpy()
            return E
        return f
    paths = {   # name -> encode(texts)
        "today: bf16 autocast, batch 16": st_encode(st, 'bfloat16', 16),
        'bf16 autocast, batch 64': st_encode(st, 'bfloat16', 64),
        'bf16 autocast, batch 16, token buckets': token_buckets('bfloat16', 16),
        'fp32, batch 16': st_encode(st, 'float32', 16),
        'torch dynamic int8, batch 16': st_encode(q8, 'float32', 16),
        'ONNX Runtime fp32, batch 16': lambda tx: ort['onnx'].encode(tx, 16),
        'ONNX Runtime int8, batch 16': lambda tx: ort['onnx-int8'].encode(tx, 16),
        'ONNX Runtime int8, batch 64': lambda tx: ort['onnx-int8'].encode(tx, 64),
    }
    for f in paths.values(): f(texts[:16])     # warm-up
    chunks = [texts[i:i + chunk] for i in range(0, len(texts), chunk)]
    times = {k: np.full((rounds, len(chunks)), np.inf) for k in paths}; cpu = {k: np.full((rounds, len(chunks)), np.inf) for k in paths}
    vecs = {k: [None] * len(chunks) for k in paths}
    names = list(paths)
    for r in range(rounds):
        for c, tx in enumerate(chunks):            # paths interleaved chunk by chunk, in a rotating order: bursts of other work hit all alike
            for name in names[c % len(names):] + names[:c % len(names)]:
                c0, t0 = time.process_time(), time.perf_counter()
                vecs[name][c] = paths[name](tx)
                times[name][r, c] = time.perf_counter() - t0; cpu[name][r, c] = time.process_time() - c0
        print(f'round {r + 1}/{rounds} done; load average {os.getloadavg()[0]:.1f}', flush=True)
    times = {k: v.min(0).sum() for k, v in times.items()}; cpu = {k: v.min(0).sum() for k, v in cpu.items()}   # best round per chunk
    vecs = {k: np.concatenate(v) for k, v in vecs.items()}
    today, ref = times["today: bf16 autocast, batch 16"], vecs['fp32, batch 16']
    rows = []
    for name in paths:
        c = cos(vecs[name], ref)
        rows.append(dict(path=name, passages_per_s=len(texts) / times[name], cpu_s_per_1000=1000 * cpu[name] / len(texts),
                         speedup=today / times[name], cos_mean=c.mean(), cos_min=c.min()))
    df = pd.DataFrame(rows)
    print(f'\n{len(texts)} passages ({np.mean([len(t.split()) for t in texts]):.0f} words on average), {threads} threads, chunks of {chunk}, each path the best of {rounds} rounds per chunk')
    print(df.to_string(index=False, formatters={
        'passages_per_s': '{:8.1f}'.format, 'cpu_s_per_1000': '{:8.1f}'.format, 'speedup': '{:6.2f}x'.format,
        'cos_mean': '{:.5f}'.format, 'cos_min': '{:.5f}'.format}))
    return df

def candidate_sets(threads:int, rounds:int, blocks:int, block:int, seed:int=SEED):
    from relic_nb.relic.task import load_relic
    from relic_nb.relic.retrieval import DenseRetriever
    from relic_nb.relic.task import CandidateSet
    books = load_relic('pd', 'test'); names = sorted(books)
    rng = np.random.default_rng(seed)
    sets = []
    for b in rng.choice(len(names), blocks):
        s = books[names[b]]['sentences']; i = int(rng.integers(0, len(s) - block + 1)); sents = s[i:i + block]
        sets.append([CandidateSet(names[b], n, sents, list(range(len(sents) - n + 1))) for n in range(1, 6)])
    n_passages = sum(len(cs) for blk in sets for cs in blk)
    paths = {"today: torch bf16, batch 16, whole passages": DenseRetriever('all-MiniLM-L6-v2', cache=None, n_threads=threads, precision='bfloat16'),
             'ONNX int8, batch 16, whole passages': DenseRetriever('all-MiniLM-L6-v2', cache=None, n_threads=threads, backend='onnx-int8'),
             'ONNX int8, batch 16, composed from sentences': DenseRetriever('all-MiniLM-L6-v2', cache=None, n_threads=threads, backend='onnx-int8', passages='composed')}
    for dr in paths.values(): dr._parts = {}; [dr.passage_vectors(cs) for cs in sets[0][:2]]    # load, export the graph, warm up
    times, names_ = {k: np.full((rounds, len(sets)), np.inf) for k in paths}, list(paths)
    for r in range(rounds):
        for c, blk in enumerate(sets):
            for name in names_[c % len(names_):] + names_[:c % len(names_)]:
                dr = paths[name]; dr._parts = {}                  # nothing kept from an earlier block or round
                t0 = time.perf_counter()
                for cs in blk: dr.passage_vectors(cs)
                times[name][r, c] = time.perf_counter() - t0
        print(f'candidate sets: round {r + 1}/{rounds} done; load average {os.getloadavg()[0]:.1f}', flush=True)
    best = {k: v.min(0).sum() for k, v in times.items()}; today = best[names_[0]]
    print(f'\n{blocks} blocks of {block} consecutive sentences, {n_passages:,} candidate passages of 1-5 sentences, {threads} threads, each path the best of {rounds} rounds per block')
    for k, t in best.items(): print(f'  {k:<48} {n_passages / t:8.1f} passages/s  {today / t:6.2f}x')
    return best

def bootstrap(ranks:dict[str, np.ndarray], n:int=1000, seed:int=SEED)->pd.DataFrame:
    "Per path: recall@1/10/100 (percent) and mean rank with 95% intervals over `n` resamples of the quotes; and each path minus the first."
    rng = np.random.default_rng(seed)
    names = list(ranks); m = len(ranks[names[0]])
    idx = rng.integers(0, m, (n, m))
    stat = {'recall@1': lambda r: 100 * (r <= 1).mean(-1), 'recall@10': lambda r: 100 * (r <= 10).mean(-1),
            'recall@100': lambda r: 100 * (r <= 100).mean(-1), 'mean rank': lambda r: r.mean(-1)}
    rows = []
    for s, fn in stat.items():
        for name in names:
            r = ranks[name].astype(float); b = fn(r[idx])
            rows.append(dict(stat=s, path=name, value=fn(r), lo=np.percentile(b, 2.5), hi=np.percentile(b, 97.5)))
        for name in names[1:]:
            d = fn(ranks[name][idx].astype(float)) - fn(ranks[names[0]][idx].astype(float))
            rows.append(dict(stat=s, path=f'difference ({name} - {names[0]})', value=fn(ranks[name].astype(float)) - fn(ranks[names[0]].astype(float)),
                             lo=np.percentile(d, 2.5), hi=np.percentile(d, 97.5)))
    return pd.DataFrame(rows)

def ranking(books:list[str], lengths:list[int], threads:int, backend:str, folder:Path):
    from relic_nb.relic.task import load_relic
    from relic_nb.relic.retrieval import DenseRetriever, OnnxEncoder, export_onnx
    from relic_nb.relic.task import evaluate_retriever, quotes_table
    data = load_relic('pd', 'test')
    data = {b: data[b] for b in books}
    q = quotes_table(data, 4, 4); q = q[q.n.isin(lengths)]
    n_cand = sum(len(data[b]['candidates'][f'{n}_sentence']) for b, n in q[['book', 'n']].drop_duplicates().itertuples(index=False))
    print(f'\nRanking check: {len(q)} test quotes of {lengths} sentences from {", ".join(books)} (4/4 context), '
          f'{n_cand:,} candidates encoded per path', flush=True)
    ranks = {}
    for name, kw in [('today (torch bf16, batch 16)', dict(precision='bfloat16')), (f'{backend}, batch 16', dict(backend=backend))]:
        dr = DenseRetriever('all-MiniLM-L6-v2', cache=None, batch_size=16, n_threads=threads, **kw)
        if kw.get('backend'):
            f = folder/f'{backend}.onnx'
            if not f.exists(): export_onnx('all-MiniLM-L6-v2', f, quantize=backend == 'onnx-int8')
            dr._models['all-MiniLM-L6-v2'] = OnnxEncoder('all-MiniLM-L6-v2', f, threads)   # the graph of part 1
        t0 = time.perf_counter()
        pq = evaluate_retriever(dr, data, 4, 4, top=0, quotes=q)
        ranks[name] = pq['rank'].to_numpy()
        print(f'  {name}: {time.perf_counter() - t0:.1f} s ({dr.encoded:,} texts encoded)', flush=True)
    a, b = ranks.values()
    print(f'  same gold rank: {(a == b).sum()}/{len(a)} quotes; |rank difference| median {np.median(np.abs(a - b)):.0f}, max {np.abs(a - b).max()}')
    bs = bootstrap(ranks)
    print(bs.to_string(index=False, formatters={'value': '{:8.2f}'.format, 'lo': '{:8.2f}'.format, 'hi': '{:8.2f}'.format}))
    agree = all(bs[(bs.stat == s) & (bs.path == list(ranks)[0])].pipe(lambda t: t.lo.iloc[0] <= bs[(bs.stat == s) & (bs.path == list(ranks)[1])].value.iloc[0] <= t.hi.iloc[0])
                for s in bs.stat.unique())
    zero = all(r.lo <= 0 <= r.hi for r in bs[bs.path.str.startswith('difference')].itertuples())
    print(f'  {backend}: every figure inside today\'s 95% interval: {agree}; every paired difference\'s interval holds 0: {zero}')
    return agree and zero

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--passages', type=int, default=2000); ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--rounds', type=int, default=2); ap.add_argument('--skip-ranking', action='store_true')
    ap.add_argument('--skip-speed', action='store_true')
    ap.add_argument('--ranking-books', default='Persuasion,Pride and Prejudice'); ap.add_argument('--ranking-lengths', default='1')
    ap.add_argument('--backend', default='onnx-int8', help='the path the ranking check compares with today\'s')
    ap.add_argument('--candidate-sets', action='store_true', help='time whole and composed candidate sets (part 2)')
    ap.add_argument('--blocks', type=int, default=6); ap.add_argument('--block', type=int, default=300)
    a = ap.parse_args()
    print(cpu_flags())
    import torch, onnxruntime
    print(f'torch {torch.__version__}, onnxruntime {onnxruntime.__version__}; load average {os.getloadavg()[0]:.1f}', flush=True)
    folder = Path(tempfile.mkdtemp())
    if not a.skip_speed: speed(draw_passages(a.passages), a.threads, a.rounds, folder)
    if a.candidate_sets: candidate_sets(a.threads, a.rounds, a.blocks, a.block)
    ok = True
    if not a.skip_ranking: ok = ranking(a.ranking_books.split(','), [int(x) for x in a.ranking_lengths.split(',')], a.threads, a.backend, folder)
    print(f'peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GB')
    if not ok: raise SystemExit(1)

if __name__ == '__main__':
    main()
