"""GANDALF (Brahman et al., 2021): character descriptions in long fiction, the 10-way questions and their baselines."""
