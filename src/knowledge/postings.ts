// Building blocks of the in-memory index: growable typed columns and id lists, a vocabulary that finds
// prefix matches by binary search, and a bounded heap for top-k selection. Typed arrays keep 100k steps small.

/** A growable list of step ids (4 bytes each), always in increasing order of insertion. */
export class IdList {
  ids: Int32Array<ArrayBuffer>
  length = 0

  constructor(capacity = 2) {
    this.ids = new Int32Array(capacity)
  }

  push(id: number): void {
    if (this.length === this.ids.length) {
      const next = new Int32Array(this.ids.length * 2)
      next.set(this.ids)
      this.ids = next
    }
    this.ids[this.length++] = id
  }
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
  private readonly ids = new Map<string, number>()
  readonly words: Array<string> = []
  /** Word ids sorted by word; words added since the last query wait in `pending` and are merged in on the next. */
  private sorted: Array<number> = []
  private pending: Array<number> = []

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
    const merged = new Array<number>(this.sorted.length + added.length)
    let i = 0
    let j = 0
    let k = 0
    while (i < this.sorted.length && j < added.length) {
      merged[k++] = byWord(this.sorted[i]!, added[j]!) <= 0 ? this.sorted[i++]! : added[j++]!
    }
    while (i < this.sorted.length) merged[k++] = this.sorted[i++]!
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
