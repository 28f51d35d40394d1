"""Packaging for relic-nb: every value comes from settings.ini (nbdev's single source of metadata)."""
from configparser import ConfigParser
import setuptools

cfg = ConfigParser(delimiters=['='])
cfg.read('settings.ini', encoding='utf-8')
cfg = cfg['DEFAULT']
statuses = ['1 - Planning', '2 - Pre-Alpha', '3 - Alpha', '4 - Beta', '5 - Production/Stable', '6 - Mature']

setuptools.setup(
    name=cfg['repo'],
    version=cfg['version'],
    description=cfg['description'],
    long_description=open('README.md', encoding='utf-8').read(),
    long_description_content_type='text/markdown',
    keywords=cfg['keywords'].split(),
    author=cfg['author'],
    author_email=cfg['author_email'],
    license='Apache-2.0',
    url=cfg['git_url'],
    project_urls={'Source': cfg['git_url'], 'Documentation': cfg['doc_host'] + cfg['doc_baseurl']},
    classifiers=['Development Status :: ' + statuses[int(cfg['status'])],
                 'Intended Audience :: ' + cfg['audience'],
                 'Natural Language :: ' + cfg['language'],
                 'Programming Language :: Python :: 3'],
    packages=setuptools.find_packages(include=[cfg['lib_name'], cfg['lib_name'] + '.*']),
    include_package_data=True,
    install_requires=cfg.get('requirements', '').split(),
    extras_require={'dev': cfg.get('dev_requirements', '').split()},
    python_requires='>=' + cfg['min_python'],
    zip_safe=False,
    entry_points={'nbdev': [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"], 'console_scripts': []},
    scripts=[],
)
