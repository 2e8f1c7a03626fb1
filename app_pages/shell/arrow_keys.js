// ← and → press the Previous and Next buttons of the page's stepper (app_pages/components/stepper.py: the keys
// that end in .prev and .next), unless the cursor is in a text box or on a slider, which use those keys
// themselves. Bound once per browser tab.
if (!window.attentionArrowKeys) {
  window.attentionArrowKeys = true;
  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (event.altKey || event.ctrlKey || event.metaKey || target.closest("input, textarea, [role=slider]")) return;
    const name = {ArrowLeft: "prev", ArrowRight: "next"}[event.key];
    const holder = name && [...document.querySelectorAll("[class*='st-key-']")].find(
      (el) => [...el.classList].some((c) => c.startsWith("st-key-") && c.endsWith(`-${name}`)));
    const button = holder && holder.querySelector("button");
    if (button && !button.disabled) { event.preventDefault(); button.click(); }
  });
}
