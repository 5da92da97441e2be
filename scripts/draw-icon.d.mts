// Types of scripts/draw-icon.mjs.
export const ICON_SIZES: number[];
export function colourAt(x: number, y: number): number[] | undefined;
export function drawIcon(size: number): Buffer;
export function encodePng(size: number, pixels: Buffer): Buffer;
