"""The session-state keys that app.py and the shared modules read and write, declared once, here.

A page's own controls keep their keys in the page (their strings are what links and persisted state name);
these are the ones several modules share.
"""

# The sidebar's widgets own these: they render on every page, so their state survives navigation.
LANG, CHECKPOINT, DEVICE, BEAM = "lang", "checkpoint", "device", "beam"
TARGET_LANGUAGE = "target_language"  # a multi-target Marian model's ">>xxx<<" token
PRESENT = "present"  # presentation mode: larger type and charts (page_scripts.PRESENT_SCALE), sidebar collapsed

# Plain state, set by the translate page's form callback: a widget key would be dropped by Streamlit on pages
# where that widget is not drawn.
SENTENCE = "sentence"

# The teacher's controls (sidebar.py, server.py).
ADD_INPUT, ADD_ERROR = "sidebar.add_model", "models.add_error"
PASSCODE_INPUT, WRONG_PASSCODE, DEVICE_CHOICE = "teacher.passcode", "teacher.wrong", "teacher.device"
TEACHER = "teacher.unlocked"
PASSCODE_SESSION = "teacher.guesser"  # this session's key among the server's passcode guesses (server.Guesses)

# The link (links.py): whether it was read, what of it is left for the page, its notices and the page's own params;
# the last link this session wrote; the names a read link had.
LINK_READ, LINK_PENDING, LINK_NOTICES, LINK_PARAMS = "link.read", "link.pending", "link.notices", "link.params"
LINK_WRITTEN, LINK_NAMES = "link.written", "link.names"

LAST_PAGE = "page.last"  # the page the last run showed (presentation.opened_another_page)
# The model's doubts about its weights (models.translator) were shown in this run: the sidebar clears it each run.
DOUBTS_SHOWN = "models.doubts_shown"

# The session's slide deck (decks.py): a list of lessons.deck.Slide, pinned under any attention map.
DECK = "deck.slides"
