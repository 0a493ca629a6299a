// Type-level tests of the area entries (D14, issue 16): a client of one area offers that area's methods only, with
// the same types as the main entry. Every `@ts-expect-error` line must be a compile error; every other line must
// compile. Compiled with --strict against the packed packages.
import { type BatchResult, type CursorMethod, createClient, is, type LegacyMethods } from "collab-platform-api-client/tasks";
import { createClient as telephonyClient } from "collab-platform-api-client/telephony";
import type * as Main from "collab-platform-api-types";
import type { Task, TasksTaskGetaccessParams, TasksTaskGetErrorCode } from "collab-platform-api-types/tasks";

declare const code: string;
const hook = createClient({ baseUrl: "https://portal.example", auth: { userId: 1, code } });
const app = createClient({ baseUrl: "https://portal.example", auth: { accessToken: code } });
const phoneHook = telephonyClient({ baseUrl: "https://portal.example", auth: { userId: 1, code } });
const phoneApp = telephonyClient({ baseUrl: "https://portal.example", auth: { accessToken: code } });

export async function areas(): Promise<unknown[]> {
  const task: Task | undefined = (await hook.tasks.task.get({ taskId: 1 })).task;
  const access = await hook.call("tasks.task.getaccess", { taskId: 1, users: [1] });
  const v3 = await app.v3.tasks.task.get({ taskId: 1 });
  const line = await phoneApp.telephony.externalLine.add({ NUMBER: "1" });
  const batch: BatchResult<{ t: readonly ["tasks.task.get", { taskId: 1 }] }> = await hook.batch({ t: ["tasks.task.get", { taskId: 1 }] });
  const outcome = batch.outcomes.t;
  const got: Task | undefined = outcome?.ok ? outcome.result.task : undefined;
  const params: TasksTaskGetaccessParams = { taskId: 1 };
  const codeOf: TasksTaskGetErrorCode = "ANY";
  const guard = (e: unknown) => (is.ACCESS_DENIED(e) ? e.code : null);
  // The area's maps are the main entry's, method by method.
  const same: Main.LegacyMethods["tasks.task.get"] = {} as LegacyMethods["tasks.task.get"];
  const cursor: CursorMethod[] = [];

  // @ts-expect-error a method of another area is not on this area's client
  await hook.call("user.current");
  // @ts-expect-error ...nor in its tree
  await hook.user.current();
  // @ts-expect-error ...nor in its batch
  await hook.batch({ me: ["user.current"] });
  // @ts-expect-error a method that needs an application context is not offered on a webhook client of its area
  await phoneHook.telephony.externalLine.add({ NUMBER: "1" });
  // @ts-expect-error the area's types are the real ones: a missing required parameter
  await app.tasks.task.getaccess({ users: [1] });
  // @ts-expect-error ...and a wrong type in a 3.0 method
  await app.v3.tasks.task.get({ taskId: "1" });
  // @ts-expect-error a list method of another area is not paged here
  app.all("sale.paysystem.list");
  return [task, access, v3, line, got, params, codeOf, guard, same, cursor];
}
