// Loading a full-resolution trajectory.csv (DESIGN §4) chosen with the page's file picker, streamed
// so that a large file is parsed without holding its text: the same layout as the embedded poses.

const HEADER = 'frame,time,body,x,y,z,a00,a01,a02,a10,a11,a12,a20,a21,a22';
const MAX_POSE_BYTES = 1.5e9;  // what one Float32Array in a browser tab can reasonably hold

/** The fields of one CSV line (RFC 4180 quotes). */
function splitLine(line) {
  if (line.indexOf('"') < 0) return line.split(',');
  const fields = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (line[i] === '"') {
      for (i++; i < line.length; i++) {
        if (line[i] === '"') {
          if (line[i + 1] === '"') { field += '"'; i++; continue; }
          i++;
          break;
        }
        field += line[i];
      }
      while (i < line.length && line[i] !== ',') field += line[i++];
    } else {
      const end = line.indexOf(',', i);
      field = line.slice(i, end < 0 ? line.length : end);
      i = end < 0 ? line.length : end;
    }
    fields.push(field);
    if (i >= line.length) return fields;
    i++;
  }
}

/**
 * Parses `file` (a File) whose frames list the bodies `names` in order; onProgress(fraction) as it
 * goes. Returns {frames, poses} shaped like readRunData's, every frame kept. Throws an Error that
 * names the line on a mismatch.
 */
export async function loadTrajectoryFile(file, names, onProgress = () => {}) {
  const bodies = names.length;
  let poses = new Float32Array(Math.max(1, Math.min(4096, Math.ceil(file.size / 160 / bodies))) * bodies * 12);
  const times = [];
  let row = 0;
  let lineNumber = 0;
  let done = 0;

  const takeLine = (raw) => {
    lineNumber++;
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (lineNumber === 1) {
      if (line !== HEADER) throw new Error(`${file.name}: line 1: expected the header ${HEADER}`);
      return;
    }
    if (line === '') return;
    const fields = splitLine(line);
    const frame = Math.floor(row / bodies);
    const body = row % bodies;
    if (fields.length !== 15) throw new Error(`${file.name}: line ${lineNumber}: expected 15 fields, got ${fields.length}`);
    if (Number(fields[0]) !== frame) throw new Error(`${file.name}: line ${lineNumber}: expected frame ${frame}`);
    if (fields[2] !== names[body]) {
      throw new Error(`${file.name}: line ${lineNumber}: expected body '${names[body]}', got '${fields[2]}' (not this run's file?)`);
    }
    const base = row * 12;
    if (base + 12 > poses.length) {
      if (poses.length * 8 > MAX_POSE_BYTES) throw new Error(`${file.name}: too large to load into the page`);
      const grown = new Float32Array(poses.length * 2);
      grown.set(poses);
      poses = grown;
    }
    for (let j = 0; j < 12; j++) poses[base + j] = parseFloat(fields[3 + j]);
    if (body === 0) times.push(Number(fields[1]));
    row++;
  };

  const reader = file.stream().pipeThrough(new TextDecoderStream()).getReader();
  let carry = '';
  for (;;) {
    const { value, done: end } = await reader.read();
    if (end) break;
    done += value.length;
    const lines = (carry + value).split('\n');
    carry = lines.pop();
    for (const line of lines) takeLine(line);
    onProgress(Math.min(1, done / Math.max(1, file.size)));
  }
  if (carry !== '') takeLine(carry);

  const count = Math.floor(row / bodies);  // a trailing incomplete frame is left out
  if (count === 0) throw new Error(`${file.name}: no complete frame`);
  return {
    frames: {
      count,
      sourceCount: count,
      stride: 1,
      index: Array.from({ length: count }, (_, k) => k),
      times: Float64Array.from(times.slice(0, count)),
      budgetBytes: null,
    },
    poses: poses.slice(0, count * bodies * 12),
  };
}
