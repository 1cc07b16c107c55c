import { packageName } from './lock-file';

/**
 * The pins of the packages a contracts catalogue names (a vector store's or a database's Python
 * packages), matched by PEP 503 name: `PyMySQL` finds `PyMySQL==1.2.4`. A package the catalogue
 * names but nobody pinned is a mistake in the code, said at once rather than installed unpinned.
 */
export function pinsOf<Pin extends string>(
  pins: Record<string, Pin>,
  names: readonly string[],
  owner: string,
): Pin[] {
  const all = Object.values(pins);
  return names.map((name) => {
    const pin = all.find((candidate) => packageName(candidate) === packageName(name));
    if (!pin) throw new Error(`No pin for ${name}, a package of ${owner}.`);
    return pin;
  });
}

/** Whether a source kind is one of the catalogue's databases (not a file or a web page). */
export function isCatalogueKind<Kind extends string>(
  catalogue: Record<string, unknown>,
  kind: string,
): kind is Kind {
  return Object.hasOwn(catalogue, kind);
}
