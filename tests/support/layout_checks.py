"""What a person would see as broken on a page, read from the DOM: JavaScript for Playwright's evaluate (each
returns what is wrong, or the number to hold to a limit) and the limits. The tour (tests/test_tour_browser.py) runs
them on every page; other browser tests on the views they open."""

from __future__ import annotations

# A teaching page's table, equation or row of options wider than its box: a table whose last columns sit behind a
# scroll bar (its grid is wider than its box), an equation running past the right edge, a row of options scrolled or
# cut short.
CLIPPED = """() => {
  const out = [], main = document.querySelector("[data-testid='stMain']");
  main.querySelectorAll("[data-testid='stTable']").forEach(table => {
    const grid = table.firstElementChild;  // st.table's scrolling box
    const header = [...table.querySelectorAll('thead th')].map(h => h.textContent).join(' ');
    if (grid && grid.scrollWidth > grid.clientWidth + 1)
      out.push(`table hides columns (${grid.scrollWidth} px in ${grid.clientWidth} px) ${header}`.trim());
  });
  main.querySelectorAll('.katex-display').forEach(eq => {
    if (eq.scrollWidth > eq.clientWidth + 3)
      out.push(`equation clipped (${eq.scrollWidth} px in ${eq.clientWidth} px): ${eq.textContent.slice(0, 60)}`);
  });
  main.querySelectorAll('[role=radiogroup]').forEach(group => {
    if (group.scrollWidth > group.clientWidth + 1)
      out.push(`options scrolled out of view: ${group.textContent.slice(0, 80)}`);
    group.querySelectorAll('[role=radio] *').forEach(label => {
      if (label.children.length === 0 && label.scrollWidth > label.clientWidth + 1)
        out.push(`option cut short: ${label.textContent}`);
    });
  });
  return out;
}"""

# Per chart: the tick-label boxes of each axis that overlap a neighbour, an axis title over a tick label, and the
# chart's height.
CHART_PROBLEMS = r"""() => {
  const out = [];
  const meet = (ra, rb) => Math.min(ra.right, rb.right) - Math.max(ra.left, rb.left) > 1 &&
                           Math.min(ra.bottom, rb.bottom) - Math.max(ra.top, rb.top) > 1;  // by more than a pixel each way
  document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot").forEach((plot, index) => {
    const title = plot.querySelector('.gtitle')?.textContent || `chart ${index}`;
    const height = plot.getBoundingClientRect().height;
    if (height > window.innerHeight) out.push(`${title}: ${Math.round(height)} px tall`);
    // Tick labels by axis (x, x2, y, y2…): a heatmap draws thinned labels on an axis laid over its own.
    const axes = {};
    plot.querySelectorAll('g[class*="tick"] > text').forEach(t => {
      const axis = (t.parentElement.getAttribute('class') || '').match(/^([xy]\d*)tick/);
      if (axis) (axes[axis[1]] = axes[axis[1]] || []).push(t);
    });
    Object.values(axes).forEach(texts => {
      const boxes = texts
        .filter(t => t.textContent.trim() && getComputedStyle(t).opacity !== '0')
        .map(t => [t.textContent, t.getBoundingClientRect()])
        .filter(([, r]) => r.width > 0 && r.height > 0);
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, ra] = boxes[i], [b, rb] = boxes[j];
        if (meet(ra, rb)) out.push(`${title}: tick labels "${a}" and "${b}" overlap`);
      }
    });
    // An axis title over a tick label of the chart; a y title level with its axis's labels rather than beyond the
    // widest (set beside the labels level with it, it reads as one of them: "键 ▁every").
    const shown = t => t.textContent.trim() && getComputedStyle(t).opacity !== '0' && t.getBoundingClientRect().width;
    const labels = Object.values(axes).flat().filter(shown);
    plot.querySelectorAll('g[class*="title"] > text[class*="title"]').forEach(axisTitle => {
      const ra = axisTitle.getBoundingClientRect(), name = axisTitle.textContent;
      if (!shown(axisTitle)) return;
      labels.forEach(label => {
        if (meet(ra, label.getBoundingClientRect()))
          out.push(`${title}: axis title "${name}" covers label "${label.textContent}"`);
      });
      const axis = (axisTitle.getAttribute('class') || '').match(/^(y\d*)title$/);
      const own = axis ? (axes[axis[1]] || []).filter(shown) : [];
      const boxes = own.map(l => l.getBoundingClientRect());
      const right = boxes.length && ra.left > boxes.reduce((sum, b) => sum + b.left + b.right, 0) / (2 * boxes.length);
      const among = right ? ra.left < Math.max(...boxes.map(b => b.right)) - 1  // a y axis on the right
                          : ra.right > Math.min(...boxes.map(b => b.left)) + 1;
      if (boxes.length && among) out.push(`${title}: y title "${name}" stands among its labels`);
    });
  });
  return out;
}"""


# A page's main chart starts within the first screen: its top at most FIRST_SCREEN_PX at 1280×800.
FIRST_SCREEN_PX = 560
# The top of the main area's first chart, scrolled to its top. Charts in a tab not chosen have no box (top 0): only the
# charts on screen count.
FIRST_CHART_TOP = """() => {
  document.querySelector("[data-testid='stMain']").scrollTo(0, 0);
  const charts = [...document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot")]
    .filter(c => c.getBoundingClientRect().height > 0);
  return Math.min(...charts.map(c => c.getBoundingClientRect().top));
}"""

# Everything the tree's figure draws, read from Plotly's own graph: its traces' names, modes, points and hover
# data, and the screen boxes of its node labels and step numbers.
TREE = """gd => ({
  traces: gd.data.map(d => ({name: d.name || null, mode: d.mode, n: (d.x || []).filter(x => x !== null).length,
                             width: d.line && d.line.width, customdata: d.customdata || null,
                             x: d.x || null, y: d.y || null})),
  index: [...document.querySelectorAll("[data-testid='stMain'] .js-plotly-plot")].indexOf(gd),
  box: (b => ({x: b.x, y: b.y, width: b.width, height: b.height}))(gd.getBoundingClientRect()),
  labels: [...gd.querySelectorAll('.textpoint text, g.xtick text')].filter(t => t.textContent.trim()).map(t => {
      const b = t.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; }),
})"""


def overlapping(boxes: list[list[float]]) -> list[tuple]:
    """Pairs of label boxes that overlap by more than a pixel each way."""
    return [(a, b) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if min(a[2], b[2]) - max(a[0], b[0]) > 1 and min(a[3], b[3]) - max(a[1], b[1]) > 1]
