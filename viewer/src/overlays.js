// Optional layers over the bodies: joint anchors and contact points. The run output does not record
// them yet; the page shows their toggles disabled with a note, and draws them as soon as the embedded
// data carries them (a later `affix view` fills data.joints / data.contacts):
//   joints:   [{name, body1, body2, anchor1: [x, y, z], anchor2: [x, y, z]}] — body indices (body2 -1
//             for the world), anchors in each body's rest frame (the world's for -1); the page places
//             them with the body's pose (A·x̄ + p) and links the two points.
//   contacts: [{frame, points: [x0, y0, z0, x1, ...]}] — world points, frame = the frame's number in
//             trajectory.csv (shown when that frame is).
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

export class Overlays {
  constructor(container, scene, data, onChange) {
    this.data = data;
    this.objects = {};
    for (const layer of LAYERS) {
      const items = data[layer.key];
      const row = document.createElement('label');
      row.className = 'toggle';
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.id = `layer-${layer.key}`;
      box.disabled = items.length === 0;
      const text = document.createElement('span');
      text.textContent = layer.label;
      row.append(box, text);
      if (box.disabled) {
        const note = document.createElement('span');
        note.className = 'note';
        note.textContent = ' — not recorded in this run';
        row.append(note);
      }
      container.append(row);
      const points = new THREE.Points(
        new THREE.BufferGeometry(),
        new THREE.PointsMaterial({ color: layer.color, size: 8, sizeAttenuation: false, depthTest: false }),
      );
      const lines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: layer.color, depthTest: false }));
      points.renderOrder = lines.renderOrder = 10;
      points.visible = lines.visible = false;
      scene.add(points, lines);
      this.objects[layer.key] = { points, lines };
      box.addEventListener('change', () => {
        points.visible = lines.visible = box.checked;
        onChange();
      });
    }
    this.contactsByFrame = new Map(data.contacts.map((c) => [c.frame, c.points]));
  }

  /** Places the layers for frame k of `poses`, which is frame `number` of trajectory.csv. */
  setFrame(poses, k, number) {
    const n = this.data.bodyCount;
    const anchors = [];
    const links = [];
    for (const j of this.data.joints) {
      const a = transform(poses, n, k, j.body1, j.anchor1);
      const b = transform(poses, n, k, j.body2, j.anchor2);
      anchors.push(...a, ...b);
      links.push(...a, ...b);
    }
    this.set('joints', anchors, links);
    this.set('contacts', this.contactsByFrame.get(number) ?? [], []);
  }

  set(key, points, lines) {
    const o = this.objects[key];
    o.points.geometry.setAttribute('position', new THREE.Float32BufferAttribute(points, 3));
    o.lines.geometry.setAttribute('position', new THREE.Float32BufferAttribute(lines, 3));
  }
}
