"""Ranking variants of the evidence search, chosen on the claim set's tuning half: hit@1/5/10 and MRR per variant.

    .venv/bin/python bench/search_variants.py [--profile pd] [--halves tune,report] [--only 'name;name']

The claims and the hit rule are those of bench/search_eval.py (a result hits when it shares a sentence with a gold
range; passages of 1-5 sentences, distinct, top 10). Each variant changes one thing of the search's default
(`hybrid`: BM25 and the dense ranker's scores, standardised and added):

- the fusion: BM25 or dense alone, reciprocal-rank fusion (`rrf`, the earlier default), either fusion with the dense
  ranker weighted;
- BM25's query: character names discounted (words the novel capitalises mid-sentence 90% of the time or more, seen 3
  times or more, weigh `alpha`), or a length prior (a passage's BM25 score times dl / (dl + c), dl its words);
- the dense query: the claim with the `<mask>` appended, in place of the claim as typed;
- the results: the diversity step (no result within `gap` sentences of a better one; the default has 3), or the top
  20 re-scored with each passage encoded whole, by the same encoder or by all-mpnet-base-v2 (`make mpnet`; the
  fused score and the cosine, each standardised over the top, added);
- the scene: each sentence's own evidence (BM25 and dense, standardised and added, over single sentences), spread over
  its neighbours by a Gaussian kernel of `scene_width` sentences, and its mean over a passage added `scene` times (a
  claim paraphrases a scene, whose evidence is spread over sentences around the passage a critic would cite).

The default was chosen as the variant with the best hit@5 on the tuning half (MRR breaking ties), with each encoder;
the report half is printed beside it and was not used to choose. One claim is 3.6 points of a half: a variant ahead by
one claim with one encoder and behind with the other (the length prior) does not replace the default. `ms` is the
ranking time per claim in this process (index built). A check first confirms that the `hybrid` variant below ranks
exactly as `EvidenceIndex.search` does.
"""
import argparse, re, sys, time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT/'bench')]
from search_eval import K, first_hit, gold_sets   # noqa: E402


@dataclass(frozen=True)
class Variant:
    name:str
    fuse:str = 'z'          # 'z' (zscore_fusion), 'rrf', 'bm25', 'dense'
    dense_weight:float = 1.0
    alpha:float = 1.0       # weight of a character name in BM25's query
    length_c:float = 0.0    # length prior's constant (0: none)
    bare_query:bool = True  # the dense query: the claim as typed (the search's), or with `<mask>` appended
    gap:int = 3             # the search's GAP
    rerank:int = 0
    scene:float = 0.0       # weight of the scene's evidence (0: none)
    scene_width:float = 2.0 # the scene kernel's width (sentences)
    rerank_model:str = ''   # re-score the top `rerank` with this encoder (a name `model_path` knows) instead


DEFAULT = Variant('hybrid (default)')
VARIANTS = [Variant('bm25', 'bm25'), Variant('dense', 'dense'),
            Variant('rrf (earlier default)', 'rrf', bare_query=False, gap=0), DEFAULT, Variant('rrf', 'rrf'),
            Variant('rrf, dense x0.5', 'rrf', 0.5), Variant('rrf, dense x2', 'rrf', 2.0),
            Variant('hybrid, dense x0.5', dense_weight=0.5), Variant('hybrid, dense x2', dense_weight=2.0),
            Variant('hybrid, names x0.3', alpha=0.3), Variant('hybrid, names x0', alpha=0.0),
            Variant('hybrid, length prior c=5', length_c=5), Variant('hybrid, length prior c=15', length_c=15),
            Variant('hybrid, dense query with <mask>', bare_query=False),
            Variant('hybrid, gap 0', gap=0), Variant('hybrid, gap 1', gap=1),
            Variant('hybrid, top 20 re-scored whole', rerank=20),
            *[Variant(f'hybrid + scene x{w:g}, width {sw:g}', scene=w, scene_width=sw)
              for w in (0.5, 1.0, 2.0) for sw in (1.0, 2.0, 4.0)],
            *[Variant(f'hybrid, top {r} re-scored by all-mpnet-base-v2', rerank=r, rerank_model='all-mpnet-base-v2')
              for r in (10, 20)]]


