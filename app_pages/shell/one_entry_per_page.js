// One history entry per page visit, so that Back takes one press. Streamlit pushes the new page's address with the
// old page's query string, then the app writes the new page's own view (another push): a query-only push that
// follows a page's push before any click or key press is that write, and replaces the entry instead.
// The push of another page's address also scrolls the main area to its top as the page changes, in the browser,
// whichever of the new page's runs gets drawn (a rerun can supersede the first run and its scroll_to_top.js).
// Bound once per browser tab.
if (!window.attentionHistory) {
  window.attentionHistory = true;
  let pagePushed = false;
  for (const type of ["pointerdown", "keydown"]) addEventListener(type, () => { pagePushed = false; }, true);
  const push = history.pushState.bind(history);
  history.pushState = (state, title, url) => {
    const samePage = new URL(url, location.href).pathname === location.pathname;
    if (samePage && pagePushed) { pagePushed = false; return history.replaceState(state, title, url); }
    pagePushed = !samePage;
    if (!samePage) document.querySelector("[data-testid=stMain]")?.scrollTo(0, 0);
    return push(state, title, url);
  };
}
