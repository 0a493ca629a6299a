// Type-level tests of the generated packages: every `@ts-expect-error` line must be a compile error (tsc fails on
// an unused directive), every other line must compile. Compiled with --strict against the packed packages.
import {
  type ApiError,
  type CallResult,
  type CursorMethod,
  createClient,
  is,
  type LegacyMethods,
  type Task,
  type TasksTaskGetaccessParams,
  type TasksTaskGetErrorCode,
  type TasksTaskGetaccessErrorCode,
  type UserCurrentErrorCode,
  type V3Methods,
  type V3TasksTaskGetResult,
} from "collab-platform-api-client";

declare const code: string;
const hook = createClient({ baseUrl: "https://portal.example", auth: { userId: 1, code } });
const app = createClient({ baseUrl: "https://portal.example", auth: { accessToken: code, refresh: async () => code } });

export async function calls(): Promise<unknown[]> {
  const access = await hook.tasks.task.getaccess({ taskId: 1, users: [1, 2] });
  const legacyTask: Task | undefined = (await hook.tasks.task.get({ taskId: 1 })).task;
  const v3Task: V3TasksTaskGetResult = await app.v3.tasks.task.get({ taskId: 1 });
  const link: string | undefined = v3Task.item.archiveLink;
  const finished = await app.telephony.externalCall.finish({ CALL_ID: "c", USER_ID: 1 });
  const withMeta: CallResult<boolean> = await hook.user.current.withResponse().then((r) => ({ ...r, result: true }));
  const byName = await hook.call("tasks.task.getaccess", { taskId: 1 });
  const user = await hook.user.current();
  const ok: boolean = await hook.calendar.user.settings.set({ settings: { view: "week", defaultReminders: { fullDay: [{ type: "min", count: 5 }] } } });

  // @ts-expect-error a method that needs an application context is not offered on a webhook client
  await hook.telephony.externalCall.finish({ CALL_ID: "c", USER_ID: 1 });
  // @ts-expect-error ...nor by name
  await hook.call("placement.bind", { PLACEMENT: "P", HANDLER: "https://h.example" });
  // @ts-expect-error a missing required parameter
  await hook.tasks.task.getaccess({ users: [1] });
  // @ts-expect-error a wrong type
  await hook.tasks.task.getaccess({ taskId: "1" });
  // @ts-expect-error a misspelled method
  await hook.call("tasks.task.getacces", { taskId: 1 });
  // A wrapper typed by the last signature of `call` (the generic one, not the one that reports missing parameters).
  const logged = (...a: Parameters<typeof hook.call>) => hook.call(...a);
  await logged("tasks.task.getaccess", { taskId: 1 });
  // @ts-expect-error a method by name without its required parameters
  await hook.call("tasks.task.getaccess");
  // @ts-expect-error ...through request, too
  await hook.request("tasks.task.getaccess");
  // @ts-expect-error a misspelled namespace member
  await hook.tasks.task.getAccess({ taskId: 1 });
  // @ts-expect-error a legacy-only parameter on the 3.0 method of the same name
  await hook.v3.tasks.task.get({ taskId: 1, select: ["*"] });
  // @ts-expect-error none of RECORD_URL, FILENAME ("at least one of")
  await hook.telephony.externalCall.attachRecord({ CALL_ID: "c" });
  await hook.telephony.externalCall.attachRecord({ CALL_ID: "c", RECORD_URL: "https://r.example/a.mp3" });
  // @ts-expect-error none of the three call forms of vote.AttachedVote.recall
  await hook.vote.AttachedVote.recall({});
  // Two complete call forms are taken: the spec does not make them exclude each other (D8, issue 14).
  await hook.vote.AttachedVote.recall({ attachId: 1, signedAttachId: "s" });
  // @ts-expect-error a call form given in part
  await hook.vote.AttachedVote.recall({ moduleId: "m", entityType: "t" });
  await hook.vote.AttachedVote.recall({ moduleId: "m", entityType: "t", entityId: 1 });
  // @ts-expect-error values listed as `Y` or `N`
  await app.telephony.externalLine.add({ NUMBER: "1", CRM_AUTO_CREATE: "yes" });
  // @ts-expect-error a calendar view that the spec does not list
  await hook.calendar.user.settings.set({ settings: { view: "year" } });
  // @ts-expect-error at least one of HANDLER, NAME, DESCRIPTION besides CODE
  await app.messageservice.sender.update({ CODE: "c" });
  // @ts-expect-error 3.0 task add takes its fields under `fields`
  await app.v3.tasks.task.add({ title: "T" });

  // Errors the spec leaves open ("Errors of `tasks.task.get` ...: not shown") take any code; a method whose section
  // lists its errors takes those; one whose section lists none takes none of its own.
  const openCode: TasksTaskGetErrorCode = "ANY_CODE_AT_ALL";
  const listedCode: TasksTaskGetaccessErrorCode = "100";
  // @ts-expect-error a code tasks.task.getaccess does not list
  const unlistedCode: TasksTaskGetaccessErrorCode = "ANY_CODE_AT_ALL";
  // @ts-expect-error user.current lists no error of its own
  const noCode: UserCurrentErrorCode = "ANY_CODE_AT_ALL";
  void [openCode, listedCode, unlistedCode, noCode];

  for await (const ps of app.paginate("sale.paysystem.list", { SELECT: ["ID"] })) ps.NAME;
  // @ts-expect-error paginate takes legacy list methods only
  app.paginate("tasks.task.get", { taskId: 1 });
  const batch = await app.batch({ me: ["user.current"], task: ["tasks.task.get", { taskId: 1 }] });
  const me = batch.results.me?.ID;
  const t = batch.results.task?.task;
  // @ts-expect-error a batch command with a wrong parameter
  await app.batch({ x: ["tasks.task.get", { taskId: "1" }] });
  // Each command's outcome is a union that `ok` tells apart (issue 16).
  const outcome = batch.outcomes.task;
  if (outcome?.ok) void outcome.result.task;
  else if (outcome) void (outcome.error satisfies ApiError);
  // @ts-expect-error the result of an outcome not yet told apart
  void outcome?.result;
  for await (const page of app.all("sale.paysystem.list", { SELECT: ["ID"] }, { concurrency: 2 })) void page[0]?.NAME;
  // @ts-expect-error all takes legacy list methods only
  app.all("tasks.task.get", { taskId: 1 });
  const cursorMethod: CursorMethod = "sale.paysystem.list";
  void cursorMethod;
  const limits = app.limits();
  void [limits.throttle?.drainPerSecond, limits.methods["legacy:user.current"]?.heldUntil, batch.times.length];
  createClient({ baseUrl: "https://x.example", auth: { userId: 1, code: "c" }, throttle: "enterprise", onWait: (e) => void e.reason });
  // @ts-expect-error an unknown throttle preset
  createClient({ baseUrl: "https://x.example", auth: { userId: 1, code: "c" }, throttle: "turbo" });
  createClient({ baseUrl: "https://x.example", auth: { accessToken: "t", refresh: async () => ({ accessToken: "n", refreshToken: "r" }) }, onTokens: (t) => void t.refreshToken });

  try {
    await hook.user.current();
  } catch (e) {
    if (is.QUERY_LIMIT_EXCEEDED(e)) {
      const c: "QUERY_LIMIT_EXCEEDED" = e.code;
      const s: number = e.status;
      void [c, s];
    }
    if (is["0"](e)) void (e satisfies ApiError);
  }

  type Getaccess = LegacyMethods["tasks.task.getaccess"];
  const p: Getaccess["params"] = { taskId: 1 } satisfies TasksTaskGetaccessParams;
  const appOnly: V3Methods["tasks.task.add"]["idempotencyKey"] = true;
  // @ts-expect-error the legacy tasks.task.get does not honour Idempotency-Key
  const notIdem: LegacyMethods["tasks.task.get"]["idempotencyKey"] = true;
  // @ts-expect-error flags are "Y" | "N"
  const flag: Task["isPinned"] = "yes";
  // @ts-expect-error identifiers of the legacy task are decimal strings
  const id: Task["id"] = 8017;
  return [access, legacyTask, v3Task, link, finished, withMeta, byName, user, ok, me, t, p, appOnly, notIdem, flag, id];
}
