"""What other versions of the window rules would do to RELiC-PD: windows each removes, changes or adds, and how their
strict readings went.

    .venv/bin/python bench/rule_variants.py [--variants marks-required dialogue-speech ...] [--samples tune tune2 ...]

Needs the pd alignment (stage 04_align) and the committed strict labels (data/annotations/pd_strict_<sample>.tsv).
Each variant adds a rule to `relic_nb.relic.windows.RULES`, or a context check to `CHECKS`, or patches a function they
use, for the length of one rebuild, so the rules as they are stay the reference. A label counts for a window only while
its text is the one that was read (`window_key`): a window a variant changes (a context check ends a side sooner or
later) loses its reading, as a removed one does, and the two are counted apart.
The variants:

- `marks-required`: a quotation must be marked by a stretch in quotation marks of `MARKED_WORDS`+ words (or be an
  inline quotation, or set off as a block), not by any quotation mark in its sentences (round 8, not kept);
- `dialogue-speech`: in the critic's prose, a gold edge with dialogue of its own is cut unless the critic's marks hold
  most of its speech (round 8, not kept);
- `two-rare-words`: leakage when the contexts hold two words of the gold (5+ letters) whose stems the novel has at most
  5 times each (round 8, not kept);
- `other-text`: the critic quotes another text when the marks hold 12+ words, and twice the gold's, that are not the
  novel's (round 7, not kept);
- `without-marks`: round 7's rules off (no `marked_text`): what they remove today;
- `without-quoted-word`: round 8's quoted-word leakage off (`RARE_QUOTED` = 0);
- `without-names-rare`, `without-quotes-in-context`, `without-points-to-gold`: a context check off, one at a time
  (what each removes and changes today);
- `drop-not-trim`: a context sentence that fails a check drops the window wherever it is, as before the checks ended
  sides (issue 28);
- `quoted-12`: `QUOTED_WORDS` back to 12; `near-top-1`: `points_to_gold` asks for the gold or a sentence beside it;
- `without-edge`: no fragments taken off the far end of a side;
- `right-optional`: a RIGHT that a check ends beside the quotation leaves the window with LEFT only (not kept: the
  paper's windows have both sides);
- `retells-neighbour`: leakage when a context sentence holds a run of three words (two not stop words) of the novel's
  three sentences before or after the gold (issue 28, not kept);
- `rare-word-once`: the single rare word of the gold back to one the novel has only once (`RARE_WORD` = 1; issue 28
  widened it to five times: what that removes today).

A label follows its window's text to a new id of the same novel and critic (the ids move when the aligner cuts a
critic's sentences anew), as `dataset_checks.current_labels` does. A window read more than once (a second reading, an
audit) counts with the most serious label any reading gave, as `dataset_checks.strict_verdicts` has it; the default
`--samples` leave out the latest fresh sample and the audit, which measure the rules and are not tuned on.

For a looser single-word echo, see `bench/rare_word_sweep.py`.
"""
import argparse, re, sys
from pathlib import Path

VARIANTS = ('marks-required', 'dialogue-speech', 'two-rare-words', 'other-text', 'without-marks', 'without-quoted-word',
            'without-names-rare', 'without-quotes-in-context', 'without-points-to-gold', 'retells-neighbour',
            'rare-word-once', 'drop-not-trim', 'quoted-12', 'near-top-1', 'without-edge', 'right-optional')

