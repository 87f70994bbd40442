// The sphere that the bodies sweep over the run: the camera frames it, the light's shadow covers it,
// the ground grid's spacing follows its size.
import * as THREE from 'three';

/** Centre and radius covering every body's rest bounds over the `frameCount` frames of `poses`. */
export function sweptSphere(data, poses, frameCount) {
  const n = data.bodyCount;
  // The farthest corner of each rest box from the body origin: covers it whatever the rotation.
  const reach = data.meshes.map(({ bounds: b }) =>
    Math.hypot(Math.max(-b[0], b[3]), Math.max(-b[1], b[4]), Math.max(-b[2], b[5])));
  const lo = new THREE.Vector3(Infinity, Infinity, Infinity);
  const hi = new THREE.Vector3(-Infinity, -Infinity, -Infinity);
  let extent = 0;
  for (let b = 0; b < n; b++) extent = Math.max(extent, reach[data.bodyGroup[b]]);
  for (let k = 0; k < frameCount; k++) {
    for (let b = 0; b < n; b++) {
      const q = (k * n + b) * 12;
      const x = poses[q], y = poses[q + 1], z = poses[q + 2];
      if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) continue;
      if (x < lo.x) lo.x = x; if (y < lo.y) lo.y = y; if (z < lo.z) lo.z = z;
      if (x > hi.x) hi.x = x; if (y > hi.y) hi.y = y; if (z > hi.z) hi.z = z;
    }
  }
  if (lo.x > hi.x) return { center: new THREE.Vector3(), radius: Math.max(extent, 1) };
  const center = lo.clone().add(hi).multiplyScalar(0.5);
  const radius = Math.max(lo.distanceTo(hi) / 2 + extent, 1e-3);
  return { center, radius };
}
