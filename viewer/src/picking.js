// Clicking a body: a raycast against the instanced meshes finds the body under the pointer, and the
// selection panel shows its name and state at the shown frame (position p, rotation matrix A, time).
import * as THREE from 'three';

const CLICK_SLOP = 5;  // px the pointer may move between down and up and still be a click

/** Installs click picking on `canvas`; onPick(b) gets the body index, or -1 for empty space. */
export function installPicking(canvas, camera, bodies, onPick) {
  const raycaster = new THREE.Raycaster();
  let down = null;
  const pick = (clientX, clientY) => {
    const r = canvas.getBoundingClientRect();
    const ndc = new THREE.Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    raycaster.setFromCamera(ndc, camera);
    const hit = raycaster.intersectObjects(bodies.meshes, false)[0];
    return hit ? bodies.bodyOf(hit.object, hit.instanceId) : -1;
  };
  canvas.addEventListener('pointerdown', (e) => { down = [e.clientX, e.clientY]; });
  canvas.addEventListener('pointerup', (e) => {
    if (!down || Math.hypot(e.clientX - down[0], e.clientY - down[1]) > CLICK_SLOP) return;
    down = null;
    onPick(pick(e.clientX, e.clientY));
  });
  return pick;
}

const fmt = (v) => (Number.isFinite(v) ? v.toFixed(4).replace(/^-(0\.0+)$/, '$1') : String(v));

/** Fills `panel` with body b's state in frame k (hides it for b = -1). */
export function showBodyState(panel, data, poses, times, b, k) {
  if (b < 0) { panel.hidden = true; return; }
  const q = (k * data.bodyCount + b) * 12;
  const p = [0, 1, 2].map((i) => poses[q + i]);
  const a = [0, 1, 2].map((i) => [0, 1, 2].map((j) => poses[q + 3 + 3 * i + j]));
  panel.hidden = false;
  panel.replaceChildren();
  const title = document.createElement('div');
  title.className = 'sel-title';
  title.textContent = data.names[b];
  const meta = document.createElement('div');
  meta.className = 'sel-meta';
  meta.textContent = `body ${b}  ·  t = ${times[k].toFixed(4)} s`;
  const table = document.createElement('pre');
  table.textContent =
    `p  = (${p.map(fmt).join(', ')}) m\n` +
    `A  = | ${a[0].map(fmt).join('  ')} |\n` +
    `     | ${a[1].map(fmt).join('  ')} |\n` +
    `     | ${a[2].map(fmt).join('  ')} |`;
  panel.append(title, meta, table);
}
