// Sounds synthesised with Web Audio: no sound files. The mute switch and the volume are kept in
// the browser (localStorage "unokit.sound") and apply to every page. Each sound played leaves a
// User Timing mark "unokit:sound:NAME" (what the tests and the measurements read).

const KEY = "unokit.sound";
const DEFAULTS = { muted: false, volume: 0.6 };

/** @type {AudioContext | null} made at the first click or key (unlockAudio) */
let context = null;
/** @type {GainNode | null} the volume of every sound */
let master = null;

/** @typedef {{muted: boolean, volume: number}} SoundSettings the mute switch and the volume (0..1) */

/**
 * The remembered settings: {muted, volume (0..1)}.
 * @returns {SoundSettings}
 */
export function soundSettings() {
  try {
    const saved = JSON.parse(localStorage.getItem(KEY) || "null");
    if (saved && typeof saved.muted === "boolean" && typeof saved.volume === "number") {
      return { muted: saved.muted, volume: Math.min(1, Math.max(0, saved.volume)) };
    }
  } catch (err) {
    /* a damaged setting: the defaults */
  }
  return { ...DEFAULTS };
}

/**
 * Remember the settings, and apply them now.
 * @param {SoundSettings} settings
 */
export function saveSoundSettings(settings) {
  localStorage.setItem(KEY, JSON.stringify({ muted: Boolean(settings.muted), volume: Number(settings.volume) }));
  if (master) master.gain.value = settings.muted ? 0 : settings.volume;
}

/** Create the audio context (browsers allow it after the first click or key). */
export function unlockAudio() {
  if (context) {
    if (context.state === "suspended") context.resume().catch(() => {});
    return;
  }
  const Context = window.AudioContext || /** @type {any} */ (window).webkitAudioContext;
  if (!Context) return;
  try {
    context = new Context();
    master = context.createGain();
    const { muted, volume } = soundSettings();
    master.gain.value = muted ? 0 : volume;
    master.connect(context.destination);
  } catch (err) {
    context = null;
  }
}

/**
 * The audio context and the volume node, once unlockAudio made them (a sound is only played then).
 * @returns {{audio: AudioContext, out: GainNode}}
 */
function made() {
  return { audio: /** @type {AudioContext} */ (context), out: /** @type {GainNode} */ (master) };
}

for (const kind of ["pointerdown", "keydown"]) window.addEventListener(kind, unlockAudio, { capture: true });

/**
 * A tone.
 * @param {number} frequency
 * @param {number} start
 * @param {number} duration
 * @param {{type?: OscillatorType, level?: number, slide?: number | null}} [shape]
 */
function note(frequency, start, duration, { type = "sine", level = 0.3, slide = null } = {}) {
  const { audio, out } = made();
  const osc = audio.createOscillator();
  const gain = audio.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(frequency, start);
  if (slide) osc.frequency.exponentialRampToValueAtTime(slide, start + duration);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(level, start + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  osc.connect(gain).connect(out);
  osc.start(start);
  osc.stop(start + duration + 0.03);
}

/**
 * A filtered noise.
 * @param {number} start
 * @param {number} duration
 * @param {{from?: number, to?: number, level?: number, q?: number}} [shape]
 */
function noise(start, duration, { from = 2400, to = 900, level = 0.25, q = 1.2 } = {}) {
  const { audio, out } = made();
  const length = Math.ceil(audio.sampleRate * duration);
  const buffer = audio.createBuffer(1, length, audio.sampleRate);
  const data = buffer.getChannelData(0);
  let seed = 12345;
  for (let i = 0; i < length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (seed / 0x3fffffff - 1) * (1 - i / length);
  }
  const source = audio.createBufferSource();
  source.buffer = buffer;
  const filter = audio.createBiquadFilter();
  filter.type = "bandpass";
  filter.Q.value = q;
  filter.frequency.setValueAtTime(from, start);
  filter.frequency.exponentialRampToValueAtTime(to, start + duration);
  const gain = audio.createGain();
  gain.gain.setValueAtTime(level, start);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + duration);
  source.connect(filter).connect(gain).connect(out);
  source.start(start);
}

/**
 * Every sound of the table, each a few notes or a filtered noise, played at a time of the audio context.
 * @type {Record<string, (t: number) => void>}
 */
const SOUNDS = {
  play: (t) => { noise(t, 0.09, { from: 3200, to: 1200, level: 0.35 }); note(180, t, 0.08, { type: "triangle", level: 0.2 }); },
  draw: (t) => noise(t, 0.16, { from: 900, to: 2600, level: 0.22, q: 0.8 }),
  turn: (t) => { note(659, t, 0.18, { level: 0.22 }); note(880, t + 0.12, 0.28, { level: 0.22 }); },
  uno: (t) => { [523, 659, 784].forEach((f, i) => note(f, t + i * 0.07, 0.16, { type: "square", level: 0.09 })); },
  catch: (t) => note(330, t, 0.3, { type: "sawtooth", level: 0.1, slide: 160 }),
  win: (t) => { [523, 659, 784, 1047].forEach((f, i) => note(f, t + i * 0.11, i === 3 ? 0.6 : 0.2, { type: "triangle", level: 0.22 })); },
  lose: (t) => { [392, 330, 262].forEach((f, i) => note(f, t + i * 0.14, 0.22, { type: "triangle", level: 0.16 })); },
  flip: (t) => noise(t, 0.3, { from: 400, to: 3000, level: 0.2, q: 0.6 }),
  fire: (t) => { noise(t, 0.25, { from: 1800, to: 300, level: 0.4 }); note(200, t, 0.3, { type: "sawtooth", level: 0.12, slide: 70 }); },
  press: (t) => note(520, t, 0.06, { type: "square", level: 0.08 }),
};

export const SOUND_NAMES = Object.keys(SOUNDS);

/**
 * Play a sound by name, unless muted (or before the page may make sound).
 * @param {string} name
 */
export function playSound(name) {
  const { muted } = soundSettings();
  if (muted || !SOUNDS[name]) return;
  performance.mark(`unokit:sound:${name}`);
  if (!context || context.state !== "running") return;
  try {
    SOUNDS[name](context.currentTime + 0.01);
  } catch (err) {
    /* no sound: nothing to do */
  }
}
