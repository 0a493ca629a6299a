// User-owned: collab-rest-codegen creates this file when it is absent and never overwrites it. When the spec
// gains a method, `generate` inserts its stub here; when the spec drops one, its handler gets a @deprecated line.
// Nothing else in this file is changed: bodies, imports, comments and formatting stay yours.
// Generated first from spec-source/collaboration-platform-api.md.
import { type LegacyHandlers, MethodError, type V3Handlers } from "collab-platform-api-server";

/** Answers ERROR_METHOD_NOT_FOUND (404, "Method not found!") until the method is written. */
function notImplemented(method: string): never {
  throw new MethodError({
    code: "ERROR_METHOD_NOT_FOUND",
    status: 404,
    description: `${method} is not implemented yet`,
  });
}

export const legacy: LegacyHandlers = {
  /** tasks.task.get: Response `result.task` (see Task) */
  "tasks.task.get": async (_params, _context) => notImplemented("tasks.task.get"),
  /** tasks.task.getaccess: Response `result.allowedActions` (see Allowed actions) */
  "tasks.task.getaccess": async (_params, _context) => notImplemented("tasks.task.getaccess"),
  /** tasks.task.stopwatch: Turns off watching of the task */
  "tasks.task.stopwatch": async (_params, _context) => notImplemented("tasks.task.stopwatch"),
  /** tasks.task.unpin: Unpins the task in the current user's task list */
  "tasks.task.unpin": async (_params, _context) => notImplemented("tasks.task.unpin"),
  /** task.comment.add: Result: id of the new comment (integer) */
  "task.comment.add": async (_params, _context) => notImplemented("task.comment.add"),
  /** telephony.externalCall.attachRecord: Attaches a record to a finished call and to its CRM activity */
  "telephony.externalCall.attachRecord": async (_params, _context) =>
    notImplemented("telephony.externalCall.attachRecord"),
  /** telephony.externalCall.finish: Finishes an external call, stores it in statistics and in the CRM activity */
  "telephony.externalCall.finish": async (_params, _context) => notImplemented("telephony.externalCall.finish"),
  /** telephony.externalCall.show: Shows the call card to a user or users */
  "telephony.externalCall.show": async (_params, _context) => notImplemented("telephony.externalCall.show"),
  /** telephony.externalCall.searchCrmEntities: Result: array of CRM entity items (see resources) */
  "telephony.externalCall.searchCrmEntities": async (_params, _context) =>
    notImplemented("telephony.externalCall.searchCrmEntities"),
  /** telephony.externalLine.add: Result `{ID}` */
  "telephony.externalLine.add": async (_params, _context) => notImplemented("telephony.externalLine.add"),
  /** calendar.user.settings.set: Sets calendar settings of the current user */
  "calendar.user.settings.set": async (_params, _context) => notImplemented("calendar.user.settings.set"),
  /** documentgenerator.document.enablepublicurl: Result `{publicUrl}` (string, or null when disabled) */
  "documentgenerator.document.enablepublicurl": async (_params, _context) =>
    notImplemented("documentgenerator.document.enablepublicurl"),
  /** user.current: Returns the user whose token was used (for a saved administrator token, the administrator; for a token received by an application frame, the user who opened the application) */
  "user.current": async (_params, _context) => notImplemented("user.current"),
  /** mailservice.fields: Result: label object */
  "mailservice.fields": async (_params, _context) => notImplemented("mailservice.fields"),
  /** mailservice.list: Returns active mail services as an array */
  // A list method: answer pageOf(records, params.start), or page(records, { total, next }), so that callers can page.
  "mailservice.list": async (_params, _context) => notImplemented("mailservice.list"),
  /** sale.paysystem.list: Result: array of pay system items (one page, up to 50) */
  // A list method: answer pageOf(records, params.start), or page(records, { total, next }), so that callers can page.
  "sale.paysystem.list": async (_params, _context) => notImplemented("sale.paysystem.list"),
  /** sale.paysystem.settings.update: Settings structure is defined by key `CODES` of `SETTINGS` in `sale.paysystem.handler.add` */
  "sale.paysystem.settings.update": async (_params, _context) => notImplemented("sale.paysystem.settings.update"),
  /** sonet_group.update: Changes a group or project */
  "sonet_group.update": async (_params, _context) => notImplemented("sonet_group.update"),
  /** messageservice.sender.update: Result: boolean `true` */
  "messageservice.sender.update": async (_params, _context) => notImplemented("messageservice.sender.update"),
  /** vote.AttachedVote.recall: Withdraws the caller's vote in an active poll; works only for polls with revoting enabled */
  "vote.AttachedVote.recall": async (_params, _context) => notImplemented("vote.AttachedVote.recall"),
  /** placement.bind: Registers a widget handler */
  "placement.bind": async (_params, _context) => notImplemented("placement.bind"),
  /** placement.get: Result: array of Placement handler items; empty array when none */
  "placement.get": async (_params, _context) => notImplemented("placement.get"),
  /** event.bind: Registers an event handler */
  "event.bind": async (_params, _context) => notImplemented("event.bind"),
  /** event.unbind: Cancels handlers */
  "event.unbind": async (_params, _context) => notImplemented("event.unbind"),
  /** event.offline.clear: Removes from the queue the records of a batch received by `event.offline.get` with `clear=0` */
  "event.offline.clear": async (_params, _context) => notImplemented("event.offline.clear"),
  /** sign.b2e.personal.tail: See Signed document (`sign.b2e.personal.tail` item). */
  "sign.b2e.personal.tail": async (_params, _context) => notImplemented("sign.b2e.personal.tail"),
};

export const v3: V3Handlers = {
  /** tasks.task.add (3.0): Full field list and response: not shown */
  "tasks.task.add": async (_params, _context) => notImplemented("tasks.task.add"),
  /** tasks.task.chat.message.send (3.0): Response: not shown */
  "tasks.task.chat.message.send": async (_params, _context) => notImplemented("tasks.task.chat.message.send"),
  /** tasks.task.get (3.0): `result.item` holds the task; includes `archiveLink` (link to download all task files as an archive, may be relative) */
  "tasks.task.get": async (_params, _context) => notImplemented("tasks.task.get"),
};
