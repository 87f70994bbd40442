// Optional layers over the bodies: joint anchors (joints.csv) and contact points (contacts.csv), as
// `affix view` embeds them (src/affix/viewer/view_page.hpp, records_reader.hpp):
//   joints:   [{name, body1, body2, anchor1: [x, y, z], anchor2: [x, y, z]}] — body indices (body2 -1
//             for the world), anchors in each body's rest frame (the world's for -1); the layer places
//             them with the pose shown (A·x̄ + p), so it follows every frame, those of a loaded
//             full-resolution trajectory.csv too, and links the two points: a gap is the joint's error.
//   contacts: null (not recorded: `affix run --contacts`) or per embedded frame of trajectory.csv its
//             contacts' world points and normals; the layer shows the frame's points with a short tick
//             along each normal, and nothing on a frame the page has no contacts for.
// A toggle whose run did not record its layer is disabled, with a note saying why.
import * as THREE from 'three';

const LAYERS = [
  { key: 'joints', label: 'joint anchors', color: 0xd2422d },
  { key: 'contacts', label: 'contact points', color: 0x1f9d55 },
];

function transform(poses, bodyCount, k, b, x) {
  if (b < 0) return x;
  const q = (k * bodyCount + b) * 12;
  return [0, 1, 2].map((i) => poses[q + 3 + 3 * i] * x[0] + poses[q + 4 + 3 * i] * x[1] + poses[q + 5 + 3 * i] * x[2] + poses[q + i]);
}

/** Why a layer has nothing to draw, or '' when it has. */
function absence(key, data) {
  if (key === 'joints') return data.joints.length > 0 ? '' : ' — no joints in this run';
  return data.contacts ? '' : ' — not recorded (affix run --contacts)';
}

export class Overlays {
  /** `tick`: the length of a contact's normal tick (m). */
  constructor(container, scene, data, onChange, { tick = 0.05 } = {}) {
    this.data = data;
    this.tick = tick;
    this.objects = {};
    for (const layer of LAYERS) {
      const row = document.createElement('label');
      row.className = 'toggle';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = `layer-${layer.key}`;
      const why = absence(layer.key, data);
      box.disabled = why !== '';
      const text = document.createElement('span');
      text.textContent = layer.label;
      row.append(box, text);
      const note = document.createElement('span');
      note.className = 'note';
      note.textContent = why || this.summary(layer.key);
      row.append(note);
      container.append(row);
      const points = new THREE.Points(
        new THREE.BufferGeometry(),
        new THREE.PointsMaterial({ color: layer.color, size: 8, sizeAttenuation: false, depthTest: false }),
      );
      const lines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: layer.color, depthTest: false }));
      points.renderOrder = lines.renderOrder = 10;
      points.visible = lines.visible = false;
      scene.add(points, lines);
      this.objects[layer.key] = { points, lines, box };
      box.addEventListener('change', () => {
        points.visible = lines.visible = box.checked;
        onChange();
      });
    }
    const c = data.contacts;
    this.contactsByFrame = new Map(c ? c.frames.map((f, i) => [f, [c.offsets[i], c.offsets[i + 1]]]) : []);
  }

  summary(key) {
    if (key === 'joints') {
      const { joints, jointCount } = this.data;
      return jointCount > joints.length ? ` — the first ${joints.length} of ${jointCount}` : '';
    }
    const c = this.data.contacts;
    return c.capped ? ` — at most ${c.perFrameCap} per frame shown` : '';
  }

  /** Places the layers for frame k of `poses`, which is frame `number` of trajectory.csv. */
  setFrame(poses, k, number) {
    const n = this.data.bodyCount;
    const anchors = [];
    for (const j of this.data.joints) {
      anchors.push(...transform(poses, n, k, j.body1, j.anchor1), ...transform(poses, n, k, j.body2, j.anchor2));
    }
    this.set('joints', anchors, anchors);
    const range = this.contactsByFrame.get(number);
    if (!range) {
      this.set('contacts', [], []);
      return;
    }
    const c = this.data.contacts;
    const points = c.points.subarray(3 * range[0], 3 * range[1]);
    const ticks = new Float32Array(2 * points.length);
    for (let i = 0; i < points.length; i += 3) {
      for (let d = 0; d < 3; d++) {
        ticks[2 * i + d] = points[i + d];
        ticks[2 * i + 3 + d] = points[i + d] + this.tick * c.normals[3 * range[0] + i + d];
      }
    }
    this.set('contacts', points, ticks);
  }

  set(key, points, lines) {
    const o = this.objects[key];
    o.points.geometry.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
    o.lines.geometry.setAttribute('position', new THREE.Float32BufferAttribute(lines, 3));
  }

  /** Markers drawn now per layer: its points when the toggle is on, 0 when off (for tests). */
  drawnCounts() {
    const counts = {};
    for (const [key, o] of Object.entries(this.objects)) {
      counts[key] = o.points.visible ? o.points.geometry.getAttribute('position')?.count ?? 0 : 0;
    }
    return counts;
  }
}
