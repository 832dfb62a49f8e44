/**
 * Hands the heap's free pages back to the system, where the C library is glibc. A replaced reading
 * thread frees its image and tensor buffers into the process's malloc arenas, likely between blocks
 * other threads still hold (the Temporal core's, libvips's); glibc returns a freed block's pages only
 * from an arena's top, so without this the old thread's memory can stay resident beside its
 * replacement's. `malloc_trim(0)` releases every whole free page in every arena. Elsewhere (musl,
 * macOS), or without koffi's binary for the platform, it does nothing: those allocators return memory
 * in their own way, and a worker must start all the same.
 *
 * @returns whether glibc reported memory released.
 */
export async function returnFreedMemory(): Promise<boolean> {
  mallocTrim ??= loadMallocTrim();
  const trim = await mallocTrim;
  return trim ? trim(0) === 1 : false;
}

let mallocTrim: Promise<((pad: number) => number) | null> | undefined;

async function loadMallocTrim(): Promise<((pad: number) => number) | null> {
  try {
    const { header } = process.report.getReport() as { header: { glibcVersionRuntime?: string } };
    if (!header.glibcVersionRuntime) return null;
    // Loaded here, not at import: a platform without koffi's binary must still read documents.
    const { load } = await import('koffi');
    return load('libc.so.6').func('int malloc_trim(size_t pad)') as (pad: number) => number;
  } catch {
    return null;
  }
}
