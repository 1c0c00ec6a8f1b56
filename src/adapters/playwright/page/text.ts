// Text helpers of the walk: whitespace-normalized, capped text, and the hash that durable identities
// and signatures are kept and compared as.

/** Whitespace runs as one space, trimmed; at most `max` characters (then "…"). Linear in `max`, not in the input. */
export const normalize = (text: string | null | undefined, max = 150): string => {
  let raw = text ?? ""
  const cut = raw.length > max * 4 + 64
  if (cut) raw = raw.slice(0, max * 4 + 64)
  const collapsed = raw.replace(/[\u200b\u00ad]/g, "").replace(/\s+/g, " ").trim()
  if (collapsed.length > max) return collapsed.slice(0, max - 1) + "…"
  return cut ? collapsed + "…" : collapsed
}

/** A 64-bit hash as text: durable identities and signatures are kept and compared as hashes. */
export const hash = (text: string): string => {
  let a = 0x811c9dc5 ^ text.length
  let b = 0x2545f491
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    a = Math.imul(a ^ code, 0x01000193)
    b = Math.imul(b ^ code, 0x5bd1e995)
    b ^= b >>> 15
  }
  a ^= a >>> 16
  a = Math.imul(a, 0x85ebca6b)
  a ^= a >>> 13
  b ^= b >>> 16
  b = Math.imul(b, 0xc2b2ae35)
  b ^= b >>> 13
  return `${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}`
}
