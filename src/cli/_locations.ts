/** def, typedef, impls and refs differ only in the request they make. */
import { defineCommand, type ArgsDef } from 'citty';
import type { LocationOp, LocationsResult } from '../protocol/messages';
import { locationsJson, renderLocations } from '../render/locations';
import { targetArgs, targetFrom } from './_shared';
import { callerOf, runQuery, type Presenter } from './_run';

export const locationsPresenter: Presenter<LocationsResult> = {
  human: renderLocations,
  json: locationsJson,
  found: (r) => r.total > 0,
};

export function locationsCommand<A extends ArgsDef>(op: LocationOp, description: string, extraArgs: A) {
  return defineCommand({
    meta: { name: op, description },
    args: { ...targetArgs, ...extraArgs },
    run: ({ args, data }) => {
      const caller = callerOf(data);
      return runQuery(
        { op, target: targetFrom(args, caller.cwd), ...(args['include-declaration'] === true ? { includeDeclaration: true } : {}) },
        args,
        locationsPresenter,
        caller,
      );
    },
  });
}
