"""Shared shell: sidebar, navigation, input."""

STRINGS = {
    "nav.translate": "Translate & explore",
    "app.title": "Attention, explained",
    "sidebar.language": "Language",
    "sidebar.checkpoint": "Checkpoint",
    "sidebar.device": "Device",
    "sidebar.beam": "Beam size",
    "error.checkpoint": "The model could not be loaded: {error}",
    "error.input": "{error}",
}
