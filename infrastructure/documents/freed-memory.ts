import { load } from 'koffi';

/**
 * Hands the heap's free pages back to the system, where the C library is glibc. A replaced reading
 * thread frees its image and tensor buffers into the process's malloc arenas, between blocks other
 * threads still hold (the Temporal core's, libvips's). glibc returns a freed block's pages only from
 * an arena's top, so without this the old thread's memory stays resident beside its replacement's.
 * `malloc_trim(0)` releases every whole free page in every arena. Elsewhere (musl, macOS) it is a
 * no-op: those allocators return memory in their own way.
 *
 * @returns whether glibc reported memory released.
 */
export function returnFreedMemory(): boolean {
  const trim = mallocTrim();
  return trim ? trim(0) === 1 : false;
}

let loaded: ((pad: number) => number) | null | undefined;

function mallocTrim(): ((pad: number) => number) | null {
  if (loaded !== undefined) return loaded;
  loaded = null;
  if (process.platform !== 'linux') return loaded;
  try {
    loaded = load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
  } catch {
    // Not glibc (Alpine's musl has no libc.so.6 nor malloc_trim): nothing to trim.
  }
  return loaded;
}
