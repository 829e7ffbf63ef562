import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Texts meant for a person written into a component instead of taken from the messages: JSX text with a letter
 * in it, and string literals given to the attributes a person reads or hears (aria-label, title, placeholder,
 * alt, label…). Used by hard-coded-texts.test.ts over web/src; a finding names the file, line and text.
 */
const READ_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
  'description',
  'heading',
  'hint',
  'message',
  'emptyText',
]);
const LETTER = /\p{L}/u;

export interface HardCodedText {
  file: string;
  line: number;
  text: string;
}

export function findHardCodedTexts(file: string, source: string): HardCodedText[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: HardCodedText[] = [];
  const report = (node: ts.Node, text: string) =>
    found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text: text.trim() });
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && LETTER.test(node.text)) report(node, node.text);
    if (ts.isJsxAttribute(node) && READ_ATTRIBUTES.has(node.name.getText(sf)) && node.initializer) {
      const value = node.initializer;
      const literal = ts.isJsxExpression(value) ? value.expression : value;
      if (literal && (ts.isStringLiteral(literal) || ts.isNoSubstitutionTemplateLiteral(literal))) {
        if (LETTER.test(literal.text)) report(node, literal.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

export function componentFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.tsx') && !entry.name.endsWith('.test.tsx'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

export function hardCodedTextsIn(dir: string): HardCodedText[] {
  return componentFiles(dir).flatMap((file) => findHardCodedTexts(file, readFileSync(file, 'utf8')));
}
