"""What a looser single-word echo rule would do to RELiC-PD (issue 14): windows it drops, and how their strict readings went.

    .venv/bin/python bench/rare_word_sweep.py [--max-word 7 10] [--samples tune tune2 tune3 tune4]

Needs the pd alignment (stage 04_align) and the committed strict labels (data/annotations/pd_strict_<sample>.tsv).

`rare_echo` and `unquoted_echo` (05_windows) call a context word the gold's own when the novel has its stem at most
`RARE_WORD` times (5 since issue 28, 1 before; `bench/rule_variants.py --variants rare-word-once` measures that
change). Readers of the strict samples flag words the novel has up to about ten times. For each `--max-word`, this rebuilds the windows with that bound and prints how many windows it drops
beyond today's, and the labels those windows got in the tuning samples named by `--samples` (never the fresh sample:
a rule is judged on it after it is chosen, not chosen on it).
"""
import argparse, glob, sys
from pathlib import Path

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--max-word', type=int, nargs='+', default=[7, 10])
    ap.add_argument('--samples', nargs='+', default=['tune', 'tune2', 'tune3', 'tune4'])
    a = ap.parse_args()
    root = Path(__file__).resolve().parents[1]; sys.path.insert(0, str(root))
    import pandas as pd
    import relic_nb.relic.windows as W
    from relic_nb.config import get_profile
    prof = get_profile('pd')
    build = lambda: set(W.build_windows(prof, {})[0]['id'])
    lab = pd.concat([pd.read_csv(root/'data'/'annotations'/f'pd_strict_{n}.tsv', sep='\t', dtype=str, keep_default_na=False)
                     for n in a.samples]).drop_duplicates('id', keep='last').set_index('id')
    today = build()
    print(f'today (RARE_WORD={W.RARE_WORD}): {len(today)} windows; {len(lab.index.intersection(list(today)))} of them read in {", ".join(a.samples)}')
    rare_defaults, unquoted_defaults = W.rare_echo.__defaults__, W.unquoted_echo.__defaults__
    for mw in a.max_word:
        W.rare_echo.__defaults__, W.unquoted_echo.__defaults__ = (rare_defaults[0], mw) + rare_defaults[2:], (mw,)
        gone = today - build()
        read = lab.label.reindex(sorted(gone)).dropna()
        print(f'RARE_WORD={mw}: drops {len(gone)} more windows; {len(read)} of them read: {read.value_counts().to_dict()}')
    W.rare_echo.__defaults__, W.unquoted_echo.__defaults__ = rare_defaults, unquoted_defaults

if __name__ == '__main__': main()
