// Inside the Transformer: brings the open block's section (the container keyed inside-details) to the top of the
// main area, 8 px under Streamlit's header.
(() => {
  const main = document.querySelector("[data-testid=stMain]");
  const details = document.querySelector(".st-key-inside-details");
  const header = document.querySelector("[data-testid=stHeader]");
  if (!main || !details) return;
  const below = header ? header.getBoundingClientRect().bottom : 0;
  main.scrollBy({top: details.getBoundingClientRect().top - below - 8});
})();
