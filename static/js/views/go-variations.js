/**
 * The variations of an imported Go record (templates/go/_review.html, app/games/go_record.py
 * on_line). A line of the record is in the URL, /go/<id>?move=N&line=13.1-20.2 (at move 13
 * the record's second move, at move 20 its third): urlLine() and shownLine() give go.js the
 * line to load and to keep while stepping; enableVariations() makes a link to another line
 * ([data-go-line]: a variation, "Back to the main line") a new history entry whose widget
 * is swapped in place, so the page neither reloads nor scrolls and back/forward walk the
 * lines (the router renders the entry they land on, with its line).
 */

const LINE = /^\d{1,4}\.\d{1,3}(?:-\d{1,4}\.\d{1,3}){0,39}$/; // go_record.LINE, bounded

function query(line) {
  return line && LINE.test(line) ? `&line=${line}` : '';
}

/** "&line=…" for the line in the address bar (the view to load), or "" on the main line. */
export function urlLine() {
  return query(new URL(location.href).searchParams.get('line'));
}

/** "&line=…" for the line the widget shows (its [data-line]: a line the record does not
 * offer is shown, and so written, as the main line), or "" on the main line. */
export function shownLine() {
  const shown = document.querySelector('#go-game [data-line]');
  return shown ? query(shown.dataset.line) : '';
}

function onClick(event) {
  const link = event.target instanceof Element ? event.target.closest('a[data-go-line]') : null;
  const root = document.getElementById('go-game');
  if (!link || !root || !root.contains(link) || !window.htmx) return;
  if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  event.preventDefault(); // the router would render the whole view again, from the top
  event.stopPropagation();
  const url = new URL(link.href, location.href);
  // Like the router's navigate(): this entry keeps its scroll, the new one starts there too.
  history.replaceState({ ...(history.state || {}), scrollY: window.scrollY }, '');
  history.pushState({ scrollY: window.scrollY }, '', url.pathname + url.search);
  const fragment = `/ui/go/${encodeURIComponent(root.dataset.gameId)}${url.search}`;
  window.htmx.ajax('GET', fragment, { target: '#go-game', swap: 'outerHTML' }).then(() => {
    // The link clicked is gone with the old widget: keep the keyboard where it was.
    const here = document.querySelector('#go-game .go-variations a[aria-current="true"]')
      || document.querySelector('#go-game .go-variations a, #go-game .go-moves [aria-current]');
    if (here) here.focus({ preventScroll: true });
  });
}

export function enableVariations() {
  document.addEventListener('click', onClick, true);
}
