"""RELiC (Thai et al., 2022): RELiC-PD built from public-domain criticism, the retrieval task and its models."""
