/**
 * The Landlock box: the fallback where bubblewrap is missing. Landlock
 * (Linux 5.13+) needs no namespaces, so it works inside containers too; it
 * is entered by the process itself, irrevocably, and holds across execve and
 * every child. lspq's binary enters it (`lspq __box`, box-entry.ts) and then
 * execs the program, so the program never runs a moment unboxed.
 *
 * What Landlock cannot refuse (UDP, named Unix sockets) a seccomp filter
 * refuses while the network is off (seccomp.ts). Every step that fails
 * throws, naming the step: a box that cannot be made is never skipped.
 */
import { dlopen, FFIType, ptr, read } from 'bun:ffi';
import type { BoxRules } from './rules';
import { noSocketsFilter, seccompArch } from './seccomp';

/** Landlock's filesystem rights (linux/landlock.h), by the ABI that brought each. */
export const FS = {
  EXECUTE: 1 << 0,
  WRITE_FILE: 1 << 1,
  READ_FILE: 1 << 2,
  READ_DIR: 1 << 3,
  REMOVE_DIR: 1 << 4,
  REMOVE_FILE: 1 << 5,
  MAKE_CHAR: 1 << 6,
  MAKE_DIR: 1 << 7,
  MAKE_REG: 1 << 8,
  MAKE_SOCK: 1 << 9,
  MAKE_FIFO: 1 << 10,
  MAKE_BLOCK: 1 << 11,
  MAKE_SYM: 1 << 12,
  /** ABI 2: linking or renaming a file into another folder. */
  REFER: 1 << 13,
  /** ABI 3: truncating (open with O_TRUNC, truncate, ftruncate). */
  TRUNCATE: 1 << 14,
  /** ABI 5: ioctl on a device opened in the box. */
  IOCTL_DEV: 1 << 15,
} as const;

const NET_BIND_TCP = 1 << 0;
const NET_CONNECT_TCP = 1 << 1;
const SCOPE_ABSTRACT_UNIX_SOCKET = 1 << 0;
const SCOPE_SIGNAL = 1 << 1;

/** The rights the kernel accepts on a file (not a folder): a folder right on a file is EINVAL. */
const FILE_RIGHTS = FS.EXECUTE | FS.WRITE_FILE | FS.READ_FILE | FS.TRUNCATE | FS.IOCTL_DEV;
const READ_RIGHTS = FS.READ_FILE | FS.READ_DIR | FS.EXECUTE;
/** The devices every program may read and write; /dev/tty and the pseudo-terminals take ioctls too (tcgetattr). */
const DEVICE_RIGHTS = FS.READ_FILE | FS.WRITE_FILE | FS.TRUNCATE | FS.IOCTL_DEV;

/** Every filesystem right the kernel's ABI knows, as the kernel docs' example downgrades them. */
export function handledFs(abi: number): number {
  let rights = (1 << 16) - 1;
  if (abi < 2) rights &= ~FS.REFER;
  if (abi < 3) rights &= ~FS.TRUNCATE;
  if (abi < 5) rights &= ~FS.IOCTL_DEV;
  return rights;
}

/** One rule: rights beneath a path (a folder's rights are kept to a file's when the path is a file). */
export interface PathRule {
  path: string;
  rights: number;
}

/**
 * What any program needs to start, whatever its rules: /proc to read (Landlock's
 * ptrace scoping keeps other processes' environ and memory out), and the
 * character devices a shell or runtime opens.
 */
const EVERY_PROGRAM: PathRule[] = [
  { path: '/proc', rights: FS.READ_FILE | FS.READ_DIR },
  ...['/dev/null', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom', '/dev/tty'].map((path) => ({
    path,
    rights: DEVICE_RIGHTS,
  })),
  { path: '/dev/pts', rights: DEVICE_RIGHTS | FS.READ_DIR },
  // /dev/fd, /dev/stdin and the like are links into /proc/self/fd: following them needs only /proc.
];

/** The rules a box's rules become: read beneath each `read`, everything beneath each `write`, and what every program needs. */
export function pathRules(rules: BoxRules, abi: number): PathRule[] {
  const all = handledFs(abi);
  return [
    ...rules.read.map((path) => ({ path, rights: READ_RIGHTS })),
    ...rules.write.map((path) => ({ path, rights: all })),
    ...EVERY_PROGRAM,
  ].map((rule) => ({ path: rule.path, rights: rule.rights & all }));
}

/** What the ruleset handles: refused unless a rule allows it. */
export interface Handled {
  fs: number;
  net: number;
  scoped: number;
}

export function handled(rules: BoxRules, abi: number): Handled {
  return {
    fs: handledFs(abi),
    // TCP bind and connect are handled with no rule: all refused.
    net: !rules.network && abi >= 4 ? NET_BIND_TCP | NET_CONNECT_TCP : 0,
    // Signals and abstract Unix sockets reach processes outside the box, network or not: scoped always.
    scoped: abi >= 6 ? SCOPE_ABSTRACT_UNIX_SOCKET | SCOPE_SIGNAL : 0,
  };
}

