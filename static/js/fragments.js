/**
 * Loading server-rendered HTML fragments (from /ui/…) into the page and handing them
 * to htmx, which wires up their hx-* attributes.
 */

/**
 * Fetches a fragment and puts it in the outlet, unless a newer navigation won meanwhile.
 * On a full page load the server has put the first view's fragment in the outlet already
 * and named it (data-fragment, app/routes/pages.py): when that is the one asked for, it is
 * adopted as it stands, with no fetch. (It stays hidden until then, app.css; the router
 * drops the name after the first view, whatever it showed.)
 */
export async function showFragment(context, url) {
  if (context.outlet.dataset.fragment === url) {
    delete context.outlet.dataset.fragment;
    return shown(context.outlet, 200);
  }
  const response = await fetch(url, { headers: { 'HX-Request': 'true' } });
  const html = await response.text();
  if (!context.isCurrent()) return response.status;
  context.outlet.innerHTML = html;
  return shown(context.outlet, response.status);
}

/** htmx wires up the new view, and the page's modules hear of it (tabletop:view). */
function shown(outlet, status) {
  if (window.htmx) window.htmx.process(outlet);
  document.dispatchEvent(new CustomEvent('tabletop:view'));
  return status;
}

/** Query parameters as a plain object of strings. */
export function queryOptions(url) {
  return Object.fromEntries(url.searchParams.entries());
}
