/**
 * The two metrics written on every request, kept here rather than in prom-client's Histogram and Counter:
 * prom-client validates and hashes the labels and allocates a closure on every observation (about 0.6 µs,
 * measured), where these find their series in a map or two and add to a number. prom-client's registry serves them
 * like its own metrics: it asks `get()` for the values at scrape time.
 */

interface Series {
  labels: { route: string; method: string; status: string };
  /** Observations per bucket, not cumulative; the last one is +Inf. */
  counts: number[];
  sum: number;
  count: number;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']);

export class RequestHistogram {
  readonly name = 'sleeve_http_request_duration_seconds';
  readonly help = 'HTTP requests by route template, method and status: how long each took to answer.';
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  /**
   * route → its series, each with the method and status it counts. A route sees a handful of method and status
   * pairs, so a scan finds one by identity: a `METHOD status` key made per request was a new string to hash.
   */
  private byRoute = new Map<string, Array<Series & { method: string; status: number }>>();

  constructor(private readonly bounds: readonly number[]) {}

  observe(route: string, method: string, status: number, seconds: number): void {
    let list = this.byRoute.get(route);
    if (list === undefined) this.byRoute.set(route, (list = []));
    let series: Series | undefined;
    for (let j = 0; j < list.length; j++) {
      const candidate = list[j]!;
      if (candidate.status === status && candidate.method === method) {
        series = candidate;
        break;
      }
    }
    if (series === undefined) {
      // A method outside the usual few (the Fetch API takes any token) is one label, so the set stays bounded.
      const labels = { route, method: METHODS.has(method) ? method : 'OTHER', status: String(status) };
      const added = { labels, counts: new Array<number>(this.bounds.length + 1).fill(0), sum: 0, count: 0, method, status };
      list.push(added);
      series = added;
    }
    const { bounds } = this;
    let i = 0;
    while (i < bounds.length && seconds > bounds[i]!) i++;
    series.counts[i]!++;
    series.sum += seconds;
    series.count++;
  }

  /** prom-client's metric shape: cumulative `_bucket`s with `le`, then `_sum` and `_count`, per series. */
  async get() {
    const values: Array<{ labels: Record<string, string | number>; value: number; metricName: string }> = [];
    // Two methods of one route may share a label set (a method beyond the usual few): added up here.
    const merged = new Map<string, Series>();
    for (const list of this.byRoute.values()) {
      for (const series of list) {
        const key = `${series.labels.route} ${series.labels.method} ${series.labels.status}`;
        const into = merged.get(key);
        if (!into) merged.set(key, { labels: series.labels, counts: [...series.counts], sum: series.sum, count: series.count });
        else {
          series.counts.forEach((n, i) => (into.counts[i]! += n));
          into.sum += series.sum;
          into.count += series.count;
        }
      }
    }
    for (const { labels, counts, sum, count } of merged.values()) {
      let cumulative = 0;
      for (let i = 0; i < counts.length; i++) {
        cumulative += counts[i]!;
        values.push({ labels: { ...labels, le: i < this.bounds.length ? this.bounds[i]! : '+Inf' }, value: cumulative, metricName: `${this.name}_bucket` });
      }
      values.push({ labels, value: sum, metricName: `${this.name}_sum` }, { labels, value: count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.byRoute = new Map();
  }
}

/** `sleeve_graphql_operations_total`: operation × type × outcome, one number each. */
export class OperationCounter {
  readonly name = 'sleeve_graphql_operations_total';
  readonly help = 'GraphQL operations executed, by operation name (anonymous, a known name, or other), type and outcome.';
  readonly type = 'counter';
  readonly aggregator = 'sum';
  /** operation → its series (a few types and outcomes, found by a scan: no key string made per operation). */
  private series = new Map<string, Array<{ labels: { operation: string; type: string; outcome: string }; value: number }>>();

  inc(operation: string, type: string, outcome: string): void {
    let list = this.series.get(operation);
    if (list === undefined) this.series.set(operation, (list = []));
    for (let j = 0; j < list.length; j++) {
      const { labels } = list[j]!;
      if (labels.type === type && labels.outcome === outcome) {
        list[j]!.value++;
        return;
      }
    }
    list.push({ labels: { operation, type, outcome }, value: 1 });
  }

  async get() {
    const values = [...this.series.values()].flat().map(({ labels, value }) => ({ labels, value }));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.series = new Map();
  }
}
