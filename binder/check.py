"""What can be checked here of the environments a user builds elsewhere (`make env-check`):

- binder/ (repo2docker): its files parse, postBuild is an executable shell script, runtime.txt names a Python the
  project supports, and binder/requirements.txt resolves with pip (a dry run: nothing is installed);
- every file that names the torch version (binder/requirements.txt, environment.yml) names the Makefile's
  TORCH_VERSION, and environment.yml installs requirements.txt and the project.

    python binder/check.py
"""
from __future__ import annotations
import json, re, subprocess, sys, tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def makefile_torch()->str:
    "The torch version the Makefile installs (`TORCH_VERSION`)."
    m = re.search(r'^TORCH_VERSION\s*:?=\s*(\S+)', (ROOT/'Makefile').read_text(), re.M)
    if not m: raise SystemExit('the Makefile sets no TORCH_VERSION')
    return m[1]


def min_python()->tuple[int, int]:
    "The oldest Python the project supports (settings.ini's `min_python`)."
    m = re.search(r'^min_python\s*=\s*(\d+)\.(\d+)', (ROOT/'settings.ini').read_text(), re.M)
    return int(m[1]), int(m[2])


def file_problems(torch:str)->list[str]:
    "What is wrong with binder/ and environment.yml, without running pip."
    import yaml
    out, binder = [], ROOT/'binder'
    runtime = (binder/'runtime.txt').read_text().strip()
    m = re.fullmatch(r'python-(\d+)\.(\d+)', runtime)
    if not m: out.append(f'binder/runtime.txt should read python-X.Y, not {runtime!r}')
    elif (int(m[1]), int(m[2])) < min_python(): out.append(f'binder/runtime.txt asks for {runtime}, below min_python')
    post = binder/'postBuild'
    if not post.stat().st_mode & 0o111: out.append('binder/postBuild is not executable (chmod +x binder/postBuild)')
    syntax = subprocess.run(['bash', '-n', str(post)], capture_output=True, text=True)
    if syntax.returncode: out.append(f'binder/postBuild is not valid bash: {syntax.stderr.strip()}')
    reqs = (binder/'requirements.txt').read_text()
    if f'torch=={torch}+cpu' not in reqs: out.append(f'binder/requirements.txt does not pin torch=={torch}+cpu')
    if '-r ../requirements.txt' not in reqs: out.append('binder/requirements.txt does not include ../requirements.txt')
    env = yaml.safe_load((ROOT/'environment.yml').read_text())
    deps = env.get('dependencies', [])
    if f'pytorch-gpu={torch}' not in deps: out.append(f'environment.yml does not ask for pytorch-gpu={torch}')
    pip = next((d['pip'] for d in deps if isinstance(d, dict) and 'pip' in d), [])
    if not {'-r requirements.txt', '-e .'} <= set(pip):
        out.append('environment.yml does not pip-install requirements.txt and the project (-e .)')
    return out


def reachable(url:str, timeout:float=3)->bool:
    "Whether `url`'s host answers on its port (no request is made)."
    import socket
    from urllib.parse import urlparse
    u = urlparse(url)
    try: socket.create_connection((u.hostname, u.port or 443), timeout=timeout).close(); return True
    except OSError: return False


def offline_copy(requirements:Path, folder:Path)->tuple[Path, list[str]]:
    """`requirements` as pip can resolve it here: with every `--extra-index-url` that does not answer left out (pip
    would retry it for each package), and the nested `-r` files made absolute. Returns the file and the indexes left
    out."""
    kept, dropped = [], []
    for line in requirements.read_text().splitlines():
        m = re.match(r'--extra-index-url\s+(\S+)', line)
        if m and not reachable(m[1]): dropped.append(m[1]); continue
        r = re.match(r'-r\s+(\S+)', line)
        kept.append(f'-r {(requirements.parent/r[1]).resolve()}' if r else line)
    out = folder/requirements.name
    out.write_text('\n'.join(kept) + '\n')
    return out, dropped


def resolve(requirements:Path)->dict[str, str]:
    """Package -> version that pip would install for `requirements` into an empty environment (a dry run; an index that
    does not answer is left out, so the CPU build of torch must then come from pip's other sources)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp)/'report.json'
        local, dropped = offline_copy(requirements, Path(tmp))
        for url in dropped: print(f'{url} does not answer here: resolving without it')
        r = subprocess.run([sys.executable, '-m', 'pip', 'install', '--dry-run', '--ignore-installed', '--quiet',
                            '--retries', '2', '--report', str(report), '-r', str(local)],
                           capture_output=True, text=True, cwd=tmp)
        if r.returncode:
            raise SystemExit(f'{requirements.relative_to(ROOT)} does not resolve:\n{r.stderr[-2000:]}')
        items = json.loads(report.read_text())['install']
    return {i['metadata']['name'].lower(): i['metadata']['version'] for i in items}


def main()->int:
    torch = makefile_torch()
    problems = file_problems(torch)
    for p in problems: print(p)
    if problems: return 1
    got = resolve(ROOT/'binder'/'requirements.txt')
    if got.get('torch') != f'{torch}+cpu':
        print(f"binder/requirements.txt resolves torch {got.get('torch')}, not {torch}+cpu"); return 1
    cuda = sorted(n for n in got if n.startswith('nvidia-') or n == 'triton')
    if cuda: print(f"binder/requirements.txt would install CUDA packages: {', '.join(cuda)}"); return 1
    print(f'binder/ and environment.yml agree with the Makefile (torch {torch}); binder/requirements.txt resolves '
          f'to {len(got)} packages, torch {got["torch"]}, no CUDA packages')
    return 0


if __name__ == '__main__':
    sys.exit(main())
