// Line charts of the per-step statistics (stats.csv), drawn on plain canvases, with the shown time
// marked. Each chart's curve is drawn once into a cached bitmap; moving the marker only copies it.
// A click or drag on a chart seeks to that time.

const CHARTS = [
  { key: 'kinetic_energy', title: 'kinetic energy', unit: 'J' },
  { key: 'potential_energy', title: 'potential energy', unit: 'J' },
  { key: 'iterations', title: 'Newton iterations', unit: '' },
  { key: 'min_distance', title: 'min distance', unit: 'm', log: true },
  { key: 'max_joint_error', title: 'max joint error', unit: 'm' },
  { key: 'wall_ms', title: 'wall time per step', unit: 'ms' },
];
const HEIGHT = 74;  // CSS px
const PAD = { left: 46, right: 6, top: 4, bottom: 14 };
const INK = '#2b3440';
const LINE = '#2f6fbd';
const MARK = '#d2422d';

export function formatValue(v, unit = '') {
  if (!Number.isFinite(v)) return v === Infinity ? '∞' : '—';
  const a = Math.abs(v);
  const text = a !== 0 && (a >= 1e5 || a < 1e-3) ? v.toExponential(2) : Number(v.toPrecision(4)).toString();
  return unit ? `${text} ${unit}` : text;
}

/** A short axis label: three significant digits, exponential when tiny or huge. */
function formatAxis(v) {
  const a = Math.abs(v);
  if (!Number.isFinite(v)) return formatValue(v);
  return a !== 0 && (a >= 1e4 || a < 1e-2) ? v.toExponential(1) : Number(v.toPrecision(3)).toString();
}

/** The y mapping of a series: linear, or log10 when it is positive and spans over two decades. */
function yScale(values, wantLog) {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) if (Number.isFinite(v) && (!wantLog || v > 0)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (lo > hi) return null;
  const log = wantLog && lo > 0 && hi / lo > 100;
  const f = log ? Math.log10 : (v) => v;
  let a = f(lo);
  let b = f(hi);
  if (a === b) {  // a constant: centre it (only a linear scale can be constant)
    const d = Math.abs(a) * 0.1 || 1;
    a -= d;
    b += d;
    lo = a;
    hi = b;
  }
  return { lo, hi, log, map: (v) => (f(v) - a) / (b - a) };
}

class Chart {
  constructor(container, spec, time, values, onSeek) {
    this.spec = spec;
    this.time = time;
    this.values = values;
    const box = document.createElement('div');
    box.className = 'chart';
    box.innerHTML = `<div class="chart-head"><span class="chart-title"></span><span class="chart-value"></span></div>`;
    box.querySelector('.chart-title').textContent = spec.title + (spec.unit ? ` (${spec.unit})` : '');
    this.readout = box.querySelector('.chart-value');
    this.canvas = document.createElement('canvas');
    this.canvas.style.height = `${HEIGHT}px`;
    box.append(this.canvas);
    container.append(box);
    this.t0 = time.length ? Math.min(0, time[0]) : 0;  // the run starts at t = 0, before its first step
    this.t1 = time.length ? time[time.length - 1] : 1;
    if (this.t1 <= this.t0) this.t1 = this.t0 + 1;
    this.scale = yScale(values, spec.log);
    const seek = (e) => {
      const r = this.canvas.getBoundingClientRect();
      const u = (e.clientX - r.left - PAD.left) / (r.width - PAD.left - PAD.right);
      onSeek(this.t0 + Math.max(0, Math.min(1, u)) * (this.t1 - this.t0));
    };
    this.canvas.addEventListener('pointerdown', (e) => { this.canvas.setPointerCapture(e.pointerId); seek(e); });
    this.canvas.addEventListener('pointermove', (e) => { if (e.buttons & 1) seek(e); });
  }

  x(t, w) { return PAD.left + ((t - this.t0) / (this.t1 - this.t0)) * (w - PAD.left - PAD.right); }
  y(v, h) { return PAD.top + (1 - this.scale.map(v)) * (h - PAD.top - PAD.bottom); }

