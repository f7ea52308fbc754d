/**
 * How the Go board is drawn, as the player chose: move numbers on the stones, coordinates
 * round the edge. Each switch is a button with aria-pressed (data-go-display="numbers" or
 * "coordinates", rendered with every view); the choice is remembered in localStorage and
 * kept as a class on <html> — not on the board, which htmx replaces after every move, so
 * a new board never flashes the other way before the class is put back. Start at
 * enableGoDisplay().
 */

const CHOICES = {
  numbers: { key: 'tabletop.go.numbers', shownByDefault: false, className: 'go-show-numbers' },
  coordinates: { key: 'tabletop.go.coordinates', shownByDefault: true, className: 'go-hide-coordinates' },
};

function stored(name) {
  const choice = CHOICES[name];
  try {
    const value = localStorage.getItem(choice.key);
    return value === null ? choice.shownByDefault : value === '1';
  } catch {
    return choice.shownByDefault; // storage refused (private modes): not remembered
  }
}

const shown = { numbers: stored('numbers'), coordinates: stored('coordinates') };

function apply() {
  const root = document.documentElement;
  root.classList.toggle(CHOICES.numbers.className, shown.numbers);
  root.classList.toggle(CHOICES.coordinates.className, !shown.coordinates);
  for (const button of document.querySelectorAll('[data-go-display]')) {
    button.setAttribute('aria-pressed', String(Boolean(shown[button.dataset.goDisplay])));
  }
}

function onClick(event) {
  const button = event.target instanceof Element ? event.target.closest('[data-go-display]') : null;
  const name = button && button.dataset.goDisplay;
  if (!name || !(name in CHOICES)) return;
  shown[name] = !shown[name];
  try {
    localStorage.setItem(CHOICES[name].key, shown[name] ? '1' : '0');
  } catch {
    // Not remembered across reloads; the switch still works on this page.
  }
  apply();
}

export function enableGoDisplay() {
  apply();
  document.addEventListener('click', onClick);
  // New switches come with every render: show them pressed as chosen.
  document.addEventListener('htmx:afterSettle', apply);
  document.addEventListener('tabletop:view', apply);
}
