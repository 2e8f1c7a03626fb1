"""Teaching pages: Q·K·V, masks, positional encoding, scaling, multi-head shapes, anatomy."""

STRINGS: dict[str, str] = {}
