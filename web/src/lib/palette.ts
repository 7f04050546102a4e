/**
 * Line colours of graphs (spec 001 §9: a palette of 12 colours, and a short one of 6). The first is
 * the product's accent. Chosen to stay apart from each other on white and for common colour
 * blindness when read in order.
 */
const PALETTE: readonly string[] = [
  '#313EFB', '#FF8A3D', '#12A594', '#E5484D', '#8E4EC6', '#F5B800',
  '#0091FF', '#46A758', '#D6409F', '#6E7891', '#A0632B', '#00A2C7',
];

/** Colour number `index`, cycling through the palette. */
export function paletteColor(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length] ?? '#313EFB';
}

/**
 * The colour of a pie's «Прочее» (the rows not drawn): a light grey outside the palette, so that
 * the rest never looks like one more row.
 */
export const OTHER_COLOR = '#C9CDD6';

/** `#RRGGBB` with an alpha 0..1 as `rgba()`. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}

/**
 * The 36 preset colours of the counter and its widget (spec 000 §9: default #313EFB, 36 preset
 * logo colours): six hues in six shades, all dark enough for white text.
 */
export const COUNTER_COLORS: readonly string[] = [
  '#313EFB', '#1F2BE0', '#4F5BFF', '#2A3080', '#5B6CD6', '#7A5AF8',
  '#0B6BCB', '#0091FF', '#0A7EA4', '#00738A', '#12A594', '#0E7C66',
  '#2F8F3A', '#46A758', '#5C7C1E', '#8A6D00', '#B06800', '#C2410C',
  '#E5484D', '#C0262D', '#A61E4D', '#D6409F', '#9D2F8F', '#8E4EC6',
  '#6E3FC2', '#5E4B8B', '#4A4E69', '#6E7891', '#3F4A5A', '#23263A',
  '#A0632B', '#7C4A1E', '#8B5E3C', '#5F6B3A', '#35605A', '#1D4E89',
];
