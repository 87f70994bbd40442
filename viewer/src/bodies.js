// The bodies, drawn with one THREE.InstancedMesh per distinct rest mesh (mesh groups, see
// src/affix/viewer/mesh_groups.hpp), plus one of a unit box for the bodies whose meshes were not
// embedded (each scaled to its rest bounding box). setFrame writes every instance matrix straight
// from the pose array: M = [A p; 0 1] (times the box's placement for box bodies).
import * as THREE from 'three';
import { toCreasedNormals } from 'three/addons/utils/BufferGeometryUtils.js';

const CREASE = THREE.MathUtils.degToRad(35);  // sharper edges than this keep flat normals
const SELECTED = new THREE.Color(0xffd21f);

function bodyColor(b) {
  return new THREE.Color().setHSL((0.58 + b * 0.618034) % 1, 0.5, 0.56, THREE.SRGBColorSpace);
}

function meshGeometry(mesh) {
  const geometry = new THREE.BufferGeometry();
  geometry.setAttribute('position', new THREE.BufferAttribute(mesh.vertices, 3));
  geometry.setIndex(new THREE.BufferAttribute(mesh.triangles, 1));
  return toCreasedNormals(geometry, CREASE);
}

export class BodyInstances {
  constructor(scene, data, { shadows }) {
    this.bodyCount = data.bodyCount;
    this.meshes = [];                                  // the InstancedMeshes
    this.bodyMesh = new Int32Array(data.bodyCount);    // body → index into this.meshes
    this.bodyInstance = new Int32Array(data.bodyCount);
    this.instanceBody = [];                            // per mesh: instance → body
    this.box = null;                                   // per body: [cx, cy, cz, sx, sy, sz] or null
    this.selected = -1;

    const material = new THREE.MeshStandardMaterial({ color: 0xffffff, roughness: 0.55, metalness: 0.05 });
    const members = data.meshes.map(() => []);
    for (let b = 0; b < data.bodyCount; b++) members[data.bodyGroup[b]].push(b);

    const makeInstanced = (geometry, bodies) => {
      const mesh = new THREE.InstancedMesh(geometry, material, bodies.length);
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      mesh.frustumCulled = false;  // instances move; the mesh's own bounds would be stale
      mesh.castShadow = mesh.receiveShadow = shadows;
      const index = this.meshes.length;
      bodies.forEach((b, i) => {
        this.bodyMesh[b] = index;
        this.bodyInstance[b] = i;
        mesh.setColorAt(i, bodyColor(b));
      });
      this.meshes.push(mesh);
      this.instanceBody.push(Int32Array.from(bodies));
      scene.add(mesh);
    };

    const boxBodies = [];
    data.meshes.forEach((group, g) => {
      if (group.vertices) makeInstanced(meshGeometry(group), members[g]);
      else boxBodies.push(...members[g]);
    });
    if (boxBodies.length > 0) {
      this.box = new Array(data.bodyCount).fill(null);
      for (const b of boxBodies) {
        const [x0, y0, z0, x1, y1, z1] = data.meshes[data.bodyGroup[b]].bounds;
        this.box[b] = [(x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2, x1 - x0, y1 - y0, z1 - z0];
      }
      makeInstanced(new THREE.BoxGeometry(1, 1, 1), boxBodies);
    }
    this.boxBodyCount = boxBodies.length;
    this.bounds = data.meshes.map((m) => m.bounds);
    this.bodyGroup = data.bodyGroup;
  }

  /** Shows frame k of `poses` (frame-major, 12 per body). */
  setFrame(poses, k) {
    const n = this.bodyCount;
    for (let b = 0; b < n; b++) {
      const q = (k * n + b) * 12;
      const m = this.meshes[this.bodyMesh[b]].instanceMatrix.array;
      const o = this.bodyInstance[b] * 16;
      // Column-major: column j holds A's column j (a0j, a1j, a2j).
      let a00 = poses[q + 3], a01 = poses[q + 4], a02 = poses[q + 5];
      let a10 = poses[q + 6], a11 = poses[q + 7], a12 = poses[q + 8];
      let a20 = poses[q + 9], a21 = poses[q + 10], a22 = poses[q + 11];
      let tx = poses[q], ty = poses[q + 1], tz = poses[q + 2];
      const box = this.box && this.box[b];
      if (box) {  // M = [A p] · [S c]: the unit box scaled to the rest bounds, then posed
        tx += a00 * box[0] + a01 * box[1] + a02 * box[2];
        ty += a10 * box[0] + a11 * box[1] + a12 * box[2];
        tz += a20 * box[0] + a21 * box[1] + a22 * box[2];
        a00 *= box[3]; a10 *= box[3]; a20 *= box[3];
        a01 *= box[4]; a11 *= box[4]; a21 *= box[4];
        a02 *= box[5]; a12 *= box[5]; a22 *= box[5];
      }
      m[o] = a00; m[o + 1] = a10; m[o + 2] = a20; m[o + 3] = 0;
      m[o + 4] = a01; m[o + 5] = a11; m[o + 6] = a21; m[o + 7] = 0;
      m[o + 8] = a02; m[o + 9] = a12; m[o + 10] = a22; m[o + 11] = 0;
      m[o + 12] = tx; m[o + 13] = ty; m[o + 14] = tz; m[o + 15] = 1;
    }
    for (const mesh of this.meshes) {
      mesh.instanceMatrix.needsUpdate = true;
      mesh.boundingSphere = null;  // recomputed when a click raycasts
      mesh.boundingBox = null;
    }
  }

  /** The body hit by a raycast intersection, or -1. */
  bodyOf(object, instanceId) {
    const index = this.meshes.indexOf(object);
    return index < 0 || instanceId === undefined ? -1 : this.instanceBody[index][instanceId];
  }

  /** Centre of body b's rest bounding box, in its rest frame. */
  restCenter(b) {
    const [x0, y0, z0, x1, y1, z1] = this.bounds[this.bodyGroup[b]];
    return new THREE.Vector3((x0 + x1) / 2, (y0 + y1) / 2, (z0 + z1) / 2);
  }

  /** Marks body b (or none: -1) in a highlight colour. */
  select(b) {
    const paint = (body, color) => {
      const mesh = this.meshes[this.bodyMesh[body]];
      mesh.setColorAt(this.bodyInstance[body], color);
      mesh.instanceColor.needsUpdate = true;
    };
    if (this.selected >= 0) paint(this.selected, bodyColor(this.selected));
    this.selected = b;
    if (b >= 0) paint(b, SELECTED);
  }
}
