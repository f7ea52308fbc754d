/**
 * "This browser's current game" of each kind, remembered in localStorage, the
 * resume-or-start step behind /tictactoe (and the other kinds' bare links), and gameViews,
 * the two views every game has.
 */
import { queryOptions, showFragment } from './fragments.js';

const key = (kind) => `tabletop.current.${kind}`;

export function rememberCurrent(kind, id) {
  try {
    localStorage.setItem(key(kind), id);
  } catch {
    // Private modes may refuse storage; resuming then simply starts a new game.
  }
}

function savedCurrent(kind) {
  try {
    return localStorage.getItem(key(kind));
  } catch {
    return null;
  }
}

/**
 * Returns the id of the game to show for a bare /<kind> link: the current one, unless the
 * query asks for options (then a new game with them), or it is gone (then a new one).
 */
export async function resumeOrStart(kind, url) {
  const options = queryOptions(url);
  const saved = savedCurrent(kind);
  if (saved && Object.keys(options).length === 0) {
    const response = await fetch(`/api/games/${encodeURIComponent(saved)}`);
    if (response.ok) return saved;
  }
  const response = await fetch('/api/games', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ game: kind, options }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(body.detail || 'The game could not be started.');
  rememberCurrent(kind, body.id);
  return body.id;
}

/**
 * The two views of a game kind: `resume` for the bare /<kind> link (resume or start a game,
 * then replace the URL with its own) and `game` for /<kind>/<id>, which shows the game's
 * server fragment. `fragmentQuery()` adds a query to the fragment's URL (view preferences).
 */
export function gameViews(kind, fragmentQuery = () => '') {
  return {
    async resume(context) {
      const id = await resumeOrStart(kind, context.url);
      if (context.isCurrent()) await context.router.navigate(`/${kind}/${id}`, { replace: true });
    },
    async game(context) {
      const { id } = context.params;
      const url = `/ui/${kind}/${encodeURIComponent(id)}${fragmentQuery()}`;
      const status = await showFragment(context, url);
      if (status === 200) rememberCurrent(kind, id);
    },
  };
}
