import { expect, it } from 'vitest';
import { PATHS } from './http.ts';
import { change, parseRecordedHttp, RECORDED_HEADING, readRecordedHttp } from './recorded-figures.ts';

it('reads the recorded HTTP table: backend, path, req/s, × bare, p99 at 80 %', () => {
  const rows = parseRecordedHttp(
    `${RECORDED_HEADING}\n\n| backend | path | req/s | × bare | p99 at 80 % |\n|---|---|---|---|---|\n| bare node:http | \`GET /\` | 81,640 | 1.000 | — |\n| pglite | \`GET /licenses/status\` | 12,345 | 0.151 | 9 ms |\n\n## Next\n| pglite | \`GET /x\` | 1 | 1 | — |\n`,
  );
  expect([...rows.keys()]).toEqual(['bare node:http GET /', 'pglite GET /licenses/status']);
  expect(rows.get('pglite GET /licenses/status')).toEqual({ rps: 12_345, ratio: 0.151, p99At80Ms: 9 });
  expect(rows.get('bare node:http GET /')).toEqual({ rps: 81_640, ratio: 1 });
  expect([change(110, 100), change(60, 100)]).toEqual(['+10 %', '−40 %']);
});

it('docs/benchmarks.md records every figure `npm run bench -- http` compares', () => {
  const recorded = readRecordedHttp();
  const wanted = [
    'bare node:http GET /',
    ...['postgresql+redis', 'pglite'].flatMap((backend) => PATHS.map((path) => `${backend} ${path}`)),
  ];
  expect(wanted.filter((key) => !recorded.has(key))).toEqual([]);
});
