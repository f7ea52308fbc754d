/**
 * The views that are plain server fragments: the home page, this browser's games and the
 * not-found page.
 */
import { showFragment } from '../fragments.js';

export function home(context) {
  return showFragment(context, '/ui/home');
}

/** /games: this browser's games, ongoing first. */
export function myGames(context) {
  return showFragment(context, '/ui/games');
}

export function notFound(context) {
  return showFragment(context, `/ui/not-found?path=${encodeURIComponent(context.url.pathname)}`);
}
