"""Translate page, attention explorer and step-by-step decoding."""

STRINGS: dict[str, str] = {}
