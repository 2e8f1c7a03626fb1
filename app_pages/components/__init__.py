"""Parts several pages draw: the attention-map view and rollout, the stepper, guess-first, what-if, exercises, the
class poll, slide decks, token chips and tables (widgets, token_names), the teaching pages' shared pieces."""
