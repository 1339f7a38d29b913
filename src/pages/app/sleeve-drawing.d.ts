/** Types of sleeve-drawing.js (a plain ES module the browser loads as it is), for the server's TypeScript. */
export interface ChoiceLook {
  value: string;
  color?: string | undefined;
  family?: string | undefined;
}
export interface SleevePreview {
  text?: string;
  size?: string;
  font?: string;
  thread?: string;
  color?: string | undefined;
  family?: string | undefined;
}
export function escapeXml(value: string): string;
export const FALLBACK_COLOR: string;
export function fallbackFamily(font: string): string;
export function inchesOf(size: string): number;
export function sleeveCm(inches: number): { width: number; height: number };
export function previewLabel(preview: SleevePreview): string;
export function sleevePreviewSvg(preview: SleevePreview): string;
export function choiceArt(kind: 'size' | 'font' | 'thread', choice: ChoiceLook): string;
export function choiceTileSvg(kind: 'size' | 'font' | 'thread', choice: ChoiceLook): string;
export function svgDataUrl(svg: string): string;
