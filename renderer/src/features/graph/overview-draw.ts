import { stripY, type OverviewMarks, type StripFrame } from './model/overview';

export const STRIP_WIDTH = 44;
const TRUNK_X = 14;
/** Where tip dots sit (right of the trunk, at the end of their fork's tick). */
export const TIP_X = 34;

/** Draws the strip: trunk, forks with their tips, compactions, labels, the leaf. */
export function drawStrip(canvas: HTMLCanvasElement, marks: OverviewMarks, f: StripFrame): void {
  const ctx = canvas.getContext?.('2d');
  if (!ctx) return; // no canvas (a DOM test): the marks still answer clicks
  const dpr = window.devicePixelRatio || 1;
  canvas.width = STRIP_WIDTH * dpr;
  canvas.height = f.height * dpr;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, STRIP_WIDTH, f.height);
  // Colours from CSS custom properties, resolved through `color` (light-dark() stays unresolved
  // in a custom property's own computed value).
  const colour = (name: string) => {
    canvas.style.color = `var(--ov-${name})`;
    return getComputedStyle(canvas).color || '#888';
  };
  const y = (at: number) => Math.round(stripY(f, at)) + 0.5;
  ctx.lineWidth = 1;
  ctx.strokeStyle = colour('edge');
  ctx.beginPath();
  for (const fork of marks.forks) {
    ctx.moveTo(TRUNK_X, y(fork.at));
    ctx.lineTo(TIP_X, y(fork.at));
  }
  ctx.stroke();
  ctx.fillStyle = colour('tip');
  ctx.beginPath();
  for (const fork of marks.forks) {
    const r = Math.min(4, 1.5 + Math.log2(fork.tips));
    ctx.moveTo(TIP_X + r, y(fork.at));
    ctx.arc(TIP_X, y(fork.at), r, 0, Math.PI * 2);
  }
  ctx.fill();
  ctx.strokeStyle = colour('path');
  ctx.lineWidth = 3;
  ctx.beginPath();
  ctx.moveTo(TRUNK_X, y(0));
  ctx.lineTo(TRUNK_X, y(marks.total));
  ctx.stroke();
  const diamonds = (xs: number[], x: number, r: number) => {
    ctx.beginPath();
    for (const at of xs) {
      const cy = y(at);
      ctx.moveTo(x, cy - r);
      ctx.lineTo(x + r, cy);
      ctx.lineTo(x, cy + r);
      ctx.lineTo(x - r, cy);
      ctx.closePath();
    }
    ctx.fill();
  };
  ctx.fillStyle = colour('checkpoint');
  diamonds(marks.compactions, TRUNK_X, 4);
  diamonds(marks.sideCompactions, TIP_X - 8, 3);
  ctx.fillStyle = colour('label');
  for (const at of marks.labels) ctx.fillRect(2, y(at) - 1.5, 7, 3);
  if (marks.leaf !== null) {
    ctx.fillStyle = colour('leaf');
    ctx.beginPath();
    ctx.arc(TRUNK_X, y(marks.leaf), 5, 0, Math.PI * 2);
    ctx.fill();
  }
}
