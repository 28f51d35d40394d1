"""What a base-size zero-shot encoder costs on this CPU: sentences/s of each encoding path, and Table 3's rows from it.

For --model (default all-mpnet-base-v2, `make mpnet`) on --sentences sentences drawn (seeded) from the pd test novels
(stage 05_windows must have run), each path in turn in a rotating order, the best of --rounds rounds:
  * torch float32 and torch bfloat16 autocast (sentence-transformers, batch 16: `DenseRetriever`, no cache);
  * ONNX Runtime int8 (`export_onnx`): exported and checked (`onnx_agreement`); a refused graph is reported as such.
Prints sentences/s, tokens/s and the implied float32 GFLOP/s (2 x parameters x tokens), the cosine of each path's
vectors with float32, and the hours the zero-shot rows of Table 3 would take at the fastest kept path: every sentence
of the test novels is encoded once (`passages='composed'`, the pd profile's); the critics' contexts are few.

Usage (from the project root):
    python bench/base_encoder_cost.py [--model all-mpnet-base-v2] [--sentences 400] [--rounds 2] [--threads 2]
"""
from __future__ import annotations
import argparse, random, tempfile, time
from pathlib import Path
import numpy as np


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--model', default='all-mpnet-base-v2')
    ap.add_argument('--sentences', type=int, default=400)
    ap.add_argument('--rounds', type=int, default=2)
    ap.add_argument('--threads', type=int, default=2)
    a = ap.parse_args()
    import torch
    from relic_nb.relic.retrieval import DenseRetriever, OnnxEncoder, OnnxExportError, export_onnx, unit
    from relic_nb.relic.task import load_relic
    torch.set_num_threads(a.threads)
    test = load_relic('pd', 'test')
    every = [s for b in sorted(test) for s in test[b]['sentences']]
    texts = random.Random(0).sample(every, min(a.sentences, len(every)))
    paths = {p: DenseRetriever(a.model, precision=p, n_threads=a.threads) for p in ('float32', 'bfloat16')}
    st = paths['float32'].encoder(a.model)
    params = sum(p.numel() for p in st.parameters())
    tokens = int(sum(len(x) for x in st.tokenizer(texts, truncation=True, max_length=st.max_seq_length)['input_ids']))
    encode = {f'torch {p}': (lambda r=r: r.embed(a.model, texts)) for p, r in paths.items()}
    refused = ''
    with tempfile.TemporaryDirectory() as tmp:
        try:
            f = export_onnx(a.model, Path(tmp)/'m.onnx', quantize=True)
            enc = OnnxEncoder(a.model, f, a.threads)
            encode['onnx int8'] = lambda: enc.encode(texts, 16)
        except OnnxExportError as e: refused = str(e)
        for r in paths.values(): r.embed(a.model, texts[:16])            # warm-up
        best, vecs = {k: float('inf') for k in encode}, {}
        names = list(encode)
        for rnd in range(a.rounds):
            for k in names[rnd % len(names):] + names[:rnd % len(names)]:
                t = time.time(); vecs[k] = encode[k](); best[k] = min(best[k], time.time() - t)
    ref = unit(vecs['torch float32'])
    print(f'{a.model}: {params / 1e6:.0f} M parameters; {len(texts)} pd test sentences, {tokens:,} tokens; '
          f'{a.threads} threads; best of {a.rounds} rounds')
    print(f"{'path':<16}{'sentences/s':>12}{'tokens/s':>10}{'GFLOP/s':>9}{'cosine mean':>13}{'min':>7}")
    for k, s in best.items():
        cos = (unit(vecs[k]) * ref).sum(1)
        print(f'{k:<16}{len(texts) / s:>12.1f}{tokens / s:>10.0f}{2 * params * tokens / s / 1e9:>9.1f}'
              f'{cos.mean():>13.4f}{cos.min():>7.3f}')
    if refused: print(f'onnx int8: refused. {refused}')
    kept = {k: s for k, s in best.items() if k != 'onnx int8' or not refused}
    fast = min(kept, key=kept.get)
    rate = len(texts) / kept[fast]
    print(f'\nTable 3 zero-shot rows (pd test split: {len(every):,} sentences in {len(test)} novels, each encoded '
          f'once): {len(every) / rate / 3600:.1f} h at {fast} ({rate:.1f} sentences/s) on this CPU')


if __name__ == '__main__':
    main()
