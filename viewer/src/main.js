// The page's entry point: reads the embedded run, builds the stage, bodies, timeline, plots, picking
// and overlays, and wires them together. window.affixViewer is a small handle for tests and the
// console: {frameCount, bodyCount, frame, setFrame(k), projectBody(i) → {x, y} page pixels, pick(x, y),
// overlayCounts() → {joints, contacts} markers drawn}.
import * as THREE from 'three';
import { readRunData } from './data.js';
import { createStage } from './stage.js';
import { BodyInstances } from './bodies.js';
import { Timeline } from './timeline.js';
import { StatsPlots } from './plots.js';
import { installPicking, showBodyState } from './picking.js';
import { Overlays } from './overlays.js';
import { showRunInfo, showFrameNote } from './run_info.js';
import { loadTrajectoryFile } from './trajectory_csv.js';
import { sweptSphere } from './bounds.js';

const $ = (id) => document.getElementById(id);
const SHADOW_BODY_LIMIT = 2000;

function main() {
  const data = readRunData();
  document.title = `${data.scene} — affix view`;
  $('scene-name').textContent = data.scene;
  let frames = data.frames;
  let poses = data.poses;
  let selected = -1;

  const { center, radius } = sweptSphere(data, poses, frames.count);
  const shadows = data.bodyCount <= SHADOW_BODY_LIMIT;
  const stage = createStage($('view'), { center, radius, ground: data.ground, shadows });
  const bodies = new BodyInstances(stage.scene, data, { shadows });
  const overlays = new Overlays($('layers'), stage.scene, data, () => stage.requestRender(), { tick: 0.05 * radius });
  const plots = new StatsPlots($('plots'), data.stats, (t) => { timeline.pause(); timeline.seek(t); });
  showRunInfo($('run-info'), data);
  showFrameNote($('frame-note'), data, frames, null);
  if (bodies.boxBodyCount > 0) {
    $('mesh-note').textContent = `${bodies.boxBodyCount} bodies with rarely shared meshes are drawn as their bounding boxes.`;
  }

  const showFrame = (k) => {
    bodies.setFrame(poses, k);
    overlays.setFrame(poses, k, frames.index[k]);
    plots.setTime(frames.times[k]);
    showBodyState($('selection'), data, poses, frames.times, selected, k);
    stage.requestRender();
  };
  const timeline = new Timeline(
    { play: $('play'), slider: $('slider'), time: $('time'), speed: $('speed'), loop: $('loop') },
    frames.times, showFrame);

  const pick = installPicking($('view'), stage.camera, bodies, (b) => {
    selected = b;
    bodies.select(b);
    showBodyState($('selection'), data, poses, frames.times, b, timeline.frame);
    stage.requestRender();
  });
  $('reset-view').addEventListener('click', () => stage.frame());

  $('full-trajectory').addEventListener('change', async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    const status = $('load-status');
    try {
      const full = await loadTrajectoryFile(file, data.names, (f) => { status.textContent = `reading… ${Math.round(f * 100)}%`; });
      frames = full.frames;
      poses = full.poses;
      timeline.setTimes(frames.times);
      showFrameNote($('frame-note'), data, frames, file.name);
      status.textContent = '';
    } catch (err) {
      status.textContent = String(err.message ?? err);
    }
  });

  const loop = (now) => {
    timeline.tick(now);
    stage.tick();
    requestAnimationFrame(loop);
  };
  requestAnimationFrame(loop);

  window.affixViewer = {
    get frameCount() { return frames.count; },
    get frame() { return timeline.frame; },
    bodyCount: data.bodyCount,
    setFrame(k) { timeline.pause(); timeline.setFrame(k); stage.render(); },
    /** Where body i's rest-box centre appears, in page pixels. */
    projectBody(i) {
      const q = (timeline.frame * data.bodyCount + i) * 12;
      const c = bodies.restCenter(i);
      const m = new THREE.Matrix4().set(
        poses[q + 3], poses[q + 4], poses[q + 5], poses[q],
        poses[q + 6], poses[q + 7], poses[q + 8], poses[q + 1],
        poses[q + 9], poses[q + 10], poses[q + 11], poses[q + 2],
        0, 0, 0, 1);
      const ndc = c.applyMatrix4(m).project(stage.camera);
      const r = $('view').getBoundingClientRect();
      return { x: r.left + ((ndc.x + 1) / 2) * r.width, y: r.top + ((1 - ndc.y) / 2) * r.height };
    },
    pick,
    /** Joint anchors and contact points drawn now: {joints, contacts}, 0 for a layer toggled off. */
    overlayCounts() { return overlays.drawnCounts(); },
    ready: true,
  };
  timeline.setFrame(0);
  stage.render();
}

try {
  main();
} catch (err) {
  const box = $('fatal');
  box.hidden = false;
  box.textContent = `The page could not show this run: ${err.message ?? err}`;
  throw err;
}
