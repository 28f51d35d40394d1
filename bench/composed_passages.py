"""Sentence-composed passage vectors: a way past the 2x encoder target (issue 15 §2) that changes the vectors, measured.

    .venv/bin/python bench/composed_passages.py [--context 4/4] [--threads 2] [--resamples 1000]

Needs the pd test split (stage 05_windows). The whole passages' vectors come from the embedding cache when a run with
`-p passages whole` left them there; otherwise they are encoded here (~20 min on 2 cores).

The retrieval stage encodes every candidate passage (1-5 consecutive sentences) whole. all-MiniLM-L6-v2 pools by the
mean of its token vectors, so a passage's vector can instead be composed from its sentences encoded one by one: the
sum of their token vectors over the sum of their token counts. Each sentence is then encoded once instead of in up to
five passages (about 15 times fewer tokens when all five lengths are asked for), but a token no longer sees the
passage's other sentences. This script measures both sides on every multi-sentence test quote (single-sentence
passages are the same either way):
  * work: texts and tokens each path encodes for the test novels, and the seconds of the composed path (bfloat16
    autocast, the pd precision); the stage's own passages/s is in its timings (runs/pd/retrieval_timings.csv);
  * agreement: the cosine of each gold passage's composed vector with the stage's vector;
  * rankings of the quotes (the profile's zero-shot all-MiniLM-L6-v2 queries at --context): recall@10, recall@100 and
    mean rank of both, and their paired differences (composed - stage) with 95% bootstrap intervals (seeded
    resamples of quotes).
"""
import argparse, sys, time
from pathlib import Path
import numpy as np

SEED = 0

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--context', default='4/4'); ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--resamples', type=int, default=1000)
    a = ap.parse_args()
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import torch
    from relic_nb.config import autocast
    from relic_nb.relic.task import load_relic
    from relic_nb.relic.retrieval import model_path, prefix_sums, run_means, unit, zero_shot_retriever
    from relic_nb.relic.task import CandidateSet, gold_ranks, parse_context, quotes_table
    torch.set_num_threads(a.threads)
    data = load_relic('pd', 'test')
    L, R = parse_context(a.context)
    q = quotes_table(data, L, R)
    q = q[q.n > 1]
    dr = zero_shot_retriever('pd', 'all-MiniLM-L6-v2')           # its embed() encodes each text whole, whatever the profile's `passages`
    from sentence_transformers import SentenceTransformer
    st = SentenceTransformer(model_path('all-MiniLM-L6-v2'), device='cpu')
    body, pool = st[0], st[1]                      # the transformer and the mean pooling, without the final normalisation
    ranks, cosines, work = {'stage': [], 'composed': [], 'mean': [], 'weighted': []}, {'composed': [], 'mean': [], 'weighted': []}, dict(texts_stage=0, texts_composed=0, tokens_stage=0, tokens_composed=0, seconds_composed=0.0, seconds_mean=0.0)
    for book in sorted(set(q.book)):
        sents = data[book]['sentences']
        t0 = time.time()
        M, N = np.zeros((len(sents), 384), np.float32), np.zeros(len(sents), np.float32)
        order = np.argsort([-len(s) for s in sents], kind='stable')
        with torch.inference_mode(), autocast('bfloat16', 'cpu'):
            for i in range(0, len(sents), 64):
                idx = order[i:i + 64]; f = st.preprocess([sents[j] for j in idx])
                M[idx] = pool(body(dict(f)))['sentence_embedding'].float().numpy(); N[idx] = f['attention_mask'].sum(1).numpy()
        work['seconds_composed'] += time.time() - t0; work['texts_composed'] += len(sents); work['tokens_composed'] += int(N.sum())
        tokens = prefix_sums(M, N)                     # mean-pooled vectors weighted by their tokens: the passage's token mean
        t0 = time.time(); U = unit(dr.embed(dr.spec['candidates'], list(sents))); work['seconds_mean'] += time.time() - t0   # the stage's path, one sentence a text
        plain, weighted_sums = prefix_sums(U), prefix_sums(U, N)   # the unit sentence vectors, equally and by token count
        for n, g in q[q.book == book].groupby('n'):
            cs = CandidateSet(book, int(n), sents, data[book]['candidates'][f'{n}_sentence'])
            starts = np.asarray(cs.starts)
            composed = unit(run_means(tokens, starts, n))
            mean = unit(run_means(plain, starts, n))         # the mean of the sentences' unit vectors (the evidence search's)
            weighted = unit(run_means(weighted_sums, starts, n))   # their mean weighted by token counts (07's `passages='composed'`)
            stage = unit(dr.embed(dr.spec['candidates'], cs.texts))          # the stage's vectors, from its cache
            Q = unit(dr.embed(dr.spec['query'], list(g['query'])))
            work['texts_stage'] += len(starts); work['tokens_stage'] += int(tokens[1][starts + n].sum() - tokens[1][starts].sum())
            for k, V in (('stage', stage), ('composed', composed), ('mean', mean), ('weighted', weighted)): ranks[k].append(gold_ranks(Q @ V.T, g['gold'].values))
            for k, V in (('composed', composed), ('mean', mean), ('weighted', weighted)): cosines[k].append((V[g['gold'].values] * stage[g['gold'].values]).sum(1))
    if dr.encoded: print(f'note: {dr.encoded} texts were not in the cache and were encoded now (run 07_retrieval first for the stage\'s own vectors)')
    rs = np.concatenate(ranks['stage'])
    print(f'{len(rs)} multi-sentence test quotes ({a.context}), {len(set(q.book))} novels')
    print(f"work: the stage encodes {work['texts_stage']:,} passages ({work['tokens_stage']:,} tokens); composing encodes "
          f"{work['texts_composed']:,} sentences ({work['tokens_composed']:,} tokens, {work['tokens_stage'] / work['tokens_composed']:.1f}x fewer): "
          f"{work['seconds_composed']:.0f} s (torch bf16, token-weighted), {work['seconds_mean']:.0f} s (the stage's backend, unit mean; 0 when cached) on {a.threads} threads")
    rng = np.random.default_rng(SEED)
    idx = rng.integers(0, len(rs), (a.resamples, len(rs)))
    metrics = {'recall@10': lambda r: 100 * (r <= 10).mean(-1), 'recall@100': lambda r: 100 * (r <= 100).mean(-1), 'mean rank': lambda r: r.mean(-1)}
    for variant, what in (('composed', 'token-weighted mean of token vectors'), ('mean', 'mean of the sentences\' unit vectors'), ('weighted', 'the same weighted by token counts')):
        rc, cos = np.concatenate(ranks[variant]), np.concatenate(cosines[variant])
        print(f'\n{variant} ({what}): cosine with the stage vectors of the gold passages: mean {cos.mean():.3f}, min {cos.min():.3f}')
        for name, f in metrics.items():
            d = f(rc[idx]) - f(rs[idx])
            print(f'{name:>10}: stage {f(rs):8.2f}  {variant} {f(rc):8.2f}  difference {f(rc) - f(rs):+8.2f} '
                  f'[{np.percentile(d, 2.5):+.2f}, {np.percentile(d, 97.5):+.2f}]')

if __name__ == '__main__': main()
