/**
 * A friend game's chat (templates/_chat.html): the log is read again when the game's event
 * stream says a message was added (live.js dispatches `tabletop:chat`, and on every
 * (re)connection, for what was said meanwhile), scrolled to the newest message when one
 * arrives, and the line written in is emptied once its message is sent (onSend). The
 * mute is this browser's (localStorage): a muted chat is neither shown nor read.
 */
const MUTED_KEY = 'tabletop.chat.muted';

function muted() {
  try {
    return localStorage.getItem(MUTED_KEY) === 'on';
  } catch {
    return false;
  }
}

let newest = null; // the id of the newest message shown, to scroll only when one arrives

function apply() {
  const box = document.querySelector('.chat[data-chat]');
  if (!box) return;
  const off = muted();
  box.classList.toggle('chat--muted', off);
  const button = box.querySelector('[data-chat-mute]');
  button.setAttribute('aria-pressed', String(off));
  button.textContent = off ? 'Unmute chat' : 'Mute chat';
  const log = box.querySelector('.chat-log');
  const last = log.querySelector('[data-chat-id]:last-child');
  const id = last ? `${box.dataset.chat} ${last.dataset.chatId}` : null;
  if (id !== newest) {
    newest = id;
    log.scrollTop = log.scrollHeight;
  }
}

function reload() {
  const box = document.querySelector('.chat[data-chat]');
  if (!box || muted() || !window.htmx) return;
  window.htmx.ajax('GET', box.dataset.chat, { target: '#chat-log', swap: 'outerHTML' });
}

/**
 * A message is on its way: when its answer comes back, unless the server refused it
 * (X-Chat-Refused: the line stays, to be mended), the line is emptied — if it still holds
 * what was sent, so words typed since are kept. The answer is awaited on the request
 * itself, not through htmx's later events: when the friend's move redraws the widget
 * while the message is on its way, the answer lands in the old, detached log, and events
 * raised there never reach the document.
 */
function onSend(event) {
  const detail = event.detail || {};
  const config = detail.requestConfig;
  if (!config || !(config.elt instanceof Element) || !config.elt.matches('.chat-form')) return;
  const sent = config.formData.get('text');
  detail.xhr.addEventListener('load', () => {
    const answer = detail.xhr;
    const said = answer.status >= 200 && answer.status < 300;
    if (!said || answer.getResponseHeader('X-Chat-Refused')) return;
    const line = document.getElementById('chat-text');
    if (line && line.value === sent) line.value = '';
  });
}

export function enableChat() {
  document.addEventListener('htmx:afterSettle', apply);
  document.addEventListener('htmx:beforeRequest', onSend);
  document.addEventListener('tabletop:view', apply); // a view put in by the router
  document.addEventListener('tabletop:chat', reload);
  document.addEventListener('click', (event) => {
    const button = event.target instanceof Element ? event.target.closest('[data-chat-mute]') : null;
    if (!button) return;
    try {
      localStorage.setItem(MUTED_KEY, muted() ? 'off' : 'on');
    } catch {
      return; // no storage: the chat cannot stay muted, so it is not muted
    }
    apply();
    if (!muted()) reload();
  });
}
