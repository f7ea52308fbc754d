/**
 * Live games in the browser. Start at watchGame(): a game view calls it with its outlet,
 * and it opens the game's event stream (Server-Sent Events, GET /api/games/<id>/events).
 *
 * - A `game` event carries a new version: when it is newer than the one on screen, the
 *   widget is fetched again (its [data-refresh] URL) and swapped by htmx — unless a request
 *   of the player's own is under way, whose answer may already be that version.
 * - `presence` updates "N watching"; a dropped stream shows "Reconnecting…" (a fixed strip:
 *   nothing on the page moves) and recovers by itself, after a server restart too — the
 *   browser sends Last-Event-ID and the server replays what was missed.
 * - The clocks tick here between renders (byo-yomi's periods and Canadian blocks too: see
 *   clockFace); the server decides when time is up.
 * - A rematch that starts while a seated player looks at the game opens it; a `chat` event
 *   (a message was added) has chat.js read the chat again.
 * - The returned function closes the stream; the router calls it when the view is left.
 */

const RETRY_MS = 2000; // after the server refused the stream itself (404, 5xx)
const TICK_MS = 200; // clock display refresh

let status = null; // the "Reconnecting…" strip, made on first use

function showReconnecting(on) {
  if (!status) {
    status = document.createElement('p');
    status.className = 'live-status';
    status.setAttribute('role', 'status');
    status.textContent = 'Reconnecting…';
    document.body.append(status);
  }
  status.hidden = !on;
}

function widgetOf(outlet) {
  return outlet.querySelector('[data-live]');
}

function busy(widget) {
  return Boolean(widget.querySelector('.htmx-request') || widget.classList.contains('htmx-request'));
}

/** Fetches the widget again if the stream has seen a newer version than the screen. */
function refresh(outlet, state) {
  const widget = widgetOf(outlet);
  if (!widget || !window.htmx) return;
  if (Number(widget.dataset.version) >= state.newest) return;
  if (busy(widget) || state.fetching) {
    state.again = true;
    return;
  }
  state.fetching = true;
  window.htmx
    .ajax('GET', widget.dataset.refresh, { target: `#${widget.id}`, swap: 'outerHTML' })
    .finally(() => {
      state.fetching = false;
      if (state.again) {
        state.again = false;
        refresh(outlet, state);
      }
    });
}

/** The path of the rematch a seated player is to follow, once it has started. */
function rematchOf(outlet) {
  const box = outlet.querySelector('[data-rematch-follow]');
  return box ? box.dataset.rematch : null;
}

function clockText(seconds) {
  const whole = Math.floor(seconds);
  return seconds < 10
    ? `0:${seconds.toFixed(1).padStart(4, '0')}`
    : `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, '0')}`;
}

/**
 * What a clock shows and says `elapsed` seconds after its render: main time, then byo-yomi's
 * periods (each move's period full again; one outlasted is used up) or the Canadian block.
 * The same readings as app/routes/ui.py clock_face. Returns [text, spoken, seconds shown].
 */
function clockFace(data, elapsed) {
  const main = Number(data.clock);
  const left = Math.max(0, main - elapsed);
  const past = Math.max(0, elapsed - main); // seconds into the periods or the block
  const system = data.clockSystem || 'fischer';
  if (system === 'byoyomi') {
    const period = Number(data.clockPeriod);
    let periods = Number(data.clockPeriods);
    if (left > 0) {
      return [`${clockText(left)} + ${periods}×${period}s`,
        `${clockText(left)} of main time, then ${periods} × ${period} seconds`, left];
    }
    let seconds = Number(data.clockOvertime) - past;
    while (seconds <= 0 && periods > 0) { // this period ran out: the next one starts
      periods -= 1;
      seconds += period;
    }
    if (periods <= 0) return [clockText(0), 'out of time', 0];
    return [`${clockText(seconds)} (${periods}×${period}s)`,
      `byo-yomi, ${clockText(seconds)} of this period, ${periods} period${periods === 1 ? '' : 's'} of ${period} seconds left`,
      seconds];
  }
  if (system === 'canadian') {
    const block = clockText(Number(data.clockBlock));
    if (left > 0) {
      return [`${clockText(left)} + ${data.clockStones}/${block}`,
        `${clockText(left)} of main time, then ${data.clockStones} moves in every ${block}`, left];
    }
    const seconds = Math.max(0, Number(data.clockOvertime) - past);
    const moves = `${data.clockStonesLeft} move${data.clockStonesLeft === '1' ? '' : 's'}`;
    return [`${clockText(seconds)} / ${moves}`,
      `Canadian time, ${clockText(seconds)} for ${moves}`, seconds];
  }
  return [clockText(left), clockText(left), left];
}

