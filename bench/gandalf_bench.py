"""GANDALF-PD benchmark: causal-LM throughput and the cost of each part of the GANDALF stages.

Prints, for the offline causal LM (SmolLM2-135M, or --model ID):
  * tokens/s when scoring a 10-way question (10 short sequences in one batch), as the LM baselines do;
  * tokens/s when reading a book in segments with the recurrent memory (the book + query baseline), and the
    minutes a whole 200k-token novel would take at that speed;
and the wall time of building one book's questions and of the TF-IDF baseline on one book.

Usage (from the project root; RELIC_NB_CORPUS names the corpus mirror for --profile pd):
    python bench/gandalf_bench.py [--profile pd] [--threads 2] [--tokens 4096] [--book balzac-father-goriot] [--precision float32]
"""
from __future__ import annotations
import argparse, time


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--model', default='smollm2-135m', help="'smollm2-135m' (offline), 'tiny-random-llama', or a hub id")
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--tokens', type=int, default=4096, help='book tokens read for the memory benchmark')
    ap.add_argument('--questions', type=int, default=10, help='questions scored for the query benchmark')
    ap.add_argument('--book', default='balzac-father-goriot')
    ap.add_argument('--precision', default='', help="LM arithmetic: 'float32' or 'bfloat16' (default: the profile's)")
    a = ap.parse_args(argv)

    import torch
    torch.set_num_threads(a.threads)
    from relic_nb.config import autocast, paths, get_profile
    from relic_nb.gandalf.data import (gandalf_corpus, book_paragraphs, reference_entries, book_characters, build_book,
                                  make_questions, name_words, source_of, BOOK_TAGS)
    from relic_nb.gandalf.baselines import load_causal_lm, continuation_logprobs, read_book, pairs, TfidfBaseline

    prof = get_profile(a.profile)
    precision = a.precision or prof.precision
    corpus, tags = gandalf_corpus(prof)
    book = a.book if a.book in tags else sorted(tags)[0]
    w = corpus.works.set_index('slug').loc[book]
    src = source_of(w.described_by)

    t = time.time(); entries = reference_entries(corpus, src, tags); t_parse = time.time() - t
    t = time.time(); pars = book_paragraphs(corpus, prof, book); t_read = time.time() - t
    t = time.time()
    chars = book_characters(entries, tags[book], w.author if src == 'brewer' else '')
    ref_terms = {x for e in entries if not e.xref for x in name_words(e.head) + name_words(e.given)}
    kept, descs = build_book(book, chars, pars, ref_terms)
    qs = make_questions(kept, descs)
    for i, q in enumerate(qs): q['id'] = f'b{i}'
    t_build = time.time() - t
    t = time.time(); TfidfBaseline().choose(qs, pars); t_tfidf = time.time() - t
    print(f"book {book}: {sum(len(p.split()) for p in pars):,} words, {len(kept)} characters, {len(descs)} descriptions, {len(qs)} questions")
    print(f"  parse the {src} reference: {t_parse:.1f} s | read the book: {t_read:.1f} s | build its questions: {t_build:.1f} s | "
          f"TF-IDF on its {len(qs)} questions: {t_tfidf:.1f} s")

    t = time.time(); model, tok = load_causal_lm(a.model, paths(prof).cache); t_load = time.time() - t
    print(f"model {a.model}: loaded in {t_load:.1f} s, {a.threads} threads, {precision}")
    with autocast(precision):
        sample = qs[:a.questions]
        n_tok, t = 0, time.time()
        for q in sample:
            ps = pairs(q)
            continuation_logprobs(model, tok, [f'{n}:' for n, _ in ps], [f' {d}' for _, d in ps])
            n_tok += sum(len(tok(f'{n}: {d}', add_special_tokens=False)['input_ids']) for n, d in ps)
        dt = time.time() - t
        print(f"  query scoring: {len(sample)} questions, {n_tok:,} tokens in {dt:.1f} s = {n_tok / dt:.0f} tokens/s "
              f"({dt / max(len(sample), 1):.2f} s per question)")
        t = time.time(); mem, pos, n = read_book(model, tok, '\n\n'.join(pars), 512, 512, a.tokens); dt = time.time() - t
        total = len(tok('\n\n'.join(pars), add_special_tokens=False)['input_ids'])
        print(f"  reading with a 512-token memory: {n:,} tokens in {dt:.1f} s = {n / dt:.0f} tokens/s; the whole book "
              f"({total:,} tokens) would take {total / (n / dt) / 60:.1f} min, twice with the -Rep variant")
        n_tok, t = 0, time.time()
        for q in sample:
            ps = pairs(q)
            continuation_logprobs(model, tok, [f'{n}:' for n, _ in ps], [f' {d}' for _, d in ps], memory=(mem, pos))
            n_tok += sum(len(tok(f'{n}: {d}', add_special_tokens=False)['input_ids']) for n, d in ps)
        dt = time.time() - t
        print(f"  query scoring after the memory: {n_tok / dt:.0f} tokens/s ({dt / max(len(sample), 1):.2f} s per question)")


if __name__ == '__main__':
    main()
