/**
 * The WebAssembly SIMD scan of JSON strings and lines (json-string.wat): 16 bytes at a time where
 * the JavaScript scan does 4. Instantiated once, on first use; null where WebAssembly or SIMD is not
 * available (the JavaScript scan is then the only one). PURE (no I/O; the module is in the bundle).
 */
import { JSON_STRING_WASM } from './json-string-wasm';

export interface SimdScanner {
  /** The module's memory: bytes to scan are copied to [0, WINDOW). */
  readonly mem: Uint8Array;
  /** The closing quote in mem[i, end), -1 (control character or bad escape), or -2 - p (still open at p: p = end, or an escape that may not fit before end). */
  readonly scan: (i: number, end: number) => number;
  /** 1 when mem[start, end) is a line JsonLineValidator.valid accepts, else 0 (json-string.wat's validLine). */
  readonly validLine: (start: number, end: number) => number;
}

/** Bytes copied and scanned per call (the module's memory holds this plus one page). */
export const WINDOW = 1 << 20;

/** What this file uses of the WebAssembly API (the Node typings here do not declare it). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: Record<string, unknown> };
}

let scanner: SimdScanner | null | undefined;

export function simdScan(): SimdScanner | null {
  if (scanner === undefined) scanner = instantiate();
  return scanner;
}

function instantiate(): SimdScanner | null {
  try {
    const wasm = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;
    if (!wasm) return null;
    const bytes = Uint8Array.from(atob(JSON_STRING_WASM), (ch) => ch.charCodeAt(0));
    // Synchronous: the module is under 2 KB (engines allow small modules to compile on any thread).
    const { exports } = new wasm.Instance(new wasm.Module(bytes));
    const memory = exports['memory'] as { buffer: ArrayBuffer };
    const scan = exports['stringEnd'] as (i: number, end: number) => number;
    const validLine = exports['validLine'] as (start: number, end: number) => number;
    return { mem: new Uint8Array(memory.buffer, 0, WINDOW), scan, validLine };
  } catch {
    return null; // no WebAssembly SIMD here (or a policy forbids compiling): scan in JavaScript
  }
}
