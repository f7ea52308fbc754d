/**
 * The Go views: /go resumes or starts a game (options from the query, e.g. ?size=13) and
 * redirects to /go/<id>; /go/<id> shows that game as a server fragment that htmx replaces
 * after every action (and live.js when the other side moves). Start at enableGoView().
 *
 * Here too: stepping through the game record — ←/→, Home/End, the step buttons, the slider,
 * the move list and the win-rate graph — shows /go/<id>?move=N, replacing the URL (no
 * history flood; reload and back/forward keep the position) — after a click on the board as
 * well (board-keys.js lends it the arrows); P passes, asking first early in a game or on its
 * first pass; on a phone, a 13×13 or 19×19 board asks for a second tap before it plays;
 * moves made by the other side are announced to screen readers; new-game forms show Level
 * and "You play" only against the computer; a stone placed on the board clicks (sound.js),
 * unless muted with the switch; move numbers and coordinates are shown as chosen
 * (go-display.js); a ?move=N past the game's end is corrected in the URL.
 */
import { cursorHasKey } from '../board-keys.js';
import { gameViews } from '../games.js';
import { enableGoDisplay } from './go-display.js';
import { enableSound, isMuted, playStone, setMuted } from '../sound.js';
import { enableVariations, shownLine, urlLine } from './go-variations.js'; // point 10

export const { resume, game } = gameViews('go', () => {
  const move = new URL(location.href).searchParams.get('move');
  return move !== null && /^\d{1,4}$/.test(move) ? `?move=${move}${urlLine()}` : '';
});

const CONFIRM_BELOW = 600; // px of viewport width under which big boards ask twice
const CONFIRM_FROM_SIZE = 13;

function widget() {
  return document.getElementById('go-game');
}

function typing(target) {
  return target instanceof HTMLElement && Boolean(target.closest('input, select, textarea'));
}

/** Shows the position after `where` moves; "live" (or the last move, in a game still
 * being played) shows the game as it stands. */
function step(where) {
  const root = widget();
  if (!root || !window.htmx) return;
  const total = Number(root.dataset.moves);
  const playable = Boolean(root.querySelector('[data-step="live"]'));
  const n = where === 'live' ? total : Math.max(0, Math.min(total, Number(where)));
  const query = playable && n >= total ? '' : `?move=${n}${shownLine()}`;
  const id = root.dataset.gameId;
  history.replaceState(history.state, '', `/go/${id}${query}`);
  window.htmx.ajax('GET', `/ui/go/${id}${query}`, { target: '#go-game', swap: 'outerHTML' });
}

function onKey(event) {
  const root = widget();
  if (!root || event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
  if (event.key === 'p' || event.key === 'P') {
    const pass = document.getElementById('go-pass');
    if (pass && !pass.disabled) {
      event.preventDefault();
      if (passAsked) confirmPass(); else pass.click();
    }
    return;
  }
  if (event.key === 'Escape' && passAsked) {
    event.preventDefault();
    cancelPass();
    return;
  }
  const reviewing = root.hasAttribute('data-review');
  // The arrows move the cursor on a live board entered with the keyboard; clicked (a stone
  // just played), the board lends them to stepping through the game.
  if (!reviewing && cursorHasKey(event)) return;
  const current = Number(root.dataset.current);
  const total = Number(root.dataset.moves);
  const target = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: total }[event.key];
  if (target === undefined || target < 0 || target > total) return;
  event.preventDefault();
  step(target);
}

function onClick(event) {
  const target = event.target instanceof Element ? event.target.closest('[data-step]') : null;
  if (!target || !target.closest('#go-game')) return;
  event.preventDefault(); // a move-list link: step without a new history entry
  event.stopPropagation();
  step(target.dataset.step);
}

let sliding = null;
function onSlide(event) {
  const slider = event.target;
  if (!(slider instanceof HTMLInputElement) || !slider.hasAttribute('data-step-slider')) return;
  clearTimeout(sliding);
  sliding = setTimeout(() => step(slider.value), 120);
}

