// Types of scripts/check-imports.mjs, for its unit test.
export type Layers = Readonly<Record<string, ReadonlyArray<string> | "*">>
export declare const LAYERS: Layers
export declare const ALLOWED_IMPORTS: Readonly<Record<string, string>>
export declare const MAX_LINES: number
export declare const ALLOWED_LONG_FILES: Readonly<Record<string, string>>
export declare const MAX_FUNCTION_LINES: number
export declare const ALLOWED_LONG_FUNCTIONS: Readonly<Record<string, string>>
export declare const importGraph: (
  root: string
) => Map<string, { readonly imports: ReadonlyArray<string>; readonly lines: number; readonly text: string }>
export declare const longFunctions: (
  fileName: string,
  text: string,
  maxLines?: number
) => Array<{ readonly name: string; readonly line: number; readonly lines: number }>
export declare const checkImports: (
  root: string,
  options?: {
    readonly layers?: Layers
    readonly allowedImports?: Readonly<Record<string, string>>
    readonly allowedLongFiles?: Readonly<Record<string, string>>
    readonly maxLines?: number
    readonly allowedLongFunctions?: Readonly<Record<string, string>>
    readonly maxFunctionLines?: number
  }
) => Array<string>
