/**
 * Line colours of graphs (spec 001 §9: a palette of 12 colours, and a short one of 6). The first is
 * the product's accent. Chosen to stay apart from each other on white and for common colour
 * blindness when read in order.
 */
export const PALETTE: readonly string[] = [
  '#313EFB', '#FF8A3D', '#12A594', '#E5484D', '#8E4EC6', '#F5B800',
  '#0091FF', '#46A758', '#D6409F', '#6E7891', '#A0632B', '#00A2C7',
];

/** The short palette, for small widgets. */
export const PALETTE_SHORT: readonly string[] = PALETTE.slice(0, 6);

/** Colour number `index`, cycling through the palette. */
export function paletteColor(index: number): string {
  return PALETTE[((index % PALETTE.length) + PALETTE.length) % PALETTE.length] ?? '#313EFB';
}

/** `#RRGGBB` with an alpha 0..1 as `rgba()`. */
export function withAlpha(hex: string, alpha: number): string {
  const n = Number.parseInt(hex.slice(1), 16);
  return `rgba(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255}, ${alpha})`;
}
