/** The --json answer of daemon status. */
import * as z from 'zod/mini';
import { int } from '../../answers/shapes';

export const DaemonStatusShape = z.union([
  z.object({ running: z.literal(false) }),
  z.object({
    running: z.literal(true),
    pid: int,
    build: z.string(),
    socket: z.string(),
    uptimeSeconds: z.number(),
    memoryBytes: z.number(),
    heapBytes: z.number(),
    servers: z.array(
      z.object({
        id: z.string(),
        root: z.string(),
        binary: z.string(),
        env: z.record(z.string(), z.string()),
        pid: z.optional(int),
        uptimeSeconds: z.number(),
        memoryBytes: z.nullable(z.number()),
        requests: int,
        state: z.string(),
        extra: z.optional(z.boolean()),
      }),
    ),
    broken: z.array(z.object({ id: z.string(), root: z.string() })),
    serversMemoryBytes: z.number(),
    memoryLimitBytes: z.number(),
  }),
]);
