import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { expect, it } from 'vitest';
import { assetsOf, embedSizes, lazyChunksOf, measureEmbed } from './size.ts';

const PAGE =
  '<script type="module" crossorigin src="/assets/main-1.js"></script><link rel="stylesheet" href="/assets/main-2.css">';

function fakeDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'svc-size-'));
  mkdirSync(join(dir, 'w'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'loader.js'), 'x'.repeat(1000));
  writeFileSync(join(dir, 'assets', 'main-1.js'), `${'a'.repeat(280)};import(\`./es-4.js\`)`);
  writeFileSync(join(dir, 'assets', 'es-4.js'), 'd'.repeat(700));
  writeFileSync(join(dir, 'assets', 'main-2.css'), 'b'.repeat(200));
  writeFileSync(join(dir, 'assets', 'other-3.js'), 'c'.repeat(5000));
  writeFileSync(join(dir, 'w', 'rmd.html'), PAGE);
  writeFileSync(join(dir, 'w', 'estate-tax.html'), PAGE);
  return dir;
}

it('finds the scripts and stylesheets a page loads', () => {
  expect(
    assetsOf('<script src="/assets/a-1.js"></script><link href="/assets/b-2.css"><img src="/assets/c.png">'),
  ).toEqual(['assets/a-1.js', 'assets/b-2.css']);
});

it('measures the loader and each page’s own JS and CSS', () => {
  const dir = fakeDist();
  const { loader, pages } = measureEmbed(dir);
  expect(loader).toMatchObject({
    file: 'loader.js',
    raw: 1000,
    gzip: gzipSync('x'.repeat(1000), { level: 9 }).length,
  });
  expect(pages.map((p) => p.file)).toEqual(['w/estate-tax.html (HTML+CSS+JS)', 'w/rmd.html (HTML+CSS+JS)']);
  expect(pages[0]!.raw).toBe(500 + PAGE.length);
  expect(pages[0]!.gzip).toBeGreaterThan(0);
  expect(pages[0]!.brotli).toBeGreaterThan(0);
  expect(embedSizes(dir)).toHaveLength(3);
});

it('measures the chunk a page imports only for another language, on its own', () => {
  expect(lazyChunksOf('x=()=>import(`./estate-tax-DRl.js`);import("./b.js")')).toEqual([
    'assets/estate-tax-DRl.js',
    'assets/b.js',
  ]);
  const { languages } = measureEmbed(fakeDist());
  expect(languages.map((c) => [c.file, c.raw])).toEqual([
    ['w/estate-tax.html language chunk', 700],
    ['w/rmd.html language chunk', 700],
  ]);
});