def second_encoder(name:str):
    "The SentenceTransformer `name`, loaded once (all-mpnet-base-v2: the local folder `make mpnet` installs)."
    from sentence_transformers import SentenceTransformer
    from relic_nb.relic.retrieval import model_path
    if name not in _ENCODERS: _ENCODERS[name] = SentenceTransformer(str(model_path(name)), device='cpu')
    return _ENCODERS[name]

_ENCODERS = {}


def zs(x:np.ndarray)->np.ndarray:
    "`x` standardised (all zeros when it is constant)."
    return (x - x.mean()) / x.std() if x.std() else np.zeros_like(x)


def name_words(sentences:list[str], min_count:int=3, share:float=0.9)->set[str]:
    "Lowercased words that the novel capitalises, when not first in a sentence, at least `share` of the time."
    cap, seen = Counter(), Counter()
    for s in sentences:
        for t in re.findall(r'\w+', s)[1:]:
            seen[t.lower()] += 1; cap[t.lower()] += t[0].isupper()
    return {w for w, n in seen.items() if n >= min_count and cap[w] / n >= share and not w.isdigit()} - {'i'}


def bm25_scores(idx, n:int, context:str, v:Variant, names:set[str])->np.ndarray:
    "BM25 scores of the n-sentence passages, names weighted `v.alpha` and a length prior when `v.length_c`."
    from relic_nb.bm25 import tokenize
    fast = idx.bm25.index(idx.candidates(n))
    Q = fast.query_matrix([tokenize(context)])
    if v.alpha != 1:
        cols = np.array(sorted(fast.vocab[w] for w in names if w in fast.vocab), dtype=np.int64)
        Q.data = np.where(np.isin(Q.indices, cols), v.alpha, 1.0) * Q.data
    words = np.unique(Q.indices)
    x = np.asarray(Q[:, words].todense()).ravel()
    S = np.asarray(fast.weights(words).T @ x).ravel() if len(words) else np.zeros(fast.n_docs)
    return S * (fast.doc_len / (fast.doc_len + v.length_c)) if v.length_c else S


def scene_evidence(idx, context:str, qvec:np.ndarray, names:set[str], v:Variant)->np.ndarray:
    "Each sentence's evidence (single-sentence BM25 and dense, standardised, added), smoothed over its neighbours."
    from relic_nb.search import zscore_fusion
    dense = (qvec[None] @ idx.passage_vectors(1).T)[0]
    r = zscore_fusion(bm25_scores(idx, 1, context, v, names)) + zscore_fusion(dense)
    w = int(np.ceil(3 * v.scene_width)); k = np.exp(-0.5 * (np.arange(-w, w + 1) / v.scene_width) ** 2)
    return np.convolve(r, k / k.sum(), mode='same')


def ranked(idx, claim:str, v:Variant, names:set[str], qvec:np.ndarray)->pd.DataFrame:
    "Top-K distinct passages (start, n; 1-based start) under variant `v`."
    from relic_nb.relic.retrieval import RRF_K, fuse_ranks, ranks_of
    from relic_nb.search import claim_query, distinct_picks, zscore_fusion
    context = claim_query(claim)[1]
    B, D, N, S0 = [], [], [], []
    for n in range(1, 6):
        ok = idx.within_sections(n)                                   # as the search: none across two sections
        B.append(bm25_scores(idx, n, context, v, names)[ok]); D.append((qvec[None] @ idx.passage_vectors(n).T)[0][ok])
        N.append(np.full(ok.sum(), n)); S0.append(np.flatnonzero(ok))
    B, D, N, S0 = map(np.concatenate, (B, D, N, S0))
    if v.scene:
        cum = np.concatenate([[0.0], np.cumsum(scene_evidence(idx, context, qvec, names, v))])
        sc = (cum[S0 + N] - cum[S0]) / N                              # the scene's evidence, averaged over the passage
    if v.fuse == 'bm25': S = B
    elif v.fuse == 'dense': S = D
    elif v.fuse == 'rrf': S = fuse_ranks(ranks_of(B)[0], ranks_of(D)[0]) if v.dense_weight == 1 else (
        1 / (RRF_K + ranks_of(B)[0]) + v.dense_weight / (RRF_K + ranks_of(D)[0]))
    else: S = zscore_fusion(B) + v.dense_weight * zscore_fusion(D)
    if v.scene: S = S + v.scene * zscore_fusion(sc)
    top = distinct_picks(np.argsort(ranks_of(S)[0], kind='stable'), S0, N, len(idx), v.rerank or K, v.gap)
    if v.rerank_model:
        enc = second_encoder(v.rerank_model)
        q, P = enc.encode([claim]), enc.encode([' '.join(idx.sentences[S0[i]:S0[i] + N[i]]) for i in top])
        W = (P @ q[0]) / (np.linalg.norm(P, axis=1) * np.linalg.norm(q[0]))
        top = [top[j] for j in np.argsort(-(zs(S[top]) + zs(W)), kind='stable')[:K]]
    elif v.rerank:
        W = idx.encoder.passages([' '.join(idx.sentences[S0[i]:S0[i] + N[i]]) for i in top]) @ qvec
        zb = (B[top] - B.mean()) / B.std()
        top = [top[j] for j in np.argsort(-(zb + (W - D.mean()) / D.std()), kind='stable')[:K]]
    return pd.DataFrame(dict(rank=np.arange(1, len(top) + 1), start=S0[top] + 1, n=N[top]))


