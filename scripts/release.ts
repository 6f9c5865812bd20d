/**
 * npm run release: lspq for every platform Bun compiles to, from this
 * machine. Writes
 *   dist/release/lspq-OS-CPU[.exe] and SHA256SUMS (sha256sum -c checks it);
 *   dist/npm/lspq/       the `lspq` package: its bin is made the binary of
 *                        the @lspq/OS-CPU package npm installed beside it
 *                        (one of its optional dependencies, chosen by npm
 *                        from their os and cpu fields) by its install step,
 *                        as esbuild's is; where that cannot be (Windows,
 *                        --ignore-scripts), bin/lspq is a Node launcher
 *                        that runs that binary;
 *   dist/npm/OS-CPU/     each @lspq/OS-CPU package, its binary in bin/;
 *   dist/npm/*.tgz       each package packed (npm pack), to install as is.
 * Each binary is built as dist/lspq is (scripts/build.ts), for its target;
 * Bun fetches each target's runtime from npm the first time.
 */
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildId, bundleOptions, compileOptions } from './build';

const root = join(import.meta.dir, '..');
const { version, description } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  version: string;
  description: string;
};

/** npm's names for each platform (process.platform, process.arch) and Bun's target for it. */
export const PLATFORMS = [
  { os: 'linux', cpu: 'x64', target: 'bun-linux-x64' },
  { os: 'linux', cpu: 'arm64', target: 'bun-linux-arm64' },
  { os: 'darwin', cpu: 'x64', target: 'bun-darwin-x64' },
  { os: 'darwin', cpu: 'arm64', target: 'bun-darwin-arm64' },
  { os: 'win32', cpu: 'x64', target: 'bun-windows-x64' },
] as const;

/** The binary's file name on a platform (Windows wants .exe). */
const binaryName = (os: string) => (os === 'win32' ? 'lspq.exe' : 'lspq');
/** The release asset's name: lspq-linux-x64, lspq-windows-x64.exe. */
const assetName = (os: string, cpu: string) =>
  `lspq-${os === 'win32' ? 'windows' : os}-${cpu}${os === 'win32' ? '.exe' : ''}`;

/** The launcher the `lspq` package's bin runs: the platform package's binary, stdio and exit code passed through. */
const LAUNCHER = `#!/usr/bin/env node
// lspq's npm launcher: runs the binary of the @lspq/<os>-<cpu> package npm installed for this machine.
'use strict';
const { spawnSync } = require('node:child_process');
const name = \`@lspq/\${process.platform}-\${process.arch}\`;
const file = process.platform === 'win32' ? 'lspq.exe' : 'lspq';
let binary;
try {
  binary = require.resolve(\`\${name}/bin/\${file}\`);
} catch {
  console.error(\`lspq: no binary for \${process.platform}-\${process.arch} (the package \${name} is not installed); reinstall lspq without --no-optional, or download a release binary\`);
  process.exit(3);
}
const run = spawnSync(binary, process.argv.slice(2), { stdio: 'inherit' });
if (run.error) {
  console.error(\`lspq: cannot run \${binary}: \${run.error.message}\`);
  process.exit(3);
}
process.exit(run.status ?? 3);
`;

/**
 * The `lspq` package's install step: its bin becomes the platform
 * package's binary itself (a hard link, else a copy), checked by running
 * it, so a call costs the binary's start and not Node's as well. Anything
 * that fails leaves the launcher, which works everywhere.
 *
 * The binary npm unpacked is first replaced by a copy of itself. npm's
 * unpacking writes it in small pieces, and the kernel keeps a file's pages
 * cached in the pieces they were written in: each start maps the binary a
 * piece per page fault, about 50 more faults than a file written whole, and
 * `--version` took 1.25-1.33x the release binary's time, a plain copy
 * 1.00x (perf stat: 864 page faults against 814; the same bytes read back
 * whole with `cat` after the pages were dropped: 821). The copy is written
 * whole, replaces npm's file (one file on disk, as before) and the bin links
 * to it.
 */
