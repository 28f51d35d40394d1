"""GANDALF-PD benchmark: the LM rows' old and new scoring paths in one run, and what the pd settings cost.

Prints, for the offline causal LM (SmolLM2-135M, or --model ID), on a seeded slice of the profile's questions
(`sample_questions(questions, --per-column)`: the same ids in the four columns, as the stage draws them):
  * questions/s of the query-only row, old path (`continuation_logprobs`, one question per pass: every option from its
    first token, logits at every position) against new (`score_questions`: each question's shared prompt once, its ten
    continuations from the cached keys/values in one batch, the output head only where a token is scored), interleaved in blocks of 8 questions so that both see the same machine load; the
    largest difference of the log-likelihoods and whether the answers agree;
  * tokens/s of reading a book with the recurrent memory (old: the whole model; new: the body only, no output head);
  * questions/s of the book + query row after that memory, old against new;
  * CPU time per question of both paths (with --threads 1 the cleanest measure of work on a shared machine: wall
    times of two threads swing with other processes' load);
  * the stage's LM cost extrapolated from the new path for settings (lm_questions, xl_books, xl_max_tokens): the
    profile's and the ones listed with --settings.
With --build-book also the wall time of building one book's questions and of the TF-IDF baseline on it.
With --int8 also the query-only row with torch's dynamic int8 quantisation of the Linear layers (all of them, or the
body's only), against the profile's precision and float32 on the same slice: why the stage keeps bfloat16.

Usage (from the project root; RELIC_NB_CORPUS names the corpus mirror for --profile pd):
    python bench/gandalf_bench.py [--profile pd] [--threads 2] [--per-column 5] [--tokens 2048] [--precision float32]
                                  [--settings 250,12,8192 100,8,8192] [--int8]
"""
from __future__ import annotations
import argparse, os, time


def build_book(prof, book):
    "Wall time of building one book's questions and of TF-IDF on them (the data stage's per-book cost)."
    from relic_nb.gandalf.data import (gandalf_corpus, book_paragraphs, reference_entries, book_characters, build_book as build,
                                       make_questions, name_words, source_of)
    from relic_nb.gandalf.baselines import TfidfBaseline
    corpus, tags = gandalf_corpus(prof)
    book = book if book in tags else sorted(tags)[0]
    w = corpus.works.set_index('slug').loc[book]
    src = source_of(w.described_by)
    t = time.time(); entries = reference_entries(corpus, src, tags); t_parse = time.time() - t
    t = time.time(); pars = book_paragraphs(corpus, prof, book); t_read = time.time() - t
    t = time.time()
    chars = book_characters(entries, tags[book], w.author if src == 'brewer' else '')
    ref_terms = {x for e in entries if not e.xref for x in name_words(e.head) + name_words(e.given)}
    kept, descs = build(book, chars, pars, ref_terms)
    qs = make_questions(kept, descs)
    for i, q in enumerate(qs): q['id'] = f'b{i}'
    t_build = time.time() - t
    t = time.time(); TfidfBaseline().choose(qs, pars); t_tfidf = time.time() - t
    print(f"book {book}: {sum(len(p.split()) for p in pars):,} words, {len(kept)} characters, {len(descs)} descriptions, {len(qs)} questions")
    print(f"  parse the {src} reference: {t_parse:.1f} s | read the book: {t_read:.1f} s | build its questions: {t_build:.1f} s | "
          f"TF-IDF on its {len(qs)} questions: {t_tfidf:.1f} s")


def compare(model, tok, questions, memory=None, block:int=8):
    "Old and new path on blocks of `block` questions, interleaved: (old s, new s, largest |difference|, answers agreeing, old CPU s, new CPU s)."
    import numpy as np
    from relic_nb.gandalf.baselines import continuation_logprobs, score_questions, pairs
    t_old = t_new = c_old = c_new = diff = 0.0; same = 0
    items = [([f'{n}:' for n, _ in pairs(q)], [f' {d}' for _, d in pairs(q)]) for q in questions]
    for b in range(0, len(items), block):
        t, c = time.perf_counter(), time.process_time()
        a = [continuation_logprobs(model, tok, p, c, memory) for p, c in items[b:b + block]]
        t_old += time.perf_counter() - t; c_old += time.process_time() - c
        t, c = time.perf_counter(), time.process_time()
        n = score_questions(model, tok, items[b:b + block], memory)
        t_new += time.perf_counter() - t; c_new += time.process_time() - c
        diff = max([diff] + [float(np.abs(x - y).max()) for x, y in zip(a, n)]); same += sum(int(np.argmax(x) == np.argmax(y)) for x, y in zip(a, n))
    return t_old, t_new, diff, same, c_old, c_new


