// Which local files mm_upload_file may hand to a page: regular files under the configured roots (the
// artifacts directory and --allowed-roots), after following symbolic links. One small check, kept apart
// so that a wider file policy can take it over.
import * as fs from "node:fs/promises"
import * as path from "node:path"

/** The roots uploads may read from: the artifacts directory first, then --allowed-roots. */
export const uploadRootsOf = (settings: { readonly artifactsDir: string; readonly allowedRoots: ReadonlyArray<string> }): ReadonlyArray<string> => [
  path.resolve(settings.artifactsDir),
  ...settings.allowedRoots.map((root) => path.resolve(root))
]

/** A path as an error may show it: never more than 120 characters of what the caller sent. */
const shown = (file: string) => JSON.stringify(file.length > 120 ? `${file.slice(0, 117)}...` : file)

const inside = (root: string, file: string) => {
  const relative = path.relative(root, file)
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)
}

/**
 * Resolves each path (relative ones against the first root) to the real file it names, or says why it
 * may not be uploaded: missing, not a regular file, or outside every root once links are followed.
 */
export const checkUploadPaths = async (
  paths: ReadonlyArray<string>,
  roots: ReadonlyArray<string>
): Promise<{ readonly files: ReadonlyArray<string> } | { readonly problem: string }> => {
  const realRoots = await Promise.all(roots.map((root) => fs.realpath(root).catch(() => undefined)))
  const usable = realRoots.filter((root): root is string => root !== undefined)
  const files: Array<string> = []
  for (const given of paths) {
    const resolved = path.resolve(roots[0] ?? ".", given)
    const real = await fs.realpath(resolved).catch(() => undefined)
    if (real === undefined) return { problem: `${shown(given)} does not exist` }
    if (!usable.some((root) => inside(root, real))) {
      return {
        problem: `${shown(given)} is outside the upload roots (the artifacts directory and --allowed-roots); copy the file there or start the server with --allowed-roots <dir>`
      }
    }
    const stat = await fs.stat(real).catch(() => undefined)
    if (stat === undefined || !stat.isFile()) return { problem: `${shown(given)} is not a regular file` }
    files.push(real)
  }
  return { files }
}
