/**
 * The tic-tac-toe views: /tictactoe resumes or starts a game and redirects to its own
 * URL; /tictactoe/<id> shows that game. The game itself is a server fragment (htmx
 * replaces it after every action); the "show move values" choice is remembered here.
 */
import { showFragment } from '../fragments.js';
import { rememberCurrent, resumeOrStart } from '../games.js';

const VALUES_KEY = 'tabletop.tictactoe.values';

export async function resume(context) {
  const id = await resumeOrStart('tictactoe', context.url);
  if (context.isCurrent()) await context.router.navigate(`/tictactoe/${id}`, { replace: true });
}

export async function game(context) {
  const { id } = context.params;
  let showValues = false;
  try {
    showValues = localStorage.getItem(VALUES_KEY) === 'on';
  } catch {
    // No storage: values start hidden.
  }
  const query = showValues ? '?values=on' : '';
  const status = await showFragment(context, `/ui/tictactoe/${encodeURIComponent(id)}${query}`);
  if (status === 200) rememberCurrent('tictactoe', id);
}

/** Remembers the "show move values" toggle whenever the player flips it. */
export function watchValuesToggle() {
  document.addEventListener('change', (event) => {
    const toggle = event.target;
    if (!(toggle instanceof HTMLInputElement) || toggle.name !== 'values') return;
    try {
      localStorage.setItem(VALUES_KEY, toggle.checked ? 'on' : 'off');
    } catch {
      // No storage: the toggle still works for this page.
    }
  });
}