def int8_check(model, tok, questions, precision:str, block:int=4):
    "The query-only row's new path at `precision` against torch dynamic int8 (every Linear layer; or the body's only, the output head kept), interleaved: q/s and answers against float32."
    import copy, numpy as np, torch
    from relic_nb.config import autocast
    from relic_nb.gandalf.baselines import score_questions, pairs
    q8 = lambda m: torch.ao.quantization.quantize_dynamic(m, {torch.nn.Linear}, dtype=torch.qint8)
    whole = q8(copy.deepcopy(model)); body = copy.deepcopy(model); body.model = q8(body.model)
    paths = {'float32': (model, 'float32'), precision: (model, precision), 'int8, all Linear': (whole, 'float32'), 'int8, body only': (body, 'float32')}
    items = [([f'{n}:' for n, _ in pairs(q)], [f' {d}' for _, d in pairs(q)]) for q in questions]
    secs, out = dict.fromkeys(paths, 0.0), {k: [] for k in paths}
    for b in range(0, len(items), block):
        for k, (m, prec) in paths.items():
            t = time.perf_counter()
            with autocast(prec): out[k] += score_questions(m, tok, items[b:b + block])
            secs[k] += time.perf_counter() - t
    for k in paths:
        agree = sum(int(np.argmax(x) == np.argmax(y)) for x, y in zip(out[k], out['float32']))
        diff = max(float(np.abs(x - y).max()) for x, y in zip(out[k], out['float32']))
        print(f"  {k:>18}: {len(items) / secs[k]:.2f} q/s, x{secs[precision] / secs[k]:.2f} against {precision}; answers as float32's on "
              f"{agree}/{len(items)}; largest |log-likelihood difference| {diff:.2f}")

