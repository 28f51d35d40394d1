"""A cold run of the main job, timed: the committed tree with no cache and no processed data, and the load it met.

    .venv/bin/python bench/cold_run.py [--profile pd] [--params '-p lm_questions 100'] [--no-record]

It clones HEAD into runs/cold/<profile>/ (inside this checkout; runs/ is ignored), links this checkout's .venv,
points RELIC_NB_CORPUS at the mirror this checkout finds (config.corpus_mirror) and runs there what `make reproduce`
runs once .venv is set up: the runner (`make` would see the clone's newer files and reinstall the project into the
shared .venv). Nothing of this checkout's data, caches or results is read or touched. While it runs, it reads
/proc/stat: the CPU time all the machine's processes used, less what the run's own processes used (their rusage, once
reaped), is the other load; on a quiet machine it is about 0.

It prints each stage's minutes and the total, the load, and whether the run's tables are the committed ones (its
tables.sha256 against HEAD's). Unless --no-record, it writes results/runtime/<profile>.json, the record that the
README's section on run time reads. Tables that differ are listed there too; a failed stage is recorded as failed.
"""
from __future__ import annotations
import argparse, json, os, platform, resource, shlex, shutil, subprocess, sys, threading, time
from datetime import datetime, timezone
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from relic_nb.config import bf16_native, corpus_mirror, parse_manifest  # noqa: E402


def busy_seconds() -> float:
    "CPU seconds every process of the machine has used since boot (user, nice, system, irq, softirq, steal)."
    f = Path('/proc/stat').read_text().split('\n')[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, f[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf('SC_CLK_TCK')


def children_seconds() -> float:
    "CPU seconds of this process's reaped descendants."
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def cpu_model() -> str:
    "The CPU's model name (/proc/cpuinfo), else platform.processor()."
    try:
        for line in Path('/proc/cpuinfo').read_text().splitlines():
            if line.startswith('model name'): return line.split(':', 1)[1].strip()
    except OSError: pass
    return platform.processor() or 'unknown'


def clone(dest: Path) -> str:
    "A fresh clone of HEAD at `dest` with this checkout's .venv linked in; returns the commit."
    if dest.exists(): shutil.rmtree(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(['git', 'clone', '-q', '--no-hardlinks', str(ROOT), str(dest)], check=True)
    (dest/'.venv').symlink_to(ROOT/'.venv')
    return subprocess.run(['git', '-C', str(dest), 'rev-parse', 'HEAD'], capture_output=True, text=True,
                          check=True).stdout.strip()


def sampled_load(stop: threading.Event, out: list, every: float = 15.0):
    "Append (seconds since start, 1-minute load average) to `out` every `every` seconds until `stop` is set."
    t0 = time.time()
    while not stop.wait(every): out.append((round(time.time() - t0), os.getloadavg()[0]))


def compare_tables(checkout: Path, profile: str) -> dict:
    "The run's tables.sha256 against HEAD's: how many tables are identical, and the ones that differ or are missing."
    ran = checkout/'results'/profile/'tables.sha256'
    ref = subprocess.run(['git', '-C', str(ROOT), 'show', f'HEAD:results/{profile}/tables.sha256'],
                         capture_output=True, text=True)
    if ref.returncode or not ran.exists(): return dict(compared=False)
    a, b = parse_manifest(ref.stdout), parse_manifest(ran.read_text())     # sha256sum's format, as a MANIFEST's
    return dict(compared=True, tables=len(a), identical=sum(b.get(f) == h for f, h in a.items()),
                differ=sorted(f for f, h in a.items() if f in b and b[f] != h), missing=sorted(set(a) - set(b)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--profile', default='pd')
    ap.add_argument('--params', default='', help="the runner's settings, as make's PARAMS (say '-p lm_questions 100')")
    ap.add_argument('--no-record', action='store_true', help='print only; do not write results/runtime/')
    a = ap.parse_args()
    mirror = corpus_mirror(ROOT)
    if mirror is None: sys.exit('No local text mirror: set RELIC_NB_CORPUS to the corpus folder (see the README).')
    where = ROOT/'runs'/'cold'/a.profile
    commit = clone(where)
    env = os.environ | dict(RELIC_NB_CORPUS=str(mirror), PYTHONPATH=str(where))
    env.pop('RELIC_NB_HOME', None)
    print(f'cold run of {a.profile} at {commit[:7]} in {where.relative_to(ROOT)} (log: run.log there)', flush=True)
    samples, stop = [], threading.Event()
    threading.Thread(target=sampled_load, args=(stop, samples), daemon=True).start()
    start, load_before = datetime.now(timezone.utc), os.getloadavg()
    busy0, kids0, t0 = busy_seconds(), children_seconds(), time.time()
    cmd = [str(ROOT/'.venv'/'bin'/'python'), '-m', 'relic_nb.runner', '--profile', a.profile, *shlex.split(a.params)]
    with open(where/'run.log', 'w') as log:
        rc = subprocess.run(cmd, cwd=where, env=env, stdout=log, stderr=subprocess.STDOUT).returncode
    wall, busy, own = time.time() - t0, busy_seconds() - busy0, children_seconds() - kids0
    stop.set()
    import pandas as pd
    tf = where/'runs'/a.profile/'timings.csv'
    t = pd.read_csv(tf) if tf.exists() else pd.DataFrame(columns=['stage', 'seconds', 'status'])
    rec = dict(profile=a.profile, params=a.params, commit=commit, started=start.isoformat(timespec='seconds'),
               exit=rc, wall_minutes=round(wall / 60, 1),
               stages={r.stage: dict(seconds=float(r.seconds), status=r.status) for r in t.itertuples()},
               stage_minutes=round(float(t.seconds.sum()) / 60, 1),
               machine=dict(cpu=cpu_model(), cores=len(os.sched_getaffinity(0)), bf16=bf16_native(),
                            memory_gib=round(os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30, 1)),
               load=dict(before_1_5_15=[round(x, 2) for x in load_before],
                         mean_1min=round(sum(x for _, x in samples) / max(len(samples), 1), 2),
                         max_1min=round(max((x for _, x in samples), default=0.0), 2),
                         run_cpu_seconds=round(own), other_cpu_seconds=round(max(busy - own, 0.0)),
                         other_cores=round(max(busy - own, 0.0) / wall, 2)),
               tables=compare_tables(where, a.profile))
    for s, v in rec['stages'].items(): print(f"  {s:<22} {v['seconds'] / 60:6.1f} min  {v['status']}")
    print(f"stages: {rec['stage_minutes']} min; the whole run: {rec['wall_minutes']} min (exit {rc})")
    L = rec['load']
    print(f"machine: {rec['machine']['cpu']}, {rec['machine']['cores']} cores; load before {L['before_1_5_15']}, "
          f"during: 1-min mean {L['mean_1min']}, max {L['max_1min']}; other processes {L['other_cpu_seconds']} "
          f"CPU-s ({L['other_cores']} cores on average)")
    T = rec['tables']
    print(f"tables: {T['identical']} of {T['tables']} identical to HEAD's; differ: {T['differ'] or 'none'}; "
          f"missing: {T['missing'] or 'none'}" if T['compared'] else 'tables: not compared (no tables.sha256)')
    if not a.no_record:
        out = ROOT/'results'/'runtime'/f'{a.profile}.json'
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(rec, indent=1) + '\n')
        print(f'written: {out.relative_to(ROOT)}')
    sys.exit(rc)


if __name__ == '__main__':
    main()
