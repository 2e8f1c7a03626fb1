"""python -m model.translate: the command line (model/translation/cli.py), kept at the address the README,
scripts and outside checks use."""

from .translation.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
