import { setTimeout as wait } from 'node:timers/promises';

/**
 * A reading thread must not be terminated while ONNX Runtime's native code runs in it: the runtime's
 * own threads would finish into a torn-down environment and abort the whole process (seen: a page
 * that passed its time limit mid-inference, then `terminate called after throwing an instance of
 * 'Napi::Error'`). One shared word says which: the thread marks its native calls, and the pool waits
 * for the mark to clear, and claims the word so no new call starts, before it terminates the thread.
 * Tesseract runs in WebAssembly and may be stopped at any point.
 */
const IDLE = 0;
const IN_NATIVE = 1;
const STOPPING = 2;

/** How often the pool looks again, and how long it waits at most: one inference takes a second or two. */
const LOOK_EVERY_MS = 5;
const LONGEST_WAIT_MS = 30_000;

export function newNativeGuard(): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
}

/** In the reading thread: runs a native call unless the thread is being stopped, when it never returns. */
export function nativeCalls(guard: SharedArrayBuffer) {
  const word = new Int32Array(guard);
  return async <T>(run: () => Promise<T>): Promise<T> => {
    if (Atomics.compareExchange(word, 0, IDLE, IN_NATIVE) !== IDLE) return new Promise<T>(() => undefined);
    try {
      return await run();
    } finally {
      Atomics.compareExchange(word, 0, IN_NATIVE, IDLE);
    }
  };
}

/**
 * In the pool: waits until the thread is out of native code and claims the word so it cannot go back
 * in; true when claimed, false when the thread stayed inside past LONGEST_WAIT_MS.
 */
export async function claimOutsideNative(guard: SharedArrayBuffer): Promise<boolean> {
  const word = new Int32Array(guard);
  for (let waited = 0; waited <= LONGEST_WAIT_MS; waited += LOOK_EVERY_MS) {
    const state = Atomics.compareExchange(word, 0, IDLE, STOPPING);
    if (state === IDLE || state === STOPPING) return true;
    await wait(LOOK_EVERY_MS);
  }
  return false;
}
