// The viewer page in headless Chromium (ctest -L viewer): runs `affix` on a small scene (a box dropping
// onto the ground), writes its page with `affix view`, opens it from file:// and checks what a person
// would see: no console or page errors, no network request, the body drawn where it projects, a
// different picture after scrubbing, a click naming the body, the plots, the full-resolution
// trajectory.csv loading through the file picker, and the layers: on a run with a joint and
// `--contacts`, the joint-anchor and contact-point toggles draw markers (and a different picture) when
// on and none when off; on the box's run, which records neither, both toggles are disabled.
//   node browser_test.mjs AFFIX NODE_MODULES OUTPUT_DIR
// Screenshots are left in OUTPUT_DIR. Chromium is Debian's (/usr/bin/chromium, scripts/install-deps.sh).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import assert from 'node:assert/strict';

const [affix, nodeModules, outputDir] = process.argv.slice(2).map((p) => path.resolve(p));
if (!outputDir) {
  console.error('usage: node browser_test.mjs AFFIX NODE_MODULES OUTPUT_DIR');
  process.exit(2);
}
const CHROMIUM = '/usr/bin/chromium';
if (!existsSync(CHROMIUM)) {
  console.error(`${CHROMIUM} not found: run scripts/install-deps.sh`);
  process.exit(1);
}
const { chromium } = createRequire(path.join(path.dirname(nodeModules), 'package.json'))('playwright-core');

const SCENE = {
  version: 1,
  settings: { dt: 0.01, duration: 0.4, output_fps: 50 },
  ground: { height: 0, friction: 0.5 },
  bodies: [{ name: 'box', shape: { box: [0.4, 0.4, 0.4] }, position: [0, 0, 0.8], rotation: { axis: [1, 1, 0], angle_deg: 25 } }],
};
const FRAMES = 21;  // 0.4 s at 50 frames per second, and frame 0

// A box hanging from the world by a ball joint, swinging, beside a crate resting on the ground.
const LAYERED_SCENE = {
  version: 1,
  settings: { dt: 0.01, duration: 0.4, output_fps: 50 },
  ground: { height: 0, friction: 0.5 },
  bodies: [
    { name: 'pendulum', shape: { box: [0.2, 0.2, 0.2] }, position: [0.6, 0, 1.0] },
    { name: 'crate', shape: { box: [0.4, 0.4, 0.4] }, position: [-0.6, 0, 0.2005] },
  ],
  joints: [{ name: 'pivot', type: 'ball', body1: 'pendulum', body2: 'world', anchor: [0, 0, 1.0] }],
};

