// Types of scripts/check-imports.mjs, for its unit test.
export type Layers = Readonly<Record<string, ReadonlyArray<string> | "*">>
export declare const LAYERS: Layers
export declare const MAX_LINES: number
export declare const MAX_FUNCTION_LINES: number
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
    readonly maxLines?: number
    readonly maxFunctionLines?: number
  }
) => Array<string>
