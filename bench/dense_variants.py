"""dense-RELiC variants on the pd test split: how many test quotes each ranks first (and within 3, 5, 10, 50, 100).

Two kinds of variant, both trained on pd's train split and scored on its test split (187 quotes):
  * `--overrides JSON`: a dense-RELiC run with the pd 4/4 settings changed by JSON (any DenseConfig field),
    trained into a scratch folder (never into results/), e.g.
        --overrides '{"train_quote_encoder": true, "extra_negatives": 0, "freeze_layers": 0, "epochs": 1}'
    for both encoders trained (the paper's setting). A trained quote encoder re-encodes the 64k test
    passages for scoring (about 8 minutes in bfloat16 on 2 cores); a frozen one reuses stage 07's vectors.
  * `--linear`: no fine-tuning; a linear map on the frozen MiniLM context vectors, trained with the same
    loss (in-batch + 500 book negatives, cosine x 20) for each of --linear-epochs. Seconds per setting.

Needs the pd dataset and stage 07's cached vectors (`make reproduce` up to 07_retrieval).
Usage (from the project root):
    python bench/dense_variants.py --linear [--linear-epochs 0 5 20 50]
    python bench/dense_variants.py --overrides '{"epochs": 1}' [--out /tmp/dense_variants/run1]
"""
from __future__ import annotations
import argparse, json, tempfile, time
from pathlib import Path
import numpy as np

KS = (1, 3, 5, 10, 50, 100)


def report(name, ranks):
    r = np.asarray(ranks)
    print(f"{name}: of {len(r)} test quotes, within rank {', '.join(f'{k}: {int((r <= k).sum())}' for k in KS)}; "
          f"mean rank {r.mean():.0f}", flush=True)


def linear_variants(epochs_list, lr=1e-3, seed=0):
    "A linear map (identity at start) on frozen context vectors, trained like dense-RELiC; test ranks per setting."
    import torch
    from relic_nb.config import get_profile, paths
    from relic_nb.relic.task import load_relic
    from relic_nb.relic.retrieval import DenseRetriever
    from relic_nb.relic.task import evaluate_retriever, quotes_table
    from relic_nb.relic.dense_relic import (dense_config, pairs_table, val_pool, QuoteVectors, BookBatchSampler, contrastive_loss,
                                overlap_mask)
    prof, P = get_profile('pd'), paths('pd')
    cfg = dense_config(prof, '4/4')
    enc = DenseRetriever(cfg.model, cache=P.cache/'embeddings', precision=prof.precision)
    data = {s: load_relic(prof, s) for s in ('train', 'test')}
    pairs = {s: pairs_table(d, 4, 4, '<mask>') for s, d in data.items()}
    C = {s: enc.embed(cfg.model, list(p.context)) for s, p in pairs.items()}
    qv = QuoteVectors(cfg, P.cache/'embeddings')
    tr = pairs['train']
    Y = torch.from_numpy(qv(list(tr.quote)))
    banks = {b: (torch.from_numpy(qv(list(p.text))), p.start.to_numpy(), (p.start + p.n).to_numpy())
             for b, p in val_pool(data['train'], tr, cfg.extra_negatives, cfg.seed + 1).items()}
    norm = lambda V: V / np.maximum(np.linalg.norm(V, axis=1, keepdims=True), 1e-12)
    X, sampler = torch.from_numpy(C['train']), BookBatchSampler(list(tr.book), cfg.batch_size, cfg.seed)
    for epochs in epochs_list:
        torch.manual_seed(seed)
        W = torch.nn.Linear(C['train'].shape[1], C['train'].shape[1])
        torch.nn.init.eye_(W.weight); torch.nn.init.zeros_(W.bias)
        opt = torch.optim.AdamW(W.parameters(), lr=lr, weight_decay=0.0)
        for epoch in range(epochs):
            for ix in sampler.batches(epoch):
                V, s0, s1 = banks[tr.book.values[ix[0]]]
                c = torch.nn.functional.normalize(W(X[ix]), dim=-1)
                q = torch.nn.functional.normalize(torch.cat([Y[ix], V]), dim=-1)
                q0 = tr.start.values[ix]
                loss = contrastive_loss(c, q, cfg.scale, torch.from_numpy(overlap_mask(q0, q0 + tr.n.values[ix], s0, s1)))
                opt.zero_grad(); loss.backward(); opt.step()
        with torch.no_grad(): Ct = norm(W(torch.from_numpy(C['test'])).numpy())
        ctx = dict(zip(pairs['test'].id, Ct))
        pq = evaluate_retriever(lambda cs, g: np.stack([ctx[i] for i in g.id]) @ norm(qv(cs.texts)).T, data['test'], 4, 4, top=0,
                      quotes=quotes_table(data['test'], 4, 4))
        report(f'linear map, {epochs} epochs, lr {lr:g}', pq['rank'])


def trained_variant(overrides:dict, out:Path):
    "Train pd 4/4 with `overrides` into `out`, print its val history and its test ranks."
    from relic_nb.config import autocast, paths
    from relic_nb.relic.task import load_relic
    from relic_nb.relic.task import evaluate_retriever
    from relic_nb.relic.dense_relic import dense_config, train_dense, DenseRelicRetriever
    kw = dict(overrides); ctx = kw.pop('context', '4/4')
    cfg = dense_config('pd', ctx, **kw); print(cfg, flush=True)
    t = time.time(); res = train_dense('pd', cfg, out=out, progress=True)
    print(f"trained in {time.time() - t:.0f} s; val (epoch, recall@{cfg.val_k}, MRR): "
          f"{[(h['epoch'], h[f'val_recall@{cfg.val_k}'], h['val_mrr']) for h in res['history'] if 'val_mrr' in h]}", flush=True)
    r = DenseRelicRetriever(out/'best', cache=paths('pd').cache/'embeddings' if not cfg.train_quote_encoder else None)
    t = time.time()
    with autocast('bfloat16' if cfg.train_quote_encoder else 'float32'):   # re-encoding 64k passages: bf16 for speed
        pq = evaluate_retriever(r, load_relic('pd', 'test'), cfg.L, cfg.R, top=0)
    print(f'test scoring: {time.time() - t:.0f} s')
    report(f'dense-RELiC {ctx} with {json.dumps(overrides)}', pq['rank'])


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--linear', action='store_true', help='the linear map on frozen vectors')
    ap.add_argument('--linear-epochs', type=int, nargs='+', default=[0, 5, 20, 50])
    ap.add_argument('--overrides', help='JSON of DenseConfig fields for a trained variant')
    ap.add_argument('--out', help='scratch folder for a trained variant (default: a new temporary folder)')
    ap.add_argument('--threads', type=int, default=2)
    a = ap.parse_args(argv)
    import torch
    torch.set_num_threads(a.threads)
    if not a.linear and a.overrides is None: ap.error('give --linear and/or --overrides JSON')
    if a.linear: linear_variants(a.linear_epochs)
    if a.overrides is not None:
        trained_variant(json.loads(a.overrides), Path(a.out) if a.out else Path(tempfile.mkdtemp(prefix='dense_variant_')))


if __name__ == '__main__':
    main()
