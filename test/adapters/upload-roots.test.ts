// The upload root check: regular files under the roots only, after symbolic links are followed.
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { checkUploadPaths, uploadRootsOf } from "../../src/adapters/upload-roots.js"
import { tempDir } from "../support/browser.js"

describe("upload roots", () => {
  const artifacts = tempDir("bwm-upload-")
  const extra = tempDir("bwm-upload-extra-")
  const outside = tempDir("bwm-upload-outside-")
  fs.writeFileSync(path.join(artifacts, "in.txt"), "in")
  fs.writeFileSync(path.join(extra, "extra.txt"), "extra")
  fs.writeFileSync(path.join(outside, "secret.txt"), "secret")
  fs.symlinkSync(path.join(outside, "secret.txt"), path.join(artifacts, "link.txt"))
  fs.mkdirSync(path.join(artifacts, "dir"))
  const roots = uploadRootsOf({ artifactsDir: artifacts, allowedRoots: [extra] })

  it("accepts files under the artifacts directory (relative paths resolve there) and under --allowed-roots", async () => {
    const checked = await checkUploadPaths(["in.txt", path.join(extra, "extra.txt")], roots)
    expect(checked).toEqual({ files: [fs.realpathSync(path.join(artifacts, "in.txt")), fs.realpathSync(path.join(extra, "extra.txt"))] })
  })

  it("refuses a path outside the roots, a link that leads out, a dot-dot escape, a directory and a missing file", async () => {
    expect(await checkUploadPaths([path.join(outside, "secret.txt")], roots)).toMatchObject({ problem: expect.stringContaining("outside the upload roots") })
    expect(await checkUploadPaths(["link.txt"], roots)).toMatchObject({ problem: expect.stringContaining("outside the upload roots") })
    expect(await checkUploadPaths([`../${path.basename(outside)}/secret.txt`], roots)).toMatchObject({ problem: expect.stringContaining("outside") })
    expect(await checkUploadPaths(["dir"], roots)).toMatchObject({ problem: expect.stringContaining("not a regular file") })
    expect(await checkUploadPaths(["nope.txt"], roots)).toMatchObject({ problem: expect.stringContaining("does not exist") })
    // A long path is never echoed whole.
    const long = await checkUploadPaths(["x".repeat(3_000)], roots)
    expect("problem" in long && long.problem.length).toBeLessThan(200)
  })
})
