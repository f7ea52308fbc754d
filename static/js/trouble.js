/**
 * When a request fails, the player sees it and the page recovers by itself. Start at
 * enableTroubleShooting().
 *
 * - The server cannot be reached (down, restarting, network gone): a strip at the bottom
 *   says so; the request is sent again once the server answers, and the strip goes.
 *   Sending a move twice is safe: it carries the version it was chosen on, so a repeat of
 *   one that did arrive is refused and the view shows the game as it stands.
 * - The server refuses (4xx/5xx, where no fragment came back): the strip shows its sentence.
 * The strip is fixed at the bottom of the window: nothing on the page moves for it.
 */

const PROBE_MS = 2000; // how often the server is asked whether it is back
const SHOWN_MS = 6000; // how long a refusal's sentence stays

let strip = null;
let hideTimer = null;

function say(text, { stay = false } = {}) {
  if (!strip) {
    strip = document.createElement('p');
    strip.className = 'trouble';
    strip.setAttribute('role', 'alert');
    document.body.append(strip);
  }
  strip.textContent = text;
  strip.hidden = false;
  clearTimeout(hideTimer);
  if (!stay) hideTimer = setTimeout(() => { strip.hidden = true; }, SHOWN_MS);
}

function clear() {
  if (strip) strip.hidden = true;
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

let retrying = false;

async function resend(detail) {
  const config = detail.requestConfig || {};
  const element = detail.elt;
  say('The server cannot be reached. Your last action is sent again as soon as it is back…',
    { stay: true });
  if (retrying) return;
  retrying = true;
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
  try {
    const body = JSON.parse(response.responseText);
    if (body && typeof body.detail === 'string') sentence = body.detail;
  } catch {
    // not JSON: keep the general sentence
  }
  say(sentence);
}

export function enableTroubleShooting() {
  document.addEventListener('htmx:sendError', (event) => resend(event.detail));
  document.addEventListener('htmx:responseError', (event) => refused(event.detail));
  document.addEventListener('htmx:afterRequest', (event) => {
    if (event.detail.successful && !retrying) clear();
  });
}
