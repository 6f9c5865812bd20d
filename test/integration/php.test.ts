/**
 * PHP with intelephense, on a real library: monolog 2.9.1 and the psr/log
 * interfaces it implements, as Debian packages them (unpacked by the
 * install step), with a composer.json at the top as a project has. The
 * first question to a cold server is right: intelephense indexes the
 * workspace as it starts, and a definition asked before it finished came
 * back empty (exit 1, no word on stderr). What intelephense answers only
 * with a licence (rename, implementations) exits 3 saying so.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { git, Lspq, REPO } from '../helpers/lspq';

const lspq = new Lspq();
const root = mkdtempSync(join(tmpdir(), 'lspq-monolog-'));
for (const pkg of ['Monolog', 'Psr'])
  cpSync(join(REPO, '.tools', 'php-src', pkg), join(root, pkg), { recursive: true });
writeFileSync(join(root, 'composer.json'), '{ "name": "monolog/monolog" }\n');
git(root, 'init', '-q');
git(root, 'add', '-A');
git(root, 'commit', '-qm', 'monolog 2.9.1');
afterAll(async () => {
  expect(await lspq.stop()).toEqual([]);
  rmSync(root, { recursive: true, force: true });
});

const ask = (args: string[]) => lspq.run([...args, '--server', 'intelephense'], { cwd: root });

const DEF =
  'Monolog/DateTimeImmutable.php:22:7: class DateTimeImmutable extends \\DateTimeImmutable implements \\JsonSerializable\n';
const REFS = [
  'Monolog/Formatter/NormalizerFormatter.php:14:5: use Monolog\\DateTimeImmutable;',
  'Monolog/Formatter/NormalizerFormatter.php:267:73: if ($this->dateFormat === self::SIMPLE_DATE && $date instanceof DateTimeImmutable) {  (in NormalizerFormatter.formatDate)',
  'Monolog/Logger.php:335:16: * @param  DateTimeImmutable $datetime Optional log date to log into the past or future  (in Logger.addRecord)',
  'Monolog/Logger.php:340:81: public function addRecord(int $level, string $message, array $context = [], DateTimeImmutable $datetime = null): bool  (in Logger.addRecord)',
  "Monolog/Logger.php:382:56: 'datetime' => $datetime ?? new DateTimeImmutable($this->microsecondTimestamps, $this->timezone),  (in Logger.addRecord)",
  'Monolog/Processor/PsrLogMessageProcessor.php:62:59: if (!$this->dateFormat && $val instanceof \\Monolog\\DateTimeImmutable) {  (in PsrLogMessageProcessor.__invoke)',
  'Monolog/Test/TestCase.php:15:5: use Monolog\\DateTimeImmutable;',
  "Monolog/Test/TestCase.php:55:31: 'datetime' => new DateTimeImmutable(true),  (in TestCase.getRecord)",
  '',
].join('\n');
const LICENCE = "only with a licence (intelephense's licenceKey, in .lsp.json's initializationOptions)";

describe('intelephense on monolog 2.9.1', () => {
  test('cold, the first question: def across files, once the workspace is indexed', async () => {
    const r = await ask(['def', 'Monolog/Logger.php:340:DateTimeImmutable']);
    expect([r.stdout, r.exit, r.stderr]).toEqual([DEF, 0, '']);
  });

  test('with --no-daemon, a server of its own, cold: the same', async () => {
    const r = await ask(['def', 'Monolog/Logger.php:340:DateTimeImmutable', '--no-daemon']);
    expect([r.stdout, r.exit]).toEqual([DEF, 0]);
  });

  test('refs of a class: every use, docblocks included', async () => {
    const r = await ask(['refs', 'Monolog/DateTimeImmutable.php:22:DateTimeImmutable']);
    expect([r.stdout, r.exit]).toEqual([REFS, 0]);
  });

  test('hover: the signature and its docblock', async () => {
    const r = await ask(['hover', 'Monolog/Logger.php:340:addRecord']);
    expect(r.exit).toBe(0);
    expect(r.stdout.split('\n').slice(0, 3)).toEqual(['__Monolog\\\\Logger::addRecord__', '', 'Adds a log record.']);
    expect(r.stdout).toContain('    ?DateTimeImmutable $datetime = null\n): bool { }');
  });

  test('symbols of a file as a tree', async () => {
    const r = await ask(['symbols', 'Monolog/DateTimeImmutable.php', '--kind', 'class,method,constructor']);
    expect([r.stdout, r.exit]).toEqual([
      [
        'Monolog/DateTimeImmutable.php:22:7: class DateTimeImmutable',
        'Monolog/DateTimeImmutable.php:29:21:   constructor __construct',
        'Monolog/DateTimeImmutable.php:36:21:   method jsonSerialize',
        'Monolog/DateTimeImmutable.php:45:21:   method __toString',
        '',
      ].join('\n'),
      0,
    ]);
  });

  test('diag: what intelephense finds in Logger.php (psr/log beside it, so no undefined types)', async () => {
    const r = await ask(['diag', 'Monolog/Logger.php', '--severity', 'hint']);
    expect([r.stdout, r.exit]).toEqual([
      [
        "Monolog/Logger.php:18:1: hint: Symbol 'LogLevel' is declared but not used. [intelephense P1003]",
        'Monolog/Logger.php:340:81: hint: Implicitly nullable parameters are deprecated. [intelephense P1078]',
        '',
      ].join('\n'),
      0,
    ]);
  });

  test('fmt: the PSR-12 layout as a diff, the file untouched', async () => {
    const file = join(root, 'Monolog/DateTimeImmutable.php');
    const before = readFileSync(file, 'utf8');
    const r = await ask(['fmt', 'Monolog/DateTimeImmutable.php']);
    expect(r.exit).toBe(0);
    expect(r.stdout.split('\n').slice(0, 10)).toEqual([
      'diff --git a/Monolog/DateTimeImmutable.php b/Monolog/DateTimeImmutable.php',
      '--- a/Monolog/DateTimeImmutable.php',
      '+++ b/Monolog/DateTimeImmutable.php',
      '@@ -1,5 +1,7 @@',
      '-<?php declare(strict_types=1);',
      '+<?php',
      ' ',
      '+declare(strict_types=1);',
      '+',
      ' /*',
    ]);
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  test('rename and impls: exit 3, saying intelephense answers them only with a licence', async () => {
    const rename = await ask(['rename', 'Monolog/Logger.php:340:addRecord', 'addRec']);
    const impls = await ask(['impls', 'Monolog/Handler/HandlerInterface.php:22:HandlerInterface']);
    expect([rename.exit, impls.exit]).toEqual([3, 3]);
    expect(rename.stderr).toContain(`intelephense answers rename ${LICENCE}`);
    expect(impls.stderr).toContain(`intelephense answers implementations ${LICENCE}`);
  });

  test('servers --for names what takes a licence', async () => {
    const r = await lspq.run(['servers', '--for', 'Monolog/Logger.php'], { cwd: root });
    expect(r.stdout).toContain(`  ${LICENCE}: typedef impls calls actions rename\n`);
    expect(r.exit).toBe(0);
  });

  test('after an edit on disk a new use is found, and after it is taken back the uses are as before', async () => {
    const file = join(root, 'Monolog/Utils.php');
    const before = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      `${before}\nfunction lspqNow(): \\Monolog\\DateTimeImmutable { return new \\Monolog\\DateTimeImmutable(true); }\n`,
    );
    const lines = before.split('\n').length;
    const edited = await ask(['refs', 'Monolog/DateTimeImmutable.php:22:DateTimeImmutable']);
    const added = `function lspqNow(): \\Monolog\\DateTimeImmutable { return new \\Monolog\\DateTimeImmutable(true); }`;
    // In path order: Monolog/Utils.php after Monolog/Test/; a qualified name's place is where it starts, its \.
    expect([edited.stdout, edited.exit]).toEqual([
      `${REFS}Monolog/Utils.php:${lines + 1}:21: ${added}  (in lspqNow)\nMonolog/Utils.php:${lines + 1}:61: ${added}  (in lspqNow)\n`,
      0,
    ]);
    writeFileSync(file, before);
    const back = await ask(['refs', 'Monolog/DateTimeImmutable.php:22:DateTimeImmutable']);
    expect([back.stdout, back.exit]).toEqual([REFS, 0]);
  });
});
