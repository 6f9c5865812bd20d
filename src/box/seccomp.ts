/**
 * The seccomp filter a box without network gets: Landlock refuses TCP but
 * not UDP or Unix sockets, so socket() itself fails (EACCES, for every
 * domain: a server must not reach the daemon's socket either), and so does
 * io_uring_setup (EPERM: a ring can open sockets without socket()).
 * socketpair stays: it reaches nothing outside. Built by hand as classic BPF.
 */

/** The architecture a filter is for: the audit arch the kernel reports, and its system call numbers. */
export interface SeccompArch {
  name: string;
  audit: number;
  socket: number;
  ioUringSetup: number;
  /** x86_64's x32 calls share its audit arch, with this bit set in the number. */
  x32Bit?: number;
}

const ARCHES: Record<string, SeccompArch> = {
  x64: { name: 'x86_64', audit: 0xc000003e, socket: 41, ioUringSetup: 425, x32Bit: 0x40000000 },
  arm64: { name: 'aarch64', audit: 0xc00000b7, socket: 198, ioUringSetup: 425 },
};

export function seccompArch(nodeArch: string): SeccompArch | undefined {
  return ARCHES[nodeArch];
}

// Classic BPF opcodes (linux/filter.h) and seccomp's return values (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const JGE_K = 0x35;
const RET_K = 0x06;
const RET_KILL_PROCESS = 0x80000000;
const RET_ERRNO = 0x00050000;
const RET_ALLOW = 0x7fff0000;
const EACCES = 13;
const EPERM = 1;
// struct seccomp_data: nr (int) at 0, arch (u32) at 4.
const DATA_NR = 0;
const DATA_ARCH = 4;

/** One BPF instruction; jumps name their target, resolved to offsets when the program is laid out. */
type Step = { label?: string } & (
  | { op: 'load'; offset: number }
  | { op: 'ret'; value: number }
  | { op: 'jeq' | 'jge'; k: number; to: string }
);

/**
 * The filter: a call from another architecture kills the process (its
 * numbers mean other calls); socket() returns EACCES, io_uring_setup EPERM,
 * everything else is allowed.
 */
export function noSocketsFilter(arch: SeccompArch): Uint8Array {
  const steps: Step[] = [
    { op: 'load', offset: DATA_ARCH },
    { op: 'jeq', k: arch.audit, to: 'native' },
    { op: 'ret', value: RET_KILL_PROCESS },
    { op: 'load', offset: DATA_NR, label: 'native' },
    ...(arch.x32Bit === undefined ? [] : [{ op: 'jge' as const, k: arch.x32Bit, to: 'kill' }]),
    { op: 'jeq', k: arch.socket, to: 'eacces' },
    { op: 'jeq', k: arch.ioUringSetup, to: 'eperm' },
    { op: 'ret', value: RET_ALLOW },
    { op: 'ret', value: RET_ERRNO | EACCES, label: 'eacces' },
    { op: 'ret', value: RET_ERRNO | EPERM, label: 'eperm' },
    { op: 'ret', value: RET_KILL_PROCESS, label: 'kill' },
  ];
  const labels = new Map<string, number>();
  steps.forEach((step, i) => {
    if (step.label) labels.set(step.label, i);
  });
  const out = new DataView(new ArrayBuffer(steps.length * 8));
  steps.forEach((step, i) => {
    // struct sock_filter: code (u16), jt (u8), jf (u8), k (u32).
    const at = i * 8;
    if (step.op === 'load') {
      out.setUint16(at, LD_W_ABS, true);
      out.setUint32(at + 4, step.offset, true);
    } else if (step.op === 'ret') {
      out.setUint16(at, RET_K, true);
      out.setUint32(at + 4, step.value, true);
    } else {
      const target = labels.get(step.to);
      if (target === undefined || target <= i) throw new Error(`seccomp filter: no label ${step.to} ahead`);
      out.setUint16(at, step.op === 'jeq' ? JEQ_K : JGE_K, true);
      // Jumps count from the next instruction; false falls through.
      out.setUint8(at + 2, target - i - 1);
      out.setUint32(at + 4, step.k >>> 0, true);
    }
  });
  return new Uint8Array(out.buffer);
}
