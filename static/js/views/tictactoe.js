/**
 * The tic-tac-toe views: /tictactoe resumes or starts a game and redirects to its own
 * URL; /tictactoe/<id> shows that game. The game itself is a server fragment (htmx
 * replaces it after every action); the "show move values" choice is remembered here.
 */
import { gameViews } from '../games.js';

const VALUES_KEY = 'tabletop.tictactoe.values';

function valuesQuery() {
  try {
    return localStorage.getItem(VALUES_KEY) === 'on' ? '?values=on' : '';
  } catch {
    return ''; // No storage: values start hidden.
  }
}

export const { resume, game } = gameViews('tictactoe', valuesQuery);

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