def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--model', default='smollm2-135m', help="'smollm2-135m' (offline), 'tiny-random-llama', or a hub id")
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--per-column', type=int, default=5, help='questions per column in the slice (4 columns)')
    ap.add_argument('--tokens', type=int, default=2048, help='book tokens read for the reading benchmark')
    ap.add_argument('--precision', default='', help="LM arithmetic: 'float32' or 'bfloat16' (default: the profile's)")
    ap.add_argument('--settings', nargs='*', default=['50,4,4096', '250,12,8192'],
                    help='lm_questions,xl_books,xl_max_tokens to extrapolate (the profile\'s are added)')
    ap.add_argument('--build-book', default='', help='also time building this book\'s questions and TF-IDF on it')
    ap.add_argument('--int8', action='store_true', help='also the query-only row with torch dynamic int8 Linear layers (all, or the body only) against --precision, on the same slice')
    a = ap.parse_args(argv)

    import torch
    torch.set_num_threads(a.threads)
    from relic_nb.config import autocast, paths, get_profile, set_seed
    from relic_nb.gandalf.data import load_gandalf, gandalf_corpus, book_paragraphs
    from relic_nb.gandalf.baselines import load_causal_lm, read_book, sample_questions, pick_books

    prof = get_profile(a.profile); s = prof.gandalf_baselines
    precision = a.precision or prof.precision
    set_seed(prof.seed)
    if a.build_book: build_book(prof, a.build_book)
    data = load_gandalf(prof)
    t = time.time(); model, tok = load_causal_lm(a.model, paths(prof).cache); t_load = time.time() - t
    print(f"model {a.model}: loaded in {t_load:.1f} s, {a.threads} threads, {precision}; load average {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs (timings below are wall time, old and new interleaved)")
    qs = sample_questions(data.questions, a.per_column)
    with autocast(precision):
        compare(model, tok, qs[:1])                                               # warm-up (and the one-off body/head check)
        t_old, t_new, diff, same, c_old, c_new = compare(model, tok, qs)
        n = len(qs)
        print(f"query-only row, {n} questions ({a.per_column} per column): old {n / t_old:.2f} q/s, new {n / t_new:.2f} q/s, "
              f"speed-up x{t_old / t_new:.2f}; largest |log-likelihood difference| {diff:.2e}; answers agree on {same}/{n}")
        book = pick_books(data, 2, prof.seed)[0]
        corpus, _ = gandalf_corpus(prof)
        text = '\n\n'.join(book_paragraphs(corpus, prof, book))
        t, c = time.perf_counter(), time.process_time()
        read_book(model, tok, text, s.xl_segment, s.xl_memory, a.tokens, logits=True); r_old, rc_old = time.perf_counter() - t, time.process_time() - c
        t, c = time.perf_counter(), time.process_time()
        mem, pos, n_read = read_book(model, tok, text, s.xl_segment, s.xl_memory, a.tokens); r_new, rc_new = time.perf_counter() - t, time.process_time() - c
        print(f"reading {book}: {n_read:,} tokens in {s.xl_segment}-token segments, {s.xl_memory}-token memory: old {n_read / r_old:.0f} tokens/s, "
              f"new {n_read / r_new:.0f} tokens/s, speed-up x{r_old / r_new:.2f}")
        bqs = sample_questions([q for q in data.questions if not q.get('rep')], a.per_column, [book], prof.seed)
        b_old, b_new, bdiff, bsame, bc_old, bc_new = compare(model, tok, bqs, (mem, pos))
        m = len(bqs)
        print(f"book + query row after the memory, {m} questions of {book}: old {m / b_old:.2f} q/s, new {m / b_new:.2f} q/s, "
              f"speed-up x{b_old / b_new:.2f}; largest |difference| {bdiff:.2e}; answers agree on {bsame}/{m}")
    if a.int8: int8_check(model, tok, qs, precision)
    print(f"CPU time (all threads) per question, query-only: old {c_old / n:.2f} s, new {c_new / n:.2f} s; book row: old {bc_old / m:.2f} s, "
          f"new {bc_new / m:.2f} s; reading: old {rc_old / n_read * 1000:.2f} s, new {rc_new / n_read * 1000:.2f} s per 1,000 tokens")
    for label, (tq, tx, tr, oq, ox, orr) in {
            'wall time of this run': (t_new / n, b_new / m, r_new / n_read, t_old / n, b_old / m, r_old / n_read),
            f'CPU time / {a.threads} threads (two dedicated cores)': (c_new / n / a.threads, bc_new / m / a.threads, rc_new / n_read / a.threads,
                                                                     c_old / n / a.threads, bc_old / m / a.threads, rc_old / n_read / a.threads)}.items():
        print(f"\nLM rows' cost per setting, from the {label}, minutes (4 columns; the book row reads each book twice: plain and names replaced):")
        print(f"{'lm_questions,xl_books,xl_max_tokens':>38} {'query-only':>11} {'book reading':>13} {'book+query':>11} {'total new':>10} {'total old':>10}")
        settings = [f'{s.lm_questions},{s.xl_books},{s.xl_max_tokens}'] + [x for x in a.settings if x != f'{s.lm_questions},{s.xl_books},{s.xl_max_tokens}']
        for st in settings:
            lq, nb, mt = map(int, st.split(','))
            books = pick_books(data, nb, prof.seed)
            plain = [q for q in data.questions if not q.get('rep')]
            n_xl, n_lm = len(sample_questions(plain, lq, books, prof.seed)) * 2, len(sample_questions(plain, lq, None, prof.seed)) * 2  # plain and -Rep
            toks = 2 * len(books) * mt                      # books in GANDALF-PD are all longer than the bounds tried here
            c_q, c_r, c_x = n_lm * tq / 60, toks * tr / 60, n_xl * tx / 60
            old = (n_lm * oq + toks * orr + n_xl * ox) / 60
            print(f"{st:>38} {c_q:>11.1f} {c_r:>13.1f} {c_x:>11.1f} {c_q + c_r + c_x:>10.1f} {old:>10.1f}   "
                  f"({n_lm} + {n_xl} questions, {toks:,} book tokens)")

if __name__ == '__main__':
    main()
