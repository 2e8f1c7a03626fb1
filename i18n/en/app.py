"""Shared shell: sidebar, navigation, input."""

from model.translation.messages import MESSAGES

STRINGS = {
    "nav.section.explore": "Explore the model",
    "nav.section.learn": "Learn attention",
    "nav.compare": "Compare",
    "nav.decoding": "Decoding step by step",
    "nav.qkv": "Q, K, V walkthrough",
    "nav.masks": "Masks",
    "nav.positional": "Positional encoding",
    "nav.scaling": "Why divide by √d_k",
    "nav.multihead": "Multi-head shapes",
    "nav.anatomy": "Model anatomy & training",
    "nav.translate": "Translate & explore",
    "nav.model_card": "Model card",
    "nav.start": "Start here",
    "start.title": "Start here: a guide for teachers",
    "start.intro": (
        "This app runs a real Transformer that translates {source} into {target} and shows every attention weight it "
        "computed. Nothing on screen is drawn by hand: each number comes from the model or from the arithmetic on the page."
    ),
    "start.first": "What to show first",
    "start.steps": (
        "1. **Q, K, V walkthrough**: the “Thinking Machines” example by hand, scores {a} and {b}, ÷ {root}, softmax → {wa} and {wb}.\n"
        "2. **Translate & explore**: type a sentence the class chooses, open *cross-attention* and let students guess "
        "which {src_unit} each {tgt_unit} looked at before you hover.\n"
        "3. **Decoding step by step**: press **Next** (or the → key) to watch the causal mask grow one token at a time, "
        "where each new {tgt_unit} looked in the {source}, and which candidates it beat.\n"
        "4. **Masks**, **Positional encoding** and **Why divide by √d_k** when the questions come."
    ),
    "start.links": "Prepared links",
    "start.links_help": (
        "Each link opens a view exactly as described; put it in your slides or the class chat and every student sees "
        "the same view. Any view you set up has its own link too: the address bar follows what you click."
    ),
    "start.cross.title": "Where “{zh}” looks: cross-attention",
    "start.cross.what": (
        "The explorer at layer {layer}, head {head} of cross-attention, the head of this model that links “{zh}” "
        "to “{en}” most (found in its own weights). In its map each row writes the next token: the rows labelled "
        "{rows}, which write “{zh}”, put {weight} of their attention on “{en}” on average."
    ),
    "start.rows_sep": " and ",
    "start.unit.en": "English word",
    "start.unit.zh": "Chinese character",
    "start.cross.what_any": (
        "The explorer at cross-attention: find the head where “{zh}” looks at “{en}”."
    ),
    "start.decoding.title": "Writing “{zh}”: decoding step {step}",
    "start.decoding.what": (
        "The decoding page at the step that writes “{zh}”: the causal mask, where it looked in the English, and the "
        "candidates it beat."
    ),
    "start.qkv.title": "Q, K, V by hand: “Thinking Machines”",
    "start.qkv.what": "The worked example of the study notes, every number computed on the page.",
    "start.wrong": "Where it goes wrong",
    "start.wrong_help": (
        "The model is small and trained on short everyday sentences: it gets these wrong. They are kept here on "
        "purpose, to show a class its limits, and no lesson opens on them."
    ),
    "start.wrong_line": "The model writes {model} · a person would write {reference}",
    "start.present": "On a projector",
    "start.present_help": (
        "Turn on **Presentation mode** in the sidebar: larger text and charts, sidebar closed. A prepared link "
        "clicked here opens in this tab and keeps it; an address copied in presentation mode opens in it too. On the decoding page, ← and → step through the translation."
    ),
    "app.title": "Attention, explained",
    "sidebar.language": "Language",
    "language.en": "English",
    "language.zh": "Chinese",
    "sidebar.checkpoint": "Model (direction)",
    "teacher.title": "Teacher controls",
    "teacher.help": "Server-wide: what you choose here applies to every student's session.",
    "teacher.passcode": "Teacher passcode",
    "teacher.wrong": "That is not the passcode.",
    "teacher.locked": (
        "Too many wrong passcodes from this browser or its network address: no passcode is checked for the next "
        "{seconds} s, the right one neither."
    ),
    "teacher.folders": (
        "Models are offered from folders on the server, not typed here: put a model folder (ours, or a Marian "
        "model saved with save_pretrained) in {folder} and reload. Hub ids: start the server with "
        "ATTENTION_ALLOW_HUB=1 (see the README)."
    ),
    "teacher.hub.off": "Adding hub models is off on this server.",
    "teacher.hub.invalid": "{name} is not a Hugging Face id (owner/name, letters, digits, . _ -).",
    "teacher.hub.failed": "{name} could not be loaded as a Marian model in time (offline, unknown, or not Marian). It will not be tried again for {minutes} minutes.",
    "teacher.hub.failed_recently": "{name} failed to load a few minutes ago; it will not be tried again yet.",
    "sidebar.add_model": "Add a Marian (opus-mt) model from the hub",
    "sidebar.add_model_help": "A Hugging Face id such as Helsinki-NLP/opus-mt-en-zh: downloaded once (within a minute), then offered to every session. Press Enter.",
    "sidebar.marian_missing": "Production Marian (opus-mt) models: `{command}`",
    "sidebar.language_token": "Target language token",
    "sidebar.device": "Device",
    "sidebar.beam": "Beam size",
    "sidebar.share": "Link to this view for students",
    "sidebar.share_help": "The address students' devices reach (ATTENTION_PUBLIC_URL, else this server's network address), with this page's settings: give it in the class chat or on a slide. Your own address bar may show 127.0.0.1, which only this machine opens.",
    "sidebar.present": "Presentation mode",
    "sidebar.present_help": "Larger text and charts for a projector, sidebar closed. Links copied now open in presentation mode too.",
    "link.ignored": "The link's {name}={value} was ignored: {why}.",
    "link.why.number": "it should be a whole number from {low} to {high}",
    "link.why.number_or_average": "it should be a whole number from {low} to {high}, or average",
    "link.why.decimal": "it should be a number from {low} to {high}",
    "link.why.choice": "it should be one of: {options}",
    "link.why.long": "a sentence may have at most {n} characters",
    "link.unknown": "the app has no such setting",
    "lab.numbers_when_stopped": "Its numbers (CSV, TSV) can be taken once the run stops: they change several times a second.",
    "link.unknown_more": "{n} more {n:setting|settings} of the link {n:was|were} ignored: the app has no such {n:setting|settings}.",
    "hardware.cpu": "{machine} CPU, {threads} threads",
    "error.checkpoint": "The model could not be loaded: {error}",
    "error.input": "{error}",
    # What translate() reports (input errors, notices): the model's own English text.
    **{f"model.{key}": text for key, text in MESSAGES.items()},
}
