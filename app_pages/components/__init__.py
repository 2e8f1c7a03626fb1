"""Parts several pages draw: the attention-map view and rollout, the stepper, guess-first, what-if, exercises, the
class poll, slide decks, charts (charts), token chips (chips, token_names), tables (tables), the teaching pages' shared pieces."""
