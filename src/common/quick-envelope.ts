/**
 * A hand-written check of the envelope every command sends the daemon, as
 * strict as EnvelopeShape in socket-shapes.ts and stricter in one way: an
 * object with a key the shape does not name fails here (zod would drop the
 * key), so whatever passes is exactly what zod would return. zod's two
 * checks of the envelope took 0.15 ms of each warm question; this takes a
 * hundredth of that. Where it fails, zod checks the line again to say
 * what is wrong. Pure.
 */
import type { Envelope } from './socket-shapes';

type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean';

/** Every key of `v` is one of `keys`. */
function onlyKeys(v: Fields, keys: ReadonlySet<string>): boolean {
  for (const key in v) if (!keys.has(key)) return false;
  return true;
}

const LINE_KEYS = new Set([
  'command',
  'args',
  'cwd',
  'env',
  'color',
  'progress',
  'json',
  'help',
  'alsoText',
  'timeoutMs',
  'editId',
  'confine',
  'stdin',
]);
const EDIT_ID = /^[\w-]{1,64}$/;

function isStringRecord(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const key in v) if (!isString(v[key])) return false;
  return true;
}

function fitsCommandLine(v: unknown): boolean {
  return (
    isObject(v) &&
    onlyKeys(v, LINE_KEYS) &&
    isString(v.command) &&
    Array.isArray(v.args) &&
    v.args.every(isString) &&
    isString(v.cwd) &&
    v.cwd.length > 0 &&
    isStringRecord(v.env) &&
    isBoolean(v.color) &&
    isBoolean(v.progress) &&
    isBoolean(v.json) &&
    isBoolean(v.help) &&
    (v.alsoText === undefined || isBoolean(v.alsoText)) &&
    (v.timeoutMs === undefined || isNumber(v.timeoutMs)) &&
    (v.editId === undefined || (isString(v.editId) && EDIT_ID.test(v.editId))) &&
    (v.confine === undefined || (isString(v.confine) && v.confine.length > 0)) &&
    (v.stdin === undefined || isString(v.stdin))
  );
}

const OP_ONLY = new Set(['op']);
const RUN_KEYS = new Set(['op', 'line']);
const OUTCOME_KEYS = new Set(['op', 'id']);
const ENVELOPE_KEYS = new Set(['protocol', 'build', 'request']);

function fitsRequest(v: unknown): boolean {
  if (!isObject(v)) return false;
  switch (v.op) {
    case 'run':
      return onlyKeys(v, RUN_KEYS) && fitsCommandLine(v.line);
    case 'status':
    case 'stop':
    case 'ping':
      return onlyKeys(v, OP_ONLY);
    case 'outcome':
      return onlyKeys(v, OUTCOME_KEYS) && isString(v.id);
    default:
      return false;
  }
}

/** Whether `v` is an Envelope with no key its shape does not name. */
export function fitsEnvelope(v: unknown): v is Envelope {
  return (
    isObject(v) && onlyKeys(v, ENVELOPE_KEYS) && isNumber(v.protocol) && isString(v.build) && fitsRequest(v.request)
  );
}
