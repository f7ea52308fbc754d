/**
 * "This browser's current game" of each kind, the resume-or-start step behind /tictactoe
 * (and the other kinds' bare links), and gameViews, the two views every game has.
 *
 * The current game is a cookie, tabletop_current_<kind>, so that the server can make the same
 * choice on a full page load of a bare link (app/routes/pages.py resume_or_start) as this
 * module makes on a navigation inside the page.
 */
import { queryOptions, showFragment } from './fragments.js';
import { watchGame } from './live.js';

const CURRENT_COOKIE = 'tabletop_current_';
const CURRENT_MAX_AGE = 400 * 24 * 3600; // seconds: the longest lifetime browsers accept

export function rememberCurrent(kind, id) {
  const secure = location.protocol === 'https:' ? '; secure' : '';
  document.cookie = `${CURRENT_COOKIE}${kind}=${encodeURIComponent(id)}; path=/; `
    + `max-age=${CURRENT_MAX_AGE}; samesite=lax${secure}`;
}

function savedCurrent(kind) {
  const name = `${CURRENT_COOKIE}${kind}=`;
  const found = document.cookie.split('; ').find((pair) => pair.startsWith(name));
  return found ? decodeURIComponent(found.slice(name.length)) : null;
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
  if (!response.ok) {
    const refusal = new Error(body.detail || 'The game could not be started.');
    refusal.status = response.status; // 429: this browser started games too fast
    throw refusal;
  }
  rememberCurrent(kind, body.id);
  return body.id;
}

/**
 * The game the server chose for a bare link on a full page load, when it served that game's
 * view in the page (app/routes/pages.py): the game view then adopts it as it stands.
 */
function servedGame(kind, outlet) {
  const prefix = `/ui/${kind}/`;
  const served = outlet.dataset.fragment;
  return served && served.startsWith(prefix) ? served.slice(prefix.length) : null;
}

/**
 * Takes the free seat of a game with the invitation in the link (?invite=…), then drops
 * the code from the address bar. A spent or wrong invitation leaves the visitor watching,
 * with a note saying why (a used one says so: it used to leave them watching silently).
 */
async function joinWithInvite(kind, id, context) {
  const code = context.url.searchParams.get('invite');
  if (!code) return null;
  const response = await fetch(`/api/games/${encodeURIComponent(id)}/join`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ invite: code }),
  });
  history.replaceState(history.state, '', `/${kind}/${id}`);
  if (response.ok) return null; // seated now
  const body = await response.json().catch(() => ({}));
  if (body.code === 'already_seated') return null; // this browser sits there already
  if (body.code === 'no_free_seat') {
    return 'This invitation has been used: both seats are taken, so you are watching the game.';
  }
  return body.detail || 'That invitation cannot be used.';
}

/**
 * The two views of a game kind: `resume` for the bare /<kind> link (resume or start a game,
 * or take the one the server served, then replace the URL with its own) and `game` for /<kind>/<id>, which shows the game's
 * server fragment and keeps it live (live.js) until the view is left.
 * `fragmentQuery()` adds a query to the fragment's URL (view preferences).
 */
export function gameViews(kind, fragmentQuery = () => '') {
  return {
    async resume(context) {
      const id = servedGame(kind, context.outlet) || await resumeOrStart(kind, context.url);
      if (context.isCurrent()) await context.router.navigate(`/${kind}/${id}`, { replace: true });
    },
    async game(context) {
      const { id } = context.params;
      const refused = await joinWithInvite(kind, id, context);
      if (!context.isCurrent()) return;
      const url = `/ui/${kind}/${encodeURIComponent(id)}${fragmentQuery()}`;
      const status = await showFragment(context, url);
      if (status !== 200 || !context.isCurrent()) return;
      rememberCurrent(kind, id);
      if (refused) showNote(context.outlet, refused);
      context.onLeave(watchGame(context.outlet));
    },
  };
}

/** A note above the game (e.g. why an invitation did not seat the visitor). */
function showNote(outlet, text) {
  const note = document.createElement('p');
  note.className = 'game-error';
  note.setAttribute('role', 'alert');
  note.textContent = text;
  outlet.prepend(note);
}
