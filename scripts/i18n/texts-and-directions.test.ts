import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { componentFiles, hardCodedTextsIn } from './hard-coded-texts';

const WEB_SRC = path.resolve(import.meta.dirname, '../../web/src');

/**
 * Tailwind classes that name a physical side: in Arabic the page mirrors, so a margin, padding, position,
 * alignment, border or corner is given by its logical side (ms-/me-/ps-/pe-/start-/end-/text-start, border-s,
 * rounded-s…), which follows the text's direction. `-translate-x` and `space-x` are checked by eye.
 */
const PHYSICAL = new RegExp(
  String.raw`(?<![\w-])(?:[a-z0-9-]+:)*-?(?:ml|mr|pl|pr|left|right|scroll-ml|scroll-mr|scroll-pl|scroll-pr)-[\w./[\]-]+|` +
    String.raw`(?<![\w-])(?:[a-z0-9-]+:)*(?:text-left|text-right|float-left|float-right|clear-left|clear-right)(?![\w-])|` +
    String.raw`(?<![\w-])(?:[a-z0-9-]+:)*(?:rounded-(?:l|r|tl|tr|bl|br)|border-(?:l|r))(?:-[\w./[\]-]+)?(?![\w-])`,
  'g',
);

describe('the web app', () => {
  it('lays out by logical sides only, so that Arabic mirrors', () => {
    const physical = componentFiles(WEB_SRC)
      .concat(path.join(WEB_SRC, 'index.css'))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, index) =>
            [...line.matchAll(PHYSICAL)].map((m) => `${path.relative(WEB_SRC, file)}:${index + 1} ${m[0]}`),
          ),
      );
    expect(physical).toEqual([]);
  });

  it('takes every text meant for a person from the messages (contracts/i18n)', () => {
    const texts = hardCodedTextsIn(WEB_SRC).map(
      ({ file, line, text }) => `${path.relative(WEB_SRC, file)}:${line} ${JSON.stringify(text)}`,
    );
    expect(texts).toEqual([]);
  });
});
