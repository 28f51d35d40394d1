"""dense-RELiC benchmark: training examples per second on this machine's CPU, and a real kill-and-resume.

    python bench/dense_bench.py [--steps 6] [--skip-kill]

1. Training speed on the pd train split (MiniLM, batch 32, contexts up to 256 tokens, quotes up to
   128): optimizer steps of the 4/4 and 1/1 variants, with pd's settings (quote encoder frozen, lowest
   three context layers frozen) and the paper's (both encoders trained), after one warm-up step. Prints examples/s and peak memory.
2. Kill and resume: trains one epoch of pd with a tiny random RoBERTa (both encoders trained) in a
   subprocess, kills it with SIGKILL after its first checkpoint, starts it again (it resumes), and
   compares the final weights with an uninterrupted run of the same settings.
"""
import argparse, json, os, resource, shutil, signal, subprocess, sys, tempfile, time
from pathlib import Path
import numpy as np

def speed(steps:int):
    import torch
    from relic_nb.relic.dense_relic import DualEncoder, QuoteVectors, dense_config, pairs_table, _tokenizer, BookBatchSampler
    from relic_nb.relic.task import load_relic
    from relic_nb.config import paths
    torch.set_num_threads(2); torch.manual_seed(0)
    data = load_relic('pd', 'train')
    rows = []
    for ctx in ('4/4', '1/1'):
        for train_quote in (False, True):
            cfg = dense_config('pd', ctx, train_quote_encoder=train_quote,   # frozen: pd's settings; trained: the paper's
                               **({} if not train_quote else dict(freeze_layers=0, extra_negatives=0)))
            tok = _tokenizer(cfg)
            pairs = pairs_table(data, cfg.L, cfg.R, tok.mask_token)
            batches = BookBatchSampler(list(pairs.book), cfg.batch_size, cfg.seed).batches(0)[:steps + 1]
            model = DualEncoder.from_backbone(cfg); model.train()
            opt = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=cfg.lr)
            qv = QuoteVectors(cfg, paths('pd').cache/'embeddings')
            times, n = [], 0
            for i, b in enumerate(batches):
                ctxs, quotes = list(pairs.context.values[b]), list(pairs.quote.values[b])
                t0 = time.time()
                c = tok(ctxs, padding=True, truncation=True, max_length=cfg.max_context_tokens, return_tensors='pt')
                if train_quote: loss = model(c, tok(quotes, padding=True, truncation=True, max_length=cfg.max_quote_tokens, return_tensors='pt'))
                else: loss = model(c, quote_vectors=torch.from_numpy(qv(quotes)))   # cached vectors after the first run
                loss.backward(); opt.step(); opt.zero_grad()
                if i: times.append(time.time() - t0); n += len(b)
            rows.append((ctx, 'trained' if train_quote else 'frozen', np.mean(times), n / sum(times)))
            print(f'{ctx}  quote encoder {rows[-1][1]:8s} (freeze_layers={cfg.freeze_layers})  {rows[-1][2]:6.2f} s/step  {rows[-1][3]:6.2f} examples/s  '
                  f'(batch {cfg.batch_size}, {steps} steps)', flush=True)
    print(f'peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20:.2f} GB')
    return rows

TRAIN = '''
import sys, torch
torch.set_num_threads(2)
from relic_nb.relic.dense_relic import train_dense, dense_config
from relic_nb.fixtures import TINY_ROBERTA
cfg = dense_config('pd', '1/1', model='all-MiniLM-L6-v2', pooling='cls', normalize=False, scale=1.0, train_quote_encoder=True,
                   freeze_layers=0, extra_negatives=0, max_context_tokens=128, max_quote_tokens=128,   # the tiny model has 128 positions
                   epochs=1, patience=1, checkpoint_every=5, val_pool=50)
train_dense('pd', cfg, out=sys.argv[1], tiny_config=TINY_ROBERTA, progress=False)
'''

def kill_and_resume():
    from safetensors.numpy import load_file
    tmp = Path(tempfile.mkdtemp())
    def run(out, kill_at=None):
        log = open(tmp/f'{out.name}.log', 'a')
        p = subprocess.Popen([sys.executable, '-c', TRAIN, str(out)], stdout=log, stderr=log)
        if kill_at is not None:
            f = out/'last'/'trainer_state.json'
            while p.poll() is None:
                if f.exists() and json.loads(f.read_text())['step'] >= kill_at:
                    p.send_signal(signal.SIGKILL); p.wait()
                    return json.loads(f.read_text())['step']
                time.sleep(0.05)
        if p.wait(): sys.exit(f'the training subprocess failed; its log: {tmp/(out.name + ".log")}')
        return 0
    t0 = time.time(); run(tmp/'whole'); t_whole = time.time() - t0
    killed_at = run(tmp/'killed', kill_at=5)
    t0 = time.time(); run(tmp/'killed'); t_resume = time.time() - t0
    w = lambda d: {f'{s}/{k}': v for s in ('context', 'quote') for k, v in load_file(d/'best'/s/'model.safetensors').items()}
    a, b = w(tmp/'whole'), w(tmp/'killed')
    same = sorted(a) == sorted(b) and all(np.array_equal(a[k], b[k]) for k in a)
    hist = lambda d: json.loads((d/'last'/'trainer_state.json').read_text())['history']
    print(f'uninterrupted run: {t_whole:.1f} s; killed (SIGKILL) with its last checkpoint at step {killed_at}; '
          f'the restart resumed and finished in {t_resume:.1f} s')
    print(f'final weights identical: {same}; histories identical: {hist(tmp/"whole") == hist(tmp/"killed")}')
    shutil.rmtree(tmp)
    return same

if __name__ == '__main__':
    ap = argparse.ArgumentParser(); ap.add_argument('--steps', type=int, default=6); ap.add_argument('--skip-kill', action='store_true')
    ap.add_argument('--skip-speed', action='store_true')
    a = ap.parse_args()
    if not a.skip_speed: speed(a.steps)
    if not a.skip_kill: sys.exit(0 if kill_and_resume() else 1)
