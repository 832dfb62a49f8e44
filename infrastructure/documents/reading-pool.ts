import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { Logger } from 'pino';

import { detectDocumentFormat } from '../../domain/documents/document-format';
import type { DocumentReader, DocumentReading, ReadPage } from '../../domain/documents/document-reading';
import { notRead } from '../../domain/documents/document-reading';
import { projectRoot } from '../project-root';
import { returnFreedMemory } from './freed-memory';
import { claimOutsideNative, newNativeGuard } from './native-guard';
import { readDocument, summarise } from './read-document';
import { DEFAULT_READING_LIMITS, RECYCLE_THREAD_AFTER_PAGES } from './reading-limits';
import type { DocumentReadingLimits } from './reading-limits';

/**
 * The compiled thread entry. Tests run TypeScript through ts-jest, which a worker thread cannot load,
 * so they use the same compiled file (`npm test` builds first).
 */
export const READING_THREAD_ENTRY = path.join(
  projectRoot(),
  'dist',
  'infrastructure',
  'documents',
  'reading-thread.js',
);

export interface DocumentReadingSettings {
  /**
   * Threads reading at once; each holds one OCR engine (about 100 MB when warm) and keeps up to two
   * cores busy while it reads a page (the detector's two threads, then the two readers side by side).
   */
  threads: number;
  /** A page still unread after this long stops its document: the thread is replaced. */
  pageTimeoutMs: number;
  /** A thread is replaced after reading this many pages: the OCR engine's memory only grows. */
  recycleAfterPages: number;
  limits: DocumentReadingLimits;
}

export const DEFAULT_READING_SETTINGS: DocumentReadingSettings = {
  threads: 1,
  pageTimeoutMs: 20_000,
  recycleAfterPages: RECYCLE_THREAD_AFTER_PAGES,
  limits: DEFAULT_READING_LIMITS,
};

interface Job {
  id: number;
  bytes: Buffer;
  pages: ReadPage[];
  timer?: NodeJS.Timeout;
  resolve(reading: DocumentReading): void;
}

interface Slot {
  thread: Worker;
  /** Marks the thread's calls into ONNX Runtime's native code (native-guard.ts). */
  nativeGuard: SharedArrayBuffer;
  pagesRead: number;
  job?: Job;
}

/** Text needs no thread and no OCR: it is read where it is asked for. */
const NO_OCR = {
  recognise: () => Promise.reject(new Error('Text is never recognised')),
  readLines: () => Promise.reject(new Error('Text is never recognised')),
  readRegion: () => Promise.reject(new Error('Text is never recognised')),
  orientation: () => Promise.reject(new Error('Text is never recognised')),
  detect: () => Promise.reject(new Error('Text is never recognised')),
  close: async () => undefined,
};

/**
 * Reads documents in a few worker threads, off the worker's event loop (workflow tasks, heartbeats,
 * other activities). Every page has a hard time limit: a thread that passes it is terminated and
 * replaced, and its document is reported with the pages read so far and the rest as not read. A
 * document that cannot be read is a reading (`unreadable`, `unsupported`), never an exception, so no
 * activity retries it. Threads start on first use and are unref'd while idle.
 */
