// Building blocks of the in-memory index: growable typed columns and id lists, a vocabulary that finds
// prefix matches by binary search, and a bounded heap for top-k selection. Typed arrays keep 100k steps small.

/** A growable list of step ids (4 bytes each), always in increasing order of insertion. */
export class IdList {
  ids: Int32Array<ArrayBuffer>
  length = 0

  constructor(capacity = 2) {
    this.ids = new Int32Array(capacity)
  }

  /** A list over existing ids (a view into a loaded index); the first push copies them out. */
  static view(ids: Int32Array<ArrayBuffer>): IdList {
    const list = new IdList(0)
    list.ids = ids
    list.length = ids.length
    return list
  }

  push(id: number): void {
    if (this.length === this.ids.length) {
      const next = new Int32Array(Math.max(2, this.ids.length * 2))
      next.set(this.ids)
      this.ids = next
    }
    this.ids[this.length++] = id
  }
}

/** Many id lists in two arrays: list i is ids[offsets[i] .. offsets[i + 1]). */
export interface PackedLists {
  readonly offsets: Int32Array<ArrayBuffer>
  readonly ids: Int32Array<ArrayBuffer>
}

/**
 * Packs the first `count` lists (missing ones are empty), keeping only the ids `remap` maps to a new id (-1 drops one): how a saved index leaves out
 * steps that were replaced, and renumbers the rest.
 */
export const packLists = (lists: ReadonlyArray<IdList | undefined>, remap: Int32Array | undefined, count = lists.length): PackedLists => {
  const offsets = new Int32Array(count + 1)
  let total = 0
  for (let i = 0; i < count; i++) total += lists[i]?.length ?? 0
  const ids = new Int32Array(total)
  let at = 0
  for (let i = 0; i < count; i++) {
    const list = lists[i]
    if (list !== undefined) {
      for (let k = 0; k < list.length; k++) {
        const id = remap === undefined ? list.ids[k]! : remap[list.ids[k]!]!
        if (id >= 0) ids[at++] = id
      }
    }
    offsets[i + 1] = at
  }
  return { offsets, ids: at === total ? ids : ids.slice(0, at) }
}

/** The lists of a packed form, as views (no copy); empty lists are undefined. */
export const unpackLists = (packed: PackedLists): Array<IdList | undefined> => {
  const count = packed.offsets.length - 1
  const lists = new Array<IdList | undefined>(Math.max(0, count))
  for (let i = 0; i < count; i++) {
    const start = packed.offsets[i]!
    const end = packed.offsets[i + 1]!
    lists[i] = end > start ? IdList.view(packed.ids.subarray(start, end)) : undefined
  }
  return lists
}

/** Pushes `id` onto the list of `key`, creating it on first use. */
export const pushTo = <K>(map: Map<K, IdList>, key: K, id: number): void => {
  let list = map.get(key)
  if (list === undefined) map.set(key, (list = new IdList()))
  list.push(id)
}

/** Typed arrays that grow by doubling; `grow` returns the (possibly new) array holding at least `size` slots. */
export const growInt32 = (array: Int32Array<ArrayBuffer>, size: number, fill = 0): Int32Array<ArrayBuffer> => {
  if (size <= array.length) return array
  const next = new Int32Array(Math.max(size, array.length * 2, 16))
  next.set(array)
  if (fill !== 0) next.fill(fill, array.length)
  return next
}
export const growFloat64 = (array: Float64Array<ArrayBuffer>, size: number): Float64Array<ArrayBuffer> => {
  if (size <= array.length) return array
  const next = new Float64Array(Math.max(size, array.length * 2, 16))
  next.set(array)
  return next
}
export const growUint8 = (array: Uint8Array<ArrayBuffer>, size: number): Uint8Array<ArrayBuffer> => {
  if (size <= array.length) return array
  const next = new Uint8Array(Math.max(size, array.length * 2, 16))
  next.set(array)
  return next
}

/**
 * Words of the index, each with a small integer id. Matching a query word is an exact lookup, plus, for
 * query words of three letters or more, a binary search for the range of words it is a prefix of.
 */
