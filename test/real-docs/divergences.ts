/**
 * Where a real response example of the platform's documentation (test/fixtures/real-docs, copied from the platform documentation) disagrees with the
 * spec. The spec wins: the generated types and schemas follow it, and each disagreement is listed here with its
 * reason. The real-docs test fails when a listed divergence no longer occurs, and when an unlisted one does.
 *
 * `schema`: the instance paths where the example fails the OpenAPI response schema (ajv, all errors).
 * `types`: whether the example fails `satisfies Envelope<Methods[m]["result"]>` in TypeScript.
 */
export interface Divergence {
  file: string;
  schema: string[];
  types: boolean;
  reason: string;
}

export const divergences: Divergence[] = [
  {
    file: "calendar.user.settings.set.response.json",
    schema: ["/time"],
    types: true,
    reason: "The example's `time` has no `operating`; the spec lists `operating` in every `time` and marks only `operating_reset_at` as absent in some responses.",
  },
  {
    file: "sale.paysystem.list.response.json",
    schema: ["/time"],
    types: true,
    reason: "The example's `time` has no `operating` (see calendar.user.settings.set).",
  },
  {
    file: "placement.get.response.json",
    schema: ["/result/0", "/result/1", "/result/2", "/result/3"],
    types: true,
    reason: "The example's handlers have no `id`; the spec's Placement handler lists `id (integer)` without saying it may be absent.",
  },
  {
    file: "tasks.task.stopwatch.response.json",
    schema: [
      "",
      "/result/task/backlogId",
      "/result/task/checklist/431/parentId",
      "/result/task/checklist/431/toggledBy",
      "/result/task/checklist/433/toggledBy",
      "/result/task/checklist/435/toggledBy",
      "/result/task/exchangeId",
      "/result/task/forkedByTemplateId",
      "/result/task/group",
      "/result/task/newCommentsCount",
      "/result/task/sprintId",
      "/result/task/xmlId",
    ],
    types: true,
    reason:
      "The example nests `time` inside `result`; the spec's envelope has `time` beside `result`. The Task section's \"Returned by `tasks.task.stopwatch` (key `task` inside `result`)\" makes `result.task` a Task, and the example's task differs from it: identifiers the spec calls decimal strings are null (`backlogId`, `sprintId`, `forkedByTemplateId`, the checklist items' `toggledBy`) or a number (`parentId` 0 of a checklist item), counters are numbers (`newCommentsCount` 0), `xmlId` and `exchangeId` are null, and `group` is an object where the spec says `group (array)`.",
  },
  {
    file: "tasks.task.unpin.response.json",
    schema: [
      "/result/task/backlogId",
      "/result/task/chatId",
      "/result/task/checklist",
      "/result/task/closedBy",
      "/result/task/commentsCount",
      "/result/task/exchangeId",
      "/result/task/flowId",
      "/result/task/forkedByTemplateId",
      "/result/task/forumId",
      "/result/task/forumTopicId",
      "/result/task/newCommentsCount",
      "/result/task/parentId",
      "/result/task/serviceCommentsCount",
      "/result/task/sprintId",
      "/result/task/statusChangedBy",
      "/result/task/xmlId",
    ],
    types: true,
    reason:
      "The Task section's \"Returned by `tasks.task.unpin` (key `task` inside `result`)\" makes `result.task` a Task, and the example's task differs from it: identifiers and counters the spec calls decimal strings are null (`backlogId`, `closedBy`, `commentsCount`, `flowId`, `forkedByTemplateId`, `forumId`, `forumTopicId`, `parentId`, `serviceCommentsCount`, `sprintId`, `statusChangedBy`) or numbers (`chatId`, `newCommentsCount`), `xmlId` and `exchangeId` are null, and `checklist` is an empty array where the spec says an object keyed by item id.",
  },
  {
    file: "telephony.externalCall.searchCrmEntities.response.json",
    schema: ["/result/0/ASSIGNED_BY/ID", "/result/1/ASSIGNED_BY/ID"],
    types: true,
    reason: "The example's `ASSIGNED_BY.ID` is a string (\"99\"); the spec says `ID (integer)`.",
  },
  {
    file: "tasks.task.get.v3.response.json",
    schema: [
      "",
      "/result/item/id",
      "/result/item/parentId",
      "/result/item/xmlId",
      "/result/item/chatId",
      "/result/item/responsible",
      "/result/item/addInReport",
      "/result/item/forumTopicId",
      "/result/item/exchangeId",
      "/result/item/checklist",
    ],
    types: true,
    reason:
      "The 3.0 example differs from the spec's Task, which `result.item` holds: identifiers are numbers, not decimal strings (`id`, `parentId`, `chatId`, `forumTopicId`), `xmlId`/`exchangeId` are null, `addInReport` is null instead of `Y`/`N`, `checklist` is an array of ids instead of an object keyed by item id, `responsible` carries only the selected `name`/`email` instead of `id`, `name`, `link`, `icon`, `workPosition`; and the example has no `time` beside `result`.",
  },
];

/**
 * Where the spec and the platform's documentation (`spec-source/platform-docs/`) say different things about the wire
 * (issue 14). The spec wins by default; where the platform's SDKs need the platform's reading, an option of the
 * generator or of the router gives it, and `reading` says which. `test/integration/platform-wire.test.ts` checks both
 * citations.
 */
export interface WireDivergence {
  subject: string;
  /** The spec's line (1-based) and words on it. */
  spec: { line: number; says: string };
  /** The documentation's file below `spec-source/platform-docs/`, line and words. */
  platform: { file: string; line: number; says: string };
  reading: string;
}

export const wireDivergences: WireDivergence[] = [
  {
    subject: "the 3.0 error-code prefix",
    spec: { line: 429, says: "SERVICE_REST_V3_EXCEPTION_INVALIDJSONEXCEPTION" },
    platform: { file: "api-reference/rest-v3.md", line: 274, says: "`BITRIX_REST_V3_EXCEPTION_` prefix" },
    reading: "The spec's SERVICE_REST_V3_EXCEPTION_ by default; the config's `v3ErrorPrefix: platform` gives the platform's to the types, the OpenAPI documents, the client and the server (D11).",
  },
  {
    subject: "the parameter of 3.0 tasks.task.get",
    spec: { line: 173, says: "body `taskId` integer" },
    platform: { file: "api-reference/tasks/tasks-task-get-rest-v3.md", line: 33, says: "**id***" },
    reading: "The spec's taskId: the types, the OpenAPI document and the server ask for taskId.",
  },
  {
    subject: "a 3.0 batch",
    spec: { line: 458, says: "in 3.0 call methods individually" },
    platform: { file: "api-reference/rest-v3.md", line: 428, says: "the request body is a JSON array at the root" },
    reading: "None by default, as the spec says; the router's option v3Batch serves the platform's.",
  },
  {
    subject: "the case of the list parameters select, filter and order",
    spec: { line: 266, says: "`SELECT` array of field names" },
    platform: { file: "api-reference/tasks/tasks-task-list.md", line: 114, says: "**select**" },
    reading: "The spec's names in the types; the server takes either case and hands the handler the spec's (D7).",
  },
];
