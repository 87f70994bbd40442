// Time: play/pause, the scrub slider, playback speed and the time readout. Playback follows the
// simulated clock (times of the kept frames), so a decimated run plays at the same speed as a full one.

const SPEEDS = [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 10];

/** The last k with times[k] ≤ t (0 when t precedes every frame). */
export function frameAt(times, t) {
  let lo = 0;
  let hi = times.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (times[mid] <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export class Timeline {
  /** elements: {play, slider, time, speed, loop}; onFrame(k) shows frame k. */
  constructor(elements, times, onFrame) {
    this.el = elements;
    this.onFrame = onFrame;
    this.playing = false;
    this.speed = 1;
    this.frame = 0;
    this.clock = 0;  // simulated time being shown while playing (s)
    this.last = null;

    for (const s of SPEEDS) {
      const option = document.createElement('option');
      option.value = String(s);
      option.textContent = `${s}×`;
      option.selected = s === 1;
      elements.speed.append(option);
    }
    elements.speed.addEventListener('change', () => { this.speed = Number(elements.speed.value); });
    elements.play.addEventListener('click', () => this.toggle());
    elements.slider.addEventListener('input', () => {
      this.pause();
      this.setFrame(Number(elements.slider.value));
    });
    window.addEventListener('keydown', (e) => {
      // Keys typed into a control (a focused button activates itself on space) are the control's.
      if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement || e.target instanceof HTMLButtonElement) return;
      if (e.code === 'Space') { e.preventDefault(); this.toggle(); }
      if (e.code === 'ArrowRight') { this.pause(); this.setFrame(this.frame + 1); }
      if (e.code === 'ArrowLeft') { this.pause(); this.setFrame(this.frame - 1); }
    });
    this.setTimes(times);
  }

  /** New frame times (after loading the full trajectory); keeps the shown time. */
  setTimes(times) {
    const t = this.times ? this.times[this.frame] : 0;
    this.times = times;
    this.el.slider.max = String(times.length - 1);
    this.setFrame(frameAt(times, t));
  }

  get frameCount() { return this.times.length; }

  setFrame(k) {
    this.frame = Math.max(0, Math.min(this.times.length - 1, Math.round(k)));
    this.clock = this.times[this.frame];
    this.el.slider.value = String(this.frame);
    const end = this.times[this.times.length - 1];
    this.el.time.textContent = `t = ${this.clock.toFixed(3)} s / ${end.toFixed(3)} s   frame ${this.frame + 1}/${this.times.length}`;
    this.onFrame(this.frame);
  }

  /** Shows the frame at simulated time t. */
  seek(t) {
    this.setFrame(frameAt(this.times, t));
  }

  play() {
    if (this.frame >= this.times.length - 1) this.setFrame(0);
    this.playing = true;
    this.last = null;
    this.el.play.textContent = '❚❚';
    this.el.play.title = 'Pause (space)';
  }

  pause() {
    this.playing = false;
    this.el.play.textContent = '▶';
    this.el.play.title = 'Play (space)';
  }

  toggle() {
    if (this.playing) this.pause();
    else this.play();
  }

  /** Advances the clock by the wall time since the last call (ms, from requestAnimationFrame). */
  tick(now) {
    if (!this.playing) return;
    if (this.last !== null) this.clock += ((now - this.last) / 1000) * this.speed;
    this.last = now;
    const end = this.times[this.times.length - 1];
    if (this.clock >= end) {
      if (this.el.loop.checked) this.clock = this.times[0] + (this.clock - end);
      else { this.clock = end; this.pause(); }
    }
    const k = frameAt(this.times, this.clock);
    if (k !== this.frame) {
      const clock = this.clock;
      this.setFrame(k);
      this.clock = clock;
    }
  }
}
