// The run's data as `affix view` embeds it (src/affix/viewer/view_page.hpp): a JSON element
// #affix-data, and the poses in #affix-poses as base64 float32, frame-major, 12 numbers per body:
// x y z a00 a01 a02 a10 a11 a12 a20 a21 a22 (a rest point x̄ lands at A·x̄ + p).

/** The bytes of a base64 string. */
export function decodeBase64(text) {
  if (typeof Uint8Array.fromBase64 === 'function') return Uint8Array.fromBase64(text);
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

const float32 = (text) => new Float32Array(decodeBase64(text).buffer);
const float64 = (text) => new Float64Array(decodeBase64(text).buffer);
const uint32 = (text) => new Uint32Array(decodeBase64(text).buffer);

function decodeMeshes(meshes) {
  return meshes.map((m) => ({
    bodies: m.bodies,
    firstBody: m.first_body,
    bounds: m.bounds,  // rest frame: min x, y, z, max x, y, z
    vertices: m.vertices ? float32(m.vertices) : null,  // null: drawn as its bounding box
    triangles: m.triangles ? uint32(m.triangles) : null,
  }));
}

/** contacts.csv's embedded frames (view_page.hpp), or null when the run did not record contacts. */
function decodeContacts(contacts) {
  if (!contacts || typeof contacts !== 'object' || Array.isArray(contacts)) return null;
  return {
    frames: contacts.frames,    // trajectory.csv frame numbers that have contacts, increasing
    offsets: contacts.offsets,  // frame i's contacts: [offsets[i], offsets[i + 1])
    points: float32(contacts.points),    // x y z per contact, world
    normals: float32(contacts.normals),  // unit, from body2 towards body1
    forces: float32(contacts.forces),    // N
    rows: contacts.rows,
    perFrameCap: contacts.per_frame_cap,
    capped: contacts.capped,
  };
}

function decodeStats(stats) {
  const columns = {};
  for (const [name, text] of Object.entries(stats.columns)) columns[name] = float64(text);
  return { points: stats.points, stride: stats.stride, sourceRows: stats.source_rows, columns };
}

/** Everything the page shows, decoded into typed arrays. */
export function readRunData(doc = document) {
  const raw = JSON.parse(doc.getElementById('affix-data').textContent);
  const poses = float32(doc.getElementById(raw.poses.script_id).textContent.trim());
  const bodyCount = raw.bodies.count;
  const frames = {
    count: raw.frames.count,
    sourceCount: raw.frames.source_count,
    stride: raw.frames.stride,
    index: raw.frames.index,  // each kept frame's number in trajectory.csv
    times: Float64Array.from(raw.frames.times),
    budgetBytes: raw.frames.budget_bytes,
  };
  if (poses.length !== frames.count * bodyCount * 12) {
    throw new Error(`embedded poses hold ${poses.length} numbers, expected ${frames.count * bodyCount * 12}`);
  }
  return {
    scene: raw.scene,
    summary: raw.summary,
    ground: raw.ground,  // {height} or null
    bodyCount,
    names: raw.bodies.names,
    bodyGroup: Int32Array.from(raw.bodies.group),  // each body's index into meshes
    meshes: decodeMeshes(raw.meshes),
    frames,
    poses,
    stats: decodeStats(raw.stats),
    // The layers (overlays.js): joint anchors from joints.csv, contact points from contacts.csv.
    joints: Array.isArray(raw.joints) ? raw.joints : [],
    jointCount: Number.isInteger(raw.joint_count) ? raw.joint_count : 0,
    contacts: decodeContacts(raw.contacts),
  };
}
