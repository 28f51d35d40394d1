# Sphinx settings of the docs site (`make docs`): the pages come from docs/pages.py, built offline.
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

project = 'relic-nb'
author = 'relic-nb developers'
copyright = 'relic-nb developers, Apache License 2.0'
extensions = ['myst_nb', 'sphinx.ext.autodoc']
exclude_patterns = ['**.ipynb_checkpoints', '.build']   # make docs builds into <sources>/.build, then _docs/
suppress_warnings = ['mystnb.unknown_mime_type']

# the notebooks are shown as they ran (the stages) or as source: nothing is executed while building
nb_execution_mode = 'off'
nb_output_stderr = 'remove'          # progress bars and library warnings are not part of the page
myst_heading_anchors = 3             # links to a section (#quick-start) resolve as on GitHub
myst_enable_extensions = ['colon_fence']

autodoc_member_order = 'bysource'    # the order of the notebook
autodoc_typehints = 'signature'
default_role = 'code'                # `name` in a docstring reads as code, as in the notebooks

html_theme = 'sphinx_book_theme'
html_title = 'relic-nb'
html_theme_options = {'show_toc_level': 2, 'home_page_in_toc': True, 'use_download_button': False,
                      'use_fullscreen_button': False}
html_show_sourcelink = False
html_copy_source = False