function tickClocks(outlet) {
  const now = performance.now();
  for (const clock of outlet.querySelectorAll('[data-clock]')) {
    if (!clock.dataset.clockAt) clock.dataset.clockAt = String(now);
    if (!clock.hasAttribute('data-clock-running')) continue;
    const elapsed = (now - Number(clock.dataset.clockAt)) / 1000;
    const [text, spoken, seconds] = clockFace(clock.dataset, elapsed);
    clock.textContent = text;
    clock.setAttribute('aria-label', `${clock.dataset.clockName}'s clock: ${spoken}`);
    clock.classList.toggle('clock--low', seconds < 10);
  }
}

/** Watches the game shown in `outlet`; returns the function that stops watching. */
export function watchGame(outlet) {
  const widget = widgetOf(outlet);
  if (!widget || typeof EventSource === 'undefined') return () => {};
  const url = widget.dataset.live;
  const state = { newest: Number(widget.dataset.version), fetching: false, again: false };
  let source = null;
  let retry = null;
  let closed = false;

  // A rematch that starts while a seated player looks at this game takes them to it (once:
  // coming Back to this game later shows its link and stays).
  let rematch = rematchOf(outlet);
  const onSettle = () => {
    const started = rematchOf(outlet);
    if (started && started !== rematch) {
      rematch = started;
      document.body.dispatchEvent(new CustomEvent('tabletop:navigate', { detail: { path: started } }));
      return;
    }
    refresh(outlet, state);
  };
  document.addEventListener('htmx:afterSettle', onSettle);
  const ticker = setInterval(() => tickClocks(outlet), TICK_MS);

  function open() {
    source = new EventSource(url);
    source.addEventListener('open', () => {
      showReconnecting(false);
      document.dispatchEvent(new CustomEvent('tabletop:chat')); // what was said meanwhile
    });
    source.addEventListener('chat', () => document.dispatchEvent(new CustomEvent('tabletop:chat')));
    source.addEventListener('game', (event) => {
      state.newest = Math.max(state.newest, Number(event.lastEventId));
      refresh(outlet, state);
    });
    source.addEventListener('presence', (event) => {
      const { watching } = JSON.parse(event.data);
      for (const count of outlet.querySelectorAll('[data-watching]')) {
        count.textContent = `${watching} watching`;
      }
    });
    source.addEventListener('error', () => {
      if (closed) return;
      showReconnecting(true);
      if (source.readyState === EventSource.CLOSED) {
        // The server refused the stream (e.g. while restarting): try again ourselves.
        source = null;
        retry = setTimeout(open, RETRY_MS);
      }
    });
  }

  open();
  return () => {
    closed = true;
    if (source) source.close();
    clearTimeout(retry);
    clearInterval(ticker);
    document.removeEventListener('htmx:afterSettle', onSettle);
    showReconnecting(false);
  };
}

/** Copy buttons ([data-copy]="#input") copy their input's text: the invitation link. */
export function enableCopyButtons() {
  document.addEventListener('click', async (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-copy]') : null;
    if (!button) return;
    const input = document.querySelector(button.dataset.copy);
    if (!input) return;
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select(); // no clipboard access: leave the link selected for Ctrl+C
      return;
    }
    button.textContent = 'Copied';
    setTimeout(() => { button.textContent = 'Copy'; }, 2000);
  });
}
