// Giving the page time to settle before it is read, so an observation right after an action sees the re-render.
import type { SettleArgs } from "./types.js"

/**
 * Runs in the page before an observation: waits while the page is visibly busy, so that an
 * observation taken right after an action does not miss a re-render. The wait is entered only on a
 * sign of activity: the DOM changed during one task turn (a render scheduled by the action), changed
 * within the last `quietMs` (a render in progress), a person's input arrived within the last `quietMs`
 * (a click whose handler logs an error a moment later), the URL differs from the last observation of this
 * document (a single-page app changing route), or the document is still loading. Then it waits until
 * the DOM has been quiet for `quietMs`, at most `capMs`. A page where nothing happens pays one task turn.
 * Changes of `style` attributes alone (JavaScript animations) do not count as activity. A CSS transition
 * still running does, when it ends within `capMs`: a modal's backdrop fades in before the library shows the
 * dialog (on the fade's transitionend), so an observation in the middle of the fade missed the dialog.
 * Endless and long animations (spinners, marquees) never count.
 */
const transitioning = (capMs: number): boolean => {
  if (typeof document.getAnimations !== "function") return false
  for (const animation of document.getAnimations()) {
    if (animation.playState !== "running" || !(typeof CSSTransition === "function" && animation instanceof CSSTransition)) continue
    const timing = animation.effect?.getComputedTiming()
    const end = typeof timing?.endTime === "number" ? timing.endTime : Infinity
    const at = typeof timing?.localTime === "number" ? timing.localTime : 0
    if (Number.isFinite(end) && end - at <= capMs) return true
  }
  return false
}

export const settlePage = async (settle: SettleArgs): Promise<number> => {
  const start = performance.now()
  const watch: { last: number; href: string; input?: number } | undefined = (window as any)[Symbol.for("browser-workflow-mcp")]?.watch
  let last = -Infinity
  const relevant = (records: Array<MutationRecord>) =>
    records.some((record) => record.type !== "attributes" || record.attributeName !== "style")
  const observer = new MutationObserver((records) => {
    if (relevant(records)) last = performance.now()
  })
  observer.observe(document, { subtree: true, childList: true, characterData: true, attributes: true })
  const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
  // One task turn (a message, which fake clocks leave alone and which does not wait for a timer's minimum).
  const turn = () =>
    new Promise<void>((resolve) => {
      const channel = new MessageChannel()
      channel.port1.onmessage = () => {
        channel.port1.close()
        resolve()
      }
      channel.port2.postMessage(null)
    })
  try {
    await turn()
    if (relevant(observer.takeRecords())) last = performance.now()
    const lastBefore = watch !== undefined ? watch.last : -Infinity
    // A person's input (a click, a key) in the last quietMs: the page gets those moments to answer it
    // (a render, an error it logs a little later), as it does after a change of the DOM.
    const lastInput = watch?.input ?? -Infinity
    const busy =
      last > -Infinity ||
      start - lastBefore < settle.quietMs ||
      start - lastInput < settle.quietMs ||
      (watch !== undefined && watch.href !== location.href) ||
      document.readyState !== "complete" ||
      transitioning(settle.capMs)
    if (!busy) return performance.now() - start
    for (;;) {
      if (relevant(observer.takeRecords()) || transitioning(settle.capMs)) last = performance.now()
      const now = performance.now()
      const quietSince = Math.max(last, lastBefore, lastInput, start)
      if (now - quietSince >= settle.quietMs || now - start >= settle.capMs) return now - start
      await sleep(Math.max(5, Math.min(settle.quietMs - (now - quietSince), settle.capMs - (now - start))))
    }
  } finally {
    observer.disconnect()
  }
}
