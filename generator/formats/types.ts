// What a format renders: one resource (a list page, a matrix, a matrix's
// versions) as the JSON body the real service sends plus the matrices it shows.
import type { Matrix, ReleaseInfo } from '../dataset/types.ts';

/** A JSON number the real service prints as a Python float ("4.0", "1.05485"). */
export class PyFloat {
  constructor(readonly value: number) {}
}

export type Json = null | boolean | number | string | PyFloat | Json[] | { [key: string]: Json };

/** index: a resource that is not a matrix list (the API root, collections, species, releases, binding sites). */
export type ResourceKind = 'list' | 'detail' | 'versions' | 'index';

export interface Link {
  label: string;
  href: string;
}

/** Navigation for people (the api format): root-relative path URLs that work on any static host. */
export interface Nav {
  title: string;
  /** The resource's folder (path URL ending in "/"), where its files in every format lie. */
  dir: string;
  /** The request as the real API is asked, e.g. "/api/v1/matrix/?format=api&page=3". */
  request: string;
  /** This resource in every format, path URLs. */
  formats: { format: string; href: string }[];
  pages?: { current: number; last: number; first: string; previous: string | null; next: string | null; lastHref: string; window: Link[] };
  /** Detail pages: the logo (path URL), the versions page and the other versions. */
  logo?: string;
  versions?: Link[];
  breadcrumbs: Link[];
  /** List pages: this view's filters and page size, and the values the filter form offers (absent: no form). */
  view?: { filters: Record<string, string>; pageSize: number; pageSizes: readonly number[]; choices?: { collection: string[]; tax_group: string[] } };
  /** Index lists (collections, taxa, species, releases): their items as a table of links for people. */
  table?: { columns: string[]; rows: (Link | string | { label: string; href: string; external: true })[][] };
  /** The path the site lives under ("/jaspar"; absent at the host's root): hrefs above are site paths, the page prefixes them (api.ts rebase). */
  root?: string;
}

export interface Resource {
  kind: ResourceKind;
  body: Json;
  /** The matrices the resource shows, in body order. */
  matrices: Matrix[];
  nav: Nav;
}

export interface FormatContext {
  release: ReleaseInfo;
  /** Path URL of a matrix's logo (root-relative), for pages that show logos. */
  logoHref: (matrixId: string) => string;
  /** Path URL of a matrix's detail page for people. */
  detailHref: (matrixId: string) => string;
}

export interface Format {
  id: string;
  /** The Content-Type the real JASPAR service sends for this format. */
  mediaType: string;
  /** File extension of the output file; chosen so plain static servers send a sensible type. */
  extension: string;
  render(resource: Resource, context: FormatContext): string;
}
