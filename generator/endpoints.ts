// Moved to generator/plan/ (planning: producers that return data); this path stays for importers outside the routes work.
export * from './plan/endpoints.ts';
