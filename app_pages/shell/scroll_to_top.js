// A new page starts at its top: Streamlit keeps the main area's scroll position across pages.
document.querySelector("[data-testid=stMain]")?.scrollTo(0, 0);
