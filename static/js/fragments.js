/**
 * Loading server-rendered HTML fragments (from /ui/…) into the page and handing them
 * to htmx, which wires up their hx-* attributes.
 */

/** Fetches a fragment and puts it in the outlet, unless a newer navigation won meanwhile. */
export async function showFragment(context, url) {
  const response = await fetch(url, { headers: { 'HX-Request': 'true' } });
  const html = await response.text();
  if (!context.isCurrent()) return response.status;
  context.outlet.innerHTML = html;
  if (window.htmx) window.htmx.process(context.outlet);
  document.dispatchEvent(new CustomEvent('tabletop:view'));
  return response.status;
}

/** Query parameters as a plain object of strings. */
export function queryOptions(url) {
  return Object.fromEntries(url.searchParams.entries());
}
