/**
 * The client router, in one small file. Start reading at createRouter().
 *
 * It owns the browser history: navigate() pushes an entry (or replaces one, for redirects),
 * popstate renders the entry back/forward landed on, and clicks on plain same-origin links
 * become navigate() calls. Views are async functions that fill the outlet; the router then
 * sets the title, moves focus to the view's heading, announces the change and handles scroll.
 * A view may register what to do when it is left (context.onLeave: close a live stream). A
 * view that fails says so and offers the way home; one that failed for want of the server
 * comes back by itself; a page restored from the back-forward cache is shown afresh.
 */

/** Paths the server answers itself: never rendered by the client. */
const SERVER_ONLY = /^\/(api|docs|redoc|openapi\.json|static|dist)(\/|$)/;

/** The click filter: true only for clicks the browser should not handle itself. */
function isPlainLinkClick(event, link) {
  if (event.defaultPrevented || event.button !== 0) return false;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false;
  if (link.target && link.target !== '_self') return false;
  if (link.hasAttribute('download')) return false;
  if ((link.getAttribute('rel') || '').split(/\s+/).includes('external')) return false;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || SERVER_ONLY.test(url.pathname)) return false;
  // A link to an anchor of this very page is the browser's to scroll to.
  return !(url.pathname === location.pathname && url.search === location.search && url.hash);
}

export function createRouter({ routes, notFound, outlet, announcer, siteName, serverBack }) {
  let current = 0; // increases with every render; a view that is no longer current stops
  let firstRender = true;

  function match(pathname) {
    for (const route of routes) {
      const found = route.pattern.exec(pathname);
      if (found) return { view: route.view, params: found.groups || {} };
    }
    return { view: notFound, params: {} };
  }

  let leaving = []; // what the current view asked to run when it is left (onLeave)

  async function render({ scrollY = 0 } = {}) {
    const token = ++current;
    for (const leave of leaving.splice(0)) leave();
    const url = new URL(location.href);
    const { view, params } = match(url.pathname);
    const context = {
      url, params, outlet, router, isCurrent: () => token === current,
      onLeave: (leave) => (token === current ? leaving.push(leave) : leave()),
    };
    try {
      await view(context);
    } catch (error) {
      if (token !== current) return;
      showTrouble(error);
      // A network failure heals by itself: show the view again once the server answers.
      if (error instanceof TypeError) serverBack().then(() => { if (token === current) render(); });
    }
    if (token !== current) return; // a redirect or a newer navigation took over
    delete outlet.dataset.fragment; // what the server served, if this view did not adopt it
    const root = outlet.querySelector('[data-title]');
    const title = root ? root.dataset.title : outlet.querySelector('h1')?.textContent || '';
    document.title = title ? `${title} · ${siteName}` : siteName;
    if (!firstRender) {
      const heading = outlet.querySelector('h1');
      if (heading) {
        if (!heading.hasAttribute('tabindex')) heading.setAttribute('tabindex', '-1');
        heading.focus({ preventScroll: true });
      }
      announcer.textContent = `${title || siteName} page loaded`;
    }
    firstRender = false;
    window.scrollTo(0, scrollY);
  }

  /** The view could not be shown: say why, offer the way home. */
  function showTrouble(error) {
    outlet.innerHTML = '';
    const tooFast = error && error.status === 429;
    const heading = document.createElement('h1');
    heading.textContent = tooFast ? 'Too many new games at once' : 'Something went wrong';
    const message = document.createElement('p');
    message.textContent = error instanceof TypeError
      ? 'The server cannot be reached. This page comes back by itself as soon as it answers.'
      : String(error && error.message ? error.message : error);
    const home = document.createElement('p');
    const link = document.createElement('a');
    link.href = '/';
    link.className = 'button button--primary';
    link.textContent = 'Back to the games';
    home.append(link);
    if (tooFast) { // the games this browser has are a click away
      const mine = document.createElement('a');
      mine.href = '/games';
      mine.className = 'button';
      mine.textContent = 'My games';
      home.append(' ', mine);
    }
    outlet.append(heading, message, home);
  }

  /** Saves this entry's scroll position, so back/forward can restore it. */
  function rememberScroll() {
    history.replaceState({ ...(history.state || {}), scrollY: window.scrollY }, '');
  }

  function navigate(path, { replace = false } = {}) {
    if (replace) {
      history.replaceState({ scrollY: 0 }, '', path);
    } else {
      rememberScroll();
      history.pushState({ scrollY: 0 }, '', path);
    }
    return render();
  }

  function onClick(event) {
    const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!link || !isPlainLinkClick(event, link)) return;
    event.preventDefault();
    const url = new URL(link.href, location.href);
    const path = url.pathname + url.search + url.hash;
    if (path === location.pathname + location.search + location.hash) return;
    navigate(path);
  }

  function onPopState(event) {
    render({ scrollY: (event.state && event.state.scrollY) || 0 });
  }

  function start() {
    history.scrollRestoration = 'manual';
    document.addEventListener('click', onClick);
    window.addEventListener('popstate', onPopState);
    // Leaving the site closes the live streams (the page may then be kept in the
    // back-forward cache); coming back from that cache shows the view as it stands now.
    window.addEventListener('pagehide', () => { for (const leave of leaving.splice(0)) leave(); });
    window.addEventListener('pageshow', (event) => { if (event.persisted) render({ scrollY: window.scrollY }); });
    // Server fragments ask for a navigation with an HX-Trigger header (e.g. "new game").
    document.body.addEventListener('tabletop:navigate', (event) => navigate(event.detail.path));
    return render();
  }

  const router = { navigate, start };
  return router;
}
