// Browser processes of one test, found by a marker switch on their command line, and polling.
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"

const processLines = (marker: string) =>
  execFileSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" })
    .split("\n")
    .filter((line) => line.includes(marker) && !line.includes("ps -eo"))

/** PIDs of every browser process (main and children) started with the marker switch. */
export const browserPids = (marker: string): Array<number> => processLines(marker).map((line) => Number(line.trim().split(/\s+/)[0]))

/** PIDs of the browsers themselves (not their renderer, GPU or utility processes). */
export const browserMainPids = (marker: string): Array<number> =>
  processLines(marker)
    .filter((line) => !line.includes("--type="))
    .map((line) => Number(line.trim().split(/\s+/)[0]))

/** PIDs of every process below `root` (its children, theirs, and so on), breadth first. */
export const processesBelow = (root: number): Array<number> => {
  const rows = execFileSync("ps", ["-eo", "pid=,ppid="], { encoding: "utf8" })
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number))
    .filter((row) => row.length === 2)
  const found: Array<number> = []
  const queue = [root]
  while (queue.length > 0) {
    const parent = queue.shift()!
    for (const [pid, ppid] of rows) if (ppid === parent) (found.push(pid!), queue.push(pid!))
  }
  return found
}

/** Temporary profiles under a directory. */
export const profileDirs = (root: string): Array<string> =>
  fs.existsSync(root) ? fs.readdirSync(root).filter((name) => name.startsWith("bwm-profile-") || name.startsWith("playwright_chromiumdev_profile-")).map((name) => path.join(root, name)) : []

export const waitUntil = async (condition: () => boolean, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return condition()
}
