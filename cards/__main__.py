"""python -m cards CHECKPOINT: rewrite a checkpoint's model cards without retraining (writer.main)."""

from .writer import main

if __name__ == "__main__":
    raise SystemExit(main())