export class Vocabulary {
  /** Word to id; built on first need after a load (queries of three letters or more use `sorted` only). */
  private lookup: Map<string, number> | undefined = new Map()
  readonly words: Array<string>
  /** Word ids sorted by word; words added since the last query wait in `pending` and are merged in on the next. */
  private sorted: Array<number> | Int32Array = []
  private pending: Array<number> = []

  constructor(words: Array<string> = [], sorted?: Int32Array) {
    this.words = words
    if (sorted !== undefined) {
      this.sorted = sorted
      this.lookup = undefined
    } else this.pending = words.map((_, id) => id)
  }

  private get ids(): Map<string, number> {
    if (this.lookup === undefined) this.lookup = new Map(this.words.map((word, id) => [word, id]))
    return this.lookup
  }

  /** Word ids in word order (for saving). */
  sortedIds(): Int32Array<ArrayBuffer> {
    this.settle()
    return Int32Array.from(this.sorted)
  }

  get size(): number {
    return this.words.length
  }

  id(word: string): number {
    let id = this.ids.get(word)
    if (id === undefined) {
      id = this.words.length
      this.ids.set(word, id)
      this.words.push(word)
      this.pending.push(id)
    }
    return id
  }

  private settle(): void {
    if (this.pending.length === 0) return
    const words = this.words
    const byWord = (a: number, b: number) => (words[a]! < words[b]! ? -1 : words[a]! > words[b]! ? 1 : 0)
    const added = this.pending.sort(byWord)
    this.pending = []
    const sorted = this.sorted
    const merged = new Array<number>(sorted.length + added.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < sorted.length && j < added.length) {
      merged[k++] = byWord(sorted[i]!, added[j]!) <= 0 ? sorted[i++]! : added[j++]!
    }
    while (i < sorted.length) merged[k++] = sorted[i++]!
    while (j < added.length) merged[k++] = added[j++]!
    this.sorted = merged
  }

  /**
   * Adds to `out` the ids of the words `queryWord` matches under `wordMatches`: equal, or (three letters
   * or more) a prefix of them.
   */
  matches(queryWord: string, out: Array<number>): void {
    if (queryWord.length < 3) {
      const id = this.ids.get(queryWord)
      if (id !== undefined) out.push(id)
      return
    }
    this.settle()
    const sorted = this.sorted
    const words = this.words
    let low = 0
    let high = sorted.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (words[sorted[middle]!]! < queryWord) low = middle + 1
      else high = middle
    }
    for (let i = low; i < sorted.length && words[sorted[i]!]!.startsWith(queryWord); i++) out.push(sorted[i]!)
  }
}

/**
 * The best `limit` of a stream of ids under `before` (a strict total order: true when `a` ranks before `b`).
 * A max-heap of the kept ids with the worst at the root, so a losing candidate costs one comparison.
 */
export const topK = (limit: number, before: (a: number, b: number) => boolean) => {
  const heap: Array<number> = []
  const down = (start: number) => {
    let i = start
    for (;;) {
      const left = 2 * i + 1
      const right = left + 1
      let worst = i
      if (left < heap.length && before(heap[worst]!, heap[left]!)) worst = left
      if (right < heap.length && before(heap[worst]!, heap[right]!)) worst = right
      if (worst === i) return
      const swap = heap[i]!
      heap[i] = heap[worst]!
      heap[worst] = swap
      i = worst
    }
  }
  return {
    offer(id: number): void {
      if (limit <= 0) return
      if (heap.length < limit) {
        heap.push(id)
        let i = heap.length - 1
        while (i > 0) {
          const parent = (i - 1) >> 1
          if (!before(heap[parent]!, heap[i]!)) break
          const swap = heap[i]!
          heap[i] = heap[parent]!
          heap[parent] = swap
          i = parent
        }
      } else if (before(id, heap[0]!)) {
        heap[0] = id
        down(0)
      }
    },
    /** The worst id kept once `limit` are kept (a candidate must rank before it to get in), else undefined. */
    worst(): number | undefined {
      return heap.length === limit ? heap[0] : undefined
    },
    /** The kept ids, best first. */
    result(): Array<number> {
      return [...heap].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
    }
  }
}
