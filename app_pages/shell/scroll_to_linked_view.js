// A link that names a view lands on that view: once a chart is drawn, the main area scrolls the view (the
// container keyed linked_view) up to 8 px under Streamlit's header, and keeps it there for 30 s, as what is drawn
// after the first chart (the rest of the page, a taller chart, a reflow) moves the view or first lets the page
// scroll that far. A scroll no one asked for (the browser clamping the scroll while a rerun shrinks the page, or
// keeping an anchor in view) is corrected like any other move; only the user's scroll, click or key ends it.
(() => {
  const started = Date.now();
  let userMoved = false;
  const moved = () => { userMoved = true; };
  const types = ["wheel", "touchstart", "keydown", "pointerdown"];
  for (const type of types) addEventListener(type, moved, true);
  const done = () => { for (const type of types) removeEventListener(type, moved, true); };
  const land = () => {
    if (userMoved || Date.now() - started > 30000) return done();
    const main = document.querySelector("[data-testid=stMain]");
    const view = main && main.querySelector(".st-key-linked_view");
    if (view && main.querySelector(".js-plotly-plot .main-svg")) {
      const header = document.querySelector("[data-testid=stHeader]");
      const below = header ? header.getBoundingClientRect().bottom : 0;
      const gap = view.getBoundingClientRect().top - below - 8;
      if (Math.abs(gap) > 2) main.scrollTo(0, main.scrollTop + gap);
    }
    setTimeout(land, 100);
  };
  land();
})();
