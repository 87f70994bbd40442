// The 3-D stage: renderer, camera (Z up), lights, the ground plane with its grid, and orbit controls.
// Renders on demand: whoever changes what is seen calls requestRender().
import * as THREE from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';

/** 1, 2 or 5 times a power of ten, at least `x`. */
function niceStep(x) {
  const p = 10 ** Math.floor(Math.log10(x));
  for (const m of [1, 2, 5, 10]) if (m * p >= x) return m * p;
  return 10 * p;
}

function addLights(scene, center, radius, shadows) {
  const sky = new THREE.HemisphereLight(0xf4f7ff, 0x80786c, 1.6);
  sky.position.set(0, 0, 1);  // the hemisphere's "up" is +Z here
  scene.add(sky);
  const sun = new THREE.DirectionalLight(0xffffff, 2.2);
  sun.position.copy(center).add(new THREE.Vector3(0.6, -1.0, 1.6).multiplyScalar(3 * radius));
  sun.target.position.copy(center);
  scene.add(sun, sun.target);
  if (shadows) {
    sun.castShadow = true;
    sun.shadow.mapSize.set(2048, 2048);
    const cam = sun.shadow.camera;
    cam.left = cam.bottom = -1.6 * radius;
    cam.right = cam.top = 1.6 * radius;
    cam.near = 0.1 * radius;
    cam.far = 8 * radius;
    sun.shadow.bias = -0.0005;
    sun.shadow.normalBias = 0.01 * radius;
  }
}

/**
 * A tile of the ground texture: ten minor cells and a major line, in the ground's colours. A texture,
 * not line geometry: it filters smoothly into the distance and needs no lines that run behind the
 * camera (which some WebGL implementations clip badly).
 */
function gridTile(renderer) {
  const px = 512;
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = px;
  const g = canvas.getContext('2d');
  g.fillStyle = '#dcd7cd';
  g.fillRect(0, 0, px, px);
  g.fillStyle = '#bfb9ae';
  for (let i = 1; i < 10; i++) {
    const at = Math.round((i * px) / 10);
    g.fillRect(at - 1, 0, 2, px);
    g.fillRect(0, at - 1, px, 2);
  }
  g.fillStyle = '#9f998e';
  g.fillRect(0, 0, 3, px);
  g.fillRect(px - 2, 0, 2, px);
  g.fillRect(0, 0, px, 3);
  g.fillRect(0, px - 2, px, 2);
  const texture = new THREE.CanvasTexture(canvas);
  texture.colorSpace = THREE.SRGBColorSpace;
  texture.wrapS = texture.wrapT = THREE.RepeatWrapping;
  texture.anisotropy = renderer.capabilities.getMaxAnisotropy();
  return texture;
}

function addGround(scene, renderer, height, center, radius) {
  const cell = niceStep(radius / 6);  // a minor grid cell (m); a tile is ten of them
  const tile = 10 * cell;
  const tiles = 2 * Math.ceil((30 * radius) / tile);
  const size = tiles * tile;
  const texture = gridTile(renderer);
  texture.repeat.set(tiles, tiles);
  const plane = new THREE.Mesh(
    new THREE.PlaneGeometry(size, size),  // lies in the xy-plane, normal +Z
    new THREE.MeshStandardMaterial({ map: texture, roughness: 0.95, metalness: 0 }),
  );
  // Whole tiles from the origin, so that grid lines fall on round coordinates.
  plane.position.set(Math.round(center.x / tile) * tile, Math.round(center.y / tile) * tile, height);
  plane.receiveShadow = true;
  scene.add(plane);
  return { plane, cell };
}

/**
 * The stage in `canvas`, framed on the sphere (center, radius) that the bodies sweep; `ground` is
 * {height} or null.
 */
export function createStage(canvas, { center, radius, ground, shadows }) {
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
  renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
  renderer.shadowMap.enabled = shadows;
  renderer.shadowMap.type = THREE.PCFShadowMap;
  const scene = new THREE.Scene();
  scene.background = new THREE.Color(0xe3e8ef);
  scene.fog = new THREE.Fog(0xe3e8ef, 8 * radius, 30 * radius);  // the ground fades into the sky

  const camera = new THREE.PerspectiveCamera(40, 1, radius / 500, radius * 2000);
  camera.up.set(0, 0, 1);
  const controls = new OrbitControls(camera, canvas);
  controls.enableDamping = true;
  controls.dampingFactor = 0.15;
  controls.screenSpacePanning = true;

  addLights(scene, center, radius, shadows);
  const floor = ground ? addGround(scene, renderer, ground.height, center, radius) : null;

  let dirty = true;
  const stage = {
    renderer, scene, camera, controls, floor,
    requestRender() { dirty = true; },
    /** Looks at the bodies from the front right, a little above. */
    frame() {
      const distance = (1.15 * radius) / Math.sin(THREE.MathUtils.degToRad(camera.fov / 2));
      const target = center.clone();
      if (ground) target.z = Math.max(target.z, ground.height);
      camera.position.copy(target).add(new THREE.Vector3(0.55, -1.0, 0.5).normalize().multiplyScalar(distance));
      controls.target.copy(target);
      controls.update();
      dirty = true;
    },
    resize() {
      const w = canvas.clientWidth;
      const h = canvas.clientHeight;
      if (w === 0 || h === 0) return;
      renderer.setSize(w, h, false);
      camera.aspect = w / h;
      camera.updateProjectionMatrix();
      dirty = true;
    },
    render() {
      renderer.render(scene, camera);
      dirty = false;
    },
    /** Called every animation frame: renders when something changed. */
    tick() {
      if (controls.update()) dirty = true;
      if (dirty) stage.render();
    },
  };
  controls.addEventListener('change', () => { dirty = true; });
  new ResizeObserver(() => stage.resize()).observe(canvas);
  stage.resize();
  stage.frame();
  return stage;
}