function run(args) {
  const r = spawnSync(affix, args, { encoding: 'utf8' });
  assert.equal(r.status, 0, `affix ${args.join(' ')} failed (${r.status}):\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** Pixels of a PNG screenshot, decoded by the browser itself: {width, height, data: RGBA bytes}. */
async function decodePng(page, png) {
  const { width, height, rgba } = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    await img.decode();
    const c = new OffscreenCanvas(img.width, img.height);
    const g = c.getContext('2d');
    g.drawImage(img, 0, 0);
    const bytes = new Uint8Array(g.getImageData(0, 0, img.width, img.height).data.buffer);
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    return { width: img.width, height: img.height, rgba: btoa(binary) };
  }, png.toString('base64'));
  return { width, height, data: Buffer.from(rgba, 'base64') };
}

/** Share of pixels in a (2r+1)² square around (x, y) that are coloured (the body), not grey. */
function colouredShare(image, x, y, r = 6) {
  let coloured = 0;
  let total = 0;
  for (let j = Math.round(y) - r; j <= Math.round(y) + r; j++) {
    for (let i = Math.round(x) - r; i <= Math.round(x) + r; i++) {
      if (i < 0 || j < 0 || i >= image.width || j >= image.height) continue;
      const o = (j * image.width + i) * 4;
      const [R, G, B] = [image.data[o], image.data[o + 1], image.data[o + 2]];
      if (Math.max(R, G, B) - Math.min(R, G, B) > 30) coloured++;
      total++;
    }
  }
  return coloured / total;
}

function changedPixels(a, b) {
  let changed = 0;
  for (let i = 0; i < a.data.length; i += 4) {
    if (Math.abs(a.data[i] - b.data[i]) + Math.abs(a.data[i + 1] - b.data[i + 1]) + Math.abs(a.data[i + 2] - b.data[i + 2]) > 24) changed++;
  }
  return changed;
}

const work = mkdtempSync(path.join(tmpdir(), 'affix-viewer-test-'));
const profile = mkdtempSync(path.join(tmpdir(), 'affix-viewer-profile-'));
mkdirSync(outputDir, { recursive: true });
let context;
try {
  const sceneFile = path.join(work, 'drop_box.json');
  writeFileSync(sceneFile, JSON.stringify(SCENE));
  const runDir = path.join(work, 'run');
  run(['run', sceneFile, '--out', runDir, '--quiet']);
  const viewOut = run(['view', runDir]);
  const pageFile = path.join(runDir, 'view.html');
  assert.ok(existsSync(pageFile), `no ${pageFile}; affix view said:\n${viewOut}`);
  assert.match(viewOut, /file:\/\//);

  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--disable-gpu-sandbox', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
    viewport: { width: 1280, height: 800 },
  });
  const page = await context.newPage();
  const problems = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => { if (!/^(file|data|blob):/.test(r.url())) problems.push(`network request: ${r.url()}`); });

  await page.goto(pathToFileURL(pageFile).href);
  await page.waitForFunction(() => window.affixViewer && window.affixViewer.ready, null, { timeout: 60000 });
  assert.equal(await page.evaluate(() => window.affixViewer.frameCount), FRAMES);
  assert.equal(await page.evaluate(() => window.affixViewer.bodyCount), 1);
  assert.equal(await page.locator('#plots canvas').count(), 6, 'six statistics plots');
  assert.equal(await page.locator('#layer-joints').isDisabled(), true, 'joints toggle disabled: no joints');
  assert.equal(await page.locator('#layer-contacts').isDisabled(), true, 'contacts toggle disabled: not recorded');

  // Frame 0: the box is drawn where it projects.
  await page.evaluate(() => window.affixViewer.setFrame(0));
  const start = await page.evaluate(() => window.affixViewer.projectBody(0));
  const shot0 = await page.screenshot({ path: path.join(outputDir, 'frame_first.png') });
  const image0 = await decodePng(page, shot0);
  assert.ok(colouredShare(image0, start.x, start.y) > 0.5, `the box is not drawn at its projection ${JSON.stringify(start)}`);

  // The last frame: the box has fallen onto the ground, lower on the screen, and the picture changed.
  await page.evaluate((k) => window.affixViewer.setFrame(k), FRAMES - 1);
  const end = await page.evaluate(() => window.affixViewer.projectBody(0));
  const shot1 = await page.screenshot({ path: path.join(outputDir, 'frame_last.png') });
  const image1 = await decodePng(page, shot1);
  assert.ok(end.y > start.y + 10, `the box did not move down on screen: ${start.y} → ${end.y}`);
  assert.ok(colouredShare(image1, end.x, end.y) > 0.5, `the box is not drawn at its projection ${JSON.stringify(end)}`);
  assert.ok(changedPixels(image0, image1) > 500, 'scrubbing did not change the picture');

  // A click on the body names it and shows its state.
  await page.mouse.click(end.x, end.y);
  await page.waitForSelector('#selection:not([hidden])', { timeout: 10000 });
  const selection = await page.textContent('#selection');
  assert.match(selection, /^box/);
  assert.match(selection, /p {2}= \(/);
  await page.screenshot({ path: path.join(outputDir, 'selected.png') });

  // A page with fewer frames than the run (a tiny pose budget) loads the full trajectory.csv.
  run(['view', runDir, '--output', path.join(work, 'small.html'), '--max-pose-mb', '0.0005']);
  await page.goto(pathToFileURL(path.join(work, 'small.html')).href);
  await page.waitForFunction(() => window.affixViewer && window.affixViewer.ready);
  const decimated = await page.evaluate(() => window.affixViewer.frameCount);
  assert.ok(decimated < FRAMES, `expected a decimated page, got ${decimated} frames`);
  await page.setInputFiles('#full-trajectory', path.join(runDir, 'trajectory.csv'));
  await page.waitForFunction((n) => window.affixViewer.frameCount === n, FRAMES, { timeout: 30000 });

  // The layers: a jointed run with --contacts has both toggles, which draw when on and not when off.
  const layeredFile = path.join(work, 'layered.json');
  writeFileSync(layeredFile, JSON.stringify(LAYERED_SCENE));
  const layeredDir = path.join(work, 'layered');
  run(['run', layeredFile, '--out', layeredDir, '--quiet', '--contacts']);
  run(['view', layeredDir]);
  await page.goto(pathToFileURL(path.join(layeredDir, 'view.html')).href);
  await page.waitForFunction(() => window.affixViewer && window.affixViewer.ready);
  assert.equal(await page.locator('#layer-joints').isDisabled(), false, 'joints toggle enabled');
  assert.equal(await page.locator('#layer-contacts').isDisabled(), false, 'contacts toggle enabled');
  await page.evaluate((k) => window.affixViewer.setFrame(k), FRAMES - 1);
  const counts = () => page.evaluate(() => window.affixViewer.overlayCounts());
  assert.deepEqual(await counts(), { joints: 0, contacts: 0 }, 'nothing drawn with the toggles off');
  const plain = await decodePng(page, await page.screenshot());
  await page.check('#layer-joints');
  await page.check('#layer-contacts');
  await page.evaluate((k) => window.affixViewer.setFrame(k), FRAMES - 1);
  const on = await counts();
  assert.equal(on.joints, 2, 'one joint: its two anchors');
  assert.ok(on.contacts >= 4, `the resting crate's contacts are drawn: ${JSON.stringify(on)}`);
  const layered = await decodePng(page, await page.screenshot({ path: path.join(outputDir, 'layers.png') }));
  assert.ok(changedPixels(plain, layered) > 20, 'the layers changed nothing on screen');
  await page.uncheck('#layer-joints');
  await page.uncheck('#layer-contacts');
  assert.deepEqual(await counts(), { joints: 0, contacts: 0 }, 'nothing drawn once toggled off again');

  assert.deepEqual(problems, []);
  console.log(`viewer_browser: ok (${FRAMES} frames; screenshots in ${outputDir})`);
} finally {
  if (context) await context.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(profile, { recursive: true, force: true });
}
