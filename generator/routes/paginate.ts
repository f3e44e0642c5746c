// Pagination as a pure function: items and a page size in, pages with their
// neighbours out. Empty input still yields page 1 (DRF answers page 1 of an
// empty list with 200 and no results).

export interface Page<T> {
  number: number;
  items: T[];
  previous: number | null;
  next: number | null;
  last: number;
}

export function paginate<T>(items: readonly T[], pageSize: number): Page<T>[] {
  if (!Number.isInteger(pageSize) || pageSize < 1) throw new Error(`page size must be a positive integer, got ${pageSize}`);
  const last = Math.max(1, Math.ceil(items.length / pageSize));
  const pages: Page<T>[] = [];
  for (let number = 1; number <= last; number++) {
    pages.push({
      number,
      items: items.slice((number - 1) * pageSize, number * pageSize),
      previous: number > 1 ? number - 1 : null,
      next: number < last ? number + 1 : null,
      last,
    });
  }
  return pages;
}
