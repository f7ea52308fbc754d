/**
 * When a request fails, the player sees it and the page recovers by itself. Start at
 * enableTroubleShooting().
 *
 * - The server cannot be reached (down, restarting, network gone): the strip says so; the
 *   request is sent again once the server answers, and the strip goes.
 *   Sending a move twice is safe: it carries the version it was chosen on, so a repeat of
 *   one that did arrive is refused and the view shows the game as it stands.
 * - The server is restarting (503, code `shutting_down`: app/middleware.py): the same, after
 *   the Retry-After it gave; the strip says it is restarting rather than its sentence.
 * - The server refuses otherwise (4xx/5xx, where no fragment came back): the strip shows its
 *   sentence for a few seconds (a tap hides it sooner).
 * The strip is the header's `.trouble` paragraph (static/index.html), there from the start:
 * it takes the header's own space (static/css/app.css, point 8), so nothing on the page
 * moves and nothing is covered when it comes or goes.
 */

const PROBE_MS = 2000; // how often the server is asked whether it is back
const SHOWN_MS = 6000; // how long a refusal's sentence stays
const MAX_WAIT_S = 30; // the longest Retry-After heeded before asking again

let strip = null;
let hideTimer = null;

function theStrip() {
  if (!strip) {
    strip = document.querySelector('.site-header .trouble');
    if (!strip) { // a page without the header's slot: make one there
      strip = document.createElement('p');
      strip.className = 'trouble';
      strip.setAttribute('role', 'alert');
      strip.hidden = true;
      (document.querySelector('.site-header') || document.body).append(strip);
    }
    // A refusal's sentence may be tapped away; "can't be reached" stays until it is back.
    strip.addEventListener('click', () => { if (!strip.dataset.stay) strip.hidden = true; });
  }
  return strip;
}

function say(text, { stay = false } = {}) {
  const shown = theStrip();
  shown.textContent = text;
  shown.hidden = false;
  if (stay) shown.dataset.stay = 'yes';
  else delete shown.dataset.stay;
  clearTimeout(hideTimer);
  if (!stay) hideTimer = setTimeout(() => { shown.hidden = true; }, SHOWN_MS);
}

function clear() {
  if (strip) {
    strip.hidden = true;
    delete strip.dataset.stay;
  }
}

/** Resolves once the server answers again. */
export async function serverBack() {
  for (;;) {
    try {
      const response = await fetch('/ui/home', { cache: 'no-store' });
      if (response.ok) return;
    } catch {
      // still down
    }
    await new Promise((resolve) => { setTimeout(resolve, PROBE_MS); });
  }
}

/** What is sent again, in the player's words: a move is "your move". */
function whatWaits(config) {
  return /\/moves$/.test(config.path || '') ? 'your move will be sent' : 'it will be tried again';
}

let retrying = false;

/** Says why (`reason`), waits `waitMs` and then until the server answers, and sends the
 * request of `detail` again (one at a time: a second failure while waiting only updates the
 * sentence, and the request that failed first is the one sent again). */
async function resend(detail, reason, waitMs = 0) {
  const config = detail.requestConfig || {};
  const element = detail.elt;
  say(`${reason}; ${whatWaits(config)} when it's back.`, { stay: true });
  if (retrying) return;
  retrying = true;
  if (waitMs) await new Promise((resolve) => { setTimeout(resolve, waitMs); });
  await serverBack();
  retrying = false;
  clear();
  if (!element || !element.isConnected || !window.htmx) return;
  const values = config.formData ? Object.fromEntries(config.formData.entries()) : {};
  const swapHost = element.closest('[hx-swap]');
  window.htmx.ajax(config.verb || 'get', config.path, {
    source: element,
    target: config.target || undefined,
    swap: swapHost ? swapHost.getAttribute('hx-swap') : 'outerHTML',
    values,
  });
}

async function refused(detail) {
  const response = detail.xhr;
  let sentence = 'Something went wrong; nothing was changed.';
  let code = null;
  try {
    const body = JSON.parse(response.responseText);
    if (body && typeof body.detail === 'string') sentence = body.detail;
    if (body && typeof body.code === 'string') code = body.code;
  } catch {
    // not JSON: keep the general sentence
  }
  if (response.status === 503 && code === 'shutting_down') {
    const after = Number(response.getResponseHeader('Retry-After'));
    const seconds = Number.isFinite(after) && after > 0 ? Math.min(after, MAX_WAIT_S) : 0;
    resend(detail, 'The server is restarting', seconds * 1000);
    return;
  }
  say(sentence);
}

export function enableTroubleShooting() {
  document.addEventListener('htmx:sendError', (event) => {
    resend(event.detail, 'The server cannot be reached');
  });
  document.addEventListener('htmx:responseError', (event) => refused(event.detail));
  document.addEventListener('htmx:afterRequest', (event) => {
    if (event.detail.successful && !retrying) clear();
  });
}
