"""Where stage 11 (GANDALF baselines) spends its time: each step's wall time, and inside the LM rows, by function.

Runs the stage's four steps as `run_gandalf_baselines` does (random, TF-IDF, the query-only LM, the book-memory LM) on
the profile's questions (10_gandalf_data must have run), with --per-column questions per LM column and --xl-books books
for the book-memory row, each under cProfile. It writes no table. It prints:
  * per step: wall seconds, questions, milliseconds per question, and the step extrapolated to the profile's
    settings (lm_questions per column; for the book-memory row, reading xl_books books as well);
  * inside each LM step: cumulative seconds of loading the model, tokenising the options (shared_prompts), the
    prompt forward (prompt_cache), the option forward (the rest of score_questions), the output head and
    log-softmax (row_logprobs), and reading the books into the memory (read_book);
  * the tokens run through the model, and tokens per second.
The book memories are read afresh (a temporary cache), as in a cold run.

Usage (from the project root; RELIC_NB_CORPUS names the corpus mirror):
    python bench/stage11_profile.py [--profile pd] [--per-column 20] [--xl-books 2] [--threads 2] [--precision float32]
"""
from __future__ import annotations
import argparse, cProfile, pstats, tempfile, time
from pathlib import Path

PARTS = [('load the model', 'load_causal_lm'), ('tokenise options', 'shared_prompts'),
         ('prompt forward', 'prompt_cache'), ('output head + log-softmax', 'row_logprobs'),
         ('read books into memory', 'read_book'), ('all scoring', 'score_questions')]


def cumulative(stats: pstats.Stats, name: str) -> float:
    "Cumulative seconds of the functions called `name` under relic_nb (0 when not called)."
    return sum(v[3] for (f, _, fn), v in stats.stats.items() if fn == name and 'relic_nb' in f)


def profiled(fn):
    "`fn()` under cProfile: (its result, wall seconds, the stats)."
    pr, t = cProfile.Profile(), time.time()
    out = pr.runcall(fn)
    return out, time.time() - t, pstats.Stats(pr)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--per-column', type=int, default=20, help='questions per LM column (4 columns)')
    ap.add_argument('--xl-books', type=int, default=2, help='books of the book-memory row')
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--precision', default='',
                    help="the LMs' arithmetic: 'float32' or 'bfloat16' (default: the profile's)")
    a = ap.parse_args()
    import torch
    from relic_nb.config import get_profile, paths, set_seed, inference_precision
    from relic_nb.gandalf.data import load_gandalf, gandalf_corpus
    from relic_nb.gandalf.baselines import (BookMemoryLM, QueryOnlyLM, RandomBaseline, TfidfBaseline, book_reader,
                                            evaluate, load_causal_lm, pick_books, sample_questions)
    prof = get_profile(a.profile); P = paths(prof); s = prof.gandalf_baselines
    set_seed(prof.seed); torch.set_num_threads(a.threads)
    data = load_gandalf(prof)
    corpus, _ = gandalf_corpus(prof)
    book_text, qs = book_reader(corpus, prof, data), data.questions
    precision = inference_precision(a.precision or prof.precision)
    xl_model = s.xl_model or s.lm_model
    rows = []

    def step(name, fn, n, full_n):
        out, wall, st = profiled(fn)
        rows.append(dict(step=name, seconds=wall, questions=n, full=full_n, stats=st))
        return out

    step('random', lambda: evaluate(RandomBaseline(seed=prof.seed), qs, progress=False), len(qs), len(qs))
    for book, rep in sorted({(q['book'], bool(q.get('rep'))) for q in qs}): book_text(book, rep)   # texts read once
    step('tfidf', lambda: evaluate(TfidfBaseline(), qs, book_text, progress=False), len(qs), len(qs))
    lm, tok = step('load the LM', lambda: load_causal_lm(s.lm_model, P.cache, prof.seed), 0, 0)
    lm_qs = sample_questions(qs, a.per_column, seed=prof.seed)
    full_lm = len(sample_questions(qs, s.lm_questions, seed=prof.seed))
    qlm = QueryOnlyLM(lm, tok, s.lm_model, precision)
    step('lm_query_only', lambda: evaluate(qlm, lm_qs, progress=False), len(lm_qs), full_lm)
    books = pick_books(data, a.xl_books, prof.seed)
    xl_qs = sample_questions(qs, a.per_column, books, prof.seed)
    full_books = pick_books(data, s.xl_books, prof.seed)
    full_xl_qs = sample_questions(qs, s.lm_questions, full_books, prof.seed)
    full_xl = len(full_xl_qs)
    with tempfile.TemporaryDirectory() as cache:
        xl = BookMemoryLM(lm, tok, xl_model, s.xl_segment, s.xl_memory, s.xl_max_tokens or None, Path(cache),
                          precision)
        step('lm_book_memory', lambda: evaluate(xl, xl_qs, book_text, progress=False), len(xl_qs), full_xl)
    print(f'stage 11 of profile {prof.name}, {a.threads} threads, {precision}; LM {s.lm_model}; '
          f'{a.per_column} questions per LM column here, {s.lm_questions} in the profile')
    print(f"{'step':<16}{'seconds':>9}{'questions':>11}{'ms/question':>13}{'at the profile':>16}")
    total = 0.0
    for r in rows:
        per = r['seconds'] / r['questions'] if r['questions'] else 0.0
        if r['step'] == 'lm_book_memory':
            read = cumulative(r['stats'], 'read_book')
            per = (r['seconds'] - read) / r['questions']
            texts = len({(q['book'], bool(q.get('rep'))) for q in xl_qs})          # plain and -Rep texts read
            full_texts = len({(q['book'], bool(q.get('rep'))) for q in full_xl_qs})
            full = per * r['full'] + read / max(texts, 1) * full_texts
        else: full = per * r['full'] if r['questions'] else r['seconds']
        total += full
        print(f"{r['step']:<16}{r['seconds']:>9.1f}{r['questions']:>11}{1000 * per:>13.0f}{full:>14.0f} s")
    print(f"{'stage (est.)':<49}{total:>14.0f} s = {total / 60:.1f} min")
    for r in rows:
        if not r['step'].startswith('lm_'): continue
        print(f"\n{r['step']}: inside the step (cumulative seconds)")
        parts = {label: cumulative(r['stats'], fn) for label, fn in PARTS}
        parts['option forward'] = (parts['all scoring'] - parts['tokenise options'] - parts['prompt forward']
                                   - parts['output head + log-softmax'])
        for label, v in parts.items():
            if v: print(f'  {label:<28}{v:>8.1f}  {100 * v / r["seconds"]:>5.1f}%')
    st = qlm.stats
    print(f"\nquery-only: {st['tokens']:,} tokens through the model in {st['seconds']:.1f} s "
          f"({st['tokens'] / max(st['seconds'], 1e-9):,.0f} tokens/s); book memory: {xl.tokens_read:,} tokens read "
          f"in {xl.seconds:.1f} s ({xl.tokens_read / max(xl.seconds, 1e-9):,.0f} tokens/s), "
          f"scoring {xl.stats['tokens']:,} tokens in {xl.stats['seconds']:.1f} s")


if __name__ == '__main__':
    main()
