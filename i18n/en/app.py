"""Shared shell: sidebar, navigation, input."""

from model.messages import MESSAGES

STRINGS = {
    "nav.section.explore": "Explore the model",
    "nav.section.learn": "Learn attention",
    "nav.decoding": "Decoding step by step",
    "nav.qkv": "Q, K, V walkthrough",
    "nav.masks": "Masks",
    "nav.positional": "Positional encoding",
    "nav.scaling": "Why divide by √d_k",
    "nav.multihead": "Multi-head shapes",
    "nav.anatomy": "Model anatomy & training",
    "nav.translate": "Translate & explore",
    "nav.model_card": "Model card",
    "app.title": "Attention, explained",
    "sidebar.language": "Language",
    "sidebar.checkpoint": "Checkpoint",
    "sidebar.device": "Device",
    "sidebar.beam": "Beam size",
    "error.checkpoint": "The model could not be loaded: {error}",
    "error.input": "{error}",
    # What translate() reports (input errors, notices): the model's own English text.
    **{f"model.{key}": text for key, text in MESSAGES.items()},
}
