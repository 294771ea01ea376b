"""The command lines, at the top of the house: each console script's main (pyproject.toml)."""
