/**
 * The stone sound: a short wooden click made with the Web Audio API (no audio file, no
 * network), and its mute switch, remembered in localStorage.
 *
 * Browsers let a page make sound only after a user gesture, so the AudioContext is made on
 * the first pointer or key press in the game, never before: a move that arrives before any
 * gesture (a friend's, on a page just opened) is silent. Where Web Audio is missing,
 * blocked or fails, playStone() does nothing — it never throws and never logs.
 */

const MUTED_KEY = 'tabletop.sound.muted';

let context = null; // the AudioContext, once a gesture allowed one
let failed = false; // making one failed: don't try again
let noise = null; // the click's noise burst, made once per context

function storedMuted() {
  try {
    return localStorage.getItem(MUTED_KEY) === '1';
  } catch {
    return false; // storage refused (private modes): sound on, not remembered
  }
}

let mutedNow = storedMuted();

export function isMuted() {
  return mutedNow;
}

export function setMuted(muted) {
  try {
    if (muted) localStorage.setItem(MUTED_KEY, '1');
    else localStorage.removeItem(MUTED_KEY);
  } catch {
    // Not remembered across reloads; the switch still works on this page.
  }
  mutedNow = muted;
  if (!muted) unlock(); // called from the switch's click: a gesture
}

function quietly(promise) {
  if (promise && typeof promise.catch === 'function') promise.catch(() => {});
}

/** Called on user gestures: makes (or wakes) the AudioContext while the browser allows it. */
function unlock() {
  if (failed || mutedNow) return;
  try {
    if (!context) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) {
        failed = true;
        return;
      }
      context = new Context();
    }
    if (context.state === 'suspended') quietly(context.resume());
  } catch {
    failed = true;
    context = null;
  }
}

function noiseBuffer(audio) {
  if (noise && noise.sampleRate === audio.sampleRate) return noise;
  const length = Math.floor(audio.sampleRate * 0.045);
  noise = audio.createBuffer(1, length, audio.sampleRate);
  const samples = noise.getChannelData(0);
  for (let i = 0; i < length; i += 1) {
    samples[i] = (Math.random() * 2 - 1) * (1 - i / length) ** 4;
  }
  return noise;
}

/** A stone placed on the board: a bright click over a short low knock, about 0.12 s. */
export function playStone() {
  if (mutedNow || !context || context.state !== 'running') return;
  try {
    const now = context.currentTime;
    const click = context.createBufferSource();
    click.buffer = noiseBuffer(context);
    const band = context.createBiquadFilter();
    band.type = 'bandpass';
    band.frequency.value = 2600;
    band.Q.value = 1.1;
    const clickGain = context.createGain();
    clickGain.gain.value = 0.55;
    click.connect(band).connect(clickGain).connect(context.destination);

    const knock = context.createOscillator();
    knock.type = 'triangle';
    knock.frequency.setValueAtTime(260, now);
    knock.frequency.exponentialRampToValueAtTime(140, now + 0.08);
    const knockGain = context.createGain();
    knockGain.gain.setValueAtTime(0.0001, now);
    knockGain.gain.exponentialRampToValueAtTime(0.3, now + 0.004);
    knockGain.gain.exponentialRampToValueAtTime(0.0001, now + 0.12);
    knock.connect(knockGain).connect(context.destination);

    click.start(now);
    knock.start(now);
    knock.stop(now + 0.13);
  } catch {
    // A sound is never worth an error.
  }
}

/** Makes the AudioContext on the first gesture inside `scope` (a selector: the game that
 * makes sounds, so that other pages never make one), in the capture phase: before htmx
 * acts on it. */
export function enableSound(scope) {
  const onGesture = (event) => {
    if (event.target instanceof Element && event.target.closest(scope)) unlock();
  };
  for (const type of ['pointerdown', 'keydown']) {
    document.addEventListener(type, onGesture, { capture: true, passive: true });
  }
}
