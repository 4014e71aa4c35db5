// Path filters shared by code search and file search: a glob on the
// repository-relative path, and file extensions.
import picomatch from 'picomatch';
import { UserError } from '../errors.js';

export type PathFilter = (path: string) => boolean;

/**
 * A glob on repository-relative paths (`src/**\/*.ts`). A glob without '/'
 * matches the file name at any depth, as ripgrep's and .gitignore's do.
 */
export function globFilter(glob: string): PathFilter {
  let matcher: (path: string) => boolean;
  try {
    matcher = picomatch(glob.replace(/^\.?\//, ''), { dot: true, basename: !glob.includes('/') });
  } catch (error) {
    throw new UserError(`path "${glob}" is not a usable glob (${(error as Error).message}): write one such as src/**/*.ts`);
  }
  return (path) => matcher(path);
}

/** Normalizes extensions: lower case, no leading dot. */
export function normalizeExtensions(extensions: readonly string[]): string[] {
  return extensions.map((e) => e.replace(/^\./, '').toLowerCase()).filter(Boolean);
}

/** A file's extension as search reports it: after the last '.' of its name (not a leading one), lower case; '' when none. */
export function extensionOf(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Files whose name ends with one of the extensions (case-insensitive; "d.ts" works too), not a bare dotfile named so. */
export function extensionFilter(extensions: readonly string[]): PathFilter {
  const suffixes = normalizeExtensions(extensions).map((e) => `.${e}`);
  return (path) => {
    const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
    return suffixes.some((s) => name.length > s.length && name.endsWith(s));
  };
}

export function allOf(filters: readonly (PathFilter | undefined)[]): PathFilter {
  const active = filters.filter((f): f is PathFilter => f !== undefined);
  return (path) => active.every((f) => f(path));
}
