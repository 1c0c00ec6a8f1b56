// Types of scripts/build-if-stale.mjs, for its unit test.
export declare const BUILT: ReadonlyArray<string>
export declare const SOURCES: ReadonlyArray<string>
export declare const staleReason: (root: string) => string | undefined
