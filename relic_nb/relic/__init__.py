"""RELiC (Thai et al., 2022): building RELiC-PD from public-domain criticism, the retrieval task, its baselines and dense-RELiC."""
