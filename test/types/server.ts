// Type-level tests of the server package: handlers get typed parameters and must return typed results.
import { type Handler, type LegacyHandlers, type LegacyMethods, MethodError, type V3Handlers, createHandler } from "collab-platform-api-server";
import { legacy as skeleton, v3 as skeletonV3 } from "./handlers.js";

const getaccess: Handler<LegacyMethods["tasks.task.getaccess"]> = async (params, context) => {
  const id: number = params.taskId;
  const who: number | string = context.auth.userId;
  void [id, who];
  return { allowedActions: { "1": { ACCEPT: true } } };
};

// @ts-expect-error a result of the wrong shape
const wrong: Handler<LegacyMethods["user.current"]> = async () => ({ ID: 1 });
// @ts-expect-error the parameters are typed: `taskId` is a number
const badParam: Handler<LegacyMethods["tasks.task.getaccess"]> = async (params) => ({ allowedActions: { [params.taskId.toUpperCase()]: {} } });

export const legacy: LegacyHandlers = { ...skeleton, "tasks.task.getaccess": getaccess };
// @ts-expect-error every described method needs a handler
export const missing: LegacyHandlers = { "tasks.task.getaccess": getaccess };
export const v3: V3Handlers = skeletonV3;

export const handle: (r: Request) => Promise<Response> = createHandler(
  { legacy, v3 },
  {
    authenticate: (c) => (c.kind === "webhook" ? { userId: c.userId, scopes: ["task"] } : { error: "invalid_token" }),
  },
);
// @ts-expect-error an authentication failure names a code of the authorization failures table
createHandler({ legacy, v3 }, { authenticate: () => ({ error: "NOPE" }) });
export const err = new MethodError({ code: "ERROR_CORE", description: "Line already exists" });
void [wrong, badParam];
