/**
 * The views that are plain server fragments: the home page and the not-found page.
 */
import { showFragment } from '../fragments.js';

export function home(context) {
  return showFragment(context, '/ui/home');
}

export function notFound(context) {
  return showFragment(context, `/ui/not-found?path=${encodeURIComponent(context.url.pathname)}`);
}
