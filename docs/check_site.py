"""Checks the built docs site (`make docs-check`) as a reader meets it, in Debian's chromium driven by Playwright:

- the index opens, and its sidebar leads to the stage notebooks 05 and 07, each with a table and a figure that render;
- no page shows nbdev directives, front matter or MyST syntax as text;
- the search finds a phrase of the report;
- an API page documents functions;
- every internal link and image of every page points to a file of the site, and every `#anchor` to an element of it.

    python docs/check_site.py [_docs]
"""
from __future__ import annotations
import functools, http.server, re, shutil, sys, threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

LEAKS = re.compile(r'^\s*#\|\s*\w|^---$|output-file:|show_doc\(|```|\{toctree\}|\{automodule\}', re.M)


class _Refs(HTMLParser):
    "The ids, and the links and image sources, of one HTML page."
    def __init__(self):
        super().__init__(); self.ids, self.refs = set(), []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if a.get('id'): self.ids.add(a['id'])
        if tag == 'a' and a.get('name'): self.ids.add(a['name'])
        for key in ('href', 'src'):
            if a.get(key) and tag in ('a', 'img', 'link', 'script'): self.refs.append(a[key])


def page_refs(page:Path)->_Refs:
    "The parsed ids and references of `page`."
    p = _Refs(); p.feed(page.read_text(encoding='utf-8')); return p


def broken_links(site:Path)->list[str]:
    """Every internal reference of the site's pages that points nowhere: `page: reference`. Web addresses are not
    followed (the site is read offline)."""
    pages = {p: page_refs(p) for p in site.rglob('*.html') if '_static' not in p.relative_to(site).parts}
    bad = []
    for page, parsed in pages.items():
        for ref in parsed.refs:
            url = urlparse(ref)
            if url.scheme or ref.startswith('//') or ref.startswith('mailto:'): continue
            target = (page.parent/unquote(url.path)).resolve() if url.path else page
            if target.is_dir(): target = target/'index.html'
            if not target.is_file(): bad.append(f'{page.relative_to(site)}: {ref}')
            elif url.fragment and target.suffix == '.html':
                ids = pages[target].ids if target in pages else page_refs(target).ids
                if unquote(url.fragment) not in ids: bad.append(f'{page.relative_to(site)}: {ref} (no such anchor)')
    return bad


def serve(site:Path)->tuple[http.server.ThreadingHTTPServer, str]:
    "A local web server of `site` on a free port, and its address."
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f'http://127.0.0.1:{httpd.server_port}/'


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args): pass


def check_page(page, what:str)->list[str]:
    "What is wrong with the open page `page` (a Playwright page): leaked syntax, a missing table or figure."
    problems = []
    text = page.inner_text('article')
    for m in LEAKS.finditer(text): problems.append(f'{what}: shows {m[0]!r} as text')
    if 'table' in what and page.locator('article table').count() == 0: problems.append(f'{what}: no table')
    if 'figure' in what:
        sizes = page.eval_on_selector_all('article img', 'els => els.map(e => e.complete ? e.naturalWidth : 0)')
        if not any(w > 0 for w in sizes): problems.append(f'{what}: no figure rendered')
    return problems


def check_browser(site:Path, chromium:str)->list[str]:
    "Follows the sidebar from the index to 05 and 07, searches, opens an API page; returns the problems found."
    from playwright.sync_api import sync_playwright
    httpd, base = serve(site)
    problems = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=chromium, args=['--no-sandbox'])
            page = browser.new_page()
            page.goto(base + 'index.html')
            problems += check_page(page, 'index (table)')
            for stage in ('05_windows', '07_retrieval'):
                page.goto(base + 'index.html')
                link = page.locator(f'nav.bd-links a[href$="nbs/{stage}.html"]')
                if link.count() == 0: problems.append(f'the sidebar has no link to {stage}'); continue
                link.first.click(); page.wait_for_load_state()
                if not page.url.endswith(f'nbs/{stage}.html'):
                    problems.append(f'{stage}: the sidebar opened {page.url}')
                problems += check_page(page, f'{stage} (table, figure)')
            page.goto(base + 'search.html?q=Holm')
            page.wait_for_selector('#search-results li, #search-results p', timeout=20_000)
            if page.locator('#search-results li').count() == 0: problems.append('searching "Holm" finds nothing')
            page.goto(urljoin(base, 'api/relic_nb.relic.task.html'))
            if page.locator('dl.py.function').count() == 0:
                problems.append('the API page of relic_nb.relic.task lists no function')
            problems += check_page(page, 'api/relic_nb.relic.task')
            browser.close()
    finally:
        httpd.shutdown()
    return problems


def main(site:Path)->int:
    if not (site/'index.html').is_file():
        print(f'{site}/index.html does not exist: build the site first (make docs)'); return 1
    problems = [f'broken link: {b}' for b in broken_links(site)]
    chromium = shutil.which('chromium') or shutil.which('chromium-browser')
    if chromium is None: print("chromium is not installed (apt-get install chromium): the browser checks are skipped")
    else: problems += check_browser(site, chromium)
    for p in problems: print(p)
    n = sum('_static' not in p.relative_to(site).parts for p in site.rglob('*.html'))
    print(f'{n} pages checked: ' + (f'{len(problems)} problems' if problems else 'no problems'))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(Path(sys.argv[1] if len(sys.argv) > 1 else '_docs')))
