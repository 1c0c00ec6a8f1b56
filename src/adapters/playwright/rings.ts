// Bounded per-tab rings, as the console and the network capture keep them: each ring its newest entries
// with a count of those it let go, and at most so many rings, the one quiet longest going first.

/** The entries with one more at the end, keeping the newest `limit`; `cut` is how many were let go from the front. */
export const appendNewest = <A>(entries: ReadonlyArray<A>, entry: A, limit: number): { readonly entries: ReadonlyArray<A>; readonly cut: number } => {
  const cut = entries.length >= limit ? entries.length - limit + 1 : 0
  return { entries: cut > 0 ? [...entries.slice(cut), entry] : [...entries, entry], cut }
}

/** Past `limit` rings, drops the one whose latest activity (`latest`) is oldest (closed tabs, usually); changes and returns the map. */
export const withinRingLimit = <K, R>(rings: Map<K, R>, limit: number, latest: (ring: R) => number): Map<K, R> => {
  if (rings.size > limit) {
    const quietest = [...rings].reduce((a, b) => (latest(a[1]) <= latest(b[1]) ? a : b))
    rings.delete(quietest[0])
  }
  return rings
}