/** The argv that runs `argv` in the box, through this lspq (`self`: selfArgv()). */
export function boxArgv(self: string[], rules: BoxRules, argv: string[]): string[] {
  return [...self, '__box', JSON.stringify(rules), '--', ...argv];
}

// The kernel's numbers: the same on x86_64 and arm64 (the generic table), as is everything used here.
const SYS_LANDLOCK_CREATE_RULESET = 444;
const SYS_LANDLOCK_ADD_RULE = 445;
const SYS_LANDLOCK_RESTRICT_SELF = 446;
const LANDLOCK_CREATE_RULESET_VERSION = 1;
const LANDLOCK_RULE_PATH_BENEATH = 1;
const PR_SET_NO_NEW_PRIVS = 38;
const PR_SET_SECCOMP = 22;
const SECCOMP_MODE_FILTER = 2;
const O_PATH = 0o10000000;
// arm64 numbers O_DIRECTORY its own way; O_PATH and O_CLOEXEC are the generic ones there too.
const O_DIRECTORY = process.arch === 'arm64' ? 0o40000 : 0o200000;
const O_CLOEXEC = 0o2000000;
const ENOENT = 2;
const EACCES = 13;
const ENOTDIR = 20;

/** libc, bound when first needed: only a box or the ABI question pays for it. */
function bindLibc() {
  const symbols = {
    syscall: { args: [FFIType.i64, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    open: { args: [FFIType.ptr, FFIType.i32], returns: FFIType.i32 },
    close: { args: [FFIType.i32], returns: FFIType.i32 },
    execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    signal: { args: [FFIType.i32, FFIType.u64], returns: FFIType.u64 },
    sigprocmask: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    strerror: { args: [FFIType.i32], returns: FFIType.cstring },
    __errno_location: { args: [], returns: FFIType.ptr },
  } as const;
  let failure: unknown;
  // glibc's name, then musl's loader (which is its libc).
  for (const name of ['libc.so.6', `/lib/ld-musl-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}.so.1`]) {
    try {
      return dlopen(name, symbols).symbols;
    } catch (err) {
      failure = err;
    }
  }
  throw failure;
}

type Libc = ReturnType<typeof bindLibc>;
let bound: Libc | undefined;

function libc(): Libc {
  bound ??= bindLibc();
  return bound;
}

/** errno after a call that failed: read at once, before anything else can set it. */
function errno(): number {
  const location = libc().__errno_location();
  return location === null ? 0 : read.i32(location, 0);
}

/** An errno as words, with its number: "Permission denied (errno 13)". */
export function errnoText(code: number): string {
  return `${String(libc().strerror(code))} (errno ${code})`;
}

/** The error of a step that failed, naming the step and why. */
class BoxStepError extends Error {
  constructor(step: string, code: number) {
    super(`${step}: ${errnoText(code)}`);
    this.name = 'BoxStepError';
  }
}

/** A C string that lives as long as the returned buffer is held. */
export function cString(text: string): Buffer {
  return Buffer.from(`${text}\0`);
}

/**
 * The Landlock ABI this kernel offers: 0 where there is none: not Linux,
 * too old (ENOSYS), built but off at boot (EOPNOTSUPP), or the call itself
 * refused (EPERM, a container's seccomp profile). No process is started.
 */
export function landlockAbi(): number {
  if (process.platform !== 'linux' || seccompArch(process.arch) === undefined) return 0;
  let c: Libc;
  try {
    c = libc();
  } catch {
    return 0;
  }
  const abi = c.syscall(SYS_LANDLOCK_CREATE_RULESET, 0, 0, LANDLOCK_CREATE_RULESET_VERSION, 0);
  // Whatever the errno, a box cannot be made with it: the caller takes bubblewrap or refuses.
  return Math.max(abi, 0);
}

/**
 * Enters the box in this thread, irrevocably: no new privileges, the
 * seccomp filter while the network is off, then the Landlock ruleset.
 * What execs next (and its children) stays in it.
 */
export function enterBox(rules: BoxRules): void {
  const abi = landlockAbi();
  if (abi === 0) throw new Error('Landlock: this kernel offers none');
  const c = libc();
  if (c.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) !== 0) throw new BoxStepError('prctl(PR_SET_NO_NEW_PRIVS)', errno());

  const want = handled(rules, abi);
  // struct landlock_ruleset_attr: handled_access_fs, handled_access_net (ABI 4), scoped (ABI 6).
  const attr = new BigUint64Array([BigInt(want.fs), BigInt(want.net), BigInt(want.scoped)]);
  const attrSize = abi >= 6 ? 24 : abi >= 4 ? 16 : 8;
  const ruleset = c.syscall(SYS_LANDLOCK_CREATE_RULESET, ptr(attr), attrSize, 0, 0);
  if (ruleset < 0) throw new BoxStepError('landlock_create_ruleset', errno());
  try {
    for (const rule of pathRules(rules, abi)) addPathRule(c, ruleset, rule);
    if (!rules.network) installNoSockets(c);
    if (c.syscall(SYS_LANDLOCK_RESTRICT_SELF, ruleset, 0, 0, 0) !== 0)
      throw new BoxStepError('landlock_restrict_self', errno());
  } finally {
    c.close(ruleset);
  }
}

function addPathRule(c: Libc, ruleset: number, rule: PathRule): void {
  const path = cString(rule.path);
  // Opened as a folder first: ENOTDIR says it is a file, whose rule may hold file rights only. No stat: fs costs 2 ms to load.
  let fd = c.open(ptr(path), O_PATH | O_DIRECTORY | O_CLOEXEC);
  let rights = rule.rights;
  if (fd < 0 && errno() === ENOTDIR) {
    fd = c.open(ptr(path), O_PATH | O_CLOEXEC);
    rights &= FILE_RIGHTS;
  }
  if (fd < 0) {
    const code = errno();
    // A path that does not exist has nothing to allow; any other failure is the box's.
    if (code === ENOENT) return;
    throw new BoxStepError(`open(${rule.path})`, code);
  }
  try {
    // struct landlock_path_beneath_attr, packed: allowed_access (u64), parent_fd (s32).
    const beneath = new DataView(new ArrayBuffer(12));
    beneath.setBigUint64(0, BigInt(rights), true);
    beneath.setInt32(8, fd, true);
    if (c.syscall(SYS_LANDLOCK_ADD_RULE, ruleset, LANDLOCK_RULE_PATH_BENEATH, ptr(beneath), 0) !== 0)
      throw new BoxStepError(`landlock_add_rule(${rule.path})`, errno());
  } finally {
    c.close(fd);
  }
}

/** The seccomp filter that refuses socket() and io_uring (seccomp.ts), in this thread. */
function installNoSockets(c: Libc): void {
  const arch = seccompArch(process.arch);
  if (arch === undefined) throw new Error(`seccomp: no filter for ${process.arch}`);
  const filter = noSocketsFilter(arch);
  // struct sock_fprog: len (u16, padded to 8), filter (pointer).
  const program = new DataView(new ArrayBuffer(16));
  program.setUint16(0, filter.byteLength / 8, true);
  program.setBigUint64(8, BigInt(ptr(filter)), true);
  if (c.prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ptr(program), 0, 0) !== 0)
    throw new BoxStepError('prctl(PR_SET_SECCOMP)', errno());
}

