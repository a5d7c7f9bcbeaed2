import { printMemoryFigures, runMemoryBench } from './memory.ts';

const runs: [string, string, string][] = [
  ['inproc', '', 'baseline (before)'],
  ['child', '', 'initdb in a child only'],
  ['inproc', 'shared_buffers=16MB', 'shared_buffers=16MB only'],
  ['child', 'shared_buffers=16MB', 'both (committed)'],
  ['child', 'shared_buffers=16MB temp_buffers=1MB wal_buffers=256kB', '+ temp_buffers=1MB wal_buffers=256kB'],
  ['child', 'shared_buffers=16MB max_connections=5', '+ max_connections=5'],
  [
    'child',
    'shared_buffers=16MB work_mem=1MB maintenance_work_mem=8MB',
    '+ work_mem=1MB maintenance_work_mem=8MB',
  ],
  ['child', 'shared_buffers=8MB', 'shared_buffers=8MB'],
  ['child', 'shared_buffers=4MB', 'shared_buffers=4MB'],
];
for (const [initdb, conf, label] of runs) {
  process.env.SVC_X_INITDB = initdb;
  process.env.SVC_X_CONF = conf;
  console.log(
    `\n## ${label}   (${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  printMemoryFigures(
    await runMemoryBench({
      loadSeconds: 5,
      settleSeconds: 3,
      env: { SVC_X_INITDB: initdb, SVC_X_CONF: conf },
    }),
  );
}
