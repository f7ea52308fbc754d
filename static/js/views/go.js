/**
 * The Go views: /go resumes or starts a game (options from the query, e.g. ?size=13) and
 * redirects to /go/<id>; /go/<id> shows that game as a server fragment that htmx replaces
 * after every action. The P key passes.
 */
import { showFragment } from '../fragments.js';
import { rememberCurrent, resumeOrStart } from '../games.js';

export async function resume(context) {
  const id = await resumeOrStart('go', context.url);
  if (context.isCurrent()) await context.router.navigate(`/go/${id}`, { replace: true });
}

export async function game(context) {
  const { id } = context.params;
  const status = await showFragment(context, `/ui/go/${encodeURIComponent(id)}`);
  if (status === 200) rememberCurrent('go', id);
}

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
