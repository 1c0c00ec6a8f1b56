// A list app for the fan-out tests, served on 127.0.0.1: items typed into one field (Enter adds one) are kept
// in the page's localStorage and reported to the server after every change, so that a test reads each page
// load's last list after its session has closed. An item "boom" removes the field: the next typing fails.
import type * as http from "node:http"
import { listenLoopback, send, type RunningServer } from "../../demo/serve.js"
import { html } from "../support/browser.js"

export const listPage = html(
  "List",
  `<input data-testid="new" aria-label="New item"><ul data-testid="list"></ul>
   <script>
     const load = Math.random().toString(36).slice(2)
     let seq = 0
     const input = document.querySelector("[data-testid=new]")
     const items = JSON.parse(localStorage.getItem("items") || "[]")
     const render = () => {
       document.querySelector("ul").innerHTML = items.map((item) => "<li>" + item + "</li>").join("")
       fetch("/log", { method: "POST", body: JSON.stringify({ load, seq: ++seq, items }) })
     }
     input.addEventListener("keydown", (event) => {
       if (event.key !== "Enter" || input.value === "") return
       items.push(input.value)
       localStorage.setItem("items", JSON.stringify(items))
       if (input.value === "boom") input.remove()
       else input.value = ""
       render()
     })
     render()
   </script>`
)

export interface ListApp extends RunningServer {
  /** Each page load's last reported list (since the last reset). */
  readonly lists: () => ReadonlyArray<ReadonlyArray<string>>
  readonly reset: () => void
}

/** Serves the list at /list and collects the lists its page loads report. */
export const serveListApp = async (): Promise<ListApp> => {
  const latest = new Map<string, { seq: number; items: ReadonlyArray<string> }>()
  const handler: http.RequestListener = (request, response) => {
    if (request.method === "POST" && request.url === "/log") {
      let body = ""
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
      request.on("end", () => {
        const report = JSON.parse(body) as { load: string; seq: number; items: ReadonlyArray<string> }
        const known = latest.get(report.load)
        if (known === undefined || known.seq < report.seq) latest.set(report.load, { seq: report.seq, items: report.items })
        send(response, 204, "text/plain", "")
      })
      return
    }
    if (request.url === "/list") return void send(response, 200, "text/html; charset=utf-8", listPage)
    send(response, 404, "text/plain", "not found")
  }
  const server = await listenLoopback(handler)
  return { ...server, lists: () => [...latest.values()].map((entry) => entry.items), reset: () => latest.clear() }
}

/**
 * The lists page loads ended with, as sorted strings, to compare whatever order the runs finished in. A run
 * loads the page twice (its launch opens it, the recipe starts there again): the first load stays empty.
 */
export const sortedLists = (lists: ReadonlyArray<ReadonlyArray<string>>) =>
  lists
    .filter((list) => list.length > 0)
    .map((list) => list.join("|"))
    .sort()
