/**
 * The knight's-tour views: /knights-tour resumes or starts a puzzle and redirects to
 * /knights-tour/<id>; /knights-tour/<id> shows it (a server fragment htmx replaces after each
 * move). The solution player animates a completion the server found ("Solve from here"):
 * Play/Pause, Step and a speed slider, drawing on the board without changing the game. Starting
 * it clears a hint the board shows and brings the board into view if it is not (a phone, whose
 * player scrolled down to the buttons); the knight moves along the drawn path (its square on
 * the player's tour keeps its number); a closed tour's closing move is drawn once complete.
 */
import { gameViews } from '../games.js';

export const { resume, game } = gameViews('knights-tour');

/** One animation at a time: the player element it draws for, and its timer. */
let running = null;

function stop() {
  if (running) clearInterval(running.timer);
  if (running) running.button.textContent = 'Play';
  running = null;
}

/** The SVG centre of square `name` ("c2") on a board `size` squares wide: rank 1 at the bottom. */
function centre(name, size) {
  return [name.charCodeAt(0) - 97 + 0.5, size - Number(name.slice(1)) + 0.5];
}

/** The board shows the solution, not advice: a hint on it (its ring, its notice) goes. */
function clearHint() {
  for (const square of document.querySelectorAll('.kt-square--hint')) {
    square.classList.remove('kt-square--hint');
    square.setAttribute('aria-label', square.getAttribute('aria-label').replace(/, hint$/, ''));
  }
  for (const notice of document.querySelectorAll('#kt-game .notice--hint')) notice.remove();
}

/** A closed tour's last move, back to its first square: drawn dashed, like a solved puzzle's. */
function drawClosing(player, last, size) {
  const to = player.dataset.closesTo;
  const svg = document.querySelector('#kt-game .kt-path');
  if (!to || !svg || svg.querySelector('.kt-closing')) return;
  const line = document.createElementNS('http://www.w3.org/2000/svg', 'line');
  line.setAttribute('class', 'kt-closing');
  const [[x1, y1], [x2, y2]] = [centre(last, size), centre(to, size)];
  for (const [key, value] of Object.entries({ x1, y1, x2, y2 })) {
    line.setAttribute(key, String(value));
  }
  svg.append(line);
}

/** The number `number` on `square`, in place of what it showed (the knight). */
function numberSquare(square, number) {
  const label = document.createElement('span');
  label.className = 'kt-number';
  label.setAttribute('aria-hidden', 'true');
  label.textContent = String(number);
  square.replaceChildren(label);
}

/** The knight goes from the square it stands on to `square` (move `number` of the solution):
 * the square it leaves shows its number, as every other square of the path does. */
function moveKnight(square, number) {
  const from = document.querySelector('#kt-game .kt-knight')?.closest('.kt-square');
  if (from) {
    const solution = from.classList.contains('kt-square--solution');
    const left = Number(from.dataset.moveNumber || 0) || number - 1;
    numberSquare(from, left);
    from.classList.remove('kt-square--current');
    if (!solution) from.classList.add('kt-square--visited');
    from.setAttribute('aria-label', `${from.dataset.square}, ${solution ? 'solution' : 'visited'}, move ${left}`);
  }
  const knight = document.createElement('span');
  knight.className = 'kt-knight';
  knight.setAttribute('aria-hidden', 'true');
  knight.textContent = '♞';
  square.replaceChildren(knight);
  square.dataset.moveNumber = String(number);
  square.setAttribute('aria-label', `${square.dataset.square}, the knight, solution, move ${number}`);
}

/** On a phone the buttons are below the board: the board comes into view (the least scroll
 * that shows it whole, smoothly unless the player asked for less motion) if it is not. */
function showBoard() {
  const board = document.querySelector('#kt-game .kt-board');
  if (!board) return;
  const box = board.getBoundingClientRect();
  const header = document.querySelector('.site-header');
  const top = header ? header.getBoundingClientRect().bottom : 0;
  if (box.top >= top - 1 && box.bottom <= window.innerHeight + 1) return;
  const still = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  board.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'nearest' });
}

/** Draws the next move of the solution; returns false when the tour is complete. */
function step(player) {
  const moves = JSON.parse(player.dataset.solution);
  const done = Number(player.dataset.shown || 0);
  if (done >= moves.length) return false;
  const square = document.getElementById(`kt-sq-${moves[done]}`);
  const line = document.getElementById('kt-path-line');
  const number = Number(player.dataset.start) + done + 1;
  if (square) {
    square.classList.remove('kt-square--legal');
    square.classList.add('kt-square--solution');
    moveKnight(square, number);
    const size = Number(square.closest('[data-board-cols]').dataset.boardCols);
    const points = line.getAttribute('points').trim();
    const point = centre(moves[done], size).join(',');
    line.setAttribute('points', points ? `${points} ${point}` : point);
    if (done + 1 === moves.length) drawClosing(player, moves[done], size);
  }
  player.dataset.shown = String(done + 1);
  const progress = player.querySelector('[data-kt-progress]');
  if (progress) {
    const total = Number(player.dataset.start) + moves.length;
    progress.textContent = done + 1 === moves.length
      ? `Tour complete: all ${total} squares.`
      : `Move ${number} of ${total}.`;
  }
  return done + 1 < moves.length;
}

function play(player, button) {
  const speed = Number(player.querySelector('[data-kt-speed]').value) || 8;
  running = { player, button, timer: setInterval(() => { if (!step(player)) stop(); }, 1000 / speed) };
  button.textContent = 'Pause';
}

export function enableSolutionPlayer() {
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-kt-action]') : null;
    if (!button) return;
    const player = button.closest('#kt-player');
    const action = button.dataset.ktAction;
    clearHint();
    if (action === 'play') {
      if (running && running.player === player) stop();
      else { stop(); showBoard(); play(player, button); }
    } else if (action === 'step') {
      if (!player.dataset.shown) showBoard(); // the first move only: later Steps stay put
      stop();
      step(player);
    }
  });
  document.addEventListener('input', (event) => {
    const slider = event.target;
    if (!(slider instanceof HTMLInputElement) || !slider.hasAttribute('data-kt-speed')) return;
    if (running) { const { player, button } = running; stop(); play(player, button); }
  });
  // A new board (a move, another page) ends any animation drawing on the old one.
  document.addEventListener('htmx:beforeSwap', (event) => {
    if (event.detail.target && event.detail.target.id === 'kt-game') stop();
  });
  window.addEventListener('popstate', stop);
}
