// The page renderer's own rules (formats/api.ts): where a URL in a body
// leads a person, and how counts are shown.
import { describe, expect, it } from 'vitest';
import { countText, pageLink } from '../../generator/formats/api.ts';

describe('pageLink: a URL in a body leads to the page for people, never to JSON', () => {
  it.each([
    ['a matrix', 'http://jaspar.test/api/v1/matrix/MA0139.1/', 'http://jaspar.test/api/v1/matrix/MA0139.1/?format=api'],
    ['versions_url, without its slash', 'http://jaspar.test/api/v1/matrix/MA0139/versions', 'http://jaspar.test/api/v1/matrix/MA0139/versions/?format=api'],
    ['a collection', 'http://jaspar.test/api/v1/collections/CORE/', 'http://jaspar.test/api/v1/collections/CORE/?format=api'],
    ['a filtered list', 'http://jaspar.test/api/v1/matrix/?tax_id=9606', 'http://jaspar.test/api/v1/matrix/?tax_id=9606&format=api'],
    ['a site under a path', 'https://example.org/jaspar/api/v1/species/', 'https://example.org/jaspar/api/v1/species/?format=api'],
    ['next, which names its format', 'http://jaspar.test/api/v1/matrix?format=api&page=4', 'http://jaspar.test/api/v1/matrix?format=api&page=4'],
    ['a logo file', 'http://jaspar.test/static/logos/svg/MA0139.1.svg', 'http://jaspar.test/static/logos/svg/MA0139.1.svg'],
    ['a BED file', 'http://jaspar.test/download/bed_files/MA0014.2.bed', 'http://jaspar.test/download/bed_files/MA0014.2.bed'],
    ['the OpenAPI file', 'http://jaspar.test/api/v1/openapi.json', 'http://jaspar.test/api/v1/openapi.json'],
    ['the documentation page', 'http://jaspar.test/api/v1/live-api/', 'http://jaspar.test/api/v1/live-api/'],
  ])('%s', (_, url, expected) => {
    expect(pageLink(url)).toBe(expected);
  });
});

describe('countText: whole counts without ".0"', () => {
  it.each([
    [87, '87'],
    [0, '0'],
    [12.5, '12.5'],
    [1.23456, '1.235'],
  ])('%s → %s', (value, expected) => {
    expect(countText(value)).toBe(expected);
  });
});
