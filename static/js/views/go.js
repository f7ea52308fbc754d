/**
 * The Go views: /go resumes or starts a game (options from the query, e.g. ?size=13) and
 * redirects to /go/<id>; /go/<id> shows that game as a server fragment that htmx replaces
 * after every action. The P key passes.
 */
import { gameViews } from '../games.js';

export const { resume, game } = gameViews('go');

/** P passes, unless the player is typing in a field. */
export function enablePassKey() {
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'p' && event.key !== 'P') return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target instanceof HTMLElement && target.closest('input, select, textarea')) return;
    const pass = document.getElementById('go-pass');
    if (!pass) return;
    event.preventDefault();
    pass.click();
  });
}
