"""Where stage 03 (segmentation) spends its time: spaCy's components on one novel, and BLAS threads per worker.

    .venv/bin/python bench/segment_profile.py [--profile pd] [--novel emma] [--books emma,persuasion,...]

Needs the profile's cleaned texts (stage 02) and the local mirror. It writes nothing. It prints:
  * the novel's sentence split as 03 runs it (`split_sentences`, the parser pipeline with the extra boundaries):
    seconds, and the same text through each component alone (tokenizer, tok2vec, the extra boundaries, parser);
  * the same split cut over two forked processes (`n_workers=2`, as the evidence search's first index runs it):
    seconds, and whether the sentences and their paragraphs are the serial run's;
  * `--books` split on two forked workers as `segment_corpus` does, with BLAS as it is and with one BLAS thread a
    worker, and whether the sentences are the same.
"""
import argparse, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
_RUN = {}   # the pipeline and texts, set before the workers fork


def split(book:str, limit=None)->list[str]:
    "The sentences of `book` (03's split), with at most `limit` BLAS threads (None: as is)."
    from threadpoolctl import threadpool_limits
    from relic_nb.relic.segment import split_sentences
    with threadpool_limits(limit): return split_sentences(_RUN['nlp'], _RUN['texts'][book])[0]


def split_one_thread(book:str)->list[str]:
    "`split` with one BLAS thread."
    return split(book, 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--novel', default='emma')
    ap.add_argument('--books', default='emma,mansfield_park,persuasion,northanger_abbey')
    a = ap.parse_args()
    from relic_nb.config import parallel_map
    from relic_nb.relic.segment import make_segmenter, novel_paragraphs, split_sentences
    nlp, pars = make_segmenter('parser', True), novel_paragraphs(a.profile, a.novel)
    t = time.time(); sents, para = split_sentences(nlp, pars); whole = time.time() - t
    print(f'{a.novel}: {len(pars):,} paragraphs, {sum(map(len, pars)):,} characters -> {len(sents):,} sentences '
          f'in {whole:.1f} s')
    t = time.time(); two = split_sentences(nlp, pars, n_workers=2); s2 = time.time() - t
    print(f'  cut over 2 forked processes: {s2:.1f} s ({whole / s2:.2f}x); same sentences and paragraphs: '
          f'{two == (sents, para)}')
    t = time.time(); docs = list(nlp.tokenizer.pipe(pars)); parts = [('tokenizer', time.time() - t)]
    for name, proc in nlp.pipeline:
        t = time.time()
        docs = list(proc.pipe(docs, batch_size=64)) if hasattr(proc, 'pipe') else [proc(d) for d in docs]
        parts.append((name, time.time() - t))
    total = sum(s for _, s in parts)
    for name, s in parts: print(f'  {name:<24} {s:6.1f} s  {s / total:6.1%}')
    books = a.books.split(',')
    _RUN.update(nlp=nlp, texts={b: novel_paragraphs(a.profile, b) for b in books})
    runs = {}
    for label, fn in (('BLAS as is', split), ('one BLAS thread a worker', split_one_thread)):
        t = time.time(); runs[label] = parallel_map(fn, books, 2); s = time.time() - t
        print(f'{len(books)} novels on 2 workers, {label}: {s:.1f} s, {sum(map(len, runs[label])):,} sentences')
    print('same sentences:', runs['BLAS as is'] == runs['one BLAS thread a worker'])


if __name__ == '__main__': main()