def patches(W, name):
    "The (object, attribute, new value) triples that make variant `name` out of the windows module `W`."
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS as STOP
    trim = W.edge_trim
    if name == 'marks-required':
        def is_marked(i0, i1, cs, para=None, inline=None):
            return W.marked_text(i0, i1, cs, para, inline) is not None or bool(inline and any(inline[i0:i1 + 1])) \
                   or (para is not None and W.set_off(i0, i1, cs, para))
        return [(W, 'is_marked', is_marked)]
    if name == 'dialogue-speech':
        def edge_trim(b, cs, ns, edge_cover=W.WindowsSettings.edge_cover, quoted=None, in_prose=False):
            t = trim(b, cs, ns, edge_cover, quoted, False)
            if not (quoted and in_prose): return t
            said = lambda s: ' '.join(s[x:y] for x, y in W.marked_spans(s)) or s
            out = lambda j: W.covered(said(ns[j]), quoted) < edge_cover
            while t.j1 > t.j0 and out(t.j0): t.j0 += 1
            while t.j1 > t.j0 and out(t.j1): t.j1 -= 1
            gold = ' '.join(ns[t.j0:t.j1 + 1])
            while t.i1 > t.i0 and W.covered(cs[t.i0], gold) < 0.5: t.i0 += 1
            while t.i1 > t.i0 and W.covered(cs[t.i1], gold) < 0.5: t.i1 -= 1
            return t
        return [(W, 'edge_trim', edge_trim)]
    if name == 'two-rare-words':
        def two_rare_words(c):
            gold = {W.word_stem(x) for x in W.norm(c.gold_text).split() if len(x) >= 5 and x.isalpha() and x not in STOP}
            ctx = {W.word_stem(x) for x in W.norm(' '.join(c.L + c.R)).split()}
            return c.book is not None and sum(c.book.stems[s] <= 5 for s in gold & ctx) >= 2
        return [(W, 'RULES', W.RULES + [W.Rule('two_rare_words', 'leakage', two_rare_words)])]
    if name == 'other-text':
        def other_text(c):
            marks = W.marked_text(c.span.i0, c.span.i0, c.critic, c.para, c.inline)
            if not marks: return False
            grams = {g for x in c.novel for g in W.word_ngrams(x)}
            other = sum(r.count(' ') + 1 for r in W.beyond(W.unbracketed(marks), c.gold_text) if W.novel_share(r, grams) < W.NOVEL_SHARE)
            return other >= max(12, 2 * len(W.words(c.gold_text)))
        return [(W, 'RULES', W.RULES + [W.Rule('other_text', 'the critic quotes another text', other_text)])]
    if name == 'without-marks': return [(W, 'marked_text', lambda *a, **k: None)]
    if name == 'without-quoted-word':
        d = W.rare_echo.__defaults__
        return [(W.rare_echo, '__defaults__', d[:-1] + (0,))]
    if name.startswith('without-') and (n := name[8:].replace('-', '_')) in {ch.name for ch in W.CHECKS}:
        return [(W, 'CHECKS', [ch for ch in W.CHECKS if ch.name != n]),
                (W, 'RULES', [r for r in W.RULES if r.name != n])]
    if name.startswith('without-') and name[8:].replace('-', '_') in {r.name for r in W.RULES}:
        return [(W, 'RULES', [r for r in W.RULES if r.name != name[8:].replace('-', '_')])]
    if name == 'drop-not-trim':
        def anywhere(ch):
            return lambda c: any(ch.fails(c, x) for side in 'LR' for x, _ in c.reach(side))
        names = {ch.name for ch in W.CHECKS}
        return [(W, 'CHECKS', []), (W, 'RULES', [r for r in W.RULES if r.name not in names]
                                                 + [W.Rule(ch.name, ch.outcome, anywhere(ch)) for ch in W.CHECKS])]
    if name == 'quoted-12': return [(W, 'QUOTED_WORDS', 12)]
    if name == 'near-top-1': return [(W.points_to_gold, '__defaults__', (1,))]
    if name == 'without-edge':
        never = re.compile(r'(?!)')
        return [(W, 'DANGLING', never), (W, 'MIDSTART', never)]
    if name == 'right-optional':
        def beside_left(n):
            return lambda c: c.cut['L'].stop == (0, n)
        return [(W, 'RULES', [W.Rule(r.name, r.outcome, beside_left(r.name)) if r.name in {ch.name for ch in W.CHECKS}
                              else r for r in W.RULES])]
    if name == 'rare-word-once':
        d = W.rare_echo.__defaults__
        return [(W.rare_echo, '__defaults__', (d[0], 1, d[2])), (W.unquoted_echo, '__defaults__', (1,))]
    if name == 'retells-neighbour':
        def retells_neighbour(c):
            b = c.span
            near = W.norm(' '.join(c.novel[max(0, b.j0 - 3):b.j0] + c.novel[b.j1 + 1:b.j1 + 4])).split()
            runs = {t for t in zip(near, near[1:], near[2:]) if sum(w not in STOP for w in t) >= 2}
            return any(t in runs for x in c.L + c.R for t in zip(*(W.norm(x).split()[k:] for k in range(3))))
        return [(W, 'RULES', W.RULES + [W.Rule('retells_neighbour', 'leakage', retells_neighbour)])]
    raise ValueError(f'unknown variant {name!r}; choose from {VARIANTS}')

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--variants', nargs='+', default=list(VARIANTS), choices=VARIANTS)
    ap.add_argument('--samples', nargs='+', default=['tune', 'tune2', 'tune3', 'tune4', 'tune5', 'tune6', 'tune7', 'fresh',
                                                    'fresh2', 'tune4_second', 'fresh_second', 'verified_second'])
    a = ap.parse_args()
    root = Path(__file__).resolve().parents[1]; sys.path.insert(0, str(root))
    import pandas as pd
    import relic_nb.relic.windows as W
    from relic_nb.config import get_profile
    from relic_nb.relic.dataset_checks import SEVERITY, window_key
    prof = get_profile('pd')
    def build():
        novels = {}
        win = W.build_windows(prof, novels)[0]
        return {r.id: window_key(r.left, novels[r.novel][r.start:r.start + r.n], r.right) for r in win.itertuples()}
    files = [root/'data'/'annotations'/f'pd_strict_{n}.tsv' for n in a.samples]
    lab = pd.concat([pd.read_csv(f, sep='\t', dtype=str, keep_default_na=False) for f in files if f.exists()])
    home = lambda i: i.rsplit('.', 1)[0]                              # the novel and critic of an id
    read = {}
    lab = lab.assign(label=lab.label.str.strip().str.lower())
    if bad := sorted(set(lab.label) - set(SEVERITY)): sys.exit(f'unknown label(s) {bad} in the labels files; use {SEVERITY}')
    for r in lab.itertuples():
        k = (home(r.id), r.window)
        if k not in read or SEVERITY.index(r.label) < SEVERITY.index(read[k]): read[k] = r.label
    today = build()
    known = {i: read[(home(i), k)] for i, k in today.items() if (home(i), k) in read}
    print(f'today: {len(today)} windows, {len(known)} of them read as they are ({", ".join(a.samples)})')
    for name in a.variants:
        undo = [(o, n, getattr(o, n)) for o, n, _ in patches(W, name)]
        for o, n, v in patches(W, name): setattr(o, n, v)
        try: now = build()
        finally:
            for o, n, v in undo: setattr(o, n, v)
        gone = [i for i in today if i not in now]
        changed = [i for i in today if i in now and today[i] != now[i]]   # its reading no longer holds
        got = [i for i in now if today.get(i) != now[i]]
        read_as = lambda ids: pd.Series([known[i] for i in ids if i in known], dtype=object).value_counts().to_dict()
        back = pd.Series([read[(home(i), now[i])] for i in got if (home(i), now[i]) in read],
                         dtype=object).value_counts().to_dict()
        print(f'{name}: {len(now)} windows; of today\'s, {len(gone)} removed, read as {read_as(gone)}; {len(changed)} '
              f'changed, read as {read_as(changed)}; {len(got)} new or changed, read before (as they would be) as '
              f'{back}')

if __name__ == '__main__': main()
