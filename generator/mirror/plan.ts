// Moved to generator/plan/mirror.ts (planning: producers that return data); this path stays for importers outside the routes work.
export * from '../plan/mirror.ts';
