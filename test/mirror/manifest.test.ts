// The manifest format: sha256sum's lines, UTF-8 byte order of names, errors with a line number.
import { describe, expect, it } from 'vitest';
import { byPathBytes, manifestLine, parseManifest, printManifest } from '../../generator/mirror/manifest.ts';

describe('byPathBytes', () => {
  const names = ['a', 'a-b', 'a/b', 'B', 'b', 'é', '\u{e000}', '\u{1f600}', 'ab', '', 'a.b'];
  it('orders as Buffer.compare of the UTF-8 bytes (LC_ALL=C sort), astral characters included', () => {
    const bytes = [...names].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    expect([...names].sort(byPathBytes)).toEqual(bytes);
  });
});

describe('manifest lines', () => {
  const hex = 'ab'.repeat(32);
  it('are sha256sum lines, printed in the order given and parsed back', () => {
    const text = `${hex}  b.txt\n${hex}  a/c.txt\n`;
    expect(printManifest(parseManifest(text))).toBe(text);
    expect(parseManifest(`${hex} *binary-mode.bin\n`).get('binary-mode.bin')).toBe(hex);
  });

  it.each([
    [`${hex}  ok\nnot a line\n`, 'SUMS:2: not "<64 hex digits>  <path>"'],
    [`${hex}  twice\n${hex}  twice\n`, 'SUMS:2: twice is listed twice'],
  ])('refuses %j', (text, message) => {
    expect(() => parseManifest(text, 'SUMS')).toThrow(message);
  });

  it('refuses names sha256sum would escape', () => {
    expect(() => manifestLine('a\nb', hex)).toThrow('newline or backslash');
    expect(() => manifestLine('a\\b', hex)).toThrow('newline or backslash');
  });
});
