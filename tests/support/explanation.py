"""The "Is attention an explanation?" page in a new session, as its tests open it (on any tab, model and sentence),
and the figures its opening must carry, read off a training log without the page's helpers."""

from __future__ import annotations

import numpy as np

from streamlit.testing.v1 import AppTest

from app_pages.state import state_keys
from i18n import strings
from model import DEFAULT_BEAM
from tests.support.apptest import APP

SENTENCE = "I have a dream."


def page(lang: str = "en", tab: str | None = None, model: str | None = None, sentence: str = SENTENCE) -> AppTest:
    """The page in a new session in `lang`, showing its tab `tab` (its label's key "explain.tab.{tab}"; None: the
    first, the maps), as a click on that tab would: only the open tab is drawn; `model`: the sidebar's, if not
    the default."""
    at = AppTest.from_file(APP, default_timeout=300)
    if model is not None:
        at.session_state[state_keys.CHECKPOINT] = model
    at.session_state[state_keys.SENTENCE] = sentence
    at.session_state[state_keys.BEAM] = DEFAULT_BEAM
    at.session_state[state_keys.LANG] = lang
    if tab is not None:
        at.session_state["explain.tab"] = strings(lang)[f"explain.tab.{tab}"]
    at.switch_page("app_pages/pages/explanation.py")
    at.run()
    assert not at.exception, [e.message for e in at.exception]
    return at


def minus(x: float) -> str:
    return f"{x:.2f}".replace("-", "−")


def free(curve: list[dict]) -> dict:
    """The last point before the first drop whose interval lies above 0 (computed here, not by the page's helpers)."""
    first = next((p for p in curve[1:] if p["low"] > 0), None)
    return curve[curve.index(first) - 1] if first else curve[-1]


def expected_numbers(log: dict, lang: str) -> list[str]:
    """The figures the opening must carry for each part the log holds, read off the log here, not through the page's
    helpers."""
    numbers = []
    if "agreement" in log:
        ig = log["agreement"]["integrated_gradients"]
        best = max(round(v, 2) for row in ig["rho"] for v in row)
        mean = np.mean([v for row in ig["rho"] for v in row])
        numbers += [f"{log['agreement']['sentences']}", f"ρ = {mean:.2f}", f"{best:.2f}",
                    f"{ig['layer_mean'][-1][0]:.2f}"]
    if "heads" in log:
        numbers += [f"{log['heads']['test_pairs']:,}", f"{log['heads']['test_bleu']:.2f}"]
        for curve in log["heads"]["pruning"].values():  # every kind, none picked as the headline
            kept = free(curve)
            numbers.append(f"{curve[-1]['bleu']:.2f}")
            if kept["removed"]:  # the last removal the test half cannot tell from zero, said as the drop it is
                numbers += [minus(kept["bleu_drop"]), f"{minus(kept['low'])} ", f" {minus(kept['high'])}"]
            if kept is not curve[-1]:
                after = curve[kept["removed"] + 1]
                numbers += [f"{after['removed']} ", minus(after["bleu_drop"]), minus(after["low"]),
                            minus(after["high"])]
    if "alignment" in log:
        numbers.append(f"{log['alignment']['pairs']}")
        for key in ("chosen", "integrated_gradients", "baseline"):
            found = log["alignment"][key]
            left, right = ("(", ")") if lang == "en" else ("（", "）")
            numbers.append(f"{found['aer']:.3f} {left}{found['low']:.3f}–{found['high']:.3f}{right}".replace(
                " （", "（"))
    return numbers
