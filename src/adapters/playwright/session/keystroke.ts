// The direct type's input in one round trip: the text as fill puts it (Input.insertText) and its last
// character as a person's keystroke (keydown, input, keyup), the DevTools messages sent together on our
// session, which the browser handles in the order sent (one input queue per page). The keystroke is the
// one Playwright's keyboard.type sends for that character on its US layout (the same key, code, key code
// and text); a character the layout has no key for goes in as text, as Playwright's type puts it.
import type { Page } from "playwright"
import { devtoolsOf } from "../page-eval.js"

interface Key {
  readonly key: string
  readonly code: string
  readonly keyCode: number
}

/** The keys of Playwright's US layout that type a character: code, key code, the character, and with Shift. */
const LAYOUT: ReadonlyArray<readonly [code: string, keyCode: number, key: string, shifted: string]> = [
  ["Backquote", 192, "`", "~"],
  ["Minus", 189, "-", "_"],
  ["Equal", 187, "=", "+"],
  ["Backslash", 220, "\\", "|"],
  ["BracketLeft", 219, "[", "{"],
  ["BracketRight", 221, "]", "}"],
  ["Semicolon", 186, ";", ":"],
  ["Quote", 222, "'", '"'],
  ["Comma", 188, ",", "<"],
  ["Period", 190, ".", ">"],
  ["Slash", 191, "/", "?"],
  ...Array.from("0123456789", (digit, i) => [`Digit${digit}`, 48 + i, digit, ")!@#$%^&*("[i]!] as const),
  ...Array.from("abcdefghijklmnopqrstuvwxyz", (letter, i) => [`Key${letter.toUpperCase()}`, 65 + i, letter, letter.toUpperCase()] as const)
]

const KEYS: ReadonlyMap<string, Key> = new Map([
  [" ", { key: " ", code: "Space", keyCode: 32 }],
  ...LAYOUT.flatMap(([code, keyCode, key, shifted]) => [
    [key, { key, code, keyCode }] as const,
    [shifted, { key: shifted, code, keyCode }] as const
  ])
])

/** The key Playwright's keyboard presses for `char`, or undefined when its layout has none (then it inserts the text). */
export const keyFor = (char: string): Key | undefined => KEYS.get(char)

/**
 * Types `head` as fill puts it and `last` (one character, or "") as a keystroke, in one round trip: the
 * messages go out together on our DevTools session and are answered once the page handled each.
 */
export const typeWithLastKey = async (page: Page, head: string, last: string): Promise<void> => {
  const session = await devtoolsOf(page)
  const sent: Array<Promise<unknown>> = []
  if (head !== "") sent.push(session.send("Input.insertText", { text: head }))
  const key = last === "" ? undefined : keyFor(last)
  if (key === undefined) {
    if (last !== "") sent.push(session.send("Input.insertText", { text: last }))
  } else {
    const { code, keyCode } = key
    sent.push(
      session.send("Input.dispatchKeyEvent", {
        type: "keyDown",
        modifiers: 0,
        windowsVirtualKeyCode: keyCode,
        code,
        commands: [],
        key: key.key,
        text: key.key,
        unmodifiedText: key.key,
        autoRepeat: false,
        location: 0,
        isKeypad: false
      }),
      session.send("Input.dispatchKeyEvent", { type: "keyUp", modifiers: 0, key: key.key, windowsVirtualKeyCode: keyCode, code, location: 0 })
    )
  }
  await Promise.all(sent)
}
