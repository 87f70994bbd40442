// The side panel's text: what run this is (summary.json) and how much of it the page holds (the pose
// budget, decimation), with the file picker that loads the full-resolution trajectory.csv.
import { formatValue } from './plots.js';

/** Bytes for a person: kB below a megabyte. */
function formatBytes(bytes) {
  return bytes < 1e6 ? `${formatValue(bytes / 1e3)} kB` : `${formatValue(bytes / 1e6)} MB`;
}

function row(table, label, value) {
  const tr = table.insertRow();
  tr.insertCell().textContent = label;
  tr.insertCell().textContent = value;
}

export function showRunInfo(container, data) {
  const s = data.summary ?? {};
  const table = document.createElement('table');
  row(table, 'solver', s.solver ?? '—');
  row(table, 'bodies', String(data.bodyCount));
  if (s.steps !== undefined) row(table, 'steps', `${s.steps} of ${s.planned_steps ?? s.steps}`);
  if (s.simulated_time !== undefined) row(table, 'simulated', `${formatValue(s.simulated_time)} s`);
  if (s.wall_s !== undefined) row(table, 'wall time', `${formatValue(s.wall_s)} s (median ${formatValue(s.median_ms)} ms/step)`);
  if (s.min_distance !== undefined) row(table, 'min distance', s.min_distance === null ? 'none near' : `${formatValue(s.min_distance)} m`);
  row(table, 'completed', s.completed === false ? `no: ${s.error ?? ''}` : 'yes');
  container.replaceChildren(table);
}

/** The note on what the page holds; `frames` is the shown set (embedded or loaded). */
export function showFrameNote(note, data, frames, loaded) {
  const budget = data.frames.budgetBytes;
  const perFrame = data.bodyCount * 12 * 4;
  if (loaded) {
    note.textContent = `Full resolution: ${frames.count} frames loaded from ${loaded}.`;
  } else if (frames.stride > 1) {
    note.textContent =
      `${frames.count} of ${frames.sourceCount} frames embedded (one in ${frames.stride}, and the last): ` +
      `the page keeps at most ${formatBytes(budget)} of poses (${formatBytes(perFrame)} a frame). ` +
      'Load trajectory.csv for every frame:';
  } else {
    note.textContent =
      `All ${frames.count} frames embedded (${formatBytes(frames.count * perFrame)} of poses; the budget is ` +
      `${formatBytes(budget)}, beyond which every k-th frame is kept).`;
  }
}
