import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Logger } from 'pino';

import type { CaseCount } from '../../infrastructure/cases/case-summaries.repository';

import { FEEDBACK_METRICS } from '../cases/cases.module';
import type { RequestObserver } from '../common/http-edge';

/**
 * How long one count of cases serves scrapes: several Prometheus replicas (or an operator's curl)
 * scraping every few seconds then cost the database one grouped query per window, not one each.
 */
export const CASE_COUNTS_TTL_MS = 5_000;

/**
 * How long a scrape waits for a fresh count before answering with the last one: a database that
 * hangs must not hold the scrape past Prometheus's timeout, or every API would look down.
 */
export const CASE_COUNTS_SCRAPE_WAIT_MS = 1_000;

/**
 * The API process's metrics: its requests by route template, the cases by type and status (read
 * at scrape time from the case summaries), and Node's own. No label names an account, a case or
 * a path with an id in it: tenants and ids would grow the series without bound.
 */
export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly durations: Histogram<'method' | 'route'>;
  private countsSnapshot?: { at: number; counts: CaseCount[] };
  private countsRefresh?: Promise<void>;

  constructor(
    private readonly countCases: () => Promise<CaseCount[]>,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({
      name: 'http_requests_total',
      help: 'HTTP requests answered, by method, route template and status code.',
      labelNames: ['method', 'route', 'status'],
      registers: [this.registry],
    });
    this.durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from a request arriving to its response finishing, by method and route template.',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers: [this.registry],
    });
    for (const counter of Object.values(FEEDBACK_METRICS)) this.registry.registerMetric(counter);
    this.caseGauge(
      'cases',
      'Cases by type and status across all accounts, from the case summaries read model.',
      (count) => count.count,
    );
    this.caseGauge(
      'cases_overdue',
      'Open cases past their due time (prior authorizations: 72 h, expedited 24 h), by type and status.',
      (count) => count.overdue,
    );
  }

  /** A gauge by case type and status, set at each scrape from one shared count of the cases. */
  private caseGauge(name: string, help: string, value: (count: CaseCount) => number): void {
    const caseCounts = () => this.caseCounts();
    new Gauge({
      name,
      help,
      labelNames: ['type', 'status'],
      registers: [this.registry],
      async collect() {
        const counts = await caseCounts();
        this.reset();
        for (const count of counts) this.set({ type: count.object, status: count.status }, value(count));
      },
    });
  }

  readonly observeRequest: RequestObserver = ({ method, route, status, durationSeconds }) => {
    this.requests.inc({ method, route, status: String(status) });
    this.durations.observe({ method, route }, durationSeconds);
  };

  /** The Prometheus text exposition of every metric. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }

  /**
   * The last count of cases, refreshed when older than its TTL by one query at a time. A scrape
   * waits for that query only briefly; a database that fails leaves the case gauges empty until it
   * answers again, and the other metrics still serve.
   */
  private async caseCounts(): Promise<CaseCount[]> {
    if (!this.countsSnapshot || this.now() - this.countsSnapshot.at >= CASE_COUNTS_TTL_MS) {
      this.countsRefresh ??= this.refreshCaseCounts().finally(() => (this.countsRefresh = undefined));
      let timer: NodeJS.Timeout | undefined;
      const patience = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, CASE_COUNTS_SCRAPE_WAIT_MS);
      });
      await Promise.race([this.countsRefresh, patience]);
      clearTimeout(timer);
    }
    return this.countsSnapshot?.counts ?? [];
  }

  private async refreshCaseCounts(): Promise<void> {
    try {
      this.countsSnapshot = { at: this.now(), counts: await this.countCases() };
    } catch (error) {
      // The error's class only: a driver's message may quote what it failed on.
      this.logger.warn({ error: (error as Error).name }, 'could not count cases for the metrics');
      this.countsSnapshot = undefined;
    }
  }
}
