"""Benchmark of the RELiC-PD dataset stages (prints figures; not a test).

Run after `make reproduce` (the pd segmentation must be cached):

    .venv/bin/python bench/dataset_bench.py [--profile pd] [--n-workers 2]

Prints: alignment wall time for 10, 20, 30 and all criticism works against all novels; what inline
quotations add; and segmentation speed of the parser and the senter on a sample, with their agreement.
"""
import argparse, random, time
from relic_nb.config import get_profile
from relic_nb.relic.align import align_corpus
from relic_nb.relic.segment import load_sentences, segmentation_table, make_segmenter, split_sentences, novel_paragraphs


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--n-workers', type=int, default=2)
    ap.add_argument('--sample-chars', type=int, default=300_000, help='characters of novel text for the segmenter comparison')
    a = ap.parse_args()
    prof = get_profile(a.profile)
    seg = segmentation_table(prof)
    critics = {s: load_sentences(prof, s)['sentences'] for s in seg.slug[seg.kind == 'criticism']}
    novels = {s: load_sentences(prof, s)['sentences'] for s in seg.slug[seg.kind == 'novel']}
    print(f'{len(critics)} criticism works ({sum(map(len, critics.values())):,} sentences), '
          f'{len(novels)} novels ({sum(map(len, novels.values())):,} sentences)')

    order = sorted(critics); random.Random(prof.seed).shuffle(order)
    print('\nalignment (index + QRatio verification + blocks), all novels:')
    print(f'{"critics":>8} {"seconds":>8} {"blocks":>7}')
    for k in sorted({10, 20, 30, len(order)}):
        if k > len(order): continue
        sub = {c: critics[c] for c in order[:k]}
        t0 = time.perf_counter(); res = align_corpus(sub, novels, inline=True, n_workers=a.n_workers); dt = time.perf_counter() - t0
        print(f'{k:>8} {dt:>8.1f} {sum(len(r["blocks"]) for r in res.values()):>7}')

    t0 = time.perf_counter(); plain = align_corpus(critics, novels, inline=False, n_workers=a.n_workers); dt = time.perf_counter() - t0
    n_plain = sum(len(r['blocks']) for r in plain.values())
    n_inline = sum(len(r['blocks']) for r in res.values())
    print(f'\ninline quotations: {n_plain} blocks without, {n_inline} with (+{n_inline - n_plain}); without took {dt:.1f} s')

    text, pars = '', []
    for p in novel_paragraphs(prof, sorted(novels)[0]):
        if len(text) > a.sample_chars: break
        pars.append(p); text += p
    print(f'\nsegmentation of {len(text):,} characters of {sorted(novels)[0]} (one process):')
    out = {}
    for method in ('parser', 'senter'):
        nlp = make_segmenter(method); split_sentences(nlp, pars[:5])
        t0 = time.perf_counter(); out[method] = split_sentences(nlp, pars)[0]; dt = time.perf_counter() - t0
        print(f'  {method}: {len(text) / dt:,.0f} characters/s, {len(out[method]):,} sentences')
    same = len(set(out['parser']) & set(out['senter']))
    print(f'  senter sentences identical to a parser sentence: {same / len(out["senter"]):.1%}; '
          f'parser sentences the senter reproduces: {same / len(out["parser"]):.1%}')


if __name__ == '__main__':
    main()
