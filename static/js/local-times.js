/**
 * Times in the viewer's own zone. The server writes each moment in UTC, which it says
 * (it does not know the viewer's zone): <time datetime="…Z" data-local>3 Dec 2026, 14:05
 * UTC</time>. Here, once a view is in the page, each is rewritten in the browser's zone and
 * language, the UTC text kept as its tooltip; without JavaScript the UTC text stays.
 */

const FORMAT = { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' };

function localise() {
  for (const time of document.querySelectorAll('time[data-local]:not([data-localised])')) {
    const moment = new Date(time.getAttribute('datetime'));
    if (Number.isNaN(moment.getTime())) continue;
    time.title = time.textContent;
    time.textContent = moment.toLocaleString(undefined, FORMAT);
    time.dataset.localised = '';
  }
}

export function enableLocalTimes() {
  document.addEventListener('tabletop:view', localise);
  document.addEventListener('htmx:afterSettle', localise);
}
