// The README at the root of the site, and so of the unpacked archive (issue
// 19: the download said nothing of what it is or how to serve it), and the
// Content-Type table and upload script for object stores. Pure: the build
// adds them to the plan.
import { CONTENT_TYPES } from '../server/types.ts';
import { headerRules } from '../hosting/headers.ts';
import { HOSTING_FILES } from '../hosting/servers.ts';
import { SERVER_FILE } from '../server/bundle.ts';
import { ARCHIVE, ARCHIVE_FOLDER, ARCHIVE_SUM, MANIFEST, rel } from './layout.ts';

export const README = 'README.md';
/** Extension → Content-Type, tab-separated, then the API's types by path (what an object store must be told). */
export const CONTENT_TYPES_FILE = '_hosting/content-types.tsv';
/** Uploads the mirror to an S3 bucket with the right Content-Type for every file (AWS CLI). */
export const S3_UPLOAD = '_hosting/s3-upload.sh';

export interface ReadmeInput {
  name: string;
  year: number;
  base: string;
  citation?: string;
  license?: string;
  /** The site's other releases, each a whole site under its path (/releases/2026), with its own archive. */
  others?: { name: string; year: number; path: string; citation: string; lacking: string[] }[];
}

function releasesSection(r: ReadmeInput): string {
  if (!r.others?.length) return '';
  const lines = r.others.map((o) => `- **${o.name}** (\`release=${o.year}\`): the whole API under \`${o.path.slice(1)}/\`
  (${o.path}/api/v1/matrix/…), its own archive \`${o.path.slice(1)}/${ARCHIVE.slice(1)}\`
  (unpack it into this folder) and manifest \`${o.path.slice(1)}/${rel(MANIFEST)}\`.${o.lacking.length ? ` Not mirrored: ${o.lacking.join(', ')} (JASPAR has not published those files).` : ''}
  Cite: ${o.citation}`);
  return `
## Releases

URLs without \`release=\` answer ${r.name}, the newest release whose collections
are all mirrored. \`release=<year>\` asks for another:

${lines.join('\n')}
`;
}

export function mirrorReadme(r: ReadmeInput): string {
  const license = r.license ?? 'CC BY 4.0';
  return `# ${r.name}: a static mirror of the JASPAR REST API

Every response of the JASPAR REST API (\`/api/v1/\`: matrices, lists, filters,
formats) for ${r.name}, pre-rendered as files, with the pages for people,
sequence logos, bulk downloads, and what each kind of server needs to answer
the API's URLs. Absolute URLs in the bodies start with \`${r.base}\`.

## The data: ${r.name}, ${license}

The matrices are JASPAR's, under ${license === 'CC BY 4.0' ? 'the Creative Commons Attribution 4.0 International licence (CC BY 4.0, https://creativecommons.org/licenses/by/4.0/)' : license}:
keep this attribution when you copy or serve them, and cite JASPAR:

> ${r.citation ?? `${r.name} (https://jaspar.elixir.no/)`}

${releasesSection(r)}
## Verify

In this folder (the unpacked \`${ARCHIVE_FOLDER}\`, or the served site):

    sha256sum -c --quiet ${rel(MANIFEST)}

checks every file (the manifest lists all but itself, the archive and the
archive's checksum). Beside a downloaded archive:

    sha256sum -c ${ARCHIVE_SUM.slice(ARCHIVE_SUM.lastIndexOf('/') + 1)}

## Serve

- **The whole API, with only Node (20 or later)**: \`node ${SERVER_FILE}\`
  (options \`--port 8080 --host 127.0.0.1\`), then http://127.0.0.1:8080/.
  Every query is answered as the service does: \`search\`, \`name\`, filters and
  their combinations, any \`page_size\`, \`Accept\`, format suffixes, \`release\`.
- **nginx, Caddy, Apache httpd** with the shipped configurations in
  \`_hosting/\` (\`${HOSTING_FILES.nginxHttp}\` and \`${HOSTING_FILES.nginxServer}\`,
  \`${HOSTING_FILES.caddy}\`, \`${HOSTING_FILES.apache}\`; each file says how to include
  it). They answer the API's query URLs from the files; what files cannot
  answer (\`search\`, \`name\`, page sizes and filter combinations that were not
  pre-rendered) gets a 501 saying so, unless the Node server runs behind them
  (see the comments in the configurations).
- **Netlify**: deploy this folder; \`_redirects\` and \`_headers\` route the query URLs.
- **Any static server** (\`npx http-server\`, GitHub Pages, an object store):
  path URLs only (\`/api/v1/matrix/page/2/index.json\`,
  \`/api/v1/matrix/MA0139.1/index.jaspar.txt\`). Such hosts ignore query strings:
  \`/api/v1/matrix/?page=2\` gives page 1's page for people, not page 2.
  \`.nojekyll\` keeps GitHub Pages from dropping the \`_\` folders. An object store
  labels each file at upload: \`${CONTENT_TYPES_FILE}\` lists the types,
  \`${S3_UPLOAD}\` uploads to S3 with them.

The archive itself: ${ARCHIVE.slice(1)} (not inside the archive).
`;
}

/** The API text formats' types go by path (index.meme.txt is text/meme), the rest by extension. */
function typeRules(): [pattern: string, type: string][] {
  const byPath: [string, string][] = [];
  for (const rule of headerRules()) {
    const type = rule.values['Content-Type'];
    if (type !== undefined) byPath.push([rule.for.slice(1), type]);
  }
  const byExtension: [string, string][] = Object.entries(CONTENT_TYPES).map(([name, type]) => [name.startsWith('.') ? `*${name}` : name, type]);
  // Most specific last: an upload applies them in order, the last match wins.
  return [...byExtension, ...byPath];
}

export function contentTypesTable(): string {
  const lines = ['# Content-Type of every file of the mirror for hosts that label files at upload (object stores).', '# Glob (relative to the site root; * crosses folders) TAB Content-Type; the last matching line wins.'];
  for (const [pattern, type] of typeRules()) lines.push(`${pattern}\t${type}`);
  return `${lines.join('\n')}\n`;
}

export function s3UploadScript(): string {
  const q = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;
  const lines = [
    '#!/bin/sh',
    '# Uploads this mirror to an S3 bucket with the Content-Type of every file',
    `# (${CONTENT_TYPES_FILE}; without them S3 labels .yaml and the API's text formats`,
    '# binary/octet-stream). Needs the AWS CLI. Run from the site\'s root:',
    `#   sh ${S3_UPLOAD} s3://BUCKET/PREFIX`,
    '# Generated by the JASPAR static API build (generator/mirror/readme.ts): do not edit.',
    'set -eu',
    'dest="${1:?usage: sh _hosting/s3-upload.sh s3://BUCKET/PREFIX}"',
    '# Every file first, then each kind again with its type (the last upload of a file wins).',
    'aws s3 sync . "$dest" --exclude ".*" --exclude "*/.*" --include ".nojekyll"',
  ];
  for (const [pattern, type] of typeRules()) lines.push(`aws s3 cp . "$dest" --recursive --exclude "*" --include ${q(pattern)} --content-type ${q(type)}`);
  return `${lines.join('\n')}\n`;
}
