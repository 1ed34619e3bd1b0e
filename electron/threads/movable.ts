/**
 * Memory of `bytes` that can be moved to another thread (postMessage's transfer list): its own
 * ArrayBuffer when it fills one, else a copy. A slice is never moved: a small Buffer shares Node's
 * pool slab with others, and moving it would detach theirs.
 */
export function movableBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (new Uint8Array(bytes).buffer as ArrayBuffer);
}
