// Minimal types for the parts of opentype.js 1.3.4 that extract.ts uses
// (the package ships no types; @types/opentype.js is not a dependency).
declare module 'opentype.js' {
  export interface PathCommandRaw {
    type: 'M' | 'L' | 'Q' | 'C' | 'Z';
    x?: number; y?: number; x1?: number; y1?: number; x2?: number; y2?: number;
  }
  export interface BoundingBox { x1: number; y1: number; x2: number; y2: number }
  export interface Path { commands: PathCommandRaw[]; getBoundingBox(): BoundingBox }
  export interface Glyph { name: string; advanceWidth: number; getPath(x: number, y: number, fontSize: number): Path }
  export interface Font { unitsPerEm: number; names: Record<string, Record<string, string>>; charToGlyph(c: string): Glyph }
  export function parse(buffer: ArrayBuffer): Font;
  const opentype: { parse: typeof parse };
  export default opentype;
}
