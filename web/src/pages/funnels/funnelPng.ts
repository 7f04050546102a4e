/** The graph «Воронка» as a PNG (§2 download menu): the bars the page shows, drawn on a canvas. */
import { funnelPercentText, type FunnelGraphStep } from '@stat/schemas/funnels';

const WIDTH = 960;
const ROW = 40;
const LABEL = 260;
const VALUE = 180;

/** Draws the funnel's steps; resolves to the PNG, or null where the browser gives no canvas. */
export function funnelPng(title: string, steps: readonly FunnelGraphStep[], withNot: boolean): Promise<Blob | null> {
  const canvas = document.createElement('canvas');
  canvas.width = WIDTH;
  canvas.height = 70 + steps.length * ROW;
  const ctx = canvas.getContext('2d');
  if (!ctx) return Promise.resolve(null);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, canvas.width, canvas.height);
  ctx.fillStyle = '#1b1d29';
  ctx.font = '600 20px sans-serif';
  ctx.fillText(title, 20, 34);
  const max = Math.max(1, ...steps.map((s) => (withNot ? s.visitorsSum : s.visitorsPrevStep)));
  const track = WIDTH - LABEL - VALUE - 40;
  steps.forEach((s, i) => {
    const y = 60 + i * ROW;
    ctx.fillStyle = '#1b1d29';
    ctx.font = '14px sans-serif';
    ctx.fillText(`${s.stepNumber}. ${s.stepTitle}`.slice(0, 32), 20, y + 18);
    ctx.fillStyle = '#f2f3fb';
    ctx.fillRect(LABEL, y, track, 24);
    const prev = (track * s.visitorsPrevStep) / max;
    ctx.fillStyle = '#3340f5';
    ctx.fillRect(LABEL, y, prev, 24);
    if (withNot) {
      ctx.fillStyle = '#9aa5ff';
      ctx.fillRect(LABEL + prev, y, (track * s.visitorsNotPrevStep) / max, 24);
    }
    ctx.fillStyle = '#1b1d29';
    ctx.textAlign = 'right';
    ctx.fillText(`${withNot ? s.visitorsSum : s.visitorsPrevStep} · ${funnelPercentText(withNot ? s.convFirstStepSum : s.convFirstStep)} %`, WIDTH - 20, y + 18);
    ctx.textAlign = 'left';
  });
  return new Promise((resolve) => canvas.toBlob((blob) => resolve(blob), 'image/png'));
}