const INSTALL = `'use strict';
// lspq's install step: bin/lspq becomes the @lspq/<os>-<cpu> binary where the platform allows (not Windows,
// whose npm shims run bin files with node); anything that fails leaves the Node launcher in place.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
if (process.platform === 'win32') process.exit(0);
let binary;
try {
  binary = require.resolve(\`@lspq/\${process.platform}-\${process.arch}/bin/lspq\`);
} catch {
  process.exit(0);
}
// Written whole: the pages of npm's small writes cost every start about 50 page faults more (scripts/release.ts).
const whole = \`\${binary}.\${process.pid}.whole\`;
try {
  fs.copyFileSync(binary, whole);
  fs.chmodSync(whole, 0o755);
  fs.renameSync(whole, binary);
} catch {
  try {
    fs.unlinkSync(whole);
  } catch {}
}
const bin = path.join(__dirname, 'bin', 'lspq');
const temporary = \`\${bin}.\${process.pid}.tmp\`;
try {
  try {
    fs.linkSync(binary, temporary);
  } catch {
    fs.copyFileSync(binary, temporary);
  }
  fs.chmodSync(temporary, 0o755);
  const check = spawnSync(temporary, ['--version'], { encoding: 'utf8', timeout: 10000 });
  if (check.status !== 0 || !check.stdout.startsWith('lspq ')) throw new Error('it did not run');
  fs.renameSync(temporary, bin);
} catch {
  try {
    fs.unlinkSync(temporary);
  } catch {}
}
`;

async function compile(target: string, outfile: string, id: string): Promise<void> {
  const options = compileOptions(outfile);
  const result = await Bun.build({
    ...bundleOptions(id),
    ...options,
    compile: { ...options.compile, target: target as Bun.Build.CompileTarget },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(String(log));
    throw new Error(`building ${target} failed`);
  }
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

if (import.meta.main) {
  const id = buildId();
  const release = join(root, 'dist', 'release');
  const npm = join(root, 'dist', 'npm');
  rmSync(release, { recursive: true, force: true });
  rmSync(npm, { recursive: true, force: true });
  mkdirSync(release, { recursive: true });
  const sums: string[] = [];
  for (const p of PLATFORMS) {
    const asset = join(release, assetName(p.os, p.cpu));
    await compile(p.target, asset, id);
    sums.push(`${sha256(asset)}  ${assetName(p.os, p.cpu)}`);
    const dir = join(npm, `${p.os}-${p.cpu}`);
    mkdirSync(join(dir, 'bin'), { recursive: true });
    copyFileSync(asset, join(dir, 'bin', binaryName(p.os)));
    chmodSync(join(dir, 'bin', binaryName(p.os)), 0o755);
    const pkg = {
      name: `@lspq/${p.os}-${p.cpu}`,
      version,
      description: `lspq's binary for ${p.os} ${p.cpu}`,
      license: 'MIT',
      os: [p.os],
      cpu: [p.cpu],
      files: ['bin/'],
      preferUnplugged: true,
    };
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
    console.log(`built ${assetName(p.os, p.cpu)}`);
  }
  writeFileSync(join(release, 'SHA256SUMS'), `${sums.join('\n')}\n`);
  const main = join(npm, 'lspq');
  mkdirSync(join(main, 'bin'), { recursive: true });
  writeFileSync(join(main, 'bin', 'lspq'), LAUNCHER);
  chmodSync(join(main, 'bin', 'lspq'), 0o755);
  writeFileSync(join(main, 'install.js'), INSTALL);
  const pkg = {
    name: 'lspq',
    version,
    description,
    license: 'MIT',
    bin: { lspq: 'bin/lspq' },
    files: ['bin/', 'install.js'],
    scripts: { postinstall: 'node install.js' },
    optionalDependencies: Object.fromEntries(PLATFORMS.map((p) => [`@lspq/${p.os}-${p.cpu}`, version])),
  };
  writeFileSync(join(main, 'package.json'), `${JSON.stringify(pkg, null, 2)}\n`);
  // Packed as npm publishes them: what `npm install -g dist/npm/lspq-VERSION.tgz ...` takes.
  for (const dir of ['lspq', ...PLATFORMS.map((p) => `${p.os}-${p.cpu}`)]) {
    const packed = Bun.spawnSync(['npm', 'pack', '--pack-destination', npm, join(npm, dir)], {
      stdout: 'ignore',
      stderr: 'pipe',
    });
    if (packed.exitCode !== 0) throw new Error(`npm pack ${dir} failed: ${packed.stderr.toString()}`);
  }
  console.log(
    `wrote dist/release (${PLATFORMS.length} binaries, SHA256SUMS) and dist/npm (lspq and ${PLATFORMS.length} platform packages, each also packed as a .tgz)`,
  );
}