/**
 * Replaces this process with the first of `files` that runs, with `argv`
 * and `env`, as execvp tries each place on PATH; returns only when none
 * ran, with the errno of each try. Signals lspq's runtime ignores or
 * blocks are set back first: both would pass to the program.
 */
export function execFirst(files: string[], argv: string[], env: Record<string, string | undefined>): number[] {
  const c = libc();
  resetSignals(c);
  const held: Buffer[] = [];
  const pointers = (words: string[]) => {
    const list = new BigUint64Array(words.length + 1);
    words.forEach((word, i) => {
      const text = cString(word);
      held.push(text);
      list[i] = BigInt(ptr(text));
    });
    return list;
  };
  const envWords = Object.entries(env).flatMap(([key, value]) => (value === undefined ? [] : [`${key}=${value}`]));
  const argvList = pointers(argv);
  const envList = pointers(envWords);
  const failures: number[] = [];
  for (const file of files) {
    const path = cString(file);
    c.execve(ptr(path), ptr(argvList), ptr(envList));
    const code = errno();
    failures.push(code);
    // As execvp: a place without the program, or refusing it, sends it on to the next; anything else ends the search.
    if (code !== ENOENT && code !== ENOTDIR && code !== EACCES) break;
  }
  // Held to here: the pointer lists point into them.
  held.length = 0;
  return failures;
}

const SIG_DFL = 0;
const SIG_SETMASK = 2;
/** The signals a runtime may ignore (SIGPIPE, SIGXFSZ...): 1 to 31, all but SIGKILL and SIGSTOP, which cannot be set. */
const STANDARD_SIGNALS = Array.from({ length: 31 }, (_, i) => i + 1).filter((s) => s !== 9 && s !== 19);

function resetSignals(c: Libc): void {
  for (const signal of STANDARD_SIGNALS) c.signal(signal, SIG_DFL);
  // An empty sigset_t (128 bytes in glibc and musl) unblocks every signal.
  const empty = new Uint8Array(128);
  c.sigprocmask(SIG_SETMASK, ptr(empty), null);
}