def main(argv=None):
    from relic_nb.search import EvidenceIndex, claim_query, one_thread
    ap = argparse.ArgumentParser()
    ap.add_argument('--claims', default=str(ROOT/'data'/'annotations'/'search_claims.tsv'))
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--model', default='auto', help="the dense encoder (`dense_ranker`): 'auto', 'dense-RELiC', a name")
    ap.add_argument('--halves', default='tune,report')
    ap.add_argument('--only', default='', help="the variants to measure, ';'-separated names (default: all)")
    a = ap.parse_args(argv)
    variants = [v for v in VARIANTS if not a.only or v.name in a.only.split(';') or v == DEFAULT]
    from relic_nb.relic.retrieval import local_mpnet
    if any(v.rerank_model for v in variants) and not local_mpnet():
        print('all-mpnet-base-v2 is not installed (make mpnet): its variants are left out', file=sys.stderr)
        variants = [v for v in variants if not v.rerank_model]
    claims = pd.read_csv(a.claims, sep='\t', dtype=str, keep_default_na=False)
    halves = a.halves.split(',')
    rows = []
    for novel, g in claims.groupby('novel', sort=True):
        idx = EvidenceIndex.build(novel, a.profile, a.model); names = name_words(idx.sentences)
        for c in g.itertuples():
            gold = gold_sets(c.gold)
            qv = {bare: idx.encoder.queries([claim_query(c.claim, not bare)[0]])[0] for bare in (False, True)}
            ref = first_hit(idx.search(c.claim, K), gold)
            for v in variants:
                t = time.perf_counter()
                with one_thread(): res = ranked(idx, c.claim, v, names, qv[v.bare_query])   # BLAS as the search runs it
                ms = 1000 * (time.perf_counter() - t)
                rows.append(dict(id=c.id, half=c.half, variant=v.name, rank=first_hit(res, gold), ms=ms,
                                 length=res.n[:5].mean()))
                if v == DEFAULT: assert rows[-1]['rank'] == ref, (c.id, rows[-1]['rank'], ref)
    df = pd.DataFrame(rows)
    print(f'== {df.id.nunique()} claims, profile {a.profile}; `hybrid` variant = EvidenceIndex.search: checked')
    out = []
    for v in variants:
        d, row = df[df.variant == v.name], {'variant': v.name}
        for h in halves:
            r = d[d.half == h]['rank']
            row |= {f'{h} hit@1': 100 * (r == 1).mean(), f'{h} hit@5': 100 * r.between(1, 5).mean(),
                    f'{h} hit@10': 100 * (r > 0).mean(),
                    f'{h} MRR': 100 * np.where(r > 0, 1 / r.clip(lower=1), 0).mean()}
        out.append(row | {'top-5 length': d.length.mean(), 'ms': d.ms.median()})
    out = pd.DataFrame(out)
    print(out.round(1).to_string(index=False))
    h = halves[0]
    best = out.sort_values([f'{h} hit@5', f'{h} MRR'], ascending=False, kind='stable').iloc[0]['variant']
    print(f'best on the {h} half (hit@5, then MRR): {best}')
    return out


if __name__ == '__main__': main()