/** Phones, big boards: the first tap marks the point, the second (or Play) plays it. */
let pending = null;
function confirmTap(event) {
  const point = event.target instanceof Element ? event.target.closest('.go-point[hx-post]') : null;
  if (!point || !point.closest('.go-playing') || window.innerWidth >= CONFIRM_BELOW) return;
  const root = widget();
  if (!root || Number(root.dataset.size) < CONFIRM_FROM_SIZE) return;
  if (pending === point) {
    pending = null; // the second tap: let htmx play it
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (pending) pending.classList.remove('go-point--pending');
  pending = point;
  point.classList.add('go-point--pending');
  const slot = root.querySelector('[data-go-confirm-slot]') || root.querySelector('.go-notice');
  if (slot) {
    slot.className = 'go-notice go-notice--confirm';
    slot.textContent = '';
    const text = document.createElement('span');
    text.textContent = `Tap ${point.id.slice('go-point-'.length)} again to play it.`;
    const play = document.createElement('button');
    play.type = 'button';
    play.className = 'button button--small button--primary';
    play.textContent = 'Play';
    play.addEventListener('click', () => { if (pending) pending.click(); });
    slot.append(text, play);
  }
}

/**
 * A pass that could end the game too soon (early on, or the game's first pass: the server
 * puts the question in data-confirm-pass) is asked about first, in the notice line above
 * the board, whose space is reserved: the question moves nothing. Its Pass (or P again,
 * or Enter) passes; Keep playing (or Escape) puts the notice back.
 */
let passAsked = null; // { slot, game, saved: { className, role, children } } while asked
let passConfirmed = false;

function askBeforePassing(event) {
  const button = event.target instanceof Element ? event.target.closest('#go-pass') : null;
  if (!button || !button.dataset.confirmPass) return;
  if (passConfirmed) {
    passConfirmed = false; // the answer: let htmx send it
    return;
  }
  event.preventDefault();
  event.stopImmediatePropagation();
  if (!passAsked) ask(button);
}

/** Puts the question of `button` (the Pass button) in the notice line. */
function ask(button) {
  const root = widget();
  const slot = root && root.querySelector('.go-notices .go-notice');
  if (!slot) return;
  passAsked = {
    slot,
    game: root.dataset.gameId,
    saved: { className: slot.className, role: slot.getAttribute('role'), children: [...slot.childNodes] },
  };
  slot.className = 'go-notice go-notice--confirm';
  slot.setAttribute('role', 'status');
  const text = document.createElement('span');
  text.textContent = button.dataset.confirmPass;
  const yes = document.createElement('button');
  yes.type = 'button';
  yes.className = 'button button--small button--primary';
  yes.textContent = 'Pass';
  yes.dataset.passConfirm = '';
  yes.addEventListener('click', confirmPass);
  const no = document.createElement('button');
  no.type = 'button';
  no.className = 'button button--small';
  no.textContent = 'Keep playing';
  no.addEventListener('click', cancelPass);
  slot.replaceChildren(text, yes, no);
  yes.focus({ preventScroll: true });
}

/**
 * After a swap, a question still on screen stays asked (the swap was elsewhere: its answer
 * must not be lost); one whose widget was replaced (a live refresh) is asked again in the
 * new one while the same game still lets the player pass with a question; otherwise it is
 * gone with the old widget.
 */
function keepPassQuestion() {
  if (!passAsked || passAsked.slot.isConnected) return;
  const { game } = passAsked;
  passAsked = null;
  const root = widget();
  const pass = document.getElementById('go-pass');
  if (root && root.dataset.gameId === game && pass && !pass.disabled && pass.dataset.confirmPass) {
    ask(pass);
  }
}

function confirmPass() {
  const pass = document.getElementById('go-pass');
  if (!pass || pass.disabled) { // no longer the player's turn: the question goes
    cancelPass();
    return;
  }
  passAsked = null;
  passConfirmed = true;
  pass.click();
}

function cancelPass() {
  if (!passAsked) return;
  const { slot, saved } = passAsked;
  passAsked = null;
  slot.className = saved.className;
  if (saved.role) slot.setAttribute('role', saved.role); else slot.removeAttribute('role');
  slot.replaceChildren(...saved.children);
  const pass = document.getElementById('go-pass');
  if (pass) pass.focus({ preventScroll: true });
}

/** Announces the other side's move (the computer's, a friend's) after a swap. */
let seenVersion = null;
function announce() {
  keepPassQuestion();
  passConfirmed = false;
  const root = widget();
  if (!root) { seenVersion = null; return; }
  const version = Number(root.dataset.version);
  const mover = root.dataset.lastMover;
  const you = (root.dataset.you || '').split(' ').filter(Boolean);
  const newer = seenVersion !== null && version > seenVersion;
  seenVersion = version;
  pending = null;
  if (!newer || root.hasAttribute('data-review') || !root.dataset.announce) return;
  if (you.length === 2 || you.includes(mover)) return; // the viewer's own move
  const announcer = document.getElementById('announcer');
  if (announcer) announcer.textContent = root.dataset.announce;
}

/** Level and "You play" only where they apply: against the computer. Hidden fields are
 * disabled too, so that a choice no longer shown is not sent. */
function syncOpponentFields(select) {
  const form = select.closest('form');
  if (!form) return;
  for (const field of form.querySelectorAll('[data-shown-for]')) {
    const shown = field.dataset.shownFor.split(' ').includes(select.value);
    field.hidden = !shown;
    for (const control of field.querySelectorAll('select, input')) control.disabled = !shown;
  }
}

/** A stone just placed on the live board — the viewer's, the computer's, a friend's —
 * clicks. Not on a view's first render, in review, on passes, undos or marking dead. */
let seenMoves = null; // { id, moves } of the widget last seen
function soundNewStone(fresh) {
  const root = widget();
  if (!root) { seenMoves = null; return; }
  const now = { id: root.dataset.gameId, moves: Number(root.dataset.moves) };
  const before = seenMoves;
  seenMoves = now;
  if (fresh || !before || before.id !== now.id || now.moves <= before.moves) return;
  if (root.hasAttribute('data-review')) return;
  const last = root.dataset.lastMove || '';
  if (last && last !== 'pass' && last !== 'resign') playStone();
}

/** The mute switches show the remembered state (they come with every render). */
function syncMute() {
  const muted = isMuted();
  for (const button of document.querySelectorAll('[data-go-mute]')) {
    button.setAttribute('aria-pressed', String(muted));
  }
}

function onMute(event) {
  const button = event.target instanceof Element ? event.target.closest('[data-go-mute]') : null;
  if (!button) return;
  setMuted(button.getAttribute('aria-pressed') !== 'true');
  syncMute();
}

/**
 * Keeps the current move in sight in the move list (live: the last one; in review: the one
 * shown), scrolling the list alone: scrolling the page would move what the player is about
 * to click.
 */
function showCurrentMove() {
  for (const list of document.querySelectorAll('.go-moves')) {
    const current = list.querySelector('[aria-current="step"]');
    if (!current) continue;
    const item = current.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    if (item.top < box.top) list.scrollTop -= box.top - item.top + 4;
    else if (item.bottom > box.bottom) list.scrollTop += item.bottom - box.bottom + 4;
  }
}

/** A ?move=N the game does not reach (a link to move 999 of a 7-move game) is shown as the
 * position it opened at: the URL is corrected in place, as step() would have written it. */
function correctMoveInUrl() {
  const root = widget();
  const url = new URL(location.href);
  const asked = url.searchParams.get('move');
  if (!root || asked === null || url.pathname !== `/go/${root.dataset.gameId}`) return;
  const current = Number(root.dataset.current);
  const playable = Boolean(root.querySelector('[data-step="live"]'));
  const query = playable && current >= Number(root.dataset.moves) ? '' : `?move=${current}${shownLine()}`;
  if (url.search !== query) history.replaceState(history.state, '', url.pathname + query);
}

function syncAll() {
  for (const select of document.querySelectorAll('[data-opponent-choice]')) syncOpponentFields(select);
}

export function enableGoView() {
  enableSound('#go-game');
  enableGoDisplay();
  enableVariations();
  document.addEventListener('click', onMute);
  document.addEventListener('keydown', onKey);
  document.addEventListener('click', confirmTap, true);
  document.addEventListener('click', askBeforePassing, true);
  document.addEventListener('click', onClick, true);
  document.addEventListener('input', onSlide);
  document.addEventListener('change', (event) => {
    if (event.target instanceof HTMLSelectElement && event.target.hasAttribute('data-opponent-choice')) {
      syncOpponentFields(event.target);
    }
  });
  document.addEventListener('htmx:afterSettle', () => {
    syncAll(); syncMute(); announce(); soundNewStone(false); showCurrentMove();
    correctMoveInUrl();
  });
  document.addEventListener('tabletop:view', () => {
    passAsked = null; // another view: its question, if any, went with it
    seenVersion = null; syncAll(); syncMute(); announce(); soundNewStone(true);
    showCurrentMove(); correctMoveInUrl();
  });
}
