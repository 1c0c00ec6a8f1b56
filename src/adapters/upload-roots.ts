// Which local files mm_upload_file may hand to a page: regular files under the configured roots (the
// artifacts directory and --allowed-roots), after following symbolic links, and never a file that holds
// the session's secrets (saved storage states, step records, reports, recorded traces and HARs, the
// --secrets and --storage-state files, a --user-data-dir profile, the --config file and the storage states
// its fixtures name). One small check, kept apart so that a wider file policy can take it over.
import * as fs from "node:fs/promises"
import * as path from "node:path"

/**
 * The artifacts directory's subdirectories that hold session data: cookies, typed values, records, and the
 * sessions' recordings (traces and HARs keep what the pages showed and sent, response bodies with tokens).
 */
export const SESSION_DATA_DIRS: ReadonlyArray<string> = ["storage-state", "llm-knowledge", "reports", "sessions"]

export interface UploadPolicy {
  /** The roots uploads may read from: the artifacts directory first, then --allowed-roots. */
  readonly roots: ReadonlyArray<string>
  /** Files and directories no upload reads from, whatever the roots say. */
  readonly refused: ReadonlyArray<string>
}

export const uploadRootsOf = (settings: {
  readonly artifactsDir: string
  readonly allowedRoots: ReadonlyArray<string>
  readonly secrets?: string | undefined
  readonly storageState?: string | undefined
  readonly userDataDir?: string | undefined
  readonly configFile?: string | undefined
  readonly configDir?: string | undefined
  readonly fixtures?: Readonly<Record<string, unknown>> | undefined
}): UploadPolicy => {
  const artifacts = path.resolve(settings.artifactsDir)
  // The config file (it may hold endpointHeaders) and the storage states its fixtures name (signed-in sessions).
  const fixtureFiles = Object.values(settings.fixtures ?? {})
    .filter((fixture): fixture is string => typeof fixture === "string")
    .map((file) => path.resolve(settings.configDir ?? ".", file))
  return {
    roots: [artifacts, ...settings.allowedRoots.map((root) => path.resolve(root))],
    refused: [
      ...SESSION_DATA_DIRS.map((name) => path.join(artifacts, name)),
      ...[settings.secrets, settings.storageState, settings.userDataDir, settings.configFile]
        .filter((file): file is string => file !== undefined)
        .map((file) => path.resolve(file)),
      ...fixtureFiles
    ]
  }
}

/** A path as an error may show it: never more than 120 characters of what the caller sent. */
const shown = (file: string) => JSON.stringify(file.length > 120 ? `${file.slice(0, 117)}...` : file)

const inside = (root: string, file: string) => {
  const relative = path.relative(root, file)
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative)
}

const within = (refused: string, file: string) => file === refused || inside(refused, file)

/**
 * Each refused place as it is named and as it really is: its real path when it exists; else its parent's
 * real path joined with its name (a storage-state directory not made yet lives under the real artifacts directory).
 */
const refusedPlaces = async (refused: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
  const places = await Promise.all(
    refused.map(async (place) => {
      const real = await fs.realpath(place).catch(async () => {
        const parent = await fs.realpath(path.dirname(place)).catch(() => undefined)
        return parent === undefined ? undefined : path.join(parent, path.basename(place))
      })
      return real === undefined ? [place] : [place, real]
    })
  )
  return places.flat()
}

/**
 * Resolves each path (relative ones against the first root) to the real file it names, or says why it
 * may not be uploaded: missing, not a regular file, outside every root once links are followed, or
 * holding the session's data.
 */
export const checkUploadPaths = async (
  paths: ReadonlyArray<string>,
  policy: UploadPolicy
): Promise<{ readonly files: ReadonlyArray<string> } | { readonly problem: string }> => {
  const { roots } = policy
  const realRoots = await Promise.all(roots.map((root) => fs.realpath(root).catch(() => undefined)))
  const usable = realRoots.filter((root): root is string => root !== undefined)
  const refused = await refusedPlaces(policy.refused)
  const files: Array<string> = []
  for (const given of paths) {
    const resolved = path.resolve(roots[0] ?? ".", given)
    const real = await fs.realpath(resolved).catch(() => undefined)
    if (real === undefined) return { problem: `${shown(given)} does not exist` }
    if (refused.some((place) => within(place, real) || within(place, resolved))) {
      return {
        problem: `${shown(given)} holds session data the server wrote or was given (a saved storage state, a step record, a report, the secrets or a profile): it is never uploaded`
      }
    }
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
