/**
 * Keyboard play on any board rendered as a grid of buttons: a board element carries
 * data-board-cols and its cells data-cell="<index>". Arrow keys move the focus (a roving
 * tabindex, so Tab enters and leaves the board in one step), Home/End jump to the row's
 * ends, Enter or Space press the cell. After htmx replaces a board, focus returns to the
 * cell that had it.
 *
 * A board that also means something by ←/→ once clicked (data-board-steps: Go, where they
 * step through the game) lends those keys (and Home/End) to its page while the board was
 * entered with the pointer; entered deliberately with the keyboard (Tab), its cursor keeps
 * them all. `cursorHasKey` says which.
 */

let refocus = null; // { board: id, cell: index } of the cell to focus after a swap
let byPointer = false; // the board holding the focus was entered by a click or tap
const LENT = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End']);

/** Whether the board's cursor takes `event`'s key (false: the page may use it). */
export function cursorHasKey(event) {
  const board = event.target instanceof Element ? event.target.closest('[data-board-cols]') : null;
  if (!board) return false;
  return !(byPointer && board.hasAttribute('data-board-steps') && LENT.has(event.key));
}

function cellsOf(board) {
  return Array.from(board.querySelectorAll('[data-cell]'));
}

function moveFocus(board, from, to) {
  const cells = cellsOf(board);
  const target = cells[to];
  if (!target) return;
  if (cells[from]) cells[from].setAttribute('tabindex', '-1');
  target.setAttribute('tabindex', '0');
  target.focus();
}

function onKeyDown(event) {
  const cell = event.target instanceof Element ? event.target.closest('[data-cell]') : null;
  const board = cell && cell.closest('[data-board-cols]');
  if (!board) return;
  if (event.key === 'Tab') { byPointer = false; return; }
  if (!cursorHasKey(event)) return;
  const cols = Number(board.dataset.boardCols);
  const count = cellsOf(board).length;
  const index = Number(cell.dataset.cell);
  const row = Math.floor(index / cols);
  const steps = {
    ArrowLeft: index % cols > 0 ? index - 1 : index,
    ArrowRight: index % cols < cols - 1 ? index + 1 : index,
    ArrowUp: index - cols >= 0 ? index - cols : index,
    ArrowDown: index + cols < count ? index + cols : index,
    Home: row * cols,
    End: row * cols + cols - 1,
  };
  if (!(event.key in steps)) return;
  event.preventDefault();
  moveFocus(board, index, steps[event.key]);
  // Moving on while a move is on its way: the new board should keep the cell moved to.
  if (refocus && refocus.board === board.id) refocus.cell = String(steps[event.key]);
}

function onBeforeRequest() {
  const active = document.activeElement;
  const board = active && active.closest && active.closest('[data-board-cols]');
  refocus = board && board.id ? { board: board.id, cell: active.dataset.cell } : null;
}

function onAfterSettle() {
  if (!refocus) return;
  const board = document.getElementById(refocus.board);
  const cell = board && board.querySelector(`[data-cell="${refocus.cell}"]`);
  refocus = null;
  if (!cell) return;
  for (const other of cellsOf(board)) other.setAttribute('tabindex', other === cell ? '0' : '-1');
  cell.focus();
}

function onPointerDown(event) {
  const onBoard = event.target instanceof Element && event.target.closest('[data-board-cols]');
  byPointer = Boolean(onBoard);
}

function onKeyUp(event) {
  // Focus that arrived on a board by Tab (from outside it) is deliberate.
  if (event.key === 'Tab') byPointer = false;
}

export function enableBoardKeys() {
  document.addEventListener('pointerdown', onPointerDown, true);
  document.addEventListener('keyup', onKeyUp, true);
  document.addEventListener('keydown', onKeyDown);
  document.addEventListener('htmx:beforeRequest', onBeforeRequest);
  document.addEventListener('htmx:afterSettle', onAfterSettle);
}
