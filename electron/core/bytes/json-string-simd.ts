/**
 * The WebAssembly SIMD scan of JSON strings and lines (json-string.wat): 16 bytes at a time where
 * the JavaScript scan does 4. Instantiated once on first use over a memory of its own (bytes to
 * scan are copied to [0, WINDOW)); the module imports its memory as shared (json-string.wat), so
 * it is null where WebAssembly, SIMD or shared memory is not available (the JavaScript scan is
 * then the only one). PURE (no I/O; the module is in the bundle).
 */
import { JSON_STRING_WASM } from './json-string-wasm';

export interface SimdScanner {
  /** The module's memory (its own: bytes to scan are copied to [0, WINDOW)). */
  readonly mem: Uint8Array;
  /** The closing quote in mem[i, end), -1 (control character or bad escape), or -2 - p (still open at p: p = end, or an escape that may not fit before end). */
  readonly scan: (i: number, end: number) => number;
  /** 1 when mem[start, end) is a line JsonLineValidator.valid accepts, else 0 (json-string.wat's validLine). */
  readonly validLine: (start: number, end: number) => number;
}

/** Bytes copied and scanned per call (the module's own memory holds this plus one page). */
export const WINDOW = 1 << 20;
const PAGE = 1 << 16;
/** The validator's container stack: MAX_DEPTH + 2 bytes (json-string.wat). */
export const STACK_BYTES = 1024;

/** What this file uses of the WebAssembly API (the Node typings here do not declare it). */
export interface WasmMemory {
  readonly buffer: ArrayBufferLike;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (d: { initial: number; maximum: number; shared: boolean }) => WasmMemory;
}

const wasmApi = (): WasmApi | undefined => (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let scanner: SimdScanner | null | undefined;
let compiled: object | null | undefined;

export function simdScan(): SimdScanner | null {
  if (scanner === undefined) {
    const memory = sharedMemory(WINDOW + STACK_BYTES);
    scanner = memory && simdScanIn(memory, WINDOW + 64);
  }
  return scanner;
}

/** A shared memory of at least `bytes`, or null (no WebAssembly threads here). */
export function sharedMemory(bytes: number): WasmMemory | null {
  try {
    const pages = Math.ceil(bytes / PAGE) + 1;
    return new (wasmApi()!.Memory)({ initial: pages, maximum: pages, shared: true });
  } catch {
    return null; // no WebAssembly, or no shared memory (a page that is not cross-origin isolated)
  }
}

/** The scanner over `memory`, its container stack at `stack` (STACK_BYTES there that nothing else uses), or null. */
export function simdScanIn(memory: WasmMemory, stack: number): SimdScanner | null {
  try {
    const wasm = wasmApi();
    if (!wasm) return null;
    if (compiled === undefined) {
      const bytes = Uint8Array.from(atob(JSON_STRING_WASM), (ch) => ch.charCodeAt(0));
      // Synchronous: the module is under 2 KB (engines allow small modules to compile on any thread).
      compiled = new wasm.Module(bytes);
    }
    const { exports } = new wasm.Instance(compiled!, { env: { memory, stack } });
    const scan = exports['stringEnd'] as (i: number, end: number) => number;
    const validLine = exports['validLine'] as (start: number, end: number) => number;
    return { mem: new Uint8Array(memory.buffer, 0, WINDOW), scan, validLine };
  } catch {
    compiled = null;
    return null; // no WebAssembly SIMD here (or a policy forbids compiling): scan in JavaScript
  }
}