  /** Draws axes and curve into the cached bitmap, at the canvas's current size. */
  draw() {
    const dpr = window.devicePixelRatio || 1;
    const w = this.canvas.clientWidth;
    const h = HEIGHT;
    if (w === 0) return;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    const cache = document.createElement('canvas');
    cache.width = this.canvas.width;
    cache.height = this.canvas.height;
    const g = cache.getContext('2d');
    g.scale(dpr, dpr);
    g.font = '10px system-ui, sans-serif';
    g.fillStyle = INK;
    g.strokeStyle = '#c9ced6';
    g.lineWidth = 1;
    g.strokeRect(PAD.left + 0.5, PAD.top + 0.5, w - PAD.left - PAD.right - 1, h - PAD.top - PAD.bottom - 1);
    g.textBaseline = 'top';
    g.fillText(formatAxis(this.t0), PAD.left, h - PAD.bottom + 2);
    g.textAlign = 'right';
    g.fillText(`${formatAxis(this.t1)} s`, w - PAD.right, h - PAD.bottom + 2);
    if (!this.scale) {
      g.textAlign = 'center';
      g.fillText(this.values.length ? 'no finite values' : 'not recorded', (w + PAD.left) / 2, h / 2 - 6);
    } else {
      g.fillText(formatAxis(this.scale.hi), PAD.left - 4, PAD.top);
      g.textBaseline = 'bottom';
      g.fillText(formatAxis(this.scale.lo), PAD.left - 4, h - PAD.bottom);
      if (this.scale.log) { g.textBaseline = 'middle'; g.fillText('log', PAD.left - 4, h / 2 - 4); }
      g.strokeStyle = LINE;
      g.lineWidth = 1.25;
      g.beginPath();
      let pen = false;
      for (let i = 0; i < this.values.length; i++) {
        const v = this.values[i];
        if (!Number.isFinite(v) || (this.scale.log && v <= 0)) { pen = false; continue; }
        const px = this.x(this.time[i], w);
        const py = this.y(v, h);
        if (pen) g.lineTo(px, py);
        else g.moveTo(px, py);
        pen = true;
      }
      g.stroke();
    }
    this.cache = cache;
    this.mark(this.shown ?? this.t0);
  }

  /** Copies the cached curve and marks time t; shows the value of the step shown. */
  mark(t) {
    this.shown = t;
    if (!this.cache) return;
    const g = this.canvas.getContext('2d');
    const dpr = window.devicePixelRatio || 1;
    g.setTransform(1, 0, 0, 1, 0, 0);
    g.clearRect(0, 0, this.canvas.width, this.canvas.height);
    g.drawImage(this.cache, 0, 0);
    g.scale(dpr, dpr);
    const px = this.x(Math.max(this.t0, Math.min(this.t1, t)), this.canvas.clientWidth);
    g.strokeStyle = MARK;
    g.lineWidth = 1.5;
    g.beginPath();
    g.moveTo(px, PAD.top);
    g.lineTo(px, HEIGHT - PAD.bottom);
    g.stroke();
    // The step in effect at time t: the last one whose time is ≤ t.
    let lo = 0;
    let hi = this.time.length - 1;
    if (hi < 0 || this.time[0] > t) { this.readout.textContent = ''; return; }
    while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (this.time[mid] <= t) lo = mid; else hi = mid - 1; }
    this.readout.textContent = formatValue(this.values[lo], this.spec.unit);
  }
}

export class StatsPlots {
  constructor(container, stats, onSeek) {
    const time = stats.columns.time ?? new Float64Array(0);
    this.charts = CHARTS.map((spec) => new Chart(container, spec, time, stats.columns[spec.key] ?? new Float64Array(0), onSeek));
    if (stats.stride > 1) {
      const note = document.createElement('p');
      note.className = 'note';
      note.textContent = `${stats.sourceRows} steps shown as ${stats.points} points (each the extreme of ${stats.stride} steps).`;
      container.append(note);
    }
    new ResizeObserver(() => this.redraw()).observe(container);
  }

  redraw() { for (const c of this.charts) c.draw(); }

  setTime(t) { for (const c of this.charts) c.mark(t); }
}
