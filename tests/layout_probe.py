"""What a browser test measures of a page's layout: anything wider than the screen, and words broken
inside (a single word split over two lines). Used by tests/test_browser_layout.py."""

from __future__ import annotations

from typing import Any

# Run in the page: every visible element whose box reaches past the viewport's right edge (outside a
# box that scrolls sideways by design, such as Streamlit's data grid, whose cells are drawn in a
# canvas), and every text node whose word is drawn on two lines (its first and last letter on
# different line boxes). Returns short descriptions, at most 12 of each.
MEASURE = r"""
() => {
  const width = document.documentElement.clientWidth;
  const found = { scroll: document.documentElement.scrollWidth - width, wide: [], broken: [] };
  const describe = (el) => {
    const id = el.getAttribute && (el.getAttribute('data-testid') || el.className || el.tagName);
    return `${el.tagName.toLowerCase()}[${String(id).slice(0, 40)}] "${(el.innerText || el.textContent || '').trim().slice(0, 40)}"`;
  };
  // Streamlit's data grid draws its cells in a canvas and scrolls them with its key columns pinned
  const GRID = '[data-testid="stDataFrame"], [data-testid="stDataFrameResizable"]';
  // what scrolls sideways by design: code (a JSON line as it is written), the documentation's own
  // tables on the Help page (its Markdown, many columns of reference)
  const SCROLLS = 'pre, code, [data-testid="stCode"], [data-testid="stMarkdownContainer"] table';
  // what a person cannot see is not measured: the sidebar folded away on a phone, hidden elements
  const shown = (el) => {
    if (el.closest('[data-testid="stSidebar"][aria-expanded="false"]')) return false;
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || r.right <= 0) return false;
    const s = getComputedStyle(el);
    return s.visibility !== 'hidden' && s.display !== 'none';
  };
  const clipped = (el) => {
    for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.overflowX !== 'visible' && e.getBoundingClientRect().right <= width + 1) return true;
    }
    return false;
  };
  for (const el of document.querySelectorAll('body *')) {
    if (found.wide.length >= 12) break;
    if (!shown(el) || el.closest(GRID)) continue;
    const s = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (s.position !== 'fixed' && r.right > width + 1 && !clipped(el)) {
      found.wide.push(`${describe(el)} right=${Math.round(r.right)}`);
    } else if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1
               && !['TEXTAREA', 'PRE'].includes(el.tagName) && !el.closest(SCROLLS)) {
      // a box whose content scrolls sideways: a table cut on the right until one scrolls it
      found.wide.push(`${describe(el)} scrolls sideways by ${el.scrollWidth - el.clientWidth} px`);
    }
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node && found.broken.length < 12; node = walker.nextNode()) {
    const text = node.textContent;
    if (!text || !text.trim() || !node.parentElement) continue;
    const parent = node.parentElement;
    if (!shown(parent) || parent.closest(GRID)) continue;
    if (['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEXTAREA', 'CODE', 'PRE'].includes(parent.tagName)) continue;
    if (parent.closest('pre, code, [data-testid="stCode"], svg')) continue;
    const re = /[\p{L}\p{N}][\p{L}\p{N}'’:._-]*[\p{L}\p{N}]/gu;
    let m;
    while ((m = re.exec(text)) && found.broken.length < 12) {
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const rects = [...range.getClientRects()].filter(r => r.width > 0);
      if (rects.length < 2) continue;
      // a word longer than its line (a file's path, a long id) must break somewhere: not a fault
      const whole = rects.reduce((sum, r) => sum + r.width, 0);
      const room = parent.getBoundingClientRect().right - Math.min(...rects.map(r => r.left));
      if (whole > room - 1) continue;
      const tops = new Set(rects.map(r => Math.round(r.top)));
      if (tops.size < 2) continue;
      // a hyphen or a slash is a place a word may break: only a break between two letters counts
      const parts = m[0].split(/[-/]/);
      if (parts.length > 1) {
        let inside = false;
        let at = m.index;
        for (const part of parts) {
          range.setStart(node, at);
          range.setEnd(node, at + part.length);
          const t = new Set([...range.getClientRects()].filter(r => r.width > 0).map(r => Math.round(r.top)));
          if (t.size > 1) inside = true;
          at += part.length + 1;
        }
        if (!inside) continue;
      }
      found.broken.push(`"${m[0]}" in ${describe(parent)}`);
    }
  }
  return found;
}
"""


def measure(page: Any) -> dict[str, Any]:
    """The page's overflow in pixels (document), the elements wider than the screen and the words
    broken inside."""
    return page.evaluate(MEASURE)


def problems(found: dict[str, Any]) -> list[str]:
    out = []
    if found["scroll"] > 1:
        out.append(f"the page scrolls sideways by {found['scroll']} px")
    out += [f"wider than the screen: {w}" for w in found["wide"]]
    out += [f"a word broken inside: {b}" for b in found["broken"]]
    return out
