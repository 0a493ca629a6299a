/**
 * Where the spec is silent on the wire and the platform's documentation speaks, the generated server follows the
 * documentation (issue 14, D4). Each fact the runtimes follow, with the documentation's file and line and a few of
 * its words; `test/integration/platform-wire.test.ts` checks that every cited line still says so, and the server tests name
 * the row they exercise.
 */
export interface WireFact {
  fact: string;
  /** Path below `spec-source/platform-docs/`, and the 1-based line. */
  file: string;
  line: number;
  /** Words that stand on that line. */
  says: string;
}

export const PLATFORM_WIRE: WireFact[] = [
  { fact: "batch: a command may reference an earlier command's result", file: "settings/how-to-call-rest-api/batch.md", line: 52, says: "$result[request_id][response_field]" },
  { fact: "batch: a reference indexes into a list result", file: "settings/how-to-call-rest-api/batch.md", line: 325, says: "$result[user_by_name][0][ID]" },
  { fact: "batch: at most 50 commands; the ones past the limit end with an error", file: "settings/how-to-call-rest-api/batch.md", line: 44, says: "subqueries beyond the limit will end with an error `ERROR_BATCH_LENGTH_EXCEEDED`" },
  { fact: "batch: a nested batch ends with ERROR_BATCH_METHOD_NOT_ALLOWED", file: "settings/how-to-call-rest-api/batch.md", line: 58, says: "ERROR_BATCH_METHOD_NOT_ALLOWED" },
  { fact: "batch: the request completes with 200; errors go per command to result_error", file: "settings/how-to-call-rest-api/batch.md", line: 430, says: "the request itself completes with a **200** status" },
  { fact: "batch: result_next only for commands that have a next page", file: "settings/how-to-call-rest-api/batch.md", line: 423, says: "Present only for subqueries that have a next page" },
  { fact: "batch: the outer call is not counted in operating; inner calls count for their own methods", file: "limits.md", line: 127, says: "An external call to `batch` is not accounted for in `operating`" },
  { fact: "paging: the next page starts at the response's next", file: "settings/how-to-call-rest-api/list-methods-pecularities.md", line: 32, says: "with the value received in the `next` parameter" },
  { fact: "paging: start=-1 disables the total count", file: "settings/performance/huge-data.md", line: 11, says: "disables the total item count calculation" },
  { fact: "paging: start=-1 returns up to 50 items without total", file: "settings/performance/huge-data.md", line: 15, says: "without counting `total`" },
  { fact: "legacy bodies: JSON, and form data for every method", file: "settings/how-to-call-rest-api/general-principles.md", line: 28, says: "All methods also accept `GET` and `POST` requests in" },
  { fact: "legacy bodies: form-urlencoded POST bodies", file: "settings/how-to-call-rest-api/data-encoding.md", line: 217, says: "application/x-www-form-urlencoded" },
  { fact: "booleans are most often Y or N, sometimes 0/1 or true/false", file: "api-reference/data-types.md", line: 16, says: "Most often takes values `Y` or `N`" },
  { fact: "list parameters in lower case (tasks.task.list)", file: "api-reference/tasks/tasks-task-list.md", line: 114, says: "**select**" },
  { fact: "3.0 error codes carry the BITRIX_REST_V3_EXCEPTION_ prefix", file: "api-reference/rest-v3.md", line: 274, says: "Error codes start with the `BITRIX_REST_V3_EXCEPTION_` prefix" },
  { fact: "3.0 batch: a JSON array of {method, query}, without cmd", file: "api-reference/rest-v3.md", line: 428, says: "the request body is a JSON array at the root, without the `cmd` wrapper" },
  { fact: "3.0 tasks.task.get takes id (the spec: taskId)", file: "api-reference/tasks/tasks-task-get-rest-v3.md", line: 33, says: "**id***" },
];
