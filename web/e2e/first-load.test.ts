// Issue 23 part 2: what a new visitor's first page costs on the wire, in
// headless Chromium against the real Go server serving web/dist, for an
// English and a Portuguese browser. The figures are printed (sizes and
// timings are never pass/fail here; `npm run size` holds the budget).
// OFICINA_COMPARE_BIN and OFICINA_COMPARE_WEB name an older server binary and
// its built SPA to measure beside it in the same run; OFICINA_WIRE_DETAIL=1
// lists every response.

import { afterAll, describe, expect, it } from 'vitest';
import { formatWireLoad, preflight, startServer, wireLoad, type Server } from './harness';

const servers: Server[] = [];

describe('the first load on the wire', () => {
  afterAll(async () => {
    for (const s of servers) await s.stop();
  }, 60_000);

  it('measures the landing page for a signed-out visitor', async () => {
    const builds: Array<[string, string, string[]]> = [['this build', preflight(), []]];
    const { OFICINA_COMPARE_BIN: oldBin, OFICINA_COMPARE_WEB: oldWeb } = process.env;
    if (oldBin && oldWeb) builds.unshift(['compared build', oldBin, ['--web', oldWeb]]);
    const lines: string[] = [];
    for (const [name, bin, args] of builds) {
      const server = await startServer(bin, args);
      servers.push(server);
      for (const locale of ['en-US', 'pt-BR']) {
        const load = await wireLoad(server.baseURL, '/', locale);
        expect(load.requests).toBeGreaterThan(0);
        lines.push(`${name}, ${locale} browser: ${formatWireLoad(load)}`);
        if (process.env.OFICINA_WIRE_DETAIL === '1') {
          for (const r of [...load.rows].sort((a, b) => b.bytes - a.bytes)) lines.push(`    ${(r.bytes / 1024).toFixed(1).padStart(7)} KB  ${r.kind.padEnd(10)} ${r.encoding.padEnd(4)} ${r.path}`);
        }
      }
    }
    console.log(`landing page (/) on the wire, new visitor, Chromium against the real server:\n  ${lines.join('\n  ')}`);
  });
});
