// Every JASPAR release, as /api/v1/releases/ lists them: its number (rbioapi's
// rba_jaspar_releases takes 1 to 11), year, name and the paper that describes
// it. Data, not code: the release descriptions (data/release-<year>.yaml)
// describe only the releases the mirror holds, and the list names them all.
// DOIs and PubMed ids are given where a copy of the paper's record was seen
// (the shared READMEs, citations in public repositories); null otherwise.

export interface JasparRelease {
  number: number;
  year: number;
  name: string;
  citation: string;
  doi: string | null;
  pubmedId: string | null;
}

export const JASPAR_RELEASES: readonly JasparRelease[] = [
  {
    number: 1, year: 2004, name: 'JASPAR 2004',
    citation: 'Sandelin A, Alkema W, Engström P, Wasserman WW, Lenhard B. JASPAR: an open-access database for eukaryotic transcription factor binding profiles. Nucleic Acids Res. 2004;32(Database issue):D91-D94. doi:10.1093/nar/gkh012',
    doi: '10.1093/nar/gkh012', pubmedId: '14681366',
  },
  {
    number: 2, year: 2006, name: 'JASPAR 2006',
    citation: 'Vlieghe D, Sandelin A, De Bleser PJ, et al. A new generation of JASPAR, the open-access repository for transcription factor binding site profiles. Nucleic Acids Res. 2006;34(Database issue):D95-D97',
    doi: null, pubmedId: null,
  },
  {
    number: 3, year: 2008, name: 'JASPAR 2008',
    citation: 'Bryne JC, Valen E, Tang MH, et al. JASPAR, the open access database of transcription factor-binding profiles: new content and tools in the 2008 update. Nucleic Acids Res. 2008;36(Database issue):D102-D106. doi:10.1093/nar/gkm955',
    doi: '10.1093/nar/gkm955', pubmedId: '18006571',
  },
  {
    number: 4, year: 2010, name: 'JASPAR 2010',
    citation: 'Portales-Casamar E, Thongjuea S, Kwon AT, et al. JASPAR 2010: the greatly expanded open-access database of transcription factor binding profiles. Nucleic Acids Res. 2010;38(Database issue):D105-D110. doi:10.1093/nar/gkp950',
    doi: '10.1093/nar/gkp950', pubmedId: null,
  },
  {
    number: 5, year: 2014, name: 'JASPAR 2014',
    citation: 'Mathelier A, Zhao X, Zhang AW, et al. JASPAR 2014: an extensively expanded and updated open-access database of transcription factor binding profiles. Nucleic Acids Res. 2014;42(Database issue):D142-D147. doi:10.1093/nar/gkt997',
    doi: '10.1093/nar/gkt997', pubmedId: '24194598',
  },
  {
    number: 6, year: 2016, name: 'JASPAR 2016',
    citation: 'Mathelier A, Fornes O, Arenillas DJ, et al. JASPAR 2016: a major expansion and update of the open-access database of transcription factor binding profiles. Nucleic Acids Res. 2016;44(D1):D110-D115. doi:10.1093/nar/gkv1176',
    doi: '10.1093/nar/gkv1176', pubmedId: '26531826',
  },
  {
    number: 7, year: 2018, name: 'JASPAR 2018',
    citation: 'Khan A, Fornes O, Stigliani A, et al. JASPAR 2018: update of the open-access database of transcription factor binding profiles and its web framework. Nucleic Acids Res. 2018;46(D1):D260-D266. doi:10.1093/nar/gkx1126',
    doi: '10.1093/nar/gkx1126', pubmedId: '29140473',
  },
  {
    number: 8, year: 2020, name: 'JASPAR 2020',
    citation: 'Fornes O, Castro-Mondragon JA, Khan A, et al. JASPAR 2020: update of the open-access database of transcription factor binding profiles. Nucleic Acids Res. 2020;48(D1):D87-D92. doi:10.1093/nar/gkz1001',
    doi: '10.1093/nar/gkz1001', pubmedId: '31701148',
  },
  {
    number: 9, year: 2022, name: 'JASPAR 2022',
    citation: 'Castro-Mondragon JA, Riudavets-Puig R, Rauluseviciute I, et al. JASPAR 2022: the 9th release of the open-access database of transcription factor binding profiles. Nucleic Acids Res. 2022;50(D1):D165-D173. doi:10.1093/nar/gkab1113',
    doi: '10.1093/nar/gkab1113', pubmedId: '34850907',
  },
  {
    number: 10, year: 2024, name: 'JASPAR 2024',
    citation: 'Rauluseviciute I, Riudavets-Puig R, Blanc-Mathieu R, et al. JASPAR 2024: 20th anniversary of the open-access database of transcription factor binding profiles. Nucleic Acids Res. 2024;52(D1):D174-D182. doi:10.1093/nar/gkad1059',
    doi: '10.1093/nar/gkad1059', pubmedId: null,
  },
  {
    number: 11, year: 2026, name: 'JASPAR 2026',
    citation: 'Ovek Baydar D, et al. JASPAR 2026: expansion of transcription factor binding profiles and integration of deep learning models. Nucleic Acids Res. 2026;54(D1):D184-D193. doi:10.1093/nar/gkaf1209',
    doi: '10.1093/nar/gkaf1209', pubmedId: '41325984',
  },
];

/** The release of a year, or undefined for a year JASPAR has not released. */
export function jasparRelease(year: number): JasparRelease | undefined {
  return JASPAR_RELEASES.find((r) => r.year === year);
}
