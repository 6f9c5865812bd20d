/**
 * The large projects the scale and index benchmarks run on, fetched from
 * the registries into bench/.work once: django and rich (PyPI), effect
 * (npm, a TypeScript library that ships its sources), and the Go standard
 * library.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WORK } from './projects';

function run(cmd: string[], cwd: string): void {
  const r = Bun.spawnSync(cmd, { cwd, env: process.env as Record<string, string>, stderr: 'pipe' });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(' ')} failed: ${r.stderr.toString()}`);
}

export function goRoot(): string {
  return Bun.spawnSync(['go', 'env', 'GOROOT']).stdout.toString().trim();
}

export function django(): string {
  const root = join(WORK, 'django');
  if (!existsSync(root)) {
    const dl = join(WORK, 'dl');
    mkdirSync(dl, { recursive: true });
    run(['pip', 'download', '--no-binary', ':all:', '--no-deps', 'django==5.1.4', '-d', dl, '-q'], WORK);
    run(['tar', 'xzf', join(dl, 'Django-5.1.4.tar.gz'), '-C', WORK], WORK);
    run(['mv', join(WORK, 'Django-5.1.4'), root], WORK);
  }
  return root;
}

export function effect(): string {
  const root = join(WORK, 'effect');
  if (!existsSync(root)) {
    const dl = join(WORK, 'dl');
    mkdirSync(dl, { recursive: true });
    run(['npm', 'pack', 'effect@3.12.0', '--silent', '--pack-destination', dl], WORK);
    run(['tar', 'xzf', join(dl, 'effect-3.12.0.tgz'), '-C', dl], WORK);
    run(['mv', join(dl, 'package'), root], WORK);
    // The package ships its sources without their tsconfig: a plain strict one over src/.
    writeFileSync(
      join(root, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          noEmit: true,
          exactOptionalPropertyTypes: true,
        },
        include: ['src'],
      }),
    );
  }
  return root;
}

export function rich(): string {
  const root = join(WORK, 'rich');
  if (!existsSync(root)) {
    const dl = join(WORK, 'dl');
    mkdirSync(dl, { recursive: true });
    run(['pip', 'download', '--no-binary', ':all:', '--no-deps', 'rich==13.9.4', '-d', dl, '-q'], WORK);
    run(['tar', 'xzf', join(dl, 'rich-13.9.4.tar.gz'), '-C', WORK], WORK);
    run(['mv', join(WORK, 'rich-13.9.4'), root], WORK);
  }
  return root;
}
