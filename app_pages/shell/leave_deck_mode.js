// Slide deck: the click on Present leaves the focus on the mode's radio buttons, where → would switch the deck back
// to Edit (a radio group's own keys); the focus leaves them, so ← and → reach arrow_keys.js and turn the slides.
document.activeElement?.closest(".st-key-deck-mode") && document.activeElement.blur();
