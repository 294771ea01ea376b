"""The programs built on the run: compare.py --ladder, --fuzz, and the generator's --minimal and --hard-for."""
