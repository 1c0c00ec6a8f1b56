// Secrets never reach disk or logs: key names that look sensitive are redacted at any depth.
export const REDACTED = "[REDACTED]"

const SENSITIVE_KEY = /pass(word|wd|phrase)?$|^pwd$|seed|^srp$|phrase|mnemonic|private.?key|secret|api.?key|token|credential|clipboard/i
const SENSITIVE_HINT = /pass(word|phrase)?|pwd|seed|phrase|mnemonic|private.?key|secret|api.?key|token|otp|one-time-code|srp/i

/** True when a key name says its value is a secret. */
export const isSensitiveKey = (key: string): boolean => SENSITIVE_KEY.test(key)

/** True when a test id, selector or label says the field holds a secret. */
export const looksSensitive = (hint: string | undefined): boolean => hint !== undefined && SENSITIVE_HINT.test(hint)

/** Cookie names that usually carry a login or a request-forgery token, beside the sensitive key and hint words. */
const SESSION_COOKIE = /sess|^sid$|[_.-]sid$|auth|jwt|csrf|xsrf|remember|login|^id$/i

/** True when a cookie's value is best not shown: its name says it is a secret or a session's key. */
export const isSecretCookie = (name: string): boolean => isSensitiveKey(name) || looksSensitive(name) || SESSION_COOKIE.test(name)

/** A copy of a JSON-like value with every sensitive key's value replaced, at any depth. */
export const redactDeep = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(redactDeep)
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [key, inner] of Object.entries(value)) {
      out[key] = isSensitiveKey(key) ? REDACTED : redactDeep(inner)
    }
    return out
  }
  return value
}