export class DocumentReadingPool implements DocumentReader {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly settings: DocumentReadingSettings = DEFAULT_READING_SETTINGS,
    private readonly options: { entry?: string; logger?: Logger } = {},
  ) {}

  async read(bytes: Buffer): Promise<DocumentReading> {
    if (this.closed) throw new Error('The document reading pool is closed');
    if (detectDocumentFormat(bytes) === 'text') return readDocument(bytes, NO_OCR, this.settings.limits);
    return new Promise((resolve) => {
      this.queue.push({ id: this.nextId++, bytes, pages: [], resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve(this.stopped(job, 'the reader was shut down'));
    await Promise.all(this.slots.splice(0).map((slot) => this.terminate(slot, 'the reader was shut down')));
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const slot = this.slots.find((candidate) => !candidate.job) ?? this.spawn();
      if (!slot) return;
      const job = this.queue.shift() as Job;
      slot.job = job;
      slot.thread.ref();
      this.arm(slot);
      slot.thread.postMessage({ id: job.id, bytes: job.bytes });
    }
  }

  private spawn(): Slot | undefined {
    if (this.slots.length >= this.settings.threads) return undefined;
    const nativeGuard = newNativeGuard();
    const thread = new Worker(this.options.entry ?? READING_THREAD_ENTRY, {
      workerData: { limits: this.settings.limits, nativeGuard },
    });
    const slot: Slot = { thread, nativeGuard, pagesRead: 0 };
    thread.unref();
    thread.on(
      'message',
      (message: { id: number; page?: ReadPage; reading?: DocumentReading; error?: string }) =>
        this.receive(slot, message),
    );
    thread.on('error', (error) => {
      this.options.logger?.error({ err: { name: error.name } }, 'A document reading thread crashed');
      void this.terminate(slot, 'the reader failed on this document');
    });
    thread.on('exit', () => void this.terminate(slot, 'the reader failed on this document'));
    this.slots.push(slot);
    return slot;
  }

  private receive(
    slot: Slot,
    message: { id: number; page?: ReadPage; reading?: DocumentReading; error?: string },
  ): void {
    const job = slot.job;
    if (!job || job.id !== message.id) return;
    if (message.page) {
      job.pages.push(message.page);
      slot.pagesRead += 1;
      this.arm(slot);
      return;
    }
    clearTimeout(job.timer);
    slot.job = undefined;
    slot.thread.unref();
    if (message.reading) job.resolve(message.reading);
    else {
      this.options.logger?.warn({ err: { name: message.error } }, 'A document could not be read');
      job.resolve(this.stopped(job, 'the reader failed on this document'));
    }
    // A thread that failed on a document is replaced too: whatever broke in it (a reader that could not
    // start, memory it could not get) must not fail every document after.
    if (message.error || slot.pagesRead >= this.settings.recycleAfterPages)
      void this.terminate(slot, 'recycled');
    this.dispatch();
  }

  /** (Re)starts the page timer: each page read gives the next one the whole limit. */
  private arm(slot: Slot): void {
    const job = slot.job as Job;
    clearTimeout(job.timer);
    job.timer = setTimeout(() => {
      this.options.logger?.warn(
        { limitMs: this.settings.pageTimeoutMs, pagesRead: job.pages.length },
        'A document page reached its time limit; its reading thread is replaced',
      );
      const seconds = this.settings.pageTimeoutMs / 1000;
      void this.terminate(slot, `reading a page took longer than the ${seconds}-second limit`).then(() =>
        this.dispatch(),
      );
    }, this.settings.pageTimeoutMs);
  }

  private async terminate(slot: Slot, reason: string): Promise<void> {
    const index = this.slots.indexOf(slot);
    if (index === -1) return;
    this.slots.splice(index, 1);
    const job = slot.job;
    slot.job = undefined;
    if (job) {
      clearTimeout(job.timer);
      job.resolve(this.stopped(job, reason));
    }
    slot.thread.removeAllListeners('exit');
    if (!(await claimOutsideNative(slot.nativeGuard))) {
      this.options.logger?.error(
        'A document reading thread stayed in native inference; it is stopped all the same',
      );
    }
    await slot.thread.terminate();
    await returnFreedMemory();
    if (!this.closed) this.dispatch();
  }

  /** What a stopped reading keeps: the pages read before it stopped, the next one listed as not read. */
  private stopped(job: Job, reason: string): DocumentReading {
    const format = detectDocumentFormat(job.bytes);
    if (job.pages.length === 0) return notRead(format, 'unreadable', `The document was not read: ${reason}.`);
    const next = Math.max(...job.pages.map((page) => page.number)) + 1;
    return summarise(format, job.pages, [{ number: next, reason }], next);
  }
}
